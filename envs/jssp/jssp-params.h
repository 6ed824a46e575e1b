/* jssp-params.h - the job shop world's parameters (world.*): the shop (the
 * machine stream, or a real instance) and its hidden model (docs/jssp.md,
 * "The job shop as a world").  The rows are jssp-params.c; the
 * real-instance variant (jssp-confounded.h) and the program's stand-alone
 * references (src/jssp-stream-ref.h, src/jssp-confounded-ref.h) take their
 * world's part from this struct. */
#ifndef TRV_JSSP_PARAMS_H
#define TRV_JSSP_PARAMS_H

#include <trivium/world.h>

/* world.machines' upper bound: the machine stream's M. */
#define TRV_JSSP_STREAM_MAX_MACHINES 16

typedef struct {
  char instance[TRV_PARAM_TEXT_MAX]; /* "" the machine stream; a shipped instance or an instance file */
  int machines, slow_max;
  double alpha_mean, alpha_sd, congestion, machine_noise, outcome_sd;
  double slow_lo, slow_hi, log_congestion, reading_sd, slow_threshold;
} TrvJsspParams;

extern const TrvParamBlock trv_jssp_params;

#endif
