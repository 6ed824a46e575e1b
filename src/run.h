/* run.h - what `trivium run` shares between its files: the run context
 * (run-args.c fills it from the scenario and the command line) and the
 * execution of one point of a run (run-pool.c: cells in parallel processes,
 * merged outputs, the sweep table). */
#ifndef TRV_RUN_H
#define TRV_RUN_H

#include <glib.h>
#include <stdio.h>
#include <trivium/report.h>

#include "core/stats.h"
#include "report.h"
#include "scenario/scenario.h"
#include "sim/sim.h"

/* What an invocation does with the cells of a run. */
typedef enum {
  TRV_RUN_ALL,    /* run the cells not complete yet, then merge (trivium run) */
  TRV_RUN_CELLS,  /* run the cells cell_first..cell_last of the run, no merge (--cells, a job's share) */
  TRV_RUN_MERGE,  /* run nothing: merge complete cells (trivium merge) */
  TRV_RUN_STATUS, /* run and write nothing: count each point's cells complete, running, missing (trivium status) */
} TrvRunMode;

typedef struct {
  char *experiment; /* the scenario's name (file name without .xml) */
  TrvScenario *scenario;
  char **sets;        /* --set KEY=VALUE, applied on top of every point */
  GArray *cli_faults; /* TrvFaultSpec from --fault (patterns owned here) */
  char *cli_sweep;    /* --sweep KEY=V1,V2,... */
  char **controllers;
  int n_controllers;
  char *out, *ctl, *platform;
  char *role_hosts[TRV_N_ROLES];
  int jobs;
  bool quiet;
  bool own_placement; /* the scenario's platform and roles (no --platform, no --role) */
  bool replay;        /* --replay-config: the point's faults replace the scenario's faults and sweeps */
  bool fresh;         /* run every cell, complete or not (--fresh, trivium bench) */
  TrvRunMode mode;
  int cell_first, cell_last; /* TRV_RUN_CELLS: the range, over the run's cells in point order */
  int cell_offset;           /* the run's index of the current point's first cell */
  const char *point_dir;     /* in a sweep, the current point's directory name (OUT/<point>, --ctl DIR/<point>) */
  char **point_values;       /* in a sweep, the current point's value of each swept key */
  GHashTable *sha_cache;     /* path -> SHA-256 of the files a run reads */
  char *emit;                /* --emit parallel|slurm */
  int chunk;                 /* --chunk: cells per job */
  bool no_simgrid;           /* a merge: no simulation, SimGrid's options are not tried */
  GPtrArray *simgrid_args;
  GPtrArray *cell_args; /* what a cell hands SimGrid: simgrid_args, after --log=xbt_cfg.thres:warning with -q */
  bool tracing;         /* SimGrid's options turn tracing on: each cell writes OUT/traces/<controller>-seed<N>.trace */
  const TrvWorldClass *world_class; /* the scenario's world */
  /* the point being run */
  TrvParams params;
  GArray *faults; /* TrvFaultSpec of the point (patterns borrowed) */
  TrvSimOptions sim;
  int world_steps; /* T of the point's world */
} RunCtx;

/* Sweep results (sweep-table.c): per point, its swept keys' values, and
 * per controller the sweep metrics (mean and sd over seeds); written at the
 * end as sweep.csv (one numeric column per swept key), sweep.md and the
 * sweep figure.  Along an agents.count axis a speedup column: the run's
 * simulated time at the smallest agent count (the other keys equal) over
 * this point's. */
typedef struct {
  char **keys; /* the swept keys, in grid order */
  int n_keys;
  char **controllers; /* borrowed */
  int n_controllers;
  GPtrArray *values;                /* per point: char ** of n_keys values */
  GArray *stats;                    /* per point, controller and sweep metric: mean, sd, and the 95% interval lo, hi */
  GArray *episodes;                 /* per point: its episodes E (int) */
  const TrvWorldClass *world_class; /* the run's world, whose report (if any) sees every point */
  GPtrArray *report_states;         /* per point: what the world's report kept of it (NULL: nothing) */
  GPtrArray *t_id;                  /* per point and controller: GArray of t_id per seed (NaN: never identified) */
  GPtrArray *sim_time;              /* per point and controller: GArray of the run's simulated time per seed */
  GPtrArray *exposure;              /* per point and controller: GArray of exposure_total per seed */
  GArray *bound_m0;                 /* per point: the assignment's m0 (budget.m0, or |G_inf|), double */
  GArray *coalition;                /* per point: budget.coalition (1: disjoint assignment), int */
  bool regret_nonnegative;          /* the world's R_out is against a per-step oracle's expected payoff: >= 0 */
} TrvSweepTable;

void trv_sweep_table_init(TrvSweepTable *sw, char **keys, char **controllers, int n_controllers,
                          const TrvWorldClass *world_class);
/* One point: its value of each key (in the table's order), its results and
 * what the world's report kept of it (owned by the table from here). */
void trv_sweep_table_add(TrvSweepTable *sw, const TrvRunResult *res, char **values, void *report_state);
/* sweep.csv, sweep.md and figures/sweep.* in dir; the table on `table` (may be NULL). */
bool trv_sweep_table_write(const TrvSweepTable *sw, const char *dir, FILE *table, const char *experiment, int seeds,
                           GError **error);
void trv_sweep_table_free(TrvSweepTable *sw);
/* The index of the agents.count key among the swept keys, or -1. */
int trv_sweep_agents_axis(const TrvSweepTable *sw);
/* Along an agents.count axis: the point with the same values of the other
 * keys and the smallest agent count; -1 without such an axis. */
int trv_sweep_speedup_base(const TrvSweepTable *sw, int point);
/* The paired speedup of point over base: the median over the seeds of
 * x_base[s] / x_point[s] (seed s of both; a never (NaN or +inf) over a
 * never is left out, a finite over a never is 0, a never over a finite
 * +inf), with the median's order-statistics interval.  The seeds are the
 * same at every point, and so are the world's draws (common random
 * numbers), so each ratio compares one draw with itself. */
TrvMedianInterval trv_sweep_paired_speedup(const GArray *base, const GArray *point);
/* The speedup the assignment allows at point over base: with disjoint
 * assignment (budget.coalition 1) min(M, m0) / min(M0, m0), else M / M0. */
double trv_sweep_speedup_bound(const TrvSweepTable *sw, int point, int base);
/* Appends ",TEXT" (quoted when it needs it) to csv and " | TEXT" to md for
 * each of n texts: a sweep table's key names or a point's values. */
void trv_sweep_cells(GString *csv, GString *md, char *const *texts, int n);
/* A table's cell in Markdown: v with 4 significant digits, "never" for
 * +-inf, "nan"; and "v [lo, hi]". */
void trv_md_value(GString *md, double v);
void trv_md_interval(GString *md, double v, double lo, double hi);
/* Writes DIR/NAME.csv (csv) and DIR/NAME.md (doc), atomically, and prints
 * doc on `table` (may be NULL) after a blank line. */
bool trv_sweep_write_table(const char *dir, const char *name, const GString *csv, const GString *doc, FILE *table,
                           GError **error);
/* The mean over the seeds of sweep metric `metric` (a column of sweep.csv)
 * at point for controller c; NaN for a name that is not one. */
double trv_sweep_mean(const TrvSweepTable *sw, int point, int c, const char *metric);
/* fault-table.c: along a fault axis (a swept fault time: mtbf, mttr,
 * duration, start, stop, at), faults.csv and faults.md: per point and
 * controller the paired effect of the faults against the point with the
 * other keys equal and the mildest value of the axis; nothing without such
 * an axis.  The table goes to `table` too (may be NULL). */
bool trv_fault_table_write(const TrvSweepTable *sw, const char *dir, FILE *table, GError **error);
/* speedup-table.c: along an agents.count axis, speedup.csv, speedup.md and
 * figures/speedup.*: per point and controller the median simulated time to
 * identify over the seeds with its interval, and its speedup over the
 * smallest agent count; nothing without such an axis.  The table goes to
 * `table` too (may be NULL). */
bool trv_speedup_write(const TrvSweepTable *sw, const char *dir, FILE *table, GError **error);
/* saturation-table.c: along an agents.count axis, saturation.csv and
 * saturation.md: per series (the other keys' values, the controller) and
 * measure (t_id, run_time) the agent count at which the paired speedup
 * stops rising; nothing without such an axis.  The table goes to `table`
 * too (may be NULL). */
bool trv_saturation_write(const TrvSweepTable *sw, const char *dir, FILE *table, GError **error);

/* Runs every cell of the current point into ctx->out and writes its outputs;
 * prints the tables on `table` (may be NULL); adds a line per controller to
 * `sweep` (may be NULL) labelled `label`; counts probes.  Returns the exit
 * code (0, 1 run failure, 2 bad input). */
typedef struct {
  gint64 probes;
  double controller_cpu; /* seconds in the controllers' own calls, all cells */
  double agent_steps;
  long complete, running, missing; /* TRV_RUN_STATUS: the cells of every point */
} TrvRunTotals;

/* report-world.c: the world's own report (trivium/report.h).  A point:
 * the report run on res (its episode columns read from dir/episodes.csv),
 * *out what it declared (NULL for a world without a report) and *state
 * what it kept for the sweep; false with *error, nothing kept.  Then the
 * report's tables written into dir.  A sweep: the report run on the
 * sweep's points, its tables written into dir, its figures into
 * dir/figures, its text on `table` (may be NULL). */
bool trv_world_report_point(const TrvRunResult *res, const char *dir, const TrvSweepTable *sweep, char **point_values,
                            TrvReport **out, void **state, GError **error);
bool trv_world_report_point_write(const TrvReport *report, const char *dir, GError **error);
void trv_world_report_state_free(const TrvWorldClass *wc, void *state);
bool trv_world_report_sweep(const TrvSweepTable *sw, const char *dir, FILE *table, const char *experiment, int seeds,
                            GError **error);

int trv_run_point(RunCtx *ctx, int argc, char **argv, FILE *table, TrvRunTotals *totals, TrvSweepTable *sweep,
                  const char *label, GError **error);

/* run-cell.c: one cell of a point.  OUT/cells/<controller>-seed<N>.EXT, a
 * cell's own files (EXT csv, sum, started, err, csv.tmp, sum.tmp). */
char *trv_run_cell_path(const RunCtx *ctx, int cell, const char *ext);
/* Moves aside the logs of interrupted cells and refuses any other existing
 * log, or one the scenario would reach through a symbolic link, of the
 * cells to_run; creates their directories. */
bool trv_run_check_ctl_files(const RunCtx *ctx, const bool *to_run, GError **error);
/* What the child of a cell is given (trv_run_cell_child's data). */
typedef struct {
  RunCtx *ctx;
  const TrvCellLayout *layout;
  int cell;
  const char *fingerprint;
} CellJob;
/* In the child: runs one cell, writes its lines and then its cell file (the
 * cell is complete once that is in place); returns the cell's exit code. */
int trv_run_cell_child(void *data, int report_fd);

/* run-args.c: the command line of `trivium run` / `bench` into a context
 * (false with *error on bad input, the context then only to be freed). */
bool trv_run_parse_args(RunCtx *ctx, int argc, char **argv, bool bench, GError **error);
/* cmd-run.c: the parameters and faults of point k into ctx (the
 * scenario's point, the --fault processes, the --set assignments and, with
 * --sweep, sweep_key set to sweep_value; false with *error for a value the
 * point refuses); every point of the run (count: only the number of its
 * cells); the context freed. */
bool trv_run_load_point(RunCtx *ctx, size_t k, const char *sweep_key, const char *sweep_value, GError **error);
int trv_run_points(RunCtx *ctx, int argc, char **argv, FILE *table, TrvRunTotals *totals, long *count, GError **error);
void trv_run_ctx_free(RunCtx *ctx);
/* Prints "trivium: MESSAGE", frees err, returns the exit code (2 for bad
 * input, else 1). */
int trv_run_fail(GError *err);

/* cmd-jobs.c: `trivium run --emit parallel|slurm`: the run as a job list
 * in ctx->out instead of running it.  Returns the exit code. */
int trv_emit_jobs(RunCtx *ctx, int argc, char **argv, GError **error);
/* OUT/jobs.json for a local run: what `trivium report OUT` rebuilds it from. */
bool trv_write_run_manifest(RunCtx *ctx, int argc, char **argv, GError **error);

#endif
