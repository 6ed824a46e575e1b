/* cmd-validate.c - `trivium validate FILE...`: load each scenario without
 * running it and say what it would run, or print its one error
 * (FILE:LINE:COLUMN: found; expected[; did you mean 'X'?]).  Loading is
 * the whole check: the loader refuses a file that is not a regular file or
 * is too large before reading it, checks the platform as SimGrid would be
 * handed it (trv_platform_file_check), reads and checks every fault trace
 * and bounds every count, so validate returns promptly on any input.
 * Then SimGrid's own parser loads the platform, in a forked child as a
 * run's check does (SimGrid aborts the process on a platform it refuses):
 * what it refuses is said on one line, with SimGrid's reason.
 * Exit codes: 0 when every file is valid, 2 otherwise (SPEC section 9). */
#include <config.h>

#include <simgrid/engine.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "commands.h"
#include "core/controller.h"
#include "core/world-call.h"
#include "scenario/scenario.h"
#include "sim/child.h"

static void usage(FILE *f) {
  fprintf(f, "usage: trivium validate SCENARIO.xml...\n\n"
             "Checks each scenario (structure, names, values, output paths, limits) and the platform\n"
             "it names (what SimGrid may load, its hosts and links, roles, fault patterns and fault\n"
             "traces), then has SimGrid's own parser load the platform, without running anything.\n"
             "Reference: docs/scenarios.md.\n");
}

/* "9 controllers" / "1 controller". */
static void count(GString *s, long n, const char *what) {
  g_string_append_printf(s, "%ld %s%s", n, what, n == 1 ? "" : "s");
}

/* The one-line summary printed after "FILE: ok ". */
static char *summary(const TrvScenario *sc) {
  GString *s = g_string_new("(world ");
  g_string_append_printf(s, "%s, ", sc->world);
  count(s, sc->controllers ? g_strv_length(sc->controllers) : g_strv_length((char **)trv_controller_defaults()),
        "controller");
  g_string_append(s, ", ");
  count(s, sc->params.episodes, "episode");
  g_string_append(s, " x ");
  count(s, sc->params.seeds, "seed");
  g_string_append(s, ", ");
  count(s, sc->faults->len, "fault");
  size_t events = 0;
  guint traces = 0;
  for (guint i = 0; i < sc->faults->len; i++) {
    const TrvFaultSpec *f = &g_array_index(sc->faults, TrvFaultSpec, i);
    if (f->trace) events += f->trace->n_events, traces++;
  }
  if (traces) {
    g_string_append(s, " (");
    count(s, (long)events, "event");
    g_string_append_printf(s, " from %s)", traces == 1 ? "a fault trace" : "fault traces");
  }
  if (sc->sweeps->len == 0) g_string_append(s, ", no sweeps");
  for (guint i = 0; i < sc->sweeps->len; i++) {
    const TrvSweepSpec *sw = &g_array_index(sc->sweeps, TrvSweepSpec, i);
    g_string_append_printf(s, "%s%s over %u values", i ? ", " : ", sweeps ", sw->param, g_strv_length(sw->values));
  }
  if (sc->sweeps->len > 1) g_string_append_printf(s, " (%zu points)", trv_scenario_n_points(sc));
  g_string_append(s, ")");
  return g_string_free(s, FALSE);
}

/* In the child: SimGrid loads the platform (and aborts on what it refuses). */
static int load_platform(void *data, int report_fd) {
  (void)report_fd;
  int argc = 1;
  char *argv[] = {(char *)"trivium", NULL};
  simgrid_init(&argc, argv);
  simgrid_load_platform((const char *)data);
  return 0;
}

/* Whether SimGrid loads `platform`; false with *error (TRV_ERROR_INPUT)
 * "SimGrid refused the platform P: REASON".  A child that cannot be made
 * checks nothing (true). */
static bool simgrid_loads(const char *platform, GError **error) {
  TrvChild *child = trv_child_start(load_platform, (void *)platform, true, NULL);
  if (!child) return true;
  int status = trv_child_wait(child, NULL);
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok) {
    char *log = trv_child_log_head(child, 65536), *why = trv_simgrid_reason(log), *how = trv_child_status_text(status);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "SimGrid refused the platform %s: %s", platform,
                why ? why : how);
    g_free(how);
    g_free(why);
    g_free(log);
  }
  trv_child_free(child);
  return ok;
}

int trv_cmd_validate(int argc, char **argv) {
  if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    usage(stdout);
    return 0;
  }
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  for (int i = 1; i < argc; i++)
    if (argv[i][0] == '-' && strcmp(argv[i], "-")) {
      fprintf(stderr, "trivium validate: unknown option '%s'; see trivium validate --help\n", argv[i]);
      return 2;
    }
  int code = 0;
  for (int i = 1; i < argc; i++) {
    GError *err = NULL;
    TrvScenario *sc = trv_scenario_load(argv[i], &err);
    if (!sc) {
      fflush(stdout);
      fprintf(stderr, "%s\n", err->message);
      g_error_free(err);
      code = 2;
      continue;
    }
    /* the world takes the parameters (e.g. a JSSP instance file parses) */
    const TrvWorldClass *wc = trivium_world_lookup(sc->world);
    void *world = wc ? trv_world_new(wc, &sc->params, (uint64_t)sc->params.seed_base, &err) : NULL;
    TrvWorldInfo info;
    if (!world || !trv_world_info(wc, world, &info, &err)) {
      if (world) wc->free(world);
      fflush(stdout);
      fprintf(stderr, "%s: %s\n", argv[i], err ? err->message : "unknown world");
      g_clear_error(&err);
      trv_scenario_free(sc);
      code = 2;
      continue;
    }
    wc->free(world);
    if (!simgrid_loads(sc->platform, &err)) {
      fflush(stdout);
      fprintf(stderr, "%s: %s\n", argv[i], err->message);
      g_clear_error(&err);
      trv_scenario_free(sc);
      code = 2;
      continue;
    }
    /* placements that defeat themselves: each once, with the first point it holds at */
    GHashTable *said = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (size_t k = 0; k < trv_scenario_n_points(sc); k++) {
      TrvParams pp;
      GArray *faults = trv_scenario_point(sc, k, &pp);
      char **warn = trv_scenario_warnings(sc, &pp, faults);
      char *label = trv_scenario_point_label(sc, k);
      fflush(stdout);
      for (int w = 0; warn[w]; w++)
        if (g_hash_table_add(said, g_strdup(warn[w])))
          fprintf(stderr, "%s: warning: %s%s%s\n", argv[i], label, *label ? ": " : "", warn[w]);
      g_free(label);
      g_strfreev(warn);
      g_array_free(faults, TRUE);
    }
    g_hash_table_destroy(said);
    char *sum = summary(sc);
    printf("%s: ok %s\n", argv[i], sum);
    g_free(sum);
    trv_scenario_free(sc);
  }
  return code;
}
