/* scenario-internal.h - shared by the files of the scenario layer only
 * (scenario.c: the loader's Expat handlers and whole-file checks;
 * elements.c: the language and its element handlers; faults.c: faults and
 * sweeps; paths.c: the rule for output paths; xml.c: the hardened Expat
 * reader, its errors and locations; input.c: reading input files and the
 * message helpers that scenario.c and the platform reader, platform-names.c,
 * both use).  Not part of the API; see scenario.h.
 *
 * The Loader keeps its TrvXmlReader first (see xml.h): Expat hands every
 * handler the Loader, and the reader's own handlers read it as the reader.
 * Every failure of a load goes through trv_xml_fail(&L->xml, ...). */
#ifndef TRV_SCENARIO_INTERNAL_H
#define TRV_SCENARIO_INTERNAL_H

#include <expat.h>
#include <sys/stat.h>

#include "scenario.h"
#include "xml.h"

typedef struct {
  TrvXmlReader xml; /* first: see above */
  char *base_dir;   /* absolute */
  TrvScenario *s;
  char *stack[4]; /* open elements; nothing nests deeper than 3 */
  int depth;
  GHashTable *seen;                 /* element -> line of its first occurrence, for the ones allowed once */
  TrvPlatformNames *platform_names; /* read when <platform> is met */
  int n_patterns;                   /* glob items so far (TRV_SCENARIO_MAX_PATTERNS) */
  Loc root, platform, role[3];
  bool role_given[3], agents_hosts_given;
  GArray *fault_locs;  /* Loc of each fault's pattern attribute (a fault trace's file) */
  size_t trace_events; /* of the scenario's fault traces so far (TRV_FAULT_TRACE_MAX_EVENTS) */
  GArray *sweep_locs;  /* Loc of each sweep's param attribute */
} Loader;

/* "; did you mean 'X'?" or "" (caller frees). */
char *trv_scn_hint(const char *word, const char *const *choices);
/* elements.c: checks and applies one start tag. */
void trv_scn_start_element(Loader *L, const char *el, const XML_Char **atts);
/* elements.c: attribute helpers.  The value of `name` or NULL; the value of
 * a required attribute, or NULL after failing with `usage`; a
 * comma-separated list, blanks trimmed (NULL after failing on an empty list
 * or item; g_strfreev); a list of globs normalised to "a,b" and counted
 * against TRV_SCENARIO_MAX_PATTERNS (NULL after failing). */
const char *trv_scn_attr_value(const XML_Char **atts, const char *name);
const char *trv_scn_required(Loader *L, const char *el, const XML_Char **atts, const char *attr, const char *usage);
char **trv_scn_split_list(Loader *L, const char *el, const char *attr, const char *value, const char *what);
char *trv_scn_patterns(Loader *L, const char *el, const XML_Char **atts, const char *attr, const char *example);
/* faults.c: a fault element inside <faults>, a <sweep>, and the checks of
 * the sweeps that need the whole file (run by finish()). */
void trv_scn_start_fault(Loader *L, const char *el, const XML_Char **atts);
void trv_scn_start_sweep(Loader *L, const XML_Char **atts);
void trv_scn_finish_sweeps(Loader *L);

/* paths.c: an output path a scenario gives (see TrvScenario in scenario.h).
 * Returns the normalised path, or NULL with *found set to what is wrong
 * with it ("is an absolute path", ...; caller frees).  With `suffix`, the
 * last name must end in it. */
char *trv_scn_output_path(const char *value, const char *suffix, char **found);
/* paths.c: an input file a scenario names (<fault-trace file>): relative
 * to the scenario's directory `base_dir` and confined to it, symbolic
 * links included.  Returns the resolved absolute path, or NULL with *found
 * set to what is wrong ("has a '..' component", "leads through a symbolic
 * link to ...", "cannot be resolved: ..."; caller frees). */
char *trv_scn_input_path(const char *value, const char *base_dir, char **found);

/* ---- input.c ---- */

/* An input file read whole, and the directory the relative paths it
 * gives start from (the file's own). */
typedef struct {
  char *text; /* NUL added */
  size_t len;
  char *dir;
} TrvScnInput;
/* Reads the regular file `path` of at most `max_bytes` into *in after
 * checking it with fstat on the opened descriptor; release with
 * trv_scn_input_free().  False with a "PATH: found; expected"
 * TRV_ERROR_INPUT error, `what` naming the file's role ("scenario",
 * "platform"). */
bool trv_scn_input_read(const char *path, size_t max_bytes, const char *what, TrvScnInput *in, GError **error);
void trv_scn_input_free(TrvScnInput *in);

#endif
