/* cmd-jssp.c - `trivium jssp platform|run|stream|confounded|bench`: job-shop
 * machine platforms from OR-Library instances, their SimGrid execution under
 * a dispatch rule, the confounded machine stream, its real-instance variant
 * (makespan regret), and a benchmark.  The stream and the variant run
 * under their stand-alone reference controllers (jssp-stream-ref.h,
 * jssp-confounded-ref.h).
 *
 * Exit codes: 0 ok, 1 a run failed (a simulation that deadlocks, disagrees
 * with the list scheduler or yields an infeasible schedule, a failed
 * write), 2 bad input (a malformed instance, with file:line; a missing or
 * refused platform; a bad option or value).  Every refusal is one line on
 * stderr, made before anything is simulated or written; values a user
 * types are shown with control bytes escaped, so the line stays one line.
 * SimGrid initialises once per process and aborts the process on a bad
 * option or platform, so `run` and `bench` simulate in a child process
 * (envs/jssp/jssp-sim.h) and turn SimGrid's refusal into that one line. */
#include <config.h>

#include <errno.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "jssp-confounded-ref.h"
#include "jssp-stream-ref.h"
#include "jssp/jssp-sim.h"
#include "jssp/jssp.h"

/* Limits on the command's values (docs/jssp.md): the seed x episode
 * arrays and CSVs stay below about 100 MB, every seed fits an int. */
#define MAX_SEEDS 10000
#define MAX_EPISODES 1000000
#define MAX_SEED_EPISODES 1000000
#define MAX_REPEAT 10000

/* Prints "trivium jssp[ SUB]: MESSAGE" on one line: control bytes of the
 * message (from a file name or a typed value) are written as \xNN. */
static void print_line(const char *sub, const char *message) {
  GString *line = g_string_new("trivium jssp");
  if (sub) g_string_append_printf(line, " %s", sub);
  g_string_append(line, ": ");
  for (const unsigned char *p = (const unsigned char *)message; *p; p++)
    if (*p < 0x20 || *p == 0x7f)
      g_string_append_printf(line, "\\x%02x", *p);
    else
      g_string_append_c(line, (char)*p);
  fprintf(stderr, "%s\n", line->str);
  g_string_free(line, TRUE);
}

static int fail(GError *err) {
  /* Only this program's own run and write failures exit 1; bad input, and
   * anything not in the project's domain, is the user's to fix: exit 2. */
  int code = err->domain == TRV_ERROR && err->code != TRV_ERROR_INPUT ? 1 : 2;
  print_line(NULL, err->message);
  g_error_free(err);
  return code;
}

/* A bad argument or value of subcommand sub: one line, exit code 2. */
static int refuse(const char *sub, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static int refuse(const char *sub, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *message = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  print_line(sub, message);
  g_free(message);
  return 2;
}

/* The positional arguments left after the options: exactly `want` of
 * them, none that looks like an option.  Returns 0 or refuse()'s 2. */
static int check_positionals(const char *sub, int argc, char **argv, int want, const char *what) {
  for (int i = 1; i < argc; i++)
    if (argv[i][0] == '-' && argv[i][1]) return refuse(sub, "unknown option '%s'; see trivium jssp --help", argv[i]);
  if (argc - 1 != want)
    return want ? refuse(sub, "expected one %s, got %d arguments", what, argc - 1)
                : refuse(sub, "unexpected argument '%s'", argv[1]);
  return 0;
}

/* --seeds, --episodes and --first-seed of stream and confounded. */
static int check_seed_range(const char *sub, int seeds, int episodes, int first) {
  if (seeds < 1 || seeds > MAX_SEEDS) return refuse(sub, "--seeds %d: expected 1..%d", seeds, MAX_SEEDS);
  if (episodes < 2 || episodes > MAX_EPISODES)
    return refuse(sub, "--episodes %d: expected 2..%d", episodes, MAX_EPISODES);
  if ((gint64)seeds * episodes > MAX_SEED_EPISODES)
    return refuse(sub, "--seeds %d x --episodes %d = %" G_GINT64_FORMAT " seed-episodes; expected at most %d", seeds,
                  episodes, (gint64)seeds * episodes, MAX_SEED_EPISODES);
  if (first < 0 || (gint64)first + seeds - 1 > INT_MAX)
    return refuse(sub, "--first-seed %d: expected 0..%d (the last seed, first + seeds - 1, must fit an int)", first,
                  INT_MAX - seeds + 1);
  return 0;
}

static void usage(FILE *f) {
  fprintf(f, "usage: trivium jssp platform INSTANCE [--out DIR] [--force]\n"
             "       trivium jssp run INSTANCE|PLATFORM-DIR [--rule fifo|spt|lpt|mwkr] [--schedule FILE] [--force]\n"
             "                        [--cfg=SIMGRID-OPTION]... [--log=SIMGRID-OPTION]...\n"
             "       trivium jssp stream [--seeds N] [--episodes E] [--first-seed S] [--out DIR] [--force]\n"
             "       trivium jssp confounded INSTANCE|PLATFORM-DIR [--seeds N] [--episodes E] [--first-seed S]\n"
             "                        [--out DIR] [--force]\n"
             "       trivium jssp bench [--repeat N]\n"
             "--force replaces files that trivium jssp did not write\n"
             "exit: 0 ok, 1 run failure, 2 bad input (docs/jssp.md)\n");
}

/* Parses options; leaves positional arguments and SimGrid's --cfg/--log
 * options in argv.  FALSE (and a message) on a bad option. */
static gboolean parse_options(const char *sub, const char *what, GOptionEntry *entries, int *argc, char ***argv) {
  GOptionContext *oc = g_option_context_new(what);
  g_option_context_add_main_entries(oc, entries, NULL);
  g_option_context_set_ignore_unknown_options(oc, TRUE);
  GError *err = NULL;
  gboolean ok = g_option_context_parse(oc, argc, argv, &err);
  if (!ok) {
    print_line(sub, err->message);
    g_error_free(err);
  }
  g_option_context_free(oc);
  return ok;
}

static int cmd_platform(int argc, char **argv) {
  char *out = NULL;
  gboolean force = FALSE;
  GOptionEntry entries[] = {
      {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "write DIR/NAME/platform.xml and jobs.txt (default: .)", "DIR"},
      {"force", 'f', 0, G_OPTION_ARG_NONE, &force, "replace files that are not trivium jssp output", NULL},
      {NULL, 0, 0, 0, NULL, NULL, NULL}};
  if (!parse_options("platform", "INSTANCE - write a SimGrid machine shop", entries, &argc, &argv)) return 2;
  int bad = check_positionals("platform", argc, argv, 1, "INSTANCE");
  if (!bad && out && !*out) bad = refuse("platform", "--out '': expected a directory name");
  if (bad) {
    g_free(out);
    return bad;
  }
  GError *err = NULL;
  TrvJsspInstance *inst = trv_jssp_instance_load(argv[1], &err);
  if (!inst) {
    g_free(out);
    return fail(err);
  }
  /* NAME is the base name of a regular file, so one path component that
   * is neither "." nor "..": DIR/NAME is inside DIR. */
  g_assert(*inst->name && !strchr(inst->name, G_DIR_SEPARATOR) && strcmp(inst->name, ".") && strcmp(inst->name, ".."));
  char *dir = g_build_filename(out ? out : ".", inst->name, NULL);
  int rc = 0;
  if (trv_jssp_write_platform(inst, dir, force, &err))
    printf("%s: %d jobs x %d machines -> %s/platform.xml, %s/jobs.txt\n", argv[1], inst->n_jobs, inst->n_machines, dir,
           dir);
  else
    rc = fail(err);
  g_free(dir);
  g_free(out);
  trv_jssp_instance_free(inst);
  return rc;
}

/* Loads INSTANCE or PLATFORM-DIR.  For an instance file the platform is
 * written to a fresh temporary directory returned in *tmpdir. */
static TrvJsspInstance *load_target(const char *target, char **platform, char **tmpdir, GError **error) {
  *tmpdir = NULL;
  if (g_file_test(target, G_FILE_TEST_IS_DIR)) {
    char *jobs = g_build_filename(target, "jobs.txt", NULL);
    TrvJsspInstance *inst = trv_jssp_instance_load(jobs, error);
    g_free(jobs);
    if (!inst) return NULL;
    g_free(inst->name);
    inst->name = g_path_get_basename(target);
    *platform = g_build_filename(target, "platform.xml", NULL);
    return inst;
  }
  TrvJsspInstance *inst = trv_jssp_instance_load(target, error);
  if (!inst) return NULL;
  GError *io = NULL;
  *tmpdir = g_dir_make_tmp("trivium-jssp-XXXXXX", &io);
  if (!*tmpdir) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "temporary directory: %s", io->message);
    g_error_free(io);
    trv_jssp_instance_free(inst);
    return NULL;
  }
  if (!trv_jssp_write_platform(inst, *tmpdir, FALSE, error)) {
    trv_jssp_instance_free(inst);
    return NULL;
  }
  *platform = g_build_filename(*tmpdir, "platform.xml", NULL);
  return inst;
}

static void remove_tmpdir(char *tmpdir) {
  if (!tmpdir) return;
  const char *names[] = {"platform.xml", "jobs.txt"};
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    char *p = g_build_filename(tmpdir, names[i], NULL);
    g_unlink(p);
    g_free(p);
  }
  g_rmdir(tmpdir);
  g_free(tmpdir);
}

static int cmd_run(int argc, char **argv) {
  char *rule_name = NULL, *schedule = NULL;
  gboolean force = FALSE;
  GOptionEntry entries[] = {
      {"rule", 'r', 0, G_OPTION_ARG_STRING, &rule_name, "dispatch rule: fifo (default), spt, lpt, mwkr", "RULE"},
      {"schedule", 's', 0, G_OPTION_ARG_FILENAME, &schedule, "write the schedule CSV (job,op,machine,start,end)",
       "FILE"},
      {"force", 'f', 0, G_OPTION_ARG_NONE, &force, "replace a --schedule FILE that is not a schedule CSV", NULL},
      {NULL, 0, 0, 0, NULL, NULL, NULL}};
  if (!parse_options("run", "INSTANCE|PLATFORM-DIR - simulate a dispatch rule", entries, &argc, &argv)) return 2;
  const char *target = NULL;
  GPtrArray *sg_args = g_ptr_array_new();
  int rc = 0, positionals = 0;
  /* The first refusal is the one reported. */
  for (int i = 1; i < argc && rc == 0; i++) {
    if (g_str_has_prefix(argv[i], "--cfg=") || g_str_has_prefix(argv[i], "--log="))
      g_ptr_array_add(sg_args, argv[i]);
    else if (argv[i][0] == '-' && argv[i][1])
      rc = refuse("run", "unknown option '%s'; see trivium jssp --help", argv[i]);
    else if (positionals++ == 0)
      target = argv[i];
    else
      rc = refuse("run", "unexpected argument '%s'; expected one INSTANCE or PLATFORM-DIR", argv[i]);
  }
  int rule = rule_name ? trv_jssp_rule_parse(rule_name) : TRV_JSSP_FIFO;
  if (rc == 0 && rule < 0) rc = refuse("run", "unknown rule '%s'; expected fifo, spt, lpt or mwkr", rule_name);
  if (rc == 0 && !target) rc = refuse("run", "expected one INSTANCE or PLATFORM-DIR; see trivium jssp --help");
  if (rc == 0 && schedule && !*schedule) rc = refuse("run", "--schedule '': expected a file name");
  char *platform = NULL, *tmpdir = NULL;
  TrvJsspInstance *inst = NULL;
  GError *err = NULL;
  /* The schedule's path is checked before the simulation, not after it. */
  if (rc == 0 && schedule && !trv_jssp_output_check(schedule, TRV_JSSP_SCHEDULE_MARKER, force, &err)) rc = fail(err);
  if (rc == 0 && !(inst = load_target(target, &platform, &tmpdir, &err))) rc = fail(err);
  if (rc == 0) {
    TrvJsspSchedule *sim = trv_jssp_schedule_new(inst), *list = trv_jssp_list_schedule(inst, (TrvJsspRule)rule);
    TrvJsspSimStats st;
    if (!trv_jssp_sim_run_forked(inst, platform, (TrvJsspRule)rule, (int)sg_args->len, (char **)sg_args->pdata, sim,
                                 &st, &err))
      rc = fail(err);
    else if (!trv_jssp_schedule_check(inst, sim, &err))
      rc = fail(err);
    else {
      double rel = fabs(sim->makespan - list->makespan) / fmax(1.0, list->makespan);
      printf("%s %s: makespan %.17g (SimGrid, %d operations, %ld messages); list scheduler %.17g; schedule "
             "feasible\n",
             inst->name, trv_jssp_rule_name((TrvJsspRule)rule), sim->makespan, sim->n, st.messages, list->makespan);
      if (rel >= 1e-9) {
        fprintf(stderr, "trivium jssp run: SimGrid makespan %.17g differs from the list scheduler's %.17g\n",
                sim->makespan, list->makespan);
        rc = 1;
      }
      if (schedule && !trv_jssp_schedule_write_csv(inst, sim, schedule, force, &err)) rc = fail(err);
    }
    trv_jssp_schedule_free(sim);
    trv_jssp_schedule_free(list);
  }
  remove_tmpdir(tmpdir);
  g_free(platform);
  trv_jssp_instance_free(inst);
  g_ptr_array_free(sg_args, TRUE);
  g_free(rule_name);
  g_free(schedule);
  return rc;
}

/* The CSV files of --out DIR, checked (trv_jssp_output_prepare_dir)
 * before the computation, so that a refusal costs nothing; the writes
 * check again. */
static const char *const stream_files[] = {"stream-curves.csv", "stream-episodes.csv"};
static const char *const stream_markers[] = {"episode,trivium_mean_cumulative,rlvr_mean_cumulative\n",
                                             "controller,seed,episode,regret\n"};
static const char *const confounded_files[] = {"confounded-episodes.csv"};
static const char *const confounded_markers[] = {"controller,seed,episode,regret,cumulative_regret,identified\n"};

/* Writes DIR/name (contents start with marker); prints where. */
static gboolean write_out(const char *out, const char *name, const char *marker, const GString *contents,
                          gboolean force, GError **error) {
  char *path = g_build_filename(out, name, NULL);
  gboolean ok = trv_jssp_output_write(path, marker, contents, force, error);
  if (ok) printf("wrote %s\n", path);
  g_free(path);
  return ok;
}

static int cmd_stream(int argc, char **argv) {
  TrvMachineStreamParams p;
  trv_machine_stream_defaults(&p);
  int seeds = 20, first = 1;
  char *out = NULL;
  gboolean force = FALSE;
  GOptionEntry entries[] = {
      {"seeds", 'n', 0, G_OPTION_ARG_INT, &seeds, "number of seeds (default 20)", "N"},
      {"episodes", 'e', 0, G_OPTION_ARG_INT, &p.episodes, "episodes per seed (default 500)", "E"},
      {"first-seed", 0, 0, G_OPTION_ARG_INT, &first, "first seed (default 1)", "S"},
      {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "write DIR/stream-curves.csv and DIR/stream-episodes.csv", "DIR"},
      {"force", 'f', 0, G_OPTION_ARG_NONE, &force, "replace files that are not trivium jssp output", NULL},
      {NULL, 0, 0, 0, NULL, NULL, NULL}};
  if (!parse_options("stream", "- the confounded machine stream (docs/jssp.md)", entries, &argc, &argv)) return 2;
  int bad = check_positionals("stream", argc, argv, 0, NULL);
  if (!bad) bad = check_seed_range("stream", seeds, p.episodes, first);
  if (bad) {
    g_free(out);
    return bad;
  }
  GError *err = NULL;
  if (out && !trv_jssp_output_prepare_dir(out, 2, stream_files, stream_markers, force, &err)) {
    g_free(out);
    return fail(err);
  }
  const int E = p.episodes;
  double *curve[TRV_MACHINE_N_CONTROLLERS], *per_seed[TRV_MACHINE_N_CONTROLLERS];
  TrvMachineStreamSummary sum[TRV_MACHINE_N_CONTROLLERS];
  printf("confounded machine stream: M=%d, E=%d, %d steps/episode, seeds %d..%d, rho=%g, s=%g; Trivium B_e = "
         "min(%d, ceil(%g ln(e+1))); RLVR lr %g, baseline rate %g\n\n",
         p.machines, E, p.steps, first, first + seeds - 1, p.rho, p.s, p.budget_cap, p.m0, p.lr, p.baseline_rate);
  printf("| controller | cumulative regret at E (mean ± sd) | regret rate, last %d episodes | R^2 a+b*ln(e) | "
         "R^2 a+b*e | better fit |\n|---|---|---|---|---|---|\n",
         MAX(1, E / 5));
  for (int c = 0; c < TRV_MACHINE_N_CONTROLLERS; c++) {
    curve[c] = g_new(double, E);
    per_seed[c] = g_new(double, (gsize)seeds *E);
    trv_machine_stream_summarize(&p, (uint64_t)first, seeds, (TrvMachineController)c, &sum[c], curve[c], per_seed[c]);
    printf("| %s | %.1f ± %.1f | %.3f ± %.3f | %.4f | %.4f | %s |\n", trv_machine_controller_name(c),
           sum[c].cumulative.mean, sum[c].cumulative.sd, sum[c].final_rate.mean, sum[c].final_rate.sd,
           sum[c].log_fit.r2, sum[c].linear_fit.r2, sum[c].log_fit.r2 > sum[c].linear_fit.r2 ? "log" : "linear");
  }
  int rc = 0;
  if (out) {
    GString *cv = g_string_new(stream_markers[0]), *ep = g_string_new(stream_markers[1]);
    for (int e = 0; e < E; e++) g_string_append_printf(cv, "%d,%.6f,%.6f\n", e + 1, curve[0][e], curve[1][e]);
    for (int c = 0; c < TRV_MACHINE_N_CONTROLLERS; c++)
      for (int k = 0; k < seeds; k++)
        for (int e = 0; e < E; e++)
          g_string_append_printf(ep, "%s,%d,%d,%.0f\n", trv_machine_controller_name(c), first + k, e + 1,
                                 per_seed[c][(size_t)k * E + e]);
    printf("\n");
    if (!write_out(out, stream_files[0], stream_markers[0], cv, force, &err) ||
        !write_out(out, stream_files[1], stream_markers[1], ep, force, &err))
      rc = fail(err);
    g_string_free(cv, TRUE);
    g_string_free(ep, TRUE);
  }
  for (int c = 0; c < TRV_MACHINE_N_CONTROLLERS; c++) {
    g_free(curve[c]);
    g_free(per_seed[c]);
  }
  g_free(out);
  return rc;
}

/* Writes DIR/confounded-episodes.csv: controller,seed,episode,regret,
 * cumulative_regret,identified. */
static int write_confounded_csv(const char *out, gboolean force, int first, int seeds, int E, double *const *regret,
                                double *const *identified) {
  GString *csv = g_string_new(confounded_markers[0]);
  for (int c = 0; c < TRV_CONFOUNDED_N_CONTROLLERS; c++)
    for (int k = 0; k < seeds; k++) {
      double cum = 0;
      for (int e = 0; e < E; e++) {
        size_t at = (size_t)k * E + e;
        cum += regret[c][at];
        g_string_append_printf(csv, "%s,%d,%d,%.6f,%.6f,%.0f\n", trv_confounded_controller_name(c), first + k, e + 1,
                               regret[c][at], cum, identified[c][at]);
      }
    }
  GError *err = NULL;
  int rc = 0;
  printf("\n");
  if (!write_out(out, confounded_files[0], confounded_markers[0], csv, force, &err)) rc = fail(err);
  g_string_free(csv, TRUE);
  return rc;
}

static int cmd_confounded(int argc, char **argv) {
  TrvConfoundedRefParams p;
  trv_confounded_ref_defaults(&p);
  int seeds = 20, first = 1;
  char *out = NULL;
  gboolean force = FALSE;
  GOptionEntry entries[] = {
      {"seeds", 'n', 0, G_OPTION_ARG_INT, &seeds, "number of seeds (default 20)", "N"},
      {"episodes", 'e', 0, G_OPTION_ARG_INT, &p.episodes, "episodes per seed (default 200)", "E"},
      {"first-seed", 0, 0, G_OPTION_ARG_INT, &first, "first seed (default 1)", "S"},
      {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "write DIR/confounded-episodes.csv", "DIR"},
      {"force", 'f', 0, G_OPTION_ARG_NONE, &force, "replace a file that is not trivium jssp output", NULL},
      {NULL, 0, 0, 0, NULL, NULL, NULL}};
  if (!parse_options("confounded", "INSTANCE|PLATFORM-DIR - the real-instance confounded variant (docs/jssp.md)",
                     entries, &argc, &argv))
    return 2;
  int bad = check_positionals("confounded", argc, argv, 1, "INSTANCE or PLATFORM-DIR");
  if (!bad) bad = check_seed_range("confounded", seeds, p.episodes, first);
  if (bad) {
    g_free(out);
    return bad;
  }
  GError *err = NULL;
  if (out && !trv_jssp_output_prepare_dir(out, 1, confounded_files, confounded_markers, force, &err)) {
    g_free(out);
    return fail(err);
  }
  gboolean is_dir = g_file_test(argv[1], G_FILE_TEST_IS_DIR);
  char *jobs = is_dir ? g_build_filename(argv[1], "jobs.txt", NULL) : g_strdup(argv[1]);
  TrvJsspInstance *inst = trv_jssp_instance_load(jobs, &err);
  g_free(jobs);
  if (inst && !trv_confounded_instance_fits(inst, argv[1], &err)) g_clear_pointer(&inst, trv_jssp_instance_free);
  if (!inst) {
    g_free(out);
    return fail(err);
  }
  if (is_dir) {
    g_free(inst->name);
    inst->name = g_path_get_basename(argv[1]);
  }
  TrvConfoundedPlans *plans = trv_confounded_plans_new(inst);
  const int E = p.episodes;
  printf("confounded job shop on %s (%d jobs x %d machines): %d candidate plans (4 rules x believed-slow sets of "
         "<= 2 machines), E=%d, seeds %d..%d;\nslow machines: 1..%d per seed, s ~ U[%g, %g]; congestion "
         "exp(%g C_e); reading noise %g; called slow when exp(mu) > %g; Trivium probes/episode min(%d, ceil(%g "
         "ln(e+1)))\n\n",
         inst->name, inst->n_jobs, inst->n_machines, trv_confounded_plans_count(plans), E, first, first + seeds - 1,
         p.world.slow_max, p.world.slow_lo, p.world.slow_hi, p.world.rho, p.world.sigma, p.world.threshold,
         p.budget_cap, p.m0);
  printf(
      "| controller | slow machines identified at E (fraction of seeds) | cumulative makespan regret at E (mean ± "
      "sd) | the same / oracle makespan | R^2 a+b*ln(e) | R^2 a+b*e | better fit |\n|---|---|---|---|---|---|---|\n");
  double *regret[TRV_CONFOUNDED_N_CONTROLLERS], *identified[TRV_CONFOUNDED_N_CONTROLLERS];
  for (int c = 0; c < TRV_CONFOUNDED_N_CONTROLLERS; c++) {
    TrvConfoundedSummary sum;
    regret[c] = g_new(double, (gsize)seeds *E);
    identified[c] = g_new(double, (gsize)seeds *E);
    trv_confounded_summarize(plans, &p, (uint64_t)first, seeds, (TrvConfoundedController)c, &sum, regret[c],
                             identified[c]);
    printf("| %s | %.2f | %.1f ± %.1f | %.2f ± %.2f | %.4f | %.4f | %s |\n", trv_confounded_controller_name(c),
           sum.identified, sum.cumulative.mean, sum.cumulative.sd, sum.cumulative_relative.mean,
           sum.cumulative_relative.sd, sum.log_fit.r2, sum.linear_fit.r2,
           sum.log_fit.r2 > sum.linear_fit.r2 ? "log" : "linear");
  }
  int rc = out ? write_confounded_csv(out, force, first, seeds, E, regret, identified) : 0;
  for (int c = 0; c < TRV_CONFOUNDED_N_CONTROLLERS; c++) {
    g_free(regret[c]);
    g_free(identified[c]);
  }
  trv_confounded_plans_free(plans);
  trv_jssp_instance_free(inst);
  g_free(out);
  return rc;
}

static int compare_names(gconstpointer a, gconstpointer b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The instance in dir (OR-Library files, or platform directories) with the
 * most operations, ties to more jobs then to the first name; NULL if none
 * parses. */
static char *largest_in(const char *dir, gboolean platform_dirs) {
  GDir *d = g_dir_open(dir, 0, NULL);
  if (!d) return NULL;
  const char *name;
  char *best = NULL;
  int best_ops = -1, best_jobs = -1;
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  while ((name = g_dir_read_name(d))) g_ptr_array_add(names, g_strdup(name));
  g_dir_close(d);
  g_ptr_array_sort(names, compare_names);
  for (guint i = 0; i < names->len; i++) {
    char *path = g_build_filename(dir, g_ptr_array_index(names, i), platform_dirs ? "jobs.txt" : NULL, NULL);
    TrvJsspInstance *inst = trv_jssp_instance_load(path, NULL);
    int ops = inst ? inst->n_jobs * inst->n_ops : -1;
    if (inst && (ops > best_ops || (ops == best_ops && inst->n_jobs > best_jobs))) {
      best_ops = ops;
      best_jobs = inst->n_jobs;
      g_free(best);
      best = g_build_filename(dir, g_ptr_array_index(names, i), NULL);
    }
    trv_jssp_instance_free(inst);
    g_free(path);
  }
  g_ptr_array_free(names, TRUE);
  return best;
}

static int bench_one(const char *target, int repeat) {
  GError *err = NULL;
  char *platform = NULL, *tmpdir = NULL;
  TrvJsspInstance *inst = load_target(target, &platform, &tmpdir, &err);
  if (!inst) {
    remove_tmpdir(tmpdir);
    return fail(err);
  }
  int ops = inst->n_jobs * inst->n_ops, rc = 0;
  double sim_s = 0;
  gint64 t0 = g_get_monotonic_time();
  for (int r = 0; r < repeat && rc == 0; r++) {
    TrvJsspSchedule *s = trv_jssp_schedule_new(inst);
    TrvJsspSimStats st = {0};
    if (!trv_jssp_sim_run_forked(inst, platform, (TrvJsspRule)(r % TRV_JSSP_N_RULES), 0, NULL, s, &st, &err))
      rc = fail(err);
    sim_s += st.run_seconds;
    trv_jssp_schedule_free(s);
  }
  double wall = (double)(g_get_monotonic_time() - t0) / 1e6;
  gint64 t1 = g_get_monotonic_time();
  int list_runs = 0;
  while (g_get_monotonic_time() - t1 < 200000 || list_runs < 4)
    trv_jssp_schedule_free(trv_jssp_list_schedule(inst, (TrvJsspRule)(list_runs++ % TRV_JSSP_N_RULES)));
  double list_s = (double)(g_get_monotonic_time() - t1) / 1e6;
  if (rc == 0)
    printf("| %s | %dx%d | %d | %.0f | %.0f | %.3f | %.0f |\n", inst->name, inst->n_jobs, inst->n_machines, ops,
           (double)ops * repeat / sim_s, (double)ops * repeat / wall, wall / repeat * 1e3,
           (double)ops * list_runs / list_s);
  remove_tmpdir(tmpdir);
  g_free(platform);
  trv_jssp_instance_free(inst);
  return rc;
}

static int cmd_bench(int argc, char **argv) {
  int repeat = 20;
  GOptionEntry entries[] = {{"repeat", 'n', 0, G_OPTION_ARG_INT, &repeat,
                             "simulations per instance (default 20; "
                             "the rules in turn)",
                             "N"},
                            {NULL, 0, 0, 0, NULL, NULL, NULL}};
  if (!parse_options("bench", "- simulated operations per second", entries, &argc, &argv)) return 2;
  int bad = check_positionals("bench", argc, argv, 0, NULL);
  if (bad) return bad;
  if (repeat < 1 || repeat > MAX_REPEAT) return refuse("bench", "--repeat %d: expected 1..%d", repeat, MAX_REPEAT);
  char *shipped = g_build_filename(TRV_SRCDIR, "platforms", "jssp", NULL);
  char *shared = g_build_filename(TRV_SRCDIR, "..", "shared", "data", "jssp", "instances", NULL);
  char *ft10 = g_build_filename(shipped, "ft10", NULL);
  char *largest_shipped = largest_in(shipped, TRUE), *largest_shared = largest_in(shared, FALSE);
  printf("SimGrid job shop, %d simulations per instance (one process each; rules in turn)\n\n"
         "| instance | jobs x machines | operations | simulated ops/s (simgrid_run) | ops/s end to end (fork, "
         "init, platform) | ms per simulation | list scheduler ops/s |\n|---|---|---|---|---|---|---|\n",
         repeat);
  int rc = bench_one(ft10, repeat);
  if (rc == 0 && largest_shipped && strcmp(largest_shipped, ft10)) rc = bench_one(largest_shipped, repeat);
  if (rc == 0 && largest_shared) rc = bench_one(largest_shared, repeat);
  g_free(shipped);
  g_free(shared);
  g_free(ft10);
  g_free(largest_shipped);
  g_free(largest_shared);
  return rc;
}

int trv_cmd_jssp(int argc, char **argv) {
  if (argc < 2)
    return refuse(NULL, "expected a subcommand: platform, run, stream, confounded or bench (trivium jssp --help)");
  const char *sub = argv[1];
  int rc;
  if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
    usage(stdout);
    rc = 0;
  } else if (!strcmp(sub, "platform"))
    rc = cmd_platform(argc - 1, argv + 1);
  else if (!strcmp(sub, "run"))
    rc = cmd_run(argc - 1, argv + 1);
  else if (!strcmp(sub, "stream"))
    rc = cmd_stream(argc - 1, argv + 1);
  else if (!strcmp(sub, "confounded"))
    rc = cmd_confounded(argc - 1, argv + 1);
  else if (!strcmp(sub, "bench"))
    rc = cmd_bench(argc - 1, argv + 1);
  else
    return refuse(NULL, "unknown subcommand '%s'; expected platform, run, stream, confounded or bench", sub);
  /* The tables and makespans are the output: losing them (a full disk, a
   * closed pipe) is a failed run, not a success. */
  if (fflush(stdout) != 0 || ferror(stdout)) {
    char *message = g_strdup_printf("cannot write the standard output (%s)", g_strerror(errno));
    print_line(NULL, message);
    g_free(message);
    if (rc == 0) rc = 1;
  }
  return rc;
}
