/* grounding-read.h - the reader of a point's episodes.csv for its grounding
 * table (grounding.c): per cell (controller, seed), the episodes' reward,
 * ideal, fd_eps and fd_eta and the sums the bound needs
 * (grounding-read.c). */
#ifndef TRV_GROUNDING_READ_H
#define TRV_GROUNDING_READ_H

#include <glib.h>
#include <stdio.h>

/* A line of episodes.csv is at most this long (a row is a few hundred
 * bytes); the file at most (rows + 1) lines of it. */
#define TRV_GROUNDING_MAX_LINE 65536

/* One cell's episodes, in file order. */
typedef struct {
  int controller, seed; /* controller: index in the run's list */
  GArray *v[4];         /* double per episode: reward, ideal, fd_eps, fd_eta */
  double lost, failures, commits; /* sums of delivered - reward, commit_failures, commits */
} TrvGroundingCell;

/* Reads the episodes table at `path`: a regular file (never waited on) of
 * at most (max_rows + 1) * TRV_GROUNDING_MAX_LINE bytes, whose header names
 * the columns controller, seed, reward, commits, commit_failures,
 * delivered, ideal, fd_eps and fd_eta, and whose rows (at most max_rows:
 * the run's cells times its episodes) have the header's number of fields,
 * a controller among the n_controllers of `controllers`, a whole seed and
 * numbers where numbers are read.  Returns the cells (consecutive rows of
 * one controller and seed) in file order, a GPtrArray that frees them; NULL
 * with *error (TRV_ERROR_INPUT: "PATH:LINE: what was found; what was
 * expected", text from the file quoted printable) otherwise. */
GPtrArray *trv_grounding_read(const char *path, const char *const *controllers, int n_controllers, long max_rows,
                              GError **error);
/* The same from a stream `in`, named `name` in messages. */
GPtrArray *trv_grounding_read_stream(FILE *in, const char *name, const char *const *controllers, int n_controllers,
                                     long max_rows, GError **error);

#endif
