/* trivium/world.h - declaring a world to Trivium.
 *
 * A world is what the dispatch agents act in: its variables and the
 * candidate causal components G_inf (edges between variables), the
 * likelihood of a probe outcome, how many episodes of how many steps it
 * runs, and tables of functions:
 *
 *  - the world itself (TrvWorldClass): built once per seed by init(), told
 *    when an episode begins;
 *  - its agents (TrvAgentClass), for worlds whose agents Trivium starts and
 *    drives itself (the built-in worlds).  A world without one is played by
 *    the program's own actors, which ask for their plans and record what
 *    they did through trivium/agent.h;
 *  - its referee (TrvRefereeClass): the only part that knows the truth.
 *    It holds the true graph G_true_e of every episode, the oracle and the
 *    gap Delta_e, and is read solely to score what the controllers
 *    believed (exposures, the three regrets).  Controllers and agents never
 *    reach it: a controller sees the declaration (candidates, noise, steps)
 *    and the committed records, an agent sees its plan;
 *  - optionally its report (TrvReportClass, trivium/report.h): tables and
 *    figures of its own, computed from a run's results, that the
 *    `trivium` program writes beside the run's.
 *
 * Register a world with trivium_world_register() before the run; it is
 * then selected by name, like the built-in ones (causalbench, urs, jssp, llm), with
 * the setting `world` (trivium_plugin_set, --cfg=trivium/world:NAME, or a
 * scenario's <world name=...>).  Everything here is plain data and
 * function pointers: no SimGrid type, so a world can be tested alone.
 *
 * A function that fills an array is told the array's capacity (`max`) and
 * returns how many entries it filled.  What a world returns is input, and
 * is checked where it comes in: a count below 0 or above max, a number
 * that is not finite (or outside the range given below), a component
 * outside G_inf, a NULL handle.  Such an answer is an error of code
 * TRV_ERROR_INPUT naming the world, the function and what was expected;
 * the cell stops there (trivium_plugin_finished() returns that error,
 * `trivium run` exits 2).  Nothing a world returns aborts the process. */
#ifndef TRIVIUM_WORLD_H
#define TRIVIUM_WORLD_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include <trivium/error.h>
#include <trivium/export.h>

G_BEGIN_DECLS

/* Most candidate components a world may declare. */
#define TRV_MAX_COMPONENTS 48
/* Most context values an agent records per step. */
#define TRV_RECORD_CONTEXT_MAX 8

/* One candidate component: an edge source -> target between two of the
 * world's variables.  Its id is its index in TrvCandidates.components.
 * `observed`: both ends are observed, so outcome-only learners can see it;
 * an edge out of a hidden variable is absent in their readout. */
typedef struct {
  const char *name;   /* e.g. "C->X"; becomes a column name in episodes.csv */
  int source, target; /* indices into var_names */
  bool observed;
} TrvComponent;

/* The candidate graph G_inf. */
typedef struct {
  int n_vars; /* 1 .. 2 x TRV_MAX_COMPONENTS, each named */
  const char *const *var_names;
  int n_components; /* 1 .. TRV_MAX_COMPONENTS */
  const TrvComponent *components;
} TrvCandidates;

/* A graph over G_inf: one presence flag per component, an effect size
 * kappa for the present ones, and (committed graphs of the ideal commit
 * rule) which components are frozen. */
typedef struct {
  int n;
  bool present[TRV_MAX_COMPONENTS];
  double kappa[TRV_MAX_COMPONENTS];
  bool frozen[TRV_MAX_COMPONENTS];
} TrvGraph;

/* The family of a probe outcome w given do(Z_j = z):
 *   GAUSSIAN   w = beta_j z + noise, noise ~ N(0, s^2), s^2 = noise_var().
 *   BERNOULLI  w in {0, 1} (z plays no part): w ~ Bernoulli(theta0) when
 *              component j is absent, theta0 = baseline_rate(), and an
 *              elevated rate theta ~ Beta(a, b) when it is present. */
typedef enum { TRV_LIKELIHOOD_GAUSSIAN = 0, TRV_LIKELIHOOD_BERNOULLI = 1 } TrvLikelihood;

/* The run's parameters (the table of `trivium params`), read-only to a
 * world: trivium_params_get() gives any of them by key, and
 * trivium_params_block() a world's own (TrvWorldClass.params). */
typedef struct TrvParams TrvParams;
/* The value of parameter `key` ("run.episodes", "world.kappa", ...) as a
 * double (an enum gives its index); false with *error for an unknown key. */
TRIVIUM_API bool trivium_params_get(const TrvParams *params, const char *key, double *value, GError **error);

/* Longest text parameter (a file's path), its NUL included. */
#define TRV_PARAM_TEXT_MAX 1024

/* The value of an INT or ENUM parameter is an int (an enum's: the index of
 * its name among the choices), of a DOUBLE a double, of a TEXT a
 * char[TRV_PARAM_TEXT_MAX] holding printable bytes only ("" by default). */
typedef enum { TRV_PARAM_INT, TRV_PARAM_DOUBLE, TRV_PARAM_ENUM, TRV_PARAM_TEXT } TrvParamType;

/* One parameter: a row of the parameter table, which `trivium params`
 * lists, --set, scenario attributes and run.json set, and
 * docs/parameters.md shows. */
typedef struct {
  const char *key; /* SECTION.NAME, lower case: "world.kappa" (a world's keys are world.*) */
  TrvParamType type;
  size_t offset;              /* where its value is: offsetof(the block's struct, field) */
  double def, min, max;       /* INT and DOUBLE: the default and the range, bounds included */
  const char *const *choices; /* ENUM: the names, NULL-terminated */
  const char *def_choice;     /* ENUM: the default, by name (one of the choices) */
  const char *doc;            /* one line: what it does */
} TrvParamSpec;

/* A module's parameters: its rows and the size of the struct their values
 * live in.  A world's block (TrvWorldClass.params) is registered with the
 * world: its rows join the table after those registered before, each key
 * once in the whole table, and every run's TrvParams holds one such struct
 * for it, filled with the defaults and what the run set. */
typedef struct {
  const TrvParamSpec *specs;
  size_t n_specs;
  size_t size; /* sizeof the struct */
} TrvParamBlock;

/* The values of a registered block in `params` (a struct of block->size
 * bytes, laid out as its rows' offsets say); NULL when the block is not
 * registered. */
TRIVIUM_API const void *trivium_params_block(const TrvParams *params, const TrvParamBlock *block);

/* One operation of an agent's episode, run in the simulator (see
 * TrvAgentClass.operations). */
typedef struct {
  int machine;     /* its host: the one whose property trivium.machine is this number, else the host "m<machine>" */
  double start;    /* simulated seconds after the agent's operations begin */
  double duration; /* simulated seconds: duration x the host's speed flops */
} TrvOperation;

typedef struct TrvAgentClass TrvAgentClass;
typedef struct TrvRefereeClass TrvRefereeClass;
typedef struct TrvReportClass TrvReportClass; /* trivium/report.h */

typedef struct {
  const char *name; /* selects the world; letters, digits, '-' and '_' */
  /* The world for one seed; NULL with *error (TRV_ERROR_INPUT) when the
   * parameters do not fit it (NULL without *error is reported as init
   * failing with no message). */
  void *(*init)(const TrvParams *params, uint64_t seed, GError **error);
  void (*free)(void *world);
  const TrvCandidates *(*candidates)(void *world);
  TrvLikelihood likelihood;
  /* s^2 of a probe outcome, as the world declares it to the controller:
   * positive and finite. */
  double (*noise_var)(void *world);
  int (*episodes)(void *world); /* 1 .. the maximum of run.episodes */
  int (*steps)(void *world);    /* steps T per episode: 1 .. the maximum of run.steps */
  int safe_action;              /* the dispatch gate's default action */
  /* Called once per episode, before the controller plans it, on the world
   * itself (the instance the referee reads). */
  void (*episode_begin)(void *world, int episode);
  /* Optional, for outcome-only learners: the (component, z, w) pairs one
   * observation (a step's recorded context) shows, written to
   * component[i], z[i] and w[i] for i < the count; returns how many, at
   * most max (the room in each array).  Each component in
   * [0, n_components), z and w finite.  A pure function of the context. */
  int (*observational_pairs)(const double *context, int n_context, int *component, double *z, double *w, int max);
  const TrvAgentClass *agent;     /* NULL: the program's own actors are the agents */
  const TrvRefereeClass *referee; /* required */
  /* Optional, for a run's provenance (run.json): the data files the world
   * read (calibration tables, instances), none NULL; returns how many (at
   * most max). */
  int (*inputs)(void *world, const char **paths, int max);
  /* Required with TRV_LIKELIHOOD_BERNOULLI, unused otherwise: theta0, the
   * rate of a probe outcome 1 when the component is absent, in (0, 1). */
  double (*baseline_rate)(void *world);
  /* Optional: the share, in [0, 1], of a full probe's information that a
   * probe by agent a carries in the episode just begun (after
   * episode_begin): a driver in a quiet cell at night reads less.  With
   * budget.probe_value = 1 the plan's probes go to the agents of the
   * highest value first.  NULL: every agent's probes are worth the same. */
  double (*probe_value)(void *world, int agent);
  /* Optional: the world's own duration of one step, in seconds (a city
   * minute is 60), positive and at most 1e6.  With sim.clock = world (the
   * default) the built-in agents play every step on that clock: a step
   * starts, does its work on the agent's host, and ends at its start plus
   * this duration (later, and counted in steps_late, when its work or the
   * city's barrier does not fit), so that simulated time is the world's
   * time.  NULL: the world has no clock of its own, and its steps last
   * their work (JSSP's operations, say), unless sim.step_seconds sets one. */
  double (*step_seconds)(void *world);
  /* Optional: the world's own parameters (world.*), registered with the
   * world; init reads them with trivium_params_block(params, this block).
   * NULL: none. */
  const TrvParamBlock *params;
  /* Optional: the world's own tables, text and figures, which the
   * `trivium` program writes beside a run's (trivium/report.h).  NULL:
   * none.  The library itself never reads it. */
  const TrvReportClass *report;
  /* Optional, for a world that breaks the assumption that the candidate
   * graph holds every cause: true for a component outside the graph the
   * controllers start from, an edge out of an observed variable the log
   * records, which a controller may add to its graph when the log shows a
   * residual the graph cannot explain (trivium-grow); every other
   * controller holds it absent.  At least one component is inside.  Called
   * on a world fresh from init().  NULL: every component is inside. */
  bool (*outside)(void *world, int component);
} TrvWorldClass;

/* The agents of a world that Trivium drives itself.  Per step t the agent
 * observes, runs the probe its plan assigns to step t (if any), then the
 * dispatch head acts: plan() once per episode with the committed graph,
 * or the safe action while the dispatch gate is closed. */
struct TrvAgentClass {
  /* Agent a's own handle on the world (its own noise streams); not NULL. */
  void *(*instance)(void *world, int agent);
  void (*free)(void *agent);
  void (*episode_begin)(void *agent, int episode);
  /* What the agent sees at step t: fills context with at most max values
   * (max is TRV_RECORD_CONTEXT_MAX), returns how many.  The values are
   * recorded as they are (NaN for a reading that is missing, say). */
  int (*observe)(void *agent, int step, double *context, int max);
  /* The intervention do(Z_component = z); returns the outcome w (finite). */
  double (*probe)(void *agent, int component, double z);
  /* The dispatch head: the action planned with the committed graph. */
  int (*plan)(void *agent, const TrvGraph *ghat);
  /* Plays action a at the current step; returns the payoff (finite). */
  double (*act)(void *agent, int action);
  /* Worlds whose agents share one state (a city): NULL for the others.
   * Once every agent acted at step t, step_end(world, t) runs exactly once,
   * and each agent's payoff for the step is then step_payoff(agent)
   * (finite). */
  void (*step_end)(void *world, int step);
  double (*step_payoff)(void *agent);
  /* Optional: the simulated work (flops, finite and >= 0) of the agent's
   * episode just played, executed on its host after its steps; NULL:
   * sim.step_flops per step plus sim.probe_flops per probe, run inside
   * each step on the world's clock (step_seconds), or after the episode
   * when steps last their work. */
  double (*work)(void *agent);
  /* Optional: operations the episode just played runs on machines, after
   * the agent's work: one actor per machine, on the machine's host,
   * executes that machine's operations in order, each from its start on,
   * and the agent waits for them.  An operation that does not start at
   * its start or end at start + duration in simulated time (a host that
   * another actor shares, a missing machine host) fails the run.  Returns
   * how many (>= 0) and points *ops to them (the world's array: it stays
   * valid until the next call on the agent); each machine >= 0, start and
   * duration finite and >= 0. */
  int (*operations)(void *agent, const TrvOperation **ops);
  /* Optional: the share, in [0, 1], of a full probe's information that a
   * probe by this agent at step t of the episode just begun would carry,
   * were the agent to stay where it is; with budget.probe_value = 1 an
   * agent runs its probes at its steps of highest value (NULL: probe i at
   * step i). */
  double (*probe_value_at)(void *agent, int step);
  /* Optional: common random numbers across agent counts and fault rates.
   * Called before each probe with the probe's number in the run (0, 1,
   * ...: the plans' probes in plan order, episode after episode), which
   * names the same probe at every agent count whichever agent runs it.
   * The world then draws the probe's randomness as draw `number` of one
   * stream of the seed that all its agents share (skipping the draws of
   * the probes other agents run), not from the agent's own, so that a
   * probe's outcome depends on the probe and not on who runs it; the
   * probes' signs are numbered the same way.  An agent's numbers grow
   * unless the world places probes by value (probe_value_at).  A world
   * whose probe outcome depends on the agent's own state (where a driver
   * is) leaves it NULL: each agent then draws from its own streams, in its
   * own order. */
  void (*probe_number)(void *agent, uint64_t number);
};

/* The referee: called on the world after episode_begin(e), it answers for
 * episode e.  Only truth is required. */
struct TrvRefereeClass {
  /* G_true_e with its effect sizes (kappa = 0 for an absent component),
   * into g as given: g->n is n_components and stays so; kappa finite. */
  void (*truth)(void *world, TrvGraph *g);
  /* Delta_e, the per-step cost of acting on a wrong model (R_temp), finite
   * and >= 0; NULL: 0. */
  double (*gap)(void *world);
  /* Components the dispatch task depends on (R_temp's set M); NULL: all. */
  bool (*task_relevant)(void *world, int component);
  /* Episodes where the truth changes, >= 0 and in non-decreasing order;
   * fills out with at most max, returns how many.
   * Called on a world fresh from init(), before any episode.  NULL: none. */
  int (*change_points)(void *world, int *out, int max);
  /* Outcome regret R_out, either per step against the oracle's action ... */
  int (*oracle)(void *world);
  double (*expected_payoff)(void *world, int action); /* finite */
  /* ... or for the whole episode (an oracle of the world's own, finite);
   * when neither is given R_out is 0. */
  double (*episode_outcome_regret)(void *world);
  /* Per-episode metrics of the world, named by metric_names
   * (NULL-terminated); they become columns of episodes.csv.  Fills values
   * with at most max (TRV_WORLD_METRICS_MAX), returns how many; a value
   * may be NaN (not defined this episode). */
  int (*episode_metrics)(void *world, double *values, int max);
  const char *const *metric_names;
};

/* Makes a world selectable by name, and its parameters (params) part of
 * the table.  False with *error when the class is incomplete (no name,
 * init, candidates, referee or truth; more than TRV_MAX_COMPONENTS
 * components is checked when the world is built), the name is taken by
 * another class, or a parameter is malformed or has a key the table
 * already holds.  Registering the same class twice is a no-op. */
TRIVIUM_API bool trivium_world_register(const TrvWorldClass *world, GError **error);
/* The class registered under `name`, or NULL. */
TRIVIUM_API const TrvWorldClass *trivium_world_lookup(const char *name);

G_END_DECLS

#endif
