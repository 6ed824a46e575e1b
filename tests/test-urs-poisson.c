/* Poisson regression by Newton's method (urs/poisson.c), checked against
 * closed forms (a single binary covariate, an intercept alone) and against
 * an independent computation (a finite-difference Hessian of the
 * log-likelihood, and the score at the estimate). */
#include <glib.h>
#include <math.h>

#include "core/rng.h"
#include "urs/poisson.h"

/* log mu = log(exposure) + b0 + b1 x, x in {0, 1}: the MLE is the log
 * ratio of the two groups' rates and its standard error is
 * sqrt(1/Y1 + 1/Y0), Y the groups' total counts. */
static void binary_covariate_gives_log_rate_ratio_and_its_se(void) {
  const double y[] = {12, 7, 30, 41, 25, 3, 0, 9};
  const double expo[] = {2, 1, 3, 4, 2.5, 0.5, 0.25, 1};
  const double grp[] = {0, 0, 0, 1, 1, 1, 1, 0};
  double x[16], off[8], y0 = 0, y1 = 0, e0 = 0, e1 = 0;
  for (int i = 0; i < 8; i++) {
    x[2 * i] = 1, x[2 * i + 1] = grp[i], off[i] = log(expo[i]);
    if (grp[i])
      y1 += y[i], e1 += expo[i];
    else
      y0 += y[i], e0 += expo[i];
  }
  TrvPoissonFit f;
  g_assert_cmpint(trv_poisson_fit(x, y, off, 8, 2, &f), ==, TRV_POISSON_OK);
  g_test_message("beta1 %.12f vs log ratio %.12f; se %.12f vs %.12f", f.beta[1], log((y1 / e1) / (y0 / e0)), f.se[1],
                 sqrt(1 / y1 + 1 / y0));
  g_assert_cmpfloat(fabs(f.beta[0] - log(y0 / e0)), <, 1e-9);
  g_assert_cmpfloat(fabs(f.beta[1] - log((y1 / e1) / (y0 / e0))), <, 1e-9);
  g_assert_cmpfloat(fabs(f.se[0] - sqrt(1 / y0)), <, 1e-9);
  g_assert_cmpfloat(fabs(f.se[1] - sqrt(1 / y1 + 1 / y0)), <, 1e-9);
}

/* An intercept alone: exp(b0) = total count / total exposure, se = 1/sqrt(Y). */
static void intercept_alone_is_the_pooled_rate(void) {
  const double y[] = {0, 4, 9, 1000};
  const double x[] = {1, 1, 1, 1};
  const double off[] = {log(0.1), log(2), log(5), log(600)};
  TrvPoissonFit f;
  g_assert_cmpint(trv_poisson_fit(x, y, off, 4, 1, &f), ==, TRV_POISSON_OK);
  g_assert_cmpfloat(fabs(f.beta[0] - log(1013 / 607.1)), <, 1e-9);
  g_assert_cmpfloat(fabs(f.se[0] - 1 / sqrt(1013)), <, 1e-9);
}

static double loglik(const double *x, const double *y, size_t n, int p, const double *b) {
  double ll = 0;
  for (size_t i = 0; i < n; i++) {
    double eta = 0;
    for (int k = 0; k < p; k++) eta += x[i * p + k] * b[k];
    ll += y[i] * eta - exp(eta);
  }
  return ll;
}

static double poisson_draw(TrvRng *r, double mean) {
  double l = exp(-mean), prod = 1;
  int n = -1;
  do prod *= trv_rng_uniform(r), n++;
  while (prod > l);
  return n;
}

/* Three continuous covariates and an intercept on simulated data: the
 * score vanishes at the estimate, the standard errors equal those of a
 * finite-difference Hessian of the log-likelihood, and the estimates lie
 * within 4 standard errors of the truth. */
static void se_matches_a_finite_difference_hessian(void) {
  enum { N = 4000, K = 4 };
  static double x[N * K], y[N];
  const double truth[K] = {0.7, 0.4, -0.3, 0.1};
  TrvRng r;
  trv_rng_init(&r, 7, 1);
  for (int i = 0; i < N; i++) {
    x[i * K] = 1;
    double eta = truth[0];
    for (int k = 1; k < K; k++) x[i * K + k] = trv_rng_normal(&r), eta += truth[k] * x[i * K + k];
    y[i] = poisson_draw(&r, exp(eta));
  }
  TrvPoissonFit f;
  g_assert_cmpint(trv_poisson_fit(x, y, NULL, N, K, &f), ==, TRV_POISSON_OK);
  /* Hessian by central differences of the log-likelihood, then its inverse
   * by Gauss-Jordan: an independent path to the covariance. */
  double h[K][K], inv[K][K] = {{0}}, d = 1e-4;
  for (int a = 0; a < K; a++)
    for (int b = 0; b < K; b++) {
      double p[K], s = 0;
      for (int sa = -1; sa <= 1; sa += 2)
        for (int sb = -1; sb <= 1; sb += 2) {
          for (int k = 0; k < K; k++) p[k] = f.beta[k];
          p[a] += sa * d, p[b] += sb * d;
          s += sa * sb * loglik(x, y, N, K, p);
        }
      h[a][b] = -s / (4 * d * d);
    }
  for (int a = 0; a < K; a++) inv[a][a] = 1;
  for (int c = 0; c < K; c++) {
    double piv = h[c][c];
    for (int k = 0; k < K; k++) h[c][k] /= piv, inv[c][k] /= piv;
    for (int r2 = 0; r2 < K; r2++)
      if (r2 != c) {
        double m = h[r2][c];
        for (int k = 0; k < K; k++) h[r2][k] -= m * h[c][k], inv[r2][k] -= m * inv[c][k];
      }
  }
  for (int k = 0; k < K; k++) {
    double grad = 0;
    for (int i = 0; i < N; i++) {
      double eta = 0;
      for (int m = 0; m < K; m++) eta += x[i * K + m] * f.beta[m];
      grad += x[i * K + k] * (y[i] - exp(eta));
    }
    g_test_message("k=%d beta %.5f (truth %.2f) se %.6f, finite-difference se %.6f, score %.2e", k, f.beta[k], truth[k],
                   f.se[k], sqrt(inv[k][k]), grad);
    g_assert_cmpfloat(fabs(grad), <, 1e-6);
    g_assert_cmpfloat(fabs(f.se[k] / sqrt(inv[k][k]) - 1), <, 1e-3);
    g_assert_cmpfloat(fabs(f.beta[k] - truth[k]), <, 4 * f.se[k]);
  }
  g_assert_cmpfloat(fabs(f.pearson - 1), <, 0.1);
}

/* Pooling rows with equal covariates (summing counts and exposures) gives
 * the same estimates and standard errors. */
static void pooled_rows_give_the_same_fit(void) {
  const double y[] = {3, 5, 8, 2, 11, 0};
  const double z[] = {-1, -1, 0.5, 0.5, 2, 2};
  const double e[] = {1, 2, 1, 0.5, 3, 1};
  double x[12], off[6], px[6], py[3], poff[3];
  for (int i = 0; i < 6; i++) x[2 * i] = 1, x[2 * i + 1] = z[i], off[i] = log(e[i]);
  for (int g = 0; g < 3; g++)
    px[2 * g] = 1, px[2 * g + 1] = z[2 * g], py[g] = y[2 * g] + y[2 * g + 1], poff[g] = log(e[2 * g] + e[2 * g + 1]);
  TrvPoissonFit a, b;
  g_assert_cmpint(trv_poisson_fit(x, y, off, 6, 2, &a), ==, TRV_POISSON_OK);
  g_assert_cmpint(trv_poisson_fit(px, py, poff, 3, 2, &b), ==, TRV_POISSON_OK);
  for (int k = 0; k < 2; k++) {
    g_assert_cmpfloat(fabs(a.beta[k] - b.beta[k]), <, 1e-9);
    g_assert_cmpfloat(fabs(a.se[k] - b.se[k]), <, 1e-9);
  }
}

/* A constant or duplicated covariate is reported, not fitted. */
static void collinear_covariates_are_singular(void) {
  const double y[] = {1, 2, 3, 4};
  const double x[] = {1, 2, 1, 3, 1, 4, 1, 5};
  const double dup[] = {1, 1, 1, 1, 1, 1, 1, 1};
  TrvPoissonFit f;
  g_assert_cmpint(trv_poisson_fit(x, y, NULL, 4, 2, &f), ==, TRV_POISSON_OK);
  g_assert_cmpint(trv_poisson_fit(dup, y, NULL, 4, 2, &f), ==, TRV_POISSON_SINGULAR);
  const double neg[] = {1, -2, 3, 4};
  g_assert_cmpint(trv_poisson_fit(x, neg, NULL, 4, 2, &f), ==, TRV_POISSON_BAD_INPUT);
  g_assert_cmpint(trv_poisson_fit(x, y, NULL, 1, 2, &f), ==, TRV_POISSON_BAD_INPUT);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/urs/poisson/binary_covariate_gives_log_rate_ratio_and_its_se",
                  binary_covariate_gives_log_rate_ratio_and_its_se);
  g_test_add_func("/urs/poisson/intercept_alone_is_the_pooled_rate", intercept_alone_is_the_pooled_rate);
  g_test_add_func("/urs/poisson/se_matches_a_finite_difference_hessian", se_matches_a_finite_difference_hessian);
  g_test_add_func("/urs/poisson/pooled_rows_give_the_same_fit", pooled_rows_give_the_same_fit);
  g_test_add_func("/urs/poisson/collinear_covariates_are_singular", collinear_covariates_are_singular);
  return g_test_run();
}
