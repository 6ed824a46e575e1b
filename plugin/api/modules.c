/* modules.c - the one list of what Trivium ships, in registration order.
 * See modules.h.  Each module declares its parameters beside its code;
 * this file only orders them: the order of its calls is the order of
 * docs/parameters.md.  Adding a world, a controller or a detector touches
 * its own registry's list (envs/worlds.c, plugin/core/controller.c,
 * plugin/core/detector.c), not this file (docs/hacking.md). */
#include <glib.h>

#include "core/controller.h"
#include "core/detector.h"
#include "log/ctl-params.h"
#include "modules.h"
#include "sim/sim-params.h"
#include "worlds.h"

void trv_modules_register_builtin(void) {
  trv_detectors_register_builtin();
  trv_controllers_register_builtin();
  trv_worlds_register_builtin();
  const TrvParamBlock *layers[] = {&trv_ctl_params, &trv_sim_params};
  for (size_t i = 0; i < G_N_ELEMENTS(layers); i++) {
    GError *err = NULL;
    if (!trv_params_register(layers[i], &err)) g_error("built-in parameters: %s", err->message); /* a bug of ours */
  }
}
