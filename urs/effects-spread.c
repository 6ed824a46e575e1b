/* effects-spread.c - how far the effects estimated at import (effects.c)
 * move when the days behind them change: a day-block bootstrap over the
 * trace's local days and, for a trace of several months, one fit per
 * month.
 *
 * The Poisson standard error counts requests, not days: with a week of
 * trace each day's own circumstances (a game, a conference, a closed
 * road) move an estimate far more than it says.  So whole local days are
 * resampled with replacement and the model refitted on each resample, and
 * the percentile interval of the refits is kept; a trace of months is also
 * fitted month by month, and the spread and signs of the monthly
 * estimates are kept.  The design (import.h) holds the fit's requests
 * summed per day, time-of-day band value and airport flag: the
 * covariates are constant within such a sum, so it is Poisson with the
 * same coefficients and the refits read a few rows per day, not 96 x 2.
 * Deterministic: the resamples come from one fixed seed and stream, and
 * rows are built in day order. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "urs/import.h"
#include "urs/poisson.h"

int trv_effects_band(const TrvEffectsDesign *d, int hour) {
  double v = trv_urs_time_of_day_index(hour);
  for (int b = 0; b < d->n_bands; b++)
    if (d->band_value[b] == v) return b;
  g_assert_not_reached(); /* the design lists the value of every hour */
}

static bool has_day_level(const TrvEffectsDesign *d) {
  for (int c = 0; c < d->p; c++)
    if (d->cols[c] >= TRV_EFFECT_WEEKEND) return true;
  return false;
}

/* Appends the rows of one day (or of days pooled) to x, y, off. */
static void add_rows(const TrvEffectsDesign *d, const TrvEffectsDay *day, double count[][2], const double *hours,
                     double *x, double *y, double *off, size_t *rows) {
  for (int b = 0; b < d->n_bands; b++) {
    if (!(hours[b] > 0)) continue;
    for (int g = 0; g < (d->split ? 2 : 1); g++) {
      double n = d->split ? count[b][g] : count[b][0] + count[b][1];
      double nz = d->split ? d->zones[g] : d->zones[0] + d->zones[1];
      if (!(nz > 0)) continue;
      double v[TRV_EFFECT_COUNT] = {
          1, d->band_value[b], g, day ? day->weekend : 0, day ? day->rain : 0, day ? day->temp : 0};
      for (int c = 0; c < d->p; c++) x[*rows * d->p + c] = v[d->cols[c]];
      y[*rows] = n;
      off[*rows] = log(hours[b] * nz);
      (*rows)++;
    }
  }
}

bool trv_effects_fit_days(const TrvEffectsDesign *d, const int *pick, int n, double beta[TRV_EFFECT_COUNT]) {
  bool per_day = has_day_level(d);
  size_t max_rows = (size_t)(per_day ? n : 1) * d->n_bands * 2;
  double *x = g_new(double, max_rows * d->p), *y = g_new(double, max_rows), *off = g_new(double, max_rows);
  size_t rows = 0;
  if (per_day) {
    for (int i = 0; i < n; i++) {
      TrvEffectsDay *day = &d->days[pick[i]];
      add_rows(d, day, day->count, day->hours, x, y, off, &rows);
    }
  } else {
    double count[TRV_EFFECTS_MAX_BANDS][2] = {{0}}, hours[TRV_EFFECTS_MAX_BANDS] = {0};
    for (int i = 0; i < n; i++) {
      const TrvEffectsDay *day = &d->days[pick[i]];
      for (int b = 0; b < d->n_bands; b++) {
        hours[b] += day->hours[b];
        count[b][0] += day->count[b][0];
        count[b][1] += day->count[b][1];
      }
    }
    add_rows(d, NULL, count, hours, x, y, off, &rows);
  }
  TrvPoissonFit fit;
  TrvPoissonStatus status = rows >= (size_t)d->p ? trv_poisson_fit(x, y, off, rows, d->p, &fit) : TRV_POISSON_BAD_INPUT;
  g_free(x), g_free(y), g_free(off);
  if (status != TRV_POISSON_OK) return false;
  for (int c = 0; c < d->p; c++) beta[c] = fit.beta[c];
  return true;
}

double trv_effects_quantile(const double *sorted, int n, double q) {
  g_assert(n >= 1 && q >= 0 && q <= 1);
  double h = (n - 1) * q;
  int lo = (int)floor(h);
  if (lo >= n - 1) return sorted[n - 1];
  return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The day-block bootstrap: sets lo, hi, resamples and the method of each
 * fitted effect, or leaves them without an interval when too few
 * resamples fit. */
static void bootstrap(TrvCalTable *t, const TrvEffectsDesign *d) {
  const int n = d->n_days, B = t->estimator.resamples;
  double *draws = g_new(double, (size_t)B * d->p);
  int *pick = g_new(int, n), ok = 0;
  TrvRng rng;
  trv_rng_init(&rng, t->estimator.seed, 0);
  for (int b = 0; b < B; b++) {
    for (int i = 0; i < n; i++) pick[i] = (int)trv_rng_below(&rng, (uint64_t)n);
    double beta[TRV_EFFECT_COUNT];
    if (!trv_effects_fit_days(d, pick, n, beta)) continue;
    for (int c = 0; c < d->p; c++) draws[(size_t)c * B + ok] = beta[c];
    ok++;
  }
  if (ok >= 1 && ok >= TRV_EFFECTS_BOOTSTRAP_MIN_SHARE * B)
    for (int c = 0; c < d->p; c++) {
      double *v = &draws[(size_t)c * B];
      qsort(v, ok, sizeof *v, compare_double);
      TrvEffect *e = &t->effects[d->cols[c]];
      e->method = TRV_EFFECT_METHOD_BOOTSTRAP;
      e->resamples = ok;
      e->lo = trv_effects_quantile(v, ok, (1 - t->estimator.level) / 2);
      e->hi = trv_effects_quantile(v, ok, (1 + t->estimator.level) / 2);
    }
  g_free(pick);
  g_free(draws);
}

/* One fit per calendar month holding TRV_EFFECTS_MONTH_MIN_DAYS days of
 * the fit, when there are two such months or more. */
static void months(TrvCalTable *t, const TrvEffectsDesign *d) {
  GArray *est = g_array_new(FALSE, FALSE, sizeof(double) * TRV_EFFECT_COUNT);
  int *pick = g_new(int, d->n_days);
  int full = 0;
  for (int i = 0; i < d->n_days;) {
    int j = i;
    while (j < d->n_days && d->days[j].month == d->days[i].month) j++;
    if (j - i >= TRV_EFFECTS_MONTH_MIN_DAYS) {
      full++;
      for (int k = i; k < j; k++) pick[k - i] = k;
      double beta[TRV_EFFECT_COUNT];
      if (trv_effects_fit_days(d, pick, j - i, beta)) g_array_append_val(est, beta);
    }
    i = j;
  }
  if (full >= 2 && est->len >= 2)
    for (int c = 0; c < d->p; c++) {
      TrvEffect *e = &t->effects[d->cols[c]];
      double s = 0, s2 = 0, lo = INFINITY, hi = -INFINITY;
      int same = 0, m = (int)est->len;
      for (int k = 0; k < m; k++) {
        double v = ((double *)(void *)est->data)[(size_t)k * TRV_EFFECT_COUNT + c];
        s += v, lo = fmin(lo, v), hi = fmax(hi, v);
        same += (v > 0 && e->estimate > 0) || (v < 0 && e->estimate < 0);
      }
      double mean = s / m;
      for (int k = 0; k < m; k++) {
        double v = ((double *)(void *)est->data)[(size_t)k * TRV_EFFECT_COUNT + c];
        s2 += (v - mean) * (v - mean);
      }
      if (e->method != TRV_EFFECT_METHOD_BOOTSTRAP) continue; /* months complete an interval, never replace it */
      e->method = TRV_EFFECT_METHOD_MONTHS;
      e->months = m;
      e->month_sd = fmin(sqrt(s2 / (m - 1)), hi - lo); /* rounding cannot make the sd exceed the range */
      e->month_min = lo;
      e->month_max = hi;
      e->months_same_sign = same;
    }
  g_free(pick);
  g_array_free(est, TRUE);
}

void trv_effects_spread(TrvCalTable *t, const TrvEffectsDesign *d) {
  for (int c = 0; c < d->p; c++) t->effects[d->cols[c]].days = d->n_days;
  if (d->n_days < TRV_EFFECTS_BOOTSTRAP_MIN_DAYS || t->estimator.resamples < 1) return;
  bootstrap(t, d);
  months(t, d);
}
