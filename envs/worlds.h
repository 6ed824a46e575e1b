/* worlds.h - the worlds shipped with Trivium.  Each world is one folder of
 * envs/ and one TrvWorldClass (trivium/world.h); worlds never use each
 * other. */
#ifndef TRV_WORLDS_H
#define TRV_WORLDS_H

#include <trivium/world.h>

extern const TrvWorldClass trv_world_causalbench;
extern const TrvWorldClass trv_world_urs;
extern const TrvWorldClass trv_world_jssp;
extern const TrvWorldClass trv_world_llm;
extern const TrvWorldClass trv_world_warehouse;

/* Registers every shipped world (trivium_world_register).  Safe to call
 * more than once. */
void trv_worlds_register_builtin(void);

#endif
