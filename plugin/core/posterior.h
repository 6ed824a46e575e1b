/* posterior.h - the factorized spike-and-slab posterior over G_inf (SPEC 3.2).
 *
 * One belief per candidate component j: presence (H1: beta ~ slab) versus
 * absence (H0: beta = 0) for the linear-Gaussian probe regression
 * w = beta * z + noise, noise variance s2 known from the world.
 *
 * State per component: pooled sufficient statistics (n, Szz, Szw, Sww),
 * discounted by the forgetting factor lambda at every episode start (they
 * give the effect posterior, kappa_hat), the current episode's own
 * statistics, and the presence log-odds.
 *
 * Slabs:
 *  - gaussian:  beta ~ N(0, tau2).  log BF10 closed form of SPEC 3.2.
 *  - separated: beta ~ N(0, tau2) truncated to |beta| >= kappa_min, so that
 *    evidence for a true null grows linearly in the number of probes.
 *    log BF10 = log BF10_gauss + log P(|b| >= kmin | N(mu, v))
 *                              - log P(|b| >= kmin | N(0, tau2)).
 *
 * Tracking of change (applied by trv_posterior_episode_begin):
 *  - hazard:     presence is a two-state Markov chain over episodes; at
 *                every episode start p <- (1-h) p + h (1-p), and the
 *                episode's own evidence, log BF10 of the episode's
 *                statistics (a fresh slab draw per episode), is added to
 *                the log-odds as probes arrive.  Evidence from earlier
 *                episodes reaches the present only through p.
 *  - forgetting: statistics are discounted by lambda at every episode start
 *                and the log-odds are logit(pi0) + log BF10(S).
 *  - none:       pooling since episode 0 (the trap SPEC 3.2 warns about),
 *                kept for measurement.
 * Every function is deterministic: the same calls in the same order give a
 * bit-identical state (tested through serialize + compare). */
#ifndef TRV_POSTERIOR_H
#define TRV_POSTERIOR_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <trivium/error.h>

typedef enum { TRV_SLAB_GAUSSIAN = 0, TRV_SLAB_SEPARATED = 1 } TrvSlab;
typedef enum { TRV_TRACK_HAZARD = 0, TRV_TRACK_FORGETTING = 1, TRV_TRACK_NONE = 2 } TrvTrack;

typedef struct {
  double pi0;       /* prior P(H1) */
  double tau2;      /* slab variance */
  double s2;        /* probe noise variance (from the world) */
  double kappa_min; /* separation bound of effects */
  double hazard;    /* per-episode structure-change hazard h */
  double lambda;    /* per-episode forgetting factor on statistics, (0, 1] */
  TrvSlab slab;
  TrvTrack track;
} TrvPosteriorParams;

typedef struct {
  double n, szz, szw, sww;
} TrvSuffStats;

typedef struct TrvPosterior TrvPosterior;

TrvPosterior *trv_posterior_new(int n_components, const TrvPosteriorParams *params);
void trv_posterior_free(TrvPosterior *post);
TrvPosterior *trv_posterior_copy(const TrvPosterior *post);
/* Overwrites dst with src (same component count). */
void trv_posterior_assign(TrvPosterior *dst, const TrvPosterior *src);
int trv_posterior_n_components(const TrvPosterior *post);
const TrvPosteriorParams *trv_posterior_params(const TrvPosterior *post);

/* Episode boundary: hazard mixing or forgetting, per params->track. */
void trv_posterior_episode_begin(TrvPosterior *post);
/* One probe of component j: do(Z = z) gave outcome w. */
void trv_posterior_observe(TrvPosterior *post, int j, double z, double w);
/* Component j back to the prior (PartialReset). */
void trv_posterior_reset_component(TrvPosterior *post, int j);

double trv_posterior_presence(const TrvPosterior *post, int j);
double trv_posterior_log_odds(const TrvPosterior *post, int j);
/* Pooled (lambda-discounted) statistics of component j. */
const TrvSuffStats *trv_posterior_stats(const TrvPosterior *post, int j);
/* Effect posterior under H1 (untruncated): N(mu, v); kappa_hat = mu. */
void trv_posterior_effect(const TrvPosterior *post, int j, double *mu, double *v);
/* MAP: present iff p_j >= 0.5. */
bool trv_posterior_map(const TrvPosterior *post, int j);
/* H(P) = sum_j h2(p_j), in bits. */
double trv_posterior_entropy_bits(const TrvPosterior *post);
/* log P(G) for a graph given as one presence flag per component (nats). */
double trv_posterior_log_prob_graph(const TrvPosterior *post, const bool *graph);
/* -log P(component j absent) and -log P(j present), from the exact
 * log-odds: the terms whose sum over components is -log P(G). */
void trv_posterior_losses(const TrvPosterior *post, int j, double *absent, double *present);
/* Expected information gain, in bits, of k further probes of component j,
 * each at |z| = zabs (signs balanced), computed by Gauss-Hermite quadrature
 * over the sufficient statistic sum z_i w_i.  0 <= EIG <= h2(p_j). */
double trv_posterior_eig_bits(const TrvPosterior *post, int j, int k, double zabs);
/* The same number, bit for bit, with a memo: a component whose evidence
 * statistics are empty (every component when a plan is made under the hazard
 * filter) has quadrature nodes that depend only on the parameters, zabs and
 * k, so they are computed once per k and kept; only the log-odds terms are
 * evaluated per call.  The memo belongs to one caller (not thread-safe);
 * NULL means no memo. */
typedef struct TrvEigMemo TrvEigMemo;
TrvEigMemo *trv_eig_memo_new(void);
void trv_eig_memo_free(TrvEigMemo *memo);
double trv_posterior_eig_bits_memo(const TrvPosterior *post, int j, int k, double zabs, TrvEigMemo *memo);
/* Probability density of the outcome w of one probe at z under the
 * posterior predictive (mixture over H0/H1).  Used to cross-check EIG. */
double trv_posterior_predictive_density(const TrvPosterior *post, int j, double z, double w);

/* The log Bayes factors of SPEC 3.2 for statistics s (exposed for tests). */
double trv_log_bf10_gaussian(const TrvSuffStats *s, double s2, double tau2);
double trv_log_bf10(const TrvSuffStats *s, const TrvPosteriorParams *params);

/* Binary snapshot of the whole state (versioned, little-endian IEEE doubles).
 * Deserialization validates sizes and returns NULL with *error set on bad
 * input. */
void trv_posterior_serialize(const TrvPosterior *post, GByteArray *out);
TrvPosterior *trv_posterior_deserialize(const uint8_t *data, size_t len, GError **error);
/* Bitwise equality of two states (params and every double). */
bool trv_posterior_equal(const TrvPosterior *a, const TrvPosterior *b);

/* Binary entropy in bits, h2(0) = h2(1) = 0. */
double trv_h2(double p);

#endif
