/* Commit rules and LRCP (docs/controller.md, "Commit rules" and "LRCP")
 * on constructed posteriors and constructed residual windows. */
#include <glib.h>
#include <math.h>

#include "core/commit.h"
#include "core/lrcp.h"

static const char *const vars[] = {"C", "X", "Y"};
static const TrvComponent comps[] = {{"C->X", 0, 1, false}, {"C->Y", 0, 2, false}, {"X->Y", 1, 2, true}};
static const TrvCandidates cand = {3, vars, 3, comps};

static TrvPosterior *posterior(void) {
  TrvPosteriorParams p = {.pi0 = 0.5,
                          .tau2 = 1,
                          .s2 = 1,
                          .kappa_min = 0.5,
                          .hazard = 0.001,
                          .lambda = 1.0,
                          .slab = TRV_SLAB_SEPARATED,
                          .track = TRV_TRACK_NONE};
  return trv_posterior_new(3, &p);
}

/* n noiseless probes of component j with slope beta (z alternating +-1). */
static void feed(TrvPosterior *post, int j, double beta, int n) {
  for (int i = 0; i < n; i++) {
    double z = i % 2 ? -1.0 : 1.0;
    trv_posterior_observe(post, j, z, beta * z);
  }
}

static void executed_snapshot_commits_map_only_below_the_entropy_bound(void) {
  TrvPosterior *post = posterior();
  TrvGraph g;
  trv_graph_clear(&g, 3);
  g.present[1] = true; /* something committed before */
  /* prior: H = 3 bits > 0.8: nothing is taken, G_hat unchanged */
  g_assert_false(trv_commit_executed(post, NULL, 0.8, &g));
  g_assert_true(g.present[1]);
  feed(post, 0, 1.0, 40);
  feed(post, 1, 0.0, 40);
  feed(post, 2, 1.0, 40);
  g_assert_cmpfloat(trv_posterior_entropy_bits(post), <, 0.8);
  g_assert_true(trv_commit_executed(post, NULL, 0.8, &g));
  g_assert_true(g.present[0] && !g.present[1] && g.present[2]);
  double mu, v;
  trv_posterior_effect(post, 2, &mu, &v);
  g_assert_cmpfloat(g.kappa[2], ==, mu);
  g_assert_cmpfloat(g.kappa[1], ==, 0.0);
  /* not absorbing: new contrary evidence flips the next snapshot */
  feed(post, 2, 0.0, 400);
  g_assert_true(trv_commit_executed(post, NULL, 0.8, &g));
  g_assert_false(g.present[2]);
  trv_posterior_free(post);
}

/* The bound itself, probed on both sides: the snapshot is taken when
 * H(P) <= h_ent and not when H(P) exceeds h_ent by the least amount, at
 * every entropy the posterior passes through while it learns. */
static void executed_snapshot_is_taken_exactly_up_to_h_ent(void) {
  TrvPosterior *post = posterior();
  TrvGraph g;
  int checked = 0;
  for (int i = 0; i < 60; i++) {
    feed(post, i % 3, i % 3 == 1 ? 0.0 : 1.0, 1);
    double h = trv_posterior_entropy_bits(post);
    g_assert_true(h > 0);
    trv_graph_clear(&g, 3);
    g_assert_true(trv_commit_executed(post, NULL, h, &g));                /* H = h_ent: taken */
    g_assert_true(trv_commit_executed(post, NULL, 1.5 * h, &g));          /* and below */
    g_assert_false(trv_commit_executed(post, NULL, nextafter(h, 0), &g)); /* just above h_ent: not */
    g_assert_false(trv_commit_executed(post, NULL, 0.6 * h, &g));         /* well above */
    checked++;
  }
  g_assert_cmpint(checked, ==, 60);
  trv_posterior_free(post);
}

static void ideal_commit_freezes_resolved_large_effects_and_keeps_them(void) {
  TrvPosterior *post = posterior();
  TrvGraph g;
  trv_graph_clear(&g, 3);
  feed(post, 0, 1.0, 40); /* resolved, |kappa| = 40/41 >= kappa_min */
  feed(post, 1, 1.0, 1);  /* one probe: EIG still large */
  feed(post, 2, 0.0, 40); /* resolved absent: never frozen */
  g_assert_true(trv_commit_ideal(post, 50, 0.5, 1.0, &g));
  g_assert_true(g.frozen[0] && g.present[0]);
  g_assert_false(g.frozen[1]);
  g_assert_false(g.frozen[2] || g.present[2]);
  /* frozen components stay whatever the posterior says next */
  trv_posterior_reset_component(post, 0);
  g_assert_false(trv_commit_ideal(post, 50, 0.5, 1.0, &g));
  g_assert_true(g.frozen[0] && g.present[0]);
  trv_posterior_free(post);
}

static void residual_z_is_the_standardized_signed_residual(void) {
  TrvProbeWindows *pw = trv_probe_windows_new(3, 4);
  TrvGraph g;
  trv_graph_clear(&g, 3);
  g.present[2] = true;
  g.kappa[2] = 1.0;
  double z[] = {1, -1, 1, 1, -1}, w[] = {9, 0.5, 0.0, 2.0, -1.5}; /* the first falls out of the window */
  for (int i = 0; i < 5; i++) trv_probe_windows_push(pw, 2, z[i], w[i]);
  /* window: (-1,0.5) (1,0) (1,2) (-1,-1.5): sum z (w - z) = -1.5 - 1 + 1 + 0.5 = -1; /sqrt(4) */
  g_assert_cmpfloat(fabs(trv_lrcp_residual_z(pw, 2, &g, 1.0) - (-0.5)), <, 1e-15);
  trv_probe_windows_free(pw);
}

static void lrcp_converges_when_the_posterior_knows_better(void) {
  TrvPosterior *post = posterior();
  TrvProbeWindows *pw = trv_probe_windows_new(3, 20);
  feed(post, 2, 1.0, 20);
  for (int i = 0; i < 20; i++) trv_probe_windows_push(pw, 2, i % 2 ? -1 : 1, i % 2 ? -1 : 1);
  TrvGraph g; /* stale G_hat: X->Y absent */
  trv_graph_clear(&g, 3);
  TrvLrcpParams lp = {20, 3.0, 1, 0.9, TRV_LRCP_EDIT_MAP};
  TrvLrcpResult r = trv_lrcp(pw, post, &cand, &lp, &g);
  g_assert_cmpint(r.status, ==, TRV_LRCP_CONVERGED);
  g_assert_cmpint(r.n_eps, ==, 2);
  g_assert_cmpint(r.eps[0], ==, 1); /* Z = 20 / sqrt(20) = 4.47 > 3 */
  g_assert_cmpint(r.eps[1], ==, 0);
  g_assert_true(g.present[2]);
  trv_posterior_free(post);
  trv_probe_windows_free(pw);
}

static void lrcp_flags_when_repair_does_not_contract(void) {
  TrvPosterior *post = posterior(); /* the posterior still believes the old graph */
  feed(post, 2, 0.0, 40);
  TrvProbeWindows *pw = trv_probe_windows_new(3, 20);
  for (int i = 0; i < 20; i++) trv_probe_windows_push(pw, 2, 1, 1); /* but the window shows a slope of 1 */
  TrvGraph g;
  trv_graph_clear(&g, 3);
  TrvLrcpParams lp = {20, 3.0, 1, 0.9, TRV_LRCP_EDIT_MAP};
  TrvLrcpResult r = trv_lrcp(pw, post, &cand, &lp, &g);
  g_assert_cmpint(r.status, ==, TRV_LRCP_FLAGGED);
  g_assert_cmpint(r.n_eps, ==, 2);
  g_assert_cmpint(r.eps[0], ==, 1);
  g_assert_cmpint(r.eps[1], ==, 1); /* 1/1 > beta_max */
  /* nothing violated: no call at all */
  TrvProbeWindows *quiet = trv_probe_windows_new(3, 20);
  r = trv_lrcp(quiet, post, &cand, &lp, &g);
  g_assert_cmpint(r.status, ==, TRV_LRCP_NONE);
  g_assert_cmpint(r.n_eps, ==, 0);
  trv_probe_windows_free(quiet);
  trv_posterior_free(post);
  trv_probe_windows_free(pw);
}

static void lrcp_repairs_the_radius_one_neighbourhood(void) {
  const char *const v5[] = {"A", "B", "C", "D", "E"};
  const TrvComponent chain[] = {{"A->B", 0, 1, true}, {"B->C", 1, 2, true}, {"D->E", 3, 4, true}};
  const TrvCandidates c3 = {5, v5, 3, chain};
  TrvPosterior *post = posterior();
  feed(post, 0, 1.0, 30);
  feed(post, 1, 1.0, 30);
  feed(post, 2, 1.0, 30);
  TrvProbeWindows *pw = trv_probe_windows_new(3, 20);
  for (int i = 0; i < 20; i++) trv_probe_windows_push(pw, 0, 1, 1); /* only A->B is violated */
  TrvGraph g;
  trv_graph_clear(&g, 3);
  TrvLrcpParams lp = {20, 3.0, 1, 0.9, TRV_LRCP_EDIT_MAP};
  trv_lrcp(pw, post, &c3, &lp, &g);
  g_assert_true(g.present[0] && g.present[1]); /* B->C shares B: repaired too */
  g_assert_false(g.present[2]);                /* D->E is outside the radius */
  trv_probe_windows_free(pw);
  trv_posterior_free(post);
}

/* The window shows a slope of 1 where the posterior, from a few probes,
 * leans to absent: the MAP repair cannot fix G_hat (flagged), the local
 * edit takes the window's side (converged, present, kappa_hat between
 * kappa_min and the window's slope). */
static void local_edit_overrules_a_lagging_posterior(void) {
  TrvPosterior *post = posterior();
  feed(post, 2, 0.0, 4);
  g_assert_cmpfloat(trv_posterior_presence(post, 2), <, 0.5);
  TrvProbeWindows *pw = trv_probe_windows_new(3, 20);
  for (int i = 0; i < 20; i++) trv_probe_windows_push(pw, 2, i % 2 ? -1 : 1, i % 2 ? -1 : 1);
  for (int edit = TRV_LRCP_EDIT_MAP; edit <= TRV_LRCP_EDIT_LOCAL; edit++) {
    TrvGraph g;
    trv_graph_clear(&g, 3);
    TrvLrcpParams lp = {20, 3.0, 1, 0.9, (TrvLrcpEdit)edit};
    TrvLrcpResult r = trv_lrcp(pw, post, &cand, &lp, &g);
    g_assert_cmpint(r.eps[0], ==, 1);
    if (edit == TRV_LRCP_EDIT_MAP) {
      g_assert_cmpint(r.status, ==, TRV_LRCP_FLAGGED);
      g_assert_false(g.present[2]);
    } else {
      g_assert_cmpint(r.status, ==, TRV_LRCP_CONVERGED);
      g_assert_true(g.present[2]);
      g_assert_cmpfloat(g.kappa[2], >=, 0.5);
      g_assert_cmpfloat(g.kappa[2], <=, 1.0);
    }
  }
  trv_posterior_free(post);
  trv_probe_windows_free(pw);
}

/* A window at slope 0.2 (below kappa_min) against G_hat absent is no
 * violation; against G_hat "present at 1" it is, and the local edit
 * calls the component absent: a present effect is at least kappa_min,
 * and 0.2 fits 0 better than 0.5. */
static void local_edit_holds_present_to_kappa_min(void) {
  TrvPosterior *post = posterior();
  TrvProbeWindows *pw = trv_probe_windows_new(3, 20);
  for (int i = 0; i < 20; i++) trv_probe_windows_push(pw, 2, i % 2 ? -1 : 1, i % 2 ? -0.2 : 0.2);
  TrvGraph g;
  trv_graph_clear(&g, 3);
  g.present[2] = true;
  g.kappa[2] = 1.0;
  TrvLrcpParams lp = {20, 3.0, 1, 0.9, TRV_LRCP_EDIT_LOCAL};
  TrvLrcpResult r = trv_lrcp(pw, post, &cand, &lp, &g);
  g_assert_cmpint(r.status, ==, TRV_LRCP_CONVERGED);
  g_assert_false(g.present[2]);
  g_assert_cmpfloat(g.kappa[2], ==, 0.0);
  trv_posterior_free(post);
  trv_probe_windows_free(pw);
}

/* Two violators, radius 0: D->E's posterior is at the prior (the most
 * uncertain) and its window fixable; A->B's posterior is sure it is absent
 * against a window that says present, so no edit fixes it.  The local
 * repair takes D->E first (2 -> 1), then A->B (1 -> 1: flagged); taking
 * A->B first (the lower id) would flag at once (2 -> 2) and leave D->E
 * broken. */
static void local_repair_takes_the_most_uncertain_violator_first(void) {
  const char *const v5[] = {"A", "B", "C", "D", "E"};
  const TrvComponent chain[] = {{"A->B", 0, 1, true}, {"B->C", 1, 2, true}, {"D->E", 3, 4, true}};
  const TrvCandidates c3 = {5, v5, 3, chain};
  TrvPosterior *post = posterior();
  feed(post, 0, 0.0, 400);
  TrvProbeWindows *pw = trv_probe_windows_new(3, 20);
  for (int i = 0; i < 20; i++) {
    trv_probe_windows_push(pw, 0, i % 2 ? -1 : 1, i % 2 ? -1 : 1);
    trv_probe_windows_push(pw, 2, i % 2 ? -1 : 1, i % 2 ? -1 : 1);
  }
  TrvGraph g;
  trv_graph_clear(&g, 3);
  TrvLrcpParams lp = {20, 3.0, 0, 0.9, TRV_LRCP_EDIT_LOCAL};
  TrvLrcpResult r = trv_lrcp(pw, post, &c3, &lp, &g);
  g_assert_cmpint(r.status, ==, TRV_LRCP_FLAGGED);
  g_assert_cmpint(r.n_eps, ==, 3);
  g_assert_cmpint(r.eps[0], ==, 2);
  g_assert_cmpint(r.eps[1], ==, 1);
  g_assert_cmpint(r.eps[2], ==, 1);
  g_assert_true(g.present[2]);
  g_assert_false(g.present[0] || g.present[1]);
  trv_probe_windows_free(pw);
  trv_posterior_free(post);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/commit/executed_snapshot_commits_map_only_below_the_entropy_bound",
                  executed_snapshot_commits_map_only_below_the_entropy_bound);
  g_test_add_func("/commit/executed_snapshot_is_taken_exactly_up_to_h_ent",
                  executed_snapshot_is_taken_exactly_up_to_h_ent);
  g_test_add_func("/commit/ideal_commit_freezes_resolved_large_effects_and_keeps_them",
                  ideal_commit_freezes_resolved_large_effects_and_keeps_them);
  g_test_add_func("/lrcp/residual_z_is_the_standardized_signed_residual",
                  residual_z_is_the_standardized_signed_residual);
  g_test_add_func("/lrcp/converges_when_the_posterior_knows_better", lrcp_converges_when_the_posterior_knows_better);
  g_test_add_func("/lrcp/flags_when_repair_does_not_contract", lrcp_flags_when_repair_does_not_contract);
  g_test_add_func("/lrcp/repairs_the_radius_one_neighbourhood", lrcp_repairs_the_radius_one_neighbourhood);
  g_test_add_func("/lrcp/local_edit_overrules_a_lagging_posterior", local_edit_overrules_a_lagging_posterior);
  g_test_add_func("/lrcp/local_edit_holds_present_to_kappa_min", local_edit_holds_present_to_kappa_min);
  g_test_add_func("/lrcp/local_repair_takes_the_most_uncertain_violator_first",
                  local_repair_takes_the_most_uncertain_violator_first);
  return g_test_run();
}
