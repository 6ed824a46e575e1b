/* caltable.h - the URS calibration table: what `trivium trace import`
 * computes from raw taxi traces and what the URS world samples from.
 *
 * Contents: the city and the hexagonal zone grid; per-zone demand rates
 * (requests per hour) for each of the 672 15-minute slots of the week
 * (slot 0 = Monday 00:00-00:15 local time); the hours of data behind each
 * slot; a sparse origin-destination matrix of trip counts between cells;
 * trip-duration and trip-distance histograms; the import report (rows read,
 * used, rejected by reason with the first offending file:line and text,
 * named statistics); for NYC the TLC zones with their cells and pickups;
 * a per-day weather table.  The text format is documented in docs/urs.md
 * and versioned (TRV_CAL_FORMAT_VERSION).
 *
 * Invariants (kept by the builders, checked by the reader): every zone
 * appears once and lies in the grid's box; rates, exposures, counts are
 * finite and >= 0; slot indexes are in [0, 672); histograms have n_bins
 * >= 1 and the last bin holds everything at or beyond its lower edge. */
#ifndef TRV_URS_CALTABLE_H
#define TRV_URS_CALTABLE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "urs/hexgrid.h"

#define TRV_CAL_FORMAT_VERSION 1
#define TRV_SLOTS_PER_WEEK 672
#define TRV_SLOTS_PER_DAY 96

typedef struct {
  TrvHexCell cell;
  double rate[TRV_SLOTS_PER_WEEK]; /* requests per hour (counts until finish) */
} TrvZoneDemand;

typedef struct {
  int origin, destination; /* zone indexes */
  double count;
} TrvOdEntry;

typedef struct {
  double bin_width;
  int n_bins;
  double *counts; /* n_bins; the last bin is the overflow bin */
} TrvHistogram;

typedef struct {
  char *reason;
  uint64_t count;
  char *first_file;
  uint64_t first_line;
  char *first_text; /* the offending line, control characters replaced by '?' */
} TrvRejection;

typedef struct {
  char *name;
  double value;
} TrvStat;

typedef struct {
  int id;
  TrvHexCell cell;
  double lat, lon;
  uint64_t pickups, dropoffs;
  char *borough;
} TrvSourceZone;

typedef struct {
  int year, month, day;
  double rain_mm, tmax_c, tmin_c; /* NAN when the station did not report it */
} TrvWeatherDay;

typedef struct {
  int version;
  char *city;
  char *source;   /* cabspotting | tlc | sg-availability */
  char *timezone; /* how local time was obtained, for the reader of the file */
  char *period_start, *period_end; /* ISO local times of the first and last record */
  TrvHexGrid grid;
  double exposure_hours[TRV_SLOTS_PER_WEEK]; /* hours of data behind each slot */
  int filled_slots; /* slots with no data, filled from the same time of other days */
  GArray *zones;    /* TrvZoneDemand, in first-seen order */
  GHashTable *zone_index; /* cell key -> index + 1 */
  GArray *od;             /* TrvOdEntry, sorted by (origin, destination) when finished */
  GHashTable *od_index;   /* (origin << 32 | destination) -> index + 1 */
  TrvHistogram duration_s, distance_km;
  char *weather_station; /* "" when no weather was attached */
  GArray *weather;       /* TrvWeatherDay, sorted by date */
  /* import report */
  uint64_t files, rows_read, rows_used;
  GArray *rejections;    /* TrvRejection, in first-seen order */
  GArray *stats;         /* TrvStat, in first-set order */
  GArray *source_zones;  /* TrvSourceZone (NYC), sorted by id */
} TrvCalTable;

/* A new empty table (duration bins 60 s x 120, distance bins 0.5 km x 100,
 * each plus overflow).  Strings are copied.  Free with trv_cal_table_free. */
TrvCalTable *trv_cal_table_new(const char *city, const char *source, const TrvHexGrid *grid);
void trv_cal_table_free(TrvCalTable *table);

/* Index of the zone of a cell, created with zero rates if new. */
int trv_cal_table_zone(TrvCalTable *table, TrvHexCell cell);
/* Index of the zone of a cell or -1. */
int trv_cal_table_find_zone(const TrvCalTable *table, TrvHexCell cell);
void trv_cal_table_add_demand(TrvCalTable *table, TrvHexCell cell, int slot, double amount);
void trv_cal_table_add_od(TrvCalTable *table, TrvHexCell origin, TrvHexCell destination,
                          double count);
void trv_histogram_add(TrvHistogram *hist, double value, double weight);
double trv_histogram_total(const TrvHistogram *hist);
/* Quantile q in [0, 1] by linear interpolation inside a bin (the overflow
 * bin is treated as one bin wide). */
double trv_histogram_quantile(const TrvHistogram *hist, double q);

/* Import report.  The first rejection of a reason keeps file, line, text. */
void trv_cal_table_reject(TrvCalTable *table, const char *reason, const char *file,
                          uint64_t line, const char *text, size_t text_len);
const TrvRejection *trv_cal_table_rejection(const TrvCalTable *table, const char *reason);
uint64_t trv_cal_table_rejected(const TrvCalTable *table);
void trv_cal_table_set_stat(TrvCalTable *table, const char *name, double value);
/* Adds to a named statistic (created at 0). */
void trv_cal_table_add_stat(TrvCalTable *table, const char *name, double amount);
/* The value of a named statistic, or NAN. */
double trv_cal_table_stat(const TrvCalTable *table, const char *name);

/* Turns demand counts into rates: rate = count / exposure_hours[slot].
 * Slots without exposure get the exposure-weighted mean rate of the same
 * time of day over the days that have it (SG data covers one day); the
 * number of such slots is kept in filled_slots (trv_cal_table_fill_slots).  Sorts the OD matrix.
 * Call once, after the importer added every count. */
void trv_cal_table_finish(TrvCalTable *table);

/* Gives every slot without exposure the exposure-weighted mean rate of the
 * same time of day on the days that have it, rounded like every rate; sets
 * filled_slots.  Called by finish and by the reader (filled slots are not
 * written), so both compute the same doubles. */
void trv_cal_table_fill_slots(TrvCalTable *table);

/* Sum over zones of the rate of each slot (requests per hour, city-wide). */
void trv_cal_table_city_rate(const TrvCalTable *table, double out[TRV_SLOTS_PER_WEEK]);

/* Writes / reads the text format.  The reader validates every line and
 * fails with TRV_ERROR_INPUT and "FILE:LINE: what" on the first problem. */
bool trv_cal_table_write(const TrvCalTable *table, const char *path, GError **error);
char *trv_cal_table_to_string(const TrvCalTable *table);
TrvCalTable *trv_cal_table_read(const char *path, GError **error);
TrvCalTable *trv_cal_table_parse(const char *text, size_t len, const char *name,
                                 GError **error);
/* Field-by-field equality (doubles compared exactly). */
bool trv_cal_table_equal(const TrvCalTable *a, const TrvCalTable *b);

#endif
