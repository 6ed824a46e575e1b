/* keyset.h - a set of 64-bit keys by open addressing (linear probing over
 * a power-of-two table kept at most half full): adding a key allocates
 * nothing but the table's growth.  The log replicas and the controller keep
 * the (agent, seq) identities of an episode's records in one. */
#ifndef TRV_KEYSET_H
#define TRV_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct TrvKeySet TrvKeySet;

TrvKeySet *trv_key_set_new(void);
/* A set whose table holds `expected` keys without growing (a hint: more may
 * be added, the table then grows as usual). */
TrvKeySet *trv_key_set_sized(size_t expected);
void trv_key_set_free(TrvKeySet *set); /* NULL is fine */
/* Adds key; true when it was not in the set. Any 64-bit value is a key. */
bool trv_key_set_add(TrvKeySet *set, uint64_t key);
bool trv_key_set_contains(const TrvKeySet *set, uint64_t key);
size_t trv_key_set_size(const TrvKeySet *set);

#endif
