/* direct.h - the episode protocol without a simulator: one agent plays
 * every episode in this process and every commit succeeds at once.  The
 * SimGrid attachment plays the same protocol (protocol.h) through actors
 * and messages and must give identical readouts for one agent when nothing
 * fails (tested).  Used by the tests of the core, and to check a world
 * alone. */
#ifndef TRV_DIRECT_H
#define TRV_DIRECT_H

#include "protocol.h"

/* One cell: one seed of one world under one controller, all its episodes. */
typedef struct {
  const TrvParams *params;
  const TrvWorldClass *world_class; /* needs an agent class */
  const char *controller;
  uint64_t seed;
  TrvPosterior **final_posterior; /* if not NULL: receives a copy of the final posterior */
} TrvCellSpec;

/* Rows are appended to `rows` (TrvEpisodeRow); the decided records, if
 * `log` is not NULL, to `log` (TrvRecord, in the order the log stores
 * them).  False with *error on bad parameters, a world without agents or
 * a world that answered out of bounds (world-call.h). */
bool trv_cell_run_direct(const TrvCellSpec *spec, GArray *rows, GArray *log, GError **error);

#endif
