/* Corruption, exhaustively, on a small log (two closed episodes, one open,
 * two snapshots): every single-bit flip and every truncation point.  Every
 * bit flip is refused by verify, in the last entry too (a complete frame
 * with a bad checksum is not a torn append); every truncation is refused
 * inside the header or leaves whole entries and at most one torn frame,
 * which recovery truncates.  Whatever recovery (or salvage) keeps folds to
 * exactly the posterior of the records that survived, computed here
 * independently.  test-ctl-chain.c does deletions, swaps, zeroed pages and
 * garbage on a larger log. */
#include "test-ctl-util.h"

typedef struct {
  TrvRecord rec;
  bool is_record;
  uint64_t end; /* file offset just past the entry */
} Entry;

typedef struct {
  char *dir, *path, *work;
  GArray *entries; /* Entry, file order */
  gchar *bytes;
  gsize len;
  TrvPosteriorParams params;
} Log;

static void build_log(Log *log) {
  log->dir = ctl_test_tmpdir();
  log->path = g_build_filename(log->dir, "small.ctl", NULL);
  log->work = g_build_filename(log->dir, "work.ctl", NULL);
  log->params = ctl_test_params();
  log->entries = g_array_new(FALSE, FALSE, sizeof(Entry));
  GError *err = NULL;
  /* fsync=none: no preallocation, so the file size after each append is
   * where the entry ends. */
  TrvCtlOptions o = {.fsync = TRV_CTL_FSYNC_NONE};
  TrvCtl *ctl = trv_ctl_create(log->path, 3, &log->params, &o, &err);
  g_assert_no_error(err);
  TrvPosterior *live = trv_posterior_new(3, &log->params);
  TrvRecord plan[] = {
      ctl_test_step(0, 0, 0, 0, 0, 1, 1.2),
      ctl_test_step(1, 0, 0, 0, 1, -1, -0.7),
      ctl_test_step(2, 0, 0, 1, 2, 1, 0.1),
      ctl_test_control(TRV_RECORD_EPISODE_END, 0, 0, -1),
      ctl_test_step(0, 1, 1, 0, 0, -1, -1.1),
      ctl_test_control(TRV_RECORD_RESET, 1, 1, 2),
      ctl_test_control(TRV_RECORD_EPISODE_END, 2, 1, -1),
      ctl_test_step(1, 1, 2, 0, 1, 1, 0.9),
  };
  size_t start = 0;
  for (size_t i = 0; i < G_N_ELEMENTS(plan); i++) {
    g_assert_cmpint(trv_ctl_append_record(ctl, &plan[i], NULL, &err), ==, TRV_CTL_APPENDED);
    Entry e = {plan[i], true, (uint64_t)ctl_test_file_size(log->path)};
    g_array_append_val(log->entries, e);
    if (plan[i].kind == TRV_RECORD_EPISODE_END) {
      trv_replay_episode(live, plan + start, i + 1 - start);
      start = i + 1;
      g_assert_cmpint(trv_ctl_append_snapshot(ctl, plan[i].episode, TRV_CTL_SNAPSHOT_EPISODE, live, NULL, &err), ==,
                      TRV_CTL_APPENDED);
      Entry s = {.is_record = false, .end = (uint64_t)ctl_test_file_size(log->path)};
      g_array_append_val(log->entries, s);
    }
  }
  trv_posterior_free(live);
  g_assert_true(trv_ctl_close(ctl, NULL));
  g_assert_true(g_file_get_contents(log->path, &log->bytes, &log->len, NULL));
}

static void free_log(Log *log) {
  g_array_free(log->entries, TRUE);
  g_free(log->bytes);
  g_free(log->path);
  g_free(log->work);
  ctl_test_rmdir(log->dir);
}

/* Posterior of the complete episodes among the entries ending by `keep`. */
static TrvPosterior *fold_survivors(const Log *log, uint64_t keep) {
  TrvPosterior *post = trv_posterior_new(3, &log->params);
  GArray *ep = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  for (guint i = 0; i < log->entries->len; i++) {
    const Entry *e = &g_array_index(log->entries, Entry, i);
    if (e->end > keep) break;
    if (!e->is_record) continue;
    g_array_append_val(ep, e->rec);
    if (e->rec.kind == TRV_RECORD_EPISODE_END) {
      trv_replay_episode(post, (TrvRecord *)(void *)ep->data, ep->len);
      g_array_set_size(ep, 0);
    }
  }
  g_array_free(ep, TRUE);
  return post;
}

static bool at_entry_boundary(const Log *log, uint64_t off) {
  if (off == 128) return true;
  for (guint i = 0; i < log->entries->len; i++)
    if (g_array_index(log->entries, Entry, i).end == off) return true;
  return false;
}

/* The view's posterior, from zero and from every snapshot it holds, must
 * equal the independent fold of the entries that fit in `keep` bytes. */
static void assert_posterior_of_survivors(const Log *log, TrvCtlView *v, uint64_t keep) {
  GError *err = NULL;
  TrvPosterior *want = fold_survivors(log, keep);
  TrvPosterior *got = trv_ctl_view_replay(v, -1, -1, &err);
  g_assert_no_error(err);
  g_assert_true(trv_posterior_equal(got, want));
  trv_posterior_free(got);
  for (size_t i = 0; i < trv_ctl_view_n_snapshots(v); i++) {
    got = trv_ctl_view_replay(v, trv_ctl_view_snapshot_episode(v, i, NULL), -1, &err);
    g_assert_no_error(err);
    g_assert_true(trv_posterior_equal(got, want));
    trv_posterior_free(got);
  }
  trv_posterior_free(want);
}

/* Checks one damaged image; returns true if verify refused it. */
static bool check_damaged(const Log *log, const gchar *bytes, gsize len, gint64 damage_at) {
  ctl_test_write_file(log->work, bytes, len);
  GError *err = NULL;
  TrvCtlRecovery vr;
  bool valid = trv_ctl_verify(log->work, &vr, &err);
  if (!valid) {
    g_assert_true(g_error_matches(err, TRV_ERROR, TRV_ERROR_CORRUPT) ||
                  g_error_matches(err, TRV_ERROR, TRV_ERROR_INPUT));
    g_clear_error(&err);
    /* Salvage keeps a prefix of whole entries that folds correctly. */
    TrvCtlView *v = trv_ctl_view_open(log->work, true, &err);
    if (v) {
      uint64_t keep = trv_ctl_view_recovery(v)->valid_bytes;
      g_assert_true(at_entry_boundary(log, keep));
      g_assert_cmpint((gint64)keep, <=, damage_at);
      assert_posterior_of_survivors(log, v, keep);
      trv_ctl_view_free(v);
    } else {
      g_clear_error(&err); /* header damage: nothing to salvage */
    }
    return true;
  }
  /* Accepted: the damage must lie in a torn tail, or not exist (a cut at
   * an entry boundary is a shorter valid log). */
  uint64_t keep = vr.valid_bytes;
  g_assert_true(at_entry_boundary(log, keep));
  g_assert_cmpuint(vr.padding_bytes, ==, 0);
  g_assert_cmpuint(keep + vr.torn_bytes, ==, len); /* the rest is the one torn frame */
  if (damage_at >= 0) g_assert_cmpint((gint64)keep, <=, damage_at);
  TrvCtlRecovery rec;
  TrvCtl *ctl = trv_ctl_open(log->work, NULL, &rec, &err);
  g_assert_no_error(err);
  g_assert_true(trv_ctl_close(ctl, NULL));
  g_assert_cmpuint(rec.valid_bytes, ==, keep);
  g_assert_cmpint(ctl_test_file_size(log->work), ==, (gint64)keep);
  TrvCtlView *v = trv_ctl_view_open(log->work, false, &err);
  g_assert_no_error(err);
  assert_posterior_of_survivors(log, v, keep);
  trv_ctl_view_free(v);
  return false;
}

static void every_bit_flip_is_refused_even_in_the_last_entry(void) {
  Log log;
  build_log(&log);
  size_t detected = 0, torn = 0;
  gchar *copy = g_memdup2(log.bytes, log.len);
  for (size_t bit = 0; bit < log.len * 8; bit++) {
    copy[bit / 8] ^= (char)(1u << (bit % 8));
    if (check_damaged(&log, copy, log.len, (gint64)(bit / 8)))
      detected++;
    else
      torn++;
    copy[bit / 8] ^= (char)(1u << (bit % 8));
  }
  g_test_message("%zu-byte log: %zu bit flips refused by verify, %zu accepted", log.len, detected, torn);
  /* None passes as a torn tail, in the last entry neither: its length must
   * be the one its type gives, and its checksum must match. */
  g_assert_cmpuint(torn, ==, 0);
  g_assert_cmpuint(detected, ==, log.len * 8);
  g_free(copy);
  free_log(&log);
}

static void every_truncation_is_refused_in_the_header_or_recovered_to_a_prefix(void) {
  Log log;
  build_log(&log);
  size_t detected = 0, recovered = 0;
  for (gsize cut = 0; cut < log.len; cut++) {
    if (check_damaged(&log, log.bytes, cut, at_entry_boundary(&log, cut) ? -1 : (gint64)cut))
      detected++;
    else
      recovered++;
  }
  g_test_message("%zu truncation points: %zu refused (inside the header), %zu recovered", log.len, detected, recovered);
  g_assert_cmpuint(detected, ==, 128); /* exactly the cuts inside the header */
  free_log(&log);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/ctl/corrupt/every_bit_flip_is_refused_even_in_the_last_entry",
                  every_bit_flip_is_refused_even_in_the_last_entry);
  g_test_add_func("/ctl/corrupt/every_truncation_is_refused_in_the_header_or_recovered_to_a_prefix",
                  every_truncation_is_refused_in_the_header_or_recovered_to_a_prefix);
  return g_test_run();
}
