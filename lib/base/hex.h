/*
 * Hexadecimal ids, inline for the sinks' hot paths: 16 lowercase digits
 * of a 64-bit id (OTLP span and trace ids, Perfetto's and the viewer's
 * trace ids), with SSE2 on x86-64, eight digits at a time in a word
 * elsewhere on little-endian machines, a table of digit pairs otherwise.
 */
#ifndef SSP_BASE_HEX_H
#define SSP_BASE_HEX_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#define SSP_HEX_SSE2 1
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SSP_HEX_SWAR 1
#endif

#if defined(SSP_HEX_SWAR)
/* The 8 hex digits of v as 8 bytes, digit k (counting from the least
 * significant) in byte k: nibbles spread into bytes, then to ASCII
 * without a table. */
static inline uint64_t
ssp_hex_u32_bytes(uint32_t v)
{
	uint64_t x = v, gt9;

	x = ((x & 0xffff0000ULL) << 16) | (x & 0xffffULL);
	x = ((x & 0x0000ff000000ff00ULL) << 8) | (x & 0x000000ff000000ffULL);
	x = ((x & 0x00f000f000f000f0ULL) << 4) | (x & 0x000f000f000f000fULL);
	/* byte k holds nibble k; digits 10..15 get 'a' - '0' - 10 more */
	gt9 = ((x + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL;
	return x + 0x3030303030303030ULL + gt9 * (uint64_t)('a' - '0' - 10);
}
#endif

/* The 16 lowercase hex digits of id, most significant first. */
static inline void
ssp_hex_u64(char out[16], uint64_t id)
{
#if defined(SSP_HEX_SSE2)
	/* bytes most significant first, split into nibbles, interleaved */
	const __m128i m = _mm_set1_epi8(0x0f);
	__m128i x = _mm_cvtsi64_si128((long long)__builtin_bswap64(id));
	__m128i d = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(x, 4), m),
	    _mm_and_si128(x, m));
	__m128i gt9 = _mm_cmpgt_epi8(d, _mm_set1_epi8(9));

	d = _mm_add_epi8(d, _mm_set1_epi8('0'));
	d = _mm_add_epi8(d, _mm_and_si128(gt9, _mm_set1_epi8('a' - '0' - 10)));
	_mm_storeu_si128((__m128i *)(void *)out, d);
#elif defined(SSP_HEX_SWAR)
	uint64_t hi = __builtin_bswap64(ssp_hex_u32_bytes((uint32_t)(id >> 32)));
	uint64_t lo = __builtin_bswap64(ssp_hex_u32_bytes((uint32_t)id));

	memcpy(out, &hi, 8);
	memcpy(out + 8, &lo, 8);
#else
	static const char hexpairs[] =
	    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	int i;

	for (i = 7; i >= 0; i--) {
		memcpy(out + 2 * i, hexpairs + 2 * (id & 0xff), 2);
		id >>= 8;
	}
#endif
}

#endif
