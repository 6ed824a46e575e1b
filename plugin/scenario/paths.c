/* paths.c - the rule for the paths a scenario gives for outputs (<run out>,
 * <ctl file>): a scenario is data and never chooses where outside the
 * run's own directories the run writes or deletes (the run replaces its CTL
 * file).  See TrvScenario in scenario.h and docs/scenarios.md, "Paths".
 *
 * What can be decided from the text alone is decided here: the path is
 * relative, has no '..' component (so it cannot climb out of the directory
 * it is joined to), no control character, no name longer than a file
 * system allows, and at most TRV_SCENARIO_MAX_PATH bytes.  Symbolic links
 * met when the path is created at run time are the runner's to refuse.
 * The path is returned normalised: empty and "." components dropped, one
 * '/' between names, "." when nothing is left. */
#include <string.h>

#include "scenario-internal.h"

#define MAX_FILE_NAME 255 /* NAME_MAX of the usual Linux file systems */

char *trv_scn_output_path(const char *value, const char *suffix, char **found) {
  size_t len = strlen(value);
  *found = NULL;
  if (!len) *found = g_strdup("is empty");
  else if (value[0] == '/') *found = g_strdup("is an absolute path");
  else if (len > TRV_SCENARIO_MAX_PATH)
    *found = g_strdup_printf("is %zu bytes long (at most %d)", len, TRV_SCENARIO_MAX_PATH);
  for (const char *p = value; !*found && *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *found = g_strdup("holds a control character");
  if (*found) return NULL;
  char **parts = g_strsplit(value, "/", -1);
  GPtrArray *kept = g_ptr_array_new();
  for (int i = 0; parts[i] && !*found; i++) {
    if (!strcmp(parts[i], "..")) *found = g_strdup("has a '..' component");
    else if (strlen(parts[i]) > MAX_FILE_NAME)
      *found = g_strdup_printf("has a name of %zu bytes (at most %d)", strlen(parts[i]), MAX_FILE_NAME);
    else if (parts[i][0] && strcmp(parts[i], ".")) g_ptr_array_add(kept, parts[i]);
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
