/*
 * LEB128 varints (7 bits per byte, low group first, high bit = more) and
 * zigzag for signed values.  Header-only: these sit on every hot path.
 */
#ifndef SSP_VARINT_H
#define SSP_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define SSP_VARINT_MAX 10	/* bytes of the longest 64-bit varint */

static inline size_t
ssp_varint_put(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/*
 * Decode one varint from [*p, end).  Returns 0 and advances *p, or -1 when
 * the input ends inside the varint or it is longer than 64 bits.
 */
static inline int
ssp_varint_get(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t r;
	unsigned shift;

	if (q < end && *q < 0x80) {	/* one-byte fast path */
		*v = *q;
		*p = q + 1;
		return 0;
	}
	r = 0;
	for (shift = 0; q < end && shift < 64; shift += 7) {
		uint8_t b = *q++;
		if (shift == 63 && b > 1)
			return -1;
		r |= (uint64_t)(b & 0x7f) << shift;
		if (b < 0x80) {
			*v = r;
			*p = q;
			return 0;
		}
	}
	return -1;
}

static inline uint64_t
ssp_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t
ssp_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif
