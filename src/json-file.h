/* json-file.h - a JSON file a user hands us (run.json, jobs.json), read
 * under the rules for every input (json-file.c).
 *
 * The bytes are read whole (a regular file of bounded size), then checked
 * by a small scanner of our own against the JSON grammar (RFC 8259) and
 * the format's limits: how deep arrays and objects nest, how many
 * elements one array or object holds, how many values the document holds.
 * Only text that passed is handed to json-glib, whose parser recurses once
 * per level of nesting and allocates per value: a document nested 100,000
 * deep, or a million empty arrays, never reaches it. */
#ifndef TRV_JSON_FILE_H
#define TRV_JSON_FILE_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdarg.h>
#include <stdbool.h>

/* Deepest nesting of arrays and objects any JSON input may have (a flat
 * object is 1).  run.json and jobs.json need 3. */
#define TRV_JSON_MAX_DEPTH 64

/* A JSON format the program reads, and its limits. */
typedef struct {
  const char *what;     /* the file in messages: "run.json" */
  const char *expected; /* what it should be: "a run.json written by trivium run" */
  gsize max_bytes;      /* the file */
  int max_depth;        /* nesting, at most TRV_JSON_MAX_DEPTH */
  guint max_elements;   /* elements of one array, members of one object */
  guint max_values;     /* values of the whole document, arrays and objects included */
} TrvJsonFormat;

/* Sets *error (TRV_ERROR_INPUT) to "PLACE: " and the text fmt formats;
 * returns false, for `return trv_input_vfail(...)` in a reader's own
 * printf-like refusal. */
bool trv_input_vfail(GError **error, const char *place, const char *fmt, va_list ap) G_GNUC_PRINTF(3, 0);
/* The same with the arguments: `return trv_input_fail(error, file, ...)`. */
bool trv_input_fail(GError **error, const char *place, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* "FILE: WHERE is KIND; expected WANT" (trv_json_kind): a member of the
 * wrong kind; returns false. */
bool trv_json_wrong(GError **error, const char *file, const char *where, JsonNode *n, const char *want);

/* Checks `len` bytes of JSON text against the grammar and the limits of
 * `format`, reading nothing past data + len.  False with *error
 * (TRV_ERROR_INPUT) "NAME:LINE:COLUMN: what was found; expected ..." at
 * the first problem (columns count bytes from 1). */
bool trv_json_check(const char *name, const char *data, size_t len, const TrvJsonFormat *format, GError **error);

/* The object at the root of the file at `path`, read and checked as
 * above; *parser holds it (unref it when done).  NULL with *error
 * (TRV_ERROR_INPUT, naming the file) otherwise. */
JsonObject *trv_json_object_load(const char *path, const TrvJsonFormat *format, JsonParser **parser, GError **error);

/* A member that is a string, or NULL. */
const char *trv_json_member_string(JsonObject *o, const char *name);
/* What a node is, for messages: "text", "an integer", "a number",
 * "true or false", "null", "an array", "an object"; "missing" for NULL. */
const char *trv_json_kind(JsonNode *n);
/* Whether n is a string (false for NULL). */
bool trv_json_is_string(JsonNode *n);
/* The first control byte (below 0x20, or 0x7f) of s, or NULL: text from a
 * file that the program prints or passes on must be one line. */
const char *trv_text_control_byte(const char *s);
/* Whether s, member `where` of the file `file`, is text the program may
 * print or match: at most max bytes, no control byte; false with *error
 * (TRV_ERROR_INPUT, "FILE: WHERE is ...; expected ...") otherwise. */
bool trv_json_text_ok(GError **error, const char *file, const char *where, const char *s, size_t max);

/* A string that may not be UTF-8 (a file name, a command-line argument):
 * as a JSON string when it is valid UTF-8 without control bytes (json-glib
 * writes some of those raw, which JSON forbids), else as
 * {"bytes": BASE64}. */
void trv_json_add_bytes(JsonBuilder *b, const char *s);
/* Such a string read back (newly allocated), or NULL when n is neither
 * form, decodes to more than max_len bytes or holds a NUL. */
char *trv_json_node_bytes(JsonNode *n, gsize max_len);

#endif
