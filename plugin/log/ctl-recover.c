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
 * Recovery (trv_ctl_scan): entries are accepted in file order while they
 * parse and pass admission.  At the first entry that does not, the rest of
 * the file is searched for any valid frame: none means the damage is a torn
 * tail (a write that a crash cut short), which is dropped; one means the
 * damage sits in the middle of good data, which is corruption and never
 * silently dropped (only with salvage, and then reported).  A valid-CRC
 * entry that breaks admission is corruption wherever it is.  An all-zero
 * rest of file is a writer's preallocation (ctl.c), dropped like a torn
 * tail but reported apart. */
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
                "record (agent %u, seq %" G_GUINT64_FORMAT ") belongs to episode %u, which is closed",
                r->agent, r->seq, r->episode);
    return TRV_CTL_ERROR;
  }
  if (r->kind == TRV_RECORD_EPISODE_END && (r->episode != st->next_episode || r->episode == UINT32_MAX)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "episode %u cannot end before episode %u: episodes close in order", r->episode,
                st->next_episode);
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
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "compacted log: first snapshot is of episode %u, the header says %u", episode,
                st->header.base_episode);
    return TRV_CTL_ERROR;
  }
  if (episode >= st->next_episode) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "snapshot of episode %u, which is not closed (next to close: %u)", episode, st->next_episode);
    return TRV_CTL_ERROR;
  }
  if (st->have_snapshot && episode == st->last_snapshot) return TRV_CTL_DUPLICATE;
  if (st->have_snapshot && episode < st->last_snapshot) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "snapshot of episode %u after one of episode %u",
                episode, st->last_snapshot);
    return TRV_CTL_ERROR;
  }
  return TRV_CTL_APPENDED;
}

void trv_ctl_state_apply_snapshot(TrvCtlState *st, uint32_t episode) {
  if (compacted(st) && !st->have_base) st->have_base = true;
  st->have_snapshot = true;
  st->last_snapshot = episode;
}

/* Is there any valid frame starting in data[from, len)? */
static bool valid_frame_after(const uint8_t *data, size_t len, size_t from) {
  TrvCtlEntry e;
  for (size_t y = from; y + TRV_CTL_FRAME_HEAD < len; y++)
    if (trv_ctl_frame_parse(data + y, len - y, &e) == 1) return true;
  return false;
}

static bool all_zero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return false;
  return true;
}

void trv_ctl_scan_clear(TrvCtlScan *scan) {
  if (scan->entries) g_array_free(scan->entries, TRUE);
  trv_ctl_state_clear(&scan->state);
  memset(scan, 0, sizeof *scan);
}

bool trv_ctl_scan(const uint8_t *data, size_t len, const char *name, bool salvage, TrvCtlScan *scan,
                  GError **error) {
  memset(scan, 0, sizeof *scan);
  if (!trv_ctl_header_decode(data, len, name, &scan->header, error)) return false;
  trv_ctl_state_init(&scan->state, &scan->header);
  scan->entries = g_array_new(FALSE, FALSE, sizeof(TrvCtlEntry));
  size_t off = TRV_CTL_HEADER_SIZE;
  char *why = NULL;
  while (off < len) {
    TrvCtlEntry e;
    int r = trv_ctl_frame_parse(data + off, len - off, &e);
    if (r == 1) {
      GError *rule = NULL;
      TrvCtlAppend a = e.type == TRV_CTL_ENTRY_RECORD
                           ? trv_ctl_state_admit_record(&scan->state, &e.rec, &rule)
                           : trv_ctl_state_admit_snapshot(&scan->state, e.snap_episode, &rule);
      if (a == TRV_CTL_APPENDED) {
        if (e.type == TRV_CTL_ENTRY_RECORD) trv_ctl_state_apply_record(&scan->state, &e.rec);
        else trv_ctl_state_apply_snapshot(&scan->state, e.snap_episode);
        e.offset = off;
        g_array_append_val(scan->entries, e);
        off += e.size;
        continue;
      }
      why = rule ? g_strdup(rule->message) : g_strdup("duplicate entry");
      g_clear_error(&rule);
    } else if (all_zero(data + off, len - off)) {
      scan->recovery.padding_bytes = len - off;
      break;
    } else if (!valid_frame_after(data, len, off + 1)) {
      scan->recovery.torn_bytes = len - off;
      break;
    } else {
      why = g_strdup(r == 0 ? "length runs past the end of the file" : "bad checksum or impossible length");
    }
    /* Corruption at off, with valid data after it (or a rule broken). */
    if (!salvage) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT,
                  "%s: corrupt entry at byte offset %zu (%s), followed by %zu more bytes; "
                  "not a torn tail, so it is refused (salvage keeps the %zu bytes before it)",
                  name, off, why, len - off, off);
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
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "%s: compacted log without its base snapshot at offset %d",
                name, TRV_CTL_HEADER_SIZE);
    trv_ctl_scan_clear(scan);
    return false;
  }
  scan->recovery.file_bytes = len;
  scan->recovery.valid_bytes =
      len - scan->recovery.torn_bytes - scan->recovery.padding_bytes - scan->recovery.dropped_bytes;
  scan->recovery.n_entries = scan->entries->len;
  return true;
}
