/* fault-trace.c - the reader of fault traces: recorded outages a scenario
 * replays (<fault-trace file="...">), one event a line, "TIME RESOURCE
 * STATE".  The format and its rules are in scenario.h (TrvFaultTrace) and
 * docs/scenarios.md; the SimGrid attachment plays the intervals
 * (plugin/sim/faults.c), the loader checks the names against the platform
 * (scenario.c).
 *
 * A trace is hostile until checked.  Its size is bounded before it is read
 * (core/input.h), a line's length before it is looked at, and the events,
 * resources and globs before each one is stored, so memory is at most
 * proportional to the bytes read.  Each resource keeps its intervals as
 * the lines build them: a down opens one, an up closes it; the checks of
 * order and alternation need only the resource's last interval.  The
 * first mistake ends the read with one message naming the file and line
 * (printable: trv_scn_printable), and nothing is returned. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "core/input.h"
#include "scenario-internal.h"

#define MAX_FIELDS 3

/* The reader's state: the trace being built and where it is. */
typedef struct {
  TrvFaultTrace *t;
  GHashTable *index; /* "l:NAME" or "h:NAME" -> TrvTraceResource * */
  size_t n_globs;
  const char *name;
  int line;
  GError **error;
} Reader;

static bool fail(Reader *r, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool fail(Reader *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *msg = r->line ? g_strdup_printf("%s:%d: %s", r->name, r->line, what) : g_strdup_printf("%s: %s", r->name, what);
  char *printable = trv_scn_printable(msg);
  g_set_error_literal(r->error, TRV_ERROR, TRV_ERROR_INPUT, printable);
  g_free(printable);
  g_free(msg);
  g_free(what);
  return false;
}

static void resource_free(gpointer p) {
  TrvTraceResource *res = p;
  g_free(res->name);
  g_array_free(res->intervals, TRUE);
  g_free(res);
}

void trv_fault_trace_free(TrvFaultTrace *t) {
  if (!t) return;
  g_free(t->file);
  g_ptr_array_free(t->resources, TRUE);
  g_free(t);
}

/* "%g s" of a time, for messages (caller frees). */
static char *seconds_text(double s) {
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  return g_strdup_printf("%s s", g_ascii_formatd(buf, sizeof buf, "%g", s));
}

/* The resource `name` of the kind `host`, new or known; NULL after failing
 * on a bound. */
static TrvTraceResource *resource(Reader *r, const char *name, bool host) {
  char *key = g_strdup_printf("%c:%s", host ? 'h' : 'l', name);
  TrvTraceResource *res = g_hash_table_lookup(r->index, key);
  if (res) {
    g_free(key);
    return res;
  }
  bool glob = strpbrk(name, "*?[\\") != NULL;
  if (r->t->resources->len >= TRV_FAULT_TRACE_MAX_RESOURCES) {
    g_free(key);
    fail(r, "resource number %u ('%s'); expected at most %d distinct resources in a trace", r->t->resources->len + 1,
         name, TRV_FAULT_TRACE_MAX_RESOURCES);
    return NULL;
  }
  if (glob && r->n_globs >= TRV_FAULT_TRACE_MAX_GLOBS) {
    g_free(key);
    fail(r, "glob number %zu ('%s'); expected at most %d distinct globs in a trace (name the resources one by one)",
         r->n_globs + 1, name, TRV_FAULT_TRACE_MAX_GLOBS);
    return NULL;
  }
  r->n_globs += glob;
  res = g_new0(TrvTraceResource, 1);
  res->name = g_strdup(name);
  res->host = host;
  res->glob = glob;
  res->line = r->line;
  res->intervals = g_array_new(FALSE, FALSE, sizeof(TrvTraceInterval));
  g_ptr_array_add(r->t->resources, res);
  g_hash_table_insert(r->index, key, res);
  return res;
}

/* Applies one event: `down` (down/off) or not (up/on) of `res` at `t`. */
static bool apply(Reader *r, TrvTraceResource *res, double t, bool down, const char *state) {
  const char *kind = res->host ? "host" : "link", *went = res->host ? "off" : "down", *back = res->host ? "on" : "up";
  TrvTraceInterval *last =
      res->intervals->len ? &g_array_index(res->intervals, TrvTraceInterval, res->intervals->len - 1) : NULL;
  bool is_down = last && last->up_line == 0;
  double previous = !last ? 0 : is_down ? last->down : last->up;
  int previous_line = !last ? 0 : is_down ? last->down_line : last->up_line;
  if (down == is_down) {
    if (down)
      return fail(r, "%s '%s' %s, but it is %s since line %d; expected '%s' before another '%s'", kind, res->name,
                  state, went, previous_line, back, went);
    if (last)
      return fail(r, "%s '%s' %s, but it is %s since line %d; expected '%s' before another '%s'", kind, res->name,
                  state, back, previous_line, went, back);
    return fail(r, "%s '%s' %s, but it is %s (every %s is %s until a line takes it %s); expected '%s' first", kind,
                res->name, state, back, kind, back, went, went);
  }
  if (last && t < previous) {
    char *now = seconds_text(t), *before = seconds_text(previous);
    fail(r,
         "%s '%s' %s at %s, before its previous event (line %d, at %s); expected the lines of a resource in time "
         "order",
         kind, res->name, state, now, previous_line, before);
    g_free(now);
    g_free(before);
    return false;
  }
  if (!down) {
    if (t == last->down) {
      char *now = seconds_text(t);
      fail(r,
           "%s '%s' %s at %s, the time it went %s (line %d); expected a later time (an outage of 0 s changes "
           "nothing)",
           kind, res->name, state, now, went, last->down_line);
      g_free(now);
      return false;
    }
    last->up = t;
    last->up_line = r->line;
  } else if (last && t == last->up) { /* back and gone at once: one outage, no flicker */
    last->up = INFINITY;
    last->up_line = 0;
  } else {
    TrvTraceInterval iv = {.down = t, .up = INFINITY, .down_line = r->line};
    g_array_append_val(res->intervals, iv);
  }
  return true;
}

/* The line, blanks trimmed, cut to 80 bytes: what a message quotes (caller frees). */
static char *shown_line(const char *line, size_t n) {
  char *copy = g_strndup(line, n), *shown = trv_scn_shorten(g_strstrip(copy), 80);
  g_free(copy);
  return shown;
}

/* One line (without its end): blank, a comment, or an event. */
static bool read_line(Reader *r, const char *line, size_t n) {
  if (n > TRV_FAULT_TRACE_MAX_LINE)
    return fail(r, "line of %zu bytes; expected at most %d bytes (TIME RESOURCE STATE)", n, TRV_FAULT_TRACE_MAX_LINE);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)line[i];
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      return fail(r, "control character \\x%02x; expected text (TIME RESOURCE STATE, blanks between)", c);
  }
  if (!g_utf8_validate(line, (gssize)n, NULL)) return fail(r, "bytes that are not UTF-8; expected text");
  char buf[TRV_FAULT_TRACE_MAX_LINE + 1];
  memcpy(buf, line, n);
  buf[n] = '\0';
  char *field[MAX_FIELDS + 1];
  int k = 0;
  for (char *p = buf; *p;) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p || *p == '#') break;
    char *start = p;
    while (*p && *p != ' ' && *p != '\t') p++;
    if (*p) *p++ = '\0';
    if (k == MAX_FIELDS) {
      char *shown = shown_line(line, n);
      fail(r, "more than 3 fields in '%s'; expected TIME RESOURCE STATE (a comment starts with '#')", shown);
      g_free(shown);
      return false;
    }
    field[k++] = start;
  }
  if (k == 0) return true;
  if (k < MAX_FIELDS) {
    char *shown = shown_line(line, n);
    fail(r, "%d field%s in '%s'; expected TIME RESOURCE STATE, e.g. '10min tower-0-uplink down'", k, k == 1 ? "" : "s",
         shown);
    g_free(shown);
    return false;
  }
  double t;
  if (!trv_fault_seconds("at", field[0], &t)) {
    char *range = trv_fault_seconds_expected("at");
    fail(r, "time '%s'; expected %s", field[0], range);
    g_free(range);
    return false;
  }
  const char *name = field[1], *state = field[2];
  if (strlen(name) > TRV_PLATFORM_MAX_NAME)
    return fail(r, "resource of %zu bytes; expected a link or host name or glob of at most %d bytes", strlen(name),
                TRV_PLATFORM_MAX_NAME);
  if (strchr(name, ',')) return fail(r, "resource '%s' holds a comma; expected one name or glob per line", name);
  static const char *const states[] = {"down", "up", "off", "on", NULL};
  int s = 0;
  while (states[s] && strcmp(states[s], state)) s++;
  if (!states[s]) {
    const char *best = trv_suggest(state, states);
    return fail(r, "state '%s'; expected down or up (a link), off or on (a host)%s%s%s", state,
                best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
  }
  if (r->t->n_events >= TRV_FAULT_TRACE_MAX_EVENTS)
    return fail(r, "event number %zu; expected at most %d events", r->t->n_events + 1, TRV_FAULT_TRACE_MAX_EVENTS);
  TrvTraceResource *res = resource(r, name, s >= 2);
  if (!res || !apply(r, res, t, s % 2 == 0, state)) return false;
  r->t->n_events++;
  return true;
}

TrvFaultTrace *trv_fault_trace_parse(const char *text, size_t len, const char *name, GError **error) {
  TrvFaultTrace *t = g_new0(TrvFaultTrace, 1);
  t->file = g_strdup(name);
  t->resources = g_ptr_array_new_with_free_func(resource_free);
  Reader r = {
      .t = t, .index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL), .name = name, .error = error};
  bool ok = true;
  if (len > TRV_FAULT_TRACE_MAX_BYTES)
    ok = fail(&r, "the fault trace is %zu bytes; expected at most %d bytes", len, TRV_FAULT_TRACE_MAX_BYTES);
  for (const char *p = text, *end = text + len; ok && p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = (size_t)((nl ? nl : end) - p);
    r.line++;
    ok = read_line(&r, p, n && nl && p[n - 1] == '\r' ? n - 1 : n); /* CRLF as LF */
    p = nl ? nl + 1 : end;
  }
  r.line = 0;
  if (ok && t->n_events == 0)
    ok = fail(&r, "no event; expected lines TIME RESOURCE STATE, e.g. '10min tower-0-uplink down'");
  g_hash_table_destroy(r.index);
  if (!ok) {
    trv_fault_trace_free(t);
    return NULL;
  }
  char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
  g_strlcpy(t->sha256, sum, sizeof t->sha256);
  g_free(sum);
  return t;
}

TrvFaultTrace *trv_fault_trace_load(const char *path, GError **error) {
  TrvScnInput in;
  if (!trv_scn_input_read(path, TRV_FAULT_TRACE_MAX_BYTES, "fault trace", &in, error)) return NULL;
  TrvFaultTrace *t = trv_fault_trace_parse(in.text, in.len, path, error);
  trv_scn_input_free(&in);
  return t;
}
