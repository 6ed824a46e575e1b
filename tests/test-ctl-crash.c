/* Crash safety under fsync=always: a child appends records and reports each
 * acknowledgement through a pipe; the parent SIGKILLs it at a random moment,
 * then recovers the log.  The recovered records must be exactly a prefix of
 * the stream the child was appending (nothing half-present, nothing out of
 * place) that contains every acknowledged record (nothing acked lost), and
 * verify must pass.  Every trial continues the same log, so recovery is
 * also followed by appends.  Trials: TRV_CTL_CRASH_TRIALS (default 20);
 * scripts/ctl-crash-test.sh runs the long form. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-ctl-util.h"

/* The i-th record of the stream: episodes of 10 steps and an END marker. */
static TrvRecord stream_record(uint64_t i) {
  uint64_t e = i / 11, k = i % 11;
  if (k == 10) return ctl_test_control(TRV_RECORD_EPISODE_END, e, (uint32_t)e, -1);
  return ctl_test_step((uint32_t)(k % 3), e * 10 + k, (uint32_t)e, (uint32_t)k, (int)(k % 3), k % 2 ? 1.0 : -1.0,
                       (double)i * 0.001);
}

static void child_append_forever(const char *path, int ack_fd) {
  TrvCtlOptions o = {.fsync = TRV_CTL_FSYNC_ALWAYS};
  TrvCtl *ctl = trv_ctl_open(path, &o, NULL, NULL);
  if (!ctl) _exit(3);
  for (uint64_t i = trv_ctl_last_lsn(ctl);; i++) {
    TrvRecord r = stream_record(i);
    if (trv_ctl_append_record(ctl, &r, NULL, NULL) != TRV_CTL_APPENDED) _exit(4);
    /* Acknowledged: durable under fsync=always. */
    if (write(ack_fd, &i, sizeof i) != (ssize_t)sizeof i) _exit(5);
  }
}

static void killed_writer_leaves_a_prefix_with_every_acked_record(void) {
  const char *env = g_getenv("TRV_CTL_CRASH_TRIALS");
  int trials = env ? atoi(env) : 20;
  char *dir = ctl_test_tmpdir();
  char *path = g_build_filename(dir, "crash.ctl", NULL);
  TrvPosteriorParams params = ctl_test_params();
  GError *err = NULL;
  g_assert_true(trv_ctl_close(trv_ctl_create(path, 3, &params, NULL, &err), NULL));
  g_assert_no_error(err);
  GRand *rand = g_rand_new_with_seed((guint32)g_test_rand_int());
  /* Stream index of the newest record ever acknowledged: every record up to
   * it must survive every later crash too. */
  int64_t acked = -1;
  uint64_t total_acks = 0, total_torn = 0, torn_trials = 0, padded_trials = 0, unacked_present = 0;
  for (int t = 0; t < trials; t++) {
    int fds[2];
    g_assert_cmpint(pipe(fds), ==, 0);
    pid_t pid = fork();
    g_assert_cmpint(pid, >=, 0);
    if (pid == 0) {
      close(fds[0]);
      child_append_forever(path, fds[1]);
    }
    close(fds[1]);
    g_usleep((gulong)g_rand_int_range(rand, 1000, 40000));
    kill(pid, SIGKILL);
    int status;
    g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
    g_assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    uint64_t i;
    while (read(fds[0], &i, sizeof i) == (ssize_t)sizeof i) {
      g_assert_cmpint((int64_t)i, >, acked);
      acked = (int64_t)i;
      total_acks++;
    }
    close(fds[0]);
    TrvCtlRecovery before;
    g_assert_true(trv_ctl_verify(path, &before, &err)); /* a torn tail is not corruption */
    g_assert_no_error(err);
    TrvCtlRecovery rec;
    TrvCtl *ctl = trv_ctl_open(path, NULL, &rec, &err);
    g_assert_no_error(err);
    g_assert_true(trv_ctl_close(ctl, NULL));
    g_assert_cmpuint(rec.torn_bytes, ==, before.torn_bytes);
    total_torn += rec.torn_bytes;
    torn_trials += rec.torn_bytes > 0;
    padded_trials += rec.padding_bytes > 0;
    g_assert_true(trv_ctl_verify(path, NULL, &err));
    g_assert_no_error(err);
    /* Exactly a prefix of the stream, holding every acked record. */
    TrvCtlView *v = trv_ctl_view_open(path, false, &err);
    g_assert_no_error(err);
    TrvCtlStats st;
    trv_ctl_view_stats(v, &st);
    g_assert_cmpint((int64_t)st.n_records, >=, acked + 1);
    unacked_present += st.n_records > (uint64_t)(acked + 1);
    uint32_t first, n_ep = trv_ctl_view_episodes(v, &first);
    g_assert_cmpuint(n_ep, ==, st.n_records / 11);
    for (uint32_t e = 0; e < n_ep; e++) {
      size_t n;
      const TrvRecord *recs = trv_ctl_view_episode_records(v, e, &n);
      g_assert_cmpuint(n, ==, 11);
      for (size_t k = 0; k < n; k++) {
        TrvRecord want = stream_record((uint64_t)e * 11 + k);
        g_assert_true(ctl_test_record_equal(&recs[k], &want));
      }
    }
    trv_ctl_view_free(v);
  }
  g_test_message("%d trials: %" G_GUINT64_FORMAT " acknowledged appends, all recovered; %" G_GUINT64_FORMAT
                 " torn tails truncated (%" G_GUINT64_FORMAT " bytes); %" G_GUINT64_FORMAT
                 " crashes left preallocated padding; %" G_GUINT64_FORMAT
                 " times a record beyond the newest ack was found whole (appended, killed before reporting)",
                 trials, total_acks, torn_trials, total_torn, padded_trials, unacked_present);
  g_assert_cmpuint(total_acks, >, 0);
  g_rand_free(rand);
  g_free(path);
  ctl_test_rmdir(dir);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/ctl/crash/killed_writer_leaves_a_prefix_with_every_acked_record",
                  killed_writer_leaves_a_prefix_with_every_acked_record);
  return g_test_run();
}
