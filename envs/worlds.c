/* worlds.c - the registry of worlds: each name of trv_world_names (world.h)
 * to its class.  Adding a world: its name there and one line here. */
#include <string.h>

#include "core/world.h"

extern const TrvWorldClass trv_world_causalbench;
extern const TrvWorldClass trv_world_urs;

static const TrvWorldClass *const worlds[] = {&trv_world_causalbench, &trv_world_urs};

const TrvWorldClass *trv_world_lookup(const char *name) {
  /* the core's name list and this table name the same worlds, in order */
  g_assert(g_strv_length((char **)trv_world_names) == G_N_ELEMENTS(worlds));
  for (size_t i = 0; i < G_N_ELEMENTS(worlds); i++) {
    g_assert(!strcmp(worlds[i]->name, trv_world_names[i]));
    if (!strcmp(worlds[i]->name, name)) return worlds[i];
  }
  return NULL;
}
