/* stats.h - the small statistics the experiments report with.
 *
 * Summaries with Student-t confidence intervals, the two-sided Mann-Whitney
 * U test (exact null distribution when it is cheap and valid, normal
 * approximation otherwise), the standard normal CDF, least-squares lines,
 * the Wasserstein-1 distance between two samples and a paired bootstrap of
 * ratios.
 * Plain C on libc and libm: no SimGrid, no GLib, no global state, no
 * allocation visible to the caller.  Every function is a pure function of
 * its arguments; inputs are read-only and must not contain NaN. */
#ifndef TRV_STATS_H
#define TRV_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "rng.h"

typedef struct {
  double mean, sd, lo, hi; /* lo, hi: 95% confidence interval of the mean */
  size_t n;
} TrvSummary;

/* Mean, sample standard deviation (divisor n-1) and the 95% interval
 * mean +- t_{0.975,n-1} * sd / sqrt(n) of x[0..n).
 * n == 1: sd = 0 and lo = hi = mean.  n == 0: mean, sd, lo, hi are NAN. */
TrvSummary trv_summarize(const double *x, size_t n);

/* The median of x[0..n) (NaN counts as +inf: a seed that never reached
 * the event) with its distribution-free interval from order statistics:
 * lo = x_(k), hi = x_(n+1-k) for the largest k with P(Bin(n, 1/2) <= k-1)
 * <= 0.025, coverage 1 - 2 P(Bin(n, 1/2) <= k-1) (at least 0.95); below
 * n = 6 no such k exists and the interval is [min, max] with its coverage
 * 1 - 2^(1-n).  n == 0: all NAN, coverage 0. */
typedef struct {
  double median, lo, hi, coverage;
} TrvMedianInterval;
TrvMedianInterval trv_median_interval(const double *x, size_t n);

/* qsort comparator of doubles, ascending (NaN compares equal to all). */
int trv_cmp_double(const void *a, const void *b);

/* x[0] + x[1] + ... + x[n-1], in that order (0 for n == 0). */
double trv_sum(const double *x, size_t n);

/* The paired percentile bootstrap interval of the ratio of one statistic
 * of two samples over the same n units (the seeds): `resamples` resamples
 * of the units drawn from rng (the caller's own fixed stream, so the
 * interval is reproducible), each giving stat(a*) / stat(b*), and the
 * percentiles r_(floor(0.025 (m-1))) and r_(ceil(0.975 (m-1))) of the m
 * ratios kept, sorted: never NaN, infinite ones only if keep_infinite.
 * *lo = *hi = NAN when n < 2 or no ratio is kept.  (NaN inputs are allowed
 * when stat takes them.)  Returns how many of the resamples drawn gave no
 * ratio kept (0/0, and x/0 unless keep_infinite): 0 when n < 2, which
 * draws none. */
int trv_bootstrap_ratio_interval(const double *a, const double *b, size_t n, double (*stat)(const double *x, size_t n),
                                 bool keep_infinite, TrvRng *rng, int resamples, double *lo, double *hi);

/* order[0..n) = 0..n-1 sorted by value, highest first, ties to the lower
 * index (a stable ranking; value[i] must not be NaN). */
void trv_rank_desc(const double *value, int n, int *order);

/* top[0..k) = the first k of trv_rank_desc's order (the k highest values,
 * ties to the lower index), in that order, without sorting the rest:
 * O(n k).  Requires 0 <= k <= n; value[i] must not be NaN. */
void trv_top_desc(const double *value, int n, int k, int *top);

/* The p-quantile of Student's t with df degrees of freedom: the t with
 * P(T <= t) = p.  Requires df >= 1 (need not be an integer) and 0 < p < 1;
 * returns NAN otherwise.  Relative error below 1e-12 against 50-digit
 * references for df in [1, 1e8] and p down to 1e-300.  t_{1-p} = -t_p up
 * to the rounding of 1 - p. */
double trv_student_t_quantile(double p, double df);

typedef struct {
  double u;       /* U of x: pairs with x_i > y_j, a tie counting 1/2 */
  double p_value; /* two-sided: min(1, 2 min(P(U <= u), P(U >= u))) */
  double z;       /* continuity-corrected normal score; 0 if |U-mean| <= 1/2 */
  int exact;      /* 1: p from the exact null distribution; 0: normal approx. */
} TrvMannWhitney;

/* Two-sided Mann-Whitney U test of x[0..n1) against y[0..n2).
 * The p-value is exact (counting recurrence over the null distribution of U)
 * when the pooled sample has no tied values and n1, n2 <= 50; otherwise it is
 * the normal approximation with tie-corrected variance and continuity
 * correction 1/2.  z is always filled in.  U(x, y) + U(y, x) = n1 * n2.
 * n1 == 0 or n2 == 0: u = 0 and p_value, z are NAN. */
TrvMannWhitney trv_mann_whitney(const double *x, size_t n1, const double *y, size_t n2);

/* Phi(z) = P(Z <= z) for a standard normal Z, via erfc so that the lower
 * tail keeps full relative accuracy (Phi(-10) ~ 7.6e-24, not 0). */
double trv_normal_cdf(double z);
/* The standard normal quantile Phi^-1(p) for 0 < p < 1 (relative error
 * about 1e-15: Acklam's approximation polished by one Halley step). */
double trv_normal_quantile(double p);

typedef struct {
  double a, b, r2; /* y = a + b x; r2 = 1 - SS_residual / SS_total */
} TrvLinFit;

/* Ordinary least squares of y on x over n points.
 * If all y are equal the line is exact and r2 = 1.  n < 2 or all x equal:
 * the slope is undefined and a, b, r2 are NAN. */
TrvLinFit trv_linear_fit(const double *x, const double *y, size_t n);

/* Least squares of y on two given functions of the points, with no
 * intercept of its own: y = a u + b v (a regret-bound shape such as
 * a sqrt(E) + b rho ln(E)); r2 = 1 - SS_residual / SS_total, SS_total about
 * the mean of y (so u = 1 gives trv_linear_fit's line and R^2).  n < 2, or
 * u and v (nearly) proportional: a, b, r2 are NAN. */
TrvLinFit trv_basis_fit(const double *u, const double *v, const double *y, size_t n);

/* W1 between the empirical distributions of x[0..n) and y[0..m): the
 * integral over u in (0, 1) of |F_x^-1(u) - F_y^-1(u)|, computed exactly
 * from the sorted samples (for n == m, the mean absolute difference of the
 * order statistics, summed in order).  Symmetric; 0 for equal samples in
 * any order; |mean(x) - mean(y)| <= W1.  n == 0 or m == 0 or an allocation
 * failure: NAN.  Sorts private copies (allocated and freed here). */
double trv_wasserstein1(const double *x, size_t n, const double *y, size_t m);

#endif
