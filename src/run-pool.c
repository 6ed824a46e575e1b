/* run-pool.c - one point of a run: a grid of cells (controller x seed), each
 * one SimGrid simulation in a process of its own (SimGrid initialises once
 * per process), up to --jobs at a time.  A cell writes its episodes.csv
 * lines to OUT/.cells/N.csv as its episodes close, and its reduction (the
 * per-seed metrics, core/results.h) to OUT/.cells/N.sum; the parent
 * concatenates the lines in (controller, seed) order and summarises the
 * reductions, so the outputs do not depend on --jobs or on which cell
 * finished first, and no process holds a run's rows in memory.
 * Also the sweep table that collects one line per point and controller. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"
#include "sim/child.h"

/* What a cell leaves in OUT/.cells/N.sum. */
typedef struct {
  TrvCellSummary sum;
  double controller_cpu; /* seconds in the controller's own calls */
} CellFile;

static char *cell_path(const RunCtx *ctx, int cell, const char *ext) {
  char name[64];
  snprintf(name, sizeof name, "%d.%s", cell, ext);
  return g_build_filename(ctx->out, ".cells", name, NULL);
}


/* The CTL file of a cell: --ctl DIR/<controller>-seed<N>.ctl; a scenario's
 * <ctl file="F.ctl"> (a relative path the loader confined) inside the
 * point's output directory: as is for a single cell, else
 * F-<controller>-seed<N>.ctl. */
static char *ctl_file_for(const RunCtx *ctx, const char *controller, uint64_t seed) {
  if (ctx->ctl) {
    char *name = g_strdup_printf("%s-seed%llu.ctl", controller, (unsigned long long)seed);
    char *path = g_build_filename(ctx->ctl, name, NULL);
    g_free(name);
    return path;
  }
  const char *f = ctx->scenario ? ctx->scenario->ctl_file : NULL;
  if (!f) return NULL;
  g_assert(!g_path_is_absolute(f)); /* the loader keeps outputs inside the run */
  char *rel;
  if (ctx->n_controllers * ctx->params.seeds == 1) {
    rel = g_strdup(f);
  } else {
    char *stem = g_str_has_suffix(f, ".ctl") ? g_strndup(f, strlen(f) - 4) : g_strdup(f);
    rel = g_strdup_printf("%s-%s-seed%llu.ctl", stem, controller, (unsigned long long)seed);
    g_free(stem);
  }
  char *path = g_build_filename(ctx->out, rel, NULL);
  g_free(rel);
  return path;
}

/* true when a component of path below base (base excluded) is a symbolic
 * link: an output the scenario names must not lead out of the run. */
static bool leaves_through_a_link(const char *base, const char *path) {
  size_t n = strlen(base);
  if (strncmp(path, base, n) || (path[n] != '/' && path[n] != 0)) return false; /* not below base */
  char *p = g_strdup(path);
  bool link = false;
  for (char *s = p + n + 1; !link && s && *s; s = strchr(s + 1, '/')) {
    char keep = *s;
    *s = 0;
    struct stat st;
    if (s > p + n + 1 && lstat(p, &st) == 0 && S_ISLNK(st.st_mode)) link = true;
    *s = keep;
  }
  struct stat st;
  if (!link && lstat(p, &st) == 0 && S_ISLNK(st.st_mode)) link = true;
  g_free(p);
  return link;
}

/* The child's row sink: the episodes.csv line and the reduction. */
typedef struct {
  const TrvCellLayout *layout;
  TrvCellSummarizer z;
  FILE *csv;
  GString *line;
  double controller_cpu;
} CellSink;

static void cell_row(void *ctx, const TrvEpisodeRow *row) {
  CellSink *k = ctx;
  g_string_truncate(k->line, 0);
  trv_results_csv_row(k->line, k->layout, row);
  fwrite(k->line->str, 1, k->line->len, k->csv); /* errors surface at fclose */
  trv_cell_summarizer_add(&k->z, k->layout, row);
  k->controller_cpu += row->controller_cpu;
}

static bool write_cell_error(const char *path, const char *what, GError **error) {
  g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: %s (%s)", path, what, g_strerror(errno));
  return false;
}

/* In the child: run one cell, write its lines and its reduction, return
 * the cell's exit code. */
typedef struct {
  RunCtx *ctx;
  const TrvCellLayout *layout;
  int cell;
} CellJob;

static int run_cell_child(void *data, int report_fd) {
  (void)report_fd; /* a cell reports through its files in OUT/.cells */
  CellJob *job = data;
  RunCtx *ctx = job->ctx;
  const TrvCellLayout *base = job->layout;
  int cell = job->cell;
  int n_seeds = ctx->params.seeds;
  TrvSimCellSpec spec = {.params = &ctx->params, .world_class = ctx->world_class,
                         .controller = ctx->controllers[cell / n_seeds],
                         .seed = (uint64_t)(ctx->params.seed_base + cell % n_seeds)};
  TrvCellLayout layout = *base;
  layout.controller = spec.controller;
  GError *err = NULL;
  int code = 0;
  char *csv_tmp = cell_path(ctx, cell, "csv.tmp"), *csv = cell_path(ctx, cell, "csv");
  CellSink sink = {.layout = &layout, .line = g_string_new(NULL)};
  trv_cell_summarizer_init(&sink.z, &layout);
  sink.csv = fopen(csv_tmp, "w");
  TrvSimOptions opt = ctx->sim;
  char *ctl_file = ctl_file_for(ctx, spec.controller, spec.seed);
  opt.ctl_path = ctl_file;
  /* with SimGrid tracing on, each cell writes a trace of its own */
  char *trace_suffix = ctx->n_controllers * ctx->params.seeds > 1
                           ? g_strdup_printf("-%s-seed%llu", spec.controller, (unsigned long long)spec.seed)
                           : NULL;
  opt.trace_suffix = trace_suffix;
  opt.sink = (TrvRowSink){cell_row, &sink};
  if (!sink.csv) {
    write_cell_error(csv_tmp, "cannot write", &err);
  } else if (trv_sim_run_cell(&spec, &opt, NULL, NULL, NULL, &err)) {
    CellFile cf = {.controller_cpu = sink.controller_cpu};
    trv_cell_summarizer_finish(&sink.z, &layout, &cf.sum);
    char *sum_tmp = cell_path(ctx, cell, "sum.tmp"), *sum = cell_path(ctx, cell, "sum");
    int fd = -1;
    if (fflush(sink.csv) != 0 || fsync(fileno(sink.csv)) != 0 || fclose(sink.csv) != 0)
      write_cell_error(csv, "cannot write", &err);
    else if (rename(csv_tmp, csv) != 0)
      write_cell_error(csv, "cannot rename into place", &err);
    else if ((fd = open(sum_tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 || !trv_write_all(fd, &cf, sizeof cf) ||
             fsync(fd) != 0 || close(fd) != 0 || rename(sum_tmp, sum) != 0)
      write_cell_error(sum, "cannot write", &err);
    sink.csv = NULL;
    g_free(sum_tmp);
    g_free(sum);
  }
  if (err) {
    char *ep = cell_path(ctx, cell, "err");
    if (!g_file_set_contents(ep, err->message, -1, NULL)) /* a full disk: say it here, once */
      fprintf(stderr, "trivium: cell %d (%s, seed %llu): %s\n", cell, spec.controller, (unsigned long long)spec.seed,
              err->message);
    code = err->code == TRV_ERROR_INPUT ? 2 : 1;
  }
  return code;
}

static void progress(const RunCtx *ctx, int done, int total, gint64 t0) {
  if (ctx->quiet || !isatty(STDERR_FILENO)) return;
  double el = (g_get_monotonic_time() - t0) / 1e6, rate = done / (el > 0 ? el : 1e-9);
  double eta = done ? (total - done) / rate : 0;
  fprintf(stderr, "\r  cells %d/%d  %.2f cells/s  ETA %.0f s   ", done, total, rate, eta);
  if (done == total) fprintf(stderr, "\n");
}

/* Logs are never overwritten: a cell's log file that exists already (an
 * earlier run's, or anything else) stops the run before it starts. */
static bool check_ctl_files(const RunCtx *ctx, GError **error) {
  int n_seeds = ctx->params.seeds;
  bool ok = true;
  for (int c = 0; ok && c < ctx->n_controllers * n_seeds; c++) {
    char *path = ctl_file_for(ctx, ctx->controllers[c / n_seeds], (uint64_t)(ctx->params.seed_base + c % n_seeds));
    if (!path) break;
    struct stat st;
    if (lstat(path, &st) == 0) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "%s exists: Trivium never overwrites or deletes a log; move it away or choose another --ctl directory",
                  path);
      ok = false;
    } else if (!ctx->ctl && leaves_through_a_link(ctx->out, path)) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "%s: the scenario's <ctl file> goes through a symbolic link below %s; a scenario's outputs stay in "
                  "the run's directory", path, ctx->out);
      ok = false;
    } else {
      char *dir = g_path_get_dirname(path);
      if (g_mkdir_with_parents(dir, 0755) != 0) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot create (%s)", dir, g_strerror(errno));
        ok = false;
      }
      g_free(dir);
    }
    g_free(path);
  }
  return ok;
}

/* Runs every cell; fills cells[] and writes OUT/episodes.csv.  Returns
 * the exit code. */
static int run_cells(RunCtx *ctx, const TrvCellLayout *layout, TrvCellSummary *cells, TrvRunTotals *totals,
                     GError **error) {
  int n_seeds = ctx->params.seeds, total = ctx->n_controllers * n_seeds;
  char *cells_dir = g_build_filename(ctx->out, ".cells", NULL);
  if (g_mkdir_with_parents(cells_dir, 0755) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot create (%s)", cells_dir, g_strerror(errno));
    g_free(cells_dir);
    return 2;
  }
  gint64 t0 = g_get_monotonic_time();
  int next = 0, running = 0, done = 0, code = 0;
  TrvChild **children = g_new0(TrvChild *, total);
  while (done < total) {
    while (code == 0 && running < ctx->jobs && next < total) {
      CellJob job = {ctx, layout, next};
      if (!(children[next] = trv_child_start(run_cell_child, &job, false, error))) {
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
    if (cc != 0 && code == 0) {
      char *ep = cell_path(ctx, cell, "err"), *msg = NULL;
      if (!g_file_get_contents(ep, &msg, NULL, NULL)) {
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
    progress(ctx, done, total, t0);
  }
  for (int i = 0; i < total; i++) trv_child_free(children[i]);
  g_free(children);
  /* episodes.csv: the header, then every cell's lines in (controller, seed)
   * order, written under a temporary name and renamed when whole */
  char *csv = g_build_filename(ctx->out, "episodes.csv", NULL), *csv_tmp = g_strconcat(csv, ".tmp", NULL);
  FILE *out = code == 0 ? fopen(csv_tmp, "w") : NULL;
  if (code == 0 && !out) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot write (%s)", csv_tmp, g_strerror(errno));
    code = 1;
  }
  if (out) {
    GString *h = g_string_new(NULL);
    trv_results_csv_header(h, layout);
    fwrite(h->str, 1, h->len, out);
    g_string_free(h, TRUE);
  }
  char buf[1 << 16];
  for (int c = 0; c < total; c++) {
    char *path = cell_path(ctx, c, "csv"), *sum = cell_path(ctx, c, "sum");
    if (code == 0) {
      FILE *in = fopen(path, "r");
      size_t n;
      while (in && (n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
      CellFile cf;
      gsize len = 0;
      char *data = NULL;
      if (!in || ferror(in) || !g_file_get_contents(sum, &data, &len, NULL) || len != sizeof cf) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "cell %d: its outputs in %s are missing or damaged", c, path);
        code = 1;
      } else {
        memcpy(&cf, data, sizeof cf);
        cells[c] = cf.sum;
        totals->controller_cpu += cf.controller_cpu;
        totals->probes += (gint64)cf.sum.metric[TRV_METRIC_PROBES];
        totals->agent_steps += (double)ctx->params.agents * layout->episodes * ctx->world_steps;
      }
      g_free(data);
      if (in) fclose(in);
    }
    unlink(path);
    unlink(sum);
    for (int k = 0; k < 2; k++) { /* what a failed cell left half written */
      char *tmp = cell_path(ctx, c, k ? "sum.tmp" : "csv.tmp");
      unlink(tmp);
      g_free(tmp);
    }
    g_free(path);
    g_free(sum);
  }
  if (out) {
    bool ok = fflush(out) == 0 && fsync(fileno(out)) == 0;
    ok = (fclose(out) == 0) && ok;
    if (code == 0 && (!ok || rename(csv_tmp, csv) != 0)) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot write (%s)", csv, g_strerror(errno));
      code = 1;
    }
    if (code != 0) unlink(csv_tmp);
  }
  g_free(csv);
  g_free(csv_tmp);
  rmdir(cells_dir);
  g_free(cells_dir);
  return code;
}

bool trv_check_out_dir(const char *out, GError **error) {
  if (g_mkdir_with_parents(out, 0755) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "output directory %s: cannot create (%s)", out, g_strerror(errno));
    return false;
  }
  char *probe = g_build_filename(out, ".write-test", NULL);
  int fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  bool ok = fd >= 0;
  if (ok) {
    close(fd);
    unlink(probe);
  } else {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "output directory %s: not writable (%s)", out, g_strerror(errno));
  }
  g_free(probe);
  return ok;
}

/* ---- sweep table -------------------------------------------------------- */

static const char *const sweep_metrics[] = {"exposure_total", "exposure_stationary", "committed_exposure_total",
                                            "r_out", "p_f", "e_id", "t_id", "e_task", "t_task", "sim_time", NULL};

void trv_sweep_table_init(TrvSweepTable *sw, const char *key) {
  memset(sw, 0, sizeof *sw);
  sw->csv = g_string_new(NULL);
  sw->md = g_string_new(NULL);
  g_string_append_printf(sw->csv, "%s,controller", key);
  g_string_append_printf(sw->md, "| %s | controller", key);
  int cols = 2;
  sw->speedup = strstr(key, "agents.count") != NULL; /* T(first M) / T(M) for t_id and t_task */
  for (int k = 0; sweep_metrics[k]; k++, cols++) {
    g_string_append_printf(sw->csv, ",%s,%s_sd", sweep_metrics[k], sweep_metrics[k]);
    g_string_append_printf(sw->md, " | %s", sweep_metrics[k]);
    if (sw->speedup && (!strcmp(sweep_metrics[k], "t_id") || !strcmp(sweep_metrics[k], "t_task"))) {
      g_string_append(sw->csv, sweep_metrics[k][2] == 'i' ? ",speedup" : ",task_speedup");
      g_string_append(sw->md, sweep_metrics[k][2] == 'i' ? " | speedup" : " | task speedup");
      cols++;
    }
  }
  g_string_append(sw->csv, "\n");
  g_string_append(sw->md, " |\n|");
  for (int k = 0; k < cols; k++) g_string_append(sw->md, "---|");
  g_string_append(sw->md, "\n");
}

void trv_sweep_table_free(TrvSweepTable *sw) {
  g_string_free(sw->csv, TRUE);
  g_string_free(sw->md, TRUE);
}

static void sweep_add(TrvSweepTable *sw, const TrvRunResult *res, const char *label) {
  for (int c = 0; c < res->n_controllers; c++) {
    g_string_append_printf(sw->csv, "\"%s\",%s", label, res->controllers[c]);
    g_string_append_printf(sw->md, "| %s | %s", label, res->controllers[c]);
    for (int k = 0; sweep_metrics[k]; k++) {
      TrvSummary s = trv_run_metric(res, c, sweep_metrics[k]);
      g_string_append_printf(sw->csv, ",%.9g,%.9g", s.mean, s.sd);
      if (!strcmp(sweep_metrics[k], "p_f")) g_string_append_printf(sw->md, " | %.4f ± %.4f", s.mean, s.sd);
      else g_string_append_printf(sw->md, " | %.2f ± %.2f", s.mean, s.sd);
      bool task = !strcmp(sweep_metrics[k], "t_task");
      if (sw->speedup && (task || !strcmp(sweep_metrics[k], "t_id")) && c < 64) {
        double *first = task ? sw->t_task_first : sw->t_id_first;
        if (sw->point == 0) first[c] = s.mean;
        double sp = first[c] / s.mean;
        g_string_append_printf(sw->csv, ",%.9g", sp);
        g_string_append_printf(sw->md, " | %.2f", sp);
      }
    }
    g_string_append(sw->csv, "\n");
    g_string_append(sw->md, " |\n");
  }
  sw->point++;
}

/* ---- one point ---------------------------------------------------------- */

int trv_run_point(RunCtx *ctx, int argc, char **argv, FILE *table, TrvRunTotals *totals, TrvSweepTable *sweep,
                  const char *label, GError **error) {
  const TrvWorldClass *wc = ctx->world_class;
  if (!check_ctl_files(ctx, error)) return 2;
  if (ctx->own_placement) { /* placements that defeat themselves: said, not refused */
    char **warn = trv_scenario_warnings(ctx->scenario, &ctx->params, ctx->faults);
    for (int i = 0; warn[i]; i++)
      fprintf(stderr, "trivium: warning: %s%s%s\n", label ? label : "", label ? ": " : "", warn[i]);
    g_strfreev(warn);
  }
  /* the layout every cell shares: a world of seed 0 declares it */
  void *world = wc->init(&ctx->params, 0, error);
  TrvWorldInfo info;
  if (!world) return 2;
  if (!trv_world_info(wc, world, &info, error)) {
    wc->free(world);
    return 2;
  }
  TrvCellLayout layout = {.cand = info.cand, .metric_names = wc->referee->metric_names, .episodes = info.episodes};
  layout.n_change_points =
      wc->referee->change_points ? wc->referee->change_points(world, layout.change_points, TRV_MAX_CHANGE_POINTS) : 0;
  ctx->world_steps = info.steps;
  int *seeds = g_new(int, ctx->params.seeds);
  for (int s = 0; s < ctx->params.seeds; s++) seeds[s] = ctx->params.seed_base + s;
  int total = ctx->n_controllers * ctx->params.seeds;
  TrvCellSummary *cells = g_new0(TrvCellSummary, total);
  char *scenario_abs = ctx->scenario ? g_canonicalize_filename(ctx->scenario->file, NULL) : NULL; /* replayable from anywhere */
  TrvRunResult res = {.experiment = ctx->experiment, .params = &ctx->params, .world_class = wc, .layout = &layout,
                      .steps = info.steps, .controllers = (const char *const *)ctx->controllers,
                      .n_controllers = ctx->n_controllers, .n_seeds = ctx->params.seeds, .seeds = seeds,
                      .platform = ctx->platform, .argv = argv, .argc = argc, .cells = cells,
                      .scenario_file = scenario_abs,
                      .role_hosts = (const char *const *)ctx->role_hosts,
                      .faults = ctx->faults ? (const TrvFaultSpec *)(void *)ctx->faults->data : NULL,
                      .n_faults = ctx->faults ? ctx->faults->len : 0,
                      .simgrid_args = (const char *const *)ctx->simgrid_args->pdata,
                      .n_simgrid_args = ctx->simgrid_args->len};
  const char *inputs[9] = {NULL};
  if (wc->inputs) wc->inputs(world, inputs, 8);
  res.inputs = inputs;
  char *json = g_build_filename(ctx->out, "run.json", NULL);
  res.cells = NULL; /* nothing measured yet */
  int code = trv_write_run_json(&res, json, "running", error) ? 0 : 1;
  res.cells = cells;
  if (code == 0) code = run_cells(ctx, &layout, cells, totals, error);
  if (code == 0) {
    if (!trv_write_summary(&res, ctx->out, table, error) || !trv_write_run_json(&res, json, "complete", error)) code = 1;
    for (int i = 0; i < total; i++) /* lost work is never silent */
      if (cells[i].metric[TRV_METRIC_UNCOMMITTED_EPISODES] > 0)
        fprintf(stderr, "trivium: warning: %s, seed %d: in %.0f of %d episodes no agent's records were committed\n",
                ctx->controllers[i / ctx->params.seeds], seeds[i % ctx->params.seeds],
                cells[i].metric[TRV_METRIC_UNCOMMITTED_EPISODES], layout.episodes);
    if (code == 0 && sweep) sweep_add(sweep, &res, label);
  }
  g_free(json);
  g_free(scenario_abs);
  g_free(cells);
  g_free(seeds);
  wc->free(world);
  return code;
}
