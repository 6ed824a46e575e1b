/* jobs-file.h - OUT/jobs.json, the manifest `trivium run --emit` writes next
 * to its job list and `trivium merge OUT` reads (jobs-file.c): the
 * directory the run was launched from and its command line, so that the
 * merge rebuilds the same run. */
#ifndef TRV_JOBS_FILE_H
#define TRV_JOBS_FILE_H

#include <glib.h>
#include <stdbool.h>

#define TRV_JOBS_FORMAT "trivium-jobs-1"

typedef struct {
  char *directory; /* absolute: where the command's relative paths start */
  char **command;  /* "run", then the run's arguments (NULL-terminated) */
  long cells;      /* cells of the run */
} TrvJobsFile;

bool trv_jobs_file_write(const char *path, const char *directory, const char *program, char **command, long cells,
                         int chunk, long jobs, GError **error);
/* Reads and checks a manifest; false with *error (TRV_ERROR_INPUT, naming
 * the file and what was expected) on anything else. */
bool trv_jobs_file_load(const char *path, TrvJobsFile *jf, GError **error);
void trv_jobs_file_clear(TrvJobsFile *jf);

#endif
