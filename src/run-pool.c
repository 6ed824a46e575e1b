/* run-pool.c - one point of a run: a grid of cells (controller x seed), each
 * one SimGrid simulation in a process of its own (SimGrid initialises once
 * per process), up to --jobs at a time.  A cell writes its rows to
 * OUT/.cells/N.bin; the parent merges them in (controller, seed) order, so
 * the outputs do not depend on --jobs or on which cell finished first.
 * Also the sweep table that collects one line per point and controller. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

static char *cell_path(const RunCtx *ctx, int cell, const char *ext) {
  char name[64];
  snprintf(name, sizeof name, "%d.%s", cell, ext);
  return g_build_filename(ctx->out, ".cells", name, NULL);
}

static bool write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    len -= (size_t)w;
  }
  return true;
}

/* The CTL file of a cell: --ctl DIR/<controller>-seed<N>.ctl; a scenario's
 * <ctl file="F.ctl"> as is for a single cell, else F-<controller>-seed<N>.ctl. */
static char *ctl_file_for(const RunCtx *ctx, const char *controller, uint64_t seed) {
  if (ctx->ctl) {
    char *name = g_strdup_printf("%s-seed%llu.ctl", controller, (unsigned long long)seed);
    char *path = g_build_filename(ctx->ctl, name, NULL);
    g_free(name);
    return path;
  }
  const char *f = ctx->scenario ? ctx->scenario->ctl_file : NULL;
  if (!f) return NULL;
  if (ctx->n_controllers * ctx->params.seeds == 1) return g_strdup(f);
  char *stem = g_str_has_suffix(f, ".ctl") ? g_strndup(f, strlen(f) - 4) : g_strdup(f);
  char *path = g_strdup_printf("%s-%s-seed%llu.ctl", stem, controller, (unsigned long long)seed);
  g_free(stem);
  return path;
}

/* In the child: run one cell, write its rows, exit with the cell's code. */
static G_NORETURN void run_cell_child(RunCtx *ctx, int cell) {
  int n_seeds = ctx->params.seeds;
  TrvCellSpec spec = {.params = &ctx->params, .world_class = ctx->world_class,
                      .controller = ctx->controllers[cell / n_seeds],
                      .seed = (uint64_t)(ctx->params.seed_base + cell % n_seeds)};
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow));
  GError *err = NULL;
  int code = 0;
  TrvSimOptions opt = ctx->sim;
  char *ctl_file = ctl_file_for(ctx, spec.controller, spec.seed);
  if (ctl_file) unlink(ctl_file);
  opt.ctl_path = ctl_file;
  if (!trv_sim_run_cell(&spec, &opt, rows, NULL, NULL, &err)) {
    char *ep = cell_path(ctx, cell, "err");
    g_file_set_contents(ep, err->message, -1, NULL);
    code = err->code == TRV_ERROR_INPUT ? 2 : 1;
  } else {
    char *tmp = cell_path(ctx, cell, "tmp"), *path = cell_path(ctx, cell, "bin");
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || !write_all(fd, rows->data, rows->len * sizeof(TrvEpisodeRow)) || close(fd) != 0 ||
        rename(tmp, path) != 0)
      code = 1;
  }
  fflush(NULL);
  _exit(code);
}

static void progress(const RunCtx *ctx, int done, int total, gint64 t0) {
  if (ctx->quiet || !isatty(STDERR_FILENO)) return;
  double el = (g_get_monotonic_time() - t0) / 1e6, rate = done / (el > 0 ? el : 1e-9);
  double eta = done ? (total - done) / rate : 0;
  fprintf(stderr, "\r  cells %d/%d  %.2f cells/s  ETA %.0f s   ", done, total, rate, eta);
  if (done == total) fprintf(stderr, "\n");
}

/* Runs every cell; fills result->rows.  Returns the exit code. */
static int run_cells(RunCtx *ctx, TrvRunResult *res, GError **error) {
  int n_seeds = ctx->params.seeds, total = ctx->n_controllers * n_seeds;
  char *cells_dir = g_build_filename(ctx->out, ".cells", NULL);
  if (g_mkdir_with_parents(cells_dir, 0755) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot create (%s)", cells_dir, g_strerror(errno));
    g_free(cells_dir);
    return 2;
  }
  fflush(NULL);
  gint64 t0 = g_get_monotonic_time();
  int next = 0, running = 0, done = 0, code = 0;
  pid_t *pids = g_new0(pid_t, total);
  while (done < total) {
    while (code == 0 && running < ctx->jobs && next < total) {
      pid_t pid = fork();
      if (pid < 0) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "fork failed: %s", g_strerror(errno));
        code = 1;
        break;
      }
      if (pid == 0) run_cell_child(ctx, next);
      pids[next++] = pid;
      running++;
    }
    if (running == 0) break;
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) continue;
    running--;
    done++;
    int cell = -1;
    for (int i = 0; i < next; i++)
      if (pids[i] == pid) cell = i;
    int cc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (cc != 0 && code == 0) {
      char *ep = cell_path(ctx, cell, "err"), *msg = NULL;
      if (!g_file_get_contents(ep, &msg, NULL, NULL))
        msg = g_strdup_printf("cell %d (%s, seed %d) died (%s %d)", cell, ctx->controllers[cell / n_seeds],
                              ctx->params.seed_base + cell % n_seeds, WIFSIGNALED(status) ? "signal" : "status",
                              WIFSIGNALED(status) ? WTERMSIG(status) : cc);
      unlink(ep);
      g_set_error(error, TRV_ERROR, cc == 2 ? TRV_ERROR_INPUT : TRV_ERROR_IO, "%s", msg);
      g_free(msg);
      g_free(ep);
      code = cc == 2 ? 2 : 1;
    }
    progress(ctx, done, total, t0);
  }
  g_free(pids);
  for (int c = 0; c < total; c++) {
    char *path = cell_path(ctx, c, "bin"), *data;
    gsize len;
    if (code == 0) {
      if (!g_file_get_contents(path, &data, &len, error) || len % sizeof(TrvEpisodeRow)) {
        code = 1;
      } else {
        res->rows[c] = g_array_sized_new(FALSE, FALSE, sizeof(TrvEpisodeRow), len / sizeof(TrvEpisodeRow));
        g_array_append_vals(res->rows[c], data, len / sizeof(TrvEpisodeRow));
        g_free(data);
      }
    }
    unlink(path);
    g_free(path);
  }
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
                                            "r_out", "p_f", "e_id", "t_id", "sim_time", NULL};

void trv_sweep_table_init(TrvSweepTable *sw, const char *key) {
  memset(sw, 0, sizeof *sw);
  sw->csv = g_string_new(NULL);
  sw->md = g_string_new(NULL);
  g_string_append_printf(sw->csv, "%s,controller", key);
  g_string_append_printf(sw->md, "| %s | controller", key);
  int cols = 2;
  sw->speedup = strstr(key, "agents.count") != NULL; /* T_id(first M) / T_id(M) */
  for (int k = 0; sweep_metrics[k]; k++, cols++) {
    g_string_append_printf(sw->csv, ",%s,%s_sd", sweep_metrics[k], sweep_metrics[k]);
    g_string_append_printf(sw->md, " | %s", sweep_metrics[k]);
    if (sw->speedup && !strcmp(sweep_metrics[k], "t_id")) {
      g_string_append(sw->csv, ",speedup");
      g_string_append(sw->md, " | speedup");
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
      if (sw->speedup && !strcmp(sweep_metrics[k], "t_id") && c < 64) {
        if (sw->point == 0) sw->t_id_first[c] = s.mean;
        double sp = sw->t_id_first[c] / s.mean;
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
  void *world = wc->init(&ctx->params, 0, error);
  if (!world) return 2;
  TrvRunResult res = {.experiment = ctx->experiment, .params = &ctx->params, .world_class = wc,
                      .cand = wc->candidates(world), .episodes = wc->episodes(world),
                      .steps = wc->steps(world), .controllers = (const char *const *)ctx->controllers,
                      .n_controllers = ctx->n_controllers, .n_seeds = ctx->params.seeds, .platform = ctx->platform,
                      .argv = argv, .argc = argc};
  res.n_change_points = wc->change_points(world, res.change_points, G_N_ELEMENTS(res.change_points));
  wc->free(world);
  int *seeds = g_new(int, res.n_seeds);
  for (int s = 0; s < res.n_seeds; s++) seeds[s] = ctx->params.seed_base + s;
  res.seeds = seeds;
  res.rows = g_new0(GArray *, ctx->n_controllers * res.n_seeds);
  int code = run_cells(ctx, &res, error);
  if (code == 0) {
    char *csv = g_build_filename(ctx->out, "episodes.csv", NULL), *json = g_build_filename(ctx->out, "run.json", NULL);
    if (!trv_write_episodes_csv(&res, csv, error) || !trv_write_run_json(&res, json, error) ||
        !trv_write_summary(&res, ctx->out, table, error))
      code = 1;
    if (code == 0 && sweep) sweep_add(sweep, &res, label);
    g_free(csv);
    g_free(json);
  }
  for (int i = 0; i < ctx->n_controllers * res.n_seeds; i++) {
    if (!res.rows[i]) continue;
    for (guint k = 0; k < res.rows[i]->len; k++) {
      const TrvEpisodeRow *w = &g_array_index(res.rows[i], TrvEpisodeRow, k);
      totals->probes += w->probes;
      totals->controller_wall += w->controller_wall;
      totals->agent_steps += (double)ctx->params.agents * res.steps;
    }
    g_array_free(res.rows[i], TRUE);
  }
  g_free(res.rows);
  g_free(seeds);
  return code;
}
