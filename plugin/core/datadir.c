/* datadir.c - locating shipped files.  See datadir.h. */
#define _GNU_SOURCE
#include "datadir.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* true when this code runs from the installed library, not the build tree */
static bool installed(void) {
  static int answer = -1;
  if (answer >= 0) return answer;
  Dl_info info;
  answer = 0;
  if (dladdr((void *)installed, &info) && info.dli_fname) {
    char *lib = realpath(info.dli_fname, NULL), *libdir = realpath(TRV_LIBDIR, NULL);
    if (lib && libdir) {
      char *dir = g_path_get_dirname(lib);
      answer = !strcmp(dir, libdir);
      g_free(dir);
    }
    free(lib);
    free(libdir);
  }
  return answer;
}

char *trv_find_data(const char *dir, const char *name, char **tried) {
  const char *env = g_getenv("TRIVIUM_DATADIR");
  const char *order[3] = {env, installed() ? TRV_DATADIR : TRV_SRCDIR, installed() ? TRV_SRCDIR : TRV_DATADIR};
  GString *t = tried ? g_string_new(NULL) : NULL;
  char *found = NULL;
  for (int i = 0; i < 3 && !found; i++) {
    if (!order[i] || !*order[i]) continue;
    char *p = g_build_filename(order[i], dir, name, NULL);
    if (t) g_string_append_printf(t, "%s%s", t->len ? "; " : "", p);
    if (g_file_test(p, G_FILE_TEST_IS_REGULAR)) found = p;
    else g_free(p);
  }
  if (tried) *tried = g_string_free(t, FALSE);
  return found;
}
