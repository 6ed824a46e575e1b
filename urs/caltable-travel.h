/* caltable-travel.h - the travel times of a URS calibration table: how
 * long a taxi takes from one zone to another at each band of the day
 * (docs/urs.md, "Travel times").
 *
 * What the table holds, per band of the day (TRV_TRAVEL_BANDS): a distance
 * model `minutes = a + b x km` between the cells' centres, fitted by least
 * squares on the trips of the band (a, b >= 0), and the prior weight k (in
 * trips) with which a pair's mean is shrunk toward it; per origin zone,
 * destination zone and band with trips: their count n and mean minutes.
 * The estimate of a pair is (n mean + k model) / (n + k); a pair without
 * trips takes the model.  A table whose travel times come from no trips
 * (Singapore) says so: source `synthetic`, with the assumed speed as the
 * model and no pairs.  Tables written before travel times existed have
 * none (table->travel NULL): the world then counts hops.
 *
 * Invariants (built here, checked by the reader and the writer): bands in
 * order, each once; a in [0, TRV_TRAVEL_MAX_MIN], b in [0,
 * TRV_TRAVEL_MAX_MIN_PER_KM], k in [0, TRV_TRAVEL_MAX_PRIOR]; pairs
 * strictly increasing by (origin, destination, band), of existing zones,
 * n a whole number >= 1, mean in [TRV_TRAVEL_MIN_TRIP_S / 60,
 * TRV_TRAVEL_MAX_TRIP_S / 60]; at most TRV_CAL_MAX_OD x TRV_TRAVEL_BANDS
 * pairs, counted before each is added. */
#ifndef TRV_URS_CALTABLE_TRAVEL_H
#define TRV_URS_CALTABLE_TRAVEL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "urs/caltable.h"

#define TRV_TRAVEL_BANDS 5
#define TRV_TRAVEL_MIN_TRIP_S 60.0            /* a shorter trip is a meter error or a cancelled ride */
#define TRV_TRAVEL_MAX_TRIP_S 10800.0         /* 3 h: a longer one is a meter left running */
#define TRV_TRAVEL_MAX_KMH 100.0              /* straight-line speed between the ends: a faster trip is misplaced */
#define TRV_TRAVEL_MAX_MIN 180.0              /* the bound of a and of a pair's mean (minutes) */
#define TRV_TRAVEL_MAX_MIN_PER_KM 60.0        /* 1 km/h */
#define TRV_TRAVEL_MAX_PRIOR 1e6              /* trips */
#define TRV_TRAVEL_SYNTHETIC_KMH 24.0         /* Singapore: assumed taxi speed (no trips observed) */
#define TRV_TRAVEL_SYNTHETIC_ROUTE_FACTOR 1.3 /* road over straight-line distance, assumed */

typedef struct {
  int origin, destination, band; /* zone indexes, band of the day */
  double trips, mean_min;
} TrvTravelPair;

typedef struct TrvTravel {
  char *source; /* "trips" or "synthetic" */
  double a[TRV_TRAVEL_BANDS], b[TRV_TRAVEL_BANDS], prior[TRV_TRAVEL_BANDS];
  double band_trips[TRV_TRAVEL_BANDS]; /* trips behind each band's fit */
  GArray *pairs;                       /* TrvTravelPair, increasing (origin, destination, band) */
  /* while importing: the trips kept (not written) */
  GArray *raw;
} TrvTravel;

/* The band of the day of an hour (0-23): night 0-6, morning peak 6-10,
 * midday 10-16, evening peak 16-20, evening 20-24. */
int trv_travel_band_of_hour(int hour);
extern const char *const trv_travel_band_names[TRV_TRAVEL_BANDS];

/* ---- at import ------------------------------------------------------- */

/* Offers one trip (cells of its ends, local pickup time, duration in
 * seconds) to the table's travel times.  A trip shorter than
 * TRV_TRAVEL_MIN_TRIP_S, longer than TRV_TRAVEL_MAX_TRIP_S, not finite, or
 * faster than TRV_TRAVEL_MAX_KMH between its ends' centres is left out and
 * counted in the statistic travel_left_out_<why>. */
void trv_travel_add_trip(TrvCalTable *t, TrvHexCell origin, TrvHexCell destination, int64_t local_seconds,
                         double duration_s);
/* Fits the travel times of the trips offered (after the importer added the
 * OD matrix: the ends' zones exist) and adds a warning with the counts of
 * the trips left out.  A table offered no trip gets none. */
void trv_travel_finish(TrvCalTable *t, GPtrArray *warnings);
/* Synthetic travel times (no trips): minutes = route factor x km / speed. */
void trv_travel_set_synthetic(TrvCalTable *t, double kmh, double route_factor);

/* ---- the model ------------------------------------------------------- */

/* Distance in km between the centres of two cells of the table's grid. */
double trv_travel_km(const TrvCalTable *t, TrvHexCell a, TrvHexCell b);
/* The estimate in minutes of a pair with n trips of mean `mean` (n = 0:
 * the model alone) at distance km in band. */
double trv_travel_estimate(const TrvTravel *tr, int band, double km, double n, double mean);

/* ---- the [travel] section (called by caltable.c and caltable-read.c) -- */

void trv_travel_free(TrvTravel *tr);
void trv_travel_write(const TrvCalTable *t, GString *s);
bool trv_travel_check(const TrvCalTable *t, GError **error);
bool trv_travel_equal(const TrvCalTable *a, const TrvCalTable *b);
/* One line of the section (NUL-terminated, no newline); NULL if fine, else
 * the message (to be freed).  *row counts the lines read. */
char *trv_travel_parse_line(TrvCalTable *t, char *line, int *row);
/* When the section ends: NULL if it is complete, else the message. */
char *trv_travel_close(const TrvCalTable *t, int row);

#endif
