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
 * a per-day weather table; the effects on zone demand of the time of day,
 * airports, weekends, rain and temperature estimated from the trace by a
 * Poisson regression (urs/effects.c), with their standard errors or the
 * reason they could not be estimated, and how far each moves when the
 * trace's days are resampled and, when the trace spans months, from month
 * to month (urs/effects-spread.c); the estimator that made them; the
 * SHA-256 of every input file.  The text format is documented in
 * docs/urs.md and versioned (TRV_CAL_FORMAT_VERSION; version 1 tables,
 * which hold no effects, and version 2 tables, whose effects have no
 * interval, still read).
 *
 * Invariants (kept by the builders, checked by the reader and, before a
 * byte is written, by the writer): every zone appears once and lies in the
 * grid's box; rates, exposures, counts are finite, >= 0 and below the
 * TRV_CAL_MAX_* bounds; slot indexes are in [0, 672); histograms have
 * n_bins >= 1 and the last bin holds everything at or beyond its lower
 * edge; every string is UTF-8 text without control characters (names come
 * from input data, so the writer refuses what the reader would refuse);
 * the table holds at most TRV_CAL_MAX_ZONES zones, TRV_CAL_MAX_OD OD pairs,
 * TRV_CAL_MAX_REASONS rejection reasons and TRV_CAL_MAX_STATS statistics. */
#ifndef TRV_URS_CALTABLE_H
#define TRV_URS_CALTABLE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "urs/hexgrid.h"

#define TRV_CAL_FORMAT_VERSION 3
#define TRV_SLOTS_PER_WEEK 672
#define TRV_SLOTS_PER_DAY 96

/* Bounds of a table, checked before anything is allocated for it.  A zone
 * costs 672 doubles (5.4 kB), so 100,000 zones are 540 MB: far above the
 * committed tables (at most 4,428 zones, 3.9 MB of text) and far below
 * what a hostile file could otherwise make the reader allocate. */
#define TRV_CAL_MAX_FILE_BYTES ((size_t)256 << 20)
#define TRV_CAL_MAX_ZONES 100000
#define TRV_CAL_MAX_OD 4000000
#define TRV_CAL_MAX_BINS 100000
#define TRV_CAL_MAX_REASONS 1000
#define TRV_CAL_MAX_STATS 1000
#define TRV_CAL_MAX_SOURCES 100000 /* input files hashed ([sources]); a directory of cab files is 516 */
#define TRV_CAL_MAX_TEXT 200       /* bytes of a rejection's quoted line */
#define TRV_CAL_MAX_RATE 1e12      /* requests per hour of one zone and slot */
#define TRV_CAL_MAX_EXPOSURE_H 1e6 /* hours behind one slot (a century is 1,300) */
#define TRV_CAL_MAX_COUNT 1e15     /* an OD or histogram count */
/* Dates a table may hold (weather days, the period's ends). */
#define TRV_CAL_YEAR_MIN 1900
#define TRV_CAL_YEAR_MAX 2100

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

/* The effects on log zone demand estimated at import (urs/effects.c), in
 * the order the table lists them.  Units: intercept, log requests per hour
 * of one zone; time_of_day, per standard deviation of the time-of-day band
 * index (trv_urs_time_of_day_index, the URS world's confounder 3);
 * airport, log ratio of a zone within TRV_URS_AIRPORT_KM of an airport to
 * another zone; weekend, log ratio of Saturday and Sunday to a weekday;
 * rain, per standard deviation of log(1 + mm) over the table's weather
 * days (the world's confounder 2); temperature, per standard deviation of
 * the daily mean temperature over the table's weather days. */
enum {
  TRV_EFFECT_INTERCEPT,
  TRV_EFFECT_TIME_OF_DAY,
  TRV_EFFECT_AIRPORT,
  TRV_EFFECT_WEEKEND,
  TRV_EFFECT_RAIN,
  TRV_EFFECT_TEMPERATURE,
  TRV_EFFECT_COUNT
};
extern const char *const trv_effect_names[TRV_EFFECT_COUNT];
#define TRV_CAL_MAX_EFFECT 100.0 /* |estimate| of a log-demand effect */
#define TRV_CAL_MAX_EFFECT_SE 1e6
#define TRV_URS_AIRPORT_KM 3.0 /* a zone this close to an airport is an airport zone */

/* How an effect's spread was measured (the [effects] method field). */
typedef enum {
  TRV_EFFECT_METHOD_NONE,      /* not identifiable: nothing estimated */
  TRV_EFFECT_METHOD_POISSON,   /* the fit alone: no interval (fewer than TRV_EFFECTS_BOOTSTRAP_MIN_DAYS days) */
  TRV_EFFECT_METHOD_BOOTSTRAP, /* the fit and a day-block bootstrap interval */
  TRV_EFFECT_METHOD_MONTHS,    /* the fit, the bootstrap interval and one fit per month */
  TRV_EFFECT_METHOD_COUNT
} TrvEffectMethod;
extern const char *const trv_effect_method_names[TRV_EFFECT_METHOD_COUNT];
#define TRV_CAL_MAX_RESAMPLES 100000
#define TRV_CAL_MAX_MONTHS 1200 /* a century of months */

typedef struct {
  bool estimated; /* false: not identifiable from this trace; estimate and se are NAN */
  double estimate, se;
  TrvEffectMethod method;
  int days;             /* local days behind the fit (0 when not estimated) */
  int resamples;        /* bootstrap fits that converged (0 without an interval) */
  double lo, hi;        /* percentile interval over the resamples; NAN without one */
  int months;           /* months fitted on their own (0: none) */
  double month_sd;      /* sd of the monthly estimates (n - 1); NAN without months */
  double month_min;     /* smallest and largest monthly estimate; NAN without months */
  double month_max;     /* */
  int months_same_sign; /* monthly estimates of the estimate's sign */
  char *note;           /* the unit, or why it is not identifiable: UTF-8 text, no control characters */
} TrvEffect;

/* An input file of the import ([sources]): its name (no directory), size
 * and SHA-256 (64 lower-case hex digits). */
typedef struct {
  char *name;
  uint64_t bytes;
  char sha256[65];
} TrvSource;

/* The estimator behind the effects ([estimator]): its version (bumped when
 * the same trace would give other numbers), the bootstrap's resample count
 * and seed, and the interval's level. */
#define TRV_EFFECTS_ESTIMATOR "poisson-log-link; day-block bootstrap, percentile interval; monthly refits"
#define TRV_EFFECTS_ESTIMATOR_VERSION 2
#define TRV_EFFECTS_BOOTSTRAP_RESAMPLES 1000
#define TRV_EFFECTS_BOOTSTRAP_SEED UINT64_C(20080518) /* fixed: the same trace gives the same table */
#define TRV_EFFECTS_BOOTSTRAP_LEVEL 0.95
#define TRV_CAL_MAX_DAYS 100000 /* local days behind an effect */
typedef struct {
  int version; /* 0: the table holds no [estimator] (format 1 and 2) */
  char *name;
  int resamples;
  uint64_t seed;
  double level;
} TrvEstimator;

/* The design of the effects fit, kept by the import for the spread of
 * its estimates (effects.c, effects-spread.c): the requests of the fit's
 * rows summed per local day, time-of-day band value and airport flag. */
#define TRV_EFFECTS_MAX_BANDS 24
typedef struct {
  int64_t day;                            /* local days since 1970-01-01 */
  int month;                              /* year * 12 + month - 1 */
  double weekend, rain, temp;             /* the day's covariates (as in the fit) */
  double count[TRV_EFFECTS_MAX_BANDS][2]; /* requests by band and airport flag */
  double hours[TRV_EFFECTS_MAX_BANDS];    /* exposure hours by band */
} TrvEffectsDay;
typedef struct {
  int p, cols[TRV_EFFECT_COUNT]; /* the fit's covariates (effect indexes), the intercept first */
  bool split;                    /* airport zones apart (else one row pooled over every zone) */
  double zones[2];               /* zones without and with the airport flag */
  int n_bands;
  double band_value[TRV_EFFECTS_MAX_BANDS]; /* the distinct time-of-day index values */
  int n_days;
  TrvEffectsDay *days; /* the fit's days, in order */
} TrvEffectsDesign;
typedef struct {
  int version;
  char *city;
  char *source;                    /* cabspotting | tlc | sg-availability */
  char *timezone;                  /* how local time was obtained, for the reader of the file */
  char *period_start, *period_end; /* ISO local times of the first and last record */
  TrvHexGrid grid;
  double exposure_hours[TRV_SLOTS_PER_WEEK]; /* hours of data behind each slot */
  int filled_slots;                          /* slots with no data, filled from the same time of other days */
  GArray *zones;                             /* TrvZoneDemand, in first-seen order */
  GHashTable *zone_index;                    /* cell key -> index + 1 */
  GArray *od;                                /* TrvOdEntry, sorted by (origin, destination) when finished */
  GHashTable *od_index;                      /* (origin << 32 | destination) -> index + 1 */
  TrvHistogram duration_s, distance_km;
  char *weather_station; /* "" when no weather was attached */
  GArray *weather;       /* TrvWeatherDay, sorted by date */
  /* import report */
  uint64_t files, rows_read, rows_used;
  GArray *rejections;   /* TrvRejection, in first-seen order */
  GArray *stats;        /* TrvStat, in first-set order */
  GArray *source_zones; /* TrvSourceZone (NYC), sorted by id */
  TrvEffect effects[TRV_EFFECT_COUNT];
  TrvEstimator estimator;
  GArray *sources; /* TrvSource, in the order the import read them */
  /* What the importers collect for the effect estimates (urs/effects.c);
   * not written: NULL until the first count. */
  GHashTable *fit_counts;       /* (local day, slot of the day, airport flag) -> count */
  GHashTable *fit_exposure;     /* (local day, slot of the day) -> hours */
  TrvEffectsDesign *fit_design; /* set by the estimate; NULL before */
  struct TrvTravel *travel;     /* travel times (caltable-travel.h), NULL when the table has none */
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
void trv_cal_table_add_od(TrvCalTable *table, TrvHexCell origin, TrvHexCell destination, double count);
void trv_histogram_add(TrvHistogram *hist, double value, double weight);
double trv_histogram_total(const TrvHistogram *hist);
/* Quantile q in [0, 1] by linear interpolation inside a bin (the overflow
 * bin is treated as one bin wide). */
double trv_histogram_quantile(const TrvHistogram *hist, double q);

/* Import report.  The first rejection of a reason keeps file, line, text. */
void trv_cal_table_reject(TrvCalTable *table, const char *reason, const char *file, uint64_t line, const char *text,
                          size_t text_len);
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

/* A copy of the first len bytes of s that is UTF-8 text: each byte that
 * does not start a valid UTF-8 character and each control character
 * becomes '?'; the copy stops before max_out bytes would be exceeded, on a
 * character boundary.  For quoting input data in the table and in
 * messages.  Free with g_free. */
char *trv_cal_text(const char *s, size_t len, size_t max_out);

/* A rate rounded to the 6 significant digits the text format keeps (done
 * when rates are computed and when they are read, so that a table read
 * back equals the one written). */
double trv_cal_round_rate(double rate);

/* Sum over zones of the rate of each slot (requests per hour, city-wide). */
void trv_cal_table_city_rate(const TrvCalTable *table, double out[TRV_SLOTS_PER_WEEK]);

/* Writes / reads the text format.  The reader validates every line and
 * fails with TRV_ERROR_INPUT and "FILE:LINE: what was found; what was
 * expected" on the first problem.  The writer first checks the table
 * (trv_cal_table_check) and that its text reads back, and refuses with
 * TRV_ERROR_INPUT (the strings come from input data) before creating the
 * file; a failed write is TRV_ERROR_IO. */
bool trv_cal_table_write(const TrvCalTable *table, const char *path, GError **error);
char *trv_cal_table_to_string(const TrvCalTable *table);
TrvCalTable *trv_cal_table_read(const char *path, GError **error);
TrvCalTable *trv_cal_table_parse(const char *text, size_t len, const char *name, GError **error);
/* The checks the writer makes: every string UTF-8 text without control
 * characters, names that cannot be read as comments or sections, counts
 * within the TRV_CAL_MAX_* bounds.  The message names the field. */
bool trv_cal_table_check(const TrvCalTable *table, GError **error);

/* ---- shared by the effect estimates and the URS world (caleffects.c) ---- */

/* The time-of-day band index of an hour of the day (night, morning peak,
 * midday, evening peak, late evening), standardized over the 24 hours. */
double trv_urs_time_of_day_index(int hour);
/* The airports of a city (sf, nyc, sg) as {lat, lon}; returns how many
 * (0 for another city) and points *coords at them. */
int trv_urs_city_airports(const char *city, const double (**coords)[2]);
/* true when the centre of the cell lies within TRV_URS_AIRPORT_KM of one
 * of the table's city's airports. */
bool trv_cal_table_airport_cell(const TrvCalTable *table, TrvHexCell cell);
/* Mean and standard deviation (over days) of log(1 + rain mm) and of the
 * daily mean temperature over the table's weather days that report them;
 * sd 0 when fewer than two days do. */
void trv_cal_weather_index(const TrvCalTable *table, double *rain_mean, double *rain_sd, double *temp_mean,
                           double *temp_sd);
/* Sets an effect (copying the note), with no interval and no months
 * (method poisson when estimated, none otherwise). */
void trv_cal_table_set_effect(TrvCalTable *table, int which, bool estimated, double estimate, double se,
                              const char *note);
/* Records an input file: its name without the directory (quoted as
 * trv_cal_text quotes), size and the SHA-256 of its bytes. */
void trv_cal_table_add_source(TrvCalTable *table, const char *path, const char *data, size_t len);

/* The grounding rule (docs/urs.md, "Truth grounded in the city's data"):
 * true when the effect is estimated, its bootstrap interval excludes 0 on
 * the side of the estimate and, when months were fitted, at least 5/6 of
 * them (10 of 12) have the estimate's sign.  Else false, and *why (when
 * not NULL) says which condition failed (a static string). */
#define TRV_EFFECTS_SIGN_SHARE_NUM 5
#define TRV_EFFECTS_SIGN_SHARE_DEN 6
bool trv_cal_effect_robust(const TrvEffect *effect, const char **why);
/* The effects' part of the writer, checker, reader and equality. */
void trv_cal_effects_write(const TrvCalTable *table, GString *s);
bool trv_cal_effects_check(const TrvCalTable *table, GError **error);
/* The fields of an [effects] row in a table of format version 2 (5) and
 * 3 (15). */
#define TRV_CAL_EFFECT_FIELDS_V2 5
#define TRV_CAL_EFFECT_FIELDS 15
/* Parses one [effects] row (TAB-split fields, as many as its version has)
 * as row `row`; NULL if it is fine, else the message (to be freed). */
char *trv_cal_effect_parse(TrvCalTable *table, int version, int row, char **fields);
/* The [sources] and [estimator] sections: writer, parser of one line
 * (NULL if fine, else the message), checks when the section ends. */
void trv_cal_sources_write(const TrvCalTable *table, GString *s);
char *trv_cal_source_parse(TrvCalTable *table, char **fields);
void trv_cal_estimator_write(const TrvCalTable *table, GString *s);
char *trv_cal_estimator_parse(TrvCalTable *table, const char *line, unsigned *seen);
char *trv_cal_estimator_close(const TrvCalTable *table, unsigned seen);
bool trv_cal_effects_equal(const TrvCalTable *a, const TrvCalTable *b);

/* Field-by-field equality (doubles compared exactly). */
bool trv_cal_table_equal(const TrvCalTable *a, const TrvCalTable *b);

/* Appends x as the shortest of %.15g, %.16g, %.17g that reads back as the
 * same double, or NA for NaN: how a table writes its numbers. */
void trv_caltable_put_double(GString *s, double x);

#endif
