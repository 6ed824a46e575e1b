/* Event sourcing on a 500-episode CausalBench-Seq stream: the posterior
 * replayed from zero equals the live controller's, and equals the replay
 * from every stored snapshot, bit for bit; compaction keeps it bit-identical
 * and keeps accepting the stream afterwards. */
#include <math.h>

#include "test-ctl-util.h"

#define EPISODES 500

typedef struct {
  char *dir, *path;
  TrvPosterior *live; /* the controller's posterior, folded as it went */
  TrvPosteriorParams params;
  GArray *open_tail; /* records of episode 500, which stays open */
} Stream;

/* Writes the stream the way a controller would: each episode's records,
 * its END marker, the live fold, then the episode's snapshot; at the two
 * structure changes the snapshot is a change-point one (the boundary
 * snapshot of the same episode is then a duplicate). */
static void write_stream(Stream *s) {
  s->dir = ctl_test_tmpdir();
  s->path = g_build_filename(s->dir, "seq.ctl", NULL);
  s->params = ctl_test_params();
  s->live = trv_posterior_new(3, &s->params);
  GError *err = NULL;
  TrvCtlOptions o = {.fsync = TRV_CTL_FSYNC_NONE};
  TrvCtl *ctl = trv_ctl_create(s->path, 3, &s->params, &o, &err);
  g_assert_no_error(err);
  TrvRng world, probe;
  trv_rng_init(&world, 2024, TRV_STREAM_WORLD);
  trv_rng_init(&probe, 2024, TRV_STREAM_PROBE);
  uint64_t agent_seq[3] = {0, 0, 0}, ctl_seq = 0;
  GArray *ep = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  for (uint32_t e = 0; e <= EPISODES; e++) {
    g_array_set_size(ep, 0);
    ctl_test_causalbench_episode(&world, &probe, e, agent_seq, &ctl_seq, ep);
    if (e == EPISODES) { /* leave the last one open: 4 of its records */
      g_array_set_size(ep, 4);
      for (guint i = 0; i < ep->len; i++)
        g_assert_cmpint(trv_ctl_append_record(ctl, &g_array_index(ep, TrvRecord, i), NULL, &err), ==, TRV_CTL_APPENDED);
      s->open_tail = g_array_copy(ep);
      break;
    }
    for (guint i = 0; i < ep->len; i++) {
      g_assert_cmpint(trv_ctl_append_record(ctl, &g_array_index(ep, TrvRecord, i), NULL, &err), ==, TRV_CTL_APPENDED);
      g_assert_no_error(err);
    }
    trv_replay_episode(s->live, (TrvRecord *)(void *)ep->data, ep->len);
    bool change = e == 150 || e == 300;
    g_assert_cmpint(trv_ctl_append_snapshot(ctl, e, change ? TRV_CTL_SNAPSHOT_CHANGE_POINT : TRV_CTL_SNAPSHOT_EPISODE,
                                            s->live, NULL, &err),
                    ==, TRV_CTL_APPENDED);
    if (change)
      g_assert_cmpint(trv_ctl_append_snapshot(ctl, e, TRV_CTL_SNAPSHOT_EPISODE, s->live, NULL, &err), ==,
                      TRV_CTL_DUPLICATE);
  }
  g_array_free(ep, TRUE);
  g_assert_true(trv_ctl_close(ctl, &err));
  g_assert_no_error(err);
}

static void free_stream(Stream *s) {
  trv_posterior_free(s->live);
  g_array_free(s->open_tail, TRUE);
  g_free(s->path);
  ctl_test_rmdir(s->dir);
}

static void replay_from_zero_equals_replay_from_every_snapshot(void) {
  Stream s;
  write_stream(&s);
  GError *err = NULL;
  TrvCtlView *v = trv_ctl_view_open(s.path, false, &err);
  g_assert_no_error(err);
  uint32_t first;
  g_assert_cmpuint(trv_ctl_view_episodes(v, &first), ==, EPISODES);
  g_assert_cmpuint(trv_ctl_view_n_snapshots(v), ==, EPISODES);
  TrvPosterior *zero = trv_ctl_view_replay(v, -1, -1, &err);
  g_assert_no_error(err);
  g_assert_true(trv_posterior_equal(zero, s.live));
  for (size_t i = 0; i < trv_ctl_view_n_snapshots(v); i++) {
    TrvCtlSnapshotReason why;
    uint32_t e = trv_ctl_view_snapshot_episode(v, i, &why);
    g_assert_cmpuint(e, ==, i);
    g_assert_cmpint(why, ==, e == 150 || e == 300 ? TRV_CTL_SNAPSHOT_CHANGE_POINT : TRV_CTL_SNAPSHOT_EPISODE);
    TrvPosterior *from = trv_ctl_view_replay(v, e, -1, &err);
    g_assert_no_error(err);
    g_assert_true(trv_posterior_equal(from, zero));
    trv_posterior_free(from);
  }
  /* The fold carries the stream's structure: X->Y present at the end of its
   * active span, absent at the end; C->X and C->Y present throughout (far
   * from the prior's 0.5 either way: one stream's presences, so the bounds
   * leave room for another stream's draws). */
  TrvPosterior *mid = trv_ctl_view_replay(v, -1, 299, &err);
  g_assert_no_error(err);
  g_assert_cmpfloat(trv_posterior_presence(mid, 2), >, 0.8);
  trv_posterior_free(mid);
  g_assert_cmpfloat(trv_posterior_presence(zero, 0), >, 0.8);
  g_assert_cmpfloat(trv_posterior_presence(zero, 1), >, 0.8);
  g_assert_cmpfloat(trv_posterior_presence(zero, 2), <, 0.2);
  /* And verify checks every snapshot against the fold from zero. */
  g_assert_true(trv_ctl_verify(s.path, NULL, &err));
  g_assert_no_error(err);
  TrvCtlStats st;
  trv_ctl_view_stats(v, &st);
  g_assert_cmpuint(st.n_by_kind[TRV_RECORD_RESET], ==, 3);
  g_assert_cmpuint(st.n_by_kind[TRV_RECORD_EPISODE_END], ==, EPISODES);
  g_assert_cmpuint(st.n_by_kind[TRV_RECORD_STEP], ==, EPISODES * 15 + 4);
  g_test_message("%" G_GUINT64_FORMAT " bytes: %" G_GUINT64_FORMAT " records (%.1f bytes/record), %" G_GUINT64_FORMAT
                 " snapshots (%.1f bytes each)",
                 st.file_bytes, st.n_records, (double)st.record_bytes / (double)st.n_records, st.n_snapshots,
                 (double)st.snapshot_bytes / (double)st.n_snapshots);
  trv_posterior_free(zero);
  trv_ctl_view_free(v);
  free_stream(&s);
}

static void compaction_keeps_the_posterior_bit_identical(void) {
  Stream s;
  write_stream(&s);
  GError *err = NULL;
  char *compact = g_build_filename(s.dir, "compact.ctl", NULL);
  char *archive = g_build_filename(s.dir, "archive.ctl", NULL);
  char *copy = g_build_filename(s.dir, "copy.ctl", NULL);
  gchar *orig;
  gsize orig_len;
  g_assert_true(g_file_get_contents(s.path, &orig, &orig_len, NULL));
  g_assert_true(g_file_set_contents(copy, orig, (gssize)orig_len, NULL));
  TrvCtlCompactStats cs;
  g_assert_true(trv_ctl_compact(copy, NULL, archive, &cs, &err));
  g_assert_no_error(err);
  g_assert_true(g_rename(copy, compact) == 0);
  g_assert_cmpuint(cs.base_episode, ==, EPISODES - 1);
  g_assert_cmpuint(cs.records_after, ==, s.open_tail->len);
  g_assert_cmpuint(cs.bytes_before, ==, orig_len);
  g_assert_cmpint(ctl_test_file_size(archive), ==, (gint64)orig_len); /* raw records kept */
  g_assert_cmpuint(cs.bytes_after * 20, <, cs.bytes_before);
  g_test_message("compaction: %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
                 " -> %" G_GUINT64_FORMAT " records; %.2f bytes per logged record before, %.3f after",
                 cs.bytes_before, cs.bytes_after, cs.records_before, cs.records_after,
                 (double)cs.bytes_before / (double)cs.records_before,
                 (double)cs.bytes_after / (double)cs.records_before);
  TrvCtlView *before = trv_ctl_view_open(s.path, false, &err);
  TrvCtlView *after = trv_ctl_view_open(compact, false, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(trv_ctl_view_header(after)->base_episode, ==, EPISODES - 1);
  TrvPosterior *pb = trv_ctl_view_replay(before, -1, -1, &err);
  TrvPosterior *pa = trv_ctl_view_replay(after, -1, -1, &err);
  g_assert_no_error(err);
  g_assert_true(trv_posterior_equal(pa, pb));
  g_assert_true(trv_posterior_equal(pa, s.live));
  trv_posterior_free(pa);
  trv_posterior_free(pb);
  trv_ctl_view_free(before);
  trv_ctl_view_free(after);
  g_assert_true(trv_ctl_verify(compact, NULL, &err));
  g_assert_no_error(err);
  /* Both logs take the rest of the open episode and agree again. */
  TrvRng world, probe;
  trv_rng_init(&world, 99, TRV_STREAM_WORLD);
  trv_rng_init(&probe, 99, TRV_STREAM_PROBE);
  uint64_t seqs[3] = {5000, 5000, 5000}, cseq = 5000;
  GArray *rest = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  ctl_test_causalbench_episode(&world, &probe, EPISODES, seqs, &cseq, rest);
  const char *paths[2] = {s.path, compact};
  TrvPosterior *post[2];
  for (int k = 0; k < 2; k++) {
    TrvCtl *ctl = trv_ctl_open(paths[k], NULL, NULL, &err);
    g_assert_no_error(err);
    /* A retry of a record compacted away is still a duplicate. */
    TrvRecord old = ctl_test_step(0, 0, 0, 0, 0, 1, 1);
    g_assert_cmpint(trv_ctl_append_record(ctl, &old, NULL, &err), ==, TRV_CTL_DUPLICATE);
    g_assert_cmpint(trv_ctl_append_record(ctl, &g_array_index(s.open_tail, TrvRecord, 0), NULL, &err), ==,
                    TRV_CTL_DUPLICATE);
    for (guint i = 0; i < rest->len; i++)
      g_assert_cmpint(trv_ctl_append_record(ctl, &g_array_index(rest, TrvRecord, i), NULL, &err), ==, TRV_CTL_APPENDED);
    g_assert_true(trv_ctl_close(ctl, NULL));
    TrvCtlView *v = trv_ctl_view_open(paths[k], false, &err);
    g_assert_no_error(err);
    g_assert_cmpuint(trv_ctl_view_episodes(v, NULL), ==, k ? 1 : EPISODES + 1);
    post[k] = trv_ctl_view_replay(v, -1, -1, &err);
    g_assert_no_error(err);
    trv_ctl_view_free(v);
  }
  g_assert_true(trv_posterior_equal(post[0], post[1]));
  g_assert_false(trv_posterior_equal(post[0], s.live)); /* episode 500 did change it */
  trv_posterior_free(post[0]);
  trv_posterior_free(post[1]);
  /* In place without an archive is refused (the only copy would go). */
  g_assert_false(trv_ctl_compact(compact, NULL, NULL, &cs, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  /* Nothing new to compact is refused as input. */
  char *archive2 = g_build_filename(s.dir, "archive2.ctl", NULL);
  g_assert_true(trv_ctl_compact(compact, NULL, archive2, &cs, &err));
  g_assert_no_error(err);
  g_unlink(archive);
  g_assert_false(trv_ctl_compact(compact, NULL, archive, &cs, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "nothing to compact"));
  g_clear_error(&err);
  g_free(archive2);
  g_array_free(rest, TRUE);
  g_free(orig);
  g_free(compact);
  g_free(archive);
  g_free(copy);
  free_stream(&s);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/ctl/replay/replay_from_zero_equals_replay_from_every_snapshot",
                  replay_from_zero_equals_replay_from_every_snapshot);
  g_test_add_func("/ctl/replay/compaction_keeps_the_posterior_bit_identical",
                  compaction_keeps_the_posterior_bit_identical);
  return g_test_run();
}
