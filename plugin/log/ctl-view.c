/* ctl-view.c - consistent read-only views of a CTL, replay, and verify.
 *
 * A view is taken from one read of the file, without a lock, so a writer
 * may be appending meanwhile.  Isolation comes from the format, not from
 * locking: the writer appends whole frames in order and closes an episode
 * only after all its records, so the bytes read are some prefix of the log
 * plus at most one frame in flight, which the scan sees as a torn tail and
 * ignores (a view never truncates).  The view then exposes only episodes
 * whose TRV_RECORD_EPISODE_END it read: never a partially applied one.
 *
 * Replay: the posterior after episode u is the fold (trv_replay_episode) of
 * episodes start+1 .. u onto the state at start, where start is the prior
 * before episode 0, or a stored snapshot.  Every path goes through that one
 * function, so replay from zero and from any snapshot agree bit for bit.
 *
 * Every view checks that each stored snapshot decodes and equals the fold
 * of the records before it, so a view holds only what verify accepts:
 * replay and inspect can never read a log that verify calls corrupt.  With
 * salvage, a failing snapshot ends the view before it, like a damaged
 * frame does in the scan. */
#include "ctl-internal.h"
#include "core/replay.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct TrvCtlView {
  uint8_t *data; /* owned file image; snapshot blobs point into it */
  char *name;
  TrvCtlScan scan;
  uint32_t first, n_episodes;
  TrvRecord *records;    /* records of complete episodes, grouped by episode, file order within */
  size_t *episode_start; /* n_episodes + 1 offsets into records */
  GArray *snapshots;     /* const TrvCtlEntry *, file order */
};

/* Indexes the scanned entries: complete episodes and snapshots. */
static void build_index(TrvCtlView *v) {
  const TrvCtlHeader *h = &v->scan.header;
  v->first = h->base_episode == TRV_CTL_NO_BASE ? 0 : h->base_episode + 1;
  v->n_episodes = v->scan.state.next_episode - v->first;
  v->episode_start = g_new0(size_t, (size_t)v->n_episodes + 1);
  v->snapshots = g_array_new(FALSE, FALSE, sizeof(const TrvCtlEntry *));
  GArray *entries = v->scan.entries;
  /* Counting sort by episode, stable: file order within an episode. */
  size_t n_in = 0;
  for (guint i = 0; i < entries->len; i++) {
    const TrvCtlEntry *e = &g_array_index(entries, TrvCtlEntry, i);
    if (e->type == TRV_CTL_ENTRY_SNAPSHOT) {
      g_array_append_val(v->snapshots, e);
    } else if (e->rec.episode >= v->first && e->rec.episode < v->scan.state.next_episode) {
      v->episode_start[e->rec.episode - v->first + 1]++;
      n_in++;
    }
  }
  for (uint32_t k = 0; k < v->n_episodes; k++) v->episode_start[k + 1] += v->episode_start[k];
  v->records = g_new(TrvRecord, n_in ? n_in : 1);
  size_t *fill = g_memdup2(v->episode_start, sizeof(size_t) * ((size_t)v->n_episodes + 1));
  for (guint i = 0; i < entries->len; i++) {
    const TrvCtlEntry *e = &g_array_index(entries, TrvCtlEntry, i);
    if (e->type == TRV_CTL_ENTRY_RECORD && e->rec.episode >= v->first && e->rec.episode < v->scan.state.next_episode)
      v->records[fill[e->rec.episode - v->first]++] = e->rec;
  }
  g_free(fill);
}

static void clear_index(TrvCtlView *v) {
  trv_ctl_scan_clear(&v->scan);
  if (v->snapshots) g_array_free(v->snapshots, TRUE);
  v->snapshots = NULL;
  g_free(v->records);
  v->records = NULL;
  g_free(v->episode_start);
  v->episode_start = NULL;
}

static bool check_snapshots(const TrvCtlView *v, uint64_t *bad_offset, GError **error);

TrvCtlView *trv_ctl_view_take(uint8_t *data, size_t len, const char *name, bool salvage, GError **error) {
  TrvCtlView *v = g_new0(TrvCtlView, 1);
  v->data = data;
  v->name = g_strdup(name);
  size_t limit = len;
  for (;;) {
    if (!trv_ctl_scan(data, limit, name, salvage, &v->scan, error)) break;
    if (limit < len) { /* salvage after a bad snapshot: the prefix before it */
      TrvCtlRecovery *r = &v->scan.recovery;
      r->file_bytes = len;
      r->corrupt_offset = limit;
      r->dropped_bytes = len - limit;
    }
    build_index(v);
    uint64_t bad = 0;
    GError *err = NULL;
    if (check_snapshots(v, &bad, &err)) return v;
    clear_index(v);
    /* The snapshots before the bad one matched, so the prefix ending there
     * passes on the next round: this loop runs at most twice. */
    if (!salvage || bad >= limit) {
      g_propagate_error(error, err);
      break;
    }
    g_clear_error(&err);
    limit = (size_t)bad;
  }
  g_free(v->data);
  g_free(v->name);
  g_free(v);
  return NULL;
}

TrvCtlView *trv_ctl_view_new_from_bytes(const uint8_t *data, size_t len, const char *name, bool salvage,
                                        GError **error) {
  return trv_ctl_view_take(g_memdup2(data, len ? len : 1), len, name, salvage, error);
}

/* Reads path whole.  INPUT for a missing file or a directory. */
static uint8_t *read_file(const char *path, size_t *len, GError **error) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    int err = fd < 0 ? errno : EISDIR;
    g_set_error(error, TRV_ERROR, err == EACCES || err == EIO ? TRV_ERROR_IO : TRV_ERROR_INPUT,
                "%s: cannot read the log: %s", path, fd >= 0 ? "not a regular file" : g_strerror(err));
    if (fd >= 0) close(fd);
    return NULL;
  }
  *len = (size_t)st.st_size;
  uint8_t *data = trv_ctl_read_fd(fd, path, len, error);
  close(fd);
  return data;
}

TrvCtlView *trv_ctl_view_open(const char *path, bool salvage, GError **error) {
  size_t len;
  uint8_t *data = read_file(path, &len, error);
  return data ? trv_ctl_view_take(data, len, path, salvage, error) : NULL;
}

void trv_ctl_view_free(TrvCtlView *v) {
  if (!v) return;
  clear_index(v);
  g_free(v->data);
  g_free(v->name);
  g_free(v);
}

const TrvCtlScan *trv_ctl_view_scan(const TrvCtlView *v) { return &v->scan; }
const TrvCtlHeader *trv_ctl_view_header(const TrvCtlView *v) { return &v->scan.header; }
const TrvCtlRecovery *trv_ctl_view_recovery(const TrvCtlView *v) { return &v->scan.recovery; }

uint32_t trv_ctl_view_episodes(const TrvCtlView *v, uint32_t *first) {
  if (first) *first = v->first;
  return v->n_episodes;
}

const TrvRecord *trv_ctl_view_episode_records(const TrvCtlView *v, uint32_t episode, size_t *n) {
  if (episode < v->first || episode - v->first >= v->n_episodes) {
    *n = 0;
    return NULL;
  }
  size_t k = episode - v->first;
  *n = v->episode_start[k + 1] - v->episode_start[k];
  return v->records + v->episode_start[k];
}

size_t trv_ctl_view_n_snapshots(const TrvCtlView *v) { return v->snapshots->len; }

static const TrvCtlEntry *snapshot_entry(const TrvCtlView *v, size_t i) {
  return g_array_index(v->snapshots, const TrvCtlEntry *, i);
}

uint32_t trv_ctl_view_snapshot_episode(const TrvCtlView *v, size_t i, TrvCtlSnapshotReason *reason) {
  const TrvCtlEntry *e = snapshot_entry(v, i);
  if (reason) *reason = (TrvCtlSnapshotReason)e->snap_reason;
  return e->snap_episode;
}

/* Decodes the snapshot of entry e; it must have the header's shape. */
static TrvPosterior *decode_snapshot(const TrvCtlView *v, const TrvCtlEntry *e, GError **error) {
  GError *inner = NULL;
  TrvPosterior *post = trv_posterior_deserialize(e->blob, e->blob_len, &inner);
  if (post && ((uint32_t)trv_posterior_n_components(post) != v->scan.header.n_components ||
               !trv_ctl_params_equal(trv_posterior_params(post), &v->scan.header.params))) {
    trv_posterior_free(post);
    post = NULL;
    g_set_error(&inner, TRV_ERROR, TRV_ERROR_CORRUPT, "components or parameters differ from the header");
  }
  if (!post) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT,
                "%s: snapshot of episode %u (entry %" G_GUINT64_FORMAT ") at byte offset %" G_GUINT64_FORMAT
                " does not decode: %s",
                v->name, e->snap_episode, e->seq, e->offset, inner ? inner->message : "invalid");
    g_clear_error(&inner);
  }
  return post;
}

TrvPosterior *trv_ctl_view_snapshot(const TrvCtlView *v, uint32_t episode, GError **error) {
  for (size_t i = 0; i < v->snapshots->len; i++) {
    const TrvCtlEntry *e = snapshot_entry(v, i);
    if (e->snap_episode == episode) return decode_snapshot(v, e, error);
  }
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: no snapshot of episode %u", v->name, episode);
  return NULL;
}

/* Folds complete episodes from+1 .. upto onto post. */
static void fold_range(const TrvCtlView *v, TrvPosterior *post, int64_t from, int64_t upto) {
  GArray *scratch = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  for (int64_t e = from + 1; e <= upto; e++) {
    size_t n;
    const TrvRecord *recs = trv_ctl_view_episode_records(v, (uint32_t)e, &n);
    g_array_set_size(scratch, 0);
    if (n) g_array_append_vals(scratch, recs, (guint)n);
    trv_replay_episode(post, (TrvRecord *)(void *)scratch->data, n);
  }
  g_array_free(scratch, TRUE);
}

TrvPosterior *trv_ctl_view_replay(const TrvCtlView *v, int64_t from, int64_t upto, GError **error) {
  const TrvCtlHeader *h = &v->scan.header;
  int64_t last = (int64_t)v->first + v->n_episodes - 1;
  if (upto < 0) upto = last;
  TrvPosterior *post;
  if (from < 0 && h->base_episode == TRV_CTL_NO_BASE) {
    post = trv_posterior_new((int)h->n_components, &h->params);
  } else {
    if (from < 0) from = h->base_episode;
    if (from > last || from > UINT32_MAX) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: episode %" G_GINT64_FORMAT " is not complete", v->name, from);
      return NULL;
    }
    post = trv_ctl_view_snapshot(v, (uint32_t)from, error);
    if (!post) return NULL;
  }
  if (upto > last || upto < from) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: cannot replay from %" G_GINT64_FORMAT " to episode %" G_GINT64_FORMAT
                " (complete episodes: %u to %" G_GINT64_FORMAT ")",
                v->name, from, upto, v->first, last);
    trv_posterior_free(post);
    return NULL;
  }
  fold_range(v, post, from, upto);
  return post;
}

void trv_ctl_view_stats(const TrvCtlView *v, TrvCtlStats *s) {
  memset(s, 0, sizeof *s);
  s->file_bytes = v->scan.recovery.valid_bytes;
  s->header_bytes = TRV_CTL_HEADER_SIZE;
  GArray *entries = v->scan.entries;
  for (guint i = 0; i < entries->len; i++) {
    const TrvCtlEntry *e = &g_array_index(entries, TrvCtlEntry, i);
    if (e->type == TRV_CTL_ENTRY_SNAPSHOT) {
      s->n_snapshots++;
      s->snapshot_bytes += e->size;
      continue;
    }
    s->n_records++;
    s->record_bytes += e->size;
    s->n_by_kind[e->rec.kind]++;
    if (e->rec.episode >= v->scan.state.next_episode) s->n_pending_records++;
  }
}

/* Every snapshot must decode and be the fold of everything before it.  On
 * failure, *bad_offset is the offset of the failing snapshot's frame. */
static bool check_snapshots(const TrvCtlView *v, uint64_t *bad_offset, GError **error) {
  const TrvCtlHeader *h = &v->scan.header;
  size_t n = v->snapshots->len;
  if (!n) return true;
  int64_t at = h->base_episode == TRV_CTL_NO_BASE ? -1 : (int64_t)h->base_episode;
  TrvPosterior *running = NULL;
  if (at < 0) running = trv_posterior_new((int)h->n_components, &h->params);
  bool ok = true;
  for (size_t i = 0; ok && i < n; i++) {
    const TrvCtlEntry *e = snapshot_entry(v, i);
    TrvPosterior *stored = decode_snapshot(v, e, error);
    ok = stored != NULL;
    if (ok && !running) {
      running = stored; /* the base of a compacted log: the fold starts there */
      stored = NULL;
    } else if (ok) {
      fold_range(v, running, at, e->snap_episode);
      if (!trv_posterior_equal(stored, running)) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT,
                    "%s: snapshot of episode %u (entry %" G_GUINT64_FORMAT ") at byte offset %" G_GUINT64_FORMAT
                    " differs from the fold of the records before it",
                    v->name, e->snap_episode, e->seq, e->offset);
        ok = false;
      }
    }
    at = e->snap_episode;
    if (stored) trv_posterior_free(stored);
    if (!ok) *bad_offset = e->offset;
  }
  if (running) trv_posterior_free(running);
  return ok;
}

bool trv_ctl_verify(const char *path, TrvCtlRecovery *recovery, GError **error) {
  TrvCtlView *v = trv_ctl_view_open(path, false, error);
  if (!v) return false;
  if (recovery) *recovery = v->scan.recovery;
  trv_ctl_view_free(v);
  return true;
}
