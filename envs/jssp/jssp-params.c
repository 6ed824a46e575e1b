/* jssp-params.c - the rows of the job shop world's parameters.  See
 * jssp-params.h.  A file of its own, with no other dependency than the
 * table's shorthand, so that the stand-alone references (and their fuzz
 * harness) take their defaults from here without the world. */
#include "jssp-params.h"

#include "core/params.h"

#define I(k, f, d, lo, hi, doc) TRV_ROW_INT(TrvJsspParams, k, f, d, lo, hi, doc)
#define D(k, f, d, lo, hi, doc) TRV_ROW_DOUBLE(TrvJsspParams, k, f, d, lo, hi, doc)

static const TrvParamSpec specs[] = {
    TRV_ROW_TEXT(TrvJsspParams, "world.instance", instance,
                 "JSSP: empty for the machine stream; else a shipped instance (ft06, ft10, ft20, la01) or an "
                 "OR-Library instance file"),
    I("world.machines", machines, 5, 2, TRV_JSSP_STREAM_MAX_MACHINES, "JSSP stream: parallel machines M"),
    D("world.alpha_mean", alpha_mean, 1.0, -1e6, 1e6,
      "JSSP stream: mean intrinsic slowness; alpha_i ~ N(alpha_mean, alpha_sd^2)"),
    D("world.alpha_sd", alpha_sd, 0.3, 1e-9, 1e6, "JSSP stream: sd of the intrinsic slowness alpha_i"),
    D("world.congestion", congestion, 0.7, 0, 1e6,
      "JSSP stream: rho, loading of the latent congestion C on every machine"),
    D("world.machine_noise", machine_noise, 0.4, 1e-9, 1e6,
      "JSSP stream: s, a machine's own noise in X_i = alpha_i + rho C + s eta_i"),
    D("world.outcome_sd", outcome_sd, 0.1, 0, 1e6, "JSSP stream: sd of the outcome noise xi in Y = max_i X_i + xi"),
    D("world.slow_lo", slow_lo, 1.3, 1, 1e3, "JSSP instance: a slow machine's slowdown ~ U[slow_lo, slow_hi]"),
    D("world.slow_hi", slow_hi, 1.6, 1, 1e3, "JSSP instance: upper end of a slow machine's slowdown"),
    I("world.slow_max", slow_max, 2, 0, 32, "JSSP instance: 1..slow_max slow machines per seed (0: none)"),
    D("world.log_congestion", log_congestion, 0.5, 0, 10,
      "JSSP instance: durations base * s_i * exp(log_congestion C_e)"),
    D("world.reading_sd", reading_sd, 0.15, 1e-6, 10,
      "JSSP instance: noise of a timed operation's reading (log scale)"),
    D("world.slow_threshold", slow_threshold, 1.15, 1, 1e3,
      "JSSP instance: a machine is planned slow when its slowdown estimate exceeds this"),
};

const TrvParamBlock trv_jssp_params = TRV_BLOCK(TrvJsspParams, specs);
