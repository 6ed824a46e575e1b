/* platform-names.c - the SimGrid platform reader: whether a platform file
 * may be handed to SimGrid (trv_platform_file_check), and the names it
 * declares, so that the scenario loader can check role and fault patterns
 * against them before any simulation.  See scenario.h.
 *
 * One reader does both, so that whatever the names reader accepts the
 * check accepts too.  It follows SimGrid's platform DTD 4.1 only as far as
 * names and safety go: <host id>, <peer id>, <cluster|cabinet prefix
 * radical suffix> (hosts prefix+N+suffix for every N of the radical
 * "0-99,120"), <link id>, <backbone id>, <prop id="trivium.role" value>
 * directly inside a <host>; <config> settings, actors and the attributes
 * naming profile files.  Like the scenario loader it reads UTF-8, never
 * loads an external entity, refuses entity declarations and undeclared
 * references.
 *
 * Invariants: the first error wins and stops the parser; every count is
 * checked against its limit (scenario.h) before the names it stands for are
 * made, so that a radical "0-4294967295" costs one comparison, not a loop;
 * host names are unique (SimGrid refuses a second host of the same name). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "scenario-internal.h"

/* Prefixes of the SimGrid settings a platform's <config> may set: the
 * resource models and their numerics.  Everything else (tracing/filename,
 * path, plugin, contexts/..., smpi/..., model-check/..., trivium/...) could
 * choose a file the run writes, code it loads or Trivium's own settings. */
static const char *const model_settings[] = {"network/", "cpu/", "host/", "disk/", "maxmin/", "precision/", "bmf/",
                                             "surf/", NULL};

typedef struct {
  XML_Parser parser;
  bool parsing;
  const char *name, *buf; /* name in messages; the whole input */
  size_t len;
  char *base_dir;         /* profile files are relative to it */
  TrvPlatformNames *names;
  GHashTable *host_lines; /* host name -> line of its declaration */
  GError *error;
  XML_Index tag_offset;   /* byte offset of the current start tag */
  Loc tag;
  int depth;
  int host_depth, config_depth; /* depth of the outermost open <host>, <config>, or -1 */
  guint host_index;             /* that <host>'s index in names->hosts */
  unsigned generators;    /* cluster and cabinet elements so far */
} PlatformReader;

static void reader_fail(PlatformReader *R, Loc at, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void reader_fail(PlatformReader *R, Loc at, const char *fmt, ...) {
  if (R->error) return;
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *line = g_strdup_printf("%s:%d:%d: %s", R->name, at.line, at.col, msg);
  char *printable = trv_scn_printable(line);
  R->error = g_error_new_literal(TRV_ERROR, TRV_ERROR_INPUT, printable);
  g_free(printable);
  g_free(line);
  g_free(msg);
  if (R->parsing) XML_StopParser(R->parser, XML_FALSE);
}

static Loc here(const PlatformReader *R) {
  return (Loc){(int)XML_GetCurrentLineNumber(R->parser), (int)XML_GetCurrentColumnNumber(R->parser) + 1};
}

static Loc attr_loc(const PlatformReader *R, const char *attr) {
  return trv_scn_tag_attr_loc(R->buf, R->len, R->tag_offset, R->tag, attr);
}

static const char *attr(const XML_Char **atts, const char *name) {
  for (int i = 0; atts[i]; i += 2)
    if (!strcmp(atts[i], name)) return atts[i + 1];
  return NULL;
}

/* ---- names ---- */

static bool name_ok(PlatformReader *R, const char *el, const char *id) {
  if (strlen(id) <= TRV_PLATFORM_MAX_NAME) return true;
  reader_fail(R, attr_loc(R, "id"), "id of %zu bytes on <%s>; expected a name of at most %d bytes", strlen(id), el,
              TRV_PLATFORM_MAX_NAME);
  return false;
}

/* Adds host `name` (taken), declared by the element at R->tag. */
static void add_host(PlatformReader *R, char *name, const char *el) {
  gpointer first = g_hash_table_lookup(R->host_lines, name);
  if (first) {
    reader_fail(R, R->tag, "<%s> declares host '%s' again (first at line %d); expected every host name once", el, name,
                GPOINTER_TO_INT(first));
    g_free(name);
    return;
  }
  g_hash_table_insert(R->host_lines, name, GINT_TO_POINTER(R->tag.line));
  g_ptr_array_add(R->names->hosts, name); /* the table's key and the array share it; the array frees it */
  g_ptr_array_add(R->names->roles, NULL);
}

static bool room_for_hosts(PlatformReader *R, Loc at, const char *el, uint64_t more) {
  if (more <= (uint64_t)(TRV_PLATFORM_MAX_HOSTS - R->names->hosts->len)) return true;
  reader_fail(R, at, "<%s> brings the platform to %llu hosts; expected at most %d hosts", el,
              (unsigned long long)(R->names->hosts->len + more), TRV_PLATFORM_MAX_HOSTS);
  return false;
}

/* One number of a radical: blanks, then decimal digits.  Numbers are
 * read up to 10^15, far above anything the limits let through, so that the
 * count of a range is exact before it is compared with them.  Advances *p
 * past the number. */
#define RADICAL_NUMBER_MAX 1000000000000000ULL
static bool radical_number(const char **p, uint64_t *out) {
  while (**p == ' ' || **p == '\t') (*p)++;
  const char *q = *p;
  uint64_t v = 0;
  for (; g_ascii_isdigit(*q); q++) {
    v = v * 10 + (uint64_t)(*q - '0');
    if (v > RADICAL_NUMBER_MAX) return false;
  }
  if (q == *p) return false;
  *p = q;
  *out = v;
  return true;
}

/* Reads the next term "A" or "A-B" (A <= B) of a radical at *p and the
 * comma after it.  False at the end or on a malformed term (*p then points
 * at the NUL only for the end). */
static bool radical_term(const char **p, uint64_t *lo, uint64_t *hi) {
  if (**p == '\0') return false;
  if (!radical_number(p, lo)) return false;
  *hi = *lo;
  if (**p == '-') {
    (*p)++;
    if (!radical_number(p, hi) || *hi < *lo) return false;
  }
  if (**p == ',' && (*p)[1] != '\0') (*p)++;
  else if (**p != '\0') return false;
  return true;
}

/* Counts the hosts of a radical "A-B,C,..." without making any: false when
 * it is malformed.  Terms are at most 10^15 and there are fewer than 2^26
 * of them (a platform is at most 64 MiB), so the sum fits in 64 bits. */
static bool radical_count(const char *radical, uint64_t *count, uint64_t *largest) {
  const char *p = radical;
  uint64_t lo, hi;
  *count = *largest = 0;
  while (radical_term(&p, &lo, &hi)) {
    *count += hi - lo + 1;
    *largest = MAX(*largest, hi);
  }
  return *p == '\0' && *count > 0;
}

/* Hosts of a cluster or cabinet: prefix N suffix for N in the radical.
 * The radical is counted and checked against the host limit and the name
 * length before the first name is made. */
static void add_generated_hosts(PlatformReader *R, const char *el, const XML_Char **atts) {
  const char *prefix = attr(atts, "prefix"), *suffix = attr(atts, "suffix"), *radical = attr(atts, "radical");
  if (!prefix) prefix = "";
  if (!suffix) suffix = "";
  if (++R->generators > TRV_PLATFORM_MAX_GENERATORS) {
    reader_fail(R, R->tag, "<%s> number %u; expected at most %d cluster and cabinet elements", el, R->generators,
                TRV_PLATFORM_MAX_GENERATORS);
    return;
  }
  if (!radical) {
    reader_fail(R, R->tag, "<%s> without radical; expected radical=\"0-99\"", el);
    return;
  }
  Loc at = attr_loc(R, "radical");
  uint64_t count, largest;
  char *shown = trv_scn_shorten(radical, TRV_SCENARIO_MAX_NAME);
  if (!radical_count(radical, &count, &largest))
    reader_fail(R, at, "radical=\"%s\" on <%s>; expected ranges of numbers like \"0-99,120\"", shown, el);
  else if (room_for_hosts(R, at, el, count) && largest > INT32_MAX) /* SimGrid reads each number as an int */
    reader_fail(R, at, "radical=\"%s\" on <%s> holds %llu; expected numbers up to 2147483647", shown, el,
                (unsigned long long)largest);
  g_free(shown);
  if (R->error) return;
  char digits[24];
  size_t name_len = strlen(prefix) + strlen(suffix) + (size_t)g_snprintf(digits, sizeof digits, "%llu",
                                                                          (unsigned long long)largest);
  if (name_len > TRV_PLATFORM_MAX_NAME) {
    reader_fail(R, R->tag, "<%s> generates host names of %zu bytes; expected names of at most %d bytes", el, name_len,
                TRV_PLATFORM_MAX_NAME);
    return;
  }
  const char *p = radical;
  uint64_t lo, hi;
  while (!R->error && radical_term(&p, &lo, &hi))
    for (uint64_t n = lo; !R->error && n <= hi; n++)
      add_host(R, g_strdup_printf("%s%llu%s", prefix, (unsigned long long)n, suffix), el);
}

/* ---- what a platform may not say ---- */

/* A "file" or "*_file" attribute names a profile SimGrid reads: it must be
 * a regular file (a FIFO or device would hang the run) of bounded size.
 * stat, not open: nothing is read here. */
static void check_profile_file(PlatformReader *R, const char *el, const char *name, const char *value) {
  char *path = value[0] && strlen(value) <= TRV_SCENARIO_MAX_PATH ? g_canonicalize_filename(value, R->base_dir) : NULL;
  struct stat st;
  const char *kind = NULL;
  char *found = NULL;
  if (!value[0]) found = g_strdup("is empty");
  else if (!path) found = g_strdup_printf("is %zu bytes long (at most %d)", strlen(value), TRV_SCENARIO_MAX_PATH);
  else if (stat(path, &st) != 0) found = g_strdup_printf("(resolved to %s) cannot be read (%s)", path, g_strerror(errno));
  else if ((kind = trv_scn_stat_kind(&st))) found = g_strdup_printf("(resolved to %s) is %s", path, kind);
  else if ((unsigned long long)st.st_size > TRV_PLATFORM_MAX_BYTES)
    found = g_strdup_printf("(resolved to %s) is %lld bytes", path, (long long)st.st_size);
  char *shown = trv_scn_shorten(value, TRV_PLATFORM_MAX_NAME);
  if (found)
    reader_fail(R, attr_loc(R, name), "%s=\"%s\" on <%s> %s; expected a regular file of at most %d bytes, relative to "
                "the platform file", name, shown, el, found, TRV_PLATFORM_MAX_BYTES);
  g_free(shown);
  g_free(found);
  g_free(path);
}

static void check_config_setting(PlatformReader *R, const XML_Char **atts) {
  const char *key = attr(atts, "id");
  for (int i = 0; key && model_settings[i]; i++)
    if (g_str_has_prefix(key, model_settings[i])) return;
  char *shown = trv_scn_shorten(key ? key : "", TRV_SCENARIO_MAX_NAME);
  reader_fail(R, key ? attr_loc(R, "id") : R->tag, "<config> setting '%s'; expected only model settings (network/, cpu/, "
              "host/, disk/, maxmin/, precision/, bmf/, surf/): a platform never sets output files, plugins, search "
              "paths or Trivium's settings (give them on the command line)", shown);
  g_free(shown);
}

/* ---- Expat handlers ---- */

static void XMLCALL on_start(void *data, const XML_Char *el, const XML_Char **atts) {
  PlatformReader *R = data;
  if (R->error) return;
  R->tag = here(R);
  R->tag_offset = XML_GetCurrentByteIndex(R->parser);
  size_t bad;
  char *ref;
  if (!trv_scn_tag_references_ok(R->buf, R->len, R->tag_offset, &bad, &ref)) {
    reader_fail(R, trv_scn_offset_loc(R->buf, R->len, bad), "reference to undeclared entity '%s'; expected only the "
                "predefined entities and character references", ref);
    g_free(ref);
    return;
  }
  R->depth++;
  if (R->depth == 1) {
    if (strcmp(el, "platform")) {
      char *shown = trv_scn_shorten(el, TRV_SCENARIO_MAX_NAME);
      reader_fail(R, R->tag, "root element <%s>; expected SimGrid's <platform version=\"4.1\">", shown);
      g_free(shown);
    }
    return;
  }
  for (int i = 0; atts[i] && !R->error; i += 2)
    if (!strcmp(atts[i], "file") || g_str_has_suffix(atts[i], "_file")) check_profile_file(R, el, atts[i], atts[i + 1]);
  if (R->error) return;
  const char *id = attr(atts, "id");
  if (!strcmp(el, "host") || !strcmp(el, "peer")) {
    if (!id) {
      reader_fail(R, R->tag, "<%s> without id; expected <%s id=\"NAME\" ...>", el, el);
      return;
    }
    if (!name_ok(R, el, id) || !room_for_hosts(R, R->tag, el, 1)) return;
    add_host(R, g_strdup(id), el);
    if (R->error) return;
    if (!strcmp(el, "host") && R->host_depth < 0) {
      R->host_depth = R->depth;
      R->host_index = R->names->hosts->len - 1;
    }
  } else if (!strcmp(el, "cluster") || !strcmp(el, "cabinet")) {
    R->names->links_complete = false;
    add_generated_hosts(R, el, atts);
  } else if (!strcmp(el, "link") || !strcmp(el, "backbone")) {
    if (!id || !name_ok(R, el, id)) return;
    if (R->names->links->len >= TRV_PLATFORM_MAX_LINKS) {
      reader_fail(R, R->tag, "<%s> number %u; expected at most %d links", el, R->names->links->len + 1,
                  TRV_PLATFORM_MAX_LINKS);
      return;
    }
    g_ptr_array_add(R->names->links, g_strdup(id));
  } else if (!strcmp(el, "config")) {
    if (R->config_depth < 0) R->config_depth = R->depth;
  } else if (!strcmp(el, "prop") && R->config_depth >= 0) {
    check_config_setting(R, atts); /* at any depth: SimGrid's DTD nests nothing there, but this reader does not validate */
  } else if (!strcmp(el, "prop") && R->host_depth >= 0 && R->depth == R->host_depth + 1 && id &&
             !strcmp(id, "trivium.role")) {
    const char *value = attr(atts, "value");
    g_free(R->names->roles->pdata[R->host_index]);
    R->names->roles->pdata[R->host_index] = g_strdup(value ? value : "");
  } else if (!strcmp(el, "actor") || !strcmp(el, "process")) {
    reader_fail(R, R->tag, "<%s> in a platform; expected resources only (Trivium starts the actors of a run itself)",
                el);
  }
}

static void XMLCALL on_end(void *data, const XML_Char *el) {
  PlatformReader *R = data;
  (void)el;
  if (R->error) return;
  if (R->depth == R->host_depth) R->host_depth = -1;
  if (R->depth == R->config_depth) R->config_depth = -1;
  R->depth--;
}

/* Expat reports a declaration's last token; the user wants its "<!". */
static Loc declaration_loc(const PlatformReader *R) {
  XML_Index off = XML_GetCurrentByteIndex(R->parser);
  if (off < 0 || (size_t)off > R->len) return here(R);
  while (off > 0 && strncmp(R->buf + off, "<!", 2)) off--;
  return trv_scn_offset_loc(R->buf, R->len, (size_t)off);
}

static void XMLCALL on_entity_decl(void *data, const XML_Char *name, int is_parameter, const XML_Char *value,
                                   int value_length, const XML_Char *base, const XML_Char *system_id,
                                   const XML_Char *public_id, const XML_Char *notation) {
  PlatformReader *R = data;
  (void)value, (void)value_length, (void)base, (void)public_id, (void)notation;
  char *shown = trv_scn_shorten(name, TRV_SCENARIO_MAX_NAME);
  reader_fail(R, declaration_loc(R), "declaration of %s%s entity '%s'; expected no entity declarations (a platform "
              "never defines or loads entities)", system_id ? "external " : "", is_parameter ? "parameter" : "general",
              shown);
  g_free(shown);
}

static void XMLCALL on_skipped_entity(void *data, const XML_Char *name, int is_parameter) {
  PlatformReader *R = data;
  char *shown = trv_scn_shorten(name, TRV_SCENARIO_MAX_NAME);
  reader_fail(R, here(R), "reference to undeclared %sentity '%s'; expected only the predefined entities and "
              "character references", is_parameter ? "parameter " : "", shown);
  g_free(shown);
}

static int XMLCALL on_external_entity(XML_Parser parser, const XML_Char *context, const XML_Char *base,
                                      const XML_Char *system_id, const XML_Char *public_id) {
  PlatformReader *R = XML_GetUserData(parser);
  (void)context, (void)base, (void)public_id;
  char *shown = trv_scn_shorten(system_id ? system_id : "", TRV_SCENARIO_MAX_NAME);
  reader_fail(R, here(R), "reference to external entity '%s'; expected no external entities (they are never loaded)",
              shown);
  g_free(shown);
  return XML_STATUS_ERROR;
}

/* ---- entry points ---- */

TrvPlatformNames *trv_platform_names_read_from_memory(const char *xml, size_t len, const char *name,
                                                      const char *base_dir, GError **error) {
  if (len > TRV_PLATFORM_MAX_BYTES) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: the platform is %zu bytes; expected at most %d bytes", name,
                len, TRV_PLATFORM_MAX_BYTES);
    return NULL;
  }
  TrvPlatformNames *names = g_new0(TrvPlatformNames, 1);
  names->hosts = g_ptr_array_new_with_free_func(g_free);
  names->roles = g_ptr_array_new_with_free_func(g_free);
  names->links = g_ptr_array_new_with_free_func(g_free);
  names->links_complete = true;
  PlatformReader R = {.name = name, .buf = xml, .len = len, .names = names, .tag_offset = -1, .host_depth = -1,
                      .config_depth = -1};
  R.base_dir = g_canonicalize_filename(base_dir ? base_dir : ".", NULL);
  R.host_lines = g_hash_table_new(g_str_hash, g_str_equal); /* keys belong to names->hosts */
  R.parser = XML_ParserCreate("UTF-8");
  XML_SetUserData(R.parser, &R);
  XML_SetElementHandler(R.parser, on_start, on_end);
  XML_SetEntityDeclHandler(R.parser, on_entity_decl);
  XML_SetSkippedEntityHandler(R.parser, on_skipped_entity);
  XML_SetExternalEntityRefHandler(R.parser, on_external_entity);
  XML_SetParamEntityParsing(R.parser, XML_PARAM_ENTITY_PARSING_NEVER);
  R.parsing = true;
  enum XML_Status st = XML_Parse(R.parser, xml, (int)len, XML_TRUE);
  R.parsing = false;
  if (st != XML_STATUS_OK && !R.error)
    reader_fail(&R, here(&R), "malformed XML (%s); expected a SimGrid platform in XML",
                XML_ErrorString(XML_GetErrorCode(R.parser)));
  XML_ParserFree(R.parser);
  g_hash_table_destroy(R.host_lines);
  g_free(R.base_dir);
  if (R.error) {
    g_propagate_error(error, R.error);
    trv_platform_names_free(names);
    return NULL;
  }
  return names;
}

TrvPlatformNames *trv_platform_names_read(const char *path, GError **error) {
  /* the name first: a file SimGrid would load as a library is not even opened */
  if (!g_str_has_suffix(path, ".xml")) {
    char *printable = trv_scn_printable(path);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: the platform's name does not end in .xml; expected a SimGrid "
                "platform in XML (SimGrid would load any other file as a shared library)", printable);
    g_free(printable);
    return NULL;
  }
  char *xml;
  size_t len;
  if (!trv_scn_read_input(path, TRV_PLATFORM_MAX_BYTES, "platform", &xml, &len, error)) return NULL;
  char *dir = g_path_get_dirname(path);
  TrvPlatformNames *names = trv_platform_names_read_from_memory(xml, len, path, dir, error);
  g_free(dir);
  g_free(xml);
  return names;
}

bool trv_platform_file_check(const char *path, GError **error) {
  TrvPlatformNames *names = trv_platform_names_read(path, error);
  trv_platform_names_free(names);
  return names != NULL;
}

void trv_platform_names_free(TrvPlatformNames *names) {
  if (!names) return;
  g_ptr_array_free(names->hosts, TRUE);
  g_ptr_array_free(names->roles, TRUE);
  g_ptr_array_free(names->links, TRUE);
  g_free(names);
}
