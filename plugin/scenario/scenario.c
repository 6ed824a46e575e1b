/* scenario.c - the scenario XML loader (SPEC 6): the Expat driver.  See
 * scenario.h; the language itself (elements, attributes, what each does) is
 * elements.c, the rule for output paths paths.c, file reading input.c.
 *
 * One pass of Expat over the whole file held in memory (at most
 * TRV_SCENARIO_MAX_BYTES, read as UTF-8 whatever the XML declaration says,
 * so that the raw text and Expat agree on every position).  This file
 * locates each start tag, applies the checks every tag gets (name and value
 * lengths, entity references) and hands it to trv_scn_start_element(); the
 * first mistake stops the parser and is kept as the one error of the load.
 * It refuses every entity declaration and external entity, and any
 * reference other than the predefined ones.  The platform is read (and
 * checked, trv_platform_names_read) when <platform> is met.  After the
 * parse, the checks that need the whole file run: required elements, sweeps
 * over faults (faults.c), and the roles and fault patterns against the
 * platform's host and link names.
 *
 * Invariants: an error is set at most once (the first one wins, later
 * handler calls return at once); every message starts with FILE:LINE:COLUMN
 * (1-based, columns in characters like Expat's) and holds no control
 * character; attribute errors point at the attribute, which Expat does not
 * locate, so trv_scn_attr_loc() finds it in the raw text of the start tag. */
#include "scenario.h"

#include <expat.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <string.h>

#include "scenario-internal.h"

/* ---- locations and errors ---- */

static Loc here(const Loader *L) {
  return (Loc){(int)XML_GetCurrentLineNumber(L->parser), (int)XML_GetCurrentColumnNumber(L->parser) + 1};
}

static Loc offset_loc(const Loader *L, size_t offset) {
  return trv_scn_offset_loc(L->buf, L->len, offset);
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
  return trv_scn_tag_attr_loc(L->buf, L->len, L->tag_offset, L->tag, attr);
}

void trv_scn_fail(Loader *L, Loc at, const char *fmt, ...) {
  if (L->error) return;
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *line = g_strdup_printf("%s:%d:%d: %s", L->name, at.line, at.col, msg);
  char *printable = trv_scn_printable(line);
  L->error = g_error_new_literal(TRV_ERROR, TRV_ERROR_INPUT, printable);
  g_free(printable);
  g_free(line);
  g_free(msg);
  if (L->parsing) XML_StopParser(L->parser, XML_FALSE);
}

/* The entity references of the current start tag (see
 * trv_scn_tag_references_ok: Expat may drop an undeclared one silently). */
static bool check_attribute_references(Loader *L) {
  size_t at;
  char *name;
  if (trv_scn_tag_references_ok(L->buf, L->len, L->tag_offset, &at, &name)) return true;
  trv_scn_fail(L, offset_loc(L, at), "reference to undeclared entity '%s'; expected only the predefined entities and "
               "character references", name);
  g_free(name);
  return false;
}

/* Bounds every start tag gets before its meaning is looked at: names are
 * short, values at most TRV_SCENARIO_MAX_VALUE bytes (every message may
 * quote a value, and lists are split from them). */
static bool check_lengths(Loader *L, const char *el, const XML_Char **atts) {
  if (strlen(el) > TRV_SCENARIO_MAX_NAME) {
    trv_scn_fail(L, L->tag, "element name of %zu bytes; expected an element of the scenario language (names of at "
                 "most %d bytes)", strlen(el), TRV_SCENARIO_MAX_NAME);
    return false;
  }
  for (int i = 0; atts[i]; i += 2) {
    if (strlen(atts[i]) > TRV_SCENARIO_MAX_NAME) {
      trv_scn_fail(L, trv_scn_attr_loc(L, atts[i]), "attribute name of %zu bytes on <%s>; expected an attribute of "
                   "the scenario language (names of at most %d bytes)", strlen(atts[i]), el, TRV_SCENARIO_MAX_NAME);
      return false;
    }
    if (strlen(atts[i + 1]) > TRV_SCENARIO_MAX_VALUE) {
      trv_scn_fail(L, trv_scn_attr_loc(L, atts[i]), "value of %s on <%s> is %zu bytes long; expected at most %d bytes",
                   atts[i], el, strlen(atts[i + 1]), TRV_SCENARIO_MAX_VALUE);
      return false;
    }
  }
  return true;
}

static void XMLCALL on_start(void *data, const XML_Char *el, const XML_Char **atts) {
  Loader *L = data;
  if (L->error) return;
  L->tag = here(L);
  L->tag_offset = XML_GetCurrentByteIndex(L->parser);
  if (!check_attribute_references(L) || !check_lengths(L, el, atts)) return;
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
      /* show at most 20 characters, cut on a character boundary */
      const char *cut = text + i, *end = text + len;
      for (int n = 0; n < 20 && cut < end; n++) {
        const char *next = g_utf8_find_next_char(cut, end);
        cut = next ? next : end;
      }
      char *found = g_strndup(text + i, (gsize)(cut - (text + i)));
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
  char *shown = trv_scn_shorten(name, TRV_SCENARIO_MAX_NAME);
  trv_scn_fail(L, declaration_loc(L), "declaration of %s%s entity '%s'; expected no entity declarations (a scenario never defines or "
       "loads entities)", system_id ? "external " : "", is_parameter ? "parameter" : "general", shown);
  g_free(shown);
}

static void XMLCALL on_skipped_entity(void *data, const XML_Char *name, int is_parameter) {
  Loader *L = data;
  char *shown = trv_scn_shorten(name, TRV_SCENARIO_MAX_NAME);
  trv_scn_fail(L, here(L), "reference to undeclared %sentity '%s'; expected only the predefined entities and character "
       "references", is_parameter ? "parameter " : "", shown);
  g_free(shown);
}

static int XMLCALL on_external_entity(XML_Parser parser, const XML_Char *context, const XML_Char *base,
                                      const XML_Char *system_id, const XML_Char *public_id) {
  Loader *L = XML_GetUserData(parser);
  (void)context, (void)base, (void)public_id;
  char *shown = trv_scn_shorten(system_id ? system_id : "", TRV_SCENARIO_MAX_NAME);
  trv_scn_fail(L, here(L), "reference to external entity '%s'; expected no external entities (they are never loaded)",
       shown);
  g_free(shown);
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
  for (int i = 0; items[i] && !L->error; i++) {
    bool hit = false;
    for (guint k = 0; k < names->len && !hit; k++) hit = fnmatch(items[i], names->pdata[k], 0) == 0;
    if (hit) continue;
    char *all = name_list(names), *h = name_hint(items[i], names);
    trv_scn_fail(L, at, "%s pattern '%s' matches no %s of %s; expected one of its %ss: %s%s", what, items[i], kind,
         L->s->platform, kind, all, h);
    g_free(h);
    g_free(all);
  }
  g_strfreev(items);
}

static void check_platform(Loader *L) {
  TrvScenario *s = L->s;
  TrvPlatformNames *pn = L->platform_names;
  g_assert(pn); /* read with <platform>, which finish() found */
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
}

static void finish(Loader *L) {
  TrvScenario *s = L->s;
  if (!s->platform)
    trv_scn_fail(L, L->root, "<trivium-scenario> without <platform>; expected <platform file=\"PLATFORM.xml\"> naming the "
         "SimGrid platform");
  else if (!s->world)
    trv_scn_fail(L, L->root, "<trivium-scenario> without <world>; expected <world name=\"causalbench\" ...>");
  if (!L->error) trv_scn_finish_sweeps(L);
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
  L.parser = XML_ParserCreate("UTF-8"); /* whatever the declaration says: positions assume UTF-8 */
  XML_SetUserData(L.parser, &L);
  XML_SetElementHandler(L.parser, on_start, on_end);
  XML_SetCharacterDataHandler(L.parser, on_text);
  XML_SetEntityDeclHandler(L.parser, on_entity_decl);
  XML_SetSkippedEntityHandler(L.parser, on_skipped_entity);
  XML_SetExternalEntityRefHandler(L.parser, on_external_entity);
  XML_SetParamEntityParsing(L.parser, XML_PARAM_ENTITY_PARSING_NEVER);
  if (len > TRV_SCENARIO_MAX_BYTES) {
    g_set_error(&L.error, TRV_ERROR, TRV_ERROR_INPUT, "%s: the scenario is %zu bytes; expected at most %d bytes", name,
                len, TRV_SCENARIO_MAX_BYTES);
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
  trv_platform_names_free(L.platform_names);
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
  size_t len;
  if (!trv_scn_read_input(path, TRV_SCENARIO_MAX_BYTES, "scenario", &xml, &len, error)) return NULL;
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
