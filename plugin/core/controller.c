/* controller.c - the controller registry.  Adding a controller: its file
 * (a TrvControllerClass, and its parameter block when it has parameters)
 * and one row in `builtin`; a program with a controller of its own calls
 * trv_controller_register (tests/toy-controller.c). */
#include <string.h>

#include "controller.h"

extern const TrvControllerClass trv_controller_trivium;
extern const TrvControllerClass trv_controller_outcome;
extern const TrvControllerClass trv_controller_trivium_oracle;

/* name, class, parameters, the class's variant, on request only */
static const TrvModule builtin[] = {
    {"trivium", &trv_controller_trivium, &trv_trivium_params, 0, false},
    {"rlvr", &trv_controller_outcome, NULL, 0, false},
    {"rlvr-memory", &trv_controller_outcome, NULL, 1, false},
    {"reactive", &trv_controller_outcome, &trv_reactive_params, 2, false},
    {"epistemic-reset", &trv_controller_trivium, &trv_epistemic_reset_params, 5, false},
    {"trivium-nocusum", &trv_controller_trivium, NULL, 1, false},
    {"trivium-nolrcp", &trv_controller_trivium, NULL, 2, false},
    {"trivium-ideal-commit", &trv_controller_trivium, NULL, 3, false},
    {"trivium-roundrobin", &trv_controller_trivium, NULL, 4, false},
    {"trivium-parallel", &trv_controller_trivium, NULL, 6, true},
    {"trivium-oracle", &trv_controller_trivium_oracle, NULL, 7, true},
    {"trivium-grow", &trv_controller_trivium, &trv_grow_params, 8, true},
};

static TrvRegistry controllers = {.kind = "controller"};

bool trv_controller_register(const TrvModule *m, GError **error) { return trv_registry_add(&controllers, m, error); }

const TrvModule *trv_controllers_builtin(size_t *n) {
  *n = G_N_ELEMENTS(builtin);
  return builtin;
}

void trv_controllers_register_builtin(void) {
  for (size_t i = 0; i < G_N_ELEMENTS(builtin); i++) {
    GError *err = NULL;
    if (!trv_controller_register(&builtin[i], &err))
      g_error("built-in controller: %s", err->message); /* a bug of ours */
  }
}

const char *const *trv_controller_names(void) { return controllers.names; }

const char *const *trv_controller_defaults(void) { return controllers.defaults; }

TrvController *trv_controller_new(const char *name, const TrvParams *params, const TrvWorldInfo *world, uint64_t seed,
                                  GError **error) {
  const TrvModule *m = trv_registry_lookup(&controllers, name);
  if (!m) {
    char *all = g_strjoinv(", ", (char **)controllers.names);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unknown controller '%s'; known controllers: %s", name, all);
    g_free(all);
    return NULL;
  }
  TrvController *c = g_new0(TrvController, 1);
  c->klass = m->klass;
  c->variant = m->variant;
  c->self = c->klass->create(params, world, seed, c->variant);
  return c;
}

void trv_controller_free(TrvController *c) {
  if (!c) return;
  c->klass->free(c->self);
  g_free(c);
}
