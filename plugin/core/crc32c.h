/* crc32c.h - CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the
 * checksum of the bytes Trivium keeps on disk: the CTL's header and frames
 * (plugin/log) and the cell files of a run (src/cell-file.c).  It detects
 * every burst of up to 32 flipped bits, and in inputs of up to 256 MiB
 * every error of up to three bits.  Plain C; its only state is a table
 * built once (thread-safe). */
#ifndef TRV_CORE_CRC32C_H
#define TRV_CORE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32C of n bytes at data, continued from crc (start with 0; pass
 * the previous result to chain several pieces: the chained value of a, b
 * equals the value of a and b concatenated). */
uint32_t trv_crc32c(uint32_t crc, const void *data, size_t n);

#endif
