/* cabspotting-fuzz.c - libFuzzer harness for the San Francisco cabspotting
 * importer (urs/import-cabspotting.c).
 *
 * The input is one cab's file, read from memory.  Most inputs are refused
 * (cut, no usable rows) or yield a table; either way nothing may crash,
 * leak, hang or trip a sanitizer, and every table returned must keep the
 * properties of urs-fuzz.h (writable, reads back equal).  Built and run by
 * fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>

#include "urs-fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  TrvImportOptions o = urs_fuzz_options("sf", warnings);
  TrvImportInput in = {"fuzz/new_cab.txt", (const char *)data, size};
  GError *err = NULL;
  urs_fuzz_check_import(trv_import_cabspotting_inputs(&o, &in, 1, &err), warnings);
  g_clear_error(&err);
  g_ptr_array_unref(warnings);
  return 0;
}
