/* The job shop without the simulator: the OR-Library parser (every way a
 * file can be malformed, the limits at their edges, bytes that are not
 * text) and the loader's refusals, the list scheduler's dispatch semantics on
 * cases small enough to schedule by hand, the feasibility check, and the
 * confounded machine stream's two stand-alone reference controllers
 * (src/jssp-stream-ref.c). */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "jssp-stream-ref.h"
#include "jssp/jssp.h"

static TrvJsspInstance *parse_ok(const char *text) {
  GError *err = NULL;
  TrvJsspInstance *inst = trv_jssp_instance_parse(text, -1, "inline", &err);
  g_assert_no_error(err);
  g_assert_nonnull(inst);
  return inst;
}

static void parser_reads_header_comments_and_pairs(void) {
  char *path = g_build_filename(JSSP_TEST_DIR, "valid-with-text.txt", NULL);
  GError *err = NULL;
  TrvJsspInstance *inst = trv_jssp_instance_load(path, &err);
  g_assert_no_error(err);
  g_assert_cmpint(inst->n_jobs, ==, 2);
  g_assert_cmpint(inst->n_machines, ==, 2);
  const int machine[] = {0, 1, 1, 0}, duration[] = {1, 2, 3, 4};
  for (int i = 0; i < 4; i++) {
    g_assert_cmpint(inst->machine[i], ==, machine[i]);
    g_assert_cmpint(inst->duration[i], ==, duration[i]);
  }
  g_assert_cmpint(trv_jssp_instance_work(inst), ==, 10);
  g_assert_cmpstr(inst->name, ==, "valid-with-text.txt");
  trv_jssp_instance_free(inst);
  g_free(path);
}

/* Each malformed file names its own line and what was expected. */
static void check_malformed(const char *file, int line, const char *says) {
  char *path = g_build_filename(JSSP_TEST_DIR, file, NULL);
  GError *err = NULL;
  TrvJsspInstance *inst = trv_jssp_instance_load(path, &err);
  g_assert_null(inst);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  char *prefix = g_strdup_printf("%s:%d: ", path, line);
  if (!g_str_has_prefix(err->message, prefix) || !strstr(err->message, says))
    g_error("%s: message '%s' lacks '%s' or '%s'", file, err->message, prefix, says);
  g_free(prefix);
  g_error_free(err);
  g_free(path);
}

static void malformed_too_few_jobs(void) { check_malformed("too-few-jobs.txt", 4, "expected 3 job lines"); }
static void malformed_too_many_jobs(void) { check_malformed("too-many-jobs.txt", 5, "expected end of file"); }
static void malformed_machine_out_of_range(void) {
  check_malformed("machine-out-of-range.txt", 4, "machine index 2 of job 1 operation 1 out of range; expected 0..1");
}
static void malformed_negative_duration(void) { check_malformed("negative-duration.txt", 3, "negative duration -2"); }
static void malformed_truncated_line(void) { check_malformed("truncated-line.txt", 4, "truncated line"); }
static void malformed_non_integer(void) { check_malformed("non-integer.txt", 3, "expected an integer"); }
static void malformed_no_header(void) { check_malformed("no-header.txt", 2, "expected a line `jobs machines`"); }

static void malformed_duplicate_machine(void) {
  check_malformed("duplicate-machine.txt", 4,
                  "job 1 visits machine 1 twice (operations 0 and 1); expected every job to visit every machine "
                  "exactly once");
}
static void malformed_header_too_large(void) {
  check_malformed("header-too-large.txt", 2,
                  "header `jobs machines` is '100000 100000'; expected jobs in 1..10000 and machines in 1..1000");
}
static void malformed_too_many_operations(void) {
  check_malformed("too-many-operations.txt", 2,
                  "10000 jobs x 1000 machines = 10000000 operations; expected at most 1000000");
}
static void malformed_duration_too_large(void) {
  check_malformed("duration-too-large.txt", 4, "duration 100000001 of job 1 operation 1; expected at most 100000000");
}

static void expect_parse_error(const char *text, gssize len, const char *prefix, const char *says) {
  GError *err = NULL;
  g_assert_null(trv_jssp_instance_parse(text, len, "f", &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  if (!g_str_has_prefix(err->message, prefix) || !strstr(err->message, says))
    g_error("message '%s' lacks '%s' or '%s'", err->message, prefix, says);
  g_error_free(err);
}

/* The limits hold at their edges: the largest counts and duration pass,
 * one more is refused before any operation is allocated; an integer too
 * large for any type is quoted, not wrapped around. */
static void parser_enforces_the_limits_at_their_edges(void) {
  GError *err = NULL;
  TrvJsspInstance *inst = trv_jssp_instance_parse("1 1\n0 100000000\n", -1, "f", &err);
  g_assert_no_error(err);
  g_assert_cmpint(inst->duration[0], ==, TRV_JSSP_MAX_DURATION);
  trv_jssp_instance_free(inst);
  /* 1000 jobs x 1000 machines is at the operation limit: refused by its
   * missing job lines, not by its size. */
  expect_parse_error("1000 1000\n", -1, "f:1: ", "file ends after 0 job lines; expected 1000 job lines");
  expect_parse_error("10001 1\n", -1, "f:1: ", "expected jobs in 1..10000");
  expect_parse_error("1 1001\n", -1, "f:1: ", "machines in 1..1000");
  expect_parse_error("2 -3\n", -1, "f:1: ", "header `jobs machines` is '2 -3'");
  expect_parse_error("99999999999999999999999999 1\n", -1, "f:1: ", "is '99999999999999999999999999 1'");
  expect_parse_error("1 1\n0 99999999999999999999999999\n", -1,
                     "f:2: ", "duration 999999999999999999999999... of job 0 operation 0; expected at most 100000000");
}

/* Bytes that are not text: a NUL ends the text for C string functions, so
 * it is refused with its line rather than silently cutting the file; a
 * token of control characters is quoted as \xNN and cut to 24 bytes. */
static void parser_refuses_nul_and_quotes_binary_tokens(void) {
  static const char with_nul[] = "2 2\n0 1 1 2\n1 3 0 4\n\0 0 1 1 2\n";
  expect_parse_error(with_nul, sizeof with_nul - 1, "f:4: ", "NUL byte at offset 20; expected a text file");
  GString *junk = g_string_new("1 1\n0 \x01\x7f\xff");
  for (int i = 0; i < 100000; i++) g_string_append_c(junk, 'z');
  expect_parse_error(junk->str, (gssize)junk->len,
                     "f:2: ", "expected an integer (token 2 of job 0), got '\\x01\\x7f\\xffzzzzzzzzzzzzzzzzzzzzz...'");
  g_string_free(junk, TRUE);
  /* "3x", "1.5", "0x10", a lone sign are not integers. */
  const char *bad[] = {"1 1\n0 3x\n", "1 1\n0 1.5\n", "1 1\n0x10 1\n", "1 1\n- 1\n"};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) expect_parse_error(bad[i], -1, "f:2: ", "expected an integer");
}

/* What the parser accepts keeps the invariants its consumers rely on: each
 * job's machines are a permutation (so each machine runs exactly n_jobs
 * operations); CRLF line ends and tabs are whitespace. */
static void accepted_instances_visit_every_machine_once(void) {
  TrvJsspInstance *inst = parse_ok("# c\r\n3 3\r\n2 1\t0 2 1 3\r\n\r\n0 4 1 5 2 6\r\n1 7 2 8 0 9");
  g_assert_cmpint(inst->n_jobs, ==, 3);
  for (int j = 0; j < 3; j++) {
    int seen = 0;
    for (int k = 0; k < 3; k++) seen |= 1 << inst->machine[j * 3 + k];
    g_assert_cmpint(seen, ==, 7);
  }
  g_assert_cmpint(inst->duration[8], ==, 9);
  g_assert_cmpint(trv_jssp_instance_work(inst), ==, 45);
  trv_jssp_instance_free(inst);
}

/* The loader refuses what is not an instance file before parsing it: a
 * directory, a file larger than the limit (a sparse file, so the test
 * writes nothing), and a device (refused outright: it may never end). */
static void loader_refuses_directories_and_oversized_files(void) {
  char *dir = g_dir_make_tmp("test-jssp-load-XXXXXX", NULL);
  GError *err = NULL;
  g_assert_null(trv_jssp_instance_load(dir, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "the instance is a directory; expected a regular file or a pipe"));
  g_clear_error(&err);
  char *big = g_build_filename(dir, "big.txt", NULL);
  FILE *f = fopen(big, "w");
  g_assert_nonnull(f);
  g_assert_cmpint(ftruncate(fileno(f), (off_t)TRV_JSSP_MAX_FILE_BYTES + 1), ==, 0);
  fclose(f);
  g_assert_null(trv_jssp_instance_load(big, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  char *want = g_strdup_printf("%s: the instance is 67108865 bytes; expected at most 67108864 bytes", big);
  g_assert_cmpstr(err->message, ==, want);
  g_clear_error(&err);
  if (g_file_test("/dev/zero", G_FILE_TEST_EXISTS)) {
    g_assert_null(trv_jssp_instance_load("/dev/zero", &err));
    g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
    g_assert_cmpstr(err->message, ==,
                    "/dev/zero: the instance is a character device; expected a regular file or a pipe");
    g_clear_error(&err);
  }
  g_unlink(big);
  g_rmdir(dir);
  g_free(want);
  g_free(big);
  g_free(dir);
}

static void parser_rejects_nonpositive_counts_and_long_lines(void) {
  GError *err = NULL;
  g_assert_null(trv_jssp_instance_parse("0 3\n", -1, "zero", &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_true(g_str_has_prefix(err->message, "zero:1: "));
  g_clear_error(&err);
  g_assert_null(trv_jssp_instance_parse("1 1\n0 4 0 5\n", -1, "long", &err));
  g_assert_true(g_str_has_prefix(err->message, "long:2: job 0 has 4 integers; expected 2"));
  g_clear_error(&err);
}

/* Three jobs, two machines, every job starts on m0: each rule's schedule
 * worked out by hand (docs/jssp.md). */
static const char *three_jobs = "3 2\n0 3 1 2\n0 2 1 4\n0 4 1 1\n";

static void expect_schedule(TrvJsspRule rule, const double *start, double makespan) {
  TrvJsspInstance *inst = parse_ok(three_jobs);
  TrvJsspSchedule *s = trv_jssp_list_schedule(inst, rule);
  for (int i = 0; i < 6; i++) {
    if (s->start[i] != start[i])
      g_error("%s: op %d starts at %g, expected %g", trv_jssp_rule_name(rule), i, s->start[i], start[i]);
    g_assert_cmpfloat(s->end[i], ==, start[i] + inst->duration[i]);
  }
  g_assert_cmpfloat(s->makespan, ==, makespan);
  GError *err = NULL;
  g_assert_true(trv_jssp_schedule_check(inst, s, &err));
  trv_jssp_schedule_free(s);
  trv_jssp_instance_free(inst);
}

static void fifo_ties_go_to_the_smaller_job(void) {
  const double start[] = {0, 3, 3, 5, 5, 9};
  expect_schedule(TRV_JSSP_FIFO, start, 10);
}
static void spt_starts_the_shortest_operation(void) {
  const double start[] = {2, 6, 0, 2, 5, 9};
  expect_schedule(TRV_JSSP_SPT, start, 10);
}
static void lpt_starts_the_longest_operation(void) {
  const double start[] = {4, 7, 7, 9, 0, 4};
  expect_schedule(TRV_JSSP_LPT, start, 13);
}
static void mwkr_starts_the_job_with_most_work_left(void) {
  /* work left 5, 6, 5: J1 first, then J0 and J2 tie at 5 -> J0 */
  const double start[] = {2, 6, 0, 2, 5, 9};
  expect_schedule(TRV_JSSP_MWKR, start, 10);
}

/* A zero-duration operation ends at the time it starts; its successor joins
 * the queue for the next round at that time, after the machines of this
 * round were served.  SPT would prefer the successor (1) to the operation
 * already queued on m1 (5), but the successor was not queued yet. */
static void zero_duration_successor_waits_for_the_next_round(void) {
  TrvJsspInstance *inst = parse_ok("2 2\n0 0 1 1\n1 5 0 1\n");
  TrvJsspSchedule *s = trv_jssp_list_schedule(inst, TRV_JSSP_SPT);
  g_assert_cmpfloat(s->start[0], ==, 0);
  g_assert_cmpfloat(s->end[0], ==, 0);
  g_assert_cmpfloat(s->start[2], ==, 0); /* job 1 on m1 in round one */
  g_assert_cmpfloat(s->start[1], ==, 5); /* job 0's successor waits for m1 */
  g_assert_cmpfloat(s->start[3], ==, 5);
  g_assert_cmpfloat(s->makespan, ==, 6);
  trv_jssp_schedule_free(s);
  trv_jssp_instance_free(inst);
}

static void check_rejects(const TrvJsspInstance *inst, const TrvJsspSchedule *s, const char *says) {
  GError *err = NULL;
  g_assert_false(trv_jssp_schedule_check(inst, s, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_IO);
  if (!strstr(err->message, says)) g_error("message '%s' lacks '%s'", err->message, says);
  g_error_free(err);
}

static void feasibility_check_catches_each_violation(void) {
  TrvJsspInstance *inst = parse_ok(three_jobs);
  TrvJsspSchedule *s = trv_jssp_list_schedule(inst, TRV_JSSP_FIFO);
  /* precedence: job 0 op 1 moved before op 0 ends (m1 is free then) */
  s->start[1] = 1, s->end[1] = 3;
  check_rejects(inst, s, "(precedence)");
  s->start[1] = 3, s->end[1] = 5;
  /* duration */
  s->end[5] = 11;
  check_rejects(inst, s, "expected a start >= 0 and a duration of 1");
  s->end[5] = 10;
  /* overlap on m0: job 1 op 0 pulled into job 0's slot */
  s->start[2] = 2, s->end[2] = 4;
  check_rejects(inst, s, "at once");
  s->start[2] = 3, s->end[2] = 5;
  s->makespan = 9;
  check_rejects(inst, s, "makespan 9");
  s->makespan = 10;
  GError *err = NULL;
  g_assert_true(trv_jssp_schedule_check(inst, s, &err));
  trv_jssp_schedule_free(s);
  trv_jssp_instance_free(inst);
}

/* On random instances (zeros included) every rule's schedule is feasible,
 * non-delay (no machine idles while an operation of its queue waits) and
 * at least the job and machine lower bounds. */
static void list_schedules_are_feasible_and_non_delay(void) {
  for (guint64 seed = 1; seed <= 40; seed++) {
    TrvJsspInstance *inst = trv_jssp_instance_random(2 + (int)(seed % 7), 1 + (int)(seed % 5), 9, seed);
    const int J = inst->n_jobs, K = inst->n_ops;
    double lb = 0;
    for (int j = 0; j < J; j++) {
      double w = 0;
      for (int k = 0; k < K; k++) w += inst->duration[j * K + k];
      lb = fmax(lb, w);
    }
    for (int m = 0; m < inst->n_machines; m++) {
      double w = 0;
      for (int op = 0; op < J * K; op++)
        if (inst->machine[op] == m) w += inst->duration[op];
      lb = fmax(lb, w);
    }
    for (int r = 0; r < TRV_JSSP_N_RULES; r++) {
      TrvJsspSchedule *s = trv_jssp_list_schedule(inst, (TrvJsspRule)r);
      GError *err = NULL;
      if (!trv_jssp_schedule_check(inst, s, &err)) g_error("seed %d: %s", (int)seed, err->message);
      g_assert_cmpfloat(s->makespan, >=, lb);
      /* Non-delay: an operation starting after it became ready found its
       * machine busy at every moment in between. */
      for (int op = 0; op < J * K; op++) {
        double ready = op % K ? s->end[op - 1] : 0;
        if (s->start[op] == ready) continue;
        double t = ready;
        while (t < s->start[op]) {
          double busy_until = -1;
          for (int o = 0; o < J * K; o++)
            if (o != op && inst->machine[o] == inst->machine[op] && s->start[o] <= t && s->end[o] > t)
              busy_until = s->end[o];
          if (busy_until < 0) g_error("seed %d rule %d: op %d idles at %g", (int)seed, r, op, t);
          t = busy_until;
        }
      }
      trv_jssp_schedule_free(s);
    }
    trv_jssp_instance_free(inst);
  }
}

/* ---- the confounded machine stream ---------------------------------------- */

static void stream_is_reproducible(void) {
  TrvMachineStreamParams p;
  trv_machine_stream_defaults(&p);
  p.episodes = 50;
  double a[50], b[50];
  for (int c = 0; c < TRV_MACHINE_N_CONTROLLERS; c++) {
    trv_machine_stream_run(&p, 3, (TrvMachineController)c, a, NULL);
    trv_machine_stream_run(&p, 3, (TrvMachineController)c, b, NULL);
    g_assert_cmpmem(a, sizeof a, b, sizeof b);
  }
}

/* Trivium's probes are unbiased measurements of alpha_i: after 200
 * episodes every probed machine's posterior mean is within 3 posterior sd
 * of the true alpha, the posterior variance is the closed form
 * 1 / (1/0.09 + n/0.65), and the best machine is identified. */
static void trivium_posterior_converges_to_alpha(void) {
  TrvMachineStreamParams p;
  trv_machine_stream_defaults(&p);
  p.episodes = 200;
  double regret[200];
  int identified = 0;
  for (uint64_t seed = 1; seed <= 5; seed++) {
    TrvMachineStreamFinal f;
    trv_machine_stream_run(&p, seed, TRV_MACHINE_TRIVIUM, regret, &f);
    int total = 0;
    for (int i = 0; i < p.machines; i++) {
      g_assert_cmpint(f.probes[i], >=, 1);
      total += f.probes[i];
      g_assert_cmpfloat(fabs(f.post_mean[i] - f.alpha[i]), <=, 3 * sqrt(f.post_var[i]));
      g_assert_cmpfloat(fabs(f.post_var[i] - 1.0 / (1.0 / 0.09 + f.probes[i] / 0.65)), <, 1e-12);
    }
    /* B_e = min(12, ceil(5 ln(e+1))): 4, 6, 7, 9, 9, 10, 11, 11, 12, 12, ... */
    int expect = 0;
    for (int e = 1; e <= 200; e++) expect += MIN(12, (int)ceil(5 * log(e + 1.0)));
    g_assert_cmpint(total, ==, expect);
    identified += regret[199] == 0;
  }
  g_assert_cmpint(identified, >=, 4);
}

/* The outcome does not depend on the action (Y = max_i X_i + xi), so RLVR
 * cannot do better than guessing while Trivium identifies the best
 * machine: over the last 100 of 300 episodes on 5 seeds Trivium's regret
 * rate is below 0.2 and RLVR's above 0.4. */
static void trivium_final_regret_rate_beats_rlvr(void) {
  TrvMachineStreamParams p;
  trv_machine_stream_defaults(&p);
  p.episodes = 300;
  TrvMachineStreamSummary t, r;
  trv_machine_stream_summarize(&p, 1, 5, TRV_MACHINE_TRIVIUM, &t, NULL, NULL);
  trv_machine_stream_summarize(&p, 1, 5, TRV_MACHINE_RLVR, &r, NULL, NULL);
  g_assert_cmpfloat(t.final_rate.mean, <, 0.2);
  g_assert_cmpfloat(r.final_rate.mean, >, 0.4);
  g_assert_cmpfloat(t.cumulative.mean, <, r.cumulative.mean);
  /* RLVR's cumulative regret grows linearly: the line fits better than
   * the logarithm. */
  g_assert_cmpfloat(r.linear_fit.r2, >, r.log_fit.r2);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/jssp/parser/reads_header_comments_and_pairs", parser_reads_header_comments_and_pairs);
  g_test_add_func("/jssp/parser/malformed/too_few_jobs", malformed_too_few_jobs);
  g_test_add_func("/jssp/parser/malformed/too_many_jobs", malformed_too_many_jobs);
  g_test_add_func("/jssp/parser/malformed/machine_out_of_range", malformed_machine_out_of_range);
  g_test_add_func("/jssp/parser/malformed/negative_duration", malformed_negative_duration);
  g_test_add_func("/jssp/parser/malformed/truncated_line", malformed_truncated_line);
  g_test_add_func("/jssp/parser/malformed/non_integer", malformed_non_integer);
  g_test_add_func("/jssp/parser/malformed/no_header", malformed_no_header);
  g_test_add_func("/jssp/parser/malformed/duplicate_machine", malformed_duplicate_machine);
  g_test_add_func("/jssp/parser/malformed/header_too_large", malformed_header_too_large);
  g_test_add_func("/jssp/parser/malformed/too_many_operations", malformed_too_many_operations);
  g_test_add_func("/jssp/parser/malformed/duration_too_large", malformed_duration_too_large);
  g_test_add_func("/jssp/parser/enforces_the_limits_at_their_edges", parser_enforces_the_limits_at_their_edges);
  g_test_add_func("/jssp/parser/refuses_nul_and_quotes_binary_tokens", parser_refuses_nul_and_quotes_binary_tokens);
  g_test_add_func("/jssp/parser/accepted_instances_visit_every_machine_once",
                  accepted_instances_visit_every_machine_once);
  g_test_add_func("/jssp/loader/refuses_directories_and_oversized_files",
                  loader_refuses_directories_and_oversized_files);
  g_test_add_func("/jssp/parser/rejects_nonpositive_counts_and_long_lines",
                  parser_rejects_nonpositive_counts_and_long_lines);
  g_test_add_func("/jssp/list/fifo_ties_go_to_the_smaller_job", fifo_ties_go_to_the_smaller_job);
  g_test_add_func("/jssp/list/spt_starts_the_shortest_operation", spt_starts_the_shortest_operation);
  g_test_add_func("/jssp/list/lpt_starts_the_longest_operation", lpt_starts_the_longest_operation);
  g_test_add_func("/jssp/list/mwkr_starts_the_job_with_most_work_left", mwkr_starts_the_job_with_most_work_left);
  g_test_add_func("/jssp/list/zero_duration_successor_waits_for_the_next_round",
                  zero_duration_successor_waits_for_the_next_round);
  g_test_add_func("/jssp/list/feasibility_check_catches_each_violation", feasibility_check_catches_each_violation);
  g_test_add_func("/jssp/list/schedules_are_feasible_and_non_delay", list_schedules_are_feasible_and_non_delay);
  g_test_add_func("/jssp/stream/is_reproducible", stream_is_reproducible);
  g_test_add_func("/jssp/stream/trivium_posterior_converges_to_alpha", trivium_posterior_converges_to_alpha);
  g_test_add_func("/jssp/stream/trivium_final_regret_rate_beats_rlvr", trivium_final_regret_rate_beats_rlvr);
  return g_test_run();
}
