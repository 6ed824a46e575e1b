/* ctl-format.c - the CTL's bytes: the header and entry encodings,
 * the frame chain and parser, the preallocation pattern, and the (agent,
 * seq) identity set.
 *
 * Invariants: every integer is written byte by byte little-endian and every
 * double through its IEEE-754 bit pattern, so a file means the same on any
 * host and no struct padding ever reaches the disk.  trv_ctl_frame_parse()
 * never reads outside [data, data + avail) and accepts a frame only if its
 * length is possible for its type, its sequence number is the next one, its
 * chained CRC matches and its body decodes to a value an append would have
 * accepted (trv_ctl_record_valid).  It calls a cut frame INCOMPLETE only if
 * every byte present agrees with a frame that could come next, so garbage
 * after the last frame is told from a torn append by its first bytes. */
#include "ctl-internal.h"
#include "core/posterior.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

static bool all_zero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return false;
  return true;
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
  put_u32(out + 44, (uint32_t)h->params.noise);
  /* The Bernoulli likelihood has no slab variance, noise variance or
   * separation bound (they sit at fixed neutral values): its theta0, a and
   * b take their slots, and byte 120 says so (0, the Gaussian model, is
   * what every earlier log holds there). */
  bool bern = h->params.likelihood == TRV_POSTERIOR_BERNOULLI;
  const double *d[6] = {&h->params.pi0,
                        bern ? &h->params.beta_a : &h->params.tau2,
                        bern ? &h->params.theta0 : &h->params.s2,
                        bern ? &h->params.beta_b : &h->params.kappa_min,
                        &h->params.hazard,
                        &h->params.lambda};
  for (int i = 0; i < 6; i++) put_f64(out + 48 + 8 * i, *d[i]);
  put_f64(out + 96, h->params.noise_df);
  put_f64(out + 104, h->params.persist);
  put_u32(out + 120, (uint32_t)h->params.likelihood);
  put_u32(out + 124, trv_crc32c(0, out, 124));
}

bool trv_ctl_header_decode(const uint8_t *data, size_t len, const char *name, TrvCtlHeader *h, GError **error) {
  if (len < 8 || memcmp(data, TRV_CTL_MAGIC, 8) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: not a CTL file (no \"TRVCTL\" magic at offset 0)", name);
    return false;
  }
  if (len < TRV_CTL_HEADER_SIZE) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "%s: header truncated at offset %zu (needs %d bytes)", name, len,
                TRV_CTL_HEADER_SIZE);
    return false;
  }
  if (get_u32(data + 124) != trv_crc32c(0, data, 124) && !crc_waived()) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "%s: header checksum mismatch at offset 124", name);
    return false;
  }
  h->version = get_u32(data + 8);
  if (h->version != TRV_CTL_FORMAT_VERSION) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: CTL format version %u, this build reads version %d only%s",
                name, h->version, TRV_CTL_FORMAT_VERSION,
                h->version < TRV_CTL_FORMAT_VERSION ? " (older logs have no frame chain and cannot be checked "
                                                      "for deleted or reordered entries; read it with the "
                                                      "Trivium that wrote it)"
                                                    : "");
    return false;
  }
  h->created_us = get_u64(data + 16);
  h->n_components = get_u32(data + 24);
  h->flags = get_u32(data + 28);
  h->base_episode = get_u32(data + 32);
  uint32_t slab = get_u32(data + 36), track = get_u32(data + 40), noise = get_u32(data + 44);
  double *d[6] = {&h->params.pi0,       &h->params.tau2,   &h->params.s2,
                  &h->params.kappa_min, &h->params.hazard, &h->params.lambda};
  for (int i = 0; i < 6; i++) *d[i] = get_f64(data + 48 + 8 * i);
  h->params.noise_df = get_f64(data + 96);
  h->params.persist = get_f64(data + 104);
  h->params.slab = (TrvSlab)slab;
  h->params.track = (TrvTrack)track;
  h->params.noise = (TrvNoise)noise;
  uint32_t likelihood = get_u32(data + 120);
  h->params.likelihood = likelihood == TRV_POSTERIOR_BERNOULLI ? TRV_POSTERIOR_BERNOULLI : TRV_POSTERIOR_GAUSSIAN;
  h->params.theta0 = h->params.beta_a = h->params.beta_b = 0;
  if (likelihood == TRV_POSTERIOR_BERNOULLI) { /* see trv_ctl_header_encode */
    h->params.beta_a = h->params.tau2, h->params.theta0 = h->params.s2, h->params.beta_b = h->params.kappa_min;
    h->params.tau2 = h->params.s2 = 1, h->params.kappa_min = 0;
  }
  bool compacted = (h->flags & TRV_CTL_FLAG_COMPACTED) != 0;
  const char *bad = NULL;
  if (get_u32(data + 12) != TRV_CTL_HEADER_SIZE)
    bad = "header size";
  else if (!all_zero(data + 112, 8))
    bad = "reserved field (not zero)";
  else if (likelihood > TRV_POSTERIOR_BERNOULLI)
    bad = "likelihood";
  else if (h->n_components < 1 || h->n_components > TRV_CTL_MAX_COMPONENTS)
    bad = "component count";
  else if (h->flags & ~TRV_CTL_FLAG_COMPACTED)
    bad = "flags";
  else if (compacted != (h->base_episode != TRV_CTL_NO_BASE))
    bad = "base episode";
  else if (slab > TRV_SLAB_SOFT || track > TRV_TRACK_NONE || noise > TRV_NOISE_ESTIMATED)
    bad = "posterior model";
  else if (!trv_posterior_params_valid(&h->params)) /* trv_posterior_new asserts them: never reach that abort */
    bad = "posterior parameters";
  if (bad) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "%s: header field out of range: %s", name, bad);
    return false;
  }
  return true;
}

/* --- entries --- */

bool trv_ctl_record_valid(const TrvRecord *r) {
  return r->kind >= TRV_RECORD_STEP && r->kind <= TRV_RECORD_EPISODE_END && r->commit_status <= TRV_COMMIT_FAILED &&
         r->n_context <= TRV_RECORD_CONTEXT_MAX;
}

bool trv_ctl_params_equal(const TrvPosteriorParams *a, const TrvPosteriorParams *b) {
  uint8_t ha[TRV_CTL_HEADER_SIZE], hb[TRV_CTL_HEADER_SIZE];
  TrvCtlHeader x = {.params = *a}, y = {.params = *b};
  trv_ctl_header_encode(&x, ha);
  trv_ctl_header_encode(&y, hb);
  return memcmp(ha, hb, TRV_CTL_HEADER_SIZE) == 0;
}

static size_t serialized_size(int n_components, const TrvPosteriorParams *params) {
  TrvPosterior *post = trv_posterior_new(n_components, params);
  GByteArray *blob = g_byte_array_new();
  trv_posterior_serialize(post, blob);
  size_t n = blob->len;
  g_byte_array_unref(blob);
  trv_posterior_free(post);
  return n;
}

void trv_ctl_chain_init(TrvCtlChain *c, const TrvCtlHeader *h) {
  uint8_t bytes[TRV_CTL_HEADER_SIZE];
  trv_ctl_header_encode(h, bytes);
  c->seq = 1;
  c->crc = get_u32(bytes + 124);
  /* Every snapshot of this log serializes a posterior of the header's shape
   * (trv_ctl_append_snapshot refuses any other), so its length is known: a
   * fixed part and a fixed size per component (what the deserializer
   * demands), measured on posteriors of one and two components so that a
   * header claiming 65,536 components costs nothing here. */
  size_t one = serialized_size(1, &h->params), two = serialized_size(2, &h->params);
  c->snapshot_len = (uint32_t)(1 + TRV_CTL_SNAPSHOT_FIXED + one + (size_t)(h->n_components - 1) * (two - one));
}

#define RECORD_LEN(n_context) (1u + TRV_CTL_RECORD_FIXED + 8u * (n_context))

static size_t frame_begin(GByteArray *out, const TrvCtlChain *c, size_t body_len) {
  size_t at = out->len;
  g_byte_array_set_size(out, (guint)(at + TRV_CTL_FRAME_HEAD + body_len));
  put_u32(out->data + at, (uint32_t)body_len);
  put_u32(out->data + at + 4, (uint32_t)c->seq);
  return at;
}

/* The chained CRC of the frame at p (length and sequence number written). */
static uint32_t frame_crc(uint32_t prev, const uint8_t *p, uint32_t len) {
  return trv_crc32c(trv_crc32c(prev, p, 8), p + TRV_CTL_FRAME_HEAD, len);
}

static size_t frame_end(GByteArray *out, TrvCtlChain *c, size_t at) {
  uint32_t len = get_u32(out->data + at);
  c->crc = frame_crc(c->crc, out->data + at, len);
  put_u32(out->data + at + 8, c->crc);
  c->seq++;
  return TRV_CTL_FRAME_HEAD + len;
}

size_t trv_ctl_frame_record(GByteArray *out, TrvCtlChain *c, const TrvRecord *r) {
  size_t at = frame_begin(out, c, RECORD_LEN(r->n_context));
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
  return frame_end(out, c, at);
}

size_t trv_ctl_frame_snapshot(GByteArray *out, TrvCtlChain *c, uint32_t episode, uint8_t reason, const uint8_t *blob,
                              size_t blob_len) {
  size_t at = frame_begin(out, c, 1 + TRV_CTL_SNAPSHOT_FIXED + blob_len);
  uint8_t *p = out->data + at + TRV_CTL_FRAME_HEAD;
  p[0] = TRV_CTL_ENTRY_SNAPSHOT;
  put_u32(p + 1, episode);
  p[5] = reason;
  p[6] = p[7] = p[8] = 0;
  memcpy(p + 1 + TRV_CTL_SNAPSHOT_FIXED, blob, blob_len);
  return frame_end(out, c, at);
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
  for (unsigned i = 0; i < r->n_context && i < TRV_RECORD_CONTEXT_MAX; i++) r->context[i] = get_f64(p + 60 + 8 * i);
}

/* Could a length field whose first n bytes (n <= 4) are p start a frame of
 * this log?  Only the lengths of records (by context count) and the one
 * snapshot length are possible. */
static bool length_possible(const uint8_t *p, size_t n, const TrvCtlChain *c) {
  for (unsigned k = 0; k <= TRV_RECORD_CONTEXT_MAX + 1; k++) {
    uint32_t len = k <= TRV_RECORD_CONTEXT_MAX ? RECORD_LEN(k) : c->snapshot_len;
    size_t i = 0;
    while (i < n && p[i] == (uint8_t)(len >> (8 * i))) i++;
    if (i == n) return true;
  }
  return false;
}

TrvCtlFrameStatus trv_ctl_frame_parse(const uint8_t *data, size_t avail, const TrvCtlChain *c, TrvCtlEntry *e) {
  /* Every check runs on the bytes present, in file order, so that a cut
   * frame is INCOMPLETE only if all it has agrees with the next frame. */
  if (!length_possible(data, avail < 4 ? avail : 4, c)) return TRV_CTL_FRAME_BAD_LENGTH;
  for (size_t i = 4; i < 8 && i < avail; i++)
    if (data[i] != (uint8_t)(c->seq >> (8 * (i - 4)))) return TRV_CTL_FRAME_BAD_SEQ;
  const uint8_t *body = data + TRV_CTL_FRAME_HEAD;
  size_t have = avail > TRV_CTL_FRAME_HEAD ? avail - TRV_CTL_FRAME_HEAD : 0; /* body bytes present */
  uint32_t len = avail >= 4 ? get_u32(data) : 0;
  if (have >= 1) { /* then the length is whole: check it against the type */
    if (body[0] == TRV_CTL_ENTRY_RECORD) {
      if (len < RECORD_LEN(0) || (len - RECORD_LEN(0)) % 8 || len > RECORD_LEN(TRV_RECORD_CONTEXT_MAX))
        return TRV_CTL_FRAME_BAD_LENGTH; /* the snapshot length on a record */
      if (have >= 1 + 28 && len != RECORD_LEN(get_u16(body + 1 + 26))) return TRV_CTL_FRAME_BAD_LENGTH;
    } else if (body[0] == TRV_CTL_ENTRY_SNAPSHOT) {
      if (len != c->snapshot_len) return TRV_CTL_FRAME_BAD_LENGTH;
      if (have >= 6 && body[5] > TRV_CTL_SNAPSHOT_COMPACTION) return TRV_CTL_FRAME_BAD_BODY;
      for (size_t i = 6; i < 9 && i < have; i++)
        if (body[i]) return TRV_CTL_FRAME_BAD_BODY;
    } else {
      return TRV_CTL_FRAME_BAD_TYPE;
    }
  }
  if (avail < TRV_CTL_FRAME_HEAD || have < len) return TRV_CTL_FRAME_INCOMPLETE;
  uint32_t stored = get_u32(data + 8);
  if (stored != frame_crc(c->crc, data, len) && !crc_waived()) return TRV_CTL_FRAME_BAD_CRC;
  memset(e, 0, sizeof *e);
  e->size = TRV_CTL_FRAME_HEAD + len;
  e->seq = c->seq;
  e->crc = stored;
  e->type = body[0];
  if (e->type == TRV_CTL_ENTRY_RECORD) {
    decode_record(body + 1, &e->rec);
    return trv_ctl_record_valid(&e->rec) ? TRV_CTL_FRAME_OK : TRV_CTL_FRAME_BAD_BODY;
  }
  e->snap_episode = get_u32(body + 1);
  e->snap_reason = body[5];
  e->blob = body + 1 + TRV_CTL_SNAPSHOT_FIXED;
  e->blob_len = len - 1 - TRV_CTL_SNAPSHOT_FIXED;
  return TRV_CTL_FRAME_OK;
}

const char *trv_ctl_frame_status_text(TrvCtlFrameStatus s) {
  switch (s) {
    case TRV_CTL_FRAME_OK: return "valid";
    case TRV_CTL_FRAME_INCOMPLETE: return "cut short";
    case TRV_CTL_FRAME_BAD_LENGTH: return "impossible length";
    case TRV_CTL_FRAME_BAD_SEQ: return "wrong sequence number";
    case TRV_CTL_FRAME_BAD_TYPE: return "unknown entry type";
    case TRV_CTL_FRAME_BAD_CRC: return "checksum mismatch";
    case TRV_CTL_FRAME_BAD_BODY: return "impossible field values";
  }
  return "?";
}

/* --- the writer's preallocation pattern --- */

uint64_t trv_ctl_pad_salt(const TrvCtlHeader *h) {
  uint8_t bytes[TRV_CTL_HEADER_SIZE];
  trv_ctl_header_encode(h, bytes);
  return h->created_us ^ ((uint64_t)get_u32(bytes + 124) << 32) ^ 0x5452565041440000ull; /* "TRVPAD" */
}

/* SplitMix64 of the salted word index: cheap, and no run of zero bytes
 * longer than chance allows. */
static uint64_t pad_word(uint64_t salt, uint64_t index) {
  uint64_t z = salt + (index + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void trv_ctl_pad_fill(uint64_t salt, uint64_t offset, uint8_t *buf, size_t n) {
  for (size_t i = 0; i < n;) {
    uint64_t x = offset + i, w = pad_word(salt, x >> 3);
    for (unsigned b = (unsigned)(x & 7); b < 8 && i < n; b++, i++) buf[i] = (uint8_t)(w >> (8 * b));
  }
}

size_t trv_ctl_pad_start(uint64_t salt, const uint8_t *data, size_t from, size_t len) {
  size_t w = len;
  while (w > from) {
    size_t x = w - 1;
    if (data[x] != (uint8_t)(pad_word(salt, x >> 3) >> (8 * (x & 7)))) break;
    w = x;
  }
  return w;
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
  /* The whole image is scanned in memory: a size the allocator refuses is
   * an error, not an abort. */
  uint8_t *buf = g_try_malloc(*len ? *len : 1);
  if (!buf) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot hold the log in memory (%zu bytes)", name, *len);
    return NULL;
  }
  size_t got = 0;
  while (got < *len) {
    ssize_t n = pread(fd, buf + got, *len - got, (off_t)got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : 0;
      if (n == 0) break; /* shrank under us: take what is there */
      g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot read at offset %zu: %s", name, got, g_strerror(err));
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
  if (!ok) g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot sync directory: %s", dir, g_strerror(errno));
  if (fd >= 0) close(fd);
  g_free(dir);
  return ok;
}
