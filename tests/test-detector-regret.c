/* Drift detectors (docs/controller.md, "Drift detectors and PartialReset")
 * against hand-computed sequences, and the three regrets (docs/outputs.md,
 * "episodes.csv") on a 3-episode hand example. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "core/detector.h"
#include "core/regret.h"

static const TrvCeEigParams ce_params = {.mu_bar = 0.1, .h_cusum = 0.5};
static const TrvResidualRatioParams rr_params = {.window = 4, .ratio = 2.2};
static const TrvLoglikParams ll_params = {.delta = 0.5, .h = 1.0};

static const TrvDetectorClass *class_of(const char *name) {
  const TrvModule *m = trv_detector_lookup(name);
  g_assert_nonnull(m);
  return m->klass;
}

/* The values above for the shipped detectors; any other's defaults (into
 * `room`, at least its block's size). */
static const void *params_of(const char *name, void *room) {
  if (!strcmp(name, "ce-eig-cusum")) return &ce_params;
  if (!strcmp(name, "residual-ratio")) return &rr_params;
  if (!strcmp(name, "loglik-cusum")) return &ll_params;
  const TrvModule *m = trv_detector_lookup(name);
  if (!m->params) return NULL;
  trv_param_block_defaults(m->params, room);
  return room;
}

static void ce_eig_cusum_follows_the_hand_computed_sequence(void) {
  const TrvDetectorClass *k = class_of("ce-eig-cusum");
  void *d = k->create(&ce_params, 3);
  /* H(P_{e-1}), H(P_e) per episode; CE-EIG = drop; S = max(0, S + CE - 0.1) */
  const double h[][2] = {{3.0, 2.7}, {2.7, 2.6}, {2.6, 2.7}, {2.7, 2.3}, {2.3, 2.1}, {2.1, 2.1}};
  const double want[] = {0.2, 0.2, 0.0, 0.3, 0.4, 0.3};
  for (int e = 0; e < 6; e++) {
    TrvDetectorInput in = {.h_prev_bits = h[e][0], .h_bits = h[e][1], .s2 = 1};
    double stat;
    g_assert_false(k->step(d, &in, &stat));
    g_assert_cmpfloat(fabs(stat - want[e]), <, 1e-12);
  }
  TrvDetectorInput jump = {.h_prev_bits = 2.1, .h_bits = 1.7, .s2 = 1}; /* S = 0.3 + 0.4 - 0.1 = 0.6 > 0.5 */
  double stat;
  g_assert_true(k->step(d, &jump, &stat));
  g_assert_cmpfloat(fabs(stat - 0.6), <, 1e-12);
  TrvDetectorInput flat = {.h_prev_bits = 1.7, .h_bits = 1.7, .s2 = 1};
  k->step(d, &flat, &stat); /* restarted after the alarm: max(0, 0 + 0 - 0.1) */
  g_assert_cmpfloat(stat, ==, 0.0);
  k->free(d);
}

static void loglik_cusum_accumulates_the_likelihood_ratio_per_component(void) {
  const TrvDetectorClass *k = class_of("loglik-cusum");
  void *d = k->create(&ll_params, 2);
  /* component 1, z = 1, residual r = 1 each probe: up-increment
   * (0.5 * 1 * 1 - 0.125) / 1 = 0.375; down-increment -0.625 (floored at 0) */
  int comp[] = {1, 1};
  double z[] = {1, 1}, r[] = {1, 1}, stat;
  TrvDetectorInput in = {.n_probes = 2, .component = comp, .z = z, .resid = r, .s2 = 1, .n_components = 2};
  g_assert_false(k->step(d, &in, &stat));
  g_assert_cmpfloat(fabs(stat - 0.75), <, 1e-15);
  /* component 0 with well-predicted probes does not mask component 1 */
  int comp0[] = {0, 0, 0};
  double z0[] = {1, -1, 1}, r0[] = {0.1, 0.0, -0.1};
  TrvDetectorInput quiet = {.n_probes = 3, .component = comp0, .z = z0, .resid = r0, .s2 = 1, .n_components = 2};
  g_assert_false(k->step(d, &quiet, &stat));
  g_assert_cmpfloat(fabs(stat - 0.75), <, 1e-15);
  g_assert_true(k->step(d, &in, &stat)); /* 1.5 > 1.0 */
  g_assert_cmpfloat(fabs(stat - 1.5), <, 1e-15);
  /* negative shifts go to the other side: z = -1, r = 1 is a slope of -1 */
  double zn[] = {-1, -1, -1};
  int c3[] = {1, 1, 1};
  double r3[] = {1, 1, 1};
  TrvDetectorInput neg = {.n_probes = 3, .component = c3, .z = zn, .resid = r3, .s2 = 1, .n_components = 2};
  g_assert_true(k->step(d, &neg, &stat));
  g_assert_cmpfloat(fabs(stat - 3 * 0.375), <, 1e-15);
  k->free(d);
}

static void residual_ratio_alarms_on_variance_inflation(void) {
  const TrvDetectorClass *k = class_of("residual-ratio");
  void *d = k->create(&rr_params, 1);
  int comp[4] = {0};
  double z[4] = {1, 1, 1, 1}, base[4] = {1, -1, 1, -1}, big[4] = {1.5, -1.5, 1.5, -1.5}, stat;
  TrvDetectorInput in = {.n_probes = 4, .component = comp, .z = z, .resid = base, .s2 = 1, .n_components = 1};
  g_assert_false(k->step(d, &in, &stat)); /* first full window: the baseline (mean 1) */
  in.resid = big;                         /* 2.25x the baseline once the window is full */
  g_assert_true(k->step(d, &in, &stat));
  g_assert_cmpfloat(fabs(stat - 2.25), <, 1e-12);
  k->free(d);
  g_assert_null(trv_detector_lookup("no-such-detector"));
}

/* After an alarm every detector restarts its statistic: a detector that has
 * just alarmed answers the next episode exactly as a new one does.  Every
 * registered detector, driven by the same episodes: a calm one (residuals
 * of 1, no entropy drop), a storm that each of them alarms on (entropy
 * falling by 10 bits, the last residual 10: residual-ratio restarts at the
 * probe it alarms on, so the storm's alarm is its last probe), then a
 * calm episode again. */
static void every_detector_restarts_after_an_alarm(void) {
  int comp[4] = {0, 0, 1, 1};
  double z[4] = {1, -1, 1, -1}, one[4] = {1, -1, 1, -1}, ten[4] = {1, -1, 1, -10};
  TrvDetectorInput calm = {.h_prev_bits = 3,
                           .h_bits = 3,
                           .n_probes = 4,
                           .component = comp,
                           .z = z,
                           .resid = one,
                           .s2 = 1,
                           .n_components = 2};
  TrvDetectorInput storm = calm, probe = calm;
  storm.h_prev_bits = 12, storm.h_bits = 2, storm.resid = ten;
  probe.h_prev_bits = 2, probe.h_bits = 1.5;
  int n = 0;
  for (const char *const *name = trv_detector_names(); *name; name++, n++) {
    const TrvDetectorClass *k = class_of(*name);
    double room[64];
    const void *params = params_of(*name, room);
    void *d = k->create(params, 2), *fresh = k->create(params, 2);
    double stat, want;
    g_assert_false(k->step(d, &calm, &stat));
    g_assert_true(k->step(d, &storm, &stat));
    bool alarm = k->step(d, &probe, &stat), want_alarm = k->step(fresh, &probe, &want);
    if (alarm != want_alarm || stat != want)
      g_error("%s after an alarm: %s, statistic %.17g; a new detector: %s, %.17g", *name, alarm ? "alarm" : "quiet",
              stat, want_alarm ? "alarm" : "quiet", want);
    k->free(d);
    k->free(fresh);
  }
  g_assert_cmpint(n, >=, 3);
}

static void regrets_on_a_three_episode_hand_example(void) {
  /* Episode payoffs: oracle expected 0.5 per step, T = 4.
   * e0: played 0.5, 0.5, -0.5, 0.5   -> R_out 1.0
   * e1: played 0, 0, 0, 0            -> R_out 2.0
   * e2: played oracle every step     -> R_out 0.0 */
  double played[3][4] = {{0.5, 0.5, -0.5, 0.5}, {0, 0, 0, 0}, {0.5, 0.5, 0.5, 0.5}}, r_out = 0;
  for (int e = 0; e < 3; e++)
    for (int t = 0; t < 4; t++) r_out += trv_regret_outcome_step(0.5, played[e][t]);
  g_assert_cmpfloat(fabs(r_out - 3.0), <, 1e-15);

  /* R_epi: one component, belief p constant within each episode at
   * 0.8, 0.5, 0.99 (pi0 of a fresh posterior), truth present. */
  double ps[3] = {0.8, 0.5, 0.99}, r_epi = 0;
  bool truth[1] = {true};
  for (int e = 0; e < 3; e++) {
    TrvPosteriorParams pp = {
        .pi0 = ps[e], .tau2 = 1, .s2 = 1, .lambda = 1, .slab = TRV_SLAB_GAUSSIAN, .track = TRV_TRACK_NONE};
    TrvPosterior *post = trv_posterior_new(1, &pp);
    for (int t = 0; t < 4; t++) r_epi += trv_regret_epistemic_step(post, truth);
    trv_posterior_free(post);
  }
  g_assert_cmpfloat(fabs(r_epi - 4 * (-log(0.8) - log(0.5) - log(0.99))), <, 1e-12);

  /* R_temp: e0 in M, Delta 0.5, tau 3 -> 1.5; e1 in M, never commits
   * (tau = T = 4) -> 2.0; e2 not in M -> 0.  Total 3.5. */
  double r_temp = trv_regret_temporal(true, 0.5, 3, 4) + trv_regret_temporal(true, 0.5, 4, 4) +
                  trv_regret_temporal(false, 0.5, 0, 4);
  g_assert_cmpfloat(fabs(r_temp - 3.5), <, 1e-15);
  g_assert_cmpfloat(trv_regret_temporal(true, 0.5, 9, 4), ==, 2.0); /* min(tau, T) */
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_detectors_register_builtin();
  g_test_add_func("/detector/ce_eig_cusum_follows_the_hand_computed_sequence",
                  ce_eig_cusum_follows_the_hand_computed_sequence);
  g_test_add_func("/detector/loglik_cusum_accumulates_the_likelihood_ratio_per_component",
                  loglik_cusum_accumulates_the_likelihood_ratio_per_component);
  g_test_add_func("/detector/residual_ratio_alarms_on_variance_inflation", residual_ratio_alarms_on_variance_inflation);
  g_test_add_func("/detector/every_detector_restarts_after_an_alarm", every_detector_restarts_after_an_alarm);
  g_test_add_func("/regret/regrets_on_a_three_episode_hand_example", regrets_on_a_three_episode_hand_example);
  return g_test_run();
}
