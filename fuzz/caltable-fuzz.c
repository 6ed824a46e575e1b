/* caltable-fuzz.c - libFuzzer harness for the calibration table reader
 * (urs/caltable-read.c) and, through it, the writer.
 *
 * The input is a table's text.  Most inputs are refused with an input
 * error; a table the reader accepts must keep the properties of
 * urs-fuzz.h: it passes the writer's check, its text reads back to an
 * equal table and the same bytes.  Nothing may crash, leak or trip a
 * sanitizer.  Built and run by fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>

#include "urs-fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  GError *err = NULL;
  TrvCalTable *t = trv_cal_table_parse((const char *)data, size, "fuzz.cal", &err);
  if (!t) {
    if (!err || err->domain != TRV_ERROR || err->code != TRV_ERROR_INPUT)
      urs_fuzz_fail("the reader failed without an input error", err);
    g_clear_error(&err);
    return 0;
  }
  urs_fuzz_check_table(t);
  trv_cal_table_free(t);
  return 0;
}
