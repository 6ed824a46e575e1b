/* flags.cpp - the settings as SimGrid configuration flags: every key of
 * the parameter table and every plugin setting is declared as trivium/KEY
 * when the library loads, and a value given on the command line
 * (--cfg=trivium/KEY:VALUE) goes to trivium_plugin_set().  SimGrid parses
 * --cfg= in simgrid_init(), before the program calls trivium_plugin_init(),
 * so the flags must exist by then: their declaration runs when the library
 * loads, and first registers the shipped modules (modules.h), whose
 * parameters are part of the table.  A world the program registers later
 * is set with trivium_plugin_set().  C++ because SimGrid 3.32 declares
 * flags with callbacks in C++ only. */
#include <glib.h>
#include <string>
#include <xbt/config.hpp>

extern "C" {
#include "core/params.h"
#include "modules.h"
/* plugin/sim/plugin.c */
size_t trv_sim_plugin_settings(const char *const **keys, const char *const **defaults, const char *const **docs);
void trv_sim_plugin_cfg(const char *key, const char *value);
bool trv_api_flags_declared(void);
}

namespace {
/* Declares trivium/KEY for every setting.  SimGrid calls a flag's callback
 * with its default when the flag is declared: those calls are skipped. */
struct Flags {
  bool declaring = true;
  Flags() {
    trv_modules_register_builtin();
    size_t n;
    const TrvParamSpec *specs = trv_param_specs(&n);
    TrvParams defaults;
    trv_params_defaults(&defaults);
    for (size_t i = 0; i < n; i++) {
      char *def = trv_params_format(&defaults, &specs[i]);
      declare(specs[i].key, specs[i].doc, def);
      g_free(def);
    }
    const char *const *keys, *const *defs, *const *docs;
    size_t m = trv_sim_plugin_settings(&keys, &defs, &docs);
    for (size_t i = 0; i < m; i++) declare(keys[i], docs[i], defs[i]);
    declaring = false;
  }
  void declare(const char *key, const char *doc, const char *def) {
    std::string k = key;
    simgrid::config::declare_flag<std::string>("trivium/" + k, std::string("Trivium: ") + doc, def,
                                               [this, k](const std::string &value) {
                                                 if (not declaring) trv_sim_plugin_cfg(k.c_str(), value.c_str());
                                               });
  }
};
Flags flags;
} // namespace

/* True once the flags are declared (trivium_plugin_init asks, which also
 * links this object into a program that links the library statically). */
bool trv_api_flags_declared(void) { return not flags.declaring; }
