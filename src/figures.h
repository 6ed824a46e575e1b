/* figures.h - the figures a run draws next to its tables (figures.c):
 * gnuplot scripts and their data under OUT/figures/, drawn as SVG and PNG
 * by gnuplot when it is installed.  Documented in docs/outputs.md. */
#ifndef TRV_FIGURES_H
#define TRV_FIGURES_H

#include <glib.h>
#include <stdbool.h>
#include <trivium/report.h>

#include "report.h"

#include "gp-quote.h"

/* Every figure is NAME.{dat,gp,txt,svg,png}: data, script, caption and the
 * two drawings.
 *
 * One point (figure-run.c): regret.* (cumulative outcome regret against
 * episodes, mean over seeds with a 95% band, one line per controller, the
 * change-points marked), presence.* (the final presence probability of
 * every candidate component per controller with its interval, and the
 * truth at the last episode, read from OUT/cells) and, when the world has
 * change-points, recovery.* (per change-point the recovery of the MAP and
 * of G_hat and the exposure after it).  False with *error when a file
 * cannot be written; gnuplot missing or failing is said once on stderr and
 * leaves the scripts, data and captions. */
bool trv_write_figures(const TrvRunResult *r, const char *dir, GError **error);

/* A sweep: sweep.*, each of `metrics` (mean over n_seeds seeds with its
 * 95% interval, one line per series) against the points (`labels`,
 * `key` the axis; numeric values on a numeric axis, log scale for an MTBF,
 * an agent count, a budget or a decade's span).  The series are the
 * controllers, or with `per` the controllers at each value of another key
 * (the caption says "one series per controller and PER").  rows holds, per
 * point and series (point-major), n_metrics (mean, lo, hi) triples; the
 * intervals are clipped at each metric's bounds. */
bool trv_write_sweep_figure(const char *dir, const char *key, char **labels, int n_points, char **series, int n_series,
                            const char *per, const char *const *metrics, int n_metrics, const double *rows, int n_seeds,
                            GError **error);

/* A figure a world's report declared for a sweep (trivium/report.h):
 * NAME.{dat,gp,txt,svg,png}, its measure against the sweep's points
 * (`labels`, `key` the axis, as for sweep.*), one line per series, the
 * measure's words and domain its own; one panel, 1200 x 600. */
bool trv_write_report_figure(const char *dir, const TrvReportFigure *figure, const char *key, char **labels,
                             int n_points, GError **error);

/* A multi-agent sweep: speedup.{dat,gp,svg,png}, two panels against the
 * agent count (log scale): the speedup of the median time to identify with
 * its interval, and the median with its interval (log scale); one line per series.  rows:
 * n_rows of (series index, agents, speedup, lo, hi, t_id median, lo, hi). */
bool trv_write_speedup_figure(const char *dir, char **series, int n_series, const double *rows, int n_rows,
                              GError **error);

#endif
