/* jssp-instance.c - job-shop instances: the OR-Library parser, the file
 * loader and random test instances (the files written from an instance are
 * in jssp-platform.c).
 *
 * Invariants of a TrvJsspInstance it returns: 1 <= n_jobs <=
 * TRV_JSSP_MAX_JOBS, 1 <= n_machines <= TRV_JSSP_MAX_MACHINES, n_jobs x
 * n_machines <= TRV_JSSP_MAX_OPERATIONS, n_ops == n_machines, every job's
 * machines are a permutation of 0..n_machines-1, every duration in
 * 0..TRV_JSSP_MAX_DURATION.  Consumers rely on them (a machine runs exactly
 * n_jobs operations; a job holds at most one queued operation).
 *
 * The file is hostile until checked: every way it can break an invariant
 * is one TRV_ERROR_INPUT message "file:line: what was found; what was
 * expected", never an abort.  The header's counts are checked against the
 * limits before anything is allocated, and the operation arrays start at
 * the size the rest of the file can hold (a `machine duration` pair takes
 * at least 4 bytes) and grow only with job lines actually read, so a short
 * file cannot ask for a large allocation.
 * Integers are whole tokens of an optional sign and decimal digits, so
 * "3x", "1.5" or "0x10" are non-integer tokens, not 3, 1 or 0.  The parser
 * scans the text in place: its own memory is the instance plus two arrays
 * of n_machines ints. */
#include "jssp.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/rng.h"

/* A token's value, saturated: anything beyond the limits only needs to be
 * recognised as too large, and the message quotes the token itself. */
#define SATURATED ((long long)1 << 40)

/* TRUE when [s, s+n) is an optional sign followed by one or more decimal
 * digits; *value gets it, saturated at +-SATURATED. */
static gboolean parse_int(const char *s, size_t n, long long *value) {
  size_t i = 0;
  int sign = 1;
  if (n > 0 && (s[0] == '-' || s[0] == '+')) sign = s[i++] == '-' ? -1 : 1;
  if (i == n) return FALSE;
  long long v = 0;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return FALSE;
    if (v < SATURATED) v = v * 10 + (s[i] - '0');
  }
  *value = sign * MIN(v, SATURATED);
  return TRUE;
}

/* Text of the file for a message: at most `max` bytes, printable ASCII as
 * is, any other byte as \xNN, "..." when cut (a hostile token may be
 * megabytes of control characters).  g_free the result. */
static char *quote_text(const char *s, size_t n, size_t max) {
  GString *q = g_string_new(NULL);
  for (size_t i = 0; i < n && i < max; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f && c != '\\')
      g_string_append_c(q, (char)c);
    else
      g_string_append_printf(q, "\\x%02x", c);
  }
  if (n > max) g_string_append(q, "...");
  return g_string_free(q, FALSE);
}

static char *quote_token(const char *s, size_t n) { return quote_text(s, n, 24); }

static gboolean is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* A cursor over the text, one line at a time. */
typedef struct {
  const char *p, *end;
  const char *line, *line_end; /* the current line, without its '\n' */
  int number;                  /* 1-based number of the current line */
} Lines;

static gboolean next_line(Lines *l) {
  if (l->p >= l->end) return FALSE;
  const char *nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
  l->line = l->p;
  l->line_end = nl ? nl : l->end;
  l->p = nl ? nl + 1 : l->end;
  l->number++;
  return TRUE;
}

/* Finds the next token in [*p, end): TRUE with [*tok, *tok + *n). */
static gboolean next_token(const char **p, const char *end, const char **tok, size_t *n) {
  const char *q = *p;
  while (q < end && is_space(*q)) q++;
  if (q == end) return FALSE;
  *tok = q;
  while (q < end && !is_space(*q)) q++;
  *n = (size_t)(q - *tok);
  *p = q;
  return TRUE;
}

static gboolean is_comment_or_blank(const Lines *l) {
  const char *p = l->line, *tok;
  size_t n;
  return !next_token(&p, l->line_end, &tok, &n) || *tok == '#';
}

/* TRUE when the current line is exactly two integers (the header). */
static gboolean two_integers(const Lines *l, long long *a, long long *b) {
  const char *p = l->line, *t1, *t2, *t3;
  size_t n1, n2, n3;
  return next_token(&p, l->line_end, &t1, &n1) && parse_int(t1, n1, a) && next_token(&p, l->line_end, &t2, &n2) &&
         parse_int(t2, n2, b) && !next_token(&p, l->line_end, &t3, &n3);
}

static void input_error(GError **error, const char *file, int line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static void input_error(GError **error, const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s:%d: %s", file, line, what);
  g_free(what);
}

/* Checks the header's counts against the limits; TRUE when they pass. */
static gboolean header_fits(long long jobs, long long machines, const Lines *l, GError **error, const char *file) {
  const int line = l->number;
  if (jobs < 1 || jobs > TRV_JSSP_MAX_JOBS || machines < 1 || machines > TRV_JSSP_MAX_MACHINES) {
    const char *p = l->line;
    while (p < l->line_end && is_space(*p)) p++;
    char *q = quote_text(p, (size_t)(l->line_end - p), 48);
    input_error(error, file, line, "header `jobs machines` is '%s'; expected jobs in 1..%d and machines in 1..%d", q,
                TRV_JSSP_MAX_JOBS, TRV_JSSP_MAX_MACHINES);
    g_free(q);
    return FALSE;
  }
  long long ops = jobs * machines;
  if (ops > TRV_JSSP_MAX_OPERATIONS) {
    input_error(error, file, line, "header announces %lld jobs x %lld machines = %lld operations; expected at most %d",
                jobs, machines, ops, TRV_JSSP_MAX_OPERATIONS);
    return FALSE;
  }
  return TRUE;
}

/* The operation arrays of a parse: allocated for what the text can hold,
 * grown (never beyond the header's count) as job lines arrive. */
typedef struct {
  int cap, ops; /* allocated entries; the header's jobs x machines */
} Room;

/* Makes room for entry k (< room->ops) in inst's arrays. */
static void make_room(TrvJsspInstance *inst, Room *room, int k) {
  if (k < room->cap) return;
  room->cap = (int)MIN((gint64)room->ops, MAX((gint64)k + 1, 2 * (gint64)room->cap));
  inst->machine = g_renew(int, inst->machine, room->cap);
  inst->duration = g_renew(int, inst->duration, room->cap);
}

/* Reads job line `job` (the current line of l) into inst.  visited[m] is
 * 1 + the last job that visited machine m, at operation visit_op[m]. */
static gboolean parse_job_line(TrvJsspInstance *inst, Room *room, const Lines *l, int job, int *visited, int *visit_op,
                               const char *file, GError **error) {
  const int M = inst->n_machines;
  const char *p = l->line, *tok;
  size_t len;
  int n = 0;
  for (; next_token(&p, l->line_end, &tok, &len); n++) {
    long long v;
    if (!parse_int(tok, len, &v)) {
      char *q = quote_token(tok, len);
      input_error(error, file, l->number, "expected an integer (token %d of job %d), got '%s'", n + 1, job, q);
      g_free(q);
      return FALSE;
    }
    if (n >= 2 * M) continue; /* counted, reported below */
    int k = job * M + n / 2, op = n / 2;
    make_room(inst, room, k);
    if (n % 2 == 0) {
      if (v < 0 || v >= M) {
        char *q = quote_token(tok, len);
        input_error(error, file, l->number, "machine index %s of job %d operation %d out of range; expected 0..%d", q,
                    job, op, M - 1);
        g_free(q);
        return FALSE;
      }
      if (visited[v] == job + 1) {
        input_error(error, file, l->number,
                    "job %d visits machine %lld twice (operations %d and %d); expected every job to visit every "
                    "machine exactly once",
                    job, v, visit_op[v], op);
        return FALSE;
      }
      visited[v] = job + 1;
      visit_op[v] = op;
      inst->machine[k] = (int)v;
    } else {
      if (v < 0 || v > TRV_JSSP_MAX_DURATION) {
        char *q = quote_token(tok, len);
        if (v < 0)
          input_error(error, file, l->number, "negative duration %s of job %d operation %d; expected an integer >= 0",
                      q, job, op);
        else
          input_error(error, file, l->number, "duration %s of job %d operation %d; expected at most %d", q, job, op,
                      TRV_JSSP_MAX_DURATION);
        g_free(q);
        return FALSE;
      }
      inst->duration[k] = (int)v;
    }
  }
  if (n != 2 * M) {
    input_error(error, file, l->number, "job %d has %d integers; expected %d (%d `machine duration` pairs)%s", job, n,
                2 * M, M, n < 2 * M ? " - truncated line" : "");
    return FALSE;
  }
  return TRUE;
}

TrvJsspInstance *trv_jssp_instance_parse(const char *text, gssize len, const char *file, GError **error) {
  size_t size = len < 0 ? strlen(text) : (size_t)len;
  /* The loader's limit holds for text from anywhere, which also keeps line
   * numbers and offsets far below INT_MAX. */
  if (size > TRV_JSSP_MAX_FILE_BYTES) {
    input_error(error, file, 1, "%zu bytes; expected an instance of at most %d bytes", size, TRV_JSSP_MAX_FILE_BYTES);
    return NULL;
  }
  Lines l = {.p = text, .end = text + size};
  const char *nul = memchr(text, '\0', size);
  if (nul) {
    int line = 1;
    for (const char *c = text; c < nul; c++) line += *c == '\n';
    input_error(error, file, line, "NUL byte at offset %td; expected a text file", nul - text);
    return NULL;
  }
  long long jobs = 0, machines = 0;
  gboolean header = FALSE;
  while (!header && next_line(&l)) header = !is_comment_or_blank(&l) && two_integers(&l, &jobs, &machines);
  if (!header) {
    input_error(error, file, MAX(l.number, 1),
                "found no header; expected a line `jobs machines` (two integers) before the job lines");
    return NULL;
  }
  if (!header_fits(jobs, machines, &l, error, file)) return NULL;
  const int J = (int)jobs, M = (int)machines;
  TrvJsspInstance *inst = g_new0(TrvJsspInstance, 1);
  inst->name = g_path_get_basename(file);
  inst->n_jobs = J;
  inst->n_machines = inst->n_ops = M;
  /* A job line of M pairs has 2M tokens and 2M-1 separators and lines are
   * separated by newlines, so n pairs take at least 4n-1 bytes. */
  Room room = {.ops = J * M};
  room.cap = (int)MIN((gint64)room.ops, ((gint64)(l.end - l.p) + 1) / 4);
  inst->machine = g_new(int, MAX(room.cap, 1));
  inst->duration = g_new(int, MAX(room.cap, 1));
  room.cap = MAX(room.cap, 1);
  int *visited = g_new0(int, M), *visit_op = g_new0(int, M);
  int job = 0, last = l.number;
  gboolean ok = TRUE;
  while (ok && next_line(&l)) {
    if (is_comment_or_blank(&l)) continue;
    last = l.number;
    if (job == J) {
      input_error(error, file, l.number,
                  "found more lines; expected end of file after the %d job lines announced by the header", J);
      ok = FALSE;
    } else
      ok = parse_job_line(inst, &room, &l, job++, visited, visit_op, file, error);
  }
  if (ok && job < J) {
    input_error(error, file, last, "file ends after %d job lines; expected %d job lines after the header", job, J);
    ok = FALSE;
  }
  g_free(visited);
  g_free(visit_op);
  if (!ok) g_clear_pointer(&inst, trv_jssp_instance_free);
  return inst;
}

TrvJsspInstance *trv_jssp_instance_load(const char *path, GError **error) {
  char *text;
  size_t len;
  if (!trv_input_read(path, TRV_JSSP_MAX_FILE_BYTES, "instance", TRV_INPUT_PIPE_OK, &text, &len, error)) return NULL;
  TrvJsspInstance *inst = trv_jssp_instance_parse(text, (gssize)len, path, error);
  g_free(text);
  return inst;
}

void trv_jssp_instance_free(TrvJsspInstance *inst) {
  if (!inst) return;
  g_free(inst->name);
  g_free(inst->machine);
  g_free(inst->duration);
  g_free(inst);
}

long trv_jssp_instance_work(const TrvJsspInstance *inst) {
  long w = 0;
  for (int i = 0; i < inst->n_jobs * inst->n_ops; i++) w += inst->duration[i];
  return w;
}

TrvJsspInstance *trv_jssp_instance_random(int n_jobs, int n_machines, int max_duration, guint64 seed) {
  g_assert(n_jobs >= 1 && n_machines >= 1 && max_duration >= 0);
  TrvRng rng;
  trv_rng_init(&rng, seed, TRV_STREAM_WORLD);
  TrvJsspInstance *inst = g_new0(TrvJsspInstance, 1);
  inst->name = g_strdup_printf("random-%dx%d-s%" G_GUINT64_FORMAT, n_jobs, n_machines, seed);
  inst->n_jobs = n_jobs;
  inst->n_machines = inst->n_ops = n_machines;
  inst->machine = g_new(int, (gsize)n_jobs *n_machines);
  inst->duration = g_new(int, (gsize)n_jobs *n_machines);
  for (int j = 0; j < n_jobs; j++) {
    int *route = inst->machine + j * n_machines;
    for (int k = 0; k < n_machines; k++) route[k] = k;
    for (int k = n_machines - 1; k > 0; k--) { /* Fisher-Yates */
      int r = (int)trv_rng_below(&rng, (uint64_t)k + 1), tmp = route[k];
      route[k] = route[r];
      route[r] = tmp;
    }
    for (int k = 0; k < n_machines; k++)
      inst->duration[j * n_machines + k] = (int)trv_rng_below(&rng, (uint64_t)max_duration + 1);
  }
  return inst;
}
