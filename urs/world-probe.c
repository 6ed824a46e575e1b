/* world-probe.c - the probes of the URS world: how many requests a
 * driver's A/B slice draws on in its cell and minute (the calibrated
 * demand of its matching disc), the reference rate at which a probe has
 * URS_PROBE_VOLUME requests per arm, and a probe's reading, the log ratio
 * of two Poisson counts.  A quiet probe reads less: its reading is scaled
 * by the square root of its share of the reference volume. */
#include <math.h>
#include <stdlib.h>

#include "core/stats.h"
#include "urs/world-internal.h"

uint64_t urs_poisson(TrvRng *rng, double mean) {
  /* Knuth's product of uniforms, in chunks of mean <= 20 so exp(-m) stays
   * far from underflow; O(mean) draws, the same order as using the draws. */
  uint64_t n = 0;
  while (mean > 0) {
    double m = mean > 20 ? 20 : mean, limit = exp(-m), prod = 1;
    mean -= m;
    for (;;) {
      prod *= trv_rng_uniform(rng);
      if (prod <= limit) break;
      n++;
    }
  }
  return n;
}

/* The mean rate over the week of the zones within URS_RINGS of a cell:
 * what a probe's A/B slice, the driver's matching disc, draws from. */
static double disc_rate(const UrsWorld *w, int cell) {
  double r = 0;
  const int *zones = &w->disc_zone_of_cell[(size_t)cell * URS_DISC];
  for (int i = 0; i < URS_DISC; i++)
    if (zones[i] >= 0) r += w->zone_mean_rate[zones[i]];
  return r;
}

/* The mean rate a probe slice in `cell` draws on: its disc's, or, with no
 * demand within the disc, the nearest zone's.  It depends on the cell only,
 * and a driver's probe value is asked for every minute of an episode, so
 * each cell's is computed once, when first asked. */
static double cell_probe_rate(UrsWorld *w, int cell) {
  if (w->cell_probe_rate[cell] >= 0) return w->cell_probe_rate[cell];
  double rate = disc_rate(w, cell);
  if (!(rate > 0)) { /* no demand within the disc: the slice is the nearest zone's */
    int q, r, best = -1;
    urs_cell_qr(w, cell, &q, &r);
    TrvHexCell c = {q, r};
    for (int z = 0, d = INT32_MAX; z < w->nzones; z++) {
      const TrvZoneDemand *zd = &g_array_index(w->table->zones, TrvZoneDemand, z);
      int dz = trv_hex_distance(c, zd->cell);
      if (dz < d && w->zone_mean_rate[z] > 0) d = dz, best = z;
    }
    rate = w->zone_mean_rate[best];
  }
  return w->cell_probe_rate[cell] = rate;
}

double urs_probe_volume(UrsWorld *w, int cell, int t) {
  if (cell < 0) return 0;
  int slot = (w->start_minute + t) / 15 % TRV_SLOTS_PER_WEEK;
  return URS_PROBE_VOLUME * cell_probe_rate(w, cell) * w->slot_profile[slot] / w->probe_ref_rate;
}

double urs_probe_reading(TrvRng *rng, double kappa, double z, double m) {
  /* At or above the reference volume a probe reads like one of the
   * reference volume: the same mean, and the delta-method variance the
   * world declares, (exp(-kappa z) + 1) / URS_PROBE_VOLUME (what more
   * requests would add is not declared, so it is not given). */
  double arm = fmin(m, URS_PROBE_VOLUME);
  uint64_t treated = urs_poisson(rng, arm * exp(kappa * z)), control = urs_poisson(rng, arm);
  double w = log((double)treated + 0.5) - log((double)control + 0.5);
  return m < URS_PROBE_VOLUME ? w * sqrt(m / URS_PROBE_VOLUME) : w;
}

/* How many (zone, slot) pairs have a smoothed rate below r: sorted_zone
 * and sorted_slot ascending. */
static double pairs_below(const double *sorted_zone, int nz, const double *slot, double r) {
  /* slot profiles are > 0: every slot has city-wide demand (the reader fills empty slots) */
  double n = 0;
  for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) {
    if (!(slot[s] > 0)) {
      n += nz;
      continue;
    }
    double limit = r / slot[s];
    int lo = 0, hi = nz; /* first zone with rate >= limit */
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (sorted_zone[mid] < limit)
        lo = mid + 1;
      else
        hi = mid;
    }
    n += lo;
  }
  return n;
}

/* The probes' volumes.  One week of a zone and slot is one 15-minute
 * window of the trace (mostly 0 or one request), so a probe's calibrated
 * demand is the separable smoothing mean rate x the city's profile over
 * the week, summed over the driver's matching disc (the area the slice
 * covers); probe_ref_rate, where a probe has URS_PROBE_VOLUME requests per
 * arm, is the URS_PROBE_QUIET quantile of that rate over the discs of the
 * zones and the slots: quieter probes read less (urs_probe_reading). */
void urs_probe_reference(UrsWorld *w) {
  const TrvCalTable *t = w->table;
  w->zone_mean_rate = g_new(double, w->nzones);
  double *sorted = g_new(double, w->nzones), city[TRV_SLOTS_PER_WEEK], mean = 0;
  trv_cal_table_city_rate(t, city);
  for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) mean += city[s] / TRV_SLOTS_PER_WEEK;
  for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++)
    w->slot_profile[s] = city[s] / mean; /* mean > 0: checked by the caller */
  for (int z = 0; z < w->nzones; z++) {
    double sum = 0;
    const TrvZoneDemand *zd = &g_array_index(t->zones, TrvZoneDemand, z);
    for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) sum += zd->rate[s];
    w->zone_mean_rate[z] = sum / TRV_SLOTS_PER_WEEK;
  }
  /* over the zones with demand in their disc (a zone may hold only the
   * drop-offs of the OD matrix) */
  int n = 0;
  for (int z = 0; z < w->nzones; z++) {
    double r = disc_rate(w, w->zone_cell[z]);
    if (r > 0) sorted[n++] = r;
  }
  qsort(sorted, n, sizeof(double), trv_cmp_double);
  double target = URS_PROBE_QUIET * (double)n * TRV_SLOTS_PER_WEEK;
  double lo = log(1e-300), hi = log(sorted[n - 1] * 1e3); /* n >= 1: the week has demand */
  bool lo_tested = false;
  for (int i = 0; i < 200; i++) { /* bisection on log r */
    double mid = (lo + hi) / 2;
    /* once lo and hi are adjacent doubles, mid is one of them: testing a
     * tested end again changes nothing, so the bisection has its answer */
    if (mid == hi || (mid == lo && lo_tested)) break;
    if (pairs_below(sorted, n, w->slot_profile, exp(mid)) < target)
      lo = mid, lo_tested = true;
    else
      hi = mid;
  }
  w->probe_ref_rate = exp(hi);
  g_free(sorted);
  w->cell_probe_rate = g_new(double, w->ncells);
  for (int i = 0; i < w->ncells; i++) w->cell_probe_rate[i] = -1;
}
