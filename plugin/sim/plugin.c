/* sim-plugin.c - the public plugin API of trivium.h, on top of the same
 * cell as `trivium run` (sim-cell.c).
 *
 * Agents are the actors attached with trivium_agent_attach() and, found by
 * the first agent to run at time 0 (when every deployed actor exists), the
 * actors whose deployment gives them the property trivium.agent, in pid
 * order; each gets its index as an extension of its actor (sim-s4u.cpp).
 * That first agent builds the cell on the loaded platform,
 * with one agent per registered actor on that actor's host, and starts the
 * controller and the log replicas; every agent then runs the agent loop in
 * its own actor.  The controller sends STOP to the agents when the run is
 * over, so trivium_agent_main() returns.  One simulation per process, so
 * the plugin's state is one static structure, like SimGrid's own plugins'
 * extension ids. */
#include <stdlib.h>
#include <string.h>

#include "sim-internal.h"
#include <trivium/trivium.h>

extern const TrvWorldClass trv_world_causalbench;
void trv_sim_actor_ext_init(void);
void trv_sim_actor_set_agent(sg_actor_t actor, int index);
int trv_sim_actor_agent(const_sg_actor_t actor);

static struct {
  bool initialised, built, failed, finished_called;
  TrvParams params;
  char *controller, *role_controller, *role_ctl, *ctl_file;
  uint64_t seed;
  GPtrArray *actors; /* registered agent actors, in index order */
  TrvCellSpec spec;
  TrvSimOptions opt;
  TrvSimReport report;
  GArray *rows;
  Cell cell;
  GError *error;
} plugin;

static void register_agent(sg_actor_t actor) {
  if (trv_sim_actor_agent(actor) >= 0) return;
  trv_sim_actor_set_agent(actor, (int)plugin.actors->len);
  g_ptr_array_add(plugin.actors, actor);
}

void trivium_plugin_init(void) {
  if (plugin.initialised) return;
  plugin.initialised = true;
  trv_params_defaults(&plugin.params);
  plugin.controller = g_strdup("trivium");
  plugin.seed = 1;
  plugin.actors = g_ptr_array_new();
  trv_sim_actor_ext_init();
}

bool trivium_plugin_set(const char *key, const char *value, GError **error) {
  g_return_val_if_fail(plugin.initialised, false);
  char **slot = !strcmp(key, "controller")        ? &plugin.controller
                : !strcmp(key, "role.controller") ? &plugin.role_controller
                : !strcmp(key, "role.ctl")        ? &plugin.role_ctl
                : !strcmp(key, "ctl.file")        ? &plugin.ctl_file
                                                  : NULL;
  if (slot) {
    if (slot == &plugin.controller && !g_strv_contains(trv_controller_names, value)) {
      char *all = g_strjoinv(", ", (char **)trv_controller_names);
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unknown controller '%s'; known controllers: %s", value, all);
      g_free(all);
      return false;
    }
    g_free(*slot);
    *slot = g_strdup(value);
    return true;
  }
  if (!strcmp(key, "seed")) {
    char *end;
    guint64 s = g_ascii_strtoull(value, &end, 10);
    if (end == value || *end) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "seed: '%s' is not a non-negative integer", value);
      return false;
    }
    plugin.seed = s;
    return true;
  }
  return trv_params_set(&plugin.params, key, value, error);
}

void trivium_agent_attach(sg_actor_t actor) {
  g_return_if_fail(plugin.initialised && !plugin.built);
  register_agent(actor);
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
  for (size_t i = 0; i < n; i++) {
    const char *v = sg_actor_get_property_value(all[i], "trivium.agent");
    if (v && strcmp(v, "0") && strcmp(v, "false")) register_agent(all[i]);
  }
  g_free(all);
}

/* Builds the cell (first agent to run). */
static void build(void) {
  plugin.built = true;
  find_marked_agents();
  plugin.spec = (TrvCellSpec){.params = &plugin.params, .world_class = &trv_world_causalbench,
                              .controller = plugin.controller, .seed = plugin.seed};
  trv_sim_options_init(&plugin.opt);
  plugin.opt.platform = "(the loaded platform)";
  plugin.opt.role_hosts[TRV_ROLE_CONTROLLER] = plugin.role_controller;
  plugin.opt.role_hosts[TRV_ROLE_CTL] = plugin.role_ctl;
  plugin.opt.replicas = plugin.params.ctl_replicas;
  plugin.opt.best_effort = plugin.params.ctl_mode == TRV_CTL_MODE_BEST_EFFORT;
  plugin.opt.commit_timeout = plugin.params.ctl_timeout;
  plugin.opt.commit_retries = plugin.params.ctl_retries;
  plugin.opt.step_flops = plugin.params.step_flops;
  plugin.opt.probe_flops = plugin.params.probe_flops;
  plugin.opt.ctl_path = plugin.ctl_file;
  plugin.opt.ctl_fsync = plugin.params.ctl_fsync;
  plugin.rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow));
  plugin.cell = (Cell){.spec = &plugin.spec, .opt = &plugin.opt, .rows = plugin.rows, .report = &plugin.report};
  GPtrArray *hosts = g_ptr_array_new();
  for (guint i = 0; i < plugin.actors->len; i++) g_ptr_array_add(hosts, sg_actor_get_host(plugin.actors->pdata[i]));
  trv_sim_cell = &plugin.cell;
  if (!trv_sim_cell_build(&plugin.cell, hosts, &plugin.error)) {
    plugin.failed = true;
    trv_sim_cell = NULL;
  } else {
    plugin.cell.user_agents = true;
    trv_sim_cell_start(&plugin.cell, false);
  }
  g_ptr_array_free(hosts, TRUE);
}

void trivium_agent_main(void) {
  g_return_if_fail(plugin.initialised);
  if (!plugin.built) build();
  int index = trv_sim_actor_agent(sg_actor_self());
  if (index < 0) {
    g_warning("trivium_agent_main: actor %s is not a Trivium agent (no trivium.agent property, not attached)",
              sg_actor_self_get_name());
    return;
  }
  if (plugin.failed) return;
  trv_sim_agent_loop(&plugin.cell.agents[index]);
}

bool trivium_plugin_finished(GError **error) {
  g_return_val_if_fail(plugin.initialised && !plugin.finished_called, false);
  plugin.finished_called = true;
  if (!plugin.built) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "no Trivium agent ever ran: mark actors with the property "
                                                   "trivium.agent or trivium_agent_attach()");
    return false;
  }
  if (plugin.failed) {
    g_propagate_error(error, plugin.error);
    plugin.error = NULL;
    return false;
  }
  return trv_sim_cell_finish(&plugin.cell, error);
}

void trivium_plugin_write_episodes(FILE *out) {
  fprintf(out, "episode,posterior_exposure,committed_exposure,probes,r_out,r_epi,r_temp,commits,commit_failures,"
               "sim_time\n");
  for (guint i = 0; plugin.rows && i < plugin.rows->len; i++) {
    const TrvEpisodeRow *r = &g_array_index(plugin.rows, TrvEpisodeRow, i);
    fprintf(out, "%d,%d,%d,%d,%.9g,%.9g,%.9g,%d,%d,%.9g\n", r->episode, r->posterior_exposure, r->committed_exposure,
            r->probes, r->r_out, r->r_epi, r->r_temp, r->commits, r->commit_failures, r->sim_time);
  }
}
