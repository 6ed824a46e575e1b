/* ctl-fuzz.c - libFuzzer harness for the CTL reader.
 *
 * Feeds arbitrary bytes to everything that reads a CTL image: the scan
 * (strict and salvage), the view, replay from zero and from every snapshot
 * (which deserializes the posterior blobs), and the statistics.  Any crash,
 * sanitizer report or leak is a bug; errors returned through GError are the
 * expected outcome for most inputs.  Built and run by fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>

#include "log/ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (int salvage = 0; salvage <= 1; salvage++) {
    GError *err = NULL;
    TrvCtlView *v = trv_ctl_view_new_from_bytes(data, size, "fuzz", salvage, &err);
    if (!v) {
      g_clear_error(&err);
      continue;
    }
    TrvCtlStats st;
    trv_ctl_view_stats(v, &st);
    TrvPosterior *p = trv_ctl_view_replay(v, -1, -1, &err);
    g_clear_error(&err);
    for (size_t i = 0; i < trv_ctl_view_n_snapshots(v) && i < 8; i++) {
      TrvPosterior *q = trv_ctl_view_replay(v, trv_ctl_view_snapshot_episode(v, i, NULL), -1, &err);
      g_clear_error(&err);
      /* p and q may differ for a forged snapshot: verify calls that
       * corruption; here only memory safety is checked. */
      if (q) trv_posterior_free(q);
    }
    if (p) trv_posterior_free(p);
    trv_ctl_view_free(v);
  }
  return 0;
}
