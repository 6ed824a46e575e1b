/* simgrid-options.h - the SimGrid options a file may give (simgrid-options.c).
 *
 * SimGrid's options from a user's own command line pass through as they
 * are: the user chooses them.  Options that come from a file (run.json's
 * "simgrid_options" for --replay-config, the command line a jobs.json
 * records for trivium merge) are data, and SimGrid options can name files
 * (a log appender, a trace, a search path, a replay) or load code (plugins,
 * model checking): so such an option must be on an allow-list of options
 * that do neither, with a value of the kind the option takes. */
#ifndef TRV_SIMGRID_OPTIONS_H
#define TRV_SIMGRID_OPTIONS_H

#include <glib.h>
#include <stdbool.h>

/* Most SimGrid options one file may give, and the longest. */
#define TRV_SIMGRID_FILE_MAX_OPTIONS 64
#define TRV_SIMGRID_FILE_MAX_OPTION_BYTES 256

/* Whether `option`, found in `file`, is on the allow-list (docs/outputs.md,
 * "SimGrid options from a file"):
 *   --cfg=KEY:VALUE for a model, solver, precision, TCP, context or tracing
 *     switch KEY, VALUE of the kind KEY takes (a number, yes/no, or one of
 *     a fixed set of names);
 *   --log=CATEGORY.thres:LEVEL, .fmt:FORMAT (%-conversions of SimGrid's
 *     layout without width or precision), .app:stdout or .app:stderr,
 *     .add:yes|no (and the long names threshold, appender, additivity).
 * No space, quote or backslash anywhere (SimGrid splits an option's value
 * into several settings at them).  False with *error (TRV_ERROR_INPUT)
 * "FILE: SimGrid option 'OPTION' cannot come from a file (WHY); ..." */
bool trv_simgrid_file_option_check(const char *file, const char *option, GError **error);

/* Whether SimGrid's options from the command line (args, n of them) turn
 * tracing on: the last --cfg=tracing:VALUE setting (a --cfg= may hold
 * several settings separated by blanks) with VALUE yes, on, true or 1.
 * *filename_given: whether one of them sets tracing/filename (a run writes
 * its traces inside its own directory, so the caller refuses it). */
bool trv_simgrid_tracing(const char *const *args, size_t n, bool *filename_given);

#endif
