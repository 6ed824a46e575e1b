/* gp-quote.c - text of a run as a gnuplot string literal (gp-quote.h).
 * Kept apart from figures.c so that its test links it alone. */
#include <config.h>

#include "gp-quote.h"

void trv_gp_quote(GString *s, const char *text) {
  /* valid UTF-8 first (an SVG is XML), then byte by byte: inside single
   * quotes gnuplot expands nothing (no backquote, macro or backslash
   * escape).  Its one escape, a doubled quote, fails at the start of a
   * literal (four quotes in a row are a syntax error), so a quote is
   * written as U+2019: the literal holds no quote of its own at all */
  char *valid = g_utf8_make_valid(text, -1);
  g_string_append_c(s, '\'');
  for (const char *p = valid; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == '\'')
      g_string_append(s, "\xe2\x80\x99");
    else if (c < 0x20 || c == 0x7f)
      g_string_append_c(s, '?');
    else
      g_string_append_c(s, (char)c);
  }
  g_string_append_c(s, '\'');
  g_free(valid);
}
