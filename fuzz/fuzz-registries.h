/* fuzz-registries.h - the LLVMFuzzerInitialize of the harnesses whose
 * readers look keys up in the parameter table (cli-values, fault-trace,
 * platform, run-json, scenario): before the first input, the detectors'
 * and controllers' registries with their parameters and the blocks of the
 * log (ctl.*) and the SimGrid layer (agents.count, sim.*), the worlds
 * aside (their code is not in these harnesses).  Each harness includes it
 * once. */
#ifndef TRV_FUZZ_REGISTRIES_H
#define TRV_FUZZ_REGISTRIES_H

#include "core/controller.h"
#include "core/detector.h"
#include "log/ctl-params.h"
#include "sim/sim-params.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  trv_detectors_register_builtin();
  trv_controllers_register_builtin();
  trv_params_register(&trv_ctl_params, NULL);
  trv_params_register(&trv_sim_params, NULL);
  return 0;
}

#endif
