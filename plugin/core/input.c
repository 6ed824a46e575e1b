/* input.c - the bounded reader of user inputs (input.h). */
#include "core/input.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

const char *trv_input_file_kind(const struct stat *st) {
  mode_t m = st->st_mode;
  if (S_ISREG(m)) return NULL;
  if (S_ISDIR(m)) return "a directory";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

bool trv_input_read(const char *path, size_t max_bytes, const char *what, unsigned flags, char **data, size_t *len,
                    GError **error) {
  *data = NULL;
  *len = 0;
  bool pipe_ok = flags & TRV_INPUT_PIPE_OK;
  const char *expected = pipe_ok ? "a regular file or a pipe" : "a regular file";
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    int e = errno;
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot read the %s (%s); expected a readable file", path, what,
                g_strerror(e));
    if (fd >= 0) close(fd);
    return false;
  }
  bool regular = S_ISREG(st.st_mode), stream = pipe_ok && S_ISFIFO(st.st_mode);
  if (!regular && !stream) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: the %s is %s; expected %s", path, what,
                trv_input_file_kind(&st), expected);
    close(fd);
    return false;
  }
  if (regular && (st.st_size < 0 || (unsigned long long)st.st_size > max_bytes)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: the %s is %lld bytes; expected at most %zu bytes", path, what,
                (long long)st.st_size, max_bytes);
    close(fd);
    return false;
  }
  /* a pipe is read as it comes: blocking, like any reader of a pipe */
  if (stream && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    int e = errno;
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot read the %s (%s)", path, what, g_strerror(e));
    close(fd);
    return false;
  }
  /* The size fstat reported is a hint (a file may change, /proc reports 0,
   * a pipe has none): read until EOF, growing the buffer, but never past
   * max_bytes + 1. */
  size_t cap = regular ? (size_t)st.st_size + 1 : MIN((size_t)65536, max_bytes + 1), n = 0;
  char *buf = g_malloc(cap + 1);
  for (;;) {
    if (n == cap) {
      if (cap > max_bytes) break;
      cap = cap > max_bytes / 2 ? max_bytes + 1 : cap * 2;
      buf = g_realloc(buf, cap + 1);
    }
    ssize_t got = read(fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      int e = errno;
      g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: reading the %s failed (%s)", path, what, g_strerror(e));
      g_free(buf);
      close(fd);
      return false;
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  close(fd);
  if (n > max_bytes) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: the %s is more than %zu bytes; expected at most %zu bytes",
                path, what, max_bytes, max_bytes);
    g_free(buf);
    return false;
  }
  buf[n] = '\0';
  *data = buf;
  *len = n;
  return true;
}
