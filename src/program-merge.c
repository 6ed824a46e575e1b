/* program-merge.c - `trivium merge OUT DIR...`: the run directories of
 * several processes of one SimGrid program (trivium_results_write_dir,
 * one cell each: a controller and a seed) joined into OUT as one run of
 * those controllers and seeds, with the episodes.csv, summary.csv,
 * summary.md and figures/ that `trivium run` writes for the same cells.
 *
 * Every directory is an input: its run.json is read and checked by
 * program-run.c, its episodes.csv read under a size limit and its header
 * compared with the first's.  The runs must be of one experiment: the same
 * world, candidate graph, metrics, change-points, episodes and every
 * setting of the parameter table alike; they differ only in controller and
 * seed, each pair once, and together they fill the grid of controllers
 * (in the order trivium run lists them) by seeds (ascending).  Anything
 * else is one TRV_ERROR_INPUT line naming the directory and what differs;
 * nothing is written to OUT before every input passed. */
#include <string.h>

#include "core/controller.h"
#include "core/input.h"
#include "core/out-file.h"
#include "figures.h"
#include "program-merge.h"
#include "program-report.h"
#include "program-run.h"
#include "report.h"

#define MERGE_MAX_DIRS 65536
#define EPISODES_MAX_BYTES ((size_t)1 << 30)

typedef struct {
  const char *dir;
  TrvProgramRunFile *run;
  int controller; /* index into trv_controller_names */
} Part;

static int cmp_part(const void *a, const void *b) {
  const Part *x = a, *y = b;
  if (x->controller != y->controller) return x->controller < y->controller ? -1 : 1;
  return x->run->seed < y->run->seed ? -1 : x->run->seed > y->run->seed;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}

static int controller_index(const char *name) {
  for (int i = 0; trv_controller_names()[i]; i++)
    if (!strcmp(trv_controller_names()[i], name)) return i;
  return -1;
}

/* Whether run b is of the same experiment as run a; else *error names
 * dir_b and what differs. */
static bool same_experiment(const Part *a, const Part *b, GError **error) {
  const TrvProgramRunFile *x = a->run, *y = b->run;
  const char *what = NULL;
  char *detail = NULL;
  if (strcmp(x->world.name, y->world.name))
    what = "its world";
  else if (x->layout.episodes != y->layout.episodes)
    what = "its number of episodes";
  else if (x->cand.n_vars != y->cand.n_vars || x->cand.n_components != y->cand.n_components)
    what = "its candidate graph";
  else if (x->layout.n_change_points != y->layout.n_change_points ||
           memcmp(x->layout.change_points, y->layout.change_points,
                  sizeof x->layout.change_points[0] * (size_t)x->layout.n_change_points))
    what = "its change-points";
  for (int v = 0; !what && v < x->cand.n_vars; v++)
    if (strcmp(x->cand.var_names[v], y->cand.var_names[v])) what = "its candidate graph";
  for (int j = 0; !what && j < x->cand.n_components; j++)
    if (strcmp(x->cand.components[j].name, y->cand.components[j].name)) what = "its candidate graph";
  for (int m = 0; !what && (x->metric_names[m] || y->metric_names[m]); m++)
    if (!x->metric_names[m] || !y->metric_names[m] || strcmp(x->metric_names[m], y->metric_names[m]))
      what = "its world's metrics";
  size_t n_specs;
  const TrvParamSpec *specs = trv_param_specs(&n_specs);
  for (size_t i = 0; !what && i < n_specs; i++) {
    char *u = trv_params_format(&x->params, &specs[i]), *w = trv_params_format(&y->params, &specs[i]);
    if (strcmp(u, w)) detail = g_strdup_printf("the setting %s: %s, where %s has %s", specs[i].key, w, a->dir, u);
    g_free(u);
    g_free(w);
    if (detail) what = detail;
  }
  if (!what) return true;
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
              "%s: %s differs from %s's: a merge joins runs of one experiment that differ only in controller and seed",
              b->dir, detail ? detail : what, a->dir);
  g_free(detail);
  return false;
}

/* OUT/episodes.csv's text: the parts' rows in cell order, under the
 * first's header; NULL with *error. */
static GString *merged_episodes(const Part *parts, int n, GError **error) {
  GString *all = g_string_new(NULL);
  char *header = NULL;
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    char *path = g_build_filename(parts[i].dir, "episodes.csv", NULL), *data = NULL;
    size_t len;
    ok = trv_input_read(path, EPISODES_MAX_BYTES, "episodes file", TRV_INPUT_REGULAR, &data, &len, error);
    const char *nl = ok ? memchr(data, '\n', len) : NULL;
    if (ok && (!nl || data[len - 1] != '\n' || strlen(data) != len)) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: expected a header line and rows, each ending in a newline",
                  path);
      ok = false;
    }
    if (ok && !header) header = g_strndup(data, (gsize)(nl - data + 1));
    if (ok && ((size_t)(nl - data + 1) != strlen(header) || strncmp(data, header, strlen(header)))) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: its header differs from %s/episodes.csv's", path,
                  parts[0].dir);
      ok = false;
    }
    if (ok && !i) g_string_append(all, header);
    if (ok) g_string_append_len(all, nl + 1, (gssize)(len - (size_t)(nl + 1 - data)));
    g_free(data);
    g_free(path);
  }
  g_free(header);
  if (ok) return all;
  g_string_free(all, TRUE);
  return NULL;
}

int trv_program_merge(const char *out, char *const *dirs, int n_dirs, bool quiet, GError **error) {
  if (n_dirs < 1 || n_dirs > MERGE_MAX_DIRS) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "merge: %d program directories; expected 1 to %d", n_dirs,
                MERGE_MAX_DIRS);
    return 2;
  }
  Part *parts = g_new0(Part, n_dirs);
  bool ok = true;
  for (int i = 0; ok && i < n_dirs; i++) {
    parts[i].dir = dirs[i];
    if (!trv_is_program_dir(dirs[i])) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "%s: not the run directory of a program "
                  "(a run.json written by trivium_results_write_dir, and no jobs.json)",
                  dirs[i]);
      ok = false;
      break;
    }
    char *path = g_build_filename(dirs[i], "run.json", NULL);
    parts[i].run = trv_program_run_load(path, error);
    g_free(path);
    ok = parts[i].run != NULL;
    if (ok) parts[i].controller = controller_index(parts[i].run->controller); /* checked by the reader */
    if (ok && i) ok = same_experiment(&parts[0], &parts[i], error);
  }
  if (ok) qsort(parts, (size_t)n_dirs, sizeof *parts, cmp_part);
  /* the grid: controllers x seeds, each cell once */
  int n_ctrl = 0, n_seeds = 0;
  int *controllers_i = g_new(int, n_dirs), *seeds = g_new(int, n_dirs);
  for (int i = 0; ok && i < n_dirs; i++) {
    if (i && !cmp_part(&parts[i - 1], &parts[i])) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s and %s: both are the run of controller %s, seed %d",
                  parts[i - 1].dir, parts[i].dir, parts[i].run->controller, parts[i].run->seed);
      ok = false;
    }
    if (!n_ctrl || controllers_i[n_ctrl - 1] != parts[i].controller) controllers_i[n_ctrl++] = parts[i].controller;
    seeds[n_seeds++] = parts[i].run->seed;
  }
  if (ok) { /* every seed any run has, once, ascending */
    qsort(seeds, (size_t)n_seeds, sizeof *seeds, cmp_int);
    int m = 0;
    for (int i = 0; i < n_seeds; i++)
      if (!m || seeds[m - 1] != seeds[i]) seeds[m++] = seeds[i];
    n_seeds = m;
  }
  /* parts are in grid order when the grid is full: the first cell that
   * differs is missing (found within n_dirs + 1 cells) */
  for (int i = 0; ok && i <= n_dirs; i++) {
    int c = controllers_i[i / n_seeds < n_ctrl ? i / n_seeds : n_ctrl - 1], seed = seeds[i % n_seeds];
    if (i == n_dirs ? (long)n_ctrl * n_seeds == n_dirs : parts[i].controller == c && parts[i].run->seed == seed)
      continue;
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "merge: no run of controller %s with seed %d among the %d "
                "directories: a merge needs every controller with every seed (%d controllers, %d seeds)",
                trv_controller_names()[c], seed, n_dirs, n_ctrl, n_seeds);
    ok = false;
  }
  GString *episodes = ok ? merged_episodes(parts, n_dirs, error) : NULL;
  int code = episodes ? 0 : (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
  char *dest = g_build_filename(out, "episodes.csv", NULL);
  if (!code &&
      (!trv_out_dir(out, true, error) || !trv_write_file_atomic(dest, episodes->str, (gssize)episodes->len, error)))
    code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
  g_free(dest);
  if (episodes) g_string_free(episodes, TRUE);
  if (!code) {
    TrvCellSummary *cells = g_new(TrvCellSummary, n_dirs);
    const char **controllers = g_new(const char *, n_ctrl);
    for (int i = 0; i < n_dirs; i++) cells[i] = *parts[i].run->sum;
    for (int c = 0; c < n_ctrl; c++) controllers[c] = trv_controller_names()[controllers_i[c]];
    TrvProgramRunFile *p = parts[0].run;
    TrvCellLayout layout = p->layout;
    layout.controller = NULL;
    char *experiment = g_strdup_printf("program (%s)", p->world.name);
    char **truth_files = g_new0(char *, n_seeds + 1); /* the first controller's runs, by seed */
    for (int s = 0; s < n_seeds; s++) truth_files[s] = g_build_filename(parts[s].dir, "episodes.csv", NULL);
    TrvRunResult res = {.experiment = experiment,
                        .params = &p->params,
                        .world_class = trv_program_world(p),
                        .layout = &layout,
                        .controllers = controllers,
                        .n_controllers = n_ctrl,
                        .n_seeds = n_seeds,
                        .seeds = seeds,
                        .cells = cells,
                        .truth_files = (const char *const *)truth_files};
    if (!trv_write_summary(&res, out, quiet ? NULL : stdout, error) || !trv_write_figures(&res, out, error))
      code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
    g_free(experiment);
    g_strfreev(truth_files);
    g_free(controllers);
    g_free(cells);
  }
  for (int i = 0; i < n_dirs; i++)
    if (parts[i].run) trv_program_run_free(parts[i].run);
  g_free(parts);
  g_free(controllers_i);
  g_free(seeds);
  return code;
}
