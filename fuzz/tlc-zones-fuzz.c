/* tlc-zones-fuzz.c - libFuzzer harness for the TLC zone centroid table
 * reader (urs/import-tlc-zones.c).
 *
 * The input is a zone table, read from memory.  When the reader accepts
 * it, every zone it marks known must have a finite centroid in range and a
 * UTF-8 borough, the count must match, and a fixed trip file is imported
 * against it (whose table must keep the properties of urs-fuzz.h).
 * Nothing may crash, leak or trip a sanitizer.  Built and run by
 * fuzz/run.sh. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "urs-fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char TRIPS[] =
    "VendorID,tpep_pickup_datetime,tpep_dropoff_datetime,trip_distance,PULocationID,DOLocationID\n"
    "1,2019-03-04 08:05:00,2019-03-04 08:20:00,2.5,236,161\n"
    "2,2019-03-04 09:00:00,2019-03-04 09:40:00,17.2,132,236\n"
    "1,2019-03-05 18:10:00,2019-03-05 18:30:00,1.0,161,264\n"
    "1,2019-03-06 12:00:00,2019-03-06 12:30:00,5.0,1,2\n"
    "1,2019-03-06 12:00:00,2019-03-06 12:30:00,5.0,7,1000\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const TrvCity *c = trv_city_find("nyc");
  TrvHexGrid grid;
  trv_hex_grid_init(&grid, c->lat_min, c->lat_max, c->lon_min, c->lon_max, TRV_HEX_DEFAULT_CELL_KM2, NULL);
  TrvTlcZone *zones = g_new0(TrvTlcZone, TRV_TLC_MAX_ZONE_ID + 1);
  TrvImportInput in = {"fuzz/taxi_zone_centroids.csv", (const char *)data, size};
  GError *err = NULL;
  int n = 0;
  bool ok = trv_tlc_zones_read(&in, &grid, zones, &n, &err);
  if (ok) {
    int known = 0;
    for (int id = 0; id <= TRV_TLC_MAX_ZONE_ID; id++) {
      if (!zones[id].known) continue;
      known++;
      if (id == 0 || !(fabs(zones[id].lat) <= 90) || !(fabs(zones[id].lon) <= 180) ||
          !g_utf8_validate(zones[id].borough, -1, NULL))
        urs_fuzz_fail("the zone reader accepted a zone out of range or a borough that is not UTF-8", NULL);
    }
    if (known != n || n < 1) urs_fuzz_fail("the zone count does not match the zones read", NULL);
    GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
    TrvImportOptions o = urs_fuzz_options("nyc", warnings);
    TrvImportInput trips = {"fuzz/trips.csv", TRIPS, sizeof TRIPS - 1};
    o.zones = &in;
    urs_fuzz_check_import(trv_import_tlc_inputs(&o, &trips, 1, &err), warnings);
    g_ptr_array_unref(warnings);
  } else if (!err || err->domain != TRV_ERROR || err->code != TRV_ERROR_INPUT) {
    urs_fuzz_fail("the zone reader failed without an input error", err);
  }
  g_clear_error(&err);
  trv_tlc_zones_clear(zones);
  g_free(zones);
  return 0;
}
