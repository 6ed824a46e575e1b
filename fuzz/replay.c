/* replay.c - a main for the libFuzzer harnesses without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on each file named on the command line (a
 * seed corpus, a crash reproducer) and exits 0 when every input returned.
 * A harness that finds a broken promise aborts, as under libFuzzer.  Lets
 * the test suite build every harness from its fuzz/NAME.sources with the
 * ordinary compiler and replay its corpus (tests/fuzz-corpus.sh), and a
 * developer rerun a reproducer under gdb. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* defined by the harnesses that set something up first */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    gchar *data = NULL;
    gsize size = 0;
    GError *err = NULL;
    if (!g_file_get_contents(argv[i], &data, &size, &err)) {
      fprintf(stderr, "replay: %s\n", err->message);
      g_error_free(err);
      return 2;
    }
    LLVMFuzzerTestOneInput((const uint8_t *)data, size);
    g_free(data);
  }
  return 0;
}
