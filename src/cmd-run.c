/* cmd-run.c - `trivium run [SCENARIO]` (and what `trivium bench`, cmd-bench.c, runs).
 *
 * What runs comes from a scenario file (scenarios/NAME.xml; with no argument
 * scenarios/default.xml, the headline run; `--experiment NAME` is short for
 * the shipped scenarios/NAME.xml), then the command line on top of it:
 * --set KEY=VALUE (re-applied at every point of a sweep), --controllers,
 * --platform, --role, --fault, --sweep, --out, --ctl.  A scenario with
 * sweeps, or --sweep, runs one point per value into OUT/<label>/ and writes
 * OUT/sweep.{csv,md}.  SimGrid's --cfg= and --log= pass through.  The
 * options' values are parsed and checked by run-values.c, all of them
 * (every --sweep value included) before anything runs.
 * Exit codes: 0 ok, 1 a cell failed to run, 2 bad input. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <simgrid/engine.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "core/datadir.h"
#include "run.h"
#include "run-values.h"
#include "replay-config.h"
#include "sim/child.h"
#include "simgrid-options.h"

/* The parameters and faults of point k: the scenario's point, the --fault
 * processes, the --set assignments, and (CLI sweep) the swept value. */
static bool load_point(RunCtx *ctx, size_t k, const char *sweep_key, const char *sweep_value, GError **error) {
  if (ctx->faults) g_array_free(ctx->faults, TRUE);
  ctx->faults = trv_scenario_point(ctx->scenario, sweep_key ? 0 : k, &ctx->params);
  g_array_append_vals(ctx->faults, ctx->cli_faults->data, ctx->cli_faults->len);
  for (int i = 0; ctx->sets && ctx->sets[i]; i++)
    if (!trv_run_apply_set(&ctx->params, ctx->sets[i], error)) return false;
  if (sweep_key && !trv_run_apply_sweep_value(&ctx->params, ctx->faults, sweep_key, sweep_value, error)) return false;
  TrvSimOptions *o = &ctx->sim;
  trv_sim_options_init(o, &ctx->params);
  o->platform = ctx->platform;
  /* -q: SimGrid's "Configuration change" lines too (a --log= of the user's comes after, and wins) */
  if (!ctx->cell_args) {
    ctx->cell_args = g_ptr_array_new();
    if (ctx->quiet) g_ptr_array_add(ctx->cell_args, (char *)"--log=xbt_cfg.thres:warning");
    for (guint i = 0; i < ctx->simgrid_args->len; i++) g_ptr_array_add(ctx->cell_args, ctx->simgrid_args->pdata[i]);
  }
  o->simgrid_args = (const char *const *)ctx->cell_args->pdata;
  o->n_simgrid_args = ctx->cell_args->len;
  for (int r = 0; r < TRV_N_ROLES; r++) o->role_hosts[r] = ctx->role_hosts[r];
  o->faults = (const TrvFaultSpec *)ctx->faults->data;
  o->n_faults = ctx->faults->len;
  return true;
}

static char *default_out_dir(void) {
  GDateTime *now = g_date_time_new_now_local();
  char *stamp = g_date_time_format(now, "%Y%m%d-%H%M%S");
  g_date_time_unref(now);
  char *base = g_build_filename("results", stamp, NULL), *out = g_strdup(base);
  for (int i = 2; g_file_test(out, G_FILE_TEST_EXISTS); i++) {
    g_free(out);
    out = g_strdup_printf("%s-%d", base, i);
  }
  g_free(stamp);
  g_free(base);
  return out;
}

/* SimGrid's own options and the platform, tried once in a child before
 * any cell runs: SimGrid aborts on a bad --cfg, --log or platform, and
 * that must be one line and exit 2, not a dump per cell. */
static int try_simgrid(void *data, int report_fd) {
  const RunCtx *ctx = data;
  int argc = 1 + (int)ctx->simgrid_args->len;
  char **argv = g_new0(char *, argc + 1);
  argv[0] = g_strdup("trivium");
  for (guint i = 0; i < ctx->simgrid_args->len; i++) argv[i + 1] = g_strdup(ctx->simgrid_args->pdata[i]);
  simgrid_init(&argc, argv);
  GError *err = NULL; /* an option SimGrid takes but a cell refuses: its reason is the report */
  if (!trv_sim_check_contexts(&err)) {
    trv_write_all(report_fd, err->message, strlen(err->message));
    g_error_free(err);
    return 2;
  }
  trv_sim_trace_discard();
  simgrid_load_platform(ctx->platform);
  return 0;
}

static bool check_simgrid(RunCtx *ctx, GError **error) {
  TrvChild *child = trv_child_start(try_simgrid, ctx, true, NULL);
  if (!child) return true; /* cannot check here: the cells will tell */
  GByteArray *report = g_byte_array_new();
  int status = trv_child_wait(child, report);
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok && report->len > 0) { /* the options SimGrid took, refused by a cell */
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "SimGrid's options: %.*s", (int)report->len, (const char *)report->data);
  } else if (!ok) {
    char *log = trv_child_log_head(child, 65536), *why = trv_simgrid_reason(log);
    GString *args = g_string_new(NULL);
    for (guint i = 0; i < ctx->simgrid_args->len; i++) g_string_append_printf(args, " %s", (char *)ctx->simgrid_args->pdata[i]);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "SimGrid refused the platform %s%s%s: %s", ctx->platform,
                args->len ? " or the options" : "", args->str, why ? why : "(no reason given)");
    g_string_free(args, TRUE);
    g_free(why);
    g_free(log);
  }
  g_byte_array_free(report, TRUE);
  trv_child_free(child);
  return ok;
}

/* Fails with fmt, whose one %s is what the user gave (quoted printable). */
static bool input_error(GError **error, const char *fmt, const char *a) {
  char *q = trv_run_quote(a);
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, fmt, q);
  g_free(q);
  return false;
}

/* -e NAME names no shipped scenario: fails saying so, with the closest
 * shipped name ("did you mean") when one is close. */
static bool no_shipped_scenario(const char *name, GError **error) {
  char *any = trv_find_data("scenarios", "default.xml", NULL), *dir = any ? g_path_get_dirname(any) : NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  GDir *d = dir ? g_dir_open(dir, 0, NULL) : NULL;
  for (const char *f; d && (f = g_dir_read_name(d)) && names->len < 4096;)
    if (g_str_has_suffix(f, ".xml")) g_ptr_array_add(names, g_strndup(f, strlen(f) - 4));
  if (d) g_dir_close(d);
  g_ptr_array_add(names, NULL);
  const char *best = trv_suggest(name, (const char *const *)names->pdata);
  char *q = trv_run_quote(name), *qb = best ? trv_run_quote(best) : NULL;
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "no shipped scenario '%s' (see the scenarios/ directory%s%s)%s%s%s", q,
              dir ? ": " : "", dir ? dir : "", qb ? "; did you mean '" : "", qb ? qb : "", qb ? "'?" : "");
  g_free(q);
  g_free(qb);
  g_ptr_array_free(names, TRUE);
  g_free(dir);
  g_free(any);
  return false;
}

/* The parameter that "KEY=VALUE" names, NULL for an unknown or malformed
 * one (said where it is applied). */
static const TrvParamSpec *assigned_param(const char *assignment) {
  const char *eq = strchr(assignment, '=');
  if (!eq) return NULL;
  char *key = g_strndup(assignment, eq - assignment);
  const TrvParamSpec *spec = trv_param_lookup(key);
  g_free(key);
  return spec;
}

/* A --set is applied at every point after the point's own values, so a
 * --set of a swept parameter would run every point with the --set value
 * under the point's label: refused, naming the sweep.  --sweep replaces the
 * scenario's sweeps, so then only its own key is swept. */
static bool sets_not_swept(const RunCtx *ctx, GError **error) {
  for (int i = 0; ctx->sets && ctx->sets[i]; i++) {
    const TrvParamSpec *spec = assigned_param(ctx->sets[i]);
    if (!spec) continue;
    char *set = trv_run_quote(ctx->sets[i]);
    bool swept = false;
    if (ctx->cli_sweep && (swept = assigned_param(ctx->cli_sweep) == spec)) {
      char *sweep = trv_run_quote(ctx->cli_sweep);
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "--set %s and --sweep %s: the parameter is swept; give its values to --sweep only", set, sweep);
      g_free(sweep);
    }
    for (guint k = 0; !ctx->cli_sweep && !swept && k < ctx->scenario->sweeps->len; k++) {
      const TrvSweepSpec *sw = &g_array_index(ctx->scenario->sweeps, TrvSweepSpec, k);
      if (!(swept = trv_param_lookup(sw->param) == spec)) continue;
      char *values = g_strjoinv(",", sw->values);
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "--set %s: the scenario sweeps %s over %s; to run other values, give them to --sweep=%s=V1,V2,... "
                  "(it replaces the scenario's sweep)", set, sw->param, values, sw->param);
      g_free(values);
    }
    g_free(set);
    if (swept) return false;
  }
  return true;
}

/* Every value of --sweep applied to point 0, once, before anything runs:
 * a value a point would refuse stops the run here, not after the points
 * before it ran.  Point 0 is loaded again after. */
static bool sweep_values_apply(RunCtx *ctx, GError **error) {
  char *key = NULL, **values = NULL;
  bool ok = trv_run_parse_sweep(ctx->cli_sweep, &key, &values, error);
  for (int i = 0; ok && values[i]; i++) ok = load_point(ctx, 0, key, values[i], error);
  g_free(key);
  g_strfreev(values);
  return ok && load_point(ctx, 0, NULL, NULL, error);
}

bool trv_run_parse_args(RunCtx *ctx, int argc, char **argv, bool bench, GError **error) {
  char **faults = NULL, **roles = NULL, *controllers = NULL, *experiment = NULL, *replay = NULL, *cells = NULL;
  char *jobs = NULL, *chunk = NULL; /* -j not given: the number of cores; --chunk not given: 0, chosen by --emit */
  gboolean quiet = FALSE, fresh = FALSE;
  GOptionEntry entries[] = {
      {"out", 'o', 0, G_OPTION_ARG_FILENAME, &ctx->out, "output directory (default: the scenario's, else results/<time>)", "DIR"},
      {"jobs", 'j', 0, G_OPTION_ARG_STRING, &jobs, "cells run in parallel (default: number of cores)", "N"},
      {"controllers", 'c', 0, G_OPTION_ARG_STRING, &controllers, "comma-separated controllers (default: the scenario's)", "LIST"},
      {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &ctx->sets, "set a parameter (see `trivium params`)", "KEY=VALUE"},
      {"experiment", 'e', 0, G_OPTION_ARG_STRING, &experiment, "run the shipped scenarios/NAME.xml", "NAME"},
      {"platform", 0, 0, G_OPTION_ARG_FILENAME, &ctx->platform, "SimGrid platform instead of the scenario's", "FILE"},
      {"role", 'r', 0, G_OPTION_ARG_STRING_ARRAY, &roles, "map a role onto hosts: controller|ctl|agent=GLOB[,GLOB]", "ROLE=GLOBS"},
      {"fault", 'f', 0, G_OPTION_ARG_STRING_ARRAY, &faults,
       "a fault process: link-flap:GLOB:MTBF:MTTR[:START[:STOP]], host-crash:GLOB:AT:DUR, partition:GLOBS:AT:DUR", "SPEC"},
      {"sweep", 0, 0, G_OPTION_ARG_STRING, &ctx->cli_sweep,
       "one run per value: a parameter key, or link-flap.mtbf (etc.) for the fault processes", "KEY=V1,V2,..."},
      {"ctl", 0, 0, G_OPTION_ARG_FILENAME, &ctx->ctl, "keep each cell's Causal Transaction Log in DIR/<controller>-seed<N>.ctl (a sweep: DIR/<point>/...)", "DIR"},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no progress and no table", NULL},
      {"replay-config", 0, 0, G_OPTION_ARG_FILENAME, &replay,
       "rerun the run (one point) a run.json describes, on the same inputs", "RUN.json"},
      {"fresh", 0, 0, G_OPTION_ARG_NONE, &fresh, "run every cell again, even those complete in the output directory", NULL},
      {"emit", 0, 0, G_OPTION_ARG_STRING, &ctx->emit,
       "write the run as a job list (parallel: OUT/jobs.txt for GNU parallel; slurm: also a Slurm array) instead of "
       "running it; then `trivium merge OUT`", "parallel|slurm"},
      {"chunk", 0, 0, G_OPTION_ARG_STRING, &chunk, "with --emit: cells per job (default: 1, more past 1,000 jobs)", "N"},
      {"cells", 0, 0, G_OPTION_ARG_STRING, &cells, "run only these cells of the run (a job of a job list), no merge",
       "FIRST-LAST"},
      {NULL}};
  ctx->simgrid_args = g_ptr_array_new_with_free_func(g_free);
  ctx->cli_faults = g_array_new(FALSE, FALSE, sizeof(TrvFaultSpec));
  GPtrArray *rest = g_ptr_array_new(), *cfg_sets = g_ptr_array_new_with_free_func(g_free);
  GPtrArray *glued = g_ptr_array_new_with_free_func(g_free); /* the strings split from -jN */
  for (int i = 0; i < argc; i++) {
    if (i > 0 && g_str_has_prefix(argv[i], "--cfg=trivium/")) { /* Trivium's own flag: --set KEY=VALUE */
      const char *kv = argv[i] + strlen("--cfg=trivium/");
      const char *colon = strchr(kv, ':');
      g_ptr_array_add(cfg_sets, colon ? g_strdup_printf("%.*s=%s", (int)(colon - kv), kv, colon + 1) : g_strdup(kv));
    } else if (i > 0 && (g_str_has_prefix(argv[i], "--cfg=") || g_str_has_prefix(argv[i], "--log="))) {
      g_ptr_array_add(ctx->simgrid_args, g_strdup(argv[i]));
    } else if (i > 0 && argv[i][0] == '-' && argv[i][1] && argv[i][1] != '-' && argv[i][2] &&
               strchr("ojcserf", argv[i][1])) {
      /* -j2 as well as -j 2: a short option glued to its value */
      g_ptr_array_add(rest, g_strndup(argv[i], 2));
      g_ptr_array_add(rest, g_strdup(argv[i] + 2));
      g_ptr_array_add(glued, rest->pdata[rest->len - 2]);
      g_ptr_array_add(glued, rest->pdata[rest->len - 1]);
    } else {
      g_ptr_array_add(rest, argv[i]);
    }
  }
  int n_sweeps = 0; /* GLib keeps the last of a repeated option: a second --sweep would vanish */
  for (guint i = 1; i < rest->len; i++) {
    const char *a = rest->pdata[i];
    if (!strcmp(a, "--")) break;
    n_sweeps += !strcmp(a, "--sweep") || g_str_has_prefix(a, "--sweep=");
  }
  int rc = (int)rest->len;
  char **rv = (char **)rest->pdata;
  GOptionContext *oc = g_option_context_new(bench ? "[SCENARIO] - time a run" : "[SCENARIO] - run a scenario under SimGrid");
  g_option_context_add_main_entries(oc, entries, NULL);
  g_option_context_set_description(oc, "SimGrid options --cfg=... and --log=... are passed through to the simulator; --help-models, "
                                      "--help-tracing and --help-log-categories print SimGrid's own help.");
  GError *perr = NULL;
  bool ok = g_option_context_parse(oc, &rc, &rv, &perr);
  g_option_context_free(oc);
  if (!ok) ok = input_error(error, "%s", perr->message), g_error_free(perr);
  if (ok && n_sweeps > 1)
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--sweep given %d times; expected one (a scenario's <sweep> "
                "elements make a grid of several keys)", n_sweeps), ok = false;
  if (ok && cfg_sets->len) { /* --cfg=trivium/ settings apply before --set ones, like their order on a command line */
    GStrvBuilder *b = g_strv_builder_new();
    for (guint i = 0; i < cfg_sets->len; i++) g_strv_builder_add(b, cfg_sets->pdata[i]);
    if (ctx->sets) g_strv_builder_addv(b, (const char **)ctx->sets);
    g_strfreev(ctx->sets);
    ctx->sets = g_strv_builder_end(b);
    g_strv_builder_unref(b);
  }
  g_ptr_array_free(cfg_sets, TRUE);
  char *file = NULL;
  if (ok && rc > 2) ok = input_error(error, "unexpected argument '%s' (one scenario at most)", rv[2]);
  else if (ok && rc == 2) file = g_strdup(rv[1]);
  if (ok && replay) { /* the whole run from run.json: only where it goes and how fast may be given */
    if (file || experiment || ctx->sets || faults || roles || controllers || ctx->platform || ctx->cli_sweep ||
        ctx->simgrid_args->len)
      ok = input_error(error, "--replay-config %s takes the scenario, parameters, faults, roles, controllers, "
                       "platform and SimGrid options from the file; give only -o, -j, -q or --ctl with it", replay);
    TrvReplayConfig rcfg;
    if (ok && (ok = trv_replay_config_load(replay, &rcfg, error))) {
      file = g_strdup(rcfg.scenario);
      ctx->sets = g_steal_pointer(&rcfg.sets);
      controllers = g_steal_pointer(&rcfg.controllers);
      ctx->platform = g_steal_pointer(&rcfg.platform);
      for (int r = 0; r < TRV_N_ROLES; r++) ctx->role_hosts[r] = g_steal_pointer(&rcfg.role_hosts[r]);
      for (int i = 0; rcfg.simgrid_args[i]; i++) g_ptr_array_add(ctx->simgrid_args, g_strdup(rcfg.simgrid_args[i]));
      for (guint i = 0; i < rcfg.faults->len; i++) {
        TrvFaultSpec f = g_array_index(rcfg.faults, TrvFaultSpec, i);
        g_array_index(rcfg.faults, TrvFaultSpec, i).pattern = NULL; /* moved, with its trace */
        g_array_index(rcfg.faults, TrvFaultSpec, i).trace = NULL;
        g_array_append_val(ctx->cli_faults, f);
      }
      /* the world finds its shipped data files where the replay checked them */
      if (rcfg.data_dir) g_setenv("TRIVIUM_DATADIR", rcfg.data_dir, TRUE);
      ctx->replay = true;
      trv_replay_config_clear(&rcfg);
    }
  }
  g_free(replay);
  bool trace_named = false;
  ctx->tracing = trv_simgrid_tracing((const char *const *)ctx->simgrid_args->pdata, ctx->simgrid_args->len, &trace_named);
  if (ok && trace_named)
    ok = input_error(error, "--cfg=tracing/filename: a run writes each cell's trace inside its output directory, as "
                     "OUT/traces/<controller>-seed<N>.trace (a sweep: OUT/<point>/traces/...)%s; drop the option", "");
  if (ok && cells && (ok = trv_run_parse_cells(cells, &ctx->cell_first, &ctx->cell_last, error)))
    ctx->mode = TRV_RUN_CELLS;
  g_free(cells);
  ctx->fresh = fresh || bench;
  if (ok && ctx->emit && strcmp(ctx->emit, "parallel") && strcmp(ctx->emit, "slurm"))
    ok = input_error(error, "--emit '%s': expected parallel or slurm", ctx->emit);
  if (ok && chunk) ok = trv_run_parse_count("--chunk", "a number of cells per job", chunk, 1, 1000000, &ctx->chunk, error);
  g_free(chunk);
  if (ok && ctx->emit && ctx->mode == TRV_RUN_CELLS) ok = input_error(error, "--emit and --cells: give one of them%s", "");
  g_ptr_array_free(rest, TRUE);
  g_ptr_array_free(glued, TRUE);
  if (ok && file && experiment) ok = input_error(error, "give a scenario file or --experiment %s, not both", experiment);
  if (ok && !file) {
    const char *name = experiment ? experiment : "default";
    char *base = g_strdup_printf("%s.xml", name);
    file = trv_find_data("scenarios", base, NULL);
    g_free(base);
    if (!file) ok = no_shipped_scenario(name, error);
  }
  if (ok) {
    ctx->scenario = trv_scenario_load(file, error);
    ok = ctx->scenario != NULL;
  }
  if (ok && ctx->replay) { /* the recorded point: its own faults, no sweeps */
    TrvScenario *sc = ctx->scenario;
    for (guint i = 0; i < sc->faults->len; i++) trv_fault_spec_clear(&g_array_index(sc->faults, TrvFaultSpec, i));
    g_array_set_size(sc->faults, 0);
    for (guint i = 0; i < sc->sweeps->len; i++) {
      TrvSweepSpec *sw = &g_array_index(sc->sweeps, TrvSweepSpec, i);
      g_free(sw->param);
      g_strfreev(sw->values);
    }
    g_array_set_size(sc->sweeps, 0);
  }
  if (ok && !(ctx->world_class = trivium_world_lookup(ctx->scenario->world)))
    ok = input_error(error, "world '%s' is not built into this program", ctx->scenario->world);
  if (ok) {
    char *base = g_path_get_basename(file);
    ctx->experiment = g_str_has_suffix(base, ".xml") ? g_strndup(base, strlen(base) - 4) : g_strdup(base);
    g_free(base);
  }
  g_free(file);
  for (int i = 0; ok && faults && faults[i]; i++) {
    TrvFaultSpec f;
    ok = trv_run_parse_fault(faults[i], &f, error);
    if (ok) g_array_append_val(ctx->cli_faults, f);
  }
  g_strfreev(faults);
  for (int i = 0; ok && roles && roles[i]; i++) {
    int r;
    char *globs;
    if ((ok = trv_run_parse_role(roles[i], &r, &globs, error))) {
      g_free(ctx->role_hosts[r]);
      ctx->role_hosts[r] = globs;
    }
  }
  g_strfreev(roles);
  ctx->jobs = (int)g_get_num_processors();
  if (ok && jobs) ok = trv_run_parse_count("--jobs", "a number of parallel cells", jobs, 1, 4096, &ctx->jobs, error);
  g_free(jobs);
  ctx->quiet = quiet || bench;
  if (ok) ok = sets_not_swept(ctx, error);
  if (ok && !ctx->quiet && ctx->cli_sweep && ctx->scenario->sweeps->len > 0 && !ctx->replay) { /* said (unless -q) */
    GString *was = g_string_new(NULL);
    for (guint i = 0; i < ctx->scenario->sweeps->len; i++)
      g_string_append_printf(was, "%s%s", i ? " x " : "", g_array_index(ctx->scenario->sweeps, TrvSweepSpec, i).param);
    fprintf(stderr, "trivium: --sweep %s replaces the scenario's sweep of %s\n", ctx->cli_sweep, was->str);
    g_string_free(was, TRUE);
  }
  if (ok && !controllers)
    controllers = ctx->scenario->controllers ? g_strjoinv(",", ctx->scenario->controllers)
                                             : g_strjoinv(",", (char **)trv_controller_defaults());
  if (!(ok && trv_run_parse_controllers(controllers, &ctx->controllers, error))) {
    ok = false;
    ctx->controllers = g_new0(char *, 1);
  }
  g_free(controllers);
  ctx->n_controllers = (int)g_strv_length(ctx->controllers);
  if (ok && ctx->ctl && g_mkdir_with_parents(ctx->ctl, 0755) != 0)
    ok = input_error(error, "--ctl %s: cannot create the directory", ctx->ctl);
  if (ok) {
    ctx->own_placement = !ctx->platform;
    for (int r = 0; r < TRV_N_ROLES; r++) ctx->own_placement = ctx->own_placement && !ctx->role_hosts[r];
    if (!ctx->platform) ctx->platform = g_strdup(ctx->scenario->platform);
    if (!ctx->out && ctx->scenario->out_dir) ctx->out = g_strdup(ctx->scenario->out_dir);
    for (int r = 0; r < TRV_N_ROLES; r++)
      if (!ctx->role_hosts[r] && ctx->scenario->role_hosts[r]) ctx->role_hosts[r] = g_strdup(ctx->scenario->role_hosts[r]);
    ok = load_point(ctx, 0, NULL, NULL, error); /* checks --set and the faults once, up front */
    if (ok && ctx->cli_sweep) ok = sweep_values_apply(ctx, error);
    /* the platform is data: an XML platform, never a library SimGrid would load */
    if (ok) ok = trv_platform_file_check(ctx->platform, error);
    if (ok && !ctx->no_simgrid) ok = check_simgrid(ctx, error); /* a merge runs no simulation */
  }
  return ok;
}

void trv_run_ctx_free(RunCtx *ctx) {
  g_strfreev(ctx->controllers);
  g_strfreev(ctx->sets);
  g_free(ctx->out);
  g_free(ctx->ctl);
  g_free(ctx->platform);
  g_free(ctx->cli_sweep);
  g_free(ctx->experiment);
  for (int r = 0; r < TRV_N_ROLES; r++) g_free(ctx->role_hosts[r]);
  if (ctx->cell_args) g_ptr_array_free(ctx->cell_args, TRUE);
  if (ctx->simgrid_args) g_ptr_array_free(ctx->simgrid_args, TRUE);
  for (guint i = 0; ctx->cli_faults && i < ctx->cli_faults->len; i++)
    trv_fault_spec_clear(&g_array_index(ctx->cli_faults, TrvFaultSpec, i));
  if (ctx->cli_faults) g_array_free(ctx->cli_faults, TRUE);
  if (ctx->faults) g_array_free(ctx->faults, TRUE);
  if (ctx->scenario) trv_scenario_free(ctx->scenario);
  if (ctx->sha_cache) g_hash_table_destroy(ctx->sha_cache);
  g_free(ctx->emit);
}

int trv_run_fail(GError *err) {
  int code = err->code == TRV_ERROR_INPUT ? 2 : 1;
  fprintf(stderr, "trivium: %s\n", err->message);
  g_error_free(err);
  return code;
}

/* Every point of the run; a single point writes straight into ctx->out.
 * With count, runs nothing: *count is the number of cells of the run
 * (points x controllers x seeds), the numbering --cells uses. */
int trv_run_points(RunCtx *ctx, int argc, char **argv, FILE *table, TrvRunTotals *totals, long *count, GError **error) {
  char *sweep_key = NULL, **values = NULL;
  size_t n = trv_scenario_n_points(ctx->scenario);
  if (ctx->cli_sweep) {
    if (!trv_run_parse_sweep(ctx->cli_sweep, &sweep_key, &values, error)) return 2;
    n = g_strv_length(values);
  }
  int code = 0;
  long cells = 0;
  ctx->cell_offset = 0;
  if (n == 1 && !sweep_key) {
    cells = (long)ctx->n_controllers * ctx->params.seeds;
    if (!count) code = trv_run_point(ctx, argc, argv, table, totals, NULL, NULL, error);
  } else {
    char *base_out = ctx->out;
    TrvSweepTable sw;
    GPtrArray *keys = g_ptr_array_new();
    if (sweep_key) {
      g_ptr_array_add(keys, sweep_key);
    } else {
      for (guint i = 0; ctx->scenario->sweeps && i < ctx->scenario->sweeps->len; i++)
        g_ptr_array_add(keys, g_array_index(ctx->scenario->sweeps, TrvSweepSpec, i).param);
    }
    g_ptr_array_add(keys, NULL);
    trv_sweep_table_init(&sw, (char **)keys->pdata, ctx->controllers, ctx->n_controllers);
    g_ptr_array_free(keys, TRUE);
    for (size_t k = 0; k < n && code == 0; k++) {
      char *label = sweep_key ? g_strdup_printf("%s=%s", sweep_key, values[k]) : trv_scenario_point_label(ctx->scenario, k);
      char **point_values = sweep_key ? g_strdupv((char *[]){values[k], NULL}) : trv_scenario_point_values(ctx->scenario, k);
      if (!load_point(ctx, k, sweep_key, sweep_key ? values[k] : NULL, error)) code = 2;
      ctx->cell_offset = (int)cells;
      cells += (long)ctx->n_controllers * ctx->params.seeds;
      if (cells > INT_MAX / 2 && code == 0) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "the run has more than %d cells", INT_MAX / 2);
        code = 2;
      }
      if (count || code) {
        g_free(label);
        g_strfreev(point_values);
        continue;
      }
      char *dir = g_strdelimit(g_strdup(label), " /", '_');
      ctx->out = g_build_filename(base_out, dir, NULL);
      ctx->point_dir = dir;
      if (!ctx->quiet && ctx->mode != TRV_RUN_STATUS)
        fprintf(stderr, "trivium: point %zu/%zu: %s -> %s\n", k + 1, n, label, ctx->out);
      if (code == 0 && ctx->mode != TRV_RUN_STATUS && !trv_check_out_dir(ctx->out, false, error)) code = 2;
      ctx->point_values = point_values;
      if (code == 0) code = trv_run_point(ctx, argc, argv, NULL, totals, &sw, label, error);
      ctx->point_dir = NULL;
      ctx->point_values = NULL;
      g_strfreev(point_values);
      g_free(dir);
      g_free(ctx->out);
      g_free(label);
    }
    ctx->out = base_out;
    if (code == 0 && !count && ctx->mode != TRV_RUN_CELLS && ctx->mode != TRV_RUN_STATUS &&
        !trv_sweep_table_write(&sw, base_out, table, ctx->experiment, ctx->params.seeds, error))
      code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
    trv_sweep_table_free(&sw);
  }
  if (count) *count = cells;
  g_free(sweep_key);
  g_strfreev(values);
  return code;
}

/* SimGrid's own help options (--help-models, --help-tracing,
 * --help-log-categories): SimGrid prints its text and exits 0. */
static const char *const simgrid_helps[] = {"--help-models", "--help-tracing", "--help-log-categories", NULL};

static int simgrid_help(const char *option) {
  int argc = 2;
  char *argv[] = {(char *)"trivium", (char *)option, NULL};
  simgrid_init(&argc, argv);
  return 0;
}

int trv_cmd_run(int argc, char **argv) {
  RunCtx ctx = {0};
  GError *err = NULL;
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
    for (int h = 0; simgrid_helps[h]; h++)
      if (!strcmp(argv[i], simgrid_helps[h])) return simgrid_help(argv[i]);
  if (!trv_run_parse_args(&ctx, argc, argv, false, &err)) {
    trv_run_ctx_free(&ctx);
    return trv_run_fail(err);
  }
  if (!ctx.out) ctx.out = default_out_dir();
  if (!trv_check_out_dir(ctx.out, true, &err)) {
    trv_run_ctx_free(&ctx);
    return trv_run_fail(err);
  }
  if (ctx.emit) {
    int code = trv_emit_jobs(&ctx, argc, argv, &err);
    trv_run_ctx_free(&ctx);
    return code ? trv_run_fail(err) : 0;
  }
  long n_cells = 0;
  if (ctx.mode == TRV_RUN_CELLS) { /* a job's share: within the run */
    int code = trv_run_points(&ctx, argc, argv, NULL, NULL, &n_cells, &err);
    if (code == 0 && ctx.cell_last >= n_cells) {
      g_set_error(&err, TRV_ERROR, TRV_ERROR_INPUT, "--cells %d-%d: the run has %ld cells (0-%ld)", ctx.cell_first,
                  ctx.cell_last, n_cells, n_cells - 1);
      code = 2;
    }
    if (code) {
      trv_run_ctx_free(&ctx);
      return trv_run_fail(err);
    }
  }
  if (ctx.mode == TRV_RUN_ALL && !trv_write_run_manifest(&ctx, argc, argv, &err)) {
    trv_run_ctx_free(&ctx);
    return trv_run_fail(err);
  }
  if (!ctx.quiet)
    fprintf(stderr, "trivium: %s, %d controllers x %d seeds x %d episodes, %d jobs -> %s\n", ctx.experiment,
            ctx.n_controllers, ctx.params.seeds, ctx.params.episodes, ctx.jobs, ctx.out);
  TrvRunTotals totals = {0};
  int code = trv_run_points(&ctx, argc, argv, ctx.quiet ? NULL : stdout, &totals, NULL, &err);
  if (code == 0 && !ctx.quiet) printf("\nOutputs: %s/\n", ctx.out);
  trv_run_ctx_free(&ctx);
  return code ? trv_run_fail(err) : 0;
}
