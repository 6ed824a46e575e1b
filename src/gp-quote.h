/* gp-quote.h - the one way a run's text reaches a generated gnuplot script
 * (gp-quote.c). */
#ifndef TRV_GP_QUOTE_H
#define TRV_GP_QUOTE_H

#include <glib.h>

/* Appends text to s as a gnuplot string literal that gnuplot reads back as
 * the same text and expands nothing of: single-quoted, a quote as U+2019
 * (gnuplot's doubled quote fails at a literal's start), a control byte (newline, tab, ...) as '?', invalid UTF-8 as U+FFFD.  Every
 * text of a run (scenario, controller, metric and sweep names and values)
 * reaches a generated script, or the comment lines of its data, through
 * this function only. */
void trv_gp_quote(GString *s, const char *text);

#endif
