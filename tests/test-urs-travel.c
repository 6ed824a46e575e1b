/* test-urs-travel.c - the travel times of the calibration table: held out
 * against trips they were not fitted on (New York: fitted on the odd
 * months of the TLC samples, tested on the even months; San Francisco:
 * fitted on four days of the cabspotting week, tested on the other three;
 * both skip when ../shared/data is absent), and hostile [travel] rows
 * refused with the file and line (docs/urs.md, "Travel times"). */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "urs/caltable-travel.h"
#include "urs/import.h"

static TrvCalTable *import_months(const char *dir, int parity) {
  GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
  for (int m = 1; m <= 12; m++)
    if (m % 2 == parity) g_ptr_array_add(files, g_strdup_printf("%s/yellow_tripdata_sample_2019-%02d.csv", dir, m));
  TrvImportOptions o = {.city = trv_city_find("nyc"),
                        .cell_km2 = TRV_HEX_DEFAULT_CELL_KM2,
                        .scale_to_trips_per_month = TRV_IMPORT_TLC_TRIPS_PER_MONTH};
  GError *err = NULL;
  TrvCalTable *t = trv_import_tlc(&o, files, &err);
  g_assert_no_error(err);
  g_ptr_array_unref(files);
  return t;
}

/* A fitted pair's key: its cells and band, as text (no overflow, no
 * collision whatever the cells' coordinates). */
static char *pair_key(TrvHexCell o, TrvHexCell d, int band) {
  return g_strdup_printf("%d,%d>%d,%d@%d", o.q, o.r, d.q, d.r, band);
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The held-out comparison of a fitted table with a test table of other
 * trips: for every (origin, destination, band) with at least min_trips
 * trips in `test`, the relative error of fit's estimate (the pair's mean
 * shrunk toward its band's line) and of the line alone against the test
 * trips' mean. */
typedef struct {
  guint pairs;
  double p10, p25, median, p75, p90, weighted, within_20, line_median, line_within_20;
} HeldOut;

static HeldOut compare_held_out(const TrvCalTable *fit, const TrvCalTable *test, double min_trips) {
  /* fit pairs by their cells and band (NYC cells are one per TLC zone) */
  GHashTable *by_cells = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < fit->travel->pairs->len; i++) {
    const TrvTravelPair *p = &g_array_index(fit->travel->pairs, TrvTravelPair, i);
    TrvHexCell o = g_array_index(fit->zones, TrvZoneDemand, p->origin).cell;
    TrvHexCell d = g_array_index(fit->zones, TrvZoneDemand, p->destination).cell;
    g_hash_table_insert(by_cells, pair_key(o, d, p->band), GUINT_TO_POINTER(i + 1));
  }
  GArray *err_table = g_array_new(FALSE, FALSE, sizeof(double)), *err_line = g_array_new(FALSE, FALSE, sizeof(double));
  double weighted = 0, weight = 0;
  int within = 0, line_within = 0;
  for (guint i = 0; i < test->travel->pairs->len; i++) {
    const TrvTravelPair *p = &g_array_index(test->travel->pairs, TrvTravelPair, i);
    if (p->trips < min_trips) continue;
    TrvHexCell o = g_array_index(test->zones, TrvZoneDemand, p->origin).cell;
    TrvHexCell d = g_array_index(test->zones, TrvZoneDemand, p->destination).cell;
    char *key = pair_key(o, d, p->band);
    double km = trv_travel_km(fit, o, d), n = 0, mean = 0;
    guint at = GPOINTER_TO_UINT(g_hash_table_lookup(by_cells, key));
    g_free(key);
    if (at) {
      const TrvTravelPair *q = &g_array_index(fit->travel->pairs, TrvTravelPair, at - 1);
      n = q->trips, mean = q->mean_min;
    }
    double e = fabs(trv_travel_estimate(fit->travel, p->band, km, n, mean) - p->mean_min) / p->mean_min;
    double l = fabs(trv_travel_estimate(fit->travel, p->band, km, 0, 0) - p->mean_min) / p->mean_min;
    g_array_append_val(err_table, e);
    g_array_append_val(err_line, l);
    weighted += e * p->trips, weight += p->trips;
    within += e <= 0.2;
    line_within += l <= 0.2;
  }
  guint m = err_table->len;
  g_assert_cmpuint(m, >, 100);
  qsort(err_table->data, m, sizeof(double), compare_double);
  qsort(err_line->data, m, sizeof(double), compare_double);
  double *et = (double *)(void *)err_table->data, *el = (double *)(void *)err_line->data;
  HeldOut h = {m,
               et[m / 10],
               et[m / 4],
               et[m / 2],
               et[3 * m / 4],
               et[9 * m / 10],
               weighted / weight,
               (double)within / m,
               el[m / 2],
               (double)line_within / m};
  g_array_free(err_table, TRUE);
  g_array_free(err_line, TRUE);
  g_hash_table_destroy(by_cells);
  return h;
}

static void report_held_out(const char *what, const HeldOut *h) {
  g_test_message("%s, %u (origin, destination, band): relative error of the mean: p10 %.3f, p25 %.3f, median %.3f, "
                 "p75 %.3f, p90 %.3f; trip-weighted mean %.3f; within 20%%: %.1f%%; the distance line alone: "
                 "median %.3f, within 20%%: %.1f%%",
                 what, h->pairs, h->p10, h->p25, h->median, h->p75, h->p90, h->weighted, 100 * h->within_20,
                 h->line_median, 100 * h->line_within_20);
}

/* The fit table's estimate of every (origin, destination, band) with at
 * least 10 held-out trips against the held-out mean: the relative errors'
 * median and trip-weighted mean within 20%, most pairs within 20%, and
 * better than the distance line alone (which a table without pairs, or
 * one whose pairs were ignored, would give). */
static void test_nyc_held_out_months(void) {
  char *dir = g_build_filename(TRV_SHARED_DATA, "urs/nyc-tlc", NULL);
  if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
    g_test_skip("../shared/data/urs/nyc-tlc is absent");
    g_free(dir);
    return;
  }
  TrvCalTable *fit = import_months(dir, 1), *test = import_months(dir, 0);
  g_assert_nonnull(fit->travel);
  g_assert_cmpstr(fit->travel->source, ==, "trips");
  HeldOut h = compare_held_out(fit, test, 10);
  report_held_out("NYC, fitted on the odd months, >= 10 trips of the even months", &h);
  g_assert_cmpuint(h.pairs, >, 1000);
  g_assert_cmpfloat(h.median, <, 0.2);
  g_assert_cmpfloat(h.weighted, <, 0.2);
  g_assert_cmpfloat(h.within_20, >, 0.75);
  g_assert_cmpfloat(h.median, <, 0.75 * h.line_median);
  trv_cal_table_free(fit);
  trv_cal_table_free(test);
  g_free(dir);
}

/* The cabspotting week starts on Sunday 2008-05-18 00:00 PDT (07:00 UTC);
 * day d of it is [SF_WEEK_START + d x 86400, + 86400). */
#define SF_WEEK_START INT64_C(1211094000)

static int compare_name(gconstpointer a, gconstpointer b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every cab file of dir cut to the fixes of the days whose bit is set in
 * `days` (bit d: day d of the week), in memory; the importer sees each
 * cab's remaining fixes as its trace (a trip cut by a left-out day has a
 * gap of hours, so the 10-minute rule keeps it out of the travel times).
 * Returns the table; the inputs' buffers are freed. */
static TrvCalTable *import_sf_days(const char *dir, unsigned days) {
  GDir *d = g_dir_open(dir, 0, NULL);
  g_assert_nonnull(d);
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  const char *name;
  while ((name = g_dir_read_name(d)))
    if (g_str_has_prefix(name, "new_") && g_str_has_suffix(name, ".txt")) g_ptr_array_add(names, g_strdup(name));
  g_dir_close(d);
  g_ptr_array_sort(names, compare_name); /* the order only matters for messages */
  TrvImportInput *in = g_new0(TrvImportInput, names->len);
  size_t n = 0;
  for (guint i = 0; i < names->len; i++) {
    char *path = g_build_filename(dir, g_ptr_array_index(names, i), NULL), *text = NULL;
    gsize len = 0;
    g_assert_true(g_file_get_contents(path, &text, &len, NULL));
    GString *kept = g_string_sized_new(len);
    for (char *line = text; line < text + len;) {
      char *eol = memchr(line, '\n', (size_t)(text + len - line));
      char *next = eol ? eol + 1 : text + len;
      const char *last = next;
      while (last > line && last[-1] != ' ') last--;
      /* a line without a time belongs to no day: keep it, the importer reports it */
      long long t = last > line ? strtoll(last, NULL, 10) : SF_WEEK_START;
      long long day = (t - SF_WEEK_START) / 86400;
      if (t < SF_WEEK_START || day > 6 || (days >> day & 1)) g_string_append_len(kept, line, next - line);
      line = next;
    }
    g_free(text);
    if (kept->len == 0) { /* a cab off the road those days: no file */
      g_string_free(kept, TRUE);
      g_free(path);
      continue;
    }
    in[n].name = path;
    in[n].len = kept->len;
    in[n++].data = g_string_free(kept, FALSE);
  }
  TrvImportOptions o = {.city = trv_city_find("sf"), .cell_km2 = TRV_HEX_DEFAULT_CELL_KM2};
  GError *err = NULL;
  TrvCalTable *t = trv_import_cabspotting_inputs(&o, in, n, &err);
  g_assert_no_error(err);
  for (size_t i = 0; i < n; i++) {
    g_free((char *)in[i].name);
    g_free((char *)in[i].data);
  }
  g_free(in);
  g_ptr_array_unref(names);
  return t;
}

/* San Francisco by days: fitted on Sunday, Tuesday, Thursday and Saturday
 * of the week, tested on Monday, Wednesday and Friday, every (origin,
 * destination, band) with at least 5 test trips.  The cabspotting cells
 * are small (a pair has 1.5 trips on average over the week), so the
 * pairs' means are noisy and the shrinkage toward the line carries more
 * than in New York: the assertions are those the fit meets with a margin
 * and a table whose pairs or lines were wrong would not (docs/urs.md,
 * "Travel times"). */
static void test_sf_held_out_days(void) {
  char *dir = g_build_filename(TRV_SHARED_DATA, "urs/sf-cabspotting", NULL);
  if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
    g_test_skip("../shared/data/urs/sf-cabspotting is absent");
    g_free(dir);
    return;
  }
  TrvCalTable *fit = import_sf_days(dir, 1u << 0 | 1u << 2 | 1u << 4 | 1u << 6);
  TrvCalTable *test = import_sf_days(dir, 1u << 1 | 1u << 3 | 1u << 5);
  g_assert_nonnull(fit->travel);
  g_assert_cmpstr(fit->travel->source, ==, "trips");
  HeldOut h = compare_held_out(fit, test, 5);
  report_held_out("SF, fitted on Sun, Tue, Thu, Sat, >= 5 trips of Mon, Wed, Fri", &h);
  g_assert_cmpuint(h.pairs, >, 500);
  g_assert_cmpfloat(h.median, <, 0.2);
  g_assert_cmpfloat(h.weighted, <, 0.25);
  g_assert_cmpfloat(h.within_20, >, 0.6);
  g_assert_cmpfloat(h.median, <, 0.75 * h.line_median);
  g_assert_cmpfloat(h.within_20, >, h.line_within_20 + 0.15);
  trv_cal_table_free(fit);
  trv_cal_table_free(test);
  g_free(dir);
}

/* A table with travel times, from the TLC sample. */
static char *sample_table_text(void) {
  TrvImportOptions o = {.city = trv_city_find("nyc"),
                        .cell_km2 = TRV_HEX_DEFAULT_CELL_KM2,
                        .zones_path = TRV_URS_SAMPLES "/tlc/taxi_zone_centroids.csv",
                        .scale_to_trips_per_month = TRV_IMPORT_TLC_TRIPS_PER_MONTH};
  GPtrArray *files = g_ptr_array_new();
  g_ptr_array_add(files, (char *)TRV_URS_SAMPLES "/tlc/trips-renamed.csv");
  GError *err = NULL;
  TrvCalTable *t = trv_import_tlc(&o, files, &err);
  g_assert_no_error(err);
  g_assert_nonnull(t->travel);
  g_assert_cmpuint(t->travel->pairs->len, >, 0);
  char *text = trv_cal_table_to_string(t);
  trv_cal_table_free(t);
  g_ptr_array_free(files, TRUE);
  return text;
}

static int line_of(const char *text, const char *at) {
  int n = 1;
  for (const char *c = text; c < at; c++) n += *c == '\n';
  return n;
}

/* Replaces the first pair row's fields after "pair\t" with `fields` and
 * checks the reader refuses it at that line with `what`. */
static void assert_pair_refused(const char *text, const char *fields, const char *what) {
  const char *row = strstr(text, "\npair\t") + 1, *eol = strchr(row, '\n');
  char *bad = g_strdup_printf("%.*spair\t%s%s", (int)(row - text), text, fields, eol);
  GError *err = NULL;
  g_assert_null(trv_cal_table_parse(bad, strlen(bad), "t.cal", &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  char *prefix = g_strdup_printf("t.cal:%d: ", line_of(text, row));
  if (!g_str_has_prefix(err->message, prefix) || !strstr(err->message, what))
    g_error("'%s' gave '%s', wanted prefix '%s' and '%s'", fields, err->message, prefix, what);
  g_assert_null(strchr(err->message, '\n'));
  g_free(prefix);
  g_clear_error(&err);
  g_free(bad);
}

static void test_hostile_travel_rows_are_refused_at_their_line(void) {
  char *text = sample_table_text();
  GError *err = NULL;
  TrvCalTable *t = trv_cal_table_parse(text, strlen(text), "t.cal", &err);
  g_assert_no_error(err);
  trv_cal_table_free(t);
  assert_pair_refused(text, "0\t0\t2\t3\t-4.5", "expected 1..180");
  assert_pair_refused(text, "0\t0\t2\t3\t0", "expected 1..180");
  assert_pair_refused(text, "0\t0\t2\t3\t100000", "expected 1..180");
  assert_pair_refused(text, "0\t0\t2\t3\tnan", "expected pair TAB");
  assert_pair_refused(text, "0\t0\t2\t0\t12", "expected a whole number 1..");
  assert_pair_refused(text, "0\t0\t2\t2.5\t12", "expected a whole number 1..");
  assert_pair_refused(text, "0\t0\t7\t3\t12", "band 7");
  assert_pair_refused(text, "0\t99999\t2\t3\t12", "expected zones 0..");
  assert_pair_refused(text, "0\t0\t2\t3", "expected pair TAB");
  /* the refused line is quoted whole, the fields after the bad one too */
  assert_pair_refused(text, "0\t0\t2\tx\t12", "12'; expected pair TAB");
  assert_pair_refused(text, "0\t0\t2\t3\t12\t977", "977'; expected pair TAB");
  assert_pair_refused(text, "0\t0\t2\t3\t12\t977\t5\t6", "6'; expected pair TAB");
  assert_pair_refused(text, "0\t-1\t2\t3\t12", "expected pair TAB");
  /* a band's line out of bounds, and a missing band row */
  const char *band = strstr(text, "\nband\t1\t") + 1, *eol = strchr(band, '\n');
  char *bad = g_strdup_printf("%.*sband\t1\t-3\t2\t1\t10%s", (int)(band - text), text, eol);
  g_assert_null(trv_cal_table_parse(bad, strlen(bad), "t.cal", &err));
  g_assert_nonnull(strstr(err->message, "a = -3 minutes; expected 0..180"));
  g_clear_error(&err);
  g_free(bad);
  bad = g_strdup_printf("%.*s%s", (int)(band - text), text, eol + 1);
  g_assert_null(trv_cal_table_parse(bad, strlen(bad), "t.cal", &err));
  g_assert_nonnull(strstr(err->message, "band 2 out of order; expected 1"));
  g_clear_error(&err);
  g_free(bad);
  g_free(text);
}

/* The import leaves out trips that cannot be a ride between their ends,
 * counted by reason. */
static void test_implausible_trips_are_left_out_and_counted(void) {
  TrvHexGrid g;
  g_assert_true(trv_hex_grid_init(&g, 40.6, 40.8, -74.0, -73.8, 0.1, NULL));
  TrvCalTable *t = trv_cal_table_new("nyc", "tlc", &g);
  TrvHexCell a = trv_hex_cell_of_point(&g, 40.65, -73.95), b = trv_hex_cell_of_point(&g, 40.75, -73.85);
  double km = trv_travel_km(t, a, b);
  trv_cal_table_add_od(t, a, b, 5);
  int64_t noon = 12 * 3600;
  trv_travel_add_trip(t, a, b, noon, 30);              /* under 60 s */
  trv_travel_add_trip(t, a, b, noon, -600);            /* negative */
  trv_travel_add_trip(t, a, b, noon, NAN);             /* not a number */
  trv_travel_add_trip(t, a, b, noon, 4 * 3600);        /* over 3 h */
  trv_travel_add_trip(t, a, b, noon, km / 150 * 3600); /* 150 km/h */
  trv_travel_add_trip(t, a, b, noon, 20 * 60);         /* kept */
  trv_travel_add_trip(t, a, b, noon + 3600, 30 * 60);  /* kept */
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  trv_travel_finish(t, warnings);
  g_assert_cmpfloat(trv_cal_table_stat(t, "travel_left_out_under_60s"), ==, 3);
  g_assert_cmpfloat(trv_cal_table_stat(t, "travel_left_out_over_3h"), ==, 1);
  g_assert_cmpfloat(trv_cal_table_stat(t, "travel_left_out_over_100kmh"), ==, 1);
  g_assert_cmpfloat(trv_cal_table_stat(t, "travel_trips"), ==, 2);
  g_assert_cmpuint(warnings->len, ==, 1);
  g_assert_nonnull(strstr(g_ptr_array_index(warnings, 0), "5 of 7 trips left out: 3 under 60 s, 1 over 3 h, 1"));
  const TrvTravelPair *p = &g_array_index(t->travel->pairs, TrvTravelPair, 0);
  g_assert_cmpuint(t->travel->pairs->len, ==, 1);
  g_assert_cmpfloat(p->trips, ==, 2);
  g_assert_cmpfloat(p->mean_min, ==, 25);
  g_assert_cmpint(p->band, ==, trv_travel_band_of_hour(12));
  g_ptr_array_unref(warnings);
  trv_cal_table_free(t);
  /* every trip left out: no pair, no line fitted, and the table reads back */
  t = trv_cal_table_new("nyc", "tlc", &g);
  trv_cal_table_add_od(t, a, b, 1);
  trv_travel_add_trip(t, a, b, noon, 20);
  trv_travel_finish(t, NULL);
  g_assert_cmpuint(t->travel->pairs->len, ==, 0);
  for (int band = 0; band < TRV_TRAVEL_BANDS; band++) g_assert_cmpfloat(t->travel->band_trips[band], ==, 0);
  trv_cal_table_finish(t);
  char *text = trv_cal_table_to_string(t);
  GError *err = NULL;
  TrvCalTable *back = trv_cal_table_parse(text, strlen(text), "t.cal", &err);
  g_assert_no_error(err);
  g_assert_true(trv_cal_table_equal(t, back));
  trv_cal_table_free(back);
  g_free(text);
  trv_cal_table_free(t);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/urs-travel/nyc_held_out_months", test_nyc_held_out_months);
  g_test_add_func("/urs-travel/sf_held_out_days", test_sf_held_out_days);
  g_test_add_func("/urs-travel/hostile_travel_rows_are_refused_at_their_line",
                  test_hostile_travel_rows_are_refused_at_their_line);
  g_test_add_func("/urs-travel/implausible_trips_are_left_out_and_counted",
                  test_implausible_trips_are_left_out_and_counted);
  return g_test_run();
}
