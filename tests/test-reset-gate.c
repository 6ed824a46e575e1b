/* PartialReset's choice of components (docs/controller.md, "Drift
 * detectors and PartialReset") and the dispatch gate (docs/controller.md,
 * "The episode protocol", step 2) on constructed cases with hand-computed
 * outcomes. */
#include <glib.h>
#include <math.h>

#include "core/protocol.h"
#include "core/reset.h"
#include "api/modules.h"
#include "worlds.h"

static void partial_reset_resets_only_what_the_window_contradicts(void) {
  TrvGraph g; /* G_hat_e: C->X present (1.0), C->Y absent, X->Y present (1.0) */
  trv_graph_clear(&g, 3);
  g.present[0] = g.present[2] = true;
  g.kappa[0] = g.kappa[2] = 1.0;
  const TrvRecentProbe probes[] = {
      /* X->Y: the slope is gone: r = -2, 2, -1.5, 1.5 -> x = 1.5, 1.5, 0.625, 0.625, mean 1.0625 > 0.25 */
      {9, 2, 1, -1},
      {9, 2, -1, 1},
      {10, 2, 1, -0.5},
      {10, 2, -1, 0.5},
      /* C->X: predicted well: r = 0.1, 0.1, -0.2 -> mean x = (0.005 + 0.005 + 0.02) - 0.5 < 0 */
      {10, 0, 1, 1.1},
      {10, 0, -1, -0.9},
      {10, 0, 1, 0.8},
      /* C->X before the window (episode 8 <= 10 - 2): ignored however bad */
      {8, 0, 1, -9},
      {8, 0, 1, -9},
      {8, 0, 1, -9},
      /* C->Y: badly predicted but only 2 probes in the window */
      {10, 1, 1, 5},
      {10, 1, -1, -5},
  };
  bool reset[3];
  int n = trv_partial_reset_select(probes, G_N_ELEMENTS(probes), 10, 2, &g, 1.0, 0.25, reset);
  g_assert_cmpint(n, ==, 1);
  g_assert_false(reset[0]);
  g_assert_false(reset[1]);
  g_assert_true(reset[2]);
  /* a wider window brings the old C->X probes in: mean x of the six is > 0.25 */
  n = trv_partial_reset_select(probes, G_N_ELEMENTS(probes), 10, 3, &g, 1.0, 0.25, reset);
  g_assert_true(reset[0]);
  g_assert_cmpint(n, ==, 2);
}

static bool keep_records(void *ctx, TrvEpisode *ep, GArray *records, GError **error) {
  (void)ep;
  (void)error;
  g_array_append_vals(ctx, records->data, records->len);
  return true;
}

/* One episode of CausalBench-Seq under a plan that commits X->Y (kappa 1 >
 * c = 0.5: the head plays d = 1) with a snapshot at p = 0.5 everywhere: the
 * operational tally grows by -log P(G_hat) = 3 ln 2 = 2.079 nats per step,
 * so the gate plays the safe d = 0 at every step when rho = 2 and never when
 * rho = 2.1. */
static void gate_plays_safe_exactly_while_the_tally_exceeds_rho(void) {
  TrvParams p;
  trv_params_defaults(&p);
  GError *err = NULL;
  void *world = trv_world_causalbench.init(&p, 1, &err);
  g_assert_no_error(err);
  TrvPosteriorParams pp = trv_params_posterior(&p, 1.0);
  for (int k = 0; k < 2; k++) {
    double rho = k == 0 ? 2.0 : 2.1;
    trv_world_causalbench.episode_begin(world, 0);
    TrvPlan *plan = g_new0(TrvPlan, 1);
    trv_graph_clear(&plan->ghat, 3);
    plan->ghat.present[0] = plan->ghat.present[1] = plan->ghat.present[2] = true;
    plan->ghat.kappa[0] = plan->ghat.kappa[1] = plan->ghat.kappa[2] = 1.0;
    plan->gate = true;
    plan->rho = rho;
    plan->snapshot = trv_posterior_new(3, &pp); /* pi0 = 0.5, no probes: stays at 0.5 */
    GArray *recs = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
    uint64_t seq = 0;
    TrvProbeSigns signs;
    trv_probe_signs_init(&signs, 1, 0);
    TrvEpisodeSink sink = {keep_records, recs};
    TrvEpisode *ep = trv_episode_new(plan, 0, p.steps, 0, &seq, &signs, &sink);
    void *agent = trv_world_causalbench.agent->instance(world, 0);
    g_assert_true(trv_agent_play(&trv_world_causalbench, agent, ep, NULL, NULL));
    int gated = trv_episode_gated(ep);
    g_assert_true(trivium_episode_close(ep, NULL));
    trv_world_causalbench.agent->free(agent);
    int played_one = 0;
    for (guint i = 0; i < recs->len; i++) played_one += g_array_index(recs, TrvRecord, i).a_disp == 1;
    g_assert_cmpint(recs->len, ==, p.steps);
    g_assert_cmpint(gated, ==, k == 0 ? p.steps : 0);
    g_assert_cmpint(played_one, ==, k == 0 ? 0 : p.steps);
    g_array_free(recs, TRUE);
    trv_plan_free(plan);
  }
  trv_world_causalbench.free(world);
}

/* When to probe: a fake agent whose probe value peaks at steps 3, 4 and 9
 * runs a plan of three probes there, in plan order, with the signs drawn
 * for them; without placement they run at steps 0, 1, 2. */
static const double fake_value[10] = {0.1, 0.9, 0.2, 1, 1, 0.3, 0.5, 0.9, 0, 0.95};
static double fake_value_at(void *agent, int t) {
  (void)agent;
  return fake_value[t];
}
static int fake_plan(void *agent, const TrvGraph *g) {
  (void)agent, (void)g;
  return 0;
}
static int fake_observe(void *agent, int t, double *ctx, int max) {
  (void)agent, (void)t, (void)ctx, (void)max;
  return 0;
}
static double fake_probe(void *agent, int j, double z) {
  (void)agent;
  return 10 * j + z;
}
static double fake_act(void *agent, int a) {
  (void)agent, (void)a;
  return 0;
}

static void probes_run_at_the_steps_of_highest_value(void) {
  TrvAgentClass ac = {.plan = fake_plan,
                      .observe = fake_observe,
                      .probe = fake_probe,
                      .act = fake_act,
                      .probe_value_at = fake_value_at};
  TrvWorldClass wc = {.name = "fake", .agent = &ac};
  int comps[3] = {2, 0, 1};
  const int at[2][3] = {{0, 1, 2}, {3, 4, 9}};
  double z0[3];
  for (int place = 0; place < 2; place++) {
    TrvPlan plan = {.n_probes = 3, .probes = comps, .zabs = 1, .place_probes = place};
    trv_graph_clear(&plan.ghat, 3);
    GArray *recs = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
    uint64_t seq = 0;
    TrvProbeSigns signs;
    trv_probe_signs_init(&signs, 7, 0);
    TrvEpisodeSink sink = {keep_records, recs};
    TrvEpisode *ep = trv_episode_new(&plan, 0, 10, 0, &seq, &signs, &sink);
    g_assert_true(trv_agent_play(&wc, NULL, ep, NULL, NULL));
    g_assert_true(trivium_episode_close(ep, NULL));
    g_assert_cmpint(recs->len, ==, 10);
    int k = 0;
    for (int t = 0; t < 10; t++) {
      const TrvRecord *r = &g_array_index(recs, TrvRecord, t);
      if (k < 3 && t == at[place][k]) {
        g_assert_cmpint(r->a_int, ==, comps[k]);
        g_assert_cmpfloat(r->outcome, ==, 10 * comps[k] + r->z); /* the probe ran with its own sign */
        if (place)
          g_assert_cmpfloat(r->z, ==, z0[k]);
        else
          z0[k] = r->z;
        k++;
      } else {
        g_assert_cmpint(r->a_int, ==, -1);
      }
    }
    g_assert_cmpint(k, ==, 3);
    g_array_free(recs, TRUE);
  }
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin();
  g_test_add_func("/reset/partial_reset_resets_only_what_the_window_contradicts",
                  partial_reset_resets_only_what_the_window_contradicts);
  g_test_add_func("/episode/probes_run_at_the_steps_of_highest_value", probes_run_at_the_steps_of_highest_value);
  g_test_add_func("/gate/gate_plays_safe_exactly_while_the_tally_exceeds_rho",
                  gate_plays_safe_exactly_while_the_tally_exceeds_rho);
  return g_test_run();
}
