/* program-run.c - the reader of a program's run.json (format
 * trivium-program-1, written by trivium_results_write_dir:
 * plugin/sim/program-dir.c), for `trivium report DIR` (program-report.c).
 *
 * run.json is an input like any other: read whole under the limits of its
 * format (json-file.h), then every member checked for its kind and range
 * before it is used: names are one line of 1 to 256 bytes without a comma
 * (they become CSV fields and column names), the controller one of this
 * trivium's, counts within the arrays' room (components, world metrics,
 * change-points, curve points), change-points and curve episodes in order
 * within the run's episodes, numbers JSON numbers, null (NaN) or "inf" /
 * "-inf", settings the parameter table's values.  Anything else is one
 * TRV_ERROR_INPUT line naming the file and the member.  The cell's
 * reduction is taken as written: every number reads back as the double the
 * program had. */
#include <math.h>
#include <string.h>

#include "json-file.h"
#include "program-run.h"
#include "core/controller.h"

#define PROGRAM_FORMAT "trivium-program-1"

static const TrvJsonFormat program_json = {
    .what = "run.json",
    .expected = "a run.json written by trivium_results_write_dir (format " PROGRAM_FORMAT ")",
    .max_bytes = 4 << 20,
    .max_depth = 4,
    .max_elements = 4096,
    .max_values = 65536,
};

typedef struct {
  const char *file;
  GError **error;
} Reader;

static bool fail(Reader *r, const char *member, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static bool fail(Reader *r, const char *member, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(r->error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s: %s", r->file, member, what);
  g_free(what);
  return false;
}

/* A number as program-dir.c writes it: a JSON number, null (NaN), or the
 * string "inf" / "-inf". */
static bool number(Reader *r, const char *member, JsonNode *n, double *out) {
  if (n && JSON_NODE_HOLDS_NULL(n)) return *out = NAN, true;
  if (n && JSON_NODE_HOLDS_VALUE(n)) {
    GType t = json_node_get_value_type(n);
    if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE) return *out = json_node_get_double(n), true;
    if (t == G_TYPE_STRING) {
      const char *s = json_node_get_string(n);
      if (!strcmp(s, "inf")) return *out = INFINITY, true;
      if (!strcmp(s, "-inf")) return *out = -INFINITY, true;
    }
  }
  return fail(r, member, "%s; expected a number, null or \"inf\"", trv_json_kind(n));
}

static bool integer(Reader *r, const char *member, JsonNode *n, gint64 lo, gint64 hi, gint64 *out) {
  if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
    return fail(r, member, "%s; expected an integer in [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]", trv_json_kind(n),
                lo, hi);
  *out = json_node_get_int(n);
  if (*out < lo || *out > hi)
    return fail(r, member, "%" G_GINT64_FORMAT "; expected an integer in [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]",
                *out, lo, hi);
  return true;
}

/* A name: a string of 1 to 256 bytes, one line, no comma (names are CSV
 * fields and column names). */
static const char *name(Reader *r, const char *member, JsonNode *n) {
  const char *s = trv_json_is_string(n) ? json_node_get_string(n) : NULL;
  if (!s || !*s || strlen(s) > 256 || trv_text_control_byte(s) || strchr(s, ',') || !g_utf8_validate(s, -1, NULL)) {
    fail(r, member, "%s; expected a name (1 to 256 bytes of one line, no comma)",
         s ? "an unusable name" : trv_json_kind(n));
    return NULL;
  }
  return s;
}

static JsonArray *array(Reader *r, JsonObject *o, const char *member, guint lo, guint hi) {
  JsonNode *n = json_object_get_member(o, member);
  if (!n || !JSON_NODE_HOLDS_ARRAY(n)) {
    fail(r, member, "%s; expected an array", trv_json_kind(n));
    return NULL;
  }
  JsonArray *a = json_node_get_array(n);
  guint len = json_array_get_length(a);
  if (len < lo || len > hi) {
    fail(r, member, "%u elements; expected %u to %u", len, lo, hi);
    return NULL;
  }
  return a;
}

static JsonObject *object(Reader *r, JsonObject *o, const char *member) {
  JsonNode *n = json_object_get_member(o, member);
  if (!n || !JSON_NODE_HOLDS_OBJECT(n)) {
    fail(r, member, "%s; expected an object", trv_json_kind(n));
    return NULL;
  }
  return json_node_get_object(n);
}

static bool numbers(Reader *r, JsonObject *o, const char *member, guint len, double *out) {
  JsonArray *a = array(r, o, member, len, len);
  for (guint i = 0; a && i < len; i++) {
    char *m = g_strdup_printf("%s[%u]", member, i);
    bool ok = number(r, m, json_array_get_element(a, i), &out[i]);
    g_free(m);
    if (!ok) return false;
  }
  return a != NULL;
}

static bool read_settings(Reader *r, JsonObject *root, TrvProgramRunFile *p) {
  JsonObject *settings = object(r, root, "settings");
  if (!settings) return false;
  trv_params_defaults(&p->params);
  GList *members = json_object_get_members(settings);
  bool ok = true;
  for (GList *m = members; ok && m; m = m->next) {
    const char *key = m->data;
    JsonNode *v = json_object_get_member(settings, key);
    if (!trv_json_is_string(v)) {
      ok = fail(r, "settings", "%s is %s; expected text", key, trv_json_kind(v));
      break;
    }
    size_t n;
    const TrvParamSpec *specs = trv_param_specs(&n);
    bool known = false;
    for (size_t i = 0; i < n && !known; i++) known = !strcmp(specs[i].key, key);
    if (!known) continue; /* the plugin's own settings (world, roles, ...): in run.json for the reader */
    GError *e = NULL;
    if (!trv_params_set(&p->params, key, json_node_get_string(v), &e)) {
      ok = fail(r, "settings", "%s", e->message);
      g_error_free(e);
    }
  }
  g_list_free(members);
  return ok;
}

static bool read_layout(Reader *r, JsonObject *root, TrvProgramRunFile *p) {
  JsonNode *format = json_object_get_member(root, "format");
  if (!trv_json_is_string(format) || strcmp(json_node_get_string(format), PROGRAM_FORMAT))
    return fail(r, "format", "%s; expected \"" PROGRAM_FORMAT "\"", trv_json_kind(format));
  const char *controller = name(r, "controller", json_object_get_member(root, "controller"));
  if (!controller) return false;
  if (!g_strv_contains(trv_controller_names(), controller))
    return fail(r, "controller", "'%s' is no controller of this trivium", controller);
  p->controller = controller;
  const char *world = name(r, "world", json_object_get_member(root, "world"));
  if (!world) return false;
  p->world.name = world;
  gint64 v;
  if (!integer(r, "seed", json_object_get_member(root, "seed"), 0, G_MAXINT32, &v)) return false;
  p->seed = (int)v;
  if (!integer(r, "episodes", json_object_get_member(root, "episodes"), 1, 10000000, &v)) return false;
  p->layout.episodes = (int)v;
  JsonArray *comps = array(r, root, "components", 1, TRV_MAX_COMPONENTS);
  JsonArray *observed =
      comps ? array(r, root, "components_observed", json_array_get_length(comps), json_array_get_length(comps)) : NULL;
  if (!observed) return false;
  int nc = (int)json_array_get_length(comps);
  for (int j = 0; j < nc; j++) {
    char member[48];
    snprintf(member, sizeof member, "components[%d]", j);
    if (!(p->comps[j].name = name(r, member, json_array_get_element(comps, j)))) return false;
    JsonNode *b = json_array_get_element(observed, j);
    if (!JSON_NODE_HOLDS_VALUE(b) || json_node_get_value_type(b) != G_TYPE_BOOLEAN)
      return fail(r, "components_observed", "%s; expected true or false", trv_json_kind(b));
    p->comps[j].observed = json_node_get_boolean(b);
  }
  p->cand = (TrvCandidates){0, NULL, nc, p->comps};
  p->layout.cand = &p->cand;
  JsonArray *wm = array(r, root, "world_metrics", 0, TRV_WORLD_METRICS_MAX);
  if (!wm) return false;
  for (guint k = 0; k < json_array_get_length(wm); k++) {
    char member[48];
    snprintf(member, sizeof member, "world_metrics[%u]", k);
    if (!(p->metric_names[k] = name(r, member, json_array_get_element(wm, k)))) return false;
  }
  p->layout.metric_names = p->metric_names;
  p->layout.controller = p->controller;
  JsonArray *cps = array(r, root, "change_points", 0, TRV_MAX_CHANGE_POINTS);
  if (!cps) return false;
  for (guint k = 0; k < json_array_get_length(cps); k++) {
    char member[48];
    snprintf(member, sizeof member, "change_points[%u]", k);
    gint64 lo = k ? p->layout.change_points[k - 1] : 0;
    if (!integer(r, member, json_array_get_element(cps, k), lo, p->layout.episodes, &v)) return false;
    p->layout.change_points[k] = (int)v;
  }
  p->layout.n_change_points = (int)json_array_get_length(cps);
  return true;
}

static bool read_summary(Reader *r, JsonObject *root, TrvProgramRunFile *p) {
  JsonObject *so = object(r, root, "summary");
  if (!so) return false;
  TrvCellSummary *s = p->sum;
  gint64 v;
  if (!integer(r, "summary.episodes", json_object_get_member(so, "episodes"), 0, p->layout.episodes, &v)) return false;
  s->episodes = (int)v;
  JsonObject *metrics = object(r, so, "metrics");
  if (!metrics) return false;
  for (int m = 0; m < TRV_METRIC_COUNT; m++) {
    char *member = g_strdup_printf("summary.metrics.%s", trivium_metric_name(m));
    bool ok = number(r, member, json_object_get_member(metrics, trivium_metric_name(m)), &s->metric[m]);
    g_free(member);
    if (!ok) return false;
  }
  int nw = 0;
  while (p->metric_names[nw]) nw++;
  s->n_world_metrics = nw;
  s->n_components = p->cand.n_components;
  if (!numbers(r, so, "world_metric_mean", (guint)nw, s->world_metric_mean) ||
      !numbers(r, so, "final_p", (guint)s->n_components, s->final_p))
    return false;
  JsonArray *ce = array(r, so, "curve_episode", 0, TRV_CURVE_POINTS);
  if (!ce) return false;
  s->n_curve = (int)json_array_get_length(ce);
  for (int i = 0; i < s->n_curve; i++) {
    char member[48];
    snprintf(member, sizeof member, "curve_episode[%d]", i);
    if (!integer(r, member, json_array_get_element(ce, i), i ? s->curve_episode[i - 1] : 0, p->layout.episodes, &v))
      return false;
    s->curve_episode[i] = (int)v;
  }
  if (!numbers(r, so, "curve_r_out", (guint)s->n_curve, s->curve_r_out)) return false;
  JsonArray *rec = array(r, so, "recovery", 0, TRV_CELL_CHANGE_POINTS);
  if (!rec) return false;
  s->n_change_points = (int)json_array_get_length(rec);
  for (int k = 0; k < s->n_change_points; k++) {
    char member[48];
    snprintf(member, sizeof member, "recovery[%d]", k);
    JsonNode *n = json_array_get_element(rec, k);
    JsonArray *a = n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
    if (!a || json_array_get_length(a) != 5)
      return fail(r, member, "%s; expected [change-point, recovery, commit recovery, exposure, committed exposure]",
                  trv_json_kind(n));
    TrvChangePointRecovery *c = &s->change_point[k];
    double *vals[] = {&c->recovery, &c->commit_recovery, &c->exposure, &c->committed_exposure};
    if (!integer(r, member, json_array_get_element(a, 0), 0, p->layout.episodes, &v)) return false;
    c->change_point = (int)v;
    for (int i = 0; i < 4; i++)
      if (!number(r, member, json_array_get_element(a, (guint)i + 1), vals[i])) return false;
  }
  return true;
}

TrvProgramRunFile *trv_program_run_load(const char *path, GError **error) {
  JsonParser *parser = NULL;
  JsonObject *root = trv_json_object_load(path, &program_json, &parser, error);
  TrvProgramRunFile *p = g_new0(TrvProgramRunFile, 1);
  p->sum = g_new0(TrvCellSummary, 1);
  Reader r = {path, error};
  bool ok = root && read_layout(&r, root, p) && read_settings(&r, root, p) && read_summary(&r, root, p);
  if (ok) { /* the names point into the parser's tree: kept with the file */
    p->parser = parser;
    return p;
  }
  if (parser) g_object_unref(parser);
  g_free(p->sum);
  g_free(p);
  return NULL;
}

void trv_program_run_free(TrvProgramRunFile *p) {
  if (!p) return;
  if (p->parser) g_object_unref(p->parser);
  g_free(p->sum);
  g_free(p);
}
