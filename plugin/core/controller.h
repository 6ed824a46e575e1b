/* controller.h - controllers (SPEC 3.9) and the episode protocol.
 *
 * One episode, whoever carries the messages (the SimGrid attachment, or the
 * direct loop of tests):
 *   1. controller->plan(e)      -> a TrvPlan: the committed graph G_hat_e,
 *                                  the probe list, a posterior snapshot;
 *   2. trv_agent_run_episode()  -> the agent plays T steps in the world and
 *                                  produces one record per step;
 *   3. the records are committed to the log; only committed ones go on;
 *   4. trv_row_fill_readouts() -> the readouts that need no controller
 *      (truth, reward, R_out, the world's metrics);
 *   5. controller->absorb(e, committed records) -> updates the posterior,
 *      detectors, G_hat_{e+1}, fills its part of the episode's readout row
 *      (beliefs, exposures, regrets of its trajectory), and returns the
 *      controller's own records (PartialReset) to commit.
 * A controller decides from committed records only; it reads the world's
 * truth solely to fill readouts. */
#ifndef TRV_CONTROLLER_H
#define TRV_CONTROLLER_H

#include <stdbool.h>
#include <stddef.h>

#include "graph.h"
#include "lrcp.h"
#include "params.h"
#include "posterior.h"
#include "record.h"
#include "world.h"

#define TRV_PLAN_MAX_PROBES 4096

typedef struct {
  int episode;
  TrvGraph ghat;       /* G_hat_e the dispatch head plans with */
  int n_probes;
  int probes[TRV_PLAN_MAX_PROBES]; /* component of each probe, in order */
  double zabs;         /* |z| of every probe */
  bool observational;  /* the agent's snapshot learns from observations */
  bool gate;           /* apply the dispatch gate */
  double rho;
  TrvPosterior *snapshot; /* posterior the agent starts from (owned by plan) */
} TrvPlan;

void trv_plan_clear(TrvPlan *plan);

/* One row of episodes.csv: readouts of one (seed, controller, episode). */
typedef struct {
  int seed, episode;
  int n_components;
  uint64_t truth, map, ghat; /* presence bitmasks */
  double p[TRV_MAX_COMPONENTS];
  int posterior_exposure, committed_exposure;
  double entropy_bits;
  int budget, probes, gated_steps;
  double reward, r_out, r_epi, r_hat_epi, r_temp;
  int tau;
  int committed; /* a commit rule took or changed G_hat at this boundary */
  int lrcp_status, lrcp_n;
  int lrcp_eps[TRV_LRCP_MAX_ITER + 1];
  double detector_stat;
  int alarm, resets;
  int commits;         /* commit operations (one per agent per episode) */
  int commit_attempts; /* messages sent for them, retries included */
  int commit_failures; /* commit operations never acknowledged by a majority */
  int records_lost;    /* best effort: records that never reached the log */
  double sim_time;
  double soft_score;
  int n_world_metrics;                           /* values of the world's metric_names */
  double world_metrics[TRV_WORLD_METRICS_MAX];
  double controller_wall; /* wall seconds in the controller's plan and absorb (benchmarks only, never written) */
} TrvEpisodeRow;

typedef struct TrvController TrvController;

typedef struct {
  const char *name;
  const char *summary;
  void *(*create)(const TrvParams *params, void *world, const TrvWorldClass *wc, uint64_t seed, int variant);
  void (*plan)(void *self, int episode, TrvPlan *plan);
  /* recs: the committed records of the episode, in any order (a controller
   * reads them in fold order, replay.h).  Appends the controller's own
   * records to *out (g_array of TrvRecord). */
  void (*absorb)(void *self, int episode, const TrvRecord *recs, size_t n, TrvEpisodeRow *row, GArray *out);
  /* The posterior (NULL for controllers without one). */
  const TrvPosterior *(*posterior)(void *self);
  /* true when the posterior is the fold (replay.h) of the committed records,
   * so that the log can snapshot and replay it. */
  bool event_sourced;
  void (*free)(void *self);
} TrvControllerClass;

struct TrvController {
  const TrvControllerClass *klass;
  int variant;
  void *self;
};

/* Registered controller names, NULL-terminated, in table order. */
extern const char *const trv_controller_names[];
/* Creates the controller called `name`; NULL with *error if unknown. */
TrvController *trv_controller_new(const char *name, const TrvParams *params, void *world, const TrvWorldClass *wc,
                                  uint64_t seed, GError **error);
void trv_controller_free(TrvController *c);

/* For worlds whose agents share one city (world.h): called by every agent
 * after it acted at step t; returns once step_end(t) has run on the world.
 * NULL for worlds whose agents are independent. */
typedef struct {
  void (*wait)(void *ctx, int step);
  void *ctx;
} TrvStepSync;

/* Agent side of step 2: plays the episode's T steps.  Appends one record per
 * step to recs (seq numbers from *seq), returns the number of gated steps. */
int trv_agent_run_episode(const TrvWorldClass *wc, void *world, const TrvPlan *plan, uint32_t agent, uint64_t *seq,
                          TrvRng *probe_rng, GArray *recs, const TrvStepSync *sync);

/* The controller's record closing episode e (its seq never collides with the
 * controller's PartialReset records). */
TrvRecord trv_episode_end_record(int episode);

/* true when g differs from the truth on a component the dispatch task depends
 * on (the episode then belongs to M, the set R_temp sums over). */
bool trv_graph_wrong_on_task(const TrvWorldClass *wc, void *world, const TrvGraph *g, const TrvGraph *truth);

/* The readouts that need no controller, filled by the protocol before
 * absorb from the world and the episode's records: truth, reward and R_out
 * (summed in fold order, replay.h, so that they do not depend on the order
 * records arrived in), the world's metrics. */
void trv_row_fill_readouts(TrvEpisodeRow *row, const TrvWorldClass *wc, void *world, const TrvRecord *recs, size_t n);
/* What a controller believed at the episode boundary, into its row (after
 * trv_row_fill_readouts): the committed graph G_hat_e, the MAP graph and the
 * presence probabilities, and the soft score and exposures against the
 * row's truth. */
void trv_row_set_beliefs(TrvEpisodeRow *row, const TrvGraph *ghat, const bool *map, const double *p);

#endif
