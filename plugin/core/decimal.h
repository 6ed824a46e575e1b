/* decimal.h - plain decimal numbers read without the C library's
 * general-purpose conversions, where exact arithmetic gives the same value
 * bit for bit:
 *  - an integer of one to nine digits, with an optional leading '-';
 *  - a decimal of one to fifteen digits in all, with an optional leading
 *    '-' and at most one '.' between digits, no exponent: the digits make
 *    an exact integer below 2^53 and the point an exact power of ten up to
 *    10^15, so one division, correctly rounded, is the value strtod's
 *    correct rounding gives (Clinger's fast path).
 * Anything else (a '+', blanks, an exponent, more digits, a bare point) is
 * not read: the functions return false and the caller uses strtol or
 * strtod, with their errors. */
#ifndef TRV_DECIMAL_H
#define TRV_DECIMAL_H

#include <stdbool.h>

bool trv_decimal_int(const char *s, long *out);
bool trv_decimal_double(const char *s, double *out);

#endif
