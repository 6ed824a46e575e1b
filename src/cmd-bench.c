/* cmd-bench.c - `trivium bench [SCENARIO]`: a run timed.
 *
 * Runs what `trivium run` would (the same arguments; outputs in a temporary
 * directory unless --out), with the controllers' own calls timed, and
 * prints wall and CPU time (the cells' and the parent's, the figures'
 * gnuplot apart, on a line of its own), probes, episodes
 * and agent steps per second, CPU per episode, the controllers' share of
 * the cells' CPU time, the largest max RSS, and, when $TRIVIUM_SKELETON_DIR
 * names the SimGrid skeleton (../shared/bench), the CPU time of the
 * skeleton given the same run and Trivium's ratio to it (docs/outputs.md). */
#include <config.h>

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "figure-draw.h"
#include "run.h"

static double tv_seconds(const struct timeval *tv) { return (double)tv->tv_sec + tv->tv_usec * 1e-6; }

/* The directory of the SimGrid skeleton (skeleton.c,
 * probes-from-episodes.py): $TRIVIUM_SKELETON_DIR only, never a path fixed
 * when the program was built (bench compiles and runs what it finds
 * there).  NULL with *why when it is not set, lacks either file, or a file
 * or the directory is not owned by this user (or root) or is writable by
 * others: code another user could change is not run. */
static char *skeleton_dir(GString *why) {
  const char *dir = g_getenv("TRIVIUM_SKELETON_DIR");
  if (!dir || !*dir) {
    g_string_append(why, "no skeleton (set TRIVIUM_SKELETON_DIR to the directory of skeleton.c)");
    return NULL;
  }
  static const char *const names[] = {"", "skeleton.c", "probes-from-episodes.py"};
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    char *path = g_build_filename(dir, names[i], NULL);
    struct stat st;
    if (stat(path, &st) != 0 || (i ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode)))
      g_string_append_printf(why, "no skeleton (%s is not a %s)", path, i ? "file" : "directory");
    else if ((st.st_uid != getuid() && st.st_uid != 0) || (st.st_mode & (S_IWGRP | S_IWOTH)))
      g_string_append_printf(why, "%s is writable by others than its owner, or owned by another user: not run", path);
    g_free(path);
    if (why->len) return NULL;
  }
  return g_strdup(dir);
}

/* Whether the run's host patterns pick, for every role they name, exactly
 * the hosts that the platform's trivium.role properties give that role:
 * the skeleton places by the properties, and a cell places a role on the
 * hosts it picks in the platform's host order, so both place alike. */
static bool roles_are_the_properties(const RunCtx *ctx, const char *platform) {
  TrvPlatformNames *pn = trv_platform_names_read(platform, NULL);
  bool same = pn != NULL;
  for (int r = 0; r < TRV_N_ROLES && same; r++) {
    if (!ctx->role_hosts[r]) continue;
    char **globs = g_strsplit(ctx->role_hosts[r], ",", -1);
    for (guint k = 0; k < pn->hosts->len && same; k++) {
      const char *host = pn->hosts->pdata[k], *role = pn->roles->pdata[k];
      bool picked = false;
      for (int i = 0; globs[i] && !picked; i++) picked = fnmatch(g_strstrip(globs[i]), host, 0) == 0;
      same = picked == (role && !strcmp(role, trv_role_names[r]));
    }
    g_strfreev(globs);
  }
  trv_platform_names_free(pn);
  return same;
}

static bool shell(const char *cmd, GString *why) {
  char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
  int status = -1;
  char *err = NULL;
  bool ok = g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, NULL) &&
            g_spawn_check_wait_status(status, NULL);
  if (!ok) g_string_append_printf(why, "`%s` failed%s%s", cmd, err && *err ? ": " : "", err ? g_strstrip(err) : "");
  g_free(err);
  return ok;
}

/* Removes a scratch directory this command made (NULL: none). */
static void remove_tmp(const char *tmp) {
  if (!tmp) return;
  char *cmd[] = {"rm", "-rf", (char *)tmp, NULL};
  g_spawn_sync(NULL, cmd, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* Components of the run's world: the p_ columns of episodes.csv's header. */
static int csv_components(const char *csv) {
  FILE *f = fopen(csv, "r");
  if (!f) return -1;
  char line[8192];
  int n = 0;
  if (fgets(line, sizeof line, f))
    for (char *p = line; p; p = strchr(p, ',')) {
      if (*p == ',') p++;
      n += !strncmp(p, "p_", 2);
    }
  fclose(f);
  return n;
}

/* The skeleton's CPU seconds for the run just benched (its outputs in out):
 * skeleton.c compiled, fed the probes per episode of episodes.csv, given the
 * run's platform, cells, jobs, agents, replicas, steps, components and flops
 * (and the per-step barrier of a shared city), as skeleton-ratio.sh does.
 * A negative value with *why when it cannot stand for the run. */
static double skeleton_cpu(RunCtx *ctx, const char *out, char **why) {
  GString *w = g_string_new(NULL);
  char *dir = skeleton_dir(w), *tmp = NULL, *csv = g_build_filename(out, "episodes.csv", NULL);
  double cpu = -1;
  bool roles = false;
  for (int r = 0; r < TRV_N_ROLES; r++) roles = roles || ctx->role_hosts[r];
  const char *platform = ctx->sim.platform ? ctx->sim.platform : ctx->platform;
  int ncomp = csv_components(csv);
  if (!dir) {
  } else if (ncomp < 1)
    g_string_append(w, "no episodes.csv in the output (a sweep)");
  else if (ctx->faults && ctx->faults->len)
    g_string_append(w, "the run has faults, the skeleton none");
  else if (ctx->sim.best_effort)
    g_string_append(w, "best effort: the skeleton commits atomically");
  else if (!platform || (roles && !roles_are_the_properties(ctx, platform)))
    g_string_append(w, "roles by host name that the platform's trivium.role properties do not give: the skeleton "
                       "places by trivium.role");
  else if (!(tmp = g_dir_make_tmp("trivium-skeleton-XXXXXX", NULL)))
    g_string_append(w, "no temporary directory");
  if (w->len == 0) {
    char *q_dir = g_shell_quote(dir), *q_tmp = g_shell_quote(tmp), *q_csv = g_shell_quote(csv);
    char *build =
        g_strdup_printf("cc -O2 -o %s/skel %s/skeleton.c $(pkg-config --cflags --libs simgrid) -lm", q_tmp, q_dir);
    char *probes = g_strdup_printf("python3 %s/probes-from-episodes.py %s > %s/probes", q_dir, q_csv, q_tmp);
    if (shell(build, w) && shell(probes, w)) {
      bool barrier = ctx->world_class && ctx->world_class->agent && ctx->world_class->agent->step_end;
      char *q_plat = g_shell_quote(platform);
      char *run = g_strdup_printf(
          "%s/skel --platform %s --cells %d --jobs %d --agents %d --replicas %d --episodes %d --steps %d --ncomp %d "
          "--step-flops %.17g --probe-flops %.17g --probes %s/probes%s",
          q_tmp, q_plat, ctx->n_controllers * ctx->params.seeds, ctx->jobs, ctx->sim.agents, ctx->sim.replicas,
          ctx->params.episodes, ctx->world_steps, ncomp, ctx->sim.step_flops, ctx->sim.probe_flops, q_tmp,
          barrier ? " --barrier" : "");
      double before = trv_children_cpu_seconds();
      if (shell(run, w)) cpu = trv_children_cpu_seconds() - before;
      g_free(run);
      g_free(q_plat);
    }
    g_free(build);
    g_free(probes);
    g_free(q_dir);
    g_free(q_tmp);
    g_free(q_csv);
  }
  remove_tmp(tmp);
  *why = cpu < 0 ? g_string_free(w, FALSE) : (g_string_free(w, TRUE), NULL);
  g_free(dir);
  g_free(tmp);
  g_free(csv);
  return cpu;
}

int trv_cmd_bench(int argc, char **argv) {
  RunCtx ctx = {0};
  GError *err = NULL;
  if (!trv_run_parse_args(&ctx, argc, argv, true, &err)) {
    trv_run_ctx_free(&ctx);
    return trv_run_fail(err);
  }
  char *tmp = NULL;
  if (!ctx.out) ctx.out = tmp = g_dir_make_tmp("trivium-bench-XXXXXX", NULL);
  ctx.sim.time_controller = true; /* the controller's share: timed in bench only (it costs) */
  gint64 t0 = g_get_monotonic_time();
  TrvRunTotals totals = {0};
  int code = trv_run_points(&ctx, argc, argv, NULL, &totals, NULL, &err);
  double wall = (g_get_monotonic_time() - t0) / 1e6;
  if (code == 0) {
    long episodes = (long)ctx.n_controllers * ctx.params.seeds * ctx.params.episodes;
    printf("bench: %s, %d controllers x %d seeds x %d episodes x %d steps, %d jobs on %u cores\n", ctx.experiment,
           ctx.n_controllers, ctx.params.seeds, ctx.params.episodes, ctx.params.steps, ctx.jobs,
           g_get_num_processors());
    struct rusage self, cells;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &cells); /* the cells (and checks) run in child processes */
    double cpu_cells = tv_seconds(&cells.ru_utime) + tv_seconds(&cells.ru_stime);
    double cpu_self = tv_seconds(&self.ru_utime) + tv_seconds(&self.ru_stime);
    /* gnuplot runs as a child of the parent: its CPU time is in the
     * children's, and said apart */
    double fig_cpu = trv_fig_cpu_seconds(), fig_wall = trv_fig_wall_seconds();
    cpu_cells -= fig_cpu;
    printf("bench: wall time %.2f s; CPU time %.2f s (cells %.2f s, parent %.2f s), figures apart\n", wall,
           cpu_cells + cpu_self, cpu_cells, cpu_self);
    printf("bench: figures (gnuplot) %.2f s of CPU, %.2f s of wall time%s\n", fig_cpu, fig_wall,
           fig_cpu == 0 && fig_wall == 0 ? " (none drawn: --figures none, or no gnuplot)" : "");
    printf("bench: probes %" G_GINT64_FORMAT ", %.0f probes/s of wall time\n", totals.probes, totals.probes / wall);
    printf("bench: episodes %ld, %.0f episodes/s; agent steps %.0f, %.0f agent steps/s\n", episodes, episodes / wall,
           totals.agent_steps, totals.agent_steps / wall);
    printf("bench: per episode %.4f ms of CPU (cells)\n", episodes ? 1e3 * cpu_cells / episodes : 0.0);
    printf("bench: controller (posterior, scheduling, commit checks) %.3f s of CPU = %.2f%% of the cells' CPU time\n",
           totals.controller_cpu, cpu_cells > 0 ? 100.0 * totals.controller_cpu / cpu_cells : 0.0);
    printf("bench: max RSS %.1f MB (the largest cell), %.1f MB (the parent)\n", cells.ru_maxrss / 1024.0,
           self.ru_maxrss / 1024.0);
    char *why = NULL;
    double skel = skeleton_cpu(&ctx, ctx.out, &why);
    if (skel > 0)
      printf("bench: skeleton (SimGrid alone, the same messages and flops) %.2f s of CPU; Trivium %.2fx of it "
             "(figures apart)\n",
             skel, (cpu_cells + cpu_self) / skel);
    else
      printf("bench: skeleton ratio not measured: %s\n", why ? why : "the skeleton took no CPU time");
    g_free(why);
  }
  remove_tmp(tmp);
  trv_run_ctx_free(&ctx);
  return code ? trv_run_fail(err) : 0;
}
