/* jssp-sim.h - the job shop executed in SimGrid (jssp-sim.c).  No SimGrid
 * type appears here, so callers (the command, the tests) need no SimGrid
 * headers.
 *
 * SimGrid initialises once per process: trv_jssp_sim_run may be called once
 * per process; trv_jssp_sim_run_forked runs it in a child and may be called
 * any number of times. */
#ifndef TRV_JSSP_SIM_H
#define TRV_JSSP_SIM_H

#include "jssp.h"

typedef struct {
  double run_seconds; /* wall time of simgrid_run() alone */
  long messages;      /* messages exchanged by the actors */
} TrvJsspSimStats;

/* Simulates `inst` under `rule` on the platform file `platform` (hosts
 * `dispatcher` and m0..m{M-1} of speed 1 flop/s, as written by
 * trv_jssp_write_platform): one actor per machine on its host executes
 * operations as simulated work, a dispatcher actor applies the rule and the
 * job precedences.  simgrid_args (n of them, may be 0) are passed to
 * simgrid_init (--cfg=..., --log=...).  Fills `out` (from
 * trv_jssp_schedule_new(inst)) with the simulated start/end of every
 * operation and out->makespan = the simulated clock at the end.  Errors:
 * TRV_ERROR_INPUT for a platform that lacks a host or whose machine
 * speed is not 1, TRV_ERROR_IO when messages cost simulated time (the
 * platform is not the zero-cost shop this file assumes) or the simulation
 * ends before every operation completed. */
gboolean trv_jssp_sim_run(const TrvJsspInstance *inst, const char *platform, TrvJsspRule rule, int n_simgrid_args,
                          char **simgrid_args, TrvJsspSchedule *out, TrvJsspSimStats *stats, GError **error);

/* The same in a forked child process; the schedule, the statistics or the
 * error come back through a pipe.  SimGrid aborts the process on an option
 * or a platform it refuses: that abort, with SimGrid's reason taken from
 * the child's stderr, becomes one TRV_ERROR_INPUT message ("SimGrid refused
 * the options ..." or "PLATFORM: SimGrid refused the platform: ...").  Any
 * other death of the child is TRV_ERROR_IO.  The child's stderr (SimGrid's
 * log) is passed on to this process's stderr except in the first case.  A
 * platform path that is not a regular file, or is larger than
 * TRV_JSSP_MAX_FILE_BYTES, is refused before SimGrid sees it. */
gboolean trv_jssp_sim_run_forked(const TrvJsspInstance *inst, const char *platform, TrvJsspRule rule,
                                 int n_simgrid_args, char **simgrid_args, TrvJsspSchedule *out, TrvJsspSimStats *stats,
                                 GError **error);

#endif
