/* The real-instance confounded variant without the simulator, its world
 * (envs/jssp/jssp-confounded.c) under the stand-alone reference
 * controllers (src/jssp-confounded-ref.c): plans reproduce the list
 * scheduler, regret is never negative and vanishes without congestion, the
 * probe's log-ratio is unbiased while the outcome-only log is biased by
 * congestion, and on ft06 (the committed platforms/jssp/ft06/jobs.txt)
 * Trivium identifies the slow machines and pays less makespan regret than
 * the outcome-only learner. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "jssp-confounded-ref.h"
#include "jssp/jssp-confounded.h"
#include "jssp/jssp.h"

static TrvJsspInstance *load_ft06(void) {
  char *path = g_build_filename(JSSP_PLATFORM_DIR, "ft06", "jobs.txt", NULL);
  GError *err = NULL;
  TrvJsspInstance *inst = trv_jssp_instance_load(path, &err);
  g_assert_no_error(err);
  g_free(path);
  return inst;
}

/* Every candidate plan, executed on its own planning durations (2*base,
 * 3*base on its believed-slow set), starts every operation exactly where
 * the list scheduler does: on ft06 and on random instances with zero
 * durations. */
static void plans_reproduce_the_list_scheduler(void) {
  for (int trial = 0; trial < 7; trial++) {
    TrvJsspInstance *inst = trial == 0 ? load_ft06() : trv_jssp_instance_random(3 + trial, 4, 9, 100 + trial);
    TrvConfoundedPlans *plans = trv_confounded_plans_new(inst);
    const int M = inst->n_machines, N = inst->n_jobs * inst->n_ops;
    g_assert_cmpint(trv_confounded_plans_count(plans), ==, 4 * (1 + M + M * (M - 1) / 2));
    TrvJsspInstance planning = *inst;
    planning.duration = g_new(int, N);
    double *dur = g_new(double, N), *start = g_new(double, N), *end = g_new(double, N);
    for (int k = 0; k < trv_confounded_plans_count(plans); k++) {
      uint32_t set = trv_confounded_plan_slow_set(plans, k);
      for (int op = 0; op < N; op++)
        dur[op] = planning.duration[op] = inst->duration[op] * ((set >> inst->machine[op]) & 1u ? 3 : 2);
      TrvJsspSchedule *s = trv_jssp_list_schedule(&planning, trv_confounded_plan_rule(plans, k));
      double ms = trv_confounded_plan_execute(plans, k, dur, start, end);
      g_assert_cmpfloat(ms, ==, s->makespan);
      g_assert_cmpmem(start, sizeof(double) * N, s->start, sizeof(double) * N);
      g_assert_cmpmem(end, sizeof(double) * N, s->end, sizeof(double) * N);
      trv_jssp_schedule_free(s);
    }
    g_free(dur);
    g_free(start);
    g_free(end);
    g_free(planning.duration);
    trv_confounded_plans_free(plans);
    trv_jssp_instance_free(inst);
  }
}

/* The oracle minimises over the set the controllers choose from and
 * congestion scales every plan alike, so no episode has negative regret;
 * runs are reproducible. */
static void regret_is_never_negative_and_reproducible(void) {
  TrvJsspInstance *inst = load_ft06();
  TrvConfoundedPlans *plans = trv_confounded_plans_new(inst);
  TrvConfoundedRefParams p;
  trv_confounded_ref_defaults(&p);
  p.episodes = 100;
  double a[100], b[100];
  for (int c = 0; c < TRV_CONFOUNDED_N_CONTROLLERS; c++)
    for (uint64_t seed = 1; seed <= 5; seed++) {
      trv_confounded_run(plans, &p, seed, (TrvConfoundedController)c, a, NULL, NULL);
      trv_confounded_run(plans, &p, seed, (TrvConfoundedController)c, b, NULL, NULL);
      g_assert_cmpmem(a, sizeof a, b, sizeof b);
      for (int e = 0; e < p.episodes; e++) g_assert_cmpfloat(a[e], >=, 0.0);
    }
  trv_confounded_plans_free(plans);
  trv_jssp_instance_free(inst);
}

/* Without congestion (rho = 0) and with negligible reading noise, a
 * controller that has read every machine believes the truth and picks the
 * oracle's plan: its regret is exactly 0 from then on, and exactly 0
 * throughout when no machine is slow. */
static void no_congestion_means_zero_regret_once_every_machine_is_read(void) {
  TrvJsspInstance *inst = load_ft06();
  TrvConfoundedPlans *plans = trv_confounded_plans_new(inst);
  TrvConfoundedRefParams p;
  trv_confounded_ref_defaults(&p);
  p.episodes = 60;
  p.world.rho = 0;
  p.world.sigma = 1e-9;
  double regret[60], ident[60];
  for (int slow_max = 0; slow_max <= 2; slow_max += 2) {
    p.world.slow_max = slow_max;
    for (uint64_t seed = 1; seed <= 10; seed++) {
      /* Trivium has probed all 6 machines in episode 4 (1 + 2 + 2 + 2 probes). */
      trv_confounded_run(plans, &p, seed, TRV_CONFOUNDED_TRIVIUM, regret, ident, NULL);
      for (int e = slow_max == 0 ? 0 : 3; e < p.episodes; e++) {
        g_assert_cmpfloat(regret[e], ==, 0.0);
        g_assert_cmpfloat(ident[e], ==, 1.0);
      }
      TrvConfoundedFinal f;
      trv_confounded_run(plans, &p, seed, TRV_CONFOUNDED_OUTCOME, regret, ident, &f);
      for (int i = 0; i < inst->n_machines; i++) g_assert_cmpint(f.readings[i], >=, 1);
      g_assert_cmpint(f.final_plan, ==, f.oracle_plan);
      g_assert_cmpfloat(regret[p.episodes - 1], ==, 0.0);
      if (slow_max == 0)
        for (int e = 0; e < p.episodes; e++) g_assert_cmpfloat(regret[e], ==, 0.0);
    }
  }
  trv_confounded_plans_free(plans);
  trv_jssp_instance_free(inst);
}

/* The probe's log-ratio cancels the congestion: over 20000 probe slots its
 * mean is within 3 standard errors of log s_i and its variance is 2 sigma^2
 * (within 5%), although rho C has variance rho^2 = 0.25 >> 2 sigma^2. */
static void log_ratio_probe_is_unbiased(void) {
  TrvJsspInstance *inst = load_ft06();
  TrvConfoundedParams p;
  trv_confounded_defaults(&p);
  TrvConfoundedWorld w;
  TrvRng rng;
  trv_confounded_world_draw(inst, &p, 7, &w, &rng);
  trv_rng_init(&rng, 7, TRV_STREAM_PROBE_NOISE);
  for (int i = 0; i < w.machines; i++) {
    const int n = 20000;
    double sum = 0, sum2 = 0;
    for (int k = 0; k < n; k++) {
      double x = trv_confounded_probe(&w, &p, i, &rng);
      sum += x;
      sum2 += x * x;
    }
    double mean = sum / n, var = (sum2 - n * mean * mean) / (n - 1);
    g_assert_cmpfloat(fabs(mean - log(w.slowdown[i])), <=, 3 * sqrt(var / n));
    g_assert_cmpfloat(fabs(var / (2 * p.sigma * p.sigma) - 1), <, 0.05);
  }
  trv_jssp_instance_free(inst);
}

/* The confounding is real: the outcome-only learner's estimate of the
 * busiest machine's log slowdown ends more than 3 posterior sd above the
 * truth (it is timed when the shop is congested), and of some other
 * machine more than 3 posterior sd below (timed only in calm episodes);
 * Trivium's estimates all end within 3 posterior sd of the truth. */
static void outcome_log_is_biased_by_congestion_and_probes_are_not(void) {
  TrvJsspInstance *inst = load_ft06();
  TrvConfoundedPlans *plans = trv_confounded_plans_new(inst);
  TrvConfoundedRefParams p;
  trv_confounded_ref_defaults(&p);
  double regret[200];
  for (uint64_t seed = 1; seed <= 5; seed++) {
    TrvConfoundedFinal o, t;
    trv_confounded_run(plans, &p, seed, TRV_CONFOUNDED_OUTCOME, regret, NULL, &o);
    trv_confounded_run(plans, &p, seed, TRV_CONFOUNDED_TRIVIUM, regret, NULL, &t);
    int b = o.world.busiest, below = 0;
    g_assert_cmpfloat(o.mu[b] - log(o.world.slowdown[b]), >, 3 * sqrt(o.var[b]));
    for (int i = 0; i < inst->n_machines; i++) {
      below += i != b && log(o.world.slowdown[i]) - o.mu[i] > 3 * sqrt(o.var[i]);
      g_assert_cmpfloat(fabs(t.mu[i] - log(t.world.slowdown[i])), <=, 3 * sqrt(t.var[i]));
    }
    g_assert_cmpint(below, >=, 1);
  }
  trv_confounded_plans_free(plans);
  trv_jssp_instance_free(inst);
}

/* Trivium spends exactly sum_e min(4, ceil(ln(e+1))) probes. */
static void trivium_spends_its_budget(void) {
  TrvJsspInstance *inst = load_ft06();
  TrvConfoundedPlans *plans = trv_confounded_plans_new(inst);
  TrvConfoundedRefParams p;
  trv_confounded_ref_defaults(&p);
  double regret[200];
  TrvConfoundedFinal f;
  trv_confounded_run(plans, &p, 3, TRV_CONFOUNDED_TRIVIUM, regret, NULL, &f);
  int total = 0, expect = 0;
  for (int i = 0; i < inst->n_machines; i++) total += f.readings[i];
  for (int e = 1; e <= p.episodes; e++) expect += MIN(4, (int)ceil(log(e + 1.0)));
  g_assert_cmpint(total, ==, expect);
  trv_confounded_plans_free(plans);
  trv_jssp_instance_free(inst);
}

/* On ft06 with 10 seeds and the defaults, Trivium's final slow set is right
 * on at least 9 seeds, the outcome-only learner's on at most 5, and
 * Trivium's cumulative makespan regret is below the outcome-only one's. */
static void trivium_identifies_slow_machines_and_beats_outcome_on_ft06(void) {
  TrvJsspInstance *inst = load_ft06();
  TrvConfoundedPlans *plans = trv_confounded_plans_new(inst);
  TrvConfoundedRefParams p;
  trv_confounded_ref_defaults(&p);
  TrvConfoundedSummary t, o;
  trv_confounded_summarize(plans, &p, 1, 10, TRV_CONFOUNDED_TRIVIUM, &t, NULL, NULL);
  trv_confounded_summarize(plans, &p, 1, 10, TRV_CONFOUNDED_OUTCOME, &o, NULL, NULL);
  g_test_message("identified: trivium %.2f outcome %.2f; cumulative regret: trivium %.1f outcome %.1f", t.identified,
                 o.identified, t.cumulative.mean, o.cumulative.mean);
  g_assert_cmpfloat(t.identified, >=, 0.9);
  g_assert_cmpfloat(o.identified, <=, 0.5);
  g_assert_cmpfloat(t.cumulative.mean, <, o.cumulative.mean);
  /* Trivium's regret stops growing, the outcome-only learner's does not. */
  g_assert_cmpfloat(t.log_fit.r2, >, t.linear_fit.r2);
  g_assert_cmpfloat(o.linear_fit.r2, >, o.log_fit.r2);
  trv_confounded_plans_free(plans);
  trv_jssp_instance_free(inst);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/jssp/confounded/plans_reproduce_the_list_scheduler", plans_reproduce_the_list_scheduler);
  g_test_add_func("/jssp/confounded/regret_is_never_negative_and_reproducible",
                  regret_is_never_negative_and_reproducible);
  g_test_add_func("/jssp/confounded/no_congestion_means_zero_regret_once_every_machine_is_read",
                  no_congestion_means_zero_regret_once_every_machine_is_read);
  g_test_add_func("/jssp/confounded/log_ratio_probe_is_unbiased", log_ratio_probe_is_unbiased);
  g_test_add_func("/jssp/confounded/outcome_log_is_biased_by_congestion_and_probes_are_not",
                  outcome_log_is_biased_by_congestion_and_probes_are_not);
  g_test_add_func("/jssp/confounded/trivium_spends_its_budget", trivium_spends_its_budget);
  g_test_add_func("/jssp/confounded/trivium_identifies_slow_machines_and_beats_outcome_on_ft06",
                  trivium_identifies_slow_machines_and_beats_outcome_on_ft06);
  return g_test_run();
}
