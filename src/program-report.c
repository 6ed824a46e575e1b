/* program-report.c - `trivium report DIR` on the run directory of a
 * SimGrid program of its own (trivium_results_write_dir,
 * plugin/sim/program-dir.c): summary.csv, summary.md and figures/ from its
 * run.json (read by program-run.c), the ones `trivium run` writes for the
 * same cell.  episodes.csv and run.json are the program's and are left as
 * they are. */
#include <string.h>

#include "figures.h"
#include "program-report.h"
#include "program-run.h"
#include "report.h"

const TrvWorldClass *trv_program_world(const TrvProgramRunFile *p) {
  const TrvWorldClass *known = trivium_world_lookup(p->world.name);
  return known ? known : &p->world;
}

bool trv_is_program_dir(const char *dir) {
  char *jobs = g_build_filename(dir, "jobs.json", NULL), *run = g_build_filename(dir, "run.json", NULL);
  bool yes = !g_file_test(jobs, G_FILE_TEST_EXISTS) && !g_file_test(jobs, G_FILE_TEST_IS_SYMLINK) &&
             g_file_test(run, G_FILE_TEST_EXISTS);
  g_free(jobs);
  g_free(run);
  return yes;
}

int trv_program_report(const char *dir, bool quiet, GError **error) {
  char *path = g_build_filename(dir, "run.json", NULL);
  TrvProgramRunFile *p = trv_program_run_load(path, error);
  g_free(path);
  if (!p) return 2;
  const char *controllers[] = {p->controller};
  int seeds[] = {p->seed}, code = 0;
  char *experiment = g_strdup_printf("program (%s)", p->world.name);
  char *episodes = g_build_filename(dir, "episodes.csv", NULL);
  const char *truth_files[] = {episodes};
  TrvRunResult res = {.experiment = experiment,
                      .params = &p->params,
                      .world_class = trv_program_world(p),
                      .layout = &p->layout,
                      .controllers = controllers,
                      .n_controllers = 1,
                      .n_seeds = 1,
                      .seeds = seeds,
                      .cells = p->sum,
                      .truth_files = truth_files};
  if (!trv_write_summary(&res, dir, quiet ? NULL : stdout, error) || !trv_write_figures(&res, dir, error))
    code = (*error)->code == TRV_ERROR_INPUT ? 2 : 1;
  g_free(experiment);
  g_free(episodes);
  trv_program_run_free(p);
  return code;
}
