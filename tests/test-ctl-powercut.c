/* Power loss, simulated: an I/O shim in the writer's path (the log's I/O
 * hooks) keeps the file as the disk would hold it.  Writes go to the page
 * cache (the real file) and to a list of pending writes; a completed fsync
 * moves the pending writes to the disk image.  At a random fsync the power
 * fails instead: that fsync never completes, and two images of the disk are
 * taken:
 *   dropped: the disk image alone, everything written after the last
 *            completed fsync lost;
 *   torn:    the disk image plus a prefix of the pending writes in order,
 *            cut at a random byte (a write that reached the disk in part).
 * Each image must be accepted without salvage (a power cut is a crash, not
 * corruption), hold a prefix of the entries appended, in order, and hold
 * every entry acknowledged before the cut (durable_lsn: under always, every
 * append that returned; under group, every group whose fdatasync
 * completed).  The recovered log must then take appends again.
 * Trials per policy: TRV_CTL_POWERCUT_TRIALS (default 25);
 * scripts/ctl-crash-test.sh runs the long form and prints the figures. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "log/ctl-internal.h"
#include "test-ctl-util.h"

typedef struct {
  uint64_t off;
  size_t at, n; /* the bytes are pending_bytes[at .. at + n) */
} Write;

typedef struct {
  GByteArray *disk; /* the file as the disk holds it */
  GArray *pending;  /* Write, since the last completed fsync */
  GByteArray *pending_bytes;
  unsigned fsyncs, cut_at; /* fsync number cut_at never completes */
  GRand *rand;
  GByteArray *dropped, *torn; /* the images taken at the cut (NULL before) */
} Shim;

static void apply(GByteArray *img, uint64_t off, const uint8_t *p, size_t n) {
  if (off + n > img->len) {
    size_t old = img->len;
    g_byte_array_set_size(img, (guint)(off + n));
    memset(img->data + old, 0, img->len - old); /* a hole reads as zeros */
  }
  memcpy(img->data + off, p, n);
}

static ssize_t shim_pwrite(int fd, const void *buf, size_t n, off_t off, void *data) {
  Shim *s = data;
  ssize_t w = pwrite(fd, buf, n, off); /* the page cache: what the process sees */
  if (w > 0) {
    Write rec = {(uint64_t)off, s->pending_bytes->len, (size_t)w};
    g_byte_array_append(s->pending_bytes, buf, (guint)w);
    g_array_append_val(s->pending, rec);
  }
  return w;
}

static int shim_fsync(int fd, void *data) {
  (void)fd;
  Shim *s = data;
  if (++s->fsyncs == s->cut_at) {
    s->dropped = g_byte_array_new();
    g_byte_array_append(s->dropped, s->disk->data, s->disk->len);
    s->torn = g_byte_array_new();
    g_byte_array_append(s->torn, s->disk->data, s->disk->len);
    /* Torn inside a random one of the pending writes (a frame, a group or
     * a piece of preallocation), at a random byte of it. */
    size_t budget = 0;
    if (s->pending->len) {
      guint k = (guint)g_rand_int_range(s->rand, 0, (gint32)s->pending->len);
      const Write *w = &g_array_index(s->pending, Write, k);
      budget = w->at + (size_t)g_rand_int_range(s->rand, 0, (gint32)w->n + 1);
    }
    for (guint i = 0; i < s->pending->len && budget; i++) {
      const Write *w = &g_array_index(s->pending, Write, i);
      size_t n = w->n < budget ? w->n : budget;
      apply(s->torn, w->off, s->pending_bytes->data + w->at, n);
      budget -= n;
    }
    errno = EIO; /* the power is gone: this sync never returns success */
    return -1;
  }
  for (guint i = 0; i < s->pending->len; i++) {
    const Write *w = &g_array_index(s->pending, Write, i);
    apply(s->disk, w->off, s->pending_bytes->data + w->at, w->n);
  }
  g_array_set_size(s->pending, 0);
  g_byte_array_set_size(s->pending_bytes, 0);
  return 0;
}

/* What was appended, in order: a record, or the snapshot of an episode. */
typedef struct {
  bool is_record;
  TrvRecord rec;
  uint32_t snap_episode;
} Appended;

typedef struct {
  uint64_t trials, acked_records, recovered_records, lost_records, unacked_whole, torn_frames;
} Figures;

/* Recovers one image and checks it against what was appended; adds to f. */
static void recover_image(const char *path, const GByteArray *img, const GArray *appended, uint64_t acked, Figures *f) {
  GError *err = NULL;
  ctl_test_write_file(path, img->data, img->len);
  TrvCtlRecovery vr;
  g_assert_true(trv_ctl_verify(path, &vr, &err)); /* a crash result, never corruption */
  g_assert_no_error(err);
  g_assert_cmpuint(vr.dropped_bytes, ==, 0);
  TrvCtlScan scan;
  g_assert_true(trv_ctl_scan(img->data, img->len, path, false, &scan, &err));
  guint n = scan.entries->len;
  g_assert_cmpuint(n, >=, acked);
  g_assert_cmpuint(n, <=, appended->len);
  for (guint i = 0; i < n; i++) {
    const TrvCtlEntry *e = &g_array_index(scan.entries, TrvCtlEntry, i);
    const Appended *a = &g_array_index(appended, Appended, i);
    g_assert_cmpint(e->type == TRV_CTL_ENTRY_RECORD, ==, a->is_record);
    if (a->is_record)
      g_assert_true(ctl_test_record_equal(&e->rec, &a->rec));
    else
      g_assert_cmpuint(e->snap_episode, ==, a->snap_episode);
    if (a->is_record && i < acked) f->recovered_records++;
  }
  for (guint i = 0; i < acked; i++) f->acked_records += g_array_index(appended, Appended, i).is_record;
  f->unacked_whole += n - acked;
  f->torn_frames += vr.torn_bytes > 0;
  trv_ctl_scan_clear(&scan);
  /* The writer recovers it to the same entries and appends after them. */
  TrvCtlRecovery rec;
  TrvCtlOptions none = {.fsync = TRV_CTL_FSYNC_NONE};
  TrvCtl *ctl = trv_ctl_open(path, &none, &rec, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(rec.n_entries, ==, n);
  g_assert_cmpuint(rec.valid_bytes, ==, vr.valid_bytes);
  TrvRecord more = ctl_test_step(7, 1u << 30, trv_ctl_next_episode(ctl), 0, 0, 1, 1);
  g_assert_cmpint(trv_ctl_append_record(ctl, &more, NULL, &err), ==, TRV_CTL_APPENDED);
  g_assert_true(trv_ctl_close(ctl, &err));
  g_assert_no_error(err);
  g_assert_true(trv_ctl_verify(path, NULL, &err));
  g_assert_no_error(err);
}

static void run_trials(TrvCtlFsync policy, int trials, Figures *dropped, Figures *torn) {
  char *dir = ctl_test_tmpdir();
  char *path = g_build_filename(dir, "powercut.ctl", NULL);
  char *image = g_build_filename(dir, "after-cut.ctl", NULL);
  TrvPosteriorParams params = ctl_test_params();
  GRand *rand = g_rand_new_with_seed((guint32)g_test_rand_int());
  for (int t = 0; t < trials; t++) {
    GError *err = NULL;
    g_remove(path);
    TrvCtlOptions o = {.fsync = policy, .group_records = 64, .group_ms = 10};
    TrvCtl *ctl = trv_ctl_create(path, 3, &params, &o, &err);
    g_assert_no_error(err);
    Shim s = {.disk = g_byte_array_new(),
              .pending = g_array_new(FALSE, FALSE, sizeof(Write)),
              .pending_bytes = g_byte_array_new(),
              .rand = rand};
    gchar *header;
    gsize header_len;
    g_assert_true(g_file_get_contents(path, &header, &header_len, NULL)); /* created durably */
    g_byte_array_append(s.disk, (const guint8 *)header, (guint)header_len);
    g_free(header);
    /* always: one fsync per append; group: one per 64. */
    s.cut_at = (unsigned)g_rand_int_range(rand, 1, policy == TRV_CTL_FSYNC_ALWAYS ? 700 : 45);
    TrvCtlIoHooks hooks = {shim_pwrite, shim_fsync, &s};
    trv_ctl_set_io_hooks(ctl, &hooks);
    GArray *appended = g_array_new(FALSE, FALSE, sizeof(Appended));
    TrvPosterior *live = trv_posterior_new(3, &params);
    TrvRecord ep[11];
    uint64_t acked = 0;
    /* Episodes of 10 steps, an END marker and a snapshot, until the cut. */
    for (uint32_t e = 0; !s.dropped; e++) {
      for (uint32_t k = 0; k <= 10 && !s.dropped; k++) {
        ep[k] = k < 10 ? ctl_test_step(k % 3, e * 10 + k, e, k, (int)(k % 3), k % 2 ? 1.0 : -1.0, 0.01 * e)
                       : ctl_test_control(TRV_RECORD_EPISODE_END, e, e, -1);
        Appended a = {.is_record = true, .rec = ep[k]};
        g_array_append_val(appended, a);
        TrvCtlAppend r = trv_ctl_append_record(ctl, &ep[k], NULL, &err);
        g_assert_true(r == TRV_CTL_APPENDED || (r == TRV_CTL_ERROR && s.dropped));
        g_clear_error(&err);
        if (!s.dropped) acked = trv_ctl_durable_lsn(ctl);
      }
      if (s.dropped) break;
      trv_replay_episode(live, ep, 11);
      Appended a = {.is_record = false, .snap_episode = e};
      g_array_append_val(appended, a);
      TrvCtlAppend r = trv_ctl_append_snapshot(ctl, e, TRV_CTL_SNAPSHOT_EPISODE, live, NULL, &err);
      g_assert_true(r == TRV_CTL_APPENDED || (r == TRV_CTL_ERROR && s.dropped));
      g_clear_error(&err);
      if (!s.dropped) acked = trv_ctl_durable_lsn(ctl);
    }
    /* The handle is broken by the failed sync; what counted was acked. */
    g_assert_cmpuint(trv_ctl_durable_lsn(ctl), ==, acked);
    trv_ctl_close(ctl, NULL);
    recover_image(image, s.dropped, appended, acked, dropped);
    recover_image(image, s.torn, appended, acked, torn);
    dropped->trials++;
    torn->trials++;
    trv_posterior_free(live);
    g_array_free(appended, TRUE);
    g_byte_array_unref(s.disk);
    g_byte_array_unref(s.dropped);
    g_byte_array_unref(s.torn);
    g_array_free(s.pending, TRUE);
    g_byte_array_unref(s.pending_bytes);
  }
  g_rand_free(rand);
  g_free(path);
  g_free(image);
  ctl_test_rmdir(dir);
}

static void report(const char *policy, const char *model, const Figures *f) {
  /* One line per policy and model; scripts/ctl-crash-test.sh collects them. */
  g_test_message("figures: power-cut policy=%s model=%s trials=%" G_GUINT64_FORMAT " acknowledged=%" G_GUINT64_FORMAT
                 " recovered=%" G_GUINT64_FORMAT " lost=%" G_GUINT64_FORMAT " unacknowledged-whole=%" G_GUINT64_FORMAT
                 " torn-frames=%" G_GUINT64_FORMAT,
                 policy, model, f->trials, f->acked_records, f->recovered_records, f->lost_records, f->unacked_whole,
                 f->torn_frames);
}

static void power_cut_keeps_every_acknowledged_record(gconstpointer data) {
  TrvCtlFsync policy = (TrvCtlFsync)GPOINTER_TO_INT(data);
  const char *env = g_getenv("TRV_CTL_POWERCUT_TRIALS");
  int trials = env ? atoi(env) : 25;
  Figures dropped = {0}, torn = {0};
  run_trials(policy, trials, &dropped, &torn);
  dropped.lost_records = dropped.acked_records - dropped.recovered_records;
  torn.lost_records = torn.acked_records - torn.recovered_records;
  report(trv_ctl_fsync_name(policy), "dropped", &dropped);
  report(trv_ctl_fsync_name(policy), "torn", &torn);
  g_assert_cmpuint(dropped.lost_records + torn.lost_records, ==, 0);
  g_assert_cmpuint(dropped.acked_records, >, 0);
  /* Under group, an append is acknowledged only with its group's sync, so
   * a cut before any sync completed acknowledges nothing; across the
   * trials the cuts land late enough to acknowledge many. */
  g_assert_cmpuint(dropped.acked_records, >=, (uint64_t)trials);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_data_func("/ctl/powercut/always_keeps_every_acknowledged_record", GINT_TO_POINTER(TRV_CTL_FSYNC_ALWAYS),
                       power_cut_keeps_every_acknowledged_record);
  g_test_add_data_func("/ctl/powercut/group_keeps_every_acknowledged_record", GINT_TO_POINTER(TRV_CTL_FSYNC_GROUP),
                       power_cut_keeps_every_acknowledged_record);
  return g_test_run();
}
