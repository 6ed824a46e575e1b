/* Properties of the statistics module: each test checks numbers against a
 * table, a closed form, a hand computation or a brute-force enumeration.
 * Reference values not from printed tables were computed with mpmath at 50
 * digits (regularized incomplete beta, erfc). */
#include <glib.h>
#include <math.h>

#include "core/rng.h"
#include "core/stats.h"

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

static void assert_relative(double got, double want, double tolerance) {
  if (!(fabs(got - want) <= tolerance * fabs(want)))
    g_error("got %.17g, want %.17g (relative error %.3g > %.3g)", got, want, fabs(got - want) / fabs(want), tolerance);
}

/* ---- Student t ---------------------------------------------------------- */

static void t_quantile_matches_printed_table(void) {
  assert_relative(trv_student_t_quantile(0.975, 1), 12.706204736, 1e-10);
  assert_relative(trv_student_t_quantile(0.975, 19), 2.093024054, 1e-9);
  assert_relative(trv_student_t_quantile(0.975, 4), 2.776445105, 1e-9);
  assert_relative(trv_student_t_quantile(0.975, 3), 3.182446305, 1e-9);
  assert_relative(trv_student_t_quantile(0.975, 1000), 1.962339, 1e-6);
  assert_relative(trv_student_t_quantile(0.995, 2), 9.924843201, 1e-9);
}

static void t_quantile_has_1e_10_relative_accuracy_from_centre_to_far_tail(void) {
  /* Includes non-integer df, p within 1e-7 of 1/2, p = 1e-300 and df = 1e8. */
  static const struct {
    double p, df, t;
  } cases[] = {
      {0.975, 1, 12.706204736174693314},
      {0.975, 19, 2.0930240544083093201},
      {0.975, 1000, 1.9623390808264081039},
      {0.975, 1e6, 1.9599663568141066553},
      {0.6, 7, 0.26316686135202275215},
      {0.7, 2, 0.61721339984836747789},
      {0.25, 30, -0.68275569332129255301},
      {0.5000001, 5, 2.6343055227537268418e-7},
      {1e-12, 3, -10331.108244292486204},
      {0.9999, 1.5, 242.26409884652408509},
      {0.9999999999, 1, 3183098598.4671477514},
      {1e-300, 1, -3.1830988618379066356e+299},
      /* df above 1e6: the Hill-expansion branch */
      {0.975, 3e6, 1.9599647752974442328},
      {0.975, 1e8, 1.9599640082627664408},
      {0.6, 1e7, 0.25334710987600296805},
      {1e-300, 1e7, -37.048368428741473079},
  };
  for (size_t i = 0; i < N_ELEMENTS(cases); i++)
    assert_relative(trv_student_t_quantile(cases[i].p, cases[i].df), cases[i].t, 1e-10);
}

static void t_quantile_near_centre_with_many_df_keeps_1e_12(void) {
  /* lgamma(df/2) - lgamma(df/2 + 1/2) alone would cost 2e-10 here: the log
   * beta must come from Stirling's series. */
  assert_relative(trv_student_t_quantile(0.6, 2e5), 0.25334744014622277617, 1e-12);
  assert_relative(trv_student_t_quantile(0.6, 1e6), 0.253347170537841622, 1e-12);
  assert_relative(trv_student_t_quantile(0.5000001, 1e6), 2.5066288999687949611e-7, 1e-12);
}

static void t_quantile_is_odd_about_one_half(void) {
  static const double ps[] = {0.975, 0.9, 0.6, 0.51, 0.999999};
  static const double dfs[] = {1, 2.5, 19, 300};
  for (size_t i = 0; i < N_ELEMENTS(ps); i++)
    for (size_t k = 0; k < N_ELEMENTS(dfs); k++) {
      double up = trv_student_t_quantile(ps[i], dfs[k]);
      double down = trv_student_t_quantile(1.0 - ps[i], dfs[k]);
      g_assert_cmpfloat(up, >, 0.0);
      assert_relative(-down, up, 1e-12);
    }
  g_assert_cmpfloat(trv_student_t_quantile(0.5, 7), ==, 0.0);
}

static void t_quantile_of_one_df_is_cauchy_tangent(void) {
  /* df = 1 is the Cauchy distribution: t_p = tan(pi (p - 1/2)). */
  static const double ps[] = {0.55, 0.75, 0.9, 0.99, 0.999};
  for (size_t i = 0; i < N_ELEMENTS(ps); i++)
    assert_relative(trv_student_t_quantile(ps[i], 1), tan(M_PI * (ps[i] - 0.5)), 1e-12);
}

static void t_quantile_rejects_invalid_arguments(void) {
  g_assert_true(isnan(trv_student_t_quantile(0.0, 5)));
  g_assert_true(isnan(trv_student_t_quantile(1.0, 5)));
  g_assert_true(isnan(trv_student_t_quantile(0.9, 0.5)));
  g_assert_true(isnan(trv_student_t_quantile(NAN, 5)));
}

/* ---- Summaries ---------------------------------------------------------- */

static void summary_of_one_to_four_matches_hand_computation(void) {
  /* mean 2.5; ss = 2.25 + 0.25 + 0.25 + 2.25 = 5, sd = sqrt(5/3);
   * half-width t_{0.975,3} * sd / 2. */
  const double x[] = {1, 2, 3, 4};
  TrvSummary s = trv_summarize(x, 4);
  g_assert_cmpuint(s.n, ==, 4);
  g_assert_cmpfloat_with_epsilon(s.mean, 2.5, 1e-15);
  assert_relative(s.sd, 1.2909944487358056, 1e-14);
  double half = 3.182446305 * 0.6454972244;
  g_assert_cmpfloat_with_epsilon(s.lo, 2.5 - half, 1e-8);
  g_assert_cmpfloat_with_epsilon(s.hi, 2.5 + half, 1e-8);
}

static void summary_of_one_value_has_zero_width_and_of_none_is_nan(void) {
  const double x[] = {7.25};
  TrvSummary one = trv_summarize(x, 1);
  g_assert_cmpfloat(one.mean, ==, 7.25);
  g_assert_cmpfloat(one.sd, ==, 0.0);
  g_assert_cmpfloat(one.lo, ==, 7.25);
  g_assert_cmpfloat(one.hi, ==, 7.25);
  TrvSummary none = trv_summarize(NULL, 0);
  g_assert_cmpuint(none.n, ==, 0);
  g_assert_true(isnan(none.mean) && isnan(none.sd) && isnan(none.lo) && isnan(none.hi));
}

static void summary_sd_survives_a_large_offset(void) {
  /* E[x^2] - E[x]^2 would lose every digit here; two passes keep them. */
  const double x[] = {1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4};
  assert_relative(trv_summarize(x, 4).sd, 1.2909944487358056, 1e-12);
}

/* ---- Mann-Whitney ------------------------------------------------------- */

/* U of x against y straight from the definition: pairs x > y, ties 1/2. */
static double brute_u(const double *x, size_t n1, const double *y, size_t n2) {
  double u = 0.0;
  for (size_t i = 0; i < n1; i++)
    for (size_t j = 0; j < n2; j++) u += x[i] > y[j] ? 1.0 : x[i] == y[j] ? 0.5 : 0.0;
  return u;
}

/* Two-sided exact p by enumerating every way to label n1 of the pooled
 * values as x: the permutation null of U, with no recurrence involved. */
static double brute_exact_p(const double *x, size_t n1, const double *y, size_t n2) {
  double pool[16], a[16], b[16];
  size_t total = n1 + n2;
  g_assert_cmpuint(total, <=, 16);
  for (size_t i = 0; i < n1; i++) pool[i] = x[i];
  for (size_t j = 0; j < n2; j++) pool[n1 + j] = y[j];
  double u_obs = brute_u(x, n1, y, n2);
  double count = 0, le = 0, ge = 0;
  for (unsigned mask = 0; mask < (1u << total); mask++) {
    if ((size_t)__builtin_popcount(mask) != n1) continue;
    size_t na = 0, nb = 0;
    for (size_t k = 0; k < total; k++) {
      if (mask & (1u << k))
        a[na++] = pool[k];
      else
        b[nb++] = pool[k];
    }
    double u = brute_u(a, na, b, nb);
    count++;
    le += u <= u_obs;
    ge += u >= u_obs;
  }
  double smaller = fmin(le, ge) / count;
  return fmin(1.0, 2.0 * smaller);
}

static void mann_whitney_exact_matches_enumeration(void) {
  static const double x45[][4] = {
      {1.1, 2.2, 3.3, 4.4}, {10.5, 0.3, 7.7, 2.9}, {5.0, 6.0, 7.0, 8.0}, {0.1, 9.9, 4.4, 5.6}};
  static const double y45[][5] = {
      {5.5, 6.6, 7.7, 8.8, 9.9}, {1.0, 3.0, 6.0, 8.0, 11.0}, {1.0, 2.0, 3.0, 4.0, 4.5}, {2.0, 3.0, 5.0, 6.0, 7.0}};
  for (size_t s = 0; s < N_ELEMENTS(x45); s++) {
    TrvMannWhitney r = trv_mann_whitney(x45[s], 4, y45[s], 5);
    g_assert_cmpint(r.exact, ==, 1);
    g_assert_cmpfloat(r.u, ==, brute_u(x45[s], 4, y45[s], 5));
    assert_relative(r.p_value, brute_exact_p(x45[s], 4, y45[s], 5), 1e-12);
  }
  static const double x66[][6] = {{1, 3, 5, 7, 9, 11}, {0.5, 0.7, 0.9, 12, 13, 14}, {2.5, 8.5, 3.25, 4.75, 6.5, 1.5}};
  static const double y66[][6] = {{2, 4, 6, 8, 10, 12}, {1, 2, 3, 4, 5, 6}, {9.5, 10.5, 7.25, 11.5, 5.5, 12.5}};
  for (size_t s = 0; s < N_ELEMENTS(x66); s++) {
    TrvMannWhitney r = trv_mann_whitney(x66[s], 6, y66[s], 6);
    g_assert_cmpint(r.exact, ==, 1);
    g_assert_cmpfloat(r.u, ==, brute_u(x66[s], 6, y66[s], 6));
    assert_relative(r.p_value, brute_exact_p(x66[s], 6, y66[s], 6), 1e-12);
  }
}

static void mann_whitney_exact_hand_case(void) {
  /* x = {1, 2}, y = {3, 4, 5}: U = 0.  C(5,2) = 10 orderings, and only this
   * one has U = 0 (the distribution is symmetric), so p = 2/10. */
  const double x[] = {1, 2}, y[] = {3, 4, 5};
  TrvMannWhitney r = trv_mann_whitney(x, 2, y, 3);
  g_assert_cmpint(r.exact, ==, 1);
  g_assert_cmpfloat(r.u, ==, 0.0);
  assert_relative(r.p_value, 0.2, 1e-15);
}

static void mann_whitney_complete_separation_at_20_20_is_two_over_binomial(void) {
  double x[20], y[20];
  for (int i = 0; i < 20; i++) {
    x[i] = 100.0 + i;
    y[i] = i * 0.5;
  }
  TrvMannWhitney r = trv_mann_whitney(x, 20, y, 20);
  g_assert_cmpint(r.exact, ==, 1);
  g_assert_cmpfloat(r.u, ==, 400.0);
  assert_relative(r.p_value, 2.0 / 137846528820.0, 1e-9);
  assert_relative(r.p_value, 1.45088891038497e-11, 1e-9);
  TrvMannWhitney flipped = trv_mann_whitney(y, 20, x, 20);
  g_assert_cmpfloat(flipped.u, ==, 0.0);
  assert_relative(flipped.p_value, r.p_value, 1e-12);
}

static void mann_whitney_exact_at_50_50_is_a_distribution(void) {
  /* Interleaved samples sit at the centre, U = n1 n2 / 2 = 1250, p = 1;
   * complete separation gives 2 / C(100, 50) = 1.9822e-29. */
  double x[50], y[50];
  for (int i = 0; i < 50; i++) {
    x[i] = 2.0 * i + (i % 2 ? 1.0 : 0.0);
    y[i] = 2.0 * i + (i % 2 ? 0.0 : 1.0);
  }
  TrvMannWhitney mid = trv_mann_whitney(x, 50, y, 50);
  g_assert_cmpint(mid.exact, ==, 1);
  g_assert_cmpfloat(mid.u, ==, 1250.0);
  g_assert_cmpfloat(mid.p_value, ==, 1.0);
  g_assert_cmpfloat(mid.z, ==, 0.0); /* |U - mean| <= 1/2: no signed score */
  for (int i = 0; i < 50; i++) x[i] = 1000.0 + i;
  TrvMannWhitney far = trv_mann_whitney(x, 50, y, 50);
  assert_relative(far.p_value, 2.0 / 1.00891344545564193334812497256e29, 1e-12);
}

static void mann_whitney_ties_use_normal_approximation_by_hand(void) {
  /* x = {1, 2, 2, 3}, y = {2, 3, 4, 4, 5}.  Pooled midranks: 1 -> 1,
   * 2 (x3) -> 3, 3 (x2) -> 5.5, 4 (x2) -> 7.5, 5 -> 9.  R_x = 12.5,
   * U = 12.5 - 4*5/2 = 2.5.  Mean n1 n2 / 2 = 10.  Ties: 3 runs, sum(t^3-t)
   * = 24 + 6 + 6 = 36; var = 20/12 * (10 - 36/72) = 95/6.
   * z = (2.5 - 10 + 0.5) / sqrt(95/6) = -1.7591864..., p = 2 Phi(z). */
  const double x[] = {1, 2, 2, 3}, y[] = {2, 3, 4, 4, 5};
  TrvMannWhitney r = trv_mann_whitney(x, 4, y, 5);
  g_assert_cmpint(r.exact, ==, 0);
  g_assert_cmpfloat(r.u, ==, 2.5);
  assert_relative(r.z, -7.0 / sqrt(95.0 / 6.0), 1e-14);
  assert_relative(r.z, -1.7591864148251211, 1e-12);
  assert_relative(r.p_value, 0.078545850951190669, 1e-10);
}

static void mann_whitney_large_samples_use_normal_approximation(void) {
  /* n1 = 51 > 50 with no ties: normal, U = 0, z = -(51*51/2 - 1/2)/sd. */
  double x[51], y[51];
  for (int i = 0; i < 51; i++) {
    x[i] = i;
    y[i] = 100.0 + i;
  }
  TrvMannWhitney r = trv_mann_whitney(x, 51, y, 51);
  g_assert_cmpint(r.exact, ==, 0);
  g_assert_cmpfloat(r.u, ==, 0.0);
  double sd = sqrt(51.0 * 51.0 * 103.0 / 12.0);
  assert_relative(r.z, -(51.0 * 51.0 / 2.0 - 0.5) / sd, 1e-14);
  assert_relative(r.p_value, erfc(-r.z / M_SQRT2), 1e-12);
}

static void mann_whitney_u_of_x_plus_u_of_y_is_n1_n2(void) {
  const double x[] = {3.1, 0.4, 2.2, 2.2, 9.0, 5.5, 1.0};
  const double y[] = {2.2, 7.5, 0.4, 6.6};
  TrvMannWhitney xy = trv_mann_whitney(x, 7, y, 4);
  TrvMannWhitney yx = trv_mann_whitney(y, 4, x, 7);
  g_assert_cmpfloat(xy.u + yx.u, ==, 28.0);
  g_assert_cmpfloat(xy.u, ==, brute_u(x, 7, y, 4));
  g_assert_cmpfloat(xy.p_value, ==, yx.p_value);
  g_assert_cmpfloat(xy.z, ==, -yx.z);
}

static void mann_whitney_of_identical_values_has_p_one(void) {
  const double x[] = {4, 4, 4}, y[] = {4, 4};
  TrvMannWhitney r = trv_mann_whitney(x, 3, y, 2);
  g_assert_cmpfloat(r.u, ==, 3.0);
  g_assert_cmpfloat(r.z, ==, 0.0);
  g_assert_cmpfloat(r.p_value, ==, 1.0);
  g_assert_true(isnan(trv_mann_whitney(x, 3, NULL, 0).p_value));
}

/* ---- Normal CDF --------------------------------------------------------- */

static void normal_cdf_matches_reference_values_into_far_tail(void) {
  g_assert_cmpfloat_with_epsilon(trv_normal_cdf(-1.959963985), 0.025, 1e-9);
  g_assert_cmpfloat(trv_normal_cdf(0.0), ==, 0.5);
  assert_relative(trv_normal_cdf(-10.0), 7.6198530241605e-24, 1e-9);
  assert_relative(trv_normal_cdf(-30.0), 4.906713927148187e-198, 1e-9);
  assert_relative(trv_normal_cdf(1.0) + trv_normal_cdf(-1.0), 1.0, 1e-15);
}

/* ---- Linear fit --------------------------------------------------------- */

static void linear_fit_recovers_an_exact_line(void) {
  double x[10], y[10];
  for (int i = 0; i < 10; i++) {
    x[i] = i;
    y[i] = 3.0 + 0.5 * i;
  }
  TrvLinFit f = trv_linear_fit(x, y, 10);
  g_assert_cmpfloat_with_epsilon(f.a, 3.0, 1e-14);
  g_assert_cmpfloat_with_epsilon(f.b, 0.5, 1e-14);
  g_assert_cmpfloat_with_epsilon(f.r2, 1.0, 1e-14);
}

static void linear_fit_hand_case(void) {
  /* xbar = 3, ybar = 4, Sxx = 10, Sxy = 6, Syy = 6: b = 0.6, a = 2.2,
   * r2 = Sxy^2 / (Sxx Syy) = 0.6. */
  const double x[] = {1, 2, 3, 4, 5}, y[] = {2, 4, 5, 4, 5};
  TrvLinFit f = trv_linear_fit(x, y, 5);
  g_assert_cmpfloat_with_epsilon(f.a, 2.2, 1e-14);
  g_assert_cmpfloat_with_epsilon(f.b, 0.6, 1e-14);
  g_assert_cmpfloat_with_epsilon(f.r2, 0.6, 1e-14);
}

static void linear_fit_degenerate_inputs(void) {
  const double x[] = {2, 2, 2}, y[] = {1, 5, 9}, flat[] = {7, 7, 7}, xs[] = {1, 2, 3};
  TrvLinFit vertical = trv_linear_fit(x, y, 3);
  g_assert_true(isnan(vertical.a) && isnan(vertical.b) && isnan(vertical.r2));
  TrvLinFit horizontal = trv_linear_fit(xs, flat, 3);
  g_assert_cmpfloat(horizontal.b, ==, 0.0);
  g_assert_cmpfloat(horizontal.a, ==, 7.0);
  g_assert_cmpfloat(horizontal.r2, ==, 1.0);
  g_assert_true(isnan(trv_linear_fit(xs, y, 1).b));
}

static void basis_fit_with_a_constant_is_the_linear_fit(void) {
  /* u = 1: y = a + b v, the hand case xbar = 2, ybar = 11/3, Sxx = 2,
   * Sxy = 3: b = 1.5, a = 2/3, r2 = 1 - (42/9 - 4.5) / (42/9) = 27/28 */
  const double one[] = {1, 1, 1}, x[] = {1, 2, 3}, y[] = {2, 4, 5};
  TrvLinFit f = trv_basis_fit(one, x, y, 3), g = trv_linear_fit(x, y, 3);
  g_assert_cmpfloat_with_epsilon(f.a, 2.0 / 3.0, 1e-14);
  g_assert_cmpfloat_with_epsilon(f.b, 1.5, 1e-14);
  g_assert_cmpfloat_with_epsilon(f.r2, 27.0 / 28.0, 1e-14);
  g_assert_cmpfloat_with_epsilon(f.r2, g.r2, 1e-14);
}

static void basis_fit_recovers_a_regret_bound_shape(void) {
  /* y = 2 sqrt(E) + 0.3 rho ln(E) exactly, E and rho varying together */
  double u[6], v[6], y[6];
  const double rho[] = {0, 0.5, 1, 2, 4, 8}, E[] = {100, 200, 500, 500, 1000, 2000};
  for (int i = 0; i < 6; i++) {
    u[i] = sqrt(E[i]);
    v[i] = rho[i] * log(E[i]);
    y[i] = 2 * u[i] + 0.3 * v[i];
  }
  TrvLinFit f = trv_basis_fit(u, v, y, 6);
  g_assert_cmpfloat_with_epsilon(f.a, 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon(f.b, 0.3, 1e-12);
  g_assert_cmpfloat_with_epsilon(f.r2, 1.0, 1e-12);
  TrvLinFit same = trv_basis_fit(u, u, y, 6); /* proportional functions: no fit */
  g_assert_true(isnan(same.a) && isnan(same.b) && isnan(same.r2));
}

/* ---- Wasserstein-1 between samples ---- */

static void wasserstein1_of_a_sample_and_its_permutation_is_zero(void) {
  double x[] = {3, -1, 2.5, 0, 7, 2.5}, y[] = {2.5, 7, 0, 2.5, 3, -1};
  g_assert_cmpfloat(trv_wasserstein1(x, 6, y, 6), ==, 0.0);
  g_assert_cmpfloat(trv_wasserstein1(x, 6, x, 6), ==, 0.0);
}

static void wasserstein1_hand_cases(void) {
  double a[] = {0, 1}, b[] = {0, 0.5, 1}, c[] = {1, 0, 1, 0}, d[] = {0, 2};
  /* quantiles 0|1 against 0|0.5|1: |1/2| on (1/3, 2/3], so 1/6 */
  assert_relative(trv_wasserstein1(a, 2, b, 3), 1.0 / 6.0, 1e-15);
  assert_relative(trv_wasserstein1(b, 3, a, 2), 1.0 / 6.0, 1e-15);
  g_assert_cmpfloat(trv_wasserstein1(a, 2, c, 4), ==, 0.0); /* the same distribution, twice the sample */
  assert_relative(trv_wasserstein1(a, 2, d, 2), 0.5, 1e-15);
  g_assert_true(isnan(trv_wasserstein1(a, 0, b, 3)) && isnan(trv_wasserstein1(a, 2, b, 0)));
}

/* A shifted copy of a sample is at W1 = |shift| exactly, whatever the sample. */
static void wasserstein1_of_a_shift_is_the_shift(void) {
  enum { N = 5000 };
  static double x[N], y[N];
  TrvRng rng;
  trv_rng_init(&rng, 11, 1);
  for (int i = 0; i < N; i++) x[i] = trv_rng_normal(&rng);
  for (int i = 0; i < N; i++) y[i] = x[(i * 7) % N] - 0.3; /* 7 is prime to N: a permutation */
  assert_relative(trv_wasserstein1(x, N, y, N), 0.3, 1e-12);
}

/* Independent samples of N(0, 1) and N(mu, 1): W1 = |mu|; of N(0, 1) and
 * N(0, sigma^2): |sigma - 1| sqrt(2 / pi); of U(0, 1) and U(a, 1 + a): a;
 * to the sampling error of n = 40000 (about 1 / sqrt(n) = 0.005). */
static void wasserstein1_matches_closed_forms_of_normals_and_uniforms(void) {
  enum { N = 40000 };
  static double x[N], y[N];
  TrvRng rng;
  trv_rng_init(&rng, 12, 1);
  for (int i = 0; i < N; i++) x[i] = trv_rng_normal(&rng), y[i] = 0.7 + trv_rng_normal(&rng);
  g_assert_cmpfloat(fabs(trv_wasserstein1(x, N, y, N) - 0.7), <, 0.02);
  for (int i = 0; i < N; i++) y[i] = 2.0 * trv_rng_normal(&rng);
  g_assert_cmpfloat(fabs(trv_wasserstein1(x, N, y, N) - sqrt(2.0 / G_PI)), <, 0.03);
  for (int i = 0; i < N; i++) x[i] = trv_rng_uniform(&rng), y[i] = 0.25 + trv_rng_uniform(&rng);
  g_assert_cmpfloat(fabs(trv_wasserstein1(x, N, y, N) - 0.25), <, 0.01);
  /* unequal sizes: the uniform against half as many shifted draws */
  g_assert_cmpfloat(fabs(trv_wasserstein1(x, N, y, N / 2) - 0.25), <, 0.015);
  /* two samples of one distribution: W1 shrinks like 1 / sqrt(n) */
  for (int i = 0; i < N; i++) y[i] = trv_rng_uniform(&rng);
  g_assert_cmpfloat(trv_wasserstein1(x, N, y, N), <, 0.01);
}

static void wasserstein1_bounds_the_mean_difference(void) {
  double x[] = {1, 5, 2, 8}, y[] = {3, 3, 9, 0, 4};
  double mx = 4, my = 19.0 / 5.0;
  g_assert_cmpfloat(trv_wasserstein1(x, 4, y, 5), >=, fabs(mx - my));
  assert_relative(trv_wasserstein1(x, 4, y, 5), trv_wasserstein1(y, 5, x, 4), 1e-15);
}

static void rank_is_descending_and_stable(void) {
  const double v[7] = {0.5, 1, 0.5, -2, 1, 0.5, 3};
  int order[7];
  trv_rank_desc(v, 7, order);
  const int want[7] = {6, 1, 4, 0, 2, 5, 3}; /* ties keep the lower index first */
  for (int i = 0; i < 7; i++) g_assert_cmpint(order[i], ==, want[i]);
}

/* trv_top_desc against the full ranking: the same first k indices in the
 * same order, for every k, on values with many ties (drawn from a few
 * levels) and on distinct ones. */
static void top_is_the_head_of_the_ranking(void) {
  TrvRng rng;
  trv_rng_init(&rng, 11, 3);
  for (int trial = 0; trial < 400; trial++) {
    int n = 1 + (int)trv_rng_below(&rng, 130), levels = trial % 2 ? 4 : 1000000;
    double *v = g_new(double, n);
    int *order = g_new(int, n), *top = g_new(int, n);
    for (int i = 0; i < n; i++) v[i] = (double)trv_rng_below(&rng, (uint64_t)levels) - levels / 2;
    trv_rank_desc(v, n, order);
    for (int k = 0; k <= n; k++) {
      for (int i = 0; i < n; i++) top[i] = -1;
      trv_top_desc(v, n, k, top);
      for (int i = 0; i < k; i++) g_assert_cmpint(top[i], ==, order[i]);
      for (int i = k; i < n; i++) g_assert_cmpint(top[i], ==, -1); /* nothing written past k */
    }
    g_free(v);
    g_free(order);
    g_free(top);
  }
}

static void normal_quantile_inverts_the_cdf(void) {
  /* closed values: Phi^-1(0.975) = 1.959963984540054, Phi^-1(0.5) = 0, odd symmetry */
  g_assert_cmpfloat(fabs(trv_normal_quantile(0.975) - 1.959963984540054), <, 1e-14);
  g_assert_cmpfloat(fabs(trv_normal_quantile(0.5)), <, 1e-15);
  g_assert_cmpfloat(trv_normal_quantile(0.25), ==, -trv_normal_quantile(0.75)); /* 1 - 0.75 is exact */
  for (double p = 1e-300; p < 0.5; p *= 7.3) {
    double x = trv_normal_quantile(p);
    g_assert_cmpfloat(fabs(trv_normal_cdf(x) / p - 1), <, 1e-12);
  }
}

/* The paired bootstrap of a ratio: b = 2a makes every resample's ratio of
 * sums exactly 1/2; a ratio that can divide by zero is infinite in some
 * resamples, kept only when asked, and the resamples left out are counted
 * (as many as the resamples that miss b's one nonzero unit); fewer than
 * two units give no interval; on an ordinary sample the interval holds the
 * whole sample's ratio, and the same stream gives the same interval. */
static void bootstrap_ratio_interval_properties(void) {
  double a[12], b[12], lo, hi, lo2, hi2;
  TrvRng rng;
  trv_rng_init(&rng, 5, 77);
  for (int i = 0; i < 12; i++) a[i] = 1 + trv_rng_uniform(&rng) * 9, b[i] = 2 * a[i];
  g_assert_cmpint(trv_bootstrap_ratio_interval(a, b, 12, trv_sum, false, &rng, 500, &lo, &hi), ==, 0);
  g_assert_cmpfloat(lo, ==, 0.5);
  g_assert_cmpfloat(hi, ==, 0.5);
  /* b zero but for one unit: about (11/12)^12 = 35 % of resamples miss it;
   * the same draws again, counted by hand, give the number left out */
  for (int i = 0; i < 12; i++) b[i] = i == 4 ? 3 : 0;
  TrvRng again = rng;
  int missed = 0;
  for (int k = 0; k < 2000; k++) {
    bool hit = false;
    for (int i = 0; i < 12; i++) hit |= trv_rng_below(&again, 12) == 4;
    missed += !hit;
  }
  int left_out = trv_bootstrap_ratio_interval(a, b, 12, trv_sum, false, &rng, 2000, &lo, &hi);
  g_assert_cmpint(left_out, ==, missed);
  g_assert_cmpint(left_out, >, 600);
  g_assert_cmpint(left_out, <, 800);
  g_assert_true(isfinite(lo) && isfinite(hi) && lo <= hi);
  g_assert_cmpint(trv_bootstrap_ratio_interval(a, b, 12, trv_sum, true, &rng, 2000, &lo, &hi), ==, 0);
  g_assert_true(isfinite(lo));
  g_assert_true(isinf(hi));
  g_assert_cmpint(trv_bootstrap_ratio_interval(a, b, 1, trv_sum, true, &rng, 2000, &lo, &hi), ==, 0);
  g_assert_true(isnan(lo) && isnan(hi));
  for (int i = 0; i < 12; i++) b[i] = a[i] + 2 * trv_rng_uniform(&rng);
  double whole = trv_sum(a, 12) / trv_sum(b, 12);
  TrvRng r1, r2;
  trv_rng_init(&r1, 9, 1);
  trv_rng_init(&r2, 9, 1);
  trv_bootstrap_ratio_interval(a, b, 12, trv_sum, false, &r1, 2000, &lo, &hi);
  trv_bootstrap_ratio_interval(a, b, 12, trv_sum, false, &r2, 2000, &lo2, &hi2);
  g_assert_cmpfloat(lo, <, whole);
  g_assert_cmpfloat(hi, >, whole);
  g_assert_cmpfloat(hi, <, 1);
  g_assert_cmpfloat(lo, ==, lo2);
  g_assert_cmpfloat(hi, ==, hi2);
}

static void median_interval_is_the_order_statistics(void) {
  /* n = 10: P(Bin(10, 1/2) <= 1) = 11/1024 <= 0.025 < P(<= 2) = 56/1024, so
   * [x_(2), x_(9)] with coverage 1 - 22/1024 */
  double x[10] = {9, 3, 7, 1, 5, 10, 2, 8, 4, 6};
  TrvMedianInterval m = trv_median_interval(x, 10);
  g_assert_cmpfloat(m.median, ==, 5.5);
  g_assert_cmpfloat(m.lo, ==, 2);
  g_assert_cmpfloat(m.hi, ==, 9);
  g_assert_cmpfloat(fabs(m.coverage - (1 - 22.0 / 1024)), <, 1e-15);
  /* n = 20: P(<= 5) = 21700/2^20 = 0.0207 <= 0.025 < P(<= 6) = 0.0577: [x_(6), x_(15)] */
  double y[20];
  for (int i = 0; i < 20; i++) y[i] = 20 - i;
  m = trv_median_interval(y, 20);
  g_assert_cmpfloat(m.lo, ==, 6);
  g_assert_cmpfloat(m.hi, ==, 15);
  g_assert_cmpfloat(fabs(m.coverage - (1 - 2 * 21700.0 / 1048576)), <, 1e-14);
  /* n = 5: no k; [min, max], coverage 1 - 2/32; a NaN (never reached) is +inf */
  double z[5] = {4, NAN, 1, 3, 2};
  m = trv_median_interval(z, 5);
  g_assert_cmpfloat(m.median, ==, 3);
  g_assert_cmpfloat(m.lo, ==, 1);
  g_assert_true(isinf(m.hi));
  g_assert_cmpfloat(m.coverage, ==, 1 - 2.0 / 32);
  /* most seeds never reach it: the median is +inf */
  double w[3] = {NAN, 1, NAN};
  g_assert_true(isinf(trv_median_interval(w, 3).median));
  g_assert_true(isnan(trv_median_interval(w, 0).median));
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/stats/t_quantile_matches_printed_table", t_quantile_matches_printed_table);
  g_test_add_func("/stats/t_quantile_has_1e_10_relative_accuracy_from_centre_to_far_tail",
                  t_quantile_has_1e_10_relative_accuracy_from_centre_to_far_tail);
  g_test_add_func("/stats/t_quantile_near_centre_with_many_df_keeps_1e_12",
                  t_quantile_near_centre_with_many_df_keeps_1e_12);
  g_test_add_func("/stats/t_quantile_is_odd_about_one_half", t_quantile_is_odd_about_one_half);
  g_test_add_func("/stats/t_quantile_of_one_df_is_cauchy_tangent", t_quantile_of_one_df_is_cauchy_tangent);
  g_test_add_func("/stats/t_quantile_rejects_invalid_arguments", t_quantile_rejects_invalid_arguments);
  g_test_add_func("/stats/summary_of_one_to_four_matches_hand_computation",
                  summary_of_one_to_four_matches_hand_computation);
  g_test_add_func("/stats/summary_of_one_value_has_zero_width_and_of_none_is_nan",
                  summary_of_one_value_has_zero_width_and_of_none_is_nan);
  g_test_add_func("/stats/summary_sd_survives_a_large_offset", summary_sd_survives_a_large_offset);
  g_test_add_func("/stats/mann_whitney_exact_matches_enumeration", mann_whitney_exact_matches_enumeration);
  g_test_add_func("/stats/mann_whitney_exact_hand_case", mann_whitney_exact_hand_case);
  g_test_add_func("/stats/mann_whitney_complete_separation_at_20_20_is_two_over_binomial",
                  mann_whitney_complete_separation_at_20_20_is_two_over_binomial);
  g_test_add_func("/stats/mann_whitney_exact_at_50_50_is_a_distribution",
                  mann_whitney_exact_at_50_50_is_a_distribution);
  g_test_add_func("/stats/mann_whitney_ties_use_normal_approximation_by_hand",
                  mann_whitney_ties_use_normal_approximation_by_hand);
  g_test_add_func("/stats/mann_whitney_large_samples_use_normal_approximation",
                  mann_whitney_large_samples_use_normal_approximation);
  g_test_add_func("/stats/mann_whitney_u_of_x_plus_u_of_y_is_n1_n2", mann_whitney_u_of_x_plus_u_of_y_is_n1_n2);
  g_test_add_func("/stats/mann_whitney_of_identical_values_has_p_one", mann_whitney_of_identical_values_has_p_one);
  g_test_add_func("/stats/normal_cdf_matches_reference_values_into_far_tail",
                  normal_cdf_matches_reference_values_into_far_tail);
  g_test_add_func("/stats/linear_fit_recovers_an_exact_line", linear_fit_recovers_an_exact_line);
  g_test_add_func("/stats/linear_fit_hand_case", linear_fit_hand_case);
  g_test_add_func("/stats/linear_fit_degenerate_inputs", linear_fit_degenerate_inputs);
  g_test_add_func("/stats/basis_fit_with_a_constant_is_the_linear_fit", basis_fit_with_a_constant_is_the_linear_fit);
  g_test_add_func("/stats/basis_fit_recovers_a_regret_bound_shape", basis_fit_recovers_a_regret_bound_shape);
  g_test_add_func("/stats/wasserstein1_of_a_sample_and_its_permutation_is_zero",
                  wasserstein1_of_a_sample_and_its_permutation_is_zero);
  g_test_add_func("/stats/wasserstein1_hand_cases", wasserstein1_hand_cases);
  g_test_add_func("/stats/wasserstein1_of_a_shift_is_the_shift", wasserstein1_of_a_shift_is_the_shift);
  g_test_add_func("/stats/wasserstein1_matches_closed_forms_of_normals_and_uniforms",
                  wasserstein1_matches_closed_forms_of_normals_and_uniforms);
  g_test_add_func("/stats/wasserstein1_bounds_the_mean_difference", wasserstein1_bounds_the_mean_difference);
  g_test_add_func("/stats/median_interval_is_the_order_statistics", median_interval_is_the_order_statistics);
  g_test_add_func("/stats/bootstrap_ratio_interval_properties", bootstrap_ratio_interval_properties);
  g_test_add_func("/stats/normal_quantile_inverts_the_cdf", normal_quantile_inverts_the_cdf);
  g_test_add_func("/stats/rank_is_descending_and_stable", rank_is_descending_and_stable);
  g_test_add_func("/stats/top_is_the_head_of_the_ranking", top_is_the_head_of_the_ranking);
  return g_test_run();
}
