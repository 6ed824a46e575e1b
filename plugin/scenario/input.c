/* input.c - what the two XML readers of this layer (the scenario loader,
 * the platform reader) share besides the Expat reader itself (xml.c):
 * reading a file a user hands us, and the text helpers of their messages.
 *
 * An input file is data of bounded size.  It is opened with O_NONBLOCK (an
 * open of a FIFO would otherwise wait for a writer), checked with fstat on
 * the opened descriptor (so the checked file is the read file) to be a
 * regular file of at most the reader's limit, and only then read, never
 * more than limit + 1 bytes: a file that grows past the limit while it is
 * read (or a /proc file that reports size 0) is refused the same way.
 * What a file gives as a relative path starts from the file's directory,
 * which is read with it (TrvScnInput) so that both readers keep that rule.
 *
 * Messages go through trv_scn_printable() so that a control character in a
 * value (&#10;, an escape sequence) or a path can never split the one-line
 * message or reach a terminal raw. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scenario-internal.h"

/* "a directory", "a FIFO", ... for a file that is not regular. */
static const char *file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/* Sets *error to the message, control characters escaped (a path may hold
 * any byte but '/' and NUL). */
static void input_fail(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void input_fail(GError **error, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *printable = trv_scn_printable(msg);
  g_set_error_literal(error, TRV_ERROR, TRV_ERROR_INPUT, printable);
  g_free(printable);
  g_free(msg);
}

const char *trv_scn_stat_kind(const struct stat *st) {
  return S_ISREG(st->st_mode) ? NULL : file_kind(st->st_mode);
}

bool trv_scn_input_read(const char *path, size_t max_bytes, const char *what, TrvScnInput *in, GError **error) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    int e = errno;
    input_fail(error, "%s: cannot read the %s (%s); expected a readable file", path, what,
                g_strerror(e));
    if (fd >= 0) close(fd);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    input_fail(error, "%s: the %s is %s; expected a regular file", path, what,
                file_kind(st.st_mode));
    close(fd);
    return false;
  }
  if (st.st_size < 0 || (unsigned long long)st.st_size > max_bytes) {
    input_fail(error, "%s: the %s is %lld bytes; expected at most %zu bytes", path, what,
                (long long)st.st_size, max_bytes);
    close(fd);
    return false;
  }
  /* The size fstat reported is a hint (a file may change, /proc reports 0):
   * read until EOF, growing the buffer, but never past max_bytes + 1. */
  size_t cap = (size_t)st.st_size + 1, len = 0;
  char *buf = g_malloc(cap + 1);
  for (;;) {
    if (len == cap) {
      if (cap > max_bytes) break;
      cap = MIN(cap * 2, max_bytes + 1);
      buf = g_realloc(buf, cap + 1);
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      input_fail(error, "%s: cannot read the %s (%s); expected a readable file", path,
                  what, g_strerror(e));
      g_free(buf);
      close(fd);
      return false;
    }
    if (n == 0) break;
    len += (size_t)n;
  }
  close(fd);
  if (len > max_bytes) {
    input_fail(error, "%s: the %s is more than %zu bytes; expected at most %zu bytes",
                path, what, max_bytes, max_bytes);
    g_free(buf);
    return false;
  }
  buf[len] = '\0';
  *in = (TrvScnInput){buf, len, g_path_get_dirname(path)};
  return true;
}

void trv_scn_input_free(TrvScnInput *in) {
  g_free(in->text);
  g_free(in->dir);
}

/* ---- messages ---- */

char *trv_scn_printable(const char *msg) {
  GString *s = g_string_sized_new(strlen(msg));
  for (const char *p = msg; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c < 0x20 || c == 0x7f) g_string_append_printf(s, "\\x%02x", c);
    else g_string_append_c(s, (char)c);
  }
  return g_string_free(s, FALSE);
}

char *trv_scn_shorten(const char *s, size_t max) {
  size_t len = strlen(s);
  if (len <= max) return g_strdup(s);
  const char *cut = s + max;
  while (cut > s && ((unsigned char)*cut & 0xC0) == 0x80) cut--; /* not inside a UTF-8 sequence */
  return g_strdup_printf("%.*s...", (int)(cut - s), s);
}
