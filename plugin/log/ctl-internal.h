/* ctl-internal.h - what the CTL's own files share and nobody else uses: the
 * byte layout, the frame chain, the writer's preallocation pattern, the
 * scanner that turns file bytes into entries, and the admission rules
 * (TrvCtlState) that both the writer and every scan apply, so that a file
 * can only ever contain what an append would have accepted.
 *
 * Layout, format version 2 (integers little-endian, doubles as IEEE-754
 * binary64 bits):
 *   header, 128 bytes:
 *     0 magic "TRVCTL\r\n" | 8 u32 version | 12 u32 header size (128)
 *     16 u64 created_us | 24 u32 n_components | 28 u32 flags
 *     32 u32 base_episode | 36 u32 slab | 40 u32 track | 44 u32 zero
 *     48 f64 pi0, tau2, s2, kappa_min, hazard, lambda | 96..123 zero
 *     124 u32 CRC-32C of bytes 0..123
 *   entry i (i = 1, 2, ...): u32 len | u32 seq | u32 crc | body[len]
 *     seq = i mod 2^32;
 *     crc = CRC-32C continued from the previous entry's crc (entry 1: from
 *           the header's CRC) over len, seq and body, so that it is the
 *           CRC of everything logged so far: deleting, inserting or
 *           reordering entries breaks the chain even where seq would not;
 *     body of a record:   u8 1 | 60 fixed bytes | n_context f64
 *     body of a snapshot: u8 2 | u32 episode | u8 reason | 3 zero | blob
 *     (the blob of the header's posterior: one possible length per log).
 * A length the entry's type cannot have is impossible, never merely large.
 * Past the last entry, a writer that syncs keeps its preallocation: bytes
 * of a pseudo-random pattern derived from the header and the offset
 * (trv_ctl_pad_fill), never zeros, so recovery can tell it from zeroed
 * pages or garbage. */
#ifndef TRV_CTL_INTERNAL_H
#define TRV_CTL_INTERNAL_H

#include "ctl.h"

#define TRV_CTL_MAGIC "TRVCTL\r\n"
#define TRV_CTL_HEADER_SIZE 128
#define TRV_CTL_FRAME_HEAD 12
#define TRV_CTL_ENTRY_MAX (16u << 20)
#define TRV_CTL_RECORD_FIXED 60
#define TRV_CTL_SNAPSHOT_FIXED 8
#define TRV_CTL_MAX_COMPONENTS 65536
/* A writer never writes a frame without at least this many bytes of its
 * preallocation pattern after the frame's end, so a torn frame followed by
 * the pattern is told from a damaged last frame by more than a coincidence
 * of a few bytes. */
#define TRV_CTL_PAD_GUARD 4096

enum { TRV_CTL_ENTRY_RECORD = 1, TRV_CTL_ENTRY_SNAPSHOT = 2 };

/* What the next frame must carry. */
typedef struct {
  uint64_t seq;          /* its sequence number: 1-based index of the entry */
  uint32_t crc;          /* the chain so far: the header's CRC, then each frame's */
  uint32_t snapshot_len; /* the one body length a snapshot of this log can have */
} TrvCtlChain;

/* One decoded entry.  A snapshot's blob points into the scanned buffer. */
typedef struct {
  uint64_t offset; /* of the frame in the file */
  uint64_t seq;    /* 1-based index of the entry */
  uint32_t size;   /* frame bytes, head included */
  uint32_t crc;    /* the chain value after this entry */
  uint8_t type;
  TrvRecord rec;
  uint32_t snap_episode;
  uint8_t snap_reason;
  const uint8_t *blob;
  uint32_t blob_len;
} TrvCtlEntry;

/* How a frame parses against the chain.  Every status but OK and
 * INCOMPLETE names the first check that failed. */
typedef enum {
  TRV_CTL_FRAME_OK = 0,
  TRV_CTL_FRAME_INCOMPLETE, /* a prefix of a frame that could come next, cut before its end */
  TRV_CTL_FRAME_BAD_LENGTH, /* a length no entry (or not this entry's type) can have */
  TRV_CTL_FRAME_BAD_SEQ,    /* another sequence number than the next one */
  TRV_CTL_FRAME_BAD_TYPE,   /* neither a record nor a snapshot */
  TRV_CTL_FRAME_BAD_CRC,    /* the chained checksum does not match */
  TRV_CTL_FRAME_BAD_BODY,   /* checksum fine, but the body holds impossible values */
} TrvCtlFrameStatus;

/* Identity set of (agent, seq): open addressing, linear probing. */
typedef struct {
  uint64_t *seqs;
  uint32_t *agents;
  uint8_t *used;
  size_t cap, len;
} TrvCtlIdSet;

/* Admission state: what the log holds so far, as far as the rules need. */
typedef struct {
  TrvCtlHeader header;
  TrvCtlIdSet ids;
  uint32_t next_episode; /* first episode not closed */
  bool have_base;        /* compacted file: the base snapshot was seen */
  bool have_snapshot;
  uint32_t last_snapshot; /* episode of the newest snapshot */
} TrvCtlState;

void trv_ctl_idset_init(TrvCtlIdSet *s);
void trv_ctl_idset_clear(TrvCtlIdSet *s);
bool trv_ctl_idset_contains(const TrvCtlIdSet *s, uint32_t agent, uint64_t seq);
void trv_ctl_idset_add(TrvCtlIdSet *s, uint32_t agent, uint64_t seq);

void trv_ctl_state_init(TrvCtlState *st, const TrvCtlHeader *header);
void trv_ctl_state_clear(TrvCtlState *st);
/* Decides whether rec may be appended: TRV_CTL_APPENDED (then call
 * trv_ctl_state_apply_record), TRV_CTL_DUPLICATE, or TRV_CTL_ERROR with
 * TRV_ERROR_INPUT. */
TrvCtlAppend trv_ctl_state_admit_record(const TrvCtlState *st, const TrvRecord *rec, GError **error);
void trv_ctl_state_apply_record(TrvCtlState *st, const TrvRecord *rec);
TrvCtlAppend trv_ctl_state_admit_snapshot(const TrvCtlState *st, uint32_t episode, GError **error);
void trv_ctl_state_apply_snapshot(TrvCtlState *st, uint32_t episode);

/* Encoding. */
void trv_ctl_header_encode(const TrvCtlHeader *h, uint8_t out[TRV_CTL_HEADER_SIZE]);
/* Decodes and checks a header: TRV_ERROR_INPUT if it is not a CTL header at
 * all (magic) or of another format version, TRV_ERROR_CORRUPT if it is one
 * but damaged.  A decoded header encodes back to the same bytes. */
bool trv_ctl_header_decode(const uint8_t *data, size_t len, const char *name, TrvCtlHeader *h, GError **error);
/* The chain before the first entry of a log with header h (valid). */
void trv_ctl_chain_init(TrvCtlChain *chain, const TrvCtlHeader *h);
/* Append the frame continuing *chain to out and advance *chain; return the
 * frame size. */
size_t trv_ctl_frame_record(GByteArray *out, TrvCtlChain *chain, const TrvRecord *rec);
size_t trv_ctl_frame_snapshot(GByteArray *out, TrvCtlChain *chain, uint32_t episode, uint8_t reason,
                              const uint8_t *blob, size_t blob_len);
/* Parses the frame at data[0..avail) as the one that must follow *chain
 * (which is not advanced).  OK fills entry (offset and blob relative to
 * data).  INCOMPLETE means every byte present agrees with a frame that
 * could come next but the frame runs past avail (avail 0 included).
 * Never reads outside data[0..avail). */
TrvCtlFrameStatus trv_ctl_frame_parse(const uint8_t *data, size_t avail, const TrvCtlChain *chain, TrvCtlEntry *entry);
/* What a status means, for messages ("sequence number mismatch", ...). */
const char *trv_ctl_frame_status_text(TrvCtlFrameStatus status);
bool trv_ctl_record_valid(const TrvRecord *rec);
/* Bitwise equality of parameter sets (what the header stores). */
bool trv_ctl_params_equal(const TrvPosteriorParams *a, const TrvPosteriorParams *b);

/* The preallocation pattern of the log with header h: byte x of the file
 * is pattern byte x.  Fills buf with the bytes at [offset, offset + n). */
uint64_t trv_ctl_pad_salt(const TrvCtlHeader *h);
void trv_ctl_pad_fill(uint64_t salt, uint64_t offset, uint8_t *buf, size_t n);
/* The smallest w in [from, len] such that data[w..len) is all pattern. */
size_t trv_ctl_pad_start(uint64_t salt, const uint8_t *data, size_t from, size_t len);

/* Result of scanning a whole file image. */
typedef struct {
  TrvCtlHeader header;
  GArray *entries; /* TrvCtlEntry, file order */
  TrvCtlState state;
  TrvCtlRecovery recovery;
  TrvCtlChain chain; /* what the next entry must carry */
} TrvCtlScan;

/* Scans data[0..len): header, then entries in chain order under the
 * admission rules, then the tail.  The tail is accepted only as what a
 * crash of the writer leaves: nothing, the writer's preallocation pattern
 * (recovery.padding_bytes), or one incomplete frame at the end of the data
 * (recovery.torn_bytes), the data ending at the end of the file or where at
 * least TRV_CTL_PAD_GUARD bytes of pattern run to it.  Anything else is
 * corruption: an error naming name, the entry and the offset, or with
 * salvage the prefix before it is kept (recovery.dropped_bytes,
 * corrupt_offset).  The scan owns nothing of data: blobs point into it.
 * On failure scan is left cleared. */
bool trv_ctl_scan(const uint8_t *data, size_t len, const char *name, bool salvage, TrvCtlScan *scan, GError **error);
void trv_ctl_scan_clear(TrvCtlScan *scan);

/* Reads the whole of fd (of size len) into a new buffer. */
uint8_t *trv_ctl_read_fd(int fd, const char *name, size_t *len, GError **error);
/* fsync of the directory holding path, so a create or rename is durable. */
bool trv_ctl_sync_dir(const char *path, GError **error);
int64_t trv_ctl_now_us(void);

/* The view over an owned buffer (ctl-view.c), used by verify and compact. */
TrvCtlView *trv_ctl_view_take(uint8_t *data, size_t len, const char *name, bool salvage, GError **error);
const TrvCtlScan *trv_ctl_view_scan(const TrvCtlView *view);

#endif
