/* jssp-confounded-ref.c - the stand-alone reference controllers of the
 * real-instance confounded variant (the model is in
 * envs/jssp/jssp-confounded.h, the controllers in jssp-confounded-ref.h, the
 * argument in docs/jssp.md, "The real-instance confounded variant"): Trivium
 * probing and the outcome-only learner, played on the library's plans,
 * slowdowns and probe.
 *
 * Why the outcome-only controller is wrong and stays wrong: the timing log
 * picks which machine to time from the congestion (the busiest machine
 * when C_e > 0), so congestion is a common cause of "which machine is
 * observed" and "how long its operations take".  Its mean reading of
 * machine i converges to log s_i + rho E[C_e | i timed], not log s_i: the
 * busiest machine looks slower than it is, every other machine (timed only
 * in calm episodes, E[C | C <= 0] = -0.80) faster.  Trivium's probe is an
 * intervention do(machine = i) in a slot of its own, and the reference
 * operation under the same congestion draw cancels rho C exactly. */
#include "jssp-confounded-ref.h"

#include <glib.h>
#include <math.h>
#include <string.h>

void trv_confounded_ref_defaults(TrvConfoundedRefParams *p) {
  *p = (TrvConfoundedRefParams){.episodes = 200, .prior_sd = 0.25, .m0 = 1.0, .budget_cap = 4};
  trv_confounded_defaults(&p->world);
}

const char *trv_confounded_controller_name(TrvConfoundedController c) {
  static const char *const names[] = {"trivium", "outcome"};
  g_assert(c >= 0 && c < TRV_CONFOUNDED_N_CONTROLLERS);
  return names[c];
}

/* Conjugate Gaussian update of machine i's posterior with reading x of
 * noise variance v. */
static void update(double *mu, double *var, int i, double x, double v) {
  double prec = 1.0 / var[i] + 1.0 / v;
  mu[i] = (mu[i] / var[i] + x / v) / prec;
  var[i] = 1.0 / prec;
}

/* Trivium's probe choice: an unprobed machine first (lowest index); then,
 * while some machine's slow/normal call is uncertain (|mu_i - ln threshold|
 * / sd_i < 3), the least certain one; once every call is settled, the
 * machine called slow with the largest posterior variance, whose slowdown
 * is the only number the plan choice still depends on (a machine called
 * normal is planned at 1).  Ties to the lower index. */
static int probe_choice(const double *mu, const double *var, const int *n, int M, double log_threshold) {
  for (int i = 0; i < M; i++)
    if (n[i] == 0) return i;
  int least_certain = 0, widest_slow = -1;
  double best_z = INFINITY, widest = 0;
  for (int i = 0; i < M; i++) {
    double z = fabs(mu[i] - log_threshold) / sqrt(var[i]);
    if (z < best_z) best_z = z, least_certain = i;
    if (mu[i] > log_threshold && var[i] > widest) widest = var[i], widest_slow = i;
  }
  return best_z < 3.0 || widest_slow < 0 ? least_certain : widest_slow;
}

static uint32_t slow_calls(const double *mu, int M, double log_threshold) {
  uint32_t set = 0;
  for (int i = 0; i < M; i++)
    if (mu[i] > log_threshold) set |= 1u << i;
  return set;
}

void trv_confounded_run(const TrvConfoundedPlans *pl, const TrvConfoundedRefParams *p, uint64_t seed,
                        TrvConfoundedController c, double *regret, double *identified, TrvConfoundedFinal *final) {
  const TrvJsspInstance *inst = trv_confounded_plans_instance(pl);
  const TrvConfoundedParams *wp = &p->world;
  const int M = inst->n_machines, N = inst->n_jobs * inst->n_ops;
  g_assert(wp->sigma > 0 && p->prior_sd > 0 && p->episodes >= 1 && wp->threshold > 0);
  TrvRng world_rng, probe_rng;
  TrvConfoundedWorld w;
  trv_confounded_world_draw(inst, wp, seed, &w, &world_rng);
  trv_rng_init(&probe_rng, seed, TRV_STREAM_PROBE_NOISE);
  double *true_ms = g_new(double, trv_confounded_plans_count(pl)), *noise = g_new(double, N);
  const int oracle = trv_confounded_best_plan(pl, w.slowdown, true_ms);
  const double log_threshold = log(wp->threshold);
  double mu[TRV_CONFOUNDED_MAX_M], var[TRV_CONFOUNDED_MAX_M], factor[TRV_CONFOUNDED_MAX_M];
  int n[TRV_CONFOUNDED_MAX_M] = {0}, plan = oracle;
  for (int i = 0; i < M; i++) mu[i] = 0, var[i] = p->prior_sd * p->prior_sd;
  for (int e = 0; e < p->episodes; e++) {
    /* The world's draws, identical for both controllers. */
    double C = trv_rng_normal(&world_rng);
    int random_machine = (int)trv_rng_below(&world_rng, (uint64_t)M);
    for (int op = 0; op < N; op++) noise[op] = trv_rng_normal(&world_rng);
    if (c == TRV_CONFOUNDED_TRIVIUM) {
      int budget = MIN(p->budget_cap, (int)ceil(p->m0 * log(e + 2.0)));
      for (int b = 0; b < budget; b++) {
        int i = probe_choice(mu, var, n, M, log_threshold);
        update(mu, var, i, trv_confounded_probe(&w, wp, i, &probe_rng), 2 * wp->sigma * wp->sigma);
        n[i]++;
      }
    }
    /* Plan on the believed slowdowns: exp(mu_i) for a machine called slow,
     * 1 for the others (the world's structure: most machines are nominal). */
    for (int i = 0; i < M; i++) factor[i] = mu[i] > log_threshold ? exp(mu[i]) : 1.0;
    plan = trv_confounded_best_plan(pl, factor, NULL);
    /* Both plans run on base * s_i * exp(rho C): makespans scale alike. */
    regret[e] = exp(wp->rho * C) * (true_ms[plan] - true_ms[oracle]);
    if (c == TRV_CONFOUNDED_OUTCOME) {
      /* The shop's timing log of this episode: the busiest machine when
       * congested, a random one otherwise; the learner takes the mean
       * reading of its operations as one measurement of log s_i with
       * variance rho^2 + sigma^2 / count (it even knows rho). */
      int timed = C > 0 ? w.busiest : random_machine, count = 0;
      double sum = 0;
      for (int op = 0; op < N; op++)
        if (inst->machine[op] == timed) {
          sum += log(w.slowdown[timed]) + wp->rho * C + wp->sigma * noise[op];
          count++;
        }
      if (count > 0) {
        update(mu, var, timed, sum / count, wp->rho * wp->rho + wp->sigma * wp->sigma / count);
        n[timed]++;
      }
    }
    if (identified) identified[e] = slow_calls(mu, M, log_threshold) == w.slow_set ? 1.0 : 0.0;
  }
  if (final) {
    memset(final, 0, sizeof *final);
    final->world = w;
    memcpy(final->mu, mu, sizeof(double) * (size_t)M);
    memcpy(final->var, var, sizeof(double) * (size_t)M);
    memcpy(final->readings, n, sizeof(int) * (size_t)M);
    final->called_slow = slow_calls(mu, M, log_threshold);
    final->oracle_plan = oracle;
    final->final_plan = plan;
    final->oracle_makespan = true_ms[oracle];
  }
  g_free(true_ms);
  g_free(noise);
}

void trv_confounded_summarize(const TrvConfoundedPlans *pl, const TrvConfoundedRefParams *p, uint64_t first_seed,
                              int n_seeds, TrvConfoundedController c, TrvConfoundedSummary *out,
                              double *per_seed_regret, double *per_seed_identified) {
  const int E = p->episodes;
  g_assert(n_seeds >= 1 && E >= 1);
  double *regret = g_new(double, E), *ident = g_new(double, E), *mean_cum = g_new0(double, E);
  double *xs_log = g_new(double, E), *xs_lin = g_new(double, E), *cum = g_new(double, n_seeds),
         *rel = g_new(double, n_seeds);
  int right = 0;
  for (int k = 0; k < n_seeds; k++) {
    TrvConfoundedFinal f;
    trv_confounded_run(pl, p, first_seed + (uint64_t)k, c, regret, ident, &f);
    double total = 0;
    for (int e = 0; e < E; e++) {
      total += regret[e];
      mean_cum[e] += total / n_seeds;
    }
    cum[k] = total;
    /* With every duration 0 every plan's makespan is 0, and so is the
     * regret: 0, not 0/0. */
    rel[k] = f.oracle_makespan > 0 ? total / f.oracle_makespan : 0.0;
    right += f.called_slow == f.world.slow_set;
    if (per_seed_regret) memcpy(per_seed_regret + (size_t)k * E, regret, sizeof(double) * (size_t)E);
    if (per_seed_identified) memcpy(per_seed_identified + (size_t)k * E, ident, sizeof(double) * (size_t)E);
  }
  for (int e = 0; e < E; e++) xs_log[e] = log(e + 1.0), xs_lin[e] = e + 1.0;
  out->cumulative = trv_summarize(cum, (size_t)n_seeds);
  out->cumulative_relative = trv_summarize(rel, (size_t)n_seeds);
  out->identified = (double)right / n_seeds;
  out->log_fit = trv_linear_fit(xs_log, mean_cum, (size_t)E);
  out->linear_fit = trv_linear_fit(xs_lin, mean_cum, (size_t)E);
  g_free(regret);
  g_free(ident);
  g_free(mean_cum);
  g_free(xs_log);
  g_free(xs_lin);
  g_free(cum);
  g_free(rel);
}
