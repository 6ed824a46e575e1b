/* ctl-recover.c - the admission rules of the log and the recovery scan.
 *
 * Admission (TrvCtlState): a record is new, a duplicate of an identity
 * (agent, seq) already logged, or refused.  Episodes close in order, each
 * by one TRV_RECORD_EPISODE_END record; a closed episode takes no new
 * record, so a snapshot of it, once written, stays the fold of its records.
 * Snapshots come in increasing episode order, one per episode, and only for
 * closed episodes.  A compacted file starts with the snapshot of its base
 * episode; identities older than the base were compacted away, so a record
 * of an episode <= base is taken for the retry it must be (a duplicate).
 *
 * Recovery (trv_ctl_scan): entries are accepted in file order while each
 * one is the next link of the chain (sequence number and chained CRC, see
 * ctl-internal.h) and passes admission.  What follows the last accepted
 * entry must be what a crash of the writer can leave, and nothing else:
 *  - nothing;
 *  - the writer's preallocation pattern, to the end of the file;
 *  - exactly one incomplete frame: its bytes agree with the frame that
 *    must come next, and it runs past the end of the data, which is the end
 *    of the file or the start of at least TRV_CTL_PAD_GUARD bytes of
 *    pattern running to the end of the file (a writer always has that much
 *    preallocated past the frame it writes).
 * A crash tears at most the one write in flight, and a write is one frame
 * (always, none) or one group of whole frames (group), so these are the
 * only states a crash produces.  Anything else (a complete last frame with
 * a bad checksum, bytes after a complete frame that cannot start the next
 * one, zeroed pages, a broken chain, a valid-CRC entry that breaks
 * admission) is corruption: refused with the entry and offset, or cut off
 * and reported under salvage.  Acknowledged entries are never dropped
 * silently: they lie before the torn frame. */
#include "ctl-internal.h"

#include <string.h>

void trv_ctl_state_init(TrvCtlState *st, const TrvCtlHeader *header) {
  memset(st, 0, sizeof *st);
  st->header = *header;
  trv_ctl_idset_init(&st->ids);
  st->next_episode = header->base_episode == TRV_CTL_NO_BASE ? 0 : header->base_episode + 1;
}

void trv_ctl_state_clear(TrvCtlState *st) { trv_ctl_idset_clear(&st->ids); }

static bool compacted(const TrvCtlState *st) { return st->header.base_episode != TRV_CTL_NO_BASE; }

TrvCtlAppend trv_ctl_state_admit_record(const TrvCtlState *st, const TrvRecord *r, GError **error) {
  if (!trv_ctl_record_valid(r)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "invalid record (agent %u, seq %" G_GUINT64_FORMAT "): kind %u, commit status %u, %u context values",
                r->agent, r->seq, r->kind, r->commit_status, r->n_context);
    return TRV_CTL_ERROR;
  }
  if (compacted(st) && !st->have_base) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "compacted log: a record precedes the base snapshot");
    return TRV_CTL_ERROR;
  }
  if (trv_ctl_idset_contains(&st->ids, r->agent, r->seq)) return TRV_CTL_DUPLICATE;
  if (r->episode < st->next_episode) {
    if (compacted(st) && r->episode <= st->header.base_episode) return TRV_CTL_DUPLICATE;
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "record (agent %u, seq %" G_GUINT64_FORMAT ") belongs to episode %u, which is closed", r->agent, r->seq,
                r->episode);
    return TRV_CTL_ERROR;
  }
  if (r->kind == TRV_RECORD_EPISODE_END && (r->episode != st->next_episode || r->episode == UINT32_MAX)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "episode %u cannot end before episode %u: episodes close in order",
                r->episode, st->next_episode);
    return TRV_CTL_ERROR;
  }
  return TRV_CTL_APPENDED;
}

void trv_ctl_state_apply_record(TrvCtlState *st, const TrvRecord *r) {
  trv_ctl_idset_add(&st->ids, r->agent, r->seq);
  if (r->kind == TRV_RECORD_EPISODE_END) st->next_episode++;
}

TrvCtlAppend trv_ctl_state_admit_snapshot(const TrvCtlState *st, uint32_t episode, GError **error) {
  if (compacted(st) && !st->have_base) {
    if (episode == st->header.base_episode) return TRV_CTL_APPENDED;
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "compacted log: first snapshot is of episode %u, the header says %u",
                episode, st->header.base_episode);
    return TRV_CTL_ERROR;
  }
  if (episode >= st->next_episode) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "snapshot of episode %u, which is not closed (next to close: %u)",
                episode, st->next_episode);
    return TRV_CTL_ERROR;
  }
  if (st->have_snapshot && episode == st->last_snapshot) return TRV_CTL_DUPLICATE;
  if (st->have_snapshot && episode < st->last_snapshot) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "snapshot of episode %u after one of episode %u", episode,
                st->last_snapshot);
    return TRV_CTL_ERROR;
  }
  return TRV_CTL_APPENDED;
}

void trv_ctl_state_apply_snapshot(TrvCtlState *st, uint32_t episode) {
  if (compacted(st) && !st->have_base) st->have_base = true;
  st->have_snapshot = true;
  st->last_snapshot = episode;
}

void trv_ctl_scan_clear(TrvCtlScan *scan) {
  if (scan->entries) g_array_free(scan->entries, TRUE);
  trv_ctl_state_clear(&scan->state);
  memset(scan, 0, sizeof *scan);
}

/* Accepts the tail data[off..len) after the last whole entry if a crash can
 * have left it (filling torn_bytes and padding_bytes) and returns NULL;
 * otherwise returns why it is corruption (caller frees).  status is how the
 * bytes at off parse to the end of the file. */
static char *check_tail(TrvCtlScan *scan, const uint8_t *data, size_t off, size_t len, TrvCtlFrameStatus status) {
  if (status == TRV_CTL_FRAME_INCOMPLETE) { /* cut by the end of the file */
    scan->recovery.torn_bytes = len - off;
    return NULL;
  }
  uint64_t salt = trv_ctl_pad_salt(&scan->header);
  size_t w = trv_ctl_pad_start(salt, data, off, len);
  if (w == off) {
    scan->recovery.padding_bytes = len - off;
    return NULL;
  }
  TrvCtlEntry e;
  if (len - w >= TRV_CTL_PAD_GUARD &&
      trv_ctl_frame_parse(data + off, w - off, &scan->chain, &e) == TRV_CTL_FRAME_INCOMPLETE) {
    scan->recovery.torn_bytes = w - off; /* cut by the preallocation */
    scan->recovery.padding_bytes = len - w;
    return NULL;
  }
  GString *why = g_string_new(trv_ctl_frame_status_text(status));
  const uint8_t *f = data + off;
  if (status == TRV_CTL_FRAME_BAD_SEQ && len - off >= 8)
    g_string_append_printf(why, " (%u where %u was expected: an entry is missing, repeated or out of order)",
                           (unsigned)(f[4] | f[5] << 8 | f[6] << 16 | (uint32_t)f[7] << 24),
                           (unsigned)(uint32_t)scan->chain.seq);
  else if (status == TRV_CTL_FRAME_BAD_CRC)
    g_string_append(why, " (this entry, or the chain of entries before it, was altered)");
  else if (status == TRV_CTL_FRAME_BAD_LENGTH && len - off >= 4)
    g_string_append_printf(why,
                           " (%u: neither a record of the context count its body gives nor a snapshot of "
                           "this log's posterior has it)",
                           (unsigned)(f[0] | f[1] << 8 | f[2] << 16 | (uint32_t)f[3] << 24));
  size_t zeros = 0;
  while (zeros < len - off && data[len - 1 - zeros] == 0) zeros++;
  if (zeros == len - off)
    g_string_append_printf(why,
                           "; all %zu bytes from here to the end are zeros (zeroed pages, not a writer's "
                           "preallocation)",
                           zeros);
  else if (zeros >= 512)
    g_string_append_printf(why, "; the file ends with %zu zero bytes (zeroed pages, not a writer's preallocation)",
                           zeros);
  return g_string_free(why, FALSE);
}

bool trv_ctl_scan(const uint8_t *data, size_t len, const char *name, bool salvage, TrvCtlScan *scan, GError **error) {
  memset(scan, 0, sizeof *scan);
  if (!trv_ctl_header_decode(data, len, name, &scan->header, error)) return false;
  trv_ctl_state_init(&scan->state, &scan->header);
  trv_ctl_chain_init(&scan->chain, &scan->header);
  scan->entries = g_array_new(FALSE, FALSE, sizeof(TrvCtlEntry));
  size_t off = TRV_CTL_HEADER_SIZE;
  while (off < len) {
    TrvCtlEntry e;
    TrvCtlFrameStatus status = trv_ctl_frame_parse(data + off, len - off, &scan->chain, &e);
    char *why = NULL;
    if (status == TRV_CTL_FRAME_OK) {
      GError *rule = NULL;
      TrvCtlAppend a = e.type == TRV_CTL_ENTRY_RECORD
                           ? trv_ctl_state_admit_record(&scan->state, &e.rec, &rule)
                           : trv_ctl_state_admit_snapshot(&scan->state, e.snap_episode, &rule);
      if (a == TRV_CTL_APPENDED) {
        if (e.type == TRV_CTL_ENTRY_RECORD)
          trv_ctl_state_apply_record(&scan->state, &e.rec);
        else
          trv_ctl_state_apply_snapshot(&scan->state, e.snap_episode);
        e.offset = off;
        g_array_append_val(scan->entries, e);
        scan->chain.seq++;
        scan->chain.crc = e.crc;
        off += e.size;
        continue;
      }
      why = g_strdup_printf("valid checksum but %s", rule ? rule->message : "a duplicate of an earlier entry");
      g_clear_error(&rule);
    } else if (!(why = check_tail(scan, data, off, len, status))) {
      break;
    }
    if (!salvage) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT,
                  "%s: entry %" G_GUINT64_FORMAT " at byte offset %zu is corrupt: %s; that is not a torn final "
                  "append (%zu bytes to the end of the file), so the log is refused (salvage keeps the %u "
                  "entries, %zu bytes, before it)",
                  name, scan->chain.seq, off, why, len - off, scan->entries->len, off);
      g_free(why);
      trv_ctl_scan_clear(scan);
      return false;
    }
    g_free(why);
    scan->recovery.corrupt_offset = off;
    scan->recovery.dropped_bytes = len - off;
    break;
  }
  if (scan->header.base_episode != TRV_CTL_NO_BASE && !scan->state.have_base) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "%s: compacted log without its base snapshot at offset %d", name,
                TRV_CTL_HEADER_SIZE);
    trv_ctl_scan_clear(scan);
    return false;
  }
  scan->recovery.file_bytes = len;
  scan->recovery.valid_bytes =
      len - scan->recovery.torn_bytes - scan->recovery.padding_bytes - scan->recovery.dropped_bytes;
  scan->recovery.n_entries = scan->entries->len;
  return true;
}
