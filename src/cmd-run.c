/* cmd-run.c - `trivium run [SCENARIO]` (and what `trivium bench`, cmd-bench.c,
 * runs): the points of a run, one after the other, into their directories.
 *
 * The command line becomes a run context in run-args.c; here the context's
 * points are run.  A scenario with sweeps, or --sweep, runs one point per
 * value into OUT/<label>/ and writes OUT/sweep.{csv,md}; a single point
 * writes straight into OUT.  A point's parameters and faults are loaded
 * from the scenario and the command line again for each point
 * (trv_run_load_point), so that --set is re-applied at every point.
 * Exit codes: 0 ok, 1 a cell failed to run, 2 bad input. */
#include <config.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <simgrid/engine.h>

#include "commands.h"
#include "core/out-file.h"
#include "run.h"
#include "run-values.h"

/* The point's parameters and faults: see run.h. */
bool trv_run_load_point(RunCtx *ctx, size_t k, const char *sweep_key, const char *sweep_value, GError **error) {
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
    trv_sweep_table_init(&sw, (char **)keys->pdata, ctx->controllers, ctx->n_controllers, ctx->world_class);
    g_ptr_array_free(keys, TRUE);
    for (size_t k = 0; k < n && code == 0; k++) {
      char *label =
          sweep_key ? g_strdup_printf("%s=%s", sweep_key, values[k]) : trv_scenario_point_label(ctx->scenario, k);
      char **point_values =
          sweep_key ? g_strdupv((char *[]){values[k], NULL}) : trv_scenario_point_values(ctx->scenario, k);
      if (!trv_run_load_point(ctx, k, sweep_key, sweep_key ? values[k] : NULL, error)) code = 2;
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
      if (code == 0 && ctx->mode != TRV_RUN_STATUS && !trv_out_dir_check(ctx->out, false, error)) code = 2;
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
  if (!trv_out_dir_check(ctx.out, true, &err)) {
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
