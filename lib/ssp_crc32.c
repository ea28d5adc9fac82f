#include <zlib.h>

#include "ssp_crc32.h"

#define MIN_SIMD 64	/* shorter buffers are not worth the setup */

static int portable;

int
ssp_crc32_portable(int on)
{
	int old = portable;

	portable = on;
	return old;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/*
 * Fold 16-byte blocks of buf (len >= 64, a multiple of 16) into the CRC.
 * crc and the result are in zlib's internal (bit-inverted) form.  The
 * constants are x^(4*128+32), x^(4*128-32), x^(128+32), x^(128-32),
 * x^64 mod P(x) and the Barrett constants of the bit-reflected polynomial
 * 0xedb88320, from the paper.
 */
__attribute__((target("pclmul,sse4.1")))
static uint32_t
crc32_clmul(uint32_t crc, const unsigned char *buf, size_t len)
{
	const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
	const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
	const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
	const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
	const __m128i mask32 = _mm_setr_epi32(~0, 0, ~0, 0);
	__m128i x0, x1, x2, x3, x4, x5, x6, x7, x8, y5, y6, y7, y8;

	x1 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x00));
	x2 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x10));
	x3 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x20));
	x4 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x30));
	x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
	x0 = k1k2;
	buf += 64;
	len -= 64;
	while (len >= 64) {	/* four independent folds per step */
		x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
		x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
		x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
		x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
		x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
		x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
		x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
		x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
		y5 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x00));
		y6 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x10));
		y7 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x20));
		y8 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x30));
		x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), y5);
		x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), y6);
		x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), y7);
		x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), y8);
		buf += 64;
		len -= 64;
	}
	/* fold the four lanes into one */
	x0 = k3k4;
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);
	while (len >= 16) {
		x2 = _mm_loadu_si128((const __m128i *)(const void *)buf);
		x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
		x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
		buf += 16;
		len -= 16;
	}
	/* 128 -> 64 bits */
	x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
	x0 = k5k0;
	x2 = _mm_srli_si128(x1, 4);
	x1 = _mm_and_si128(x1, mask32);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	/* Barrett reduction to 32 bits */
	x0 = poly;
	x2 = _mm_and_si128(x1, mask32);
	x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
	x2 = _mm_and_si128(x2, mask32);
	x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	return (uint32_t)_mm_extract_epi32(x1, 1);
}

static int
have_clmul(void)
{
	static int have = -1;

	if (have < 0) {
		__builtin_cpu_init();
		have = __builtin_cpu_supports("pclmul") &&
		    __builtin_cpu_supports("sse4.1");
	}
	return have;
}
#endif

uint32_t
ssp_crc32(uint32_t crc, const void *p, size_t n)
{
	const unsigned char *b = p;

	if (n == 0)	/* zlib's crc32 returns 0 for a NULL buffer, not crc */
		return crc;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (n >= MIN_SIMD && !portable && have_clmul()) {
		size_t k = n & ~(size_t)15;

		crc = ~crc32_clmul(~crc, b, k);
		b += k;
		n -= k;
	}
#endif
	return (uint32_t)crc32_z(crc, b, n);
}
