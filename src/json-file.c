/* json-file.c - reading a JSON input file (json-file.h).
 *
 * trv_json_check is a scanner, not a parser: it keeps one byte and one
 * count per open array or object in fixed arrays of TRV_JSON_MAX_DEPTH,
 * never recurses and never allocates, so no input makes it use more than
 * a few hundred bytes of stack.  It accepts exactly RFC 8259 JSON: UTF-8
 * (checked character by character inside strings; outside them only ASCII
 * can be valid), no byte-order mark, comments, single quotes or trailing
 * commas.  json-glib accepts some of those, and a character it reads
 * otherwise than we do could hide a bracket from the count: so it is only
 * ever given text this scanner accepted whole. */
#include <config.h>

#include <string.h>
#include <trivium/error.h>

#include "core/input.h"
#include "json-file.h"

typedef struct {
  const char *name, *p, *end, *line_start;
  int line;
  GError **error;
} Scan;

bool trv_input_vfail(GError **error, const char *place, const char *fmt, va_list ap) {
  char *what = g_strdup_vprintf(fmt, ap);
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s", place, what);
  g_free(what);
  return false;
}

static bool fail(Scan *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool fail(Scan *s, const char *fmt, ...) {
  char *place = g_strdup_printf("%s:%d:%d", s->name, s->line, (int)(s->p - s->line_start) + 1);
  va_list ap;
  va_start(ap, fmt);
  trv_input_vfail(s->error, place, fmt, ap);
  va_end(ap);
  g_free(place);
  return false;
}

/* A byte where `wanted` should have been. */
static bool unexpected(Scan *s, const char *wanted, const char *expected) {
  unsigned char c = (unsigned char)*s->p;
  if (c > 0x20 && c < 0x7f) return fail(s, "not JSON ('%c' where %s should be); expected %s", c, wanted, expected);
  return fail(s, "not JSON (byte 0x%02X where %s should be); expected %s", c, wanted, expected);
}

static void skip_space(Scan *s) {
  for (; s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'); s->p++)
    if (*s->p == '\n') s->line++, s->line_start = s->p + 1;
}

/* The code of the \\uXXXX escape at p: -1 without four hexadecimal digits,
 * -2 when the text ends before them. */
static int escape_code(const Scan *s, const char *p) {
  int code = 0;
  for (int i = 2; i < 6; i++) {
    if (p + i >= s->end) return -2;
    if (!g_ascii_isxdigit(p[i])) return -1;
    code = code * 16 + g_ascii_xdigit_value(p[i]);
  }
  return code;
}

/* A string, s->p at its opening quote: on success s->p is past the closing
 * one. */
static bool scan_string(Scan *s, const char *expected) {
  const char *start = s->p++;
  while (s->p < s->end) {
    unsigned char c = (unsigned char)*s->p;
    if (c == '"') {
      s->p++;
      return true;
    }
    if (c < 0x20) return fail(s, "not JSON (control byte 0x%02X inside a string); expected %s", c, expected);
    if (c >= 0x80) { /* one whole UTF-8 character, or the place where it breaks */
      gunichar u = g_utf8_get_char_validated(s->p, s->end - s->p);
      if (u == (gunichar)-1 || u == (gunichar)-2)
        return fail(s, "not UTF-8 text inside a string; expected %s", expected);
      s->p = g_utf8_next_char(s->p);
      continue;
    }
    if (c != '\\') {
      s->p++;
      continue;
    }
    if (s->end - s->p < 2) break;
    char e = s->p[1];
    if (e == 'u') {
      int u = escape_code(s, s->p);
      if (u == -2) break;
      if (u < 0) return fail(s, "not JSON (a \\u escape without four hexadecimal digits); expected %s", expected);
      s->p += 6;
      /* UTF-16: a high surrogate and a low one make one character; either alone is none */
      if (u >= 0xDC00 && u <= 0xDFFF)
        return fail(s, "not JSON (a lone \\u%04X, half a character); expected %s", u, expected);
      if (u >= 0xD800 && u <= 0xDBFF) {
        int low = s->end - s->p >= 2 && s->p[0] == '\\' && s->p[1] == 'u' ? escape_code(s, s->p) : -1;
        if (low == -2) break;
        if (low < 0xDC00 || low > 0xDFFF)
          return fail(s, "not JSON (a lone \\u%04X, half a character); expected %s", u, expected);
        s->p += 6;
      }
    } else if (e && strchr("\"\\/bfnrt", e)) {
      s->p += 2;
    } else {
      return fail(s, "not JSON (an unknown escape in a string); expected %s", expected);
    }
  }
  s->p = start;
  return fail(s, "not JSON (a string that does not end); expected %s", expected);
}

static bool digit(const Scan *s, const char *q) { return q < s->end && g_ascii_isdigit(*q); }

/* A number, s->p at its first byte ('-' or a digit). */
static bool scan_number(Scan *s, const char *expected) {
  const char *q = s->p;
  if (*q == '-') q++;
  bool ok = digit(s, q);
  if (ok && *q == '0')
    q++;
  else
    while (digit(s, q)) q++;
  if (ok && q < s->end && *q == '.') {
    ok = digit(s, ++q);
    while (digit(s, q)) q++;
  }
  if (ok && q < s->end && (*q == 'e' || *q == 'E')) {
    q++;
    if (q < s->end && (*q == '+' || *q == '-')) q++;
    ok = digit(s, q);
    while (digit(s, q)) q++;
  }
  if (!ok) return fail(s, "not JSON (a malformed number); expected %s", expected);
  s->p = q;
  return true;
}

static bool scan_literal(Scan *s, const char *expected) {
  static const char *const words[] = {"true", "false", "null"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(words[i]);
    if ((size_t)(s->end - s->p) >= n && !memcmp(s->p, words[i], n)) {
      s->p += n;
      return true;
    }
  }
  return unexpected(s, "a value", expected);
}

bool trv_json_check(const char *name, const char *data, size_t len, const TrvJsonFormat *format, GError **error) {
  Scan s = {.name = name, .p = data, .end = data + len, .line_start = data, .line = 1, .error = error};
  const char *expected = format->expected;
  int max_depth = MIN(format->max_depth, TRV_JSON_MAX_DEPTH), depth = 0;
  char open[TRV_JSON_MAX_DEPTH];   /* '[' or '{' of each open container */
  guint count[TRV_JSON_MAX_DEPTH]; /* its elements so far */
  guint values = 0;
  /* what comes next: a value (FIRST_VALUE: or the ']' of an empty array), a
   * member name (FIRST_KEY: or the '}' of an empty object), the ':' after a
   * name, a ',' or the end of the container, nothing but space */
  enum { VALUE, FIRST_VALUE, KEY, FIRST_KEY, COLON, NEXT, END } state = VALUE;
  for (;;) {
    skip_space(&s);
    if (s.p == s.end) {
      if (state == END) return true;
      return fail(&s, "not JSON (the text ends %s); expected %s",
                  depth ? "inside an array or object" : "before a value", expected);
    }
    char c = *s.p;
    char closing = depth && open[depth - 1] == '[' ? ']' : '}';
    if (state == END) return fail(&s, "not JSON (more text after the document); expected %s", expected);
    if ((state == FIRST_VALUE || state == FIRST_KEY || state == NEXT) && c == closing) {
      s.p++;
      state = --depth ? NEXT : END;
      continue;
    }
    if (state == NEXT) {
      if (c != ',') return unexpected(&s, closing == ']' ? "',' or ']'" : "',' or '}'", expected);
      s.p++;
      state = closing == ']' ? VALUE : KEY;
      continue;
    }
    if (state == KEY || state == FIRST_KEY) {
      if (c != '"') return unexpected(&s, "a member name", expected);
      if (!scan_string(&s, expected)) return false;
      state = COLON;
      continue;
    }
    if (state == COLON) {
      if (c != ':') return unexpected(&s, "':'", expected);
      s.p++;
      state = VALUE;
      continue;
    }
    /* a value: counted before anything else is read of it */
    if (++values > format->max_values)
      return fail(&s, "more than %u values; expected %s (at most %u)", format->max_values, expected,
                  format->max_values);
    if (depth && ++count[depth - 1] > format->max_elements)
      return fail(&s, "more than %u elements in one %s; expected %s (at most %u)", format->max_elements,
                  open[depth - 1] == '[' ? "array" : "object", expected, format->max_elements);
    if (c == '[' || c == '{') {
      if (depth == max_depth)
        return fail(&s, "arrays and objects nested more than %d deep; expected %s (at most %d levels)", max_depth,
                    expected, max_depth);
      open[depth] = c;
      count[depth++] = 0;
      s.p++;
      state = c == '[' ? FIRST_VALUE : FIRST_KEY;
      continue;
    }
    bool ok = c == '"'                         ? scan_string(&s, expected)
              : c == '-' || g_ascii_isdigit(c) ? scan_number(&s, expected)
                                               : scan_literal(&s, expected);
    if (!ok) return false;
    state = depth ? NEXT : END;
  }
}

JsonObject *trv_json_object_load(const char *path, const TrvJsonFormat *format, JsonParser **parser, GError **error) {
  *parser = NULL;
  char *data = NULL;
  size_t len = 0;
  if (!trv_input_read(path, format->max_bytes, format->what, TRV_INPUT_REGULAR, &data, &len, error)) return NULL;
  if (!trv_json_check(path, data, len, format, error)) {
    g_free(data);
    return NULL;
  }
  JsonParser *p = json_parser_new_immutable();
  GError *perr = NULL;
  bool parsed = json_parser_load_from_data(p, data, (gssize)len, &perr);
  g_free(data);
  if (!parsed) { /* never seen: the scanner is stricter than json-glib (fuzz/run-json-fuzz.c checks) */
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: not JSON (%s); expected %s", path, perr->message,
                format->expected);
    g_error_free(perr);
    g_object_unref(p);
    return NULL;
  }
  JsonNode *root = json_parser_get_root(p);
  if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s, not an object; expected %s", path, trv_json_kind(root),
                format->expected);
    g_object_unref(p);
    return NULL;
  }
  *parser = p;
  return json_node_get_object(root);
}

bool trv_json_is_string(JsonNode *n) {
  return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING;
}

const char *trv_json_member_string(JsonObject *o, const char *name) {
  JsonNode *n = json_object_get_member(o, name);
  return trv_json_is_string(n) ? json_node_get_string(n) : NULL;
}

const char *trv_json_kind(JsonNode *n) {
  if (!n) return "missing";
  if (JSON_NODE_HOLDS_OBJECT(n)) return "an object";
  if (JSON_NODE_HOLDS_ARRAY(n)) return "an array";
  if (JSON_NODE_HOLDS_NULL(n)) return "null";
  GType t = json_node_get_value_type(n);
  return t == G_TYPE_STRING    ? "text"
         : t == G_TYPE_INT64   ? "an integer"
         : t == G_TYPE_DOUBLE  ? "a number"
         : t == G_TYPE_BOOLEAN ? "true or false"
                               : "a value";
}

const char *trv_text_control_byte(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) return s;
  return NULL;
}

bool trv_input_fail(GError **error, const char *place, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  trv_input_vfail(error, place, fmt, ap);
  va_end(ap);
  return false;
}

bool trv_json_wrong(GError **error, const char *file, const char *where, JsonNode *n, const char *want) {
  return trv_input_fail(error, file, "%s is %s; expected %s", where, trv_json_kind(n), want);
}

bool trv_json_text_ok(GError **error, const char *file, const char *where, const char *s, size_t max) {
  size_t n = strlen(s);
  if (n > max) return trv_input_fail(error, file, "%s is %zu bytes of text; expected at most %zu", where, n, max);
  const char *control = trv_text_control_byte(s);
  if (control)
    return trv_input_fail(error, file, "%s holds control byte 0x%02X; expected printable text", where,
                          (unsigned char)*control);
  return true;
}

/* A file name need not be UTF-8, JSON text must be: a string that is not
 * valid UTF-8 is written as {"bytes": BASE64} and read back byte for
 * byte. */
void trv_json_add_bytes(JsonBuilder *b, const char *s) {
  if (g_utf8_validate(s, -1, NULL) && !trv_text_control_byte(s)) {
    json_builder_add_string_value(b, s);
    return;
  }
  char *b64 = g_base64_encode((const guchar *)s, strlen(s));
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "bytes");
  json_builder_add_string_value(b, b64);
  json_builder_end_object(b);
  g_free(b64);
}

char *trv_json_node_bytes(JsonNode *n, gsize max_len) {
  if (!n) return NULL;
  if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING) {
    const char *s = json_node_get_string(n);
    return strlen(s) <= max_len ? g_strdup(s) : NULL;
  }
  if (!JSON_NODE_HOLDS_OBJECT(n) || json_object_get_size(json_node_get_object(n)) != 1) return NULL;
  const char *b64 = trv_json_member_string(json_node_get_object(n), "bytes");
  if (!b64 || strlen(b64) > (max_len / 3 + 1) * 4) return NULL; /* checked before decoding */
  for (const char *p = b64; *p; p++)
    if (!g_ascii_isalnum(*p) && *p != '+' && *p != '/' && *p != '=') return NULL;
  gsize len = 0;
  guchar *raw = g_base64_decode(b64, &len);
  if (len > max_len || memchr(raw, 0, len)) { /* a C string: no NUL inside */
    g_free(raw);
    return NULL;
  }
  char *s = g_realloc(raw, len + 1);
  s[len] = 0;
  return s;
}
