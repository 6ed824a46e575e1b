/* jssp-confounded-ref.h - the stand-alone reference controllers of the
 * real-instance confounded variant (docs/jssp.md, "The real-instance
 * confounded variant"; jssp-confounded-ref.c), for `trivium jssp
 * confounded`.  The world they play (plans, slowdowns, the probe) is the
 * library's, envs/jssp/jssp-confounded.h.  Plain C, no SimGrid.
 *
 * Controllers (docs/jssp.md explains the confounding):
 *   trivium  probes: a forced single operation on machine i in a probe slot
 *            next to a reference operation on the dispatcher host (speed
 *            known, same congestion draw); the log-ratio of the two reads
 *            log s_i + sigma (eta_i - eta_ref), unbiased, variance
 *            2 sigma^2.  B_e = min(cap, ceil(m0 ln(e+1))) probes in episode
 *            e; Gaussian posterior on log s_i.
 *   outcome  reads only the shop's timing log: one machine per episode, the
 *            busiest when the shop is congested (C_e > 0), a uniformly
 *            random one otherwise; Gaussian posterior on log s_i from the
 *            readings, which carry rho C_e with E[C_e | machine timed] != 0. */
#ifndef TRV_JSSP_CONFOUNDED_REF_H
#define TRV_JSSP_CONFOUNDED_REF_H

#include <stdint.h>

#include "jssp/jssp-confounded.h"
#include "core/stats.h"

typedef struct {
  TrvConfoundedParams world; /* the world's part (the parameter table's world.*) */
  int episodes;              /* 200 */
  double prior_sd;           /* prior N(0, prior_sd^2) on every log s_i, 0.25 */
  double m0;                 /* Trivium's probes in episode e: min(cap, ceil(m0 ln(e+1))), 1 */
  int budget_cap;            /* 4 */
} TrvConfoundedRefParams;

/* The world's part from the parameter table's defaults, the rest as above. */
void trv_confounded_ref_defaults(TrvConfoundedRefParams *p);

typedef enum { TRV_CONFOUNDED_TRIVIUM, TRV_CONFOUNDED_OUTCOME, TRV_CONFOUNDED_N_CONTROLLERS } TrvConfoundedController;
const char *trv_confounded_controller_name(TrvConfoundedController c);

typedef struct {
  TrvConfoundedWorld world;
  double mu[TRV_CONFOUNDED_MAX_M], var[TRV_CONFOUNDED_MAX_M]; /* posterior on log s_i */
  int readings[TRV_CONFOUNDED_MAX_M]; /* probes (trivium) or timed episodes (outcome) per machine */
  uint32_t called_slow;               /* bit i: mu_i > ln(threshold) */
  int oracle_plan, final_plan;
  double oracle_makespan; /* the oracle plan's makespan on base * s_i (C = 0) */
} TrvConfoundedFinal;

/* Plays one seed under c for p->episodes episodes; regret[e] the makespan
 * regret of episode e, identified[e] (may be NULL) 1 when the controller's
 * slow set equals the true one at the end of episode e.  World draws (s_i,
 * then per episode C_e, the log's random machine, every operation's
 * reading noise) come from (seed, TRV_STREAM_WORLD), the same for both
 * controllers; probes from (seed, TRV_STREAM_PROBE_NOISE). */
void trv_confounded_run(const TrvConfoundedPlans *plans, const TrvConfoundedRefParams *p, uint64_t seed,
                        TrvConfoundedController c, double *regret, double *identified, TrvConfoundedFinal *final);

typedef struct {
  TrvSummary cumulative;          /* cumulative makespan regret at E across seeds */
  TrvSummary cumulative_relative; /* the same divided by the oracle's makespan at C = 0 */
  double identified;              /* fraction of seeds whose final slow set is right */
  TrvLinFit log_fit, linear_fit;  /* mean cumulative regret ~ a + b ln(e), ~ a + b e */
} TrvConfoundedSummary;

/* Runs seeds first_seed .. first_seed+n_seeds-1 under c; per_seed_regret
 * and per_seed_identified (may be NULL, n_seeds * episodes, seed-major)
 * get every episode's values. */
void trv_confounded_summarize(const TrvConfoundedPlans *plans, const TrvConfoundedRefParams *p, uint64_t first_seed,
                              int n_seeds, TrvConfoundedController c, TrvConfoundedSummary *out,
                              double *per_seed_regret, double *per_seed_identified);

#endif
