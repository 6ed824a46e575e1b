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

/* What gnuplot draws: nothing (the data, scripts and captions are still
 * written, for `trivium report` or gnuplot to draw later), SVG, PNG, or
 * both (the default). */
typedef enum { TRV_FIG_NONE = 0, TRV_FIG_SVG = 1, TRV_FIG_PNG = 2, TRV_FIG_ALL = 3 } TrvFigFormats;
/* --figures=none|svg|png|all; false with *error (TRV_ERROR_INPUT) naming
 * the option and the expected values. */
bool trv_fig_formats_parse(const char *text, TrvFigFormats *out, GError **error);
void trv_fig_formats_set(TrvFigFormats formats);
/* CPU seconds of the gnuplot processes so far (user + system), and their
 * wall seconds: what drawing the figures cost, apart from the run. */
double trv_fig_cpu_seconds(void);
/* CPU seconds (user + system) of this process's waited-for children so far
 * (getrusage RUSAGE_CHILDREN). */
double trv_children_cpu_seconds(void);
double trv_fig_wall_seconds(void);

/* OUT/figures, created; NULL with *error. */
char *trv_fig_dir(const char *out, GError **error);
/* " %.9g", or " NaN" for a value that is not finite. */
void trv_fig_num(GString *s, double v);
/* The palette, then per terminal drawn (SVG, then PNG, width x height; both
 * when nothing is drawn now) its output NAME.svg / NAME.png and the plot
 * commands `plot` (which set up everything that differs between panels,
 * the legend included). */
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
