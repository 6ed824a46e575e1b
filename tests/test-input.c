/* The bounded reader of user inputs (core/input.h): what it reads, what it
 * refuses before reading a byte, and what it refuses while reading. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <signal.h>
#include <stdarg.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/input.h"

typedef struct {
  char *dir;
} Fixture;

static void fixture_set_up(Fixture *f, gconstpointer data) {
  (void)data;
  f->dir = g_dir_make_tmp("trv-input-XXXXXX", NULL);
  g_assert_nonnull(f->dir);
}

static void fixture_tear_down(Fixture *f, gconstpointer data) {
  (void)data;
  GDir *d = g_dir_open(f->dir, 0, NULL);
  for (const char *n; d && (n = g_dir_read_name(d));) {
    char *p = g_build_filename(f->dir, n, NULL);
    g_remove(p);
    g_free(p);
  }
  if (d) g_dir_close(d);
  g_rmdir(f->dir);
  g_free(f->dir);
}

/* trv_input_read refuses path with code and the message fmt says, and
 * leaves nothing behind. */
static void assert_refused(const char *path, size_t max, unsigned flags, gint code, const char *fmt, ...)
    G_GNUC_PRINTF(5, 6);
static void assert_refused(const char *path, size_t max, unsigned flags, gint code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *want = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *data = (char *)"untouched";
  size_t len = 99;
  GError *err = NULL;
  g_assert_false(trv_input_read(path, max, "thing", flags, &data, &len, &err));
  g_assert_error(err, TRV_ERROR, code);
  g_assert_cmpstr(err->message, ==, want);
  g_assert_null(data);
  g_assert_cmpuint(len, ==, 0);
  g_error_free(err);
  g_free(want);
}

/* A file of exactly the limit is read whole, NUL-terminated, embedded NULs
 * kept; one byte more is refused from its size. */
static void regular_file_read_whole_up_to_the_limit(Fixture *f, gconstpointer data) {
  (void)data;
  char *p = g_build_filename(f->dir, "t.txt", NULL);
  const char bytes[] = {'a', 0, 'b', '\n', 'c'};
  g_assert_true(g_file_set_contents(p, bytes, sizeof bytes, NULL));
  char *text;
  size_t len;
  GError *err = NULL;
  g_assert_true(trv_input_read(p, sizeof bytes, "thing", TRV_INPUT_REGULAR, &text, &len, &err));
  g_assert_no_error(err);
  g_assert_cmpuint(len, ==, sizeof bytes);
  g_assert_cmpmem(text, len, bytes, sizeof bytes);
  g_assert_cmpint(text[len], ==, 0);
  g_free(text);
  assert_refused(p, 4, TRV_INPUT_REGULAR, TRV_ERROR_INPUT, "%s: the thing is 5 bytes; expected at most 4 bytes", p);
  g_free(p);
}

/* A sparse file of 3 GiB is refused from fstat alone: nothing is read. */
static void oversized_file_refused_before_reading(Fixture *f, gconstpointer data) {
  (void)data;
  char *p = g_build_filename(f->dir, "big", NULL);
  int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint(fd, >=, 0);
  g_assert_cmpint(ftruncate(fd, (off_t)3 << 30), ==, 0);
  close(fd);
  gint64 t0 = g_get_monotonic_time();
  assert_refused(p, 1 << 20, TRV_INPUT_PIPE_OK, TRV_ERROR_INPUT,
                 "%s: the thing is 3221225472 bytes; expected at most 1048576 bytes", p);
  g_assert_cmpint(g_get_monotonic_time() - t0, <, G_USEC_PER_SEC);
  g_free(p);
}

static void directories_devices_and_missing_files_refused(Fixture *f, gconstpointer data) {
  (void)data;
  assert_refused(f->dir, 100, TRV_INPUT_REGULAR, TRV_ERROR_INPUT,
                 "%s: the thing is a directory; expected a regular file", f->dir);
  if (g_file_test("/dev/zero", G_FILE_TEST_EXISTS)) /* a device may never end: refused even where pipes are not */
    assert_refused("/dev/zero", 100, TRV_INPUT_PIPE_OK, TRV_ERROR_INPUT,
                   "/dev/zero: the thing is a character device; expected a regular file or a pipe");
  char *none = g_build_filename(f->dir, "none", NULL);
  assert_refused(none, 100, TRV_INPUT_REGULAR, TRV_ERROR_INPUT,
                 "%s: cannot read the thing (%s); expected a readable file", none, g_strerror(ENOENT));
  g_free(none);
}

/* A FIFO where only regular files are taken is refused at once, without
 * waiting for a writer (the open does not block). */
static void fifo_refused_without_blocking_when_not_taken(Fixture *f, gconstpointer data) {
  (void)data;
  char *p = g_build_filename(f->dir, "fifo", NULL);
  g_assert_cmpint(mkfifo(p, 0600), ==, 0);
  assert_refused(p, 100, TRV_INPUT_REGULAR, TRV_ERROR_INPUT, "%s: the thing is a FIFO; expected a regular file", p);
  g_free(p);
}

typedef struct {
  int fd;
  size_t bytes;
} Writer;

static gpointer write_pipe(gpointer data) {
  Writer *w = data;
  char chunk[4096];
  memset(chunk, 'x', sizeof chunk);
  for (size_t left = w->bytes; left > 0;) {
    ssize_t n = write(w->fd, chunk, MIN(left, sizeof chunk));
    if (n <= 0) break; /* the reader stopped (EPIPE): it refused the rest */
    left -= (size_t)n;
  }
  close(w->fd);
  return NULL;
}

/* A pipe has no size: it is read until EOF, and refused once it passes the
 * limit, never read further. */
static void pipe_read_until_eof_and_refused_past_the_limit(Fixture *f, gconstpointer data) {
  (void)f;
  (void)data;
  size_t limit = 200000;
  for (int over = 0; over <= 1; over++) {
    int fds[2];
    g_assert_cmpint(pipe(fds), ==, 0);
    Writer w = {fds[1], limit + (size_t)over * 100000};
    GThread *t = g_thread_new("writer", write_pipe, &w);
    char *path = g_strdup_printf("/dev/fd/%d", fds[0]), *text = NULL;
    size_t len = 0;
    GError *err = NULL;
    bool ok = trv_input_read(path, limit, "thing", TRV_INPUT_PIPE_OK, &text, &len, &err);
    close(fds[0]); /* the writer of a refused pipe stops on EPIPE */
    g_thread_join(t);
    if (!over) {
      g_assert_no_error(err);
      g_assert_true(ok);
      g_assert_cmpuint(len, ==, limit);
      g_assert_cmpint(text[0], ==, 'x');
      g_assert_cmpint(text[len], ==, 0);
      g_free(text);
    } else {
      g_assert_false(ok);
      g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
      char *want = g_strdup_printf("%s: the thing is more than 200000 bytes; expected at most 200000 bytes", path);
      g_assert_cmpstr(err->message, ==, want);
      g_free(want);
      g_error_free(err);
    }
    g_free(path);
  }
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  signal(SIGPIPE, SIG_IGN);
#define ADD(name) g_test_add("/input/" #name, Fixture, NULL, fixture_set_up, name, fixture_tear_down)
  ADD(regular_file_read_whole_up_to_the_limit);
  ADD(oversized_file_refused_before_reading);
  ADD(directories_devices_and_missing_files_refused);
  ADD(fifo_refused_without_blocking_when_not_taken);
  ADD(pipe_read_until_eof_and_refused_past_the_limit);
  return g_test_run();
}
