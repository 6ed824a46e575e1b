/* run-reads.c - the files a point reads beside its scenario, platform and
 * fault traces (run-reads.h).
 *
 * A platform's profile files come from the platform reader
 * (TrvPlatformNames.profiles: the paths SimGrid opens).  A world names its
 * data files itself (inputs()); each is told apart here by how the world
 * found it, so that a replay can point the world at the file again: a
 * text parameter whose value is the file's path (world.table=FILE,
 * world.instance=FILE, world.replay=FILE; a replay sets the parameter to
 * the file it checked), else the file's name in the data directory
 * (world.table empty: data/urs/CITY.cal; world.instance=ft06:
 * platforms/jssp/ft06/jobs.txt; a replay has the data directory searched
 * where that file is).  Nothing here reads a file but the platforms. */
#include <config.h>

#include <string.h>

#include "core/datadir.h"
#include "run-reads.h"
#include "scenario/scenario.h"

char **trv_run_profiles(const char *const *platforms, int n, GError **error) {
  GPtrArray *all = g_ptr_array_new_with_free_func(g_free);
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);                    /* keys belong to all */
  GHashTable *read = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL); /* each platform once */
  for (int i = 0; i < n; i++) {
    if (!platforms[i] || !g_hash_table_add(read, g_canonicalize_filename(platforms[i], NULL))) continue;
    TrvPlatformNames *pn = trv_platform_names_read(platforms[i], error);
    if (!pn) {
      g_hash_table_destroy(read);
      g_hash_table_destroy(seen);
      g_ptr_array_free(all, TRUE);
      return NULL;
    }
    for (guint k = 0; k < pn->profiles->len; k++)
      if (!g_hash_table_contains(seen, pn->profiles->pdata[k])) {
        char *p = g_strdup(pn->profiles->pdata[k]);
        g_ptr_array_add(all, p);
        g_hash_table_add(seen, p);
      }
    trv_platform_names_free(pn);
  }
  g_hash_table_destroy(read);
  g_hash_table_destroy(seen);
  g_ptr_array_add(all, NULL);
  return (char **)g_ptr_array_free(all, FALSE);
}

/* The text parameter of p whose value, as a path from the current
 * directory, is `path` (absolute, canonical); NULL when none is. */
static const char *naming_parameter(const TrvParams *p, const char *path) {
  size_t n;
  const TrvParamSpec *specs = trv_param_specs(&n);
  for (size_t i = 0; i < n; i++) {
    if (specs[i].type != TRV_PARAM_TEXT) continue;
    const char *value = (const char *)p + specs[i].offset;
    if (!*value) continue;
    char *canon = g_canonicalize_filename(value, NULL);
    bool same = !strcmp(canon, path);
    g_free(canon);
    if (same) return specs[i].key;
  }
  return NULL;
}

GArray *trv_run_world_inputs(const TrvParams *p, const char *const *paths) {
  GArray *inputs = g_array_new(FALSE, TRUE, sizeof(TrvRunInput));
  for (int i = 0; paths && paths[i]; i++) {
    TrvRunInput in = {.path = g_canonicalize_filename(paths[i], NULL)};
    const char *key = naming_parameter(p, in.path);
    if (key)
      in.parameter = g_strdup(key);
    else
      in.data = trv_data_name(in.path);
    g_array_append_val(inputs, in);
  }
  return inputs;
}

void trv_run_world_inputs_free(GArray *inputs) {
  for (guint i = 0; inputs && i < inputs->len; i++) {
    TrvRunInput *in = &g_array_index(inputs, TrvRunInput, i);
    g_free(in->path);
    g_free(in->parameter);
    g_free(in->data);
  }
  if (inputs) g_array_free(inputs, TRUE);
}
