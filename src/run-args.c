/* run-args.c - the command line of `trivium run` and `trivium bench` into a
 * run context (run.h): trv_run_parse_args.
 *
 * What runs comes from a scenario file (scenarios/NAME.xml; with no argument
 * scenarios/default.xml, the headline run; `--experiment NAME` is short for
 * the shipped scenarios/NAME.xml, --replay-config the run a run.json
 * describes), then the command line on top of it: --set KEY=VALUE
 * (re-applied at every point of a sweep), --controllers, --platform,
 * --role, --fault, --sweep, --out, --ctl.  SimGrid's --cfg= and --log=
 * pass through.  Each concern has its function below (the command line's
 * syntax, the replayed run, the outputs, the scenario, the placement, the
 * sweeps, the controllers, the first point), called in that order; the
 * first error stops the parse, so the order is the order in which a command
 * line's mistakes are reported.  Every value (every --sweep value
 * included), the platform and SimGrid's options are checked here, before
 * anything runs or is written. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <simgrid/engine.h>
#include <sys/wait.h>

#include "core/datadir.h"
#include "figure-draw.h"
#include "run.h"
#include "run-values.h"
#include "replay-config.h"
#include "sim/child.h"
#include "simgrid-options.h"

/* The options of the command line as given, before they are checked
 * (those that go straight into the context are not here). */
typedef struct {
  char **faults, **roles, *controllers, *experiment, *replay, *cells;
  char *jobs, *chunk; /* -j not given: the number of cores; --chunk not given: 0, chosen by --emit */
  char *figures;      /* --figures: what gnuplot draws (default all) */
  gboolean quiet, fresh;
  char *file; /* the scenario argument */
} RunArgs;

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
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "SimGrid's options: %.*s", (int)report->len,
                (const char *)report->data);
  } else if (!ok) {
    char *log = trv_child_log_head(child, 65536), *why = trv_simgrid_reason(log);
    GString *args = g_string_new(NULL);
    for (guint i = 0; i < ctx->simgrid_args->len; i++)
      g_string_append_printf(args, " %s", (char *)ctx->simgrid_args->pdata[i]);
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
                  "(it replaces the scenario's sweep)",
                  set, sw->param, values, sw->param);
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
  for (int i = 0; ok && values[i]; i++) ok = trv_run_load_point(ctx, 0, key, values[i], error);
  g_free(key);
  g_strfreev(values);
  return ok && trv_run_load_point(ctx, 0, NULL, NULL, error);
}

/* The command line's syntax: SimGrid's --cfg= and --log= set aside, each
 * --cfg=trivium/KEY:VALUE taken as a --set KEY=VALUE (before the --set
 * options, like their order on a command line), -j2 read as -j 2; then
 * GLib's parse of the options into a and ctx, at most one --sweep and at
 * most one scenario argument. */
static bool read_command_line(RunCtx *ctx, RunArgs *a, int argc, char **argv, bool bench, GError **error) {
  GOptionEntry entries[] = {
      {"out", 'o', 0, G_OPTION_ARG_FILENAME, &ctx->out,
       "output directory (default: the scenario's, else results/<time>)", "DIR"},
      {"jobs", 'j', 0, G_OPTION_ARG_STRING, &a->jobs, "cells run in parallel (default: number of cores)", "N"},
      {"controllers", 'c', 0, G_OPTION_ARG_STRING, &a->controllers,
       "comma-separated controllers (default: the scenario's)", "LIST"},
      {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &ctx->sets, "set a parameter (see `trivium params`)", "KEY=VALUE"},
      {"experiment", 'e', 0, G_OPTION_ARG_STRING, &a->experiment, "run the shipped scenarios/NAME.xml", "NAME"},
      {"platform", 0, 0, G_OPTION_ARG_FILENAME, &ctx->platform, "SimGrid platform instead of the scenario's", "FILE"},
      {"role", 'r', 0, G_OPTION_ARG_STRING_ARRAY, &a->roles, "map a role onto hosts: controller|ctl|agent=GLOB[,GLOB]",
       "ROLE=GLOBS"},
      {"fault", 'f', 0, G_OPTION_ARG_STRING_ARRAY, &a->faults,
       "a fault process: link-flap:GLOB:MTBF:MTTR[:START[:STOP]], host-crash:GLOB:AT:DUR, partition:GLOBS:AT:DUR",
       "SPEC"},
      {"sweep", 0, 0, G_OPTION_ARG_STRING, &ctx->cli_sweep,
       "one run per value: a parameter key, or link-flap.mtbf (etc.) for the fault processes", "KEY=V1,V2,..."},
      {"ctl", 0, 0, G_OPTION_ARG_FILENAME, &ctx->ctl,
       "keep each cell's Causal Transaction Log in DIR/<controller>-seed<N>.ctl (a sweep: DIR/<point>/...)", "DIR"},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "no progress and no table", NULL},
      {"figures", 0, 0, G_OPTION_ARG_STRING, &a->figures,
       "what gnuplot draws: none (data and scripts only), svg, png or all (default)", "none|svg|png|all"},
      {"replay-config", 0, 0, G_OPTION_ARG_FILENAME, &a->replay,
       "rerun the run (one point) a run.json describes, on the same inputs", "RUN.json"},
      {"fresh", 0, 0, G_OPTION_ARG_NONE, &a->fresh, "run every cell again, even those complete in the output directory",
       NULL},
      {"emit", 0, 0, G_OPTION_ARG_STRING, &ctx->emit,
       "write the run as a job list (parallel: OUT/jobs.txt for GNU parallel; slurm: also a Slurm array) instead of "
       "running it; then `trivium merge OUT`",
       "parallel|slurm"},
      {"chunk", 0, 0, G_OPTION_ARG_STRING, &a->chunk, "with --emit: cells per job (default: 1, more past 1,000 jobs)",
       "N"},
      {"cells", 0, 0, G_OPTION_ARG_STRING, &a->cells, "run only these cells of the run (a job of a job list), no merge",
       "FIRST-LAST"},
      {NULL}};
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
    const char *arg = rest->pdata[i];
    if (!strcmp(arg, "--")) break;
    n_sweeps += !strcmp(arg, "--sweep") || g_str_has_prefix(arg, "--sweep=");
  }
  int rc = (int)rest->len;
  char **rv = (char **)rest->pdata;
  GOptionContext *oc =
      g_option_context_new(bench ? "[SCENARIO] - time a run" : "[SCENARIO] - run a scenario under SimGrid");
  g_option_context_add_main_entries(oc, entries, NULL);
  g_option_context_set_description(
      oc, "SimGrid options --cfg=... and --log=... are passed through to the simulator; --help-models, "
          "--help-tracing and --help-log-categories print SimGrid's own help.");
  GError *perr = NULL;
  bool ok = g_option_context_parse(oc, &rc, &rv, &perr);
  g_option_context_free(oc);
  if (!ok) ok = input_error(error, "%s", perr->message), g_error_free(perr);
  if (ok && n_sweeps > 1)
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "--sweep given %d times; expected one (a scenario's <sweep> "
                "elements make a grid of several keys)",
                n_sweeps),
        ok = false;
  if (ok && cfg_sets->len) {
    GStrvBuilder *b = g_strv_builder_new();
    for (guint i = 0; i < cfg_sets->len; i++) g_strv_builder_add(b, cfg_sets->pdata[i]);
    if (ctx->sets) g_strv_builder_addv(b, (const char **)ctx->sets);
    g_strfreev(ctx->sets);
    ctx->sets = g_strv_builder_end(b);
    g_strv_builder_unref(b);
  }
  if (ok && rc > 2)
    ok = input_error(error, "unexpected argument '%s' (one scenario at most)", rv[2]);
  else if (ok && rc == 2)
    a->file = g_strdup(rv[1]);
  g_ptr_array_free(cfg_sets, TRUE);
  g_ptr_array_free(rest, TRUE);
  g_ptr_array_free(glued, TRUE);
  return ok;
}

/* --replay-config: the whole run from the run.json a->replay names (its
 * scenario, parameters, faults, roles, controllers, platform and SimGrid
 * options); only where it goes and how fast may be given besides. */
static bool take_replay_config(RunCtx *ctx, RunArgs *a, GError **error) {
  if (a->file || a->experiment || ctx->sets || a->faults || a->roles || a->controllers || ctx->platform ||
      ctx->cli_sweep || ctx->simgrid_args->len)
    return input_error(error,
                       "--replay-config %s takes the scenario, parameters, faults, roles, controllers, "
                       "platform and SimGrid options from the file; give only -o, -j, -q, --figures or --ctl with it",
                       a->replay);
  TrvReplayConfig rcfg;
  if (!trv_replay_config_load(a->replay, &rcfg, error)) return false;
  a->file = g_strdup(rcfg.scenario);
  ctx->sets = g_steal_pointer(&rcfg.sets);
  a->controllers = g_steal_pointer(&rcfg.controllers);
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
  return true;
}

/* What the run writes and which of its cells run: SimGrid's tracing (its
 * files go inside the run's directory, never where a --cfg names),
 * --cells, --fresh (always, for bench), --emit and --chunk. */
static bool output_options(RunCtx *ctx, const RunArgs *a, bool bench, GError **error) {
  bool trace_named = false;
  ctx->tracing =
      trv_simgrid_tracing((const char *const *)ctx->simgrid_args->pdata, ctx->simgrid_args->len, &trace_named);
  if (trace_named)
    return input_error(error,
                       "--cfg=tracing/filename: a run writes each cell's trace inside its output directory, as "
                       "OUT/traces/<controller>-seed<N>.trace (a sweep: OUT/<point>/traces/...)%s; drop the option",
                       "");
  if (a->cells) {
    if (!trv_run_parse_cells(a->cells, &ctx->cell_first, &ctx->cell_last, error)) return false;
    ctx->mode = TRV_RUN_CELLS;
  }
  ctx->fresh = a->fresh || bench;
  if (ctx->emit && strcmp(ctx->emit, "parallel") && strcmp(ctx->emit, "slurm"))
    return input_error(error, "--emit '%s': expected parallel or slurm", ctx->emit);
  if (a->chunk &&
      !trv_run_parse_count("--chunk", "a number of cells per job", a->chunk, 1, 1000000, &ctx->chunk, error))
    return false;
  if (ctx->emit && ctx->mode == TRV_RUN_CELLS) return input_error(error, "--emit and --cells: give one of them%s", "");
  return true;
}

/* The scenario: the file given, the shipped one --experiment names, or
 * scenarios/default.xml, loaded; a replayed run's point keeps its own
 * faults and no sweeps; its world must be built in; the experiment is the
 * file's name without .xml. */
static bool select_scenario(RunCtx *ctx, RunArgs *a, GError **error) {
  if (a->file && a->experiment)
    return input_error(error, "give a scenario file or --experiment %s, not both", a->experiment);
  if (!a->file) {
    const char *name = a->experiment ? a->experiment : "default";
    char *base = g_strdup_printf("%s.xml", name);
    a->file = trv_find_data("scenarios", base, NULL);
    g_free(base);
    if (!a->file) return no_shipped_scenario(name, error);
  }
  if (!(ctx->scenario = trv_scenario_load(a->file, error))) return false;
  if (ctx->replay) { /* the recorded point: its own faults, no sweeps */
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
  if (!(ctx->world_class = trivium_world_lookup(ctx->scenario->world)))
    return input_error(error, "world '%s' is not built into this program", ctx->scenario->world);
  char *base = g_path_get_basename(a->file);
  ctx->experiment = g_str_has_suffix(base, ".xml") ? g_strndup(base, strlen(base) - 4) : g_strdup(base);
  g_free(base);
  return true;
}

/* Where the run happens: the --fault processes (added to every point's)
 * and the --role mappings (over the scenario's). */
static bool placement_options(RunCtx *ctx, const RunArgs *a, GError **error) {
  for (int i = 0; a->faults && a->faults[i]; i++) {
    TrvFaultSpec f;
    if (!trv_run_parse_fault(a->faults[i], &f, error)) return false;
    g_array_append_val(ctx->cli_faults, f);
  }
  for (int i = 0; a->roles && a->roles[i]; i++) {
    int r;
    char *globs;
    if (!trv_run_parse_role(a->roles[i], &r, &globs, error)) return false;
    g_free(ctx->role_hosts[r]);
    ctx->role_hosts[r] = globs;
  }
  return true;
}

/* How the run goes: -j (default: the number of cores) and -q (always, for
 * bench). */
static bool pace_options(RunCtx *ctx, const RunArgs *a, bool bench, GError **error) {
  ctx->jobs = (int)g_get_num_processors();
  if (a->jobs && !trv_run_parse_count("--jobs", "a number of parallel cells", a->jobs, 1, 4096, &ctx->jobs, error))
    return false;
  ctx->quiet = a->quiet || bench;
  TrvFigFormats f = TRV_FIG_ALL;
  if (a->figures && !trv_fig_formats_parse(a->figures, &f, error)) return false;
  trv_fig_formats_set(f);
  return true;
}

/* The sweeps: no --set of a swept parameter; --sweep replaces the
 * scenario's sweeps, which is said (unless -q). */
static bool sweep_options(RunCtx *ctx, GError **error) {
  if (!sets_not_swept(ctx, error)) return false;
  if (!ctx->quiet && ctx->cli_sweep && ctx->scenario->sweeps->len > 0 && !ctx->replay) {
    GString *was = g_string_new(NULL);
    for (guint i = 0; i < ctx->scenario->sweeps->len; i++)
      g_string_append_printf(was, "%s%s", i ? " x " : "", g_array_index(ctx->scenario->sweeps, TrvSweepSpec, i).param);
    fprintf(stderr, "trivium: --sweep %s replaces the scenario's sweep of %s\n", ctx->cli_sweep, was->str);
    g_string_free(was, TRUE);
  }
  return true;
}

/* The controllers: -c, else the scenario's, else the default ones. */
static bool controllers_option(RunCtx *ctx, const RunArgs *a, GError **error) {
  char *list = a->controllers               ? g_strdup(a->controllers)
               : ctx->scenario->controllers ? g_strjoinv(",", ctx->scenario->controllers)
                                            : g_strjoinv(",", (char **)trv_controller_defaults());
  bool ok = trv_run_parse_controllers(list, &ctx->controllers, error);
  g_free(list);
  return ok;
}

/* The first point, loaded once before anything runs: the --ctl directory
 * made, the platform, output directory and roles completed from the
 * scenario, --set and the faults applied (and every --sweep value), the
 * platform file checked and SimGrid's options and the platform tried. */
static bool first_point(RunCtx *ctx, GError **error) {
  if (ctx->ctl && g_mkdir_with_parents(ctx->ctl, 0755) != 0)
    return input_error(error, "--ctl %s: cannot create the directory", ctx->ctl);
  ctx->own_placement = !ctx->platform;
  for (int r = 0; r < TRV_N_ROLES; r++) ctx->own_placement = ctx->own_placement && !ctx->role_hosts[r];
  if (!ctx->platform) ctx->platform = g_strdup(ctx->scenario->platform);
  if (!ctx->out && ctx->scenario->out_dir) ctx->out = g_strdup(ctx->scenario->out_dir);
  for (int r = 0; r < TRV_N_ROLES; r++)
    if (!ctx->role_hosts[r] && ctx->scenario->role_hosts[r])
      ctx->role_hosts[r] = g_strdup(ctx->scenario->role_hosts[r]);
  bool ok = trv_run_load_point(ctx, 0, NULL, NULL, error); /* checks --set and the faults once, up front */
  if (ok && ctx->cli_sweep) ok = sweep_values_apply(ctx, error);
  /* the platform is data: an XML platform, never a library SimGrid would load */
  if (ok) ok = trv_platform_file_check(ctx->platform, error);
  if (ok && !ctx->no_simgrid) ok = check_simgrid(ctx, error); /* a merge runs no simulation */
  return ok;
}

bool trv_run_parse_args(RunCtx *ctx, int argc, char **argv, bool bench, GError **error) {
  RunArgs a = {0};
  ctx->simgrid_args = g_ptr_array_new_with_free_func(g_free);
  ctx->cli_faults = g_array_new(FALSE, FALSE, sizeof(TrvFaultSpec));
  bool ok = read_command_line(ctx, &a, argc, argv, bench, error);
  if (ok && a.replay) ok = take_replay_config(ctx, &a, error);
  ok = ok && output_options(ctx, &a, bench, error);
  ok = ok && select_scenario(ctx, &a, error);
  ok = ok && placement_options(ctx, &a, error);
  ok = ok && pace_options(ctx, &a, bench, error);
  ok = ok && sweep_options(ctx, error);
  ok = ok && controllers_option(ctx, &a, error);
  if (!ctx->controllers) ctx->controllers = g_new0(char *, 1);
  ctx->n_controllers = (int)g_strv_length(ctx->controllers);
  ok = ok && first_point(ctx, error);
  g_strfreev(a.faults);
  g_strfreev(a.roles);
  g_free(a.controllers);
  g_free(a.experiment);
  g_free(a.replay);
  g_free(a.cells);
  g_free(a.jobs);
  g_free(a.figures);
  g_free(a.chunk);
  g_free(a.file);
  return ok;
}
