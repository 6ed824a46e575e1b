/* ctl-fuzz.c - libFuzzer harness for the CTL reader.
 *
 * Feeds arbitrary bytes to everything that reads a CTL image: the scan
 * (strict and salvage: frames, the chain, the tail rule, the preallocation
 * pattern), the view and its snapshot check, replay from zero and from
 * every snapshot (which deserializes the posterior blobs), and the
 * statistics.  Any crash, sanitizer report or leak is a bug; errors
 * returned through GError are the expected outcome for most inputs.
 *
 * It also checks what the reader promises, and aborts when it does not:
 * the recovery accounts for every byte of the input; a log accepted as it
 * is reads the same with salvage; and since a view holds only snapshots
 * equal to the fold of the records before them, replay from any snapshot
 * equals replay from zero, bit for bit.  Built and run by fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "log/ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(bool holds) {
  if (!holds) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  TrvCtlRecovery strict = {0};
  bool strict_ok = false;
  for (int salvage = 0; salvage <= 1; salvage++) {
    GError *err = NULL;
    TrvCtlView *v = trv_ctl_view_new_from_bytes(data, size, "fuzz", salvage, &err);
    if (!v) {
      require(err != NULL && err->domain == TRV_ERROR);
      g_clear_error(&err);
      require(!strict_ok); /* what passes strictly passes with salvage */
      continue;
    }
    const TrvCtlRecovery *r = trv_ctl_view_recovery(v);
    require(r->file_bytes == size);
    require(r->valid_bytes + r->torn_bytes + r->padding_bytes + r->dropped_bytes == size);
    require(salvage || r->dropped_bytes == 0);
    if (!salvage) {
      strict = *r;
      strict_ok = true;
    } else if (strict_ok) {
      require(r->valid_bytes == strict.valid_bytes && r->n_entries == strict.n_entries && r->dropped_bytes == 0);
    }
    TrvCtlStats st;
    trv_ctl_view_stats(v, &st);
    TrvPosterior *p = trv_ctl_view_replay(v, -1, -1, &err);
    g_clear_error(&err);
    for (size_t i = 0; i < trv_ctl_view_n_snapshots(v) && i < 8; i++) {
      TrvPosterior *q = trv_ctl_view_replay(v, trv_ctl_view_snapshot_episode(v, i, NULL), -1, &err);
      g_clear_error(&err);
      if (p && q) require(trv_posterior_equal(p, q));
      if (q) trv_posterior_free(q);
    }
    if (p) trv_posterior_free(p);
    trv_ctl_view_free(v);
  }
  return 0;
}
