/* jobs-file-fuzz.c - libFuzzer harness for the reader of a job list's
 * manifest, jobs.json (src/jobs-file.c), which `trivium merge DIR` reads.
 *
 * Writes the input to a scratch file and loads it.  A refusal must be a
 * TRV_ERROR_INPUT error of one line naming the file; an accepted manifest
 * must give an absolute directory, a command that starts with "run" and
 * holds arguments of at most 64 KiB, its SimGrid options on the allow-list, and a
 * number of cells in range.  Any crash, hang, sanitizer report, leak or
 * failed assertion is a bug.  Built and run by fuzz/run.sh (-max_len of
 * fuzz/jobs-file.options: deep nesting needs long inputs). */
#include <glib/gstdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <trivium/error.h>
#include <unistd.h>

#include "jobs-file.h"
#include "json-file.h"
#include "simgrid-options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char *path;
  if (!path) {
    int fd = g_file_open_tmp("trv-jobs-file-fuzz-XXXXXX", &path, NULL);
    g_assert(fd >= 0);
    close(fd);
  }
  g_assert(g_file_set_contents(path, (const char *)data, (gssize)size, NULL));
  TrvJobsFile jf;
  GError *err = NULL;
  if (trv_jobs_file_load(path, &jf, &err)) {
    g_assert_no_error(err);
    g_assert(jf.directory && g_path_is_absolute(jf.directory));
    g_assert(jf.command && jf.command[0] && !strcmp(jf.command[0], "run"));
    for (int i = 0; jf.command[i]; i++) {
      const char *a = jf.command[i];
      g_assert(strlen(a) <= 65536); /* any byte but NUL: a run's paths may hold any */
      if (g_str_has_prefix(a, "--log=") || (g_str_has_prefix(a, "--cfg=") && !g_str_has_prefix(a, "--cfg=trivium/")))
        g_assert(trv_simgrid_file_option_check(path, a, NULL));
    }
    g_assert(jf.cells >= 1 && jf.cells <= G_MAXINT / 2);
    trv_jobs_file_clear(&jf);
  } else {
    g_assert(err && err->code == TRV_ERROR_INPUT && strstr(err->message, path) && !strchr(err->message, '\n'));
    g_assert(!jf.directory && !jf.command);
    g_error_free(err);
  }
  return 0;
}
