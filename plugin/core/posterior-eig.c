/* posterior-eig.c - the expected information gain of probing a component
 * (IGScore's value: docs/controller.md, "Probes and scheduling") and the
 * posterior predictive density of a probe outcome.
 *
 * EIG is h2(p) minus the expected binary entropy of the presence after k
 * probes at |z| = zabs, the expectation over the outcome under H0 and H1
 * by Gauss-Hermite quadrature over x = sum z_i w_i (only x and k z^2 enter
 * the Bayes factor, so one quadrature is exact).  Like posterior.c it keeps
 * no global mutable state but the quadrature rule, computed once: equal
 * calls give bit-identical answers, memo or not. */
#include "posterior.h"
#include "posterior-internal.h"

#include <math.h>
#include <string.h>

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
    if (i == 0)
      z = sqrt(2.0 * n + 1) - 1.85575 * pow(2.0 * n + 1, -0.16667);
    else if (i == 1)
      z -= 1.14 * pow(n, 0.426) / z;
    else if (i == 2)
      z = 1.86 * z - 0.86 * x[0];
    else if (i == 3)
      z = 1.91 * z - 0.91 * x[1];
    else
      z = 2.0 * z - x[i - 2];
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
    f->log_tail_s = trv_posterior_log_slab_mass(&f->s, p);
    f->log_tail_prior = trv_posterior_log_slab_mass(&zero, p);
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
    double lt = f->p->slab == TRV_SLAB_SOFT ? trv_posterior_log_soft_mass(mu, f->v, k)
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
