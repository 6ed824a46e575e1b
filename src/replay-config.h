/* replay-config.h - the run a run.json describes (replay-config.c), for
 * `trivium run --replay-config`. */
#ifndef TRV_REPLAY_CONFIG_H
#define TRV_REPLAY_CONFIG_H

#include <glib.h>
#include <stdbool.h>

#include "core/params.h"
#include "scenario/scenario.h"
#include "sim/sim.h"

typedef struct {
  char *scenario, *platform;     /* paths whose bytes still have the recorded SHA-256 */
  char **sets;                   /* KEY=VALUE for every resolved parameter (NULL-terminated) */
  GArray *faults;                /* TrvFaultSpec of the point (patterns owned) */
  char **simgrid_args;           /* --cfg=... / --log=... (NULL-terminated) */
  char *controllers;             /* comma-separated */
  char *role_hosts[TRV_N_ROLES]; /* patterns, or NULL for the trivium.role property */
} TrvReplayConfig;

/* Reads and checks `file` (a run.json of a complete run); false with
 * *error (TRV_ERROR_INPUT, naming the file) on anything else, or when a
 * file it names no longer has the recorded SHA-256. */
bool trv_replay_config_load(const char *file, TrvReplayConfig *rc, GError **error);
void trv_replay_config_clear(TrvReplayConfig *rc);
/* The SHA-256 (hex) of a regular file of at most 256 MiB (the largest input
 * a run reads), or NULL: what run.json records and a replay checks. */
char *trv_file_sha256(const char *path);

#endif
