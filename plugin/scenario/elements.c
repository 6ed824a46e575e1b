/* elements.c - the scenario language: which elements exist, where each may
 * appear, which attributes it takes, and what each one does to the
 * TrvScenario.  The driver (scenario.c) locates each start tag, bounds its
 * name and value lengths, and calls trv_scn_start_element(); everything
 * here reports through trv_scn_fail(), which keeps the first error and
 * stops the parser.
 *
 * Parameter elements are derived from the parameter table: an element E
 * takes the attributes X of every key E.X, so a new parameter is settable
 * from XML without touching this file (tests/test-scenario.c then checks
 * that the DTD declares it too).
 *
 * Counts are bounded as they grow (scenario.h): glob items over the whole
 * scenario, faults, values per sweep and points of the sweep grid, so that
 * nothing later (pattern matching, the grid's mixed-radix index, the runs
 * themselves) can be made to work without end. */
#include <math.h>
#include <string.h>

#include "core/controller.h"
#include "scenario-internal.h"
#include "core/world.h"

const char *const trv_role_names[] = {"controller", "ctl", "agent", NULL};
const char *const trv_scn_fault_elements[] = {"link-flap", "host-crash", "partition", NULL};
/* Numeric fault attributes a <sweep> may name as KIND.ATTR. */
const char *const trv_scn_fault_sweep_keys[] = {"link-flap.mtbf", "link-flap.mttr", "link-flap.start", "link-flap.stop",
                                               "host-crash.at", "host-crash.duration", "partition.at",
                                               "partition.duration", NULL};

/* Elements with a fixed attribute list (the parameter elements are not here). */
static const struct {
  const char *element, *parent;
  const char *attrs[6];
} fixed_elements[] = {
    {"trivium-scenario", NULL, {"version"}},
    {"platform", "trivium-scenario", {"file"}},
    {"role", "platform", {"name", "hosts"}},
    {"controllers", "trivium-scenario", {"names"}},
    {"set", "trivium-scenario", {"param", "value"}},
    {"faults", "trivium-scenario", {NULL}},
    {"link-flap", "faults", {"links", "mtbf", "mttr", "start", "stop"}},
    {"host-crash", "faults", {"host", "at", "duration"}},
    {"partition", "faults", {"hosts", "at", "duration"}},
    {"sweep", "trivium-scenario", {"param", "values"}},
};

/* Attributes of parameter elements that are not table keys. */
static const struct {
  const char *element, *attr;
} special_attrs[] = {{"world", "name"}, {"ctl", "file"}, {"agents", "hosts"}, {"run", "out"}};

/* ---- element and attribute tables ---- */

/* The section names of the parameter table ("run", "posterior", ...), in
 * table order, each once.  Caller frees the vector (not the strings' copies). */
static char **param_sections(void) {
  size_t n;
  const TrvParamSpec *specs = trv_param_specs(&n);
  GPtrArray *out = g_ptr_array_new();
  for (size_t i = 0; i < n; i++) {
    const char *dot = strchr(specs[i].key, '.');
    if (!dot) continue;
    char *sec = g_strndup(specs[i].key, (gsize)(dot - specs[i].key));
    if (g_ptr_array_find_with_equal_func(out, sec, g_str_equal, NULL)) g_free(sec);
    else g_ptr_array_add(out, sec);
  }
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

static bool is_param_section(const char *element) {
  char **secs = param_sections();
  bool found = g_strv_contains((const char *const *)secs, element);
  g_strfreev(secs);
  return found;
}

static int fixed_index(const char *element) {
  for (size_t i = 0; i < G_N_ELEMENTS(fixed_elements); i++)
    if (!strcmp(fixed_elements[i].element, element)) return (int)i;
  return -1;
}

char **trv_scenario_element_attributes(const char *element) {
  GPtrArray *out = g_ptr_array_new();
  int fi = fixed_index(element);
  if (fi >= 0) {
    for (int a = 0; fixed_elements[fi].attrs[a]; a++) g_ptr_array_add(out, g_strdup(fixed_elements[fi].attrs[a]));
  } else if (is_param_section(element)) {
    for (size_t i = 0; i < G_N_ELEMENTS(special_attrs); i++)
      if (!strcmp(special_attrs[i].element, element)) g_ptr_array_add(out, g_strdup(special_attrs[i].attr));
    size_t n, len = strlen(element);
    const TrvParamSpec *specs = trv_param_specs(&n);
    for (size_t i = 0; i < n; i++)
      if (!strncmp(specs[i].key, element, len) && specs[i].key[len] == '.')
        g_ptr_array_add(out, g_strdup(specs[i].key + len + 1));
  } else {
    g_ptr_array_free(out, TRUE);
    return NULL;
  }
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

/* Where `element` belongs: its parent, or NULL for the root or an unknown name. */
static const char *parent_of(const char *element) {
  int fi = fixed_index(element);
  if (fi >= 0) return fixed_elements[fi].parent;
  return is_param_section(element) ? "trivium-scenario" : NULL;
}

/* The elements allowed inside `parent` (NULL-terminated, g_strfreev); for
 * the root: platform, world, controllers, the other parameter elements in
 * table order, set, faults, sweep. */
static char **children_of(const char *parent) {
  GPtrArray *out = g_ptr_array_new();
  bool root = !strcmp(parent, "trivium-scenario");
  for (size_t i = 0; i < G_N_ELEMENTS(fixed_elements); i++) {
    const char *el = fixed_elements[i].element;
    if (fixed_elements[i].parent && !strcmp(fixed_elements[i].parent, parent)) {
      if (root && !strcmp(el, "set")) { /* the parameter elements go before set */
        char **secs = param_sections();
        g_ptr_array_insert(out, 1, g_strdup("world"));
        for (int k = 0; secs[k]; k++)
          if (strcmp(secs[k], "world")) g_ptr_array_add(out, g_strdup(secs[k]));
        g_strfreev(secs);
      }
      g_ptr_array_add(out, g_strdup(el));
    }
  }
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

/* "; did you mean 'X'?" or "" (caller frees). */
char *trv_scn_hint(const char *word, const char *const *choices) {
  const char *best = trv_suggest(word, choices);
  return best ? g_strdup_printf("; did you mean '%s'?", best) : g_strdup("");
}

/* "<a>, <b>, <c>" (caller frees). */
static char *element_list(char **names) {
  GString *s = g_string_new(NULL);
  for (int i = 0; names[i]; i++) g_string_append_printf(s, "%s<%s>", i ? ", " : "", names[i]);
  return g_string_free(s, FALSE);
}

/* ---- attribute helpers ---- */

static const char *attr_value(const XML_Char **atts, const char *name) {
  for (int i = 0; atts[i]; i += 2)
    if (!strcmp(atts[i], name)) return atts[i + 1];
  return NULL;
}

static bool check_attributes(Loader *L, const char *el, const XML_Char **atts) {
  char **allowed = trv_scenario_element_attributes(el);
  g_assert(allowed);
  bool ok = true;
  for (int i = 0; ok && atts[i]; i += 2) {
    if (g_strv_contains((const char *const *)allowed, atts[i])) continue;
    char *h = trv_scn_hint(atts[i], (const char *const *)allowed), *all = g_strjoinv(", ", allowed);
    trv_scn_fail(L, trv_scn_attr_loc(L, atts[i]), "unknown attribute '%s' on <%s>; expected %s%s%s", atts[i], el,
         allowed[0] ? "one of: " : "no attributes", all, h);
    g_free(h);
    g_free(all);
    ok = false;
  }
  g_strfreev(allowed);
  return ok;
}

/* The value of a required attribute, or NULL after failing with `usage`. */
static const char *required(Loader *L, const char *el, const XML_Char **atts, const char *attr, const char *usage) {
  const char *v = attr_value(atts, attr);
  if (!v) trv_scn_fail(L, L->tag, "<%s> without %s; expected %s", el, attr, usage);
  return v;
}

/* Splits a comma-separated list, trimming blanks.  Fails (NULL) on an empty
 * list or an empty item. */
static char **split_list(Loader *L, const char *el, const char *attr, const char *value, const char *what) {
  char **items = g_strsplit(value, ",", -1);
  bool ok = items[0] != NULL;
  for (int i = 0; items[i]; i++) {
    g_strstrip(items[i]);
    if (!items[i][0]) ok = false;
  }
  if (!ok) {
    bool blank = items[0] == NULL || (items[1] == NULL && !items[0][0]);
    trv_scn_fail(L, trv_scn_attr_loc(L, attr), "%s=\"%s\" on <%s> %s; expected a comma-separated list of %s", attr, value, el,
         blank ? "is empty" : "has an empty item", what);
    g_strfreev(items);
    return NULL;
  }
  return items;
}

/* A comma-separated list of host or link name globs, normalised to "a,b". */
static char *patterns(Loader *L, const char *el, const XML_Char **atts, const char *attr, const char *example) {
  char *usage = g_strdup_printf("%s=\"%s\"", attr, example);
  const char *v = required(L, el, atts, attr, usage);
  g_free(usage);
  if (!v) return NULL;
  char *what = g_strdup_printf("name patterns (globs), e.g. %s=\"%s\"", attr, example);
  char **items = split_list(L, el, attr, v, what);
  g_free(what);
  if (!items) return NULL;
  int n = (int)g_strv_length(items);
  for (int i = 0; i < n; i++)
    if (strlen(items[i]) > TRV_SCENARIO_MAX_PATTERN) {
      trv_scn_fail(L, trv_scn_attr_loc(L, attr), "pattern of %zu bytes in %s on <%s>; expected at most %d bytes (no "
                   "host or link name is longer)", strlen(items[i]), attr, el, TRV_SCENARIO_MAX_PATTERN);
      g_strfreev(items);
      return NULL;
    }
  if (n > TRV_SCENARIO_MAX_PATTERNS - L->n_patterns) {
    trv_scn_fail(L, trv_scn_attr_loc(L, attr), "%s on <%s> brings the scenario to %d patterns; expected at most %d "
                 "patterns in all", attr, el, L->n_patterns + n, TRV_SCENARIO_MAX_PATTERNS);
    g_strfreev(items);
    return NULL;
  }
  L->n_patterns += n;
  char *joined = g_strjoinv(",", items);
  g_strfreev(items);
  return joined;
}

/* A plain decimal number: [+-]digits[.digits][(e|E)[+-]digits], at least
 * one digit before the exponent.  No blanks, hexadecimal, "inf" or "nan",
 * which strtod would take. */
static bool is_decimal(const char *t) {
  const char *p = t + (*t == '+' || *t == '-');
  bool digits = false;
  while (g_ascii_isdigit(*p)) p++, digits = true;
  if (*p == '.')
    for (p++; g_ascii_isdigit(*p); p++) digits = true;
  if (!digits) return false;
  if (*p == 'e' || *p == 'E') {
    p += 1 + (p[1] == '+' || p[1] == '-');
    if (!g_ascii_isdigit(*p)) return false;
    while (g_ascii_isdigit(*p)) p++;
  }
  return *p == '\0';
}

/* The range of fault attribute `attr`: mtbf and mttr at least
 * TRV_FAULT_MIN_PERIOD (a shorter period makes a run of endless events),
 * every time at most TRV_FAULT_MAX_SECONDS (so that at + duration and the
 * flap schedule stay finite). */
static double fault_min(const char *attr) {
  return !strcmp(attr, "mtbf") || !strcmp(attr, "mttr") ? TRV_FAULT_MIN_PERIOD : 0;
}

static bool fault_seconds(const char *attr, const char *text, double *out) {
  if (!is_decimal(text)) return false;
  double v = g_ascii_strtod(text, NULL);
  if (!isfinite(v) || v < fault_min(attr) || v > TRV_FAULT_MAX_SECONDS) return false;
  *out = v;
  return true;
}

static char *fault_range(const char *attr) {
  char lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd(lo, sizeof lo, "%g", fault_min(attr));
  g_ascii_formatd(hi, sizeof hi, "%g", TRV_FAULT_MAX_SECONDS);
  return g_strdup_printf("a number of simulated seconds in [%s, %s]", lo, hi);
}

/* Simulated seconds for attribute `attr` of fault element `el`. */
static bool seconds(Loader *L, const char *el, const char *attr, const char *value, double *out) {
  if (fault_seconds(attr, value, out)) return true;
  char *range = fault_range(attr);
  trv_scn_fail(L, trv_scn_attr_loc(L, attr), "%s=\"%s\" on <%s>; expected %s", attr, value, el, range);
  g_free(range);
  return false;
}

/* An output path attribute (<run out>, <ctl file>): see paths.c.
 * `expected` says where the path leads and what it looks like. */
static char *output_path(Loader *L, const char *el, const char *attr, const char *value, const char *suffix,
                         const char *expected) {
  char *found, *p = trv_scn_output_path(value, suffix, &found);
  if (!p) {
    trv_scn_fail(L, trv_scn_attr_loc(L, attr), "%s=\"%s\" on <%s> %s; expected %s (a scenario never chooses where "
                 "outside it the run writes)", attr, value, el, found, expected);
    g_free(found);
  }
  return p;
}

/* ---- elements ---- */

static void start_root(Loader *L, const char *el, const XML_Char **atts) {
  static const char *const root[] = {"trivium-scenario", NULL};
  L->root = L->tag;
  if (strcmp(el, root[0])) {
    char *h = trv_scn_hint(el, root);
    trv_scn_fail(L, L->tag, "root element <%s>; expected <trivium-scenario version=\"1\">%s", el, h);
    g_free(h);
    return;
  }
  if (!check_attributes(L, el, atts)) return;
  const char *v = required(L, el, atts, "version", "<trivium-scenario version=\"1\">");
  if (v && strcmp(v, "1"))
    trv_scn_fail(L, trv_scn_attr_loc(L, "version"), "version=\"%s\"; expected version=\"1\" (the only version this trivium reads)",
         v);
}

static void set_agent_hosts(Loader *L, char *globs, Loc at, bool from_role) {
  if ((from_role && L->agents_hosts_given) || (!from_role && L->role_given[TRV_ROLE_AGENT])) {
    trv_scn_fail(L, at, "agent hosts given by both <role name=\"agent\"> and <agents hosts>; expected one of them");
    g_free(globs);
    return;
  }
  L->s->role_hosts[TRV_ROLE_AGENT] = globs;
  L->role[TRV_ROLE_AGENT] = at;
  if (from_role) L->role_given[TRV_ROLE_AGENT] = true;
  else L->agents_hosts_given = true;
}

/* The platform is an input: any path, relative to the scenario or
 * absolute, which must pass trv_platform_file_check() (the reader that
 * collects its names applies it). */
static void start_platform(Loader *L, const XML_Char **atts) {
  const char *v = required(L, "platform", atts, "file", "<platform file=\"PLATFORM.xml\"> (relative to the scenario)");
  if (!v) return;
  L->platform = trv_scn_attr_loc(L, "file");
  if (!v[0]) {
    trv_scn_fail(L, L->platform, "file=\"\" on <platform>; expected the path of a SimGrid platform file (.xml), "
                 "relative to the scenario file");
    return;
  }
  char *abs = g_canonicalize_filename(v, L->base_dir);
  GError *e = NULL;
  L->platform_names = trv_platform_names_read(abs, &e);
  if (!L->platform_names) {
    trv_scn_fail(L, L->platform, "platform file '%s' refused: %s", v, e->message);
    g_error_free(e);
    g_free(abs);
    return;
  }
  L->s->platform = abs;
}

static void start_role(Loader *L, const XML_Char **atts) {
  const char *name = required(L, "role", atts, "name", "<role name=\"controller|ctl|agent\" hosts=\"GLOB,...\">");
  if (!name) return;
  int r = -1;
  for (int i = 0; trv_role_names[i]; i++)
    if (!strcmp(trv_role_names[i], name)) r = i;
  if (r < 0) {
    char *h = trv_scn_hint(name, trv_role_names);
    trv_scn_fail(L, trv_scn_attr_loc(L, "name"), "unknown role '%s'; expected one of: controller, ctl, agent%s", name, h);
    g_free(h);
    return;
  }
  if (L->role_given[r]) {
    trv_scn_fail(L, L->tag, "second <role name=\"%s\">; expected one per role (the first is at line %d)", name,
         L->role[r].line);
    return;
  }
  Loc at = trv_scn_attr_loc(L, "hosts");
  char *globs = patterns(L, "role", atts, "hosts", r == TRV_ROLE_AGENT ? "agent-*" : trv_role_names[r]);
  if (!globs) return;
  if (r == TRV_ROLE_AGENT) {
    set_agent_hosts(L, globs, at, true);
  } else {
    L->s->role_hosts[r] = globs;
    L->role[r] = at;
    L->role_given[r] = true;
  }
}

static void start_controllers(Loader *L, const XML_Char **atts) {
  const char *v = required(L, "controllers", atts, "names", "<controllers names=\"trivium,rlvr,...\">");
  if (!v) return;
  char **names = split_list(L, "controllers", "names", v, "controller names");
  for (int i = 0; names && names[i]; i++) {
    if (!g_strv_contains(trv_controller_names, names[i])) {
      char *h = trv_scn_hint(names[i], trv_controller_names), *all = g_strjoinv(", ", (char **)trv_controller_names);
      trv_scn_fail(L, trv_scn_attr_loc(L, "names"), "unknown controller '%s'; expected one of: %s%s", names[i], all, h);
      g_free(h);
      g_free(all);
    } else {
      for (int j = 0; j < i; j++)
        if (!strcmp(names[j], names[i]))
          trv_scn_fail(L, trv_scn_attr_loc(L, "names"), "controller '%s' listed twice; expected each controller once", names[i]);
    }
  }
  if (L->error) g_strfreev(names);
  else L->s->controllers = names;
}

/* A parameter element: every attribute X of <E> sets the table key E.X. */
static void start_params(Loader *L, const char *el, const XML_Char **atts) {
  TrvScenario *s = L->s;
  if (!strcmp(el, "world")) {
    const char *name = required(L, el, atts, "name", "<world name=\"causalbench\" ...>");
    if (!name) return;
    if (!g_strv_contains(trv_world_names, name)) {
      char *h = trv_scn_hint(name, trv_world_names), *all = g_strjoinv(", ", (char **)trv_world_names);
      trv_scn_fail(L, trv_scn_attr_loc(L, "name"), "unknown world '%s'; expected one of: %s%s", name, all, h);
      g_free(h);
      g_free(all);
      return;
    }
    s->world = g_strdup(name);
  }
  for (int i = 0; !L->error && atts[i]; i += 2) {
    const char *attr = atts[i], *value = atts[i + 1];
    if (!strcmp(el, "world") && !strcmp(attr, "name")) continue;
    if (!strcmp(el, "ctl") && !strcmp(attr, "file")) {
      char *p = output_path(L, el, attr, value, ".ctl", "a path ending in .ctl inside the run's output directory, "
                            "relative and without '..', e.g. file=\"log.ctl\"");
      if (p) g_free(s->ctl_file), s->ctl_file = p;
    } else if (!strcmp(el, "run") && !strcmp(attr, "out")) {
      char *p = output_path(L, el, attr, value, NULL, "a directory inside the one the run starts in, relative and "
                            "without '..', e.g. out=\"results/flips\"");
      if (p) g_free(s->out_dir), s->out_dir = p;
    } else if (!strcmp(el, "agents") && !strcmp(attr, "hosts")) {
      Loc at = trv_scn_attr_loc(L, attr);
      char *globs = patterns(L, el, atts, attr, "agent-*");
      if (globs) set_agent_hosts(L, globs, at, false);
    } else {
      char *key = g_strdup_printf("%s.%s", el, attr);
      GError *e = NULL;
      if (!trv_params_set(&s->params, key, value, &e)) {
        trv_scn_fail(L, trv_scn_attr_loc(L, attr), "%s", e->message);
        g_error_free(e);
      }
      g_free(key);
    }
  }
}

static void start_set(Loader *L, const XML_Char **atts) {
  const char *key = required(L, "set", atts, "param", "<set param=\"KEY\" value=\"V\"> (keys: `trivium params`)");
  const char *value = key ? required(L, "set", atts, "value", "<set param=\"KEY\" value=\"V\">") : NULL;
  if (!value) return;
  if (!trv_param_lookup(key)) {
    const char *best = trv_params_suggest(key);
    trv_scn_fail(L, trv_scn_attr_loc(L, "param"), "unknown parameter '%s'; expected a key of the parameter table (`trivium params`)%s%s%s",
         key, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    return;
  }
  GError *e = NULL;
  if (!trv_params_set(&L->s->params, key, value, &e)) {
    trv_scn_fail(L, trv_scn_attr_loc(L, "value"), "%s", e->message);
    g_error_free(e);
  }
}

static void start_fault(Loader *L, const char *el, const XML_Char **atts) {
  if (L->s->faults->len >= TRV_SCENARIO_MAX_FAULTS) {
    trv_scn_fail(L, L->tag, "fault number %u; expected at most %d faults", L->s->faults->len + 1, TRV_SCENARIO_MAX_FAULTS);
    return;
  }
  TrvFaultSpec f = {0};
  const char *pattern_attr;
  if (!strcmp(el, "link-flap")) {
    f.kind = TRV_FAULT_LINK_FLAP, pattern_attr = "links";
    f.stop = INFINITY;
  } else if (!strcmp(el, "host-crash")) {
    f.kind = TRV_FAULT_HOST_CRASH, pattern_attr = "host";
  } else {
    f.kind = TRV_FAULT_PARTITION, pattern_attr = "hosts";
  }
  Loc at = trv_scn_attr_loc(L, pattern_attr);
  char *globs = patterns(L, el, atts, pattern_attr, f.kind == TRV_FAULT_LINK_FLAP ? "agent-*-uplink" : "agent-*");
  if (!globs) return;
  const char *names[4];
  double *fields[4];
  int n;
  if (f.kind == TRV_FAULT_LINK_FLAP) {
    const char *nm[] = {"mtbf", "mttr", "start", "stop"};
    double *fd[] = {&f.mtbf, &f.mttr, &f.start, &f.stop};
    for (n = 0; n < 4; n++) names[n] = nm[n], fields[n] = fd[n];
  } else {
    const char *nm[] = {"at", "duration"};
    double *fd[] = {&f.at, &f.duration};
    for (n = 0; n < 2; n++) names[n] = nm[n], fields[n] = fd[n];
  }
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    const char *v = attr_value(atts, names[i]);
    bool optional = f.kind == TRV_FAULT_LINK_FLAP && i >= 2;
    if (!v && !optional) {
      char *usage = f.kind == TRV_FAULT_LINK_FLAP
                        ? g_strdup("<link-flap links=\"GLOB\" mtbf=\"S\" mttr=\"S\" [start=\"S\"] [stop=\"S\"]>")
                        : g_strdup_printf("<%s %s=\"GLOB\" at=\"S\" duration=\"S\">", el, pattern_attr);
      trv_scn_fail(L, L->tag, "<%s> without %s; expected %s", el, names[i], usage);
      g_free(usage);
      ok = false;
    } else if (v) {
      ok = seconds(L, el, names[i], v, fields[i]);
    }
  }
  if (ok && f.kind == TRV_FAULT_LINK_FLAP && f.stop <= f.start) {
    trv_scn_fail(L, trv_scn_attr_loc(L, "stop"), "stop=\"%s\" on <link-flap> is not after start=\"%s\"; expected stop > start",
         attr_value(atts, "stop"), attr_value(atts, "start") ? attr_value(atts, "start") : "0");
    ok = false;
  }
  if (!ok) {
    g_free(globs);
    return;
  }
  f.pattern = globs;
  f.line = L->tag.line;
  g_array_append_val(L->s->faults, f);
  g_array_append_val(L->fault_locs, at);
}

/* A sweep of n values: at most TRV_SCENARIO_MAX_SWEEP_VALUES, and the grid
 * with it at most TRV_SCENARIO_MAX_POINTS points (the grid so far is within
 * the bound, so neither product below can overflow). */
static void check_grid_size(Loader *L, const char *key, guint n) {
  if (n > TRV_SCENARIO_MAX_SWEEP_VALUES) {
    trv_scn_fail(L, trv_scn_attr_loc(L, "values"), "sweep over %s has %u values; expected at most %d values per sweep",
                 key, n, TRV_SCENARIO_MAX_SWEEP_VALUES);
    return;
  }
  size_t points = trv_scenario_n_points(L->s);
  if (points * n > TRV_SCENARIO_MAX_POINTS)
    trv_scn_fail(L, trv_scn_attr_loc(L, "values"), "sweep over %s makes a grid of %zu points (%zu x %u); expected at "
                 "most %d points", key, points * n, points, n, TRV_SCENARIO_MAX_POINTS);
}

static void start_sweep(Loader *L, const XML_Char **atts) {
  const char *key = required(L, "sweep", atts, "param", "<sweep param=\"KEY\" values=\"V1,V2,...\">");
  const char *v = key ? required(L, "sweep", atts, "values", "<sweep param=\"KEY\" values=\"V1,V2,...\">") : NULL;
  if (!v) return;
  Loc at = trv_scn_attr_loc(L, "param");
  bool is_fault = g_strv_contains(trv_scn_fault_sweep_keys, key);
  if (!is_fault && !trv_param_lookup(key)) {
    const char *best = trv_params_suggest(key);
    if (!best) best = trv_suggest(key, trv_scn_fault_sweep_keys);
    trv_scn_fail(L, at, "unknown sweep parameter '%s'; expected a key of the parameter table (`trivium params`) or a fault "
         "attribute (link-flap.mtbf, ...)%s%s%s", key, best ? "; did you mean '" : "", best ? best : "",
         best ? "'?" : "");
    return;
  }
  for (guint i = 0; i < L->s->sweeps->len; i++)
    if (!strcmp(g_array_index(L->s->sweeps, TrvSweepSpec, i).param, key)) {
      trv_scn_fail(L, at, "second <sweep param=\"%s\">; expected one sweep per parameter (the first is at line %d)", key,
           g_array_index(L->sweep_locs, Loc, i).line);
      return;
    }
  char **values = split_list(L, "sweep", "values", v, "values");
  if (values) check_grid_size(L, key, g_strv_length(values));
  for (int i = 0; values && values[i] && !L->error; i++) {
    if (is_fault) {
      double x;
      const char *attr = strchr(key, '.') + 1;
      if (!fault_seconds(attr, values[i], &x)) {
        char *range = fault_range(attr);
        trv_scn_fail(L, trv_scn_attr_loc(L, "values"), "sweep value '%s' of %s; expected %s", values[i], key, range);
        g_free(range);
      }
    } else {
      TrvParams scratch = L->s->params;
      GError *e = NULL;
      if (!trv_params_set(&scratch, key, values[i], &e)) {
        trv_scn_fail(L, trv_scn_attr_loc(L, "values"), "%s", e->message);
        g_error_free(e);
      }
    }
  }
  if (L->error) {
    g_strfreev(values);
    return;
  }
  TrvSweepSpec sw = {g_strdup(key), values};
  g_array_append_val(L->s->sweeps, sw);
  g_array_append_val(L->sweep_locs, at);
}

/* A child of the root. */
static void start_top(Loader *L, const char *el, const XML_Char **atts) {
  if (strcmp(el, "set") && strcmp(el, "sweep")) {
    gpointer first = g_hash_table_lookup(L->seen, el);
    if (first) {
      trv_scn_fail(L, L->tag, "second <%s>; expected at most one <%s> (the first is at line %d)", el, el,
           GPOINTER_TO_INT(first));
      return;
    }
    g_hash_table_insert(L->seen, g_strdup(el), GINT_TO_POINTER(L->tag.line));
  }
  if (!check_attributes(L, el, atts)) return;
  if (!strcmp(el, "platform")) start_platform(L, atts);
  else if (!strcmp(el, "controllers")) start_controllers(L, atts);
  else if (!strcmp(el, "set")) start_set(L, atts);
  else if (!strcmp(el, "sweep")) start_sweep(L, atts);
  else if (!strcmp(el, "faults")) return;
  else start_params(L, el, atts);
}

/* Checks a start tag against its parent and applies it.  Called for every
 * start tag once the loader has located it (L->tag, L->tag_offset). */
void trv_scn_start_element(Loader *L, const char *el, const XML_Char **atts) {
  const char *parent = L->depth > 0 ? L->stack[L->depth - 1] : NULL;
  if (!parent) {
    L->stack[L->depth++] = g_strdup(el);
    start_root(L, el, atts);
    return;
  }
  char **allowed = children_of(parent);
  if (!g_strv_contains((const char *const *)allowed, el)) {
    const char *home = parent_of(el);
    if (!allowed[0]) {
      trv_scn_fail(L, L->tag, "element <%s> inside <%s>; expected <%s/> to be empty", el, parent, parent);
    } else if (home || !strcmp(el, "trivium-scenario")) {
      trv_scn_fail(L, L->tag, "element <%s> inside <%s>; expected it %s%s%s", el, parent, home ? "inside <" : "only as the root",
           home ? home : "", home ? ">" : "");
    } else {
      char *h = trv_scn_hint(el, (const char *const *)allowed), *all = element_list(allowed);
      trv_scn_fail(L, L->tag, "unknown element <%s> inside <%s>; expected one of %s%s", el, parent, all, h);
      g_free(h);
      g_free(all);
    }
    g_strfreev(allowed);
    return;
  }
  g_strfreev(allowed);
  g_assert(L->depth < (int)G_N_ELEMENTS(L->stack));
  L->stack[L->depth++] = g_strdup(el);
  if (!strcmp(parent, "trivium-scenario")) {
    start_top(L, el, atts);
  } else if (check_attributes(L, el, atts)) {
    if (!strcmp(parent, "platform")) start_role(L, atts);
    else start_fault(L, el, atts);
  }
}

