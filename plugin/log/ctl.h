/* ctl.h - the Causal Transaction Log: a durable, append-only, event-sourced
 * store of CTL records and posterior snapshots (docs/ctl.md).
 *
 * One CTL is one file (a single segment): a 128-byte versioned header that
 * carries the posterior parameters, then entries, each framed as
 *   u32 length | u32 sequence number | u32 chained CRC-32C | body
 * where the body is a record or a posterior snapshot, the sequence number
 * counts entries from 1 and the CRC is continued from the previous frame's,
 * so that a deleted, repeated or reordered entry breaks the chain.
 * docs/ctl.md gives the byte layout, the fsync policies and what each
 * promises, and the recovery rules.
 *
 * Writer (TrvCtl): one per file at a time (an exclusive flock).  Appends are
 * idempotent by record identity (agent, seq).  An append is acknowledged
 * once it is durable under the fsync policy; trv_ctl_durable_lsn() and the
 * ack callback say how far that is.  Episodes are closed in order by a
 * TRV_RECORD_EPISODE_END record; records of a closed episode are refused.
 *
 * Reader (TrvCtlView): a read-only, consistent view of the file holding only
 * complete (closed) episodes, taken without any lock, so it can be opened
 * while a writer appends; the posterior is the fold of those episodes
 * (replay.h), from zero or from any snapshot, bit-identically.
 *
 * Errors: GError in domain TRV_ERROR (posterior.h).  TRV_ERROR_INPUT for a
 * wrong argument or a file that is not a CTL, TRV_ERROR_CORRUPT for stored
 * data failing its checks (the message names the file and byte offset),
 * TRV_ERROR_IO for a refused read, write or sync. */
#ifndef TRV_CTL_H
#define TRV_CTL_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/crc32c.h"
#include "core/posterior.h"
#include "core/record.h"

#define TRV_CTL_FORMAT_VERSION 2
#define TRV_CTL_NO_BASE UINT32_MAX /* header.base_episode of an uncompacted file */

typedef enum {
  TRV_CTL_FSYNC_ALWAYS = 0, /* fdatasync before every append returns */
  TRV_CTL_FSYNC_GROUP = 1,  /* fdatasync once group_records or group_ms pend */
  TRV_CTL_FSYNC_NONE = 2,   /* never sync: for runs that need no durability */
} TrvCtlFsync;

typedef struct {
  TrvCtlFsync fsync;
  unsigned group_records; /* group: sync when this many appends pend (0: 64) */
  unsigned group_ms;      /* group: or when the oldest pending is this old (0: 10) */
  bool salvage;           /* open: keep the valid prefix of a corrupt file */
} TrvCtlOptions;

typedef enum {
  TRV_CTL_ERROR = 0,     /* failed, *error is set; nothing was added */
  TRV_CTL_APPENDED = 1,  /* written; durable once durable_lsn >= its lsn */
  TRV_CTL_DUPLICATE = 2, /* already in the log: an idempotent no-op */
} TrvCtlAppend;

typedef enum {
  TRV_CTL_SNAPSHOT_EPISODE = 0,      /* taken at an episode boundary */
  TRV_CTL_SNAPSHOT_CHANGE_POINT = 1, /* taken at a detected change-point */
  TRV_CTL_SNAPSHOT_COMPACTION = 2,   /* the base written by compaction */
} TrvCtlSnapshotReason;

typedef struct {
  uint32_t version;
  uint64_t created_us;   /* creation time, microseconds since the epoch */
  uint32_t n_components; /* of the posterior */
  uint32_t flags;        /* TRV_CTL_FLAG_* */
  uint32_t base_episode; /* compacted: episode of the base snapshot, else TRV_CTL_NO_BASE */
  TrvPosteriorParams params;
} TrvCtlHeader;
#define TRV_CTL_FLAG_COMPACTED 1u

/* What opening a file found and did about it. */
typedef struct {
  uint64_t file_bytes;     /* size found */
  uint64_t valid_bytes;    /* size kept */
  uint64_t torn_bytes;     /* one incomplete last frame (a torn append), truncated */
  uint64_t padding_bytes;  /* a writer's preallocation after the data, truncated */
  uint64_t dropped_bytes;  /* salvage: bytes from the corrupt point on, dropped */
  uint64_t corrupt_offset; /* salvage: where the corruption starts (0: none) */
  uint64_t n_entries;      /* entries kept */
} TrvCtlRecovery;

/* Called by the writer after each sync with the highest durable lsn. */
typedef void (*TrvCtlAckFunc)(uint64_t durable_lsn, void *user_data);

/* Test hooks replacing the writer's system calls (fault injection).  A hook
 * reports failure like the system call: -1 with errno set. */
typedef struct {
  ssize_t (*pwrite)(int fd, const void *buf, size_t n, off_t offset, void *user_data);
  int (*fsync)(int fd, void *user_data);
  void *user_data;
} TrvCtlIoHooks;

typedef struct TrvCtl TrvCtl;
typedef struct TrvCtlView TrvCtlView;

/* --- writer (ctl.c) --- */

/* Creates a new CTL at path (fails if it exists) for a posterior of
 * n_components with params; the header is made durable before returning. */
TrvCtl *trv_ctl_create(const char *path, int n_components, const TrvPosteriorParams *params,
                       const TrvCtlOptions *options, GError **error);
/* Opens an existing CTL for appending, recovering it first: a torn final
 * append and the writer's preallocation are truncated; any other damage
 * (a broken chain, a bad last frame, garbage or zeros after the data) is
 * refused (TRV_ERROR_CORRUPT) unless options->salvage, which keeps the
 * longest valid prefix and saves the dropped bytes to "<path>.dropped".
 * The writer checks framing, chain and rules, not snapshots against the
 * fold (readers do).  recovery (may be NULL) tells what was done. */
TrvCtl *trv_ctl_open(const char *path, const TrvCtlOptions *options, TrvCtlRecovery *recovery, GError **error);
/* Opens path if it exists (its header must match n_components and params),
 * else creates it. */
TrvCtl *trv_ctl_open_or_create(const char *path, int n_components, const TrvPosteriorParams *params,
                               const TrvCtlOptions *options, TrvCtlRecovery *recovery, GError **error);
/* Makes everything durable, then closes and frees ctl (also on failure). */
bool trv_ctl_close(TrvCtl *ctl, GError **error);

/* Appends one record.  *lsn (may be NULL) receives its log sequence number
 * (1-based index of the entry in the file) when APPENDED. */
TrvCtlAppend trv_ctl_append_record(TrvCtl *ctl, const TrvRecord *rec, uint64_t *lsn, GError **error);
/* Appends the posterior as the snapshot closing `episode`, which must be
 * closed already; one snapshot per episode (a second is a DUPLICATE). */
TrvCtlAppend trv_ctl_append_snapshot(TrvCtl *ctl, uint32_t episode, TrvCtlSnapshotReason reason,
                                     const TrvPosterior *post, uint64_t *lsn, GError **error);
/* Syncs everything appended so far (every policy). */
bool trv_ctl_flush(TrvCtl *ctl, GError **error);
/* group: syncs if the time bound has passed (for callers with idle time). */
bool trv_ctl_poll(TrvCtl *ctl, GError **error);

uint64_t trv_ctl_last_lsn(const TrvCtl *ctl);
uint64_t trv_ctl_durable_lsn(const TrvCtl *ctl);
/* Episodes 0 (or base+1) .. next_episode-1 are closed. */
uint32_t trv_ctl_next_episode(const TrvCtl *ctl);
const TrvCtlHeader *trv_ctl_header(const TrvCtl *ctl);
const char *trv_ctl_path(const TrvCtl *ctl);
void trv_ctl_set_ack_func(TrvCtl *ctl, TrvCtlAckFunc func, void *user_data);
/* NULL restores the real system calls. */
void trv_ctl_set_io_hooks(TrvCtl *ctl, const TrvCtlIoHooks *hooks);

/* --- reader (ctl-view.c) --- */

/* A consistent read-only view of path: complete episodes only.  A torn
 * final append is ignored (not truncated: a writer may be mid-append).
 * Everything trv_ctl_verify checks is checked here too, snapshots against
 * the fold included, so a view (and replay and inspect) refuses what verify
 * calls corrupt unless salvage, which keeps the longest valid prefix:
 * entries up to the first damaged one or the first snapshot that is not
 * the fold of the records before it. */
TrvCtlView *trv_ctl_view_open(const char *path, bool salvage, GError **error);
/* The same over bytes in memory (name is used in messages). */
TrvCtlView *trv_ctl_view_new_from_bytes(const uint8_t *data, size_t len, const char *name, bool salvage,
                                        GError **error);
void trv_ctl_view_free(TrvCtlView *view);

const TrvCtlHeader *trv_ctl_view_header(const TrvCtlView *view);
const TrvCtlRecovery *trv_ctl_view_recovery(const TrvCtlView *view);
/* Complete episodes are first .. first + n - 1; *first is 0, or base+1 for
 * a compacted file.  Returns n. */
uint32_t trv_ctl_view_episodes(const TrvCtlView *view, uint32_t *first);
/* Records of complete episode e in file order (END marker included). */
const TrvRecord *trv_ctl_view_episode_records(const TrvCtlView *view, uint32_t episode, size_t *n);
size_t trv_ctl_view_n_snapshots(const TrvCtlView *view);
/* i-th snapshot in file order: its episode and reason. */
uint32_t trv_ctl_view_snapshot_episode(const TrvCtlView *view, size_t i, TrvCtlSnapshotReason *reason);
/* The stored snapshot closing `episode` (new posterior, caller frees). */
TrvPosterior *trv_ctl_view_snapshot(const TrvCtlView *view, uint32_t episode, GError **error);
/* The posterior after episode `upto` (-1: the last complete one), folded
 * from the snapshot of episode `from` (-1: from zero, or from the base
 * snapshot of a compacted file).  Caller frees. */
TrvPosterior *trv_ctl_view_replay(const TrvCtlView *view, int64_t from, int64_t upto, GError **error);

typedef struct {
  uint64_t file_bytes, header_bytes;
  uint64_t n_records, record_bytes;     /* all records in the file, framed */
  uint64_t n_by_kind[4];                /* index TrvRecordKind */
  uint64_t n_snapshots, snapshot_bytes; /* framed */
  uint64_t n_pending_records;           /* records of episodes not closed yet */
} TrvCtlStats;
void trv_ctl_view_stats(const TrvCtlView *view, TrvCtlStats *stats);

/* --- verification (ctl-view.c) and compaction (ctl-compact.c) --- */

/* Full check of path without modifying it: framing, the chain of sequence
 * numbers and CRCs, record and episode rules, the tail, and every snapshot
 * equal to the fold of the records before it.  A torn final append is not
 * an error (recovery truncates it); it is reported in *recovery.  Returns
 * false with TRV_ERROR_CORRUPT / INPUT / IO. */
bool trv_ctl_verify(const char *path, TrvCtlRecovery *recovery, GError **error);

typedef struct {
  uint64_t bytes_before, bytes_after;
  uint64_t records_before, records_after;
  uint32_t base_episode; /* episode of the new base snapshot */
} TrvCtlCompactStats;
/* Rewrites the CTL at path as one snapshot of its last complete episode
 * followed by the records of the episodes still open.  It never destroys
 * the only copy of the raw records: out_path NULL replaces path atomically
 * and then needs archive_path, which receives the original file (hard
 * link); otherwise out_path must not exist yet (TRV_ERROR_INPUT), and path
 * is left as it is.  Refuses a file with an active writer, a corrupt file,
 * or a file with no complete episode past its base. */
bool trv_ctl_compact(const char *path, const char *out_path, const char *archive_path, TrvCtlCompactStats *stats,
                     GError **error);

/* --- format helpers (ctl-format.c) --- */

const char *trv_ctl_fsync_name(TrvCtlFsync policy);
/* "always" | "group" | "none"; false if unknown. */
bool trv_ctl_fsync_parse(const char *name, TrvCtlFsync *policy);

#endif
