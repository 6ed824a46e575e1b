/* urs-fuzz-weather.h - the body of the two weather harnesses
 * (weather-noaa-fuzz.c, weather-mss-fuzz.c): they differ in the headers
 * they put before the input, so that mutations reach the rows of each
 * layout instead of being spent on recognising a header.
 *
 * Properties: a refused file is an input error and leaves the table as it
 * was (same text); an accepted file gives weather days in strictly
 * increasing date order with every value NA or within physical bounds,
 * reading the same file a second time merges without error, and the table
 * keeps the properties of urs-fuzz.h.  Included by those harnesses only. */
#ifndef TRV_URS_FUZZ_WEATHER_H
#define TRV_URS_FUZZ_WEATHER_H

#include <math.h>

#include "urs-fuzz.h"

static inline TrvCalTable *urs_fuzz_weather_table(void) {
  const TrvCity *c = trv_city_find("sf");
  TrvHexGrid grid;
  trv_hex_grid_init(&grid, c->lat_min, c->lat_max, c->lon_min, c->lon_max, TRV_HEX_DEFAULT_CELL_KM2, NULL);
  TrvCalTable *t = trv_cal_table_new("sf", "cabspotting", &grid);
  g_free(t->period_start);
  g_free(t->period_end);
  t->period_start = g_strdup("2008-05-18T00:00:00");
  t->period_end = g_strdup("2008-05-24T23:58:42");
  TrvWeatherDay day = {2008, 5, 19, 1.5, NAN, 10};
  g_array_append_val(t->weather, day);
  trv_cal_table_finish(t);
  return t;
}

static inline void urs_fuzz_weather_one(const char *header, const uint8_t *data, size_t size) {
  size_t hlen = strlen(header);
  char *buf = g_malloc(hlen + size + 1);
  memcpy(buf, header, hlen);
  memcpy(buf + hlen, data, size);
  TrvImportInput in = {"fuzz/weather.csv", buf, hlen + size};
  TrvCalTable *t = urs_fuzz_weather_table();
  GError *err = NULL;
  if (!trv_weather_attach_input(t, &in, &err)) {
    if (!err || err->domain != TRV_ERROR || err->code != TRV_ERROR_INPUT)
      urs_fuzz_fail("the weather reader failed without an input error", err);
    /* What the reader may touch: the days, the station, the statistics. */
    TrvCalTable *fresh = urs_fuzz_weather_table();
    if (!trv_cal_table_equal(t, fresh)) urs_fuzz_fail("a refused weather file changed the table", NULL);
    trv_cal_table_free(fresh);
    g_clear_error(&err);
  } else {
    for (guint i = 0; i < t->weather->len; i++) {
      const TrvWeatherDay *w = &g_array_index(t->weather, TrvWeatherDay, i);
      if (i > 0) {
        const TrvWeatherDay *p = w - 1;
        if ((p->year * 13 + p->month) * 32 + p->day >= (w->year * 13 + w->month) * 32 + w->day)
          urs_fuzz_fail("weather days out of order or repeated", NULL);
      }
      if (!(isnan(w->rain_mm) || (w->rain_mm >= 0 && w->rain_mm <= 2000)) ||
          !(isnan(w->tmax_c) || fabs(w->tmax_c) <= 90) || !(isnan(w->tmin_c) || fabs(w->tmin_c) <= 90))
        urs_fuzz_fail("a weather value out of bounds", NULL);
    }
    if (!trv_weather_attach_input(t, &in, &err)) urs_fuzz_fail("the same weather file refused the second time", err);
    GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
    urs_fuzz_check_import(t, warnings);
    t = NULL;
    g_ptr_array_unref(warnings);
  }
  trv_cal_table_free(t);
  g_free(buf);
}

#endif
