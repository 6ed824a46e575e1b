/* Checks of the URS trace import on the real traces in
 * ../shared/data, and of the committed calibration
 * tables in data/urs/.  The real-data tests skip when ../shared/data is
 * absent.  Each prints the figures it checks (TAP comments), the same ones
 * docs/urs.md reports. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "urs/import.h"

static char *shared(const char *rel) { return g_build_filename(TRV_SHARED_DATA, rel, NULL); }

/* The import of one shared-data directory, or NULL after g_test_skip. */
static TrvCalTable *import_shared(const char *format, const char *city, const char *rel) {
  char *dir = shared(rel);
  if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
    char *why = g_strdup_printf("%s is absent", dir);
    g_test_skip(why);
    g_free(why);
    g_free(dir);
    return NULL;
  }
  char *argv[] = {dir};
  GError *err = NULL;
  GPtrArray *files = trv_import_list_inputs(format, argv, 1, &err);
  g_assert_no_error(err);
  TrvImportOptions o = {.city = trv_city_find(city),
                        .cell_km2 = TRV_HEX_DEFAULT_CELL_KM2,
                        .scale_to_trips_per_month = TRV_IMPORT_TLC_TRIPS_PER_MONTH};
  gint64 t0 = g_get_monotonic_time();
  TrvCalTable *t = !strcmp(format, "cabspotting") ? trv_import_cabspotting(&o, files, &err)
                   : !strcmp(format, "tlc")       ? trv_import_tlc(&o, files, &err)
                                                  : trv_import_sg(&o, files, &err);
  g_assert_no_error(err);
  g_test_message("%s: %" G_GUINT64_FORMAT " rows read, %" G_GUINT64_FORMAT " used, %u zones, import %.2f s", rel,
                 t->rows_read, t->rows_used, t->zones->len, (double)(g_get_monotonic_time() - t0) / 1e6);
  g_ptr_array_unref(files);
  g_free(dir);
  return t;
}

/* City-wide requests per hour for each hour of the day, averaged over the
 * days of the week given by [day_first, day_last]. */
static void hourly_profile(const TrvCalTable *t, int day_first, int day_last, double hour[24]) {
  double rate[TRV_SLOTS_PER_WEEK];
  trv_cal_table_city_rate(t, rate);
  for (int h = 0; h < 24; h++) {
    double s = 0;
    for (int d = day_first; d <= day_last; d++)
      for (int q = 0; q < 4; q++) s += rate[d * TRV_SLOTS_PER_DAY + h * 4 + q];
    hour[h] = s / (4.0 * (day_last - day_first + 1));
  }
}

static void log_profile(const char *what, const double hour[24]) {
  GString *s = g_string_new(what);
  for (int h = 0; h < 24; h++) g_string_append_printf(s, " %d:%.0f", h, hour[h]);
  g_test_message("%s", s->str);
  g_string_free(s, TRUE);
}

static int argmax(const double *x, int from, int to) {
  int best = from;
  for (int i = from; i <= to; i++)
    if (x[i] > x[best]) best = i;
  return best;
}

static void sf_pickups_follow_a_daily_cycle(void) {
  TrvCalTable *t = import_shared("cabspotting", "sf", "urs/sf-cabspotting");
  if (!t) return;
  g_assert_cmpuint(t->rows_read, ==, 3365870);
  /* One full week, less two outages of the trace (8 intervals, no fix). */
  g_assert_cmpfloat(trv_cal_table_stat(t, "intervals_without_fixes"), ==, 8);
  g_assert_cmpint(t->filled_slots, ==, 8);
  double hour[24];
  hourly_profile(t, 0, 6, hour);
  log_profile("sf pickups per hour, mean of the week's 7 days:", hour);
  double night = (hour[3] + hour[4]) / 2;
  int peak = argmax(hour, 17, 23);
  g_test_message("sf: night (03:00-05:00) %.1f pickups/h, evening peak %.1f at %02d:00, ratio %.3f", night, hour[peak],
                 peak, night / hour[peak]);
  g_assert_cmpfloat(night, <, hour[peak] / 3.0);
  /* Day by day: Monday to Friday each hold the bound alone; the weekend
   * nights (bars closing) are busier. */
  static const char *const names[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  GString *days = g_string_new("sf: night/evening-peak ratio by day:");
  for (int d = 0; d < 7; d++) {
    double day[24];
    hourly_profile(t, d, d, day);
    double ratio = (day[3] + day[4]) / 2 / day[argmax(day, 17, 23)];
    g_string_append_printf(days, " %s %.3f", names[d], ratio);
    if (d < 5) g_assert_cmpfloat(ratio, <, 1.0 / 3.0);
  }
  g_test_message("%s", days->str);
  g_string_free(days, TRUE);
  g_assert_cmpfloat(trv_cal_table_stat(t, "pickups"), >, 100000);
  trv_cal_table_free(t);
}

static int compare_pickups(gconstpointer a, gconstpointer b) {
  const TrvSourceZone *x = *(const TrvSourceZone *const *)a, *y = *(const TrvSourceZone *const *)b;
  return (x->pickups < y->pickups) - (x->pickups > y->pickups);
}

static void nyc_pickups_concentrate_in_manhattan_and_airports(void) {
  TrvCalTable *t = import_shared("tlc", "nyc", "urs/nyc-tlc");
  if (!t) return;
  uint64_t manhattan = 0, all = 0;
  GPtrArray *outside = g_ptr_array_new();
  for (guint i = 0; i < t->source_zones->len; i++) {
    TrvSourceZone *z = &g_array_index(t->source_zones, TrvSourceZone, i);
    all += z->pickups;
    if (!strcmp(z->borough, "Manhattan"))
      manhattan += z->pickups;
    else
      g_ptr_array_add(outside, z);
  }
  g_assert_cmpuint(all, ==, t->rows_used);
  double share = (double)manhattan / (double)all;
  g_ptr_array_sort(outside, compare_pickups);
  const TrvSourceZone *first = outside->pdata[0], *second = outside->pdata[1], *third = outside->pdata[2];
  g_test_message("nyc: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " located pickups in Manhattan (share %.4f); "
                 "outside Manhattan the top zones are %d (%" G_GUINT64_FORMAT "), %d (%" G_GUINT64_FORMAT "), "
                 "%d (%" G_GUINT64_FORMAT ")",
                 manhattan, all, share, first->id, first->pickups, second->id, second->pickups, third->id,
                 third->pickups);
  /* TLC's own 2019 figures put ~90% of yellow pickups in Manhattan. */
  g_assert_cmpfloat(share, >, 0.88);
  g_assert_cmpfloat(share, <, 0.95);
  g_assert_cmpfloat(fabs(share - trv_cal_table_stat(t, "manhattan_pickup_share")), <, 1e-12);
  /* JFK (132) and LaGuardia (138) are the two busiest zones outside
   * Manhattan, each with over 10 times the pickups of the third. */
  g_assert_true((first->id == 132 && second->id == 138) || (first->id == 138 && second->id == 132));
  g_assert_cmpuint(second->pickups, >, 10 * third->pickups);
  /* Unknown zones are counted, not dropped: 264 and 265 pickups. */
  g_test_message("nyc: unknown pickup zones 264: %.0f, 265: %.0f; stray-month rows %" G_GUINT64_FORMAT,
                 trv_cal_table_stat(t, "unknown_pickup_zone_264"), trv_cal_table_stat(t, "unknown_pickup_zone_265"),
                 trv_cal_table_rejection(t, "timestamp-outside-period")->count);
  g_assert_cmpfloat(trv_cal_table_stat(t, "unknown_pickup_zone_264") + trv_cal_table_stat(t, "unknown_pickup_zone_265"),
                    ==, (double)trv_cal_table_rejection(t, "unknown-pickup-zone")->count);
  /* Scaled to 7.7 M trips a month: the week's rates add up to 7.7e6 * 12 /
   * (365 / 7) trips per week, within rounding. */
  double rate[TRV_SLOTS_PER_WEEK], week = 0;
  trv_cal_table_city_rate(t, rate);
  for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) week += rate[s] * 0.25;
  g_test_message("nyc: scaled volume %.4g trips per week", week);
  g_assert_cmpfloat(fabs(week - 7.7e6 * 12 / (365.0 / 7)) / week, <, 0.01);
  g_ptr_array_unref(outside);
  trv_cal_table_free(t);
}

static void sg_demand_is_non_negative_and_peaks_morning_and_evening(void) {
  TrvCalTable *t = import_shared("sg-availability", "sg", "urs/singapore");
  if (!t) return;
  for (guint z = 0; z < t->zones->len; z++) {
    const TrvZoneDemand *zd = &g_array_index(t->zones, TrvZoneDemand, z);
    for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) g_assert_cmpfloat(zd->rate[s], >=, 0.0);
  }
  double hour[24];
  hourly_profile(t, 4, 4, hour); /* Friday 2024-03-01, the day observed */
  log_profile("sg estimated requests per hour, Friday 2024-03-01:", hour);
  int morning = argmax(hour, 5, 11), evening = argmax(hour, 16, 23);
  double midday = 0;
  for (int h = 12; h <= 16; h++) midday += hour[h] / 5;
  double night = (hour[3] + hour[4] + hour[5]) / 3;
  g_test_message("sg: morning peak %02d:00 (%.0f/h), evening peak %02d:00 (%.0f/h), midday 12-17 mean %.0f/h, "
                 "night 03-06 mean %.0f/h",
                 morning, hour[morning], evening, hour[evening], midday, night);
  g_assert_cmpint(morning, >=, 7);
  g_assert_cmpint(morning, <=, 10);
  g_assert_cmpint(evening, >=, 18);
  g_assert_cmpint(evening, <=, 23);
  g_assert_cmpfloat(hour[morning], >, 1.25 * midday);
  g_assert_cmpfloat(hour[evening], >, 1.15 * midday);
  g_assert_cmpfloat(hour[morning], >, 1.5 * night);
  g_assert_cmpfloat(hour[evening], >, 1.5 * night);
  trv_cal_table_free(t);
}

static void committed_tables_read_back(void) {
  static const struct {
    const char *file, *city, *source;
  } tables[] = {{"sf.cal", "sf", "cabspotting"}, {"nyc.cal", "nyc", "tlc"}, {"sg.cal", "sg", "sg-availability"}};
  for (size_t i = 0; i < G_N_ELEMENTS(tables); i++) {
    char *path = g_build_filename(TRV_URS_TABLES, tables[i].file, NULL);
    GError *err = NULL;
    TrvCalTable *t = trv_cal_table_read(path, &err);
    g_assert_no_error(err);
    g_assert_cmpstr(t->city, ==, tables[i].city);
    g_assert_cmpstr(t->source, ==, tables[i].source);
    g_assert_cmpfloat(t->grid.cell_km2, ==, TRV_HEX_DEFAULT_CELL_KM2);
    g_assert_cmpuint(t->zones->len, >, 200);
    g_assert_cmpuint(t->weather->len, >, 600);
    /* Every slot of the week has some demand somewhere in the city. */
    double rate[TRV_SLOTS_PER_WEEK];
    trv_cal_table_city_rate(t, rate);
    for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) g_assert_cmpfloat(rate[s], >, 0);
    trv_cal_table_free(t);
    g_free(path);
  }
}

/* The effects each committed table holds: every estimate finite with a
 * positive standard error; intercept, time of day and airport estimated
 * in every city; the day-level effects (weekend, rain, temperature) only
 * where the trace spans enough days with weather: NYC's 365 days, not
 * SF's one week (and no rain that week) nor Singapore's one day. */
static void committed_tables_hold_finite_effects_with_positive_se(void) {
  static const struct {
    const char *file;
    bool day_level;
  } tables[] = {{"sf.cal", false}, {"nyc.cal", true}, {"sg.cal", false}};
  for (size_t i = 0; i < G_N_ELEMENTS(tables); i++) {
    char *path = g_build_filename(TRV_URS_TABLES, tables[i].file, NULL);
    GError *err = NULL;
    TrvCalTable *t = trv_cal_table_read(path, &err);
    g_assert_no_error(err);
    for (int k = 0; k < TRV_EFFECT_COUNT; k++) {
      const TrvEffect *e = &t->effects[k];
      if (e->estimated)
        g_test_message("%s %-12s %+.4f se %.4f (%s)", tables[i].file, trv_effect_names[k], e->estimate, e->se, e->note);
      else
        g_test_message("%s %-12s not identifiable: %s", tables[i].file, trv_effect_names[k], e->note);
      bool want = k <= TRV_EFFECT_AIRPORT || tables[i].day_level;
      g_assert_cmpint(e->estimated, ==, want);
      if (!e->estimated) continue;
      g_assert_true(isfinite(e->estimate));
      g_assert_true(isfinite(e->se));
      g_assert_cmpfloat(e->se, >, 0);
      g_assert_cmpfloat(e->se, <, 0.1); /* thousands of requests behind each */
    }
    g_assert_cmpfloat(t->effects[TRV_EFFECT_TIME_OF_DAY].estimate, >, 0); /* peaks are busier than nights */
    g_assert_cmpfloat(trv_cal_table_stat(t, "effects_days"), >=, 1);
    trv_cal_table_free(t);
    g_free(path);
  }
}

/* Attaches the station's two NOAA files, as the documented import does. */
static void attach_noaa(TrvCalTable *t, const char *station) {
  const char *kinds[] = {"temperature", "precipitation"};
  for (int k = 0; k < 2; k++) {
    GError *err = NULL;
    char *rel = g_strdup_printf("weather/%s_daily_%s.csv", station, kinds[k]);
    char *path = shared(rel);
    g_assert_true(trv_weather_attach(t, path, &err));
    g_assert_no_error(err);
    g_free(path);
    g_free(rel);
  }
}

/* The committed effects are what the import computes from the traces and
 * the weather: SF and NYC imported again give the same estimates,
 * standard errors, bootstrap intervals and monthly figures, to the bit,
 * the same estimator and the same source files (names, sizes, SHA-256);
 * and the bootstrap is deterministic: estimating again on the same counts
 * writes the same bytes. */
static void effects_regenerate_from_the_traces(void) {
  static const struct {
    const char *format, *city, *dir, *station, *file;
  } runs[] = {{"cabspotting", "sf", "urs/sf-cabspotting", "USW00023234", "sf.cal"},
              {"tlc", "nyc", "urs/nyc-tlc", "USW00094728", "nyc.cal"}};
  for (size_t i = 0; i < G_N_ELEMENTS(runs); i++) {
    TrvCalTable *t = import_shared(runs[i].format, runs[i].city, runs[i].dir);
    if (!t) return;
    attach_noaa(t, runs[i].station);
    gint64 t0 = g_get_monotonic_time();
    trv_effects_estimate(t);
    g_test_message("%s: effects, %d resamples and the monthly fits in %.2f s", runs[i].file, t->estimator.resamples,
                   (double)(g_get_monotonic_time() - t0) / 1e6);
    char *path = g_build_filename(TRV_URS_TABLES, runs[i].file, NULL);
    GError *err = NULL;
    TrvCalTable *committed = trv_cal_table_read(path, &err);
    g_assert_no_error(err);
    g_assert_true(trv_cal_effects_equal(t, committed)); /* effects, estimator and sources */
    g_assert_cmpuint(t->sources->len, ==, committed->sources->len);
    g_test_message("%s: the %d effects with their spread, the estimator and the %u sources equal the committed "
                   "table's",
                   runs[i].file, TRV_EFFECT_COUNT, t->sources->len);
    char *once = trv_cal_table_to_string(t);
    trv_effects_estimate(t);
    char *twice = trv_cal_table_to_string(t);
    g_assert_cmpuint(strlen(once), ==, strlen(twice));
    g_assert_true(!strcmp(once, twice));
    g_free(once);
    g_free(twice);
    trv_cal_table_free(committed);
    trv_cal_table_free(t);
    g_free(path);
  }
}

/* The coefficient of effect k in a design's fit, refitted on days pick. */
static double refit(const TrvEffectsDesign *d, const int *pick, int n, int k) {
  double beta[TRV_EFFECT_COUNT];
  g_assert_true(trv_effects_fit_days(d, pick, n, beta));
  for (int c = 0; c < d->p; c++)
    if (d->cols[c] == k) return beta[c];
  g_assert_not_reached();
}

/* SF's airport effect on the shipped week: its interval covers what the
 * method gives on other days.  Independently of the import's resamples:
 * (1) the design's fit on all 7 days is the table's estimate (the pooled
 * rows change nothing); (2) each of the 7 fits leaving one day out falls
 * inside the interval; (3) 400 day-block resamples drawn with another
 * generator fall inside it about 95% of the time (between 90% and 99%),
 * while the Poisson interval, estimate +- 1.96 se, holds a minority of
 * them: the spread between days is what the Poisson error misses. */
static void sf_airport_interval_covers_refits_on_other_days(void) {
  TrvCalTable *t = import_shared("cabspotting", "sf", "urs/sf-cabspotting");
  if (!t) return;
  attach_noaa(t, "USW00023234");
  trv_effects_estimate(t);
  const TrvEffectsDesign *d = t->fit_design;
  const TrvEffect *e = &t->effects[TRV_EFFECT_AIRPORT];
  g_assert_nonnull(d);
  g_assert_cmpint(d->n_days, ==, 7);
  g_assert_cmpint(e->method, ==, TRV_EFFECT_METHOD_BOOTSTRAP);
  g_test_message("SF airport %.4f (se %.4f), interval %.4f .. %.4f over %d resamples of %d days", e->estimate, e->se,
                 e->lo, e->hi, e->resamples, e->days);
  int all[7] = {0, 1, 2, 3, 4, 5, 6};
  g_assert_cmpfloat(fabs(refit(d, all, 7, TRV_EFFECT_AIRPORT) - e->estimate), <, 1e-8);
  for (int out = 0; out < 7; out++) {
    int pick[6], n = 0;
    for (int i = 0; i < 7; i++)
      if (i != out) pick[n++] = i;
    double b = refit(d, pick, 6, TRV_EFFECT_AIRPORT);
    GDate *date = g_date_new_dmy(1, G_DATE_JANUARY, 1970);
    g_date_add_days(date, (guint)d->days[out].day);
    g_test_message("without day %d (%04d-%02d-%02d): %.4f", out, g_date_get_year(date), g_date_get_month(date),
                   g_date_get_day(date), b);
    g_date_free(date);
    g_assert_cmpfloat(b, >=, e->lo);
    g_assert_cmpfloat(b, <=, e->hi);
  }
  GRand *rand = g_rand_new_with_seed(4242);
  int inside = 0, poisson = 0, B = 400;
  for (int r = 0; r < B; r++) {
    int pick[7];
    for (int i = 0; i < 7; i++) pick[i] = g_rand_int_range(rand, 0, 7);
    double b = refit(d, pick, 7, TRV_EFFECT_AIRPORT);
    inside += b >= e->lo && b <= e->hi;
    poisson += fabs(b - e->estimate) <= 1.96 * e->se;
  }
  g_rand_free(rand);
  g_test_message("%d of %d resamples inside the bootstrap interval, %d inside estimate +- 1.96 se", inside, B, poisson);
  g_assert_cmpint(inside, >=, 90 * B / 100);
  g_assert_cmpint(inside, <=, 99 * B / 100);
  g_assert_cmpint(poisson, <, B / 2);
  trv_cal_table_free(t);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/urs/data/committed_tables_hold_finite_effects_with_positive_se",
                  committed_tables_hold_finite_effects_with_positive_se);
  g_test_add_func("/urs/data/effects_regenerate_from_the_traces", effects_regenerate_from_the_traces);
  g_test_add_func("/urs/data/sf_airport_interval_covers_refits_on_other_days",
                  sf_airport_interval_covers_refits_on_other_days);
  g_test_add_func("/urs/data/sf_pickups_follow_a_daily_cycle", sf_pickups_follow_a_daily_cycle);
  g_test_add_func("/urs/data/nyc_pickups_concentrate_in_manhattan_and_airports",
                  nyc_pickups_concentrate_in_manhattan_and_airports);
  g_test_add_func("/urs/data/sg_demand_is_non_negative_and_peaks_morning_and_evening",
                  sg_demand_is_non_negative_and_peaks_morning_and_evening);
  g_test_add_func("/urs/data/committed_tables_read_back", committed_tables_read_back);
  return g_test_run();
}
