#include <zlib.h>

#include "base/crc32.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#include <pthread.h>

#define FOLD_MIN 64
#define WIDE_MIN 512

/*
 * Folding constants: for a distance of d bits, x^(d+32) and x^(d-32)
 * modulo the polynomial, bit-reflected and shifted left by one (Intel's
 * paper).  The first multiplies the low half of a 128-bit lane, the
 * second the high half.
 */
#define K512_LO  0x0154442bd4ULL	/* d = 512: four lanes ahead */
#define K512_HI  0x01c6e41596ULL
#define K2048_LO 0x011542778aULL	/* d = 2048: sixteen lanes ahead */
#define K2048_HI 0x01322d1430ULL

/*
 * The rest of a fold: x1..x4 hold the first bytes (oldest in x1), then
 * len bytes (a multiple of 16) follow at buf.  Returns the inverted
 * state.
 */
__attribute__((target("pclmul,sse4.1"), always_inline))
static inline uint32_t
fold_lanes(__m128i x1, __m128i x2, __m128i x3, __m128i x4,
    const unsigned char *buf, size_t len)
{
	static const uint64_t k1k2[2] __attribute__((aligned(16))) =
	    { K512_LO, K512_HI };
	static const uint64_t k3k4[2] __attribute__((aligned(16))) =
	    { 0x01751997d0ULL, 0x00ccaa009eULL };
	static const uint64_t k5k0[2] __attribute__((aligned(16))) =
	    { 0x0163cd6124ULL, 0 };
	static const uint64_t poly[2] __attribute__((aligned(16))) =
	    { 0x01db710641ULL, 0x01f7011641ULL };
	__m128i x0, x5, x6, x7, x8;

	x0 = _mm_load_si128((const __m128i *)(const void *)k1k2);
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

/*
 * crc of len bytes (len >= 64, a multiple of 16), crc being the inverted
 * running state; returns the inverted state.
 */
__attribute__((target("pclmul,sse4.1")))
static uint32_t
crc32_fold(const unsigned char *buf, size_t len, uint32_t crc)
{
	__m128i x1, x2, x3, x4;

	x1 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x00));
	x2 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x10));
	x3 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x20));
	x4 = _mm_loadu_si128((const __m128i *)(const void *)(buf + 0x30));
	x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
	return fold_lanes(x1, x2, x3, x4, buf + 64, len - 64);
}

/* z folded by the distance of k, onto data. */
__attribute__((target("avx512f,vpclmulqdq"), always_inline))
static inline __m512i
fold512(__m512i z, __m512i k, __m512i data)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(z, k, 0x00),
	    _mm512_clmulepi64_epi128(z, k, 0x11), data, 0x96);	/* a ^ b ^ c */
}

/*
 * The same for len >= WIDE_MIN with VPCLMULQDQ: four 512-bit registers
 * (sixteen lanes) folded 256 bytes at a time, then into four lanes.
 */
__attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.1")))
static uint32_t
crc32_fold_wide(const unsigned char *buf, size_t len, uint32_t crc)
{
	const __m512i k2048 = _mm512_broadcast_i32x4(_mm_set_epi64x(
	    (long long)K2048_HI, (long long)K2048_LO));
	const __m512i k512 = _mm512_broadcast_i32x4(_mm_set_epi64x(
	    (long long)K512_HI, (long long)K512_LO));
	__m512i z0, z1, z2, z3;

	z0 = _mm512_loadu_si512(buf);
	z1 = _mm512_loadu_si512(buf + 64);
	z2 = _mm512_loadu_si512(buf + 128);
	z3 = _mm512_loadu_si512(buf + 192);
	z0 = _mm512_xor_si512(z0, _mm512_inserti32x4(_mm512_setzero_si512(),
	    _mm_cvtsi32_si128((int)crc), 0));
	for (buf += 256, len -= 256; len >= 256; buf += 256, len -= 256) {
		z0 = fold512(z0, k2048, _mm512_loadu_si512(buf));
		z1 = fold512(z1, k2048, _mm512_loadu_si512(buf + 64));
		z2 = fold512(z2, k2048, _mm512_loadu_si512(buf + 128));
		z3 = fold512(z3, k2048, _mm512_loadu_si512(buf + 192));
	}
	z1 = fold512(z0, k512, z1);	/* four registers into one */
	z2 = fold512(z1, k512, z2);
	z3 = fold512(z2, k512, z3);
	return fold_lanes(_mm512_extracti32x4_epi32(z3, 0),
	    _mm512_extracti32x4_epi32(z3, 1), _mm512_extracti32x4_epi32(z3, 2),
	    _mm512_extracti32x4_epi32(z3, 3), buf, len);
}

/* What the CPU has, looked at once (by whichever thread computes a CRC
 * first). */
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
static int fold_ok, wide_ok;

static void
cpu_check(void)
{
	__builtin_cpu_init();
	fold_ok = __builtin_cpu_supports("pclmul") &&
	    __builtin_cpu_supports("sse4.1");
	wide_ok = fold_ok && __builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("vpclmulqdq");
}

static int
have_fold(void)
{
	pthread_once(&cpu_once, cpu_check);
	return fold_ok;
}

static int
have_wide(void)
{
	pthread_once(&cpu_once, cpu_check);
	return wide_ok;
}

uint32_t
ssp_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (len >= FOLD_MIN && have_fold()) {
		size_t n = len & ~(size_t)15;

		crc = len >= WIDE_MIN && have_wide() ? ~crc32_fold_wide(p, n, ~crc) :
		    ~crc32_fold(p, n, ~crc);
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
