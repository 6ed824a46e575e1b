/* controller.h - controllers (docs/controller.md; their names:
 * docs/scenarios.md, "<controllers names=...>"): a table of functions,
 * selected by name from a registry (registry.h).
 *
 * A controller plans an episode (the committed graph G_hat_e, the probes,
 * the snapshot of its belief that the agents' dispatch gate reads) and
 * absorbs the episode's committed records (posterior, detectors, commit
 * rule, LRCP: G_hat_{e+1}).  It is given the world's declaration
 * (TrvWorldInfo) and never the world: it decides from committed records
 * only.  What it believed during the episode it hands back as TrvBeliefs,
 * which the referee (protocol.h) scores against the truth. */
#ifndef TRV_CONTROLLER_H
#define TRV_CONTROLLER_H

#include <stdbool.h>
#include <stddef.h>
#include <trivium/results.h>

#include "graph.h"
#include "lrcp.h"
#include "params.h"
#include "posterior.h"
#include "record.h"
#include "registry.h"
#include "schedule.h"
#include "world.h"

/* Most probes one episode's plan can carry. */
#define TRV_PLAN_MAX_PROBES 4096

/* A plan: for the whole episode (controller) or one agent's share. */
typedef struct {
  int episode;
  int agents;    /* agents the plan will be split over (set before plan()) */
  TrvGraph ghat; /* G_hat_e the dispatch head plans with */
  int n_probes;
  int *probes; /* component of each probe, in order (n_probes of them) */
  /* per probe: its number in the run (the session counts the probes it
   * planned, episode after episode, in plan order; a share keeps its
   * probes' numbers), when the world numbers its probes
   * (TrvAgentClass.probe_number); NULL otherwise */
  uint64_t *numbers;
  double zabs;       /* |z| of every probe */
  bool gate;         /* apply the dispatch gate */
  bool place_probes; /* built-in agents run the probes at their steps of highest probe value */
  double rho;
  TrvPosterior *snapshot; /* the belief the gate starts from, or NULL */
  /* Only in the whole episode's plan, never in an agent's share.  Set
   * before plan(): what each of the `agents` costs (NULL: unknown, take
   * them as equal) and their probe values (NULL: none), and room for
   * TRV_PLAN_MAX_PROBES agents in agent_of.  A controller that assigns
   * its probes to agents itself fills agent_of[0..n_probes) and sets
   * `assigned`; otherwise the session splits the plan (trv_assign_probes). */
  const TrvAgentCost *agent_cost;
  const double *agent_value;
  int *agent_of;
  bool assigned;
  /* Only for a controller class that sees the truth (a yardstick, never a
   * learner: TrvControllerClass.sees_truth), in the whole episode's plan:
   * the referee's graph for the episode; NULL otherwise and in every copy. */
  const TrvGraph *truth;
} TrvPlan;

TrvPlan *trv_plan_copy(const TrvPlan *plan);
/* Frees what the plan owns (probes, snapshot) and the plan. */
void trv_plan_free(TrvPlan *plan);
/* Bytes of a plan in a message (sizes the simulated transfer). */
long trv_plan_wire_bytes(const TrvPlan *plan);

/* One point of the in-episode belief trajectory P_{e,t}: from step `step`
 * on, for `repeat` accumulations of R_epi.  `map` is the task readout's
 * MAP and `confident` says the belief is sure enough to commit (the two
 * decide tau_belief against the truth); its loss terms live in the beliefs'
 * `losses` (trv_beliefs_losses). */
typedef struct {
  int step, repeat;
  uint64_t map;
  bool confident;
} TrvBeliefPoint;

/* What a controller believed during an episode, for the referee. */
typedef struct {
  TrvGraph ghat;  /* G_hat_e: the graph the episode acted on */
  bool committed; /* G_hat_e came from a commit (false before the first one, or after an alarm cleared it) */
  bool map[TRV_MAX_COMPONENTS];
  double p[TRV_MAX_COMPONENTS]; /* presence at the episode's end */
  int n;                        /* components */
  GArray *points;               /* TrvBeliefPoint, in order */
  GArray *losses;               /* double: per point, n terms -log P(j absent) then n terms -log P(j present) */
} TrvBeliefs;

void trv_beliefs_init(TrvBeliefs *b, int n);
void trv_beliefs_clear(TrvBeliefs *b); /* empties the trajectory, keeps the arrays */
void trv_beliefs_free(TrvBeliefs *b);
/* Appends a point; returns its 2n loss slots (absent[0..n-1], present[0..n-1]),
 * valid until the next push. */
double *trv_beliefs_push(TrvBeliefs *b, int step, int repeat, uint64_t map, bool confident);
/* The last point (NULL when empty). */
TrvBeliefPoint *trv_beliefs_last(TrvBeliefs *b);
/* A point of `post` over its components: loss terms from the exact
 * log-odds, MAP, and confidence (entropy <= h_ent) over the components of
 * `active` (NULL: all; one the controller's graph does not hold is absent
 * in the MAP, adds no entropy, and keeps the loss terms of its posterior,
 * which no evidence reaches: the prior), for a posterior whose
 * components outside `changed` (a bit mask; all of them at the
 * trajectory's first point) have the log-odds of the previous point: only
 * the changed components' terms are computed, the others copied, the same
 * doubles.  h[0..n) holds the components' entropies
 * (trv_posterior_component_entropy_bits) from one call to the next. */
void trv_beliefs_push_changed(TrvBeliefs *b, const TrvPosterior *post, const bool *active, double h_ent, int step,
                              uint64_t changed, double *h);

/* One episode's committed records as absorb receives them: all of them
 * (recs, in arrival order) with their fold order (order[i] is the i-th in
 * fold order, replay.h), and those of a known component (0 <= a_int <
 * n_components: probes and resets) copied out in fold order. */
typedef struct {
  const TrvRecord *recs;
  const size_t *order;
  size_t n;
  const TrvRecord *probes;
  size_t n_probes;
} TrvEpisodeRecords;

/* A controller: the entry's class (TrvModule.klass); the entry's variant
 * is given to create().  Its parameters are its entry's block, read with
 * trv_params_block(params, block). */
typedef struct {
  const char *summary;
  void *(*create)(const TrvParams *params, const TrvWorldInfo *world, uint64_t seed, int variant);
  void (*plan)(void *self, int episode, TrvPlan *plan);
  /* The committed records of the episode (a controller reads them in fold
   * order); row->reward is already filled.  Fills its own readouts of the
   * row (entropy, budget, probes, r_hat_epi, commit, LRCP, detector),
   * *beliefs (given with an empty trajectory), and appends the
   * controller's own records to *out (TrvRecord).  False with *error when
   * what the world gave it is out of bounds (world-call.h). */
  bool (*absorb)(void *self, int episode, const TrvEpisodeRecords *recs, TrvEpisodeRow *row, TrvBeliefs *beliefs,
                 GArray *out, GError **error);
  /* The posterior (NULL for controllers without one). */
  const TrvPosterior *(*posterior)(void *self);
  /* true when the posterior is the fold (replay.h) of the committed records,
   * so that the log can snapshot and replay it. */
  bool event_sourced;
  /* true for a yardstick that is handed the episode's truth in its plan
   * (TrvPlan.truth): trivium-oracle.  No learner sets it. */
  bool sees_truth;
  void (*free)(void *self);
} TrvControllerClass;

typedef struct {
  const TrvControllerClass *klass;
  int variant;
  void *self;
} TrvController;

/* Registers a controller (see trv_registry_add).  An entry marked
 * on_request runs only when named; the others are the defaults. */
bool trv_controller_register(const TrvModule *controller, GError **error);
/* The shipped controllers, in the order they are registered. */
const TrvModule *trv_controllers_builtin(size_t *n);
/* Registers the shipped controllers (aborts if one is refused: a bug). */
void trv_controllers_register_builtin(void);
/* Registered controller names, NULL-terminated, in registration order. */
const char *const *trv_controller_names(void);
/* The controllers a scenario without <controllers> runs: those not marked
 * on_request (of the shipped ones, every one but trivium-parallel, which
 * with one agent is trivium to the bit: name it to run it). */
const char *const *trv_controller_defaults(void);
/* Creates the controller called `name`; NULL with *error if unknown. */
TrvController *trv_controller_new(const char *name, const TrvParams *params, const TrvWorldInfo *world, uint64_t seed,
                                  GError **error);
void trv_controller_free(TrvController *c);

/* The shipped controllers' parameters, declared beside their code. */
typedef struct {
  double reset_threshold; /* PartialReset (reset.h) */
  double rho;             /* the dispatch gate */
  double front;           /* budget.front: at least front x steps probes while H > h_ent */
} TrvTriviumParams;
extern const TrvParamBlock trv_trivium_params;
typedef struct {
  int matched; /* probe-matched budget (1) or a probe every step (0) */
} TrvEpistemicResetParams;
extern const TrvParamBlock trv_epistemic_reset_params;
typedef struct {
  double ratio; /* trivium-grow: the residual variance (in units of s2) its CUSUM tests for */
  double h;     /* and the CUSUM's threshold, nats */
} TrvGrowParams;
extern const TrvParamBlock trv_grow_params;
typedef struct {
  double sd; /* rebuild after an episode this many standard errors below the mean */
} TrvReactiveParams;
extern const TrvParamBlock trv_reactive_params;

#endif
