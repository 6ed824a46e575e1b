/* weather-noaa-fuzz.c - libFuzzer harness for the NOAA GHCN-Daily layouts
 * of the weather reader (urs/weather.c).
 *
 * Each input is read three times: as it is (header and all), and as the
 * rows of a temperature file and of a precipitation file (their headers put
 * before it).  Properties: urs-fuzz-weather.h.  Built and run by
 * fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>

#include "urs-fuzz-weather.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  urs_fuzz_weather_one("", data, size);
  urs_fuzz_weather_one("station_id,date,tmax_f,tmin_f\n", data, size);
  urs_fuzz_weather_one("station_id,date,prcp_in\n", data, size);
  return 0;
}
