/* api.c - the entry point of the public plugin: trivium_plugin_init()
 * registers the shipped modules (modules.h: the built-in worlds of envs/,
 * the controllers, detectors and every parameter) and attaches the plugin to
 * SimGrid (plugin/sim).  It is the one layer above the worlds inside the
 * library; everything else of trivium/trivium.h lives in the SimGrid
 * attachment, which knows no world by name. */
#include <config.h>

#include <trivium/trivium.h>

#include "modules.h"

/* plugin/sim/plugin.c */
void trv_sim_plugin_init(void);
void trv_sim_plugin_by_program(void);
void trv_sim_plugin_refuse(char *why); /* takes why */
bool trv_api_flags_declared(void);     /* flags.cpp */

void trivium_plugin_init_abi(int abi) {
  g_assert(trv_api_flags_declared()); /* when the library loaded, with the modules registered */
  trv_modules_register_builtin();
  trv_sim_plugin_init();
  trv_sim_plugin_by_program();
  if (abi != TRIVIUM_ABI_VERSION)
    trv_sim_plugin_refuse(g_strdup_printf("this program was compiled against Trivium's headers of interface %d, and "
                                          "the library it runs with (%s) has interface %d: rebuild the program "
                                          "against the installed headers",
                                          abi, PACKAGE_VERSION, TRIVIUM_ABI_VERSION));
}

const char *trivium_version(void) { return PACKAGE_VERSION; }
