/* report.h - what a run writes: episodes.csv, summary.csv, summary.md,
 * run.json, and the table printed at the end (SPEC section 9).
 * Every column is documented in docs/outputs.md. */
#ifndef TRV_REPORT_H
#define TRV_REPORT_H

#include <glib.h>
#include <stdio.h>

#include "core/controller.h"
#include "core/stats.h"

typedef enum { TRV_PHASE_INIT = 0, TRV_PHASE_RECOVERY = 1, TRV_PHASE_STATIONARY = 2 } TrvPhase;

typedef struct {
  const char *experiment;
  const TrvParams *params;
  const TrvWorldClass *world_class;
  const TrvCandidates *cand;
  int episodes, steps;
  int change_points[1024], n_change_points;
  const char *const *controllers;
  int n_controllers;
  int n_seeds;
  const int *seeds;
  const char *platform;
  char **argv;
  int argc;
  /* rows[c * n_seeds + s] : GArray of TrvEpisodeRow for (controller c, seed s) */
  GArray **rows;
} TrvRunResult;

/* Phase of episode e: init (e < 50), recovery (the 50 episodes after a
 * change-point), stationary (the rest). */
TrvPhase trv_phase_of(const TrvRunResult *r, int e);
extern const char *const trv_phase_names[];

bool trv_write_episodes_csv(const TrvRunResult *r, const char *path, GError **error);
bool trv_write_run_json(const TrvRunResult *r, const char *path, GError **error);
/* Summary across seeds of one metric of summary.csv for controller c. */
TrvSummary trv_run_metric(const TrvRunResult *r, int c, const char *name);
/* summary.csv, summary.md and the table on `out` (may be NULL). */
bool trv_write_summary(const TrvRunResult *r, const char *dir, FILE *out, GError **error);

#endif
