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
 * directly inside a <host>, the profile files its attributes name (a run
 * copies them); <config> settings, actors and the attributes naming
 * profile files.  Like the scenario loader it reads through the
 * hardened Expat reader (xml.c): UTF-8, never an external entity, no entity
 * declarations or undeclared references, one error path.
 *
 * Invariants: the first error wins and stops the parser; every count is
 * checked against its limit (scenario.h) before the names it stands for are
 * made, so that a radical "0-4294967295" costs one comparison, not a loop;
 * host names are unique (SimGrid refuses a second host of the same name). */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "core/input.h"
#include "scenario-internal.h"

/* Prefixes of the SimGrid settings a platform's <config> may set: the
 * resource models and their numerics.  Everything else (tracing/filename,
 * path, plugin, contexts/..., smpi/..., model-check/..., trivium/...) could
 * choose a file the run writes, code it loads or Trivium's own settings. */
static const char *const model_settings[] = {"network/",   "cpu/", "host/", "disk/", "maxmin/",
                                             "precision/", "bmf/", "surf/", NULL};

/* The reader's state; its TrvXmlReader comes first, so that Expat's user
 * data is both (see xml.h). */
typedef struct {
  TrvXmlReader xml;
  char *base_dir; /* profile files are relative to it */
  TrvPlatformNames *names;
  GHashTable *host_lines; /* host name -> line of its declaration */
  GHashTable *profiles;   /* the profile files so far (keys belong to names->profiles) */
  int depth;
  int host_depth, config_depth; /* depth of the outermost open <host>, <config>, or -1 */
  guint host_index;             /* that <host>'s index in names->hosts */
  unsigned generators;          /* cluster and cabinet elements so far */
} PlatformReader;

static const char *attr(const XML_Char **atts, const char *name) {
  for (int i = 0; atts[i]; i += 2)
    if (!strcmp(atts[i], name)) return atts[i + 1];
  return NULL;
}

/* ---- names ---- */

static bool name_ok(PlatformReader *R, const char *el, const char *id) {
  if (strlen(id) <= TRV_PLATFORM_MAX_NAME) return true;
  trv_xml_fail(&R->xml, trv_xml_attr_loc(&R->xml, "id"), "id of %zu bytes on <%s>; expected a name of at most %d bytes",
               strlen(id), el, TRV_PLATFORM_MAX_NAME);
  return false;
}

/* Adds host `name` (taken), declared by the element at R->xml.tag. */
static void add_host(PlatformReader *R, char *name, const char *el) {
  gpointer first = g_hash_table_lookup(R->host_lines, name);
  if (first) {
    trv_xml_fail(&R->xml, R->xml.tag, "<%s> declares host '%s' again (first at line %d); expected every host name once",
                 el, name, GPOINTER_TO_INT(first));
    g_free(name);
    return;
  }
  g_hash_table_insert(R->host_lines, name, GINT_TO_POINTER(R->xml.tag.line));
  g_ptr_array_add(R->names->hosts, name); /* the table's key and the array share it; the array frees it */
  g_ptr_array_add(R->names->roles, NULL);
}

static bool room_for_hosts(PlatformReader *R, Loc at, const char *el, uint64_t more) {
  if (more <= (uint64_t)(TRV_PLATFORM_MAX_HOSTS - R->names->hosts->len)) return true;
  trv_xml_fail(&R->xml, at, "<%s> brings the platform to %llu hosts; expected at most %d hosts", el,
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
  if (**p == ',' && (*p)[1] != '\0')
    (*p)++;
  else if (**p != '\0')
    return false;
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
    trv_xml_fail(&R->xml, R->xml.tag, "<%s> number %u; expected at most %d cluster and cabinet elements", el,
                 R->generators, TRV_PLATFORM_MAX_GENERATORS);
    return;
  }
  if (!radical) {
    trv_xml_fail(&R->xml, R->xml.tag, "<%s> without radical; expected radical=\"0-99\"", el);
    return;
  }
  Loc at = trv_xml_attr_loc(&R->xml, "radical");
  uint64_t count, largest;
  char *shown = trv_scn_shorten(radical, TRV_SCENARIO_MAX_NAME);
  if (!radical_count(radical, &count, &largest))
    trv_xml_fail(&R->xml, at, "radical=\"%s\" on <%s>; expected ranges of numbers like \"0-99,120\"", shown, el);
  else if (room_for_hosts(R, at, el, count) && largest > INT32_MAX) /* SimGrid reads each number as an int */
    trv_xml_fail(&R->xml, at, "radical=\"%s\" on <%s> holds %llu; expected numbers up to 2147483647", shown, el,
                 (unsigned long long)largest);
  g_free(shown);
  if (R->xml.error) return;
  char digits[24];
  size_t name_len =
      strlen(prefix) + strlen(suffix) + (size_t)g_snprintf(digits, sizeof digits, "%llu", (unsigned long long)largest);
  if (name_len > TRV_PLATFORM_MAX_NAME) {
    trv_xml_fail(&R->xml, R->xml.tag, "<%s> generates host names of %zu bytes; expected names of at most %d bytes", el,
                 name_len, TRV_PLATFORM_MAX_NAME);
    return;
  }
  const char *p = radical;
  uint64_t lo, hi;
  while (!R->xml.error && radical_term(&p, &lo, &hi))
    for (uint64_t n = lo; !R->xml.error && n <= hi; n++)
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
  if (!value[0])
    found = g_strdup("is empty");
  else if (!path)
    found = g_strdup_printf("is %zu bytes long (at most %d)", strlen(value), TRV_SCENARIO_MAX_PATH);
  else if (stat(path, &st) != 0)
    found = g_strdup_printf("(resolved to %s) cannot be read (%s)", path, g_strerror(errno));
  else if ((kind = trv_input_file_kind(&st)))
    found = g_strdup_printf("(resolved to %s) is %s", path, kind);
  else if ((unsigned long long)st.st_size > TRV_PLATFORM_MAX_BYTES)
    found = g_strdup_printf("(resolved to %s) is %lld bytes", path, (long long)st.st_size);
  char *shown = trv_scn_shorten(value, TRV_PLATFORM_MAX_NAME);
  if (found)
    trv_xml_fail(&R->xml, trv_xml_attr_loc(&R->xml, name),
                 "%s=\"%s\" on <%s> %s; expected a regular file of at most %d bytes, relative to "
                 "the platform file",
                 name, shown, el, found, TRV_PLATFORM_MAX_BYTES);
  else if (!g_hash_table_contains(R->profiles, path) && R->names->profiles->len >= TRV_PLATFORM_MAX_PROFILES)
    trv_xml_fail(&R->xml, trv_xml_attr_loc(&R->xml, name),
                 "%s=\"%s\" on <%s> is profile file number %u; expected "
                 "at most %d distinct profile files",
                 name, shown, el, R->names->profiles->len + 1, TRV_PLATFORM_MAX_PROFILES);
  else if (!g_hash_table_contains(R->profiles, path)) { /* each once; a run keeps a copy of it (docs/outputs.md) */
    g_hash_table_add(R->profiles, path);
    g_ptr_array_add(R->names->profiles, g_steal_pointer(&path));
  }
  g_free(shown);
  g_free(found);
  g_free(path);
}

static void check_config_setting(PlatformReader *R, const XML_Char **atts) {
  const char *key = attr(atts, "id");
  for (int i = 0; key && model_settings[i]; i++)
    if (g_str_has_prefix(key, model_settings[i])) return;
  char *shown = trv_scn_shorten(key ? key : "", TRV_SCENARIO_MAX_NAME);
  trv_xml_fail(&R->xml, key ? trv_xml_attr_loc(&R->xml, "id") : R->xml.tag,
               "<config> setting '%s'; expected only "
               "model settings (network/, cpu/, host/, disk/, maxmin/, precision/, bmf/, surf/): a platform never sets "
               "output files, plugins, search paths or Trivium's settings (give them on the command line)",
               shown);
  g_free(shown);
}

/* ---- Expat handlers ---- */

static void XMLCALL on_start(void *data, const XML_Char *el, const XML_Char **atts) {
  PlatformReader *R = data;
  if (!trv_xml_start_tag(&R->xml)) return;
  R->depth++;
  if (R->depth == 1) {
    if (strcmp(el, "platform")) {
      char *shown = trv_scn_shorten(el, TRV_SCENARIO_MAX_NAME);
      trv_xml_fail(&R->xml, R->xml.tag, "root element <%s>; expected SimGrid's <platform version=\"4.1\">", shown);
      g_free(shown);
    }
    return;
  }
  for (int i = 0; atts[i] && !R->xml.error; i += 2)
    if (!strcmp(atts[i], "file") || g_str_has_suffix(atts[i], "_file")) check_profile_file(R, el, atts[i], atts[i + 1]);
  if (R->xml.error) return;
  const char *id = attr(atts, "id");
  if (!strcmp(el, "host") || !strcmp(el, "peer")) {
    if (!id) {
      trv_xml_fail(&R->xml, R->xml.tag, "<%s> without id; expected <%s id=\"NAME\" ...>", el, el);
      return;
    }
    if (!name_ok(R, el, id) || !room_for_hosts(R, R->xml.tag, el, 1)) return;
    add_host(R, g_strdup(id), el);
    if (R->xml.error) return;
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
      trv_xml_fail(&R->xml, R->xml.tag, "<%s> number %u; expected at most %d links", el, R->names->links->len + 1,
                   TRV_PLATFORM_MAX_LINKS);
      return;
    }
    g_ptr_array_add(R->names->links, g_strdup(id));
  } else if (!strcmp(el, "config")) {
    if (R->config_depth < 0) R->config_depth = R->depth;
  } else if (!strcmp(el, "prop") && R->config_depth >= 0) {
    check_config_setting(R,
                         atts); /* at any depth: SimGrid's DTD nests nothing there, but this reader does not validate */
  } else if (!strcmp(el, "prop") && R->host_depth >= 0 && R->depth == R->host_depth + 1 && id &&
             !strcmp(id, "trivium.role")) {
    const char *value = attr(atts, "value");
    g_free(R->names->roles->pdata[R->host_index]);
    R->names->roles->pdata[R->host_index] = g_strdup(value ? value : "");
  } else if (!strcmp(el, "actor") || !strcmp(el, "process")) {
    trv_xml_fail(&R->xml, R->xml.tag,
                 "<%s> in a platform; expected resources only (Trivium starts the actors of a run itself)", el);
  }
}

static void XMLCALL on_end(void *data, const XML_Char *el) {
  PlatformReader *R = data;
  (void)el;
  if (R->xml.error) return;
  if (R->depth == R->host_depth) R->host_depth = -1;
  if (R->depth == R->config_depth) R->config_depth = -1;
  R->depth--;
}

/* ---- entry points ---- */

TrvPlatformNames *trv_platform_names_read_from_memory(const char *xml, size_t len, const char *name,
                                                      const char *base_dir, GError **error) {
  TrvPlatformNames *names = g_new0(TrvPlatformNames, 1);
  names->hosts = g_ptr_array_new_with_free_func(g_free);
  names->roles = g_ptr_array_new_with_free_func(g_free);
  names->links = g_ptr_array_new_with_free_func(g_free);
  names->profiles = g_ptr_array_new_with_free_func(g_free);
  names->links_complete = true;
  PlatformReader R = {.names = names, .host_depth = -1, .config_depth = -1};
  R.base_dir = g_canonicalize_filename(base_dir ? base_dir : ".", NULL);
  R.host_lines = g_hash_table_new(g_str_hash, g_str_equal); /* keys belong to names->hosts */
  R.profiles = g_hash_table_new(g_str_hash, g_str_equal);
  trv_xml_open(&R.xml, &R, "platform", name, xml, len, on_start, on_end, NULL);
  trv_xml_parse(&R.xml, TRV_PLATFORM_MAX_BYTES, "a SimGrid platform in XML");
  trv_xml_close(&R.xml);
  g_hash_table_destroy(R.host_lines);
  g_hash_table_destroy(R.profiles);
  g_free(R.base_dir);
  if (R.xml.error) {
    g_propagate_error(error, R.xml.error);
    trv_platform_names_free(names);
    return NULL;
  }
  return names;
}

TrvPlatformNames *trv_platform_names_read(const char *path, GError **error) {
  /* the name first: a file SimGrid would load as a library is not even opened */
  if (!g_str_has_suffix(path, ".xml")) {
    char *printable = trv_scn_printable(path);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: the platform's name does not end in .xml; expected a SimGrid "
                "platform in XML (SimGrid would load any other file as a shared library)",
                printable);
    g_free(printable);
    return NULL;
  }
  TrvScnInput in;
  if (!trv_scn_input_read(path, TRV_PLATFORM_MAX_BYTES, "platform", &in, error)) return NULL;
  TrvPlatformNames *names = trv_platform_names_read_from_memory(in.text, in.len, path, in.dir, error);
  trv_scn_input_free(&in);
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
  g_ptr_array_free(names->profiles, TRUE);
  g_free(names);
}
