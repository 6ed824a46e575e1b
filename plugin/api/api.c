/* api.c - the entry point of the public plugin: trivium_plugin_init()
 * registers the shipped modules (modules.h: the built-in worlds of envs/,
 * the controllers, detectors and every parameter) and attaches the plugin to
 * SimGrid (plugin/sim).  It is the one layer above the worlds inside the
 * library; everything else of trivium/trivium.h lives in the SimGrid
 * attachment, which knows no world by name. */
#include <config.h>

#include <trivium/trivium.h>

#include "modules.h"

void trv_sim_plugin_init(void); /* plugin/sim/plugin.c */
bool trv_api_flags_declared(void); /* flags.cpp */

void trivium_plugin_init(void) {
  g_assert(trv_api_flags_declared()); /* when the library loaded, with the modules registered */
  trv_modules_register_builtin();
  trv_sim_plugin_init();
}

const char *trivium_version(void) { return PACKAGE_VERSION; }
