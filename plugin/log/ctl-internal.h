/* ctl-internal.h - what the CTL's own files share and nobody else uses: the
 * byte layout, the scanner that turns file bytes into entries, and the
 * admission rules (TrvCtlState) that both the writer and every scan apply,
 * so that a file can only ever contain what an append would have accepted.
 *
 * Layout (all integers little-endian, doubles as IEEE-754 binary64 bits):
 *   header, 128 bytes:
 *     0 magic "TRVCTL\r\n" | 8 u32 version | 12 u32 header size (128)
 *     16 u64 created_us | 24 u32 n_components | 28 u32 flags
 *     32 u32 base_episode | 36 u32 slab | 40 u32 track | 44 u32 zero
 *     48 f64 pi0, tau2, s2, kappa_min, hazard, lambda | 96..123 zero
 *     124 u32 CRC-32C of bytes 0..123
 *   entry: u32 len | u32 CRC-32C(len bytes, body) | body[len]
 *     body of a record:   u8 1 | 60 fixed bytes | n_context f64
 *     body of a snapshot: u8 2 | u32 episode | u8 reason | 3 zero | blob
 * An entry never exceeds TRV_CTL_ENTRY_MAX, so a length beyond it (or
 * beyond what the body type allows) is impossible, never merely large. */
#ifndef TRV_CTL_INTERNAL_H
#define TRV_CTL_INTERNAL_H

#include "ctl.h"

#define TRV_CTL_MAGIC "TRVCTL\r\n"
#define TRV_CTL_HEADER_SIZE 128
#define TRV_CTL_FRAME_HEAD 8
#define TRV_CTL_ENTRY_MAX (16u << 20)
#define TRV_CTL_RECORD_FIXED 60
#define TRV_CTL_SNAPSHOT_FIXED 8
#define TRV_CTL_MAX_COMPONENTS 65536

enum { TRV_CTL_ENTRY_RECORD = 1, TRV_CTL_ENTRY_SNAPSHOT = 2 };

/* One decoded entry.  A snapshot's blob points into the scanned buffer. */
typedef struct {
  uint64_t offset; /* of the frame in the file */
  uint32_t size;   /* frame bytes, head included */
  uint8_t type;
  TrvRecord rec;
  uint32_t snap_episode;
  uint8_t snap_reason;
  const uint8_t *blob;
  uint32_t blob_len;
} TrvCtlEntry;

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
  uint32_t next_episode;  /* first episode not closed */
  bool have_base;         /* compacted file: the base snapshot was seen */
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

/* Encoding.  Appends to out; returns the frame size. */
void trv_ctl_header_encode(const TrvCtlHeader *h, uint8_t out[TRV_CTL_HEADER_SIZE]);
/* Decodes and checks a header: TRV_ERROR_INPUT if it is not a CTL header at
 * all (magic, version), TRV_ERROR_CORRUPT if it is one but damaged. */
bool trv_ctl_header_decode(const uint8_t *data, size_t len, const char *name, TrvCtlHeader *h,
                           GError **error);
size_t trv_ctl_frame_record(GByteArray *out, const TrvRecord *rec);
size_t trv_ctl_frame_snapshot(GByteArray *out, uint32_t episode, uint8_t reason, const uint8_t *blob,
                              size_t blob_len);
/* Parses the frame at data[0..avail): 1 ok (entry filled, offset and
 * blob relative to data), 0 incomplete (the frame runs past avail),
 * -1 invalid (impossible length, bad CRC, or a body that does not decode). */
int trv_ctl_frame_parse(const uint8_t *data, size_t avail, TrvCtlEntry *entry);
bool trv_ctl_record_valid(const TrvRecord *rec);
/* Bitwise equality of parameter sets (what the header stores). */
bool trv_ctl_params_equal(const TrvPosteriorParams *a, const TrvPosteriorParams *b);

/* Result of scanning a whole file image. */
typedef struct {
  TrvCtlHeader header;
  GArray *entries; /* TrvCtlEntry, file order */
  TrvCtlState state;
  TrvCtlRecovery recovery;
} TrvCtlScan;

/* Scans data[0..len): header, then entries under the admission rules.
 * A failing entry with no valid frame after it is a torn tail
 * (recovery.torn_bytes); one followed by valid data is corruption: an error
 * naming name and the offset, or with salvage the prefix before it is kept
 * (recovery.dropped_bytes, corrupt_offset).  The scan owns nothing of data:
 * blobs point into it.  On failure scan is left cleared. */
bool trv_ctl_scan(const uint8_t *data, size_t len, const char *name, bool salvage, TrvCtlScan *scan,
                  GError **error);
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
