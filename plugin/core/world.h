/* world.h - the worlds inside the library: the registry behind
 * trivium_world_register() and what the protocol derives from a world's
 * declaration.
 *
 * The classes themselves are public (trivium/world.h).  The registry
 * (registry.h) maps a name to a class and its parameters; the built-in
 * worlds (envs/) are registered by the layer above them (envs/worlds.h),
 * in the order plugin/api/modules.c gives, which the command line and
 * trivium_plugin_init() call.  A controller is never given the world: it
 * gets a TrvWorldInfo, the declaration alone. */
#ifndef TRV_WORLD_H
#define TRV_WORLD_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <trivium/world.h>

#include "graph.h"
#include "params.h"

/* The longest step a world may declare (seconds): sim.step_seconds' bound. */
#define TRV_STEP_SECONDS_MAX 1e6

/* What a controller may know of a world: its declaration. */
typedef struct {
  const char *name; /* the world's, for messages */
  const TrvCandidates *cand;
  double noise_var; /* s^2 of a probe outcome */
  TrvLikelihood likelihood;
  double theta0; /* Bernoulli: the baseline rate of a probe outcome 1 */
  int steps, episodes;
  int safe_action;
  double step_seconds; /* the world's own step duration (TrvWorldClass.step_seconds), 0: none */
  /* NULL when the world declares no observational channel; called
   * through trv_world_observational_pairs (world-call.h), which checks it */
  int (*observational_pairs)(const double *context, int n_context, int *component, double *z, double *w, int max);
  /* the components outside the candidate graph the controllers start
   * from (TrvWorldClass.outside), and how many */
  bool outside[TRV_MAX_COMPONENTS];
  int n_outside;
} TrvWorldInfo;

/* The declaration of an initialised world; false with *error when it is
 * out of bounds (no candidates, more than TRV_MAX_COMPONENTS, variables
 * unnamed or more than twice as many as components, a noise variance that
 * is not positive and finite, episodes or steps outside the bounds of
 * run.episodes and run.steps). */
bool trv_world_info(const TrvWorldClass *wc, void *world, TrvWorldInfo *info, GError **error);

/* Names of the registered worlds, NULL-terminated, in registration order
 * (owned by the registry; valid until the next registration). */
const char *const *trv_world_names(void);

/* true when g differs from the truth on a component the dispatch task
 * depends on (the referee's task_relevant; all components without one). */
bool trv_graph_wrong_on_task(const TrvWorldClass *wc, void *world, const TrvGraph *g, const TrvGraph *truth);

#endif
