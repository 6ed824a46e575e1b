/* cmd-trace.c - `trivium trace import`: raw taxi traces to a URS
 * calibration table (urs/import.h, format in docs/urs.md).
 *
 *   trivium trace import --format cabspotting|tlc|sg-availability
 *       --city sf|nyc|sg [--cell-km2 0.1] [--weather FILE]... [--zones FILE]
 *       [--scale-to-trips-per-month N] --out FILE INPUT...
 *
 * INPUT is a file or a directory (its files of the format's name pattern).
 * Prints the import report (rows read, used, rejected by reason with the
 * first offending file:line) on stdout, and warnings on stderr, one line
 * each ("trivium trace: warning: ..."): trips scaled to the volume of
 * another year than the trace's, weather that does not cover every day of
 * the trace, trips in zones the zone table lacks.  Warnings do not change
 * the exit code.  Exit 0 ok, 2 bad input (unknown option, missing, cut or
 * oversized file, missing column, malformed weather or zone table, a file
 * with no usable rows, a name that is not UTF-8), 1 when the table cannot
 * be written (or a file cannot be read). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "core/posterior.h"
#include "urs/import.h"

static void usage(FILE *f) {
  fprintf(f, "usage: trivium trace import --format cabspotting|tlc|sg-availability --city sf|nyc|sg\n"
             "         [--cell-km2 0.1] [--weather FILE]... [--zones FILE] [--scale-to-trips-per-month N]\n"
             "         --out FILE INPUT...\n"
             "INPUT: files or directories.  --weather may be repeated (NOAA GHCN daily CSVs, MSS daily table).\n"
             "--zones (tlc): taxi_zone_centroids.csv, found beside the input when omitted.\n"
             "--scale-to-trips-per-month (tlc): real trips a month of samples stands for (default 7.7e6).\n"
             "exit: 0 ok, 1 write failure, 2 bad input\n");
}

static void print_report(const TrvCalTable *t, const char *out, double seconds) {
  printf("wrote %s: %s (%s), %u zones with demand, %u OD pairs, %u weather days, cell %.3g km^2\n", out, t->city,
         t->source, t->zones->len, t->od->len, t->weather->len, t->grid.cell_km2);
  printf("period %s .. %s, %d of 672 slots filled from other days\n", t->period_start, t->period_end, t->filled_slots);
  printf("files %" G_GUINT64_FORMAT ", rows read %" G_GUINT64_FORMAT ", used %" G_GUINT64_FORMAT
         ", rejected %" G_GUINT64_FORMAT " (%.2f s)\n",
         t->files, t->rows_read, t->rows_used, trv_cal_table_rejected(t), seconds);
  for (guint i = 0; i < t->rejections->len; i++) {
    const TrvRejection *r = &g_array_index(t->rejections, TrvRejection, i);
    printf("  rejected %-26s %10" G_GUINT64_FORMAT "  first %s:%" G_GUINT64_FORMAT ": %.80s\n", r->reason, r->count,
           r->first_file, r->first_line, r->first_text);
  }
  for (guint i = 0; i < t->stats->len; i++) {
    const TrvStat *s = &g_array_index(t->stats, TrvStat, i);
    printf("  %-32s %.6g\n", s->name, s->value);
  }
  printf("effects on log zone demand (Poisson regression, se from the inverse Fisher information; %g%% day-block "
         "bootstrap interval over %d resamples; monthly fits; robust: usable as a grounded truth):\n",
         100 * t->estimator.level, t->estimator.resamples);
  for (int k = 0; k < TRV_EFFECT_COUNT; k++) {
    const TrvEffect *e = &t->effects[k];
    if (!e->estimated) {
      printf("  %-12s not identifiable: %s\n", trv_effect_names[k], e->note);
      continue;
    }
    const char *why = NULL;
    bool robust = trv_cal_effect_robust(e, &why);
    printf("  %-12s %+9.4f  se %.4f  %d day%s", trv_effect_names[k], e->estimate, e->se, e->days,
           e->days == 1 ? "" : "s");
    if (e->method >= TRV_EFFECT_METHOD_BOOTSTRAP) printf("  interval %+.4f .. %+.4f", e->lo, e->hi);
    if (e->months)
      printf("  %d months: sd %.4f, %+.4f .. %+.4f, %d of its sign", e->months, e->month_sd, e->month_min, e->month_max,
             e->months_same_sign);
    printf("  %s%s\n    %s\n", robust ? "robust" : "not robust: ", robust ? "" : why, e->note);
  }
}

int trv_cmd_trace(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "import")) {
    usage(argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) ? stdout : stderr);
    return argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) ? 0 : 2;
  }
  char *format = NULL, *city = NULL, *out = NULL, *zones = NULL;
  char **weather = NULL, **inputs = NULL;
  /* NAN until given: the default volume is that of a known year. */
  double cell_km2 = TRV_HEX_DEFAULT_CELL_KM2, scale = NAN;
  GOptionEntry entries[] = {
      {"format", 0, 0, G_OPTION_ARG_STRING, &format, "cabspotting, tlc or sg-availability", "F"},
      {"city", 0, 0, G_OPTION_ARG_STRING, &city, "sf, nyc or sg", "CITY"},
      {"cell-km2", 0, 0, G_OPTION_ARG_DOUBLE, &cell_km2, "hexagon cell area (default 0.1)", "A"},
      {"weather", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &weather, "daily weather CSV (repeatable)", "FILE"},
      {"zones", 0, 0, G_OPTION_ARG_FILENAME, &zones, "TLC taxi_zone_centroids.csv", "FILE"},
      {"scale-to-trips-per-month", 0, 0, G_OPTION_ARG_DOUBLE, &scale, "TLC real trips per month", "N"},
      {"out", 0, 0, G_OPTION_ARG_FILENAME, &out, "calibration table to write", "FILE"},
      {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &inputs, NULL, "INPUT..."},
      {NULL, 0, 0, 0, NULL, NULL, NULL},
  };
  GOptionContext *ctx = g_option_context_new("- import raw taxi traces");
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_help_enabled(ctx, TRUE);
  GError *err = NULL;
  int code = 0;
  TrvCalTable *table = NULL;
  GPtrArray *files = NULL, *warnings = g_ptr_array_new_with_free_func(g_free);
  int sub_argc = argc - 1;
  char **sub_argv = argv + 1;
  if (!g_option_context_parse(ctx, &sub_argc, &sub_argv, &err)) goto bad;
  const TrvCity *c = city ? trv_city_find(city) : NULL;
  if (!format || (strcmp(format, "cabspotting") && strcmp(format, "tlc") && strcmp(format, "sg-availability"))) {
    g_set_error(&err, TRV_ERROR, TRV_ERROR_INPUT, "--format must be cabspotting, tlc or sg-availability");
    goto bad;
  }
  if (!c) {
    g_set_error(&err, TRV_ERROR, TRV_ERROR_INPUT, "--city must be sf, nyc or sg");
    goto bad;
  }
  if (!out || !inputs || !inputs[0]) {
    g_set_error(&err, TRV_ERROR, TRV_ERROR_INPUT, "--out FILE and at least one INPUT are required");
    goto bad;
  }
  files = trv_import_list_inputs(format, inputs, (int)g_strv_length(inputs), &err);
  if (!files) goto bad;
  TrvImportOptions opt = {
      .city = c,
      .cell_km2 = cell_km2,
      .zones_path = zones,
      .scale_to_trips_per_month = isnan(scale) ? TRV_IMPORT_TLC_TRIPS_PER_MONTH : scale,
      .scale_year = isnan(scale) ? TRV_IMPORT_TLC_TRIPS_PER_MONTH_YEAR : 0,
      .warnings = warnings,
  };
  gint64 t0 = g_get_monotonic_time();
  table = !strcmp(format, "cabspotting") ? trv_import_cabspotting(&opt, files, &err)
          : !strcmp(format, "tlc")       ? trv_import_tlc(&opt, files, &err)
                                         : trv_import_sg(&opt, files, &err);
  if (!table) goto bad;
  for (int i = 0; weather && weather[i]; i++)
    if (!trv_weather_attach(table, weather[i], &err)) goto bad;
  trv_import_check_weather(table, warnings);
  trv_effects_estimate(table);
  for (guint i = 0; i < warnings->len; i++) fprintf(stderr, "trivium trace: warning: %s\n", (char *)warnings->pdata[i]);
  if (!trv_cal_table_write(table, out, &err)) goto bad;
  print_report(table, out, (double)(g_get_monotonic_time() - t0) / 1e6);
  goto done;
bad:
  if (err && err->domain == G_OPTION_ERROR)
    fprintf(stderr, "trivium trace import: %s; see trivium trace --help\n", err->message);
  else
    fprintf(stderr, "trivium trace: %s\n", err ? err->message : "bad arguments");
  /* Bad input (ours or GOption's) is 2; a failed read or write is 1. */
  code = err && err->domain == TRV_ERROR && err->code == TRV_ERROR_IO ? 1 : 2;
done:
  g_ptr_array_unref(warnings);
  g_clear_error(&err);
  trv_cal_table_free(table);
  if (files) g_ptr_array_unref(files);
  g_option_context_free(ctx);
  g_free(format);
  g_free(city);
  g_free(out);
  g_free(zones);
  g_strfreev(weather);
  g_strfreev(inputs);
  return code;
}
