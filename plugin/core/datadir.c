/* datadir.c - locating shipped files.  See datadir.h. */
#define _GNU_SOURCE
#include "datadir.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

/* Whether the real path of directory `dir` is that of `installed_dir`. */
static bool same_dir(const char *dir, const char *installed_dir) {
  char *real = realpath(installed_dir, NULL);
  bool same = real && !strcmp(dir, real);
  free(real);
  return same;
}

/* The real path of the file this code was loaded from: the library, or
 * the program itself (the `trivium` program links the library's layers
 * in, src/cli.am), whose name dladdr gives as argv[0], not always a path. */
static char *code_file(void) {
  Dl_info info, prog;
  if (!dladdr((void *)code_file, &info) || !info.dli_fname) return NULL;
  void *phdr = (void *)getauxval(AT_PHDR); /* in the program's first mapping */
  if (phdr && dladdr(phdr, &prog) && prog.dli_fbase == info.dli_fbase) {
    char *exe = realpath("/proc/self/exe", NULL);
    if (exe) return exe;
  }
  return realpath(info.dli_fname, NULL);
}

/* true when this code runs from the installed library, or from the
 * installed `trivium`, not from the build tree */
static bool installed(void) {
  static int answer = -1;
  if (answer >= 0) return answer;
  answer = 0;
  char *file = code_file();
  if (file) {
    char *dir = g_path_get_dirname(file);
    answer = same_dir(dir, TRV_LIBDIR) || same_dir(dir, TRV_BINDIR);
    g_free(dir);
  }
  free(file);
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
