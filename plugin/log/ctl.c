/* ctl.c - the CTL writer: create, open with recovery, append, sync.
 *
 * One writer per file, enforced by an exclusive flock held while the handle
 * lives (readers take no lock; see ctl-view.c).  Invariants kept here:
 *  - the file is always header + whole entries, then at most one write in
 *    flight (one frame, or one group of whole frames), then (always and
 *    group) the preallocation pattern: a write that fails is cut back off
 *    with ftruncate, so a later append never lands after garbage;
 *  - each frame continues the chain (sequence number lsn, CRC chained
 *    through the previous frame's, ctl-internal.h); ctl->chain is the
 *    chain after the last frame appended, ctl->durable_chain after the
 *    last one acknowledged;
 *  - under always and group, at least TRV_CTL_PAD_GUARD bytes of the
 *    pattern lie past the end of any frame when it is written, which is
 *    what lets recovery tell a torn append from a damaged last frame;
 *  - under group, frames wait in group_buf until the group commit writes
 *    and syncs them together: one write and one fdatasync per group;
 *  - ctl->state admits exactly what the file holds, so a duplicate is
 *    recognised whether it was appended by this handle or found on open;
 *  - durable_lsn <= lsn, and durable_lsn counts entries that are durable
 *    under the policy: after fdatasync for always and group, after write
 *    for none (which promises no durability, only order and framing);
 *  - after a failed sync or group write the handle is broken: nothing not yet acknowledged
 *    is trusted (it is cut back off on a best-effort basis) and every later
 *    call fails until the file is reopened, which recovers it.  Retrying a
 *    failed fsync is not safe on Linux: the kernel may have dropped the
 *    dirty pages and report success the second time. */
#include "ctl-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct TrvCtl {
  char *path;
  int fd;
  TrvCtlOptions options;
  TrvCtlState state;
  uint64_t end;         /* offset of the next entry */
  uint64_t durable_end; /* bytes acknowledged */
  uint64_t synced_end;  /* bytes fdatasync'ed */
  uint64_t lsn, durable_lsn;
  TrvCtlChain chain;         /* after the last frame appended: its seq is lsn + 1 */
  TrvCtlChain durable_chain; /* after the last frame acknowledged */
  TrvCtlChain frame_chain;   /* after ctl->frame, once that is committed */
  unsigned pending;          /* entries written, not yet acknowledged */
  int64_t oldest_pending_us;
  bool broken;
  bool have_hooks;
  TrvCtlIoHooks hooks;
  TrvCtlAckFunc ack;
  void *ack_data;
  GByteArray *frame;
  GByteArray *group_buf; /* group: frames appended, not yet written */
  uint64_t alloc_end;    /* file size: end plus preallocation */
  bool no_prealloc;      /* preallocation failed once (full disk): stop trying */
  uint64_t pad_salt;     /* of this log's preallocation pattern */
  uint8_t *pad_buf;      /* PAD_PIECE bytes of scratch, allocated on first use */
};

/* Preallocation ahead of the end, 1 MiB at a time.  Overwriting blocks
 * that already exist lets fdatasync skip the file-size journal commit that
 * every append would otherwise cost (about 1.5x slower on ext4 here): the
 * same reason SQLite's WAL and PostgreSQL's segments are reused or
 * pre-zeroed.  The blocks hold this log's pattern (trv_ctl_pad_fill), not
 * zeros, so that recovery can tell them from zeroed pages that once held
 * acknowledged records. */
#define PREALLOC_CHUNK (1u << 20)
#define PAD_PIECE (64u * 1024)

static ssize_t io_pwrite(TrvCtl *ctl, const void *buf, size_t n, off_t off) {
  return ctl->have_hooks && ctl->hooks.pwrite ? ctl->hooks.pwrite(ctl->fd, buf, n, off, ctl->hooks.user_data)
                                              : pwrite(ctl->fd, buf, n, off);
}

static int io_fsync(TrvCtl *ctl) {
  return ctl->have_hooks && ctl->hooks.fsync ? ctl->hooks.fsync(ctl->fd, ctl->hooks.user_data) : fdatasync(ctl->fd);
}

static bool check_usable(TrvCtl *ctl, GError **error) {
  if (!ctl->broken) return true;
  g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
              "%s: an earlier sync failed, so this handle is closed to appends; reopen the file to recover it",
              ctl->path);
  return false;
}

/* Writes n bytes at off.  On failure cuts the file back to off, so no
 * later append lands after garbage (if even that fails, the handle breaks
 * and recovery will see a torn tail). */
static bool write_at(TrvCtl *ctl, const uint8_t *p, size_t n, uint64_t off, GError **error) {
  size_t done = 0;
  while (done < n) {
    ssize_t w = io_pwrite(ctl, p + done, n - done, (off_t)(off + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      int err = w < 0 ? errno : ENOSPC;
      g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                  "%s: cannot append %zu bytes at offset %" G_GUINT64_FORMAT ": %s; the log is unchanged", ctl->path, n,
                  off, g_strerror(err));
      if (ftruncate(ctl->fd, (off_t)off) != 0)
        ctl->broken = true;
      else
        ctl->alloc_end = off;
      return false;
    }
    done += (size_t)w;
  }
  return true;
}

/* Makes sure the pattern reaches TRV_CTL_PAD_GUARD bytes past need_end
 * before a frame ending there is written.  Through the I/O hooks, so that
 * a simulated power cut sees these writes too. */
static void preallocate(TrvCtl *ctl, uint64_t need_end) {
  if (ctl->options.fsync == TRV_CTL_FSYNC_NONE || ctl->no_prealloc || need_end + TRV_CTL_PAD_GUARD <= ctl->alloc_end)
    return;
  uint64_t target = (need_end + TRV_CTL_PAD_GUARD + PREALLOC_CHUNK) & ~(uint64_t)(PREALLOC_CHUNK - 1);
  if (!ctl->pad_buf) ctl->pad_buf = g_malloc(PAD_PIECE);
  for (uint64_t at = ctl->alloc_end; at < target;) {
    size_t n = target - at < PAD_PIECE ? (size_t)(target - at) : PAD_PIECE;
    trv_ctl_pad_fill(ctl->pad_salt, at, ctl->pad_buf, n);
    ssize_t w = io_pwrite(ctl, ctl->pad_buf, n, (off_t)at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) { /* no room: write without preallocation from now on */
      ctl->no_prealloc = true;
      if (ftruncate(ctl->fd, (off_t)ctl->end) == 0) ctl->alloc_end = ctl->end;
      return;
    }
    at += (uint64_t)w;
    ctl->alloc_end = at;
  }
}

/* Gives up everything not acknowledged: after a failed group write or a
 * failed sync, the handle is broken and reopening recovers the file. */
static void break_handle(TrvCtl *ctl) {
  ctl->broken = true;
  g_byte_array_set_size(ctl->group_buf, 0);
  if (ftruncate(ctl->fd, (off_t)ctl->durable_end) == 0) {
    ctl->end = ctl->synced_end = ctl->alloc_end = ctl->durable_end;
    ctl->lsn = ctl->durable_lsn;
    ctl->chain = ctl->durable_chain;
  }
}

/* Writes the group buffer, syncs, and acknowledges everything appended. */
static bool sync_now(TrvCtl *ctl, GError **error) {
  if (ctl->group_buf->len) {
    uint64_t at = ctl->end - ctl->group_buf->len;
    preallocate(ctl, ctl->end);
    if (!write_at(ctl, ctl->group_buf->data, ctl->group_buf->len, at, error)) {
      g_prefix_error(error, "group commit of %u append(s) failed, none is acknowledged: ", ctl->pending);
      break_handle(ctl);
      return false;
    }
    g_byte_array_set_size(ctl->group_buf, 0);
  }
  if (ctl->synced_end != ctl->end && io_fsync(ctl) != 0) {
    int err = errno;
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                "%s: cannot sync the log (%" G_GUINT64_FORMAT
                " bytes pending): %s; the last %u append(s) are not acknowledged",
                ctl->path, ctl->end - ctl->durable_end, g_strerror(err), ctl->pending);
    break_handle(ctl);
    return false;
  }
  ctl->synced_end = ctl->durable_end = ctl->end;
  bool advanced = ctl->durable_lsn != ctl->lsn;
  ctl->durable_lsn = ctl->lsn;
  ctl->durable_chain = ctl->chain;
  ctl->pending = 0;
  if (advanced && ctl->ack) ctl->ack(ctl->durable_lsn, ctl->ack_data);
  return true;
}

/* Appends ctl->frame (which continues ctl->chain to ctl->frame_chain)
 * under the policy: always and none write it now; group collects frames in
 * memory and writes them in one go at the group commit, so readers see only
 * committed groups.  Returns false if the frame is not (or no longer) part
 * of the log. */
static bool commit_frame(TrvCtl *ctl, uint64_t *lsn, GError **error) {
  size_t n = ctl->frame->len;
  if (ctl->options.fsync == TRV_CTL_FSYNC_GROUP)
    g_byte_array_append(ctl->group_buf, ctl->frame->data, (guint)n);
  else if (preallocate(ctl, ctl->end + n), !write_at(ctl, ctl->frame->data, n, ctl->end, error))
    return false;
  ctl->end += n;
  ctl->lsn++;
  ctl->chain = ctl->frame_chain;
  if (lsn) *lsn = ctl->lsn;
  if (ctl->pending++ == 0) ctl->oldest_pending_us = trv_ctl_now_us();
  switch (ctl->options.fsync) {
    case TRV_CTL_FSYNC_ALWAYS: return sync_now(ctl, error);
    case TRV_CTL_FSYNC_GROUP:
      if (ctl->pending >= ctl->options.group_records ||
          trv_ctl_now_us() - ctl->oldest_pending_us >= (int64_t)ctl->options.group_ms * 1000)
        return sync_now(ctl, error);
      return true;
    case TRV_CTL_FSYNC_NONE:
      ctl->durable_end = ctl->end;
      ctl->durable_lsn = ctl->lsn;
      ctl->durable_chain = ctl->chain;
      ctl->pending = 0;
      if (ctl->ack) ctl->ack(ctl->durable_lsn, ctl->ack_data);
      return true;
  }
  return true;
}

TrvCtlAppend trv_ctl_append_record(TrvCtl *ctl, const TrvRecord *rec, uint64_t *lsn, GError **error) {
  if (!check_usable(ctl, error)) return TRV_CTL_ERROR;
  GError *rule = NULL;
  TrvCtlAppend a = trv_ctl_state_admit_record(&ctl->state, rec, &rule);
  if (a != TRV_CTL_APPENDED) {
    if (rule) g_propagate_prefixed_error(error, rule, "%s: ", ctl->path);
    return a;
  }
  g_byte_array_set_size(ctl->frame, 0);
  ctl->frame_chain = ctl->chain;
  trv_ctl_frame_record(ctl->frame, &ctl->frame_chain, rec);
  /* The state learns the record once it is in the file: after a failed
   * sync the handle is broken, so the state is never consulted again. */
  uint64_t end_before = ctl->end;
  bool ok = commit_frame(ctl, lsn, error);
  if (ctl->end > end_before) trv_ctl_state_apply_record(&ctl->state, rec);
  return ok ? TRV_CTL_APPENDED : TRV_CTL_ERROR;
}

TrvCtlAppend trv_ctl_append_snapshot(TrvCtl *ctl, uint32_t episode, TrvCtlSnapshotReason reason,
                                     const TrvPosterior *post, uint64_t *lsn, GError **error) {
  if (!check_usable(ctl, error)) return TRV_CTL_ERROR;
  const TrvCtlHeader *h = &ctl->state.header;
  if ((uint32_t)trv_posterior_n_components(post) != h->n_components ||
      !trv_ctl_params_equal(trv_posterior_params(post), &h->params) || reason > TRV_CTL_SNAPSHOT_COMPACTION) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: snapshot of episode %u does not match the log (%d components and parameters as given "
                "at creation, %u expected)",
                ctl->path, episode, trv_posterior_n_components(post), h->n_components);
    return TRV_CTL_ERROR;
  }
  GError *rule = NULL;
  TrvCtlAppend a = trv_ctl_state_admit_snapshot(&ctl->state, episode, &rule);
  if (a != TRV_CTL_APPENDED) {
    if (rule) g_propagate_prefixed_error(error, rule, "%s: ", ctl->path);
    return a;
  }
  GByteArray *blob = g_byte_array_new();
  trv_posterior_serialize(post, blob);
  g_byte_array_set_size(ctl->frame, 0);
  ctl->frame_chain = ctl->chain;
  trv_ctl_frame_snapshot(ctl->frame, &ctl->frame_chain, episode, (uint8_t)reason, blob->data, blob->len);
  g_byte_array_unref(blob);
  uint64_t end_before = ctl->end;
  bool ok = commit_frame(ctl, lsn, error);
  if (ctl->end > end_before) trv_ctl_state_apply_snapshot(&ctl->state, episode);
  return ok ? TRV_CTL_APPENDED : TRV_CTL_ERROR;
}

bool trv_ctl_flush(TrvCtl *ctl, GError **error) {
  if (!check_usable(ctl, error)) return false;
  return sync_now(ctl, error);
}

bool trv_ctl_poll(TrvCtl *ctl, GError **error) {
  if (!check_usable(ctl, error)) return false;
  if (ctl->options.fsync == TRV_CTL_FSYNC_GROUP && ctl->pending &&
      trv_ctl_now_us() - ctl->oldest_pending_us >= (int64_t)ctl->options.group_ms * 1000)
    return sync_now(ctl, error);
  return true;
}

uint64_t trv_ctl_last_lsn(const TrvCtl *ctl) { return ctl->lsn; }
uint64_t trv_ctl_durable_lsn(const TrvCtl *ctl) { return ctl->durable_lsn; }
uint32_t trv_ctl_next_episode(const TrvCtl *ctl) { return ctl->state.next_episode; }
const TrvCtlHeader *trv_ctl_header(const TrvCtl *ctl) { return &ctl->state.header; }
const char *trv_ctl_path(const TrvCtl *ctl) { return ctl->path; }

void trv_ctl_set_ack_func(TrvCtl *ctl, TrvCtlAckFunc func, void *user_data) {
  ctl->ack = func;
  ctl->ack_data = user_data;
}

void trv_ctl_set_io_hooks(TrvCtl *ctl, const TrvCtlIoHooks *hooks) {
  ctl->have_hooks = hooks != NULL;
  if (hooks) ctl->hooks = *hooks;
}

/* --- open and create --- */

static TrvCtlOptions normalized(const TrvCtlOptions *options) {
  TrvCtlOptions o = {0};
  if (options) o = *options;
  if (!o.group_records) o.group_records = 64;
  if (!o.group_ms) o.group_ms = 10;
  return o;
}

TrvCtl *trv_ctl_open(const char *path, const TrvCtlOptions *options, TrvCtlRecovery *recovery, GError **error) {
  TrvCtlOptions opt = normalized(options);
  if (opt.fsync > TRV_CTL_FSYNC_NONE) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: unknown fsync policy %d", path, (int)opt.fsync);
    return NULL;
  }
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    g_set_error(error, TRV_ERROR, err == ENOENT || err == EISDIR ? TRV_ERROR_INPUT : TRV_ERROR_IO,
                "%s: cannot open the log: %s", path, g_strerror(err));
    return NULL;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: %s", path,
                err == EWOULDBLOCK ? "another writer has the log open" : g_strerror(err));
    close(fd);
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot stat: %s", path, g_strerror(errno));
    close(fd);
    return NULL;
  }
  size_t len = (size_t)st.st_size;
  uint8_t *data = trv_ctl_read_fd(fd, path, &len, error);
  TrvCtlScan scan;
  if (!data || !trv_ctl_scan(data, len, path, opt.salvage, &scan, error)) {
    g_free(data);
    close(fd);
    return NULL;
  }
  TrvCtlRecovery rec = scan.recovery;
  bool ok = true;
  if (rec.dropped_bytes) {
    /* Salvage: keep what is dropped next to the log, for forensics. */
    char *side = g_strconcat(path, ".dropped", NULL);
    ok = g_file_set_contents(side, (const char *)data + rec.valid_bytes, (gssize)rec.dropped_bytes, error);
    g_free(side);
  }
  if (ok && rec.valid_bytes < len && (ftruncate(fd, (off_t)rec.valid_bytes) != 0 || fdatasync(fd) != 0)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot truncate the torn tail at offset %" G_GUINT64_FORMAT ": %s",
                path, rec.valid_bytes, g_strerror(errno));
    ok = false;
  }
  g_free(data);
  if (!ok) {
    trv_ctl_scan_clear(&scan);
    close(fd);
    return NULL;
  }
  TrvCtl *ctl = g_new0(TrvCtl, 1);
  ctl->path = g_strdup(path);
  ctl->fd = fd;
  ctl->options = opt;
  ctl->state = scan.state;
  memset(&scan.state, 0, sizeof scan.state); /* moved into ctl */
  ctl->chain = ctl->durable_chain = scan.chain;
  ctl->pad_salt = trv_ctl_pad_salt(&scan.header);
  trv_ctl_scan_clear(&scan);
  ctl->end = ctl->durable_end = ctl->synced_end = ctl->alloc_end = rec.valid_bytes;
  ctl->lsn = ctl->durable_lsn = rec.n_entries;
  ctl->frame = g_byte_array_sized_new(256);
  ctl->group_buf = g_byte_array_sized_new(64 * 1024);
  if (recovery) *recovery = rec;
  return ctl;
}

TrvCtl *trv_ctl_create(const char *path, int n_components, const TrvPosteriorParams *params,
                       const TrvCtlOptions *options, GError **error) {
  TrvCtlHeader h = {.version = TRV_CTL_FORMAT_VERSION,
                    .created_us = (uint64_t)g_get_real_time(),
                    .n_components = (uint32_t)n_components,
                    .base_episode = TRV_CTL_NO_BASE,
                    .params = *params};
  uint8_t bytes[TRV_CTL_HEADER_SIZE];
  trv_ctl_header_encode(&h, bytes);
  GError *bad = NULL;
  if (n_components < 1 || !trv_ctl_header_decode(bytes, sizeof bytes, path, &h, &bad)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot create a log for %d components: %s", path, n_components,
                bad ? bad->message : "at least one is needed");
    g_clear_error(&bad);
    return NULL;
  }
  /* The header reaches its name only whole and durable: written to a
   * temporary file, synced, then linked (link fails if path exists). */
  char *tmp = g_strconcat(path, ".tmp-XXXXXX", NULL);
  int fd = g_mkstemp_full(tmp, O_RDWR | O_CLOEXEC, 0644);
  bool ok = fd >= 0;
  int err = errno;
  if (ok) {
    ok = pwrite(fd, bytes, sizeof bytes, 0) == (ssize_t)sizeof bytes && fdatasync(fd) == 0;
    err = errno;
    close(fd);
    if (ok && link(tmp, path) != 0) {
      ok = false;
      err = errno;
    }
    unlink(tmp);
  }
  g_free(tmp);
  if (!ok) {
    g_set_error(error, TRV_ERROR, err == EEXIST ? TRV_ERROR_INPUT : TRV_ERROR_IO, "%s: cannot create the log: %s", path,
                err == EEXIST ? "the file exists (open it instead)" : g_strerror(err));
    return NULL;
  }
  if (!trv_ctl_sync_dir(path, error)) return NULL;
  return trv_ctl_open(path, options, NULL, error);
}

TrvCtl *trv_ctl_open_or_create(const char *path, int n_components, const TrvPosteriorParams *params,
                               const TrvCtlOptions *options, TrvCtlRecovery *recovery, GError **error) {
  if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
    if (recovery) memset(recovery, 0, sizeof *recovery);
    return trv_ctl_create(path, n_components, params, options, error);
  }
  TrvCtl *ctl = trv_ctl_open(path, options, recovery, error);
  if (ctl && (ctl->state.header.n_components != (uint32_t)n_components ||
              !trv_ctl_params_equal(&ctl->state.header.params, params))) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: the log was made for %u components with other posterior parameters than this run's "
                "(%d components); use a new file",
                path, ctl->state.header.n_components, n_components);
    trv_ctl_close(ctl, NULL);
    return NULL;
  }
  return ctl;
}

bool trv_ctl_close(TrvCtl *ctl, GError **error) {
  if (!ctl) return true;
  bool ok = ctl->broken || sync_now(ctl, error);
  if (ctl->broken && ok)
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: closed after a failed sync; reopen to recover", ctl->path);
  ok = ok && !ctl->broken;
  /* Drop the preallocation: a closed log ends with its last entry. */
  if (ok && ctl->alloc_end > ctl->end && ftruncate(ctl->fd, (off_t)ctl->end) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot trim the preallocation: %s", ctl->path, g_strerror(errno));
    ok = false;
  }
  close(ctl->fd);
  trv_ctl_state_clear(&ctl->state);
  g_byte_array_unref(ctl->frame);
  g_byte_array_unref(ctl->group_buf);
  g_free(ctl->pad_buf);
  g_free(ctl->path);
  g_free(ctl);
  return ok;
}
