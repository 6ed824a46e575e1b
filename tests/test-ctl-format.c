/* The CTL's bytes: CRC-32C against its standard check value, explicit
 * little-endian encoding, header validation and frame parsing. */
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
}

static void record_is_encoded_little_endian_field_by_field(void) {
  TrvRecord r = ctl_test_step(0x01020304u, 0x1122334455667788ull, 7, 9, 2, 1.0, -0.5);
  GByteArray *f = g_byte_array_new();
  size_t n = trv_ctl_frame_record(f, &r);
  g_assert_cmpuint(n, ==, TRV_CTL_FRAME_HEAD + 1 + TRV_CTL_RECORD_FIXED + 2 * 8);
  g_assert_cmpuint(f->len, ==, n);
  const uint8_t *d = f->data;
  g_assert_cmpuint(d[0] | d[1] << 8 | d[2] << 16 | (uint32_t)d[3] << 24, ==, n - TRV_CTL_FRAME_HEAD);
  g_assert_cmpuint(d[8], ==, TRV_CTL_ENTRY_RECORD);
  const uint8_t *b = d + 9;
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
  g_assert_cmpint(trv_ctl_frame_parse(f->data, f->len, &e), ==, 1);
  g_assert_cmpuint(e.size, ==, n);
  g_assert_true(memcmp(&e.rec, &r, offsetof(TrvRecord, context)) == 0);
  g_assert_cmpfloat(e.rec.context[1], ==, -1.0);
  /* One byte short is incomplete, not invalid. */
  g_assert_cmpint(trv_ctl_frame_parse(f->data, f->len - 1, &e), ==, 0);
  g_byte_array_unref(f);
}

static void every_single_bit_flip_of_a_frame_is_rejected(void) {
  TrvRecord r = ctl_test_step(3, 42, 1, 2, 0, -1.0, 0.25);
  GByteArray *f = g_byte_array_new();
  trv_ctl_frame_record(f, &r);
  int accepted = 0;
  for (size_t bit = 0; bit < f->len * 8; bit++) {
    f->data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    TrvCtlEntry e;
    accepted += trv_ctl_frame_parse(f->data, f->len, &e) == 1;
    f->data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
  }
  g_assert_cmpint(accepted, ==, 0);
  g_byte_array_unref(f);
}

static void header_round_trips_and_rejects_foreign_files(void) {
  TrvCtlHeader h = {.version = TRV_CTL_FORMAT_VERSION, .created_us = 123456789, .n_components = 3,
                    .base_episode = TRV_CTL_NO_BASE, .params = ctl_test_params()};
  uint8_t b[TRV_CTL_HEADER_SIZE];
  trv_ctl_header_encode(&h, b);
  TrvCtlHeader back;
  GError *err = NULL;
  g_assert_true(trv_ctl_header_decode(b, sizeof b, "x", &back, &err));
  g_assert_no_error(err);
  g_assert_cmpuint(back.n_components, ==, 3);
  g_assert_cmpuint(back.created_us, ==, 123456789);
  g_assert_true(trv_ctl_params_equal(&back.params, &h.params));
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
  /* Another format version: input error naming both versions. */
  b[8] = 2;
  uint32_t crc = trv_crc32c(0, b, 124);
  for (int i = 0; i < 4; i++) b[124 + i] = (uint8_t)(crc >> (8 * i));
  g_assert_false(trv_ctl_header_decode(b, sizeof b, "x", &back, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "version 2"));
  g_clear_error(&err);
}

static void impossible_lengths_are_invalid_not_incomplete(void) {
  uint8_t zeros[64] = {0};
  TrvCtlEntry e;
  g_assert_cmpint(trv_ctl_frame_parse(zeros, sizeof zeros, &e), ==, -1); /* length 0 */
  uint8_t big[16] = {0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, TRV_CTL_ENTRY_RECORD};
  g_assert_cmpint(trv_ctl_frame_parse(big, sizeof big, &e), ==, -1); /* over the entry bound */
  uint8_t rec[16] = {200, 0, 0, 0, 0, 0, 0, 0, TRV_CTL_ENTRY_RECORD};
  g_assert_cmpint(trv_ctl_frame_parse(rec, sizeof rec, &e), ==, -1); /* too long for a record */
  uint8_t snap[16] = {200, 0, 0, 0, 0, 0, 0, 0, TRV_CTL_ENTRY_SNAPSHOT};
  g_assert_cmpint(trv_ctl_frame_parse(snap, sizeof snap, &e), ==, 0); /* a snapshot may be that long */
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
  g_test_add_func("/ctl/format/every_single_bit_flip_of_a_frame_is_rejected",
                  every_single_bit_flip_of_a_frame_is_rejected);
  g_test_add_func("/ctl/format/header_round_trips_and_rejects_foreign_files",
                  header_round_trips_and_rejects_foreign_files);
  g_test_add_func("/ctl/format/impossible_lengths_are_invalid_not_incomplete",
                  impossible_lengths_are_invalid_not_incomplete);
  g_test_add_func("/ctl/format/fsync_policy_names_round_trip", fsync_policy_names_round_trip);
  return g_test_run();
}
