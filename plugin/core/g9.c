/* g9.c - see g9.h.
 *
 * A finite nonzero v is m 2^e (m < 2^53).  Its %.9g digits are the integer
 * q = round(|v| 10^k) in [10^8, 10^9) with k = 8 - X, X the decimal
 * exponent of |v| (10^X <= |v| < 10^(X+1)), rounded half to even on the
 * exact value; a q that rounds up to 10^9 is 10^8 with X + 1.  Then %g's
 * rule: exponent style when X < -4 or X >= 9, fixed otherwise, trailing
 * zeros (and a bare point) dropped.  The quotient and remainder are exact
 * in 128-bit integers for 1e-14 <= |v| < 1e38. */
#include "g9.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int fallback(char *buf, double v) { return snprintf(buf, TRV_G9_BUF, "%.9g", v); }

#ifndef __SIZEOF_INT128__ /* no 128-bit integers: the C library does it all */
int trv_format_g9(char *buf, double v) { return fallback(buf, v); }
#else

typedef unsigned __int128 u128;

static const uint64_t pow10_u64[20] = {1ULL,
                                       10ULL,
                                       100ULL,
                                       1000ULL,
                                       10000ULL,
                                       100000ULL,
                                       1000000ULL,
                                       10000000ULL,
                                       100000000ULL,
                                       1000000000ULL,
                                       10000000000ULL,
                                       100000000000ULL,
                                       1000000000000ULL,
                                       10000000000000ULL,
                                       100000000000000ULL,
                                       1000000000000000ULL,
                                       10000000000000000ULL,
                                       100000000000000000ULL,
                                       1000000000000000000ULL,
                                       10000000000000000000ULL};

static u128 pow10_u128(int n) { /* n <= 38 */
  return n < 20 ? (u128)pow10_u64[n] : (u128)pow10_u64[19] * pow10_u64[n - 19];
}

/* floor(m 2^e 10^k) in *q and whether the rest is below, at or above one
 * half (-1, 0, 1); false when the operands do not fit (never within the
 * range trv_format_g9 uses it for: m < 2^53, -99 <= e <= 74, -30 <= k <= 22). */
static bool scaled(uint64_t m, int e, int k, uint64_t *q, int *half) {
  u128 num, den;
  if (k >= 0) { /* |v| < 1e9 < 2^53: e < 0 */
    if (k > 22 || e >= 0 || -e > 126) return false;
    num = (u128)m * pow10_u128(k); /* < 2^53 10^22 < 2^127 */
    u128 quo = num >> -e, rem = num & (((u128)1 << -e) - 1), h = (u128)1 << (-e - 1);
    if (quo > UINT64_MAX) return false;
    *q = (uint64_t)quo;
    *half = rem < h ? -1 : rem == h ? 0 : 1;
    return true;
  }
  if (-k > 30) return false;
  den = pow10_u128(-k); /* < 2^100 */
  if (e >= 0) {
    if (e > 74) return false;
    num = (u128)m << e; /* < 2^127 */
  } else {
    if (-e > 26) return false;
    num = m;
    den <<= -e; /* < 2^126 */
  }
  u128 quo = num / den, rem = num % den;
  if (quo > UINT64_MAX) return false;
  *q = (uint64_t)quo;
  u128 twice = rem << 1; /* rem < den < 2^126 */
  *half = twice < den ? -1 : twice == den ? 0 : 1;
  return true;
}

int trv_format_g9(char *buf, double v) {
  if (!isfinite(v)) return fallback(buf, v);
  if (v == 0) return fallback(buf, v); /* "0" or "-0" */
  double a = fabs(v);
  if (!(a >= 1e-14 && a < 1e38)) return fallback(buf, v);
  int e2;
  double fr = frexp(a, &e2); /* a = fr 2^e2, fr in [0.5, 1) */
  uint64_t m = (uint64_t)ldexp(fr, 53);
  int e = e2 - 53;
  int x = (int)floor(log10(a)); /* may be off by one near a power of ten */
  uint64_t q = 0;
  int half = 0;
  for (int tries = 0;; tries++) {
    if (tries > 2 || !scaled(m, e, 8 - x, &q, &half)) return fallback(buf, v);
    if (q >= 1000000000ULL)
      x++;
    else if (q < 100000000ULL)
      x--;
    else
      break;
  }
  if (half > 0 || (half == 0 && (q & 1))) q++;
  if (q == 1000000000ULL) q = 100000000ULL, x++;
  char d[9];
  for (int i = 8; i >= 0; i--) d[i] = (char)('0' + q % 10), q /= 10;
  int nd = 9;
  while (nd > 1 && d[nd - 1] == '0') nd--;
  char *p = buf;
  if (v < 0) *p++ = '-';
  if (x < -4 || x >= 9) {
    *p++ = d[0];
    if (nd > 1) {
      *p++ = '.';
      memcpy(p, d + 1, (size_t)nd - 1);
      p += nd - 1;
    }
    *p++ = 'e';
    *p++ = x < 0 ? '-' : '+';
    int ax = x < 0 ? -x : x;
    if (ax >= 100) *p++ = (char)('0' + ax / 100);
    *p++ = (char)('0' + ax / 10 % 10);
    *p++ = (char)('0' + ax % 10);
  } else if (x >= 0) {
    int ip = x + 1; /* digits before the point, <= 9 */
    for (int i = 0; i < ip; i++) *p++ = i < nd ? d[i] : '0';
    if (nd > ip) {
      *p++ = '.';
      memcpy(p, d + ip, (size_t)(nd - ip));
      p += nd - ip;
    }
  } else { /* -4 <= x < 0: 0.000ddd */
    *p++ = '0';
    *p++ = '.';
    for (int i = 0; i < -x - 1; i++) *p++ = '0';
    memcpy(p, d, (size_t)nd);
    p += nd;
  }
  *p = 0;
  return (int)(p - buf);
}
#endif
