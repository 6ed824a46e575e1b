/* trivium/report.h - a world's own report: the tables, text and figures of
 * its own that the `trivium` program writes beside a run's (summary.md,
 * the sweep tables), for a world that declares one (TrvWorldClass.report).
 *
 * The program knows no world's outputs: it calls the report and writes
 * what the report declares.  After the cells of a point of a run are
 * merged (`trivium run`, `merge`, `report`), it calls point() on the
 * point: point() reads the point's results through trivium_report_*()
 * (its cells' summaries, its parameters, the episodes.csv columns the
 * report names) and declares
 *  - tables: NAME.csv and NAME.md in the point's directory
 *    (trivium_report_table);
 *  - text, in Markdown, that follows the run's own tables in summary.md
 *    and on the terminal (trivium_report_text);
 * and keeps in *state what its sweep will need.  After the last point of
 * a sweep the program calls sweep() with the points' states: its tables go
 * to the sweep's directory, its figures (trivium_report_figure: a measure
 * against the sweep's points) to the sweep's figures/, its text after the
 * sweep's table on the terminal.  The program writes each file under its
 * own rules (a temporary name renamed when whole, never through a symbolic
 * link); a report writes nothing itself.
 *
 * A report's reads are bounded by what the point holds: a controller,
 * seed, point or key index out of range, or a column the report did not
 * name, gives NULL (or -1).  A table or figure name is 1 to 64 letters,
 * digits, '-' and '_', not one of the run's own files (episodes, summary,
 * run, jobs, sweep, sweep-fits, speedup, saturation, faults, regret,
 * presence, recovery); a bad one, or one declared twice, is an error of
 * code TRV_ERROR_INPUT naming the world.  A report that fails stops the
 * run with its error (`trivium run` exits 2 for TRV_ERROR_INPUT, else 1).
 * Plain data and function pointers: no SimGrid type. */
#ifndef TRIVIUM_REPORT_H
#define TRIVIUM_REPORT_H

#include <glib.h>
#include <stdbool.h>

#include <trivium/error.h>
#include <trivium/export.h>
#include <trivium/results.h>
#include <trivium/world.h>

G_BEGIN_DECLS

/* One point of a run, or a sweep's points, as the program hands it to a
 * report: what it reads and where its tables go. */
typedef struct TrvReport TrvReport;

struct TrvReportClass {
  /* The columns of episodes.csv (docs/outputs.md) the report reads per
   * cell with trivium_report_episode_values(), NULL-terminated; NULL:
   * none.  Each must be a numeric column of the point's episodes.csv. */
  const char *const *episode_columns;
  /* One point.  Declares its tables and text; *state (NULL on entry) is
   * what sweep() will be given for this point (NULL: nothing).  False
   * with *error to stop the run. */
  bool (*point)(TrvReport *report, void **state, GError **error);
  /* A sweep's points, after the sweep's own tables: states[p] is what
   * point() kept of point p, for the n_points points in order.  NULL:
   * nothing for sweeps. */
  bool (*sweep)(TrvReport *report, void *const *states, int n_points, GError **error);
  /* Frees a state point() kept; NULL: g_free. */
  void (*free_state)(void *state);
};

/* ---- what a report reads (point() and sweep()) ---- */

/* The run's experiment (its scenario's name), its controllers (in the
 * run's order) and seeds. */
TRIVIUM_API const char *trivium_report_experiment(const TrvReport *report);
TRIVIUM_API int trivium_report_n_controllers(const TrvReport *report);
TRIVIUM_API const char *trivium_report_controller(const TrvReport *report, int c);
/* The index of the controller called `name`, or -1 when it did not run. */
TRIVIUM_API int trivium_report_controller_index(const TrvReport *report, const char *name);
TRIVIUM_API int trivium_report_n_seeds(const TrvReport *report);
TRIVIUM_API int trivium_report_seed(const TrvReport *report, int s);
/* The swept keys (0 for a run of one point) and point p's value of key k:
 * the text the sweep gave. */
TRIVIUM_API int trivium_report_n_keys(const TrvReport *report);
TRIVIUM_API const char *trivium_report_key(const TrvReport *report, int k);
TRIVIUM_API const char *trivium_report_value(const TrvReport *report, int point, int k);
/* Appends, for each swept key, ",TEXT" to csv (quoted as CSV quotes it)
 * and " | TEXT" to md, TEXT the key's name (point -1) or point p's value:
 * the cells the sweep's own tables have (NULL strings are left alone). */
TRIVIUM_API void trivium_report_point_cells(const TrvReport *report, int point, GString *csv, GString *md);

/* ---- point() only ---- */

/* The point's index among the sweep's points (0 for a run of one point). */
TRIVIUM_API int trivium_report_point(const TrvReport *report);
/* The point's parameters (trivium_params_get), and each cell's episodes. */
TRIVIUM_API const TrvParams *trivium_report_params(const TrvReport *report);
TRIVIUM_API int trivium_report_episodes(const TrvReport *report);
/* The summary of the cell of controller c and seed s (its metrics, the
 * means of the world's metrics), or NULL. */
TRIVIUM_API const TrvCellSummary *trivium_report_cell(const TrvReport *report, int c, int s);
/* The index of the world's metric `name` in a cell's world_metric_mean,
 * or -1. */
TRIVIUM_API int trivium_report_world_metric(const TrvReport *report, const char *name);
/* The values, in episode order, of the episodes.csv column `column` (one
 * of the report's episode_columns) for the cell of controller c and seed
 * s; *n their count.  NULL (and *n 0) otherwise.  Valid until point()
 * returns. */
TRIVIUM_API const double *trivium_report_episode_values(const TrvReport *report, int c, int s, const char *column,
                                                        int *n);

/* ---- what a report declares ---- */

/* A table: NAME.csv with `csv` and NAME.md with `md`, in the point's
 * directory (point()) or the sweep's (sweep()).  False with *error for a
 * bad or repeated name. */
TRIVIUM_API bool trivium_report_table(TrvReport *report, const char *name, const char *csv, const char *md,
                                      GError **error);
/* Markdown that follows the run's own tables: in the point's summary.md
 * and on the terminal (point()), on the terminal after the sweep's table
 * (sweep()).  Successive texts are appended. */
TRIVIUM_API void trivium_report_text(TrvReport *report, const char *md);

/* A figure of a sweep: one measure against the sweep's points, a line per
 * series, each point a value with its interval. */
typedef struct {
  const char *name;    /* figures/NAME.{dat,gp,txt,svg,png} */
  const char *caption; /* NAME.txt: what is plotted, in words */
  const char *measure; /* its name, and its words with the unit for the axis */
  const char *label;
  double lower, upper; /* the measure's domain: intervals are clipped to it */
  int n_series;
  const char *const *series; /* the series' names */
  const double *rows;        /* per point and series (point-major): value, lo, hi */
} TrvReportFigure;
/* Declares the figure (sweep() only: false with *error in point(), for a
 * bad or repeated name, or without series).  The figure is copied. */
TRIVIUM_API bool trivium_report_figure(TrvReport *report, const TrvReportFigure *figure, GError **error);

G_END_DECLS

#endif
