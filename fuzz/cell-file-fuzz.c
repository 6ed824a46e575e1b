/* cell-file-fuzz.c - libFuzzer harness for the reader of a cell's .sum file
 * (src/cell-file.c), which `trivium run` (resume), the jobs of a job list
 * and `trivium merge` read from a run's directory.
 *
 * The layout expected is the seed's (CausalBench-Seq, 3 components, no
 * world metrics, at most 40 episodes).  When the input's first byte is odd
 * and the input has a cell file's size, it is sealed (magic, size and
 * checksum made valid, trv_cell_file_seal), so that mutations reach the
 * checks behind the checksum.  The fingerprint expected is the one the
 * input carries (NUL-terminated at 64 characters), and a second read
 * expecting another one must fail.  An accepted file must satisfy what the
 * summary code relies on: counts within their arrays, a curve of
 * increasing episodes within the run, a finite non-negative controller
 * time; a refused one is refused with an error naming the file, damaged
 * (TRV_ERROR_CORRUPT) or not this run's (TRV_ERROR_INPUT), and a file of
 * this build's size refused as not this run's had a valid checksum (unless
 * it bears an earlier format's magic, which is believed as it is).  Any
 * crash, sanitizer report, leak or failed assertion is a bug.  Built and
 * run by fuzz/run.sh. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cell-file.h"
#include "core/crc32c.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The checksum as cell-file.h defines it (the CRC-32C of every byte of the
 * file but the checksum field), computed here on its own, and the one the
 * file carries. */
static uint32_t checksum_of(const guint8 *b) {
  const size_t at = offsetof(TrvCellFile, checksum), after = at + sizeof(uint32_t);
  return trv_crc32c(trv_crc32c(0, b, at), b + after, sizeof(TrvCellFile) - after);
}

static uint32_t stored_checksum(const guint8 *b) {
  uint32_t v;
  memcpy(&v, b + offsetof(TrvCellFile, checksum), sizeof v);
  return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  enum { EPISODES = 40, COMPONENTS = 3, WORLD_METRICS = 0 };
  guint8 *buf = g_memdup2(data, size);
  if (size == sizeof(TrvCellFile) && (data[0] & 1)) {
    TrvCellFile *h = g_new(TrvCellFile, 1);
    memcpy(h, buf, sizeof *h);
    trv_cell_file_seal(h);
    memcpy(buf, h, sizeof *h);
    g_free(h);
  }
  char fingerprint[TRV_SHA256_HEX + 1] = {0};
  if (size >= offsetof(TrvCellFile, fingerprint) + TRV_SHA256_HEX)
    memcpy(fingerprint, buf + offsetof(TrvCellFile, fingerprint), TRV_SHA256_HEX);
  static TrvCellFile cf;
  GError *err = NULL;
  if (trv_cell_file_parse("fuzz.sum", buf, size, fingerprint, EPISODES, COMPONENTS, WORLD_METRICS, &cf, &err)) {
    g_assert_no_error(err);
    g_assert(stored_checksum(buf) == checksum_of(buf));
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
    g_assert(err && err->code == TRV_ERROR_INPUT && g_str_has_prefix(err->message, "fuzz.sum: "));
    g_clear_error(&err);
  } else {
    g_assert(err && (err->code == TRV_ERROR_INPUT || err->code == TRV_ERROR_CORRUPT) &&
             g_str_has_prefix(err->message, "fuzz.sum: "));
    /* a flipped bit never passes for another build or configuration */
    if (err->code == TRV_ERROR_INPUT && size == sizeof(TrvCellFile) && memcmp(buf, "TRVCELL1", 8) != 0 &&
        memcmp(buf, "TRVCELL2", 8) != 0) /* an earlier format's magic is believed without a checksum */
      g_assert(stored_checksum(buf) == checksum_of(buf));
    g_error_free(err);
  }
  g_free(buf);
  return 0;
}
