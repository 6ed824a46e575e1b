/* worlds.c - the worlds shipped with Trivium, registered by name.  Adding
 * a world: its folder under envs/, its class in worlds.h, and one line in
 * `builtin` below. */
#include "worlds.h"

static const TrvWorldClass *const builtin[] = {&trv_world_causalbench, &trv_world_urs, &trv_world_jssp,
                                                  &trv_world_llm,
                                                  &trv_world_warehouse};

void trv_worlds_register_builtin(void) {
  for (size_t i = 0; i < G_N_ELEMENTS(builtin); i++) {
    GError *err = NULL;
    if (!trivium_world_register(builtin[i], &err)) g_error("built-in world: %s", err->message); /* a bug of ours */
  }
}
