/* Crash safety under each fsync policy: a child appends records and
 * publishes each acknowledgement (the ack callback's durable lsn) in memory
 * shared with the parent, which SIGKILLs it at a random moment, then
 * recovers the log.  The file must be accepted without salvage (a killed
 * writer leaves a crash result, never corruption), and the recovered
 * records must be exactly a prefix of the stream the child was appending
 * (nothing half-present, nothing out of place) that holds every
 * acknowledged record (nothing acknowledged lost).  A process crash keeps
 * everything the process wrote, so this holds under none too, where an
 * append is acknowledged when written.  Every trial continues the same log,
 * so recovery is also followed by appends; the log starts over when it
 * passes 4 MiB.  Trials per policy: TRV_CTL_CRASH_TRIALS (default 8);
 * policies: TRV_CTL_CRASH_POLICIES (default "always,group,none").
 * scripts/ctl-crash-test.sh runs the long form and prints the figures. */
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
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

/* Written by the child after each acknowledgement, read by the parent once
 * the child is dead: the highest durable lsn the child was told about. */
static uint64_t *shared_ack;

static void publish_ack(uint64_t durable_lsn, void *data) {
  (void)data;
  __atomic_store_n(shared_ack, durable_lsn, __ATOMIC_RELEASE);
}

static void child_append_forever(const char *path, TrvCtlFsync policy) {
  TrvCtlOptions o = {.fsync = policy};
  TrvCtl *ctl = trv_ctl_open(path, &o, NULL, NULL);
  if (!ctl) _exit(3);
  trv_ctl_set_ack_func(ctl, publish_ack, NULL);
  for (uint64_t i = trv_ctl_last_lsn(ctl);; i++) {
    TrvRecord r = stream_record(i);
    if (trv_ctl_append_record(ctl, &r, NULL, NULL) != TRV_CTL_APPENDED) _exit(4);
  }
}

typedef struct {
  uint64_t trials, acked, recovered, lost, unacked_whole, torn, padded;
} Figures;

static void killed_writer_leaves_a_prefix_with_every_acked_record(gconstpointer data) {
  TrvCtlFsync policy = (TrvCtlFsync)GPOINTER_TO_INT(data);
  const char *policies = g_getenv("TRV_CTL_CRASH_POLICIES");
  if (policies && !strstr(policies, trv_ctl_fsync_name(policy))) {
    g_test_skip("policy not selected by TRV_CTL_CRASH_POLICIES");
    return;
  }
  const char *env = g_getenv("TRV_CTL_CRASH_TRIALS");
  int trials = env ? atoi(env) : 8;
  char *dir = ctl_test_tmpdir();
  char *path = g_build_filename(dir, "crash.ctl", NULL);
  TrvPosteriorParams params = ctl_test_params();
  GError *err = NULL;
  shared_ack = mmap(NULL, sizeof *shared_ack, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  g_assert_true(shared_ack != MAP_FAILED);
  GRand *rand = g_rand_new_with_seed((guint32)g_test_rand_int());
  Figures f = {0};
  for (int t = 0; t < trials; t++) {
    if (t == 0 || ctl_test_file_size(path) > (4 << 20)) {
      g_remove(path);
      g_assert_true(trv_ctl_close(trv_ctl_create(path, 3, &params, NULL, &err), NULL));
      g_assert_no_error(err);
    }
    TrvCtlView *v0 = trv_ctl_view_open(path, false, &err);
    g_assert_no_error(err);
    TrvCtlStats st0;
    trv_ctl_view_stats(v0, &st0);
    trv_ctl_view_free(v0);
    uint64_t start = st0.n_records; /* the log holds stream records 0 .. start-1 */
    *shared_ack = start;
    pid_t pid = fork();
    g_assert_cmpint(pid, >=, 0);
    if (pid == 0) child_append_forever(path, policy);
    g_usleep((gulong)g_rand_int_range(rand, 1000, 40000));
    kill(pid, SIGKILL);
    int status;
    g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
    g_assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    uint64_t acked = __atomic_load_n(shared_ack, __ATOMIC_ACQUIRE); /* records 0 .. acked-1 */
    g_assert_cmpuint(acked, >=, start);
    TrvCtlRecovery before;
    g_assert_true(trv_ctl_verify(path, &before, &err)); /* a crash result is never corruption */
    g_assert_no_error(err);
    TrvCtlRecovery rec;
    TrvCtl *ctl = trv_ctl_open(path, NULL, &rec, &err);
    g_assert_no_error(err);
    g_assert_true(trv_ctl_close(ctl, NULL));
    g_assert_cmpuint(rec.torn_bytes, ==, before.torn_bytes);
    g_assert_cmpuint(rec.valid_bytes, ==, before.valid_bytes);
    f.torn += rec.torn_bytes > 0;
    f.padded += rec.padding_bytes > 0;
    /* Exactly a prefix of the stream, holding every acked record. */
    TrvCtlView *v = trv_ctl_view_open(path, false, &err);
    g_assert_no_error(err);
    TrvCtlStats st;
    trv_ctl_view_stats(v, &st);
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
    f.trials++;
    f.acked += acked - start;
    f.recovered += MIN(st.n_records, acked) - start;
    f.unacked_whole += st.n_records > acked ? st.n_records - acked : 0;
  }
  f.lost = f.acked - f.recovered;
  /* One line per policy; scripts/ctl-crash-test.sh collects them. */
  g_test_message("figures: sigkill policy=%s trials=%" G_GUINT64_FORMAT " acknowledged=%" G_GUINT64_FORMAT
                 " recovered=%" G_GUINT64_FORMAT " lost=%" G_GUINT64_FORMAT " unacknowledged-whole=%" G_GUINT64_FORMAT
                 " torn-frames=%" G_GUINT64_FORMAT " preallocated-tail=%" G_GUINT64_FORMAT,
                 trv_ctl_fsync_name(policy), f.trials, f.acked, f.recovered, f.lost, f.unacked_whole, f.torn, f.padded);
  g_assert_cmpuint(f.lost, ==, 0);
  g_assert_cmpuint(f.acked, >, 0);
  munmap(shared_ack, sizeof *shared_ack);
  g_rand_free(rand);
  g_free(path);
  ctl_test_rmdir(dir);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_data_func("/ctl/crash/always_killed_writer_leaves_a_prefix_with_every_acked_record",
                       GINT_TO_POINTER(TRV_CTL_FSYNC_ALWAYS), killed_writer_leaves_a_prefix_with_every_acked_record);
  g_test_add_data_func("/ctl/crash/group_killed_writer_leaves_a_prefix_with_every_acked_record",
                       GINT_TO_POINTER(TRV_CTL_FSYNC_GROUP), killed_writer_leaves_a_prefix_with_every_acked_record);
  g_test_add_data_func("/ctl/crash/none_killed_writer_leaves_a_prefix_with_every_acked_record",
                       GINT_TO_POINTER(TRV_CTL_FSYNC_NONE), killed_writer_leaves_a_prefix_with_every_acked_record);
  return g_test_run();
}
