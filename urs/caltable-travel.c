/* caltable-travel.c - travel times between zones by band of the day: their
 * estimate from a trace's trips at import, the [travel] section of the
 * calibration table (writer, checks, reader, equality), and the estimate
 * the URS world reads (caltable-travel.h; docs/urs.md, "Travel times").
 *
 * Estimate.  For each band, a least-squares line minutes = a + b km over
 * the band's trips, km the distance between the centres of the cells of
 * the pickup and the drop-off (a < 0 refits b through the origin, b < 0
 * keeps the mean).  Each origin-destination pair of zones and band keeps
 * its trips n and mean minutes; the world shrinks the mean toward the line
 * with weight k: (n mean + k line) / (n + k).  k is the ratio of the
 * within-pair variance of a trip's minutes to the variance of the pairs'
 * true means about the line, both estimated by moments on the band's
 * trips (an empirical-Bayes normal model): a pair with k trips is trusted
 * as much as the line.  Trips that cannot be a taxi ride between those
 * ends are left out before anything is fitted and counted by reason in
 * the statistics (travel_left_out_*), with one warning line.
 *
 * Section.  `source=trips|synthetic`, then TRV_TRAVEL_BANDS rows `band
 * TAB i TAB a TAB b TAB k TAB trips` in order, then rows `pair TAB origin
 * TAB destination TAB band TAB trips TAB mean_minutes` strictly
 * increasing.  Numbers are written with as many digits as read back
 * exactly; the reader checks every bound of caltable-travel.h. */
#include <config.h>

#include "urs/caltable-travel.h"
#include "core/decimal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"

const char *const trv_travel_band_names[TRV_TRAVEL_BANDS] = {"night", "morning", "midday", "evening-peak", "evening"};

int trv_travel_band_of_hour(int hour) {
  hour = ((hour % 24) + 24) % 24;
  return hour < 6 ? 0 : hour < 10 ? 1 : hour < 16 ? 2 : hour < 20 ? 3 : 4;
}

typedef struct {
  TrvHexCell origin, destination;
  int band;
  double minutes, km;
  int o, d; /* zone indexes, at finish */
} RawTrip;

static TrvTravel *travel_new(const char *source) {
  TrvTravel *tr = g_new0(TrvTravel, 1);
  tr->source = g_strdup(source);
  tr->pairs = g_array_new(FALSE, FALSE, sizeof(TrvTravelPair));
  return tr;
}

void trv_travel_free(TrvTravel *tr) {
  if (!tr) return;
  g_free(tr->source);
  g_array_free(tr->pairs, TRUE);
  if (tr->raw) g_array_free(tr->raw, TRUE);
  g_free(tr);
}

double trv_travel_km(const TrvCalTable *t, TrvHexCell a, TrvHexCell b) {
  double ax, ay, bx, by;
  trv_hex_cell_center_xy(&t->grid, a, &ax, &ay);
  trv_hex_cell_center_xy(&t->grid, b, &bx, &by);
  return hypot(ax - bx, ay - by);
}

double trv_travel_estimate(const TrvTravel *tr, int band, double km, double n, double mean) {
  double line = tr->a[band] + tr->b[band] * km;
  if (!(n > 0)) return line;
  return (n * mean + tr->prior[band] * line) / (n + tr->prior[band]);
}

/* ---- at import --------------------------------------------------------- */

void trv_travel_add_trip(TrvCalTable *t, TrvHexCell origin, TrvHexCell destination, int64_t local_seconds,
                         double duration_s) {
  if (!t->travel) {
    t->travel = travel_new("trips");
    t->travel->raw = g_array_new(FALSE, FALSE, sizeof(RawTrip));
    /* every reason is reported, zeros included, in one order */
    trv_cal_table_set_stat(t, "travel_left_out_under_60s", 0);
    trv_cal_table_set_stat(t, "travel_left_out_over_3h", 0);
    trv_cal_table_set_stat(t, "travel_left_out_over_100kmh", 0);
  }
  double km = trv_travel_km(t, origin, destination);
  const char *why = NULL;
  if (!(duration_s >= TRV_TRAVEL_MIN_TRIP_S))
    why = "travel_left_out_under_60s";
  else if (!(duration_s <= TRV_TRAVEL_MAX_TRIP_S))
    why = "travel_left_out_over_3h";
  else if (km / (duration_s / 3600.0) > TRV_TRAVEL_MAX_KMH)
    why = "travel_left_out_over_100kmh";
  if (why) {
    trv_cal_table_add_stat(t, why, 1);
    return;
  }
  int64_t day_s = ((local_seconds % 86400) + 86400) % 86400;
  RawTrip r = {origin, destination, trv_travel_band_of_hour((int)(day_s / 3600)), duration_s / 60.0, km, -1, -1};
  g_array_append_val(t->travel->raw, r);
}

static int raw_compare(gconstpointer pa, gconstpointer pb) {
  const RawTrip *a = pa, *b = pb;
  if (a->o != b->o) return a->o < b->o ? -1 : 1;
  if (a->d != b->d) return a->d < b->d ? -1 : 1;
  if (a->band != b->band) return a->band < b->band ? -1 : 1;
  return (a->minutes > b->minutes) - (a->minutes < b->minutes);
}

/* The least-squares line of one band, within the section's bounds. */
static void fit_line(const RawTrip *r, guint n, int band, double *a, double *b, double *count) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;
  for (guint i = 0; i < n; i++) {
    if (r[i].band != band) continue;
    m++, sx += r[i].km, sy += r[i].minutes, sxx += r[i].km * r[i].km, sxy += r[i].km * r[i].minutes;
  }
  *count = m;
  *a = *b = 0;
  if (m == 0) return;
  double vx = sxx - sx * sx / m;
  *b = vx > 0 ? (sxy - sx * sy / m) / vx : 0;
  *a = sy / m - *b * sx / m;
  if (*a < 0) *a = 0, *b = sxx > 0 ? sxy / sxx : 0; /* through the origin */
  if (*b < 0) *b = 0, *a = sy / m;
  *a = fmin(*a, TRV_TRAVEL_MAX_MIN);
  *b = fmin(*b, TRV_TRAVEL_MAX_MIN_PER_KM);
}

void trv_travel_finish(TrvCalTable *t, GPtrArray *warnings) {
  TrvTravel *tr = t->travel;
  if (!tr || !tr->raw) return;
  RawTrip *r = (RawTrip *)(void *)tr->raw->data;
  guint n = tr->raw->len, kept = 0;
  for (guint i = 0; i < n; i++) {
    r[i].o = trv_cal_table_find_zone(t, r[i].origin);
    r[i].d = trv_cal_table_find_zone(t, r[i].destination);
    if (r[i].o >= 0 && r[i].d >= 0) r[kept++] = r[i]; /* the importers add the OD pair of every trip they offer */
  }
  n = kept;
  if (n > 1) qsort(r, n, sizeof *r, raw_compare); /* an empty array has no data */
  for (int band = 0; band < TRV_TRAVEL_BANDS; band++)
    fit_line(r, n, band, &tr->a[band], &tr->b[band], &tr->band_trips[band]);
  /* pairs, and the moments of the shrinkage weight per band */
  double within[TRV_TRAVEL_BANDS] = {0}, within_df[TRV_TRAVEL_BANDS] = {0};
  for (guint i = 0; i < n;) {
    guint j = i;
    double sum = 0;
    while (j < n && r[j].o == r[i].o && r[j].d == r[i].d && r[j].band == r[i].band) sum += r[j++].minutes;
    double m = (double)(j - i), mean = sum / m;
    for (guint k = i; k < j; k++) within[r[i].band] += (r[k].minutes - mean) * (r[k].minutes - mean);
    within_df[r[i].band] += m - 1;
    TrvTravelPair p = {r[i].o, r[i].d, r[i].band, m, mean};
    g_array_append_val(tr->pairs, p);
    i = j;
  }
  double between[TRV_TRAVEL_BANDS] = {0}, pairs[TRV_TRAVEL_BANDS] = {0};
  for (int band = 0; band < TRV_TRAVEL_BANDS; band++)
    within[band] = within_df[band] > 0 ? within[band] / within_df[band] : 0;
  for (guint i = 0; i < tr->pairs->len; i++) {
    const TrvTravelPair *p = &g_array_index(tr->pairs, TrvTravelPair, i);
    const TrvZoneDemand *zo = &g_array_index(t->zones, TrvZoneDemand, p->origin);
    const TrvZoneDemand *zd = &g_array_index(t->zones, TrvZoneDemand, p->destination);
    double res = p->mean_min - trv_travel_estimate(tr, p->band, trv_travel_km(t, zo->cell, zd->cell), 0, 0);
    between[p->band] += res * res - within[p->band] / p->trips;
    pairs[p->band]++;
  }
  for (int band = 0; band < TRV_TRAVEL_BANDS; band++) {
    double tau2 = pairs[band] > 0 ? between[band] / pairs[band] : 0;
    tr->prior[band] = tau2 > 0 ? fmin(within[band] / tau2, TRV_TRAVEL_MAX_PRIOR) : TRV_TRAVEL_MAX_PRIOR;
  }
  g_array_free(tr->raw, TRUE);
  tr->raw = NULL;
  double out[3] = {trv_cal_table_stat(t, "travel_left_out_under_60s"), trv_cal_table_stat(t, "travel_left_out_over_3h"),
                   trv_cal_table_stat(t, "travel_left_out_over_100kmh")};
  trv_cal_table_set_stat(t, "travel_trips", (double)n);
  if (warnings && out[0] + out[1] + out[2] > 0)
    g_ptr_array_add(
        warnings,
        g_strdup_printf("travel times: %.0f of %.0f trips left out: %.0f under %.0f s, %.0f over %.0f h, %.0f faster "
                        "than %.0f km/h between their ends",
                        out[0] + out[1] + out[2], out[0] + out[1] + out[2] + n, out[0], TRV_TRAVEL_MIN_TRIP_S, out[1],
                        TRV_TRAVEL_MAX_TRIP_S / 3600, out[2], TRV_TRAVEL_MAX_KMH));
}

void trv_travel_set_synthetic(TrvCalTable *t, double kmh, double route_factor) {
  trv_travel_free(t->travel);
  t->travel = travel_new("synthetic");
  for (int band = 0; band < TRV_TRAVEL_BANDS; band++) {
    t->travel->a[band] = 0;
    t->travel->b[band] = 60.0 * route_factor / kmh;
    t->travel->prior[band] = 0;
  }
}

/* ---- the section ------------------------------------------------------- */

void trv_travel_write(const TrvCalTable *t, GString *s) {
  const TrvTravel *tr = t->travel;
  if (!tr) return;
  g_string_append_printf(s, "[travel]\nsource=%s\n", tr->source);
  for (int band = 0; band < TRV_TRAVEL_BANDS; band++) {
    g_string_append_printf(s, "band\t%d\t", band);
    trv_caltable_put_double(s, tr->a[band]);
    g_string_append_c(s, '\t');
    trv_caltable_put_double(s, tr->b[band]);
    g_string_append_c(s, '\t');
    trv_caltable_put_double(s, tr->prior[band]);
    g_string_append_c(s, '\t');
    trv_caltable_put_double(s, tr->band_trips[band]);
    g_string_append_c(s, '\n');
  }
  for (guint i = 0; i < tr->pairs->len; i++) {
    const TrvTravelPair *p = &g_array_index(tr->pairs, TrvTravelPair, i);
    g_string_append_printf(s, "pair\t%d\t%d\t%d\t", p->origin, p->destination, p->band);
    trv_caltable_put_double(s, p->trips);
    g_string_append_c(s, '\t');
    trv_caltable_put_double(s, p->mean_min);
    g_string_append_c(s, '\n');
  }
}

static bool in_range(double x, double lo, double hi) { return isfinite(x) && x >= lo && x <= hi; }

/* NULL if the band's numbers are within bounds, else the message. */
static char *band_problem(const TrvTravel *tr, int band) {
  if (!in_range(tr->a[band], 0, TRV_TRAVEL_MAX_MIN))
    return g_strdup_printf("band %d: a = %g minutes; expected 0..%g", band, tr->a[band], TRV_TRAVEL_MAX_MIN);
  if (!in_range(tr->b[band], 0, TRV_TRAVEL_MAX_MIN_PER_KM))
    return g_strdup_printf("band %d: b = %g minutes per km; expected 0..%g", band, tr->b[band],
                           TRV_TRAVEL_MAX_MIN_PER_KM);
  if (!in_range(tr->prior[band], 0, TRV_TRAVEL_MAX_PRIOR))
    return g_strdup_printf("band %d: k = %g trips; expected 0..%g", band, tr->prior[band], TRV_TRAVEL_MAX_PRIOR);
  if (!in_range(tr->band_trips[band], 0, TRV_CAL_MAX_COUNT) || tr->band_trips[band] != floor(tr->band_trips[band]))
    return g_strdup_printf("band %d: %g trips; expected a whole number 0..%g", band, tr->band_trips[band],
                           TRV_CAL_MAX_COUNT);
  return NULL;
}

static char *pair_problem(const TrvCalTable *t, const TrvTravelPair *p, const TrvTravelPair *prev) {
  int last = (int)t->zones->len - 1;
  if (p->origin < 0 || p->origin > last || p->destination < 0 || p->destination > last)
    return g_strdup_printf("pair %d -> %d; expected zones 0..%d", p->origin, p->destination, last);
  if (p->band < 0 || p->band >= TRV_TRAVEL_BANDS)
    return g_strdup_printf("band %d; expected 0..%d", p->band, TRV_TRAVEL_BANDS - 1);
  if (!in_range(p->trips, 1, TRV_CAL_MAX_COUNT) || p->trips != floor(p->trips))
    return g_strdup_printf("%g trips; expected a whole number 1..%g", p->trips, TRV_CAL_MAX_COUNT);
  if (!in_range(p->mean_min, TRV_TRAVEL_MIN_TRIP_S / 60, TRV_TRAVEL_MAX_TRIP_S / 60))
    return g_strdup_printf("mean %g minutes; expected %g..%g (trips outside are left out at import)", p->mean_min,
                           TRV_TRAVEL_MIN_TRIP_S / 60, TRV_TRAVEL_MAX_TRIP_S / 60);
  if (prev && (prev->origin > p->origin || (prev->origin == p->origin && prev->destination > p->destination) ||
               (prev->origin == p->origin && prev->destination == p->destination && prev->band >= p->band)))
    return g_strdup_printf("pair %d -> %d band %d out of order or repeated", p->origin, p->destination, p->band);
  return NULL;
}

bool trv_travel_check(const TrvCalTable *t, GError **error) {
  const TrvTravel *tr = t->travel;
  if (!tr) return true;
  char *why = NULL;
  if (strcmp(tr->source, "trips") && strcmp(tr->source, "synthetic"))
    why = g_strdup_printf("source '%.60s'; expected trips or synthetic", tr->source);
  if (!why && tr->pairs->len > (guint)TRV_CAL_MAX_OD * TRV_TRAVEL_BANDS)
    why = g_strdup_printf("%u pairs; expected at most %d", tr->pairs->len, TRV_CAL_MAX_OD * TRV_TRAVEL_BANDS);
  for (int band = 0; !why && band < TRV_TRAVEL_BANDS; band++) why = band_problem(tr, band);
  for (guint i = 0; !why && i < tr->pairs->len; i++)
    why = pair_problem(t, &g_array_index(tr->pairs, TrvTravelPair, i),
                       i ? &g_array_index(tr->pairs, TrvTravelPair, i - 1) : NULL);
  if (!why) return true;
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "[travel] %s", why);
  g_free(why);
  return false;
}

bool trv_travel_equal(const TrvCalTable *a, const TrvCalTable *b) {
  const TrvTravel *x = a->travel, *y = b->travel;
  if (!x || !y) return !x && !y;
  if (strcmp(x->source, y->source) || memcmp(x->a, y->a, sizeof x->a) || memcmp(x->b, y->b, sizeof x->b) ||
      memcmp(x->prior, y->prior, sizeof x->prior) || memcmp(x->band_trips, y->band_trips, sizeof x->band_trips) ||
      x->pairs->len != y->pairs->len)
    return false;
  for (guint i = 0; i < x->pairs->len; i++) { /* field by field: a pair has padding */
    const TrvTravelPair *p = &g_array_index(x->pairs, TrvTravelPair, i),
                        *q = &g_array_index(y->pairs, TrvTravelPair, i);
    if (p->origin != q->origin || p->destination != q->destination || p->band != q->band || p->trips != q->trips ||
        p->mean_min != q->mean_min)
      return false;
  }
  return true;
}

/* A whole field as a double (no NA), or false.  A plain decimal of at most
 * 15 digits is read exactly without the C library (core/decimal.h). */
static bool number(const char *s, double *out) {
  if (trv_decimal_double(s, out)) return true;
  char *end;
  if (!*s || g_ascii_isspace(*s)) return false;
  *out = g_ascii_strtod(s, &end);
  return !*end && isfinite(*out);
}

static bool integer(const char *s, int lo, int hi, int *out) {
  long v;
  if (trv_decimal_int(s, &v)) { /* digits only: what the writer prints */
    if (v < lo || v > hi) return false;
    *out = (int)v;
    return true;
  }
  double x;
  if (!number(s, &x) || x != floor(x) || x < lo || x > hi || strchr(s, '.') || strchr(s, 'e') || strchr(s, 'E'))
    return false;
  *out = (int)x;
  return true;
}

static void unsplit(char **f, int n) {
  for (int i = 1; i < n; i++) f[i][-1] = '\t';
}

/* Splits line at its tabs in place into at most max fields and returns
 * their count; a line of more fields is left whole, and max + 1 returned.
 * unsplit() puts the tabs back. */
static int split_tabs(char *line, char **f, int max) {
  int n = 0;
  for (char *p = line;;) {
    char *tab = strchr(p, '\t');
    f[n++] = p;
    if (!tab) return n;
    if (n == max) {
      unsplit(f, n);
      return max + 1;
    }
    *tab = '\0';
    p = tab + 1;
  }
}

char *trv_travel_parse_line(TrvCalTable *t, char *line, int *row) {
  if (*row == 0) {
    if (strcmp(line, "source=trips") && strcmp(line, "source=synthetic"))
      return g_strdup_printf("'%.60s'; expected source=trips or source=synthetic", line);
    t->travel = travel_new(line + strlen("source="));
    (*row)++;
    return NULL;
  }
  TrvTravel *tr = t->travel;
  char *f[6];
  int n = split_tabs(line, f, 6);
  char *why = NULL;
  bool band_row = *row <= TRV_TRAVEL_BANDS;
  if (band_row) {
    int band;
    double a, b, k, trips;
    if (n != 6 || strcmp(f[0], "band") || !integer(f[1], 0, TRV_TRAVEL_BANDS - 1, &band) || !number(f[2], &a) ||
        !number(f[3], &b) || !number(f[4], &k) || !number(f[5], &trips)) {
      if (n <= 6) unsplit(f, n);
      why = g_strdup_printf("'%.60s'; expected band TAB %d TAB a TAB b TAB k TAB trips", line, *row - 1);
    } else if (band != *row - 1)
      why = g_strdup_printf("band %d out of order; expected %d", band, *row - 1);
    else {
      tr->a[band] = a, tr->b[band] = b, tr->prior[band] = k, tr->band_trips[band] = trips;
      why = band_problem(tr, band);
    }
  } else {
    TrvTravelPair p;
    if (tr->pairs->len >= (guint)TRV_CAL_MAX_OD * TRV_TRAVEL_BANDS)
      why = g_strdup_printf("more than %d pairs", TRV_CAL_MAX_OD * TRV_TRAVEL_BANDS);
    else if (n != 6 || strcmp(f[0], "pair") || !integer(f[1], 0, G_MAXINT - 1, &p.origin) ||
             !integer(f[2], 0, G_MAXINT - 1, &p.destination) || !integer(f[3], 0, G_MAXINT - 1, &p.band) ||
             !number(f[4], &p.trips) || !number(f[5], &p.mean_min)) {
      if (n <= 6) unsplit(f, n);
      why = g_strdup_printf("'%.60s'; expected pair TAB origin TAB destination TAB band TAB trips TAB minutes", line);
    } else {
      why = pair_problem(t, &p, tr->pairs->len ? &g_array_index(tr->pairs, TrvTravelPair, tr->pairs->len - 1) : NULL);
      if (!why) g_array_append_val(tr->pairs, p);
    }
  }
  if (!why) (*row)++;
  return why;
}

char *trv_travel_close(const TrvCalTable *t, int row) {
  if (row <= TRV_TRAVEL_BANDS)
    return g_strdup_printf("[travel] has %d of its %d band rows", row > 0 ? row - 1 : 0, TRV_TRAVEL_BANDS);
  if (t->travel && !strcmp(t->travel->source, "synthetic") && t->travel->pairs->len)
    return g_strdup("[travel] synthetic travel times with pairs; expected none (no trips were observed)");
  return NULL;
}
