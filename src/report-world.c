/* report-world.c - a world's own report (trivium/report.h) in a run: the
 * program hands each point's results, then a sweep's points, to the
 * report the world declares, and writes what the report declared.  The
 * program knows no world: a world without a report gets nothing here.
 *
 * A point's report runs once its cells are merged and before its
 * summary.md, which ends with the report's text; its tables go to the
 * point's directory after the run's own files.  The episodes.csv columns
 * the report names are read back from the point's episodes.csv
 * (episode-columns.c: bounded, every field it uses checked), so a merged
 * run (cells run elsewhere) gives the same tables.  A sweep's report runs
 * after the sweep's own table, with what each point's report kept: its
 * tables go to the sweep's directory, its text to the terminal, its
 * figures to figures/ against the sweep's points. */
#include <config.h>

#include <string.h>

#include "core/out-file.h"
#include "core/world-report.h"
#include "episode-columns.h"
#include "figures.h"
#include "run.h"

/* NAME.csv and NAME.md of every table the report declared, in dir. */
static bool write_tables(const TrvReport *report, const char *dir, GError **error) {
  bool ok = true;
  for (int i = 0; ok && i < trv_report_n_tables(report); i++) {
    const char *name, *csv, *md;
    trv_report_table_at(report, i, &name, &csv, &md);
    char *base = g_build_filename(dir, name, NULL);
    char *pcsv = g_strconcat(base, ".csv", NULL), *pmd = g_strconcat(base, ".md", NULL);
    ok = trv_write_file_atomic(pcsv, csv, (gssize)strlen(csv), error) &&
         trv_write_file_atomic(pmd, md, (gssize)strlen(md), error);
    g_free(pcsv);
    g_free(pmd);
    g_free(base);
  }
  return ok;
}

/* The report's episode columns of the point's cells, from dir/episodes.csv. */
static bool read_columns(TrvReport *report, const TrvRunResult *res, const char *dir, const char *const *columns,
                         GError **error) {
  char *path = g_build_filename(dir, "episodes.csv", NULL);
  long max_rows = (long)res->n_controllers * res->n_seeds * res->layout->episodes;
  GPtrArray *cells = trv_episode_columns_read(path, res->controllers, res->n_controllers, columns, max_rows, error);
  g_free(path);
  if (!cells) return false;
  for (guint i = 0; i < cells->len; i++) {
    const TrvEpisodeColumns *cell = g_ptr_array_index(cells, i);
    int s = 0;
    while (s < res->n_seeds && res->seeds[s] != cell->seed) s++;
    if (s == res->n_seeds) continue; /* a seed the run does not have: no cell of it */
    for (int k = 0; k < cell->n_columns; k++)
      trv_report_add_episode_values(report, cell->controller, s, k, (const double *)cell->values[k]->data,
                                    (int)cell->values[k]->len);
  }
  g_ptr_array_free(cells, TRUE);
  return true;
}

bool trv_world_report_point(const TrvRunResult *res, const char *dir, const TrvSweepTable *sweep, char **point_values,
                            TrvReport **out, void **state, GError **error) {
  *out = NULL;
  *state = NULL;
  const TrvReportClass *rc = res->world_class ? res->world_class->report : NULL;
  if (!rc || !rc->point) return true;
  GPtrArray *values = NULL; /* the sweep's points so far, then this one */
  if (sweep) {
    values = g_ptr_array_new();
    for (guint i = 0; i < sweep->values->len; i++) g_ptr_array_add(values, g_ptr_array_index(sweep->values, i));
    g_ptr_array_add(values, point_values);
  }
  TrvReportInput in = {.world = res->world_class->name,
                       .experiment = res->experiment,
                       .controllers = res->controllers,
                       .n_controllers = res->n_controllers,
                       .seeds = res->seeds,
                       .n_seeds = res->n_seeds,
                       .keys = sweep ? sweep->keys : NULL,
                       .n_keys = sweep ? sweep->n_keys : 0,
                       .values = values,
                       .point = sweep ? (int)sweep->values->len : 0,
                       .params = res->params,
                       .episodes = res->layout->episodes,
                       .cells = res->cells,
                       .metric_names = res->layout->metric_names,
                       .episode_columns = rc->episode_columns};
  TrvReport *report = trv_report_new(&in);
  bool ok =
      !rc->episode_columns || !rc->episode_columns[0] || read_columns(report, res, dir, rc->episode_columns, error);
  GError *e = NULL;
  if (ok && !rc->point(report, state, &e)) {
    ok = false;
    if (e)
      g_propagate_error(error, e);
    else
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "world %s: its report failed with no message", in.world);
  }
  if (values) g_ptr_array_free(values, TRUE);
  if (!ok) {
    trv_world_report_state_free(res->world_class, *state);
    *state = NULL;
    trv_report_free(report);
    return false;
  }
  *out = report;
  return true;
}

bool trv_world_report_point_write(const TrvReport *report, const char *dir, GError **error) {
  return !report || write_tables(report, dir, error);
}

void trv_world_report_state_free(const TrvWorldClass *wc, void *state) {
  if (!state) return;
  const TrvReportClass *rc = wc ? wc->report : NULL;
  if (rc && rc->free_state)
    rc->free_state(state);
  else
    g_free(state);
}

bool trv_world_report_sweep(const TrvSweepTable *sw, const char *dir, FILE *table, const char *experiment, int seeds,
                            GError **error) {
  const TrvReportClass *rc = sw->world_class ? sw->world_class->report : NULL;
  if (!rc || !rc->sweep) return true;
  int n_points = (int)sw->values->len;
  TrvReportInput in = {.world = sw->world_class->name,
                       .experiment = experiment,
                       .controllers = (const char *const *)sw->controllers,
                       .n_controllers = sw->n_controllers,
                       .n_seeds = seeds,
                       .keys = sw->keys,
                       .n_keys = sw->n_keys,
                       .values = sw->values,
                       .point = -1};
  TrvReport *report = trv_report_new(&in);
  GError *e = NULL;
  bool ok = rc->sweep(report, sw->report_states->pdata, n_points, &e);
  if (!ok && e)
    g_propagate_error(error, e);
  else if (!ok)
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "world %s: its report failed with no message", in.world);
  ok = ok && write_tables(report, dir, error);
  const char *text = trv_report_text_of(report);
  if (ok && table && text) fputs(text, table);
  if (ok && trv_report_n_figures(report) > 0) {
    char *key = g_strjoinv(", ", sw->keys);
    char **ticks = g_new0(char *, (size_t)n_points + 1);
    for (int p = 0; p < n_points; p++) ticks[p] = g_strjoinv(", ", g_ptr_array_index(sw->values, p));
    for (int i = 0; ok && i < trv_report_n_figures(report); i++)
      ok = trv_write_report_figure(dir, trv_report_figure_at(report, i), key, ticks, n_points, error);
    g_strfreev(ticks);
    g_free(key);
  }
  trv_report_free(report);
  return ok;
}
