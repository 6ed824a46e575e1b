/* program-report.h - `trivium report` on a program's run directory
 * (program-report.c). */
#ifndef TRV_PROGRAM_REPORT_H
#define TRV_PROGRAM_REPORT_H

#include <glib.h>
#include <stdbool.h>

#include "program-run.h"

/* Whether dir is a program's run directory: a run.json and no jobs.json
 * (a run of `trivium run` has both). */
bool trv_is_program_dir(const char *dir);
/* Writes dir/summary.csv, dir/summary.md and dir/figures/ from dir/run.json
 * (and the table on stdout unless quiet); the exit code (0, 1, or 2 with
 * *error for a run.json that is not a program's). */
int trv_program_report(const char *dir, bool quiet, GError **error);
/* The world of a program's run: the registered world of its name (its
 * referee gives the figures their bounds), else the name alone. */
const TrvWorldClass *trv_program_world(const TrvProgramRunFile *p);

#endif
