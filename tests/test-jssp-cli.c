/* `trivium jssp ...` as a user meets it: every refusal is one line on
 * stderr and exit code 2, before anything is simulated or written; the
 * writers keep to their rule (a file that is not trivium jssp output is
 * replaced only with --force); a relative --schedule path works under
 * every rule.  Runs the built program (JSSP_TRIVIUM) in a temporary
 * directory. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "jssp/jssp.h"

static char *tmp_root;

/* Runs trivium with args in cwd (NULL: the test's own); returns its exit
 * code and its stdout/stderr (g_free). */
static int run_trivium_in(const char *cwd, const char *const *args, char **out, char **err_text) {
  GPtrArray *argv = g_ptr_array_new();
  g_ptr_array_add(argv, (char *)JSSP_TRIVIUM);
  for (int i = 0; args[i]; i++) g_ptr_array_add(argv, (char *)args[i]);
  g_ptr_array_add(argv, NULL);
  int status;
  GError *err = NULL;
  g_assert_true(g_spawn_sync(cwd, (char **)argv->pdata, NULL, 0, NULL, NULL, out, err_text, &status, &err));
  g_ptr_array_free(argv, TRUE);
  g_assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

/* The command refuses with exit 2 and exactly one line on stderr that
 * starts with "trivium jssp" and contains `says`; nothing on stdout. */
static void expect_refusal_in(const char *cwd, const char *const *args, const char *says) {
  char *out = NULL, *err = NULL;
  int rc = run_trivium_in(cwd, args, &out, &err);
  GString *cmd = g_string_new(NULL);
  for (int i = 0; args[i]; i++) g_string_append_printf(cmd, " %s", args[i]);
  if (rc != 2) g_error("trivium%s: exit %d, expected 2; stderr: %s", cmd->str, rc, err);
  const char *nl = strchr(err, '\n');
  if (!g_str_has_prefix(err, "trivium jssp") || !nl || nl[1] != '\0')
    g_error("trivium%s: stderr is not one line starting with 'trivium jssp': '%s'", cmd->str, err);
  if (!strstr(err, says)) g_error("trivium%s: stderr '%s' lacks '%s'", cmd->str, err, says);
  if (*out) g_error("trivium%s: refused but printed '%s'", cmd->str, out);
  g_string_free(cmd, TRUE);
  g_free(out);
  g_free(err);
}

static void expect_refusal(const char *const *args, const char *says) { expect_refusal_in(NULL, args, says); }

static char *slurp(const char *path) {
  char *text = NULL;
  g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
  return text;
}

/* An instance file in the temporary directory (its base name is `name`). */
static char *write_instance(const char *name, const TrvJsspInstance *inst) {
  char *path = g_build_filename(tmp_root, name, NULL);
  GString *t = trv_jssp_jobs_text(inst);
  g_assert_true(g_file_set_contents(path, t->str, (gssize)t->len, NULL));
  g_string_free(t, TRUE);
  return path;
}

/* `platform` into a directory that holds someone else's platform.xml:
 * exit 2, the file untouched; with --force it is replaced. */
static void platform_refuses_foreign_files_unless_forced(void) {
  TrvJsspInstance *inst = trv_jssp_instance_random(3, 2, 9, 1);
  char *path = write_instance("shop.txt", inst);
  char *out = g_build_filename(tmp_root, "platforms", NULL), *dir = g_build_filename(out, "shop.txt", NULL);
  char *px = g_build_filename(dir, "platform.xml", NULL);
  g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
  g_assert_true(g_file_set_contents(px, "<mine/>\n", -1, NULL));
  const char *args[] = {"jssp", "platform", path, "--out", out, NULL};
  expect_refusal(args, "platform.xml: exists and was not written by trivium jssp");
  char *kept = slurp(px);
  g_assert_cmpstr(kept, ==, "<mine/>\n");
  const char *forced[] = {"jssp", "platform", path, "--out", out, "--force", NULL};
  char *o = NULL, *e = NULL;
  g_assert_cmpint(run_trivium_in(NULL, forced, &o, &e), ==, 0);
  char *xml = slurp(px);
  g_assert_true(g_str_has_prefix(xml, TRV_JSSP_PLATFORM_MARKER));
  g_free(xml);
  g_free(o);
  g_free(e);
  g_free(kept);
  g_free(px);
  g_free(dir);
  g_free(out);
  g_free(path);
  trv_jssp_instance_free(inst);
}

/* A --schedule path that cannot be written is refused before the
 * simulation (nothing on stdout), and a foreign file there is untouched. */
static void schedule_path_is_checked_before_simulating(void) {
  TrvJsspInstance *inst = trv_jssp_instance_random(3, 2, 9, 2);
  char *path = write_instance("sched.txt", inst);
  char *foreign = g_build_filename(tmp_root, "notes.csv", NULL);
  char *missing = g_build_filename(tmp_root, "no-such-dir", "s.csv", NULL);
  g_assert_true(g_file_set_contents(foreign, "my notes\n", -1, NULL));
  const char *onto_foreign[] = {"jssp", "run", path, "--schedule", foreign, NULL};
  expect_refusal(onto_foreign, "notes.csv: exists and was not written by trivium jssp");
  char *kept = slurp(foreign);
  g_assert_cmpstr(kept, ==, "my notes\n");
  const char *into_missing[] = {"jssp", "run", path, "--schedule", missing, NULL};
  expect_refusal(into_missing, "does not exist");
  const char *onto_dir[] = {"jssp", "run", path, "--schedule", tmp_root, NULL};
  expect_refusal(onto_dir, "is a directory");
  g_free(kept);
  g_free(missing);
  g_free(foreign);
  g_free(path);
  trv_jssp_instance_free(inst);
}

/* A 15 x 15 instance (the size of ta04) under every rule with a relative
 * --schedule path, run from the directory that holds it: exit 0, one CSV
 * row per operation, the largest end equal to the printed makespan and to
 * the list scheduler's. */
static void relative_schedule_path_under_every_rule(void) {
  TrvJsspInstance *inst = trv_jssp_instance_random(15, 15, 99, 4);
  char *path = write_instance("ta-like.txt", inst);
  for (int r = 0; r < TRV_JSSP_N_RULES; r++) {
    char *csv_name = g_strdup_printf("s-%s.csv", trv_jssp_rule_name(r));
    const char *args[] = {"jssp", "run", "ta-like.txt", "--rule", trv_jssp_rule_name(r), "--schedule", csv_name, NULL};
    char *out = NULL, *err = NULL;
    int rc = run_trivium_in(tmp_root, args, &out, &err);
    if (rc != 0) g_error("%s: exit %d: %s", trv_jssp_rule_name(r), rc, err);
    TrvJsspSchedule *list = trv_jssp_list_schedule(inst, (TrvJsspRule)r);
    char *want = g_strdup_printf("makespan %.17g (SimGrid", list->makespan);
    g_assert_nonnull(strstr(out, want));
    char *csv_path = g_build_filename(tmp_root, csv_name, NULL), *text = slurp(csv_path);
    char **rows = g_strsplit(text, "\n", -1);
    g_assert_cmpuint(g_strv_length(rows), ==, 1 + 225 + 1); /* header, rows, empty after the last newline */
    double last_end = 0;
    for (int i = 1; i <= 225; i++) {
      char **f = g_strsplit(rows[i], ",", -1);
      g_assert_cmpuint(g_strv_length(f), ==, 5);
      last_end = fmax(last_end, g_ascii_strtod(f[4], NULL));
      g_strfreev(f);
    }
    g_assert_cmpfloat(last_end, ==, list->makespan);
    g_strfreev(rows);
    g_free(text);
    g_free(csv_path);
    g_free(want);
    trv_jssp_schedule_free(list);
    g_free(out);
    g_free(err);
    g_free(csv_name);
  }
  g_free(path);
  trv_jssp_instance_free(inst);
}

/* The stream's and the confounded variant's --out DIR: a foreign file in
 * DIR is refused before the computation; --out naming a file is refused. */
static void csv_outputs_refuse_foreign_files(void) {
  char *out = g_build_filename(tmp_root, "stream-out", NULL);
  char *curves = g_build_filename(out, "stream-curves.csv", NULL),
       *conf = g_build_filename(out, "confounded-episodes.csv", NULL);
  g_assert_cmpint(g_mkdir_with_parents(out, 0755), ==, 0);
  g_assert_true(g_file_set_contents(curves, "a,b\n", -1, NULL));
  g_assert_true(g_file_set_contents(conf, "a,b\n", -1, NULL));
  const char *stream[] = {"jssp", "stream", "--seeds", "1", "--episodes", "2", "--out", out, NULL};
  expect_refusal(stream, "stream-curves.csv: exists and was not written by trivium jssp");
  char *ft06 = g_build_filename(JSSP_PLATFORM_DIR, "ft06", NULL);
  const char *confounded[] = {"jssp", "confounded", ft06, "--seeds", "1", "--episodes", "2", "--out", out, NULL};
  expect_refusal(confounded, "confounded-episodes.csv: exists and was not written by trivium jssp");
  const char *onto_file[] = {"jssp", "stream", "--seeds", "1", "--episodes", "2", "--out", curves, NULL};
  expect_refusal(onto_file, "exists and is not a directory");
  g_free(ft06);
  g_free(conf);
  g_free(curves);
  g_free(out);
}

/* Every bad value or argument of every subcommand: one line, exit 2,
 * nothing run.  Among them a seed x episode product of 10^10 doubles,
 * which must be refused before anything is allocated. */
static void bad_values_give_one_line_and_exit_2(void) {
  char *inst = g_build_filename(JSSP_TEST_DIR, "valid-with-text.txt", NULL);
  const struct {
    const char *args[12];
    const char *says;
  } cases[] = {
      {{"jssp", NULL}, "expected a subcommand"},
      {{"jssp", "nosuch", NULL}, "unknown subcommand 'nosuch'"},
      {{"jssp", "platform", NULL}, "expected one INSTANCE, got 0 arguments"},
      {{"jssp", "platform", inst, "extra", NULL}, "expected one INSTANCE, got 2 arguments"},
      {{"jssp", "platform", inst, "--out=", NULL}, "--out '': expected a directory name"},
      {{"jssp", "platform", inst, "--bogus", NULL}, "unknown option '--bogus'"},
      {{"jssp", "run", NULL}, "expected one INSTANCE or PLATFORM-DIR"},
      {{"jssp", "run", inst, "extra", NULL}, "unexpected argument 'extra'"},
      {{"jssp", "run", inst, "--rule", "edd", NULL}, "unknown rule 'edd'; expected fifo, spt, lpt or mwkr"},
      {{"jssp", "run", inst, "--rule", "", NULL}, "unknown rule ''"},
      {{"jssp", "run", inst, "--schedule=", NULL}, "--schedule '': expected a file name"},
      {{"jssp", "run", inst, "--schedule", NULL}, "Missing argument for --schedule"},
      {{"jssp", "run", inst, "--frobnicate", NULL}, "unknown option '--frobnicate'"},
      {{"jssp", "run", "a\nb", NULL}, "a\\x0ab: cannot read the instance"},
      {{"jssp", "stream", "--seeds", "0", NULL}, "--seeds 0: expected 1..10000"},
      {{"jssp", "stream", "--seeds", "x", NULL}, "Cannot parse integer value"},
      {{"jssp", "stream", "--seeds", "99999999999", NULL}, "out of range"},
      {{"jssp", "stream", "--episodes", "1", NULL}, "--episodes 1: expected 2..1000000"},
      {{"jssp", "stream", "--episodes", "2000000", "--seeds", "1", NULL}, "--episodes 2000000: expected 2..1000000"},
      {{"jssp", "stream", "--seeds", "10000", "--episodes", "1000000", NULL},
       "--seeds 10000 x --episodes 1000000 = 10000000000 seed-episodes; expected at most 1000000"},
      {{"jssp", "stream", "--first-seed", "-1", NULL}, "--first-seed -1: expected 0..2147483628"},
      {{"jssp", "stream", "--first-seed", "2147483647", "--seeds", "2", NULL}, "--first-seed 2147483647"},
      {{"jssp", "stream", "extra", NULL}, "unexpected argument 'extra'"},
      {{"jssp", "stream", "--out=", NULL}, "--out '': expected a directory name"},
      {{"jssp", "confounded", NULL}, "expected one INSTANCE or PLATFORM-DIR, got 0 arguments"},
      {{"jssp", "confounded", inst, "--seeds", "20000", NULL}, "--seeds 20000: expected 1..10000"},
      {{"jssp", "confounded", inst, "--episodes", "0", NULL}, "--episodes 0: expected 2..1000000"},
      {{"jssp", "bench", "--repeat", "0", NULL}, "--repeat 0: expected 1..10000"},
      {{"jssp", "bench", "extra", NULL}, "unexpected argument 'extra'"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) expect_refusal(cases[i].args, cases[i].says);
  g_free(inst);
}

/* SimGrid aborts the process on an option or a platform it refuses; the
 * command simulates in a child and reports that as one input error line
 * (exit 2) with SimGrid's reason, instead of dying with SIGABRT. */
static void simgrid_refusals_are_input_errors(void) {
  char *inst = g_build_filename(JSSP_TEST_DIR, "valid-with-text.txt", NULL);
  const char *bad_cfg[] = {"jssp", "run", inst, "--cfg=no/such-key:1", NULL};
  expect_refusal(bad_cfg, "SimGrid refused the options --cfg=no/such-key:1: ");
  const char *bad_model[] = {"jssp", "run", inst, "--cfg=network/model:nonexist", NULL};
  expect_refusal(bad_model, "Model 'nonexist' is invalid");
  const char *bad_log[] = {"jssp", "run", inst, "--log=no-such-control", NULL};
  expect_refusal(bad_log, "SimGrid refused the options --log=no-such-control: ");
  /* an option SimGrid takes but the shop refuses: its machines share counters */
  const char *parallel[] = {"jssp", "run", inst, "--cfg=contexts/nthreads:2", NULL};
  expect_refusal(parallel, "contexts/nthreads is 2: ");
  /* A platform directory whose platform.xml is not XML. */
  char *dir = g_build_filename(tmp_root, "broken-platform", NULL), *px = g_build_filename(dir, "platform.xml", NULL);
  const char *pargs[] = {"jssp", "platform", inst, "--out", tmp_root, NULL};
  char *o = NULL, *e = NULL;
  g_assert_cmpint(run_trivium_in(NULL, pargs, &o, &e), ==, 0);
  char *made = g_build_filename(tmp_root, "valid-with-text.txt", NULL);
  g_assert_cmpint(g_rename(made, dir), ==, 0);
  g_assert_true(g_file_set_contents(px, "<platform version=\"4.1\"><zone", -1, NULL));
  const char *broken[] = {"jssp", "run", dir, NULL};
  char *want = g_strdup_printf("%s: SimGrid refused the platform: ", px);
  expect_refusal(broken, want);
  g_free(o);
  g_free(e);
  /* A platform without a route to one machine: SimGrid would abort at the
   * first message to it, mid-run; the route is asked for before. */
  g_assert_cmpint(run_trivium_in(NULL, pargs, &o, &e), ==, 0); /* a fresh NAME directory: made was renamed */
  char *fresh = g_build_filename(made, "platform.xml", NULL), *xml = slurp(fresh);
  g_free(fresh);
  GString *no_route = g_string_new(xml);
  g_assert_cmpuint(
      g_string_replace(no_route, "<route src=\"dispatcher\" dst=\"m1\"><link_ctn id=\"l1\"/></route>", "", 0), ==, 1);
  g_assert_true(g_file_set_contents(px, no_route->str, -1, NULL));
  char *want_route = g_strdup_printf("%s: no route from host `dispatcher` to host `m1`", px);
  expect_refusal(broken, want_route);
  g_free(want_route);
  g_string_free(no_route, TRUE);
  g_free(xml);
  /* A FIFO in place of platform.xml is refused before SimGrid reads it. */
  g_unlink(px);
  g_assert_cmpint(mkfifo(px, 0600), ==, 0);
  expect_refusal(broken, "not a regular file; expected a SimGrid platform file");
  g_unlink(px);
  g_free(want);
  g_free(made);
  g_free(o);
  g_free(e);
  g_free(px);
  g_free(dir);
  g_free(inst);
}

/* The confounded variant on the smallest shops: one machine (fewer than
 * slow_max) and all durations zero (relative regret 0/0): both run and
 * print 0, not nan.  Instances beyond its size limits are refused with
 * exit 2. */
static void confounded_takes_small_shops_and_refuses_large_ones(void) {
  char *one = g_build_filename(tmp_root, "one-machine.txt", NULL),
       *zero = g_build_filename(tmp_root, "zeros.txt", NULL);
  g_assert_true(g_file_set_contents(one, "3 1\n0 4\n0 2\n0 5\n", -1, NULL));
  g_assert_true(g_file_set_contents(zero, "2 2\n0 0 1 0\n1 0 0 0\n", -1, NULL));
  const char *paths[] = {one, zero};
  for (size_t i = 0; i < G_N_ELEMENTS(paths); i++) {
    const char *args[] = {"jssp", "confounded", paths[i], "--seeds", "2", "--episodes", "5", NULL};
    char *out = NULL, *err = NULL;
    int rc = run_trivium_in(NULL, args, &out, &err);
    if (rc != 0) g_error("%s: exit %d: %s", paths[i], rc, err);
    g_assert_null(strstr(out, "nan"));
    g_assert_nonnull(strstr(out, "| trivium | 1.00 | 0.0 ± 0.0 | 0.00 ± 0.00 |"));
    g_free(out);
    g_free(err);
  }
  TrvJsspInstance *wide = trv_jssp_instance_random(2, 33, 9, 5), *long_ = trv_jssp_instance_random(200, 32, 9, 6);
  char *pw = write_instance("wide.txt", wide), *pl = write_instance("long.txt", long_);
  const char *too_wide[] = {"jssp", "confounded", pw, NULL};
  expect_refusal(too_wide, "33 machines; the confounded variant takes at most 32");
  const char *too_long[] = {"jssp", "confounded", pl, NULL};
  expect_refusal(too_long, "2116 plans x 6400 operations = 13542400 plan steps; the confounded variant keeps at most");
  g_free(pw);
  g_free(pl);
  trv_jssp_instance_free(wide);
  trv_jssp_instance_free(long_);
  g_free(one);
  g_free(zero);
}

/* SimGrid's own log reaches the user from the child process (here the note
 * a --cfg prints), and the run still succeeds. */
static void simgrid_log_is_passed_on(void) {
  char *inst = g_build_filename(JSSP_TEST_DIR, "valid-with-text.txt", NULL);
  const char *args[] = {"jssp", "run", inst, "--cfg=network/model:CM02", NULL};
  char *out = NULL, *err = NULL;
  int rc = run_trivium_in(NULL, args, &out, &err);
  if (rc != 0) g_error("exit %d: %s", rc, err);
  g_assert_nonnull(strstr(out, "makespan 7 (SimGrid"));
  g_assert_nonnull(strstr(err, "Configuration change: Set 'network/model' to 'CM02'"));
  g_free(out);
  g_free(err);
  g_free(inst);
}

/* Output that cannot be written (a full device) is a failed run: exit 1
 * and one line saying so, not a silent success. */
static void lost_standard_output_is_a_failure(void) {
  if (!g_file_test("/dev/full", G_FILE_TEST_EXISTS)) {
    g_test_skip("no /dev/full");
    return;
  }
  char *cmd = g_strdup_printf("'%s' jssp stream --seeds 1 --episodes 5 > /dev/full", JSSP_TRIVIUM);
  const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
  char *err = NULL;
  int status;
  g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL, NULL, &err, &status, NULL));
  g_assert_true(WIFEXITED(status));
  g_assert_cmpint(WEXITSTATUS(status), ==, 1);
  g_assert_true(g_str_has_prefix(err, "trivium jssp: cannot write the standard output ("));
  g_assert_true(strchr(err, '\n') == err + strlen(err) - 1); /* one line */
  g_free(err);
  g_free(cmd);
}

static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    GDir *d = g_dir_open(path, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
      char *child = g_build_filename(path, name, NULL);
      remove_tree(child);
      g_free(child);
    }
    if (d) g_dir_close(d);
    g_rmdir(path);
  } else
    g_unlink(path);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  tmp_root = g_dir_make_tmp("test-jssp-cli-XXXXXX", NULL);
  g_assert_nonnull(tmp_root);
  g_test_add_func("/jssp/cli/platform_refuses_foreign_files_unless_forced",
                  platform_refuses_foreign_files_unless_forced);
  g_test_add_func("/jssp/cli/schedule_path_is_checked_before_simulating", schedule_path_is_checked_before_simulating);
  g_test_add_func("/jssp/cli/relative_schedule_path_under_every_rule", relative_schedule_path_under_every_rule);
  g_test_add_func("/jssp/cli/csv_outputs_refuse_foreign_files", csv_outputs_refuse_foreign_files);
  g_test_add_func("/jssp/cli/bad_values_give_one_line_and_exit_2", bad_values_give_one_line_and_exit_2);
  g_test_add_func("/jssp/cli/simgrid_refusals_are_input_errors", simgrid_refusals_are_input_errors);
  g_test_add_func("/jssp/cli/confounded_takes_small_shops_and_refuses_large_ones",
                  confounded_takes_small_shops_and_refuses_large_ones);
  g_test_add_func("/jssp/cli/simgrid_log_is_passed_on", simgrid_log_is_passed_on);
  g_test_add_func("/jssp/cli/lost_standard_output_is_a_failure", lost_standard_output_is_a_failure);
  int rc = g_test_run();
  remove_tree(tmp_root);
  g_free(tmp_root);
  return rc;
}
