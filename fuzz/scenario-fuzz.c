/* scenario-fuzz.c - libFuzzer harness for the scenario loader.
 *
 * Feeds arbitrary bytes to trv_scenario_load_from_memory() with the
 * shipped scenarios' directory as base (so the seeds' "../platforms/..."
 * resolve and the loader reaches the platform and pattern checks), and on
 * what loads runs the point, label and grid functions.  Beyond memory
 * safety (ASan, UBSan, leaks) it checks the loader's promises and aborts
 * when one breaks:
 *   - a refusal is one TRV_ERROR_INPUT message, valid UTF-8, on one line,
 *     starting with the scenario's name;
 *   - a loaded scenario keeps every bound of scenario.h: grid points,
 *     faults with finite, ordered times at every point, fault traces with
 *     their events, output paths that are relative, without '..', the CTL
 *     file ending in .ctl.
 * Built and run by fuzz/run.sh (fuzz/scenario.sources, fuzz/scenario.options
 * with the XML dictionary fuzz/scenario.dict). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "fuzz-registries.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NAME "fuzz.xml"
#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "scenario-fuzz: broken promise: %s (line %d)\n", #cond, __LINE__);                               \
      abort();                                                                                                         \
    }                                                                                                                  \
  } while (0)

static bool confined(const char *path) {
  if (!path[0] || path[0] == '/' || strlen(path) > TRV_SCENARIO_MAX_PATH) return false;
  char **parts = g_strsplit(path, "/", -1);
  bool ok = true;
  for (int i = 0; parts[i]; i++) ok = ok && strcmp(parts[i], "..") && parts[i][0];
  g_strfreev(parts);
  for (const char *p = path; *p; p++) ok = ok && (unsigned char)*p >= 0x20 && *p != 0x7f;
  return ok;
}

static void check_faults(const TrvScenario *s, GArray *faults) {
  CHECK(faults->len == s->faults->len && faults->len <= TRV_SCENARIO_MAX_FAULTS);
  for (guint i = 0; i < faults->len; i++) {
    const TrvFaultSpec *f = &g_array_index(faults, TrvFaultSpec, i);
    CHECK(f->pattern && f->pattern[0]);
    CHECK(f->at >= 0 && f->at <= TRV_FAULT_MAX_SECONDS && f->duration >= 0 && f->duration <= TRV_FAULT_MAX_SECONDS);
    /* a fault trace holds its events, read from inside the scenario's directory */
    CHECK((f->kind == TRV_FAULT_TRACE) == (f->trace != NULL));
    if (f->trace) {
      CHECK(f->trace->n_events >= 1 && f->trace->n_events <= TRV_FAULT_TRACE_MAX_EVENTS);
      static char *base; /* the scenarios' directory, resolved */
      if (!base) base = g_strconcat(realpath(TRV_SRCDIR "/scenarios", NULL), "/", NULL);
      CHECK(g_str_has_prefix(f->trace->file, base));
      CHECK(f->trace == g_array_index(s->faults, TrvFaultSpec, i).trace); /* the points share it */
    }
    if (f->kind == TRV_FAULT_LINK_FLAP) {
      CHECK(f->mtbf >= TRV_FAULT_MIN_PERIOD && f->mtbf <= TRV_FAULT_MAX_SECONDS);
      CHECK(f->mttr >= TRV_FAULT_MIN_PERIOD && f->mttr <= TRV_FAULT_MAX_SECONDS);
      CHECK(f->start >= 0 && f->stop > f->start && (isinf(f->stop) || f->stop <= TRV_FAULT_MAX_SECONDS));
    }
  }
}

static void check_point(const TrvScenario *s, size_t k) {
  TrvParams p;
  GArray *faults = trv_scenario_point(s, k, &p);
  check_faults(s, faults);
  g_array_free(faults, TRUE);
  char *label = trv_scenario_point_label(s, k);
  CHECK(g_utf8_validate(label, -1, NULL));
  CHECK((label[0] != '\0') == (s->sweeps->len > 0));
  g_free(label);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  GError *err = NULL;
  TrvScenario *s = trv_scenario_load_from_memory((const char *)data, size, NAME, TRV_SRCDIR "/scenarios", &err);
  if (!s) {
    CHECK(err && err->domain == TRV_ERROR && err->code == TRV_ERROR_INPUT);
    CHECK(g_str_has_prefix(err->message, NAME ":"));
    CHECK(!strchr(err->message, '\n') && !strchr(err->message, '\r'));
    CHECK(g_utf8_validate(err->message, -1, NULL));
    g_error_free(err);
    return 0;
  }
  CHECK(!err && s->platform && s->platform[0] == '/' && s->world);
  if (s->out_dir) CHECK(confined(s->out_dir) || !strcmp(s->out_dir, "."));
  if (s->ctl_file) CHECK(confined(s->ctl_file) && g_str_has_suffix(s->ctl_file, ".ctl"));
  size_t n = trv_scenario_n_points(s);
  CHECK(n >= 1 && n <= TRV_SCENARIO_MAX_POINTS);
  for (guint i = 0; i < s->sweeps->len; i++) {
    const TrvSweepSpec *sw = &g_array_index(s->sweeps, TrvSweepSpec, i);
    CHECK(g_strv_length(sw->values) >= 1 && g_strv_length(sw->values) <= TRV_SCENARIO_MAX_SWEEP_VALUES);
  }
  check_faults(s, s->faults);
  /* every point of a small grid; the corners and the middle of a large one */
  if (n <= 64) {
    for (size_t k = 0; k < n; k++) check_point(s, k);
  } else {
    check_point(s, 0);
    check_point(s, n / 2);
    check_point(s, n - 1);
  }
  TrvPlatformNames *pn = trv_platform_names_read(s->platform, &err);
  CHECK(pn); /* it loaded, so its platform passes the check */
  trv_platform_names_free(pn);
  trv_scenario_free(s);
  return 0;
}
