/* plugin.c - Trivium as a SimGrid plugin (trivium/trivium.h): settings,
 * agents, the run's end and its results, on top of the same cell as
 * `trivium run` (cell-sim.c).
 *
 * Settings are the keys of the parameter table (`trivium params`) and the
 * plugin's own (world, controller, seed, role.*, ctl.file, below), each
 * also a SimGrid configuration flag trivium/KEY (declared in s4u.cpp), so
 * --cfg=trivium/run.episodes:50 on the program's command line and
 * trivium_plugin_set("run.episodes", "50") do the same.  Settings are
 * fixed once the cell is built.
 *
 * The cell is built at time 0 by a boot actor started when the platform
 * is created (or by the first agent that asks for a plan, whichever runs
 * first), once every deployed actor exists.  A bad setting, a missing role
 * or an unknown world stops the simulation there: one error message, every
 * other actor killed at time 0, and trivium_plugin_finished() returns the
 * error.
 *  - the agents are the actors attached with trivium_agent_attach() and
 *    the actors whose deployment gives them the property trivium.agent, in
 *    pid order; each gets its index as an extension of its actor;
 *  - a program with no such actor gets agents.count built-in agents, on
 *    the hosts of the role agent, when its world has an agent class.
 * A program's own agents come and go (agent-life.c): they leave
 * (trivium_agent_leave, or their actor ends), and an actor SimGrid
 * restarts takes back its agent's identity when it asks for a plan or is
 * attached again.  The controller sends STOP to a program's own agents when
 * the run is over, so trivium_agent_next_episode() returns NULL.  After the
 * run, the rows and summary are kept for the getters of trivium/results.h
 * and written as a run directory by trivium_results_write_dir
 * (program-dir.c).  One simulation per
 * process, so the plugin's state is one static structure, like the
 * extension ids of SimGrid's own plugins. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <trivium/trivium.h>

#include "core/results.h"
#include "sim-internal.h"
#include "sim-params.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(trivium_plugin, trivium, "Trivium: the plugin's settings and agents");

/* The plugin's own settings (the parameter table holds the others). */
static const struct {
  const char *key, *def, *doc;
} settings[] = {
    {"world", "causalbench", "the world, by name (the built-in causalbench and urs, or one registered by the program)"},
    {"controller", "trivium", "the controller (trivium, rlvr, rlvr-memory, reactive, epistemic-reset, ...)"},
    {"seed", "1", "the seed of every random stream of the run"},
    {"role.controller", "",
     "hosts of the controller: comma-separated globs (empty: the hosts whose property "
     "trivium.role is controller)"},
    {"role.ctl", "", "hosts of the log replicas: globs (empty: trivium.role=ctl)"},
    {"role.agent", "", "hosts of the built-in agents: globs (empty: trivium.role=agent)"},
    {"ctl.file", "", "write the decided log to this file, which must not exist (empty: no file)"},
    {"fault", "",
     "fault processes, as trivium run --fault takes them, separated by ';': "
     "link-flap:GLOB:MTBF:MTTR[:START[:STOP]], host-crash:GLOB:AT:DURATION, partition:GLOBS:AT:DURATION "
     "(empty: none)"},
    {"output", "",
     "when the simulation ends, write the run's directory here, as trivium_results_write_dir() does "
     "(empty: no directory)"},
};
enum {
  S_WORLD,
  S_CONTROLLER,
  S_SEED,
  S_ROLE_CONTROLLER,
  S_ROLE_CTL,
  S_ROLE_AGENT,
  S_CTL_FILE,
  S_FAULT,
  S_OUTPUT,
  S_COUNT
};

static struct {
  bool ready, initialised, building, built, failed, finished_called;
  bool by_simgrid;  /* attached by --cfg=plugin:trivium: the plugin ends the run itself */
  bool by_program;  /* the program called trivium_plugin_init() */
  bool ended;       /* the simulation ended and the run was finished (finish_run) */
  bool finished_ok; /* finish_run's result; its error is plugin.error */
  bool not_attached_said;
  bool ended_early; /* every agent left before the last episode */
  TrvParams params;
  bool agents_set; /* agents.count was given */
  char *value[S_COUNT];
  uint64_t seed;
  GPtrArray *actors;    /* registered agent actors, in index order */
  GArray *faults;       /* TrvFaultSpec: the setting fault's, then trivium_plugin_add_fault's */
  int n_setting_faults; /* the first of them, which the setting fault replaces */
  TrvSimCellSpec spec;
  TrvSimOptions opt;
  TrvSimReport report;
  Cell cell;
  GError *error; /* the first bad setting, or why the cell could not be built */
  /* results */
  TrvCellLayout layout;
  /* the world's candidate graph, copied: the results outlive the world */
  TrvCandidates cand;
  TrvComponent comps[TRV_MAX_COMPONENTS];
  char **names; /* variable names, then component names */
  TrvCellSummarizer summarizer;
  TrvCellSummary summary;
  GArray *rows;
} plugin;

static void ensure_state(void) {
  if (plugin.ready) return;
  plugin.ready = true;
  trv_params_defaults(&plugin.params);
  for (int k = 0; k < S_COUNT; k++) plugin.value[k] = g_strdup(settings[k].def);
  plugin.seed = 1;
  plugin.actors = g_ptr_array_new();
  plugin.faults = g_array_new(FALSE, FALSE, sizeof(TrvFaultSpec));
}

/* Faults from `text` (specs separated by ';') into a new array; NULL with
 * *error at the first bad one. */
static GArray *parse_faults(const char *option, const char *text, GError **error) {
  GArray *out = g_array_new(FALSE, FALSE, sizeof(TrvFaultSpec));
  char **specs = g_strsplit(text, ";", -1);
  bool ok = true;
  for (int i = 0; ok && specs[i]; i++) {
    char *spec = g_strstrip(specs[i]);
    if (!*spec) continue;
    TrvFaultSpec f;
    if ((ok = out->len < TRV_SCENARIO_MAX_FAULTS && trv_fault_parse_spec(option, spec, &f, error)))
      g_array_append_val(out, f);
    else if (out->len >= TRV_SCENARIO_MAX_FAULTS)
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: more than %d fault processes", option,
                  TRV_SCENARIO_MAX_FAULTS);
  }
  g_strfreev(specs);
  if (ok) return out;
  for (guint i = 0; i < out->len; i++) trv_fault_spec_clear(&g_array_index(out, TrvFaultSpec, i));
  g_array_free(out, TRUE);
  return NULL;
}

bool trivium_plugin_add_fault(const char *spec, GError **error) {
  ensure_state();
  if (!spec) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "trivium_plugin_add_fault: a fault is required");
    return false;
  }
  if (plugin.built || plugin.building) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "fault %s: faults are fixed once the simulation runs", spec);
    return false;
  }
  GArray *f = parse_faults("fault", spec, error);
  if (!f) return false;
  g_array_append_vals(plugin.faults, f->data, f->len);
  g_array_free(f, TRUE);
  return true;
}

size_t trv_sim_plugin_settings(const char *const **keys, const char *const **defaults, const char *const **docs) {
  static const char *k[S_COUNT], *d[S_COUNT], *o[S_COUNT];
  for (int i = 0; i < S_COUNT; i++) k[i] = settings[i].key, d[i] = settings[i].def, o[i] = settings[i].doc;
  *keys = k;
  *defaults = d;
  *docs = o;
  return S_COUNT;
}

bool trivium_plugin_set(const char *key, const char *value, GError **error) {
  ensure_state();
  if (!key || !value) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "trivium_plugin_set: key and value are required");
    return false;
  }
  if (plugin.built || plugin.building) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "setting %s: settings are fixed once the simulation runs", key);
    return false;
  }
  for (int k = 0; k < S_COUNT; k++) {
    if (strcmp(key, settings[k].key)) continue;
    if (k == S_CONTROLLER && !g_strv_contains(trv_controller_names(), value)) {
      char *all = g_strjoinv(", ", (char **)trv_controller_names());
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "controller: unknown controller '%s'; known controllers: %s",
                  value, all);
      g_free(all);
      return false;
    }
    if (k == S_FAULT) { /* replaces the faults the setting gave before; those added by the call stay */
      GArray *f = parse_faults("fault", value, error);
      if (!f) return false;
      for (int i = 0; i < plugin.n_setting_faults; i++)
        trv_fault_spec_clear(&g_array_index(plugin.faults, TrvFaultSpec, i));
      g_array_remove_range(plugin.faults, 0, (guint)plugin.n_setting_faults);
      g_array_prepend_vals(plugin.faults, f->data, f->len);
      plugin.n_setting_faults = (int)f->len;
      g_array_free(f, TRUE);
    }
    if (k == S_SEED) {
      char *end;
      guint64 s = g_ascii_strtoull(value, &end, 10);
      if (end == value || *end || value[0] == '-' || s > G_MAXINT32) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "seed: '%s' is not an integer in [0, %d]", value, G_MAXINT32);
        return false;
      }
      plugin.seed = s;
    }
    g_free(plugin.value[k]);
    plugin.value[k] = g_strdup(value);
    return true;
  }
  if (!trv_params_set(&plugin.params, key, value, error)) return false;
  if (!strcmp(key, "agents.count")) plugin.agents_set = true;
  return true;
}

/* A --cfg=trivium/KEY:VALUE (s4u.cpp; not called for the defaults). */
void trv_sim_plugin_cfg(const char *key, const char *value) {
  GError *err = NULL;
  if (trivium_plugin_set(key, value, &err)) return;
  /* said once, when the simulation starts and stops on it (build) */
  if (!plugin.error)
    g_propagate_prefixed_error(&plugin.error, err, "--cfg=trivium/%s:%s: ", key, value);
  else
    g_error_free(err);
}

static void build(void);
static bool attached(const char *call);
static void on_simulation_end(void);

/* Whether the deployment marks actor as a Trivium agent. */
static bool marked(sg_actor_t actor) {
  const char *v = sg_actor_get_property_value(actor, "trivium.agent");
  return v && strcmp(v, "0") && strcmp(v, "false");
}

static void no_slot(const char *call, sg_actor_t actor) {
  XBT_CWARN(trivium_plugin,
            "%s: actor %s on %s joins no agent: every slot is taken (agents.count counts the agents "
            "marked at the start and those that join late), and a restarted actor takes back its own (same name, "
            "same host)",
            call, sg_actor_get_name(actor), sg_host_get_name(sg_actor_get_host(actor)));
}

static void register_agent(sg_actor_t actor) {
  if (trv_sim_actor_agent(actor) >= 0) return;
  trv_sim_actor_set_agent(actor, (int)plugin.actors->len);
  g_ptr_array_add(plugin.actors, actor);
}

void trivium_agent_attach(sg_actor_t actor) {
  ensure_state();
  g_return_if_fail(plugin.initialised && actor);
  if (!plugin.built && !plugin.building) {
    register_agent(actor);
    return;
  }
  /* the run is under way: an actor SimGrid restarted takes back its
   * agent; another takes an open slot */
  if (trv_sim_actor_agent(actor) >= 0 || plugin.failed || !trv_sim_cell) return;
  if (trv_sim_agent_rejoin(&plugin.cell, actor) < 0 && trv_sim_agent_join(&plugin.cell, actor) == -1)
    no_slot("trivium_agent_attach", actor);
}

/* The calling actor's agent index (taking back the identity of the absent
 * agent it was, when SimGrid restarted it; an actor marked trivium.agent
 * that started later takes an open slot), or -1. */
static int self_agent(void) {
  sg_actor_t self = sg_actor_self();
  int index = trv_sim_actor_agent(self);
  if (index < 0 && !plugin.failed && trv_sim_cell) index = trv_sim_agent_rejoin(&plugin.cell, self);
  if (index < 0 && !plugin.failed && trv_sim_cell && marked(self)) {
    index = trv_sim_agent_join(&plugin.cell, self);
    if (index == -1) no_slot("trivium_agent_next_episode", self);
  }
  return index < 0 ? -1 : index;
}

void trivium_agent_leave(void) {
  if (!attached("trivium_agent_leave")) return;
  if (!plugin.built) build();
  int index = self_agent();
  if (index < 0 || plugin.failed || !trv_sim_cell || index >= plugin.cell.n_agents) return;
  trv_sim_agent_leave(&plugin.cell, &plugin.cell.agents[index]);
}

static int cmp_pid(const void *a, const void *b) {
  aid_t x = sg_actor_get_pid(*(sg_actor_t const *)a), y = sg_actor_get_pid(*(sg_actor_t const *)b);
  return x < y ? -1 : x > y;
}

/* Registers every actor whose deployment marks it trivium.agent. */
static void find_marked_agents(void) {
  size_t n = sg_actor_count();
  sg_actor_t *all = sg_actor_list();
  qsort(all, n, sizeof *all, cmp_pid);
  for (size_t i = 0; i < n; i++)
    if (marked(all[i])) register_agent(all[i]);
  g_free(all);
}

static void row_sink(void *ctx, const TrvEpisodeRow *row) {
  (void)ctx;
  g_array_append_val(plugin.rows, *row);
  trv_cell_summarizer_add(&plugin.summarizer, &plugin.layout, row);
}

static const char *nonempty(const char *s) { return s && *s ? s : NULL; }

static bool build_cell(GError **error) {
  const TrvWorldClass *wc = trivium_world_lookup(plugin.value[S_WORLD]);
  if (!wc) {
    const char *const *names = trv_world_names();
    char *all = g_strjoinv(", ", (char **)names);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "world: no world '%s' is registered; registered: %s",
                plugin.value[S_WORLD], all);
    g_free(all);
    return false;
  }
  trv_params_complete(&plugin.params); /* blocks registered after trivium_plugin_init (a world of the program's) */
  find_marked_agents();
  int own = (int)plugin.actors->len, slots = own;
  TrvSimParams *sp = trv_sim_params_mut(&plugin.params);
  if (own > 0 && plugin.agents_set && sp->agents < own) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "agents.count = %d, but %d actors are Trivium agents (property trivium.agent or "
                "trivium_agent_attach): agents.count counts them and the agents that join late",
                sp->agents, own);
    return false;
  }
  if (own > 0 && plugin.agents_set) slots = sp->agents;
  if (slots > own && wc->agent && wc->agent->step_end) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "agents.count = %d for %d agents: world %s steps its agents together (a shared city), so its "
                "agents cannot join late; mark every agent at the start",
                slots, own, wc->name);
    return false;
  }
  if (own > 0) sp->agents = slots;
  plugin.spec = (TrvSimCellSpec){
      .params = &plugin.params, .world_class = wc, .controller = plugin.value[S_CONTROLLER], .seed = plugin.seed};
  trv_sim_options_init(&plugin.opt, &plugin.params);
  plugin.opt.platform = "(the loaded platform)";
  plugin.opt.role_hosts[TRV_ROLE_CONTROLLER] = nonempty(plugin.value[S_ROLE_CONTROLLER]);
  plugin.opt.role_hosts[TRV_ROLE_CTL] = nonempty(plugin.value[S_ROLE_CTL]);
  plugin.opt.role_hosts[TRV_ROLE_AGENT] = nonempty(plugin.value[S_ROLE_AGENT]);
  plugin.opt.ctl_path = nonempty(plugin.value[S_CTL_FILE]);
  plugin.opt.faults = (const TrvFaultSpec *)plugin.faults->data;
  plugin.opt.n_faults = plugin.faults->len;
  plugin.opt.sink = (TrvRowSink){row_sink, NULL};
  plugin.opt.layout = &plugin.layout;
  plugin.rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow));
  plugin.cell = (Cell){.spec = &plugin.spec, .opt = &plugin.opt, .report = &plugin.report};
  GPtrArray *hosts = NULL;
  if (own > 0) {
    hosts = g_ptr_array_new();
    for (guint i = 0; i < plugin.actors->len; i++) g_ptr_array_add(hosts, sg_actor_get_host(plugin.actors->pdata[i]));
    for (int i = own; i < slots; i++) g_ptr_array_add(hosts, hosts->pdata[0]); /* until an agent takes the slot */
  }
  trv_sim_cell = &plugin.cell;
  bool ok = trv_sim_cell_build(&plugin.cell, hosts, error);
  if (hosts) g_ptr_array_free(hosts, TRUE);
  if (!ok) {
    trv_sim_cell = NULL;
    return false;
  }
  TrvCellLayout *l = &plugin.layout;
  const TrvCandidates *wcand = plugin.cell.info->cand; /* lives as long as the world: copied */
  g_strfreev(plugin.names);
  plugin.names = g_new0(char *, wcand->n_vars + wcand->n_components + 1);
  for (int v = 0; v < wcand->n_vars; v++) plugin.names[v] = g_strdup(wcand->var_names[v]);
  for (int j = 0; j < wcand->n_components; j++) {
    plugin.comps[j] = wcand->components[j];
    plugin.comps[j].name = plugin.names[wcand->n_vars + j] = g_strdup(wcand->components[j].name);
  }
  plugin.cand = (TrvCandidates){wcand->n_vars, (const char *const *)plugin.names, wcand->n_components, plugin.comps};
  l->cand = &plugin.cand;
  l->metric_names = wc->referee->metric_names;
  l->controller = plugin.value[S_CONTROLLER];
  l->episodes = plugin.cell.info->episodes;
  trv_cell_summarizer_init(&plugin.summarizer, l); /* l holds the session's change-points (opt.layout) */
  plugin.cell.user_agents = own > 0;
  trv_sim_cell_start(&plugin.cell, own == 0);
  for (int i = 0; i < own; i++) trv_sim_agent_present(&plugin.cell, &plugin.cell.agents[i], plugin.actors->pdata[i]);
  for (int i = own; i < slots; i++) trv_sim_agent_open_slot(&plugin.cell, &plugin.cell.agents[i]);
  XBT_INFO("world %s, controller %s, seed %llu: %d %s agents, %d log replicas", wc->name, plugin.value[S_CONTROLLER],
           (unsigned long long)plugin.seed, plugin.cell.n_agents, own ? "of the program's" : "built-in",
           plugin.cell.n_replicas);
  return true;
}

/* Builds the cell once (the boot actor or the first agent to ask).
 * Building makes simcalls (mailboxes, actors), which let other actors run:
 * an agent that asks meanwhile waits until the cell is whole. */
static void build(void) {
  if (plugin.built) return;
  if (plugin.building) {
    while (plugin.building) sg_actor_yield();
    return;
  }
  plugin.building = true;
  if (plugin.error || !build_cell(&plugin.error)) {
    plugin.failed = true;
    /* fail early: one message, and the simulation stops here, at time 0,
     * before any actor of the program runs without Trivium; the program
     * gets the error from trivium_plugin_finished() */
    XBT_CERROR(trivium_plugin, "Trivium cannot run, so the simulation stops now: %s", plugin.error->message);
    plugin.building = false;
    plugin.built = true;
    sg_actor_kill_all();
    return;
  }
  plugin.building = false;
  plugin.built = true;
}

static void boot_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  build();
}

static void on_platform(void) {
  static bool started; /* a deployment file fires the signal again */
  sg_host_t *hosts = sg_host_list();
  for (size_t i = 0; !started && i < sg_host_count(); i++)
    if (sg_host_is_on(hosts[i])) { /* SimGrid refuses an actor on a host that is off */
      sg_actor_start(sg_actor_init("trivium-boot", hosts[i]), boot_actor, 0, NULL);
      started = true;
    }
  g_free(hosts);
}

void trv_sim_plugin_init(void) {
  ensure_state();
  if (plugin.initialised) return;
  plugin.initialised = true;
  trv_sim_actor_ext_init();
  trv_sim_log_defaults();
  trv_sim_on_platform_created(on_platform);
  trv_sim_on_simulation_end(on_simulation_end);
}

void trv_sim_plugin_by_program(void) { plugin.by_program = true; }

/* The run cannot start (the program's interface is not the library's):
 * said when the simulation starts, as a bad setting is. */
void trv_sim_plugin_refuse(char *why) {
  if (!plugin.error) g_set_error_literal(&plugin.error, TRV_ERROR, TRV_ERROR_INPUT, why);
  g_free(why);
}

void trv_sim_plugin_by_simgrid(void) { plugin.by_simgrid = true; }

/* Whether the plugin is attached; said once to an actor that asks when it
 * is not. */
static bool attached(const char *call) {
  if (plugin.initialised) return true;
  if (!plugin.not_attached_said)
    XBT_CWARN(trivium_plugin,
              "%s: Trivium is not attached to this simulation: call trivium_plugin_init() before "
              "simgrid_load_platform(), or run the program with --cfg=plugin:trivium",
              call);
  plugin.not_attached_said = true;
  return false;
}

TrvEpisode *trivium_agent_next_episode(void) {
  if (!attached("trivium_agent_next_episode")) return NULL;
  if (!plugin.built) build();
  if (plugin.failed) return NULL; /* said once, when the simulation stopped */
  int index = self_agent();
  if (index < 0) {
    if (!marked(sg_actor_self())) /* a marked one was told there is no slot */
      XBT_CWARN(trivium_plugin,
                "trivium_agent_next_episode: actor %s is not a Trivium agent (no trivium.agent "
                "property, not attached)",
                sg_actor_self_get_name());
    return NULL;
  }
  if (plugin.failed || !trv_sim_cell || index >= plugin.cell.n_agents || plugin.cell.agents[index].left) return NULL;
  return trv_sim_agent_next(&plugin.cell.agents[index]);
}

/* Ends the run once, after the simulation: its outcome is kept for
 * trivium_plugin_finished() (ok, or the error in plugin.error). */
static bool finish_run(void) {
  if (plugin.ended) return plugin.finished_ok;
  plugin.ended = true;
  if (!plugin.built) {
    const char *never = "the simulation never started Trivium: call trivium_plugin_init() before "
                        "simgrid_load_platform() and run the simulation";
    if (plugin.error) /* a bad --cfg=trivium/ setting, said with it */
      g_prefix_error(&plugin.error, "%s; also ", never);
    else
      g_set_error_literal(&plugin.error, TRV_ERROR, TRV_ERROR_INPUT, never);
    return plugin.finished_ok = false;
  }
  if (plugin.failed) return plugin.finished_ok = false;
  trv_sim_agent_life_free(&plugin.cell);
  plugin.ended_early = plugin.cell.ended_early;
  plugin.finished_ok = trv_sim_cell_finish(&plugin.cell, &plugin.error);
  trv_cell_summarizer_finish(&plugin.summarizer, &plugin.layout, &plugin.summary);
  trv_posterior_free(plugin.report.final_posterior);
  plugin.report.final_posterior = NULL;
  return plugin.finished_ok;
}

bool trivium_plugin_finished(GError **error) {
  g_return_val_if_fail(plugin.initialised && !plugin.finished_called, false);
  bool ok = finish_run();
  plugin.finished_called = true;
  if (!ok) g_propagate_error(error, g_error_copy(plugin.error));
  return ok;
}

/* When the simulation ends (SimGrid's signal; also after a failure at time
 * 0, which kills every actor): a run attached by --cfg=plugin:trivium, or
 * given the setting output, is finished here and its directory written;
 * an error is said once and, for a program that knows nothing of Trivium
 * (attached by SimGrid alone), ends the process with 2 (a bad input) or 1. */
static void on_simulation_end(void) {
  bool own_end = plugin.by_simgrid && !plugin.by_program;
  const char *out = plugin.value[S_OUTPUT];
  if (!own_end && !*out) return;
  GError *err = NULL;
  if (!finish_run()) {
    if (!own_end) return; /* the program's trivium_plugin_finished() returns the error */
    /* a failure at time 0 was said when the simulation stopped (build) */
    if (!plugin.failed) XBT_CERROR(trivium_plugin, "Trivium: %s", plugin.error->message);
    exit(plugin.error->code == TRV_ERROR_INPUT ? 2 : 1);
  }
  if (*out) {
    plugin.finished_called = true; /* the results' getters answer from here on */
    bool ok = trivium_results_write_dir(out, &err);
    plugin.finished_called = false;
    if (!ok) {
      XBT_CERROR(trivium_plugin, "Trivium: %s", err->message);
      int code = err->code == TRV_ERROR_INPUT ? 2 : 1;
      g_error_free(err);
      if (own_end) exit(code);
      return;
    }
    XBT_CINFO(trivium_plugin, "the run's directory is %s (trivium report %s draws its tables and figures)", out, out);
  } else {
    XBT_CWARN(trivium_plugin,
              "attached with --cfg=plugin:trivium and no --cfg=trivium/output:DIR: the run's %u "
              "episodes are not written anywhere",
              plugin.rows ? plugin.rows->len : 0);
  }
}

size_t trivium_results_n_episodes(void) { return plugin.rows ? plugin.rows->len : 0; }

const TrvEpisodeRow *trivium_results_episode(size_t i) {
  return plugin.rows && i < plugin.rows->len ? &g_array_index(plugin.rows, TrvEpisodeRow, i) : NULL;
}

const TrvCellSummary *trivium_results_summary(void) { return plugin.finished_called ? &plugin.summary : NULL; }

bool trivium_results_write_csv(FILE *out, bool header, GError **error) {
  if (!plugin.rows) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "no results: the run has not started");
    return false;
  }
  GString *s = g_string_new(NULL);
  if (header) trv_results_csv_header(s, &plugin.layout);
  for (guint i = 0; i < plugin.rows->len; i++)
    trv_results_csv_row(s, &plugin.layout, &g_array_index(plugin.rows, TrvEpisodeRow, i));
  bool ok = fwrite(s->str, 1, s->len, out) == s->len && fflush(out) == 0;
  g_string_free(s, TRUE);
  if (!ok) g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "writing the results failed");
  return ok;
}

bool trivium_results_write_dir(const char *dir, GError **error) {
  if (!dir || !*dir) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "trivium_results_write_dir: a directory is required");
    return false;
  }
  if (!plugin.finished_called || !plugin.rows) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: no results to write: call trivium_plugin_finished() after "
                "the simulation first",
                dir);
    return false;
  }
  size_t n_specs;
  const TrvParamSpec *specs = trv_param_specs(&n_specs);
  size_t n = S_COUNT + n_specs;
  const char **keys = g_new(const char *, n), **values = g_new(const char *, n);
  char **formatted = g_new0(char *, n_specs + 1);
  for (int k = 0; k < S_COUNT; k++) keys[k] = settings[k].key, values[k] = plugin.value[k];
  for (size_t i = 0; i < n_specs; i++) {
    formatted[i] = trv_params_format(&plugin.params, &specs[i]);
    keys[S_COUNT + i] = specs[i].key;
    values[S_COUNT + i] = formatted[i];
  }
  char **argv = trv_sim_command_line();
  TrvProgramRun run = {.version = PACKAGE_VERSION,
                       .world = plugin.value[S_WORLD],
                       .command_line = argv,
                       .seed = plugin.seed,
                       .setting_keys = keys,
                       .setting_values = values,
                       .n_settings = n,
                       .layout = &plugin.layout,
                       .rows = (const TrvEpisodeRow *)plugin.rows->data,
                       .n_rows = plugin.rows->len,
                       .summary = &plugin.summary,
                       .ended_early = plugin.ended_early};
  bool ok = trv_sim_program_dir_write(&run, dir, error);
  g_strfreev(argv);
  g_strfreev(formatted);
  g_free(keys);
  g_free(values);
  return ok;
}
