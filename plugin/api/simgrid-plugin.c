/* simgrid-plugin.c - Trivium in SimGrid's list of plugins: a program
 * linked with libtrivium is attached with --cfg=plugin:trivium on its
 * command line, without a call of its own (docs/plugin-api.md, "Attached
 * by SimGrid").  The entry is added when the shared library loads; it is
 * compiled into libtrivium alone, not into the trivium program, which
 * runs its own cells.  Attached this way the plugin ends the run itself:
 * it writes the run's directory to the setting output when the
 * simulation ends, and a failure ends the process (plugin/sim/plugin.c). */
#include <config.h>

#include <stdbool.h>
#include <trivium/trivium.h>

#include "modules.h"

/* plugin/sim */
bool trv_sim_simgrid_plugin_add(const char *name, const char *description, void (*init)(void));
void trv_sim_plugin_init(void);
void trv_sim_plugin_by_simgrid(void);

static void attach(void) {
  trv_modules_register_builtin();
  trv_sim_plugin_init();
  trv_sim_plugin_by_simgrid();
}

__attribute__((constructor)) static void add_to_simgrid(void) {
  trv_sim_simgrid_plugin_add("trivium",
                             "Trivium's causal meta-controller: the actors the deployment marks trivium.agent play "
                             "its episodes (settings --cfg=trivium/KEY:VALUE, results --cfg=trivium/output:DIR)",
                             attach);
}
