/* cell-file-fuzz.c - libFuzzer harness for the reader of a cell's .sum file
 * (src/cell-file.c), which `trivium run` (resume), the jobs of a job list
 * and `trivium merge` read from a run's directory.
 *
 * The layout expected is the seed's (CausalBench-Seq, 3 components, no
 * world metrics, at most 40 episodes).  When the input's first byte is odd
 * the header (magic, size) is made valid, so that mutations reach the
 * checks behind it.  The fingerprint expected is the one the input carries
 * (NUL-terminated at 64 characters), and a second read expecting another
 * one must fail.  An accepted file must satisfy what the summary code
 * relies on: counts within their arrays, a curve of increasing episodes
 * within the run, a finite non-negative controller time.  Any crash,
 * sanitizer report, leak or failed assertion is a bug.  Built and run by
 * fuzz/run.sh. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cell-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  enum { EPISODES = 40, COMPONENTS = 3, WORLD_METRICS = 0 };
  guint8 *buf = g_memdup2(data, size);
  if (size >= sizeof(TrvCellFile) && (data[0] & 1)) {
    TrvCellFile h;
    memcpy(h.magic, TRV_CELL_MAGIC, sizeof h.magic);
    h.size = sizeof h;
    memcpy(buf + offsetof(TrvCellFile, magic), h.magic, sizeof h.magic);
    memcpy(buf + offsetof(TrvCellFile, size), &h.size, sizeof h.size);
  }
  char fingerprint[TRV_SHA256_HEX + 1] = {0};
  if (size >= offsetof(TrvCellFile, fingerprint) + TRV_SHA256_HEX)
    memcpy(fingerprint, buf + offsetof(TrvCellFile, fingerprint), TRV_SHA256_HEX);
  TrvCellFile cf;
  GError *err = NULL;
  if (trv_cell_file_parse("fuzz.sum", buf, size, fingerprint, EPISODES, COMPONENTS, WORLD_METRICS, &cf, &err)) {
    g_assert_no_error(err);
    const TrvCellSummary *s = &cf.sum;
    g_assert(size == sizeof cf && s->episodes >= 0 && s->episodes <= EPISODES);
    g_assert(s->n_components == COMPONENTS && s->n_world_metrics == WORLD_METRICS);
    g_assert(s->n_curve >= 0 && s->n_curve <= TRV_CURVE_POINTS);
    for (int i = 0; i < s->n_curve; i++)
      g_assert(s->curve_episode[i] >= 1 && s->curve_episode[i] <= EPISODES &&
               (i == 0 || s->curve_episode[i] > s->curve_episode[i - 1]));
    g_assert(isfinite(cf.controller_cpu) && cf.controller_cpu >= 0);
    g_assert(strlen(cf.fingerprint) == TRV_SHA256_HEX && strlen(cf.csv_sha256) == TRV_SHA256_HEX);
    char other[TRV_SHA256_HEX + 1];
    memcpy(other, fingerprint, sizeof other);
    other[0] = other[0] == '0' ? '1' : '0';
    g_assert(!trv_cell_file_parse("fuzz.sum", buf, size, other, EPISODES, COMPONENTS, WORLD_METRICS, &cf, &err));
    g_assert(err && err->code == TRV_ERROR_INPUT && strstr(err->message, "fuzz.sum"));
    g_clear_error(&err);
  } else {
    g_assert(err && err->code == TRV_ERROR_INPUT && strstr(err->message, "fuzz.sum"));
    g_error_free(err);
  }
  g_free(buf);
  return 0;
}
