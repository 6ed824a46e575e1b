/* jssp-confounded.h - the real-instance confounded variant's world
 * (docs/jssp.md, "The real-instance confounded variant"; jssp-confounded.c):
 * congestion inflates the processing times of a real instance, a
 * controller must separate intrinsic machine slowdowns from congestion, and
 * pays makespan regret against the oracle's plan.  Plain C, no SimGrid.
 * The world `jssp` (jssp-world.c) plays it; the stand-alone reference
 * controllers of `trivium jssp confounded` are the program's
 * (src/jssp-confounded-ref.h).
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
 * A probe (trv_confounded_probe) is a forced single operation on machine i
 * in a probe slot next to a reference operation on the dispatcher host
 * (speed known, same congestion draw); the log-ratio of the two reads
 * log s_i + sigma (eta_i - eta_ref), unbiased, variance 2 sigma^2. */
#ifndef TRV_JSSP_CONFOUNDED_H
#define TRV_JSSP_CONFOUNDED_H

#include <stdint.h>
#include "jssp-params.h"

#include "jssp.h"
#include "core/rng.h"

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

/* The world's parameters (the real instance aside). */
typedef struct {
  double rho;              /* congestion strength: durations * exp(rho C_e), 0.5 */
  double sigma;            /* reading noise of a timed operation (log scale), 0.15; > 0 */
  double slow_lo, slow_hi; /* slowdown of a slow machine ~ U[slow_lo, slow_hi], 1.3 .. 1.6 */
  int slow_max;            /* 1..slow_max slow machines per seed (uniform); 0: none; 2 */
  double threshold;        /* machine i is called slow when mu_i > ln(threshold), 1.15 */
} TrvConfoundedParams;

/* The parameter table's defaults. */
void trv_confounded_defaults(TrvConfoundedParams *p);
/* From the world's parameters (world.log_congestion, world.reading_sd,
 * world.slow_lo, world.slow_hi, world.slow_max, world.slow_threshold). */
void trv_confounded_params_from(const TrvJsspParams *world, TrvConfoundedParams *p);

/* The candidate plans of an instance: every rule x every believed-slow set
 * of at most two machines (planning durations 2*base, slowed 3*base, so the
 * list scheduler sees integers and plan_slowdown is 1.5). */
typedef struct TrvConfoundedPlans TrvConfoundedPlans;

/* Builds the plans of inst (which must outlive them); inst->n_machines <=
 * TRV_CONFOUNDED_MAX_M.  trv_confounded_plans_free releases them. */
TrvConfoundedPlans *trv_confounded_plans_new(const TrvJsspInstance *inst);
void trv_confounded_plans_free(TrvConfoundedPlans *plans);
int trv_confounded_plans_count(const TrvConfoundedPlans *plans);
/* The instance the plans were built for. */
const TrvJsspInstance *trv_confounded_plans_instance(const TrvConfoundedPlans *plans);
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

#endif
