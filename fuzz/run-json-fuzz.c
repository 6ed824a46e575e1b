/* run-json-fuzz.c - libFuzzer harness for the run.json reader of
 * `trivium run --replay-config` (src/replay-config.c).
 *
 * Writes the input to a scratch file ("@SRC@" stands for the source tree,
 * so that seeds can name its scenarios and platforms with their real
 * SHA-256) and loads it.  A refusal must be a TRV_ERROR_INPUT error; an
 * accepted file must give a scenario and a platform, at least one
 * controller, every --set assignment of the form KEY=VALUE, fault processes
 * of a known kind with a pattern, and SimGrid options that are --cfg= or
 * --log=.  Any crash, hang, sanitizer report, leak or failed assertion is a
 * bug.  Built and run by fuzz/run.sh. */
#include <glib/gstdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "replay-config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char *path;
  if (!path) {
    int fd = g_file_open_tmp("trv-run-json-fuzz-XXXXXX", &path, NULL);
    g_assert(fd >= 0);
    close(fd);
  }
  GString *text = g_string_new_len((const char *)data, (gssize)size);
  g_string_replace(text, "@SRC@", TRV_SRCDIR, 0);
  g_assert(g_file_set_contents(path, text->str, (gssize)text->len, NULL));
  g_string_free(text, TRUE);
  TrvReplayConfig rc;
  GError *err = NULL;
  if (trv_replay_config_load(path, &rc, &err)) {
    g_assert_no_error(err);
    g_assert(rc.scenario && rc.platform && rc.controllers && *rc.controllers && rc.sets && rc.faults);
    for (int i = 0; rc.sets[i]; i++) g_assert(strchr(rc.sets[i], '=') != NULL);
    for (guint i = 0; i < rc.faults->len; i++) {
      const TrvFaultSpec *f = &g_array_index(rc.faults, TrvFaultSpec, i);
      g_assert(f->kind >= TRV_FAULT_LINK_FLAP && f->kind <= TRV_FAULT_PARTITION && f->pattern && *f->pattern);
    }
    for (int i = 0; rc.simgrid_args[i]; i++)
      g_assert(g_str_has_prefix(rc.simgrid_args[i], "--cfg=") || g_str_has_prefix(rc.simgrid_args[i], "--log="));
    trv_replay_config_clear(&rc);
  } else {
    g_assert(err && err->domain == TRV_ERROR && err->code == TRV_ERROR_INPUT);
    g_error_free(err);
  }
  return 0;
}
