/* world-report.c - a world's report (trivium/report.h): what it reads of a
 * point or a sweep, and what it declares, kept until the program writes
 * it.  See world-report.h.
 *
 * Invariants: every read is bounded by the input (an index out of range,
 * a column the report did not name: NULL or -1, never a read past an
 * array); a declared name is checked when it is declared (letters,
 * digits, '-' and '_', not a file of the run's own, not declared before),
 * so that the program writes only names it could have chosen itself;
 * what is declared is copied. */
#include "world-report.h"

#include <string.h>

typedef struct {
  char *name, *csv, *md;
} Table;

struct TrvReport {
  TrvReportInput in;
  int n_columns;
  GArray **columns;   /* [(c * n_seeds + s) * n_columns + k], NULL until a value comes */
  GPtrArray *tables;  /* Table */
  GString *text;      /* NULL until some comes */
  GPtrArray *figures; /* TrvReportFigure, every string and array owned */
  GHashTable *names;  /* declared "table:NAME" and "figure:NAME" */
};

/* The run's own files, which no report may declare. */
static const char *const own_names[] = {"episodes",   "summary",  "run",        "jobs",   "sweep",
                                        "sweep-fits", "speedup",  "saturation", "faults", "regret",
                                        "presence",   "recovery", NULL};

static void table_free(Table *t) {
  g_free(t->name);
  g_free(t->csv);
  g_free(t->md);
  g_free(t);
}

static void figure_free(TrvReportFigure *f) {
  g_free((char *)f->name);
  g_free((char *)f->caption);
  g_free((char *)f->measure);
  g_free((char *)f->label);
  g_strfreev((char **)f->series);
  g_free((double *)f->rows);
  g_free(f);
}

TrvReport *trv_report_new(const TrvReportInput *in) {
  TrvReport *r = g_new0(TrvReport, 1);
  r->in = *in;
  r->n_columns = in->episode_columns ? (int)g_strv_length((char **)in->episode_columns) : 0;
  if (in->point >= 0 && r->n_columns > 0)
    r->columns = g_new0(GArray *, (size_t)in->n_controllers * (size_t)in->n_seeds * (size_t)r->n_columns);
  r->tables = g_ptr_array_new_with_free_func((GDestroyNotify)table_free);
  r->figures = g_ptr_array_new_with_free_func((GDestroyNotify)figure_free);
  r->names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  return r;
}

void trv_report_free(TrvReport *r) {
  if (!r) return;
  size_t n = r->columns ? (size_t)r->in.n_controllers * (size_t)r->in.n_seeds * (size_t)r->n_columns : 0;
  for (size_t i = 0; i < n; i++)
    if (r->columns[i]) g_array_free(r->columns[i], TRUE);
  g_free(r->columns);
  g_ptr_array_free(r->tables, TRUE);
  g_ptr_array_free(r->figures, TRUE);
  g_hash_table_destroy(r->names);
  if (r->text) g_string_free(r->text, TRUE);
  g_free(r);
}

static bool cell_ok(const TrvReport *r, int c, int s) {
  return c >= 0 && c < r->in.n_controllers && s >= 0 && s < r->in.n_seeds;
}

void trv_report_add_episode_values(TrvReport *r, int c, int s, int column, const double *values, int n) {
  g_return_if_fail(r->columns && cell_ok(r, c, s) && column >= 0 && column < r->n_columns && n >= 0);
  GArray **a = &r->columns[((size_t)c * (size_t)r->in.n_seeds + (size_t)s) * (size_t)r->n_columns + (size_t)column];
  if (!*a) *a = g_array_new(FALSE, FALSE, sizeof(double));
  g_array_append_vals(*a, values, (guint)n);
}

int trv_report_n_tables(const TrvReport *r) { return (int)r->tables->len; }

void trv_report_table_at(const TrvReport *r, int i, const char **name, const char **csv, const char **md) {
  const Table *t = g_ptr_array_index(r->tables, (guint)i);
  *name = t->name, *csv = t->csv, *md = t->md;
}

const char *trv_report_text_of(const TrvReport *r) { return r->text ? r->text->str : NULL; }

int trv_report_n_figures(const TrvReport *r) { return (int)r->figures->len; }

const TrvReportFigure *trv_report_figure_at(const TrvReport *r, int i) {
  return g_ptr_array_index(r->figures, (guint)i);
}

static void csv_text(GString *s, const char *t) {
  if (!strpbrk(t, ",\"\n")) {
    g_string_append(s, t);
    return;
  }
  g_string_append_c(s, '"');
  for (; *t; t++) {
    if (*t == '"') g_string_append_c(s, '"');
    g_string_append_c(s, *t);
  }
  g_string_append_c(s, '"');
}

void trv_report_cells(GString *csv, GString *md, char *const *texts, int n) {
  for (int i = 0; i < n; i++) {
    g_string_append_c(csv, ',');
    csv_text(csv, texts[i]);
    g_string_append_printf(md, " | %s", texts[i]);
  }
}

/* ---- what a report reads ---- */

const char *trivium_report_experiment(const TrvReport *r) { return r->in.experiment; }
int trivium_report_n_controllers(const TrvReport *r) { return r->in.n_controllers; }

const char *trivium_report_controller(const TrvReport *r, int c) {
  return c >= 0 && c < r->in.n_controllers ? r->in.controllers[c] : NULL;
}

int trivium_report_controller_index(const TrvReport *r, const char *name) {
  for (int c = 0; name && c < r->in.n_controllers; c++)
    if (!strcmp(r->in.controllers[c], name)) return c;
  return -1;
}

int trivium_report_n_seeds(const TrvReport *r) { return r->in.n_seeds; }
int trivium_report_seed(const TrvReport *r, int s) {
  return r->in.seeds && s >= 0 && s < r->in.n_seeds ? r->in.seeds[s] : -1;
}
int trivium_report_n_keys(const TrvReport *r) { return r->in.n_keys; }
const char *trivium_report_key(const TrvReport *r, int k) { return k >= 0 && k < r->in.n_keys ? r->in.keys[k] : NULL; }

const char *trivium_report_value(const TrvReport *r, int point, int k) {
  if (!r->in.values || point < 0 || point >= (int)r->in.values->len || k < 0 || k >= r->in.n_keys) return NULL;
  return ((char **)g_ptr_array_index(r->in.values, (guint)point))[k];
}

void trivium_report_point_cells(const TrvReport *r, int point, GString *csv, GString *md) {
  if (!csv || !md) return;
  if (point == -1) {
    trv_report_cells(csv, md, r->in.keys, r->in.n_keys);
  } else if (r->in.values && point >= 0 && point < (int)r->in.values->len) {
    trv_report_cells(csv, md, g_ptr_array_index(r->in.values, (guint)point), r->in.n_keys);
  }
}

int trivium_report_point(const TrvReport *r) { return r->in.point; }
const TrvParams *trivium_report_params(const TrvReport *r) { return r->in.point >= 0 ? r->in.params : NULL; }
int trivium_report_episodes(const TrvReport *r) { return r->in.point >= 0 ? r->in.episodes : 0; }

const TrvCellSummary *trivium_report_cell(const TrvReport *r, int c, int s) {
  if (r->in.point < 0 || !r->in.cells || !cell_ok(r, c, s)) return NULL;
  return &r->in.cells[(size_t)c * (size_t)r->in.n_seeds + (size_t)s];
}

int trivium_report_world_metric(const TrvReport *r, const char *name) {
  for (int k = 0; name && r->in.point >= 0 && r->in.metric_names && r->in.metric_names[k]; k++)
    if (!strcmp(r->in.metric_names[k], name)) return k;
  return -1;
}

const double *trivium_report_episode_values(const TrvReport *r, int c, int s, const char *column, int *n) {
  *n = 0;
  if (!r->columns || !column || !cell_ok(r, c, s)) return NULL;
  for (int k = 0; k < r->n_columns; k++) {
    if (strcmp(r->in.episode_columns[k], column)) continue;
    const GArray *a = r->columns[((size_t)c * (size_t)r->in.n_seeds + (size_t)s) * (size_t)r->n_columns + (size_t)k];
    if (!a) return NULL;
    *n = (int)a->len;
    return (const double *)a->data;
  }
  return NULL;
}

/* ---- what a report declares ---- */

/* A name the report may declare: failing with *error (naming the world
 * and `what`) otherwise; the name is then taken. */
static bool claim_name(TrvReport *r, const char *name, const char *what, GError **error) {
  const char *why = NULL;
  size_t len = name ? strlen(name) : 0;
  if (len == 0 || len > 64) why = "1 to 64 letters, digits, '-' and '_'";
  for (size_t i = 0; !why && i < len; i++)
    if (!g_ascii_isalnum(name[i]) && name[i] != '-' && name[i] != '_') why = "1 to 64 letters, digits, '-' and '_'";
  if (!why && g_strv_contains(own_names, name)) why = "a name that is not one of the run's own files";
  char *key = g_strdup_printf("%s:%s", what, name ? name : ""); /* tables and figures go to different directories */
  if (!why && g_hash_table_contains(r->names, key)) why = "a name not declared before";
  if (why) {
    char *shown = name ? g_strescape(name, NULL) : g_strdup("(null)");
    if (strlen(shown) > 80) shown[80] = '\0';
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "world %s: its report declares a %s '%s'; expected %s", r->in.world,
                what, shown, why);
    g_free(shown);
    g_free(key);
    return false;
  }
  g_hash_table_add(r->names, key);
  return true;
}

bool trivium_report_table(TrvReport *r, const char *name, const char *csv, const char *md, GError **error) {
  if (!claim_name(r, name, "table", error)) return false;
  Table *t = g_new0(Table, 1);
  t->name = g_strdup(name);
  t->csv = g_strdup(csv ? csv : "");
  t->md = g_strdup(md ? md : "");
  g_ptr_array_add(r->tables, t);
  return true;
}

void trivium_report_text(TrvReport *r, const char *md) {
  if (!md) return;
  if (!r->text) r->text = g_string_new(NULL);
  g_string_append(r->text, md);
}

bool trivium_report_figure(TrvReport *r, const TrvReportFigure *f, GError **error) {
  if (r->in.point >= 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "world %s: its report declares a figure for a point; expected "
                "figures of a sweep only",
                r->in.world);
    return false;
  }
  if (!f || f->n_series < 1 || !f->series || !f->rows || !f->measure) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "world %s: its report declares a figure without a measure, "
                "series or rows; expected at least one series",
                r->in.world);
    return false;
  }
  for (int i = 0; i < f->n_series; i++)
    if (!f->series[i]) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "world %s: its report's figure %s has an unnamed series",
                  r->in.world, f->name ? f->name : "(null)");
      return false;
    }
  if (!claim_name(r, f->name, "figure", error)) return false;
  TrvReportFigure *copy = g_new0(TrvReportFigure, 1);
  copy->name = g_strdup(f->name);
  copy->caption = g_strdup(f->caption ? f->caption : "");
  copy->measure = g_strdup(f->measure);
  copy->label = g_strdup(f->label ? f->label : f->measure);
  copy->lower = f->lower, copy->upper = f->upper;
  copy->n_series = f->n_series;
  char **series = g_new0(char *, (size_t)f->n_series + 1);
  for (int i = 0; i < f->n_series; i++) series[i] = g_strdup(f->series[i]);
  copy->series = (const char *const *)series;
  int n_points = r->in.values ? (int)r->in.values->len : 0;
  copy->rows = g_memdup2(f->rows, sizeof(double) * 3 * (size_t)n_points * (size_t)f->n_series);
  g_ptr_array_add(r->figures, copy);
  return true;
}
