/* episode-columns.c - a point's episodes.csv read back for a world's
 * report (episode-columns.h).
 *
 * The file is the one the merge has just written, but it is read like any
 * input: a regular file only, bounded before it is read and while it is
 * read, line by line through a buffer of twice the longest line (never
 * the whole file in memory), every field it uses parsed whole.
 * Invariants: no line longer than TRV_EPISODES_MAX_LINE is accepted, no
 * more than max_rows rows are kept (one double a row per column asked
 * for, at most TRV_EPISODES_MAX_COLUMNS), and every message quotes the
 * file's text through trv_scn_printable, cut to 64 bytes. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/input.h"
#include "episode-columns.h"
#include "scenario/scenario.h"
#include <trivium/error.h>

enum { COL_CONTROLLER, COL_SEED, N_KEYS }; /* then the columns asked for */

static void cell_free(TrvEpisodeColumns *c) {
  for (int k = 0; k < c->n_columns; k++) g_array_free(c->values[k], TRUE);
  g_free(c->values);
  g_free(c);
}

/* Lines of a stream, each at most TRV_EPISODES_MAX_LINE bytes. */
typedef struct {
  FILE *in;
  char *buf; /* 2 * TRV_EPISODES_MAX_LINE + 2 bytes */
  size_t start, end;
  bool eof;
  unsigned long long read, limit; /* bytes read so far, and at most */
} Lines;

enum { LINE_END = 0, LINE_OK = 1, LINE_TOO_LONG = -1, LINE_TOO_MUCH = -2, LINE_IO = -3 };

/* The next line (NUL-terminated in place, without its newline). */
static int next_line(Lines *r, char **line, size_t *len) {
  const size_t cap = 2 * (size_t)TRV_EPISODES_MAX_LINE + 1;
  for (;;) {
    char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
    if (nl || (r->eof && r->start < r->end)) {
      *line = r->buf + r->start;
      *len = (nl ? (size_t)(nl - *line) : r->end - r->start);
      if (*len > TRV_EPISODES_MAX_LINE) return LINE_TOO_LONG;
      (*line)[*len] = 0;
      r->start += *len + (nl != NULL);
      return LINE_OK;
    }
    if (r->end - r->start > TRV_EPISODES_MAX_LINE) return LINE_TOO_LONG;
    if (r->eof) return LINE_END;
    memmove(r->buf, r->buf + r->start, r->end - r->start);
    r->end -= r->start;
    r->start = 0;
    size_t n = fread(r->buf + r->end, 1, cap - r->end, r->in);
    if (n == 0 && ferror(r->in)) return LINE_IO;
    if (n == 0) r->eof = true;
    r->end += n;
    if ((r->read += n) > r->limit) return LINE_TOO_MUCH;
  }
}

static bool fail(GError **error, const char *name, long line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static bool fail(GError **error, const char *name, long line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *where = line > 0 ? g_strdup_printf("%s:%ld", name, line) : g_strdup(name);
  char *text = g_strdup_printf("%s: %s", where, what), *printable = trv_scn_printable(text);
  g_set_error_literal(error, TRV_ERROR, TRV_ERROR_INPUT, printable);
  g_free(printable);
  g_free(text);
  g_free(where);
  g_free(what);
  return false;
}

/* "COLUMN 'FIELD'; expected WHAT", the field cut to 64 bytes. */
static bool fail_field(GError **error, const char *name, long line, const char *column, const char *field,
                       const char *what) {
  char *cut = trv_scn_shorten(field, 64);
  fail(error, name, line, "%s '%s'; expected %s", column, cut, what);
  g_free(cut);
  return false;
}

/* At most this many bytes for max_rows rows and the header. */
static unsigned long long byte_limit(long max_rows) {
  return ((unsigned long long)MAX(max_rows, 0) + 1) * TRV_EPISODES_MAX_LINE;
}

/* A number of the file: the whole field (g_ascii_strtod's forms). */
static bool number(const char *s, double *v) {
  char *end;
  *v = g_ascii_strtod(s, &end);
  return end != s && !*end && !g_ascii_isspace(*s);
}

GPtrArray *trv_episode_columns_read_stream(FILE *in, const char *name, const char *const *controllers,
                                           int n_controllers, const char *const *columns, long max_rows,
                                           GError **error) {
  int n_asked = columns ? (int)g_strv_length((char **)columns) : 0;
  if (n_asked > TRV_EPISODES_MAX_COLUMNS) {
    fail(error, name, 0, "%d columns asked for; expected at most %d", n_asked, TRV_EPISODES_MAX_COLUMNS);
    return NULL;
  }
  int n_cols = N_KEYS + n_asked;
  const char **col_names = g_new(const char *, (size_t)n_cols);
  col_names[COL_CONTROLLER] = "controller", col_names[COL_SEED] = "seed";
  for (int k = 0; k < n_asked; k++) col_names[N_KEYS + k] = columns[k];
  unsigned long long limit = byte_limit(max_rows);
  Lines r = {.in = in, .buf = g_malloc(2 * (size_t)TRV_EPISODES_MAX_LINE + 2), .limit = limit};
  GPtrArray *cells = g_ptr_array_new_with_free_func((GDestroyNotify)cell_free);
  int *at = g_new(int, (size_t)n_cols), n_head = 0;
  double *v = g_new0(double, (size_t)n_cols);
  long line_no = 0, rows = 0;
  TrvEpisodeColumns *cur = NULL;
  char *line, **f = NULL;
  size_t len;
  int got;
  bool ok = true;
  while (ok && (got = next_line(&r, &line, &len)) == LINE_OK) {
    line_no++;
    g_strfreev(f);
    f = NULL;
    if (memchr(line, 0, len)) {
      ok = fail(error, name, line_no, "a NUL byte; expected text");
      break;
    }
    if (len == 0) {
      ok = fail(error, name, line_no, "an empty line; expected %s", line_no == 1 ? "the header" : "a row");
      break;
    }
    f = g_strsplit(line, ",", -1);
    int n = (int)g_strv_length(f);
    if (line_no == 1) {
      n_head = n;
      for (int k = 0; ok && k < n_cols; k++) {
        at[k] = -1;
        for (int i = 0; i < n; i++)
          if (!strcmp(f[i], col_names[k])) at[k] = i;
        if (at[k] < 0)
          ok = fail(error, name, line_no,
                    "no column '%s'; expected the episodes.csv header of a run whose world's "
                    "report reads it",
                    col_names[k]);
      }
      continue;
    }
    if (++rows > max_rows) {
      ok = fail(error, name, line_no, "more rows than the run's %ld", max_rows);
      break;
    }
    if (n != n_head) {
      ok = fail(error, name, line_no, "%d fields; expected the header's %d", n, n_head);
      break;
    }
    int c = -1;
    for (int k = 0; k < n_controllers && c < 0; k++)
      if (!strcmp(f[at[COL_CONTROLLER]], controllers[k])) c = k;
    const char *s = f[at[COL_SEED]], *p = s;
    long long seed = 0;
    while (g_ascii_isdigit(*p) && seed <= INT_MAX) seed = seed * 10 + (*p++ - '0');
    int bad = -1;
    for (int k = N_KEYS; k < n_cols && bad < 0; k++)
      if (!number(f[at[k]], &v[k])) bad = k;
    if (c < 0)
      ok = fail_field(error, name, line_no, "controller", f[at[COL_CONTROLLER]], "one of the run's");
    else if (p == s || *p || seed > INT_MAX)
      ok = fail_field(error, name, line_no, "seed", s, "a whole number");
    else if (bad >= 0)
      ok = fail_field(error, name, line_no, col_names[bad], f[at[bad]], "a number");
    if (!ok) break;
    if (!cur || cur->controller != c || cur->seed != (int)seed) {
      cur = g_new0(TrvEpisodeColumns, 1);
      cur->controller = c, cur->seed = (int)seed;
      cur->n_columns = n_asked;
      cur->values = g_new0(GArray *, (size_t)MAX(n_asked, 1));
      for (int k = 0; k < n_asked; k++) cur->values[k] = g_array_new(FALSE, FALSE, sizeof(double));
      g_ptr_array_add(cells, cur);
    }
    for (int k = 0; k < n_asked; k++) g_array_append_val(cur->values[k], v[N_KEYS + k]);
  }
  g_strfreev(f);
  if (ok && got == LINE_TOO_LONG)
    ok = fail(error, name, line_no + 1, "a line of more than %d bytes; expected a row of episodes.csv",
              TRV_EPISODES_MAX_LINE);
  else if (ok && got == LINE_TOO_MUCH)
    ok = fail(error, name, 0, "more than %llu bytes; expected at most the run's %ld rows of at most %d bytes", limit,
              max_rows, TRV_EPISODES_MAX_LINE);
  else if (ok && got == LINE_IO)
    ok = fail(error, name, 0, "cannot read (%s)", g_strerror(errno));
  else if (ok && line_no == 0)
    ok = fail(error, name, 0, "empty; expected the episodes.csv header");
  g_free(r.buf);
  g_free(at);
  g_free(v);
  g_free(col_names);
  if (!ok) {
    g_ptr_array_free(cells, TRUE);
    return NULL;
  }
  return cells;
}

GPtrArray *trv_episode_columns_read(const char *path, const char *const *controllers, int n_controllers,
                                    const char *const *columns, long max_rows, GError **error) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    fail(error, path, 0, "cannot read (%s)", g_strerror(errno));
    if (fd >= 0) close(fd);
    return NULL;
  }
  if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > byte_limit(max_rows)) {
    if (!S_ISREG(st.st_mode))
      fail(error, path, 0, "%s; expected a regular file", trv_input_file_kind(&st));
    else
      fail(error, path, 0, "%lld bytes; expected at most the run's %ld rows of at most %d bytes", (long long)st.st_size,
           max_rows, TRV_EPISODES_MAX_LINE);
    close(fd);
    return NULL;
  }
  FILE *in = fdopen(fd, "r");
  if (!in) {
    fail(error, path, 0, "cannot read (%s)", g_strerror(errno));
    close(fd);
    return NULL;
  }
  GPtrArray *cells = trv_episode_columns_read_stream(in, path, controllers, n_controllers, columns, max_rows, error);
  fclose(in);
  return cells;
}
