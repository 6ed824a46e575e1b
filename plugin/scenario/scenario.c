/* scenario.c - the scenario XML loader (docs/scenarios.md): its Expat
 * handlers and the checks that need the whole file.  See scenario.h; the
 * hardened Expat reader (parser set-up, entities, errors, locations) is
 * xml.c, the language itself (elements, attributes, what each does)
 * elements.c, the rule for output paths paths.c, file reading input.c.
 *
 * One pass of the reader over the whole file held in memory (at most
 * TRV_SCENARIO_MAX_BYTES).  Each start tag is located and its entity
 * references checked (trv_xml_start_tag), its name and value lengths
 * bounded here, and then it goes to trv_scn_start_element(); the first
 * mistake stops the parser and is kept as the one error of the load.  The
 * platform is read (and checked, trv_platform_names_read) when <platform>
 * is met.  After the parse, the checks that need the whole file run:
 * required elements, sweeps over faults (faults.c), and the roles, fault
 * patterns and fault traces' names against the platform's host and link
 * names.  The links a cluster generates are checked later, against the
 * names the simulator gave them (trv_scenario_check_links).
 *
 * Invariants: an error is set at most once (the first one wins, later
 * handler calls return at once); every message starts with FILE:LINE:COLUMN
 * and holds no control character (both kept by trv_xml_fail); attribute
 * errors point at the attribute (trv_xml_attr_loc). */
#include "scenario.h"

#include <expat.h>
#include <fnmatch.h>
#include <string.h>

#include "log/ctl-params.h"
#include "scenario-internal.h"

/* ---- Expat handlers ---- */

/* Bounds every start tag gets before its meaning is looked at: names are
 * short, values at most TRV_SCENARIO_MAX_VALUE bytes (every message may
 * quote a value, and lists are split from them). */
static bool check_lengths(Loader *L, const char *el, const XML_Char **atts) {
  if (strlen(el) > TRV_SCENARIO_MAX_NAME) {
    trv_xml_fail(&L->xml, L->xml.tag,
                 "element name of %zu bytes; expected an element of the scenario language "
                 "(names of at most %d bytes)",
                 strlen(el), TRV_SCENARIO_MAX_NAME);
    return false;
  }
  for (int i = 0; atts[i]; i += 2) {
    if (strlen(atts[i]) > TRV_SCENARIO_MAX_NAME) {
      trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, atts[i]),
                   "attribute name of %zu bytes on <%s>; expected an "
                   "attribute of the scenario language (names of at most %d bytes)",
                   strlen(atts[i]), el, TRV_SCENARIO_MAX_NAME);
      return false;
    }
    if (strlen(atts[i + 1]) > TRV_SCENARIO_MAX_VALUE) {
      trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, atts[i]),
                   "value of %s on <%s> is %zu bytes long; expected at "
                   "most %d bytes",
                   atts[i], el, strlen(atts[i + 1]), TRV_SCENARIO_MAX_VALUE);
      return false;
    }
  }
  return true;
}

static void XMLCALL on_start(void *data, const XML_Char *el, const XML_Char **atts) {
  Loader *L = data;
  if (!trv_xml_start_tag(&L->xml) || !check_lengths(L, el, atts)) return;
  trv_scn_start_element(L, el, atts);
}

static void XMLCALL on_end(void *data, const XML_Char *el) {
  Loader *L = data;
  (void)el;
  if (L->xml.error) return;
  g_free(L->stack[--L->depth]);
}

static void XMLCALL on_text(void *data, const XML_Char *text, int len) {
  Loader *L = data;
  if (L->xml.error) return;
  for (int i = 0; i < len; i++)
    if (!g_ascii_isspace(text[i])) {
      /* show at most 20 characters, cut on a character boundary */
      const char *cut = text + i, *end = text + len;
      for (int n = 0; n < 20 && cut < end; n++) {
        const char *next = g_utf8_find_next_char(cut, end);
        cut = next ? next : end;
      }
      char *found = g_strndup(text + i, (gsize)(cut - (text + i)));
      trv_xml_fail(&L->xml, trv_xml_here(&L->xml), "text '%s' inside <%s>; expected only elements and attributes",
                   g_strstrip(found), L->depth ? L->stack[L->depth - 1] : "trivium-scenario");
      g_free(found);
      return;
    }
}

/* ---- checks that need the whole file ---- */

/* "a, b, c" of at most 8 names, then ", ... (N in all)". */
static char *name_list(GPtrArray *names) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < names->len && i < 8; i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", (char *)names->pdata[i]);
  if (names->len > 8) g_string_append_printf(s, ", ... (%u in all)", names->len);
  if (!names->len) g_string_append(s, "(none)");
  return g_string_free(s, FALSE);
}

/* "; did you mean 'X'?" for a pattern that matches none of `names`, or "".
 * A platform has up to TRV_PLATFORM_MAX_HOSTS names, so only those within
 * the suggestion's reach (at most 3 edits: the lengths differ by at most 3)
 * are compared, and only for a short pattern, which a typo makes. */
static char *name_hint(const char *word, GPtrArray *names) {
  size_t wlen = strlen(word);
  if (wlen > TRV_SCENARIO_MAX_NAME) return g_strdup("");
  GPtrArray *near = g_ptr_array_new();
  for (guint k = 0; k < names->len; k++) {
    size_t n = strlen(names->pdata[k]);
    if (n + 3 >= wlen && n <= wlen + 3) g_ptr_array_add(near, names->pdata[k]);
  }
  g_ptr_array_add(near, NULL);
  char *h = trv_scn_hint(word, (const char *const *)near->pdata);
  g_ptr_array_free(near, TRUE);
  return h;
}

/* Fails unless every glob of `globs` matches one of `names`. */
static void check_globs(Loader *L, Loc at, const char *what, const char *globs, GPtrArray *names, const char *kind) {
  char **items = g_strsplit(globs, ",", -1);
  for (int i = 0; items[i] && !L->xml.error; i++) {
    bool hit = false;
    for (guint k = 0; k < names->len && !hit; k++) hit = fnmatch(items[i], names->pdata[k], 0) == 0;
    if (hit) continue;
    char *all = name_list(names), *h = name_hint(items[i], names);
    trv_xml_fail(&L->xml, at, "%s pattern '%s' matches no %s of %s; expected one of its %ss: %s%s", what, items[i],
                 kind, L->s->platform, kind, all, h);
    g_free(h);
    g_free(all);
  }
  g_strfreev(items);
}

/* Every resource of a fault trace names a link (down/up lines) or a host
 * (off/on) of the platform: a name by a hash lookup, each of the trace's
 * few globs against every name.  Links are checked only when the platform
 * lists them all (no cluster or cabinet). */
static void check_trace(Loader *L, Loc at, const TrvFaultSpec *f) {
  TrvPlatformNames *pn = L->platform_names;
  GHashTable *hosts = g_hash_table_new(g_str_hash, g_str_equal), *links = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint k = 0; k < pn->hosts->len; k++) g_hash_table_add(hosts, pn->hosts->pdata[k]);
  for (guint k = 0; k < pn->links->len; k++) g_hash_table_add(links, pn->links->pdata[k]);
  for (guint i = 0; i < f->trace->resources->len && !L->xml.error; i++) {
    const TrvTraceResource *res = f->trace->resources->pdata[i];
    if (!res->host && !pn->links_complete) continue;
    GPtrArray *names = res->host ? pn->hosts : pn->links;
    bool hit = g_hash_table_contains(res->host ? hosts : links, res->name);
    for (guint k = 0; res->glob && k < names->len && !hit; k++) hit = fnmatch(res->name, names->pdata[k], 0) == 0;
    if (hit) continue;
    const char *kind = res->host ? "host" : "link", *other = res->host ? "a link: down or up" : "a host: off or on";
    bool is_other = g_hash_table_contains(res->host ? links : hosts, res->name);
    char *all = name_list(names), *h = name_hint(res->name, names);
    trv_xml_fail(&L->xml, at,
                 "fault trace '%s' refused: %s:%d: %s '%s' matches no %s of %s%s%s%s; expected one of its "
                 "%ss: %s%s",
                 f->pattern, f->trace->file, res->line, kind, res->name, kind, L->s->platform,
                 is_other ? " (it is " : "", is_other ? other : "", is_other ? ")" : "", kind, all, h);
    g_free(h);
    g_free(all);
  }
  g_hash_table_destroy(hosts);
  g_hash_table_destroy(links);
}

static void check_platform(Loader *L) {
  TrvScenario *s = L->s;
  TrvPlatformNames *pn = L->platform_names;
  g_assert(pn); /* read with <platform>, which finish() found */
  for (int r = 0; r < 3 && !L->xml.error; r++) {
    if (s->role_hosts[r]) {
      char *what = g_strdup_printf("role '%s'", trv_role_names[r]);
      check_globs(L, L->role[r], what, s->role_hosts[r], pn->hosts, "host");
      g_free(what);
      continue;
    }
    bool found = false;
    for (guint k = 0; k < pn->roles->len && !found; k++)
      found = pn->roles->pdata[k] && !strcmp(pn->roles->pdata[k], trv_role_names[r]);
    if (!found)
      trv_xml_fail(&L->xml, L->platform,
                   "no host of %s has the property trivium.role=\"%s\" and the scenario maps no "
                   "hosts to role '%s'; expected <role name=\"%s\" hosts=\"GLOB\"> inside <platform>",
                   s->platform, trv_role_names[r], trv_role_names[r], trv_role_names[r]);
  }
  for (int r = 0; r < 3 && !L->xml.error; r++) { /* the hosts each role resolves to, in platform order */
    GPtrArray *list = g_ptr_array_new();
    char **globs = s->role_hosts[r] ? g_strsplit(s->role_hosts[r], ",", -1) : NULL;
    for (guint k = 0; k < pn->hosts->len; k++) {
      const char *h = pn->hosts->pdata[k];
      bool in = false;
      if (globs)
        for (int i = 0; globs[i] && !in; i++) in = fnmatch(globs[i], h, 0) == 0;
      else
        in = pn->roles->pdata[k] && !strcmp(pn->roles->pdata[k], trv_role_names[r]);
      if (in) g_ptr_array_add(list, g_strdup(h));
    }
    g_strfreev(globs);
    g_ptr_array_add(list, NULL);
    s->role_host_list[r] = (char **)g_ptr_array_free(list, FALSE);
  }
  for (guint i = 0; i < s->faults->len && !L->xml.error; i++) {
    const TrvFaultSpec *f = &g_array_index(s->faults, TrvFaultSpec, i);
    Loc at = g_array_index(L->fault_locs, Loc, i);
    if (f->kind == TRV_FAULT_TRACE)
      check_trace(L, at, f);
    else if (f->kind != TRV_FAULT_LINK_FLAP)
      check_globs(L, at, trv_scn_fault_elements[f->kind], f->pattern, pn->hosts, "host");
    else if (pn->links_complete)
      check_globs(L, at, "link-flap", f->pattern, pn->links, "link");
  }
}

static void finish(Loader *L) {
  TrvScenario *s = L->s;
  if (!s->platform)
    trv_xml_fail(&L->xml, L->root,
                 "<trivium-scenario> without <platform>; expected <platform file=\"PLATFORM.xml\"> "
                 "naming the SimGrid platform");
  else if (!s->world)
    trv_xml_fail(&L->xml, L->root, "<trivium-scenario> without <world>; expected <world name=\"causalbench\" ...>");
  if (!L->xml.error) trv_scn_finish_sweeps(L);
  if (!L->xml.error) check_platform(L);
}

/* ---- fault links against the simulator's links ---- */

/* The first of the comma-separated globs that matches none of `names`, or
 * NULL (allocated). */
static char *unmatched_glob(const char *globs, GPtrArray *names) {
  char **items = g_strsplit(globs, ",", -1), *miss = NULL;
  for (int i = 0; items[i] && !miss; i++) {
    bool hit = false;
    for (guint k = 0; k < names->len && !hit; k++) hit = fnmatch(items[i], names->pdata[k], 0) == 0;
    if (!hit) miss = g_strdup(items[i]);
  }
  g_strfreev(items);
  return miss;
}

bool trv_scenario_check_links(const TrvScenario *s, GPtrArray *links, GError **error) {
  GHashTable *known = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint k = 0; k < links->len; k++) g_hash_table_add(known, links->pdata[k]);
  bool ok = true;
  for (guint i = 0; i < s->faults->len && ok; i++) {
    const TrvFaultSpec *f = &g_array_index(s->faults, TrvFaultSpec, i);
    char *miss = NULL, *where = NULL;
    if (f->kind == TRV_FAULT_LINK_FLAP && (miss = unmatched_glob(f->pattern, links)))
      where = g_strdup_printf("%s:%d: link-flap pattern", s->file, f->line);
    for (guint r = 0; f->kind == TRV_FAULT_TRACE && !miss && r < f->trace->resources->len; r++) {
      const TrvTraceResource *res = f->trace->resources->pdata[r];
      if (res->host || g_hash_table_contains(known, res->name)) continue;
      bool hit = false;
      for (guint k = 0; res->glob && k < links->len && !hit; k++) hit = fnmatch(res->name, links->pdata[k], 0) == 0;
      if (hit) continue;
      miss = g_strdup(res->name);
      where = g_strdup_printf("%s:%d: fault trace '%s' refused: %s:%d: link", s->file, f->line, f->pattern,
                              f->trace->file, res->line);
    }
    if (miss) {
      char *all = name_list(links), *h = name_hint(miss, links), *msg;
      msg = g_strdup_printf("%s '%s' matches no link of %s as SimGrid builds it; expected one of its links: %s%s",
                            where, miss, s->platform, all, h);
      char *shown = trv_scn_printable(msg);
      g_set_error_literal(error, TRV_ERROR, TRV_ERROR_INPUT, shown);
      g_free(shown), g_free(msg), g_free(all), g_free(h);
      ok = false;
    }
    g_free(miss);
    g_free(where);
  }
  g_hash_table_destroy(known);
  return ok;
}

/* ---- placements that defeat themselves ---- */

static bool matches_any(const char *globs, char **hosts) {
  char **items = g_strsplit(globs, ",", -1);
  bool hit = false;
  for (int i = 0; items[i] && !hit; i++)
    for (int k = 0; hosts && hosts[k] && !hit; k++) hit = fnmatch(items[i], hosts[k], 0) == 0;
  g_strfreev(items);
  return hit;
}

char **trv_scenario_warnings(const TrvScenario *s, const TrvParams *p, const GArray *faults) {
  GPtrArray *out = g_ptr_array_new();
  char **ctl = s->role_host_list[TRV_ROLE_CTL], **agents = s->role_host_list[TRV_ROLE_AGENT];
  char **controller = s->role_host_list[TRV_ROLE_CONTROLLER];
  guint n_ctl = ctl ? g_strv_length(ctl) : 0, n_agents = agents ? g_strv_length(agents) : 0;
  int replicas = trv_ctl_params_of(p)->replicas, need = replicas / 2 + 1,
      n_agents_run = trv_params_int(p, "agents.count");
  if (replicas > 1 && n_ctl > 0) {
    int on_first = (replicas + (int)n_ctl - 1) / (int)n_ctl; /* replicas 0, n, 2n, ... share log host 0 */
    if (on_first >= need)
      g_ptr_array_add(out, g_strdup_printf("ctl.replicas = %d on %u log host%s: host %s holds %d of them, a majority, "
                                           "so its crash takes the log down; give the role ctl at least %d hosts",
                                           replicas, n_ctl, n_ctl == 1 ? "" : "s", ctl[0], on_first, replicas));
  }
  if (controller && controller[0] && n_agents > 0) {
    int shared = 0;
    for (int a = 0; a < n_agents_run; a++) shared += !strcmp(agents[a % n_agents], controller[0]);
    if (shared > 0)
      g_ptr_array_add(out, g_strdup_printf("%d of the %d agent%s on the controller's host %s: its crash stops the "
                                           "controller and %s at once",
                                           shared, n_agents_run, n_agents_run == 1 ? "" : "s", controller[0],
                                           shared == 1 ? "that agent" : "those agents"));
  }
  for (guint i = 0; faults && i < faults->len; i++) {
    const TrvFaultSpec *f = &g_array_index(faults, TrvFaultSpec, i);
    if (f->kind == TRV_FAULT_TRACE) continue; /* its names were checked; its times are its own */
    if (f->kind == TRV_FAULT_LINK_FLAP) {
      if (f->start >= f->stop)
        g_ptr_array_add(out, g_strdup_printf("%s on '%s' (line %d): it starts at %g s and stops at %g s, so it never "
                                             "fires",
                                             trv_scn_fault_elements[f->kind], f->pattern, f->line, f->start, f->stop));
      continue;
    }
    if (f->duration <= 0)
      g_ptr_array_add(out, g_strdup_printf("%s on '%s' (line %d): its duration is 0 s, so it changes nothing",
                                           trv_scn_fault_elements[f->kind], f->pattern, f->line));
    bool used = false;
    for (int r = 0; r < 3 && !used; r++) used = matches_any(f->pattern, s->role_host_list[r]);
    if (!used)
      g_ptr_array_add(out, g_strdup_printf("%s on '%s' (line %d): no controller, log or agent host matches, so it "
                                           "cannot affect the run",
                                           trv_scn_fault_elements[f->kind], f->pattern, f->line));
  }
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

/* ---- entry points ---- */

static TrvScenario *scenario_new(const char *name) {
  TrvScenario *s = g_new0(TrvScenario, 1);
  s->file = g_strdup(name);
  trv_params_defaults(&s->params);
  s->faults = g_array_new(FALSE, TRUE, sizeof(TrvFaultSpec));
  s->sweeps = g_array_new(FALSE, TRUE, sizeof(TrvSweepSpec));
  return s;
}

TrvScenario *trv_scenario_load_from_memory(const char *xml, size_t len, const char *name, const char *base_dir,
                                           GError **error) {
  Loader L = {0};
  L.base_dir = g_canonicalize_filename(base_dir ? base_dir : ".", NULL);
  L.s = scenario_new(name);
  L.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  L.fault_locs = g_array_new(FALSE, FALSE, sizeof(Loc));
  L.sweep_locs = g_array_new(FALSE, FALSE, sizeof(Loc));
  trv_xml_open(&L.xml, &L, "scenario", name, xml, len, on_start, on_end, on_text);
  if (trv_xml_parse(&L.xml, TRV_SCENARIO_MAX_BYTES, "a well-formed XML document")) finish(&L);
  trv_xml_close(&L.xml);
  for (int i = 0; i < L.depth; i++) g_free(L.stack[i]);
  g_hash_table_destroy(L.seen);
  g_array_free(L.fault_locs, TRUE);
  g_array_free(L.sweep_locs, TRUE);
  trv_platform_names_free(L.platform_names);
  g_free(L.base_dir);
  if (L.xml.error) {
    g_propagate_error(error, L.xml.error);
    trv_scenario_free(L.s);
    return NULL;
  }
  return L.s;
}

TrvScenario *trv_scenario_load(const char *path, GError **error) {
  TrvScnInput in;
  if (!trv_scn_input_read(path, TRV_SCENARIO_MAX_BYTES, "scenario", &in, error)) return NULL;
  TrvScenario *s = trv_scenario_load_from_memory(in.text, in.len, path, in.dir, error);
  trv_scn_input_free(&in);
  return s;
}

void trv_scenario_free(TrvScenario *s) {
  if (!s) return;
  g_free(s->file);
  g_free(s->platform);
  for (int r = 0; r < 3; r++) {
    g_free(s->role_hosts[r]);
    g_strfreev(s->role_host_list[r]);
  }
  g_free(s->world);
  g_strfreev(s->controllers);
  g_free(s->ctl_file);
  g_free(s->out_dir);
  for (guint i = 0; i < s->faults->len; i++) trv_fault_spec_clear(&g_array_index(s->faults, TrvFaultSpec, i));
  g_array_free(s->faults, TRUE);
  for (guint i = 0; i < s->sweeps->len; i++) {
    TrvSweepSpec *sw = &g_array_index(s->sweeps, TrvSweepSpec, i);
    g_free(sw->param);
    g_strfreev(sw->values);
  }
  g_array_free(s->sweeps, TRUE);
  g_free(s);
}
