/* Fold order (replay.h) against qsort with the same comparator: the linear
 * path (counting sort on kind, step and agent, then seq and a_int within a
 * bucket), the long-bucket path and the fallback for wide key ranges must
 * all give qsort's order, which is unique because no two records here are
 * equal in all five keys. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "core/replay.h"
#include "core/rng.h"

/* n records of one episode, shuffled: `agents` agents with one STEP record
 * per step each (seq = per-agent counter), every `dup`-th of them doubled
 * with the next seq (several records share a bucket), and `resets` RESET
 * records of the controller when wide is true (agent = UINT32_MAX). */
static GArray *episode(TrvRng *rng, int steps, int agents, int dup, bool wide) {
  GArray *a = g_array_new(FALSE, TRUE, sizeof(TrvRecord));
  for (int ag = 0; ag < agents; ag++) {
    uint64_t seq = trv_rng_below(rng, 1000);
    for (int t = 0; t < steps; t++) {
      int copies = dup > 0 && (t + ag) % dup == 0 ? 2 : 1;
      for (int c = 0; c < copies; c++) {
        TrvRecord r = {.seq = seq++, .agent = (uint32_t)ag, .step = (uint32_t)t, .kind = TRV_RECORD_STEP,
                       .a_int = (int32_t)trv_rng_below(rng, 13) - 1, .z = trv_rng_uniform(rng)};
        g_array_append_val(a, r);
      }
    }
  }
  if (wide)
    for (int j = 0; j < 5; j++) {
      TrvRecord r = {.seq = (uint64_t)j, .agent = TRV_AGENT_CONTROLLER, .step = 0, .kind = TRV_RECORD_RESET, .a_int = j};
      g_array_append_val(a, r);
    }
  TrvRecord *r = (TrvRecord *)a->data;
  for (guint i = a->len; i > 1; i--) { /* Fisher-Yates */
    guint k = (guint)trv_rng_below(rng, i);
    TrvRecord t = r[i - 1];
    r[i - 1] = r[k];
    r[k] = t;
  }
  return a;
}

static void check_against_qsort(const TrvRecord *recs, size_t n) {
  TrvRecord *want = g_memdup2(recs, n * sizeof *recs), *inplace = g_memdup2(recs, n * sizeof *recs);
  if (n > 0) qsort(want, n, sizeof *want, trv_record_fold_cmp);
  size_t *order = trv_records_fold_order(recs, n);
  for (size_t i = 0; i < n; i++) g_assert_true(memcmp(&recs[order[i]], &want[i], sizeof *want) == 0);
  trv_records_sort_fold(inplace, n);
  g_assert_true(n == 0 || memcmp(inplace, want, n * sizeof *want) == 0);
  g_free(order);
  g_free(want);
  g_free(inplace);
}

static void one_episode_sorts_like_qsort(void) {
  TrvRng rng;
  trv_rng_init(&rng, 11, TRV_STREAM_WORLD);
  GArray *a = episode(&rng, 120, 128, 0, false); /* the URS shape: 15,360 records */
  check_against_qsort((TrvRecord *)a->data, a->len);
  g_array_free(a, TRUE);
  a = episode(&rng, 40, 9, 3, false); /* buckets of two: the insertion pass */
  check_against_qsort((TrvRecord *)a->data, a->len);
  g_array_free(a, TRUE);
}

static void long_buckets_and_wide_ranges_sort_like_qsort(void) {
  TrvRng rng;
  trv_rng_init(&rng, 12, TRV_STREAM_WORLD);
  GArray *a = episode(&rng, 30, 4, 1, true); /* the controller's agent id: wide range, the fallback */
  check_against_qsort((TrvRecord *)a->data, a->len);
  g_array_free(a, TRUE);
  /* One bucket of 300 records in decreasing seq: the long-bucket path. */
  a = g_array_new(FALSE, TRUE, sizeof(TrvRecord));
  for (int i = 0; i < 300; i++) {
    TrvRecord r = {.seq = (uint64_t)(300 - i), .agent = 7, .step = 3, .kind = TRV_RECORD_STEP, .a_int = i % 5};
    g_array_append_val(a, r);
  }
  TrvRecord other = {.seq = 1, .agent = 2, .step = 9, .kind = TRV_RECORD_STEP, .a_int = -1};
  g_array_append_val(a, other);
  check_against_qsort((TrvRecord *)a->data, a->len);
  g_array_free(a, TRUE);
}

static void empty_single_and_sorted_inputs_keep_their_order(void) {
  check_against_qsort(NULL, 0);
  TrvRecord one = {.seq = 4, .agent = 1, .step = 2, .kind = TRV_RECORD_STEP, .a_int = 0};
  check_against_qsort(&one, 1);
  TrvRng rng;
  trv_rng_init(&rng, 13, TRV_STREAM_WORLD);
  GArray *a = episode(&rng, 20, 6, 0, false);
  qsort(a->data, a->len, sizeof(TrvRecord), trv_record_fold_cmp);
  size_t *order = trv_records_fold_order((TrvRecord *)a->data, a->len);
  for (size_t i = 0; i < a->len; i++) g_assert_cmpuint(order[i], ==, i);
  g_free(order);
  g_array_free(a, TRUE);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/replay/order/one_episode_sorts_like_qsort", one_episode_sorts_like_qsort);
  g_test_add_func("/replay/order/long_buckets_and_wide_ranges_sort_like_qsort",
                  long_buckets_and_wide_ranges_sort_like_qsort);
  g_test_add_func("/replay/order/empty_single_and_sorted_inputs_keep_their_order",
                  empty_single_and_sorted_inputs_keep_their_order);
  return g_test_run();
}
