/*
 * CRC-32 (ISO-HDLC, the zlib crc32) of the block framing, as zlib computes
 * it but several times faster on x86-64 CPUs with PCLMULQDQ, which fold 64
 * bytes per step (Gopal et al., "Fast CRC Computation for Generic
 * Polynomials Using PCLMULQDQ Instruction", Intel, 2009).  Elsewhere, and
 * for the bytes that do not fill a 16-byte step, zlib's crc32 does the
 * work.  Same value as crc32(crc, p, n) for every input.
 */
#ifndef SSP_CRC32_H
#define SSP_CRC32_H

#include <stddef.h>
#include <stdint.h>

uint32_t ssp_crc32(uint32_t crc, const void *p, size_t n);
/* Force the portable path (tests compare both); returns the old setting. */
int ssp_crc32_portable(int on);

#endif
