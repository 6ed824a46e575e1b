/* poisson.h - Poisson regression with a log link, fitted by Newton's
 * method (IRLS), with standard errors from the inverse Fisher information.
 *
 * Model: y_i ~ Poisson(mu_i), log mu_i = offset_i + sum_k x_ik beta_k.
 * Rows with the same covariates may be pooled beforehand (a sum of
 * Poissons with equal covariates is Poisson; offset = log of the summed
 * exposure): the estimates and their standard errors do not change.
 * Plain C, no GLib: the trace importers estimate the effects of weather,
 * time of day, weekends and airports with it (urs/effects.c). */
#ifndef TRV_URS_POISSON_H
#define TRV_URS_POISSON_H

#include <stdbool.h>
#include <stddef.h>

#define TRV_POISSON_MAX_COEF 16

typedef struct {
  double beta[TRV_POISSON_MAX_COEF];
  double se[TRV_POISSON_MAX_COEF]; /* sqrt of the diagonal of the inverse Fisher information */
  double loglik;                   /* up to the constant -sum log(y_i!) */
  double pearson;                  /* Pearson chi^2 / (n - p): 1 for Poisson data */
  int iterations;
} TrvPoissonFit;

typedef enum {
  TRV_POISSON_OK = 0,
  TRV_POISSON_BAD_INPUT, /* p out of 1..TRV_POISSON_MAX_COEF, n < p, a y < 0, a value not finite */
  TRV_POISSON_SINGULAR,  /* the information matrix is singular: a covariate is collinear or constant */
  TRV_POISSON_NO_CONVERGENCE
} TrvPoissonStatus;

/* Fits the model to n rows of p covariates (x row-major, n x p; offset may
 * be NULL for 0).  The caller includes an intercept column if it wants one.
 * Starts from beta = 0 except an intercept-like start is not assumed:
 * every step is a Newton step with step halving on the log-likelihood;
 * stops when no coefficient moves by more than 1e-10 (relative), after
 * at most 200 steps. */
TrvPoissonStatus trv_poisson_fit(const double *x, const double *y, const double *offset, size_t n, int p,
                                 TrvPoissonFit *fit);
const char *trv_poisson_status_text(TrvPoissonStatus s);

#endif
