/* urs-fuzz.h - what the URS readers' libFuzzer harnesses share: the
 * properties every calibration table must keep, whoever built it.
 *
 * A table an importer returns, or the reader accepts, must pass the
 * writer's checks, and its text must read back to an equal table whose
 * text is the same bytes: the reader is the judge of what may be written,
 * so any table that cannot be written and read back is a bug, whatever the
 * input.  A violation aborts with the reason, and libFuzzer keeps the
 * input.  Included by fuzz/NAME-fuzz.c only. */
#ifndef TRV_URS_FUZZ_H
#define TRV_URS_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trivium/error.h>

#include "urs/caltable.h"
#include "urs/import.h"

/* GLib criticals and warnings abort: a library asserting on a hostile
 * input (json-glib checks the types of the nodes it is asked for) is a
 * bug of the reader that asked. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  g_log_set_always_fatal(G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_FATAL_MASK);
  return 0;
}

static inline void urs_fuzz_fail(const char *what, const GError *err) {
  fprintf(stderr, "urs-fuzz: %s%s%s\n", what, err ? ": " : "", err ? err->message : "");
  abort();
}

/* The table passes trv_cal_table_check and survives text -> table
 * unchanged. */
static inline void urs_fuzz_check_table(const TrvCalTable *t) {
  GError *err = NULL;
  if (!trv_cal_table_check(t, &err)) urs_fuzz_fail("a table fails the writer's check", err);
  char *first = trv_cal_table_to_string(t);
  TrvCalTable *back = trv_cal_table_parse(first, strlen(first), "fuzz-back.cal", &err);
  if (!back) urs_fuzz_fail("a table's text does not read back", err);
  /* Equal tables write the same bytes: to_string reads only what equal
   * compares. */
  if (!trv_cal_table_equal(t, back)) urs_fuzz_fail("a table reads back different", NULL);
  double rate[TRV_SLOTS_PER_WEEK];
  trv_cal_table_city_rate(back, rate);
  for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++)
    if (!(rate[s] >= 0)) urs_fuzz_fail("a negative or NaN city rate", NULL);
  (void)trv_histogram_quantile(&back->duration_s, 0.5);
  g_free(first);
  trv_cal_table_free(back);
}

/* After an import: the table keeps the properties above, and the weather
 * coverage and warnings can be computed on it. */
static inline void urs_fuzz_check_import(TrvCalTable *t, GPtrArray *warnings) {
  if (!t) return;
  int days, uncovered;
  trv_import_weather_coverage(t, &days, &uncovered);
  if (days < 0 || uncovered < 0 || uncovered > days) urs_fuzz_fail("weather coverage out of range", NULL);
  trv_import_check_weather(t, warnings);
  urs_fuzz_check_table(t);
  trv_cal_table_free(t);
}

static inline TrvImportOptions urs_fuzz_options(const char *city, GPtrArray *warnings) {
  TrvImportOptions o = {.city = trv_city_find(city),
                        .cell_km2 = TRV_HEX_DEFAULT_CELL_KM2,
                        .scale_to_trips_per_month = TRV_IMPORT_TLC_TRIPS_PER_MONTH,
                        .scale_year = TRV_IMPORT_TLC_TRIPS_PER_MONTH_YEAR,
                        .warnings = warnings};
  return o;
}

#endif
