/* posterior.h - the factorized spike-and-slab posterior over G_inf
 * (docs/controller.md, "Posterior: separated slab, hazard filter, ...").
 *
 * One belief per candidate component j: presence (H1: beta ~ slab) versus
 * absence (H0: beta = 0) for the linear-Gaussian probe regression
 * w = beta * z + noise, noise variance s2 declared by the world.
 *
 * Noise (params->noise):
 *  - known:     every Bayes factor uses the declared s2;
 *  - estimated: the world's s2 is a lower bound and a prior guess worth
 *               noise_df residual degrees of freedom.  At every episode
 *               start the variance in use becomes
 *                 s2_e = s2 * max(1, (noise_df + R / s2) / (noise_df + D)),
 *               R = sum_j (Sww - Szw^2 / Szz) the residual sum of squares of
 *               each component's own regression on its pooled (discounted)
 *               statistics and D = sum_j (n_j - 1) their degrees of freedom:
 *               the posterior mean of a variance under an inverse-gamma
 *               prior, floored at the declared value, with a dead band: s2_e
 *               changes only when the estimate leaves 5 % of it.  s2_e is
 *               fixed for the episode; every Bayes factor, effect, EIG, and (through
 *               trv_posterior_noise_var) the controller's residual tests use
 *               it.  A noise process louder than declared then weakens the
 *               evidence instead of manufacturing it.
 *
 * State per component: pooled sufficient statistics (n, Szz, Szw, Sww),
 * discounted by the forgetting factor lambda at every episode start (they
 * give the effect posterior, kappa_hat), the current episode's own
 * statistics, and the presence log-odds.
 *
 * Slabs:
 *  - gaussian:  beta ~ N(0, tau2).  log BF10 in closed form:
 *                 -0.5 log(1 + tau2 Szz / s2) + Szw^2 / (2 s2 (s2 / tau2 + Szz)).
 *  - separated: beta ~ N(0, tau2) truncated to |beta| >= kappa_min, so that
 *    evidence for a true null grows linearly in the number of probes.
 *    log BF10 = log BF10_gauss + log P(|b| >= kmin | N(mu, v))
 *                              - log P(|b| >= kmin | N(0, tau2)).
 *  - soft:      the separated slab with a Gaussian taper below kappa_min:
 *    density N(b; 0, tau2) w(b), w = 1 for |b| >= kmin and
 *    exp(-(kmin - |b|)^2 / (2 d^2)) below, d = kmin / 8 (TRV_SOFT_TAPER):
 *    an effect just under the bound (0.9 kmin: w = 0.73) is still an
 *    effect, one near 0 is not (w(0) = e^-32).  log BF10 = log BF10_gauss +
 *    log E[w(b) | N(mu, v)] - log E[w(b) | N(0, tau2)], E[w] in closed form
 *    (the tail mass plus two Gaussian products on [0, kmin) and (-kmin, 0]).
 *    For a bound set at the true effect, where the truncated slab weighs
 *    every estimate below it against presence.
 *
 * Tracking of change (applied by trv_posterior_episode_begin):
 *  - hazard:     presence is a two-state Markov chain over episodes; at
 *                every episode start p <- (1-h) p + h (1-p), and the
 *                episode's evidence is added to the log-odds as probes
 *                arrive.  Under H1 the effect persists from episode to
 *                episode except that with probability q it
 *                is a fresh draw from the slab, so the episode's Bayes
 *                factor is the mixture
 *                  BF_e = (1 - q) BF(S_e | S_begin) + q BF(S_episode),
 *                BF(S_e | S_begin) = BF(S_e) / BF(S_begin) the evidence of
 *                the episode's probes given the pooled statistics it
 *                started from (log: lbf(S_e) - lbf(S_begin)), and
 *                BF(S_episode) that of the episode's probes alone.  q = 1
 *                is a fresh slab draw every episode (evidence from earlier
 *                episodes reaches the present only through p); with q < 1 a
 *                weak but steady effect accumulates evidence across
 *                episodes, and a changed one is still read by the fresh
 *                term.  The EIG of a probe is computed on the episode's
 *                own statistics (the fresh-draw term).
 *  - forgetting: statistics are discounted by lambda at every episode start
 *                and the log-odds are logit(pi0) + log BF10(S).
 *  - none:       pooling since episode 0 (the trap docs/controller.md,
 *                "Posterior: ...", measures), kept for measurement.
 *
 * Bernoulli likelihood (binary worlds; docs/llm.md, "The posterior"): a
 * probe's outcome w is 0 or 1 (an outcome above 0.5 counts as 1); z plays
 * no part.  H0: w ~ Bernoulli(theta0), theta0 declared by the world; H1:
 * w ~ Bernoulli(theta), theta ~ Beta(a, b).  The statistics keep n and
 * the success count k in Sww (w^2 = w), so the same TrvSuffStats,
 * discounting and hazard filter apply, and
 *   log BF10 = log B(a + k, b + n - k) - log B(a, b)
 *              - k log theta0 - (n - k) log(1 - theta0);
 * the effect under H1 is the posterior mean of theta, (a + k)/(a + b + n),
 * with its variance; the EIG of m probes is exact, a sum over the m + 1
 * success counts (binomial under H0, beta-binomial under H1).
 * Every function is deterministic: the same calls in the same order give a
 * bit-identical state (tested through serialize + compare). */
#ifndef TRV_POSTERIOR_H
#define TRV_POSTERIOR_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <trivium/error.h>

typedef enum { TRV_SLAB_GAUSSIAN = 0, TRV_SLAB_SEPARATED = 1, TRV_SLAB_SOFT = 2 } TrvSlab;
typedef enum { TRV_TRACK_HAZARD = 0, TRV_TRACK_FORGETTING = 1, TRV_TRACK_NONE = 2 } TrvTrack;
typedef enum { TRV_NOISE_KNOWN = 0, TRV_NOISE_ESTIMATED = 1 } TrvNoise;
/* The family of a probe outcome (the same values as TrvLikelihood in
 * trivium/world.h). */
typedef enum { TRV_POSTERIOR_GAUSSIAN = 0, TRV_POSTERIOR_BERNOULLI = 1 } TrvPosteriorLikelihood;

/* The soft slab's taper width, as a fraction of kappa_min. */
#define TRV_SOFT_TAPER 0.125

typedef struct {
  double pi0;       /* prior P(H1) */
  double tau2;      /* slab variance */
  double s2;        /* probe noise variance (from the world) */
  double kappa_min; /* separation bound of effects */
  double hazard;    /* per-episode structure-change hazard h */
  double lambda;    /* per-episode forgetting factor on statistics, (0, 1] */
  TrvSlab slab;
  TrvTrack track;
  /* Zero in the three fields below is the model with known noise and a
   * fresh effect every episode. */
  TrvNoise noise;
  double noise_df; /* estimated noise: prior degrees of freedom at s2, > 0 */
  double persist;  /* hazard track: 1 - q, probability that an effect persists, [0, 1] */
  /* Zero in the four fields below is the Gaussian model above.  Bernoulli
   * (binary probe outcomes, see the top of this file) needs theta0 in
   * (0, 1), beta_a and beta_b > 0, and the Gaussian-only fields at their
   * neutral values: tau2 = s2 = 1, kappa_min = 0, slab gaussian, noise
   * known, noise_df = 0 (trv_posterior_params_valid checks both). */
  TrvPosteriorLikelihood likelihood;
  double theta0;         /* Bernoulli: the outcome rate under H0 */
  double beta_a, beta_b; /* Bernoulli: theta ~ Beta(a, b) under H1 */
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
/* The noise variance in use this episode: s2, or s2_e when estimated. */
double trv_posterior_noise_var(const TrvPosterior *post);
/* Whether params satisfy trv_posterior_new's preconditions (which it
 * asserts): readers of stored parameters check this first. */
bool trv_posterior_params_valid(const TrvPosteriorParams *params);

/* Episode boundary: hazard mixing or forgetting, per params->track. */
void trv_posterior_episode_begin(TrvPosterior *post);
/* One probe of component j: do(Z = z) gave outcome w.  The same as
 * trv_posterior_add_probe then trv_posterior_settle. */
void trv_posterior_observe(TrvPosterior *post, int j, double z, double w);
/* A run of probes of component j read as one update: add_probe takes each
 * probe into the statistics, settle then brings the log-odds of j up to
 * them (one Bayes factor for the run).  Until settled, j's log-odds and
 * evidence are those before the run; statistics are additive, so the
 * settled belief is the run's evidence however it was split, up to the
 * rounding of the log-odds increments. */
void trv_posterior_add_probe(TrvPosterior *post, int j, double z, double w);
void trv_posterior_settle(TrvPosterior *post, int j);
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
/* h2(p_j) in bits: trv_posterior_entropy_bits is their sum over j in
 * order, from 0. */
double trv_posterior_component_entropy_bits(const TrvPosterior *post, int j);
/* log P(G) for a graph given as one presence flag per component (nats). */
double trv_posterior_log_prob_graph(const TrvPosterior *post, const bool *graph);
/* -log P(component j absent) and -log P(j present), from the exact
 * log-odds: the terms whose sum over components is -log P(G). */
void trv_posterior_losses(const TrvPosterior *post, int j, double *absent, double *present);
/* Expected information gain, in bits, of k further probes of component j,
 * each at |z| = zabs (signs balanced), computed by Gauss-Hermite quadrature
 * over the sufficient statistic sum z_i w_i (Gaussian), or exactly by a sum
 * over the k + 1 success counts (Bernoulli).  0 <= EIG <= h2(p_j). */
double trv_posterior_eig_bits(const TrvPosterior *post, int j, int k, double zabs);
/* The same number, bit for bit, with a memo: a component whose evidence
 * statistics are empty (every component when a plan is made under the hazard
 * filter) has quadrature nodes that depend only on the parameters, zabs and
 * k, so they are computed once per k and kept; only the log-odds terms are
 * evaluated per call, and not even those when the log-odds are the last
 * ones asked about for that k (a posterior reset to its prior every
 * episode asks the same questions every episode).  The memo belongs to one caller (not thread-safe);
 * NULL means no memo. */
typedef struct TrvEigMemo TrvEigMemo;
TrvEigMemo *trv_eig_memo_new(void);
void trv_eig_memo_free(TrvEigMemo *memo);
double trv_posterior_eig_bits_memo(const TrvPosterior *post, int j, int k, double zabs, TrvEigMemo *memo);
/* Probability density of the outcome w of one probe at z under the
 * posterior predictive (mixture over H0/H1).  Used to cross-check EIG. */
double trv_posterior_predictive_density(const TrvPosterior *post, int j, double z, double w);

/* The log Bayes factors above for statistics s (exposed for tests). */
double trv_log_bf10_gaussian(const TrvSuffStats *s, double s2, double tau2);
double trv_log_bf10(const TrvSuffStats *s, const TrvPosteriorParams *params);
/* Bernoulli: log BF10 of k successes in n probes (n, k may be fractional
 * after discounting; 0 <= k <= n). */
double trv_log_bf10_bernoulli(double n, double k, double theta0, double a, double b);

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
