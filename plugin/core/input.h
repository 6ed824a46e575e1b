/* input.h - reading a file a user hands us: every reader of the project
 * (scenarios and platforms, calibration tables and raw traces, job-shop
 * instances, LLM replay files) takes its bytes from here.
 *
 * An input is data of bounded size.  It is opened without blocking (an
 * open of a FIFO would wait for a writer) and examined with fstat on the
 * opened descriptor, so the file examined is the file read.  A regular
 * file larger than the reader's limit is refused before a byte is read;
 * a pipe (when the reader takes one) has no size and is read until EOF,
 * and no input is ever read past limit + 1 bytes: a file that grows while
 * it is read, or a /proc file that reports size 0, is refused the same
 * way.  Directories and devices are refused (a device may never end).
 * Messages name the file and what was expected; errors are TRV_ERROR_INPUT
 * (exit code 2), but for a read that fails mid-way (TRV_ERROR_IO). */
#ifndef TRV_CORE_INPUT_H
#define TRV_CORE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <trivium/error.h>

typedef enum {
  TRV_INPUT_REGULAR = 0,     /* a regular file only */
  TRV_INPUT_PIPE_OK = 1 << 0 /* a pipe or FIFO too (a trace streamed in) */
} TrvInputFlags;

/* Reads path whole into *data (NUL-terminated, g_free; *len bytes), at most
 * max_bytes.  what names the input in messages ("scenario", "calibration
 * table", ...): "PATH: the WHAT is a directory; expected a regular file". */
bool trv_input_read(const char *path, size_t max_bytes, const char *what, unsigned flags, char **data, size_t *len,
                    GError **error);

/* "a directory", "a FIFO", "a character device", ... for a file that is
 * not regular; NULL for a regular one. */
const char *trv_input_file_kind(const struct stat *st);

#endif
