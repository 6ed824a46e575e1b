/* sg-availability-fuzz.c - libFuzzer harness for the Singapore taxi
 * availability importer (urs/import-sg.c).
 *
 * The input is one JSON-lines file, read from memory: the depth scan
 * before json-glib, the GeoJSON walk, timestamps, the sort and duplicate
 * removal, and the disappearance estimator.  Nothing may crash, leak or
 * trip a sanitizer (json-glib included), and every table returned must
 * keep the properties of urs-fuzz.h.  Built and run by fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>

#include "urs-fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  TrvImportOptions o = urs_fuzz_options("sg", warnings);
  TrvImportInput in = {"fuzz/taxi.jsonl", (const char *)data, size};
  GError *err = NULL;
  urs_fuzz_check_import(trv_import_sg_inputs(&o, &in, 1, &err), warnings);
  g_clear_error(&err);
  g_ptr_array_unref(warnings);
  return 0;
}
