/* posterior.c - spike-and-slab beliefs per candidate component.
 *
 * Invariants kept by every function here:
 *  - log_odds is finite; presence p = sigmoid(log_odds) is computed from it
 *    on demand (never stored), and 1 - p as sigmoid(-log_odds), so beliefs
 *    near 0 or 1 keep their precision;
 *  - statistics are non-negative in n, Szz and Sww;
 *  - the state depends only on the sequence of calls (no clocks, no global
 *    mutable state), so equal call sequences give bit-identical states.
 * The closed forms are those of SPEC 3.2; see posterior.h for the model. */
#include "posterior.h"
#include "posterior-internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The statistics whose Bayes factor is the presence evidence: the episode's
 * own under the hazard filter (a fresh slab draw per episode), the pooled
 * ones otherwise. */
static const TrvSuffStats *evidence_stats(const TrvPosterior *post, int j) {
  return post->params.track == TRV_TRACK_HAZARD ? &post->episode[j] : &post->stats[j];
}


/* ---- small numerics ---------------------------------------------------- */

static double sigmoid(double x) {
  return x >= 0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x));
}

/* log(sigmoid(x)) without cancellation. */
static double log_sigmoid(double x) {
  return x >= 0 ? -log1p(exp(-x)) : x - log1p(exp(x));
}

static double logit(double p) { return log(p) - log1p(-p); }

double trv_h2(double p) {
  if (p <= 0.0 || p >= 1.0) return 0.0;
  return -(p * log2(p) + (1.0 - p) * log2(1.0 - p));
}

/* Binary entropy in bits of sigmoid(l), accurate for large |l|. */
static double h2_from_log_odds(double l) {
  double a = fabs(l);
  if (a > 700) return 0.0;
  /* h = log(1+e^-a) + a e^-a/(1+e^-a), in nats, for the smaller side. */
  double e = exp(-a);
  return (log1p(e) + a * e / (1.0 + e)) / M_LN2;
}

/* log Phi(x), the standard normal log-CDF, accurate far into the tail. */
static double log_ndtr(double x) {
  if (x > -30.0) return log(0.5 * erfc(-x / M_SQRT2));
  /* Asymptotic series: Phi(x) ~ phi(x)/|x| (1 - 1/x^2 + 3/x^4 - 15/x^6). */
  double x2 = x * x;
  return -0.5 * x2 - log(-x) - 0.5 * log(2.0 * M_PI) + log1p(-1.0 / x2 + 3.0 / (x2 * x2) - 15.0 / (x2 * x2 * x2));
}

/* exp(d), with exp(0) = 1 (exact in any libm) not called for: one of the
 * two terms of log_add_exp is always that one. */
static double exp_or_one(double d) { return d == 0.0 ? 1.0 : exp(d); }

static double log_add_exp(double a, double b) {
  double m = a > b ? a : b;
  if (m == -INFINITY) return -INFINITY;
  return m + log(exp_or_one(a - m) + exp_or_one(b - m));
}

/* ---- Bayes factors ------------------------------------------------------ */

static double log_beta(double x, double y) { return lgamma(x) + lgamma(y) - lgamma(x + y); }

double trv_log_bf10_bernoulli(double n, double k, double theta0, double a, double b) {
  double lbf = log_beta(a + k, b + n - k) - log_beta(a, b);
  if (k > 0) lbf -= k * log(theta0);
  if (n - k > 0) lbf -= (n - k) * log1p(-theta0);
  return lbf;
}

static bool bernoulli(const TrvPosteriorParams *p) { return p->likelihood == TRV_POSTERIOR_BERNOULLI; }

static double bernoulli_lbf(const TrvSuffStats *s, const TrvPosteriorParams *p) {
  return trv_log_bf10_bernoulli(s->n, s->sww, p->theta0, p->beta_a, p->beta_b);
}

double trv_log_bf10_gaussian(const TrvSuffStats *s, double s2, double tau2) {
  return -0.5 * log1p(tau2 * s->szz / s2) + s->szw * s->szw / (2.0 * s2 * (s2 / tau2 + s->szz));
}

static void effect_of(const TrvSuffStats *s, const TrvPosteriorParams *p, double *mu, double *v) {
  *v = 1.0 / (s->szz / p->s2 + 1.0 / p->tau2);
  *mu = *v * s->szw / p->s2;
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
static double log_soft_mass(double mu, double v, double k) {
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
static double log_slab_mass(const TrvSuffStats *s, const TrvPosteriorParams *p) {
  if (p->slab != TRV_SLAB_SOFT) return log_tail_mass(s, p);
  double mu, v;
  effect_of(s, p, &mu, &v);
  return log_soft_mass(mu, v, p->kappa_min);
}

/* Whether the slab is cut below kappa_min (separated or soft). */
static bool cut_slab(const TrvPosteriorParams *p) { return p->slab != TRV_SLAB_GAUSSIAN && p->kappa_min > 0; }

/* trv_log_bf10 at the parameters in use, with the prior's tail mass taken
 * from the posterior: the same operations on the same values, so the same
 * double. */
static double post_lbf(const TrvPosterior *post, const TrvSuffStats *s) {
  const TrvPosteriorParams *p = &post->eff;
  if (bernoulli(p)) return bernoulli_lbf(s, p);
  double lbf = trv_log_bf10_gaussian(s, p->s2, p->tau2);
  if (cut_slab(p)) lbf += log_slab_mass(s, p) - post->prior_tail;
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
  post->prior_tail = log_slab_mass(&zero, &post->eff);
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
    lbf += log_slab_mass(s, p) - log_slab_mass(&zero, p);
  }
  return lbf;
}

/* ---- life cycle --------------------------------------------------------- */

bool trv_posterior_params_valid(const TrvPosteriorParams *p) {
  const double all[11] = {p->pi0,    p->tau2,     p->s2,      p->kappa_min, p->hazard, p->lambda,
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

void trv_posterior_free(TrvPosterior *post) {
  g_free(post); /* and its arrays (posterior_alloc) */
}

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
          post->episode_lbf[j] = keep >= 1 ? given : log_add_exp(post->log_keep + given, post->log_fresh + post->zero_lbf);
        }
        break;
      }
      case TRV_TRACK_FORGETTING:
        post->log_odds[j] = post->prior_logit + post_lbf(post, &post->stats[j]);
        break;
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
  for (int j = 0; j < post->n; j++)
    lp += log_sigmoid(graph[j] ? post->log_odds[j] : -post->log_odds[j]);
  return lp;
}

/* ---- expected information gain ------------------------------------------ */

/* Gauss-Hermite rule for E_{N(0,1)}[g], GH_NODES nodes, computed once by
 * Newton iteration on the orthonormal Hermite recurrence (Golub-Welsch would
 * do as well; this is the classic gauher of Numerical Recipes).  Fewer nodes
 * are not good enough even for ranking: with a sharp likelihood (s2 = 0.1)
 * 40 nodes differ from 64 by up to 0.056 bits. */
#define GH_NODES 64
static double gh_x[GH_NODES], gh_w[GH_NODES];

static void gh_compute(int n, double *x, double *w) {
  const double pim4 = 0.7511255444649425; /* pi^(-1/4) */
  double z = 0, z1, pp = 0;
  for (int i = 0; i < (n + 1) / 2; i++) {
    if (i == 0) z = sqrt(2.0 * n + 1) - 1.85575 * pow(2.0 * n + 1, -0.16667);
    else if (i == 1) z -= 1.14 * pow(n, 0.426) / z;
    else if (i == 2) z = 1.86 * z - 0.86 * x[0];
    else if (i == 3) z = 1.91 * z - 0.91 * x[1];
    else z = 2.0 * z - x[i - 2];
    for (int it = 0; it < 100; it++) {
      double p1 = pim4, p2 = 0;
      for (int k = 0; k < n; k++) {
        double p3 = p2;
        p2 = p1;
        p1 = z * sqrt(2.0 / (k + 1)) * p2 - sqrt((double)k / (k + 1)) * p3;
      }
      pp = sqrt(2.0 * n) * p2;
      z1 = z;
      z = z1 - p1 / pp;
      if (fabs(z - z1) <= 1e-15 * fabs(z)) break;
    }
    x[i] = z;
    x[n - 1 - i] = -z;
    w[i] = w[n - 1 - i] = 2.0 / (pp * pp);
  }
  /* Physicists' rule (weight e^{-x^2}) to the standard normal:
   * E[g(X)] = sum w_i / sqrt(pi) g(sqrt(2) x_i). */
  for (int i = 0; i < n; i++) {
    x[i] *= M_SQRT2;
    w[i] /= sqrt(M_PI);
  }
}

static void gh_init(void) {
  static gsize done = 0;
  if (g_once_init_enter(&done)) {
    gh_compute(GH_NODES, gh_x, gh_w);
    g_once_init_leave(&done, 1);
  }
}

/* What one EIG evaluation holds fixed across its quadrature nodes: the
 * statistics and log BF10 before the probes, and the tail masses, computed
 * once instead of at every node. */
typedef struct {
  const TrvPosteriorParams *p;
  TrvSuffStats s;
  double lbf_before, log_tail_s, log_tail_prior;
  bool separated;
  /* after adding dszz (eig_after_szz): what depends on Szz only, the
   * Gaussian Bayes factor's -log1p term and denominator and the H1
   * posterior's variance and sd */
  double dszz, head, den, v, sd;
} EigFixed;

/* Fixes the Szz increment of the evaluations to come: the parts of the
 * Bayes factor and of the tail mass that do not depend on Szw, computed by
 * the same operations as trv_log_bf10_gaussian and log_tail_mass do. */
static void eig_after_szz(EigFixed *f, double dszz) {
  const TrvPosteriorParams *p = f->p;
  double szz = f->s.szz + dszz, s2 = p->s2, tau2 = p->tau2;
  f->dszz = dszz;
  f->head = -0.5 * log1p(tau2 * szz / s2);
  f->den = 2.0 * s2 * (s2 / tau2 + szz);
  f->v = 1.0 / (szz / p->s2 + 1.0 / p->tau2);
  f->sd = sqrt(f->v);
}

static void eig_fixed(const TrvPosteriorParams *p, const TrvSuffStats *s, EigFixed *f) {
  *f = (EigFixed){.p = p, .s = *s, .separated = cut_slab(p)};
  f->lbf_before = trv_log_bf10(&f->s, p);
  if (f->separated) {
    TrvSuffStats zero = {0, 0, 0, 0};
    f->log_tail_s = log_slab_mass(&f->s, p);
    f->log_tail_prior = log_slab_mass(&zero, p);
  }
  f->dszz = NAN;
}

/* log BF10 after adding (dszz, x) to the statistics, and the H1 tail-mass
 * ratio T(S+d)/T(S) (1 for the Gaussian slab; tail_ratio may be NULL):
 * trv_log_bf10_gaussian and log_tail_mass of the sum, with their Szz-only
 * parts from eig_after_szz. */
static double eig_lbf_after(EigFixed *f, double dszz, double x, double *tail_ratio) {
  if (!(f->dszz == dszz)) eig_after_szz(f, dszz);
  double szw = f->s.szw + x;
  double after = f->head + szw * szw / f->den;
  if (tail_ratio) *tail_ratio = 1.0;
  if (f->separated) {
    double mu = f->v * szw / f->p->s2, k = f->p->kappa_min;
    double lt = f->p->slab == TRV_SLAB_SOFT ? log_soft_mass(mu, f->v, k)
                                            : log_add_exp(log_ndtr((mu - k) / f->sd), log_ndtr((-k - mu) / f->sd));
    after += lt - f->log_tail_prior;
    if (tail_ratio) *tail_ratio = exp(lt - f->log_tail_s);
  }
  return after;
}

/* The quadrature nodes of one (statistics, k, zabs): log BF10 after the
 * probes at each node under H0 and H1, and the H1 tail ratios.  Everything
 * that does not depend on the component's log-odds. */
typedef struct {
  double lbf_before;
  double after0[GH_NODES], after1[GH_NODES], ratio1[GH_NODES];
  /* the memo's: whether these nodes are computed (memo_nodes), the last
   * log-odds asked about and its EIG (memo_eig) */
  bool built, have_last;
  uint64_t last_l;
  double last_eig;
} EigNodes;

static void eig_nodes(const TrvPosteriorParams *p, const TrvSuffStats *s, int k, double zabs, EigNodes *nd) {
  gh_init();
  EigFixed f;
  eig_fixed(p, s, &f);
  double mu, v;
  effect_of(s, p, &mu, &v);
  double z2 = zabs * zabs, dszz = k * z2;
  /* x = sum z_i w_i: under H0 N(0, k z^2 s2); under the Gaussian H1
   * predictive N(mu k z^2, k z^2 s2 + v k^2 z^4).  Only x and dszz enter
   * the Bayes factor, so one quadrature over x is exact. */
  double sd0 = sqrt(dszz * p->s2);
  double m1 = mu * dszz, sd1 = sqrt(dszz * p->s2 + v * dszz * dszz);
  nd->lbf_before = f.lbf_before;
  /* With no evidence yet (szw = 0, so m1 = 0) the Bayes factor is even in x
   * and the nodes are symmetric (gh_x[n-1-i] = -gh_x[i] exactly): the upper
   * half mirrors the lower bit for bit, so compute it once. */
  int half = s->szw == 0 ? GH_NODES / 2 : GH_NODES;
  for (int i = 0; i < half; i++) {
    nd->after0[i] = eig_lbf_after(&f, dszz, sd0 * gh_x[i], NULL); /* H0: no tail ratio */
    nd->after1[i] = eig_lbf_after(&f, dszz, m1 + sd1 * gh_x[i], &nd->ratio1[i]);
  }
  for (int i = half; i < GH_NODES; i++) {
    nd->after0[i] = nd->after0[GH_NODES - 1 - i];
    nd->after1[i] = nd->after1[GH_NODES - 1 - i];
    nd->ratio1[i] = nd->ratio1[GH_NODES - 1 - i];
  }
}

/* EIG in bits of a component at log-odds l whose probes have nodes nd:
 * h2(p) minus the expected entropy of the updated presence. */
static double eig_from_nodes(double l, const EigNodes *nd, bool symmetric) {
  double h0[GH_NODES], h1[GH_NODES];
  int half = symmetric ? GH_NODES / 2 : GH_NODES;
  for (int i = 0; i < half; i++) {
    h0[i] = h2_from_log_odds(l + nd->after0[i] - nd->lbf_before);
    h1[i] = h2_from_log_odds(l + nd->after1[i] - nd->lbf_before);
  }
  for (int i = half; i < GH_NODES; i++) h0[i] = h0[GH_NODES - 1 - i], h1[i] = h1[GH_NODES - 1 - i];
  double e0 = 0, e1 = 0;
  for (int i = 0; i < GH_NODES; i++) {
    e0 += gh_w[i] * h0[i];
    e1 += gh_w[i] * nd->ratio1[i] * h1[i];
  }
  double pres = sigmoid(l);
  double eig = h2_from_log_odds(l) - ((1.0 - pres) * e0 + pres * e1);
  return eig > 0 ? eig : 0.0;
}

/* The memo: nodes for empty evidence statistics, by k, for one parameter
 * set and zabs (rebuilt if either changes), each with its last answer
 * (memo_eig). */
struct TrvEigMemo {
  TrvPosteriorParams p;
  double zabs;
  bool valid;
  int n_k;         /* nodes[k-1] allocated for k <= n_k, computed when first asked */
  EigNodes *nodes; /* grown on demand */
};

TrvEigMemo *trv_eig_memo_new(void) { return g_new0(TrvEigMemo, 1); }

void trv_eig_memo_free(TrvEigMemo *memo) {
  if (!memo) return;
  g_free(memo->nodes);
  g_free(memo);
}

static bool same_quadrature_params(const TrvPosteriorParams *a, const TrvPosteriorParams *b) {
  return a->s2 == b->s2 && a->tau2 == b->tau2 && a->kappa_min == b->kappa_min && a->slab == b->slab;
}

static EigNodes *memo_nodes(TrvEigMemo *memo, const TrvPosteriorParams *p, int k, double zabs) {
  if (!memo->valid || memo->zabs != zabs || !same_quadrature_params(&memo->p, p)) {
    memo->p = *p;
    memo->zabs = zabs;
    memo->valid = true;
    for (int i = 0; i < memo->n_k; i++) memo->nodes[i].built = false;
  }
  if (k > memo->n_k) {
    memo->nodes = g_renew(EigNodes, memo->nodes, k);
    for (int i = memo->n_k; i < k; i++) memo->nodes[i].built = false;
    memo->n_k = k;
  }
  EigNodes *nd = &memo->nodes[k - 1];
  if (!nd->built) {
    TrvSuffStats zero = {0, 0, 0, 0};
    eig_nodes(p, &zero, k, zabs, nd);
    nd->built = true;
    nd->have_last = false;
  }
  return nd;
}

/* eig_from_nodes of the memo's nodes for k probes at log-odds l, or the
 * last answer for k if it was for the same l, bit for bit (a controller
 * that resets its posterior every episode asks the same question again and
 * again). */
static double memo_eig(TrvEigMemo *memo, const TrvPosteriorParams *p, int k, double zabs, double l) {
  EigNodes *nd = memo_nodes(memo, p, k, zabs);
  uint64_t bits;
  memcpy(&bits, &l, sizeof bits);
  if (!nd->have_last || nd->last_l != bits) {
    nd->last_eig = eig_from_nodes(l, nd, true);
    nd->last_l = bits;
    nd->have_last = true;
  }
  return nd->last_eig;
}

/* Bernoulli EIG of m probes (posterior.h): exact over the m + 1 success
 * counts x.  Under H0 x is binomial(m, theta0); under H1 beta-binomial from
 * Beta(a + k, b + n - k); the log-odds after x move by the log ratio of the
 * two, which is lbf(S + x) - lbf(S). */
static double bernoulli_eig_bits(const TrvPosteriorParams *p, const TrvSuffStats *s, double l, int m) {
  double a = p->beta_a + s->sww, b = p->beta_b + s->n - s->sww;
  double pres = sigmoid(l), expected = 0;
  double lt0 = log(p->theta0), lt1 = log1p(-p->theta0), lb = log_beta(a, b);
  for (int x = 0; x <= m; x++) {
    double lc = lgamma(m + 1.0) - lgamma(x + 1.0) - lgamma(m - x + 1.0);
    double lp0 = lc + (x ? x * lt0 : 0) + (m - x ? (m - x) * lt1 : 0);
    double lp1 = lc + log_beta(a + x, b + m - x) - lb;
    expected += ((1.0 - pres) * exp(lp0) + pres * exp(lp1)) * h2_from_log_odds(l + lp1 - lp0);
  }
  double eig = h2_from_log_odds(l) - expected;
  return eig > 0 ? eig : 0.0;
}

double trv_posterior_eig_bits_memo(const TrvPosterior *post, int j, int k, double zabs, TrvEigMemo *memo) {
  g_assert(j >= 0 && j < post->n);
  if (k <= 0) return 0.0;
  const TrvSuffStats *s = evidence_stats(post, j);
  double l = post->log_odds[j];
  if (bernoulli(&post->params)) return bernoulli_eig_bits(&post->params, s, l, k);
  /* Only szz and szw enter the Bayes factors. */
  if (memo && s->szz == 0 && s->szw == 0) return memo_eig(memo, &post->eff, k, zabs, l);
  EigNodes nd;
  eig_nodes(&post->eff, s, k, zabs, &nd);
  return eig_from_nodes(l, &nd, s->szw == 0);
}

double trv_posterior_eig_bits(const TrvPosterior *post, int j, int k, double zabs) {
  return trv_posterior_eig_bits_memo(post, j, k, zabs, NULL);
}

double trv_posterior_predictive_density(const TrvPosterior *post, int j, double z, double w) {
  const TrvPosteriorParams *p = &post->eff;
  if (bernoulli(p)) { /* a probability mass on w in {0, 1} */
    const TrvSuffStats *s = evidence_stats(post, j);
    double pres = sigmoid(post->log_odds[j]);
    double r1 = (1.0 - pres) * p->theta0 + pres * (p->beta_a + s->sww) / (p->beta_a + p->beta_b + s->n);
    return w > 0.5 ? r1 : 1.0 - r1;
  }
  double mu, v, ratio;
  effect_of(evidence_stats(post, j), p, &mu, &v);
  double var1 = p->s2 + v * z * z;
  double f0 = exp(-0.5 * w * w / p->s2) / sqrt(2 * M_PI * p->s2);
  double f1 = exp(-0.5 * (w - mu * z) * (w - mu * z) / var1) / sqrt(2 * M_PI * var1);
  EigFixed f; /* the separated slab's H1 predictive carries the tail-mass ratio */
  eig_fixed(p, evidence_stats(post, j), &f);
  eig_lbf_after(&f, z * z, z * w, &ratio);
  double pres = sigmoid(post->log_odds[j]);
  return (1.0 - pres) * f0 + pres * f1 * ratio;
}
