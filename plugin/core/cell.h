/* cell.h - one cell of a run: one world seed under one controller for all
 * its episodes.  trv_cell_run_direct() plays the episode protocol of
 * controller.h without a simulator (every commit succeeds at once); the
 * SimGrid attachment plays the same protocol through actors and messages
 * and must give identical readouts (tested).  Rows are appended to `rows`
 * (TrvEpisodeRow); committed records, if `log` is not NULL, to `log`. */
#ifndef TRV_CELL_H
#define TRV_CELL_H

#include "controller.h"

typedef struct {
  const TrvParams *params;
  const TrvWorldClass *world_class;
  const char *controller;
  uint64_t seed;
  TrvPosterior **final_posterior; /* if not NULL: receives a copy of the final posterior */
} TrvCellSpec;

bool trv_cell_run_direct(const TrvCellSpec *spec, GArray *rows, GArray *log, GError **error);

#endif
