/* trivium/results.h - what a run measured: one row per episode and a
 * summary of the run, as C values.
 *
 * A row holds the readouts (docs/outputs.md, "episodes.csv") for one
 * episode of one (seed, controller) cell: what the controller believed
 * (presence probabilities, MAP graph, committed graph G_hat_e), how wrong
 * that was against the referee's truth (exposures, the three regrets),
 * what the episode cost (probes, commits, simulated time) and the world's
 * own metrics.  The
 * columns of episodes.csv are these fields, in this order, documented in
 * docs/outputs.md; trivium_results_write_csv() writes exactly the lines
 * `trivium run` writes.  The summary reduces the rows of the cell to one
 * number per metric (the per-seed numbers that summary.csv then averages
 * across seeds). */
#ifndef TRIVIUM_RESULTS_H
#define TRIVIUM_RESULTS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <trivium/export.h>
#include <trivium/world.h>

G_BEGIN_DECLS

#define TRV_LRCP_MAX_ITER 8
#define TRV_WORLD_METRICS_MAX 8

typedef enum { TRV_LRCP_NONE = 0, TRV_LRCP_CONVERGED = 1, TRV_LRCP_FLAGGED = 2 } TrvLrcpStatus;

/* One row of episodes.csv: readouts of one (seed, controller, episode). */
typedef struct {
  int seed, episode;
  int n_components;
  uint64_t truth, map, ghat;                  /* presence bitmasks (component j = bit j) */
  double p[TRV_MAX_COMPONENTS];               /* presence probabilities at the episode's end */
  int posterior_exposure, committed_exposure; /* MAP != truth, G_hat_e != truth */
  double entropy_bits;
  int budget, probes, gated_steps;
  double reward, r_out, r_epi, r_hat_epi, r_temp;
  int tau;              /* tau_e: first step at which the graph the agents act on is right on the task (T: never) */
  double r_epi_step;    /* epistemic log-loss per step, each component's probability floored (TRV_LOGLOSS_FLOOR) */
  double r_temp_belief; /* R_temp with tau_e from the in-episode belief (tau_belief) */
  int tau_belief; /* first step whose MAP is right on the task while the belief is sure enough to commit (T: never) */
  int committed;  /* a commit rule took or changed G_hat at this boundary */
  int lrcp_status, lrcp_n; /* TrvLrcpStatus; residual trace eps_0 .. eps_{n-1} */
  int lrcp_eps[TRV_LRCP_MAX_ITER + 1];
  double detector_stat;
  int alarm, resets;
  int commits;             /* commit operations due (one per agent per episode) */
  int commit_attempts;     /* messages sent for them, retries included (as the agents reported) */
  int commit_failures;     /* due commits none of whose records is in the committed log */
  int records_lost;        /* best effort: records that never reached the log */
  int detector_closed;     /* the failure detector closed the episode before every agent reported */
  int agents_missing;      /* agents reached whose report (DONE) never came */
  double wait_lost;        /* detector closes: simulated seconds waited after the last report (or the plans) */
  double detector_timeout; /* the failure detector's wait for this episode, simulated seconds (0: no clock) */
  int steps_late;          /* the agents' steps that outlasted their duration on the world's clock (sim.clock) */
  double bits_lost;        /* expected information gain, at plan time, of the planned probes whose records were lost */
  double committed_reward; /* the payoffs of the committed records only (reward counts every step played) */
  double sim_time;         /* simulated seconds when the episode closed */
  double soft_score;       /* legacy 1 - acc with beliefs clipped to [0.01, 0.99] */
  int n_world_metrics;     /* values of the referee's metric_names */
  double world_metrics[TRV_WORLD_METRICS_MAX];
  double controller_cpu; /* CPU seconds in the controller's plan and absorb when benchmarking, else 0; never written */
} TrvEpisodeRow;

/* The per-cell metrics of summary.csv, each one number per (seed,
 * controller).  Phases: init is e < 50, recovery the 50 episodes after a
 * change-point, stationary the rest. */
typedef enum {
  TRV_METRIC_EXPOSURE_INIT,
  TRV_METRIC_EXPOSURE_RECOVERY,
  TRV_METRIC_EXPOSURE_STATIONARY,
  TRV_METRIC_EXPOSURE_TOTAL,
  TRV_METRIC_COMMITTED_EXPOSURE,
  TRV_METRIC_R_OUT,
  TRV_METRIC_R_EPI,
  TRV_METRIC_R_HAT_EPI,
  TRV_METRIC_R_TEMP,
  TRV_METRIC_PROBES,
  TRV_METRIC_ALARMS,
  TRV_METRIC_DETECTIONS,
  TRV_METRIC_FALSE_ALARMS,
  TRV_METRIC_DETECTION_DELAY,
  TRV_METRIC_SOFT_SCORE,
  TRV_METRIC_P_F,
  TRV_METRIC_SIM_TIME,
  TRV_METRIC_T_ID,
  TRV_METRIC_E_ID,
  TRV_METRIC_UNCOMMITTED_EPISODES,
  TRV_METRIC_T_TASK,
  TRV_METRIC_E_TASK,
  TRV_METRIC_T_COMMIT,
  TRV_METRIC_E_COMMIT,
  TRV_METRIC_RECOVERY,
  TRV_METRIC_COMMIT_LAG,
  TRV_METRIC_LRCP_CALLS,
  TRV_METRIC_LRCP_FLAGGED,
  TRV_METRIC_LRCP_ITERATIONS,
  TRV_METRIC_LRCP_RESIDUAL_RATIO,
  TRV_METRIC_RECORDS_LOST,
  TRV_METRIC_DETECTOR_CLOSES,
  TRV_METRIC_TIME_LOST,
  TRV_METRIC_STEPS_LATE,
  TRV_METRIC_BITS_LOST,
  TRV_METRIC_R_EPI_STEP,
  TRV_METRIC_R_TEMP_BELIEF,
  TRV_METRIC_COUNT
} TrvMetric;

/* The floor of a component's probability in the bounded epistemic
 * log-loss (r_epi_step): -log max(p, floor), at most 34.5 nats a
 * component, the clipping scikit-learn's log_loss long applied. */
#define TRV_LOGLOSS_FLOOR 1e-15

/* The metric's name in summary.csv ("exposure_total", ...) and meaning. */
TRIVIUM_API const char *trivium_metric_name(TrvMetric metric);
TRIVIUM_API const char *trivium_metric_doc(TrvMetric metric);
/* The metric called `name`, or -1. */
TRIVIUM_API int trivium_metric_lookup(const char *name);

/* Recovery after a change-point: the MAP (or G_hat) is "right again" at
 * the first episode from which it equals the truth for this many
 * consecutive episodes before the next change-point (or the end). */
#define TRV_STAY_EPISODES 10
/* Change-points whose recovery a cell summary keeps (the first ones). */
#define TRV_CELL_CHANGE_POINTS 1024

/* Recovery after change-point k of a cell, episode cp = change_point[k];
 * its segment is [cp, next change-point or the end), its window the first
 * TRV_RECOVERY_WINDOW episodes of the segment.  Episode counts from cp:
 * NAN when the graph is never right for TRV_STAY_EPISODES in a row within
 * the segment. */
#define TRV_RECOVERY_WINDOW 50
typedef struct {
  int change_point;
  double recovery;           /* first episode from which MAP(P_e) stays right, minus cp */
  double commit_recovery;    /* the same for G_hat_e */
  double exposure;           /* episodes of the window with MAP(P_e) wrong */
  double committed_exposure; /* episodes of the window with G_hat_e wrong */
} TrvChangePointRecovery;

/* Most points of a cell's cumulative regret curve. */
#define TRV_CURVE_POINTS 2048

/* One cell reduced: the metrics (NAN where undefined, e.g. a detection
 * delay with no detection), the per-episode means of the world's metrics,
 * the presence probabilities of the last episode, and the cumulative
 * outcome regret after episode count curve_episode[i] (every episode when
 * E <= TRV_CURVE_POINTS, else every ceil(E / TRV_CURVE_POINTS)-th and the
 * last). */
typedef struct {
  int episodes; /* rows summarised */
  double metric[TRV_METRIC_COUNT];
  int n_world_metrics;
  double world_metric_mean[TRV_WORLD_METRICS_MAX];
  int n_components;
  double final_p[TRV_MAX_COMPONENTS];
  int n_curve;
  int curve_episode[TRV_CURVE_POINTS];
  double curve_r_out[TRV_CURVE_POINTS];
  int n_change_points; /* of the referee, at most TRV_CELL_CHANGE_POINTS, within the episodes seen */
  TrvChangePointRecovery change_point[TRV_CELL_CHANGE_POINTS];
} TrvCellSummary;

/* After trivium_plugin_finished(): the rows of the run, in episode order
 * (NULL past the end), and its summary. */
TRIVIUM_API size_t trivium_results_n_episodes(void);
TRIVIUM_API const TrvEpisodeRow *trivium_results_episode(size_t i);
TRIVIUM_API const TrvCellSummary *trivium_results_summary(void);
/* Writes the rows as episodes.csv lines (with the header line when
 * `header`), exactly as `trivium run` does for the same cell. */
TRIVIUM_API bool trivium_results_write_csv(FILE *out, bool header, GError **error);
/* Writes the run's directory `dir` (created if missing): episodes.csv, as
 * above, and run.json (the program's command line, the world, controller,
 * seed and every setting, and the summary), from which `trivium report
 * DIR` writes summary.csv, summary.md and the figures that `trivium run`
 * writes for the same cell.  Files are written inside dir only, never
 * through a symbolic link, each under a temporary name renamed when whole.
 * After trivium_plugin_finished(); false with *error (TRV_ERROR_INPUT: no
 * results yet, a directory that cannot be used or holds a run of `trivium
 * run`; TRV_ERROR_IO: a write failed). */
TRIVIUM_API bool trivium_results_write_dir(const char *dir, GError **error);

G_END_DECLS

#endif
