/* posterior-internal.h - the posterior's state and its small numerics,
 * shared by the three files that implement it: posterior.c (the model:
 * Bayes factors, updates, readouts), posterior-eig.c (expected information
 * gain and the predictive density) and posterior-snapshot.c (its binary
 * snapshot and bitwise equality).  Nothing else includes this header;
 * everyone else sees TrvPosterior as opaque (posterior.h). */
#ifndef TRV_POSTERIOR_INTERNAL_H
#define TRV_POSTERIOR_INTERNAL_H

#include <math.h>
#include <stdbool.h>

#include "posterior.h"

struct TrvPosterior {
  TrvPosteriorParams params;
  int n;
  TrvSuffStats *stats;   /* pooled, discounted by lambda: the effect kappa_hat */
  TrvSuffStats *episode; /* this episode's probes only: hazard-mode evidence */
  double *log_odds;
  double noise_scale; /* s2_e / s2, >= 1 (1 with known noise) */
  double *begin_lbf;  /* hazard track: log BF10 of the pooled statistics at episode start */
  /* derived, never serialized: the parameters in use (s2 = s2_e), the
   * prior's log tail mass (a constant of those), log BF10 of empty
   * statistics, and each component's episode evidence (what the next
   * hazard-mode observation adds to) */
  TrvPosteriorParams eff;
  double prior_tail, zero_lbf;
  double prior_logit;         /* logit(pi0) */
  double log_keep, log_fresh; /* log(persist) and log1p(-persist): the hazard track's mixture weights */
  double *episode_lbf;
};

/* Fills the derived fields that depend only on the parameters and the
 * noise scale (eff, prior_tail, zero_lbf, prior_logit, log_keep, log_fresh). */
void trv_posterior_derive_model(TrvPosterior *post);
/* Fills every derived field from the parameters and the state. */
void trv_posterior_derive(TrvPosterior *post);

/* log of the H1 slab's mass under the untruncated posterior of s: the tail
 * mass P(|beta| >= kappa_min) (separated) or the taper's expectation
 * (soft). */
double trv_posterior_log_slab_mass(const TrvSuffStats *s, const TrvPosteriorParams *p);
/* The soft slab's log E[taper] under N(mu, v) with kappa_min k. */
double trv_posterior_log_soft_mass(double mu, double v, double k);

/* ---- small numerics (inline: they sit in the quadrature's inner loop) --- */

/* The statistics whose Bayes factor is the presence evidence: the episode's
 * own under the hazard filter (a fresh slab draw per episode), the pooled
 * ones otherwise. */
static inline const TrvSuffStats *evidence_stats(const TrvPosterior *post, int j) {
  return post->params.track == TRV_TRACK_HAZARD ? &post->episode[j] : &post->stats[j];
}

static inline double sigmoid(double x) { return x >= 0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x)); }

/* log(sigmoid(x)) without cancellation. */
static inline double log_sigmoid(double x) { return x >= 0 ? -log1p(exp(-x)) : x - log1p(exp(x)); }

static inline double logit(double p) { return log(p) - log1p(-p); }

/* Binary entropy in bits of sigmoid(l), accurate for large |l|. */
static inline double h2_from_log_odds(double l) {
  double a = fabs(l);
  if (a > 700) return 0.0;
  /* h = log(1+e^-a) + a e^-a/(1+e^-a), in nats, for the smaller side. */
  double e = exp(-a);
  return (log1p(e) + a * e / (1.0 + e)) / M_LN2;
}

/* log Phi(x), the standard normal log-CDF, accurate far into the tail. */
static inline double log_ndtr(double x) {
  if (x > -30.0) return log(0.5 * erfc(-x / M_SQRT2));
  /* Asymptotic series: Phi(x) ~ phi(x)/|x| (1 - 1/x^2 + 3/x^4 - 15/x^6). */
  double x2 = x * x;
  return -0.5 * x2 - log(-x) - 0.5 * log(2.0 * M_PI) + log1p(-1.0 / x2 + 3.0 / (x2 * x2) - 15.0 / (x2 * x2 * x2));
}

/* exp(d), with exp(0) = 1 (exact in any libm) not called for: one of the
 * two terms of log_add_exp is always that one. */
static inline double exp_or_one(double d) { return d == 0.0 ? 1.0 : exp(d); }

static inline double log_add_exp(double a, double b) {
  double m = a > b ? a : b;
  if (m == -INFINITY) return -INFINITY;
  return m + log(exp_or_one(a - m) + exp_or_one(b - m));
}

static inline double log_beta(double x, double y) { return lgamma(x) + lgamma(y) - lgamma(x + y); }

static inline bool bernoulli(const TrvPosteriorParams *p) { return p->likelihood == TRV_POSTERIOR_BERNOULLI; }

static inline void effect_of(const TrvSuffStats *s, const TrvPosteriorParams *p, double *mu, double *v) {
  *v = 1.0 / (s->szz / p->s2 + 1.0 / p->tau2);
  *mu = *v * s->szw / p->s2;
}

/* Whether the slab is cut below kappa_min (separated or soft). */
static inline bool cut_slab(const TrvPosteriorParams *p) { return p->slab != TRV_SLAB_GAUSSIAN && p->kappa_min > 0; }

#endif
