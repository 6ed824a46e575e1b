/* replay-files.h - the files a run.json names, checked for
 * `trivium run --replay-config` (replay-files.c): where the run read each,
 * or its copy in the run directory (run-inputs.h), whichever still has the
 * SHA-256 the run recorded. */
#ifndef TRV_REPLAY_FILES_H
#define TRV_REPLAY_FILES_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdbool.h>

/* A file run.json names: as recorded, and what was found of it. */
typedef struct {
  char *where;             /* in messages: "scenario_file", "\"faults\"[2].file", ... */
  char *path, *sum, *copy; /* as recorded; copy may be NULL */
  char *kept;              /* the copy below the run directory (run-inputs.h), or NULL */
  char *now, *kept_now;    /* the SHA-256 of path and of kept, once hashed (NULL: unreadable) */
  bool hashed, kept_hashed;
  int fault; /* the index of the fault whose trace it is, or -1 (for the caller) */
} TrvRecordedFile;

/* The node n of the file run_json, named `where` in messages: an object
 * {"path": text, "sha256": text[, "copy": text]} within run.json's text
 * limits whose copy (if any) is a path below the run directory's inputs/.
 * A new TrvRecordedFile (nothing read yet), or NULL with *error
 * (TRV_ERROR_INPUT, naming run_json). */
TrvRecordedFile *trv_recorded_file_new(const char *run_json, JsonNode *n, const char *where, GError **error);
void trv_recorded_file_free(gpointer f);
/* The original's path, or the copy's. */
const char *trv_recorded_file_path(const TrvRecordedFile *f, bool copy);

/* Files read together (the scenario, the platforms, their profiles, the
 * fault traces: they name each other by relative paths) come all from
 * where the run read them, when every one still has its SHA-256, else all
 * from the copies, when every copy has it (*copies says which); never a
 * mix.  False with *error naming the first file that has neither, or the
 * two that keep each set from being whole. */
bool trv_recorded_files_choose(const char *run_json, GPtrArray *files, bool *copies, GError **error);

/* Every profile file the platform to be loaded names (read now) is one of
 * `profiles` (TrvRecordedFile, chosen with the others) as it will be read:
 * its copy when the copies are read, else where the run read it; or, named
 * by an absolute path (which a copy of the platform names too), where the
 * run read it, unchanged.  False with *error otherwise. */
bool trv_recorded_profiles_check(const char *run_json, const char *platform, GPtrArray *profiles, bool copies,
                                 GError **error);

/* A world's data file, inputs[i] of run.json (node n): the file, else its
 * copy, that has the recorded SHA-256, and what hands it to the world: its
 * "parameter" (a text parameter) set to that file among `sets` (KEY=VALUE,
 * replacing the value recorded), or its "data" name (a relative path of
 * plain names) whose directory becomes *data_dir, one for all the data
 * files.  A file recorded with neither is accepted only where the run read
 * it.  False with *error otherwise. */
bool trv_recorded_world_input(const char *run_json, JsonNode *n, guint i, GPtrArray *sets, char **data_dir,
                              GError **error);

#endif
