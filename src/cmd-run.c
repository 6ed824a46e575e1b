/* cmd-run.c - `trivium run` and `trivium bench`.
 *
 * A run is a grid of cells (controller x seed).  Each cell is one SimGrid
 * simulation in a process of its own (SimGrid initialises once per
 * process); up to --jobs cells run at a time.  A cell writes its rows to
 * OUT/.cells/N.bin; the parent merges them in (controller, seed) order, so
 * the outputs do not depend on --jobs or on which cell finished first.
 * Exit codes: 0 ok, 1 a cell failed to run, 2 bad input. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "report.h"
#include "sim.h"

extern const TrvWorldClass trv_world_causalbench;

typedef struct {
  TrvParams params;
  const char *experiment;
  char **controllers;
  int n_controllers;
  char *out;
  int jobs;
  bool quiet;
  TrvSimOptions sim;
  GPtrArray *simgrid_args;
  char *platform;
} RunCtx;

static const char *const experiments[] = {"headline", "separation", "flips", "variance", "nonlinear", NULL};

/* Experiment presets, applied before --set so that --set can override. */
static bool apply_experiment(RunCtx *ctx, GError **error) {
  const char *e = ctx->experiment;
  TrvParams *p = &ctx->params;
  if (!strcmp(e, "headline")) p->variant = TRV_VARIANT_HEADLINE;
  else if (!strcmp(e, "flips")) p->variant = TRV_VARIANT_FLIPS;
  else if (!strcmp(e, "variance")) p->variant = TRV_VARIANT_VARIANCE;
  else if (!strcmp(e, "nonlinear")) p->variant = TRV_VARIANT_NONLINEAR;
  else if (!strcmp(e, "separation")) {
    p->variant = TRV_VARIANT_SEPARATION;
    p->steps = 500;
    p->matched = 0; /* the interventional updater probes at every step */
  } else {
    char *all = g_strjoinv(", ", (char **)experiments);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unknown experiment '%s'; known: %s", e, all);
    g_free(all);
    return false;
  }
  return true;
}

static char *find_platform(const char *name) {
  const char *env = g_getenv("TRIVIUM_DATADIR");
  const char *dirs[] = {env, TRV_SRCDIR, TRV_DATADIR};
  for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++) {
    if (!dirs[i]) continue;
    char *p = g_build_filename(dirs[i], "platforms", name, NULL);
    if (g_file_test(p, G_FILE_TEST_IS_REGULAR)) return p;
    g_free(p);
  }
  return g_build_filename(TRV_DATADIR, "platforms", name, NULL);
}

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

/* In the child: run one cell, write its rows, exit with the cell's code. */
static G_NORETURN void run_cell_child(RunCtx *ctx, int cell) {
  int n_seeds = ctx->params.seeds;
  TrvCellSpec spec = {&ctx->params, &trv_world_causalbench, ctx->controllers[cell / n_seeds],
                      (uint64_t)(ctx->params.seed_base + cell % n_seeds)};
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow));
  GError *err = NULL;
  int code = 0;
  if (!trv_sim_run_cell(&spec, &ctx->sim, rows, NULL, &err)) {
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
      g_set_error(error, TRV_ERROR, cc == 2 ? TRV_ERROR_INPUT : TRV_ERROR_IO, "%s", msg);
      g_free(msg);
      g_free(ep);
      code = cc == 2 ? 2 : 1;
    }
    progress(ctx, done, total, t0);
  }
  g_free(pids);
  for (int c = 0; code == 0 && c < total; c++) {
    char *path = cell_path(ctx, c, "bin"), *data;
    gsize len;
    if (!g_file_get_contents(path, &data, &len, error) || len % sizeof(TrvEpisodeRow)) {
      code = 1;
    } else {
      res->rows[c] = g_array_sized_new(FALSE, FALSE, sizeof(TrvEpisodeRow), len / sizeof(TrvEpisodeRow));
      g_array_append_vals(res->rows[c], data, len / sizeof(TrvEpisodeRow));
      g_free(data);
      unlink(path);
    }
    g_free(path);
  }
  rmdir(cells_dir);
  g_free(cells_dir);
  return code;
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

static bool check_out_dir(const char *out, GError **error) {
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

/* Parses argv into ctx.  SimGrid's --cfg= and --log= are set aside and
 * passed through to every cell unchanged. */
static bool parse_args(RunCtx *ctx, int argc, char **argv, bool bench, GError **error) {
  char **sets = NULL, *controllers = NULL, *out = NULL, *experiment = NULL, *platform = NULL;
  int jobs = 0;
  gboolean quiet = FALSE;
  GOptionEntry entries[] = {
      {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "output directory (default results/<timestamp>)", "DIR"},
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "cells run in parallel (default: number of cores)", "N"},
      {"controllers", 'c', 0, G_OPTION_ARG_STRING, &controllers, "comma-separated controllers (default: all)", "LIST"},
      {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "set a parameter (see `trivium params`)", "KEY=VALUE"},
      {"experiment", 'e', 0, G_OPTION_ARG_STRING, &experiment,
       "headline (default), separation, flips, variance, nonlinear", "NAME"},
      {"platform", 0, 0, G_OPTION_ARG_FILENAME, &platform, "SimGrid platform (hosts with trivium.role)", "FILE"},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no progress and no table", NULL},
      {NULL}};
  ctx->simgrid_args = g_ptr_array_new_with_free_func(g_free);
  GPtrArray *rest = g_ptr_array_new();
  for (int i = 0; i < argc; i++) {
    if (i > 0 && (g_str_has_prefix(argv[i], "--cfg=") || g_str_has_prefix(argv[i], "--log=")))
      g_ptr_array_add(ctx->simgrid_args, g_strdup(argv[i]));
    else g_ptr_array_add(rest, argv[i]);
  }
  int rc = (int)rest->len;
  char **rv = (char **)rest->pdata;
  GOptionContext *oc = g_option_context_new(bench ? "- time the headline run" : "- run an experiment under SimGrid");
  g_option_context_add_main_entries(oc, entries, NULL);
  g_option_context_set_description(oc, "SimGrid options --cfg=... and --log=... are passed through to the simulator.");
  bool ok = g_option_context_parse(oc, &rc, &rv, error);
  g_option_context_free(oc);
  if (ok && rc > 1) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unexpected argument '%s'", rv[1]);
    ok = false;
  }
  g_ptr_array_free(rest, TRUE);
  if (error && *error && (*error)->domain != TRV_ERROR) {
    GError *e = *error;
    *error = g_error_new(TRV_ERROR, TRV_ERROR_INPUT, "%s", e->message);
    g_error_free(e);
  }
  trv_params_defaults(&ctx->params);
  ctx->experiment = experiment ? experiment : "headline";
  if (ok) ok = apply_experiment(ctx, error);
  for (int i = 0; ok && sets && sets[i]; i++) ok = trv_params_set_assignment(&ctx->params, sets[i], error);
  g_strfreev(sets);
  if (ok && jobs < 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--jobs %d: expected a positive number", jobs);
    ok = false;
  }
  ctx->jobs = jobs > 0 ? jobs : (int)g_get_num_processors();
  ctx->quiet = quiet || bench;
  if (!controllers)
    controllers = !strcmp(ctx->experiment, "separation") ? g_strdup("rlvr,epistemic-reset")
                                                          : g_strjoinv(",", (char **)trv_controller_names);
  ctx->controllers = g_strsplit(controllers, ",", -1);
  g_free(controllers);
  ctx->n_controllers = (int)g_strv_length(ctx->controllers);
  for (int c = 0; ok && c < ctx->n_controllers; c++)
    if (!g_strv_contains(trv_controller_names, ctx->controllers[c])) {
      char *all = g_strjoinv(", ", (char **)trv_controller_names);
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unknown controller '%s'; known controllers: %s",
                  ctx->controllers[c], all);
      g_free(all);
      ok = false;
    }
  if (ok && ctx->n_controllers == 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--controllers: no controller given");
    ok = false;
  }
  ctx->out = out;
  ctx->platform = platform ? platform : find_platform("causalbench.xml");
  ctx->sim = (TrvSimOptions){.platform = ctx->platform, .simgrid_args = (const char *const *)ctx->simgrid_args->pdata,
                             .n_simgrid_args = ctx->simgrid_args->len, .commit_timeout = 5.0, .commit_retries = 3,
                             .step_flops = 1e6, .probe_flops = 2e7};
  return ok;
}

static void free_ctx(RunCtx *ctx) {
  g_strfreev(ctx->controllers);
  g_free(ctx->out);
  g_free(ctx->platform);
  g_ptr_array_free(ctx->simgrid_args, TRUE);
}

static int fail(GError *err) {
  int code = err->code == TRV_ERROR_INPUT ? 2 : 1;
  fprintf(stderr, "trivium: %s\n", err->message);
  g_error_free(err);
  return code;
}

/* Everything after argument parsing: cells, merge, outputs. */
static int execute(RunCtx *ctx, int argc, char **argv, FILE *table, gint64 *probes, GError **error) {
  void *world = trv_world_causalbench.init(&ctx->params, 0, error);
  if (!world) return 2;
  TrvRunResult res = {.experiment = ctx->experiment, .params = &ctx->params,
                      .cand = trv_world_causalbench.candidates(world), .episodes = trv_world_causalbench.episodes(world),
                      .steps = trv_world_causalbench.steps(world), .controllers = (const char *const *)ctx->controllers,
                      .n_controllers = ctx->n_controllers, .n_seeds = ctx->params.seeds, .platform = ctx->platform,
                      .argv = argv, .argc = argc};
  res.n_change_points = trv_world_causalbench.change_points(world, res.change_points, G_N_ELEMENTS(res.change_points));
  trv_world_causalbench.free(world);
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
    g_free(csv);
    g_free(json);
  }
  *probes = 0;
  for (int i = 0; i < ctx->n_controllers * res.n_seeds; i++) {
    if (!res.rows[i]) continue;
    for (guint k = 0; k < res.rows[i]->len; k++) *probes += g_array_index(res.rows[i], TrvEpisodeRow, k).probes;
    g_array_free(res.rows[i], TRUE);
  }
  g_free(res.rows);
  g_free(seeds);
  return code;
}

int trv_cmd_run(int argc, char **argv) {
  RunCtx ctx = {0};
  GError *err = NULL;
  if (!parse_args(&ctx, argc, argv, false, &err)) {
    free_ctx(&ctx);
    return fail(err);
  }
  if (!ctx.out) ctx.out = default_out_dir();
  if (!check_out_dir(ctx.out, &err)) {
    free_ctx(&ctx);
    return fail(err);
  }
  if (!ctx.quiet)
    fprintf(stderr, "trivium: %s, %d controllers x %d seeds x %d episodes, %d jobs -> %s\n", ctx.experiment,
            ctx.n_controllers, ctx.params.seeds, ctx.params.episodes, ctx.jobs, ctx.out);
  gint64 probes;
  int code = execute(&ctx, argc, argv, ctx.quiet ? NULL : stdout, &probes, &err);
  if (code == 0 && !ctx.quiet) printf("\nOutputs: %s/{episodes.csv,summary.csv,summary.md,run.json}\n", ctx.out);
  free_ctx(&ctx);
  return code ? fail(err) : 0;
}

int trv_cmd_bench(int argc, char **argv) {
  RunCtx ctx = {0};
  GError *err = NULL;
  if (!parse_args(&ctx, argc, argv, true, &err)) {
    free_ctx(&ctx);
    return fail(err);
  }
  char *tmp = NULL;
  if (!ctx.out) ctx.out = tmp = g_dir_make_tmp("trivium-bench-XXXXXX", NULL);
  gint64 t0 = g_get_monotonic_time(), probes;
  int code = execute(&ctx, argc, argv, NULL, &probes, &err);
  double wall = (g_get_monotonic_time() - t0) / 1e6;
  if (code == 0) {
    long episodes = (long)ctx.n_controllers * ctx.params.seeds * ctx.params.episodes;
    printf("bench: %s run, %d controllers x %d seeds x %d episodes x %d steps, %d jobs on %u cores\n", ctx.experiment,
           ctx.n_controllers, ctx.params.seeds, ctx.params.episodes, ctx.params.steps, ctx.jobs,
           g_get_num_processors());
    printf("bench: wall time %.2f s\n", wall);
    printf("bench: probes %" G_GINT64_FORMAT ", %.0f probes/s\n", probes, probes / wall);
    printf("bench: episodes %ld, %.0f episodes/s, %.0f agent steps/s\n", episodes, episodes / wall,
           episodes * (double)ctx.params.steps / wall);
  }
  if (tmp) {
    char *cmd[] = {"rm", "-rf", tmp, NULL};
    g_spawn_sync(NULL, cmd, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  }
  free_ctx(&ctx);
  return code ? fail(err) : 0;
}
