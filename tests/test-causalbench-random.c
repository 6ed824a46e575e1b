/* CausalBench-Seq's random variant (envs/causalbench/causalbench.c): the
 * change-points are drawn from the seed, one per episode with probability
 * world.disruption_rate, in order and inside the run; the truth's X->Y
 * flips at each of them and nowhere else; more change-points than a run
 * holds are refused. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "api/modules.h"
#include "causalbench/causalbench.h"
#include "core/params.h"
#include "core/world-call.h"
#include "worlds.h"

enum { MAX_CPS = 1024 };

static void *random_world(TrvParams *p, double rate, int episodes, uint64_t seed, GError **error) {
  trv_params_defaults(p);
  TrvCausalbenchParams *cb = (TrvCausalbenchParams *)trv_params_block(p, &trv_causalbench_params);
  cb->variant = TRV_VARIANT_RANDOM;
  cb->disruption_rate = rate;
  p->episodes = episodes;
  return trv_world_new(&trv_world_causalbench, p, seed, error);
}

static int change_points(double rate, int episodes, uint64_t seed, int *cps) {
  TrvParams p;
  GError *err = NULL;
  void *w = random_world(&p, rate, episodes, seed, &err);
  g_assert_no_error(err);
  int n = trv_world_change_points(&trv_world_causalbench, w, cps, MAX_CPS, &err);
  g_assert_no_error(err);
  trv_world_causalbench.free(w);
  return n;
}

static void change_points_are_drawn_from_the_seed_at_the_rate(void) {
  int a[MAX_CPS], b[MAX_CPS], c[MAX_CPS];
  /* 49,999 draws at 0.01: mean 500, sd 22 */
  int n = change_points(0.01, 50000, 5, a);
  g_assert_cmpint(n, >=, 410);
  g_assert_cmpint(n, <=, 590);
  g_assert_cmpint(a[0], >=, 1);
  for (int i = 1; i < n; i++) g_assert_cmpint(a[i], >, a[i - 1]);
  g_assert_cmpint(a[n - 1], <, 50000);
  g_assert_cmpint(change_points(0.01, 50000, 5, b), ==, n); /* the same seed: the same schedule */
  g_assert_cmpmem(a, sizeof(int) * (size_t)n, b, sizeof(int) * (size_t)n);
  int m = change_points(0.01, 50000, 6, c); /* another seed: another schedule */
  g_assert_false(m == n && memcmp(a, c, sizeof(int) * (size_t)n) == 0);
  g_assert_cmpint(change_points(0.0, 500, 5, a), ==, 0);
  /* rate 1: every episode but the first, as many as a run holds */
  g_assert_cmpint(change_points(1.0, MAX_CPS + 1, 5, a), ==, MAX_CPS);
  for (int i = 0; i < MAX_CPS; i++) g_assert_cmpint(a[i], ==, i + 1);
}

static void the_truth_flips_at_the_change_points_only(void) {
  TrvParams p;
  GError *err = NULL;
  void *w = random_world(&p, 0.02, 500, 7, &err);
  g_assert_no_error(err);
  int cps[MAX_CPS], n = trv_world_change_points(&trv_world_causalbench, w, cps, MAX_CPS, &err);
  g_assert_no_error(err);
  g_assert_cmpint(n, >, 3);
  bool present = false; /* X->Y starts absent */
  for (int e = 0, k = 0; e < 500; e++) {
    trv_world_causalbench.episode_begin(w, e);
    if (k < n && cps[k] == e) present = !present, k++;
    TrvGraph g;
    trv_graph_clear(&g, 3);
    trv_world_causalbench.referee->truth(w, &g);
    g_assert_cmpint(g.present[2], ==, present);
    g_assert_true(g.present[0] && g.present[1]);
  }
  trv_world_causalbench.free(w);
}

static void more_change_points_than_a_run_holds_are_refused(void) {
  TrvParams p;
  GError *err = NULL;
  g_assert_null(random_world(&p, 1.0, MAX_CPS + 2, 3, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "world.disruption_rate = 1: more than 1024 change-points in 1026 episodes"));
  g_error_free(err);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin();
  g_test_add_func("/causalbench/random/change_points_are_drawn_from_the_seed_at_the_rate",
                  change_points_are_drawn_from_the_seed_at_the_rate);
  g_test_add_func("/causalbench/random/the_truth_flips_at_the_change_points_only",
                  the_truth_flips_at_the_change_points_only);
  g_test_add_func("/causalbench/random/more_change_points_than_a_run_holds_are_refused",
                  more_change_points_than_a_run_holds_are_refused);
  return g_test_run();
}
