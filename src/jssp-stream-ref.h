/* jssp-stream-ref.h - the stand-alone reference of the confounded machine
 * stream (docs/jssp.md, "The confounded machine stream"): the stream and its
 * two controllers (jssp-stream-ref.c), for `trivium jssp stream` and as the
 * reference the world `jssp` (envs/jssp/jssp-world.c) is checked against
 * draw for draw.  Plain C, no SimGrid.
 *
 * World (per seed): M parallel machines with intrinsic slowness
 * alpha_i ~ N(alpha_mean, alpha_sd^2); every step a latent congestion
 * C ~ N(0,1) loads all machines: X_i = alpha_i + rho*C + s*eta_i; the
 * outcome of assigning machine a is Y = max(X_a, max_i X_i) + xi,
 * xi ~ N(0, xi_sd^2); reward -Y.  Task: identify argmin alpha.  Per-episode
 * regret 1[argmin alpha_hat != argmin alpha] at the end of the episode. */
#ifndef TRV_JSSP_STREAM_REF_H
#define TRV_JSSP_STREAM_REF_H

#include <stdint.h>
#include "jssp/jssp-params.h"

#include "core/stats.h"

#define TRV_MACHINE_STREAM_MAX_M TRV_JSSP_STREAM_MAX_MACHINES

typedef struct {
  int machines, episodes, steps;
  double alpha_mean, alpha_sd, rho, s, xi_sd;
  double m0;            /* Trivium budget B_e = min(budget_cap, steps, ceil(m0 ln(e+1))), e = 1.. */
  int budget_cap;       /* 12 */
  double lr;            /* RLVR learning rate (0.1) */
  double baseline_rate; /* RLVR baseline: b += baseline_rate * (r - b), b starts at the first reward */
} TrvMachineStreamParams;

/* M = 5, E = 500, 12 steps, alpha ~ N(1, 0.3^2), rho 0.7, s 0.4, xi 0.1,
 * m0 5, cap 12, lr 0.1, baseline rate 0.05. */
void trv_machine_stream_defaults(TrvMachineStreamParams *p);
/* The stream's world from the world's parameters (world.machines,
 * world.alpha_mean, world.alpha_sd, world.congestion, world.machine_noise,
 * world.outcome_sd); the rest (E, T and the reference controllers' own
 * constants) as above. */
void trv_machine_stream_params_from(const TrvJsspParams *world, TrvMachineStreamParams *p);

typedef enum { TRV_MACHINE_TRIVIUM, TRV_MACHINE_RLVR, TRV_MACHINE_N_CONTROLLERS } TrvMachineController;
const char *trv_machine_controller_name(TrvMachineController c);

typedef struct {
  double alpha[TRV_MACHINE_STREAM_MAX_M];
  int best; /* argmin alpha */
  /* Trivium's posterior over alpha_i at the end (prior N(alpha_mean,
   * alpha_sd^2), probe noise variance rho^2 + s^2), probes per machine. */
  double post_mean[TRV_MACHINE_STREAM_MAX_M], post_var[TRV_MACHINE_STREAM_MAX_M];
  int probes[TRV_MACHINE_STREAM_MAX_M];
  /* RLVR's final policy. */
  double policy[TRV_MACHINE_STREAM_MAX_M];
} TrvMachineStreamFinal;

/* Plays one seed under one controller; regret[e] (e = 0..episodes-1) gets
 * the per-episode regret; `final` (may be NULL) the end state.  The world's
 * draws come from stream (seed, TRV_STREAM_WORLD), the same for both
 * controllers; RLVR's action sampling from (seed, TRV_STREAM_POLICY). */
void trv_machine_stream_run(const TrvMachineStreamParams *p, uint64_t seed, TrvMachineController c, double *regret,
                            TrvMachineStreamFinal *final);

typedef struct {
  TrvSummary cumulative; /* cumulative regret at E across seeds */
  TrvSummary final_rate; /* regret rate over the last E/5 episodes, across seeds */
  TrvLinFit log_fit;     /* mean cumulative regret curve ~ a + b ln(e) */
  TrvLinFit linear_fit;  /* ~ a + b e */
} TrvMachineStreamSummary;

/* Runs seeds first_seed..first_seed+n_seeds-1 under c; fills the summary
 * and, when curve != NULL, curve[e] = mean over seeds of the cumulative
 * regret after episode e+1 (length episodes); per_seed (may be NULL,
 * n_seeds * episodes) gets every per-episode regret, seed-major. */
void trv_machine_stream_summarize(const TrvMachineStreamParams *p, uint64_t first_seed, int n_seeds,
                                  TrvMachineController c, TrvMachineStreamSummary *out, double *curve,
                                  double *per_seed);

#endif
