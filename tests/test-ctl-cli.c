/* `trivium ctl`: exit codes (0 valid, 1 corrupt, 2 unusable input) and
 * what replay and inspect print, called in-process through trv_cmd_ctl. */
#include <config.h>

#include <stdio.h>
#include <unistd.h>

#include "../src/commands.h"
#include "test-ctl-util.h"

static char *dir, *log_path, *out_path;

/* Runs `trivium ctl ARGS...` with stdout and stderr captured. */
static int run_ctl(char **output, ...) {
  char *args[16] = {"ctl"};
  int argc = 1;
  va_list ap;
  va_start(ap, output);
  for (char *a; argc < 15 && (a = va_arg(ap, char *));) args[argc++] = a;
  va_end(ap);
  char *cap = g_build_filename(dir, "out.txt", NULL);
  fflush(stdout);
  fflush(stderr);
  int saved_out = dup(1), saved_err = dup(2);
  FILE *f = fopen(cap, "w");
  dup2(fileno(f), 1);
  dup2(fileno(f), 2);
  int code = trv_cmd_ctl(argc, args);
  fflush(stdout);
  fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  fclose(f);
  g_assert_true(g_file_get_contents(cap, output, NULL, NULL));
  g_free(cap);
  return code;
}

static void make_log(void) {
  TrvPosteriorParams params = ctl_test_params();
  GError *err = NULL;
  TrvCtl *ctl = trv_ctl_create(log_path, 3, &params, NULL, &err);
  g_assert_no_error(err);
  TrvPosterior *live = trv_posterior_new(3, &params);
  TrvRng world, probe;
  trv_rng_init(&world, 5, TRV_STREAM_WORLD);
  trv_rng_init(&probe, 5, TRV_STREAM_PROBE);
  uint64_t seqs[3] = {0}, cseq = 0;
  GArray *ep = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  for (uint32_t e = 0; e < 20; e++) {
    g_array_set_size(ep, 0);
    ctl_test_causalbench_episode(&world, &probe, e, seqs, &cseq, ep);
    for (guint i = 0; i < ep->len; i++) trv_ctl_append_record(ctl, &g_array_index(ep, TrvRecord, i), NULL, NULL);
    trv_replay_episode(live, (TrvRecord *)(void *)ep->data, ep->len);
    if (e % 5 == 4) trv_ctl_append_snapshot(ctl, e, TRV_CTL_SNAPSHOT_EPISODE, live, NULL, NULL);
  }
  g_array_free(ep, TRUE);
  trv_posterior_free(live);
  g_assert_true(trv_ctl_close(ctl, NULL));
}

static void verify_exit_codes_say_valid_corrupt_or_unusable(void) {
  char *out;
  g_assert_cmpint(run_ctl(&out, "verify", log_path, NULL), ==, 0);
  g_assert_nonnull(strstr(out, "valid"));
  g_free(out);
  char *missing = g_build_filename(dir, "missing.ctl", NULL);
  g_assert_cmpint(run_ctl(&out, "verify", missing, NULL), ==, 2);
  g_free(out);
  char *text = g_build_filename(dir, "text.ctl", NULL);
  g_file_set_contents(text, "episode,step\n1,2\n", -1, NULL);
  g_assert_cmpint(run_ctl(&out, "verify", text, NULL), ==, 2);
  g_assert_nonnull(strstr(out, "not a CTL file"));
  g_free(out);
  g_assert_cmpint(run_ctl(&out, "verify", NULL), ==, 2);
  g_free(out);
  g_assert_cmpint(run_ctl(&out, "frobnicate", log_path, NULL), ==, 2);
  g_free(out);
  /* Corrupt a byte in the middle: exit 1, message names file and offset. */
  gchar *bytes;
  gsize len;
  g_file_get_contents(log_path, &bytes, &len, NULL);
  char *bad = g_build_filename(dir, "bad.ctl", NULL);
  bytes[len / 2] ^= 1;
  g_file_set_contents(bad, bytes, (gssize)len, NULL);
  g_assert_cmpint(run_ctl(&out, "verify", bad, NULL), ==, 1);
  g_assert_nonnull(strstr(out, "byte offset"));
  g_free(out);
  g_assert_cmpint(run_ctl(&out, "inspect", "--salvage", bad, NULL), ==, 0);
  g_assert_nonnull(strstr(out, "salvage drops"));
  g_free(out);
  g_free(bytes);
  g_free(bad);
  g_free(text);
  g_free(missing);
}

static void replay_prints_the_same_posterior_from_zero_and_from_a_snapshot(void) {
  char *zero, *snap, *bad;
  g_assert_cmpint(run_ctl(&zero, "replay", log_path, NULL), ==, 0);
  g_assert_cmpint(run_ctl(&snap, "replay", "--from-snapshot", "9", log_path, NULL), ==, 0);
  g_assert_nonnull(strstr(zero, "after episode 19"));
  /* Same table, only the header line differs. */
  g_assert_cmpstr(strstr(zero, "component"), ==, strstr(snap, "component"));
  g_assert_cmpint(run_ctl(&bad, "replay", "--from-snapshot", "7", log_path, NULL), ==, 2);
  g_assert_nonnull(strstr(bad, "no snapshot of episode 7"));
  g_free(zero);
  g_free(snap);
  g_free(bad);
}

static void inspect_reports_counts_and_compact_keeps_the_posterior(void) {
  char *out, *before, *after;
  g_assert_cmpint(run_ctl(&out, "inspect", log_path, NULL), ==, 0);
  g_assert_nonnull(strstr(out, "3 components"));
  g_assert_nonnull(strstr(out, "20 complete (0..19)"));
  g_assert_nonnull(strstr(out, "step 300, reset 0, episode-end 20"));
  g_free(out);
  g_assert_cmpint(run_ctl(&before, "replay", log_path, NULL), ==, 0);
  g_assert_cmpint(run_ctl(&out, "compact", "--out", out_path, log_path, NULL), ==, 0);
  g_free(out);
  g_assert_cmpint(run_ctl(&out, "verify", out_path, NULL), ==, 0);
  g_free(out);
  g_assert_cmpint(run_ctl(&after, "replay", out_path, NULL), ==, 0);
  g_assert_cmpstr(strstr(before, "component"), ==, strstr(after, "component"));
  g_free(before);
  g_free(after);
}

/* A log whose records are whole and chained, but whose snapshot of
 * episode 1 is not the fold of the records before it (the writer takes
 * any posterior of the right shape): only the fold can tell.  verify,
 * replay and inspect refuse it alike; --salvage reads the entries before
 * that snapshot. */
static void replay_and_inspect_refuse_a_snapshot_that_is_not_the_fold(void) {
  char *path = g_build_filename(dir, "forged.ctl", NULL);
  TrvPosteriorParams params = ctl_test_params();
  GError *err = NULL;
  TrvCtl *ctl = trv_ctl_create(path, 3, &params, NULL, &err);
  g_assert_no_error(err);
  TrvPosterior *live = trv_posterior_new(3, &params), *wrong = trv_posterior_new(3, &params);
  for (uint32_t e = 0; e < 3; e++) {
    TrvRecord ep[2] = {ctl_test_step(0, e, e, 0, 0, 1, 2.0), ctl_test_control(TRV_RECORD_EPISODE_END, e, e, -1)};
    for (int k = 0; k < 2; k++) g_assert_cmpint(trv_ctl_append_record(ctl, &ep[k], NULL, NULL), ==, TRV_CTL_APPENDED);
    trv_replay_episode(live, ep, 2);
    g_assert_cmpint(trv_ctl_append_snapshot(ctl, e, TRV_CTL_SNAPSHOT_EPISODE, e == 1 ? wrong : live, NULL, NULL), ==,
                    TRV_CTL_APPENDED);
  }
  g_assert_true(trv_ctl_close(ctl, NULL));
  char *out;
  g_assert_cmpint(run_ctl(&out, "verify", path, NULL), ==, 1);
  g_assert_nonnull(strstr(out, "snapshot of episode 1 (entry 6)"));
  g_assert_nonnull(strstr(out, "differs from the fold"));
  g_free(out);
  g_assert_cmpint(run_ctl(&out, "replay", path, NULL), ==, 1);
  g_assert_nonnull(strstr(out, "differs from the fold"));
  g_free(out);
  g_assert_cmpint(run_ctl(&out, "inspect", path, NULL), ==, 1);
  g_free(out);
  /* Salvage: entries 1..5 (episodes 0 and 1 and the good snapshot of 0). */
  g_assert_cmpint(run_ctl(&out, "replay", "--salvage", path, NULL), ==, 0);
  g_assert_nonnull(strstr(out, "reads the 5 entries"));
  g_assert_nonnull(strstr(out, "after episode 1,"));
  g_free(out);
  trv_posterior_free(live);
  trv_posterior_free(wrong);
  g_free(path);
}

static void assert_file_is(const char *path, const gchar *bytes, gsize len) {
  gchar *now;
  gsize now_len;
  g_assert_true(g_file_get_contents(path, &now, &now_len, NULL));
  g_assert_cmpuint(now_len, ==, len);
  g_assert_true(memcmp(now, bytes, len) == 0);
  g_free(now);
}

static void compact_never_destroys_the_only_copy(void) {
  gchar *orig;
  gsize len;
  g_assert_true(g_file_get_contents(log_path, &orig, &len, NULL));
  char *work = g_build_filename(dir, "inplace.ctl", NULL);
  char *other = g_build_filename(dir, "other.ctl", NULL);
  g_assert_true(g_file_set_contents(work, orig, (gssize)len, NULL));
  g_assert_true(g_file_set_contents(other, "keep me", -1, NULL));
  char *out;
  /* --out naming the log itself, or any existing file: refused, nothing touched. */
  g_assert_cmpint(run_ctl(&out, "compact", "--out", work, work, NULL), ==, 2);
  g_assert_nonnull(strstr(out, "exists"));
  g_free(out);
  assert_file_is(work, orig, len);
  g_assert_cmpint(run_ctl(&out, "compact", "--out", other, work, NULL), ==, 2);
  g_free(out);
  assert_file_is(other, "keep me", 7);
  /* In place without an archive: refused. */
  g_assert_cmpint(run_ctl(&out, "compact", "--no-archive", work, NULL), ==, 2);
  g_assert_nonnull(strstr(out, "always keeps the original"));
  g_free(out);
  assert_file_is(work, orig, len);
  /* In place: the original is kept under the name printed, byte for byte. */
  g_assert_cmpint(run_ctl(&out, "compact", work, NULL), ==, 0);
  const char *kept = strstr(out, "original kept as ");
  g_assert_nonnull(kept);
  char *archive = g_strstrip(g_strdup(kept + strlen("original kept as ")));
  g_assert_true(g_str_has_prefix(archive, work));
  g_assert_true(g_str_has_prefix(archive + strlen(work), ".archive-"));
  assert_file_is(archive, orig, len);
  g_assert_cmpint(ctl_test_file_size(work), <, (gint64)len);
  g_free(out);
  g_free(archive);
  g_free(work);
  g_free(other);
  g_free(orig);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  dir = ctl_test_tmpdir();
  log_path = g_build_filename(dir, "run.ctl", NULL);
  out_path = g_build_filename(dir, "compact.ctl", NULL);
  make_log();
  g_test_add_func("/ctl/cli/verify_exit_codes_say_valid_corrupt_or_unusable",
                  verify_exit_codes_say_valid_corrupt_or_unusable);
  g_test_add_func("/ctl/cli/replay_prints_the_same_posterior_from_zero_and_from_a_snapshot",
                  replay_prints_the_same_posterior_from_zero_and_from_a_snapshot);
  g_test_add_func("/ctl/cli/inspect_reports_counts_and_compact_keeps_the_posterior",
                  inspect_reports_counts_and_compact_keeps_the_posterior);
  g_test_add_func("/ctl/cli/replay_and_inspect_refuse_a_snapshot_that_is_not_the_fold",
                  replay_and_inspect_refuse_a_snapshot_that_is_not_the_fold);
  g_test_add_func("/ctl/cli/compact_never_destroys_the_only_copy", compact_never_destroys_the_only_copy);
  int rc = g_test_run();
  g_free(log_path);
  g_free(out_path);
  ctl_test_rmdir(dir);
  return rc;
}
