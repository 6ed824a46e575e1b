/* controller.c - the controller registry.  Adding a controller: its file
 * (a TrvControllerClass) and one row in `registry`. */
#include <string.h>

#include "controller.h"

extern const TrvControllerClass trv_controller_trivium;
extern const TrvControllerClass trv_controller_outcome;

static const struct {
  const char *name;
  const TrvControllerClass *klass;
  int variant; /* the class's own variant numbering */
} registry[] = {
    {"trivium", &trv_controller_trivium, 0},
    {"rlvr", &trv_controller_outcome, 0},
    {"rlvr-memory", &trv_controller_outcome, 1},
    {"reactive", &trv_controller_outcome, 2},
    {"epistemic-reset", &trv_controller_trivium, 5},
    {"trivium-nocusum", &trv_controller_trivium, 1},
    {"trivium-nolrcp", &trv_controller_trivium, 2},
    {"trivium-ideal-commit", &trv_controller_trivium, 3},
    {"trivium-roundrobin", &trv_controller_trivium, 4},
    {"trivium-parallel", &trv_controller_trivium, 6},
};

const char *const trv_controller_names[] = {"trivium", "rlvr", "rlvr-memory", "reactive", "epistemic-reset",
                                            "trivium-nocusum", "trivium-nolrcp", "trivium-ideal-commit",
                                            "trivium-roundrobin", "trivium-parallel", NULL};
const char *const trv_controller_defaults[] = {"trivium", "rlvr", "rlvr-memory", "reactive", "epistemic-reset",
                                               "trivium-nocusum", "trivium-nolrcp", "trivium-ideal-commit",
                                               "trivium-roundrobin", NULL};

TrvController *trv_controller_new(const char *name, const TrvParams *params, const TrvWorldInfo *world, uint64_t seed,
                                  GError **error) {
  for (size_t i = 0; i < G_N_ELEMENTS(registry); i++) {
    g_assert(!strcmp(registry[i].name, trv_controller_names[i]));
    if (strcmp(registry[i].name, name)) continue;
    TrvController *c = g_new0(TrvController, 1);
    c->klass = registry[i].klass;
    c->variant = registry[i].variant;
    c->self = c->klass->create(params, world, seed, c->variant);
    return c;
  }
  char *all = g_strjoinv(", ", (char **)trv_controller_names);
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unknown controller '%s'; known controllers: %s", name, all);
  g_free(all);
  return NULL;
}

void trv_controller_free(TrvController *c) {
  if (!c) return;
  c->klass->free(c->self);
  g_free(c);
}
