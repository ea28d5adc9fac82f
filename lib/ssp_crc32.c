#include <zlib.h>

#include "ssp_crc32.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define FOLD_MIN 64

/*
 * crc of len bytes (len >= 64, a multiple of 16), crc being the inverted
 * running state; returns the inverted state.
 */
__attribute__((target("pclmul,sse4.1")))
static uint32_t
crc32_fold(const unsigned char *buf, size_t len, uint32_t crc)
{
	static const uint64_t k1k2[2] __attribute__((aligned(16))) =
	    { 0x0154442bd4ULL, 0x01c6e41596ULL };
	static const uint64_t k3k4[2] __attribute__((aligned(16))) =
	    { 0x01751997d0ULL, 0x00ccaa009eULL };
	static const uint64_t k5k0[2] __attribute__((aligned(16))) =
	    { 0x0163cd6124ULL, 0 };
	static const uint64_t poly[2] __attribute__((aligned(16))) =
	    { 0x01db710641ULL, 0x01f7011641ULL };
	__m128i x0, x1, x2, x3, x4, x5, x6, x7, x8;

	x1 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x00));
	x2 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x10));
	x3 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x20));
	x4 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x30));
	x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
	x0 = _mm_load_si128((const __m128i *)(const void *)k1k2);
	buf += 64;
	len -= 64;
	while (len >= 64) {	/* fold four 128-bit lanes by 512 bits */
		x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
		x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
		x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
		x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
		x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
		x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
		x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
		x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(x1, x5),
		    _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x00)));
		x2 = _mm_xor_si128(_mm_xor_si128(x2, x6),
		    _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x10)));
		x3 = _mm_xor_si128(_mm_xor_si128(x3, x7),
		    _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x20)));
		x4 = _mm_xor_si128(_mm_xor_si128(x4, x8),
		    _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x30)));
		buf += 64;
		len -= 64;
	}
	/* fold the four lanes into one */
	x0 = _mm_load_si128((const __m128i *)(const void *)k3k4);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);
	while (len >= 16) {	/* the remaining 16-byte blocks */
		x2 = _mm_loadu_si128((const __m128i *)(const void *)buf);
		x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
		x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
		buf += 16;
		len -= 16;
	}
	/* 128 -> 64 bits */
	x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
	x3 = _mm_setr_epi32(~0, 0, ~0, 0);
	x1 = _mm_srli_si128(x1, 8);
	x1 = _mm_xor_si128(x1, x2);
	x0 = _mm_loadl_epi64((const __m128i *)(const void *)k5k0);
	x2 = _mm_srli_si128(x1, 4);
	x1 = _mm_and_si128(x1, x3);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	/* Barrett reduction to 32 bits */
	x0 = _mm_load_si128((const __m128i *)(const void *)poly);
	x2 = _mm_and_si128(x1, x3);
	x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
	x2 = _mm_and_si128(x2, x3);
	x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	return (uint32_t)_mm_extract_epi32(x1, 1);
}

static int
have_fold(void)
{
	static int have = -1;

	if (have < 0) {
		__builtin_cpu_init();
		have = __builtin_cpu_supports("pclmul") &&
		    __builtin_cpu_supports("sse4.1");
	}
	return have;
}

uint32_t
ssp_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (len >= FOLD_MIN && have_fold()) {
		size_t n = len & ~(size_t)15;

		crc = ~crc32_fold(p, n, ~crc);
		p += n;
		len -= n;
		if (len == 0)
			return crc;
	}
	return (uint32_t)crc32_z(crc, p, len);
}

#else

uint32_t
ssp_crc32(uint32_t crc, const void *buf, size_t len)
{
	return (uint32_t)crc32_z(crc, buf, len);
}

#endif
