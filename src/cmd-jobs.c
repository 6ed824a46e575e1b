/* cmd-jobs.c - a run that outgrows one machine: `trivium run --emit
 * parallel|slurm -o OUT` writes the run as a job list instead of running
 * it, and `trivium merge OUT` joins what the jobs left.
 *
 * OUT/jobs.txt has one shell command line per job, each running a range of
 * the run's cells (`trivium run ... -o OUT --cells FIRST-LAST`) from the
 * directory the run was launched from, so that GNU parallel (also with
 * --sshlogin on machines sharing the file system) runs it as it is.
 * OUT/jobs.json records that directory and the command line for the merge.
 * With slurm, OUT/slurm/ also holds array.sbatch (task i runs line i+1 of
 * jobs.txt), merge.sbatch and submit.sh, which submits the array and the
 * merge as a job that depends on every task's success.  A job skips the
 * cells already complete, so a job list submitted again resumes; the merge
 * refuses while a cell is missing and produces the very files a local
 * `trivium run` of the same command produces.  A local run writes the same
 * manifest, so that `trivium report DIR` (the merge under another name)
 * writes the tables and figures of any run directory again from its
 * cells.  A program's run directory (trivium_results_write_dir: a
 * run.json, no jobs.json) is reported from its run.json
 * (program-report.c). */
#include <config.h>

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "jobs-file.h"
#include "program-report.h"
#include "program-merge.h"
#include "figure-draw.h"
#include "run.h"

/* The program that runs the jobs: this executable, or in a build tree
 * (libtool puts the real program under .libs/) the wrapper next to it. */
static char *program_path(void) {
  char *exe = g_file_read_link("/proc/self/exe", NULL);
  if (!exe) return g_strdup("trivium");
  char *dir = g_path_get_dirname(exe), *base = g_path_get_basename(exe);
  if (g_str_has_suffix(dir, "/.libs")) {
    char *up = g_path_get_dirname(dir);
    char *wrapper = g_build_filename(up, g_str_has_prefix(base, "lt-") ? base + 3 : base, NULL);
    if (g_file_test(wrapper, G_FILE_TEST_IS_EXECUTABLE)) {
      g_free(exe);
      exe = g_steal_pointer(&wrapper);
    }
    g_free(wrapper);
    g_free(up);
  }
  g_free(dir);
  g_free(base);
  return exe;
}

/* The run's command line without what concerns one invocation only: where
 * the outputs go, how many cells at once, quietness, --fresh, --emit,
 * --chunk, --cells (and with drop_ctl --ctl: a merge writes no log). */
static char **run_command(int argc, char **argv, bool drop_ctl) {
  static const char *const dropped_value[] = {"-o", "--out", "-j", "--jobs", "--emit", "--chunk", "--cells", NULL};
  static const char *const kept_value[] = {"-c",           "--controllers", "-s",    "--set",           "-e",
                                           "--experiment", "--platform",    "-r",    "--role",          "-f",
                                           "--fault",      "--sweep",       "--ctl", "--replay-config", NULL};
  GStrvBuilder *b = g_strv_builder_new();
  g_strv_builder_add(b, "run");
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool is_ctl = !strcmp(a, "--ctl") || g_str_has_prefix(a, "--ctl=");
    if (g_strv_contains(dropped_value, a) || (drop_ctl && !strcmp(a, "--ctl"))) {
      i++; /* and its value */
      continue;
    }
    if (!strcmp(a, "-q") || !strcmp(a, "--quiet") || !strcmp(a, "--fresh") || (drop_ctl && is_ctl)) continue;
    bool drop = false;
    for (int k = 0; dropped_value[k] && !drop; k++) {
      size_t n = strlen(dropped_value[k]);
      if (dropped_value[k][1] == '-')
        drop = !strncmp(a, dropped_value[k], n) && a[n] == '=';
      else
        drop = !strncmp(a, dropped_value[k], 2) && a[2]; /* -oDIR, -j2 */
    }
    if (drop) continue;
    g_strv_builder_add(b, a);
    if (g_strv_contains(kept_value, a) && i + 1 < argc) g_strv_builder_add(b, argv[++i]);
  }
  char **v = g_strv_builder_end(b);
  g_strv_builder_unref(b);
  return v;
}

static char *quoted_command(const char *program, char **command) {
  GString *s = g_string_new(NULL);
  char *q = g_shell_quote(program);
  g_string_append(s, q);
  g_free(q);
  for (int i = 0; command[i]; i++) {
    q = g_shell_quote(command[i]);
    g_string_append_printf(s, " %s", q);
    g_free(q);
  }
  return g_string_free(s, FALSE);
}

/* A Slurm job name: the experiment's letters, digits, '.', '-' and '_',
 * anything else as '_' (an #SBATCH line ends at a newline, and the name
 * reaches Slurm's own parsing). */
static char *job_name(const char *experiment) {
  char *name = g_strdup_printf("trivium-%s", experiment);
  for (char *p = name; *p; p++)
    if (!g_ascii_isalnum(*p) && *p != '.' && *p != '-' && *p != '_') *p = '_';
  return name;
}

bool trv_write_run_manifest(RunCtx *ctx, int argc, char **argv, GError **error) {
  long cells = 0;
  if (trv_run_points(ctx, argc, argv, NULL, NULL, &cells, error)) return false;
  char *out = g_canonicalize_filename(ctx->out, NULL), *cwd = g_get_current_dir(), *program = program_path();
  char **command = run_command(argc, argv, false);
  char *json = g_build_filename(out, "jobs.json", NULL);
  bool ok = trv_jobs_file_write(json, cwd, program, command, cells, 0, 0, error);
  g_free(json);
  g_strfreev(command);
  g_free(out), g_free(cwd), g_free(program);
  return ok;
}

/* The first of the job lines' words that holds a line break (NULL: none):
 * jobs.txt is one command per line (GNU parallel and the Slurm array read
 * it line by line), so such a word cannot be in a job list. */
static const char *line_break(const char *const *words, char **command) {
  for (int i = 0; words[i]; i++)
    if (strpbrk(words[i], "\n\r")) return words[i];
  for (int i = 0; command[i]; i++)
    if (strpbrk(command[i], "\n\r")) return command[i];
  return NULL;
}

int trv_emit_jobs(RunCtx *ctx, int argc, char **argv, GError **error) {
  long cells = 0;
  int code = trv_run_points(ctx, argc, argv, NULL, NULL, &cells, error);
  if (code) return code;
  /* a Slurm array holds 1,001 tasks by default (MaxArraySize): past 1,000
   * jobs, several cells per job */
  long chunk = ctx->chunk > 0 ? ctx->chunk : cells > 1000 ? (cells + 999) / 1000 : 1;
  long jobs = (cells + chunk - 1) / chunk;
  char *out = g_canonicalize_filename(ctx->out, NULL), *cwd = g_get_current_dir(), *program = program_path();
  char **command = run_command(argc, argv, false);
  const char *words[] = {cwd, out, program, NULL}, *broken = line_break(words, command);
  if (broken) {
    char *shown = g_strescape(broken, NULL);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "--emit: \"%s\" holds a line break; a job list has one command per "
                "line (rename it, or run without --emit)",
                shown);
    g_free(shown);
    g_strfreev(command);
    g_free(out), g_free(cwd), g_free(program);
    return 2;
  }
  char *cmdline = quoted_command(program, command), *qcwd = g_shell_quote(cwd), *qout = g_shell_quote(out);
  GString *list = g_string_new(NULL);
  for (long j = 0; j < jobs; j++) {
    long first = j * chunk, last = MIN(cells, first + chunk) - 1;
    g_string_append_printf(list, "cd %s && %s -o %s -j 1 -q --cells %ld-%ld\n", qcwd, cmdline, qout, first, last);
  }
  char *txt = g_build_filename(out, "jobs.txt", NULL), *json = g_build_filename(out, "jobs.json", NULL);
  bool ok = trv_write_file_atomic(txt, list->str, (gssize)list->len, error) &&
            trv_jobs_file_write(json, cwd, program, command, cells, (int)chunk, jobs, error);
  char *slurm = g_build_filename(out, "slurm", NULL);
  if (ok && !strcmp(ctx->emit, "slurm")) {
    char *qprog = g_shell_quote(program), *qtxt = g_shell_quote(txt), *qslurm = g_shell_quote(slurm);
    char *name = job_name(ctx->experiment);
    char *array = g_strdup_printf(
        "#!/bin/sh\n"
        "# The cells of a Trivium run as a Slurm job array: task i runs line i+1\n"
        "# of jobs.txt (%ld cell%s each); cells already complete are skipped.\n"
        "# Submit with submit.sh (next to this file), which also submits the merge.\n"
        "#SBATCH --job-name=%s\n"
        "#SBATCH --array=0-%ld\n"
        "#SBATCH --ntasks=1\n"
        "#SBATCH --cpus-per-task=1\n"
        "#SBATCH --output=cells-%%A_%%a.out\n"
        "set -eu\n"
        "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" %s)\n"
        "[ -n \"$line\" ] || { echo \"array.sbatch: no line $((SLURM_ARRAY_TASK_ID + 1)) in \"%s >&2; exit 2; }\n"
        "exec sh -c \"$line\"\n",
        chunk, chunk == 1 ? "" : "s", name, jobs - 1, qtxt, qtxt);
    char *merge = g_strdup_printf("#!/bin/sh\n"
                                  "# Joins the cells of the run once every task of the array has succeeded.\n"
                                  "#SBATCH --job-name=%s-merge\n"
                                  "#SBATCH --ntasks=1\n"
                                  "#SBATCH --output=merge-%%j.out\n"
                                  "exec %s merge -q %s\n",
                                  name, qprog, qout);
    char *submit = g_strdup_printf(
        "#!/bin/sh\n"
        "# Submits the array of cells and the merge that waits for all of them.\n"
        "set -eu\n"
        "cd %s\n"
        "array=$(sbatch --parsable array.sbatch)\n"
        "array=${array%%%%;*}\n"
        "merge=$(sbatch --parsable --dependency=afterok:\"$array\" --kill-on-invalid-dep=yes merge.sbatch)\n"
        "echo \"array job $array, merge job ${merge%%%%;*}\"\n",
        qslurm);
    char *pa = g_build_filename(slurm, "array.sbatch", NULL), *pm = g_build_filename(slurm, "merge.sbatch", NULL),
         *ps = g_build_filename(slurm, "submit.sh", NULL);
    ok = trv_out_dir(slurm, false, error) && trv_out_write(pa, array, -1, 0755, error) &&
         trv_out_write(pm, merge, -1, 0755, error) && trv_out_write(ps, submit, -1, 0755, error);
    g_free(pa), g_free(pm), g_free(ps), g_free(array), g_free(merge), g_free(submit), g_free(name);
    g_free(qprog), g_free(qtxt), g_free(qslurm);
  }
  if (ok) {
    printf("trivium: %s: %ld cells in %ld jobs (%ld cell%s per job) -> %s\n", ctx->experiment, cells, jobs, chunk,
           chunk == 1 ? "" : "s", txt);
    if (!strcmp(ctx->emit, "slurm"))
      printf("  submit:  sh %s/submit.sh   (the array, then `trivium merge` once every task succeeded)\n", slurm);
    else
      printf("  run:     parallel --will-cite [--sshlogin HOSTS] < %s\n  then:    %s merge %s\n", txt, program, out);
    printf("Jobs skip cells already complete: submitting again resumes.\n");
  }
  g_free(slurm);
  g_free(txt);
  g_free(json);
  g_string_free(list, TRUE);
  g_free(cmdline), g_free(qcwd), g_free(qout);
  g_strfreev(command);
  g_free(out), g_free(cwd), g_free(program);
  return ok ? 0 : 1;
}

/* merge, report and status: the run rebuilt from DIR/jobs.json, then its
 * cells merged (merge, report) or counted (status). */
static int merge_or_report(int argc, char **argv, bool report, bool status) {
  gboolean quiet = FALSE;
  char *figures = NULL;
  GOptionEntry entries[] = {
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, status ? "only the exit code" : "no table", NULL},
      {"figures", 0, 0, G_OPTION_ARG_STRING, &figures,
       "what gnuplot draws: none (data and scripts only), svg, png or all (default)", "none|svg|png|all"},
      {NULL}};
  GOptionContext *oc = g_option_context_new(
      status   ? "DIR - each point's cells complete, running and missing, of a run or a job list in DIR"
      : report ? "DIR - write the tables and figures of the run in DIR again, from its cells"
               : "DIR - join the cells a job list left in DIR (trivium run --emit)\n"
                 "  trivium merge OUT DIR... - join the run directories of a program's processes into OUT");
  g_option_context_add_main_entries(oc, entries, NULL);
  GError *err = NULL;
  bool ok = g_option_context_parse(oc, &argc, &argv, &err);
  g_option_context_free(oc);
  TrvFigFormats formats = TRV_FIG_ALL;
  if (ok && figures) ok = trv_fig_formats_parse(figures, &formats, &err);
  trv_fig_formats_set(formats);
  if (ok && !report && !status && argc > 2) { /* OUT DIR...: the run directories of a program's processes */
    int code = trv_program_merge(argv[1], argv + 2, argc - 2, quiet, &err);
    if (code)
      fprintf(stderr, "trivium: %s\n", err->message);
    else if (!quiet)
      printf("\nOutputs: %s/\n", argv[1]);
    g_clear_error(&err);
    g_free(figures);
    return code;
  }
  if (ok && argc != 2)
    g_set_error(&err, TRV_ERROR, TRV_ERROR_INPUT, "%s: expected one directory, the -o of a run",
                status   ? "status"
                : report ? "report"
                         : "merge"),
        ok = false;
  RunCtx ctx = {0};
  TrvJobsFile jf = {0};
  char *dir = ok ? g_canonicalize_filename(argv[1], NULL) : NULL;
  if (ok && report && trv_is_program_dir(dir)) { /* a program's (trivium_results_write_dir) */
    int code = trv_program_report(dir, quiet, &err);
    if (code)
      fprintf(stderr, "trivium: %s\n", err->message);
    else if (!quiet)
      printf("\nOutputs: %s/\n", dir);
    g_clear_error(&err);
    g_free(dir);
    g_free(figures);
    return code;
  }
  if (ok) {
    char *json = g_build_filename(dir, "jobs.json", NULL);
    ok = trv_jobs_file_load(json, &jf, &err);
    g_free(json);
  }
  if (ok && g_chdir(jf.directory) != 0) {
    g_set_error(&err, TRV_ERROR, TRV_ERROR_INPUT, "%s/jobs.json: the run's directory %s: %s", dir, jf.directory,
                g_strerror(errno));
    ok = false;
  }
  char **command = ok ? run_command((int)g_strv_length(jf.command), jf.command, true) : NULL;
  if (command && quiet) { /* the run's own notices follow the merge's -q */
    guint n = g_strv_length(command);
    command = g_renew(char *, command, n + 2);
    command[n] = g_strdup("-q");
    command[n + 1] = NULL;
  }
  if (command && figures) { /* the merge's --figures over the run's (the last one given counts) */
    guint n = g_strv_length(command);
    command = g_renew(char *, command, n + 2);
    command[n] = g_strdup_printf("--figures=%s", figures);
    command[n + 1] = NULL;
  }
  ctx.no_simgrid = true;
  if (ok && !trv_run_parse_args(&ctx, (int)g_strv_length(command), command, false, &err)) {
    g_prefix_error(&err, "%s/jobs.json: its command line: ", dir); /* the arguments came from the file */
    ok = false;
  }
  long cells = 0;
  int code = ok ? 0 : 2;
  if (ok) {
    g_free(ctx.out);
    ctx.out = g_strdup(dir); /* where the merge writes is the directory given, whatever the file says */
    ctx.quiet = quiet;
    code = trv_run_points(&ctx, (int)g_strv_length(command), command, NULL, NULL, &cells, &err);
    if (code == 0 && cells != jf.cells) {
      g_set_error(&err, TRV_ERROR, TRV_ERROR_INPUT,
                  "%s/jobs.json: the job list has %ld cells, the run now has %ld "
                  "(its scenario changed?)",
                  dir, jf.cells, cells);
      code = 2;
    }
  }
  if (code == 0 && status) {
    ctx.mode = TRV_RUN_STATUS;
    TrvRunTotals totals = {0};
    code = trv_run_points(&ctx, (int)g_strv_length(command), command, NULL, &totals, NULL, &err);
    if (code == 0 && !quiet)
      printf("%s: %s (%ld complete, %ld running, %ld missing of %ld cells)\n", dir,
             totals.missing + totals.running == 0 ? "complete"
             : totals.running                     ? "running"
                                                  : "incomplete",
             totals.complete, totals.running, totals.missing, cells);
    if (code == 0 && totals.missing + totals.running > 0) code = 1; /* no message: the lines above say it */
  } else if (code == 0) {
    ctx.mode = TRV_RUN_MERGE;
    TrvRunTotals totals = {0};
    code = trv_run_points(&ctx, (int)g_strv_length(command), command, quiet ? NULL : stdout, &totals, NULL, &err);
    if (code == 0 && !quiet) printf("\nOutputs: %s/\n", dir);
  }
  if (code && err) {
    fprintf(stderr, "trivium: %s\n", err->message);
    g_error_free(err);
  }
  trv_run_ctx_free(&ctx);
  trv_jobs_file_clear(&jf);
  g_strfreev(command);
  g_free(dir);
  g_free(figures);
  return code;
}

int trv_cmd_merge(int argc, char **argv) { return merge_or_report(argc, argv, false, false); }
int trv_cmd_report(int argc, char **argv) { return merge_or_report(argc, argv, true, false); }
int trv_cmd_status(int argc, char **argv) { return merge_or_report(argc, argv, false, true); }
