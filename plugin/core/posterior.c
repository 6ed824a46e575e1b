/* posterior.c - spike-and-slab beliefs per candidate component.
 *
 * Invariants kept by every function here:
 *  - log_odds is finite; presence p = sigmoid(log_odds) is computed from it
 *    on demand (never stored), and 1 - p as sigmoid(-log_odds), so beliefs
 *    near 0 or 1 keep their precision;
 *  - statistics are non-negative in n, Szz and Sww;
 *  - the state depends only on the sequence of calls (no clocks, no global
 *    mutable state), so equal call sequences give bit-identical states.
 * posterior.h gives the model and its closed forms (docs/controller.md,
 * "Posterior: ..."). */
#include "posterior.h"
#include "posterior-internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Bayes factors ------------------------------------------------------ */

double trv_log_bf10_bernoulli(double n, double k, double theta0, double a, double b) {
  double lbf = log_beta(a + k, b + n - k) - log_beta(a, b);
  if (k > 0) lbf -= k * log(theta0);
  if (n - k > 0) lbf -= (n - k) * log1p(-theta0);
  return lbf;
}

static double bernoulli_lbf(const TrvSuffStats *s, const TrvPosteriorParams *p) {
  return trv_log_bf10_bernoulli(s->n, s->sww, p->theta0, p->beta_a, p->beta_b);
}

double trv_log_bf10_gaussian(const TrvSuffStats *s, double s2, double tau2) {
  return -0.5 * log1p(tau2 * s->szz / s2) + s->szw * s->szw / (2.0 * s2 * (s2 / tau2 + s->szz));
}

/* log P(|beta| >= kappa_min) under the untruncated H1 posterior of s. */
static double log_tail_mass(const TrvSuffStats *s, const TrvPosteriorParams *p) {
  double mu, v;
  effect_of(s, p, &mu, &v);
  double sd = sqrt(v), k = p->kappa_min;
  return log_add_exp(log_ndtr((mu - k) / sd), log_ndtr((-k - mu) / sd));
}

/* log(Phi(b) - Phi(a)) for a < b, from the side of the smaller masses. */
static double log_ndtr_diff(double a, double b) {
  if (a > 0) { /* both in the upper tail: Phi(-a) - Phi(-b) */
    double la = log_ndtr(-a), lb = log_ndtr(-b);
    return la + log1p(-exp(lb - la));
  }
  double la = log_ndtr(a), lb = log_ndtr(b);
  return lb + log1p(-exp(la - lb));
}

/* log E[w(b)] under N(mu, v), w the soft slab's taper (posterior.h): the
 * tail mass, plus on [0, k) and (-k, 0] the integral of N(b; mu, v)
 * exp(-(b -+ k)^2 / (2 d^2)) = c N(b; m, v') with v' = 1/(1/v + 1/d^2),
 * m = v' (mu/v +- k/d^2), c = sqrt(v'/v) exp(-(mu -+ k)^2 / (2 (v + d^2))). */
double trv_posterior_log_soft_mass(double mu, double v, double k) {
  double sd = sqrt(v), d2 = (TRV_SOFT_TAPER * k) * (TRV_SOFT_TAPER * k);
  double tail = log_add_exp(log_ndtr((mu - k) / sd), log_ndtr((-k - mu) / sd));
  double vp = 1.0 / (1.0 / v + 1.0 / d2), sp = sqrt(vp), lc = 0.5 * log(vp / v);
  double mp = vp * (mu / v + k / d2), mm = vp * (mu / v - k / d2);
  double up = lc - (mu - k) * (mu - k) / (2.0 * (v + d2)) + log_ndtr_diff((0 - mp) / sp, (k - mp) / sp);
  double dn = lc - (mu + k) * (mu + k) / (2.0 * (v + d2)) + log_ndtr_diff((-k - mm) / sp, (0 - mm) / sp);
  return log_add_exp(tail, log_add_exp(up, dn));
}

/* log of the H1 slab's mass under the untruncated posterior of s: the tail
 * mass (separated) or the taper's expectation (soft). */
double trv_posterior_log_slab_mass(const TrvSuffStats *s, const TrvPosteriorParams *p) {
  if (p->slab != TRV_SLAB_SOFT) return log_tail_mass(s, p);
  double mu, v;
  effect_of(s, p, &mu, &v);
  return trv_posterior_log_soft_mass(mu, v, p->kappa_min);
}

/* trv_log_bf10 at the parameters in use, with the prior's tail mass taken
 * from the posterior: the same operations on the same values, so the same
 * double. */
static double post_lbf(const TrvPosterior *post, const TrvSuffStats *s) {
  const TrvPosteriorParams *p = &post->eff;
  if (bernoulli(p)) return bernoulli_lbf(s, p);
  double lbf = trv_log_bf10_gaussian(s, p->s2, p->tau2);
  if (cut_slab(p)) lbf += trv_posterior_log_slab_mass(s, p) - post->prior_tail;
  return lbf;
}

/* The hazard track's evidence of component j's episode so far (see
 * posterior.h): log of (1 - q) BF(S | S_begin) + q BF(S_episode). */
static double episode_evidence(const TrvPosterior *post, int j) {
  double keep = post->params.persist;
  if (keep <= 0) return post_lbf(post, &post->episode[j]);
  double given = post_lbf(post, &post->stats[j]) - post->begin_lbf[j];
  if (keep >= 1) return given;
  return log_add_exp(post->log_keep + given, post->log_fresh + post_lbf(post, &post->episode[j]));
}

/* The parameters in use and what depends only on them (posterior-internal.h). */
void trv_posterior_derive_model(TrvPosterior *post) {
  post->eff = post->params;
  post->eff.s2 = post->params.s2 * post->noise_scale;
  TrvSuffStats zero = {0, 0, 0, 0};
  post->prior_tail = trv_posterior_log_slab_mass(&zero, &post->eff);
  post->zero_lbf = trv_log_bf10(&zero, &post->eff);
  post->prior_logit = logit(post->params.pi0);
  post->log_keep = log(post->params.persist);
  post->log_fresh = log1p(-post->params.persist);
}

/* Fills the derived fields from the parameters and the state. */
void trv_posterior_derive(TrvPosterior *post) {
  trv_posterior_derive_model(post);
  for (int j = 0; j < post->n; j++) post->episode_lbf[j] = episode_evidence(post, j);
}

#define NOISE_BAND 1.05

/* Estimated noise: s2_e / s2 from the pooled statistics (posterior.h). */
static double noise_scale_of(const TrvPosterior *post) {
  const TrvPosteriorParams *p = &post->params;
  double rss = 0, dof = 0;
  for (int j = 0; j < post->n; j++) {
    const TrvSuffStats *s = &post->stats[j];
    if (s->szz > 0) {
      double r = s->sww - s->szw * s->szw / s->szz;
      if (r > 0) rss += r;
    }
    if (s->n > 1) dof += s->n - 1;
  }
  double scale = (p->noise_df + rss / p->s2) / (p->noise_df + dof);
  return scale > 1 ? scale : 1;
}

double trv_log_bf10(const TrvSuffStats *s, const TrvPosteriorParams *p) {
  if (bernoulli(p)) return bernoulli_lbf(s, p);
  double lbf = trv_log_bf10_gaussian(s, p->s2, p->tau2);
  if (cut_slab(p)) {
    /* Truncating (or tapering) the slab below kappa_min multiplies the H1
     * evidence by posterior mass / prior mass of the cut slab. */
    TrvSuffStats zero = {0, 0, 0, 0};
    lbf += trv_posterior_log_slab_mass(s, p) - trv_posterior_log_slab_mass(&zero, p);
  }
  return lbf;
}

/* ---- life cycle --------------------------------------------------------- */

bool trv_posterior_params_valid(const TrvPosteriorParams *p) {
  const double all[11] = {p->pi0,      p->tau2,    p->s2,     p->kappa_min, p->hazard, p->lambda,
                          p->noise_df, p->persist, p->theta0, p->beta_a,    p->beta_b};
  for (int i = 0; i < 11; i++)
    if (!isfinite(all[i])) return false;
  if (p->likelihood == TRV_POSTERIOR_BERNOULLI) {
    if (!(p->theta0 > 0 && p->theta0 < 1 && p->beta_a > 0 && p->beta_b > 0 && p->tau2 == 1 && p->s2 == 1 &&
          p->kappa_min == 0 && p->slab == TRV_SLAB_GAUSSIAN && p->noise == TRV_NOISE_KNOWN && p->noise_df == 0))
      return false;
  } else if (p->likelihood != TRV_POSTERIOR_GAUSSIAN || p->theta0 != 0 || p->beta_a != 0 || p->beta_b != 0) {
    return false;
  }
  return p->pi0 > 0 && p->pi0 < 1 && p->tau2 > 0 && p->s2 > 0 && p->kappa_min >= 0 && p->hazard >= 0 &&
         p->hazard < 0.5 && p->lambda > 0 && p->lambda <= 1 && (unsigned)p->slab <= TRV_SLAB_SOFT &&
         (unsigned)p->track <= TRV_TRACK_NONE && (unsigned)p->noise <= TRV_NOISE_ESTIMATED && p->noise_df >= 0 &&
         (p->noise != TRV_NOISE_ESTIMATED || p->noise_df > 0) && p->persist >= 0 && p->persist <= 1;
}

/* Points the arrays of a posterior at its own block (posterior_alloc). */
static void posterior_link(TrvPosterior *post) {
  size_t n = (size_t)post->n;
  post->stats = (TrvSuffStats *)(post + 1);
  post->episode = post->stats + n;
  post->log_odds = (double *)(post->episode + n);
  post->begin_lbf = post->log_odds + n;
  post->episode_lbf = post->begin_lbf + n;
}

static size_t posterior_bytes(int n_components) {
  return sizeof(TrvPosterior) + (size_t)n_components * (2 * sizeof(TrvSuffStats) + 3 * sizeof(double));
}

/* The arrays of a posterior of n components, its parameters set; the
 * caller fills the state and the derived fields. */
static TrvPosterior *posterior_alloc(int n_components, const TrvPosteriorParams *params) {
  g_assert(n_components > 0);
  g_assert(trv_posterior_params_valid(params));
  /* one block: the struct, then its arrays (all of doubles), so that a
   * copy (one per plan, per absorb, per snapshot) is one allocation */
  TrvPosterior *post = g_malloc0(posterior_bytes(n_components));
  post->params = *params;
  post->n = n_components;
  posterior_link(post);
  post->noise_scale = 1;
  return post;
}

TrvPosterior *trv_posterior_new(int n_components, const TrvPosteriorParams *params) {
  TrvPosterior *post = posterior_alloc(n_components, params);
  trv_posterior_derive_model(post);
  for (int j = 0; j < n_components; j++) post->log_odds[j] = logit(params->pi0), post->begin_lbf[j] = post->zero_lbf;
  trv_posterior_derive(post);
  return post;
}

void trv_posterior_free(TrvPosterior *post) { g_free(post); /* and its arrays (posterior_alloc) */ }

TrvPosterior *trv_posterior_copy(const TrvPosterior *post) {
  /* the block as it is (the state and its derived fields), then its own
   * array pointers */
  TrvPosterior *c = g_memdup2(post, posterior_bytes(post->n));
  posterior_link(c);
  return c;
}

void trv_posterior_assign(TrvPosterior *dst, const TrvPosterior *src) {
  g_assert(dst->n == src->n);
  dst->params = src->params;
  memcpy(dst->stats, src->stats, sizeof *src->stats * src->n);
  memcpy(dst->episode, src->episode, sizeof *src->episode * src->n);
  memcpy(dst->log_odds, src->log_odds, sizeof *src->log_odds * src->n);
  memcpy(dst->begin_lbf, src->begin_lbf, sizeof *src->begin_lbf * src->n);
  memcpy(dst->episode_lbf, src->episode_lbf, sizeof *src->episode_lbf * src->n);
  dst->noise_scale = src->noise_scale;
  dst->eff = src->eff;
  dst->prior_tail = src->prior_tail;
  dst->zero_lbf = src->zero_lbf;
  dst->prior_logit = src->prior_logit;
  dst->log_keep = src->log_keep;
  dst->log_fresh = src->log_fresh;
}

int trv_posterior_n_components(const TrvPosterior *post) { return post->n; }
const TrvPosteriorParams *trv_posterior_params(const TrvPosterior *post) { return &post->params; }
double trv_posterior_noise_var(const TrvPosterior *post) { return post->eff.s2; }

/* ---- updates ------------------------------------------------------------ */

static void discount(TrvSuffStats *s, double lambda) {
  s->n *= lambda;
  s->szz *= lambda;
  s->szw *= lambda;
  s->sww *= lambda;
}

void trv_posterior_episode_begin(TrvPosterior *post) {
  const TrvPosteriorParams *p = &post->params;
  if (p->track != TRV_TRACK_NONE)
    for (int j = 0; j < post->n; j++) discount(&post->stats[j], p->lambda);
  if (p->noise == TRV_NOISE_ESTIMATED) {
    /* A dead band: s2_e moves only when the estimate leaves 5 % of it, so
     * that noise at the declared level keeps one s2_e (and IGScore's
     * quadrature memo) for many episodes. */
    double scale = noise_scale_of(post);
    if (scale > post->noise_scale * NOISE_BAND || scale < post->noise_scale / NOISE_BAND) {
      post->noise_scale = scale;
      trv_posterior_derive_model(post);
    }
  }
  for (int j = 0; j < post->n; j++) {
    switch (p->track) {
      case TRV_TRACK_HAZARD: {
        double h = p->hazard, l = post->log_odds[j];
        /* p' = h + (1-2h) p and 1-p' = h + (1-2h)(1-p), each side computed
         * from its own sigmoid so that neither loses precision. */
        double on = h + (1.0 - 2.0 * h) * sigmoid(l);
        double off = h + (1.0 - 2.0 * h) * sigmoid(-l);
        post->log_odds[j] = log(on) - log(off);
        memset(&post->episode[j], 0, sizeof post->episode[j]);
        /* episode_evidence(post, j) of the empty episode, with what is at
         * hand: the log BF10 of the pooled statistics just computed, and
         * that of empty statistics, zero_lbf (post_lbf of them is that
         * double: the same operations on the same values) */
        double keep = p->persist, pooled = keep > 0 ? post_lbf(post, &post->stats[j]) : 0.0;
        post->begin_lbf[j] = keep > 0 ? pooled : post->zero_lbf;
        if (keep <= 0) {
          post->episode_lbf[j] = post->zero_lbf;
        } else {
          double given = pooled - post->begin_lbf[j];
          post->episode_lbf[j] =
              keep >= 1 ? given : log_add_exp(post->log_keep + given, post->log_fresh + post->zero_lbf);
        }
        break;
      }
      case TRV_TRACK_FORGETTING: post->log_odds[j] = post->prior_logit + post_lbf(post, &post->stats[j]); break;
      case TRV_TRACK_NONE:
        /* the log-odds follow the statistics; only a new s2_e changes them */
        if (p->noise == TRV_NOISE_ESTIMATED) post->log_odds[j] = post->prior_logit + post_lbf(post, &post->stats[j]);
        break;
    }
  }
}

static void add_obs(TrvSuffStats *s, double z, double w) {
  s->n += 1.0;
  s->szz += z * z;
  s->szw += z * w;
  s->sww += w * w;
}

void trv_posterior_add_probe(TrvPosterior *post, int j, double z, double w) {
  g_assert(j >= 0 && j < post->n);
  const TrvPosteriorParams *p = &post->params;
  if (bernoulli(p)) w = w > 0.5 ? 1.0 : 0.0; /* Sww is then the success count */
  add_obs(&post->stats[j], z, w);
  if (p->track == TRV_TRACK_HAZARD) add_obs(&post->episode[j], z, w);
}

void trv_posterior_settle(TrvPosterior *post, int j) {
  g_assert(j >= 0 && j < post->n);
  if (post->params.track == TRV_TRACK_HAZARD) {
    /* Within-episode evidence: the log-odds carry logit(mixed prior) plus
     * log BF10 of the episode's statistics; add its increment since the
     * last settle. */
    double before = post->episode_lbf[j];
    post->episode_lbf[j] = episode_evidence(post, j);
    post->log_odds[j] += post->episode_lbf[j] - before;
  } else {
    post->log_odds[j] = post->prior_logit + post_lbf(post, &post->stats[j]);
  }
}

void trv_posterior_observe(TrvPosterior *post, int j, double z, double w) {
  trv_posterior_add_probe(post, j, z, w);
  trv_posterior_settle(post, j);
}

void trv_posterior_reset_component(TrvPosterior *post, int j) {
  g_assert(j >= 0 && j < post->n);
  memset(&post->stats[j], 0, sizeof post->stats[j]);
  memset(&post->episode[j], 0, sizeof post->episode[j]);
  post->begin_lbf[j] = post->zero_lbf;
  post->episode_lbf[j] = episode_evidence(post, j);
  post->log_odds[j] = post->prior_logit;
}

/* ---- readouts ----------------------------------------------------------- */

double trv_posterior_presence(const TrvPosterior *post, int j) { return sigmoid(post->log_odds[j]); }
double trv_posterior_log_odds(const TrvPosterior *post, int j) { return post->log_odds[j]; }
const TrvSuffStats *trv_posterior_stats(const TrvPosterior *post, int j) { return &post->stats[j]; }

void trv_posterior_effect(const TrvPosterior *post, int j, double *mu, double *v) {
  if (bernoulli(&post->params)) { /* theta | H1, pooled statistics: Beta(a + k, b + n - k) */
    const TrvSuffStats *s = &post->stats[j];
    double a = post->params.beta_a + s->sww, b = post->params.beta_b + s->n - s->sww;
    *mu = a / (a + b);
    *v = a * b / ((a + b) * (a + b) * (a + b + 1));
    return;
  }
  effect_of(&post->stats[j], &post->eff, mu, v);
}

bool trv_posterior_map(const TrvPosterior *post, int j) { return post->log_odds[j] >= 0.0; }

double trv_h2(double p) {
  if (p <= 0.0 || p >= 1.0) return 0.0;
  return -(p * log2(p) + (1.0 - p) * log2(1.0 - p));
}

double trv_posterior_component_entropy_bits(const TrvPosterior *post, int j) {
  return h2_from_log_odds(post->log_odds[j]);
}

double trv_posterior_entropy_bits(const TrvPosterior *post) {
  double h = 0;
  for (int j = 0; j < post->n; j++) h += h2_from_log_odds(post->log_odds[j]);
  return h;
}

void trv_posterior_losses(const TrvPosterior *post, int j, double *absent, double *present) {
  *absent = -log_sigmoid(-post->log_odds[j]);
  *present = -log_sigmoid(post->log_odds[j]);
}

double trv_posterior_log_prob_graph(const TrvPosterior *post, const bool *graph) {
  double lp = 0;
  for (int j = 0; j < post->n; j++) lp += log_sigmoid(graph[j] ? post->log_odds[j] : -post->log_odds[j]);
  return lp;
}
