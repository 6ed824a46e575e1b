/* out-file.c - how a run writes its files (out-file.h).
 *
 * A run directory is not always one's own: `trivium report` and `trivium
 * merge` work on directories received from others, a run resumes in a
 * directory that already holds files, and a program with the plugin writes
 * its run's directory (trivium_results_write_dir) wherever it is told.  Whatever is planted there, a run
 * writes only inside it:
 *   - the directory the user names (-o, merge/report DIR, --ctl DIR) may be
 *     a link: the user chose it;
 *   - every directory a run writes into below it (cells/, figures/, a
 *     sweep's points, slurm/) is a real directory, checked when the run
 *     makes it, never a link;
 *   - every file is first created under a temporary name through its
 *     directory's descriptor with O_CREAT | O_EXCL | O_NOFOLLOW (so no link
 *     at that name is ever followed), written, then renamed into place; a
 *     link at the temporary or the final name is refused, not replaced.
 * A refusal is an input error (exit 2) naming the path: a link where the
 * run writes is either planted or a mistake, and saying so is better than
 * working around it. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trivium/error.h>

#include "out-file.h"

static bool refuse(GError **error, const char *path, const struct stat *st) {
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
              "%s: %s where the run writes; a run writes only inside its directory and never through a link "
              "(remove it and run again)",
              path,
              S_ISLNK(st->st_mode)   ? "a symbolic link"
              : S_ISDIR(st->st_mode) ? "a directory"
                                     : "not a regular file");
  return false;
}

static bool io_error(GError **error, const char *path, const char *what, int err) {
  g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: %s (%s)", path, what, g_strerror(err));
  return false;
}

bool trv_out_dir(const char *path, bool top, GError **error) {
  struct stat st;
  if (top) {
    if (g_mkdir_with_parents(path, 0777) != 0 || stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "output directory %s: cannot create (%s)", path,
                  g_strerror(errno ? errno : ENOTDIR));
      return false;
    }
    return true;
  }
  if (mkdir(path, 0777) != 0 && errno != EEXIST) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot create (%s)", path, g_strerror(errno));
    return false;
  }
  if (lstat(path, &st) != 0) return io_error(error, path, "cannot read", errno);
  return S_ISDIR(st.st_mode) || refuse(error, path, &st);
}

int trv_out_create(const char *path, GError **error) {
  char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path);
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd = -1;
  if (dfd < 0) io_error(error, dir, "cannot open the directory", errno);
  for (int attempt = 0; dfd >= 0 && fd < 0 && attempt < 2; attempt++) {
    fd = openat(dfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) break;
    if (errno != EEXIST) {
      io_error(error, path, "cannot create", errno);
      break;
    }
    struct stat st; /* what an interrupted write left is removed; anything else is refused */
    if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      io_error(error, path, "cannot read", errno);
      break;
    }
    if (!S_ISREG(st.st_mode)) {
      refuse(error, path, &st);
      break;
    }
    if (unlinkat(dfd, base, 0) != 0 || attempt == 1) {
      io_error(error, path, "cannot replace", attempt ? EEXIST : errno);
      break;
    }
  }
  if (dfd >= 0) close(dfd);
  g_free(dir);
  g_free(base);
  return fd;
}

int trv_out_open(const char *path, int flags, GError **error) {
  int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, 0666);
  struct stat st;
  if (fd < 0 && errno == ELOOP && lstat(path, &st) == 0)
    refuse(error, path, &st);
  else if (fd < 0)
    io_error(error, path, "cannot open", errno);
  return fd;
}

bool trv_out_writable(const char *path, GError **error) {
  struct stat st;
  if (lstat(path, &st) != 0) return errno == ENOENT || io_error(error, path, "cannot read", errno);
  return S_ISREG(st.st_mode) || refuse(error, path, &st);
}

bool trv_out_commit(const char *tmp, const char *path, GError **error) {
  if (!trv_out_writable(path, error)) return false;
  return rename(tmp, path) == 0 || io_error(error, path, "cannot rename into place", errno);
}

static bool write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w, n -= (size_t)w;
  }
  return true;
}

bool trv_out_write(const char *path, const char *text, gssize len, int mode, GError **error) {
  size_t n = len < 0 ? strlen(text) : (size_t)len;
  struct stat st;
  bool existed = lstat(path, &st) == 0;
  if (!trv_out_writable(path, error)) return false;
  char *tmp = g_strconcat(path, ".tmp", NULL);
  int fd = trv_out_create(tmp, error);
  bool ok = fd >= 0;
  if (ok && mode != 0666 && fchmod(fd, (mode_t)mode) != 0) ok = io_error(error, tmp, "cannot write", errno);
  /* as g_file_set_contents: a file that replaces another is synced first,
   * so that a crash leaves the old one or the new one */
  if (ok && (!write_all(fd, text, n) || (existed && fsync(fd) != 0))) ok = io_error(error, path, "cannot write", errno);
  if (fd >= 0 && close(fd) != 0 && ok) ok = io_error(error, path, "cannot write", errno);
  ok = ok && trv_out_commit(tmp, path, error);
  if (!ok && fd >= 0) unlink(tmp);
  g_free(tmp);
  return ok;
}

bool trv_write_file_atomic(const char *path, const char *text, gssize len, GError **error) {
  return trv_out_write(path, text, len, 0666, error);
}

bool trv_out_dir_check(const char *out, bool top, GError **error) {
  if (!trv_out_dir(out, top, error)) return false;
  /* a file made and removed: the directory takes new files.  The name is
   * the process's own: the jobs of a job list probe one directory at once,
   * and one's probe is never another's interrupted write to remove. */
  char *name = g_strdup_printf(".write-test-%ld", (long)getpid());
  char *probe = g_build_filename(out, name, NULL);
  GError *e = NULL;
  int fd = trv_out_create(probe, &e);
  if (fd >= 0) {
    close(fd);
    unlink(probe);
  } else if (e->code == TRV_ERROR_INPUT) {
    g_propagate_error(error, e);
  } else {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "output directory %s: not writable (%s)", out, e->message);
    g_error_free(e);
  }
  g_free(probe);
  g_free(name);
  return fd >= 0;
}
