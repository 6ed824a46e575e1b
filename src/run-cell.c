/* run-cell.c - one cell of a point (controller x seed): its files in
 * OUT/cells (<controller>-seed<N>.EXT: csv, sum, started, err and their
 * .tmp), its CTL file and the check that it may be written, and the child
 * process that runs it: it locks the cell's .started file, runs the
 * simulation with a row sink that writes each episodes.csv line as its
 * episode closes (with the running SHA-256 and the cell's reduction), then
 * moves the lines into place and writes the cell file (cell-file.h) that
 * makes the cell complete.  The pool that starts these children and merges
 * their files is run-pool.c. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cell-file.h"
#include "run.h"
#include "sim/child.h"

/* OUT/cells/<controller>-seed<N>.EXT: a cell's own files (EXT csv, sum,
 * started, err, csv.tmp, sum.tmp). */
char *trv_run_cell_path(const RunCtx *ctx, int cell, const char *ext) {
  int n_seeds = ctx->params.seeds;
  char *name =
      g_strdup_printf("%s-seed%d.%s", ctx->controllers[cell / n_seeds], ctx->params.seed_base + cell % n_seeds, ext);
  char *path = g_build_filename(ctx->out, "cells", name, NULL);
  g_free(name);
  return path;
}

/* The CTL file of a cell: --ctl DIR/<controller>-seed<N>.ctl (in a sweep
 * DIR/<point>/<controller>-seed<N>.ctl); a scenario's
 * <ctl file="F.ctl"> (a relative path the loader confined) inside the
 * point's output directory: as is for a single cell, else
 * F-<controller>-seed<N>.ctl. */
static char *ctl_file_for(const RunCtx *ctx, const char *controller, uint64_t seed) {
  if (ctx->ctl) { /* a point of a sweep: DIR/<point>/... */
    char *name = g_strdup_printf("%s-seed%llu.ctl", controller, (unsigned long long)seed);
    char *path = g_build_filename(ctx->ctl, ctx->point_dir ? ctx->point_dir : name, ctx->point_dir ? name : NULL, NULL);
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

/* The child's row sink: the episodes.csv line, its checksum and the
 * reduction. */
typedef struct {
  const TrvCellLayout *layout;
  TrvCellSummarizer z;
  FILE *csv;
  GString *line;
  GChecksum *sha;
  uint64_t bytes;
  double controller_cpu;
} CellSink;

static void cell_row(void *ctx, const TrvEpisodeRow *row) {
  CellSink *k = ctx;
  if (row->episode == 0) /* the layout holds the cell's own change-points by now (TrvSimOptions.layout) */
    trv_cell_summarizer_init(&k->z, k->layout);
  g_string_truncate(k->line, 0);
  trv_results_csv_row(k->line, k->layout, row);
  fwrite(k->line->str, 1, k->line->len, k->csv); /* errors surface at fclose */
  g_checksum_update(k->sha, (const guchar *)k->line->str, (gssize)k->line->len);
  k->bytes += k->line->len;
  trv_cell_summarizer_add(&k->z, k->layout, row);
  k->controller_cpu += row->controller_cpu;
}

static bool write_cell_error(const char *path, const char *what, GError **error) {
  g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: %s (%s)", path, what, g_strerror(errno));
  return false;
}

int trv_run_cell_child(void *data, int report_fd) {
  (void)report_fd; /* a cell reports through its files in OUT/cells */
  CellJob *job = data;
  RunCtx *ctx = job->ctx;
  const TrvCellLayout *base = job->layout;
  int cell = job->cell;
  int n_seeds = ctx->params.seeds;
  /* the cell is ours while this process lives: a lock on its .started file
   * (released by the kernel however the process ends) */
  char *started = trv_run_cell_path(ctx, cell, "started");
  GError *err = NULL;
  int lock = trv_out_open(started, O_RDWR | O_CREAT, &err);
  if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0) {
    char *msg =
        lock < 0 ? g_strdup(err->message) : g_strdup_printf("%s: the cell is being run by another process", started);
    int code = lock < 0 && err->code == TRV_ERROR_INPUT ? 2 : 1;
    g_clear_error(&err);
    char *ep = trv_run_cell_path(ctx, cell, "err");
    trv_write_file_atomic(ep, msg, -1, NULL);
    g_free(ep);
    g_free(msg);
    g_free(started);
    return code;
  }
  TrvSimCellSpec spec = {.params = &ctx->params,
                         .world_class = ctx->world_class,
                         .controller = ctx->controllers[cell / n_seeds],
                         .seed = (uint64_t)(ctx->params.seed_base + cell % n_seeds)};
  TrvCellLayout layout = *base;
  layout.controller = spec.controller;
  int code = 0;
  char *csv_tmp = trv_run_cell_path(ctx, cell, "csv.tmp"), *csv = trv_run_cell_path(ctx, cell, "csv");
  /* the summarizer starts at the cell's first row (cell_row), once the
   * layout holds the cell's own change-points */
  CellSink sink = {.layout = &layout, .line = g_string_new(NULL), .sha = g_checksum_new(G_CHECKSUM_SHA256)};
  int csv_fd = trv_out_create(csv_tmp, &err);
  sink.csv = csv_fd >= 0 ? fdopen(csv_fd, "w") : NULL;
  if (csv_fd >= 0 && !sink.csv) close(csv_fd);
  TrvSimOptions opt = ctx->sim;
  char *ctl_file = ctl_file_for(ctx, spec.controller, spec.seed);
  opt.ctl_path = ctl_file;
  /* with SimGrid tracing on, each cell writes a trace of its own inside the
   * point's directory: OUT/traces/<controller>-seed<N>.trace, never through
   * a link (SimGrid opens it) */
  char *trace_dir = ctx->tracing ? g_build_filename(ctx->out, "traces", NULL) : NULL;
  char *trace_name = g_strdup_printf("%s-seed%llu.trace", spec.controller, (unsigned long long)spec.seed);
  char *trace_file = trace_dir ? g_build_filename(trace_dir, trace_name, NULL) : NULL;
  opt.trace_file = trace_file ? trace_file : "/dev/null";
  opt.trace_suffix = NULL;
  opt.sink = (TrvRowSink){cell_row, &sink};
  opt.layout = &layout;
  if (!sink.csv) {
    if (!err) write_cell_error(csv_tmp, "cannot write", &err);
  } else if (trace_file && (!trv_out_dir(trace_dir, false, &err) || !trv_out_writable(trace_file, &err))) {
  } else if (trv_sim_run_cell(&spec, &opt, NULL, NULL, NULL, &err)) {
    TrvCellFile cf;
    memset(&cf, 0, sizeof cf);
    g_strlcpy(cf.fingerprint, job->fingerprint, sizeof cf.fingerprint);
    g_strlcpy(cf.csv_sha256, g_checksum_get_string(sink.sha), sizeof cf.csv_sha256);
    cf.csv_bytes = sink.bytes;
    cf.controller_cpu = sink.controller_cpu;
    trv_cell_summarizer_finish(&sink.z, &layout, &cf.sum);
    trv_cell_file_seal(&cf);
    char *sum_tmp = trv_run_cell_path(ctx, cell, "sum.tmp"), *sum = trv_run_cell_path(ctx, cell, "sum");
    int fd = -1;
    if (fflush(sink.csv) != 0 || fsync(fileno(sink.csv)) != 0 || fclose(sink.csv) != 0)
      write_cell_error(csv, "cannot write", &err);
    else if (!trv_out_commit(csv_tmp, csv, &err) || (fd = trv_out_create(sum_tmp, &err)) < 0) {
    } else if (!trv_write_all(fd, &cf, sizeof cf) || fsync(fd) != 0 || close(fd) != 0)
      write_cell_error(sum, "cannot write", &err);
    else
      trv_out_commit(sum_tmp, sum, &err);
    sink.csv = NULL;
    g_free(sum_tmp);
    g_free(sum);
  }
  if (err) {
    char *ep = trv_run_cell_path(ctx, cell, "err");
    if (!trv_write_file_atomic(ep, err->message, -1, NULL)) /* a full disk or a link: say it here, once */
      fprintf(stderr, "trivium: cell %d (%s, seed %llu): %s\n", cell, spec.controller, (unsigned long long)spec.seed,
              err->message);
    code = err->code == TRV_ERROR_INPUT ? 2 : 1;
  } else {
    unlink(started); /* complete: its log is a finished one */
  }
  g_free(started);
  g_free(trace_dir);
  g_free(trace_name);
  g_free(trace_file);
  return code; /* the lock goes with the process */
}

/* Logs are never overwritten or deleted.  A cell's log file that exists
 * already stops the run before it starts, unless this run's directory says
 * the cell was started here and never finished (its .started file: an
 * interrupted run being resumed): that log is moved aside to
 * F.interrupted (F.interrupted-2, ...) and the cell runs again from its
 * first episode. */
bool trv_run_check_ctl_files(const RunCtx *ctx, const bool *to_run, GError **error) {
  int n_seeds = ctx->params.seeds;
  bool ok = true;
  for (int c = 0; ok && c < ctx->n_controllers * n_seeds; c++) {
    if (!to_run[c]) continue;
    char *path = ctl_file_for(ctx, ctx->controllers[c / n_seeds], (uint64_t)(ctx->params.seed_base + c % n_seeds));
    if (!path) break;
    char *started = trv_run_cell_path(ctx, c, "started");
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && lstat(started, &st) == 0 && S_ISREG(st.st_mode)) {
      char *aside = g_strconcat(path, ".interrupted", NULL);
      for (int i = 2; lstat(aside, &st) == 0; i++) {
        g_free(aside);
        aside = g_strdup_printf("%s.interrupted-%d", path, i);
      }
      if (rename(path, aside) != 0) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot move the interrupted cell's log aside (%s)", path,
                    g_strerror(errno));
        ok = false;
      } else if (!ctx->quiet) {
        fprintf(stderr, "trivium: %s: an interrupted cell's log, moved to %s; the cell runs again\n", path, aside);
      }
      g_free(aside);
    }
    if (!ok) {
    } else if (lstat(path, &st) == 0) {
      g_set_error(
          error, TRV_ERROR, TRV_ERROR_INPUT,
          "%s exists: Trivium never overwrites or deletes a log; move it away or choose another --ctl directory", path);
      ok = false;
    } else if (leaves_through_a_link(ctx->ctl ? ctx->ctl : ctx->out, path)) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s goes through a symbolic link below %s; %s", path,
                  ctx->ctl ? "the log" : "the scenario's <ctl file>", ctx->ctl ? ctx->ctl : ctx->out,
                  ctx->ctl ? "logs stay in the --ctl directory" : "a scenario's outputs stay in the run's directory");
      ok = false;
    } else {
      char *dir = g_path_get_dirname(path);
      if (g_mkdir_with_parents(dir, 0755) != 0) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot create (%s)", dir, g_strerror(errno));
        ok = false;
      }
      g_free(dir);
    }
    g_free(started);
    g_free(path);
  }
  return ok;
}
