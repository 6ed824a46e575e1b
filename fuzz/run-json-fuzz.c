/* run-json-fuzz.c - libFuzzer harness for the run.json reader of
 * `trivium run --replay-config` (src/replay-config.c).
 *
 * Writes the input to a scratch file ("@SRC@" stands for the source tree,
 * so that seeds can name its scenarios and platforms with their real
 * SHA-256) and loads it.  A refusal must be a TRV_ERROR_INPUT error; an
 * accepted file must give a scenario and a platform, one to all of the
 * known controllers, every --set assignment of the form KEY=VALUE (each
 * key once), an absolute data directory or none, at most
 * TRV_SCENARIO_MAX_FAULTS fault processes of a known kind with a pattern
 * (a fault trace with its events, read from the file it names), and
 * SimGrid options of the allow-list only.  The input also goes through
 * the JSON scanner alone (json-file.h) with run.json's limits: text it
 * accepts must parse with json-glib into a tree within those limits, so
 * that the scanner is never laxer than the parser it guards.  Any crash,
 * hang, sanitizer report, leak or failed assertion is a bug.  Built and run
 * by fuzz/run.sh (-max_len of fuzz/run-json.options: deep nesting needs
 * long inputs). */
#include <glib/gstdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "json-file.h"
#include "replay-config.h"
#include "simgrid-options.h"
#include "fuzz-registries.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const TrvJsonFormat limits = {.what = "input",
                                     .expected = "JSON",
                                     .max_bytes = 16 << 20,
                                     .max_depth = TRV_JSON_MAX_DEPTH,
                                     .max_elements = 100000,
                                     .max_values = 200000};

/* The depth of n (a flat object is 1) with its values counted into *values
 * and every array and object within max_elements. */
static int tree_depth(JsonNode *n, guint *values) {
  ++*values;
  int deepest = 0;
  if (JSON_NODE_HOLDS_ARRAY(n)) {
    JsonArray *a = json_node_get_array(n);
    g_assert(json_array_get_length(a) <= limits.max_elements);
    for (guint i = 0; i < json_array_get_length(a); i++) {
      int d = tree_depth(json_array_get_element(a, i), values);
      deepest = MAX(deepest, d);
    }
    return deepest + 1;
  }
  if (JSON_NODE_HOLDS_OBJECT(n)) {
    JsonObject *o = json_node_get_object(n);
    g_assert(json_object_get_size(o) <= limits.max_elements);
    GList *members = json_object_get_values(o);
    for (GList *m = members; m; m = m->next) {
      int d = tree_depth(m->data, values);
      deepest = MAX(deepest, d);
    }
    g_list_free(members);
    return deepest + 1;
  }
  return 0;
}

static void scanner_is_strict(const uint8_t *data, size_t size) {
  GError *err = NULL;
  if (!trv_json_check("input", (const char *)data, size, &limits, &err)) {
    g_assert(err && err->code == TRV_ERROR_INPUT && !strchr(err->message, '\n'));
    g_error_free(err);
    return;
  }
  JsonParser *p = json_parser_new_immutable();
  g_assert(json_parser_load_from_data(p, (const char *)data, (gssize)size, NULL));
  guint values = 0;
  g_assert(tree_depth(json_parser_get_root(p), &values) <= TRV_JSON_MAX_DEPTH);
  g_assert(values <= limits.max_values);
  g_object_unref(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char *path;
  if (!path) {
    int fd = g_file_open_tmp("trv-run-json-fuzz-XXXXXX", &path, NULL);
    g_assert(fd >= 0);
    close(fd);
  }
  GString *text = g_string_new_len((const char *)data, (gssize)size);
  g_string_replace(text, "@SRC@", TRV_SRCDIR, 0);
  g_assert(g_file_set_contents(path, text->str, (gssize)text->len, NULL));
  g_string_free(text, TRUE);
  scanner_is_strict(data, size);
  TrvReplayConfig rc;
  GError *err = NULL;
  if (trv_replay_config_load(path, &rc, &err)) {
    g_assert_no_error(err);
    g_assert(rc.scenario && rc.platform && rc.controllers && *rc.controllers && rc.sets && rc.faults);
    char **controllers = g_strsplit(rc.controllers, ",", -1);
    g_assert(g_strv_length(controllers) <= g_strv_length((char **)trv_controller_names()));
    for (int i = 0; controllers[i]; i++) g_assert(g_strv_contains(trv_controller_names(), controllers[i]));
    g_strfreev(controllers);
    for (int i = 0; rc.sets[i]; i++) { /* each key once: a data file's parameter replaces the value recorded */
      g_assert(strchr(rc.sets[i], '=') != NULL && !trv_text_control_byte(rc.sets[i]));
      size_t key = (size_t)(strchr(rc.sets[i], '=') - rc.sets[i]);
      for (int k = 0; k < i; k++) g_assert(strncmp(rc.sets[k], rc.sets[i], key + 1) != 0);
    }
    g_assert(!rc.data_dir || g_path_is_absolute(rc.data_dir));
    g_assert(rc.faults->len <= TRV_SCENARIO_MAX_FAULTS);
    for (guint i = 0; i < rc.faults->len; i++) {
      const TrvFaultSpec *f = &g_array_index(rc.faults, TrvFaultSpec, i);
      g_assert(f->kind >= TRV_FAULT_LINK_FLAP && f->kind <= TRV_FAULT_TRACE && f->pattern && *f->pattern);
      /* a fault trace comes with its events, read and checked; no other kind has any */
      g_assert((f->kind == TRV_FAULT_TRACE) == (f->trace != NULL));
      g_assert(!f->trace || (f->trace->n_events >= 1 && f->trace->n_events <= TRV_FAULT_TRACE_MAX_EVENTS));
    }
    g_assert(g_strv_length(rc.simgrid_args) <= TRV_SIMGRID_FILE_MAX_OPTIONS);
    for (int i = 0; rc.simgrid_args[i]; i++) g_assert(trv_simgrid_file_option_check(path, rc.simgrid_args[i], NULL));
    trv_replay_config_clear(&rc);
  } else {
    g_assert(err && err->domain == TRV_ERROR && err->code == TRV_ERROR_INPUT && !strchr(err->message, '\n'));
    g_error_free(err);
  }
  return 0;
}
