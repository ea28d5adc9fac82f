/*
 * LEB128 varints (7 bits per byte, low group first, high bit = more) and
 * zigzag for signed values.  Header-only: these sit on every hot path.
 *
 * ssp_varint_ref_put/get are the definition, byte by byte; everything
 * else here is a faster form of the same (tests/unit/test_varint.c checks
 * them against it):
 *   put       writes within SSP_VARINT_MAX bytes of room (buffers, pb);
 *   put_fast  may write 8 bytes past the varint (the record writer);
 *   get       checks the end of the input;
 *   get_fast  reads up to SSP_VARINT_MAX bytes unchecked (the record
 *             reader, which knows they are there), get_run a run of them,
 *             skip_run the end of a run without its values.
 */
#ifndef SSP_VARINT_H
#define SSP_VARINT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SSP_VARINT_MAX 10	/* bytes of the longest 64-bit varint */

/* --- the definition -------------------------------------------------- */

static inline size_t
ssp_varint_ref_put(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v != 0)
			p[n] |= 0x80;
		n++;
	} while (v != 0);
	return n;
}

/* Bytes used, or 0 when [p, end) ends inside the varint or it has more
 * than 64 bits. */
static inline size_t
ssp_varint_ref_get(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	uint64_t r = 0;
	size_t n;

	for (n = 0; n < SSP_VARINT_MAX && p + n < end; n++) {
		uint64_t g = p[n] & 0x7f;

		if (n == SSP_VARINT_MAX - 1 && p[n] > 1)
			return 0;	/* past bit 63 */
		r |= g << (7 * n);
		if (p[n] < 0x80) {
			*v = r;
			return n + 1;
		}
	}
	return 0;
}

/* --- sizes and the plain forms --------------------------------------- */

/* ceil(bits / 7), bits = 1..64 (0 counts as 1), without a loop:
 * (bits + 6) * 37 >> 8 is (bits + 6) / 7 for bits + 6 < 104. */
static inline size_t
ssp_varint_len(uint64_t v)
{
	unsigned bits = 64 - (unsigned)__builtin_clzll(v | 1);

	return (size_t)(((bits + 6) * 37) >> 8);
}

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

/* --- the record codec's fast forms ----------------------------------- */

static inline uint64_t
ssp_varint_le64(const uint8_t *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* The low 56 bits of v spread into 7-bit groups, one per byte. */
static inline uint64_t
ssp_varint_spread(uint64_t v)
{
	uint64_t x = v & ((1ULL << 56) - 1);

	x = ((x & 0x00fffffff0000000ULL) << 4) | (x & 0x000000000fffffffULL);
	x = ((x & 0x0fffc0000fffc000ULL) << 2) | (x & 0x00003fff00003fffULL);
	x = ((x & 0x3f803f803f803f80ULL) << 1) | (x & 0x007f007f007f007fULL);
	return x;
}

/*
 * Encode v at p and return the end; p has room for SSP_VARINT_MAX + 8
 * bytes.  Branches on the length, which the CPU predicts well: the next
 * position then need not wait for the value.  Longer values are spread
 * into 7-bit groups and stored with one 8-byte write.
 */
/* The last value of 57 bits or more an encoder wrote and its bytes: such
 * values (random ids) tend to repeat, and copying beats encoding them. */
struct ssp_varint_big {
	uint64_t v;
	uint8_t n;		/* 0: none yet */
	uint8_t b[SSP_VARINT_MAX];
};

/* ssp_varint_put_fast, with the repeat of a long value copied (big may be
 * NULL). */
__attribute__((always_inline)) static inline uint8_t *
ssp_varint_put_cached(uint8_t *p, uint64_t v, struct ssp_varint_big *big)
{
	if (v < 0x80) {
		*p = (uint8_t)v;
		return p + 1;
	}
	if (v < 0x4000) {
		p[0] = (uint8_t)(v | 0x80);
		p[1] = (uint8_t)(v >> 7);
		return p + 2;
	}
	if (v < 1u << 21) {	/* three: span ids, durations */
		p[0] = (uint8_t)(v | 0x80);
		p[1] = (uint8_t)(v >> 7 | 0x80);
		p[2] = (uint8_t)(v >> 14);
		return p + 3;
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (v < (1ULL << 56)) {
		/* varint length and continuation bits by bit length */
		static const struct { uint8_t n; uint64_t cont; } len[57] = {
#define L1 { 1, 0 }
#define L2 { 2, 0x80ULL }
#define L3 { 3, 0x8080ULL }
#define L4 { 4, 0x808080ULL }
#define L5 { 5, 0x80808080ULL }
#define L6 { 6, 0x8080808080ULL }
#define L7 { 7, 0x808080808080ULL }
#define L8 { 8, 0x80808080808080ULL }
			L1, L1, L1, L1, L1, L1, L1, L1,
			L2, L2, L2, L2, L2, L2, L2,
			L3, L3, L3, L3, L3, L3, L3,
			L4, L4, L4, L4, L4, L4, L4,
			L5, L5, L5, L5, L5, L5, L5,
			L6, L6, L6, L6, L6, L6, L6,
			L7, L7, L7, L7, L7, L7, L7,
			L8, L8, L8, L8, L8, L8, L8,
#undef L1
#undef L2
#undef L3
#undef L4
#undef L5
#undef L6
#undef L7
#undef L8
		};
		unsigned bits = 64 - (unsigned)__builtin_clzll(v);
		uint64_t x = ssp_varint_spread(v) | len[bits].cont;

		memcpy(p, &x, 8);
		return p + len[bits].n;
	} else {	/* 9 or 10 bytes: 56 bits at once, then the rest */
		uint64_t x, hi;
		uint8_t *end;

		if (big != NULL && big->n != 0 && big->v == v) {
			memcpy(p, big->b, SSP_VARINT_MAX);
			return p + big->n;
		}
		x = ssp_varint_spread(v) | 0x8080808080808080ULL;
		hi = v >> 56;
		memcpy(p, &x, 8);
		if (hi < 0x80) {
			p[8] = (uint8_t)hi;
			end = p + 9;
		} else {
			p[8] = (uint8_t)(hi | 0x80);
			p[9] = 1;
			end = p + 10;
		}
		if (big != NULL) {
			big->v = v;
			big->n = (uint8_t)(end - p);
			memcpy(big->b, p, SSP_VARINT_MAX);
		}
		return end;
	}
#else
	(void)big;
	return p + ssp_varint_put(p, v);
#endif
}

static inline uint8_t *
ssp_varint_put_fast(uint8_t *p, uint64_t v)
{
	return ssp_varint_put_cached(p, v, NULL);
}

/* The low 7 bits of each of the 8 bytes of x packed into 56 bits (the
 * inverse of ssp_varint_spread). */
static inline uint64_t
ssp_varint_gather(uint64_t x)
{
	x &= 0x7f7f7f7f7f7f7f7fULL;
	x = ((x & 0x7f007f007f007f00ULL) >> 1) | (x & 0x007f007f007f007fULL);
	x = ((x & 0x3fff00003fff0000ULL) >> 2) | (x & 0x00003fff00003fffULL);
	x = ((x & 0x0fffffff00000000ULL) >> 4) | (x & 0x000000000fffffffULL);
	return x;
}

/*
 * Decode one varint with no bounds check: the caller knows at least
 * SSP_VARINT_MAX bytes are readable.  A varint longer than 64 bits sets
 * *bad; the caller then decodes again with ssp_varint_get, which reports
 * it.
 */
__attribute__((always_inline)) static inline const uint8_t *
ssp_varint_get_fast(const uint8_t *p, uint64_t *v, unsigned *bad)
{
	uint64_t b = p[0], b1 = p[1], r;
#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
	unsigned s;
#endif

	/* Branches on the length, which the CPU predicts well: the next
	 * field's position then need not wait for this one's bytes. */
	if (b < 0x80) {
		*v = b;
		return p + 1;
	}
	if (b1 < 0x80) {
		*v = (b & 0x7f) | b1 << 7;
		return p + 2;
	}
	if (p[2] < 0x80) {	/* three: time deltas, ids */
		*v = (b & 0x7f) | (b1 & 0x7f) << 7 | (uint64_t)p[2] << 14;
		return p + 3;
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	{
		/* four to eight bytes: the whole word at once, no loop
		 * (addresses, MACs and ids are long and of mixed lengths) */
		uint64_t x = ssp_varint_le64(p);
		uint64_t stop = ~x & 0x8080808080808080ULL;

		if (stop != 0) {
			unsigned nb = (unsigned)__builtin_ctzll(stop) + 1;

			*v = ssp_varint_gather(x << (64 - nb) >> (64 - nb));
			return p + nb / 8;
		}
		r = ssp_varint_gather(x);	/* 56 bits, then one or two bytes */
		b = p[8];
		if (b < 0x80) {
			*v = r | b << 56;
			return p + 9;
		}
		r |= (b & 0x7f) << 56;
		b = p[9];	/* the tenth byte holds bit 63 */
		*bad |= b > 1;
		*v = r | b << 63;
		return p + 10;
	}
#else
	r = (b & 0x7f) | (b1 & 0x7f) << 7;	/* three bytes or more */
	p += 2;
	for (s = 14; s < 63; s += 7) {
		b = *p++;
		r |= (b & 0x7f) << s;
		if (b < 0x80) {
			*v = r;
			return p;
		}
	}
	b = *p++;	/* the tenth byte holds bit 63 */
	*bad |= b > 1;
	*v = r | b << 63;
	return p;
#endif
}

/*
 * n varints from p into f, as ssp_varint_get_fast would, for runs where
 * most take one byte: the leading one-byte varints of a word are taken
 * together, up to 7.  p has n * SSP_VARINT_MAX readable bytes.
 */
__attribute__((always_inline)) static inline const uint8_t *
ssp_varint_get_run(const uint8_t *p, uint64_t *f, unsigned n, unsigned *bad)
{
	unsigned i = 0, k;
	uint64_t x;

	while (i < n) {
		x = ssp_varint_le64(p);
		k = (unsigned)__builtin_ctzll((x & 0x8080808080808080ULL) |
		    1ULL << 63) >> 3;	/* bytes before the first high bit */
		if (k == 0) {
			p = ssp_varint_get_fast(p, &f[i++], bad);
			continue;
		}
		if (k > n - i)
			k = n - i;
		p += k;
		do {
			f[i++] = x & 0xff;
			x >>= 8;
		} while (--k > 0);
	}
	return p;
}

/*
 * Skip n varints from p, as n calls of ssp_varint_get_fast would (the
 * same end, *bad set alike), without their values: the varint ends
 * within a word are taken one after the other with no decoding, nine- and
 * ten-byte varints by ssp_varint_get_fast.  p has n * SSP_VARINT_MAX
 * readable bytes.  For records a filter leaves out.
 */
__attribute__((always_inline)) static inline const uint8_t *
ssp_varint_skip_run(const uint8_t *p, unsigned n, unsigned *bad)
{
	uint64_t x, stop, last = 0;

	while (n > 0) {
		x = ssp_varint_le64(p);
		stop = ~x & 0x8080808080808080ULL;	/* last bytes */
		if (stop == 0) {
			p = ssp_varint_get_fast(p, &x, bad);
			n--;
			continue;
		}
		do {
			last = stop & -stop;
			stop ^= last;
		} while (--n > 0 && stop != 0);
		p += (unsigned)__builtin_ctzll(last) / 8 + 1;
	}
	return p;
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
