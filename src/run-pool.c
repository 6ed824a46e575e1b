/* run-pool.c - one point of a run: a grid of cells (controller x seed), each
 * one SimGrid simulation in a process of its own (SimGrid initialises once
 * per process), up to --jobs at a time.  A cell writes its episodes.csv
 * lines to OUT/cells/<controller>-seed<N>.csv as its episodes close, then
 * its reduction (the per-seed metrics, core/results.h) stamped with the
 * cell's fingerprint to .sum (cell-file.h): the cell is complete once that
 * is in place.  The merge concatenates the lines in (controller, seed)
 * order and summarises the reductions, so the outputs do not depend on
 * --jobs, on which cell finished first or on which process or machine ran
 * it, and no process holds a run's rows in memory.  Complete cells of the
 * same configuration are not run again: an interrupted run resumes, a job
 * list (--cells) runs its share, `trivium merge` runs none.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cell-file.h"
#include "figures.h"
#include "replay-config.h"
#include "run.h"
#include "run-inputs.h"
#include "run-reads.h"
#include "core/world-call.h"
#include "core/world-report.h"
#include "sim/child.h"

static void progress(const RunCtx *ctx, int done, int total, gint64 t0) {
  if (ctx->quiet || !isatty(STDERR_FILENO)) return;
  double el = (g_get_monotonic_time() - t0) / 1e6, rate = done / (el > 0 ? el : 1e-9);
  double eta = done ? (total - done) / rate : 0;
  fprintf(stderr, "\r  cells %d/%d  %.2f cells/s  ETA %.0f s   ", done, total, rate, eta);
  if (done == total) fprintf(stderr, "\n");
}

static int layout_world_metrics(const TrvCellLayout *l) {
  int n = 0;
  while (l->metric_names && l->metric_names[n] && n < TRV_WORLD_METRICS_MAX) n++;
  return n;
}

/* Copies a cell summary into a zero-filled one: the fixed part and the
 * used entries of the regret curve and of the change-points.  Their unused
 * entries are zero in the cell file too; left untouched, the pages of a
 * zero-filled array of many cells stay unallocated (a run of many cells
 * would otherwise hold ~64 KB per cell, twice). */
static void summary_keep(TrvCellSummary *dst, const TrvCellSummary *src) {
  memcpy(dst, src, offsetof(TrvCellSummary, curve_episode));
  memcpy(dst->curve_episode, src->curve_episode, sizeof *src->curve_episode * (size_t)src->n_curve);
  memcpy(dst->curve_r_out, src->curve_r_out, sizeof *src->curve_r_out * (size_t)src->n_curve);
  dst->n_change_points = src->n_change_points;
  memcpy(dst->change_point, src->change_point, sizeof *src->change_point * (size_t)src->n_change_points);
}

/* Reads cell c's file; true (and *cf, which must be zero-filled: see
 * summary_keep) when the cell is complete: a cell file of this
 * configuration and an episodes.csv part of the recorded length.  With
 * why, the reason it is not (cell-file.h: TRV_ERROR_CORRUPT when a file is
 * damaged). */
static bool cell_complete(const RunCtx *ctx, const TrvCellLayout *layout, int c, const char *fingerprint,
                          TrvCellFile *cf, GError **why) {
  char *sum = trv_run_cell_path(ctx, c, "sum"), *csv = trv_run_cell_path(ctx, c, "csv");
  TrvCellFile *got = g_new(TrvCellFile, 1);
  bool ok = trv_cell_file_read(sum, csv, fingerprint, layout->episodes, layout->cand->n_components,
                               layout_world_metrics(layout), got, why);
  if (ok) {
    memcpy(cf, got, offsetof(TrvCellFile, sum));
    summary_keep(&cf->sum, &got->sum);
    cf->controller_cpu = got->controller_cpu;
  }
  g_free(got);
  g_free(sum);
  g_free(csv);
  return ok;
}

/* A damaged cell (TRV_ERROR_CORRUPT) where the run cannot run it again: bad
 * input, exit code 2, with what to do. */
static int refuse_damaged(GError *e, GError **error) {
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s; delete it and run again: the cell runs anew", e->message);
  g_error_free(e);
  return 2;
}

/* true when another process holds cell c (a job still running it). */
static bool cell_busy(const RunCtx *ctx, int c) {
  char *started = trv_run_cell_path(ctx, c, "started");
  int fd = trv_out_open(started, O_RDONLY, NULL);
  bool busy = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  if (fd >= 0) close(fd);
  g_free(started);
  return busy;
}

/* Runs the cells marked in to_run[], up to ctx->jobs at a time.  Returns the
 * exit code. */
static int run_cells(RunCtx *ctx, const TrvCellLayout *layout, char **fingerprints, const bool *to_run,
                     GError **error) {
  int n_seeds = ctx->params.seeds, total = ctx->n_controllers * n_seeds, n_to_run = 0;
  if (total <= 0) return 0;
  for (int c = 0; c < total; c++) n_to_run += to_run[c];
  gint64 t0 = g_get_monotonic_time();
  int next = 0, running = 0, done = 0, code = 0;
  TrvChild **children = g_new0(TrvChild *, total);
  while (done < n_to_run) {
    while (code == 0 && running < ctx->jobs && next < total) {
      if (!to_run[next]) {
        next++;
        continue;
      }
      char *started = trv_run_cell_path(ctx, next, "started"), *sum = trv_run_cell_path(ctx, next, "sum");
      unlink(sum); /* whatever an earlier configuration left: the cell is not complete until it says so */
      int fd = trv_out_open(started, O_WRONLY | O_CREAT, error);
      bool marked = fd >= 0 && close(fd) == 0;
      CellJob job = {ctx, layout, next, fingerprints[next]};
      if (!marked) code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
      g_free(sum);
      g_free(started);
      if (!marked) break;
      if (!(children[next] = trv_child_start(trv_run_cell_child, &job, false, error))) {
        code = 1;
        break;
      }
      next++;
      running++;
    }
    if (running == 0) break;
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) continue;
    int cell = -1;
    for (int i = 0; i < next && cell < 0; i++)
      if (children[i] && trv_child_pid(children[i]) == pid) cell = i;
    if (cell < 0) continue; /* not one of ours */
    trv_child_reaped(children[cell]);
    running--;
    done++;
    int cc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    for (int k = 0; k < 2; k++) { /* what a failed cell left half written */
      char *tmp = trv_run_cell_path(ctx, cell, k ? "sum.tmp" : "csv.tmp");
      unlink(tmp);
      g_free(tmp);
    }
    if (cc != 0 && code == 0) {
      char *ep = trv_run_cell_path(ctx, cell, "err"), *msg = NULL;
      if (!(msg = trv_cell_message_read(ep))) {
        char *how = trv_child_status_text(status);
        msg = g_strdup_printf("cell %d (%s, seed %d) %s", cell, ctx->controllers[cell / n_seeds],
                              ctx->params.seed_base + cell % n_seeds, how);
        g_free(how);
      }
      unlink(ep);
      g_set_error(error, TRV_ERROR, cc == 2 ? TRV_ERROR_INPUT : TRV_ERROR_IO, "%s", msg);
      g_free(msg);
      g_free(ep);
      code = cc == 2 ? 2 : 1;
    }
    progress(ctx, done, n_to_run, t0);
  }
  for (int i = 0; i < total; i++) trv_child_free(children[i]);
  g_free(children);
  return code;
}

/* The merge: episodes.csv is the header, then every cell's lines in
 * (controller, seed) order, written under a temporary name and renamed when
 * whole; cells[] and totals get the cells' reductions.  A cell found on disk
 * is checked against the checksum its cell file records; one this process
 * has just run (fresh[c]) is not read twice: its process computed that
 * checksum from the very lines it wrote. */
static int merge_cells(RunCtx *ctx, const TrvCellLayout *layout, const TrvCellFile *files, const bool *fresh,
                       TrvCellSummary *cells, TrvRunTotals *totals, GError **error) {
  int total = ctx->n_controllers * ctx->params.seeds, code = 0;
  char *csv = g_build_filename(ctx->out, "episodes.csv", NULL), *csv_tmp = g_strconcat(csv, ".tmp", NULL);
  int fd = trv_out_create(csv_tmp, error);
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!out) {
    if (fd >= 0) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot write (%s)", csv_tmp, g_strerror(errno));
      close(fd);
    }
    code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
  } else {
    GString *h = g_string_new(NULL);
    trv_results_csv_header(h, layout);
    fwrite(h->str, 1, h->len, out);
    g_string_free(h, TRUE);
  }
  for (int c = 0; c < total && code == 0; c++) {
    char *path = trv_run_cell_path(ctx, c, "csv");
    GError *e = NULL;
    if (!trv_cell_lines_append(path, files[c].csv_bytes, fresh[c] ? NULL : files[c].csv_sha256, out, &e)) {
      if (e->code == TRV_ERROR_CORRUPT)
        code = refuse_damaged(e, error);
      else
        g_propagate_error(error, e), code = 1;
    } else {
      summary_keep(&cells[c], &files[c].sum);
      totals->controller_cpu += files[c].controller_cpu;
      totals->probes += (gint64)files[c].sum.metric[TRV_METRIC_PROBES];
      totals->agent_steps += (double)trv_params_int(&ctx->params, "agents.count") * layout->episodes * ctx->world_steps;
    }
    g_free(path);
  }
  if (out) {
    bool ok = fflush(out) == 0 && fsync(fileno(out)) == 0;
    ok = (fclose(out) == 0) && ok;
    if (code == 0 && !ok) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot write (%s)", csv, g_strerror(errno));
      code = 1;
    } else if (code == 0 && !trv_out_commit(csv_tmp, csv, error)) {
      code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
    }
    if (code != 0) unlink(csv_tmp);
  }
  g_free(csv);
  g_free(csv_tmp);
  return code;
}

/* ---- one point ---------------------------------------------------------- */

/* The SHA-256 of a file, computed once per run ("-" when it cannot be
 * read; the cache holds NULL then). */
static const char *sha_of(RunCtx *ctx, const char *path) {
  if (!ctx->sha_cache) ctx->sha_cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  gpointer sum;
  if (!g_hash_table_lookup_extended(ctx->sha_cache, path, NULL, &sum)) {
    sum = trv_file_sha256(path);
    g_hash_table_insert(ctx->sha_cache, g_strdup(path), sum);
  }
  return sum ? sum : "-";
}

/* The text that fixes what a point's cells compute: the program's version,
 * the world, the bytes of the scenario, the platform, the world's data
 * files and the platforms' profile files, the roles, the fault processes
 * (a fault trace by its bytes), SimGrid's options and every resolved
 * parameter.  A cell's fingerprint is its SHA-256 with the
 * controller and the seed (cell-file.h); where the outputs go, how many
 * jobs run them and the log files are not part of it. */
static char *point_identity(RunCtx *ctx, const GArray *inputs, const char *const *profiles) {
  GString *t = g_string_new(NULL);
  g_string_append_printf(t, "trivium %s git %s\nworld %s\n", PACKAGE_VERSION, trv_git_revision, ctx->world_class->name);
  if (ctx->scenario && ctx->scenario->file)
    g_string_append_printf(t, "scenario %s\n", sha_of(ctx, ctx->scenario->file));
  g_string_append_printf(t, "platform %s\n", sha_of(ctx, ctx->platform));
  for (guint i = 0; i < inputs->len; i++)
    g_string_append_printf(t, "input %s\n", sha_of(ctx, g_array_index(inputs, TrvRunInput, i).path));
  for (int i = 0; profiles[i]; i++) g_string_append_printf(t, "profile %s\n", sha_of(ctx, profiles[i]));
  for (int r = 0; r < TRV_N_ROLES; r++)
    g_string_append_printf(t, "role %s %s\n", trv_role_names[r], ctx->role_hosts[r] ? ctx->role_hosts[r] : "-");
  for (guint i = 0; ctx->faults && i < ctx->faults->len; i++) {
    const TrvFaultSpec *f = &g_array_index(ctx->faults, TrvFaultSpec, i);
    g_string_append_printf(t, "fault %d %s %a %a %a %a %a %a", (int)f->kind, f->pattern, f->mtbf, f->mttr, f->start,
                           f->stop, f->at, f->duration);
    /* the laws only when not exponential: an exponential fault's identity does not name them */
    if (f->up != TRV_FAULT_EXPONENTIAL) g_string_append_printf(t, " up %d %a", (int)f->up, f->up_shape);
    if (f->down != TRV_FAULT_EXPONENTIAL) g_string_append_printf(t, " down %d %a", (int)f->down, f->down_shape);
    if (f->trace) g_string_append_printf(t, " trace %s", f->trace->sha256); /* the bytes its events came from */
    g_string_append_c(t, '\n');
  }
  for (guint i = 0; i < ctx->simgrid_args->len; i++)
    g_string_append_printf(t, "simgrid %s\n", (char *)ctx->simgrid_args->pdata[i]);
  size_t n;
  const TrvParamSpec *specs = trv_param_specs(&n);
  for (size_t i = 0; i < n; i++) {
    char *v = trv_params_format(&ctx->params, &specs[i]);
    g_string_append_printf(t, "param %s=%s\n", specs[i].key, v);
    g_free(v);
  }
  return g_string_free(t, FALSE);
}

/* The cells of the point that this invocation runs: in a run, every cell
 * not complete already; with --cells, those of them in the given range of
 * the run's cells; in a merge, none. */
static bool cell_selected(const RunCtx *ctx, int c) {
  if (ctx->mode == TRV_RUN_MERGE || ctx->mode == TRV_RUN_STATUS) return false;
  if (ctx->mode == TRV_RUN_CELLS)
    return ctx->cell_offset + c >= ctx->cell_first && ctx->cell_offset + c <= ctx->cell_last;
  return true;
}

int trv_run_point(RunCtx *ctx, int argc, char **argv, FILE *table, TrvRunTotals *totals, TrvSweepTable *sweep,
                  const char *label, GError **error) {
  const TrvWorldClass *wc = ctx->world_class;
  int total = ctx->n_controllers * ctx->params.seeds;
  if (total <= 0) return 0; /* nothing to run (the parser guarantees a controller and a seed) */
  bool any = false;
  for (int c = 0; c < total; c++) any = any || cell_selected(ctx, c);
  if (ctx->mode == TRV_RUN_CELLS && !any) return 0; /* none of this job's cells is here */
  if (ctx->own_placement && ctx->mode != TRV_RUN_CELLS && ctx->mode != TRV_RUN_STATUS &&
      !ctx->quiet) { /* placements that defeat themselves: said, not refused */
    char **warn = trv_scenario_warnings(ctx->scenario, &ctx->params, ctx->faults);
    for (int i = 0; warn[i]; i++)
      fprintf(stderr, "trivium: warning: %s%s%s\n", label ? label : "", label ? ": " : "", warn[i]);
    g_strfreev(warn);
  }
  /* the layout every cell shares: a world of seed 0 declares it (a cell takes
   * its own seed's change-points when its session starts: run-cell.c) */
  void *world = trv_world_new(wc, &ctx->params, 0, error);
  TrvWorldInfo info;
  if (!world) return 2;
  TrvCellLayout layout = {.metric_names = wc->referee->metric_names};
  const char *inputs[TRV_RUN_MAX_INPUTS + 1] = {NULL};
  if (!trv_world_info(wc, world, &info, error) ||
      (layout.n_change_points =
           trv_world_change_points(wc, world, layout.change_points, TRV_MAX_CHANGE_POINTS, error)) < 0 ||
      trv_world_inputs(wc, world, inputs, TRV_RUN_MAX_INPUTS, error) < 0) {
    wc->free(world);
    return 2;
  }
  layout.cand = info.cand;
  layout.episodes = info.episodes;
  ctx->world_steps = info.steps;
  /* what the point reads beside the scenario and the fault traces, absolute */
  GArray *world_inputs = trv_run_world_inputs(&ctx->params, inputs);
  const char *platforms[] = {ctx->platform, ctx->scenario ? ctx->scenario->platform : NULL};
  char **profiles = trv_run_profiles(platforms, G_N_ELEMENTS(platforms), error);
  if (!profiles) {
    trv_run_world_inputs_free(world_inputs);
    wc->free(world);
    return 2;
  }
  char *identity = point_identity(ctx, world_inputs, (const char *const *)profiles);
  char **fingerprints = g_new0(char *, total + 1);
  TrvCellFile *files = g_new0(TrvCellFile, total);
  bool *to_run = g_new0(bool, total);
  int missing = 0, code = 0;
  GString *why = g_string_new(NULL);
  char *cells_dir = g_build_filename(ctx->out, "cells", NULL);
  if (ctx->mode != TRV_RUN_STATUS && !trv_out_dir(cells_dir, false, error)) code = 2;
  for (int c = 0; c < total && code == 0; c++) {
    int n_seeds = ctx->params.seeds;
    fingerprints[c] =
        trv_cell_fingerprint(identity, ctx->controllers[c / n_seeds], (uint64_t)(ctx->params.seed_base + c % n_seeds));
    GError *e = NULL;
    if (!ctx->fresh && cell_complete(ctx, &layout, c, fingerprints[c], &files[c], &e)) continue;
    if (ctx->mode == TRV_RUN_STATUS) { /* counted below: running or missing */
      to_run[c] = true;
    } else if (e && e->code == TRV_ERROR_CORRUPT && ctx->mode == TRV_RUN_MERGE) {
      code = refuse_damaged(g_steal_pointer(&e), error);
    } else if (cell_selected(ctx, c)) {
      to_run[c] = true;
      if (e && e->code == TRV_ERROR_CORRUPT) /* what an earlier run left damaged is not lost silently */
        fprintf(stderr, "trivium: warning: %s; the cell runs again\n", e->message);
    } else if (++missing <= 3) {
      g_string_append_printf(why, "\n  %s", e ? e->message : "missing");
    }
    g_clear_error(&e);
  }
  g_free(cells_dir);
  if (code == 0 && ctx->mode == TRV_RUN_STATUS) { /* say it, write nothing */
    long running = 0, not_done = 0;
    for (int c = 0; c < total; c++)
      if (to_run[c]) not_done++, running += cell_busy(ctx, c);
    if (!ctx->quiet)
      printf("%s%s%ld complete, %ld running, %ld missing of %d cells (%s)\n", label ? label : "", label ? ": " : "",
             total - not_done, running, not_done - running, total, ctx->out);
    if (totals) totals->complete += total - not_done, totals->running += running, totals->missing += not_done - running;
  }
  if (ctx->mode == TRV_RUN_STATUS) {
    g_strfreev(fingerprints);
    g_free(files);
    g_free(to_run);
    g_string_free(why, TRUE);
    g_free(identity);
    trv_run_world_inputs_free(world_inputs);
    g_strfreev(profiles);
    wc->free(world);
    return code;
  }
  int n_to_run = 0;
  for (int c = 0; c < total; c++) n_to_run += to_run[c];
  if (code == 0 && ctx->mode == TRV_RUN_ALL && n_to_run < total && !ctx->quiet)
    fprintf(stderr, "trivium: %s%s%d of %d cells complete already (%s/cells), %d to run\n", label ? label : "",
            label ? ": " : "", total - n_to_run, total, ctx->out, n_to_run);
  if (code == 0 && missing && ctx->mode == TRV_RUN_MERGE) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                "%s: %d of %d cells are not complete:%s%s\nrun the jobs again (complete "
                "cells are skipped), then merge",
                ctx->out, missing, total, why->str, missing > 3 ? "\n  ..." : "");
    code = 1;
  }
  g_string_free(why, TRUE);
  for (int c = 0; c < total && code == 0; c++) /* a cell another process is running is not run twice */
    if (to_run[c] && cell_busy(ctx, c)) {
      char *started = trv_run_cell_path(ctx, c, "started");
      if (ctx->mode == TRV_RUN_CELLS) { /* another job's: the merge will tell whether it finished */
        to_run[c] = false;
        fprintf(stderr, "trivium: %s: the cell is being run by another process; left to it\n", started);
      } else {
        g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                    "%s: the cell is being run by another process (an earlier run or "
                    "job still going?); wait for it or stop it, then run again",
                    started);
        code = 1;
      }
      g_free(started);
    }
  if (code == 0 && !trv_run_check_ctl_files(ctx, to_run, error)) code = 2;
  int seeds_n = ctx->params.seeds;
  int *seeds = g_new(int, seeds_n);
  for (int s = 0; s < seeds_n; s++) seeds[s] = ctx->params.seed_base + s;
  TrvCellSummary *cells = g_new0(TrvCellSummary, total);
  char *scenario_abs =
      ctx->scenario ? g_canonicalize_filename(ctx->scenario->file, NULL) : NULL; /* replayable from anywhere */
  TrvRunResult res = {.experiment = ctx->experiment,
                      .params = &ctx->params,
                      .world_class = wc,
                      .layout = &layout,
                      .steps = info.steps,
                      .controllers = (const char *const *)ctx->controllers,
                      .n_controllers = ctx->n_controllers,
                      .n_seeds = seeds_n,
                      .seeds = seeds,
                      .platform = ctx->platform,
                      .argv = argv,
                      .argc = argc,
                      .cells = NULL,
                      .scenario_file = scenario_abs,
                      .inputs = (const TrvRunInput *)(void *)world_inputs->data,
                      .n_inputs = world_inputs->len,
                      .profiles = (const char *const *)profiles,
                      .role_hosts = (const char *const *)ctx->role_hosts,
                      .faults = ctx->faults ? (const TrvFaultSpec *)(void *)ctx->faults->data : NULL,
                      .n_faults = ctx->faults ? ctx->faults->len : 0,
                      .simgrid_args = (const char *const *)ctx->simgrid_args->pdata,
                      .n_simgrid_args = ctx->simgrid_args->len,
                      .file_sha256 = ctx->sha_cache};
  /* the run directory keeps a copy of every file it read (the scenario,
   * the platforms and their profiles, the fault traces, the world's data
   * files): a replay from a copied directory finds them */
  if (code == 0 && ctx->mode != TRV_RUN_CELLS) {
    GPtrArray *read = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(read, g_strdup(scenario_abs));
    g_ptr_array_add(read, ctx->platform ? g_canonicalize_filename(ctx->platform, NULL) : NULL);
    g_ptr_array_add(read, ctx->scenario ? g_strdup(ctx->scenario->platform) : NULL);
    for (int i = 0; profiles[i]; i++) g_ptr_array_add(read, g_strdup(profiles[i]));
    for (guint i = 0; i < world_inputs->len; i++)
      g_ptr_array_add(read, g_strdup(g_array_index(world_inputs, TrvRunInput, i).path));
    for (guint i = 0; ctx->faults && i < ctx->faults->len; i++) {
      const TrvFaultSpec *f = &g_array_index(ctx->faults, TrvFaultSpec, i);
      if (f->trace) g_ptr_array_add(read, g_strdup(f->trace->file));
    }
    for (guint i = 0; ctx->scenario && i < ctx->scenario->faults->len; i++) {
      const TrvFaultSpec *f = &g_array_index(ctx->scenario->faults, TrvFaultSpec, i);
      if (f->trace) g_ptr_array_add(read, g_strdup(f->trace->file));
    }
    GPtrArray *list = g_ptr_array_new(); /* without the NULLs: the list ends at the first */
    for (guint i = 0; i < read->len; i++)
      if (read->pdata[i]) g_ptr_array_add(list, read->pdata[i]);
    g_ptr_array_add(list, NULL);
    res.input_copies = trv_run_inputs_copy(ctx->out, (const char *const *)list->pdata, TRV_RUN_INPUT_MAX_BYTES, error);
    if (!res.input_copies) code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
    g_ptr_array_free(list, TRUE);
    g_ptr_array_free(read, TRUE);
  }
  char *json = g_build_filename(ctx->out, "run.json", NULL);
  TrvReport *report = NULL; /* what the world's report declared of the point */
  void *report_state = NULL;
  if (code == 0 && ctx->mode == TRV_RUN_ALL &&
      !trv_write_run_json(&res, json, "running", error)) /* nothing measured yet */
    code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
  if (code == 0) code = run_cells(ctx, &layout, fingerprints, to_run, error);
  /* the cells just run are complete now, or the run stops */
  for (int c = 0; c < total && code == 0; c++)
    if (to_run[c] && !cell_complete(ctx, &layout, c, fingerprints[c], &files[c], error)) code = 1;
  if (code == 0 && ctx->mode != TRV_RUN_CELLS) {
    code = merge_cells(ctx, &layout, files, to_run, cells, totals, error);
    res.cells = cells;
    /* the world's own report: its text ends summary.md, its tables follow the run's files */
    if (code == 0 && !trv_world_report_point(&res, ctx->out, sweep, ctx->point_values, &report, &report_state, error))
      code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
    res.world_text = report ? trv_report_text_of(report) : NULL;
    if (code == 0 &&
        (!trv_write_summary(&res, ctx->out, table, error) || !trv_write_figures(&res, ctx->out, error) ||
         !trv_world_report_point_write(report, ctx->out, error) || !trv_write_run_json(&res, json, "complete", error)))
      code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1; /* a link where it writes: refused */
    /* lost work is never silent (but for -q: the uncommitted_episodes column says it) */
    for (int i = 0; code == 0 && !ctx->quiet && i < total; i++)
      if (cells[i].metric[TRV_METRIC_UNCOMMITTED_EPISODES] > 0)
        fprintf(stderr, "trivium: warning: %s%s%s, seed %d: in %.0f of %d episodes no agent's records were committed\n",
                label ? label : "", label ? ": " : "", ctx->controllers[i / seeds_n], seeds[i % seeds_n],
                cells[i].metric[TRV_METRIC_UNCOMMITTED_EPISODES], layout.episodes);
    if (code == 0 && sweep) trv_sweep_table_add(sweep, &res, ctx->point_values, g_steal_pointer(&report_state));
  }
  trv_world_report_state_free(wc, report_state);
  trv_report_free(report);
  g_free(json);
  if (res.input_copies) g_hash_table_unref(res.input_copies);
  trv_run_world_inputs_free(world_inputs);
  g_strfreev(profiles);
  g_free(scenario_abs);
  g_free(cells);
  g_free(seeds);
  g_strfreev(fingerprints);
  g_free(files);
  g_free(to_run);
  g_free(identity);
  wc->free(world);
  return code;
}
