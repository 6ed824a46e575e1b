/* tlc-trips-fuzz.c - libFuzzer harness for the New York TLC trip reader
 * (urs/import-tlc.c).
 *
 * The input is one trip file, read from memory, against a fixed zone table
 * of four zones (one outside the city): header lookup by name, row
 * splitting, timestamps, distances, zone ids, months and their scaling,
 * and the warnings.  Nothing may crash, leak or trip a sanitizer, and every
 * table returned must keep the properties of urs-fuzz.h.  Built and run
 * by fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>

#include "urs-fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char ZONES[] = "LocationID,Borough,Zone,Latitude,Longitude\n"
                            "132,\"Queens\",\"JFK Airport\",40.6413111,-73.7781391\n"
                            "161,\"Manhattan\",\"Midtown Center\",40.7580,-73.9776\n"
                            "236,\"Manhattan\",\"Upper East Side North\",40.7766,-73.9533\n"
                            "700,\"Elsewhere\",\"Albany\",42.6526,-73.7562\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  TrvImportOptions o = urs_fuzz_options("nyc", warnings);
  TrvImportInput zones = {"fuzz/taxi_zone_centroids.csv", ZONES, sizeof ZONES - 1};
  TrvImportInput in = {"fuzz/trips.csv", (const char *)data, size};
  o.zones = &zones;
  GError *err = NULL;
  urs_fuzz_check_import(trv_import_tlc_inputs(&o, &in, 1, &err), warnings);
  g_clear_error(&err);
  g_ptr_array_unref(warnings);
  return 0;
}
