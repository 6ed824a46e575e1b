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

/* The candidate directories, in the order they are searched (see datadir.h;
 * an entry may be NULL or empty). */
static void candidates(const char *order[3]) {
  order[0] = g_getenv("TRIVIUM_DATADIR");
  order[1] = installed() ? TRV_DATADIR : TRV_SRCDIR;
  order[2] = installed() ? TRV_SRCDIR : TRV_DATADIR;
}

char *trv_find_data(const char *dir, const char *name, char **tried) {
  const char *order[3];
  candidates(order);
  GString *t = tried ? g_string_new(NULL) : NULL;
  char *found = NULL;
  for (int i = 0; i < 3 && !found; i++) {
    if (!order[i] || !*order[i]) continue;
    char *p = g_build_filename(order[i], dir, name, NULL);
    if (t) g_string_append_printf(t, "%s%s", t->len ? "; " : "", p);
    if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
      found = p;
    else
      g_free(p);
  }
  if (tried) *tried = g_string_free(t, FALSE);
  return found;
}

char *trv_data_name(const char *path) {
  const char *order[3];
  candidates(order);
  char *file = g_canonicalize_filename(path, NULL), *name = NULL;
  for (int i = 0; i < 3 && !name; i++) {
    if (!order[i] || !*order[i]) continue;
    char *root = g_canonicalize_filename(order[i], NULL);
    size_t n = strlen(root);
    if (n > 1 && !strncmp(file, root, n) && file[n] == '/' && file[n + 1]) {
      /* the name only when a search by it finds this very file */
      char *dir = g_path_get_dirname(file + n + 1), *base = g_path_get_basename(file);
      char *found = trv_find_data(dir, base, NULL), *canon = found ? g_canonicalize_filename(found, NULL) : NULL;
      if (canon && !strcmp(canon, file)) name = g_strdup(file + n + 1);
      g_free(canon);
      g_free(found);
      g_free(dir);
      g_free(base);
    }
    g_free(root);
  }
  g_free(file);
  return name;
}
