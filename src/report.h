/* report.h - what a run writes: episodes.csv, summary.csv, summary.md,
 * run.json, and the table printed at the end.  Every column is documented
 * in docs/outputs.md. */
#ifndef TRV_REPORT_H
#define TRV_REPORT_H

#include <glib.h>
#include <stdio.h>

#include "core/out-file.h"
#include "run-inputs.h"

#include "core/controller.h"
#include "core/results.h"
#include "core/stats.h"
#include "scenario/scenario.h"
#include "sim/sim.h"

/* The git revision the program was built from (src/git-revision.h, made at
 * every build): run.json's, the cells' fingerprints' and --version's. */
extern const char trv_git_revision[];

/* Most data files a world's inputs() may name for run.json (and a replay
 * accepts). */
#define TRV_RUN_MAX_INPUTS 8

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
  /* per seed of the first controller, a file whose last row holds the
   * truth at the last episode (episodes.csv columns); NULL: the run's
   * cells/<controller>-seed<N>.csv (figure-run.c) */
  const char *const *truth_files;
  /* provenance for run.json (each may be NULL/0) */
  const char *scenario_file;     /* the scenario as given */
  const char *const *role_hosts; /* TRV_N_ROLES: globs, or NULL for the trivium.role property */
  const TrvFaultSpec *faults;    /* the point's fault processes */
  size_t n_faults;
  const char *const *simgrid_args; /* --cfg=... / --log=... */
  size_t n_simgrid_args;
  const TrvRunInput *inputs; /* data files the world reads (TRV_RUN_MAX_INPUTS at most) */
  size_t n_inputs;
  const char *const *profiles; /* profile files of the platforms (NULL-terminated; may be NULL) */
  GHashTable *input_copies;    /* path -> its copy in the run directory, "inputs/REL" (run-inputs.h; may be NULL) */
  GHashTable *file_sha256;     /* path -> SHA-256 of the files the run has hashed already, NULL
                                     * for one it could not read (the table may be NULL) */
  const char *world_text;      /* the world's report's text, after summary.md's tables (may be NULL) */
} TrvRunResult;

/* run.json: status "running" while the point runs, "complete" at its end.
 * Written to a temporary name and renamed. */
bool trv_write_run_json(const TrvRunResult *r, const char *path, const char *status, GError **error);
/* Summary across seeds of one metric of summary.csv for controller c. */
TrvSummary trv_run_metric(const TrvRunResult *r, int c, const char *name);
/* The metric of every seed of controller c (n_seeds values, NaN kept). */
void trv_run_metric_values(const TrvRunResult *r, int c, const char *name, double *out);
/* summary.csv, summary.md and the table on `out` (may be NULL). */
bool trv_write_summary(const TrvRunResult *r, const char *dir, FILE *out, GError **error);
/* One cell of summary.md: "mean ± sd" of s, with enough digits that a
 * small nonzero value shows ("-" without values); metric is a TrvMetric
 * or -1. */
void trv_format_summary(char *buf, size_t n, TrvSummary s, int metric);

/* Recovery after the change-points (recovery-table.c): the measures kept
 * per change-point and cell (TrvChangePointRecovery), by name in
 * summary.csv as recovery.<change-point>.<name>. */
typedef enum {
  TRV_CP_RECOVERY,
  TRV_CP_COMMIT_RECOVERY,
  TRV_CP_COMMIT_LAG,
  TRV_CP_EXPOSURE,
  TRV_CP_COMMITTED_EXPOSURE,
  TRV_CP_COUNT
} TrvRecoveryMeasure;
const char *trv_recovery_name(TrvRecoveryMeasure m);
/* The change-points every cell of the run kept. */
int trv_run_change_points(const TrvRunResult *r);
/* Summary across seeds (NAN values left out) of measure m after
 * change-point k for controller c. */
TrvSummary trv_run_recovery(const TrvRunResult *r, int c, int k, TrvRecoveryMeasure m);
/* summary.csv's recovery.* rows; summary.md's commit and recovery tables. */
void trv_recovery_csv(const TrvRunResult *r, FILE *f);
void trv_recovery_md(const TrvRunResult *r, FILE *f);

#endif
