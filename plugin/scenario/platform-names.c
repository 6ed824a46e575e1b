/* scenario-platform.c - the names a SimGrid platform declares, read as
 * plain XML so that the scenario loader can check role and fault patterns
 * against them before any simulation.  See scenario.h.
 *
 * The platform reader follows SimGrid's platform DTD 4.1 only as far as
 * names go: <host id>, <peer id>, <cluster|cabinet prefix radical suffix>
 * (hosts prefix+N+suffix for every N of the radical "0-99,120"), <link id>,
 * <backbone id>, and <prop id="trivium.role" value> directly inside a
 * <host>.  Like the scenario loader it never loads an external entity and
 * refuses entity declarations. */
#include "scenario.h"

#include <expat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GENERATED_HOSTS 1000000

typedef struct {
  XML_Parser parser;
  const char *path;
  TrvPlatformNames *names;
  GError *error;
  int host_depth; /* depth of the open <host>, or -1 */
  int depth;
} PlatformReader;

static void reader_fail(PlatformReader *R, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void reader_fail(PlatformReader *R, const char *fmt, ...) {
  if (R->error) return;
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  R->error = g_error_new(TRV_ERROR, TRV_ERROR_INPUT, "%s:%lu:%lu: %s", R->path,
                         (unsigned long)XML_GetCurrentLineNumber(R->parser),
                         (unsigned long)XML_GetCurrentColumnNumber(R->parser) + 1, msg);
  g_free(msg);
  XML_StopParser(R->parser, XML_FALSE);
}

static const char *attr(const XML_Char **atts, const char *name) {
  for (int i = 0; atts[i]; i += 2)
    if (!strcmp(atts[i], name)) return atts[i + 1];
  return NULL;
}

static void add_host(PlatformReader *R, char *name) {
  g_ptr_array_add(R->names->hosts, name);
  g_ptr_array_add(R->names->roles, NULL);
}

/* Hosts of a cluster or cabinet: prefix N suffix for N in the radical. */
static void add_generated_hosts(PlatformReader *R, const char *el, const XML_Char **atts) {
  const char *prefix = attr(atts, "prefix"), *suffix = attr(atts, "suffix"), *radical = attr(atts, "radical");
  if (!radical) {
    reader_fail(R, "<%s> without radical; expected radical=\"0-99\"", el);
    return;
  }
  char **parts = g_strsplit(radical, ",", -1);
  for (int i = 0; parts[i] && !R->error; i++) {
    char *end, *dash = strchr(parts[i], '-');
    long lo = strtol(parts[i], &end, 10), hi = lo;
    bool ok = end != parts[i];
    if (ok && dash && end == dash) {
      char *hi_start = dash + 1;
      hi = strtol(hi_start, &end, 10);
      ok = end != hi_start;
    }
    ok = ok && *end == '\0' && lo >= 0 && hi >= lo;
    if (!ok || R->names->hosts->len + (guint)(hi - lo + 1) > MAX_GENERATED_HOSTS) {
      reader_fail(R, "radical=\"%s\" on <%s>; expected ranges like \"0-99,120\" (at most %d hosts)", radical, el,
                  MAX_GENERATED_HOSTS);
      break;
    }
    for (long n = lo; n <= hi; n++)
      add_host(R, g_strdup_printf("%s%ld%s", prefix ? prefix : "", n, suffix ? suffix : ""));
  }
  g_strfreev(parts);
}

static void XMLCALL on_start(void *data, const XML_Char *el, const XML_Char **atts) {
  PlatformReader *R = data;
  if (R->error) return;
  R->depth++;
  const char *id = attr(atts, "id");
  if (!strcmp(el, "host") || !strcmp(el, "peer")) {
    if (!id) {
      reader_fail(R, "<%s> without id; expected <%s id=\"NAME\" ...>", el, el);
      return;
    }
    add_host(R, g_strdup(id));
    if (!strcmp(el, "host")) R->host_depth = R->depth;
  } else if (!strcmp(el, "cluster") || !strcmp(el, "cabinet")) {
    R->names->links_complete = false;
    add_generated_hosts(R, el, atts);
  } else if (!strcmp(el, "link") || !strcmp(el, "backbone")) {
    if (id) g_ptr_array_add(R->names->links, g_strdup(id));
  } else if (!strcmp(el, "prop") && R->host_depth >= 0 && R->depth == R->host_depth + 1 && id &&
             !strcmp(id, "trivium.role")) {
    const char *value = attr(atts, "value");
    guint last = R->names->roles->len - 1;
    g_free(R->names->roles->pdata[last]);
    R->names->roles->pdata[last] = g_strdup(value ? value : "");
  }
}

static void XMLCALL on_end(void *data, const XML_Char *el) {
  PlatformReader *R = data;
  (void)el;
  if (R->error) return;
  if (R->depth == R->host_depth) R->host_depth = -1;
  R->depth--;
}

static void XMLCALL on_entity_decl(void *data, const XML_Char *name, int is_parameter, const XML_Char *value,
                                   int value_length, const XML_Char *base, const XML_Char *system_id,
                                   const XML_Char *public_id, const XML_Char *notation) {
  (void)is_parameter, (void)value, (void)value_length, (void)base, (void)system_id, (void)public_id, (void)notation;
  reader_fail(data, "declaration of entity '%s'; expected no entity declarations (never loaded)", name);
}

static void XMLCALL on_skipped_entity(void *data, const XML_Char *name, int is_parameter) {
  (void)is_parameter;
  reader_fail(data, "reference to undeclared entity '%s'; expected none", name);
}

static int XMLCALL on_external_entity(XML_Parser parser, const XML_Char *context, const XML_Char *base,
                                      const XML_Char *system_id, const XML_Char *public_id) {
  (void)context, (void)base, (void)public_id;
  reader_fail(XML_GetUserData(parser), "reference to external entity '%s'; expected none (never loaded)",
              system_id ? system_id : "");
  return XML_STATUS_ERROR;
}

TrvPlatformNames *trv_platform_names_read(const char *path, GError **error) {
  char *xml;
  gsize len;
  GError *e = NULL;
  if (!g_file_get_contents(path, &xml, &len, &e)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot read (%s)", path, e->message);
    g_error_free(e);
    return NULL;
  }
  TrvPlatformNames *names = g_new0(TrvPlatformNames, 1);
  names->hosts = g_ptr_array_new_with_free_func(g_free);
  names->roles = g_ptr_array_new_with_free_func(g_free);
  names->links = g_ptr_array_new_with_free_func(g_free);
  names->links_complete = true;
  PlatformReader R = {.path = path, .names = names, .host_depth = -1};
  R.parser = XML_ParserCreate(NULL);
  XML_SetUserData(R.parser, &R);
  XML_SetElementHandler(R.parser, on_start, on_end);
  XML_SetEntityDeclHandler(R.parser, on_entity_decl);
  XML_SetSkippedEntityHandler(R.parser, on_skipped_entity);
  XML_SetExternalEntityRefHandler(R.parser, on_external_entity);
  XML_SetParamEntityParsing(R.parser, XML_PARAM_ENTITY_PARSING_NEVER);
  if (len > INT_MAX) {
    reader_fail(&R, "file of %zu bytes; expected a platform below 2 GiB", (size_t)len);
  } else if (XML_Parse(R.parser, xml, (int)len, XML_TRUE) != XML_STATUS_OK && !R.error) {
    R.error = g_error_new(TRV_ERROR, TRV_ERROR_INPUT, "%s:%lu:%lu: malformed XML (%s)", path,
                          (unsigned long)XML_GetCurrentLineNumber(R.parser),
                          (unsigned long)XML_GetCurrentColumnNumber(R.parser) + 1,
                          XML_ErrorString(XML_GetErrorCode(R.parser)));
  }
  XML_ParserFree(R.parser);
  g_free(xml);
  if (R.error) {
    g_propagate_error(error, R.error);
    trv_platform_names_free(names);
    return NULL;
  }
  return names;
}

void trv_platform_names_free(TrvPlatformNames *names) {
  if (!names) return;
  g_ptr_array_free(names->hosts, TRUE);
  g_ptr_array_free(names->roles, TRUE);
  g_ptr_array_free(names->links, TRUE);
  g_free(names);
}
