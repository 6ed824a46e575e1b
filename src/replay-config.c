/* replay-config.c - `trivium run --replay-config RUN.json`: the run that a
 * run.json describes, rebuilt from it.
 *
 * run.json is input like any other, and hostile until checked.  It is
 * read whole (at most 16 MiB) and scanned before json-glib parses it
 * (json-file.h): at most TRV_JSON_MAX_DEPTH levels of nesting, at most
 * RUN_JSON_MAX_ELEMENTS elements in one array or object (the "seeds" of a
 * run of the most seeds run.seeds allows) and twice that many values in
 * all.  Every member must have its exact JSON type (a parameter the table
 * says is an integer must be a JSON integer, not "5"), every count is
 * checked against the program's own limit before anything proportional to
 * it is allocated (the controllers: each known one at most once, as in a
 * scenario; the faults: TRV_SCENARIO_MAX_FAULTS, and the events of their
 * fault traces TRV_FAULT_TRACE_MAX_EVENTS; the inputs:
 * TRV_RUN_MAX_INPUTS; the profiles: TRV_PLATFORM_MAX_PROFILES; SimGrid's
 * options: TRV_SIMGRID_FILE_MAX_OPTIONS; the glob items of the patterns:
 * TRV_SCENARIO_MAX_PATTERNS), and every value against the range the
 * command line and the scenario loader allow.
 * SimGrid's options must be on the allow-list of options a file may give
 * (simgrid-options.h): none names a file or loads code.  A file it names
 * (the scenario, the platform, its profile files, the world's data files,
 * a fault trace) must be a regular file of at most 256 MiB that still has
 * the SHA-256 the run recorded, where the run read it or as the run
 * directory's copy (run-inputs.h); the files that name each other by
 * relative paths are read all from one place or all from the other, and
 * every profile file the platform names must be one recorded.  A fault
 * trace is then read and checked as the scenario loader reads it; a
 * world's data file is handed to the world by the parameter that named it
 * or through the data directory.
 * Anything else is one line naming the file, and the replay is refused
 * (exit 2) rather than run on other inputs.
 *
 * The point is rebuilt from what the run resolved: every parameter (as
 * --set), its fault processes (in place of the scenario's faults and
 * sweeps), the role patterns, SimGrid's options, the controllers, the
 * platform.  Nothing in the file chooses where outputs go: that is -o. */
#include <config.h>

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "core/input.h"
#include "json-file.h"
#include "replay-config.h"
#include "replay-files.h"
#include "report.h"
#include "run-inputs.h"
#include "scenario/scenario.h"
#include "simgrid-options.h"

#define RUN_JSON_MAX_BYTES ((gsize)16 << 20)
#define RUN_JSON_MAX_ELEMENTS 100000 /* run.seeds' largest value (params.c): the "seeds" array */

static const TrvJsonFormat run_json = {.what = "run.json",
                                       .expected = "a run.json written by trivium run",
                                       .max_bytes = RUN_JSON_MAX_BYTES,
                                       .max_depth = TRV_JSON_MAX_DEPTH,
                                       .max_elements = RUN_JSON_MAX_ELEMENTS,
                                       .max_values = 2 * RUN_JSON_MAX_ELEMENTS};

typedef struct {
  const char *file;
  GError **error;
  int glob_items; /* of the fault and role patterns so far */
} Reader;

/* A refusal of the file being read: false with *r->error. */
#define bad(r, ...) trv_input_fail((r)->error, (r)->file, __VA_ARGS__)
#define wrong(r, where, n, want) trv_json_wrong((r)->error, (r)->file, where, n, want)

/* n, named `where`, is not text naming one of what `expected` lists. */
static bool not_one_of(Reader *r, const char *where, JsonNode *n, const char *expected) {
  if (!trv_json_is_string(n)) return wrong(r, where, n, expected);
  char *shown = g_strescape(json_node_get_string(n), NULL);
  bad(r, "%s is \"%.64s\"; expected %s", where, shown, expected);
  g_free(shown);
  return false;
}

/* The array member `name`, of at most max elements; NULL (refused) else. */
static JsonArray *array_member(Reader *r, JsonObject *o, const char *name, guint max, const char *each) {
  JsonNode *n = json_object_get_member(o, name);
  char *where = g_strdup_printf("\"%s\"", name);
  JsonArray *a = n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
  if (!a) {
    wrong(r, where, n, "an array");
  } else if (json_array_get_length(a) > max) {
    bad(r, "%s holds %u elements; expected at most %u %s", where, json_array_get_length(a), max, each);
    a = NULL;
  }
  g_free(where);
  return a;
}

/* Text that the run prints or matches: no control byte, at most max bytes. */
static bool text_ok(Reader *r, const char *where, const char *s, size_t max) {
  return trv_json_text_ok(r->error, r->file, where, s, max);
}

/* Host or link patterns (comma-separated globs): within the scenario
 * loader's limits, counted over the whole file. */
static bool patterns_ok(Reader *r, const char *where, const char *s) {
  if (!*s) return bad(r, "%s is empty; expected host or link patterns", where);
  if (!text_ok(r, where, s, TRV_SCENARIO_MAX_VALUE)) return false;
  for (const char *p = s; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
    size_t n = strcspn(p, ",");
    if (n > TRV_SCENARIO_MAX_PATTERN)
      return bad(r, "%s has a glob of %zu bytes; expected at most %d", where, n, TRV_SCENARIO_MAX_PATTERN);
    if (++r->glob_items > TRV_SCENARIO_MAX_PATTERNS)
      return bad(r, "%s: more than %d globs in the file's patterns; expected at most %d, as in a scenario", where,
                 TRV_SCENARIO_MAX_PATTERNS, TRV_SCENARIO_MAX_PATTERNS);
  }
  return true;
}

/* A number member of fault i within [lo, TRV_FAULT_MAX_SECONDS]; null only
 * where null_ok (a stop: to the end of the run, +inf). */
static bool fault_number(Reader *r, JsonObject *o, guint i, const char *name, double lo, bool null_ok, double *v) {
  JsonNode *n = json_object_get_member(o, name);
  GType t = n && JSON_NODE_HOLDS_VALUE(n) ? json_node_get_value_type(n) : G_TYPE_INVALID;
  char *where = g_strdup_printf("\"faults\"[%u].%s", i, name);
  bool ok = true;
  if (null_ok && n && JSON_NODE_HOLDS_NULL(n))
    *v = INFINITY;
  else if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE) {
    *v = t == G_TYPE_INT64 ? (double)json_node_get_int(n) : json_node_get_double(n);
    if (!(*v >= lo && *v <= TRV_FAULT_MAX_SECONDS))
      ok = bad(r, "%s is %g; expected seconds in [%g, %g]", where, *v, lo, TRV_FAULT_MAX_SECONDS);
  } else
    ok = wrong(r, where, n, null_ok ? "a number or null" : "a number");
  g_free(where);
  return ok;
}

/* The law of one side ("up" or "down") of link-flap i and its shape
 * ("up_shape", ...); a run.json without them (or with null) had
 * exponential times.  A shape must be in the range the scenario loader
 * allows. */
static bool fault_law(Reader *r, JsonObject *o, guint i, const char *side, TrvFaultLaw *law, double *shape) {
  *law = TRV_FAULT_EXPONENTIAL, *shape = 0;
  JsonNode *n = json_object_get_member(o, side);
  if (!n || JSON_NODE_HOLDS_NULL(n)) return true;
  char *where = g_strdup_printf("\"faults\"[%u].%s", i, side);
  int k = 0;
  while (trv_json_is_string(n) && trv_fault_law_names[k] && strcmp(trv_fault_law_names[k], json_node_get_string(n)))
    k++;
  bool ok = trv_json_is_string(n) && trv_fault_law_names[k]
                ? true
                : not_one_of(r, where, n, "exponential, weibull, lognormal, fixed or null");
  g_free(where);
  if (!ok || !trv_fault_law_shaped(*law = (TrvFaultLaw)k)) return ok;
  char name[16];
  g_snprintf(name, sizeof name, "%s_shape", side);
  n = json_object_get_member(o, name);
  where = g_strdup_printf("\"faults\"[%u].%s", i, name);
  double lo, hi;
  trv_fault_shape_range(*law, &lo, &hi);
  GType t = n && JSON_NODE_HOLDS_VALUE(n) ? json_node_get_value_type(n) : G_TYPE_INVALID;
  if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE) {
    *shape = t == G_TYPE_INT64 ? (double)json_node_get_int(n) : json_node_get_double(n);
    if (!(*shape >= lo && *shape <= hi))
      ok =
          bad(r, "%s is %g; expected a shape of the %s law in [%g, %g]", where, *shape, trv_fault_law_names[k], lo, hi);
  } else {
    ok = wrong(r, where, n, "a number");
  }
  g_free(where);
  return ok;
}

/* A fault trace's "file": absent (or null) for the other kinds; for a
 * fault trace the recorded file, added to `files` (its trace is read once
 * the files are chosen, load_traces). */
static bool fault_file(Reader *r, JsonObject *o, guint i, const TrvFaultSpec *f, GPtrArray *files) {
  JsonNode *n = json_object_get_member(o, "file");
  char *where = g_strdup_printf("\"faults\"[%u].file", i);
  bool ok = true;
  if (f->kind != TRV_FAULT_TRACE) {
    if (n && !JSON_NODE_HOLDS_NULL(n)) ok = wrong(r, where, n, "null (only a fault-trace has a file)");
  } else {
    TrvRecordedFile *rf = trv_recorded_file_new(r->file, n, where, r->error);
    if ((ok = rf != NULL)) {
      rf->fault = (int)i;
      g_ptr_array_add(files, rf);
    }
  }
  g_free(where);
  return ok;
}

/* The fault traces, from the files chosen (copies or not), read and
 * checked as the scenario loader reads them, their events counted over
 * the file's traces. */
static bool load_traces(Reader *r, GPtrArray *files, bool copies, GArray *faults) {
  size_t events = 0;
  for (guint k = 0; k < files->len; k++) {
    TrvRecordedFile *rf = files->pdata[k];
    if (rf->fault < 0) continue;
    TrvFaultSpec *f = &g_array_index(faults, TrvFaultSpec, rf->fault);
    GError *e = NULL;
    f->trace = trv_fault_trace_load(trv_recorded_file_path(rf, copies), &e);
    if (!f->trace) {
      bad(r, "%s: fault trace refused: %s", rf->where, e->message);
      g_error_free(e);
      return false;
    }
    if (f->trace->n_events > TRV_FAULT_TRACE_MAX_EVENTS - events)
      return bad(r, "%s brings the faults to %zu trace events; expected at most %d, as in a scenario", rf->where,
                 events + f->trace->n_events, TRV_FAULT_TRACE_MAX_EVENTS);
    events += f->trace->n_events;
  }
  return true;
}

/* The point's fault processes; a fault trace's file goes to `files`. */
static bool read_faults(Reader *r, JsonObject *root, GArray *faults, GPtrArray *files) {
  const char *const *kinds = trv_scn_fault_elements;
  JsonArray *a = array_member(r, root, "faults", TRV_SCENARIO_MAX_FAULTS, "fault processes, as in a scenario");
  for (guint i = 0; a && i < json_array_get_length(a); i++) {
    JsonNode *e = json_array_get_element(a, i);
    char *where = g_strdup_printf("\"faults\"[%u]", i);
    JsonObject *o = JSON_NODE_HOLDS_OBJECT(e) ? json_node_get_object(e) : NULL;
    JsonNode *kn = o ? json_object_get_member(o, "kind") : NULL, *pn = o ? json_object_get_member(o, "pattern") : NULL;
    TrvFaultSpec f = {.kind = (TrvFaultKind)-1};
    for (int k = 0; trv_json_is_string(kn) && kinds[k]; k++)
      if (!strcmp(json_node_get_string(kn), kinds[k])) f.kind = (TrvFaultKind)k;
    bool ok = true;
    char *kind_where = g_strdup_printf("%s.kind", where);
    if (!o)
      ok = wrong(r, where, e, "an object");
    else if ((int)f.kind < 0)
      ok = not_one_of(r, kind_where, kn, "link-flap, host-crash, partition or fault-trace");
    else if (!trv_json_is_string(pn))
      ok = bad(r, "%s.pattern is %s; expected text", where, trv_json_kind(pn));
    g_free(kind_where);
    g_free(where);
    if (!ok) return false;
    where = g_strdup_printf("\"faults\"[%u].pattern", i);
    /* a fault trace's pattern is its file as the scenario wrote it: text, not globs */
    ok = f.kind == TRV_FAULT_TRACE ? text_ok(r, where, json_node_get_string(pn), TRV_SCENARIO_MAX_PATH)
                                   : patterns_ok(r, where, json_node_get_string(pn));
    g_free(where);
    bool flap = f.kind == TRV_FAULT_LINK_FLAP; /* its periods from TRV_FAULT_MIN_PERIOD; unused fields are 0 */
    ok = ok && fault_number(r, o, i, "mtbf", flap ? TRV_FAULT_MIN_PERIOD : 0, false, &f.mtbf) &&
         fault_number(r, o, i, "mttr", flap ? TRV_FAULT_MIN_PERIOD : 0, false, &f.mttr) &&
         fault_number(r, o, i, "start", 0, false, &f.start) && fault_number(r, o, i, "stop", 0, true, &f.stop) &&
         fault_number(r, o, i, "at", 0, false, &f.at) && fault_number(r, o, i, "duration", 0, false, &f.duration);
    ok = ok && (!flap ||
                (fault_law(r, o, i, "up", &f.up, &f.up_shape) && fault_law(r, o, i, "down", &f.down, &f.down_shape)));
    ok = ok && fault_file(r, o, i, &f, files);
    if (!ok) {
      trv_fault_spec_clear(&f);
      return false;
    }
    f.pattern = g_strdup(json_node_get_string(pn));
    g_array_append_val(faults, f);
  }
  return a != NULL;
}

/* Every parameter as KEY=VALUE: a key of the parameter table, the JSON
 * type its table type gives (integers as JSON integers; doubles as
 * numbers; names and text as strings), a value the table accepts. */
static bool read_parameters(Reader *r, JsonObject *root, GPtrArray *sets) {
  JsonNode *pn = json_object_get_member(root, "parameters");
  if (!pn || !JSON_NODE_HOLDS_OBJECT(pn)) return wrong(r, "\"parameters\"", pn, "an object");
  JsonObject *po = json_node_get_object(pn);
  size_t n_specs;
  trv_param_specs(&n_specs);
  if (json_object_get_size(po) > n_specs)
    return bad(r, "\"parameters\" has %u members; expected at most one per parameter (%zu)", json_object_get_size(po),
               n_specs);
  GList *keys = json_object_get_members(po);
  bool ok = true;
  TrvParams scratch;
  trv_params_defaults(&scratch);
  for (GList *k = keys; ok && k; k = k->next) {
    const char *key = k->data;
    const TrvParamSpec *spec = trv_param_lookup(key);
    JsonNode *v = json_object_get_member(po, key);
    GType t = JSON_NODE_HOLDS_VALUE(v) ? json_node_get_value_type(v) : G_TYPE_INVALID;
    char *where = g_strdup_printf("parameter \"%s\"", key), *text = NULL;
    if (!spec) {
      char *shown = g_strescape(key, NULL);
      ok = bad(r, "\"parameters\" holds \"%s\", which is not a parameter of this build (see `trivium params`)", shown);
      g_free(shown);
    } else if (spec->type == TRV_PARAM_INT) {
      if (t == G_TYPE_INT64)
        text = g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(v));
      else
        ok = wrong(r, where, v, "an integer");
    } else if (spec->type == TRV_PARAM_DOUBLE) {
      if (t == G_TYPE_INT64)
        text = g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(v));
      else if (t == G_TYPE_DOUBLE)
        text = trv_format_double(json_node_get_double(v));
      else
        ok = wrong(r, where, v, "a number");
    } else if (t == G_TYPE_STRING) {
      if ((ok = text_ok(r, where, json_node_get_string(v), TRV_PARAM_TEXT_MAX - 1)))
        text = g_strdup(json_node_get_string(v));
    } else {
      ok = wrong(r, where, v, spec->type == TRV_PARAM_ENUM ? "text (one of its names)" : "text");
    }
    GError *e = NULL;
    if (ok && !trv_params_set(&scratch, key, text, &e)) {
      ok = bad(r, "%s", e->message);
      g_error_free(e);
    }
    if (ok) g_ptr_array_add(sets, g_strdup_printf("%s=%s", key, text));
    g_free(text);
    g_free(where);
  }
  g_list_free(keys);
  return ok;
}

/* The controllers, each a known one at most once (a scenario's rule). */
static bool read_controllers(Reader *r, JsonObject *root, GPtrArray *ctl) {
  guint known = g_strv_length((char **)trv_controller_names());
  JsonArray *a = array_member(r, root, "controllers", known, "controllers, each known one at most once");
  for (guint i = 0; a && i < json_array_get_length(a); i++) {
    JsonNode *e = json_array_get_element(a, i);
    const char *name = trv_json_is_string(e) ? json_node_get_string(e) : NULL;
    char *where = g_strdup_printf("\"controllers\"[%u]", i);
    bool ok = true;
    if (!name || !g_strv_contains(trv_controller_names(), name)) {
      char *all = g_strjoinv(", ", (char **)trv_controller_names()), *expected = g_strdup_printf("one of %s", all);
      ok = not_one_of(r, where, e, expected);
      g_free(all), g_free(expected);
    } else if (g_ptr_array_find_with_equal_func(ctl, name, g_str_equal, NULL)) {
      ok = bad(r, "%s: controller %s listed twice; expected each controller once", where, name);
    }
    g_free(where);
    if (!ok) return false;
    g_ptr_array_add(ctl, g_strdup(name));
  }
  if (a && ctl->len == 0) return bad(r, "\"controllers\" is empty; expected at least one controller");
  return a != NULL;
}

/* SimGrid's options: text on the allow-list of options a file may give. */
static bool read_simgrid_options(Reader *r, JsonObject *root, GPtrArray *sg) {
  JsonArray *a = array_member(r, root, "simgrid_options", TRV_SIMGRID_FILE_MAX_OPTIONS, "options");
  for (guint i = 0; a && i < json_array_get_length(a); i++) {
    JsonNode *e = json_array_get_element(a, i);
    char *where = g_strdup_printf("\"simgrid_options\"[%u]", i);
    bool ok = trv_json_is_string(e) ? trv_simgrid_file_option_check(r->file, json_node_get_string(e), r->error)
                                    : wrong(r, where, e, "text (--cfg=... or --log=...)");
    g_free(where);
    if (!ok) return false;
    g_ptr_array_add(sg, g_strdup(json_node_get_string(e)));
  }
  return a != NULL;
}

char *trv_file_sha256(const char *path) {
  char *data = NULL; /* a regular file of a sane size: never a device or FIFO that reads forever */
  size_t len = 0;
  char *sum = NULL;
  if (path && trv_input_read(path, TRV_RUN_INPUT_MAX_BYTES, "input", TRV_INPUT_REGULAR, &data, &len, NULL))
    sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
  g_free(data);
  return sum;
}

static bool required_file(Reader *r, JsonObject *root, const char *name, GPtrArray *files) {
  JsonNode *n = json_object_get_member(root, name);
  if (!n || JSON_NODE_HOLDS_NULL(n)) return bad(r, "no %s recorded; expected a run.json written by trivium run", name);
  TrvRecordedFile *f = trv_recorded_file_new(r->file, n, name, r->error);
  if (f) g_ptr_array_add(files, f);
  return f != NULL;
}

/* The platforms' profile files ("profiles": absent in a run.json written
 * before the run kept them, then nothing is checked), into `files`. */
static bool read_profiles(Reader *r, JsonObject *root, GPtrArray *files, bool *recorded) {
  *recorded = json_object_has_member(root, "profiles");
  if (!*recorded) return true;
  JsonArray *a = array_member(r, root, "profiles", TRV_PLATFORM_MAX_PROFILES, "profile files, as a platform may name");
  for (guint i = 0; a && i < json_array_get_length(a); i++) {
    char *where = g_strdup_printf("\"profiles\"[%u]", i);
    TrvRecordedFile *f = trv_recorded_file_new(r->file, json_array_get_element(a, i), where, r->error);
    g_free(where);
    if (!f) return false;
    g_ptr_array_add(files, f);
  }
  return a != NULL;
}

static bool read_roles(Reader *r, JsonObject *root, TrvReplayConfig *rc) {
  JsonNode *roles = json_object_get_member(root, "roles");
  if (!roles || !JSON_NODE_HOLDS_OBJECT(roles)) return wrong(r, "\"roles\"", roles, "an object");
  for (int k = 0; k < TRV_N_ROLES; k++) {
    JsonNode *v = json_object_get_member(json_node_get_object(roles), trv_role_names[k]);
    char *where = g_strdup_printf("\"roles\".%s", trv_role_names[k]);
    bool ok = !v || JSON_NODE_HOLDS_NULL(v) ||
              (trv_json_is_string(v) ? patterns_ok(r, where, json_node_get_string(v))
                                     : wrong(r, where, v, "host patterns or null"));
    g_free(where);
    if (!ok) return false;
    if (trv_json_is_string(v)) rc->role_hosts[k] = g_strdup(json_node_get_string(v));
  }
  return true;
}

static char **strv_of(GPtrArray *a) {
  g_ptr_array_add(a, NULL);
  return (char **)g_ptr_array_free(a, FALSE);
}

bool trv_replay_config_load(const char *file, TrvReplayConfig *rc, GError **error) {
  memset(rc, 0, sizeof *rc);
  /* the limit must hold the longest "seeds" array a run writes */
  g_assert(trv_param_lookup("run.seeds")->max <= RUN_JSON_MAX_ELEMENTS);
  JsonParser *parser;
  JsonObject *root = trv_json_object_load(file, &run_json, &parser, error);
  if (!root) return false;
  Reader r = {.file = file, .error = error};
  JsonNode *status = json_object_get_member(root, "status");
  bool ok = true;
  if (!trv_json_is_string(status) || strcmp(json_node_get_string(status), "complete"))
    ok = bad(&r, "\"status\" is not \"complete\"; expected the run.json of a finished run");
  GPtrArray *sets = g_ptr_array_new_with_free_func(g_free), *sg = g_ptr_array_new_with_free_func(g_free),
            *ctl = g_ptr_array_new_with_free_func(g_free);
  GArray *faults = g_array_new(FALSE, TRUE, sizeof(TrvFaultSpec));
  GPtrArray *files = g_ptr_array_new_with_free_func(trv_recorded_file_free); /* the files read together */
  rc->faults = faults;                                                       /* freed with rc on failure */
  ok = ok && read_parameters(&r, root, sets) && read_faults(&r, root, faults, files) && read_roles(&r, root, rc) &&
       read_simgrid_options(&r, root, sg) && read_controllers(&r, root, ctl);
  bool profiles = false, copies = false;
  ok = ok && required_file(&r, root, "scenario_file", files) && required_file(&r, root, "platform_file", files) &&
       read_profiles(&r, root, files, &profiles);
  JsonArray *inputs = ok ? array_member(&r, root, "inputs", TRV_RUN_MAX_INPUTS, "input files") : NULL;
  ok = ok && inputs;
  /* the files last: a file refused for its contents costs no hashing */
  ok = ok && trv_recorded_files_choose(file, files, &copies, error) && load_traces(&r, files, copies, faults);
  char *scenario = NULL, *platform = NULL;
  for (guint i = 0; ok && i < files->len; i++) {
    TrvRecordedFile *f = files->pdata[i];
    if (!strcmp(f->where, "scenario_file")) scenario = g_canonicalize_filename(trv_recorded_file_path(f, copies), NULL);
    if (!strcmp(f->where, "platform_file")) platform = g_canonicalize_filename(trv_recorded_file_path(f, copies), NULL);
  }
  if (ok && profiles) {
    GPtrArray *recorded = g_ptr_array_new(); /* the profiles among the files */
    for (guint i = 0; i < files->len; i++)
      if (g_str_has_prefix(((TrvRecordedFile *)files->pdata[i])->where, "\"profiles\""))
        g_ptr_array_add(recorded, files->pdata[i]);
    ok = trv_recorded_profiles_check(file, platform, recorded, copies, error);
    g_ptr_array_free(recorded, TRUE);
  }
  for (guint i = 0; ok && i < json_array_get_length(inputs); i++)
    ok = trv_recorded_world_input(file, json_array_get_element(inputs, i), i, sets, &rc->data_dir, error);
  g_ptr_array_free(files, TRUE);
  if (ok) {
    rc->scenario = g_steal_pointer(&scenario);
    rc->platform = g_steal_pointer(&platform);
    rc->sets = strv_of(sets);
    rc->simgrid_args = strv_of(sg);
    char **c = strv_of(ctl);
    rc->controllers = g_strjoinv(",", c);
    g_strfreev(c);
  } else {
    g_ptr_array_free(sets, TRUE);
    g_ptr_array_free(sg, TRUE);
    g_ptr_array_free(ctl, TRUE);
    trv_replay_config_clear(rc);
  }
  g_free(scenario);
  g_free(platform);
  g_object_unref(parser);
  return ok;
}

void trv_replay_config_clear(TrvReplayConfig *rc) {
  g_free(rc->scenario);
  g_free(rc->platform);
  g_strfreev(rc->sets);
  if (rc->faults) {
    for (guint i = 0; i < rc->faults->len; i++) trv_fault_spec_clear(&g_array_index(rc->faults, TrvFaultSpec, i));
    g_array_free(rc->faults, TRUE);
  }
  g_strfreev(rc->simgrid_args);
  g_free(rc->controllers);
  for (int r = 0; r < TRV_N_ROLES; r++) g_free(rc->role_hosts[r]);
  g_free(rc->data_dir);
  memset(rc, 0, sizeof *rc);
}
