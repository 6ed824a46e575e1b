/* Properties of the seeded streams: reproducible, distinct, well spread. */
#include <glib.h>
#include <math.h>

#include "core/rng.h"

static void same_seed_and_stream_give_the_same_sequence(void) {
  TrvRng a, b;
  trv_rng_init(&a, 42, TRV_STREAM_WORLD);
  trv_rng_init(&b, 42, TRV_STREAM_WORLD);
  for (int i = 0; i < 1000; i++) g_assert_cmpuint(trv_rng_next_u64(&a), ==, trv_rng_next_u64(&b));
}

static void different_streams_differ(void) {
  TrvRng a, b;
  trv_rng_init(&a, 42, TRV_STREAM_WORLD);
  trv_rng_init(&b, 42, TRV_STREAM_PROBE);
  int same = 0;
  for (int i = 0; i < 1000; i++) same += trv_rng_next_u64(&a) == trv_rng_next_u64(&b);
  g_assert_cmpint(same, ==, 0);
}

static void xoshiro_matches_reference_vector(void) {
  /* Reference: xoshiro256** with state {1, 2, 3, 4} gives 11520, 0, 1509978240,
   * 1215971899390074240 (Vigna's reference implementation). */
  TrvRng r = {{1, 2, 3, 4}};
  g_assert_cmpuint(trv_rng_next_u64(&r), ==, 11520ULL);
  g_assert_cmpuint(trv_rng_next_u64(&r), ==, 0ULL);
  g_assert_cmpuint(trv_rng_next_u64(&r), ==, 1509978240ULL);
  g_assert_cmpuint(trv_rng_next_u64(&r), ==, 1215971899390074240ULL);
}

static void normals_have_unit_moments(void) {
  TrvRng r;
  trv_rng_init(&r, 7, TRV_STREAM_WORLD);
  const int n = 200000;
  double s = 0, s2 = 0, s4 = 0;
  for (int i = 0; i < n; i++) {
    double x = trv_rng_normal(&r);
    s += x;
    s2 += x * x;
    s4 += x * x * x * x;
  }
  /* Standard errors: mean 1/sqrt(n) = 0.0022, var sqrt(2/n) = 0.0032,
   * 4th moment sqrt(96/n) = 0.022: 5 sigma bounds. */
  g_assert_cmpfloat(fabs(s / n), <, 0.011);
  g_assert_cmpfloat(fabs(s2 / n - 1.0), <, 0.016);
  g_assert_cmpfloat(fabs(s4 / n - 3.0), <, 0.11);
}

static void below_is_uniform_over_small_ranges(void) {
  TrvRng r;
  trv_rng_init(&r, 3, TRV_STREAM_SCHEDULE);
  int counts[3] = {0};
  for (int i = 0; i < 30000; i++) counts[trv_rng_below(&r, 3)]++;
  for (int k = 0; k < 3; k++) g_assert_cmpint(abs(counts[k] - 10000), <, 400);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/rng/same_seed_and_stream_give_the_same_sequence", same_seed_and_stream_give_the_same_sequence);
  g_test_add_func("/rng/different_streams_differ", different_streams_differ);
  g_test_add_func("/rng/xoshiro_matches_reference_vector", xoshiro_matches_reference_vector);
  g_test_add_func("/rng/normals_have_unit_moments", normals_have_unit_moments);
  g_test_add_func("/rng/below_is_uniform_over_small_ranges", below_is_uniform_over_small_ranges);
  return g_test_run();
}
