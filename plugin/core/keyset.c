/* keyset.c - see keyset.h. */
#include "keyset.h"

#include <glib.h>

#include "rng.h" /* trv_mix64 */

struct TrvKeySet {
  uint64_t *keys; /* slot holds key + 1; 0 is an empty slot */
  size_t cap, count;
  bool has_max; /* the key UINT64_MAX, whose + 1 would read as empty */
};

static size_t key_slot(uint64_t x, size_t cap) { return (size_t)trv_mix64(x) & (cap - 1); }

#define KEY_SET_MIN_CAP 128 /* an episode's records of one agent (50 steps) without growing */

TrvKeySet *trv_key_set_sized(size_t expected) {
  TrvKeySet *s = g_new0(TrvKeySet, 1);
  s->cap = KEY_SET_MIN_CAP;
  while (s->cap / 2 < expected && s->cap < (SIZE_MAX / sizeof(uint64_t)) / 4) s->cap *= 2;
  s->keys = g_new0(uint64_t, s->cap);
  return s;
}

TrvKeySet *trv_key_set_new(void) { return trv_key_set_sized(0); }

void trv_key_set_free(TrvKeySet *s) {
  if (!s) return;
  g_free(s->keys);
  g_free(s);
}

static bool key_insert(uint64_t *keys, size_t cap, uint64_t stored) {
  for (size_t i = key_slot(stored, cap);; i = (i + 1) & (cap - 1)) {
    if (keys[i] == stored) return false;
    if (keys[i] == 0) {
      keys[i] = stored;
      return true;
    }
  }
}

bool trv_key_set_add(TrvKeySet *s, uint64_t k) {
  if (k == UINT64_MAX) {
    bool added = !s->has_max;
    s->has_max = true;
    s->count += added;
    return added;
  }
  if (2 * (s->count + 1) > s->cap) { /* at most half full */
    size_t cap = 2 * s->cap;
    uint64_t *keys = g_new0(uint64_t, cap);
    for (size_t i = 0; i < s->cap; i++)
      if (s->keys[i]) key_insert(keys, cap, s->keys[i]);
    g_free(s->keys);
    s->keys = keys;
    s->cap = cap;
  }
  bool added = key_insert(s->keys, s->cap, k + 1);
  s->count += added;
  return added;
}

bool trv_key_set_contains(const TrvKeySet *s, uint64_t k) {
  if (k == UINT64_MAX) return s->has_max;
  uint64_t stored = k + 1;
  for (size_t i = key_slot(stored, s->cap);; i = (i + 1) & (s->cap - 1)) {
    if (s->keys[i] == stored) return true;
    if (s->keys[i] == 0) return false;
  }
}

size_t trv_key_set_size(const TrvKeySet *s) { return s->count; }
