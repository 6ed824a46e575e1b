/* scenario.c - the scenario XML loader (SPEC 6): the Expat driver.  See
 * scenario.h; the language itself (elements, attributes, what each does) is
 * scenario-elements.c.
 *
 * One pass of Expat over the whole file held in memory.  This file locates
 * each start tag and hands it to trv_scn_start_element(); the first mistake
 * stops the parser and is kept as the one error of the load.  It refuses
 * every entity declaration and external entity, and any reference other
 * than the predefined ones.  After the parse, the checks that need the
 * whole file run: required elements, sweeps over faults, and the roles and
 * fault patterns against the platform's host and link names.
 *
 * Invariants: an error is set at most once (the first one wins, later
 * handler calls return at once); every message starts with FILE:LINE:COLUMN
 * (1-based, columns in characters like Expat's); attribute errors point at
 * the attribute, which Expat does not locate, so trv_scn_attr_loc() finds it
 * in the raw text of the start tag. */
#include "scenario.h"

#include <expat.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "scenario-internal.h"

/* ---- locations and errors ---- */

static Loc here(const Loader *L) {
  return (Loc){(int)XML_GetCurrentLineNumber(L->parser), (int)XML_GetCurrentColumnNumber(L->parser) + 1};
}

/* Location of byte `offset` of the input, counted from its start. */
static Loc offset_loc(const Loader *L, size_t offset) {
  Loc at = {1, 1};
  for (size_t i = 0; i < offset && i < L->len; i++) {
    char c = L->buf[i];
    if (c == '\n' || (c == '\r' && (i + 1 == L->len || L->buf[i + 1] != '\n'))) {
      at.line++;
      at.col = 1;
    } else if (c != '\r' && ((unsigned char)c & 0xC0) != 0x80) {
      at.col++; /* one column per character, like Expat: UTF-8 continuation bytes do not count */
    }
  }
  return at;
}

/* Location of the declaration the parser is in: Expat reports its last
 * token, the user wants its "<!". */
static Loc declaration_loc(const Loader *L) {
  XML_Index off = XML_GetCurrentByteIndex(L->parser);
  if (off < 0 || (size_t)off > L->len) return here(L);
  while (off > 0 && strncmp(L->buf + off, "<!", 2)) off--;
  return offset_loc(L, (size_t)off);
}

/* Location of attribute `attr` of the current start tag, found in the raw
 * text; the tag's own location when it is not there (a DTD default). */
Loc trv_scn_attr_loc(const Loader *L, const char *attr) {
  if (L->tag_offset < 0 || (size_t)L->tag_offset >= L->len) return L->tag;
  const char *p = L->buf + L->tag_offset, *end = L->buf + L->len;
  Loc at = L->tag;
  size_t alen = strlen(attr);
  bool in_value = false, at_name_start = false;
  char quote = 0;
  for (; p < end && (in_value || *p != '>'); p++) {
    if (in_value) {
      if (*p == quote) in_value = false;
    } else if (*p == '"' || *p == '\'') {
      in_value = true, quote = *p;
    } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
      at_name_start = true;
    } else if (at_name_start) {
      at_name_start = false;
      const char *q = p + alen;
      if ((size_t)(end - p) > alen && !strncmp(p, attr, alen) &&
          (*q == '=' || *q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
        return at;
    }
    if (*p == '\n' || (*p == '\r' && (p + 1 == end || p[1] != '\n'))) {
      at.line++;
      at.col = 1;
    } else if (*p != '\r' && ((unsigned char)*p & 0xC0) != 0x80) {
      at.col++; /* one column per character: UTF-8 continuation bytes do not count */
    }
  }
  return L->tag;
}

void trv_scn_fail(Loader *L, Loc at, const char *fmt, ...) {
  if (L->error) return;
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  L->error = g_error_new(TRV_ERROR, TRV_ERROR_INPUT, "%s:%d:%d: %s", L->name, at.line, at.col, msg);
  g_free(msg);
  if (L->parsing) XML_StopParser(L->parser, XML_FALSE);
}

/* With an external DTD subset (which it never reads) Expat silently drops an
 * undeclared entity reference inside an attribute value.  No entity can be
 * declared here, so any reference in the current start tag other than the
 * five predefined ones and character references is refused. */
static bool check_attribute_references(Loader *L) {
  static const char *const predefined[] = {"amp", "lt", "gt", "quot", "apos", NULL};
  if (L->tag_offset < 0) return true;
  char quote = 0;
  for (size_t i = (size_t)L->tag_offset; i < L->len; i++) {
    char c = L->buf[i];
    if (!quote && c == '>') break;
    if (!quote && (c == '"' || c == '\'')) {
      quote = c;
    } else if (quote && c == quote) {
      quote = 0;
    } else if (quote && c == '&') {
      size_t j = i + 1;
      while (j < L->len && L->buf[j] != ';' && L->buf[j] != quote) j++;
      char *name = g_strndup(L->buf + i + 1, j - i - 1);
      bool ok = name[0] == '#' || g_strv_contains(predefined, name);
      if (!ok)
        trv_scn_fail(L, offset_loc(L, i), "reference to undeclared entity '%s'; expected only the predefined entities and "
             "character references", name);
      g_free(name);
      if (!ok) return false;
    }
  }
  return true;
}

static void XMLCALL on_start(void *data, const XML_Char *el, const XML_Char **atts) {
  Loader *L = data;
  if (L->error) return;
  L->tag = here(L);
  L->tag_offset = XML_GetCurrentByteIndex(L->parser);
  if (!check_attribute_references(L)) return;
  trv_scn_start_element(L, el, atts);
}

static void XMLCALL on_end(void *data, const XML_Char *el) {
  Loader *L = data;
  (void)el;
  if (L->error) return;
  g_free(L->stack[--L->depth]);
}

static void XMLCALL on_text(void *data, const XML_Char *text, int len) {
  Loader *L = data;
  if (L->error) return;
  for (int i = 0; i < len; i++)
    if (!g_ascii_isspace(text[i])) {
      char *found = g_strndup(text + i, (gsize)MIN(len - i, 20));
      trv_scn_fail(L, here(L), "text '%s' inside <%s>; expected only elements and attributes", g_strstrip(found),
           L->depth ? L->stack[L->depth - 1] : "trivium-scenario");
      g_free(found);
      return;
    }
}

static void XMLCALL on_entity_decl(void *data, const XML_Char *name, int is_parameter, const XML_Char *value,
                                   int value_length, const XML_Char *base, const XML_Char *system_id,
                                   const XML_Char *public_id, const XML_Char *notation) {
  Loader *L = data;
  (void)value, (void)value_length, (void)base, (void)public_id, (void)notation;
  trv_scn_fail(L, declaration_loc(L), "declaration of %s%s entity '%s'; expected no entity declarations (a scenario never defines or "
       "loads entities)", system_id ? "external " : "", is_parameter ? "parameter" : "general", name);
}

static void XMLCALL on_skipped_entity(void *data, const XML_Char *name, int is_parameter) {
  Loader *L = data;
  trv_scn_fail(L, here(L), "reference to undeclared %sentity '%s'; expected only the predefined entities and character "
       "references", is_parameter ? "parameter " : "", name);
}

static int XMLCALL on_external_entity(XML_Parser parser, const XML_Char *context, const XML_Char *base,
                                      const XML_Char *system_id, const XML_Char *public_id) {
  Loader *L = XML_GetUserData(parser);
  (void)context, (void)base, (void)public_id;
  trv_scn_fail(L, here(L), "reference to external entity '%s'; expected no external entities (they are never loaded)",
       system_id ? system_id : "");
  return XML_STATUS_ERROR;
}

/* ---- checks that need the whole file ---- */

/* "a, b, c" of at most 8 names, then ", ... (N in all)". */
static char *name_list(GPtrArray *names) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < names->len && i < 8; i++) g_string_append_printf(s, "%s%s", i ? ", " : "", (char *)names->pdata[i]);
  if (names->len > 8) g_string_append_printf(s, ", ... (%u in all)", names->len);
  if (!names->len) g_string_append(s, "(none)");
  return g_string_free(s, FALSE);
}

/* Fails unless every glob of `globs` matches one of `names`. */
static void check_globs(Loader *L, Loc at, const char *what, const char *globs, GPtrArray *names, const char *kind) {
  char **items = g_strsplit(globs, ",", -1);
  for (int i = 0; items[i] && !L->error; i++) {
    bool hit = false;
    for (guint k = 0; k < names->len && !hit; k++) hit = fnmatch(items[i], names->pdata[k], 0) == 0;
    if (hit) continue;
    char *all = name_list(names);
    g_ptr_array_add(names, NULL);
    char *h = trv_scn_hint(items[i], (const char *const *)names->pdata);
    g_ptr_array_set_size(names, names->len - 1);
    trv_scn_fail(L, at, "%s pattern '%s' matches no %s of %s; expected one of its %ss: %s%s", what, items[i], kind,
         L->s->platform, kind, all, h);
    g_free(h);
    g_free(all);
  }
  g_strfreev(items);
}

static void check_platform(Loader *L) {
  TrvScenario *s = L->s;
  if (!g_str_has_suffix(s->platform, ".xml")) return; /* not read here; SimGrid will say */
  GError *e = NULL;
  TrvPlatformNames *pn = trv_platform_names_read(s->platform, &e);
  if (!pn) {
    trv_scn_fail(L, L->platform, "platform file: %s; expected a SimGrid platform", e->message);
    g_error_free(e);
    return;
  }
  for (int r = 0; r < 3 && !L->error; r++) {
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
      trv_scn_fail(L, L->platform, "no host of %s has the property trivium.role=\"%s\" and the scenario maps no hosts to "
           "role '%s'; expected <role name=\"%s\" hosts=\"GLOB\"> inside <platform>", s->platform,
           trv_role_names[r], trv_role_names[r], trv_role_names[r]);
  }
  for (guint i = 0; i < s->faults->len && !L->error; i++) {
    const TrvFaultSpec *f = &g_array_index(s->faults, TrvFaultSpec, i);
    Loc at = g_array_index(L->fault_locs, Loc, i);
    if (f->kind != TRV_FAULT_LINK_FLAP) check_globs(L, at, trv_scn_fault_elements[f->kind], f->pattern, pn->hosts, "host");
    else if (pn->links_complete) check_globs(L, at, "link-flap", f->pattern, pn->links, "link");
  }
  trv_platform_names_free(pn);
}

static void finish(Loader *L) {
  TrvScenario *s = L->s;
  if (!s->platform)
    trv_scn_fail(L, L->root, "<trivium-scenario> without <platform>; expected <platform file=\"PLATFORM.xml\"> naming the "
         "SimGrid platform");
  else if (!s->world)
    trv_scn_fail(L, L->root, "<trivium-scenario> without <world>; expected <world name=\"causalbench\" ...>");
  for (guint i = 0; i < s->sweeps->len && !L->error; i++) {
    const char *key = g_array_index(s->sweeps, TrvSweepSpec, i).param;
    if (!g_strv_contains(trv_scn_fault_sweep_keys, key)) continue;
    size_t kind_len = (size_t)(strchr(key, '.') - key);
    bool found = false;
    for (guint k = 0; k < s->faults->len && !found; k++) {
      const char *kind = trv_scn_fault_elements[g_array_index(s->faults, TrvFaultSpec, k).kind];
      found = strlen(kind) == kind_len && !strncmp(kind, key, kind_len);
    }
    if (!found)
      trv_scn_fail(L, g_array_index(L->sweep_locs, Loc, i), "sweep over %s but the scenario has no <%.*s>; expected a <%.*s> "
           "inside <faults>", key, (int)kind_len, key, (int)kind_len, key);
    bool start = !strcmp(key, "link-flap.start"), stop = !strcmp(key, "link-flap.stop");
    char **values = g_array_index(s->sweeps, TrvSweepSpec, i).values;
    for (guint k = 0; (start || stop) && k < s->faults->len; k++) {
      const TrvFaultSpec *f = &g_array_index(s->faults, TrvFaultSpec, k);
      for (int v = 0; f->kind == TRV_FAULT_LINK_FLAP && values[v] && !L->error; v++) {
        double x = g_ascii_strtod(values[v], NULL);
        if ((start && x >= f->stop) || (stop && x <= f->start))
          trv_scn_fail(L, g_array_index(L->sweep_locs, Loc, i), "sweep value %s=%s against the <link-flap> at line %d; "
               "expected stop > start", key, values[v], f->line);
      }
    }
  }
  if (!L->error) check_platform(L);
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
  Loader L = {.name = name, .buf = xml, .len = len, .tag_offset = -1};
  L.base_dir = g_canonicalize_filename(base_dir ? base_dir : ".", NULL);
  L.s = scenario_new(name);
  L.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  L.fault_locs = g_array_new(FALSE, FALSE, sizeof(Loc));
  L.sweep_locs = g_array_new(FALSE, FALSE, sizeof(Loc));
  L.parser = XML_ParserCreate(NULL);
  XML_SetUserData(L.parser, &L);
  XML_SetElementHandler(L.parser, on_start, on_end);
  XML_SetCharacterDataHandler(L.parser, on_text);
  XML_SetEntityDeclHandler(L.parser, on_entity_decl);
  XML_SetSkippedEntityHandler(L.parser, on_skipped_entity);
  XML_SetExternalEntityRefHandler(L.parser, on_external_entity);
  XML_SetParamEntityParsing(L.parser, XML_PARAM_ENTITY_PARSING_NEVER);
  if (len > INT_MAX) {
    trv_scn_fail(&L, (Loc){1, 1}, "file of %zu bytes; expected a scenario below 2 GiB", len);
  } else {
    L.parsing = true;
    enum XML_Status st = XML_Parse(L.parser, xml, (int)len, XML_TRUE);
    L.parsing = false;
    if (st != XML_STATUS_OK && !L.error)
      trv_scn_fail(&L, here(&L), "malformed XML (%s); expected a well-formed XML document",
           XML_ErrorString(XML_GetErrorCode(L.parser)));
  }
  if (!L.error) finish(&L);
  XML_ParserFree(L.parser);
  for (int i = 0; i < L.depth; i++) g_free(L.stack[i]);
  g_hash_table_destroy(L.seen);
  g_array_free(L.fault_locs, TRUE);
  g_array_free(L.sweep_locs, TRUE);
  g_free(L.base_dir);
  if (L.error) {
    g_propagate_error(error, L.error);
    trv_scenario_free(L.s);
    return NULL;
  }
  return L.s;
}

TrvScenario *trv_scenario_load(const char *path, GError **error) {
  char *xml;
  gsize len;
  GError *e = NULL;
  if (!g_file_get_contents(path, &xml, &len, &e)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot read the scenario (%s); expected a readable file",
                path, e->message);
    g_error_free(e);
    return NULL;
  }
  char *dir = g_path_get_dirname(path);
  TrvScenario *s = trv_scenario_load_from_memory(xml, len, path, dir, error);
  g_free(dir);
  g_free(xml);
  return s;
}

void trv_scenario_free(TrvScenario *s) {
  if (!s) return;
  g_free(s->file);
  g_free(s->platform);
  for (int r = 0; r < 3; r++) g_free(s->role_hosts[r]);
  g_free(s->world);
  g_strfreev(s->controllers);
  g_free(s->ctl_file);
  g_free(s->out_dir);
  for (guint i = 0; i < s->faults->len; i++) g_free(g_array_index(s->faults, TrvFaultSpec, i).pattern);
  g_array_free(s->faults, TRUE);
  for (guint i = 0; i < s->sweeps->len; i++) {
    TrvSweepSpec *sw = &g_array_index(s->sweeps, TrvSweepSpec, i);
    g_free(sw->param);
    g_strfreev(sw->values);
  }
  g_array_free(s->sweeps, TRUE);
  g_free(s);
}
