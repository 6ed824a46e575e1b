/* program-merge.h - `trivium merge OUT DIR...` on the run directories of
 * a program's processes (program-merge.c). */
#ifndef TRV_PROGRAM_MERGE_H
#define TRV_PROGRAM_MERGE_H

#include <glib.h>
#include <stdbool.h>

/* Joins the n_dirs program directories into out; 0, or 2 (a bad input) /
 * 1 (a write that failed) with *error. */
int trv_program_merge(const char *out, char *const *dirs, int n_dirs, bool quiet, GError **error);

#endif
