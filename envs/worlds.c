/* worlds.c - the worlds shipped with Trivium, registered by name with
 * their parameters.  Adding a world: its folder under envs/ (its class,
 * its parameter block in TrvWorldClass.params), its class in worlds.h,
 * one line in `builtin` below, and its sources in its envs/NAME.am
 * (docs/hacking.md). */
#include "worlds.h"

static const TrvWorldClass *const builtin[] = {&trv_world_causalbench, &trv_world_urs, &trv_world_jssp, &trv_world_llm,
                                               &trv_world_warehouse};

const TrvWorldClass *const *trv_worlds_builtin(size_t *n) {
  *n = G_N_ELEMENTS(builtin);
  return builtin;
}

void trv_worlds_register_builtin(void) {
  for (size_t i = 0; i < G_N_ELEMENTS(builtin); i++) {
    GError *err = NULL;
    if (!trivium_world_register(builtin[i], &err)) g_error("built-in world: %s", err->message); /* a bug of ours */
  }
}
