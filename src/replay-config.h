/* replay-config.h - the run a run.json describes (replay-config.c), for
 * `trivium run --replay-config`. */
#ifndef TRV_REPLAY_CONFIG_H
#define TRV_REPLAY_CONFIG_H

#include <glib.h>
#include <stdbool.h>

#include "core/params.h"
#include "jssp/jssp.h"
#include "llm/llm.h"
#include "scenario/scenario.h"
#include "sim/sim.h"
#include "urs/caltable.h"

/* The largest input a run reads: the largest of its readers' limits, so
 * that every input it recorded can be copied and hashed again. */
#define TRV_RUN_INPUT_MAX_BYTES                                                                                        \
  MAX(MAX((size_t)TRV_SCENARIO_MAX_BYTES, (size_t)TRV_PLATFORM_MAX_BYTES),                                             \
      MAX((size_t)TRV_CAL_MAX_FILE_BYTES, MAX((size_t)TRV_JSSP_MAX_FILE_BYTES, (size_t)TRV_LLM_REPLAY_MAX_BYTES)))

typedef struct {
  char *scenario, *platform;     /* paths whose bytes still have the recorded SHA-256 */
  char **sets;                   /* KEY=VALUE for every resolved parameter (NULL-terminated) */
  GArray *faults;                /* TrvFaultSpec of the point (patterns owned) */
  char **simgrid_args;           /* --cfg=... / --log=... (NULL-terminated) */
  char *controllers;             /* comma-separated */
  char *role_hosts[TRV_N_ROLES]; /* patterns, or NULL for the trivium.role property */
  char *data_dir;                /* where the world's shipped data files are to be found (TRIVIUM_DATADIR), or NULL */
} TrvReplayConfig;

/* Reads and checks `file` (a run.json of a complete run); false with
 * *error (TRV_ERROR_INPUT, naming the file) on anything else, or when a
 * file it names no longer has the recorded SHA-256 and its copy in the run
 * directory (run-inputs.h) has not either.  The scenario, the platforms,
 * their profile files and the fault traces come all from where the run
 * read them (when every one is unchanged) or all from the copies; a
 * world's data file from either, the parameter that named it set to the
 * file chosen (in sets), or data_dir set to where it is found by name. */
bool trv_replay_config_load(const char *file, TrvReplayConfig *rc, GError **error);
void trv_replay_config_clear(TrvReplayConfig *rc);
/* The SHA-256 (hex) of a regular file of at most 256 MiB (the largest input
 * a run reads), or NULL: what run.json records and a replay checks. */
char *trv_file_sha256(const char *path);

#endif
