/* episode-columns-fuzz.c - libFuzzer harness for the reader of a point's
 * episodes.csv behind a world's report (src/episode-columns.c), asked for
 * the Warehouse report's columns.
 *
 * The input's first byte sets the run's rows (1 to 64: the bound the
 * reader keeps to, in rows and in bytes); the rest is the file, read
 * through a memory stream.  An accepted table must give cells of the run's
 * controllers whose columns have one value per row, at most the run's
 * rows in all, as many as the file has lines after its header; a refused
 * one must be TRV_ERROR_INPUT on one line naming the file, without
 * control characters.  Any crash, sanitizer report, leak or failed
 * assertion is a bug.  Built and run by fuzz/run.sh
 * (fuzz/episode-columns.options allows inputs past the line and size
 * bounds). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "episode-columns.h"
#include <trivium/error.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const controllers[] = {"trivium", "rlvr"};
  static const char *const columns[] = {
      "committed_reward", "commits", "commit_failures", "delivered", "ideal", "fd_eps", "fd_eta", NULL};
  if (size == 0) return 0;
  long max_rows = 1 + data[0] % 64;
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
  FILE *in = len ? fmemopen((void *)text, len, "r") : fopen("/dev/null", "r");
  g_assert(in);
  GError *err = NULL;
  GPtrArray *cells = trv_episode_columns_read_stream(in, "fuzz.csv", controllers, 2, columns, max_rows, &err);
  fclose(in);
  if (cells) {
    g_assert_no_error(err);
    long rows = 0;
    for (guint i = 0; i < cells->len; i++) {
      const TrvEpisodeColumns *c = g_ptr_array_index(cells, i);
      g_assert(c->controller >= 0 && c->controller < 2 && c->seed >= 0 && c->n_columns == 7);
      g_assert(c->values[0]->len >= 1);
      for (int k = 1; k < 7; k++) g_assert(c->values[k]->len == c->values[0]->len);
      rows += c->values[0]->len;
    }
    long lines = 0; /* lines after the header: every one is a row */
    for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
    if (len && text[len - 1] != '\n') lines++;
    g_assert(rows <= max_rows && rows == lines - 1);
    g_ptr_array_free(cells, TRUE);
  } else {
    g_assert(err && err->domain == TRV_ERROR && err->code == TRV_ERROR_INPUT);
    g_assert(g_str_has_prefix(err->message, "fuzz.csv"));
    for (const char *p = err->message; *p; p++) g_assert((unsigned char)*p >= 0x20 && *p != 0x7f);
    g_error_free(err);
  }
  return 0;
}
