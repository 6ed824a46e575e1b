/* worlds.c - the registry of worlds.  Adding a world: one line here. */
#include <string.h>

#include "world.h"

extern const TrvWorldClass trv_world_causalbench;

static const TrvWorldClass *const worlds[] = {&trv_world_causalbench};

const TrvWorldClass *trv_world_lookup(const char *name) {
  for (size_t i = 0; i < G_N_ELEMENTS(worlds); i++)
    if (!strcmp(worlds[i]->name, name)) return worlds[i];
  return NULL;
}
