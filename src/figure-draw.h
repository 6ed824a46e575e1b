/* figure-draw.h - what every figure of a run shares (figure-draw.c): the
 * figures directory, numbers in a data file, the terminal lines of a
 * script, and the writing of NAME.dat, NAME.gp and NAME.txt (never through
 * a link) with the drawing by gnuplot, batched per directory.  The figures
 * themselves are in figures.c (sweeps, recovery) and figure-run.c (a
 * point's regret and presences). */
#ifndef TRV_FIGURE_DRAW_H
#define TRV_FIGURE_DRAW_H

#include <glib.h>
#include <stdbool.h>

#include "report.h"

/* OUT/figures, created; NULL with *error. */
char *trv_fig_dir(const char *out, GError **error);
/* " %.9g", or " NaN" for a value that is not finite. */
void trv_fig_num(GString *s, double v);
/* The palette, then per terminal (SVG, then PNG, width x height) its
 * output NAME.svg / NAME.png and the plot commands `plot` (which set up
 * everything that differs between panels, the legend included). */
void trv_fig_outputs(GString *gp, const char *name, int width, int height, const char *plot);
/* dir/NAME.dat, dir/NAME.gp (with `reset` after its first comment line)
 * and dir/NAME.txt (the caption) written whole; the drawings' names
 * checked (gnuplot writes them itself); then drawn, or queued while a
 * batch is open.  False with *error. */
bool trv_fig_write(const char *dir, const char *name, const GString *dat, const GString *gp, const char *caption,
                   GError **error);
/* While a batch is open (begin .. end) the figures of dir are queued and
 * drawn together by one gnuplot at the end. */
void trv_fig_batch_begin(void);
void trv_fig_batch_end(const char *dir);
/* recovery.* of a point (figures.c). */
bool trv_fig_recovery(const TrvRunResult *r, const char *dir, GError **error);

#endif
