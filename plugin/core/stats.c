/* stats.c - summaries, Student t quantiles, Mann-Whitney U, least squares.
 *
 * Everything here is a pure function of its arguments; the only allocation
 * is scratch memory freed before returning.  Accuracy choices, and why:
 *
 *  - Student t quantiles come from inverting the t CDF written as the
 *    regularized incomplete beta I_x(a, b), evaluated by Lentz's continued
 *    fraction.  For t >= 0 both the upper tail Q(t) = P(T > t) and the central
 *    mass C(t) = P(0 < T < t) are computed from whichever fraction converges,
 *    and the root is sought on the small one (on its log in the tail), so no
 *    digits are lost to 1 - I, neither at p ~ 1e-300 nor at p ~ 0.5.
 *    Above 1e6 df, where the fraction itself degrades, the quantile comes
 *    from Hill's expansion around the normal quantile instead.
 *  - The exact Mann-Whitney null distribution is counted, not enumerated:
 *    f(i, j, u), the number of orderings of i x's and j y's whose U is u,
 *    obeys f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u) (the largest value is
 *    an x, beating all j y's, or a y).  Counts are held in long double
 *    (64-bit mantissa on x86-64): exact up to 2^64 (n1 = n2 = 20 needs 2^37),
 *    relative error near 1e-19 per step beyond (n1 = n2 = 50 needs 2^97).
 *  - Phi uses erfc, which keeps relative accuracy deep into the lower tail. */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MW_EXACT_MAX_N = 50, CF_MAX_ITER = 10000, QUANTILE_MAX_ITER = 400 };
static const double LARGE_DF = 1e6; /* t quantiles switch to Hill's expansion */

/* ---- Regularized incomplete beta ------------------------------------- */

/* Continued fraction of I_x(a, b) (Numerical Recipes' betacf, modified
 * Lentz).  Converges quickly for x < (a + 1) / (a + b + 2). */
static double beta_continued_fraction(double a, double b, double x) {
  const double tiny = 1e-300, eps = 1e-16;
  double qab = a + b, qap = a + 1.0, qam = a - 1.0;
  double c = 1.0, d = 1.0 - qab * x / qap;
  if (fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= CF_MAX_ITER; m++) {
    double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1.0) < eps) break;
  }
  return h;
}

/* log Gamma(z) - Stirling's main terms, for z >= 40: the series
 * 1/(12z) - 1/(360z^3) + ..., truncation error below 1e-17 there (next term 1/(1188 z^9)). */
static double stirling_correction(double z) {
  double z2 = 1.0 / (z * z);
  return (1.0 / 12 - z2 * (1.0 / 360 - z2 * (1.0 / 1260 - z2 * (1.0 / 1680)))) / z;
}

/* log B(a, b).  lgamma(a) - lgamma(a + b) cancels almost entirely when a is
 * large and b is not (the t distribution with many df: a = df/2, b = 1/2),
 * losing |lgamma(a)| * 1e-16 absolute; for a >= 40 the difference is
 * formed from Stirling's series instead, where nothing large cancels. */
static double log_beta(double a, double b) {
  if (a < b) {
    double swap = a;
    a = b;
    b = swap;
  }
  if (a < 40.0) return lgamma(a) + lgamma(b) - lgamma(a + b);
  /* lgamma(a) - lgamma(a+b) = b - (a - 1/2) log1p(b/a) - b log(a+b) + corrections */
  double ratio = b - (a - 0.5) * log1p(b / a) - b * log(a + b) + stirling_correction(a) - stirling_correction(a + b);
  return lgamma(b) + ratio;
}

/* I_x(a, b) evaluated directly by the continued fraction, given
 * log x and log(1 - x) separately so that neither is formed as 1 - small.
 * The caller guarantees x is on the fast side, x < (a + 1) / (a + b + 2). */
static double incomplete_beta_direct(double a, double b, double log_x, double log_1mx) {
  double log_front = a * log_x + b * log_1mx - log_beta(a, b);
  return exp(log_front) * beta_continued_fraction(a, b, exp(log_x)) / a;
}

/* ---- Student t -------------------------------------------------------- */

/* For t >= 0 and df > 0: *upper = P(T > t), *central = P(0 < T < t), with
 * the smaller of the two computed directly (full relative accuracy) and the
 * other as 1/2 minus it.  P(T > t) = I_x(df/2, 1/2) / 2 with x = df/(df+t^2),
 * and P(0 < T < t) = I_{1-x}(1/2, df/2) / 2. */
static void student_t_tails(double t, double df, double *upper, double *central) {
  if (t <= 0.0) {
    *upper = 0.5;
    *central = 0.0;
    return;
  }
  double a = 0.5 * df, b = 0.5;
  double r = t / sqrt(df);
  /* log(1 + r^2), without overflow for huge r. */
  double log_1pr2 = r > 1e150 ? 2.0 * log(r) : log1p(r * r);
  double log_x = -log_1pr2;               /* x = 1 / (1 + r^2) */
  double log_y = 2.0 * log(r) - log_1pr2; /* 1 - x = r^2 / (1 + r^2) */
  if (exp(log_x) < (a + 1.0) / (a + b + 2.0)) {
    *upper = 0.5 * incomplete_beta_direct(a, b, log_x, log_y);
    *central = 0.5 - *upper;
  } else {
    *central = 0.5 * incomplete_beta_direct(b, a, log_y, log_x);
    *upper = 0.5 - *central;
  }
}

static double student_t_density(double t, double df) {
  /* 1 / (sqrt(df) B(df/2, 1/2)) * (1 + t^2/df)^(-(df+1)/2) */
  double log_norm = -log_beta(0.5 * df, 0.5) - 0.5 * log(df);
  return exp(log_norm - 0.5 * (df + 1.0) * log1p(t * t / df));
}

/* The standard normal, in the same shape as the t functions above. */
static void normal_tails(double z, double unused, double *upper, double *central) {
  (void)unused;
  *upper = 0.5 * erfc(z / M_SQRT2);
  *central = 0.5 * erf(z / M_SQRT2);
}

static double normal_density(double z, double unused) {
  (void)unused;
  return exp(-0.5 * z * z) / sqrt(2.0 * M_PI);
}

typedef void (*TailsFn)(double t, double param, double *upper, double *central);
typedef double (*DensityFn)(double t, double param);

/* The t > 0 with P(T > t) = q, 0 < q < 1/2, for a symmetric distribution
 * given by its tails and density.  The equation solved is
 *   q >= 1/4:  central(t) = 1/2 - q   (1/2 - q is exact there),
 *   q <  1/4:  log upper(t) = log q   (tail: Newton on the log converges in
 *              few steps both for Gaussian and for power-law tails),
 * by Newton steps kept inside a bracket [lo, hi], falling back to bisection
 * (geometric when the bracket spans decades). */
static double positive_quantile(double q, TailsFn tails, DensityFn density, double param) {
  int in_tail = q < 0.25;
  double target = in_tail ? log(q) : 0.5 - q;
  double upper, central;
  /* g(t) decreases in t; g'(t) = -density/upper in the tail, -density else. */
#define G(t) (tails((t), param, &upper, &central), in_tail ? log(upper) - target : target - central)
  double lo = 0.0, hi = 1.0;
  while (G(hi) > 0.0 && hi < DBL_MAX / 4) {
    lo = hi;
    hi *= 2.0;
  }
  double t = lo > 0.0 ? lo : 0.5 * hi;
  for (int it = 0; it < QUANTILE_MAX_ITER; it++) {
    double g = G(t);
    if (g == 0.0) break;
    if (g > 0.0)
      lo = t;
    else
      hi = t;
    double next = t + g * (in_tail ? upper : 1.0) / density(t, param);
    if (!(next > lo && next < hi)) next = (lo > 0.0 && hi / lo > 4.0) ? sqrt(lo) * sqrt(hi) : 0.5 * (lo + hi);
    double step = fabs(next - t);
    t = next;
    if (step <= 1e-15 * t || hi - lo <= 4.0 * DBL_EPSILON * hi) break;
  }
#undef G
  return t;
}

double trv_student_t_quantile(double p, double df) {
  if (!(p > 0.0 && p < 1.0) || !(df >= 1.0) || isinf(df)) return NAN;
  if (p == 0.5) return 0.0;
  double q = p < 0.5 ? p : 1.0 - p;
  double sign = p < 0.5 ? -1.0 : 1.0;
  if (df <= LARGE_DF) return sign * positive_quantile(q, student_t_tails, student_t_density, df);
  /* Beyond LARGE_DF the continued fraction near x = 1 loses digits (1e-10 at
   * df = 1e8), while Hill's expansion in 1/df around the normal quantile z
   * (Abramowitz & Stegun 26.7.5) is exact to rounding: its next term is
   * O(z^11 / df^5). */
  double z = positive_quantile(q, normal_tails, normal_density, 0.0), z2 = z * z;
  double g1 = z * (z2 + 1.0) / 4.0;
  double g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
  double g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
  double g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0;
  return sign * (z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df);
}

/* ---- Summaries -------------------------------------------------------- */

typedef struct {
  double value;
  int index;
} Ranked;

static int cmp_ranked(const void *pa, const void *pb) {
  const Ranked *a = pa, *b = pb;
  if (a->value != b->value) return a->value > b->value ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

void trv_rank_desc(const double *value, int n, int *order) {
  if (n <= 0) return;
  Ranked *r = malloc((size_t)n * sizeof *r);
  if (!r) abort();
  for (int i = 0; i < n; i++) r[i] = (Ranked){value[i], i};
  qsort(r, (size_t)n, sizeof *r, cmp_ranked);
  for (int i = 0; i < n; i++) order[i] = r[i].index;
  free(r);
}

void trv_top_desc(const double *value, int n, int k, int *top) {
  if (k < 0 || k > n) abort();
  /* top[0..m) holds the m best seen so far, best first; an index is
   * visited in increasing order, so an equal value ranks after those kept */
  int m = 0;
  for (int i = 0; i < n && k > 0; i++) {
    if (m == k && !(value[i] > value[top[k - 1]])) continue;
    int j = m < k ? m++ : k - 1;
    for (; j > 0 && value[i] > value[top[j - 1]]; j--) top[j] = top[j - 1];
    top[j] = i;
  }
}

TrvMedianInterval trv_median_interval(const double *x, size_t n) {
  TrvMedianInterval m = {NAN, NAN, NAN, 0};
  if (n == 0) return m;
  double *v = malloc(n * sizeof *v);
  if (!v) abort();
  for (size_t i = 0; i < n; i++) v[i] = isnan(x[i]) ? INFINITY : x[i];
  qsort(v, n, sizeof *v, trv_cmp_double);
  m.median = n % 2 ? v[n / 2] : (isinf(v[n / 2]) ? INFINITY : 0.5 * (v[n / 2 - 1] + v[n / 2]));
  /* F(j) = P(Bin(n, 1/2) <= j), the pmf by its recurrence in logs; k - 1
   * is the largest j with F(j) <= 0.025 and 2 (j + 1) <= n, else 0 */
  size_t k = 1;
  double F = 0.0, log_pmf = -(double)n * M_LN2, F_k = exp(log_pmf);
  for (size_t j = 0; 2 * (j + 1) <= n; j++) {
    F += exp(log_pmf);
    if (F > 0.025) break;
    k = j + 1, F_k = F;
    log_pmf += log((double)(n - j)) - log((double)(j + 1));
  }
  m.lo = v[k - 1];
  m.hi = v[n - k];
  m.coverage = 1.0 - 2.0 * F_k;
  free(v);
  return m;
}

TrvSummary trv_summarize(const double *x, size_t n) {
  TrvSummary s = {NAN, NAN, NAN, NAN, n};
  if (n == 0) return s;
  double sum = 0.0;
  for (size_t i = 0; i < n; i++) sum += x[i];
  s.mean = sum / (double)n;
  if (n == 1) {
    s.sd = 0.0;
    s.lo = s.hi = s.mean;
    return s;
  }
  /* Two passes: sum of squared deviations, not E[x^2] - E[x]^2. */
  double ss = 0.0;
  for (size_t i = 0; i < n; i++) ss += (x[i] - s.mean) * (x[i] - s.mean);
  s.sd = sqrt(ss / (double)(n - 1));
  double half = trv_student_t_quantile(0.975, (double)(n - 1)) * s.sd / sqrt((double)n);
  s.lo = s.mean - half;
  s.hi = s.mean + half;
  return s;
}

/* ---- Normal ----------------------------------------------------------- */

double trv_normal_cdf(double z) { return 0.5 * erfc(-z / M_SQRT2); }

/* ---- Mann-Whitney U ----------------------------------------------------- */

typedef struct {
  double value;
  int from_x;
} Labelled;

static int labelled_compare(const void *pa, const void *pb) {
  double a = ((const Labelled *)pa)->value, b = ((const Labelled *)pb)->value;
  return (a > b) - (a < b);
}

static void *checked_calloc(size_t count, size_t size) {
  void *p = calloc(count, size);
  if (!p) {
    fprintf(stderr, "trivium: stats: out of memory (%zu x %zu bytes)\n", count, size);
    abort();
  }
  return p;
}

/* Exact null distribution of U for sizes m, n (no ties): on return
 * *below = P(U <= u) and *above = P(U >= u) for integer u. */
static void mann_whitney_exact_tails(size_t m, size_t n, double u, double *below, double *above) {
  size_t width = m * n + 1;
  /* f[i * width + v] = f(i, j, v) for the current j. */
  long double *f = checked_calloc((m + 1) * width, sizeof *f);
  for (size_t i = 0; i <= m; i++) f[i * width] = 1.0L; /* j = 0: only U = 0 */
  for (size_t j = 1; j <= n; j++)
    for (size_t i = 1; i <= m; i++) /* i ascending: row i-1 already holds j */
      for (size_t v = i * j; v >= j; v--) f[i * width + v] += f[(i - 1) * width + v - j];
  const long double *dist = f + m * width;
  long double total = 0.0L, le = 0.0L, ge = 0.0L;
  for (size_t v = 0; v < width; v++) {
    total += dist[v];
    if ((double)v <= u) le += dist[v];
    if ((double)v >= u) ge += dist[v];
  }
  free(f);
  *below = (double)(le / total);
  *above = (double)(ge / total);
}

TrvMannWhitney trv_mann_whitney(const double *x, size_t n1, const double *y, size_t n2) {
  TrvMannWhitney r = {0.0, NAN, NAN, 0};
  if (n1 == 0 || n2 == 0) return r;
  size_t total = n1 + n2;
  Labelled *pool = checked_calloc(total, sizeof *pool);
  for (size_t i = 0; i < n1; i++) pool[i] = (Labelled){x[i], 1};
  for (size_t j = 0; j < n2; j++) pool[n1 + j] = (Labelled){y[j], 0};
  qsort(pool, total, sizeof *pool, labelled_compare);

  /* Midranks: a run of t equal values at 0-based positions [s, e) all get
   * rank (s + 1 + e) / 2.  Also accumulate sum(t^3 - t) for the variance. */
  double rank_sum_x = 0.0, tie_sum = 0.0;
  int any_tie = 0;
  for (size_t s = 0; s < total;) {
    size_t e = s + 1;
    while (e < total && pool[e].value == pool[s].value) e++;
    double rank = 0.5 * (double)(s + 1 + e), t = (double)(e - s);
    for (size_t k = s; k < e; k++)
      if (pool[k].from_x) rank_sum_x += rank;
    if (e - s > 1) {
      any_tie = 1;
      tie_sum += t * t * t - t;
    }
    s = e;
  }
  free(pool);

  double m = (double)n1, n = (double)n2, big_n = (double)total;
  r.u = rank_sum_x - m * (m + 1.0) / 2.0;

  double mean = m * n / 2.0;
  double var = m * n / 12.0 * ((big_n + 1.0) - tie_sum / (big_n * (big_n - 1.0)));
  double dev = fabs(r.u - mean) - 0.5; /* continuity correction toward the mean */
  r.z = (dev > 0.0 && var > 0.0) ? copysign(dev / sqrt(var), r.u - mean) : 0.0;

  double below, above;
  if (!any_tie && n1 <= MW_EXACT_MAX_N && n2 <= MW_EXACT_MAX_N) {
    r.exact = 1;
    mann_whitney_exact_tails(n1, n2, r.u, &below, &above);
  } else {
    /* P(U <= u) ~ Phi((u + 1/2 - mean)/sd), P(U >= u) ~ Phi(-(u - 1/2 - mean)/sd);
     * the smaller of the two is Phi(-|z|) whenever |u - mean| > 1/2. */
    below = above = trv_normal_cdf(-fabs(r.z));
  }
  double smaller = below < above ? below : above;
  r.p_value = 2.0 * smaller < 1.0 ? 2.0 * smaller : 1.0;
  return r;
}

/* ---- Least squares ------------------------------------------------------ */

TrvLinFit trv_linear_fit(const double *x, const double *y, size_t n) {
  TrvLinFit f = {NAN, NAN, NAN};
  if (n < 2) return f;
  double sx = 0.0, sy = 0.0;
  for (size_t i = 0; i < n; i++) {
    sx += x[i];
    sy += y[i];
  }
  double xbar = sx / (double)n, ybar = sy / (double)n;
  double sxx = 0.0, sxy = 0.0, syy = 0.0;
  for (size_t i = 0; i < n; i++) {
    double dx = x[i] - xbar, dy = y[i] - ybar;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx == 0.0) return f;
  f.b = sxy / sxx;
  f.a = ybar - f.b * xbar;
  /* Residuals summed directly: syy - b*sxy cancels badly when the fit is good. */
  double ss_res = 0.0;
  for (size_t i = 0; i < n; i++) {
    double e = y[i] - (f.a + f.b * x[i]);
    ss_res += e * e;
  }
  f.r2 = syy == 0.0 ? 1.0 : 1.0 - ss_res / syy;
  return f;
}

TrvLinFit trv_basis_fit(const double *u, const double *v, const double *y, size_t n) {
  TrvLinFit f = {NAN, NAN, NAN};
  if (n < 2) return f;
  double suu = 0, suv = 0, svv = 0, suy = 0, svy = 0, sy = 0;
  for (size_t i = 0; i < n; i++) {
    suu += u[i] * u[i];
    suv += u[i] * v[i];
    svv += v[i] * v[i];
    suy += u[i] * y[i];
    svy += v[i] * y[i];
    sy += y[i];
  }
  double det = suu * svv - suv * suv;
  if (!(det > 1e-12 * suu * svv)) return f; /* singular normal equations: the shape is not identifiable */
  f.a = (svv * suy - suv * svy) / det;
  f.b = (suu * svy - suv * suy) / det;
  double ybar = sy / (double)n, ss_res = 0, ss_tot = 0;
  for (size_t i = 0; i < n; i++) {
    double e = y[i] - (f.a * u[i] + f.b * v[i]), d = y[i] - ybar;
    ss_res += e * e;
    ss_tot += d * d;
  }
  f.r2 = ss_tot == 0.0 ? (ss_res == 0.0 ? 1.0 : NAN) : 1.0 - ss_res / ss_tot;
  return f;
}

int trv_cmp_double(const void *a, const void *b) {
  double u = *(const double *)a, v = *(const double *)b;
  return (u > v) - (u < v);
}

double trv_sum(const double *x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += x[i];
  return s;
}

int trv_bootstrap_ratio_interval(const double *a, const double *b, size_t n, double (*stat)(const double *x, size_t n),
                                 bool keep_infinite, TrvRng *rng, int resamples, double *lo, double *hi) {
  *lo = *hi = NAN;
  if (n < 2 || resamples < 1) return 0;
  double *ra = malloc(n * sizeof *ra), *rb = malloc(n * sizeof *rb), *r = malloc((size_t)resamples * sizeof *r);
  if (!ra || !rb || !r) abort();
  size_t m = 0;
  for (int k = 0; k < resamples; k++) {
    for (size_t i = 0; i < n; i++) {
      size_t j = (size_t)trv_rng_below(rng, n);
      ra[i] = a[j], rb[i] = b[j];
    }
    double q = stat(ra, n) / stat(rb, n);
    if (!isnan(q) && (keep_infinite || isfinite(q))) r[m++] = q;
  }
  if (m > 0) {
    qsort(r, m, sizeof *r, trv_cmp_double);
    *lo = r[(size_t)floor(0.025 * (double)(m - 1))];
    *hi = r[(size_t)ceil(0.975 * (double)(m - 1))];
  }
  free(ra), free(rb), free(r);
  return resamples - (int)m;
}

double trv_wasserstein1(const double *x, size_t n, const double *y, size_t m) {
  if (n == 0 || m == 0) return NAN;
  double *xs = malloc(sizeof(double) * n), *ys = malloc(sizeof(double) * m);
  if (!xs || !ys) {
    free(xs);
    free(ys);
    return NAN;
  }
  memcpy(xs, x, sizeof(double) * n);
  memcpy(ys, y, sizeof(double) * m);
  qsort(xs, n, sizeof(double), trv_cmp_double);
  qsort(ys, m, sizeof(double), trv_cmp_double);
  double sum = 0;
  if (n == m) {
    for (size_t i = 0; i < n; i++) sum += fabs(xs[i] - ys[i]);
    sum /= (double)n;
  } else {
    /* Walk the breakpoints of both quantile functions: on (u, next] the
     * quantiles are xs[i] and ys[j]; positions are in units of 1/(n m),
     * compared as integers so that no breakpoint is missed by rounding. */
    size_t i = 0, j = 0;
    double at = 0, scale = (double)n * (double)m;
    while (i < n && j < m) {
      double end_x = (double)(i + 1) * (double)m, end_y = (double)(j + 1) * (double)n;
      double next = end_x < end_y ? end_x : end_y;
      sum += (next - at) * fabs(xs[i] - ys[j]);
      at = next;
      if (end_x <= next) i++;
      if (end_y <= next) j++;
    }
    sum /= scale;
  }
  free(xs);
  free(ys);
  return sum;
}

/* The standard normal quantile Phi^-1(p), 0 < p < 1: Acklam's rational
 * approximation (relative error below 1.2e-9) polished by one Halley step
 * on trv_normal_cdf, which brings it to about 1e-15 (relative; absolute
 * near p = 1/2, where the quantile is near 0); the upper half by
 * symmetry, where 1 - p is exact. */
double trv_normal_quantile(double p) {
  if (p > 0.5) return -trv_normal_quantile(1 - p);
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    double q = sqrt(-2 * log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  double e = trv_normal_cdf(x) - p, u = e * sqrt(2 * M_PI) * exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}
