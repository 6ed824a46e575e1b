/* weather-mss-fuzz.c - libFuzzer harness for the MSS daily table layout
 * of the weather reader (urs/weather.c), glued records included.
 *
 * Each input is read twice: as it is (header and all), and as the rows of
 * an MSS table (the published header put before it).  Properties:
 * urs-fuzz-weather.h.  Built and run by fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>

#include "urs-fuzz-weather.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  urs_fuzz_weather_one("", data, size);
  urs_fuzz_weather_one("Station,Year,Month,Day,Daily Rainfall Total (mm),Highest 30 Min Rainfall (mm),"
                       "Mean Temperature (\xc2\xb0"
                       "C),Maximum Temperature (\xc2\xb0"
                       "C),Minimum Temperature "
                       "(\xc2\xb0"
                       "C)\n",
                       data, size);
  return 0;
}
