/* world.c - the registry of worlds (trivium_world_register) and the checks
 * a world's declaration must pass before a run uses it (its answers while
 * it runs are checked through world-call.h).
 *
 * The registry is a TrvRegistry (registry.h) in registration order;
 * lookups are by name.  A class is kept by pointer: the caller keeps it
 * alive for the life of the process (the built-in classes are static). */
#include "world.h"

#include <math.h>
#include <string.h>

#include "registry.h"
#include "world-call.h"

static TrvRegistry worlds = {.kind = "world"};

bool trivium_world_register(const TrvWorldClass *wc, GError **error) {
  const char *missing = !wc                   ? "the class"
                        : !wc->name           ? "a name of letters, digits, '-' and '_'"
                        : !wc->init           ? "init"
                        : !wc->free           ? "free"
                        : !wc->candidates     ? "candidates"
                        : !wc->noise_var      ? "noise_var"
                        : !wc->episodes       ? "episodes"
                        : !wc->steps          ? "steps"
                        : !wc->episode_begin  ? "episode_begin"
                        : !wc->referee        ? "a referee"
                        : !wc->referee->truth ? "the referee's truth"
                                              : NULL;
  if (!missing && wc->agent) {
    const TrvAgentClass *a = wc->agent;
    if (!a->instance || !a->free || !a->episode_begin || !a->observe || !a->probe || !a->plan || !a->act)
      missing = "every function of its agent class (or no agent class)";
    else if (!a->step_end != !a->step_payoff)
      missing = "both step_end and step_payoff, or neither";
  }
  if (!missing && wc->likelihood != TRV_LIKELIHOOD_GAUSSIAN && wc->likelihood != TRV_LIKELIHOOD_BERNOULLI)
    missing = "a supported likelihood (gaussian or bernoulli)";
  if (!missing && wc->likelihood == TRV_LIKELIHOOD_BERNOULLI && !wc->baseline_rate)
    missing = "baseline_rate (its likelihood is bernoulli)";
  if (missing) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "world %s: the class needs %s",
                wc && wc->name ? wc->name : "(unnamed)", missing);
    return false;
  }
  TrvModule m = {.name = wc->name, .klass = wc, .params = wc->params};
  return trv_registry_add(&worlds, &m, error);
}

const TrvWorldClass *trivium_world_lookup(const char *name) {
  const TrvModule *m = trv_registry_lookup(&worlds, name);
  return m ? m->klass : NULL;
}

const char *const *trv_world_names(void) { return worlds.names; }

/* What the candidate graph c lacks to be within bounds, or NULL. */
static const char *candidates_lack(const TrvCandidates *c) {
  if (!c) return "a candidate graph, not NULL";
  if (c->n_components < 1 || c->n_components > TRV_MAX_COMPONENTS) return "1 to 48 candidate components";
  if (!c->components || c->n_vars < 1 || !c->var_names) return "variables and components";
  if (c->n_vars > 2 * TRV_MAX_COMPONENTS) return "at most 96 variables";
  for (int v = 0; v < c->n_vars; v++)
    if (!c->var_names[v]) return "every variable named";
  for (int j = 0; j < c->n_components; j++) {
    const TrvComponent *k = &c->components[j];
    if (!k->name || k->source < 0 || k->source >= c->n_vars || k->target < 0 || k->target >= c->n_vars)
      return "components named and between declared variables";
  }
  return NULL;
}

bool trv_world_info(const TrvWorldClass *wc, void *world, TrvWorldInfo *info, GError **error) {
  memset(info, 0, sizeof *info);
  info->name = wc->name;
  info->cand = wc->candidates(world);
  info->noise_var = wc->noise_var(world);
  info->steps = wc->steps(world);
  info->episodes = wc->episodes(world);
  info->safe_action = wc->safe_action;
  info->observational_pairs = wc->observational_pairs;
  info->likelihood = wc->likelihood;
  info->theta0 = wc->likelihood == TRV_LIKELIHOOD_BERNOULLI ? wc->baseline_rate(world) : 0.0;
  info->step_seconds = wc->step_seconds ? wc->step_seconds(world) : 0.0;
  const char *lack = candidates_lack(info->cand);
  if (lack) return trv_world_refuse(error, wc->name, "candidates", "returned a graph out of bounds; expected %s", lack);
  if (!(info->noise_var > 0) || !isfinite(info->noise_var))
    return trv_world_refuse(error, wc->name, "noise_var", "returned %g; expected a positive, finite noise variance",
                            info->noise_var);
  if (info->likelihood == TRV_LIKELIHOOD_BERNOULLI && !(info->theta0 > 0 && info->theta0 < 1))
    return trv_world_refuse(error, wc->name, "baseline_rate",
                            "returned %g; expected a baseline rate strictly "
                            "between 0 and 1",
                            info->theta0);
  if (wc->step_seconds && !(info->step_seconds > 0 && info->step_seconds <= TRV_STEP_SECONDS_MAX))
    return trv_world_refuse(error, wc->name, "step_seconds", "returned %g; expected a duration in (0, %g] seconds",
                            info->step_seconds, TRV_STEP_SECONDS_MAX);
  /* the bounds of the run's own settings (the parameter table) */
  int max_steps = (int)trv_param_lookup("run.steps")->max, max_episodes = (int)trv_param_lookup("run.episodes")->max;
  if (info->steps < 1 || info->steps > max_steps)
    return trv_world_refuse(error, wc->name, "steps", "returned %d; expected 1 to %d (run.steps' bounds)", info->steps,
                            max_steps);
  if (info->episodes < 1 || info->episodes > max_episodes)
    return trv_world_refuse(error, wc->name, "episodes", "returned %d; expected 1 to %d (run.episodes' bounds)",
                            info->episodes, max_episodes);
  int n = info->cand->n_components;
  for (int j = 0; wc->outside && j < n; j++) {
    info->outside[j] = wc->outside(world, j);
    info->n_outside += info->outside[j];
    if (info->outside[j] && !info->cand->components[j].observed)
      return trv_world_refuse(error, wc->name, "outside",
                              "returned true for component %d (%s), an edge out of a hidden variable; expected "
                              "outside components out of observed variables",
                              j, info->cand->components[j].name);
  }
  if (info->n_outside == n)
    return trv_world_refuse(error, wc->name, "outside",
                            "returned true for every component; expected at least one inside the candidate graph");
  return true;
}

bool trv_graph_wrong_on_task(const TrvWorldClass *wc, void *world, const TrvGraph *g, const TrvGraph *truth) {
  for (int j = 0; j < truth->n; j++) {
    bool relevant = !wc->referee->task_relevant || wc->referee->task_relevant(world, j);
    if (relevant && g->present[j] != truth->present[j]) return true;
  }
  return false;
}
