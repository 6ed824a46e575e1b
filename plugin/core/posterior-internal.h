/* posterior-internal.h - the posterior's state, shared by the two files
 * that implement it: posterior.c (the model: Bayes factors, updates,
 * readouts, EIG) and posterior-snapshot.c (its binary snapshot and
 * bitwise equality).  Nothing else includes this header; everyone else
 * sees TrvPosterior as opaque (posterior.h). */
#ifndef TRV_POSTERIOR_INTERNAL_H
#define TRV_POSTERIOR_INTERNAL_H

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

#endif
