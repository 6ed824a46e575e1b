/* replay.c - fold of one episode's records into the posterior.  See replay.h. */
#define _GNU_SOURCE /* qsort_r */
#include "replay.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

int trv_record_fold_cmp(const void *pa, const void *pb) {
  const TrvRecord *a = pa, *b = pb;
#define CMP(f)                                                                                                         \
  if (a->f != b->f) return a->f < b->f ? -1 : 1
  CMP(kind); /* STEP (1) before RESET (2) */
  CMP(step);
  CMP(agent);
  CMP(seq);
  CMP(a_int);
#undef CMP
  return 0;
}

static int cmp_index(const void *pa, const void *pb, void *recs) {
  const TrvRecord *r = recs;
  return trv_record_fold_cmp(&r[*(const size_t *)pa], &r[*(const size_t *)pb]);
}

/* A short run of indices: insertion sort. */
static void insertion_sort(const TrvRecord *recs, size_t *idx, size_t n) {
  for (size_t i = 1; i < n; i++) {
    size_t x = idx[i], j = i;
    for (; j > 0 && trv_record_fold_cmp(&recs[idx[j - 1]], &recs[x]) > 0; j--) idx[j] = idx[j - 1];
    idx[j] = x;
  }
}

size_t *trv_records_fold_order(const TrvRecord *recs, size_t n) {
  size_t *order = g_new(size_t, n > 0 ? n : 1);
  for (size_t i = 0; i < n; i++) order[i] = i;
  size_t sorted = 1;
  while (sorted < n && trv_record_fold_cmp(&recs[sorted - 1], &recs[sorted]) <= 0) sorted++;
  if (sorted >= n) return order;
  uint8_t kmin = UINT8_MAX, kmax = 0;
  uint32_t smin = UINT32_MAX, smax = 0, amin = UINT32_MAX, amax = 0;
  for (size_t i = 0; i < n; i++) {
    const TrvRecord *r = &recs[i];
    kmin = MIN(kmin, r->kind), kmax = MAX(kmax, r->kind);
    smin = MIN(smin, r->step), smax = MAX(smax, r->step);
    amin = MIN(amin, r->agent), amax = MAX(amax, r->agent);
  }
  /* Buckets of equal (kind, step, agent), when there are few enough. */
  uint64_t kr = (uint64_t)kmax - kmin + 1, sr = (uint64_t)smax - smin + 1, ar = (uint64_t)amax - amin + 1;
  uint64_t limit = 4 * (uint64_t)n + 1024;
  if (sr > limit || ar > limit || kr * sr > limit / ar) {
    qsort_r(order, n, sizeof *order, cmp_index, (void *)recs);
    return order;
  }
  size_t nb = (size_t)(kr * sr * ar);
  size_t *end = g_new0(size_t, nb + 1);
  size_t *key = g_new(size_t, n);
  for (size_t i = 0; i < n; i++) {
    const TrvRecord *r = &recs[i];
    key[i] = (size_t)((((uint64_t)r->kind - kmin) * sr + (r->step - smin)) * ar + (r->agent - amin));
    end[key[i] + 1]++;
  }
  for (size_t b = 0; b < nb; b++) end[b + 1] += end[b];
  for (size_t i = 0; i < n; i++) order[end[key[i]]++] = i;
  /* Bucket b now ends at end[b] and begins where b - 1 ends; within it the
   * order is the input's, and seq and a_int finish it (qsort for a long
   * bucket, so that no input makes this quadratic). */
  for (size_t b = 0, lo = 0; b < nb; lo = end[b++]) {
    size_t len = end[b] - lo;
    if (len > 16)
      qsort_r(order + lo, len, sizeof *order, cmp_index, (void *)recs);
    else if (len > 1)
      insertion_sort(recs, order + lo, len);
  }
  g_free(key);
  g_free(end);
  return order;
}

void trv_records_sort_fold(TrvRecord *recs, size_t n) {
  size_t *order = trv_records_fold_order(recs, n);
  size_t i = 0;
  while (i < n && order[i] == i) i++;
  if (i < n) {
    TrvRecord *tmp = g_new(TrvRecord, n);
    for (size_t k = 0; k < n; k++) tmp[k] = recs[order[k]];
    memcpy(recs, tmp, n * sizeof *recs);
    g_free(tmp);
  }
  g_free(order);
}

/* Whether the fold takes r in: a step or a reset of a known component. */
static bool folded(const TrvRecord *r, int n_comp) {
  return r->a_int >= 0 && r->a_int < n_comp && (r->kind == TRV_RECORD_STEP || r->kind == TRV_RECORD_RESET);
}

size_t trv_fold_step(TrvPosterior *post, const TrvRecord *recs, size_t i, size_t n, uint64_t *settled) {
  int n_comp = trv_posterior_n_components(post);
  g_assert(i < n && recs[i].kind == TRV_RECORD_STEP && folded(&recs[i], n_comp));
  g_assert(!settled || n_comp <= 64);
  uint32_t step = recs[i].step;
  /* the components the step probes: a bit mask when they fit in one,
   * otherwise a flag per component */
  bool wide = n_comp > 64;
  uint64_t mask = 0;
  bool *probed = wide ? g_new0(bool, (size_t)n_comp) : NULL;
  for (; i < n; i++) {
    const TrvRecord *r = &recs[i];
    if (!folded(r, n_comp)) continue;
    if (r->kind != TRV_RECORD_STEP || r->step != step) break;
    trv_posterior_add_probe(post, r->a_int, r->z, r->outcome);
    if (wide)
      probed[r->a_int] = true;
    else
      mask |= UINT64_C(1) << r->a_int;
  }
  /* then each once, in component order */
  if (wide) {
    for (int j = 0; j < n_comp; j++)
      if (probed[j]) trv_posterior_settle(post, j);
    g_free(probed);
  } else {
    for (uint64_t m = mask; m; m &= m - 1) trv_posterior_settle(post, __builtin_ctzll(m));
  }
  if (settled) *settled = mask;
  return i;
}

void trv_replay_episode(TrvPosterior *post, TrvRecord *recs, size_t n) {
  trv_records_sort_fold(recs, n);
  trv_posterior_episode_begin(post);
  int n_comp = trv_posterior_n_components(post);
  for (size_t i = 0; i < n;) {
    const TrvRecord *r = &recs[i];
    if (!folded(r, n_comp)) {
      i++;
    } else if (r->kind == TRV_RECORD_STEP) {
      i = trv_fold_step(post, recs, i, n, NULL);
    } else {
      trv_posterior_reset_component(post, r->a_int);
      i++;
    }
  }
}
