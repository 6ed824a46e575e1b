/* The Beta-Bernoulli posterior (binary probe outcomes; docs/llm.md, "The
 * posterior") against independent computations: the Bayes factor against a
 * brute-force integral over theta, the expected information gain against an
 * enumeration of every outcome sequence, snapshots and their versions, and
 * the Gaussian model's parameters left untouched by the new fields. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "core/posterior.h"
#include "core/world.h"
#include "log/ctl-internal.h"

static TrvPosteriorParams bern(double theta0, double a, double b) {
  TrvPosteriorParams p = {.pi0 = 0.5,
                          .tau2 = 1,
                          .s2 = 1,
                          .kappa_min = 0,
                          .hazard = 0.01,
                          .lambda = 1,
                          .slab = TRV_SLAB_GAUSSIAN,
                          .track = TRV_TRACK_NONE,
                          .noise = TRV_NOISE_KNOWN,
                          .likelihood = TRV_POSTERIOR_BERNOULLI,
                          .theta0 = theta0,
                          .beta_a = a,
                          .beta_b = b};
  return p;
}

/* log int_0^1 Beta(theta; a, b) theta^k (1 - theta)^(n - k) dtheta by the
 * midpoint rule on m panels, minus the H0 likelihood: log BF10 with no
 * special function at all (the Beta normaliser is itself integrated). */
static double brute_log_bf(int n, int k, double theta0, double a, double b) {
  const int m = 400000;
  double num = 0, norm = 0;
  for (int i = 0; i < m; i++) {
    double t = (i + 0.5) / m;
    double prior = pow(t, a - 1) * pow(1 - t, b - 1);
    norm += prior;
    num += prior * pow(t, k) * pow(1 - t, n - k);
  }
  return log(num / norm) - (k * log(theta0) + (n - k) * log(1 - theta0));
}

static void bayes_factor_matches_brute_force_integral(void) {
  const double cases[][5] = {{10, 3, 0.1, 1, 1},     {20, 15, 0.106, 1, 1}, {5, 0, 0.2, 2, 3},
                             {40, 4, 0.1, 1.5, 1.5}, {1, 1, 0.05, 1, 1},    {0, 0, 0.3, 2, 2}};
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const double *c = cases[i];
    double exact = trv_log_bf10_bernoulli(c[0], c[1], c[2], c[3], c[4]);
    double brute = brute_log_bf((int)c[0], (int)c[1], c[2], c[3], c[4]);
    g_assert_cmpfloat_with_epsilon(exact, brute, 1e-5);
  }
  /* one success under a uniform slab: log(E[theta] / theta0) = log(0.5 / 0.1) */
  g_assert_cmpfloat_with_epsilon(trv_log_bf10_bernoulli(1, 1, 0.1, 1, 1), log(5.0), 1e-12);
}

static void posterior_follows_the_observed_successes(void) {
  TrvPosteriorParams p = bern(0.1, 1, 1);
  g_assert_true(trv_posterior_params_valid(&p));
  TrvPosterior *post = trv_posterior_new(1, &p);
  const int w[] = {1, 0, 1, 1, 0, 1};
  for (size_t i = 0; i < G_N_ELEMENTS(w); i++) trv_posterior_observe(post, 0, i % 2 ? -1.0 : 1.0, w[i]);
  /* pooled, no hazard: logit(pi0) + log BF10(n = 6, k = 4) */
  g_assert_cmpfloat_with_epsilon(trv_posterior_log_odds(post, 0), trv_log_bf10_bernoulli(6, 4, 0.1, 1, 1), 1e-12);
  double mu, v;
  trv_posterior_effect(post, 0, &mu, &v);
  g_assert_cmpfloat_with_epsilon(mu, 5.0 / 8.0, 1e-15); /* Beta(5, 3) */
  g_assert_cmpfloat_with_epsilon(v, 15.0 / (64.0 * 9.0), 1e-15);
  /* an outcome above 0.5 counts as a success, anything else as a failure */
  trv_posterior_observe(post, 0, 1.0, 0.7);
  trv_posterior_observe(post, 0, 1.0, -3.0);
  g_assert_cmpfloat(trv_posterior_stats(post, 0)->sww, ==, 5.0);
  g_assert_cmpfloat(trv_posterior_stats(post, 0)->n, ==, 8.0);
  trv_posterior_free(post);
}

/* EIG of m probes by enumerating all 2^m outcome sequences: each
 * sequence's probability under H0 and H1 (the H1 one integrated by the
 * brute-force rule), the posterior after it, the expected entropy. */
static double brute_eig_bits(double l, int n0, int k0, int m, double theta0, double a, double b) {
  double p = 1 / (1 + exp(-l)), h = 0;
  for (unsigned seq = 0; seq < 1u << m; seq++) {
    int x = __builtin_popcount(seq);
    double l0 = x * log(theta0) + (m - x) * log(1 - theta0);
    /* H1 predictive of this sequence given (n0, k0): BF ratio times H0 */
    double l1 = l0 + brute_log_bf(n0 + m, k0 + x, theta0, a, b) - brute_log_bf(n0, k0, theta0, a, b);
    double pr = (1 - p) * exp(l0) + p * exp(l1);
    double post = p * exp(l1) / pr;
    double hp = post <= 0 || post >= 1 ? 0 : -(post * log2(post) + (1 - post) * log2(1 - post));
    h += pr * hp;
  }
  double h_prior = -(p * log2(p) + (1 - p) * log2(1 - p));
  return h_prior - h;
}

static void eig_matches_enumeration_of_outcomes(void) {
  TrvPosteriorParams p = bern(0.106, 1, 1);
  TrvPosterior *post = trv_posterior_new(1, &p);
  for (int m = 1; m <= 6; m++) {
    double exact = trv_posterior_eig_bits(post, 0, m, 1.0);
    double brute = brute_eig_bits(0.0, 0, 0, m, 0.106, 1, 1);
    g_assert_cmpfloat_with_epsilon(exact, brute, 1e-6);
    g_assert_cmpfloat(exact, >, 0);
    g_assert_cmpfloat(exact, <=, 1.0);
  }
  trv_posterior_observe(post, 0, 1, 1);
  trv_posterior_observe(post, 0, 1, 0);
  trv_posterior_observe(post, 0, 1, 1);
  double l = trv_posterior_log_odds(post, 0);
  for (int m = 1; m <= 5; m++)
    g_assert_cmpfloat_with_epsilon(trv_posterior_eig_bits(post, 0, m, 1.0), brute_eig_bits(l, 3, 2, m, 0.106, 1, 1),
                                   1e-6);
  /* the memo is not used for binary probes, and gives the same bits */
  TrvEigMemo *memo = trv_eig_memo_new();
  g_assert_cmpfloat(trv_posterior_eig_bits_memo(post, 0, 3, 1.0, memo), ==, trv_posterior_eig_bits(post, 0, 3, 1.0));
  trv_eig_memo_free(memo);
  /* the predictive is a probability mass over {0, 1} */
  double p1 = trv_posterior_predictive_density(post, 0, 1, 1), p0 = trv_posterior_predictive_density(post, 0, 1, 0);
  g_assert_cmpfloat_with_epsilon(p0 + p1, 1.0, 1e-15);
  trv_posterior_free(post);
}

static void snapshot_is_version_three_and_round_trips(void) {
  TrvPosteriorParams p = bern(0.2, 1.5, 2.5);
  p.track = TRV_TRACK_HAZARD;
  p.persist = 0.9;
  TrvPosterior *post = trv_posterior_new(2, &p);
  trv_posterior_episode_begin(post);
  trv_posterior_observe(post, 0, 1, 1);
  trv_posterior_observe(post, 1, -1, 0);
  GByteArray *blob = g_byte_array_new();
  trv_posterior_serialize(post, blob);
  g_assert_cmpuint(blob->data[4], ==, 3);
  GError *err = NULL;
  TrvPosterior *back = trv_posterior_deserialize(blob->data, blob->len, &err);
  g_assert_no_error(err);
  g_assert_true(trv_posterior_equal(post, back));
  g_assert_cmpfloat(trv_posterior_params(back)->theta0, ==, 0.2);
  /* a theta0 out of (0, 1) in the bytes is refused (offset 28 + 72) */
  double bad = 1.5;
  memcpy(blob->data + 100, &bad, 8);
  g_assert_null(trv_posterior_deserialize(blob->data, blob->len, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_CORRUPT);
  g_clear_error(&err);
  trv_posterior_free(back);
  trv_posterior_free(post);
  g_byte_array_unref(blob);
}

static void gaussian_parameters_reject_bernoulli_fields(void) {
  TrvPosteriorParams g = {.pi0 = 0.5, .tau2 = 1, .s2 = 1, .hazard = 0.01, .lambda = 1};
  g_assert_true(trv_posterior_params_valid(&g));
  g.theta0 = 0.1; /* a Gaussian model carries no baseline rate */
  g_assert_false(trv_posterior_params_valid(&g));
  TrvPosteriorParams b = bern(0.1, 1, 1);
  b.s2 = 2; /* the Bernoulli model keeps the Gaussian fields neutral */
  g_assert_false(trv_posterior_params_valid(&b));
  b = bern(1.0, 1, 1);
  g_assert_false(trv_posterior_params_valid(&b));
}

/* The log's header: byte 120 names the likelihood, theta0, a and b take
 * the Gaussian-only slots, and a Gaussian header is the bytes it was. */
static void log_header_carries_the_likelihood(void) {
  TrvCtlHeader h = {.version = TRV_CTL_FORMAT_VERSION,
                    .n_components = 1,
                    .base_episode = TRV_CTL_NO_BASE,
                    .params = bern(0.106, 2, 3)};
  uint8_t bytes[TRV_CTL_HEADER_SIZE];
  trv_ctl_header_encode(&h, bytes);
  g_assert_cmpuint(bytes[120], ==, 1);
  TrvCtlHeader back;
  GError *err = NULL;
  g_assert_true(trv_ctl_header_decode(bytes, sizeof bytes, "h", &back, &err));
  g_assert_true(trv_ctl_params_equal(&h.params, &back.params));
  g_assert_cmpfloat(back.params.theta0, ==, 0.106);
  g_assert_cmpfloat(back.params.beta_b, ==, 3);
  g_assert_cmpfloat(back.params.s2, ==, 1);
  TrvCtlHeader g = h;
  g.params = (TrvPosteriorParams){.pi0 = 0.5, .tau2 = 1, .s2 = 2, .hazard = 0.01, .lambda = 1};
  trv_ctl_header_encode(&g, bytes);
  for (int i = 112; i < 124; i++) g_assert_cmpuint(bytes[i], ==, 0);
  g_assert_true(trv_ctl_header_decode(bytes, sizeof bytes, "h", &back, &err));
  g_assert_cmpint(back.params.likelihood, ==, TRV_POSTERIOR_GAUSSIAN);
  g_assert_cmpfloat(back.params.s2, ==, 2);
}

/* A world declaring binary probes must say their baseline rate, in (0, 1). */
static void *dummy_init(const TrvParams *p, uint64_t seed, GError **error) {
  (void)p, (void)seed, (void)error;
  return g_new0(int, 1);
}
static const char *const dummy_vars[] = {"U", "A"};
static const TrvComponent dummy_comp[] = {{"U->A", 0, 1, false}};
static const TrvCandidates dummy_cand = {2, dummy_vars, 1, dummy_comp};
static const TrvCandidates *dummy_candidates(void *w) { return (void)w, &dummy_cand; }
static double dummy_one(void *w) { return (void)w, 1.0; }
static double dummy_rate(void *w) { return (void)w, 0.1; }
static int dummy_int(void *w) { return (void)w, 1; }
static void dummy_begin(void *w, int e) { (void)w, (void)e; }
static void dummy_truth(void *w, TrvGraph *g) { (void)w, trv_graph_clear(g, 1); }
static const TrvRefereeClass dummy_ref = {.truth = dummy_truth};

static void binary_world_needs_its_baseline_rate(void) {
  TrvWorldClass wc = {.name = "binary-test",
                      .init = dummy_init,
                      .free = g_free,
                      .candidates = dummy_candidates,
                      .likelihood = TRV_LIKELIHOOD_BERNOULLI,
                      .noise_var = dummy_one,
                      .episodes = dummy_int,
                      .steps = dummy_int,
                      .episode_begin = dummy_begin,
                      .referee = &dummy_ref};
  GError *err = NULL;
  g_assert_false(trivium_world_register(&wc, &err));
  g_assert_nonnull(strstr(err->message, "baseline_rate"));
  g_clear_error(&err);
  wc.likelihood = (TrvLikelihood)7;
  g_assert_false(trivium_world_register(&wc, &err));
  g_assert_nonnull(strstr(err->message, "gaussian or bernoulli"));
  g_clear_error(&err);
  wc.likelihood = TRV_LIKELIHOOD_BERNOULLI;
  wc.baseline_rate = dummy_rate;
  void *w = wc.init(NULL, 1, NULL);
  TrvWorldInfo info;
  g_assert_true(trv_world_info(&wc, w, &info, &err));
  g_assert_cmpint(info.likelihood, ==, TRV_LIKELIHOOD_BERNOULLI);
  g_assert_cmpfloat(info.theta0, ==, 0.1);
  wc.baseline_rate = dummy_one; /* theta0 = 1: no room above the baseline */
  g_assert_false(trv_world_info(&wc, w, &info, &err));
  g_assert_nonnull(strstr(err->message, "baseline rate strictly between 0 and 1"));
  g_clear_error(&err);
  g_free(w);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/posterior-bernoulli/bayes_factor_matches_brute_force_integral",
                  bayes_factor_matches_brute_force_integral);
  g_test_add_func("/posterior-bernoulli/posterior_follows_the_observed_successes",
                  posterior_follows_the_observed_successes);
  g_test_add_func("/posterior-bernoulli/eig_matches_enumeration_of_outcomes", eig_matches_enumeration_of_outcomes);
  g_test_add_func("/posterior-bernoulli/snapshot_is_version_three_and_round_trips",
                  snapshot_is_version_three_and_round_trips);
  g_test_add_func("/posterior-bernoulli/gaussian_parameters_reject_bernoulli_fields",
                  gaussian_parameters_reject_bernoulli_fields);
  g_test_add_func("/posterior-bernoulli/log_header_carries_the_likelihood", log_header_carries_the_likelihood);
  g_test_add_func("/posterior-bernoulli/binary_world_needs_its_baseline_rate", binary_world_needs_its_baseline_rate);
  return g_test_run();
}
