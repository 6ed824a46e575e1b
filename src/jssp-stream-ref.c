/* jssp-stream-ref.c - the stand-alone reference of the confounded machine
 * stream (docs/jssp.md, "The confounded machine stream") under Trivium's
 * probing controller and an outcome-only softmax REINFORCE policy (RLVR).
 *
 * Why RLVR cannot learn here: Y = max(X_a, max_i X_i) + xi equals
 * max_i X_i + xi whatever a is, so the reward carries no information about
 * the action; the policy's preferences random-walk and its guess of the
 * best machine stays wrong at a constant rate (linear cumulative regret).
 * Trivium intervenes instead: a probe is a forced assignment do(assign=i)
 * that reads X_i = alpha_i + rho*C + s*eta_i, an unbiased measurement of
 * alpha_i with noise variance rho^2 + s^2 (C is fresh every step).
 *
 * Trivium, per episode e (1-based): the first B_e = min(cap, steps,
 * ceil(m0 ln(e+1))) steps are probes, the rest assign argmin of the
 * posterior means.  Posterior per machine: Gaussian, prior N(alpha_mean,
 * alpha_sd^2), known noise variance rho^2 + s^2, conjugate update.  Probe
 * choice (a top-two rule in place of the full expected information gain on
 * the argmin's identity, which it approximates): a machine never probed
 * goes first (lowest index); otherwise the leader L = argmin posterior mean
 * and the challenger c = argmin_{j != L} (mu_j - mu_L) / sqrt(v_j + v_L)
 * (the posterior most overlapping the leader's); probe whichever of L, c
 * has the larger posterior variance (ties to L).  These are the two
 * machines whose comparison decides the argmin; the other machines' order
 * does not matter for the task.  Ties everywhere go to the lower index.
 *
 * RLVR: preferences theta (start 0), policy softmax(theta); each step
 * sample a ~ pi, reward r = -Y, baseline b (the first reward, then
 * b += baseline_rate (r - b)), theta_k += lr (r - b) (1[k = a] - pi_k).
 * Its alpha_hat argmin is the most likely machine, argmax pi (lowest index
 * on ties).
 *
 * Randomness: the world (alpha, then per step C, eta_1..M, xi, always all
 * drawn, so both controllers face the same congestion sequence) from
 * (seed, TRV_STREAM_WORLD); RLVR's sampling from (seed, TRV_STREAM_POLICY). */
#include "jssp-stream-ref.h"

#include "core/params.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include "core/rng.h"

void trv_machine_stream_params_from(const TrvJsspParams *t, TrvMachineStreamParams *p) {
  *p = (TrvMachineStreamParams){.machines = t->machines,
                                .episodes = 500,
                                .steps = 12,
                                .alpha_mean = t->alpha_mean,
                                .alpha_sd = t->alpha_sd,
                                .rho = t->congestion,
                                .s = t->machine_noise,
                                .xi_sd = t->outcome_sd,
                                .m0 = 5.0,
                                .budget_cap = 12,
                                .lr = 0.1,
                                .baseline_rate = 0.05};
}

void trv_machine_stream_defaults(TrvMachineStreamParams *p) {
  TrvJsspParams t;
  trv_param_block_defaults(&trv_jssp_params, &t);
  trv_machine_stream_params_from(&t, p);
}

const char *trv_machine_controller_name(TrvMachineController c) {
  static const char *const names[] = {"trivium", "rlvr"};
  g_assert(c >= 0 && c < TRV_MACHINE_N_CONTROLLERS);
  return names[c];
}

static int argmin(const double *x, int n) {
  int b = 0;
  for (int i = 1; i < n; i++)
    if (x[i] < x[b]) b = i;
  return b;
}

static int argmax(const double *x, int n) {
  int b = 0;
  for (int i = 1; i < n; i++)
    if (x[i] > x[b]) b = i;
  return b;
}

/* Trivium's probe choice (see the file comment). */
static int probe_choice(const double *mu, const double *v, const int *probes, int M) {
  for (int i = 0; i < M; i++)
    if (probes[i] == 0) return i;
  int L = argmin(mu, M), c = -1;
  double best_z = INFINITY;
  for (int j = 0; j < M; j++) {
    if (j == L) continue;
    double z = (mu[j] - mu[L]) / sqrt(v[j] + v[L]);
    if (z < best_z) best_z = z, c = j;
  }
  return v[c] > v[L] ? c : L;
}

void trv_machine_stream_run(const TrvMachineStreamParams *p, uint64_t seed, TrvMachineController c, double *regret,
                            TrvMachineStreamFinal *final) {
  const int M = p->machines;
  g_assert(M >= 2 && M <= TRV_MACHINE_STREAM_MAX_M && p->steps >= 1 && p->episodes >= 1);
  TrvRng world, policy;
  trv_rng_init(&world, seed, TRV_STREAM_WORLD);
  trv_rng_init(&policy, seed, TRV_STREAM_POLICY);
  double alpha[TRV_MACHINE_STREAM_MAX_M], mu[TRV_MACHINE_STREAM_MAX_M], var[TRV_MACHINE_STREAM_MAX_M];
  double theta[TRV_MACHINE_STREAM_MAX_M] = {0}, pi[TRV_MACHINE_STREAM_MAX_M], x[TRV_MACHINE_STREAM_MAX_M];
  int probes[TRV_MACHINE_STREAM_MAX_M] = {0};
  for (int i = 0; i < M; i++) {
    alpha[i] = p->alpha_mean + p->alpha_sd * trv_rng_normal(&world);
    mu[i] = p->alpha_mean;
    var[i] = p->alpha_sd * p->alpha_sd;
  }
  const int best = argmin(alpha, M);
  const double noise_var = p->rho * p->rho + p->s * p->s;
  double baseline = 0;
  gboolean have_baseline = FALSE;
  for (int e = 0; e < p->episodes; e++) {
    int budget = (int)ceil(p->m0 * log((double)(e + 1) + 1.0));
    budget = MIN(budget, MIN(p->budget_cap, p->steps));
    for (int t = 0; t < p->steps; t++) {
      double C = trv_rng_normal(&world), xmax = -INFINITY;
      for (int i = 0; i < M; i++) {
        x[i] = alpha[i] + p->rho * C + p->s * trv_rng_normal(&world);
        xmax = fmax(xmax, x[i]);
      }
      double xi = p->xi_sd * trv_rng_normal(&world);
      if (c == TRV_MACHINE_TRIVIUM) {
        if (t < budget) { /* probe: do(assign = i) reads X_i */
          int i = probe_choice(mu, var, probes, M);
          double prec = 1.0 / var[i] + 1.0 / noise_var;
          mu[i] = (mu[i] / var[i] + x[i] / noise_var) / prec;
          var[i] = 1.0 / prec;
          probes[i]++;
        }
        /* acting steps assign argmin mu and observe only Y: nothing to learn */
      } else {
        double mx = theta[argmax(theta, M)], z = 0;
        for (int i = 0; i < M; i++) z += pi[i] = exp(theta[i] - mx);
        for (int i = 0; i < M; i++) pi[i] /= z;
        double u = trv_rng_uniform(&policy), acc = 0;
        int a = M - 1;
        for (int i = 0; i < M; i++) {
          acc += pi[i];
          if (u < acc) {
            a = i;
            break;
          }
        }
        double y = fmax(x[a], xmax) + xi, r = -y;
        if (!have_baseline) baseline = r, have_baseline = TRUE;
        double adv = r - baseline;
        for (int i = 0; i < M; i++) theta[i] += p->lr * adv * ((i == a ? 1.0 : 0.0) - pi[i]);
        baseline += p->baseline_rate * (r - baseline);
      }
    }
    int guess = c == TRV_MACHINE_TRIVIUM ? argmin(mu, M) : argmax(theta, M);
    regret[e] = guess != best ? 1.0 : 0.0;
  }
  if (final) {
    memset(final, 0, sizeof *final);
    memcpy(final->alpha, alpha, sizeof(double) * (size_t)M);
    final->best = best;
    memcpy(final->post_mean, mu, sizeof(double) * (size_t)M);
    memcpy(final->post_var, var, sizeof(double) * (size_t)M);
    memcpy(final->probes, probes, sizeof(int) * (size_t)M);
    double mx = theta[argmax(theta, M)], z = 0;
    for (int i = 0; i < M; i++) z += final->policy[i] = exp(theta[i] - mx);
    for (int i = 0; i < M; i++) final->policy[i] /= z;
  }
}

void trv_machine_stream_summarize(const TrvMachineStreamParams *p, uint64_t first_seed, int n_seeds,
                                  TrvMachineController c, TrvMachineStreamSummary *out, double *curve,
                                  double *per_seed) {
  const int E = p->episodes;
  g_assert(n_seeds >= 1);
  double *regret = g_new(double, E), *mean_cum = g_new0(double, E), *xs_log = g_new(double, E),
         *xs_lin = g_new(double, E), *cum_at_end = g_new(double, n_seeds), *rate = g_new(double, n_seeds);
  const int tail = MAX(1, E / 5);
  for (int k = 0; k < n_seeds; k++) {
    trv_machine_stream_run(p, first_seed + (uint64_t)k, c, regret, NULL);
    double cum = 0, tail_sum = 0;
    for (int e = 0; e < E; e++) {
      cum += regret[e];
      mean_cum[e] += cum / n_seeds;
      if (e >= E - tail) tail_sum += regret[e];
    }
    if (per_seed) memcpy(per_seed + (size_t)k * E, regret, sizeof(double) * (size_t)E);
    cum_at_end[k] = cum;
    rate[k] = tail_sum / tail;
  }
  for (int e = 0; e < E; e++) {
    xs_log[e] = log(e + 1.0);
    xs_lin[e] = e + 1.0;
  }
  out->cumulative = trv_summarize(cum_at_end, (size_t)n_seeds);
  out->final_rate = trv_summarize(rate, (size_t)n_seeds);
  out->log_fit = trv_linear_fit(xs_log, mean_cum, (size_t)E);
  out->linear_fit = trv_linear_fit(xs_lin, mean_cum, (size_t)E);
  if (curve) memcpy(curve, mean_cum, sizeof(double) * (size_t)E);
  g_free(regret);
  g_free(mean_cum);
  g_free(xs_log);
  g_free(xs_lin);
  g_free(cum_at_end);
  g_free(rate);
}
