/* test-ctl-util.h - what the CTL tests share: the posterior parameters of the
 * logs they write (the separated slab, hazard 0.01), record constructors, a
 * scratch directory, a file writer for damaged images, and a CausalBench-Seq
 * stream generator (components 0 = C->X, 1 = C->Y, 2 = X->Y; X->Y present in
 * episodes 150..299 only; 5 probes per component per episode with z = +-1 and
 * w = beta z + N(0, 1)). */
#ifndef TRV_TEST_CTL_UTIL_H
#define TRV_TEST_CTL_UTIL_H

#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "log/ctl.h"
#include "core/replay.h"
#include "core/rng.h"

static inline TrvPosteriorParams ctl_test_params(void) {
  TrvPosteriorParams p = {.pi0 = 0.5,
                          .tau2 = 1.0,
                          .s2 = 1.0,
                          .kappa_min = 0.5,
                          .hazard = 0.01,
                          .lambda = 0.9,
                          .slab = TRV_SLAB_SEPARATED,
                          .track = TRV_TRACK_HAZARD};
  return p;
}

static inline TrvRecord ctl_test_step(uint32_t agent, uint64_t seq, uint32_t episode, uint32_t step, int a_int,
                                      double z, double w) {
  TrvRecord r;
  memset(&r, 0, sizeof r);
  r.seq = seq;
  r.agent = agent;
  r.episode = episode;
  r.step = step;
  r.snapshot_ref = episode ? episode - 1 : 0;
  r.kind = TRV_RECORD_STEP;
  r.commit_status = TRV_COMMIT_COMMITTED;
  r.a_disp = (int32_t)(step % 3);
  r.a_int = a_int;
  r.z = z;
  r.outcome = w;
  r.reward = w * 0.5;
  r.n_context = 2;
  r.context[0] = (double)episode;
  r.context[1] = -z;
  return r;
}

static inline TrvRecord ctl_test_control(uint8_t kind, uint64_t seq, uint32_t episode, int a_int) {
  TrvRecord r;
  memset(&r, 0, sizeof r);
  r.seq = seq;
  r.agent = TRV_AGENT_CONTROLLER;
  r.episode = episode;
  r.step = 1000;
  r.kind = kind;
  r.commit_status = TRV_COMMIT_COMMITTED;
  r.a_int = a_int;
  return r;
}

/* Field by field (TrvRecord has padding, which memcmp would compare), the
 * doubles bit for bit, the context up to n_context. */
static inline bool ctl_test_record_equal(const TrvRecord *a, const TrvRecord *b) {
  if (a->seq != b->seq || a->agent != b->agent || a->episode != b->episode || a->step != b->step ||
      a->snapshot_ref != b->snapshot_ref || a->kind != b->kind || a->commit_status != b->commit_status ||
      a->n_context != b->n_context || a->a_disp != b->a_disp || a->a_int != b->a_int ||
      memcmp(&a->z, &b->z, sizeof a->z) || memcmp(&a->outcome, &b->outcome, sizeof a->outcome) ||
      memcmp(&a->reward, &b->reward, sizeof a->reward))
    return false;
  return a->n_context > TRV_RECORD_CONTEXT_MAX || memcmp(a->context, b->context, sizeof(double) * a->n_context) == 0;
}

/* Appends one episode of CausalBench-Seq to out (steps, then any resets,
 * then the END marker).  agent_seq[0..2] and *ctl_seq number the records. */
static inline void ctl_test_causalbench_episode(TrvRng *world, TrvRng *probe, uint32_t e, uint64_t agent_seq[3],
                                                uint64_t *ctl_seq, GArray *out) {
  const double beta[3] = {1.0, 1.0, (e >= 150 && e < 300) ? 1.0 : 0.0};
  for (uint32_t k = 0; k < 5; k++)
    for (int j = 0; j < 3; j++) {
      double z = trv_rng_sign(probe);
      double w = beta[j] * z + trv_rng_normal(world);
      TrvRecord r = ctl_test_step((uint32_t)j, agent_seq[j]++, e, k, j, z, w);
      g_array_append_val(out, r);
    }
  /* The controller resets X->Y after the two structure changes. */
  if (e == 160 || e == 310 || e == 311) {
    TrvRecord r = ctl_test_control(TRV_RECORD_RESET, (*ctl_seq)++, e, 2);
    g_array_append_val(out, r);
  }
  TrvRecord end = ctl_test_control(TRV_RECORD_EPISODE_END, (*ctl_seq)++, e, -1);
  g_array_append_val(out, end);
}

static inline char *ctl_test_tmpdir(void) {
  GError *err = NULL;
  char *dir = g_dir_make_tmp("trv-ctl-XXXXXX", &err);
  g_assert_no_error(err);
  return dir;
}

static inline void ctl_test_rmdir(char *dir) {
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name(d))) {
    char *p = g_build_filename(dir, name, NULL);
    g_remove(p);
    g_free(p);
  }
  if (d) g_dir_close(d);
  g_rmdir(dir);
  g_free(dir);
}

/* Writes data as the whole of path, fast: no fsync (g_file_set_contents
 * would sync thousands of times in the exhaustive tests), and no truncation
 * to zero before the rewrite (which ext4 flushes to disk at close). */
static inline void ctl_test_write_file(const char *path, const void *data, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  g_assert_cmpint(fd, >=, 0);
  g_assert_cmpint(pwrite(fd, data, len, 0), ==, (ssize_t)len);
  g_assert_cmpint(ftruncate(fd, (off_t)len), ==, 0);
  g_assert_cmpint(close(fd), ==, 0);
}

static inline gint64 ctl_test_file_size(const char *path) {
  GStatBuf st;
  return g_stat(path, &st) == 0 ? (gint64)st.st_size : -1;
}

#endif
