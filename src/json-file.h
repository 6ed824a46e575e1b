/* json-file.h - a JSON file a user hands us (run.json, jobs.json), read
 * with json-glib under the rules for every input (json-file.c). */
#ifndef TRV_JSON_FILE_H
#define TRV_JSON_FILE_H

#include <glib.h>
#include <json-glib/json-glib.h>

/* The object at the root of `path`, a regular file of at most max_bytes;
 * *parser holds it (unref it when done).  NULL with *error
 * (TRV_ERROR_INPUT: "PATH: what was found; expected EXPECTED") otherwise. */
JsonObject *trv_json_object_load(const char *path, gsize max_bytes, const char *expected, JsonParser **parser,
                                 GError **error);
/* A member that is a string, or NULL. */
const char *trv_json_member_string(JsonObject *o, const char *name);

/* A string that may not be UTF-8 (a file name, a command-line argument):
 * as a JSON string when it is valid UTF-8, else as {"bytes": BASE64}. */
void trv_json_add_bytes(JsonBuilder *b, const char *s);
/* Such a string read back (newly allocated), or NULL when n is neither
 * form, decodes to more than max_len bytes or holds a NUL. */
char *trv_json_node_bytes(JsonNode *n, gsize max_len);

#endif
