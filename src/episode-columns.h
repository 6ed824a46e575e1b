/* episode-columns.h - a point's episodes.csv read back for the columns a
 * world's report names (trivium/report.h; episode-columns.c): per cell
 * (controller, seed), the episodes' values of each column. */
#ifndef TRV_EPISODE_COLUMNS_H
#define TRV_EPISODE_COLUMNS_H

#include <glib.h>
#include <stdio.h>

/* A line of episodes.csv is at most this long (a row is a few hundred
 * bytes); the file at most (rows + 1) lines of it. */
#define TRV_EPISODES_MAX_LINE 65536
/* Most columns one read takes. */
#define TRV_EPISODES_MAX_COLUMNS 64

/* One cell's episodes, in file order. */
typedef struct {
  int controller, seed; /* controller: index in the run's list */
  int n_columns;
  GArray **values; /* per column asked for: double per episode */
} TrvEpisodeColumns;

/* Reads the episodes table at `path`: a regular file (never waited on) of
 * at most (max_rows + 1) * TRV_EPISODES_MAX_LINE bytes, whose header names
 * the columns controller, seed and each of `columns` (NULL-terminated, at
 * most TRV_EPISODES_MAX_COLUMNS), and whose rows (at most max_rows: the
 * run's cells times its episodes) have the header's number of fields, a
 * controller among the n_controllers of `controllers`, a whole seed and a
 * number in each column asked for.  Returns the cells (consecutive rows of
 * one controller and seed) in file order, a GPtrArray that frees them;
 * NULL with *error (TRV_ERROR_INPUT: "PATH:LINE: what was found; what was
 * expected", text from the file quoted printable) otherwise. */
GPtrArray *trv_episode_columns_read(const char *path, const char *const *controllers, int n_controllers,
                                    const char *const *columns, long max_rows, GError **error);
/* The same from a stream `in`, named `name` in messages. */
GPtrArray *trv_episode_columns_read_stream(FILE *in, const char *name, const char *const *controllers,
                                           int n_controllers, const char *const *columns, long max_rows,
                                           GError **error);

#endif
