/* ctl-format.c - the CTL's bytes: CRC-32C, the header and entry encodings,
 * the frame parser, and the (agent, seq) identity set.
 *
 * Invariants: every integer is written byte by byte little-endian and every
 * double through its IEEE-754 bit pattern, so a file means the same on any
 * host and no struct padding ever reaches the disk.  trv_ctl_frame_parse()
 * never reads outside [data, data + avail) and accepts a frame only if its
 * length is possible for its type, its CRC matches and its body decodes to
 * a value an append would have accepted (trv_ctl_record_valid). */
#include "ctl-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* --- CRC-32C --- */

static uint32_t crc_table[256];
static gsize crc_table_ready;

static void crc_table_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    crc_table[i] = c;
  }
}

uint32_t trv_crc32c(uint32_t crc, const void *data, size_t n) {
  if (g_once_init_enter(&crc_table_ready)) {
    crc_table_init();
    g_once_init_leave(&crc_table_ready, 1);
  }
  const uint8_t *p = data;
  crc = ~crc;
  while (n--) crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return ~crc;
}

/* A fuzzing build (fuzz/run.sh, TRV_FUZZ_NO_CRC=1) may waive the CRCs so
 * that mutated inputs reach the decoders behind them.  Never in a normal
 * build: the macro is libFuzzer's convention and only run.sh defines it. */
static bool crc_waived(void) {
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  static int waived = -1;
  if (waived < 0) waived = g_getenv("TRV_FUZZ_NO_CRC") != NULL;
  return waived;
#else
  return false;
#endif
}

/* --- little-endian fields --- */

static void put_u16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static void put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_f64(uint8_t *p, double d) {
  uint64_t v;
  memcpy(&v, &d, sizeof v);
  put_u64(p, v);
}
static uint16_t get_u16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t get_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get_u64(const uint8_t *p) { return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }
static double get_f64(const uint8_t *p) {
  uint64_t v = get_u64(p);
  double d;
  memcpy(&d, &v, sizeof d);
  return d;
}

/* --- header --- */

void trv_ctl_header_encode(const TrvCtlHeader *h, uint8_t out[TRV_CTL_HEADER_SIZE]) {
  memset(out, 0, TRV_CTL_HEADER_SIZE);
  memcpy(out, TRV_CTL_MAGIC, 8);
  put_u32(out + 8, h->version);
  put_u32(out + 12, TRV_CTL_HEADER_SIZE);
  put_u64(out + 16, h->created_us);
  put_u32(out + 24, h->n_components);
  put_u32(out + 28, h->flags);
  put_u32(out + 32, h->base_episode);
  put_u32(out + 36, (uint32_t)h->params.slab);
  put_u32(out + 40, (uint32_t)h->params.track);
  const double *d[6] = {&h->params.pi0, &h->params.tau2, &h->params.s2,
                        &h->params.kappa_min, &h->params.hazard, &h->params.lambda};
  for (int i = 0; i < 6; i++) put_f64(out + 48 + 8 * i, *d[i]);
  put_u32(out + 124, trv_crc32c(0, out, 124));
}

/* The preconditions of trv_posterior_new(), which asserts them: a header
 * (even a CRC-valid forged one) must never lead to that abort.  Found by
 * the fuzzer (hazard 0.7 passed an earlier, looser check). */
static bool params_in_range(const TrvPosteriorParams *p) {
  const double all[6] = {p->pi0, p->tau2, p->s2, p->kappa_min, p->hazard, p->lambda};
  for (int i = 0; i < 6; i++)
    if (!isfinite(all[i])) return false;
  return p->pi0 > 0 && p->pi0 < 1 && p->tau2 > 0 && p->s2 > 0 && p->kappa_min >= 0 && p->hazard >= 0 &&
         p->hazard < 0.5 && p->lambda > 0 && p->lambda <= 1;
}

bool trv_ctl_header_decode(const uint8_t *data, size_t len, const char *name, TrvCtlHeader *h,
                           GError **error) {
  if (len < 8 || memcmp(data, TRV_CTL_MAGIC, 8) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: not a CTL file (no \"TRVCTL\" magic at offset 0)", name);
    return false;
  }
  if (len < TRV_CTL_HEADER_SIZE) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT,
                "%s: header truncated at offset %zu (needs %d bytes)", name, len, TRV_CTL_HEADER_SIZE);
    return false;
  }
  if (get_u32(data + 124) != trv_crc32c(0, data, 124) && !crc_waived()) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "%s: header checksum mismatch at offset 124", name);
    return false;
  }
  h->version = get_u32(data + 8);
  if (h->version != TRV_CTL_FORMAT_VERSION) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: CTL format version %u, this build reads version %d", name, h->version,
                TRV_CTL_FORMAT_VERSION);
    return false;
  }
  h->created_us = get_u64(data + 16);
  h->n_components = get_u32(data + 24);
  h->flags = get_u32(data + 28);
  h->base_episode = get_u32(data + 32);
  uint32_t slab = get_u32(data + 36), track = get_u32(data + 40);
  double *d[6] = {&h->params.pi0, &h->params.tau2, &h->params.s2,
                  &h->params.kappa_min, &h->params.hazard, &h->params.lambda};
  for (int i = 0; i < 6; i++) *d[i] = get_f64(data + 48 + 8 * i);
  h->params.slab = (TrvSlab)slab;
  h->params.track = (TrvTrack)track;
  bool compacted = (h->flags & TRV_CTL_FLAG_COMPACTED) != 0;
  const char *bad = NULL;
  if (get_u32(data + 12) != TRV_CTL_HEADER_SIZE) bad = "header size";
  else if (h->n_components < 1 || h->n_components > TRV_CTL_MAX_COMPONENTS) bad = "component count";
  else if (h->flags & ~TRV_CTL_FLAG_COMPACTED) bad = "flags";
  else if (compacted != (h->base_episode != TRV_CTL_NO_BASE)) bad = "base episode";
  else if (slab > TRV_SLAB_SEPARATED || track > TRV_TRACK_NONE) bad = "posterior model";
  else if (!params_in_range(&h->params))
    bad = "posterior parameters";
  if (bad) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "%s: header has an impossible %s", name, bad);
    return false;
  }
  return true;
}

/* --- entries --- */

bool trv_ctl_record_valid(const TrvRecord *r) {
  return r->kind >= TRV_RECORD_STEP && r->kind <= TRV_RECORD_EPISODE_END &&
         r->commit_status <= TRV_COMMIT_FAILED && r->n_context <= TRV_RECORD_CONTEXT_MAX;
}

bool trv_ctl_params_equal(const TrvPosteriorParams *a, const TrvPosteriorParams *b) {
  uint8_t ha[TRV_CTL_HEADER_SIZE], hb[TRV_CTL_HEADER_SIZE];
  TrvCtlHeader x = {.params = *a}, y = {.params = *b};
  trv_ctl_header_encode(&x, ha);
  trv_ctl_header_encode(&y, hb);
  return memcmp(ha, hb, TRV_CTL_HEADER_SIZE) == 0;
}

static size_t frame_begin(GByteArray *out, size_t body_len) {
  size_t at = out->len;
  g_byte_array_set_size(out, (guint)(at + TRV_CTL_FRAME_HEAD + body_len));
  put_u32(out->data + at, (uint32_t)body_len);
  return at;
}

static size_t frame_end(GByteArray *out, size_t at) {
  uint32_t len = get_u32(out->data + at);
  put_u32(out->data + at + 4, trv_crc32c(trv_crc32c(0, out->data + at, 4), out->data + at + 8, len));
  return TRV_CTL_FRAME_HEAD + len;
}

size_t trv_ctl_frame_record(GByteArray *out, const TrvRecord *r) {
  size_t at = frame_begin(out, 1 + TRV_CTL_RECORD_FIXED + 8u * r->n_context);
  uint8_t *p = out->data + at + TRV_CTL_FRAME_HEAD;
  p[0] = TRV_CTL_ENTRY_RECORD;
  p++;
  put_u64(p, r->seq);
  put_u32(p + 8, r->agent);
  put_u32(p + 12, r->episode);
  put_u32(p + 16, r->step);
  put_u32(p + 20, r->snapshot_ref);
  p[24] = r->kind;
  p[25] = r->commit_status;
  put_u16(p + 26, r->n_context);
  put_u32(p + 28, (uint32_t)r->a_disp);
  put_u32(p + 32, (uint32_t)r->a_int);
  put_f64(p + 36, r->z);
  put_f64(p + 44, r->outcome);
  put_f64(p + 52, r->reward);
  for (unsigned i = 0; i < r->n_context; i++) put_f64(p + 60 + 8 * i, r->context[i]);
  return frame_end(out, at);
}

size_t trv_ctl_frame_snapshot(GByteArray *out, uint32_t episode, uint8_t reason, const uint8_t *blob,
                              size_t blob_len) {
  size_t at = frame_begin(out, 1 + TRV_CTL_SNAPSHOT_FIXED + blob_len);
  uint8_t *p = out->data + at + TRV_CTL_FRAME_HEAD;
  p[0] = TRV_CTL_ENTRY_SNAPSHOT;
  put_u32(p + 1, episode);
  p[5] = reason;
  p[6] = p[7] = p[8] = 0;
  memcpy(p + 1 + TRV_CTL_SNAPSHOT_FIXED, blob, blob_len);
  return frame_end(out, at);
}

static void decode_record(const uint8_t *p, TrvRecord *r) {
  memset(r, 0, sizeof *r);
  r->seq = get_u64(p);
  r->agent = get_u32(p + 8);
  r->episode = get_u32(p + 12);
  r->step = get_u32(p + 16);
  r->snapshot_ref = get_u32(p + 20);
  r->kind = p[24];
  r->commit_status = p[25];
  r->n_context = get_u16(p + 26);
  r->a_disp = (int32_t)get_u32(p + 28);
  r->a_int = (int32_t)get_u32(p + 32);
  r->z = get_f64(p + 36);
  r->outcome = get_f64(p + 44);
  r->reward = get_f64(p + 52);
  for (unsigned i = 0; i < r->n_context && i < TRV_RECORD_CONTEXT_MAX; i++)
    r->context[i] = get_f64(p + 60 + 8 * i);
}

int trv_ctl_frame_parse(const uint8_t *data, size_t avail, TrvCtlEntry *e) {
  if (avail < TRV_CTL_FRAME_HEAD) return 0;
  uint32_t len = get_u32(data);
  if (len < 1 + TRV_CTL_SNAPSHOT_FIXED || len > TRV_CTL_ENTRY_MAX) return -1;
  if (len > avail - TRV_CTL_FRAME_HEAD) {
    /* The type byte, if present, already tells an impossible length. */
    if (avail > TRV_CTL_FRAME_HEAD) {
      uint8_t t = data[TRV_CTL_FRAME_HEAD];
      if (t == TRV_CTL_ENTRY_RECORD && len > 1 + TRV_CTL_RECORD_FIXED + 8 * TRV_RECORD_CONTEXT_MAX) return -1;
      if (t != TRV_CTL_ENTRY_RECORD && t != TRV_CTL_ENTRY_SNAPSHOT) return -1;
    }
    return 0;
  }
  const uint8_t *body = data + TRV_CTL_FRAME_HEAD;
  /* Cheap structural checks first: the recovery scan calls this at every
   * byte offset of a damaged region, and the CRC is the expensive part. */
  if (body[0] == TRV_CTL_ENTRY_RECORD) {
    if (len < 1 + TRV_CTL_RECORD_FIXED || len != 1 + TRV_CTL_RECORD_FIXED + 8u * get_u16(body + 1 + 26))
      return -1;
  } else if (body[0] == TRV_CTL_ENTRY_SNAPSHOT) {
    if (body[5] > TRV_CTL_SNAPSHOT_COMPACTION || body[6] || body[7] || body[8]) return -1;
  } else {
    return -1;
  }
  if (get_u32(data + 4) != trv_crc32c(trv_crc32c(0, data, 4), body, len) && !crc_waived()) return -1;
  memset(e, 0, sizeof *e);
  e->size = TRV_CTL_FRAME_HEAD + len;
  e->type = body[0];
  if (e->type == TRV_CTL_ENTRY_RECORD) {
    decode_record(body + 1, &e->rec);
    return trv_ctl_record_valid(&e->rec) ? 1 : -1;
  }
  if (e->type == TRV_CTL_ENTRY_SNAPSHOT) {
    e->snap_episode = get_u32(body + 1);
    e->snap_reason = body[5];
    e->blob = body + 1 + TRV_CTL_SNAPSHOT_FIXED;
    e->blob_len = len - 1 - TRV_CTL_SNAPSHOT_FIXED;
    return 1;
  }
  return -1;
}

/* --- identity set --- */

static size_t id_hash(uint32_t agent, uint64_t seq) {
  uint64_t h = seq * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)agent * 0xC2B2AE3D27D4EB4FULL);
  h ^= h >> 31;
  return (size_t)h;
}

void trv_ctl_idset_init(TrvCtlIdSet *s) { memset(s, 0, sizeof *s); }

void trv_ctl_idset_clear(TrvCtlIdSet *s) {
  g_free(s->seqs);
  g_free(s->agents);
  g_free(s->used);
  memset(s, 0, sizeof *s);
}

bool trv_ctl_idset_contains(const TrvCtlIdSet *s, uint32_t agent, uint64_t seq) {
  if (!s->cap) return false;
  for (size_t i = id_hash(agent, seq) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
    if (!s->used[i]) return false;
    if (s->seqs[i] == seq && s->agents[i] == agent) return true;
  }
}

static void idset_put(TrvCtlIdSet *s, uint32_t agent, uint64_t seq) {
  size_t i = id_hash(agent, seq) & (s->cap - 1);
  while (s->used[i]) {
    if (s->seqs[i] == seq && s->agents[i] == agent) return;
    i = (i + 1) & (s->cap - 1);
  }
  s->used[i] = 1;
  s->seqs[i] = seq;
  s->agents[i] = agent;
  s->len++;
}

void trv_ctl_idset_add(TrvCtlIdSet *s, uint32_t agent, uint64_t seq) {
  if ((s->len + 1) * 2 > s->cap) { /* keep the load factor under 1/2 */
    TrvCtlIdSet old = *s;
    s->cap = old.cap ? old.cap * 2 : 1024;
    s->len = 0;
    s->seqs = g_new(uint64_t, s->cap);
    s->agents = g_new(uint32_t, s->cap);
    s->used = g_new0(uint8_t, s->cap);
    for (size_t i = 0; i < old.cap; i++)
      if (old.used[i]) idset_put(s, old.agents[i], old.seqs[i]);
    trv_ctl_idset_clear(&old);
  }
  idset_put(s, agent, seq);
}

/* --- small system helpers --- */

const char *trv_ctl_fsync_name(TrvCtlFsync policy) {
  switch (policy) {
  case TRV_CTL_FSYNC_ALWAYS: return "always";
  case TRV_CTL_FSYNC_GROUP: return "group";
  case TRV_CTL_FSYNC_NONE: return "none";
  }
  return "?";
}

bool trv_ctl_fsync_parse(const char *name, TrvCtlFsync *policy) {
  for (int p = TRV_CTL_FSYNC_ALWAYS; p <= TRV_CTL_FSYNC_NONE; p++)
    if (!strcmp(name, trv_ctl_fsync_name((TrvCtlFsync)p))) {
      *policy = (TrvCtlFsync)p;
      return true;
    }
  return false;
}

int64_t trv_ctl_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

uint8_t *trv_ctl_read_fd(int fd, const char *name, size_t *len, GError **error) {
  uint8_t *buf = g_malloc(*len ? *len : 1);
  size_t got = 0;
  while (got < *len) {
    ssize_t n = pread(fd, buf + got, *len - got, (off_t)got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : 0;
      if (n == 0) break; /* shrank under us: take what is there */
      g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot read at offset %zu: %s", name, got,
                  g_strerror(err));
      g_free(buf);
      return NULL;
    }
    got += (size_t)n;
  }
  *len = got;
  return buf;
}

bool trv_ctl_sync_dir(const char *path, GError **error) {
  char *dir = g_path_get_dirname(path);
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  bool ok = fd >= 0 && fsync(fd) == 0;
  if (!ok)
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot sync directory: %s", dir, g_strerror(errno));
  if (fd >= 0) close(fd);
  g_free(dir);
  return ok;
}
