/* scenario-internal.h - shared by the scenario loader's files only
 * (scenario.c: the Expat driver, locations, errors and whole-file checks;
 * scenario-elements.c: the language and its element handlers).  Not part of
 * the API; see scenario.h. */
#ifndef TRV_SCENARIO_INTERNAL_H
#define TRV_SCENARIO_INTERNAL_H

#include <expat.h>

#include "scenario.h"

typedef struct {
  int line, col;
} Loc;

typedef struct {
  XML_Parser parser;
  bool parsing;
  const char *name, *buf;
  size_t len;
  char *base_dir; /* absolute */
  TrvScenario *s;
  GError *error;
  char *stack[4]; /* open elements; nothing nests deeper than 3 */
  int depth;
  XML_Index tag_offset; /* byte offset of the current start tag */
  Loc tag;
  GHashTable *seen; /* element -> line of its first occurrence, for the ones allowed once */
  Loc root, platform, role[3];
  bool role_given[3], agents_hosts_given;
  GArray *fault_locs; /* Loc of each fault's pattern attribute */
  GArray *sweep_locs; /* Loc of each sweep's param attribute */
} Loader;

/* Fault element names by TrvFaultKind, and the KIND.ATTR sweep keys. */
extern const char *const trv_scn_fault_elements[];
extern const char *const trv_scn_fault_sweep_keys[];

/* Location of attribute `attr` of the current start tag (the tag's own when
 * it is not in the text). */
Loc trv_scn_attr_loc(const Loader *L, const char *attr);
/* Keeps the first error, "FILE:LINE:COLUMN: " + the message, and stops the
 * parser; later calls do nothing. */
void trv_scn_fail(Loader *L, Loc at, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* "; did you mean 'X'?" or "" (caller frees). */
char *trv_scn_hint(const char *word, const char *const *choices);
/* scenario-elements.c: checks and applies one start tag. */
void trv_scn_start_element(Loader *L, const char *el, const XML_Char **atts);

#endif
