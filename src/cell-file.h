/* cell-file.h - what a finished cell leaves for the merge, and how the merge
 * reads it back: the cell's reduction (the per-seed metrics) in its cell
 * file (.sum), stamped with the cell's configuration and sealed with a
 * checksum, next to its episodes.csv lines (.csv), whose length and SHA-256
 * the cell file records; and, when a cell fails, its one-line message
 * (.err).  A later run, a job of a cluster array or `trivium merge` can so
 * tell a complete cell of this very configuration from a missing, damaged
 * or foreign one (cell-file.c).
 *
 * What a reader reports, always naming the file:
 *   TRV_ERROR_CORRUPT  damaged: the bytes are not what a cell wrote (the
 *                      checksum or the SHA-256 fails, a length or a count
 *                      is not the recorded one, not a regular file);
 *   TRV_ERROR_INPUT    not this run's: missing, a cell file of another
 *                      build of trivium or of another configuration of the
 *                      cell (the cell runs again; nothing is wrong);
 *   TRV_ERROR_IO       the system refused a read or a write.
 * The run decides what each means (run-pool.c): a damaged cell found by
 * `trivium run` or a job runs again; in a merge it stops the merge with
 * exit code 2. */
#ifndef TRV_CELL_FILE_H
#define TRV_CELL_FILE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/results.h"

/* The format: TRVCELL1 had no checksum; TRVCELL2 has; TRVCELL4 is
 * TRVCELL2 with the summary's steps_late and bits_lost metrics (a larger
 * TrvCellSummary); TRVCELL7 TRVCELL4 with r_epi_step and r_temp_belief.
 * Files of the earlier formats are "another build" (cell-file.c).  A new
 * magic differs from every earlier one in at least two bits, so that no
 * single flipped bit makes a file read as an earlier build's instead of
 * damaged: "TRVCELL3" is one bit from "TRVCELL2", hence 4; 5 and 6 are one
 * bit from 4, hence 7. */
#define TRV_CELL_MAGIC "TRVCELL7"
#define TRV_SHA256_HEX 64
/* A failed cell's message: the file is read when at most this long, and
 * shown cut to TRV_CELL_MESSAGE_SHOWN bytes of text. */
#define TRV_CELL_MESSAGE_MAX_BYTES 65536
#define TRV_CELL_MESSAGE_SHOWN 1024

/* OUT/<point>/cells/<controller>-seed<N>.sum, written whole (temporary
 * name, fsync, rename) after the cell's .csv is in place.  Every byte of
 * it but the checksum field is covered by the checksum, padding included
 * (the writer zero-fills the struct first). */
typedef struct {
  char magic[8];                        /* TRV_CELL_MAGIC, no terminator */
  uint32_t size;                        /* sizeof(TrvCellFile): the build that wrote it */
  uint32_t checksum;                    /* CRC-32C of every other byte of the file (trv_cell_file_seal) */
  char fingerprint[TRV_SHA256_HEX + 1]; /* trv_cell_fingerprint of the cell */
  char csv_sha256[TRV_SHA256_HEX + 1];  /* of the cell's .csv lines */
  char pad[6];                          /* 0 */
  uint64_t csv_bytes;                   /* length of the .csv */
  TrvCellSummary sum;
  double controller_cpu; /* seconds in the controller's own calls (timing, not a result) */
} TrvCellFile;

/* The fingerprint of one cell: SHA-256 of `point` (the text that fixes a
 * point of a run: trv_point_identity in run-pool.c), the controller and the
 * seed. */
char *trv_cell_fingerprint(const char *point, const char *controller, uint64_t seed);

/* Sets the magic and the size of cf, whose other fields (and padding) are
 * filled, and seals it with its checksum: the last change before it is
 * written. */
void trv_cell_file_seal(TrvCellFile *cf);

/* Checks `len` bytes read from `file` as a cell file of the cell whose
 * fingerprint is `fingerprint` and whose layout is (at most `episodes`
 * rows, components, world metrics); fills *out.  False with *error naming
 * the file and what was expected (codes above): TRV_ERROR_INPUT for a file
 * of another build (another format) or another configuration (another
 * fingerprint), TRV_ERROR_CORRUPT for anything else (a size that is no
 * format's, a checksum that does not match, counts that do not fit the
 * layout).  The checksum is checked before anything it covers is trusted,
 * so no flipped bit makes a file of this build read as another
 * configuration's. */
bool trv_cell_file_parse(const char *file, const void *data, size_t len, const char *fingerprint, int episodes,
                         int n_components, int n_world_metrics, TrvCellFile *out, GError **error);

/* Reads the cell file at `path` (a regular file, not followed through a
 * symbolic link) and checks it with trv_cell_file_parse, then checks that
 * the cell's lines at `csv_path` are a regular file of the length it
 * records.  TRV_ERROR_INPUT "missing" when either does not exist (the cell
 * has not run, or its lines were deleted). */
bool trv_cell_file_read(const char *path, const char *csv_path, const char *fingerprint, int episodes, int n_components,
                        int n_world_metrics, TrvCellFile *out, GError **error);

/* Appends the cell's lines at `path` to `out`: a regular file (not followed
 * through a symbolic link) of exactly `csv_bytes` bytes whose SHA-256 is
 * `csv_sha256` (lower-case hex; NULL: not hashed, for a cell this process
 * has just run, whose own process computed it from the lines it wrote).
 * Never reads past csv_bytes + 1 bytes.  What it appended before finding
 * the lines damaged stays in `out`: the caller discards it. */
bool trv_cell_lines_append(const char *path, uint64_t csv_bytes, const char *csv_sha256, FILE *out, GError **error);

/* The message a failed cell left at `path`, as one printable line: a
 * regular file of at most TRV_CELL_MESSAGE_MAX_BYTES, cut to
 * TRV_CELL_MESSAGE_SHOWN bytes ("..." added), trailing blanks dropped,
 * control characters (newlines included) and bytes that are not UTF-8
 * written as escapes.  NULL when there is no such message (no file,
 * another kind of file, too long, empty): the caller says how the cell
 * ended instead. */
char *trv_cell_message_read(const char *path);

#endif
