/* json-file.c - reading a JSON input file (json-file.h). */
#include <config.h>

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
