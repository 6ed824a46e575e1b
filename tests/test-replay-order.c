/* Fold order (replay.h) against qsort with the same comparator: the linear
 * path (counting sort on kind, step and agent, then seq and a_int within a
 * bucket), the long-bucket path and the fallback for wide key ranges must
 * all give qsort's order, which is unique because no two records here are
 * equal in all five keys.  Then the fold itself, step by step: record by
 * record when no component repeats within a step, one update per component
 * and step when it does; and the belief trajectory's incremental points. */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/controller.h"
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
        TrvRecord r = {.seq = seq++,
                       .agent = (uint32_t)ag,
                       .step = (uint32_t)t,
                       .kind = TRV_RECORD_STEP,
                       .a_int = (int32_t)trv_rng_below(rng, 13) - 1,
                       .z = trv_rng_uniform(rng)};
        g_array_append_val(a, r);
      }
    }
  }
  if (wide)
    for (int j = 0; j < 5; j++) {
      TrvRecord r = {
          .seq = (uint64_t)j, .agent = TRV_AGENT_CONTROLLER, .step = 0, .kind = TRV_RECORD_RESET, .a_int = j};
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

static TrvPosterior *soft_posterior(int n) {
  TrvPosteriorParams p = {.pi0 = 0.3,
                          .tau2 = 1,
                          .s2 = 0.5,
                          .kappa_min = 0.5,
                          .hazard = 0.001,
                          .lambda = 0.9,
                          .slab = TRV_SLAB_SOFT,
                          .track = TRV_TRACK_HAZARD};
  return trv_posterior_new(n, &p);
}

static void assert_same_posterior(const TrvPosterior *a, const TrvPosterior *b) {
  int n = trv_posterior_n_components(a);
  for (int j = 0; j < n; j++) {
    g_assert_true(memcmp(trv_posterior_stats(a, j), trv_posterior_stats(b, j), sizeof(TrvSuffStats)) == 0);
    double la = trv_posterior_log_odds(a, j), lb = trv_posterior_log_odds(b, j);
    g_assert_true(memcmp(&la, &lb, sizeof la) == 0);
  }
}

/* Several agents, each probing a different component at every step (and
 * dispatch steps, unknown components and resets among them): the fold is
 * trv_posterior_observe record by record in fold order, bit for bit. */
static void a_fold_without_repeats_is_observe_by_observe(void) {
  TrvRng rng;
  trv_rng_init(&rng, 21, TRV_STREAM_WORLD);
  const int n = 6, agents = 4, steps = 40;
  GArray *a = g_array_new(FALSE, TRUE, sizeof(TrvRecord));
  for (int t = 0; t < steps; t++)
    for (int ag = 0; ag < agents; ag++) {
      int j = t % 3 == 0 ? -1 : t % 7 == 0 && ag == 0 ? n + 2 : (t + ag) % n; /* distinct within a step */
      TrvRecord r = {.seq = (uint64_t)(t * agents + ag),
                     .agent = (uint32_t)ag,
                     .step = (uint32_t)t,
                     .kind = TRV_RECORD_STEP,
                     .a_int = j,
                     .z = trv_rng_sign(&rng) * 0.8,
                     .outcome = trv_rng_normal(&rng) * 0.7 + (j == 1 ? 0.6 : 0.0)};
      g_array_append_val(a, r);
    }
  TrvRecord reset = {.seq = 1, .agent = TRV_AGENT_CONTROLLER, .step = 0, .kind = TRV_RECORD_RESET, .a_int = 4};
  g_array_append_val(a, reset);
  TrvPosterior *fold = soft_posterior(n), *by_hand = soft_posterior(n);
  TrvRecord *recs = g_memdup2(a->data, a->len * sizeof *recs);
  trv_replay_episode(fold, recs, a->len); /* sorts recs into fold order */
  trv_posterior_episode_begin(by_hand);
  for (guint i = 0; i < a->len; i++) {
    const TrvRecord *r = &recs[i];
    if (r->a_int < 0 || r->a_int >= n) continue;
    if (r->kind == TRV_RECORD_STEP)
      trv_posterior_observe(by_hand, r->a_int, r->z, r->outcome);
    else
      trv_posterior_reset_component(by_hand, r->a_int);
  }
  assert_same_posterior(fold, by_hand);
  g_free(recs);
  g_array_free(a, TRUE);
  trv_posterior_free(fold);
  trv_posterior_free(by_hand);
}

/* Coalitions: several probes of one component in one step are one
 * update.  The statistics are those of observe by observe, bit for bit;
 * the log-odds move once, by the Bayes factor of the episode's statistics
 * (the closed form of the hazard track with a fresh slab per episode), and
 * differ from observe by observe only by rounding. */
static void repeats_in_a_step_are_one_update(void) {
  TrvRng rng;
  trv_rng_init(&rng, 22, TRV_STREAM_WORLD);
  const int n = 3;
  GArray *a = g_array_new(FALSE, TRUE, sizeof(TrvRecord));
  for (int t = 0; t < 10; t++)
    for (int ag = 0; ag < 6; ag++) {
      int j = ag < 4 ? 0 : ag - 3; /* four agents on component 0 */
      TrvRecord r = {.seq = (uint64_t)t,
                     .agent = (uint32_t)ag,
                     .step = (uint32_t)t,
                     .kind = TRV_RECORD_STEP,
                     .a_int = j,
                     .z = trv_rng_sign(&rng),
                     .outcome = trv_rng_normal(&rng) * 0.7};
      r.outcome += (j == 0 ? 0.55 : 0.0) * r.z;
      g_array_append_val(a, r);
    }
  TrvPosterior *fold = soft_posterior(n), *by_obs = soft_posterior(n), *start = soft_posterior(n);
  TrvRecord *recs = g_memdup2(a->data, a->len * sizeof *recs);
  trv_replay_episode(fold, recs, a->len);
  trv_posterior_episode_begin(by_obs);
  trv_posterior_episode_begin(start);
  for (guint i = 0; i < a->len; i++) trv_posterior_observe(by_obs, recs[i].a_int, recs[i].z, recs[i].outcome);
  const TrvPosteriorParams *p = trv_posterior_params(fold);
  TrvSuffStats zero = {0, 0, 0, 0};
  for (int j = 0; j < n; j++) {
    const TrvSuffStats *s = trv_posterior_stats(fold, j);
    g_assert_true(memcmp(s, trv_posterior_stats(by_obs, j), sizeof *s) == 0);
    double closed = trv_posterior_log_odds(start, j) + trv_log_bf10(s, p) - trv_log_bf10(&zero, p);
    g_assert_cmpfloat_with_epsilon(trv_posterior_log_odds(fold, j), closed, 1e-9 * (1 + fabs(closed)));
    g_assert_cmpfloat_with_epsilon(trv_posterior_log_odds(fold, j), trv_posterior_log_odds(by_obs, j),
                                   1e-9 * (1 + fabs(closed)));
  }
  /* component 0 settled once per step: the step-wise fold by hand */
  trv_posterior_free(start);
  start = soft_posterior(n);
  trv_posterior_episode_begin(start);
  for (int t = 0; t < 10; t++) {
    for (guint i = 0; i < a->len; i++)
      if ((int)recs[i].step == t && recs[i].a_int == 0) trv_posterior_add_probe(start, 0, recs[i].z, recs[i].outcome);
    trv_posterior_settle(start, 0);
  }
  double l0 = trv_posterior_log_odds(start, 0), lf = trv_posterior_log_odds(fold, 0);
  g_assert_true(memcmp(&l0, &lf, sizeof l0) == 0);
  g_free(recs);
  g_array_free(a, TRUE);
  trv_posterior_free(fold);
  trv_posterior_free(by_obs);
  trv_posterior_free(start);
}

/* A posterior of more components than a 64-bit mask holds (a CTL may
 * declare up to 65,536): one step probing components 3, 70 and 99 (99
 * twice) folds like a posterior of those components alone would. */
static void a_step_of_a_wide_posterior_folds_every_component_once(void) {
  const int n = 100;
  TrvPosterior *fold = soft_posterior(n), *by_hand = soft_posterior(n);
  TrvRecord r[5] = {
      {.seq = 0, .agent = 0, .step = 4, .kind = TRV_RECORD_STEP, .a_int = 99, .z = 1, .outcome = 0.7},
      {.seq = 0, .agent = 1, .step = 4, .kind = TRV_RECORD_STEP, .a_int = 70, .z = -1, .outcome = -0.2},
      {.seq = 0, .agent = 2, .step = 4, .kind = TRV_RECORD_STEP, .a_int = 3, .z = 1, .outcome = 0.1},
      {.seq = 0, .agent = 3, .step = 4, .kind = TRV_RECORD_STEP, .a_int = 99, .z = -1, .outcome = -0.5},
      {.seq = 0, .agent = 4, .step = 4, .kind = TRV_RECORD_STEP, .a_int = 200, .z = 1, .outcome = 9}, /* unknown */
  };
  trv_replay_episode(fold, r, 5);
  trv_posterior_episode_begin(by_hand);
  trv_posterior_observe(by_hand, 3, 1, 0.1);
  trv_posterior_observe(by_hand, 70, -1, -0.2);
  trv_posterior_add_probe(by_hand, 99, 1, 0.7);
  trv_posterior_add_probe(by_hand, 99, -1, -0.5);
  trv_posterior_settle(by_hand, 99);
  assert_same_posterior(fold, by_hand);
  g_assert_cmpfloat(trv_posterior_stats(fold, 99)->n, ==, 2);
  trv_posterior_free(fold);
  trv_posterior_free(by_hand);
}

/* The full point, every term computed: the reference. */
static void push_full(TrvBeliefs *b, const TrvPosterior *post, double h_ent, int step) {
  uint64_t map = 0;
  for (int j = 0; j < b->n; j++)
    if (trv_posterior_map(post, j)) map |= 1ULL << j;
  double *loss = trv_beliefs_push(b, step, 1, map, trv_posterior_entropy_bits(post) <= h_ent);
  for (int j = 0; j < b->n; j++) trv_posterior_losses(post, j, &loss[j], &loss[b->n + j]);
}

/* The trajectory's incremental point (only the changed components
 * recomputed) is the full point, bit for bit, over a random fold. */
static void incremental_belief_points_are_the_full_points(void) {
  TrvRng rng;
  trv_rng_init(&rng, 23, TRV_STREAM_WORLD);
  const int n = 7;
  TrvPosterior *post = soft_posterior(n);
  trv_posterior_episode_begin(post);
  TrvBeliefs full, inc;
  trv_beliefs_init(&full, n);
  trv_beliefs_init(&inc, n);
  double h[TRV_MAX_COMPONENTS];
  for (int t = 0; t < 200; t++) {
    uint64_t changed = 0;
    int k = (int)trv_rng_below(&rng, 3);
    for (int i = 0; i < k; i++) {
      int j = (int)trv_rng_below(&rng, n);
      double z = trv_rng_sign(&rng);
      trv_posterior_observe(post, j, z, (j < 3 ? 0.8 : 0.0) * z + trv_rng_normal(&rng) * 0.7);
      changed |= UINT64_C(1) << j;
    }
    push_full(&full, post, 0.8, t);
    trv_beliefs_push_changed(&inc, post, NULL, 0.8, t, t == 0 ? 0 : changed, h); /* the first point: all */
    double sum = 0, whole = trv_posterior_entropy_bits(post); /* the kept entropies are the current ones */
    for (int j = 0; j < n; j++) sum += h[j];
    g_assert_true(memcmp(&sum, &whole, sizeof sum) == 0);
  }
  g_assert_cmpuint(full.points->len, ==, inc.points->len);
  for (guint i = 0; i < full.points->len; i++) {
    const TrvBeliefPoint *f = &g_array_index(full.points, TrvBeliefPoint, i);
    const TrvBeliefPoint *g = &g_array_index(inc.points, TrvBeliefPoint, i);
    g_assert_true(f->step == g->step && f->repeat == g->repeat && f->map == g->map && f->confident == g->confident);
  }
  g_assert_true(memcmp(full.losses->data, inc.losses->data, full.losses->len * sizeof(double)) == 0);
  trv_beliefs_free(&full);
  trv_beliefs_free(&inc);
  trv_posterior_free(post);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/replay/order/one_episode_sorts_like_qsort", one_episode_sorts_like_qsort);
  g_test_add_func("/replay/order/long_buckets_and_wide_ranges_sort_like_qsort",
                  long_buckets_and_wide_ranges_sort_like_qsort);
  g_test_add_func("/replay/order/empty_single_and_sorted_inputs_keep_their_order",
                  empty_single_and_sorted_inputs_keep_their_order);
  g_test_add_func("/replay/fold/a_fold_without_repeats_is_observe_by_observe",
                  a_fold_without_repeats_is_observe_by_observe);
  g_test_add_func("/replay/fold/repeats_in_a_step_are_one_update", repeats_in_a_step_are_one_update);
  g_test_add_func("/replay/fold/a_step_of_a_wide_posterior_folds_every_component_once",
                  a_step_of_a_wide_posterior_folds_every_component_once);
  g_test_add_func("/replay/fold/incremental_belief_points_are_the_full_points",
                  incremental_belief_points_are_the_full_points);
  return g_test_run();
}
