/* A world's report (trivium/report.h, plugin/core/world-report.c) as the
 * program hands it over: every read is bounded by the point (an index out
 * of range or a column the report did not name gives NULL or -1), a
 * sweep's report reads no cell, what a report declares is checked when it
 * is declared (a name of the run's own, a path, a repeated name, a figure
 * of a point, a figure without series are refused with an error naming
 * the world) and copied, and a point's values go into the sweep's tables
 * quoted as the sweep's own tables quote them.  The built-in reports
 * (llm-report.c, warehouse-report.c) are run end to end by tests/llm.sh
 * and tests/warehouse.sh. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "core/params.h"
#include "core/world-report.h"

static const char *const controllers[] = {"trivium", "rlvr"};
static const int seeds[] = {7, 8, 9};
static const char *const metrics[] = {"unreliable", "capitulation", NULL};
static const char *const columns[] = {"ideal", "delivered", NULL};

/* A point of 2 controllers x 3 seeds, its cells numbered 10 c + s in
 * their e_commit metric, in a sweep of one key whose points so far hold
 * "0.1" and "a,b". */
typedef struct {
  TrvCellSummary cells[6];
  TrvParams params;
  char *keys[2];
  GPtrArray *values;
} Point;

static void point_init(Point *p) {
  memset(p, 0, sizeof *p);
  for (int c = 0; c < 2; c++)
    for (int s = 0; s < 3; s++) p->cells[c * 3 + s].metric[TRV_METRIC_E_COMMIT] = 10 * c + s;
  trv_params_defaults(&p->params);
  p->keys[0] = "world.eps";
  p->values = g_ptr_array_new();
  static char *v0[] = {"0.1", NULL}, *v1[] = {"a,b", NULL};
  g_ptr_array_add(p->values, v0);
  g_ptr_array_add(p->values, v1);
}

static TrvReport *point_report(Point *p, int point) {
  TrvReportInput in = {.world = "w",
                       .experiment = "exp",
                       .controllers = controllers,
                       .n_controllers = 2,
                       .seeds = seeds,
                       .n_seeds = 3,
                       .keys = p->keys,
                       .n_keys = 1,
                       .values = p->values,
                       .point = point,
                       .params = &p->params,
                       .episodes = 4,
                       .cells = p->cells,
                       .metric_names = metrics,
                       .episode_columns = columns};
  return trv_report_new(&in);
}

static void a_point_reads_its_cells_and_nothing_past_them(void) {
  Point p;
  point_init(&p);
  TrvReport *r = point_report(&p, 1);
  g_assert_cmpstr(trivium_report_experiment(r), ==, "exp");
  g_assert_cmpint(trivium_report_point(r), ==, 1);
  g_assert_cmpint(trivium_report_controller_index(r, "rlvr"), ==, 1);
  g_assert_cmpint(trivium_report_controller_index(r, "dqn"), ==, -1);
  g_assert_cmpstr(trivium_report_controller(r, 1), ==, "rlvr");
  g_assert_null(trivium_report_controller(r, 2));
  g_assert_null(trivium_report_controller(r, -1));
  g_assert_cmpint(trivium_report_seed(r, 2), ==, 9);
  g_assert_cmpint(trivium_report_seed(r, 3), ==, -1);
  g_assert_cmpfloat(trivium_report_cell(r, 1, 2)->metric[TRV_METRIC_E_COMMIT], ==, 12);
  g_assert_cmpfloat(trivium_report_cell(r, 0, 1)->metric[TRV_METRIC_E_COMMIT], ==, 1);
  g_assert_null(trivium_report_cell(r, 2, 0));
  g_assert_null(trivium_report_cell(r, 0, 3));
  g_assert_null(trivium_report_cell(r, -1, 0));
  g_assert_cmpint(trivium_report_world_metric(r, "capitulation"), ==, 1);
  g_assert_cmpint(trivium_report_world_metric(r, "delivered"), ==, -1);
  g_assert_cmpstr(trivium_report_key(r, 0), ==, "world.eps");
  g_assert_null(trivium_report_key(r, 1));
  g_assert_cmpstr(trivium_report_value(r, 1, 0), ==, "a,b");
  g_assert_null(trivium_report_value(r, 2, 0));
  g_assert_null(trivium_report_value(r, 0, 1));
  g_assert_cmpint(trivium_report_episodes(r), ==, 4);
  g_assert_true(trivium_report_params(r) == &p.params);
  trv_report_free(r);
  g_ptr_array_free(p.values, TRUE);
}

static void episode_values_come_per_cell_and_column_in_order(void) {
  Point p;
  point_init(&p);
  TrvReport *r = point_report(&p, 0);
  const double a[] = {1, 2}, b[] = {3}, d[] = {5, 6, 7};
  trv_report_add_episode_values(r, 1, 2, 0, a, 2);
  trv_report_add_episode_values(r, 1, 2, 0, b, 1); /* rows of the same cell further down the file */
  trv_report_add_episode_values(r, 1, 2, 1, d, 3);
  int n = -1;
  const double *v = trivium_report_episode_values(r, 1, 2, "ideal", &n);
  g_assert_cmpint(n, ==, 3);
  g_assert_cmpfloat(v[0], ==, 1);
  g_assert_cmpfloat(v[2], ==, 3);
  v = trivium_report_episode_values(r, 1, 2, "delivered", &n);
  g_assert_cmpint(n, ==, 3);
  g_assert_cmpfloat(v[1], ==, 6);
  g_assert_null(trivium_report_episode_values(r, 1, 2, "reward", &n)); /* not named by the report */
  g_assert_cmpint(n, ==, 0);
  g_assert_null(trivium_report_episode_values(r, 0, 0, "ideal", &n)); /* no rows */
  g_assert_cmpint(n, ==, 0);
  g_assert_null(trivium_report_episode_values(r, 2, 0, "ideal", &n));
  g_assert_null(trivium_report_episode_values(r, 0, -1, "ideal", &n));
  trv_report_free(r);
  g_ptr_array_free(p.values, TRUE);
}

/* name is refused as a table, with a message naming the world and saying `why`. */
static void assert_table_refused(TrvReport *r, const char *name, const char *why) {
  GError *err = NULL;
  g_assert_false(trivium_report_table(r, name, "a\n", "b\n", &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  if (!g_str_has_prefix(err->message, "world w: its report declares a table") || !strstr(err->message, why))
    g_error("'%s': expected the world named and '%s'", err->message, why);
  g_error_free(err);
}

static void declared_names_are_checked_when_declared(void) {
  Point p;
  point_init(&p);
  TrvReport *r = point_report(&p, 0);
  GError *err = NULL;
  g_assert_true(trivium_report_table(r, "grounding", "a,b\n1,2\n", "| a |\n", &err));
  g_assert_no_error(err);
  assert_table_refused(r, "grounding", "not declared before");
  assert_table_refused(r, "summary", "not one of the run's own files");
  assert_table_refused(r, "sweep", "not one of the run's own files");
  assert_table_refused(r, "../summary", "letters, digits");
  assert_table_refused(r, "a/b", "letters, digits");
  assert_table_refused(r, "", "1 to 64");
  assert_table_refused(r, NULL, "1 to 64");
  char *long_name = g_strnfill(65, 'x');
  assert_table_refused(r, long_name, "1 to 64");
  g_free(long_name);
  g_assert_true(trivium_report_table(r, "grounding-2_b", NULL, NULL, &err));
  /* a figure is a sweep's */
  const double rows[] = {1, 0, 2};
  const char *const series[] = {"s"};
  TrvReportFigure f = {.name = "fig", .measure = "m", .n_series = 1, .series = series, .rows = rows};
  g_assert_false(trivium_report_figure(r, &f, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "figures of a sweep only"));
  g_clear_error(&err);
  /* what was declared, copied, in order */
  g_assert_cmpint(trv_report_n_tables(r), ==, 2);
  const char *name, *csv, *md;
  trv_report_table_at(r, 0, &name, &csv, &md);
  g_assert_cmpstr(name, ==, "grounding");
  g_assert_cmpstr(csv, ==, "a,b\n1,2\n");
  trv_report_table_at(r, 1, &name, &csv, &md);
  g_assert_cmpstr(name, ==, "grounding-2_b");
  g_assert_cmpstr(csv, ==, "");
  g_assert_null(trv_report_text_of(r));
  trivium_report_text(r, "one\n");
  trivium_report_text(r, NULL);
  trivium_report_text(r, "two\n");
  g_assert_cmpstr(trv_report_text_of(r), ==, "one\ntwo\n");
  trv_report_free(r);
  g_ptr_array_free(p.values, TRUE);
}

static void a_sweep_reads_its_points_and_declares_figures(void) {
  Point p;
  point_init(&p);
  TrvReportInput in = {.world = "w",
                       .experiment = "exp",
                       .controllers = controllers,
                       .n_controllers = 2,
                       .n_seeds = 3,
                       .keys = p.keys,
                       .n_keys = 1,
                       .values = p.values,
                       .point = -1};
  TrvReport *r = trv_report_new(&in);
  g_assert_null(trivium_report_cell(r, 0, 0)); /* a sweep has no cells */
  g_assert_null(trivium_report_params(r));
  g_assert_cmpint(trivium_report_seed(r, 0), ==, -1);
  g_assert_cmpint(trivium_report_world_metric(r, "unreliable"), ==, -1);
  GString *csv = g_string_new("point"), *md = g_string_new("| point");
  trivium_report_point_cells(r, -1, csv, md);
  trivium_report_point_cells(r, 1, csv, md);
  trivium_report_point_cells(r, 2, csv, md); /* no such point: nothing */
  g_assert_cmpstr(csv->str, ==, "point,world.eps,\"a,b\"");
  g_assert_cmpstr(md->str, ==, "| point | world.eps | a,b");
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  double rows[2 * 2 * 3] = {1, 0.5, 1.5, 2, 2, 2, 3, 2.5, 3.5, 4, 4, 4};
  const char *series[] = {"measured", "bound"};
  TrvReportFigure f = {.name = "grounding",
                       .caption = "c\n",
                       .measure = "W1",
                       .label = "W1 (units)",
                       .lower = 0,
                       .upper = INFINITY,
                       .n_series = 2,
                       .series = series,
                       .rows = rows};
  GError *err = NULL;
  g_assert_true(trivium_report_table(r, "grounding", "x\n", "y\n", &err)); /* a table and a figure may share a name */
  g_assert_true(trivium_report_figure(r, &f, &err));
  g_assert_no_error(err);
  rows[0] = 99; /* the report keeps its own copy */
  series[0] = "changed";
  g_assert_false(trivium_report_figure(r, &f, &err));
  g_assert_nonnull(strstr(err->message, "not declared before"));
  g_clear_error(&err);
  TrvReportFigure none = {.name = "empty", .measure = "m", .n_series = 0, .series = series, .rows = rows};
  g_assert_false(trivium_report_figure(r, &none, &err));
  g_assert_nonnull(strstr(err->message, "at least one series"));
  g_clear_error(&err);
  g_assert_cmpint(trv_report_n_figures(r), ==, 1);
  const TrvReportFigure *kept = trv_report_figure_at(r, 0);
  g_assert_cmpstr(kept->series[0], ==, "measured");
  g_assert_cmpfloat(kept->rows[0], ==, 1);
  g_assert_cmpfloat(kept->rows[11], ==, 4);
  g_assert_cmpstr(kept->label, ==, "W1 (units)");
  trv_report_free(r);
  g_ptr_array_free(p.values, TRUE);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/world-report/a_point_reads_its_cells_and_nothing_past_them",
                  a_point_reads_its_cells_and_nothing_past_them);
  g_test_add_func("/world-report/episode_values_come_per_cell_and_column_in_order",
                  episode_values_come_per_cell_and_column_in_order);
  g_test_add_func("/world-report/declared_names_are_checked_when_declared", declared_names_are_checked_when_declared);
  g_test_add_func("/world-report/a_sweep_reads_its_points_and_declares_figures",
                  a_sweep_reads_its_points_and_declares_figures);
  return g_test_run();
}
