/* world.c - the worlds' names, in the core so that the scenario loader can
 * check them; envs/worlds.c maps each name to its class. */
#include "world.h"

const char *const trv_world_names[] = {"causalbench", "urs", NULL};
