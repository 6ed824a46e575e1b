/* poisson.c - Poisson regression (log link) by Newton's method, standard
 * errors from the inverse Fisher information (poisson.h).
 *
 * With the log link the observed and expected information coincide,
 * I(beta) = X' diag(mu) X, so Newton's method is IRLS.  Each step solves
 * I d = X'(y - mu) by Cholesky; a pivot below 1e-10 of its diagonal entry
 * means a covariate is (numerically) a combination of the others, and the
 * fit says so instead of returning arbitrary numbers.  A step that lowers
 * the log-likelihood or overflows is halved (at most 60 times), so the
 * iteration cannot diverge from a poor start. */
#include "urs/poisson.h"

#include <math.h>
#include <string.h>

enum { P = TRV_POISSON_MAX_COEF };

/* Cholesky factor of the p x p matrix a (in place, lower triangle); false
 * when a pivot is not positive relative to its diagonal entry. */
static bool cholesky(double a[P][P], int p) {
  for (int j = 0; j < p; j++) {
    double d = a[j][j], scale = a[j][j];
    for (int k = 0; k < j; k++) d -= a[j][k] * a[j][k];
    if (!(scale > 0) || !(d > 1e-10 * scale)) return false;
    a[j][j] = sqrt(d);
    for (int i = j + 1; i < p; i++) {
      double s = a[i][j];
      for (int k = 0; k < j; k++) s -= a[i][k] * a[j][k];
      a[i][j] = s / a[j][j];
    }
  }
  return true;
}

/* Solves L L' x = b with the factor of cholesky(). */
static void cholesky_solve(double l[P][P], int p, const double *b, double *x) {
  double y[P];
  for (int i = 0; i < p; i++) {
    double s = b[i];
    for (int k = 0; k < i; k++) s -= l[i][k] * y[k];
    y[i] = s / l[i][i];
  }
  for (int i = p - 1; i >= 0; i--) {
    double s = y[i];
    for (int k = i + 1; k < p; k++) s -= l[k][i] * x[k];
    x[i] = s / l[i][i];
  }
}

static double loglik(const double *x, const double *y, const double *offset, size_t n, int p, const double *beta) {
  double ll = 0;
  for (size_t i = 0; i < n; i++) {
    double eta = offset ? offset[i] : 0;
    for (int k = 0; k < p; k++) eta += x[i * p + k] * beta[k];
    double mu = exp(eta);
    ll += (y[i] > 0 ? y[i] * eta : 0) - mu;
  }
  return ll;
}

/* Information X' diag(mu) X and score X'(y - mu) at beta. */
static void info_score(const double *x, const double *y, const double *offset, size_t n, int p, const double *beta,
                       double info[P][P], double *score) {
  memset(info, 0, sizeof(double) * P * P);
  memset(score, 0, sizeof(double) * P);
  for (size_t i = 0; i < n; i++) {
    const double *xi = &x[i * p];
    double eta = offset ? offset[i] : 0;
    for (int k = 0; k < p; k++) eta += xi[k] * beta[k];
    double mu = exp(eta);
    for (int a = 0; a < p; a++) {
      score[a] += xi[a] * (y[i] - mu);
      for (int b = 0; b <= a; b++) info[a][b] += xi[a] * xi[b] * mu;
    }
  }
  for (int a = 0; a < p; a++)
    for (int b = a + 1; b < p; b++) info[a][b] = info[b][a];
}

TrvPoissonStatus trv_poisson_fit(const double *x, const double *y, const double *offset, size_t n, int p,
                                 TrvPoissonFit *fit) {
  memset(fit, 0, sizeof *fit);
  if (p < 1 || p > P || n < (size_t)p) return TRV_POISSON_BAD_INPUT;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(y[i]) || y[i] < 0 || (offset && !isfinite(offset[i]))) return TRV_POISSON_BAD_INPUT;
    for (int k = 0; k < p; k++)
      if (!isfinite(x[i * p + k])) return TRV_POISSON_BAD_INPUT;
  }
  double beta[P] = {0}, info[P][P], score[P], step[P];
  double ll = loglik(x, y, offset, n, p, beta);
  for (int it = 1; it <= 200; it++) {
    info_score(x, y, offset, n, p, beta, info, score);
    if (!cholesky(info, p)) return TRV_POISSON_SINGULAR;
    cholesky_solve(info, p, score, step);
    double t = 1, next[P], ll_next = -INFINITY;
    for (int h = 0; h < 60; h++, t /= 2) {
      for (int k = 0; k < p; k++) next[k] = beta[k] + t * step[k];
      ll_next = loglik(x, y, offset, n, p, next);
      if (isfinite(ll_next) && ll_next >= ll - 1e-12 * fabs(ll)) break;
    }
    if (!isfinite(ll_next)) return TRV_POISSON_NO_CONVERGENCE;
    double moved = 0;
    for (int k = 0; k < p; k++) moved = fmax(moved, fabs(next[k] - beta[k]) / fmax(1, fabs(beta[k])));
    memcpy(beta, next, sizeof beta);
    ll = ll_next;
    fit->iterations = it;
    if (moved < 1e-10) break;
    if (it == 200) return TRV_POISSON_NO_CONVERGENCE;
  }
  /* Standard errors at the optimum: diagonal of I^-1, column by column. */
  info_score(x, y, offset, n, p, beta, info, score);
  if (!cholesky(info, p)) return TRV_POISSON_SINGULAR;
  for (int k = 0; k < p; k++) {
    double e[P] = {0}, col[P];
    e[k] = 1;
    cholesky_solve(info, p, e, col);
    fit->se[k] = sqrt(col[k]);
    fit->beta[k] = beta[k];
  }
  double chi2 = 0;
  for (size_t i = 0; i < n; i++) {
    double eta = offset ? offset[i] : 0;
    for (int k = 0; k < p; k++) eta += x[i * p + k] * beta[k];
    double mu = exp(eta);
    if (mu > 0) chi2 += (y[i] - mu) * (y[i] - mu) / mu;
  }
  fit->pearson = n > (size_t)p ? chi2 / (double)(n - (size_t)p) : NAN;
  fit->loglik = ll;
  return TRV_POISSON_OK;
}

const char *trv_poisson_status_text(TrvPoissonStatus s) {
  switch (s) {
    case TRV_POISSON_OK: return "ok";
    case TRV_POISSON_BAD_INPUT: return "bad input";
    case TRV_POISSON_SINGULAR: return "singular information matrix (a covariate is constant or collinear)";
    case TRV_POISSON_NO_CONVERGENCE: return "no convergence";
  }
  return "?";
}
