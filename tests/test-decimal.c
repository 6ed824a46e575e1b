/* trv_decimal_int and trv_decimal_double (core/decimal.h) read what they
 * accept as strtol and strtod do, bit for bit, and leave everything else
 * to them: random plain decimals of every length they take (leading zeros,
 * negative zero, the longest mantissas, the deepest points), the edges of
 * their lengths, and text they must refuse. */
#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "core/decimal.h"
#include "core/rng.h"

/* A random plain decimal: optional '-', `digits` digits, a point after
 * `point` of them (0: none). */
static void random_decimal(TrvRng *r, char *buf, int digits, int point) {
  char *p = buf;
  if (trv_rng_below(r, 2)) *p++ = '-';
  for (int i = 0; i < digits; i++) {
    if (point > 0 && i == point) *p++ = '.';
    *p++ = (char)('0' + trv_rng_below(r, 10));
  }
  *p = '\0';
}

static void doubles_read_as_strtod_does(void) {
  TrvRng r;
  trv_rng_init(&r, 5, TRV_STREAM_WORLD);
  char buf[40];
  long read = 0;
  for (int i = 0; i < 600000; i++) {
    int digits = 1 + (int)trv_rng_below(&r, 15), point = (int)trv_rng_below(&r, (uint64_t)digits);
    random_decimal(&r, buf, digits, point);
    double got, want = strtod(buf, NULL);
    g_assert_true(trv_decimal_double(buf, &got));
    if (memcmp(&got, &want, sizeof got)) g_error("trv_decimal_double(\"%s\") = %a, strtod gives %a", buf, got, want);
    read++;
  }
  /* the deepest point and the largest mantissa, both signs of zero */
  const char *edges[] = {"999999999999999",
                         "0.00000000000001",
                         "9.99999999999999",
                         "0.99999999999999",
                         "-0",
                         "-0.0",
                         "0",
                         "000000000000001",
                         "1.5",
                         "0.1",
                         "0.3",
                         "123456.789012345"};
  for (size_t i = 0; i < G_N_ELEMENTS(edges); i++) {
    double got, want = strtod(edges[i], NULL);
    g_assert_true(trv_decimal_double(edges[i], &got));
    g_assert_true(memcmp(&got, &want, sizeof got) == 0);
    read++;
  }
  g_assert_cmpint(read, ==, 600000 + (long)G_N_ELEMENTS(edges));
}

static void integers_read_as_strtol_does(void) {
  TrvRng r;
  trv_rng_init(&r, 6, TRV_STREAM_WORLD);
  char buf[40];
  for (int i = 0; i < 200000; i++) {
    random_decimal(&r, buf, 1 + (int)trv_rng_below(&r, 9), 0);
    long got;
    g_assert_true(trv_decimal_int(buf, &got));
    g_assert_cmpint(got, ==, strtol(buf, NULL, 10));
  }
  const char *edges[] = {"999999999", "-999999999", "0", "-0", "000000007"};
  for (size_t i = 0; i < G_N_ELEMENTS(edges); i++) {
    long got;
    g_assert_true(trv_decimal_int(edges[i], &got));
    g_assert_cmpint(got, ==, strtol(edges[i], NULL, 10));
  }
}

/* What strtol and strtod read differently, or refuse, is not read here. */
static void everything_else_is_left_to_the_c_library(void) {
  const char *ints[] = {"", "-", "+1", " 1", "1 ", "1000000000", "0x10", "1.0", "1e3", "--1", "١"};
  for (size_t i = 0; i < G_N_ELEMENTS(ints); i++) {
    long v = 42;
    g_assert_false(trv_decimal_int(ints[i], &v));
    g_assert_cmpint(v, ==, 42);
  }
  const char *doubles[] = {"",
                           "-",
                           ".",
                           "+1",
                           " 1",
                           "1 ",
                           "1.",
                           ".5",
                           "1e3",
                           "1E3",
                           "0x10",
                           "1.2.3",
                           "nan",
                           "inf",
                           "1,5",
                           "--1",
                           "1234567890123456",
                           "1.234567890123456",
                           "0.0000000000000001"};
  for (size_t i = 0; i < G_N_ELEMENTS(doubles); i++) {
    double v = 42;
    g_assert_false(trv_decimal_double(doubles[i], &v));
    g_assert_cmpfloat(v, ==, 42);
  }
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/decimal/doubles_read_as_strtod_does", doubles_read_as_strtod_does);
  g_test_add_func("/decimal/integers_read_as_strtol_does", integers_read_as_strtol_does);
  g_test_add_func("/decimal/everything_else_is_left_to_the_c_library", everything_else_is_left_to_the_c_library);
  return g_test_run();
}
