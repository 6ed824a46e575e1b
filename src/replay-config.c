/* replay-config.c - `trivium run --replay-config RUN.json`: the run that a
 * run.json describes, rebuilt from it.
 *
 * run.json is input like any other: at most 16 MiB, read with json-glib,
 * every member checked for its type; a file it names (the scenario, the
 * platform, the world's data files) must be a regular file of at most 256
 * MiB that still has the SHA-256 the run recorded, else the replay is
 * refused (exit 2) rather than run on other inputs.  The point is rebuilt from what the run resolved: every
 * parameter (as --set), its fault processes (in place of the scenario's
 * faults and sweeps), the role patterns, SimGrid's options, the
 * controllers, the platform.  Nothing in the file chooses where outputs go:
 * that is -o. */
#include <config.h>

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "core/input.h"
#include "jssp/jssp.h"
#include "json-file.h"
#include "llm/llm.h"
#include "replay-config.h"
#include "scenario/scenario.h"
#include "urs/caltable.h"

#define RUN_JSON_MAX_BYTES ((gsize)16 << 20)
/* The largest input a run reads: the largest of its readers' limits, so
 * that every input it recorded can be hashed again. */
#define INPUT_MAX_BYTES                                                                                                \
  MAX(MAX((size_t)TRV_SCENARIO_MAX_BYTES, (size_t)TRV_PLATFORM_MAX_BYTES),                                             \
      MAX((size_t)TRV_CAL_MAX_FILE_BYTES, MAX((size_t)TRV_JSSP_MAX_FILE_BYTES, (size_t)TRV_LLM_REPLAY_MAX_BYTES)))

static bool bad(GError **error, const char *file, const char *what) {
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s", file, what);
  return false;
}

static bool member_number(JsonObject *o, const char *name, double *v) {
  JsonNode *n = json_object_get_member(o, name);
  if (!n) return false;
  if (JSON_NODE_HOLDS_NULL(n)) { /* a fault's stop: to the end of the run */
    *v = INFINITY;
    return true;
  }
  if (!JSON_NODE_HOLDS_VALUE(n)) return false;
  GType t = json_node_get_value_type(n);
  if (t == G_TYPE_INT64) *v = (double)json_node_get_int(n);
  else if (t == G_TYPE_DOUBLE) *v = json_node_get_double(n);
  else return false;
  return isfinite(*v);
}

/* The law of one side ("up" or "down") of a link-flap and its shape
 * ("up_shape", ...); a run.json without them (or with null) had
 * exponential times.  False for an unknown law, or a shape missing or out
 * of the range the scenario loader allows. */
static bool fault_law(JsonObject *o, const char *side, TrvFaultLaw *law, double *shape) {
  *law = TRV_FAULT_EXPONENTIAL, *shape = 0;
  JsonNode *n = json_object_get_member(o, side);
  if (!n || JSON_NODE_HOLDS_NULL(n)) return true;
  if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING) return false;
  int k = 0;
  while (trv_fault_law_names[k] && strcmp(trv_fault_law_names[k], json_node_get_string(n))) k++;
  if (!trv_fault_law_names[k]) return false;
  *law = (TrvFaultLaw)k;
  if (*law == TRV_FAULT_EXPONENTIAL) return true;
  char shape_name[16];
  g_snprintf(shape_name, sizeof shape_name, "%s_shape", side);
  double lo, hi;
  trv_fault_shape_range(*law, &lo, &hi);
  return member_number(o, shape_name, shape) && *shape >= lo && *shape <= hi;
}

char *trv_file_sha256(const char *path) {
  char *data = NULL; /* a regular file of a sane size: never a device or FIFO that reads forever */
  size_t len = 0;
  char *sum = NULL;
  if (path && trv_input_read(path, INPUT_MAX_BYTES, "input", TRV_INPUT_REGULAR, &data, &len, NULL))
    sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
  g_free(data);
  return sum;
}

/* A {"path": ..., "sha256": ...} member: the path, when the file there still
 * has that SHA-256. */
static const char *checked_file(JsonObject *root, const char *name, const char *file, bool required, GError **error) {
  JsonNode *n = json_object_get_member(root, name);
  if (!n || JSON_NODE_HOLDS_NULL(n)) {
    if (required) bad(error, file, "no file recorded; expected a run.json written by trivium run");
    return NULL;
  }
  JsonObject *o = JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
  const char *path = o ? trv_json_member_string(o, "path") : NULL, *sum = o ? trv_json_member_string(o, "sha256") : NULL;
  if (!path || !sum) {
    char *m = g_strdup_printf("member \"%s\" is not {\"path\": ..., \"sha256\": ...}", name);
    bad(error, file, m);
    g_free(m);
    return NULL;
  }
  char *now = trv_file_sha256(path);
  bool same = now && !strcmp(now, sum);
  if (!same)
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s %s %s since the run (SHA-256 %s, recorded %s); a replay "
                "runs on the same inputs", file, name, path, now ? "changed" : "cannot be read", now ? now : "-", sum);
  g_free(now);
  return same ? path : NULL;
}

bool trv_replay_config_load(const char *file, TrvReplayConfig *rc, GError **error) {
  memset(rc, 0, sizeof *rc);
  JsonParser *parser;
  JsonObject *root = trv_json_object_load(file, RUN_JSON_MAX_BYTES, "a run.json written by trivium run", &parser, error);
  if (!root) return false;
  bool ok = true;
  const char *status = ok ? trv_json_member_string(root, "status") : NULL;
  if (ok && (!status || strcmp(status, "complete")))
    ok = bad(error, file, "\"status\" is not \"complete\"; expected the run.json of a finished run");
  const char *scenario = ok ? checked_file(root, "scenario_file", file, true, error) : NULL;
  const char *platform = scenario ? checked_file(root, "platform_file", file, true, error) : NULL;
  ok = ok && scenario && platform;
  JsonNode *inputs = ok ? json_object_get_member(root, "inputs") : NULL;
  if (ok && (!inputs || !JSON_NODE_HOLDS_ARRAY(inputs))) ok = bad(error, file, "\"inputs\" is not an array");
  for (guint i = 0; ok && i < json_array_get_length(json_node_get_array(inputs)); i++) {
    JsonObject *wrap = json_object_new();
    json_object_set_member(wrap, "input", json_node_copy(json_array_get_element(json_node_get_array(inputs), i)));
    ok = checked_file(wrap, "input", file, true, error) != NULL;
    json_object_unref(wrap);
  }
  GPtrArray *sets = g_ptr_array_new_with_free_func(g_free);
  JsonNode *pn = ok ? json_object_get_member(root, "parameters") : NULL;
  if (ok && (!pn || !JSON_NODE_HOLDS_OBJECT(pn))) ok = bad(error, file, "\"parameters\" is not an object");
  if (ok) {
    JsonObject *po = json_node_get_object(pn);
    GList *keys = json_object_get_members(po);
    for (GList *k = keys; ok && k; k = k->next) {
      JsonNode *v = json_object_get_member(po, k->data);
      GType t = JSON_NODE_HOLDS_VALUE(v) ? json_node_get_value_type(v) : G_TYPE_INVALID;
      if (t == G_TYPE_STRING) {
        g_ptr_array_add(sets, g_strdup_printf("%s=%s", (char *)k->data, json_node_get_string(v)));
      } else if (t == G_TYPE_INT64) {
        g_ptr_array_add(sets, g_strdup_printf("%s=%" G_GINT64_FORMAT, (char *)k->data, json_node_get_int(v)));
      } else if (t == G_TYPE_DOUBLE) {
        char *d = trv_format_double(json_node_get_double(v));
        g_ptr_array_add(sets, g_strdup_printf("%s=%s", (char *)k->data, d));
        g_free(d);
      } else {
        char *m = g_strdup_printf("parameter \"%s\" is neither a number nor text", (char *)k->data);
        ok = bad(error, file, m);
        g_free(m);
      }
    }
    g_list_free(keys);
  }
  GArray *faults = g_array_new(FALSE, TRUE, sizeof(TrvFaultSpec));
  JsonNode *fn = ok ? json_object_get_member(root, "faults") : NULL;
  if (ok && (!fn || !JSON_NODE_HOLDS_ARRAY(fn))) ok = bad(error, file, "\"faults\" is not an array");
  static const char *const kinds[] = {"link-flap", "host-crash", "partition"};
  for (guint i = 0; ok && i < json_array_get_length(json_node_get_array(fn)); i++) {
    JsonNode *e = json_array_get_element(json_node_get_array(fn), i);
    JsonObject *o = JSON_NODE_HOLDS_OBJECT(e) ? json_node_get_object(e) : NULL;
    const char *kind = o ? trv_json_member_string(o, "kind") : NULL, *pattern = o ? trv_json_member_string(o, "pattern") : NULL;
    TrvFaultSpec f = {.kind = (TrvFaultKind)-1};
    for (int k = 0; kind && k < 3; k++)
      if (!strcmp(kind, kinds[k])) f.kind = (TrvFaultKind)k;
    bool num = o && member_number(o, "mtbf", &f.mtbf) && member_number(o, "mttr", &f.mttr) &&
               member_number(o, "start", &f.start) && member_number(o, "stop", &f.stop) &&
               member_number(o, "at", &f.at) && member_number(o, "duration", &f.duration);
    if ((int)f.kind < 0 || !pattern || !*pattern || !num) {
      ok = bad(error, file, "a fault is not {\"kind\": link-flap|host-crash|partition, \"pattern\": ..., numbers}");
      break;
    }
    if (f.kind == TRV_FAULT_LINK_FLAP &&
        !(fault_law(o, "up", &f.up, &f.up_shape) && fault_law(o, "down", &f.down, &f.down_shape))) {
      ok = bad(error, file,
               "a link-flap's \"up\" or \"down\" is not exponential, or weibull or lognormal with its "
               "\"up_shape\" or \"down_shape\" in the range of <link-flap> (docs/scenarios.md)");
      break;
    }
    f.pattern = g_strdup(pattern);
    g_array_append_val(faults, f);
  }
  JsonNode *roles = ok ? json_object_get_member(root, "roles") : NULL;
  if (ok && (!roles || !JSON_NODE_HOLDS_OBJECT(roles))) ok = bad(error, file, "\"roles\" is not an object");
  for (int r = 0; ok && r < TRV_N_ROLES; r++) {
    JsonNode *v = json_object_get_member(json_node_get_object(roles), trv_role_names[r]);
    if (v && JSON_NODE_HOLDS_VALUE(v) && json_node_get_value_type(v) == G_TYPE_STRING)
      rc->role_hosts[r] = g_strdup(json_node_get_string(v));
    else if (v && !JSON_NODE_HOLDS_NULL(v))
      ok = bad(error, file, "a role is neither host patterns nor null");
  }
  GPtrArray *sg = g_ptr_array_new_with_free_func(g_free), *ctl = g_ptr_array_new_with_free_func(g_free);
  const char *arrays[] = {"simgrid_options", "controllers"};
  GPtrArray *into[] = {sg, ctl};
  for (int a = 0; ok && a < 2; a++) {
    JsonNode *n = json_object_get_member(root, arrays[a]);
    if (!n || !JSON_NODE_HOLDS_ARRAY(n)) {
      char *m = g_strdup_printf("\"%s\" is not an array", arrays[a]);
      ok = bad(error, file, m);
      g_free(m);
      break;
    }
    for (guint i = 0; ok && i < json_array_get_length(json_node_get_array(n)); i++) {
      JsonNode *e = json_array_get_element(json_node_get_array(n), i);
      if (!JSON_NODE_HOLDS_VALUE(e) || json_node_get_value_type(e) != G_TYPE_STRING) {
        char *m = g_strdup_printf("\"%s\" holds something that is not text", arrays[a]);
        ok = bad(error, file, m);
        g_free(m);
      } else {
        g_ptr_array_add(into[a], g_strdup(json_node_get_string(e)));
      }
    }
  }
  for (guint i = 0; ok && i < sg->len; i++)
    if (!g_str_has_prefix(sg->pdata[i], "--cfg=") && !g_str_has_prefix(sg->pdata[i], "--log="))
      ok = bad(error, file, "a SimGrid option is neither --cfg=... nor --log=...");
  if (ok && ctl->len == 0) ok = bad(error, file, "\"controllers\" is empty");
  if (ok) {
    rc->scenario = g_strdup(scenario);
    rc->platform = g_strdup(platform);
    g_ptr_array_add(sets, NULL);
    rc->sets = (char **)g_ptr_array_free(sets, FALSE);
    rc->faults = faults;
    g_ptr_array_add(sg, NULL);
    rc->simgrid_args = (char **)g_ptr_array_free(sg, FALSE);
    g_ptr_array_add(ctl, NULL);
    char **c = (char **)g_ptr_array_free(ctl, FALSE);
    rc->controllers = g_strjoinv(",", c);
    g_strfreev(c);
  } else {
    g_ptr_array_free(sets, TRUE);
    for (guint i = 0; i < faults->len; i++) g_free(g_array_index(faults, TrvFaultSpec, i).pattern);
    g_array_free(faults, TRUE);
    g_ptr_array_free(sg, TRUE);
    g_ptr_array_free(ctl, TRUE);
    trv_replay_config_clear(rc);
  }
  g_object_unref(parser);
  return ok;
}

void trv_replay_config_clear(TrvReplayConfig *rc) {
  g_free(rc->scenario);
  g_free(rc->platform);
  g_strfreev(rc->sets);
  if (rc->faults) {
    for (guint i = 0; i < rc->faults->len; i++) g_free(g_array_index(rc->faults, TrvFaultSpec, i).pattern);
    g_array_free(rc->faults, TRUE);
  }
  g_strfreev(rc->simgrid_args);
  g_free(rc->controllers);
  for (int r = 0; r < TRV_N_ROLES; r++) g_free(rc->role_hosts[r]);
  memset(rc, 0, sizeof *rc);
}
