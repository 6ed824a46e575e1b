/* ctl-params.h - the log's parameters (ctl.*): how agents commit their
 * records to the Causal Transaction Log over the network (docs/ctl.md,
 * docs/simgrid-plugin.md).  Declared here, registered into the parameter
 * table by plugin/api/modules.c. */
#ifndef TRV_CTL_PARAMS_H
#define TRV_CTL_PARAMS_H

#include "core/params.h"

/* Values of ctl.mode.  ctl.fsync holds a TrvCtlFsync (ctl.h: always 0,
 * group 1, none 2), whose names its row lists in that order. */
typedef enum { TRV_CTL_MODE_ATOMIC = 0, TRV_CTL_MODE_BEST_EFFORT = 1 } TrvCtlMode;

typedef struct {
  int mode; /* TrvCtlMode */
  int replicas;
  double timeout; /* simulated seconds per commit attempt */
  int retries;
  int fsync; /* TrvCtlFsync */
} TrvCtlParams;

extern const TrvParamBlock trv_ctl_params;

static inline const TrvCtlParams *trv_ctl_params_of(const TrvParams *p) { return trv_params_block(p, &trv_ctl_params); }
static inline TrvCtlParams *trv_ctl_params_mut(TrvParams *p) { return trv_params_block_mut(p, &trv_ctl_params); }

#endif
