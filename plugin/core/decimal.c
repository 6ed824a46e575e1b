/* decimal.c - see decimal.h. */
#include "decimal.h"

#include <stdint.h>

bool trv_decimal_int(const char *s, long *out) {
  bool negative = *s == '-';
  s += negative;
  long v = 0;
  int n = 0;
  for (; *s >= '0' && *s <= '9'; s++, n++) {
    if (n == 9) return false;
    v = v * 10 + (*s - '0');
  }
  if (n == 0 || *s) return false;
  *out = negative ? -v : v;
  return true;
}

bool trv_decimal_double(const char *s, double *out) {
  static const double pow10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  bool negative = *s == '-';
  s += negative;
  uint64_t m = 0;
  int n = 0, before = 0, after = 0;
  for (; *s >= '0' && *s <= '9'; s++, before++) {
    if (++n > 15) return false;
    m = m * 10 + (uint64_t)(*s - '0');
  }
  if (before == 0) return false;
  if (*s == '.') {
    for (s++; *s >= '0' && *s <= '9'; s++, after++) {
      if (++n > 15) return false;
      m = m * 10 + (uint64_t)(*s - '0');
    }
    if (after == 0) return false;
  }
  if (*s) return false;
  double v = (double)m / pow10[after]; /* m < 10^15 < 2^53 and 10^after exact: one rounding */
  *out = negative ? -v : v;
  return true;
}
