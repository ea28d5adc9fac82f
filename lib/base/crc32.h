/*
 * CRC-32 (ISO-HDLC, zlib's crc32) of the block framing, faster: on x86-64
 * CPUs with PCLMULQDQ the bulk is folded 64 bytes at a time (Intel, "Fast
 * CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction");
 * elsewhere, and for short tails, zlib computes it.  Same results as
 * crc32(crc, buf, len).
 */
#ifndef SSP_CRC32_H
#define SSP_CRC32_H

#include <stddef.h>
#include <stdint.h>

uint32_t ssp_crc32(uint32_t crc, const void *buf, size_t len);

#endif
