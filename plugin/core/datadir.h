/* datadir.h - where Trivium's shipped files are found: scenarios,
 * platforms, calibration tables.
 *
 * Candidates, in order: $TRIVIUM_DATADIR; then, for an installed library
 * (or the installed `trivium`, which links the library's layers in), the
 * installed data directory before the source tree it was built from, and
 * for a library run from its build tree the other way round (so the
 * installed `trivium` reads its installed scenarios even when the source
 * tree is still there, and a developer's build reads the files being
 * edited).  A candidate is used when the file exists there. */
#ifndef TRV_DATADIR_H
#define TRV_DATADIR_H

#include <glib.h>

/* The path of DIR/NAME (e.g. "scenarios", "default.xml"), or NULL; caller
 * frees.  If tried is not NULL it receives the candidates, "; "-separated
 * (caller frees), for a message. */
char *trv_find_data(const char *dir, const char *name, char **tried);

/* The name by which trv_find_data finds the file at `path` (e.g.
 * "data/urs/sf.cal": DIR/NAME below the candidate it is in), or NULL when
 * no search by name finds that file.  Caller frees. */
char *trv_data_name(const char *path);

#endif
