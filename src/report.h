/* report.h - what a run writes: episodes.csv, summary.csv, summary.md,
 * run.json, and the table printed at the end (SPEC section 9).
 * Every column is documented in docs/outputs.md. */
#ifndef TRV_REPORT_H
#define TRV_REPORT_H

#include <glib.h>
#include <stdio.h>

#include "core/controller.h"
#include "core/results.h"
#include "core/stats.h"
#include "scenario/scenario.h"
#include "sim/sim.h"

/* A run's point: its cells reduced (cells[c * n_seeds + s] for controller
 * c and seed s), and what its outputs say about it. */
typedef struct {
  const char *experiment;
  const TrvParams *params;
  const TrvWorldClass *world_class;
  const TrvCellLayout *layout; /* candidates, metric names, change-points, episodes */
  int steps;
  const char *const *controllers;
  int n_controllers;
  int n_seeds;
  const int *seeds;
  const char *platform;
  char **argv;
  int argc;
  const TrvCellSummary *cells;
  /* provenance for run.json (each may be NULL/0) */
  const char *scenario_file;        /* the scenario as given */
  const char *const *role_hosts;    /* TRV_N_ROLES: globs, or NULL for the trivium.role property */
  const TrvFaultSpec *faults;       /* the point's fault processes */
  size_t n_faults;
  const char *const *simgrid_args;  /* --cfg=... / --log=... */
  size_t n_simgrid_args;
  const char *const *inputs;        /* data files the world reads (NULL-terminated) */
} TrvRunResult;

/* run.json: status "running" while the point runs, "complete" at its end.
 * Written to a temporary name and renamed. */
bool trv_write_run_json(const TrvRunResult *r, const char *path, const char *status, GError **error);
/* Summary across seeds of one metric of summary.csv for controller c. */
TrvSummary trv_run_metric(const TrvRunResult *r, int c, const char *name);
/* summary.csv, summary.md and the table on `out` (may be NULL). */
bool trv_write_summary(const TrvRunResult *r, const char *dir, FILE *out, GError **error);
/* Writes `text` to path through a temporary file renamed into place. */
bool trv_write_file_atomic(const char *path, const char *text, gssize len, GError **error);

#endif
