/* world-report.h - the reports of worlds (trivium/report.h) from the side
 * of the program that writes them: a TrvReport made from a point's results
 * or a sweep's points, handed to the world's report, and what the report
 * declared read back (world-report.c).
 *
 * The TrvReport borrows everything it is made from (the program keeps it
 * alive while the report runs) and owns what the report declares. */
#ifndef TRV_WORLD_REPORT_H
#define TRV_WORLD_REPORT_H

#include <glib.h>
#include <stdbool.h>
#include <trivium/report.h>

/* What a report reads: a point (point >= 0, with params, cells and the
 * names of the world's metrics) or a sweep (point -1). */
typedef struct {
  const char *world; /* the world's name, for messages */
  const char *experiment;
  const char *const *controllers;
  int n_controllers;
  const int *seeds;
  int n_seeds;
  char *const *keys; /* the swept keys (n_keys of them; 0 for a run of one point) */
  int n_keys;
  const GPtrArray *values; /* per point so far: char ** of n_keys values */
  int point;
  const TrvParams *params;
  int episodes;
  const TrvCellSummary *cells; /* cells[c * n_seeds + s] */
  const char *const *metric_names;
  const char *const *episode_columns; /* the report's (TrvReportClass.episode_columns) */
} TrvReportInput;

TrvReport *trv_report_new(const TrvReportInput *in);
void trv_report_free(TrvReport *report);
/* Appends n values of episode column `column` (an index into
 * episode_columns) to the cell of controller c and seed s. */
void trv_report_add_episode_values(TrvReport *report, int c, int s, int column, const double *values, int n);

/* What the report declared, in the order it declared it. */
int trv_report_n_tables(const TrvReport *report);
void trv_report_table_at(const TrvReport *report, int i, const char **name, const char **csv, const char **md);
/* The text (NULL: none). */
const char *trv_report_text_of(const TrvReport *report);
int trv_report_n_figures(const TrvReport *report);
const TrvReportFigure *trv_report_figure_at(const TrvReport *report, int i);

/* Appends ",TEXT" to csv (quoted when it holds a comma, a quote or a
 * newline) and " | TEXT" to md for each of the n texts: a table's key
 * names or a point's values. */
void trv_report_cells(GString *csv, GString *md, char *const *texts, int n);

#endif
