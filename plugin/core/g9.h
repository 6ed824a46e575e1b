/* g9.h - printf's "%.9g" of a double, the digits episodes.csv is written
 * with, without the C library's general-purpose conversion: exact integer
 * arithmetic on the double's binary value (round half to even, as glibc
 * does), and snprintf itself for what that does not cover (non-finite
 * values, magnitudes below 1e-14 or from 1e38 on). */
#ifndef TRV_G9_H
#define TRV_G9_H

/* Writes the conversion and a terminating NUL to buf (at least
 * TRV_G9_BUF bytes); returns its length. */
#define TRV_G9_BUF 32
int trv_format_g9(char *buf, double v);

#endif
