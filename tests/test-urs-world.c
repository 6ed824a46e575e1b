/* test-urs-world.c - the URS world driven directly, no SimGrid: conservation
 * of requests and drivers in the three fleets, probe outcomes against the
 * true effects, the confounding the outcome-only learners see, and
 * determinism of the request stream (the fleets' travel times and the
 * rebalancing baseline: test-urs-fleet.c).  Uses the committed data/urs/sf.cal
 * (found through the source tree), so it needs no ../shared. */
#include <math.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/datadir.h"
#include "core/record.h"
#include "urs/world-internal.h"
#include "api/modules.h"
#include "worlds.h"
#include "sim/sim-params.h"
#include <trivium/results.h>

#include "test-urs-world-util.h"

/* A world of the committed SF table, its fleet on the table's travel
 * times (world.travel = table, the default, set here all the same). */
static UrsWorld *new_world(int drivers, int steps, uint64_t seed) {
  TrvParams p;
  trv_params_defaults(&p);
  urs(&p)->travel = 0;
  trv_sim_params_mut(&p)->agents = drivers;
  p.steps = steps;
  p.episodes = 500;
  GError *err = NULL;
  UrsWorld *w = trv_world_urs.init(&p, seed, &err);
  g_assert_no_error(err);
  g_assert_nonnull(w);
  return w;
}

/* Plays one episode: driver d acts (d + t) % 3 != 0, drivers with even d
 * plan with the truth, odd ones with the empty graph; returns the sum of
 * step payoffs and appends each step's payoffs to trace (if given). */
static double play_episode(UrsWorld *w, void **h, int m, int e, bool check, GArray *trace) {
  const TrvWorldClass *wc = &trv_world_urs;
  wc->episode_begin(w, e);
  TrvGraph truth, empty;
  wc->referee->truth(w, &truth);
  trv_graph_clear(&empty, URS_NCONF);
  for (int d = 0; d < m; d++) {
    wc->episode_begin(h[d], e);
    g_assert_cmpint(wc->agent->plan(h[d], d % 2 ? &empty : &truth), ==, 1);
  }
  double total = 0, ctx[TRV_RECORD_CONTEXT_MAX];
  for (int t = 0; t < wc->steps(w); t++) {
    for (int d = 0; d < m; d++) {
      g_assert_cmpint(wc->agent->observe(h[d], t, ctx, TRV_RECORD_CONTEXT_MAX), ==, 7);
      g_assert_cmpfloat(wc->agent->act(h[d], (d + t) % 3 != 0), ==, 0);
    }
    wc->agent->step_end(w, t);
    for (int d = 0; d < m; d++) {
      double pay = wc->agent->step_payoff(h[d]);
      g_assert_true(pay == 0 || pay == 1);
      total += pay;
      if (trace) g_array_append_val(trace, pay);
    }
    if (check) check_fleets(w);
  }
  return total;
}

static void test_conservation_of_requests_and_drivers(void) {
  enum { M = 16 };
  UrsWorld *w = new_world(M, 120, 7);
  void *h[M];
  for (int d = 0; d < M; d++) h[d] = trv_world_urs.agent->instance(w, d);
  int64_t created = 0, served = 0, expired = 0;
  double km = 0;
  for (int e = 0; e < 4; e++) {
    double total = play_episode(w, h, M, e, true, NULL);
    const UrsFleet *f = &w->fleet[URS_FLEET_ACTUAL];
    g_assert_cmpfloat(total, ==, (double)f->served);
    double metrics[TRV_WORLD_METRICS_MAX];
    g_assert_cmpint(trv_world_urs.referee->episode_metrics(w, metrics, TRV_WORLD_METRICS_MAX), ==, 8);
    g_assert_cmpfloat(metrics[7], ==,
                      (double)(w->fleet[URS_FLEET_ORACLE].served - w->fleet[URS_FLEET_BASELINE].served));
    g_assert_cmpfloat(metrics[5], ==, 0); /* no probe played: none quiet, information 1 */
    g_assert_cmpfloat(metrics[6], ==, 1);
    g_assert_cmpfloat(metrics[0], ==, total);
    g_assert_cmpfloat(fabs(metrics[1] - (double)f->served / (double)w->created), <, 1e-12);
    /* a wait is at most 9 minutes in the queue plus 2 rings of driving */
    int pickup = 0;
    for (int b = 0; b < TRV_TRAVEL_BANDS; b++)
      pickup = MAX(pickup, MAX(1, (int)lround(w->travel_b[b] * URS_RINGS * w->spacing_km)));
    g_assert_true(w->travel); /* the committed SF table has travel times */
    g_assert_cmpfloat(metrics[3], <=, URS_MAX_WAIT - 1 + pickup);
    g_assert_cmpfloat(metrics[2], <=, URS_MAX_WAIT - 1 + pickup);
    g_assert_cmpfloat(trv_world_urs.referee->episode_outcome_regret(w), ==,
                      (double)(w->fleet[URS_FLEET_ORACLE].served - f->served));
    created += w->created, served += f->served, expired += f->expired, km += f->empty_km;
    g_test_message("episode %d: created %" G_GINT64_FORMAT " served %" G_GINT64_FORMAT " (oracle %" G_GINT64_FORMAT
                   ", stay %" G_GINT64_FORMAT ") expired %" G_GINT64_FORMAT " waiting %u wait mean %.2f p95 %.0f "
                   "empty %.1f km",
                   e, w->created, f->served, w->fleet[URS_FLEET_ORACLE].served, w->fleet[URS_FLEET_STAY].served,
                   f->expired, f->waiting->len, metrics[2], metrics[3], metrics[4]);
  }
  /* the episodes were not trivial: requests were served, some expired, and
   * repositioning drove empty kilometres */
  g_assert_cmpint(served, >, 30);
  g_assert_cmpint(expired, >, 0);
  g_assert_cmpfloat(km, >, 1.0);
  g_assert_cmpint(created, >, served);
  for (int d = 0; d < M; d++) trv_world_urs.agent->free(h[d]);
  trv_world_urs.free(w);
}

static void probe_stats(TrvRng *r, double kappa, double m, int n, double *diff, double *se, double *var_minus) {
  double sp = 0, sp2 = 0, sm = 0, sm2 = 0;
  for (int i = 0; i < n; i++) {
    double a = urs_probe_reading(r, kappa, 1.0, m), b = urs_probe_reading(r, kappa, -1.0, m);
    sp += a, sp2 += a * a, sm += b, sm2 += b * b;
  }
  double mp = sp / n, mm = sm / n, vp = sp2 / n - mp * mp, vm = sm2 / n - mm * mm;
  *diff = mp - mm;
  *se = sqrt(vp / n + vm / n);
  *var_minus = vm;
}

/* A probe at the reference volume reads kappa z with the delta-method
 * variance; a quieter one (m below it) keeps the declared variance and its
 * mean shrinks by sqrt(m / URS_PROBE_VOLUME), so its information about
 * kappa is that of m requests per arm; a busier one reads like the
 * reference. */
static void test_probe_outcomes_estimate_the_true_effects(void) {
  UrsWorld *w = new_world(1, 30, 11);
  trv_world_urs.episode_begin(w, 0);
  double effect = w->p.effect, diff, se, var;
  g_assert_cmpfloat(w->kappa[0], ==, effect); /* default: 0..3 informative */
  g_assert_cmpfloat(w->kappa[5], ==, 0);
  TrvRng r;
  trv_rng_init(&r, 11, 5);
  probe_stats(&r, effect, URS_PROBE_VOLUME, 4000, &diff, &se, &var);
  g_test_message("informative, m = %g: mean(w|z=+1) - mean(w|z=-1) = %.4f (2 effect = %.2f, se %.4f), var(w|z=-1) "
                 "%.4f (delta method %.4f)",
                 URS_PROBE_VOLUME, diff, 2 * effect, se, var, (exp(effect) + 1) / URS_PROBE_VOLUME);
  g_assert_cmpfloat(fabs(diff - 2 * effect), <, 3 * se);
  g_assert_cmpfloat(fabs(var / ((exp(effect) + 1) / URS_PROBE_VOLUME) - 1), <, 0.15);
  for (int k = 0; k < 2; k++) {
    double m = k ? 4 * URS_PROBE_VOLUME : URS_PROBE_VOLUME / 4, scale = k ? 1 : sqrt(m / URS_PROBE_VOLUME);
    probe_stats(&r, effect, m, 4000, &diff, &se, &var);
    g_test_message("m = %g: difference %.4f (2 effect sqrt(m/m_ref) = %.3f, se %.4f), var %.4f (declared %.4f)", m,
                   diff, 2 * effect * scale, se, var, (exp(effect) + 1) / URS_PROBE_VOLUME);
    g_assert_cmpfloat(fabs(diff - 2 * effect * scale), <, 4 * se + 0.02 * scale); /* O(1/m^2) bias at m = 5 */
    g_assert_cmpfloat(fabs(var / ((exp(effect) + 1) / URS_PROBE_VOLUME) - 1), <, 0.2);
  }
  probe_stats(&r, 0, URS_PROBE_VOLUME, 4000, &diff, &se, &var);
  g_test_message("null: difference %.4f (se %.4f), var %.4f (2/m = %.4f), declared s^2 %.4f", diff, se, var,
                 2 / URS_PROBE_VOLUME, trv_world_urs.noise_var(w));
  g_assert_cmpfloat(fabs(diff), <, 3 * se);
  g_assert_cmpfloat(fabs(var / (2 / URS_PROBE_VOLUME) - 1), <, 0.15);
  /* the declared variance is the sign-averaged one of an informative probe */
  g_assert_cmpfloat(fabs(trv_world_urs.noise_var(w) - (1 + cosh(effect)) / URS_PROBE_VOLUME), <, 1e-12);
  trv_world_urs.free(w);
}

/* A probe's volume is the calibrated demand of its matching disc and slot
 * (the zones' mean rates times the city's profile over the week): the
 * busiest zone at 18:00 on a Friday has more than a quiet zone at 04:00,
 * a cell whose disc has no demand takes its nearest zone's, and about a share
 * URS_PROBE_QUIET of the zones' discs and slots are below the reference
 * volume. */
static void test_probe_volume_is_the_calibrated_demand_of_cell_and_slot(void) {
  for (int city = 0; city < 3; city++) {
    TrvParams p;
    trv_params_defaults(&p);
    urs(&p)->city = city;
    trv_sim_params_mut(&p)->agents = 1;
    GError *err = NULL;
    UrsWorld *w = trv_world_urs.init(&p, 1, &err);
    g_assert_no_error(err);
    trv_world_urs.episode_begin(w, 0);
    int busiest = 0, quiet = -1;
    int friday_18 = (4 * 24 + 18) * 4, friday_04 = (4 * 24 + 4) * 4;
    double below = 0, pairs = 0, v;
    for (int z = 0; z < w->nzones; z++) {
      w->start_minute = friday_18 * 15;
      if (urs_probe_volume(w, w->zone_cell[z], 0) > urs_probe_volume(w, w->zone_cell[busiest], 0)) busiest = z;
      w->start_minute = friday_04 * 15;
      if ((v = urs_probe_volume(w, w->zone_cell[z], 0)) > 0 &&
          (quiet < 0 || v < urs_probe_volume(w, w->zone_cell[quiet], 0)))
        quiet = z;
      for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) {
        w->start_minute = s * 15;
        if ((v = urs_probe_volume(w, w->zone_cell[z], 0)) > 0) pairs++, below += v < URS_PROBE_VOLUME;
      }
    }
    w->start_minute = friday_18 * 15;
    double busy = urs_probe_volume(w, w->zone_cell[busiest], 0);
    w->start_minute = friday_04 * 15;
    double night = urs_probe_volume(w, w->zone_cell[quiet], 0);
    g_test_message("city %d: volume per arm, busiest disc Fri 18:00 %.1f, a zone Fri 04:00 %.3f; %.4f of the discs and "
                   "slots below %g",
                   city, busy, night, below / pairs, URS_PROBE_VOLUME);
    g_assert_cmpfloat(busy, >, 10 * night);
    g_assert_cmpfloat(night, >, 0);
    /* the quantile is over the zones whose disc has demand; zones holding
     * only drop-offs take their nearest zone's */
    g_assert_cmpfloat(below / pairs, >=, URS_PROBE_QUIET / 2);
    g_assert_cmpfloat(below / pairs, <=, 2 * URS_PROBE_QUIET);
    int empty = -1; /* a cell far from any demand */
    for (int c = 0; c < w->ncells && empty < 0; c++) {
      int q, r;
      urs_cell_qr(w, c, &q, &r);
      bool none = true;
      for (int i = 0; i < URS_DISC; i++) {
        int d = w->disc_of_cell[(size_t)c * URS_DISC + i];
        if (d >= 0 && w->zone_of_cell[d] >= 0) none = false;
      }
      if (none) empty = c;
    }
    g_assert_cmpint(empty, >=, 0);
    g_assert_cmpfloat(urs_probe_volume(w, empty, 0), >, 0);
    trv_world_urs.free(w);
  }
}

/* The table's interval and months, read from its numbers: the grounding
 * rule of docs/urs.md written out again (bootstrap interval excluding 0 on
 * the estimate's side; with months, at least 10 of 12 of its sign). */
static bool excludes_zero_robustly(const TrvEffect *e) {
  if (!e->estimated || isnan(e->lo) || isnan(e->hi)) return false;
  bool interval = e->estimate > 0 ? e->lo > 0 : e->hi < 0;
  return interval && (e->months == 0 || 6 * e->months_same_sign >= 5 * e->months);
}

/* The effects of weather, time of day and airport are the city's table
 * estimates in the world's units (airport: per standard deviation of the
 * flag) when their interval excludes 0 robustly and they reach
 * world.effect_floor, else 0; world.grounded = 0 gives world.effect.  With
 * the floor at 0 the grounded set is exactly the robust one, and on the
 * committed tables that is time of day in SF, time of day and airport in
 * NYC (rain's interval holds 0), nothing in Singapore (one day: no
 * interval). */
static void test_grounded_effects_come_from_the_city_table(void) {
  const unsigned robust_set[3] = {1u << 3, (1u << 3) | (1u << 10), 0};
  for (int city = 0; city < 3; city++)
    for (int floor = 0; floor < 2; floor++)
      for (int grounded = 0; grounded < 2; grounded++) {
        TrvParams p;
        trv_params_defaults(&p);
        urs(&p)->city = city;
        trv_sim_params_mut(&p)->agents = 1;
        urs(&p)->grounded = grounded;
        if (!floor) urs(&p)->effect_floor = 0;
        urs(&p)->informative = (1 << 2) | (1 << 3) | (1 << 10);
        GError *err = NULL;
        UrsWorld *w = trv_world_urs.init(&p, 1, &err);
        g_assert_no_error(err);
        trv_world_urs.episode_begin(w, 0);
        const TrvEffect *e = w->table->effects;
        int flagged = 0;
        for (int z = 0; z < w->nzones; z++)
          flagged += trv_cal_table_airport_cell(w->table, g_array_index(w->table->zones, TrvZoneDemand, z).cell);
        double share = (double)flagged / w->nzones;
        const int effect[3] = {TRV_EFFECT_RAIN, TRV_EFFECT_TIME_OF_DAY, TRV_EFFECT_AIRPORT};
        const double unit[3] = {1, 1, sqrt(share * (1 - share))};
        const int js[3] = {2, 3, 10};
        unsigned nonzero = 0;
        for (int i = 0; i < 3; i++) {
          const TrvEffect *x = &e[effect[i]];
          double want = excludes_zero_robustly(x) ? x->estimate * unit[i] : 0;
          double k = grounded ? (fabs(want) >= urs(&p)->effect_floor ? want : 0) : urs(&p)->effect;
          g_test_message("city %d floor %g grounded %d: kappa_%d = %.4f (table %.4f, interval %.4f .. %.4f, %d of %d "
                         "months of its sign)",
                         city, urs(&p)->effect_floor, grounded, js[i], w->kappa[js[i]], x->estimate, x->lo, x->hi,
                         x->months_same_sign, x->months);
          g_assert_cmpfloat(fabs(w->kappa[js[i]] - k), <, 1e-12);
          nonzero |= (unsigned)(w->kappa[js[i]] != 0) << js[i];
        }
        if (grounded && !floor) g_assert_cmphex(nonzero, ==, robust_set[city]);
        g_assert_cmpfloat(w->kappa[0], ==, 0);
        trv_world_urs.free(w);
      }
}

/* Least-squares slope (with intercept) of w on z over the pairs of
 * component j, with an episode-clustered standard error. */
static void observational_slope(int j, double *slope, double *se) {
  enum { EPISODES = 300 };
  UrsWorld *w = new_world(1, 120, 5);
  GArray *zs = g_array_new(FALSE, FALSE, sizeof(double)), *ws = g_array_new(FALSE, FALSE, sizeof(double));
  GArray *ep = g_array_new(FALSE, FALSE, sizeof(int));
  for (int e = 0; e < EPISODES; e++) {
    trv_world_urs.episode_begin(w, e);
    for (int t = 0; t < 120; t++) {
      double ctx[TRV_RECORD_CONTEXT_MAX], z[4], wv[4];
      int js[4];
      int n = trv_world_urs.agent->observe(w, t, ctx, TRV_RECORD_CONTEXT_MAX),
          m = trv_world_urs.observational_pairs(ctx, n, js, z, wv, 4);
      g_assert_cmpint(m, ==, 4);
      for (int i = 0; i < m; i++)
        if (js[i] == j) g_array_append_val(zs, z[i]), g_array_append_val(ws, wv[i]), g_array_append_val(ep, e);
    }
  }
  guint n = zs->len;
  double mz = 0, mw = 0, sxx = 0, sxy = 0;
  for (guint i = 0; i < n; i++) mz += g_array_index(zs, double, i) / n, mw += g_array_index(ws, double, i) / n;
  for (guint i = 0; i < n; i++) {
    double dz = g_array_index(zs, double, i) - mz;
    sxx += dz * dz;
    sxy += dz * (g_array_index(ws, double, i) - mw);
  }
  *slope = sxy / sxx;
  double cluster[EPISODES] = {0}, meat = 0;
  for (guint i = 0; i < n; i++) {
    double dz = g_array_index(zs, double, i) - mz;
    double r = g_array_index(ws, double, i) - mw - *slope * dz;
    cluster[g_array_index(ep, int, i)] += dz * r;
  }
  for (int e = 0; e < EPISODES; e++) meat += cluster[e] * cluster[e];
  *se = sqrt(meat) / sxx;
  g_array_free(zs, TRUE);
  g_array_free(ws, TRUE);
  g_array_free(ep, TRUE);
  trv_world_urs.free(w);
}

static void test_observational_slope_of_a_busyness_raised_null_is_nonzero(void) {
  double slope, se, slope0, se0;
  observational_slope(8, &slope, &se);   /* EV battery state: null, raised by B_e */
  observational_slope(5, &slope0, &se0); /* rider-segment mix: null, not raised */
  g_test_message("slope of w on Z_8 (null, busyness-raised) %.3f (clustered se %.3f; gamma rho = %.2f); on Z_5 (null) "
                 "%.3f (se %.3f)",
                 slope, se, 0.8 * URS_CONF_LOADING, slope0, se0);
  g_assert_cmpfloat(slope / se, >, 3);
  g_assert_cmpfloat(slope, >, 0.25); /* past the midpoint of kappa_min = 0.5: a separated slab says present */
  g_assert_cmpfloat(fabs(slope0), <, 3 * se0);
}

static void test_same_seed_same_stream_and_payoffs(void) {
  enum { M = 8 };
  GArray *trace[3];
  UrsWorld *w[3];
  for (int k = 0; k < 3; k++) {
    w[k] = new_world(M, 60, k < 2 ? 99 : 100);
    void *h[M];
    for (int d = 0; d < M; d++) h[d] = trv_world_urs.agent->instance(w[k], d);
    trace[k] = g_array_new(FALSE, FALSE, sizeof(double));
    play_episode(w[k], h, M, 0, false, trace[k]);
    play_episode(w[k], h, M, 1, false, trace[k]);
    for (int d = 0; d < M; d++) trv_world_urs.agent->free(h[d]);
  }
  g_assert_cmpuint(w[0]->requests->len, ==, w[1]->requests->len);
  g_assert_cmpint(memcmp(w[0]->requests->data, w[1]->requests->data, sizeof(UrsRequest) * w[0]->requests->len), ==, 0);
  g_assert_cmpuint(trace[0]->len, ==, trace[1]->len);
  g_assert_cmpint(memcmp(trace[0]->data, trace[1]->data, sizeof(double) * trace[0]->len), ==, 0);
  /* another seed: another stream */
  g_assert_true(w[2]->requests->len != w[0]->requests->len ||
                memcmp(w[2]->requests->data, w[0]->requests->data, sizeof(UrsRequest) * w[0]->requests->len));
  for (int k = 0; k < 3; k++) g_array_free(trace[k], TRUE), trv_world_urs.free(w[k]);
}

static void test_change_point_switches_the_informative_set(void) {
  TrvParams p;
  trv_params_defaults(&p);
  p.steps = 10;
  p.episodes = 20;
  urs(&p)->change_at = 10;
  GError *err = NULL;
  void *w = trv_world_urs.init(&p, 3, &err);
  g_assert_no_error(err);
  int cps[4];
  g_assert_cmpint(trv_world_urs.referee->change_points(w, cps, 4), ==, 1);
  g_assert_cmpint(cps[0], ==, 10);
  TrvGraph g;
  trv_world_urs.episode_begin(w, 9);
  trv_world_urs.referee->truth(w, &g);
  /* confounders 0-3 informative; in SF the week's trace has no rain, so
   * the weather (2) has no effect there (docs/urs.md) */
  g_assert_false(((UrsWorld *)w)->table->effects[TRV_EFFECT_RAIN].estimated);
  g_assert_cmphex(trv_graph_mask(&g), ==, 0x00b);
  g_assert_cmpfloat(g.kappa[3], ==, ((UrsWorld *)w)->table->effects[TRV_EFFECT_TIME_OF_DAY].estimate);
  trv_world_urs.episode_begin(w, 10);
  trv_world_urs.referee->truth(w, &g);
  g_assert_cmphex(trv_graph_mask(&g), ==, 0x0f0);
  g_assert_cmpfloat(g.kappa[4], ==, 0.5);
  trv_world_urs.free(w);
}

static void test_every_city_loads_and_steps(void) {
  for (int city = 0; city < 3; city++) {
    TrvParams p;
    trv_params_defaults(&p);
    urs(&p)->city = city;
    trv_sim_params_mut(&p)->agents = 32;
    p.steps = 120;
    GError *err = NULL;
    UrsWorld *w = trv_world_urs.init(&p, 1, &err);
    g_assert_no_error(err);
    void *h[32];
    for (int d = 0; d < 32; d++) h[d] = trv_world_urs.agent->instance(w, d);
    play_episode(w, h, 32, 1, true, NULL);
    g_test_message("city %d: %d zones, %d cells, %" G_GINT64_FORMAT " requests, %" G_GINT64_FORMAT " served in 120 min",
                   city, w->nzones, w->ncells, w->created, w->fleet[URS_FLEET_ACTUAL].served);
    g_assert_cmpint(w->created, >, 0);
    for (int d = 0; d < 32; d++) trv_world_urs.agent->free(h[d]);
    trv_world_urs.free(w);
  }
}

static UrsWorld *world_on_table(const char *table) {
  TrvParams p;
  trv_params_defaults(&p);
  trv_sim_params_mut(&p)->agents = 8;
  p.steps = 30;
  g_strlcpy(urs(&p)->table, table, sizeof urs(&p)->table);
  GError *err = NULL;
  UrsWorld *w = trv_world_urs.init(&p, 3, &err);
  g_assert_no_error(err);
  return w;
}

/* Worlds on the same table file share one parsed table (a run's cells
 * inherit the parent's); a file replaced under the same name is read
 * again, and a world keeps its own table alive after the cache has moved
 * on (AddressSanitizer sees any use after free). */
static void test_worlds_share_a_table_until_its_file_changes(void) {
  char *sf = trv_find_data("data/urs", "sf.cal", NULL), *nyc = trv_find_data("data/urs", "nyc.cal", NULL);
  g_assert_nonnull(sf);
  g_assert_nonnull(nyc);
  char *dir = g_dir_make_tmp("trv-urs-table-XXXXXX", NULL), *path = g_build_filename(dir, "city.cal", NULL);
  char *text, *other;
  gsize len, other_len;
  g_assert_true(g_file_get_contents(sf, &text, &len, NULL));
  g_assert_true(g_file_get_contents(nyc, &other, &other_len, NULL));
  g_assert_true(g_file_set_contents(path, text, (gssize)len, NULL));
  UrsWorld *a = world_on_table(path), *b = world_on_table(path);
  g_assert_true(a->table == b->table);
  g_assert_cmpstr(a->table->city, ==, "sf");
  g_assert_true(g_file_set_contents(path, other, (gssize)other_len, NULL)); /* a new file under the name */
  UrsWorld *c = world_on_table(path);
  g_assert_true(c->table != a->table);
  g_assert_cmpstr(c->table->city, ==, "nyc");
  g_assert_cmpint(c->nzones, !=, a->nzones);
  trv_world_urs.free(a); /* b still holds the first table */
  void *h[8];
  for (int d = 0; d < 8; d++) h[d] = trv_world_urs.agent->instance(b, d);
  play_episode(b, h, 8, 0, true, NULL);
  g_assert_cmpstr(b->table->city, ==, "sf");
  for (int d = 0; d < 8; d++) trv_world_urs.agent->free(h[d]);
  trv_world_urs.free(b);
  trv_world_urs.free(c);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
  g_free(text);
  g_free(other);
  g_free(sf);
  g_free(nyc);
}

/* A table's grid box and cell size are data: a box of the whole world at
 * the smallest cell would be billions of cells; the world refuses it
 * before allocating anything per cell. */
static void test_a_huge_grid_is_refused(void) {
  TrvHexGrid g;
  GError *err = NULL;
  g_assert_true(trv_hex_grid_init(&g, -80, 80, -170, 170, TRV_HEX_MIN_CELL_KM2, &err));
  TrvCalTable *t = trv_cal_table_new("huge", "test", &g);
  trv_cal_table_zone(t, trv_hex_cell_of_point(&g, 0, 0));
  UrsWorld w;
  memset(&w, 0, sizeof w);
  w.table = t;
  g_assert_false(urs_city_init(&w, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "cells of 0.001 km^2; the world takes at most 4000000"));
  g_clear_error(&err);
  urs_city_free(&w);
  trv_cal_table_free(t);
}

/* The probe metrics count what the probes read: at the episode's start
 * every driver probes once from its start cell; probes_quiet is the number
 * of drivers whose cell's volume is below the reference and
 * probe_information the mean of min(1, m / reference), both computed here
 * from urs_probe_volume; probe_value is each driver's own share. */
static void test_probe_metrics_and_values_follow_the_volumes(void) {
  enum { M = 64 };
  UrsWorld *w = new_world(M, 30, 5);
  void *h[M];
  for (int d = 0; d < M; d++) h[d] = trv_world_urs.agent->instance(w, d);
  int quiet_seen = 0;
  for (int e = 0; e < 40; e++) {
    trv_world_urs.episode_begin(w, e);
    for (int d = 0; d < M; d++) trv_world_urs.agent->episode_begin(h[d], e);
    int quiet = 0;
    double info = 0;
    for (int d = 0; d < M; d++) {
      double m = urs_probe_volume(w, w->start_cells[d], 0), share = fmin(1.0, m / URS_PROBE_VOLUME);
      g_assert_cmpfloat(trv_world_urs.probe_value(w, d), ==, share);
      for (int t = 0; t < 30; t += 7) /* the same cell at later minutes: the slot's volume */
        g_assert_cmpfloat(trv_world_urs.agent->probe_value_at(h[d], t), ==,
                          fmin(1.0, urs_probe_volume(w, w->start_cells[d], t) / URS_PROBE_VOLUME));
      quiet += m < URS_PROBE_VOLUME;
      info += share;
      trv_world_urs.agent->probe(h[d], d % URS_NCONF, 1.0);
    }
    double metrics[TRV_WORLD_METRICS_MAX];
    trv_world_urs.referee->episode_metrics(w, metrics, TRV_WORLD_METRICS_MAX);
    g_assert_cmpfloat(metrics[5], ==, quiet);
    g_assert_cmpfloat(fabs(metrics[6] - info / M), <, 1e-12);
    quiet_seen += quiet;
  }
  g_test_message("quiet start cells over 40 episodes x %d drivers: %d", M, quiet_seen);
  for (int d = 0; d < M; d++) trv_world_urs.agent->free(h[d]);
  trv_world_urs.free(w);
}

/* Driver actions: the repositioning distribution and declined offers keep
 * every fleet consistent (checked at every step); declining every offer
 * beyond ring 0 leaves the stay fleet, which never repositions, with no
 * empty kilometre at all; a temperature changes the moves; and the fleets
 * share their drivers' uniforms, so the oracle fleet (the true graph) and
 * an actual fleet that plans with the true graph move alike. */
static UrsWorld *world_with(int drivers, double temperature, int accept_rings) {
  TrvParams p;
  trv_params_defaults(&p);
  trv_sim_params_mut(&p)->agents = drivers;
  p.steps = 60;
  p.episodes = 500;
  urs(&p)->temperature = temperature;
  urs(&p)->accept_rings = accept_rings;
  GError *err = NULL;
  UrsWorld *w = trv_world_urs.init(&p, 3, &err);
  g_assert_no_error(err);
  return w;
}

static void test_driver_actions(void) {
  enum { M = 24 };
  const TrvWorldClass *wc = &trv_world_urs;
  double km[3], served[3];
  const double taus[3] = {0, 0.2, 0.2};
  for (int k = 0; k < 3; k++) {
    UrsWorld *w = world_with(M, taus[k], k == 2 ? 0 : 2);
    void *h[M];
    for (int d = 0; d < M; d++) h[d] = wc->agent->instance(w, d);
    km[k] = served[k] = 0;
    for (int e = 0; e < 3; e++) {
      play_episode(w, h, M, e, true, NULL);
      km[k] += w->fleet[URS_FLEET_ACTUAL].empty_km;
      served[k] += (double)w->fleet[URS_FLEET_ACTUAL].served;
      if (k == 2) g_assert_cmpfloat(w->fleet[URS_FLEET_STAY].empty_km, ==, 0);
    }
    for (int d = 0; d < M; d++) wc->agent->free(h[d]);
    wc->free(w);
  }
  g_assert_true(km[1] != km[0] || served[1] != served[0]);
  g_assert_true(km[2] != km[1] || served[2] != served[1]);
  /* common random numbers: every driver plans with the truth and moves */
  UrsWorld *w = world_with(M, 0.3, 2);
  void *h[M];
  for (int d = 0; d < M; d++) h[d] = wc->agent->instance(w, d);
  TrvGraph truth;
  wc->episode_begin(w, 0);
  wc->referee->truth(w, &truth);
  for (int d = 0; d < M; d++) {
    wc->episode_begin(h[d], 0);
    wc->agent->plan(h[d], &truth);
  }
  double ctx[TRV_RECORD_CONTEXT_MAX];
  for (int t = 0; t < wc->steps(w); t++) {
    for (int d = 0; d < M; d++) {
      wc->agent->observe(h[d], t, ctx, TRV_RECORD_CONTEXT_MAX);
      wc->agent->act(h[d], 1);
    }
    wc->agent->step_end(w, t);
    check_fleets(w);
    for (int d = 0; d < M; d++)
      g_assert_cmpint(w->fleet[URS_FLEET_ACTUAL].drivers[d].cell, ==, w->fleet[URS_FLEET_ORACLE].drivers[d].cell);
  }
  g_assert_cmpfloat(w->fleet[URS_FLEET_ACTUAL].empty_km, ==, w->fleet[URS_FLEET_ORACLE].empty_km);
  g_assert_cmpfloat(w->fleet[URS_FLEET_ACTUAL].empty_km, >, 0);
  for (int d = 0; d < M; d++) wc->agent->free(h[d]);
  wc->free(w);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin();
  g_test_add_func("/urs-world/conservation_of_requests_and_drivers", test_conservation_of_requests_and_drivers);
  g_test_add_func("/urs-world/driver_actions", test_driver_actions);
  g_test_add_func("/urs-world/probe_metrics_and_values_follow_the_volumes",
                  test_probe_metrics_and_values_follow_the_volumes);
  g_test_add_func("/urs-world/probe_outcomes_estimate_the_true_effects", test_probe_outcomes_estimate_the_true_effects);
  g_test_add_func("/urs-world/probe_volume_is_the_calibrated_demand_of_cell_and_slot",
                  test_probe_volume_is_the_calibrated_demand_of_cell_and_slot);
  g_test_add_func("/urs-world/grounded_effects_come_from_the_city_table",
                  test_grounded_effects_come_from_the_city_table);
  g_test_add_func("/urs-world/observational_slope_of_a_busyness_raised_null_is_nonzero",
                  test_observational_slope_of_a_busyness_raised_null_is_nonzero);
  g_test_add_func("/urs-world/same_seed_same_stream_and_payoffs", test_same_seed_same_stream_and_payoffs);
  g_test_add_func("/urs-world/change_point_switches_the_informative_set",
                  test_change_point_switches_the_informative_set);
  g_test_add_func("/urs-world/every_city_loads_and_steps", test_every_city_loads_and_steps);
  g_test_add_func("/urs-world/a_huge_grid_is_refused", test_a_huge_grid_is_refused);
  g_test_add_func("/urs-world/worlds_share_a_table_until_its_file_changes",
                  test_worlds_share_a_table_until_its_file_changes);
  return g_test_run();
}
