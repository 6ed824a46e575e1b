/* The CTL writer and reader contracts: idempotent appends, episode rules,
 * acknowledgement under each fsync policy, write and sync failures, one
 * writer at a time, salvage, and isolation of readers from a writer that is
 * mid-episode (second handle and second process). */
#include <errno.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log/ctl-internal.h"
#include "test-ctl-util.h"

typedef struct {
  char *dir, *path;
  TrvPosteriorParams params;
} Fixture;

static void setup(Fixture *f, gconstpointer data) {
  (void)data;
  f->dir = ctl_test_tmpdir();
  f->path = g_build_filename(f->dir, "log.ctl", NULL);
  f->params = ctl_test_params();
}

static void teardown(Fixture *f, gconstpointer data) {
  (void)data;
  g_free(f->path);
  ctl_test_rmdir(f->dir);
}

static TrvCtl *create(Fixture *f, TrvCtlFsync policy) {
  GError *err = NULL;
  TrvCtlOptions o = {.fsync = policy, .group_records = 4, .group_ms = 60000};
  TrvCtl *ctl = trv_ctl_create(f->path, 3, &f->params, &o, &err);
  g_assert_no_error(err);
  return ctl;
}

static void append_ok(TrvCtl *ctl, TrvRecord r) {
  GError *err = NULL;
  g_assert_cmpint(trv_ctl_append_record(ctl, &r, NULL, &err), ==, TRV_CTL_APPENDED);
  g_assert_no_error(err);
}

static size_t n_records_in(const char *path) {
  GError *err = NULL;
  TrvCtlView *v = trv_ctl_view_open(path, false, &err);
  g_assert_no_error(err);
  TrvCtlStats s;
  trv_ctl_view_stats(v, &s);
  trv_ctl_view_free(v);
  return s.n_records;
}

static void retried_append_is_a_duplicate_also_after_reopen(Fixture *f, gconstpointer d) {
  (void)d;
  TrvCtl *ctl = create(f, TRV_CTL_FSYNC_NONE);
  TrvRecord r = ctl_test_step(1, 5, 0, 0, 0, 1, 0.5);
  append_ok(ctl, r);
  g_assert_cmpint(trv_ctl_append_record(ctl, &r, NULL, NULL), ==, TRV_CTL_DUPLICATE);
  g_assert_cmpuint(trv_ctl_last_lsn(ctl), ==, 1);
  g_assert_true(trv_ctl_close(ctl, NULL));
  ctl = trv_ctl_open(f->path, NULL, NULL, NULL);
  g_assert_cmpint(trv_ctl_append_record(ctl, &r, NULL, NULL), ==, TRV_CTL_DUPLICATE);
  r.seq = 6;
  append_ok(ctl, r);
  g_assert_true(trv_ctl_close(ctl, NULL));
  g_assert_cmpuint(n_records_in(f->path), ==, 2);
}

static void episodes_close_in_order_and_refuse_late_records(Fixture *f, gconstpointer d) {
  (void)d;
  TrvCtl *ctl = create(f, TRV_CTL_FSYNC_NONE);
  GError *err = NULL;
  TrvRecord end1 = ctl_test_control(TRV_RECORD_EPISODE_END, 0, 1, -1);
  g_assert_cmpint(trv_ctl_append_record(ctl, &end1, NULL, &err), ==, TRV_CTL_ERROR);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  append_ok(ctl, ctl_test_step(0, 0, 0, 0, 0, 1, 1));
  append_ok(ctl, ctl_test_control(TRV_RECORD_EPISODE_END, 0, 0, -1));
  g_assert_cmpuint(trv_ctl_next_episode(ctl), ==, 1);
  TrvRecord late = ctl_test_step(0, 1, 0, 1, 0, 1, 1);
  g_assert_cmpint(trv_ctl_append_record(ctl, &late, NULL, &err), ==, TRV_CTL_ERROR);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "closed"));
  g_clear_error(&err);
  /* A snapshot of an open episode is refused; of a closed one accepted once. */
  TrvPosterior *p = trv_posterior_new(3, &f->params);
  g_assert_cmpint(trv_ctl_append_snapshot(ctl, 1, TRV_CTL_SNAPSHOT_EPISODE, p, NULL, &err), ==, TRV_CTL_ERROR);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  g_assert_cmpint(trv_ctl_append_snapshot(ctl, 0, TRV_CTL_SNAPSHOT_EPISODE, p, NULL, NULL), ==, TRV_CTL_APPENDED);
  g_assert_cmpint(trv_ctl_append_snapshot(ctl, 0, TRV_CTL_SNAPSHOT_CHANGE_POINT, p, NULL, NULL), ==, TRV_CTL_DUPLICATE);
  trv_posterior_free(p);
  /* A posterior of another shape is refused. */
  TrvPosterior *q = trv_posterior_new(4, &f->params);
  g_assert_cmpint(trv_ctl_append_snapshot(ctl, 0, TRV_CTL_SNAPSHOT_EPISODE, q, NULL, &err), ==, TRV_CTL_ERROR);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  trv_posterior_free(q);
  g_assert_true(trv_ctl_close(ctl, NULL));
}

static unsigned acks;
static uint64_t last_ack;
static void count_ack(uint64_t lsn, void *data) {
  (void)data;
  acks++;
  last_ack = lsn;
}

static void each_policy_acknowledges_when_durable(Fixture *f, gconstpointer d) {
  (void)d;
  /* always: every append is durable when it returns. */
  TrvCtl *ctl = create(f, TRV_CTL_FSYNC_ALWAYS);
  acks = 0;
  trv_ctl_set_ack_func(ctl, count_ack, NULL);
  for (uint64_t s = 0; s < 5; s++) {
    uint64_t lsn = 0;
    TrvRecord r = ctl_test_step(0, s, 0, (uint32_t)s, 0, 1, 1);
    g_assert_cmpint(trv_ctl_append_record(ctl, &r, &lsn, NULL), ==, TRV_CTL_APPENDED);
    g_assert_cmpuint(lsn, ==, s + 1);
    g_assert_cmpuint(trv_ctl_durable_lsn(ctl), ==, lsn);
  }
  g_assert_cmpuint(acks, ==, 5);
  g_assert_true(trv_ctl_close(ctl, NULL));
  g_remove(f->path);
  /* group of 4 (time bound out of reach): acks come in fours, flush acks the rest. */
  ctl = create(f, TRV_CTL_FSYNC_GROUP);
  acks = 0;
  trv_ctl_set_ack_func(ctl, count_ack, NULL);
  for (uint64_t s = 0; s < 6; s++) {
    append_ok(ctl, ctl_test_step(0, s, 0, (uint32_t)s, 0, 1, 1));
    g_assert_cmpuint(trv_ctl_durable_lsn(ctl), ==, s + 1 >= 4 ? 4 : 0);
  }
  g_assert_cmpuint(acks, ==, 1);
  g_assert_true(trv_ctl_flush(ctl, NULL));
  g_assert_cmpuint(trv_ctl_durable_lsn(ctl), ==, 6);
  g_assert_cmpuint(last_ack, ==, 6);
  g_assert_true(trv_ctl_close(ctl, NULL));
  g_remove(f->path);
  /* group with a 1 ms bound: an append after 5 ms of quiet syncs at once. */
  TrvCtlOptions o = {.fsync = TRV_CTL_FSYNC_GROUP, .group_records = 1000, .group_ms = 1};
  ctl = trv_ctl_create(f->path, 3, &f->params, &o, NULL);
  append_ok(ctl, ctl_test_step(0, 0, 0, 0, 0, 1, 1));
  g_usleep(5000);
  g_assert_true(trv_ctl_poll(ctl, NULL));
  g_assert_cmpuint(trv_ctl_durable_lsn(ctl), ==, 1);
  append_ok(ctl, ctl_test_step(0, 1, 0, 1, 0, 1, 1));
  g_usleep(5000);
  append_ok(ctl, ctl_test_step(0, 2, 0, 2, 0, 1, 1));
  g_assert_cmpuint(trv_ctl_durable_lsn(ctl), ==, 3);
  g_assert_true(trv_ctl_close(ctl, NULL));
  g_remove(f->path);
  /* none: acknowledged at write. */
  ctl = create(f, TRV_CTL_FSYNC_NONE);
  append_ok(ctl, ctl_test_step(0, 0, 0, 0, 0, 1, 1));
  g_assert_cmpuint(trv_ctl_durable_lsn(ctl), ==, 1);
  g_assert_true(trv_ctl_close(ctl, NULL));
}

/* Fault injection: the n-th write stores half its bytes, then ENOSPC. */
typedef struct {
  int writes_left;
  int fsync_errno;
} Faults;

static ssize_t faulty_pwrite(int fd, const void *buf, size_t n, off_t off, void *data) {
  Faults *fa = data;
  if (fa->writes_left-- > 0) return pwrite(fd, buf, n, off);
  if (n > 1 && fa->writes_left == -1) return pwrite(fd, buf, n / 2, off);
  errno = ENOSPC;
  return -1;
}

static int faulty_fsync(int fd, void *data) {
  Faults *fa = data;
  if (fa->fsync_errno) {
    errno = fa->fsync_errno;
    return -1;
  }
  return fdatasync(fd);
}

static void enospc_fails_the_append_and_leaves_the_log_valid(Fixture *f, gconstpointer d) {
  (void)d;
  TrvCtl *ctl = create(f, TRV_CTL_FSYNC_ALWAYS);
  for (uint64_t s = 0; s < 3; s++) append_ok(ctl, ctl_test_step(0, s, 0, (uint32_t)s, 0, 1, 1));
  TrvCtlRecovery r0, r1;
  g_assert_true(trv_ctl_verify(f->path, &r0, NULL));
  Faults fa = {.writes_left = 0};
  TrvCtlIoHooks hooks = {faulty_pwrite, faulty_fsync, &fa};
  trv_ctl_set_io_hooks(ctl, &hooks);
  GError *err = NULL;
  TrvRecord r = ctl_test_step(0, 3, 0, 3, 0, 1, 1);
  g_assert_cmpint(trv_ctl_append_record(ctl, &r, NULL, &err), ==, TRV_CTL_ERROR);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_IO);
  g_assert_nonnull(strstr(err->message, g_strerror(ENOSPC)));
  g_assert_nonnull(strstr(err->message, f->path));
  g_clear_error(&err);
  /* The half-written frame was cut back off: the file ends at the third
   * record (not even padding is left). */
  g_assert_true(trv_ctl_verify(f->path, &r1, NULL));
  g_assert_cmpuint(r1.valid_bytes, ==, r0.valid_bytes);
  g_assert_cmpint(ctl_test_file_size(f->path), ==, (gint64)r0.valid_bytes);
  g_assert_cmpuint(trv_ctl_durable_lsn(ctl), ==, 3);
  /* Space comes back: the same record now goes in, after the good ones. */
  trv_ctl_set_io_hooks(ctl, NULL);
  append_ok(ctl, r);
  g_assert_true(trv_ctl_close(ctl, NULL));
  g_assert_true(trv_ctl_verify(f->path, NULL, NULL));
  g_assert_cmpuint(n_records_in(f->path), ==, 4);
}

static void failed_sync_breaks_the_handle_and_reopen_recovers(Fixture *f, gconstpointer d) {
  (void)d;
  TrvCtl *ctl = create(f, TRV_CTL_FSYNC_ALWAYS);
  append_ok(ctl, ctl_test_step(0, 0, 0, 0, 0, 1, 1));
  Faults fa = {.writes_left = 1000, .fsync_errno = EIO};
  TrvCtlIoHooks hooks = {faulty_pwrite, faulty_fsync, &fa};
  trv_ctl_set_io_hooks(ctl, &hooks);
  GError *err = NULL;
  TrvRecord r = ctl_test_step(0, 1, 0, 1, 0, 1, 1);
  g_assert_cmpint(trv_ctl_append_record(ctl, &r, NULL, &err), ==, TRV_CTL_ERROR);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_IO);
  g_clear_error(&err);
  g_assert_cmpuint(trv_ctl_durable_lsn(ctl), ==, 1);
  /* Broken: even a good record is refused until reopen. */
  trv_ctl_set_io_hooks(ctl, NULL);
  g_assert_cmpint(trv_ctl_append_record(ctl, &r, NULL, &err), ==, TRV_CTL_ERROR);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_IO);
  g_clear_error(&err);
  g_assert_false(trv_ctl_close(ctl, NULL));
  ctl = trv_ctl_open(f->path, NULL, NULL, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(trv_ctl_last_lsn(ctl), ==, 1);
  append_ok(ctl, r);
  g_assert_true(trv_ctl_close(ctl, NULL));
  g_assert_true(trv_ctl_verify(f->path, NULL, NULL));
}

/* A real full file system: a 64 KiB tmpfs (root only). */
static void full_tmpfs_fails_appends_cleanly(Fixture *f, gconstpointer d) {
  (void)d;
  char *mnt = g_build_filename(f->dir, "small", NULL);
  g_mkdir(mnt, 0700);
  if (geteuid() != 0 || mount("trv-ctl-test", mnt, "tmpfs", 0, "size=64k") != 0) {
    g_test_skip("cannot mount a small tmpfs (needs root and mount permission)");
    g_rmdir(mnt);
    g_free(mnt);
    return;
  }
  char *path = g_build_filename(mnt, "log.ctl", NULL);
  TrvCtlOptions o = {.fsync = TRV_CTL_FSYNC_ALWAYS};
  GError *err = NULL;
  TrvCtl *ctl = trv_ctl_create(path, 3, &f->params, &o, &err);
  g_assert_no_error(err);
  uint64_t s = 0;
  TrvCtlAppend a;
  do {
    TrvRecord r = ctl_test_step(0, s, 0, (uint32_t)s, 0, 1, 1);
    a = trv_ctl_append_record(ctl, &r, NULL, &err);
  } while (a == TRV_CTL_APPENDED && ++s < 100000);
  g_assert_cmpint(a, ==, TRV_CTL_ERROR);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_IO);
  g_test_message("tmpfs full after %" G_GUINT64_FORMAT " records: %s", s, err->message);
  g_clear_error(&err);
  g_assert_cmpuint(trv_ctl_durable_lsn(ctl), ==, s);
  trv_ctl_close(ctl, NULL);
  g_assert_true(trv_ctl_verify(path, NULL, NULL));
  g_assert_cmpuint(n_records_in(path), ==, s);
  g_remove(path);
  g_free(path);
  g_assert_cmpint(umount(mnt), ==, 0);
  g_rmdir(mnt);
  g_free(mnt);
}

static void a_second_writer_is_refused(Fixture *f, gconstpointer d) {
  (void)d;
  TrvCtl *ctl = create(f, TRV_CTL_FSYNC_NONE);
  GError *err = NULL;
  g_assert_null(trv_ctl_open(f->path, NULL, NULL, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_IO);
  g_clear_error(&err);
  g_assert_null(trv_ctl_create(f->path, 3, &f->params, NULL, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  g_assert_true(trv_ctl_close(ctl, NULL));
  char *missing = g_build_filename(f->dir, "missing.ctl", NULL);
  g_assert_null(trv_ctl_open(missing, NULL, NULL, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  g_free(missing);
}

static void mid_file_corruption_is_refused_unless_salvaged(Fixture *f, gconstpointer d) {
  (void)d;
  TrvCtl *ctl = create(f, TRV_CTL_FSYNC_NONE);
  for (uint64_t s = 0; s < 4; s++) append_ok(ctl, ctl_test_step(0, s, 0, (uint32_t)s, 0, 1, 1));
  g_assert_true(trv_ctl_close(ctl, NULL));
  gchar *bytes;
  gsize len;
  g_assert_true(g_file_get_contents(f->path, &bytes, &len, NULL));
  size_t frame = (len - 128) / 4, second = 128 + frame;
  bytes[second + 20] ^= 0x10; /* inside the second record */
  g_assert_true(g_file_set_contents(f->path, bytes, (gssize)len, NULL));
  GError *err = NULL;
  g_assert_null(trv_ctl_open(f->path, NULL, NULL, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_CORRUPT);
  char *where = g_strdup_printf("offset %zu", second);
  g_assert_nonnull(strstr(err->message, where));
  g_assert_nonnull(strstr(err->message, f->path));
  g_clear_error(&err);
  TrvCtlOptions o = {.salvage = true};
  TrvCtlRecovery rec;
  ctl = trv_ctl_open(f->path, &o, &rec, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(rec.corrupt_offset, ==, second);
  g_assert_cmpuint(rec.dropped_bytes, ==, 3 * frame);
  g_assert_cmpuint(rec.n_entries, ==, 1);
  g_assert_true(trv_ctl_close(ctl, NULL));
  char *side = g_strconcat(f->path, ".dropped", NULL);
  g_assert_cmpint(ctl_test_file_size(side), ==, 3 * (gint64)frame);
  g_assert_true(trv_ctl_verify(f->path, NULL, NULL));
  g_free(side);
  g_free(where);
  g_free(bytes);
}

static void reader_sees_only_complete_episodes_from_a_second_handle(Fixture *f, gconstpointer d) {
  (void)d;
  TrvCtl *ctl = create(f, TRV_CTL_FSYNC_NONE);
  for (uint64_t s = 0; s < 3; s++) append_ok(ctl, ctl_test_step(0, s, 0, (uint32_t)s, 0, 1, 1.5));
  append_ok(ctl, ctl_test_control(TRV_RECORD_EPISODE_END, 0, 0, -1));
  append_ok(ctl, ctl_test_step(0, 3, 1, 0, 0, 1, 0.5)); /* episode 1 is mid-way */
  /* A frame in flight: half of the next record is on disk. */
  GByteArray *half = g_byte_array_new();
  TrvRecord next = ctl_test_step(0, 4, 1, 1, 0, 1, 0.5);
  gchar *bytes;
  gsize len;
  g_assert_true(g_file_get_contents(f->path, &bytes, &len, NULL));
  TrvCtlScan scan;
  g_assert_true(trv_ctl_scan((const uint8_t *)bytes, len, f->path, false, &scan, NULL));
  trv_ctl_frame_record(half, &scan.chain, &next); /* the frame that comes next */
  trv_ctl_scan_clear(&scan);
  g_free(bytes);
  gint64 size = ctl_test_file_size(f->path);
  FILE *fp = fopen(f->path, "ab");
  fwrite(half->data, 1, half->len / 2, fp);
  fclose(fp);
  GError *err = NULL;
  TrvCtlView *v = trv_ctl_view_open(f->path, false, &err);
  g_assert_no_error(err);
  uint32_t first;
  g_assert_cmpuint(trv_ctl_view_episodes(v, &first), ==, 1);
  g_assert_cmpuint(first, ==, 0);
  size_t n;
  trv_ctl_view_episode_records(v, 1, &n);
  g_assert_cmpuint(n, ==, 0);
  TrvCtlStats st;
  trv_ctl_view_stats(v, &st);
  g_assert_cmpuint(st.n_pending_records, ==, 1);
  /* The view's posterior is the fold of episode 0 alone. */
  TrvPosterior *want = trv_posterior_new(3, &f->params);
  TrvRecord e0[4];
  memcpy(e0, trv_ctl_view_episode_records(v, 0, &n), sizeof e0);
  g_assert_cmpuint(n, ==, 4);
  trv_replay_episode(want, e0, 4);
  TrvPosterior *got = trv_ctl_view_replay(v, -1, -1, &err);
  g_assert_no_error(err);
  g_assert_true(trv_posterior_equal(got, want));
  trv_posterior_free(got);
  trv_posterior_free(want);
  trv_ctl_view_free(v);
  /* The reader did not truncate the writer's frame in flight. */
  g_assert_cmpint(ctl_test_file_size(f->path), ==, size + (gint64)half->len / 2);
  g_byte_array_unref(half);
  g_assert_true(trv_ctl_close(ctl, NULL));
}

static void reader_process_never_sees_a_half_applied_episode(Fixture *f, gconstpointer d) {
  (void)d;
  TrvCtl *ctl = create(f, TRV_CTL_FSYNC_NONE);
  g_assert_true(trv_ctl_close(ctl, NULL));
  int go[2], ready[2];
  g_assert_cmpint(pipe(go), ==, 0);
  g_assert_cmpint(pipe(ready), ==, 0);
  pid_t pid = fork();
  g_assert_cmpint(pid, >=, 0);
  if (pid == 0) { /* writer process: 20 episodes of 7 records, pausing mid-episode 10 */
    TrvCtl *w = trv_ctl_open(f->path, NULL, NULL, NULL);
    for (uint32_t e = 0; e < 20; e++) {
      for (uint32_t k = 0; k < 6; k++) {
        TrvRecord r = ctl_test_step(0, e * 6 + k, e, k, (int)(k % 3), 1, 0.1 * k);
        if (trv_ctl_append_record(w, &r, NULL, NULL) != TRV_CTL_APPENDED) _exit(3);
        if (e == 10 && k == 3) {
          char c = 'r', g;
          if (write(ready[1], &c, 1) != 1 || read(go[0], &g, 1) != 1) _exit(4);
        }
      }
      TrvRecord end = ctl_test_control(TRV_RECORD_EPISODE_END, e, e, -1);
      if (trv_ctl_append_record(w, &end, NULL, NULL) != TRV_CTL_APPENDED) _exit(5);
    }
    _exit(trv_ctl_close(w, NULL) ? 0 : 6);
  }
  char c;
  g_assert_cmpint(read(ready[0], &c, 1), ==, 1);
  GError *err = NULL;
  TrvCtlView *v = trv_ctl_view_open(f->path, false, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(trv_ctl_view_episodes(v, NULL), ==, 10);
  TrvCtlStats st;
  trv_ctl_view_stats(v, &st);
  g_assert_cmpuint(st.n_pending_records, ==, 4);
  trv_ctl_view_free(v);
  g_assert_cmpint(write(go[1], "g", 1), ==, 1);
  int status;
  g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
  g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  v = trv_ctl_view_open(f->path, false, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(trv_ctl_view_episodes(v, NULL), ==, 20);
  trv_ctl_view_free(v);
  close(go[0]);
  close(go[1]);
  close(ready[0]);
  close(ready[1]);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
#define ADD(name) g_test_add("/ctl/log/" #name, Fixture, NULL, setup, name, teardown)
  ADD(retried_append_is_a_duplicate_also_after_reopen);
  ADD(episodes_close_in_order_and_refuse_late_records);
  ADD(each_policy_acknowledges_when_durable);
  ADD(enospc_fails_the_append_and_leaves_the_log_valid);
  ADD(failed_sync_breaks_the_handle_and_reopen_recovers);
  ADD(full_tmpfs_fails_appends_cleanly);
  ADD(a_second_writer_is_refused);
  ADD(mid_file_corruption_is_refused_unless_salvaged);
  ADD(reader_sees_only_complete_episodes_from_a_second_handle);
  ADD(reader_process_never_sees_a_half_applied_episode);
#undef ADD
  return g_test_run();
}
