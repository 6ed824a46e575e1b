/* caltable-fields.h - the field syntax of a URS calibration table
 * (caltable-fields.c), shared by the reader (caltable-read.c).  Internal
 * to the reader: not a public API. */
#ifndef TRV_URS_CALTABLE_FIELDS_H
#define TRV_URS_CALTABLE_FIELDS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "urs/caltable.h"

/* Where the reader is: the file's name and line, and where its first
 * error goes. */
typedef struct {
  const char *name;
  int line;
  GError **error;
} TrvCalCursor;

/* Sets *c->error to "NAME:LINE: " and the message; returns false. */
bool trv_cal_fail(TrvCalCursor *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* Fields are quoted in messages up to 60 bytes (a hostile file's field can
 * be megabytes long), cut on a character boundary: TRV_CAL_Q takes
 * trv_cal_clip(s), s. */
#define TRV_CAL_Q "%.*s"
int trv_cal_clip(const char *s);

/* A whole field as a double in [lo, hi]; "NA" gives NAN when na_ok. */
bool trv_cal_get_double(TrvCalCursor *c, const char *s, bool na_ok, double lo, double hi, double *out);
/* Whether s, which reads as v, is a plain decimal of at most six
 * significant digits (one the writer's rounding leaves as it is). */
bool trv_cal_six_digit_decimal(const char *s, double v);
/* A whole field as an integer: below 2^64, or in [lo, hi]. */
bool trv_cal_get_u64(TrvCalCursor *c, const char *s, uint64_t *out);
bool trv_cal_get_int(TrvCalCursor *c, const char *s, int lo, int hi, int *out);
/* A strict YYYY-MM-DD at s of a valid date of TRV_CAL_YEAR_MIN..MAX (what
 * follows is the caller's). */
bool trv_cal_parse_date(const char *s, int *y, int *m, int *d);
/* "" or a local time YYYY-MM-DDTHH:MM:SS. */
bool trv_cal_local_time_ok(const char *s);
/* Splits line in place into exactly n TAB-separated fields f[0..n-1]. */
bool trv_cal_fields(TrvCalCursor *c, char *line, char **f, int n);
/* The whole text: UTF-8 with no control character but TAB and newline;
 * the first offence is reported with its line (c->line is 0 after). */
bool trv_cal_text_ok(TrvCalCursor *c, const char *text, size_t len);

#endif
