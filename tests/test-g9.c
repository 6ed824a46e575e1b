/* trv_format_g9 (core/g9.h) is printf's "%.9g", byte for byte: random bit
 * patterns, random magnitudes, exact ties at the ninth digit (which round
 * half to even), neighbours of every power of ten, and the values it hands
 * to snprintf (zeros, NaN, infinities, the smallest and largest). */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/g9.h"
#include "core/rng.h"

static long checked;

static void check(double v) {
  char got[TRV_G9_BUF], want[64];
  int n = trv_format_g9(got, v);
  snprintf(want, sizeof want, "%.9g", v);
  if (strcmp(got, want) != 0) g_error("trv_format_g9(%a) = %s, printf gives %s", v, got, want);
  g_assert_cmpint(n, ==, (int)strlen(want));
  checked++;
}

static void random_doubles_print_as_printf_does(void) {
  TrvRng r;
  trv_rng_init(&r, 9, TRV_STREAM_WORLD);
  for (int i = 0; i < 400000; i++) {
    uint64_t bits = trv_rng_next_u64(&r);
    double v;
    memcpy(&v, &bits, sizeof v);
    check(v); /* any bit pattern: every exponent, NaNs, infinities */
    double w = ldexp((double)(trv_rng_next_u64(&r) >> 11), (int)trv_rng_below(&r, 180) - 110 - 53);
    check(w); /* magnitudes 1e-33 .. 1e21, around the exact range */
    check(-w);
  }
}

static void ties_round_half_to_even(void) {
  TrvRng r;
  trv_rng_init(&r, 10, TRV_STREAM_WORLD);
  for (int i = 0; i < 200000; i++) {
    double v = (double)trv_rng_below(&r, 4000000000ULL) + (trv_rng_next_u64(&r) >> 63 ? 0.5 : 0.0);
    check(v); /* ten-digit integers end in 5: ties */
    check(v / 8);
    check(v * 1024);
  }
  const double ties[] = {1234567885.0, 1234567895.0, 100000000.5, 100000001.5, 999999999.5, 9999999995.0, 2.5, 0.5};
  for (size_t i = 0; i < G_N_ELEMENTS(ties); i++) check(ties[i]), check(-ties[i]);
}

static void powers_of_ten_and_their_neighbours(void) {
  for (int p = -20; p <= 40; p++) {
    double t = pow(10, p), up = t, down = t;
    for (int k = 0; k < 40; k++) {
      check(up), check(down), check(-up);
      up = nextafter(up, INFINITY);
      down = nextafter(down, 0);
    }
    for (int k = 1; k < 500; k++) check(t * (1 + k * 1e-9)), check(t * (1 - k * 1e-10));
    check(t * 0.9999999995), check(t * 9.999999995), check(t * 9.9999999949);
  }
}

static void special_values_print_as_printf_does(void) {
  const double v[] = {0.0,
                      -0.0,
                      NAN,
                      -NAN,
                      INFINITY,
                      -INFINITY,
                      5e-324,
                      2.2250738585072014e-308,
                      1e-14,
                      1e38,
                      1.7976931348623157e308,
                      1e-5,
                      1e-4,
                      9.99999999e-5,
                      123456789,
                      1e9,
                      0.1,
                      0.273106771,
                      85.8915164};
  for (size_t i = 0; i < G_N_ELEMENTS(v); i++) check(v[i]);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/g9/random_doubles_print_as_printf_does", random_doubles_print_as_printf_does);
  g_test_add_func("/g9/ties_round_half_to_even", ties_round_half_to_even);
  g_test_add_func("/g9/powers_of_ten_and_their_neighbours", powers_of_ten_and_their_neighbours);
  g_test_add_func("/g9/special_values_print_as_printf_does", special_values_print_as_printf_does);
  int rc = g_test_run();
  g_test_message("%ld values checked", checked);
  return rc;
}
