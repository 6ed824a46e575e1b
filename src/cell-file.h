/* cell-file.h - what a finished cell leaves for the merge: its reduction
 * (the per-seed metrics) next to its episodes.csv lines, stamped with the
 * cell's configuration, so that a later run, a job of a cluster array or
 * `trivium merge` can tell a complete cell of this very configuration from
 * a missing, damaged or foreign one (cell-file.c). */
#ifndef TRV_CELL_FILE_H
#define TRV_CELL_FILE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/results.h"

#define TRV_CELL_MAGIC "TRVCELL1"
#define TRV_SHA256_HEX 64

/* OUT/<point>/cells/<controller>-seed<N>.sum, written whole (temporary
 * name, fsync, rename) after the cell's .csv is in place. */
typedef struct {
  char magic[8];                            /* TRV_CELL_MAGIC, no terminator */
  uint32_t size;                            /* sizeof(TrvCellFile): the build that wrote it */
  uint32_t reserved;                        /* 0 */
  char fingerprint[TRV_SHA256_HEX + 1];     /* trv_cell_fingerprint of the cell */
  char csv_sha256[TRV_SHA256_HEX + 1];      /* of the cell's .csv lines */
  char pad[6];                              /* 0 */
  uint64_t csv_bytes;                       /* length of the .csv */
  TrvCellSummary sum;
  double controller_cpu;                    /* seconds in the controller's own calls (timing, not a result) */
} TrvCellFile;

/* The fingerprint of one cell: SHA-256 of `point` (the text that fixes a
 * point of a run: trv_point_identity in run-pool.c), the controller and the
 * seed. */
char *trv_cell_fingerprint(const char *point, const char *controller, uint64_t seed);

/* Checks `len` bytes read from `file` as a cell file of the cell whose
 * fingerprint is `fingerprint` and whose layout is (at most `episodes`
 * rows, components, world metrics); fills *out.  False with *error (TRV_ERROR_INPUT, naming the
 * file and what was expected) on anything else: another size or magic (a
 * file of another build or not a cell file at all), another configuration,
 * a reduction whose counts do not fit the layout. */
bool trv_cell_file_parse(const char *file, const void *data, size_t len, const char *fingerprint, int episodes,
                         int n_components, int n_world_metrics, TrvCellFile *out, GError **error);

#endif
