/* sim-params.c - the rows of agents.count and sim.*.  See sim-params.h. */
#include "sim-params.h"

static const char *const clock_names[] = {"world", "compute", NULL};

#define I(k, f, d, lo, hi, doc) TRV_ROW_INT(TrvSimParams, k, f, d, lo, hi, doc)
#define D(k, f, d, lo, hi, doc) TRV_ROW_DOUBLE(TrvSimParams, k, f, d, lo, hi, doc)

static const TrvParamSpec specs[] = {
    I("agents.count", agents, 1, 1, TRV_SIM_MAX_AGENTS, "dispatch agents M sharing one CTL"),
    TRV_ROW_ENUM(TrvSimParams, "sim.clock", clock, "world", clock_names,
                 "simulated time: world (a step lasts the world's step duration, sim.step_seconds or its own, and its "
                 "work runs inside it) or compute (a step lasts its work and messaging alone)"),
    D("sim.step_seconds", step_seconds, 0, 0, 1e6,
      "with sim.clock world: simulated seconds of one step; 0: the world's own (URS 60, Warehouse 1, CausalBench-Seq "
      "1; worlds that declare none run on their work)"),
    D("sim.step_flops", step_flops, 1e6, 0, 1e18, "work of one agent step on its host (flops)"),
    D("sim.probe_flops", probe_flops, 2e7, 0, 1e18, "extra work of one probe on the agent's host (flops)"),
    D("sim.episode_timeout", episode_timeout, 60, 1e-3, 1e9,
      "simulated seconds the controller waits at most for the agents of an episode beyond its steps' duration on the "
      "world's clock (the failure detector's cap)"),
    D("sim.detector_factor", detector_factor, 3, 1, 1e6,
      "the failure detector closes an episode after its steps' duration plus this many times the median margin beyond "
      "it of the last 15 episodes whose agents all reported, plus ctl.timeout (a margin of at most "
      "sim.episode_timeout)"),
};

const TrvParamBlock trv_sim_params = TRV_BLOCK(TrvSimParams, specs);
