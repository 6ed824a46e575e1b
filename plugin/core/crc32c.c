/* crc32c.c - CRC-32C in software (crc32c.h). */
#include "core/crc32c.h"

#include <glib.h>

/* Slicing-by-8: table t holds the CRC of a byte followed by t zero bytes,
 * so eight input bytes cost eight lookups and no data-dependent shifts.
 * The CTL's recovery checks every byte of a log, so this is what opening
 * one costs. */
static uint32_t crc_table[8][256];
static gsize crc_table_ready;

static void crc_table_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    crc_table[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; i++)
    for (int t = 1; t < 8; t++) crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
}

uint32_t trv_crc32c(uint32_t crc, const void *data, size_t n) {
  if (g_once_init_enter(&crc_table_ready)) {
    crc_table_init();
    g_once_init_leave(&crc_table_ready, 1);
  }
  const uint8_t *p = data;
  crc = ~crc;
  for (; n >= 8; n -= 8, p += 8) {
    uint32_t lo = ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24) ^ crc;
    crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^ crc_table[5][(lo >> 16) & 0xff] ^
          crc_table[4][lo >> 24] ^ crc_table[3][p[4]] ^ crc_table[2][p[5]] ^ crc_table[1][p[6]] ^ crc_table[0][p[7]];
  }
  while (n--) crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return ~crc;
}
