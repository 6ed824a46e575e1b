/* cmd-validate.c - `trivium validate FILE...`: load each scenario without
 * running it and say what it would run, or print its one error
 * (FILE:LINE:COLUMN: found; expected[; did you mean 'X'?]).  Loading is
 * the whole check: the loader refuses a file that is not a regular file or
 * is too large before reading it, checks the platform as SimGrid would be
 * handed it (trv_platform_file_check), reads and checks every fault trace
 * and bounds every count, so validate returns promptly on any input.
 * Then SimGrid's own parser loads the platform, in a forked child as a
 * run's check does (SimGrid aborts the process on a platform it refuses):
 * what it refuses is said on one line, with SimGrid's reason.  The child
 * reports the links SimGrid built, those a <cluster> generates included,
 * and every link the faults name (a link-flap's globs, a fault trace's
 * link lines) must match one of them: FILE:LINE, what matched nothing and
 * the links there are.
 * Exit codes: 0 when every file is valid, 2 otherwise (SPEC section 9). */
#include <config.h>

#include <simgrid/engine.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
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
             "traces), then has SimGrid's own parser load the platform and checks the links the faults\n"
             "name against the links it built (a <cluster>'s too), without running anything.\n"
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

/* The most bytes of link names the child reports; a platform whose links'
 * names take more is not checked link by link (the run checks them). */
#define LINK_NAMES_MAX_BYTES ((size_t)64 << 20)

/* In the child: SimGrid loads the platform (and aborts on what it refuses),
 * then reports its links: "COUNT BYTES\n" and the names, each ended by a
 * NUL, BYTES in all (0 and no names when they would take more than
 * LINK_NAMES_MAX_BYTES). */
static int load_platform(void *data, int report_fd) {
  int argc = 1;
  char *argv[] = {(char *)"trivium", NULL};
  simgrid_init(&argc, argv);
  simgrid_load_platform((const char *)data);
  size_t n = sg_link_count(), bytes = 0;
  sg_link_t *links = sg_link_list();
  for (size_t i = 0; i < n; i++) bytes += strlen(sg_link_get_name(links[i])) + 1;
  if (bytes > LINK_NAMES_MAX_BYTES) bytes = 0;
  char head[64];
  int len = g_snprintf(head, sizeof head, "%zu %zu\n", n, bytes);
  bool ok = trv_write_all(report_fd, head, (size_t)len);
  for (size_t i = 0; ok && bytes && i < n; i++) {
    const char *name = sg_link_get_name(links[i]);
    ok = trv_write_all(report_fd, name, strlen(name) + 1);
  }
  free(links);
  return ok ? 0 : 1;
}

/* The link names of a child's report (see load_platform), or NULL when
 * the report holds none (too many to report) or is not whole. */
static GPtrArray *link_names(const GByteArray *report) {
  const char *text = (const char *)report->data, *nl = memchr(text, '\n', report->len);
  unsigned long long n, bytes;
  if (!nl || sscanf(text, "%llu %llu", &n, &bytes) != 2 || bytes == 0 ||
      (size_t)(report->data + report->len - (const guint8 *)(nl + 1)) != bytes || text[report->len - 1] != '\0')
    return NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  for (const char *p = nl + 1; p < text + report->len; p += strlen(p) + 1) g_ptr_array_add(names, g_strdup(p));
  if (names->len != n) g_clear_pointer(&names, g_ptr_array_unref);
  return names;
}

/* Whether SimGrid loads `platform`; false with *error (TRV_ERROR_INPUT)
 * "SimGrid refused the platform P: REASON".  *links: the names of its
 * links as SimGrid built them (NULL when they were not reported).  A child
 * that cannot be made checks nothing (true). */
static bool simgrid_loads(const char *platform, GPtrArray **links, GError **error) {
  *links = NULL;
  TrvChild *child = trv_child_start(load_platform, (void *)platform, true, NULL);
  if (!child) return true;
  GByteArray *report = g_byte_array_new();
  int status = trv_child_wait(child, report);
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok) {
    char *log = trv_child_log_head(child, 65536), *why = trv_simgrid_reason(log), *how = trv_child_status_text(status);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "SimGrid refused the platform %s: %s", platform, why ? why : how);
    g_free(how);
    g_free(why);
    g_free(log);
  } else {
    *links = link_names(report);
  }
  g_byte_array_unref(report);
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
    GPtrArray *links = NULL;
    if (!simgrid_loads(sc->platform, &links, &err)) {
      fflush(stdout);
      fprintf(stderr, "%s: %s\n", argv[i], err->message);
      g_clear_error(&err);
      trv_scenario_free(sc);
      code = 2;
      continue;
    }
    /* the fault links against the links SimGrid built (a cluster's too) */
    bool links_ok = !links || trv_scenario_check_links(sc, links, &err);
    if (links) g_ptr_array_unref(links);
    if (!links_ok) {
      fflush(stdout);
      fprintf(stderr, "%s\n", err->message);
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
