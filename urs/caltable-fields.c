/* caltable-fields.c - the field syntax of a URS calibration table: its
 * text, numbers, dates, times and TAB-separated fields, for the reader
 * (caltable-read.c), which holds the grammar (sections, keys, rows).
 *
 * Each function takes a field whole (no leading or trailing text), checks
 * it against the bounds it is given and either stores its value or fails
 * with one TRV_ERROR_INPUT, "FILE:LINE: what was found; what was expected",
 * quoting at most 60 bytes of the field.  Nothing here allocates but the
 * error. */
#include <config.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <trivium/error.h>

#include "core/decimal.h"
#include "urs/caltable-fields.h"

#define Q TRV_CAL_Q /* a quoted field: takes trv_cal_clip(s), s */

bool trv_cal_fail(TrvCalCursor *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(c->error, TRV_ERROR, TRV_ERROR_INPUT, "%s:%d: %s", c->name, c->line, msg);
  g_free(msg);
  return false;
}

int trv_cal_clip(const char *s) {
  size_t n = strnlen(s, 61);
  if (n <= 60) return (int)n;
  for (n = 60; n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80; n--) continue;
  return (int)n;
}

/* A whole field as a double in [lo, hi]; "NA" gives NAN when na_ok. */
bool trv_cal_get_double(TrvCalCursor *c, const char *s, bool na_ok, double lo, double hi, double *out) {
  if (na_ok && !strcmp(s, "NA")) {
    *out = NAN;
    return true;
  }
  double v;
  if (!trv_decimal_double(s, &v)) { /* not plain: the C library reads it, and refuses what it refuses */
    char *end;
    errno = 0;
    v = strtod(s, &end);
    if (!*s || *end || errno == ERANGE || !isfinite(v))
      return trv_cal_fail(c, "'" Q "' is not a finite number%s", trv_cal_clip(s), s, na_ok ? " or NA" : "");
  }
  if (v < lo && lo == 0) return trv_cal_fail(c, "'" Q "' is negative; expected a number >= 0", trv_cal_clip(s), s);
  if (v < lo || v > hi) return trv_cal_fail(c, Q " is outside [%g, %g]", trv_cal_clip(s), s, lo, hi);
  *out = v;
  return true;
}

/* Whether s is a plain decimal ([+-]digits[.digits][e[+-]digits]) of at
 * most six significant digits.  Such a field needs no trv_cal_round_rate
 * (the writer prints rates with %.6g): the nearest double to it prints back
 * to the same six digits, 1e-6 apart where doubles are 1e-16 apart, so
 * rounding gives that double again.  A normal double only: a subnormal has
 * fewer digits than that. */
bool trv_cal_six_digit_decimal(const char *s, double v) {
  if (!(v >= DBL_MIN)) return false;
  if (*s == '+' || *s == '-') s++;
  int digits = 0, dots = 0;
  bool leading = true;
  for (; *s && *s != 'e' && *s != 'E'; s++) {
    if (*s == '.') {
      if (++dots > 1) return false;
    } else if (g_ascii_isdigit(*s)) {
      if (*s != '0' || !leading) leading = false, digits++;
    } else {
      return false;
    }
  }
  if (*s) { /* the exponent */
    s++;
    if (*s == '+' || *s == '-') s++;
    if (!*s) return false;
    for (; *s; s++)
      if (!g_ascii_isdigit(*s)) return false;
  }
  return digits <= 6;
}

bool trv_cal_get_u64(TrvCalCursor *c, const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  if (!g_ascii_isdigit(*s)) return trv_cal_fail(c, "'" Q "' is not a non-negative integer", trv_cal_clip(s), s);
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno == ERANGE)
    return trv_cal_fail(c, "'" Q "' is not a non-negative integer below 2^64", trv_cal_clip(s), s);
  *out = v;
  return true;
}

bool trv_cal_get_int(TrvCalCursor *c, const char *s, int lo, int hi, int *out) {
  long v;
  if (!trv_decimal_int(s, &v)) { /* not plain digits: the C library reads it, and refuses what it refuses */
    char *end;
    errno = 0;
    v = strtol(s, &end, 10);
    if (!*s || *end || errno == ERANGE) return trv_cal_fail(c, "'" Q "' is not an integer", trv_cal_clip(s), s);
  }
  if (v < lo || v > hi) return trv_cal_fail(c, "%ld is outside [%d, %d]", v, lo, hi);
  *out = (int)v;
  return true;
}

/* n decimal digits at s, nothing else. */
static bool digits(const char *s, int n, int *out) {
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (!g_ascii_isdigit(s[i])) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

/* A strict YYYY-MM-DD at s (the caller checks what follows) of a valid
 * date within TRV_CAL_YEAR_MIN..MAX: anything the writer would print
 * differently is refused, so that reading and writing again gives the same
 * bytes. */
bool trv_cal_parse_date(const char *s, int *y, int *m, int *d) {
  return digits(s, 4, y) && s[4] == '-' && digits(s + 5, 2, m) && s[7] == '-' && digits(s + 8, 2, d) &&
         *y >= TRV_CAL_YEAR_MIN && *y <= TRV_CAL_YEAR_MAX &&
         g_date_valid_dmy((GDateDay)*d, (GDateMonth)*m, (GDateYear)*y);
}

/* "" or a local time YYYY-MM-DDTHH:MM:SS (the period's ends). */
bool trv_cal_local_time_ok(const char *s) {
  int y, mo, d, h = 0, mi = 0, se = 0;
  if (!*s) return true;
  return strlen(s) == 19 && trv_cal_parse_date(s, &y, &mo, &d) && s[10] == 'T' && digits(s + 11, 2, &h) &&
         s[13] == ':' && digits(s + 14, 2, &mi) && s[16] == ':' && digits(s + 17, 2, &se) && h < 24 && mi < 60 &&
         se < 60;
}

bool trv_cal_fields(TrvCalCursor *c, char *line, char **f, int n) {
  int k = 0;
  f[k++] = line;
  for (char *p = line; *p; p++)
    if (*p == '\t') {
      if (k == n) return trv_cal_fail(c, "more than %d TAB-separated fields; expected %d", n, n);
      *p = '\0';
      f[k++] = p + 1;
    }
  if (k != n) return trv_cal_fail(c, "%d TAB-separated fields, expected %d", k, n);
  return true;
}

/* The whole text is UTF-8 with no control character but TAB and newline
 * (the writer never writes another); the first offence is reported with
 * its line.  Checked before any line is parsed, so the parser and every
 * message quoting a field see valid text. */
bool trv_cal_text_ok(TrvCalCursor *c, const char *text, size_t len) {
  const char *bad = NULL;
  if (!g_utf8_validate_len(text, len, &bad)) {
    c->line = 1;
    for (const char *p = text; p < bad; p++) c->line += *p == '\n';
    return trv_cal_fail(c, "byte 0x%02x is not UTF-8; expected UTF-8 text", (unsigned char)*bad);
  }
  c->line = 1;
  for (size_t i = 0; i < len; i++) {
    unsigned char b = (unsigned char)text[i];
    if (b == '\n')
      c->line++;
    else if ((b < 0x20 && b != '\t') || b == 0x7f)
      return trv_cal_fail(c, "control character 0x%02x; expected text (TAB and newline only)", b);
  }
  c->line = 0;
  return true;
}
