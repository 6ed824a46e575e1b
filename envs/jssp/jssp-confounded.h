/* jssp-confounded.h - the real-instance confounded variant (docs/jssp.md,
 * "The real-instance confounded variant"; jssp-confounded.c): congestion
 * inflates the processing times of a real instance, the controller must
 * separate intrinsic machine slowdowns from congestion, and pays makespan
 * regret against the oracle's plan.  Plain C, no SimGrid.
 *
 * World (per seed): machine i has a hidden slowdown s_i, 1 for most and
 * U[slow_lo, slow_hi] for 1..min(slow_max, M) machines drawn from the seed.  Episode
 * e has a latent congestion C_e ~ N(0,1); the true duration of operation o
 * on machine i is base_o * s_i * exp(rho C_e).  A timed operation reads
 * log(duration / base) + sigma eta (reading noise).
 *
 * Decision per episode: a plan, i.e. the machine sequences the list
 * scheduler produces for a rule (FIFO/SPT/LPT/MWKR) on planning durations
 * in which a believed-slow set S (|S| <= 2) is slowed by plan_slowdown.  A
 * plan runs on the episode's true durations as a semi-active schedule (each
 * operation starts when its job predecessor and its machine predecessor
 * have ended); on its own planning durations that is exactly the list
 * scheduler's schedule.  A controller with estimates mu_i of log s_i
 * calls machine i slow when mu_i > ln(threshold) and picks the plan with
 * the smallest makespan on base * (exp(mu_i) if called slow, else 1); the
 * oracle the one with the smallest makespan on base * s_i.  Makespan regret of
 * episode e = makespan(controller's plan) - makespan(oracle's plan), both on
 * the true durations of episode e (same C_e), hence >= 0, and 0 whenever
 * the two plans coincide.
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
#ifndef TRV_JSSP_CONFOUNDED_H
#define TRV_JSSP_CONFOUNDED_H

#include <stdint.h>
#include "jssp-params.h"

#include "jssp.h"
#include "core/rng.h"
#include "core/stats.h"

#define TRV_CONFOUNDED_MAX_M 32
/* Plans x operations the variant keeps (two ints each): 32 MB at most.
 * ft10 needs 22 400, a 100 x 20 instance 1 688 000. */
#define TRV_CONFOUNDED_MAX_PLAN_OPS 4000000

/* 4 rules x (1 + M + M(M-1)/2) believed-slow sets. */
int trv_confounded_plans_count_for(int machines);
/* TRUE when inst fits the variant: at most TRV_CONFOUNDED_MAX_M machines
 * and plans x operations <= TRV_CONFOUNDED_MAX_PLAN_OPS; otherwise FALSE +
 * TRV_ERROR_INPUT naming `file`.  Checked before trv_confounded_plans_new,
 * which asserts it. */
gboolean trv_confounded_instance_fits(const TrvJsspInstance *inst, const char *file, GError **error);

typedef struct {
  int episodes;            /* 200 */
  double rho;              /* congestion strength: durations * exp(rho C_e), 0.5 */
  double sigma;            /* reading noise of a timed operation (log scale), 0.15; > 0 */
  double slow_lo, slow_hi; /* slowdown of a slow machine ~ U[slow_lo, slow_hi], 1.3 .. 1.6 */
  int slow_max;            /* 1..slow_max slow machines per seed (uniform); 0: none; 2 */
  double prior_sd;         /* prior N(0, prior_sd^2) on every log s_i, 0.25 */
  double threshold;        /* machine i is called slow when mu_i > ln(threshold), 1.15 */
  double m0;               /* Trivium's probes in episode e: min(cap, ceil(m0 ln(e+1))), 1 */
  int budget_cap;          /* 4 */
} TrvConfoundedParams;

void trv_confounded_defaults(TrvConfoundedParams *p);
/* The world's part from the world's parameters (world.log_congestion,
 * world.reading_sd, world.slow_lo, world.slow_hi, world.slow_max,
 * world.slow_threshold); E, the prior and the reference's budget as above. */
void trv_confounded_params_from(const TrvJsspParams *world, TrvConfoundedParams *p);

typedef enum { TRV_CONFOUNDED_TRIVIUM, TRV_CONFOUNDED_OUTCOME, TRV_CONFOUNDED_N_CONTROLLERS } TrvConfoundedController;
const char *trv_confounded_controller_name(TrvConfoundedController c);

/* The candidate plans of an instance: every rule x every believed-slow set
 * of at most two machines (planning durations 2*base, slowed 3*base, so the
 * list scheduler sees integers and plan_slowdown is 1.5). */
typedef struct TrvConfoundedPlans TrvConfoundedPlans;

/* Builds the plans of inst (which must outlive them); inst->n_machines <=
 * TRV_CONFOUNDED_MAX_M.  trv_confounded_plans_free releases them. */
TrvConfoundedPlans *trv_confounded_plans_new(const TrvJsspInstance *inst);
void trv_confounded_plans_free(TrvConfoundedPlans *plans);
int trv_confounded_plans_count(const TrvConfoundedPlans *plans);
/* Plan k's rule and believed-slow set (bit i = machine i). */
TrvJsspRule trv_confounded_plan_rule(const TrvConfoundedPlans *plans, int k);
uint32_t trv_confounded_plan_slow_set(const TrvConfoundedPlans *plans, int k);
/* Executes plan k on durations dur[op] (indexed like the instance): the
 * semi-active schedule of its machine sequences.  start/end may be NULL;
 * returns the makespan. */
double trv_confounded_plan_execute(const TrvConfoundedPlans *plans, int k, const double *dur, double *start,
                                   double *end);
/* The plan with the smallest makespan on base_o * factor[machine of o]
 * (ties to the lower index); makespans (may be NULL, length count) gets
 * every plan's makespan. */
int trv_confounded_best_plan(const TrvConfoundedPlans *plans, const double *factor, double *makespans);

typedef struct {
  int machines;
  double slowdown[TRV_CONFOUNDED_MAX_M]; /* s_i */
  uint32_t slow_set;                     /* bit i: s_i > 1 */
  int busiest;                           /* argmax_i s_i * (base work of machine i) */
} TrvConfoundedWorld;

/* Draws seed's slowdowns from stream (seed, TRV_STREAM_WORLD) (rng is left
 * positioned after them, for the episode draws). */
void trv_confounded_world_draw(const TrvJsspInstance *inst, const TrvConfoundedParams *p, uint64_t seed,
                               TrvConfoundedWorld *w, TrvRng *rng);
/* One probe slot: a fresh congestion draw C, machine i and the reference
 * read log s_i + rho C + sigma eta_i and rho C + sigma eta_ref; returns the
 * log-ratio (the difference).  Draws C, eta_i, eta_ref from rng. */
double trv_confounded_probe(const TrvConfoundedWorld *w, const TrvConfoundedParams *p, int machine, TrvRng *rng);

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
void trv_confounded_run(const TrvConfoundedPlans *plans, const TrvConfoundedParams *p, uint64_t seed,
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
void trv_confounded_summarize(const TrvConfoundedPlans *plans, const TrvConfoundedParams *p, uint64_t first_seed,
                              int n_seeds, TrvConfoundedController c, TrvConfoundedSummary *out,
                              double *per_seed_regret, double *per_seed_identified);

#endif
