/* The CTL's bytes: CRC-32C against its standard check value, explicit
 * little-endian encoding, the frame chain, header validation, frame parsing
 * (complete, cut, or invalid) and the writer's preallocation pattern. */
#include "log/ctl-internal.h"
#include "test-ctl-util.h"

static void crc32c_matches_standard_check_value(void) {
  g_assert_cmphex(trv_crc32c(0, "123456789", 9), ==, 0xE3069283u);
  g_assert_cmphex(trv_crc32c(0, "", 0), ==, 0u);
  /* Chaining over a split gives the same value as one pass. */
  g_assert_cmphex(trv_crc32c(trv_crc32c(0, "1234", 4), "56789", 5), ==, 0xE3069283u);
  /* 32 zero bytes: the iSCSI test vector of RFC 3720 B.4. */
  uint8_t zeros[32] = {0};
  g_assert_cmphex(trv_crc32c(0, zeros, 32), ==, 0x8A9136AAu);
  /* Eight bytes at a time agrees with the bitwise definition at every
   * length and alignment. */
  uint8_t data[200];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 131 + 7);
  for (size_t at = 0; at < 8; at++)
    for (size_t n = 0; n + at <= sizeof data; n += 13) {
      uint32_t c = ~0u;
      for (size_t i = 0; i < n; i++) {
        c ^= data[at + i];
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      }
      g_assert_cmphex(trv_crc32c(0, data + at, n), ==, ~c);
    }
}

static TrvCtlHeader test_header(void) {
  TrvCtlHeader h = {.version = TRV_CTL_FORMAT_VERSION,
                    .created_us = 123456789,
                    .n_components = 3,
                    .base_episode = TRV_CTL_NO_BASE,
                    .params = ctl_test_params()};
  return h;
}

static uint32_t le32(const uint8_t *d) { return d[0] | d[1] << 8 | d[2] << 16 | (uint32_t)d[3] << 24; }

static void record_is_encoded_little_endian_field_by_field(void) {
  TrvCtlHeader h = test_header();
  TrvCtlChain chain, start;
  trv_ctl_chain_init(&chain, &h);
  start = chain;
  TrvRecord r = ctl_test_step(0x01020304u, 0x1122334455667788ull, 7, 9, 2, 1.0, -0.5);
  GByteArray *f = g_byte_array_new();
  size_t n = trv_ctl_frame_record(f, &chain, &r);
  g_assert_cmpuint(n, ==, TRV_CTL_FRAME_HEAD + 1 + TRV_CTL_RECORD_FIXED + 2 * 8);
  g_assert_cmpuint(n, ==, 89);
  g_assert_cmpuint(f->len, ==, n);
  const uint8_t *d = f->data;
  g_assert_cmpuint(le32(d), ==, n - TRV_CTL_FRAME_HEAD); /* length of the body */
  g_assert_cmpuint(le32(d + 4), ==, 1);                  /* the first entry */
  /* The CRC continues the header's over length, sequence number and body. */
  uint8_t hb[TRV_CTL_HEADER_SIZE];
  trv_ctl_header_encode(&h, hb);
  uint32_t want = trv_crc32c(trv_crc32c(trv_crc32c(0, hb, 124), d, 8), d + 12, n - 12);
  g_assert_cmphex(le32(hb + 124), ==, start.crc);
  g_assert_cmphex(le32(d + 8), ==, want);
  g_assert_cmphex(chain.crc, ==, want);
  g_assert_cmpuint(chain.seq, ==, 2);
  g_assert_cmpuint(d[12], ==, TRV_CTL_ENTRY_RECORD);
  const uint8_t *b = d + 13;
  g_assert_cmphex(b[0], ==, 0x88); /* seq, least significant byte first */
  g_assert_cmphex(b[7], ==, 0x11);
  g_assert_cmphex(b[8], ==, 0x04); /* agent */
  g_assert_cmphex(b[11], ==, 0x01);
  g_assert_cmpuint(b[12], ==, 7); /* episode */
  g_assert_cmpuint(b[24], ==, TRV_RECORD_STEP);
  /* z = 1.0 is 0x3FF0000000000000: its last byte carries 0x3F. */
  g_assert_cmphex(b[36 + 7], ==, 0x3F);
  g_assert_cmphex(b[36 + 6], ==, 0xF0);
  TrvCtlEntry e;
  g_assert_cmpint(trv_ctl_frame_parse(f->data, f->len, &start, &e), ==, TRV_CTL_FRAME_OK);
  g_assert_cmpuint(e.size, ==, n);
  g_assert_cmpuint(e.seq, ==, 1);
  g_assert_cmphex(e.crc, ==, want);
  g_assert_true(memcmp(&e.rec, &r, offsetof(TrvRecord, context)) == 0);
  g_assert_cmpfloat(e.rec.context[1], ==, -1.0);
  /* Every cut of it is incomplete, not invalid: a torn append. */
  for (size_t cut = 0; cut < n; cut++)
    g_assert_cmpint(trv_ctl_frame_parse(f->data, cut, &start, &e), ==, TRV_CTL_FRAME_INCOMPLETE);
  g_byte_array_unref(f);
}

static void every_single_bit_flip_of_a_frame_is_rejected_as_complete(void) {
  TrvCtlHeader h = test_header();
  TrvCtlChain chain, start;
  trv_ctl_chain_init(&chain, &h);
  start = chain;
  TrvRecord r = ctl_test_step(3, 42, 1, 2, 0, -1.0, 0.25);
  GByteArray *f = g_byte_array_new();
  trv_ctl_frame_record(f, &chain, &r);
  int accepted = 0, incomplete = 0;
  for (size_t bit = 0; bit < f->len * 8; bit++) {
    f->data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    TrvCtlEntry e;
    TrvCtlFrameStatus st = trv_ctl_frame_parse(f->data, f->len, &start, &e);
    accepted += st == TRV_CTL_FRAME_OK;
    incomplete += st == TRV_CTL_FRAME_INCOMPLETE;
    f->data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
  }
  /* Not even a flip of the length passes as a torn frame: the length must
   * be the one the record's context count gives. */
  g_assert_cmpint(accepted, ==, 0);
  g_assert_cmpint(incomplete, ==, 0);
  g_byte_array_unref(f);
}

static void chain_refuses_a_frame_out_of_its_place(void) {
  TrvCtlHeader h = test_header();
  TrvCtlChain chain, c0, c1;
  trv_ctl_chain_init(&chain, &h);
  c0 = chain;
  GByteArray *f = g_byte_array_new();
  TrvRecord a = ctl_test_step(0, 0, 0, 0, 0, 1, 1), b = ctl_test_step(0, 1, 0, 1, 0, 1, 2);
  size_t na = trv_ctl_frame_record(f, &chain, &a);
  c1 = chain;
  trv_ctl_frame_record(f, &chain, &b);
  TrvCtlEntry e;
  g_assert_cmpint(trv_ctl_frame_parse(f->data, na, &c0, &e), ==, TRV_CTL_FRAME_OK);
  g_assert_cmpint(trv_ctl_frame_parse(f->data + na, f->len - na, &c1, &e), ==, TRV_CTL_FRAME_OK);
  /* b where a must be (a deleted), a where b must be (a repeated). */
  g_assert_cmpint(trv_ctl_frame_parse(f->data + na, f->len - na, &c0, &e), ==, TRV_CTL_FRAME_BAD_SEQ);
  g_assert_cmpint(trv_ctl_frame_parse(f->data, na, &c1, &e), ==, TRV_CTL_FRAME_BAD_SEQ);
  /* Right number, other history (the chain value differs): the CRC says so. */
  TrvCtlChain other = c1;
  other.crc ^= 1;
  g_assert_cmpint(trv_ctl_frame_parse(f->data + na, f->len - na, &other, &e), ==, TRV_CTL_FRAME_BAD_CRC);
  /* A torn head is checked as far as it goes: the number's first byte. */
  g_assert_cmpint(trv_ctl_frame_parse(f->data + na, 5, &c1, &e), ==, TRV_CTL_FRAME_INCOMPLETE);
  g_assert_cmpint(trv_ctl_frame_parse(f->data + na, 5, &c0, &e), ==, TRV_CTL_FRAME_BAD_SEQ);
  g_byte_array_unref(f);
}

static void header_round_trips_and_rejects_foreign_files(void) {
  TrvCtlHeader h = test_header();
  uint8_t b[TRV_CTL_HEADER_SIZE];
  trv_ctl_header_encode(&h, b);
  TrvCtlHeader back;
  GError *err = NULL;
  g_assert_true(trv_ctl_header_decode(b, sizeof b, "x", &back, &err));
  g_assert_no_error(err);
  g_assert_cmpuint(back.n_components, ==, 3);
  g_assert_cmpuint(back.created_us, ==, 123456789);
  g_assert_true(trv_ctl_params_equal(&back.params, &h.params));
  /* The estimated-noise, persistent-effect model round-trips too. */
  TrvCtlHeader h2 = h;
  h2.params.noise = TRV_NOISE_ESTIMATED, h2.params.noise_df = 10, h2.params.persist = 0.9;
  uint8_t b2[TRV_CTL_HEADER_SIZE];
  trv_ctl_header_encode(&h2, b2);
  g_assert_true(trv_ctl_header_decode(b2, sizeof b2, "x", &back, &err));
  g_assert_cmpint(back.params.noise, ==, TRV_NOISE_ESTIMATED);
  g_assert_cmpfloat(back.params.noise_df, ==, 10);
  g_assert_cmpfloat(back.params.persist, ==, 0.9);
  g_assert_false(trv_ctl_params_equal(&back.params, &h.params));
  /* Not a CTL at all: input error. */
  g_assert_false(trv_ctl_header_decode((const uint8_t *)"hello, world", 12, "x", &back, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  /* A CTL header with a damaged byte: corruption. */
  b[60] ^= 4;
  g_assert_false(trv_ctl_header_decode(b, sizeof b, "x", &back, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_CORRUPT);
  g_clear_error(&err);
  b[60] ^= 4;
  /* A reserved byte set, an unknown noise model, a persistence above 1
   * (CRC fixed up each time): corruption, not a valid header. */
  uint32_t crc;
  static const struct {
    int at;
    uint8_t value;
  } bad[] = {{116, 1}, {44, 2}, {111, 0x40}};
  for (size_t k = 0; k < G_N_ELEMENTS(bad); k++) {
    uint8_t keep = b[bad[k].at];
    b[bad[k].at] = bad[k].value; /* byte 111: persist = 2.0 */
    crc = trv_crc32c(0, b, 124);
    for (int i = 0; i < 4; i++) b[124 + i] = (uint8_t)(crc >> (8 * i));
    g_assert_false(trv_ctl_header_decode(b, sizeof b, "x", &back, &err));
    g_assert_error(err, TRV_ERROR, TRV_ERROR_CORRUPT);
    g_clear_error(&err);
    b[bad[k].at] = keep;
  }
  /* Another format version: input error naming both versions; an older
   * one says why it is refused. */
  for (uint8_t version = 1; version <= 3; version += 2) {
    b[8] = version;
    crc = trv_crc32c(0, b, 124);
    for (int i = 0; i < 4; i++) b[124 + i] = (uint8_t)(crc >> (8 * i));
    g_assert_false(trv_ctl_header_decode(b, sizeof b, "x", &back, &err));
    g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
    char *says = g_strdup_printf("version %u, this build reads version 2 only", version);
    g_assert_nonnull(strstr(err->message, says));
    g_assert_true((strstr(err->message, "no frame chain") != NULL) == (version == 1));
    g_free(says);
    g_clear_error(&err);
  }
}

static void impossible_lengths_are_invalid_not_incomplete(void) {
  TrvCtlHeader h = test_header();
  TrvCtlChain c;
  trv_ctl_chain_init(&c, &h);
  /* 3 components: the snapshot body is 1 + 8 + 68 + 3 * 72 bytes. */
  g_assert_cmpuint(c.snapshot_len, ==, 293);
  /* The estimated-noise, persistent-effect posterior snapshots as version 2:
   * 1 + 8 + 96 + 3 * 80 bytes; the model above keeps version 1's size. */
  TrvCtlHeader h2 = h;
  h2.params.noise = TRV_NOISE_ESTIMATED, h2.params.noise_df = 10, h2.params.persist = 0.9;
  TrvCtlChain c2;
  trv_ctl_chain_init(&c2, &h2);
  g_assert_cmpuint(c2.snapshot_len, ==, 345);
  uint8_t zeros[64] = {0};
  TrvCtlEntry e;
  g_assert_cmpint(trv_ctl_frame_parse(zeros, sizeof zeros, &c, &e), ==, TRV_CTL_FRAME_BAD_LENGTH); /* length 0 */
  g_assert_cmpint(trv_ctl_frame_parse(zeros, 1, &c, &e), ==, TRV_CTL_FRAME_BAD_LENGTH); /* no length starts 0 */
  uint8_t big[16] = {0xff, 0xff, 0xff, 0x7f, 1, 0, 0, 0, 0, 0, 0, 0, TRV_CTL_ENTRY_RECORD};
  g_assert_cmpint(trv_ctl_frame_parse(big, sizeof big, &c, &e), ==, TRV_CTL_FRAME_BAD_LENGTH);
  uint8_t rec[16] = {200, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, TRV_CTL_ENTRY_RECORD};
  g_assert_cmpint(trv_ctl_frame_parse(rec, sizeof rec, &c, &e), ==, TRV_CTL_FRAME_BAD_LENGTH);
  uint8_t snap[16] = {0x25, 0x01, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, TRV_CTL_ENTRY_SNAPSHOT};
  g_assert_cmpint(trv_ctl_frame_parse(snap, sizeof snap, &c, &e), ==, TRV_CTL_FRAME_INCOMPLETE); /* 293 */
  snap[12] = TRV_CTL_ENTRY_RECORD; /* a snapshot's length on a record */
  g_assert_cmpint(trv_ctl_frame_parse(snap, sizeof snap, &c, &e), ==, TRV_CTL_FRAME_BAD_LENGTH);
  snap[12] = 7;
  g_assert_cmpint(trv_ctl_frame_parse(snap, sizeof snap, &c, &e), ==, TRV_CTL_FRAME_BAD_TYPE);
}

static void preallocation_pattern_is_never_zeros_and_is_found_exactly(void) {
  TrvCtlHeader h = test_header();
  uint64_t salt = trv_ctl_pad_salt(&h);
  uint8_t buf[8192];
  trv_ctl_pad_fill(salt, 1000, buf, sizeof buf);
  /* Filling in two pieces gives the same bytes: byte x depends on x only. */
  uint8_t two[8192];
  trv_ctl_pad_fill(salt, 1000, two, 3);
  trv_ctl_pad_fill(salt, 1003, two + 3, sizeof two - 3);
  g_assert_true(memcmp(buf, two, sizeof buf) == 0);
  size_t zeros = 0;
  for (size_t i = 0; i < sizeof buf; i++) zeros += buf[i] == 0;
  g_assert_cmpuint(zeros, <, 80); /* about 1/256 of the bytes, never a zeroed page */
  /* Where the pattern starts: bytes before it that differ are not taken. */
  uint8_t img[1000 + sizeof buf];
  memset(img, 0xAB, 1000);
  memcpy(img + 1000, buf, sizeof buf);
  size_t w = trv_ctl_pad_start(salt, img, 0, sizeof img);
  g_assert_cmpuint(w, <=, 1000);
  g_assert_cmpuint(w, >=, 998); /* 0xAB may agree with the pattern by chance */
  memset(img + 5000, 0, 4096);  /* a zeroed page ends the pattern */
  g_assert_cmpuint(trv_ctl_pad_start(salt, img, 0, sizeof img), >=, 9096);
  /* Another log's pattern is not this one's. */
  h.created_us++;
  g_assert_cmpuint(trv_ctl_pad_start(trv_ctl_pad_salt(&h), img, 0, 1000 + 4000), >, 4990);
}

static void fsync_policy_names_round_trip(void) {
  for (int p = TRV_CTL_FSYNC_ALWAYS; p <= TRV_CTL_FSYNC_NONE; p++) {
    TrvCtlFsync back;
    g_assert_true(trv_ctl_fsync_parse(trv_ctl_fsync_name((TrvCtlFsync)p), &back));
    g_assert_cmpint(back, ==, p);
  }
  TrvCtlFsync back;
  g_assert_false(trv_ctl_fsync_parse("sometimes", &back));
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/ctl/format/crc32c_matches_standard_check_value", crc32c_matches_standard_check_value);
  g_test_add_func("/ctl/format/record_is_encoded_little_endian_field_by_field",
                  record_is_encoded_little_endian_field_by_field);
  g_test_add_func("/ctl/format/every_single_bit_flip_of_a_frame_is_rejected_as_complete",
                  every_single_bit_flip_of_a_frame_is_rejected_as_complete);
  g_test_add_func("/ctl/format/chain_refuses_a_frame_out_of_its_place", chain_refuses_a_frame_out_of_its_place);
  g_test_add_func("/ctl/format/header_round_trips_and_rejects_foreign_files",
                  header_round_trips_and_rejects_foreign_files);
  g_test_add_func("/ctl/format/impossible_lengths_are_invalid_not_incomplete",
                  impossible_lengths_are_invalid_not_incomplete);
  g_test_add_func("/ctl/format/preallocation_pattern_is_never_zeros_and_is_found_exactly",
                  preallocation_pattern_is_never_zeros_and_is_found_exactly);
  g_test_add_func("/ctl/format/fsync_policy_names_round_trip", fsync_policy_names_round_trip);
  return g_test_run();
}
