/* out-file.h - how a run writes its files: inside its own directory, never
 * through a symbolic link (out-file.c). */
#ifndef TRV_OUT_FILE_H
#define TRV_OUT_FILE_H

#include <glib.h>
#include <stdbool.h>

/* Makes sure directory path exists and may be written into.  top: the
 * directory a user named (-o, merge/report DIR, --ctl), created with its
 * parents and allowed to be a link (the user's choice); otherwise a
 * directory of the run below it, created if missing (its parent must
 * exist), and refused when it is a symbolic link or not a directory.
 * False with *error: TRV_ERROR_INPUT naming the path. */
bool trv_out_dir(const char *path, bool top, GError **error);
/* trv_out_dir, then a probe that the directory takes new files: a file
 * .write-test-PID (PID the process's, so that processes probing one
 * directory at once never meet) created and removed.  False with *error:
 * TRV_ERROR_INPUT naming the path (a link at the probe's name is
 * refused). */
bool trv_out_dir_check(const char *path, bool top, GError **error);

/* A new, empty regular file at path (a temporary name, renamed into place
 * later with trv_out_commit), created through its directory's descriptor
 * with O_CREAT | O_EXCL | O_NOFOLLOW; a regular file already there (what
 * an interrupted write left) is removed first, anything else (a symbolic
 * link, a directory, a FIFO) is refused.  Returns the descriptor, or -1
 * with *error (TRV_ERROR_INPUT for a refusal, TRV_ERROR_IO otherwise). */
int trv_out_create(const char *path, GError **error);

/* open(path, flags) that never follows a symbolic link at path (a lock
 * file a run creates in place): -1 with *error, TRV_ERROR_INPUT for a
 * link. */
int trv_out_open(const char *path, int flags, GError **error);

/* Renames tmp over path, unless path is a symbolic link or not a regular
 * file (refused: TRV_ERROR_INPUT); false with *error. */
bool trv_out_commit(const char *tmp, const char *path, GError **error);

/* True when path is absent or a regular file: a file an outside program
 * (gnuplot) is about to write may be written there.  False with *error
 * (TRV_ERROR_INPUT) for a symbolic link or anything else. */
bool trv_out_writable(const char *path, GError **error);

/* Writes text (len bytes, -1: up to its terminator) to path through
 * trv_out_create("PATH.tmp") and trv_out_commit: a reader sees the old
 * file or the new one, never half of one.  mode: the new file's permission
 * bits (0666 goes through the umask; any other mode is set as given, e.g.
 * 0755 for a script). */
bool trv_out_write(const char *path, const char *text, gssize len, int mode, GError **error);

/* trv_out_write with mode 0666 (a data file). */
bool trv_write_file_atomic(const char *path, const char *text, gssize len, GError **error);

#endif
