/* json-file.c - reading a JSON input file (json-file.h). */
#include <config.h>

#include <string.h>
#include <sys/stat.h>
#include <trivium/error.h>

#include "json-file.h"

JsonObject *trv_json_object_load(const char *path, gsize max_bytes, const char *expected, JsonParser **parser,
                                 GError **error) {
  *parser = NULL;
  struct stat st; /* never a device or FIFO that reads forever, nor a file of any size */
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: not a readable regular file; expected %s", path, expected);
    return NULL;
  }
  if ((gsize)st.st_size > max_bytes) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: larger than %" G_GSIZE_FORMAT " MiB; expected %s", path,
                max_bytes >> 20, expected);
    return NULL;
  }
  JsonParser *p = json_parser_new();
  GError *perr = NULL;
  if (!json_parser_load_from_file(p, path, &perr)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: not JSON (%s); expected %s", path, perr->message, expected);
    g_error_free(perr);
    g_object_unref(p);
    return NULL;
  }
  JsonNode *root = json_parser_get_root(p);
  if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: not a JSON object; expected %s", path, expected);
    g_object_unref(p);
    return NULL;
  }
  *parser = p;
  return json_node_get_object(root);
}

const char *trv_json_member_string(JsonObject *o, const char *name) {
  JsonNode *n = json_object_get_member(o, name);
  return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING ? json_node_get_string(n) : NULL;
}

/* A file name need not be UTF-8, JSON text must be: a string that is not
 * valid UTF-8 is written as {"bytes": BASE64} and read back byte for
 * byte. */
void trv_json_add_bytes(JsonBuilder *b, const char *s) {
  if (g_utf8_validate(s, -1, NULL)) {
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
