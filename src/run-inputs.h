/* run-inputs.h - a run directory keeps a copy of the files it read
 * (run-inputs.c), so that `--replay-config DIR/run.json` works from a
 * directory copied to another place or machine. */
#ifndef TRV_RUN_INPUTS_H
#define TRV_RUN_INPUTS_H

#include <glib.h>
#include <stdbool.h>

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

#endif
