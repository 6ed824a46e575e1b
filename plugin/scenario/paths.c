/* paths.c - the rules for the paths a scenario gives: for outputs (<run
 * out>, <ctl file>) a scenario is data and never chooses where outside the
 * run's own directories the run writes or deletes (the run replaces its CTL
 * file); for the data files it brings along (<fault-trace file>) it never
 * reaches outside its own directory.  See TrvScenario in scenario.h and
 * docs/scenarios.md, "Paths".
 *
 * What can be decided from the text alone is decided here: the path is
 * relative, has no '..' component (so it cannot climb out of the directory
 * it is joined to), no control character, no name longer than a file
 * system allows, and at most TRV_SCENARIO_MAX_PATH bytes.  Symbolic links
 * met when the path is created at run time are the runner's to refuse.
 * The path is returned normalised: empty and "." components dropped, one
 * '/' between names, "." when nothing is left. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "scenario-internal.h"

#define MAX_FILE_NAME 255 /* NAME_MAX of the usual Linux file systems */

/* What is wrong with `value` as a relative path read as text: empty,
 * absolute, too long, a control character; NULL when none of these. */
static char *text_problem(const char *value) {
  size_t len = strlen(value);
  if (!len) return g_strdup("is empty");
  if (value[0] == '/') return g_strdup("is an absolute path");
  if (len > TRV_SCENARIO_MAX_PATH) return g_strdup_printf("is %zu bytes long (at most %d)", len, TRV_SCENARIO_MAX_PATH);
  for (const char *p = value; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) return g_strdup("holds a control character");
  return NULL;
}

char *trv_scn_output_path(const char *value, const char *suffix, char **found) {
  *found = text_problem(value);
  if (*found) return NULL;
  char **parts = g_strsplit(value, "/", -1);
  GPtrArray *kept = g_ptr_array_new();
  for (int i = 0; parts[i] && !*found; i++) {
    if (!strcmp(parts[i], ".."))
      *found = g_strdup("has a '..' component");
    else if (strlen(parts[i]) > MAX_FILE_NAME)
      *found = g_strdup_printf("has a name of %zu bytes (at most %d)", strlen(parts[i]), MAX_FILE_NAME);
    else if (parts[i][0] && strcmp(parts[i], "."))
      g_ptr_array_add(kept, parts[i]);
  }
  char *norm = NULL;
  if (!*found) {
    g_ptr_array_add(kept, NULL);
    norm = kept->len > 1 ? g_strjoinv("/", (char **)kept->pdata) : g_strdup(".");
    const char *last = strrchr(norm, '/') ? strrchr(norm, '/') + 1 : norm;
    if (suffix && (!g_str_has_suffix(last, suffix) || !strcmp(last, "."))) {
      *found = g_strdup_printf("does not end in %s", suffix);
      g_clear_pointer(&norm, g_free);
    }
  }
  g_ptr_array_free(kept, TRUE);
  g_strfreev(parts);
  return norm;
}

/* An input a scenario brings along is confined to the scenario's directory
 * `base_dir` in two steps: the text (relative, no '..' component, as an
 * output path), then the file system: the path is resolved with realpath()
 * (every symbolic link followed) and must still lie below the resolved
 * directory, so that a link inside the directory cannot lead out of it.
 * The caller reads the resolved path at once; a directory swapped for a
 * link between the two is a race with the user's own file system, not
 * with the scenario. */
char *trv_scn_input_path(const char *value, const char *base_dir, char **found) {
  *found = text_problem(value);
  char **parts = *found ? NULL : g_strsplit(value, "/", -1);
  for (int i = 0; parts && parts[i] && !*found; i++)
    if (!strcmp(parts[i], "..")) *found = g_strdup("has a '..' component");
  g_strfreev(parts);
  if (*found) return NULL;
  char *joined = g_build_filename(base_dir, value, NULL);
  char real[PATH_MAX], dir[PATH_MAX];
  if (!realpath(joined, real)) {
    int e = errno;
    *found = g_strdup_printf("cannot be resolved: %s (%s)", joined, g_strerror(e));
  } else if (!realpath(base_dir, dir)) {
    int e = errno;
    *found = g_strdup_printf("cannot be resolved: the scenario's directory %s (%s)", base_dir, g_strerror(e));
  } else {
    size_t n = strlen(dir);
    bool inside = !strcmp(dir, "/") || (!strncmp(real, dir, n) && real[n] == '/');
    if (!inside)
      *found = g_strdup_printf("leads through a symbolic link to %s, outside the scenario's directory", real);
  }
  g_free(joined);
  return *found ? NULL : g_strdup(real);
}
