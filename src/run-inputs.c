/* run-inputs.c - copies of a run's input files inside its directory
 * (run-inputs.h).
 *
 * OUT/inputs/ mirrors every file a run read (the scenario, the platforms
 * and their profile files, the fault traces, the world's data files: see
 * run-reads.h) below the deepest directory they share: the scenario
 * /a/scenarios/s.xml and its platform /a/platforms/p.xml become
 * OUT/inputs/scenarios/s.xml and OUT/inputs/platforms/p.xml, so the
 * scenario's relative platform="../platforms/p.xml" names the copy when
 * the copy of the scenario is loaded (and the platform's relative profile
 * files theirs).  run.json records each copy beside the original path and
 * its SHA-256; a replay whose originals are gone or changed uses the
 * copies, which must have the same SHA-256 (replay-config.c).  The names
 * written are the inputs' own path components (never '..': the paths are
 * canonical), each directory created inside OUT (trv_out_dir) and each
 * file written atomically (trv_write_file_atomic): nothing leaves OUT and
 * no write follows a link.  A file named twice is copied once. */
#include <config.h>

#include <string.h>

#include "core/input.h"
#include "core/out-file.h"
#include "run-inputs.h"

/* The components of an absolute canonical path ("/a/b/c" -> a, b, c). */
static char **components(const char *path) {
  char **all = g_strsplit(path, "/", -1);
  GPtrArray *v = g_ptr_array_new();
  for (int i = 0; all[i]; i++)
    if (*all[i]) g_ptr_array_add(v, g_strdup(all[i]));
  g_strfreev(all);
  g_ptr_array_add(v, NULL);
  return (char **)g_ptr_array_free(v, FALSE);
}

GHashTable *trv_run_inputs_copy(const char *out, const char *const *paths, size_t max_bytes, GError **error) {
  GHashTable *copies = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  GPtrArray *files = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
  GPtrArray *names = g_ptr_array_new();
  int common = -1; /* components of the shared directory */
  for (int i = 0; paths[i]; i++) {
    if (!g_path_is_absolute(paths[i]) || g_hash_table_contains(copies, paths[i])) continue;
    g_hash_table_insert(copies, g_strdup(paths[i]), NULL);
    char **c = components(paths[i]);
    int n = (int)g_strv_length(c);
    if (n == 0) {
      g_strfreev(c);
      continue;
    }
    if (common < 0) {
      common = n - 1;
    } else {
      const char *const *first = g_ptr_array_index(files, 0);
      int k = 0;
      while (k < common && k < n - 1 && !strcmp(first[k], c[k])) k++;
      common = k;
    }
    g_ptr_array_add(files, c);
    g_ptr_array_add(names, (gpointer)paths[i]);
  }
  bool ok = true;
  char *root = g_build_filename(out, "inputs", NULL);
  if (files->len) ok = trv_out_dir(root, false, error);
  for (guint f = 0; ok && f < files->len; f++) {
    char **c = g_ptr_array_index(files, f);
    int n = (int)g_strv_length(c);
    GString *rel = g_string_new("inputs");
    char *dir = g_strdup(root);
    for (int k = common; ok && k < n - 1; k++) { /* the directories below the shared one, created in OUT */
      char *next = g_build_filename(dir, c[k], NULL);
      g_free(dir);
      dir = next;
      g_string_append_printf(rel, "/%s", c[k]);
      ok = trv_out_dir(dir, false, error);
    }
    g_string_append_printf(rel, "/%s", c[n - 1]);
    char *data = NULL, *dst = g_build_filename(dir, c[n - 1], NULL);
    size_t len = 0;
    ok = ok && trv_input_read(names->pdata[f], max_bytes, "input", TRV_INPUT_REGULAR, &data, &len, error) &&
         trv_write_file_atomic(dst, data, (gssize)len, error);
    g_hash_table_insert(copies, g_strdup(names->pdata[f]), g_string_free(rel, FALSE));
    g_free(data);
    g_free(dst);
    g_free(dir);
  }
  g_free(root);
  g_ptr_array_free(files, TRUE);
  g_ptr_array_free(names, TRUE);
  if (!ok) {
    g_hash_table_unref(copies);
    return NULL;
  }
  return copies;
}

bool trv_run_inputs_plain(const char *rel) {
  if (!rel || !*rel || strlen(rel) > 4096) return false;
  char **parts = g_strsplit(rel, "/", -1);
  bool ok = true;
  for (int i = 0; parts[i] && ok; i++)
    ok = *parts[i] && strcmp(parts[i], ".") && strcmp(parts[i], "..") && !strchr(parts[i], '\\');
  g_strfreev(parts);
  return ok;
}

char *trv_run_inputs_resolve(const char *run_dir, const char *copy) {
  if (!copy || !g_str_has_prefix(copy, "inputs/") || !trv_run_inputs_plain(copy)) return NULL;
  return g_build_filename(run_dir, copy, NULL);
}
