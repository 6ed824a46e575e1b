/* figures.h - the figures a run draws next to its tables (figures.c):
 * gnuplot scripts and their data under OUT/figures/, drawn as SVG and PNG
 * by gnuplot when it is installed.  Documented in docs/outputs.md. */
#ifndef TRV_FIGURES_H
#define TRV_FIGURES_H

#include <glib.h>
#include <stdbool.h>

#include "report.h"

#include "gp-quote.h"

/* One point: regret.{dat,gp,svg,png} (cumulative outcome regret against
 * episodes, mean over seeds, one line per controller) and
 * presence.{dat,gp,svg,png} (the final presence probability of every
 * candidate component, mean over seeds, per controller) and, when the
 * world has change-points, recovery.{dat,gp,svg,png} (per change-point the
 * recovery of the MAP and of G_hat and the exposure after it).  False with
 * *error when a file cannot be written; gnuplot missing or failing is
 * said once on stderr and leaves the scripts and data. */
bool trv_write_figures(const TrvRunResult *r, const char *dir, GError **error);

/* A sweep: sweep.{dat,gp,svg,png}, each of `metrics` (mean and sd over
 * seeds, one line per controller) against the points (`labels` on the
 * axis, `key` its title).  rows holds, per
 * point and controller (point-major), n_metrics (mean, sd) pairs. */
bool trv_write_sweep_figure(const char *dir, const char *key, char **labels, int n_points, char **controllers,
                            int n_controllers, const char *const *metrics, int n_metrics, const double *rows,
                            GError **error);

/* A grounding sweep: grounding.{dat,gp,svg,png}, the measured W1 (mean
 * and sd over seeds) and the bound against the points, per controller.
 * rows: per point and controller (point-major), (W1, sd, bound, 0). */
bool trv_write_grounding_figure(const char *dir, const char *key, char **labels, int n_points, char **controllers,
                                int n_controllers, const double *rows, GError **error);

/* A multi-agent sweep: speedup.{dat,gp,svg,png}, two panels against the
 * agent count (log scale): the speedup of the median time to identify with
 * its interval, and the median with its interval (log scale); one line per series.  rows:
 * n_rows of (series index, agents, speedup, lo, hi, t_id median, lo, hi). */
bool trv_write_speedup_figure(const char *dir, char **series, int n_series, const double *rows, int n_rows,
                              GError **error);

#endif
