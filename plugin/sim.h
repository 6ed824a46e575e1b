/* sim.h - the SimGrid attachment: run one cell as a simulation.
 * This header is SimGrid-free so that the command line can include it; only
 * sim-*.c include SimGrid's headers. */
#ifndef TRV_SIM_H
#define TRV_SIM_H

#include <glib.h>
#include <stdbool.h>

#include "cell.h"

typedef struct {
  const char *platform;           /* SimGrid platform XML with trivium.role hosts */
  const char *const *simgrid_args; /* --cfg=... / --log=... passed to SimGrid */
  size_t n_simgrid_args;
  double commit_timeout; /* seconds of simulated time per send/ack */
  int commit_retries;    /* retries after the first attempt */
  double step_flops;     /* compute of one agent step */
  double probe_flops;    /* extra compute of one probe */
} TrvSimOptions;

/* Runs the cell in this process (SimGrid can be initialised once per
 * process: call at most once).  Rows as trv_cell_run_direct; committed
 * records to log if not NULL.  Errors: TRV_ERROR_INPUT for bad input,
 * TRV_ERROR_IO when the simulation ended early (deadlock). */
bool trv_sim_run_cell(const TrvCellSpec *spec, const TrvSimOptions *opt, GArray *rows, GArray *log, GError **error);

#endif
