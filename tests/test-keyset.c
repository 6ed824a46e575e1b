/* The open-addressing set of 64-bit keys (core/keyset.h), cross-checked
 * against a GHashTable: insertion, lookup, duplicates, growth, and the keys
 * the table encodes specially (0, UINT64_MAX). */
#include <glib.h>

#include "core/keyset.h"
#include "core/rng.h"

/* Adds key to both sets and checks they agree on it and on the size. */
static void add_both(TrvKeySet *set, GHashTable *ref, uint64_t key) {
  gboolean fresh = !g_hash_table_contains(ref, &key);
  if (fresh) {
    uint64_t *k = g_new(uint64_t, 1);
    *k = key;
    g_hash_table_add(ref, k);
  }
  g_assert_cmpint(trv_key_set_add(set, key), ==, fresh);
  g_assert_true(trv_key_set_contains(set, key));
  g_assert_cmpuint(trv_key_set_size(set), ==, g_hash_table_size(ref));
}

static GHashTable *ref_new(void) { return g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL); }

static void empty_set_holds_nothing(void) {
  TrvKeySet *s = trv_key_set_new();
  g_assert_cmpuint(trv_key_set_size(s), ==, 0);
  const uint64_t probe[] = {0, 1, 42, UINT64_MAX, UINT64_MAX - 1};
  for (size_t i = 0; i < G_N_ELEMENTS(probe); i++) g_assert_false(trv_key_set_contains(s, probe[i]));
  trv_key_set_free(s);
  trv_key_set_free(NULL);
}

static void special_keys_are_ordinary_members(void) {
  TrvKeySet *s = trv_key_set_new();
  GHashTable *ref = ref_new();
  const uint64_t keys[] = {0, UINT64_MAX, UINT64_MAX - 1, 1, 0, UINT64_MAX, UINT64_MAX - 1};
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) add_both(s, ref, keys[i]);
  g_assert_cmpuint(trv_key_set_size(s), ==, 4);
  g_assert_false(trv_key_set_contains(s, 2));
  trv_key_set_free(s);
  g_hash_table_destroy(ref);
}

/* Random keys from a range small enough for many duplicates, then from the
 * whole 64-bit range, through many doublings of the table (and into a set
 * sized beforehand, which grows past its size too); every key tried is then
 * looked up in both, members and non-members. */
static void random_keys_agree_with_a_hash_table(void) {
  TrvRng rng;
  trv_rng_init(&rng, 11, TRV_STREAM_WORLD);
  const uint64_t ranges[] = {50, 5000, 0, 5000, 0};
  const size_t sized[] = {0, 0, 0, 3000, 30000};
  for (size_t r = 0; r < G_N_ELEMENTS(ranges); r++) {
    TrvKeySet *s = sized[r] ? trv_key_set_sized(sized[r]) : trv_key_set_new();
    GHashTable *ref = ref_new();
    GArray *tried = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    for (int i = 0; i < 100000; i++) {
      uint64_t k = ranges[r] ? trv_rng_below(&rng, ranges[r]) : trv_rng_next_u64(&rng);
      add_both(s, ref, k);
      g_array_append_val(tried, k);
      uint64_t other = ranges[r] ? ranges[r] + trv_rng_below(&rng, 1000) : trv_rng_next_u64(&rng);
      g_array_append_val(tried, other);
    }
    for (guint i = 0; i < tried->len; i++) {
      uint64_t k = g_array_index(tried, uint64_t, i);
      g_assert_cmpint(trv_key_set_contains(s, k), ==, g_hash_table_contains(ref, &k));
    }
    if (ranges[r]) g_assert_cmpuint(trv_key_set_size(s), <=, ranges[r]);
    g_array_free(tried, TRUE);
    trv_key_set_free(s);
    g_hash_table_destroy(ref);
  }
}

/* Record identities as the log keys them, (agent << 40) ^ seq: retries of
 * the same records are duplicates, other agents' equal sequence numbers are
 * not. */
static void record_identities_of_retries_are_duplicates(void) {
  TrvKeySet *s = trv_key_set_new();
  GHashTable *ref = ref_new();
  for (int attempt = 0; attempt < 3; attempt++)
    for (uint64_t agent = 0; agent < 64; agent++)
      for (uint64_t seq = 0; seq < 500; seq++) add_both(s, ref, (agent << 40) ^ seq);
  g_assert_cmpuint(trv_key_set_size(s), ==, 64 * 500);
  trv_key_set_free(s);
  g_hash_table_destroy(ref);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/keyset/empty_set_holds_nothing", empty_set_holds_nothing);
  g_test_add_func("/keyset/special_keys_are_ordinary_members", special_keys_are_ordinary_members);
  g_test_add_func("/keyset/random_keys_agree_with_a_hash_table", random_keys_agree_with_a_hash_table);
  g_test_add_func("/keyset/record_identities_of_retries_are_duplicates", record_identities_of_retries_are_duplicates);
  return g_test_run();
}
