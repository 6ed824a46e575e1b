/* import.h - `trivium trace import`: raw taxi traces to a calibration table.
 *
 * Three importers, one per trace format (cabspotting for San Francisco, TLC
 * trip records for New York, data.gov.sg taxi availability for Singapore),
 * and the daily weather reader.  Each importer reads every file it is
 * given, counts what it cannot use by reason (with the first offending
 * file:line and text, in the table's report), and returns a finished
 * calibration table (caltable.h).  User errors (a missing file, a missing
 * column, a file with no usable rows, a truncated file, a file over its
 * size limit) return NULL with TRV_ERROR_INPUT and a message naming the
 * file and line.  The rules each importer applies are stated in its file
 * and in docs/urs.md.
 *
 * Every input is hostile until checked: each file is read with a size
 * limit checked before it is read (TRV_IMPORT_MAX_*_BYTES), must end with
 * a newline (a file cut inside its last line is refused, as a truncated
 * file), and every count is checked before anything is allocated for it;
 * times must fall in [TRV_IMPORT_TIME_MIN, TRV_IMPORT_TIME_MAX). */
#ifndef TRV_URS_IMPORT_H
#define TRV_URS_IMPORT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "urs/caltable.h"

typedef struct {
  const char *name;     /* sf | nyc | sg */
  const char *timezone; /* how local time is obtained, written to the table */
  double lat_min, lat_max, lon_min, lon_max;
} TrvCity;

/* The city of a name, or NULL. */
const TrvCity *trv_city_find(const char *name);

#define TRV_IMPORT_MAX_SPEED_KMH 150.0
#define TRV_IMPORT_GPS_ERROR_KM 0.25
#define TRV_IMPORT_MAX_GAP_S 600
#define TRV_IMPORT_SG_MAX_INTERVAL_S 180
#define TRV_IMPORT_TLC_TRIPS_PER_MONTH 7.7e6
#define TRV_IMPORT_TLC_TRIPS_PER_MONTH_YEAR 2019 /* the year of that volume */
#define TRV_IMPORT_TLC_MAX_TRIPS_PER_MONTH 1e9   /* --scale-to-trips-per-month */

/* Limits.  A trace file may hold a whole month of real TLC trips (about
 * 650 MB) or a week of Singapore snapshots (about 420 MB); the tables
 * beside it are small.  Times: unix time 2000-01-01 to 2100-01-01 (UTC);
 * a fix or trip outside is a bad timestamp (a truncated "1211094000"
 * reads as 1970, a corrupted one as the year 5000). */
#define TRV_IMPORT_MAX_TRACE_BYTES ((size_t)1 << 30)
#define TRV_IMPORT_MAX_ZONE_TABLE_BYTES ((size_t)1 << 20)
#define TRV_IMPORT_MAX_WEATHER_BYTES ((size_t)16 << 20)
#define TRV_IMPORT_SG_MAX_LINE_BYTES ((size_t)8 << 20) /* the real ones: 67 kB */
#define TRV_IMPORT_SG_MAX_JSON_DEPTH 16                /* the real ones: 4 */
#define TRV_IMPORT_SG_MAX_POINTS 500000000ull          /* 4 GB of cell keys */
#define TRV_IMPORT_TLC_MAX_TRIPS 100000000ull          /* 4 GB of trips: 13 months of real volume */
#define TRV_IMPORT_TIME_MIN INT64_C(946684800)         /* 2000-01-01T00:00:00Z */
#define TRV_IMPORT_TIME_MAX INT64_C(4102444800)        /* 2100-01-01T00:00:00Z */
#define TRV_IMPORT_TLC_MAX_TRIP_S 86400                /* a trip over a day is a clock error */
#define TRV_IMPORT_TLC_MAX_TRIP_MILES 1000.0

/* One input of an importer: the file `name`, or (data != NULL) len bytes
 * already in memory that messages and reports call `name` (tests and the
 * fuzz harnesses use those). */
typedef struct {
  const char *name;
  const char *data;
  size_t len;
} TrvImportInput;

typedef struct {
  const TrvCity *city;
  double cell_km2;
  const char *zones_path;          /* tlc: taxi_zone_centroids.csv, NULL = beside the input */
  double scale_to_trips_per_month; /* tlc: the real volume a month of samples stands for */
  int scale_year;                  /* tlc: the year of that volume, 0 when not known */
  const TrvImportInput *zones;     /* tlc: the zone table in memory (instead of zones_path) */
  GPtrArray *warnings;             /* warnings are added here (char *, g_free) when not NULL */
} TrvImportOptions;

/* Files to read: each INPUT that is a directory contributes its files whose
 * names match the format (cabspotting: new_*.txt; tlc: *.csv other than the
 * taxi_zone_* tables; sg-availability: *.jsonl), sorted by name; a file is
 * taken as given.  Returns NULL with TRV_ERROR_INPUT when a path does not
 * exist or nothing matched.  Free with g_ptr_array_unref. */
GPtrArray *trv_import_list_inputs(const char *format, char **inputs, int n_inputs, GError **error);

/* The importers, on files (paths) or on inputs (files or bytes). */
TrvCalTable *trv_import_cabspotting(const TrvImportOptions *opt, GPtrArray *files, GError **error);
TrvCalTable *trv_import_tlc(const TrvImportOptions *opt, GPtrArray *files, GError **error);
TrvCalTable *trv_import_sg(const TrvImportOptions *opt, GPtrArray *files, GError **error);
TrvCalTable *trv_import_cabspotting_inputs(const TrvImportOptions *opt, const TrvImportInput *in, size_t n,
                                           GError **error);
TrvCalTable *trv_import_tlc_inputs(const TrvImportOptions *opt, const TrvImportInput *in, size_t n, GError **error);
TrvCalTable *trv_import_sg_inputs(const TrvImportOptions *opt, const TrvImportInput *in, size_t n, GError **error);

/* The TLC zone centroid table (LocationID, Borough, Latitude, Longitude by
 * name): zone ids 1..TRV_TLC_MAX_ZONE_ID, each once.  Any malformed row is
 * an error naming FILE:LINE (import-tlc-zones.c). */
#define TRV_TLC_MAX_ZONE_ID 1000
typedef struct {
  bool known;
  double lat, lon;
  TrvHexCell cell;
  char *borough;
  uint64_t line; /* where the row was read */
} TrvTlcZone;
/* Reads the table into zones[0..TRV_TLC_MAX_ZONE_ID] (zeroed by the
 * caller; boroughs to be freed with trv_tlc_zones_clear); cells on grid. */
bool trv_tlc_zones_read(const TrvImportInput *in, const TrvHexGrid *grid, TrvTlcZone *zones, int *n_zones,
                        GError **error);
void trv_tlc_zones_clear(TrvTlcZone *zones);

/* Reads one daily weather CSV (NOAA GHCN temperature or precipitation, or
 * the MSS Changi daily table, recognised by their headers) and merges its
 * days into table->weather.  Values a station did not report stay NAN;
 * anything else that is not a number in its physical range, a repeated
 * date or a malformed row is an error naming FILE:LINE, and the table is
 * left as it was (rows are merged only once the whole file is read). */
bool trv_weather_attach(TrvCalTable *table, const char *path, GError **error);
bool trv_weather_attach_input(TrvCalTable *table, const TrvImportInput *in, GError **error);

/* Days of the trace's period (the local dates from period_start to
 * period_end; an end at 00:00:00 is exclusive, as TLC's month ends) and
 * how many of them have no weather row.  Both 0 for a table without a
 * period. */
void trv_import_weather_coverage(const TrvCalTable *table, int *n_days, int *uncovered);
/* Adds a warning when the table's weather does not cover every day of
 * its trace (the world then uses it as climatology: docs/urs.md). */
void trv_import_check_weather(const TrvCalTable *table, GPtrArray *warnings);

/* ---- shared by the importers (import-common.c) -------------------------- */

/* The effects on zone demand (effects.c).  The importers report every
 * request they count with its cell and local time (count: requests of the
 * trace, not rates or scaled volumes, so that Poisson errors hold) and the
 * hours of data behind each 15-minute slot of each local day (for a
 * sample, the hours times the sampling fraction); trv_effects_estimate,
 * called once the weather is attached, fits the Poisson regression and
 * sets table->effects and the effects_* statistics. */
#define TRV_EFFECTS_MIN_DAYS 28
void trv_effects_add_demand(TrvCalTable *table, TrvHexCell cell, int64_t local_seconds, double count);
void trv_effects_add_exposure(TrvCalTable *table, int64_t local_seconds, double hours);
void trv_effects_estimate(TrvCalTable *table);

/* How far each estimate moves with the days behind it (effects-spread.c).
 * The requests of the fit's rows summed per local day, time-of-day band
 * value and airport flag (the day's covariates are constant within it, so
 * the sums are Poisson with the same coefficients): the data a day-block
 * resample draws whole days of (TrvEffectsDesign, caltable.h). */
#define TRV_EFFECTS_BOOTSTRAP_MIN_DAYS 7     /* a day-block interval needs a week: each weekday once */
#define TRV_EFFECTS_MONTH_MIN_DAYS 28        /* a month is fitted alone when it has this many days of the fit */
#define TRV_EFFECTS_BOOTSTRAP_MIN_SHARE 0.95 /* of the resamples must fit, else no interval */
/* The band of an hour in the design (its index among band_value). */
int trv_effects_band(const TrvEffectsDesign *design, int hour);
/* Fits the design on the days pick[0..n-1] (repeats allowed: a day drawn
 * twice counts twice).  Rows are pooled over days when no day-level
 * covariate is in the fit.  beta[c] is the coefficient of cols[c]; false
 * when the fit fails (singular, no convergence). */
bool trv_effects_fit_days(const TrvEffectsDesign *design, const int *pick, int n, double beta[TRV_EFFECT_COUNT]);
/* Sets the spread of every effect of the fit: days, the day-block
 * bootstrap interval (TRV_EFFECTS_BOOTSTRAP_RESAMPLES resamples of
 * n_days days drawn with replacement, seeded with
 * TRV_EFFECTS_BOOTSTRAP_SEED; the TRV_EFFECTS_BOOTSTRAP_LEVEL percentile
 * interval, linear between order statistics) when the fit has at least
 * TRV_EFFECTS_BOOTSTRAP_MIN_DAYS days, and the monthly fits when at least
 * two calendar months hold TRV_EFFECTS_MONTH_MIN_DAYS days of the fit. */
void trv_effects_spread(TrvCalTable *table, const TrvEffectsDesign *design);
/* The q-quantile (0..1) of n sorted values, linear between order
 * statistics (the definition of R's type 7). */
double trv_effects_quantile(const double *sorted, int n, double q);

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

/* Reads an input of at most max_bytes (`what` names its kind in messages,
 * e.g. "cabspotting trace") and checks that it ends with a newline: a file
 * whose last line has none was cut, and is refused with FILE:LINE.  An
 * empty file is fine (no lines). */
bool trv_line_reader_open(TrvLineReader *r, const TrvImportInput *in, size_t max_bytes, const char *what,
                          GError **error);
/* Next line (without its newline, a trailing CR removed) or NULL at the end.
 * The line is NUL-terminated in place; *len is its length.  A line may hold
 * NUL bytes (strlen(line) < *len then): see trv_line_is_text. */
char *trv_line_reader_next(TrvLineReader *r, size_t *len);
void trv_line_reader_close(TrvLineReader *r);
/* True when a line holds no NUL byte (binary garbage is never a row). */
bool trv_line_is_text(const char *line, size_t len);

/* False with TRV_ERROR_INPUT (naming the file being read) once the table
 * holds more zones or OD pairs than a calibration table may
 * (TRV_CAL_MAX_ZONES, TRV_CAL_MAX_OD): each zone costs 5.4 kB, so the
 * importers check while they add, not after. */
bool trv_import_check_zone_count(const TrvCalTable *table, const char *path, GError **error);

/* CSV: splits a line in place into at most max fields (double quotes
 * around a field removed, quoted commas and "" kept).  Returns the field
 * count, or -1 when the line has more than max fields (field[] then holds
 * max of them, not to be used). */
int trv_csv_split(char *line, char **field, int max);
/* Index of the header column named a or b (ASCII case-insensitive,
 * surrounding spaces ignored; names are stripped in place), or -1. */
int trv_csv_column(char **names, int n, const char *a, const char *b);
/* The line past a UTF-8 byte order mark (spreadsheets write one). */
char *trv_csv_skip_bom(char *line);

/* Inputs naming the files (paths) of an array; free with g_free. */
TrvImportInput *trv_import_inputs_of_files(GPtrArray *files);

/* Adds one warning line (printf format) to warnings, unless NULL. */
void trv_import_warn(GPtrArray *warnings, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* Error for a file none of whose rows was usable: names the file, the rows
 * read and the table's first rejection reasons. */
void trv_import_no_usable_rows(GError **error, const char *path, uint64_t rows_read, const TrvCalTable *table);

#endif
