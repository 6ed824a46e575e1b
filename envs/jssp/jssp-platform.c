/* jssp-platform.c - the files `trivium jssp` writes: the SimGrid
 * machine-shop platform of an instance and its job description, and the
 * rule every writer follows before it replaces a file.
 *
 * The rule (jssp.h): a path is written when it is absent, when it holds the
 * writer's own output (it starts with the writer's marker), or when the
 * user forces it; a symbolic link counts as foreign (writing through it
 * could land anywhere) and is replaced, not followed, when forced; a
 * directory, device or FIFO is never replaced.  Writes go to a temporary
 * file in the same directory renamed over the path (g_file_set_contents),
 * so a reader sees the old file or the new one, and a link at the path is
 * replaced rather than written through.
 *
 * Invariants of what is written: the instance's name reaches the files only
 * through display_name (letters, digits, `._+-`), so platform.xml is
 * well-formed XML whatever the file was called and jobs.txt parses back to
 * the same instance (a name with a newline cannot add a header line).  The
 * platform directory is checked with lstat before anything is written: a
 * link there would send both files outside the directory the user named.
 * The checks and the writes are separate system calls: they guard against
 * mistakes and hostile files, not against a concurrent process swapping
 * the directory between them. */
#include "jssp.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The instance's name as it may appear inside a file: letters, digits and
 * `._+-` kept, any other byte `_`, at most 64 bytes. */
static char *display_name(const char *name) {
  GString *d = g_string_new(NULL);
  for (const char *p = name; *p && d->len < 64; p++)
    g_string_append_c(d, g_ascii_isalnum(*p) || strchr("._+-", *p) ? *p : '_');
  if (d->len == 0) g_string_append_c(d, '_');
  return g_string_free(d, FALSE);
}

/* TRUE when the regular file at path starts with marker (read without
 * following a link that might have replaced it since lstat). */
static gboolean starts_with_marker(const char *path, const char *marker) {
  size_t want = strlen(marker), got = 0;
  char *buf = g_malloc(want);
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0) {
    while (got < want) {
      ssize_t r = read(fd, buf + got, want - got);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      got += (size_t)r;
    }
    close(fd);
  }
  gboolean same = got == want && memcmp(buf, marker, want) == 0;
  g_free(buf);
  return same;
}

/* The directory that will hold path must exist and be writable (the
 * temporary file and the rename need it). */
static gboolean parent_writable(const char *path, GError **error) {
  char *parent = g_path_get_dirname(path);
  gboolean ok = TRUE;
  if (!g_file_test(parent, G_FILE_TEST_IS_DIR)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: the directory %s does not exist; expected an existing one",
                path, parent);
    ok = FALSE;
  } else if (access(parent, W_OK | X_OK) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot write in %s (%s); expected a writable directory", path,
                parent, g_strerror(errno));
    ok = FALSE;
  }
  g_free(parent);
  return ok;
}

gboolean trv_jssp_output_check(const char *path, const char *marker, gboolean force, GError **error) {
  struct stat st;
  if (!*path) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "empty output file name; expected a path");
    return FALSE;
  }
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT) return parent_writable(path, error);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot inspect the output path (%s)", path, g_strerror(errno));
    return FALSE;
  }
  if (S_ISDIR(st.st_mode)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: is a directory; expected a file name", path);
    return FALSE;
  }
  if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: is not a regular file; refusing to replace it", path);
    return FALSE;
  }
  if (!force && S_ISLNK(st.st_mode)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: is a symbolic link; refusing to write through it or replace it (--force replaces the link)", path);
    return FALSE;
  }
  if (!force && !starts_with_marker(path, marker)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: exists and was not written by trivium jssp (its first bytes differ); refusing to overwrite it "
                "(--force replaces it)",
                path);
    return FALSE;
  }
  return parent_writable(path, error);
}

gboolean trv_jssp_output_prepare_dir(const char *dir, int n, const char *const *names, const char *const *markers,
                                     gboolean force, GError **error) {
  if (!*dir) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--out '': expected a directory name");
    return FALSE;
  }
  if (g_file_test(dir, G_FILE_TEST_EXISTS) && !g_file_test(dir, G_FILE_TEST_IS_DIR)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--out %s: exists and is not a directory; expected a directory",
                dir);
    return FALSE;
  }
  if (g_mkdir_with_parents(dir, 0755) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--out %s: cannot create the directory (%s)", dir,
                g_strerror(errno));
    return FALSE;
  }
  gboolean ok = TRUE;
  for (int i = 0; i < n && ok; i++) {
    char *path = g_build_filename(dir, names[i], NULL);
    ok = trv_jssp_output_check(path, markers[i], force, error);
    g_free(path);
  }
  return ok;
}

gboolean trv_jssp_output_write(const char *path, const char *marker, const GString *contents, gboolean force,
                               GError **error) {
  g_assert(g_str_has_prefix(contents->str, marker)); /* so that the next write recognises it */
  if (!trv_jssp_output_check(path, marker, force, error)) return FALSE;
  GError *io = NULL;
  if (!g_file_set_contents(path, contents->str, (gssize)contents->len, &io)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot write (%s)", path, io->message);
    g_error_free(io);
    return FALSE;
  }
  return TRUE;
}

GString *trv_jssp_platform_xml(const TrvJsspInstance *inst) {
  char *name = display_name(inst->name);
  GString *x = g_string_new(TRV_JSSP_PLATFORM_MARKER);
  g_string_append_printf(x,
                         "%s (%d jobs, %d machines), written by\n"
                         "     `trivium jssp platform`.  Host mK is machine K; speed 1 flop/s, so an\n"
                         "     operation of duration d is d flops and takes d simulated seconds.  Links\n"
                         "     have latency 0 and 1 TBps and messages carry 0 bytes: dispatching costs\n"
                         "     no simulated time, so the makespan is the schedule's. -->\n"
                         "<platform version=\"4.1\">\n"
                         "  <zone id=\"jssp-%s\" routing=\"Full\">\n"
                         "    <host id=\"dispatcher\" speed=\"1f\">\n"
                         "      <prop id=\"trivium.role\" value=\"dispatcher\"/>\n"
                         "    </host>\n",
                         name, inst->n_jobs, inst->n_machines, name);
  for (int m = 0; m < inst->n_machines; m++)
    g_string_append_printf(x,
                           "    <host id=\"m%d\" speed=\"1f\">\n"
                           "      <prop id=\"trivium.role\" value=\"machine\"/>\n"
                           "      <prop id=\"trivium.machine\" value=\"%d\"/>\n"
                           "    </host>\n",
                           m, m);
  for (int m = 0; m < inst->n_machines; m++)
    g_string_append_printf(x, "    <link id=\"l%d\" bandwidth=\"1TBps\" latency=\"0\"/>\n", m);
  for (int m = 0; m < inst->n_machines; m++)
    g_string_append_printf(x, "    <route src=\"dispatcher\" dst=\"m%d\"><link_ctn id=\"l%d\"/></route>\n", m, m);
  g_string_append(x, "  </zone>\n</platform>\n");
  g_free(name);
  return x;
}

GString *trv_jssp_jobs_text(const TrvJsspInstance *inst) {
  char *name = display_name(inst->name);
  GString *j = g_string_new(TRV_JSSP_JOBS_MARKER);
  g_string_append_printf(j,
                         "%s, written by `trivium jssp platform`.\n"
                         "# OR-Library format: `jobs machines`, then one line per job of `machine duration`\n"
                         "# pairs in processing order; machine K runs on host mK of platform.xml.\n"
                         "%d %d\n",
                         name, inst->n_jobs, inst->n_machines);
  for (int jb = 0; jb < inst->n_jobs; jb++) {
    for (int k = 0; k < inst->n_ops; k++)
      g_string_append_printf(j, "%s%d %d", k ? "  " : "", inst->machine[jb * inst->n_ops + k],
                             inst->duration[jb * inst->n_ops + k]);
    g_string_append_c(j, '\n');
  }
  g_free(name);
  return j;
}

gboolean trv_jssp_write_platform(const TrvJsspInstance *inst, const char *dir, gboolean force, GError **error) {
  struct stat st;
  if (lstat(dir, &st) == 0) {
    if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s; expected a directory to write the platform in", dir,
                  S_ISLNK(st.st_mode) ? "is a symbolic link (the files would land wherever it points)"
                                      : "exists and is not a directory");
      return FALSE;
    }
  } else if (errno != ENOENT || g_mkdir_with_parents(dir, 0755) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot create the directory (%s)", dir, g_strerror(errno));
    return FALSE;
  }
  char *px = g_build_filename(dir, "platform.xml", NULL), *pj = g_build_filename(dir, "jobs.txt", NULL);
  GString *x = trv_jssp_platform_xml(inst), *j = trv_jssp_jobs_text(inst);
  /* Both checked before either is written: a refusal leaves the directory
   * as it was. */
  gboolean ok = trv_jssp_output_check(px, TRV_JSSP_PLATFORM_MARKER, force, error) &&
                trv_jssp_output_check(pj, TRV_JSSP_JOBS_MARKER, force, error) &&
                trv_jssp_output_write(px, TRV_JSSP_PLATFORM_MARKER, x, force, error) &&
                trv_jssp_output_write(pj, TRV_JSSP_JOBS_MARKER, j, force, error);
  g_free(px);
  g_free(pj);
  g_string_free(x, TRUE);
  g_string_free(j, TRUE);
  return ok;
}
