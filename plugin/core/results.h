/* results.h - episodes.csv lines and the per-cell summary, written once
 * for the command line and the plugin's public getters (trivium/results.h).
 *
 * A cell is one (seed, controller) run of a world.  Its rows are written as
 * CSV text as they come and reduced on the fly into a TrvCellSummary, so a
 * cell's memory does not grow with its episodes.  The phase of an episode
 * (init, recovery, stationary) follows the referee's change-points. */
#ifndef TRV_RESULTS_H
#define TRV_RESULTS_H

#include <glib.h>
#include <stdio.h>
#include <trivium/results.h>

#include "world.h"

typedef enum { TRV_PHASE_INIT = 0, TRV_PHASE_RECOVERY = 1, TRV_PHASE_STATIONARY = 2 } TrvPhase;
extern const char *const trv_phase_names[];

#define TRV_INIT_EPISODES 50                      /* episodes e < 50 are the init phase */
#define TRV_RECOVERY_EPISODES TRV_RECOVERY_WINDOW /* the episodes after a change-point that are its recovery */
#define TRV_MAX_CHANGE_POINTS 1024

/* What the rows of a cell need to be written and summarised. */
typedef struct TrvCellLayout {
  const TrvCandidates *cand;
  const char *const *metric_names; /* the referee's, or NULL */
  const char *controller;
  int episodes; /* rows the cell will have */
  int n_change_points;
  int change_points[TRV_MAX_CHANGE_POINTS];
} TrvCellLayout;

TrvPhase trv_phase_of(const TrvCellLayout *layout, int episode);

/* The header line of episodes.csv (with its newline). */
void trv_results_csv_header(GString *out, const TrvCellLayout *layout);
/* One row as an episodes.csv line (with its newline). */
void trv_results_csv_row(GString *out, const TrvCellLayout *layout, const TrvEpisodeRow *row);

/* The running reduction of a cell's rows. */
typedef struct {
  TrvCellSummary sum;
  /* accumulators */
  double attempts, failures, delay_sum;
  int delay_n;
  bool detected[TRV_MAX_CHANGE_POINTS];
  int horizon;          /* identification horizon: the first change-point, or the end */
  int last_exposed;     /* last episode before the horizon whose MAP was wrong (-1: none) */
  double id_time;       /* sim_time of episode last_exposed + 1 */
  int last_regret;      /* last episode before the horizon with R_out != 0 (-1: none) */
  double task_time;     /* sim_time of episode last_regret + 1 */
  int last_uncommitted; /* the same for G_hat: last episode before the horizon with G_hat wrong */
  double commit_time;   /* sim_time of episode last_uncommitted + 1 */
  int run_right[2];     /* first episode of the current run of right MAP [0] / G_hat [1] (-1: wrong now) */
  double lrcp_iterations, lrcp_ratio_sum;
  int lrcp_ratio_n;
  int seen; /* rows added */
  double world_sum[TRV_WORLD_METRICS_MAX];
} TrvCellSummarizer;

void trv_cell_summarizer_init(TrvCellSummarizer *z, const TrvCellLayout *layout);
/* Rows must come in episode order. */
void trv_cell_summarizer_add(TrvCellSummarizer *z, const TrvCellLayout *layout, const TrvEpisodeRow *row);
/* Ends the reduction into *out. */
void trv_cell_summarizer_finish(TrvCellSummarizer *z, const TrvCellLayout *layout, TrvCellSummary *out);

#endif
