/* The job shop in SimGrid agrees with the plain-C list scheduler: for every
 * benchmark instance in ../shared/data/jssp (skipped when absent) and for
 * seeded random instances with zero durations, under every rule, the
 * simulated makespan equals the list scheduler's (relative difference
 * < 1e-9), so does every start time, the simulated schedule is feasible,
 * and no makespan beats the known optimum or lower bound of
 * instances.json.  The dispatcher, run under a memory checker (ASan or
 * valgrind) on completions that coincide, reads no freed report.  Also: a
 * platform whose messages cost time is caught, a platform lacking a
 * machine is an input error, and the `trivium jssp` command reports
 * malformed instances as file:line with exit code 2.
 * SimGrid initialises once per process: one child per simulation. */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "jssp/jssp-sim.h"
#include "jssp/jssp.h"

static char *tmp_root;
static const char *self_path; /* argv[0], to run this program again under a checker */

/* Three jobs start on three machines at t = 0 and all end at t = 2, and
 * again at 3 and 4: every event time brings the dispatcher three reports. */
static const char *simultaneous = "3 3\n0 2 1 1 2 1\n1 2 2 1 0 1\n2 2 0 1 1 1\n";
#define IN_PROCESS_ENV "TRV_TEST_JSSP_IN_PROCESS"

/* The child's side of simultaneous_completions_touch_no_freed_memory: one
 * simulation in this process (no fork, so that a memory checker wrapping
 * this process sees the dispatcher), compared with the list scheduler.
 * Returns the exit code: 0 when the two agree. */
static int simulate_in_process(const char *dir) {
  GError *err = NULL;
  TrvJsspInstance *inst = trv_jssp_instance_parse(simultaneous, -1, "simultaneous", &err);
  g_assert_no_error(err);
  g_assert_true(trv_jssp_write_platform(inst, dir, FALSE, &err));
  char *platform = g_build_filename(dir, "platform.xml", NULL);
  TrvJsspSchedule *sim = trv_jssp_schedule_new(inst), *list = trv_jssp_list_schedule(inst, TRV_JSSP_FIFO);
  int rc = 0;
  if (!trv_jssp_sim_run(inst, platform, TRV_JSSP_FIFO, 0, NULL, sim, NULL, &err)) {
    fprintf(stderr, "%s\n", err->message);
    g_clear_error(&err);
    rc = 1;
  } else {
    for (int i = 0; i < sim->n; i++)
      if (sim->start[i] != list->start[i]) rc = 1;
    if (sim->makespan != 4 || list->makespan != 4) rc = 1;
  }
  trv_jssp_schedule_free(sim);
  trv_jssp_schedule_free(list);
  g_free(platform);
  trv_jssp_instance_free(inst);
  return rc;
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* The dispatcher releases the completions of one event time in machine
 * index order; each report must be read once and freed once.  A report
 * read after being freed usually still holds its values, so no equality
 * test can see it: this runs the simulation under a memory checker,
 * AddressSanitizer when the build has it, otherwise valgrind (skipped
 * when valgrind is not installed). */
static void simultaneous_completions_touch_no_freed_memory(void) {
  char *dir = g_build_filename(tmp_root, "simultaneous", NULL);
  GPtrArray *argv = g_ptr_array_new();
#ifndef UNDER_ASAN
  char *valgrind = g_find_program_in_path("valgrind");
  if (!valgrind) {
    g_test_skip("valgrind is not installed (an ASan build runs this check without it)");
    g_ptr_array_free(argv, TRUE);
    g_free(dir);
    return;
  }
  g_ptr_array_add(argv, valgrind);
  g_ptr_array_add(argv, (char *)"-q");
  g_ptr_array_add(argv, (char *)"--error-exitcode=97");
#endif
  g_ptr_array_add(argv, (char *)self_path);
  g_ptr_array_add(argv, NULL);
  char **env = g_environ_setenv(g_get_environ(), IN_PROCESS_ENV, dir, TRUE);
  char *out = NULL, *err_text = NULL;
  int status;
  GError *err = NULL;
  g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, env, 0, NULL, NULL, &out, &err_text, &status, &err));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    g_error("in-process simulation under a memory checker failed (status %d):\n%s", status, err_text);
#ifndef UNDER_ASAN
  g_free(valgrind);
#endif
  g_strfreev(env);
  g_free(out);
  g_free(err_text);
  g_ptr_array_free(argv, TRUE);
  g_free(dir);
}

/* Simulates inst under every rule and checks against the list scheduler;
 * returns the smallest makespan over the rules. */
static double agree_on_every_rule(const TrvJsspInstance *inst) {
  char *dir = g_build_filename(tmp_root, inst->name, NULL);
  GError *err = NULL;
  g_assert_true(trv_jssp_write_platform(inst, dir, FALSE, &err));
  char *platform = g_build_filename(dir, "platform.xml", NULL);
  double best = INFINITY;
  for (int r = 0; r < TRV_JSSP_N_RULES; r++) {
    TrvJsspSchedule *sim = trv_jssp_schedule_new(inst), *list = trv_jssp_list_schedule(inst, (TrvJsspRule)r);
    TrvJsspSimStats st;
    if (!trv_jssp_sim_run_forked(inst, platform, (TrvJsspRule)r, 0, NULL, sim, &st, &err))
      g_error("%s %s: %s", inst->name, trv_jssp_rule_name(r), err->message);
    if (!trv_jssp_schedule_check(inst, sim, &err))
      g_error("%s %s: %s", inst->name, trv_jssp_rule_name(r), err->message);
    if (!(fabs(sim->makespan - list->makespan) < 1e-9 * list->makespan))
      g_error("%s %s: SimGrid makespan %.17g, list scheduler %.17g", inst->name, trv_jssp_rule_name(r), sim->makespan,
              list->makespan);
    for (int i = 0; i < sim->n; i++)
      if (sim->start[i] != list->start[i])
        g_error("%s %s: op %d starts at %.17g in SimGrid, %.17g in the list scheduler", inst->name,
                trv_jssp_rule_name(r), i, sim->start[i], list->start[i]);
    g_assert_cmpint(st.messages, ==, 2 * sim->n);
    best = fmin(best, sim->makespan);
    trv_jssp_schedule_free(sim);
    trv_jssp_schedule_free(list);
  }
  g_free(platform);
  g_free(dir);
  return best;
}

static void random_instances_agree(void) {
  for (guint64 seed = 1; seed <= 6; seed++) {
    TrvJsspInstance *inst = trv_jssp_instance_random(3 + (int)seed, 2 + (int)(seed % 4), 6, seed);
    agree_on_every_rule(inst);
    trv_jssp_instance_free(inst);
  }
}

static void benchmark_instances_agree_and_respect_bounds(void) {
  char *json = g_build_filename(JSSP_SHARED_DIR, "instances.json", NULL);
  if (!g_file_test(json, G_FILE_TEST_EXISTS)) {
    g_test_skip("no ../shared/data/jssp/instances.json next to the source tree");
    g_free(json);
    return;
  }
  JsonParser *parser = json_parser_new();
  GError *err = NULL;
  g_assert_true(json_parser_load_from_file(parser, json, &err));
  JsonArray *all = json_node_get_array(json_parser_get_root(parser));
  guint n = json_array_get_length(all), tested = 0;
  for (guint i = 0; i < n; i++) {
    JsonObject *o = json_array_get_object_element(all, i);
    const char *rel = json_object_get_string_member(o, "path");
    double bound;
    JsonNode *opt = json_object_get_member(o, "optimum");
    if (opt && !json_node_is_null(opt))
      bound = json_node_get_double(opt);
    else
      bound = json_object_get_double_member(json_object_get_object_member(o, "bounds"), "lower");
    char *path = g_build_filename(JSSP_SHARED_DIR, rel, NULL);
    TrvJsspInstance *inst = trv_jssp_instance_load(path, &err);
    if (!inst) g_error("%s", err->message);
    g_assert_cmpint(inst->n_jobs, ==, json_object_get_int_member(o, "jobs"));
    g_assert_cmpint(inst->n_machines, ==, json_object_get_int_member(o, "machines"));
    double best = agree_on_every_rule(inst);
    if (!(best >= bound)) g_error("%s: makespan %g beats the known bound %g", inst->name, best, bound);
    if (!strcmp(inst->name, "ft06")) g_assert_cmpfloat(bound, ==, 55);
    tested++;
    trv_jssp_instance_free(inst);
    g_free(path);
  }
  g_assert_cmpuint(tested, ==, n);
  g_assert_cmpuint(tested, >=, 58);
  g_object_unref(parser);
  g_free(json);
}

/* With a link latency the dispatcher's messages cost simulated time; the
 * run must fail loudly rather than report a makespan that is not the
 * schedule's. */
static void costly_messages_are_a_run_error(void) {
  TrvJsspInstance *inst = trv_jssp_instance_random(4, 3, 5, 99);
  char *dir = g_build_filename(tmp_root, "latency", NULL);
  GError *err = NULL;
  g_assert_true(trv_jssp_write_platform(inst, dir, FALSE, &err));
  char *platform = g_build_filename(dir, "platform.xml", NULL), *xml;
  g_assert_true(g_file_get_contents(platform, &xml, NULL, NULL));
  GString *s = g_string_new(xml);
  g_assert_cmpuint(g_string_replace(s, "latency=\"0\"", "latency=\"1ms\"", 0), ==, 3);
  g_assert_true(g_file_set_contents(platform, s->str, -1, NULL));
  TrvJsspSchedule *sim = trv_jssp_schedule_new(inst);
  g_assert_false(trv_jssp_sim_run_forked(inst, platform, TRV_JSSP_FIFO, 0, NULL, sim, NULL, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_IO);
  g_assert_nonnull(strstr(err->message, "messages must cost no simulated time"));
  g_clear_error(&err);
  /* The same platform for an instance with one machine more lacks m3. */
  TrvJsspInstance *wider = trv_jssp_instance_random(4, 4, 5, 99);
  TrvJsspSchedule *s4 = trv_jssp_schedule_new(wider);
  g_assert_false(trv_jssp_sim_run_forked(wider, platform, TRV_JSSP_FIFO, 0, NULL, s4, NULL, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "no host `m3`"));
  g_clear_error(&err);
  trv_jssp_schedule_free(s4);
  trv_jssp_instance_free(wider);
  trv_jssp_schedule_free(sim);
  g_string_free(s, TRUE);
  g_free(xml);
  g_free(platform);
  g_free(dir);
  trv_jssp_instance_free(inst);
}

static int run_trivium(const char *const *args, char **err_out, char **out) {
  GPtrArray *argv = g_ptr_array_new();
  g_ptr_array_add(argv, (char *)JSSP_TRIVIUM);
  for (int i = 0; args[i]; i++) g_ptr_array_add(argv, (char *)args[i]);
  g_ptr_array_add(argv, NULL);
  int status;
  GError *err = NULL;
  g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, NULL, 0, NULL, NULL, out, err_out, &status, &err));
  g_ptr_array_free(argv, TRUE);
  g_assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static void command_reports_malformed_instances_with_file_and_line(void) {
  const struct {
    const char *file;
    int line;
  } cases[] = {{"too-few-jobs.txt", 4},        {"too-many-jobs.txt", 5},     {"machine-out-of-range.txt", 4},
               {"negative-duration.txt", 3},   {"truncated-line.txt", 4},    {"non-integer.txt", 3},
               {"no-header.txt", 2},           {"duplicate-machine.txt", 4}, {"header-too-large.txt", 2},
               {"too-many-operations.txt", 2}, {"duration-too-large.txt", 4}};
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *path = g_build_filename(JSSP_TEST_DIR, cases[i].file, NULL);
    for (int sub = 0; sub < 2; sub++) {
      const char *args[] = {"jssp", sub ? "run" : "platform", path, "--out", tmp_root, NULL};
      if (sub) args[3] = NULL;
      char *err = NULL, *out = NULL;
      g_assert_cmpint(run_trivium(args, &err, &out), ==, 2);
      char *want = g_strdup_printf("trivium jssp: %s:%d: ", path, cases[i].line);
      if (!g_str_has_prefix(err, want)) g_error("stderr '%s' does not start with '%s'", err, want);
      g_free(want);
      g_free(err);
      g_free(out);
    }
    g_free(path);
  }
}

/* The command end to end: platform, then run from the platform directory,
 * with the schedule CSV written and the makespan printed. */
static void command_platform_then_run(void) {
  char *inst_path = g_build_filename(JSSP_TEST_DIR, "valid-with-text.txt", NULL);
  const char *pargs[] = {"jssp", "platform", inst_path, "--out", tmp_root, NULL};
  char *err = NULL, *out = NULL;
  g_assert_cmpint(run_trivium(pargs, &err, &out), ==, 0);
  g_free(err);
  g_free(out);
  char *dir = g_build_filename(tmp_root, "valid-with-text.txt", NULL);
  char *csv = g_build_filename(tmp_root, "schedule.csv", NULL);
  const char *rargs[] = {"jssp", "run", dir, "--rule", "spt", "--schedule", csv, NULL};
  int rc = run_trivium(rargs, &err, &out);
  if (rc != 0) g_error("exit %d: %s", rc, err);
  /* J0: m0 1, m1 2; J1: m1 3, m0 4 -> SPT: m0 J0 0-1, m1 J1 0-3, J0 3-5, J1 m0 3-7 */
  g_assert_nonnull(strstr(out, "makespan 7 (SimGrid"));
  char *text;
  g_assert_true(g_file_get_contents(csv, &text, NULL, NULL));
  g_assert_cmpstr(text, ==, "job,op,machine,start,end\n0,0,0,0,1\n0,1,1,3,5\n1,0,1,0,3\n1,1,0,3,7\n");
  g_free(text);
  g_free(err);
  g_free(out);
  g_free(csv);
  g_free(dir);
  g_free(inst_path);
}

static void remove_tree(const char *path) {
  if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
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
  const char *in_process = g_getenv(IN_PROCESS_ENV);
  if (in_process) return simulate_in_process(in_process);
  self_path = argv[0];
  g_test_init(&argc, &argv, NULL);
  tmp_root = g_dir_make_tmp("test-jssp-XXXXXX", NULL);
  g_assert_nonnull(tmp_root);
  g_test_add_func("/jssp/sim/random_instances_agree_with_the_list_scheduler", random_instances_agree);
  g_test_add_func("/jssp/sim/benchmark_instances_agree_and_respect_bounds",
                  benchmark_instances_agree_and_respect_bounds);
  g_test_add_func("/jssp/sim/costly_messages_are_a_run_error", costly_messages_are_a_run_error);
  g_test_add_func("/jssp/sim/simultaneous_completions_touch_no_freed_memory",
                  simultaneous_completions_touch_no_freed_memory);
  g_test_add_func("/jssp/cli/malformed_instances_give_file_line_and_exit_2",
                  command_reports_malformed_instances_with_file_and_line);
  g_test_add_func("/jssp/cli/platform_then_run", command_platform_then_run);
  int rc = g_test_run();
  remove_tree(tmp_root);
  g_free(tmp_root);
  return rc;
}
