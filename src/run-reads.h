/* run-reads.h - the files a point of a run reads beside its scenario,
 * platform and fault traces (run-reads.c): the profile files of the
 * platforms and the world's data files, each absolute, so that run.json
 * records them and the run directory keeps a copy of each (run-inputs.h). */
#ifndef TRV_RUN_READS_H
#define TRV_RUN_READS_H

#include <glib.h>

#include "core/params.h"
#include "run-inputs.h"

/* The profile files the n platforms name (an entry may be NULL or repeat
 * another), each once, absolute, in order; a new NULL-terminated vector
 * (g_strfreev), or NULL with *error (TRV_ERROR_INPUT) when a platform
 * cannot be read. */
char **trv_run_profiles(const char *const *platforms, int n, GError **error);

/* The world's data files (`paths`: what its inputs() returned,
 * NULL-terminated), each made absolute and told how it was found: the
 * text parameter of p whose value names the file, else its name in the
 * data directory.  A GArray of TrvRunInput; free with
 * trv_run_world_inputs_free. */
GArray *trv_run_world_inputs(const TrvParams *p, const char *const *paths);
void trv_run_world_inputs_free(GArray *inputs);

#endif
