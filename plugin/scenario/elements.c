/* elements.c - the scenario language: which elements exist, where each may
 * appear, which attributes it takes, and what each one does to the
 * TrvScenario.  The loader's start handler (scenario.c) has each start tag
 * located (xml.c), bounds its name and value lengths, and calls
 * trv_scn_start_element(); everything here reports through trv_xml_fail(),
 * which keeps the first error and stops the parser.
 *
 * Parameter elements are derived from the parameter table: an element E
 * takes the attributes X of every key E.X, so a new parameter is settable
 * from XML without touching this file (tests/test-scenario.c then checks
 * that the DTD declares it too).
 *
 * Glob items are counted over the whole scenario as they come
 * (TRV_SCENARIO_MAX_PATTERNS), so that matching them against a platform's
 * hosts stays bounded.  Faults and sweeps are faults.c. */
#include <string.h>

#include "core/controller.h"
#include "scenario-internal.h"
#include "core/world.h"

const char *const trv_role_names[] = {"controller", "ctl", "agent", NULL};
/* Elements with a fixed attribute list (the parameter elements are not here). */
static const struct {
  const char *element, *parent;
  const char *attrs[10];
} fixed_elements[] = {
    {"trivium-scenario", NULL, {"version"}},
    {"platform", "trivium-scenario", {"file"}},
    {"role", "platform", {"name", "hosts"}},
    {"controllers", "trivium-scenario", {"names"}},
    {"set", "trivium-scenario", {"param", "value"}},
    {"faults", "trivium-scenario", {NULL}},
    {"link-flap", "faults", {"links", "mtbf", "mttr", "start", "stop", "up", "down", "up_shape", "down_shape"}},
    {"host-crash", "faults", {"host", "at", "duration"}},
    {"partition", "faults", {"hosts", "at", "duration"}},
    {"fault-trace", "faults", {"file"}},
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
    if (g_ptr_array_find_with_equal_func(out, sec, g_str_equal, NULL))
      g_free(sec);
    else
      g_ptr_array_add(out, sec);
  }
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

/* A section of the table; <world> is one even before a world with
 * parameters is registered (its name attribute is the loader's own). */
static bool is_param_section(const char *element) {
  if (!strcmp(element, "world")) return true;
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

char **trv_scenario_element_children(const char *parent) { return children_of(parent); }

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

const char *trv_scn_attr_value(const XML_Char **atts, const char *name) {
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
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, atts[i]), "unknown attribute '%s' on <%s>; expected %s%s%s",
                 atts[i], el, allowed[0] ? "one of: " : "no attributes", all, h);
    g_free(h);
    g_free(all);
    ok = false;
  }
  g_strfreev(allowed);
  return ok;
}

/* The value of a required attribute, or NULL after failing with `usage`. */
const char *trv_scn_required(Loader *L, const char *el, const XML_Char **atts, const char *attr, const char *usage) {
  const char *v = trv_scn_attr_value(atts, attr);
  if (!v) trv_xml_fail(&L->xml, L->xml.tag, "<%s> without %s; expected %s", el, attr, usage);
  return v;
}

/* Splits a comma-separated list, trimming blanks.  Fails (NULL) on an empty
 * list or an empty item. */
char **trv_scn_split_list(Loader *L, const char *el, const char *attr, const char *value, const char *what) {
  char **items = g_strsplit(value, ",", -1);
  bool ok = items[0] != NULL;
  for (int i = 0; items[i]; i++) {
    g_strstrip(items[i]);
    if (!items[i][0]) ok = false;
  }
  if (!ok) {
    bool blank = items[0] == NULL || (items[1] == NULL && !items[0][0]);
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, attr),
                 "%s=\"%s\" on <%s> %s; expected a comma-separated list of %s", attr, value, el,
                 blank ? "is empty" : "has an empty item", what);
    g_strfreev(items);
    return NULL;
  }
  return items;
}

/* A comma-separated list of host or link name globs, normalised to "a,b". */
char *trv_scn_patterns(Loader *L, const char *el, const XML_Char **atts, const char *attr, const char *example) {
  char *usage = g_strdup_printf("%s=\"%s\"", attr, example);
  const char *v = trv_scn_required(L, el, atts, attr, usage);
  g_free(usage);
  if (!v) return NULL;
  char *what = g_strdup_printf("name patterns (globs), e.g. %s=\"%s\"", attr, example);
  char **items = trv_scn_split_list(L, el, attr, v, what);
  g_free(what);
  if (!items) return NULL;
  int n = (int)g_strv_length(items);
  for (int i = 0; i < n; i++)
    if (strlen(items[i]) > TRV_SCENARIO_MAX_PATTERN) {
      trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, attr),
                   "pattern of %zu bytes in %s on <%s>; expected at most %d bytes (no "
                   "host or link name is longer)",
                   strlen(items[i]), attr, el, TRV_SCENARIO_MAX_PATTERN);
      g_strfreev(items);
      return NULL;
    }
  if (n > TRV_SCENARIO_MAX_PATTERNS - L->n_patterns) {
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, attr),
                 "%s on <%s> brings the scenario to %d patterns; expected at most %d "
                 "patterns in all",
                 attr, el, L->n_patterns + n, TRV_SCENARIO_MAX_PATTERNS);
    g_strfreev(items);
    return NULL;
  }
  L->n_patterns += n;
  char *joined = g_strjoinv(",", items);
  g_strfreev(items);
  return joined;
}

/* An output path attribute (<run out>, <ctl file>): see paths.c.
 * `expected` says where the path leads and what it looks like. */
static char *output_path(Loader *L, const char *el, const char *attr, const char *value, const char *suffix,
                         const char *expected) {
  char *found, *p = trv_scn_output_path(value, suffix, &found);
  if (!p) {
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, attr),
                 "%s=\"%s\" on <%s> %s; expected %s (a scenario never chooses where "
                 "outside it the run writes)",
                 attr, value, el, found, expected);
    g_free(found);
  }
  return p;
}

/* ---- elements ---- */

static void start_root(Loader *L, const char *el, const XML_Char **atts) {
  static const char *const root[] = {"trivium-scenario", NULL};
  L->root = L->xml.tag;
  if (strcmp(el, root[0])) {
    char *h = trv_scn_hint(el, root);
    trv_xml_fail(&L->xml, L->xml.tag, "root element <%s>; expected <trivium-scenario version=\"1\">%s", el, h);
    g_free(h);
    return;
  }
  if (!check_attributes(L, el, atts)) return;
  const char *v = trv_scn_required(L, el, atts, "version", "<trivium-scenario version=\"1\">");
  if (v && strcmp(v, "1"))
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "version"),
                 "version=\"%s\"; expected version=\"1\" (the only version this trivium reads)", v);
}

static void set_agent_hosts(Loader *L, char *globs, Loc at, bool from_role) {
  if ((from_role && L->agents_hosts_given) || (!from_role && L->role_given[TRV_ROLE_AGENT])) {
    trv_xml_fail(&L->xml, at,
                 "agent hosts given by both <role name=\"agent\"> and <agents hosts>; expected one of them");
    g_free(globs);
    return;
  }
  L->s->role_hosts[TRV_ROLE_AGENT] = globs;
  L->role[TRV_ROLE_AGENT] = at;
  if (from_role)
    L->role_given[TRV_ROLE_AGENT] = true;
  else
    L->agents_hosts_given = true;
}

/* The platform is an input: any path, relative to the scenario or
 * absolute, which must pass trv_platform_file_check() (the reader that
 * collects its names applies it). */
static void start_platform(Loader *L, const XML_Char **atts) {
  const char *v =
      trv_scn_required(L, "platform", atts, "file", "<platform file=\"PLATFORM.xml\"> (relative to the scenario)");
  if (!v) return;
  L->platform = trv_xml_attr_loc(&L->xml, "file");
  if (!v[0]) {
    trv_xml_fail(&L->xml, L->platform,
                 "file=\"\" on <platform>; expected the path of a SimGrid platform file (.xml), "
                 "relative to the scenario file");
    return;
  }
  char *abs = g_canonicalize_filename(v, L->base_dir);
  GError *e = NULL;
  L->platform_names = trv_platform_names_read(abs, &e);
  if (!L->platform_names) {
    trv_xml_fail(&L->xml, L->platform, "platform file '%s' refused: %s", v, e->message);
    g_error_free(e);
    g_free(abs);
    return;
  }
  L->s->platform = abs;
}

static void start_role(Loader *L, const XML_Char **atts) {
  const char *name =
      trv_scn_required(L, "role", atts, "name", "<role name=\"controller|ctl|agent\" hosts=\"GLOB,...\">");
  if (!name) return;
  int r = -1;
  for (int i = 0; trv_role_names[i]; i++)
    if (!strcmp(trv_role_names[i], name)) r = i;
  if (r < 0) {
    char *h = trv_scn_hint(name, trv_role_names);
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "name"),
                 "unknown role '%s'; expected one of: controller, ctl, agent%s", name, h);
    g_free(h);
    return;
  }
  if (L->role_given[r]) {
    trv_xml_fail(&L->xml, L->xml.tag, "second <role name=\"%s\">; expected one per role (the first is at line %d)",
                 name, L->role[r].line);
    return;
  }
  Loc at = trv_xml_attr_loc(&L->xml, "hosts");
  char *globs = trv_scn_patterns(L, "role", atts, "hosts", r == TRV_ROLE_AGENT ? "agent-*" : trv_role_names[r]);
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
  const char *v = trv_scn_required(L, "controllers", atts, "names", "<controllers names=\"trivium,rlvr,...\">");
  if (!v) return;
  char **names = trv_scn_split_list(L, "controllers", "names", v, "controller names");
  for (int i = 0; names && names[i]; i++) {
    if (!g_strv_contains(trv_controller_names(), names[i])) {
      char *h = trv_scn_hint(names[i], trv_controller_names()),
           *all = g_strjoinv(", ", (char **)trv_controller_names());
      trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "names"), "unknown controller '%s'; expected one of: %s%s",
                   names[i], all, h);
      g_free(h);
      g_free(all);
    } else {
      for (int j = 0; j < i; j++)
        if (!strcmp(names[j], names[i]))
          trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "names"),
                       "controller '%s' listed twice; expected each controller once", names[i]);
    }
  }
  if (L->xml.error)
    g_strfreev(names);
  else
    L->s->controllers = names;
}

/* A shipped JSSP instance's name (letters and digits; empty: the machine
 * stream), as opposed to the path of an instance file. */
static bool instance_name(const char *v) {
  for (; *v; v++)
    if (!g_ascii_isalnum(*v)) return false;
  return true;
}

/* A parameter element: every attribute X of <E> sets the table key E.X;
 * <world instance="FILE"> and <world table="FILE"> are paths relative to
 * the scenario's folder. */
static void start_params(Loader *L, const char *el, const XML_Char **atts) {
  TrvScenario *s = L->s;
  if (!strcmp(el, "world")) {
    const char *name = trv_scn_required(L, el, atts, "name", "<world name=\"causalbench\" ...>");
    if (!name) return;
    const char *const *worlds = trv_world_names(); /* the registered worlds */
    if (!g_strv_contains(worlds, name)) {
      char *h = trv_scn_hint(name, worlds), *all = g_strjoinv(", ", (char **)worlds);
      trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "name"), "unknown world '%s'; expected one of: %s%s", name, all,
                   h);
      g_free(h);
      g_free(all);
      return;
    }
    s->world = g_strdup(name);
  }
  for (int i = 0; !L->xml.error && atts[i]; i += 2) {
    const char *attr = atts[i], *value = atts[i + 1];
    if (!strcmp(el, "world") && !strcmp(attr, "name")) continue;
    if (!strcmp(el, "ctl") && !strcmp(attr, "file")) {
      char *p = output_path(L, el, attr, value, ".ctl",
                            "a path ending in .ctl inside the run's output directory, "
                            "relative and without '..', e.g. file=\"log.ctl\"");
      if (p) g_free(s->ctl_file), s->ctl_file = p;
    } else if (!strcmp(el, "run") && !strcmp(attr, "out")) {
      char *p = output_path(L, el, attr, value, NULL,
                            "a directory inside the one the run starts in, relative and "
                            "without '..', e.g. out=\"results/flips\"");
      if (p) g_free(s->out_dir), s->out_dir = p;
    } else if (!strcmp(el, "world") &&
               ((!strcmp(attr, "instance") && !instance_name(value)) || (!strcmp(attr, "table") && *value))) {
      /* an instance file or a calibration table, read (never written) relative to the scenario */
      char *path = g_canonicalize_filename(value, L->base_dir), *key = g_strdup_printf("world.%s", attr);
      GError *e = NULL;
      if (!trv_params_set(&s->params, key, path, &e)) {
        trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, attr), "%s", e->message);
        g_error_free(e);
      }
      g_free(key);
      g_free(path);
    } else if (!strcmp(el, "agents") && !strcmp(attr, "hosts")) {
      Loc at = trv_xml_attr_loc(&L->xml, attr);
      char *globs = trv_scn_patterns(L, el, atts, attr, "agent-*");
      if (globs) set_agent_hosts(L, globs, at, false);
    } else {
      char *key = g_strdup_printf("%s.%s", el, attr);
      GError *e = NULL;
      if (!trv_params_set(&s->params, key, value, &e)) {
        trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, attr), "%s", e->message);
        g_error_free(e);
      }
      g_free(key);
    }
  }
}

static void start_set(Loader *L, const XML_Char **atts) {
  const char *key =
      trv_scn_required(L, "set", atts, "param", "<set param=\"KEY\" value=\"V\"> (keys: `trivium params`)");
  const char *value = key ? trv_scn_required(L, "set", atts, "value", "<set param=\"KEY\" value=\"V\">") : NULL;
  if (!value) return;
  if (!trv_param_lookup(key)) {
    const char *best = trv_params_suggest(key);
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "param"),
                 "unknown parameter '%s'; expected a key of the parameter table (`trivium params`)%s%s%s", key,
                 best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    return;
  }
  GError *e = NULL;
  if (!trv_params_set(&L->s->params, key, value, &e)) {
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "value"), "%s", e->message);
    g_error_free(e);
  }
}

/* A child of the root. */
static void start_top(Loader *L, const char *el, const XML_Char **atts) {
  if (strcmp(el, "set") && strcmp(el, "sweep")) {
    gpointer first = g_hash_table_lookup(L->seen, el);
    if (first) {
      trv_xml_fail(&L->xml, L->xml.tag, "second <%s>; expected at most one <%s> (the first is at line %d)", el, el,
                   GPOINTER_TO_INT(first));
      return;
    }
    g_hash_table_insert(L->seen, g_strdup(el), GINT_TO_POINTER(L->xml.tag.line));
  }
  if (!check_attributes(L, el, atts)) return;
  if (!strcmp(el, "platform"))
    start_platform(L, atts);
  else if (!strcmp(el, "controllers"))
    start_controllers(L, atts);
  else if (!strcmp(el, "set"))
    start_set(L, atts);
  else if (!strcmp(el, "sweep"))
    trv_scn_start_sweep(L, atts);
  else if (!strcmp(el, "faults"))
    return;
  else
    start_params(L, el, atts);
}

/* Checks a start tag against its parent and applies it.  Called for every
 * start tag once the loader has located it (L->xml.tag, L->xml.tag_offset). */
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
      trv_xml_fail(&L->xml, L->xml.tag, "element <%s> inside <%s>; expected <%s/> to be empty", el, parent, parent);
    } else if (home || !strcmp(el, "trivium-scenario")) {
      trv_xml_fail(&L->xml, L->xml.tag, "element <%s> inside <%s>; expected it %s%s%s", el, parent,
                   home ? "inside <" : "only as the root", home ? home : "", home ? ">" : "");
    } else {
      char *h = trv_scn_hint(el, (const char *const *)allowed), *all = element_list(allowed);
      trv_xml_fail(&L->xml, L->xml.tag, "unknown element <%s> inside <%s>; expected one of %s%s", el, parent, all, h);
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
    if (!strcmp(parent, "platform"))
      start_role(L, atts);
    else
      trv_scn_start_fault(L, el, atts);
  }
}
