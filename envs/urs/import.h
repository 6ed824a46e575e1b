/* import.h - `trivium trace import`: raw taxi traces to a calibration table.
 *
 * Three importers, one per trace format (cabspotting for San Francisco, TLC
 * trip records for New York, data.gov.sg taxi availability for Singapore),
 * and the daily weather reader.  Each importer reads every file it is
 * given, counts what it cannot use by reason (with the first offending
 * file:line and text, in the table's report), and returns a finished
 * calibration table (caltable.h).  User errors (a missing file, a missing
 * column, a file with no usable rows) return NULL with TRV_ERROR_INPUT.
 * The rules each importer applies are stated in its file and in
 * docs/urs.md. */
#ifndef TRV_URS_IMPORT_H
#define TRV_URS_IMPORT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "urs/caltable.h"

typedef struct {
  const char *name;      /* sf | nyc | sg */
  const char *timezone;  /* how local time is obtained, written to the table */
  double lat_min, lat_max, lon_min, lon_max;
} TrvCity;

/* The city of a name, or NULL. */
const TrvCity *trv_city_find(const char *name);

#define TRV_IMPORT_MAX_SPEED_KMH 150.0
#define TRV_IMPORT_GPS_ERROR_KM 0.25
#define TRV_IMPORT_MAX_GAP_S 600
#define TRV_IMPORT_SG_MAX_INTERVAL_S 180
#define TRV_IMPORT_TLC_TRIPS_PER_MONTH 7.7e6

typedef struct {
  const TrvCity *city;
  double cell_km2;
  const char *zones_path;          /* tlc: taxi_zone_centroids.csv, NULL = beside the input */
  double scale_to_trips_per_month; /* tlc: the real volume a month of samples stands for */
} TrvImportOptions;

/* Files to read: each INPUT that is a directory contributes its files whose
 * names match the format (cabspotting: new_*.txt; tlc: *.csv other than the
 * taxi_zone_* tables; sg-availability: *.jsonl), sorted by name; a file is
 * taken as given.  Returns NULL with TRV_ERROR_INPUT when a path does not
 * exist or nothing matched.  Free with g_ptr_array_unref. */
GPtrArray *trv_import_list_inputs(const char *format, char **inputs, int n_inputs,
                                  GError **error);

TrvCalTable *trv_import_cabspotting(const TrvImportOptions *opt, GPtrArray *files,
                                    GError **error);
TrvCalTable *trv_import_tlc(const TrvImportOptions *opt, GPtrArray *files, GError **error);
TrvCalTable *trv_import_sg(const TrvImportOptions *opt, GPtrArray *files, GError **error);

/* Reads one daily weather CSV (NOAA GHCN temperature or precipitation, or
 * the MSS Changi daily table, recognised by their headers) and merges its
 * days into table->weather.  Values a station did not report stay NAN. */
bool trv_weather_attach(TrvCalTable *table, const char *path, GError **error);

/* ---- shared by the importers (import-common.c) -------------------------- */

/* Slot of the week (Monday 00:00 = 0) of a local wall-clock time. */
int trv_slot_of_week(int weekday_monday0, int hour, int minute);
/* Slot of the week of a local time given as seconds since 1970-01-01 00:00
 * local (i.e. unix time plus the UTC offset). */
int trv_slot_of_local_seconds(int64_t local_seconds);
/* UTC offset in seconds of US Pacific time at a unix time (PST -8 h, PDT
 * -7 h from the second Sunday of March 02:00 to the first Sunday of
 * November 02:00 local, the rule since 2007). */
int trv_us_pacific_offset(int64_t unix_time);
/* "YYYY-MM-DDTHH:MM:SS" of local seconds. */
char *trv_format_local(int64_t local_seconds);
/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
int64_t trv_days_from_civil(int year, int month, int day);

/* A whole file in memory, walked line by line. */
typedef struct {
  char *data;
  size_t len, pos;
  uint64_t line_no;
} TrvLineReader;

bool trv_line_reader_open(TrvLineReader *r, const char *path, GError **error);
/* Next line (without its newline, a trailing CR removed) or NULL at the end.
 * The line is NUL-terminated in place; *len is its length. */
char *trv_line_reader_next(TrvLineReader *r, size_t *len);
void trv_line_reader_close(TrvLineReader *r);

/* Error for a file none of whose rows was usable: names the file, the rows
 * read and the table's first rejection reasons. */
void trv_import_no_usable_rows(GError **error, const char *path, uint64_t rows_read,
                               const TrvCalTable *table);

#endif
