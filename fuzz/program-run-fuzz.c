/* program-run-fuzz.c - libFuzzer harness for the reader of a program's
 * run.json (src/program-run.c), which `trivium report DIR` reads from the
 * run directory trivium_results_write_dir() writes.
 *
 * Writes the input to a scratch file and loads it.  A refusal must be a
 * TRV_ERROR_INPUT error of one line naming the file; an accepted file must
 * give a known controller, 1 to TRV_MAX_COMPONENTS named components, world
 * metrics and change-points within their room, change-points and curve
 * episodes in order within the run's episodes, and a summary of at most
 * those episodes.  Any crash, hang, sanitizer report, leak or failed
 * assertion is a bug.  Built and run by fuzz/run.sh (-max_len of
 * fuzz/program-run.options). */
#include <glib/gstdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <trivium/error.h>
#include <unistd.h>

#include "program-run.h"
#include "core/controller.h"
#include "core/detector.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Before the first input: the registries of the command line, its worlds
 * aside (their code is not in this harness). */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  trv_detectors_register_builtin();
  trv_controllers_register_builtin();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char *path;
  if (!path) {
    int fd = g_file_open_tmp("trv-program-run-fuzz-XXXXXX", &path, NULL);
    g_assert(fd >= 0);
    close(fd);
  }
  g_assert(g_file_set_contents(path, (const char *)data, (gssize)size, NULL));
  GError *err = NULL;
  TrvProgramRunFile *p = trv_program_run_load(path, &err);
  if (p) {
    g_assert_no_error(err);
    g_assert(g_strv_contains(trv_controller_names(), p->controller));
    const TrvCellLayout *l = &p->layout;
    g_assert(l->cand == &p->cand && p->cand.n_components >= 1 && p->cand.n_components <= TRV_MAX_COMPONENTS);
    for (int j = 0; j < p->cand.n_components; j++)
      g_assert(p->comps[j].name && *p->comps[j].name && !strchr(p->comps[j].name, ','));
    g_assert(l->episodes >= 1 && l->n_change_points >= 0 && l->n_change_points <= TRV_MAX_CHANGE_POINTS);
    for (int k = 0; k < l->n_change_points; k++)
      g_assert(l->change_points[k] >= (k ? l->change_points[k - 1] : 0) && l->change_points[k] <= l->episodes);
    const TrvCellSummary *s = p->sum;
    g_assert(s->episodes >= 0 && s->episodes <= l->episodes);
    g_assert(s->n_components == p->cand.n_components && s->n_world_metrics <= TRV_WORLD_METRICS_MAX);
    g_assert(s->n_curve >= 0 && s->n_curve <= TRV_CURVE_POINTS);
    for (int i = 1; i < s->n_curve; i++) g_assert(s->curve_episode[i] >= s->curve_episode[i - 1]);
    g_assert(s->n_change_points >= 0 && s->n_change_points <= TRV_CELL_CHANGE_POINTS);
    trv_program_run_free(p);
  } else {
    g_assert(err && err->code == TRV_ERROR_INPUT && strstr(err->message, path) && !strchr(err->message, '\n'));
    g_error_free(err);
  }
  return 0;
}
