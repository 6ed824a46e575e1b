/* program-run.h - a program's run.json (format trivium-program-1, written
 * by trivium_results_write_dir), read back for `trivium report`
 * (program-run.c). */
#ifndef TRV_PROGRAM_RUN_H
#define TRV_PROGRAM_RUN_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "core/params.h"
#include "core/results.h"

/* What a report is built from. */
typedef struct {
  TrvParams params;
  TrvWorldClass world; /* its name only: a report needs no world's code */
  TrvComponent comps[TRV_MAX_COMPONENTS];
  TrvCandidates cand;
  const char *metric_names[TRV_WORLD_METRICS_MAX + 1];
  TrvCellLayout layout;
  TrvCellSummary *sum;
  const char *controller;
  int seed;
  JsonParser *parser; /* holds the names */
} TrvProgramRunFile;

/* Reads and checks the file at path; NULL with *error (TRV_ERROR_INPUT,
 * one line naming the file and the member) for anything but a program's
 * run.json.  Free with trv_program_run_free. */
TrvProgramRunFile *trv_program_run_load(const char *path, GError **error);
void trv_program_run_free(TrvProgramRunFile *p);

#endif
