/* run-inputs.h - a run directory keeps a copy of the files it read
 * (run-inputs.c), so that `--replay-config DIR/run.json` works from a
 * directory copied to another place or machine. */
#ifndef TRV_RUN_INPUTS_H
#define TRV_RUN_INPUTS_H

#include <glib.h>
#include <stdbool.h>

/* A data file a world read (its inputs()), and how a replay finds it
 * again: through the text parameter whose value named it, else by its name
 * below the data directory it was found in (core/datadir.h). */
typedef struct {
  char *path;      /* absolute */
  char *parameter; /* "world.table", ...: the parameter that named it, or NULL */
  char *data;      /* "data/urs/sf.cal", ...: its name in the data directory, or NULL */
} TrvRunInput;

/* Copies the files `paths` (absolute, NULL-terminated; NULL entries and
 * repeats are skipped) into OUT/inputs/, each at its path relative to the
 * deepest directory that holds them all, so that a relative reference
 * between them (a scenario's platform="../platforms/p.xml", its fault
 * traces) still resolves between the copies.  Each file is read whole (at
 * most max_bytes, a regular file) and written under a temporary name and
 * renamed, never through a link.  Returns path -> "inputs/REL" (the copy,
 * relative to OUT; free with g_hash_table_unref), or NULL with *error. */
GHashTable *trv_run_inputs_copy(const char *out, const char *const *paths, size_t max_bytes, GError **error);

/* The copy that run.json names: `copy` (text from the file) relative to
 * run_dir, when it is a relative path of plain components below inputs/;
 * NULL otherwise.  Free with g_free. */
char *trv_run_inputs_resolve(const char *run_dir, const char *copy);

/* Whether `rel` is a relative path of plain components: not empty, no
 * empty, "." or ".." component, no backslash, at most 4096 bytes. */
bool trv_run_inputs_plain(const char *rel);

#endif
