/* world.h - what a world is, to the controller and to the runner.
 *
 * A world is a table of functions (STYLE: init, episode_begin, observe,
 * probe, act, truth, gap, free, and the dispatch head `plan`).  Worlds live
 * in envs/ and never call each other.  The controller decides only from
 * what agents commit (records); it reads the world's truth, gap and
 * expected payoffs solely to compute readouts and regrets. */
#ifndef TRV_WORLD_H
#define TRV_WORLD_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "graph.h"
#include "params.h"

typedef struct TrvWorldClass TrvWorldClass;

struct TrvWorldClass {
  const char *name;
  /* Builds the world for one seed; NULL with *error on bad parameters. */
  void *(*init)(const TrvParams *params, uint64_t seed, GError **error);
  /* The instance agent `agent` plays in: the same truth schedule, noise
   * streams of its own.  Agent 0's instance draws exactly what the world
   * itself would, so one agent reproduces the simulator-free loop. */
  void *(*agent_instance)(void *world, int agent);
  const TrvCandidates *(*candidates)(void *world);
  /* Noise variance s^2 of a probe outcome, as the world declares it. */
  double (*noise_var)(void *world);
  int (*episodes)(void *world);
  int (*steps)(void *world);
  int safe_action;
  /* Change-points of the truth schedule (episodes where it changes). */
  int (*change_points)(void *world, int *out, int max);
  void (*episode_begin)(void *world, int episode);
  /* Observational sample of step t; fills context, returns its length. */
  int (*observe)(void *world, int step, double *context);
  /* One probe do(Z_j = z); returns the outcome w. */
  double (*probe)(void *world, int j, double z);
  /* Plays dispatch action a at the current step; returns the realised payoff. */
  double (*act)(void *world, int a);
  /* Expected payoff of action a in the current episode. */
  double (*expected_payoff)(void *world, int a);
  /* The current episode's true graph G_true_e with effect sizes. */
  void (*truth)(void *world, TrvGraph *g);
  /* Delta_e of the current episode. */
  double (*gap)(void *world);
  /* Components on which the dispatch task depends (for R_temp). */
  bool (*task_relevant)(void *world, int j);
  /* The dispatch head: the action planned with a committed graph. */
  int (*plan)(void *world, const TrvGraph *ghat);
  /* The oracle's action: plan with the true graph. */
  int (*oracle)(void *world);
  /* Outcome-only learners' regression pairs from one observational sample:
   * fills (j, z, w) triples, returns how many. */
  int (*observational_pairs)(void *world, const double *context, int n_context, int *j, double *z, double *w);
  void (*free)(void *world);

  /* ---- worlds whose agents share one city (URS); NULL for the others ----
   * agent_instance() then returns a handle on the shared state (the agent's
   * own driver); act() only records the agent's decision for the step and
   * returns 0; once every agent acted at step t the runner calls
   * step_end(world, t) exactly once on the world itself (the fleet moves,
   * requests are matched), and each agent's payoff for the step is then
   * step_payoff(agent_instance).  free() is called on every agent instance
   * before the world itself. */
  void (*step_end)(void *world, int step);
  double (*step_payoff)(void *agent_world);
  /* Outcome regret of the finished episode, for worlds that measure it
   * against an oracle of their own (an oracle fleet on the same requests);
   * NULL: summed per step from expected_payoff(). */
  double (*episode_outcome_regret)(void *world);
  /* Per-episode world metrics (e.g. served, served_rate, wait_mean,
   * wait_p95, empty_km): fills up to max values, returns how many; names
   * are fixed per world (metric_names, NULL-terminated). */
  int (*episode_metrics)(void *world, double *values, int max);
  const char *const *metric_names;
};

#define TRV_WORLD_METRICS_MAX 8

/* The worlds' names, NULL-terminated: the scenario loader (core) checks
 * names against it; envs/worlds.c maps each to its class (and asserts the
 * two agree). */
extern const char *const trv_world_names[];
const TrvWorldClass *trv_world_lookup(const char *name);

#endif
