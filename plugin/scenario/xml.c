/* xml.c - the hardened Expat reader the scenario loader and the platform
 * reader share (see xml.h): the parser's set-up, the entity handlers that
 * refuse what a data file may not hold, the one path by which a reader
 * fails, and the locations Expat does not give (an attribute, the start of
 * a declaration), found in the raw text.
 *
 * The raw text and Expat agree on positions because the parser is told the
 * input is UTF-8, whatever the XML declaration says.  Locations are 1-based
 * lines and columns that count characters, not bytes, like Expat's: UTF-8
 * continuation bytes do not advance the column.  Every message goes through
 * trv_scn_printable(), so that a control character in a value (&#10;, an
 * escape sequence) can never split the one-line message or reach a
 * terminal raw; names a message quotes that nothing else bounds are cut to
 * TRV_SCENARIO_MAX_NAME bytes first. */
#include "xml.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "scenario-internal.h"

/* ---- failing ---- */

/* Keeps `line` (taken) as the reader's one error, unless there is one. */
static void keep_error(TrvXmlReader *X, char *line) {
  if (!X->error) {
    char *printable = trv_scn_printable(line);
    X->error = g_error_new_literal(TRV_ERROR, TRV_ERROR_INPUT, printable);
    g_free(printable);
    if (X->parsing) XML_StopParser(X->parser, XML_FALSE);
  }
  g_free(line);
}

void trv_xml_fail(TrvXmlReader *X, Loc at, const char *fmt, ...) {
  if (X->error) return;
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  keep_error(X, g_strdup_printf("%s:%d:%d: %s", X->name, at.line, at.col, msg));
  g_free(msg);
}

/* ---- locations in the raw text ---- */

Loc trv_xml_here(const TrvXmlReader *X) {
  return (Loc){(int)XML_GetCurrentLineNumber(X->parser), (int)XML_GetCurrentColumnNumber(X->parser) + 1};
}

/* Advances `at` over byte c, which is followed by `next` (-1 at the end). */
static void advance(Loc *at, char c, int next) {
  if (c == '\n' || (c == '\r' && next != '\n')) {
    at->line++;
    at->col = 1;
  } else if (c != '\r' && ((unsigned char)c & 0xC0) != 0x80) {
    at->col++;
  }
}

/* Location of byte `offset` of the input. */
static Loc offset_loc(const TrvXmlReader *X, size_t offset) {
  Loc at = {1, 1};
  for (size_t i = 0; i < offset && i < X->len; i++)
    advance(&at, X->buf[i], i + 1 < X->len ? (unsigned char)X->buf[i + 1] : -1);
  return at;
}

/* Location of the declaration the parser is in: Expat reports its last
 * token, the user wants its "<!". */
static Loc declaration_loc(const TrvXmlReader *X) {
  XML_Index off = XML_GetCurrentByteIndex(X->parser);
  if (off < 0 || (size_t)off > X->len) return trv_xml_here(X);
  while (off > 0 && strncmp(X->buf + off, "<!", 2)) off--;
  return offset_loc(X, (size_t)off);
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Walks the current start tag from its '<', stepping over quoted values,
 * to the first name after a blank that is `attr` followed by '=' or a
 * blank. */
Loc trv_xml_attr_loc(const TrvXmlReader *X, const char *attr) {
  if (X->tag_offset < 0 || (size_t)X->tag_offset >= X->len) return X->tag;
  const char *p = X->buf + X->tag_offset, *end = X->buf + X->len;
  Loc at = X->tag;
  size_t alen = strlen(attr);
  bool in_value = false, at_name_start = false;
  char quote = 0;
  for (; p < end && (in_value || *p != '>'); p++) {
    if (in_value) {
      if (*p == quote) in_value = false;
    } else if (*p == '"' || *p == '\'') {
      in_value = true, quote = *p;
    } else if (is_blank(*p)) {
      at_name_start = true;
    } else if (at_name_start) {
      at_name_start = false;
      if ((size_t)(end - p) > alen && !strncmp(p, attr, alen) && (p[alen] == '=' || is_blank(p[alen]))) return at;
    }
    advance(&at, *p, p + 1 < end ? (unsigned char)p[1] : -1);
  }
  return X->tag;
}

/* ---- entities ---- */

/* With an external DTD subset (which is never read) Expat silently drops an
 * undeclared entity reference inside an attribute value, so the references
 * of each start tag are looked for in its raw text.  False after failing on
 * the first one that is neither predefined nor a character reference. */
static bool check_tag_references(TrvXmlReader *X) {
  static const char *const predefined[] = {"amp", "lt", "gt", "quot", "apos", NULL};
  if (X->tag_offset < 0) return true;
  char quote = 0;
  for (size_t i = (size_t)X->tag_offset; i < X->len; i++) {
    char c = X->buf[i];
    if (!quote && c == '>') break;
    if (!quote && (c == '"' || c == '\'')) {
      quote = c;
    } else if (quote && c == quote) {
      quote = 0;
    } else if (quote && c == '&') {
      size_t j = i + 1;
      /* a name is short; what follows a long one is not shown */
      while (j < X->len && j - i <= TRV_SCENARIO_MAX_NAME && X->buf[j] != ';' && X->buf[j] != quote) j++;
      char *name = g_strndup(X->buf + i + 1, j - i - 1);
      bool ok = name[0] == '#' || g_strv_contains(predefined, name);
      if (!ok)
        trv_xml_fail(X, offset_loc(X, i),
                     "reference to undeclared entity '%s'; expected only the predefined "
                     "entities and character references",
                     name);
      g_free(name);
      if (!ok) return false;
    }
  }
  return true;
}

bool trv_xml_start_tag(TrvXmlReader *X) {
  if (X->error) return false;
  X->tag = trv_xml_here(X);
  X->tag_offset = XML_GetCurrentByteIndex(X->parser);
  return check_tag_references(X);
}

/* Any entity declaration, internal or external, general or parameter:
 * refusing them all rules out entity expansion attacks and XXE alike. */
static void XMLCALL on_entity_decl(void *data, const XML_Char *name, int is_parameter, const XML_Char *value,
                                   int value_length, const XML_Char *base, const XML_Char *system_id,
                                   const XML_Char *public_id, const XML_Char *notation) {
  TrvXmlReader *X = data;
  (void)value, (void)value_length, (void)base, (void)public_id, (void)notation;
  char *shown = trv_scn_shorten(name, TRV_SCENARIO_MAX_NAME);
  trv_xml_fail(X, declaration_loc(X),
               "declaration of %s%s entity '%s'; expected no entity declarations (a %s "
               "never defines or loads entities)",
               system_id ? "external " : "", is_parameter ? "parameter" : "general", shown, X->noun);
  g_free(shown);
}

/* A reference Expat could not resolve and would otherwise skip quietly. */
static void XMLCALL on_skipped_entity(void *data, const XML_Char *name, int is_parameter) {
  TrvXmlReader *X = data;
  char *shown = trv_scn_shorten(name, TRV_SCENARIO_MAX_NAME);
  trv_xml_fail(X, trv_xml_here(X),
               "reference to undeclared %sentity '%s'; expected only the predefined entities and "
               "character references",
               is_parameter ? "parameter " : "", shown);
  g_free(shown);
}

/* An external entity or DTD subset: never opened, whatever it names. */
static int XMLCALL on_external_entity(XML_Parser parser, const XML_Char *context, const XML_Char *base,
                                      const XML_Char *system_id, const XML_Char *public_id) {
  TrvXmlReader *X = XML_GetUserData(parser);
  (void)context, (void)base, (void)public_id;
  char *shown = trv_scn_shorten(system_id ? system_id : "", TRV_SCENARIO_MAX_NAME);
  trv_xml_fail(X, trv_xml_here(X),
               "reference to external entity '%s'; expected no external entities (they are "
               "never loaded)",
               shown);
  g_free(shown);
  return XML_STATUS_ERROR;
}

/* ---- the parser ---- */

void trv_xml_open(TrvXmlReader *X, void *owner, const char *noun, const char *name, const char *buf, size_t len,
                  XML_StartElementHandler start, XML_EndElementHandler end, XML_CharacterDataHandler text) {
  /* the shared handlers read the user data as the reader: it must be the owner's first member */
  g_assert((void *)X == owner);
  *X = (TrvXmlReader){.noun = noun, .name = name, .buf = buf, .len = len, .tag_offset = -1};
  X->parser = XML_ParserCreate("UTF-8"); /* whatever the declaration says: positions assume UTF-8 */
  XML_SetUserData(X->parser, owner);
  XML_SetElementHandler(X->parser, start, end);
  if (text) XML_SetCharacterDataHandler(X->parser, text);
  XML_SetEntityDeclHandler(X->parser, on_entity_decl);
  XML_SetSkippedEntityHandler(X->parser, on_skipped_entity);
  XML_SetExternalEntityRefHandler(X->parser, on_external_entity);
  XML_SetParamEntityParsing(X->parser, XML_PARAM_ENTITY_PARSING_NEVER);
}

bool trv_xml_parse(TrvXmlReader *X, size_t max_bytes, const char *expected) {
  g_assert(max_bytes <= INT_MAX); /* so that the length within it fits XML_Parse's int */
  if (X->len > max_bytes) {
    keep_error(
        X, g_strdup_printf("%s: the %s is %zu bytes; expected at most %zu bytes", X->name, X->noun, X->len, max_bytes));
    return false;
  }
  X->parsing = true;
  enum XML_Status st = XML_Parse(X->parser, X->buf, (int)X->len, XML_TRUE);
  X->parsing = false;
  if (st != XML_STATUS_OK && !X->error)
    trv_xml_fail(X, trv_xml_here(X), "malformed XML (%s); expected %s", XML_ErrorString(XML_GetErrorCode(X->parser)),
                 expected);
  return !X->error;
}

void trv_xml_close(TrvXmlReader *X) {
  if (X->parser) XML_ParserFree(X->parser);
  X->parser = NULL;
}
