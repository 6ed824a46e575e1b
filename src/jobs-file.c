/* jobs-file.c - the job list's manifest (jobs-file.h), written and read
 * with json-glib.  A manifest is input like any other, and hostile until
 * checked: at most 1 MiB, scanned before json-glib parses it (json-file.h:
 * at most TRV_JSON_MAX_DEPTH levels of nesting, JOBS_MAX_ARGS elements in
 * one array or object, twice that many values in all), every member
 * checked for its type and range.  Its command line is data too: every
 * argument printable text, and a SimGrid option in it (--cfg=, --log=; not
 * --cfg=trivium/, which is a parameter) on the allow-list of options a
 * file may give (simgrid-options.h). */
#include <config.h>

#include <json-glib/json-glib.h>
#include <string.h>

#include <trivium/error.h>
#include "jobs-file.h"
#include "json-file.h"
#include "core/out-file.h"
#include "simgrid-options.h"

#define JOBS_FILE_MAX_BYTES ((gsize)1 << 20)
#define JOBS_MAX_ARGS 4096
#define JOBS_MAX_ARG_BYTES 65536
#define JOBS_MAX_CELLS (G_MAXINT / 2)

static const TrvJsonFormat jobs_json = {.what = "jobs.json",
                                        .expected = "the jobs.json that trivium run writes",
                                        .max_bytes = JOBS_FILE_MAX_BYTES,
                                        .max_depth = TRV_JSON_MAX_DEPTH,
                                        .max_elements = JOBS_MAX_ARGS,
                                        .max_values = 2 * JOBS_MAX_ARGS};

bool trv_jobs_file_write(const char *path, const char *directory, const char *program, char **command, long cells,
                         int chunk, long jobs, GError **error) {
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "format");
  json_builder_add_string_value(b, TRV_JOBS_FORMAT);
  json_builder_set_member_name(b, "directory");
  trv_json_add_bytes(b, directory);
  json_builder_set_member_name(b, "program");
  trv_json_add_bytes(b, program);
  json_builder_set_member_name(b, "command");
  json_builder_begin_array(b);
  for (int i = 0; command[i]; i++) trv_json_add_bytes(b, command[i]);
  json_builder_end_array(b);
  json_builder_set_member_name(b, "cells");
  json_builder_add_int_value(b, cells);
  json_builder_set_member_name(b, "chunk");
  json_builder_add_int_value(b, chunk);
  json_builder_set_member_name(b, "jobs");
  json_builder_add_int_value(b, jobs);
  json_builder_end_object(b);
  JsonGenerator *g = json_generator_new();
  json_generator_set_pretty(g, TRUE);
  JsonNode *root = json_builder_get_root(b);
  json_generator_set_root(g, root);
  gsize len;
  char *text = json_generator_to_data(g, &len);
  GString *t = g_string_new_len(text, (gssize)len);
  g_string_append_c(t, '\n');
  bool ok = trv_write_file_atomic(path, t->str, (gssize)t->len, error);
  g_string_free(t, TRUE);
  g_free(text);
  json_node_unref(root);
  g_object_unref(g);
  g_object_unref(b);
  return ok;
}

static bool bad(GError **error, const char *file, const char *what) {
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s", file, what);
  return false;
}

/* Argument i of the command, newly allocated: text (or the bytes form of
 * trv_json_add_bytes, for a path that is not UTF-8) of at most
 * JOBS_MAX_ARG_BYTES, and a SimGrid option only from the allow-list; NULL
 * with *error. */
static char *argument(const char *path, JsonNode *e, guint i, GError **error) {
  char *s = trv_json_node_bytes(e, JOBS_MAX_ARG_BYTES);
  if (!s) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: \"command\"[%u] is %s; expected text of at most %d bytes", path,
                i, trv_json_kind(e), JOBS_MAX_ARG_BYTES);
    return NULL;
  }
  bool simgrid =
      (g_str_has_prefix(s, "--cfg=") && !g_str_has_prefix(s, "--cfg=trivium/")) || g_str_has_prefix(s, "--log=");
  if (simgrid && !trv_simgrid_file_option_check(path, s, error)) g_clear_pointer(&s, g_free);
  return s;
}

bool trv_jobs_file_load(const char *path, TrvJobsFile *jf, GError **error) {
  memset(jf, 0, sizeof *jf);
  JsonParser *parser;
  JsonObject *root = trv_json_object_load(path, &jobs_json, &parser, error);
  if (!root) return false;
  bool ok = true;
  const char *format = trv_json_member_string(root, "format");
  char *dir = trv_json_node_bytes(json_object_get_member(root, "directory"), 4096);
  JsonNode *cmd = json_object_get_member(root, "command");
  JsonNode *cells = json_object_get_member(root, "cells");
  if (!format || strcmp(format, TRV_JOBS_FORMAT))
    ok = bad(error, path,
             "\"format\" is not \"" TRV_JOBS_FORMAT "\"; expected a jobs.json written by trivium run --emit");
  else if (!dir || !g_path_is_absolute(dir))
    ok = bad(error, path, "\"directory\" is not an absolute path of at most 4096 bytes");
  else if (!cmd || !JSON_NODE_HOLDS_ARRAY(cmd) || json_array_get_length(json_node_get_array(cmd)) < 1 ||
           json_array_get_length(json_node_get_array(cmd)) > JOBS_MAX_ARGS)
    ok = bad(error, path, "\"command\" is not an array of 1 to 4096 strings");
  else if (!cells || !JSON_NODE_HOLDS_VALUE(cells) || json_node_get_value_type(cells) != G_TYPE_INT64 ||
           json_node_get_int(cells) < 1 || json_node_get_int(cells) > JOBS_MAX_CELLS)
    ok = bad(error, path, "\"cells\" is not a number of cells in [1, 2^30]");
  if (ok) {
    JsonArray *a = json_node_get_array(cmd);
    guint n = json_array_get_length(a);
    jf->command = g_new0(char *, n + 1);
    for (guint i = 0; ok && i < n; i++) {
      jf->command[i] = argument(path, json_array_get_element(a, i), i, error);
      ok = jf->command[i] != NULL;
    }
    if (ok && strcmp(jf->command[0], "run"))
      ok = bad(error, path, "\"command\" does not start with \"run\"; expected the command line of a trivium run");
    jf->directory = g_steal_pointer(&dir);
    jf->cells = (long)json_node_get_int(cells);
  }
  g_free(dir);
  g_object_unref(parser);
  if (!ok) trv_jobs_file_clear(jf);
  return ok;
}

void trv_jobs_file_clear(TrvJobsFile *jf) {
  g_free(jf->directory);
  g_strfreev(jf->command);
  memset(jf, 0, sizeof *jf);
}
