/* sim-params.h - the SimGrid layer's parameters: agents.count and sim.*,
 * how many agents run and how simulated time passes
 * (docs/simgrid-plugin.md).  Plain C, no SimGrid header: declared here,
 * registered into the parameter table by plugin/api/modules.c, and read
 * into TrvSimOptions (sim.h) when a cell is built. */
#ifndef TRV_SIM_PARAMS_H
#define TRV_SIM_PARAMS_H

#include "core/params.h"

/* Values of sim.clock: the world's step duration, or the work alone. */
typedef enum { TRV_CLOCK_WORLD = 0, TRV_CLOCK_COMPUTE = 1 } TrvClock;

/* Most agents of one cell (agents.count), the one bound every check of the
 * simulator layer uses: SimGrid actors cost a stack each (the settings for
 * many: docs/simgrid-plugin.md, "Many agents"). */
#define TRV_SIM_MAX_AGENTS 131072

typedef struct {
  int agents;
  int clock; /* TrvClock */
  double step_seconds;
  double step_flops, probe_flops, episode_timeout, detector_factor;
} TrvSimParams;

extern const TrvParamBlock trv_sim_params;

static inline const TrvSimParams *trv_sim_params_of(const TrvParams *p) { return trv_params_block(p, &trv_sim_params); }
static inline TrvSimParams *trv_sim_params_mut(TrvParams *p) { return trv_params_block_mut(p, &trv_sim_params); }

#endif
