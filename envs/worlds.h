/* worlds.h - the worlds shipped with Trivium.  Each world is one folder of
 * envs/ (urs/ for the ride-share city) and one TrvWorldClass
 * (trivium/world.h) that carries its parameters; worlds never use each
 * other. */
#ifndef TRV_WORLDS_H
#define TRV_WORLDS_H

#include <stddef.h>
#include <trivium/world.h>

extern const TrvWorldClass trv_world_causalbench;
extern const TrvWorldClass trv_world_urs;
extern const TrvWorldClass trv_world_jssp;
extern const TrvWorldClass trv_world_llm;
extern const TrvWorldClass trv_world_warehouse;

/* The shipped worlds, in the order they are registered (the order of
 * their world.* rows in the parameter table); *n their count. */
const TrvWorldClass *const *trv_worlds_builtin(size_t *n);
/* Registers every shipped world (trivium_world_register), with its
 * parameters.  Safe to call more than once.  The command line and
 * trivium_plugin_init() call it through trv_modules_register_builtin()
 * (plugin/api/modules.h), which orders it among the other modules. */
void trv_worlds_register_builtin(void);

#endif
