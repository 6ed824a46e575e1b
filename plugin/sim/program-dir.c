/* program-dir.c - a program's run directory (trivium_results_write_dir):
 * what a SimGrid program with Trivium attached measured, written so that
 * `trivium report DIR` makes its tables and figures.
 *
 * DIR/episodes.csv holds the rows, exactly the lines `trivium run` writes
 * for the same cell; DIR/run.json (format "trivium-program-1") holds the
 * program's command line, the world, controller and seed, every setting,
 * the layout of the rows (components, the world's metrics, the
 * change-points) and the cell's reduction (TrvCellSummary) with every
 * number written so that it reads back as the same double (%.17g; null
 * for NaN, "inf" and "-inf" as strings), so that the report's summary is
 * the one `trivium run` writes from its cell file.  The report reads it
 * back in src/program-report.c.  Files are written as a run writes its
 * own (core/out-file.h): inside DIR, never through a symbolic link, under
 * a temporary name renamed when whole.  A directory that holds a run of
 * `trivium run` (its jobs.json) is refused: the report would read that
 * run instead. */
#include <math.h>
#include <string.h>

#include "core/out-file.h"
#include "sim-internal.h"

/* A JSON string: quotes, backslashes and control bytes escaped; bytes
 * that are not UTF-8 as U+FFFD (names come from the program). */
static void json_string(GString *o, const char *s) {
  char *valid = g_utf8_make_valid(s ? s : "", -1);
  g_string_append_c(o, '"');
  for (const unsigned char *p = (const unsigned char *)valid; *p; p++) {
    if (*p == '"' || *p == '\\')
      g_string_append_printf(o, "\\%c", *p);
    else if (*p < 0x20 || *p == 0x7f)
      g_string_append_printf(o, "\\u%04x", *p);
    else
      g_string_append_c(o, (char)*p);
  }
  g_string_append_c(o, '"');
  g_free(valid);
}

static void json_number(GString *o, double v) {
  if (isnan(v))
    g_string_append(o, "null");
  else if (isinf(v))
    g_string_append(o, v > 0 ? "\"inf\"" : "\"-inf\"");
  else {
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_ascii_formatd(buf, sizeof buf, "%.17g", v);
    g_string_append(o, buf);
  }
}

static void json_numbers(GString *o, const char *name, const double *v, int n) {
  g_string_append_printf(o, ",\n    \"%s\": [", name);
  for (int i = 0; i < n; i++) {
    if (i) g_string_append(o, ", ");
    json_number(o, v[i]);
  }
  g_string_append_c(o, ']');
}

static void json_ints(GString *o, const char *name, const int *v, int n, const char *indent) {
  g_string_append_printf(o, ",\n%s\"%s\": [", indent, name);
  for (int i = 0; i < n; i++) g_string_append_printf(o, "%s%d", i ? ", " : "", v[i]);
  g_string_append_c(o, ']');
}

static char *run_json(const TrvProgramRun *run) {
  GString *o = g_string_new("{\n  \"format\": \"trivium-program-1\",\n  \"status\": \"complete\",\n  \"version\": ");
  json_string(o, run->version);
  g_string_append(o, ",\n  \"command_line\": [");
  for (int i = 0; run->command_line && run->command_line[i]; i++) {
    if (i) g_string_append(o, ", ");
    json_string(o, run->command_line[i]);
  }
  g_string_append(o, "],\n  \"world\": ");
  json_string(o, run->world);
  g_string_append(o, ",\n  \"controller\": ");
  json_string(o, run->layout->controller);
  g_string_append_printf(o, ",\n  \"seed\": %llu,\n  \"settings\": {", (unsigned long long)run->seed);
  for (size_t i = 0; i < run->n_settings; i++) {
    g_string_append(o, i ? ",\n    " : "\n    ");
    json_string(o, run->setting_keys[i]);
    g_string_append(o, ": ");
    json_string(o, run->setting_values[i]);
  }
  g_string_append_printf(o,
                         "\n  },\n  \"episodes\": %d,\n  \"episodes_played\": %zu,\n  \"ended_early\": %s,\n"
                         "  \"components\": [",
                         run->layout->episodes, run->n_rows, run->ended_early ? "true" : "false");
  const TrvCandidates *cand = run->layout->cand;
  for (int j = 0; j < cand->n_components; j++) {
    if (j) g_string_append(o, ", ");
    json_string(o, cand->components[j].name);
  }
  g_string_append(o, "],\n  \"components_observed\": [");
  for (int j = 0; j < cand->n_components; j++)
    g_string_append_printf(o, "%s%s", j ? ", " : "", cand->components[j].observed ? "true" : "false");
  g_string_append(o, "],\n  \"world_metrics\": [");
  for (int k = 0; run->layout->metric_names && run->layout->metric_names[k]; k++) {
    if (k) g_string_append(o, ", ");
    json_string(o, run->layout->metric_names[k]);
  }
  g_string_append_c(o, ']');
  json_ints(o, "change_points", run->layout->change_points, run->layout->n_change_points, "  ");
  const TrvCellSummary *s = run->summary;
  g_string_append_printf(o, ",\n  \"summary\": {\n    \"episodes\": %d,\n    \"metrics\": {", s->episodes);
  for (int m = 0; m < TRV_METRIC_COUNT; m++) {
    g_string_append_printf(o, "%s\"%s\": ", m ? ", " : "", trivium_metric_name(m));
    json_number(o, s->metric[m]);
  }
  g_string_append_c(o, '}');
  json_numbers(o, "world_metric_mean", s->world_metric_mean, s->n_world_metrics);
  json_numbers(o, "final_p", s->final_p, s->n_components);
  json_ints(o, "curve_episode", s->curve_episode, s->n_curve, "    ");
  json_numbers(o, "curve_r_out", s->curve_r_out, s->n_curve);
  g_string_append(o, ",\n    \"recovery\": [");
  for (int k = 0; k < s->n_change_points; k++) {
    const TrvChangePointRecovery *r = &s->change_point[k];
    g_string_append_printf(o, "%s\n      [%d, ", k ? "," : "", r->change_point);
    const double v[] = {r->recovery, r->commit_recovery, r->exposure, r->committed_exposure};
    for (int i = 0; i < 4; i++) {
      if (i) g_string_append(o, ", ");
      json_number(o, v[i]);
    }
    g_string_append_c(o, ']');
  }
  g_string_append(o, "]\n  }\n}\n");
  return g_string_free(o, FALSE);
}

bool trv_sim_program_dir_write(const TrvProgramRun *run, const char *dir, GError **error) {
  if (!trv_out_dir(dir, true, error)) return false;
  char *jobs = g_build_filename(dir, "jobs.json", NULL);
  bool taken = g_file_test(jobs, G_FILE_TEST_EXISTS) || g_file_test(jobs, G_FILE_TEST_IS_SYMLINK);
  g_free(jobs);
  if (taken) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s holds a run of trivium run (jobs.json): write the program's "
                "results to another directory",
                dir);
    return false;
  }
  GString *csv = g_string_new(NULL);
  trv_results_csv_header(csv, run->layout);
  for (size_t i = 0; i < run->n_rows; i++) trv_results_csv_row(csv, run->layout, &run->rows[i]);
  char *json = run_json(run);
  char *csv_path = g_build_filename(dir, "episodes.csv", NULL), *json_path = g_build_filename(dir, "run.json", NULL);
  bool ok = trv_write_file_atomic(csv_path, csv->str, (gssize)csv->len, error) &&
            trv_write_file_atomic(json_path, json, -1, error);
  g_free(csv_path);
  g_free(json_path);
  g_free(json);
  g_string_free(csv, TRUE);
  return ok;
}
