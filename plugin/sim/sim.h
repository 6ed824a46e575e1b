/* sim.h - the SimGrid attachment seen from the command line and the
 * tests: run one cell (one seed of one world under one controller) as a
 * simulation.  This header is SimGrid-free; only the files of plugin/sim (and
 * s4u.cpp) include SimGrid's headers.
 *
 * A cell is built on a loaded platform: the world and the controller (a
 * TrvSession, core/protocol.h), M agents on the hosts of the role agent,
 * N log replicas on the hosts of the role ctl, the controller on the first
 * host of the role controller, and the fault processes.  The public plugin
 * (trivium/trivium.h) and trv_sim_run_cell() build the same cell. */
#ifndef TRV_SIM_H
#define TRV_SIM_H

#include <glib.h>
#include <stdbool.h>
#include <trivium/results.h>

#include "core/params.h"
#include "core/posterior.h"
#include "core/rng.h"
#include "scenario/scenario.h" /* TrvFaultSpec, TrvRole, trv_role_names */

#define TRV_N_ROLES 3

/* Called with every row as its episode closes. */
typedef struct {
  void (*row)(void *ctx, const TrvEpisodeRow *row);
  void *ctx;
} TrvRowSink;

typedef struct {
  const char *platform;            /* SimGrid platform XML, for messages (and loading, trv_sim_run_cell) */
  const char *const *simgrid_args; /* --cfg=... / --log=... passed to SimGrid */
  size_t n_simgrid_args;
  /* Hosts of each role: comma-separated globs, or NULL to use the hosts'
   * `trivium.role` property. */
  const char *role_hosts[TRV_N_ROLES];
  int agents;             /* M dispatch agents (round-robin over agent hosts) */
  int replicas;           /* N log replicas (round-robin over ctl hosts) */
  bool best_effort;       /* fire-and-forget telemetry instead of commits */
  double commit_timeout;  /* simulated seconds per send / acknowledgement */
  int commit_retries;     /* retries after the first attempt */
  double episode_timeout; /* controller's wait for the agents of an episode, at most */
  double detector_factor; /* the failure detector's multiple of the longest healthy episode */
  double step_flops, probe_flops;
  /* sim.clock = world: steps last step_seconds (> 0) or the world's own
   * duration; false: their work alone */
  bool world_clock;
  double step_seconds;
  const TrvFaultSpec *faults;
  size_t n_faults;
  const char *ctl_path; /* write the decided log (replica 0's) here, or NULL */
  int ctl_fsync;        /* TrvCtlFsync of that file */
  TrvRowSink sink;      /* optional: rows as they come */
  /* Optional: set to the change-points of the cell's own world (its seed's:
   * a world may draw them from the seed) once the session exists, before
   * the first row reaches the sink. */
  struct TrvCellLayout *layout;
  /* When SimGrid tracing is on (--cfg=tracing:yes): the cell's trace file,
   * in place of tracing/filename (the trivium program gives each cell
   * OUT/traces/<controller>-seed<N>.trace); NULL keeps tracing/filename,
   * with trace_suffix inserted before its extension ("-trivium-seed3") when
   * that is not NULL. */
  const char *trace_file;
  const char *trace_suffix;
  bool time_controller; /* measure each row's controller_cpu (benchmarks; else 0) */
} TrvSimOptions;

/* What the simulation measured beyond the rows. */
typedef struct {
  TrvPosterior *final_posterior; /* the live posterior at the end (caller frees), or NULL */
  uint64_t records_decided;      /* records in the decided log */
  uint64_t duplicates_dropped;   /* retried records the log recognised */
  uint64_t late_rejected;        /* commits for an already closed episode */
  uint64_t telemetry_sent, telemetry_lost, telemetry_duplicates, orphan_interventions; /* best effort */
  int controller_restarts;
  double end_time;
} TrvSimReport;

/* Defaults for everything but the platform, then the transport's
 * parameters of p (agents, replicas, mode, timeout, retries, fsync, flops). */
void trv_sim_options_init(TrvSimOptions *opt, const TrvParams *p);

/* One cell: what to simulate. */
typedef struct {
  const TrvParams *params;
  const TrvWorldClass *world_class;
  const char *controller;
  uint64_t seed;
} TrvSimCellSpec;

/* Runs the cell in this process (SimGrid can be initialised once per
 * process: call at most once).  Rows are appended to `rows` if not NULL
 * (and passed to opt->sink); the decided records, in decision order, to
 * `log` if not NULL; report may be NULL.
 * Errors: TRV_ERROR_INPUT for bad input (platform, roles), TRV_ERROR_IO when
 * the simulation ended before the controller finished (a deadlock). */
bool trv_sim_run_cell(const TrvSimCellSpec *spec, const TrvSimOptions *opt, GArray *rows, GArray *log,
                      TrvSimReport *report, GError **error);

/* One up or down time of a link-flap, in simulated seconds, from one
 * uniform of `rng`: exponential with mean `mean` (shape unused), Weibull of
 * shape k = `shape` or lognormal of sigma (of the log) = `shape`, both
 * scaled to the mean `mean`.  Finite and >= 0 for a mean and shape that
 * the scenario loader accepts.  Needs no simulation. */
double trv_sim_flap_period(TrvFaultLaw law, double mean, double shape, TrvRng *rng);

/* After simgrid_init in a process that only checks SimGrid's options and
 * the platform: with tracing on, its trace goes nowhere (the cells write
 * the run's traces). */
void trv_sim_trace_discard(void);

/* After simgrid_init: false with *error (TRV_ERROR_INPUT) when SimGrid
 * runs actors on more than one thread (contexts/nthreads > 1), or gives
 * them stacks smaller than TRV_SIM_MIN_STACK_KIB (contexts/stack-size).  A
 * cell's actors share its world, log and rounds (a job shop's machines its
 * counters), so they run one at a time; a cell, or a shop, refuses to start
 * otherwise. */
#define TRV_SIM_MIN_STACK_KIB 64
bool trv_sim_check_contexts(GError **error);

/* Whether a cell of `agents` agents fits in a process's memory mappings
 * with SimGrid's stack guard pages, under Linux's vm.max_map_count (65,530
 * by default; <= 0: not known, taken to fit).  Each actor's stack is then
 * two mappings (the stack, its guard page), and SimGrid aborts when one
 * cannot be made.  Counted: every agent, the helper actors (one per 256
 * comms, and more), and 8,192 for the rest (the other actors, libraries,
 * the heap): past about 28,000 agents at the default limit.
 * trv_sim_run_cell turns guard pages off (contexts/guard-size:0) for a
 * cell that does not fit, unless its SimGrid arguments set them. */
bool trv_sim_guard_pages_fit(int agents, long long max_map_count);

#endif
