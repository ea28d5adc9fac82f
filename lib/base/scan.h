/*
 * Number and literal scanners for the log parsers' hot paths: bounded by
 * an explicit end pointer, no locale, no errno, no sscanf/strtoull.  Each
 * returns 0 and advances *pp on success, -1 and leaves *pp alone on
 * failure (no digit, overflow).  Header-only: they sit in every parser's
 * inner loop.
 */
#ifndef SSP_SCAN_H
#define SSP_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline int
ssp_isdigit(int c)
{
	return (unsigned)c - '0' < 10;
}

/* Value of a hex digit (either case), or -1. */
static inline int
ssp_hexval(int c)
{
	if ((unsigned)c - '0' < 10)
		return c - '0';
	c |= 0x20;
	if ((unsigned)c - 'a' < 6)
		return c - 'a' + 10;
	return -1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SSP_SWAR 1
#define SSP_ONES 0x0101010101010101ULL
#define SSP_HIGH 0x8080808080808080ULL

static inline uint64_t
ssp_load8(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* 0x80 in each byte of v that lies in [lo, hi] (bytes must be < 0x80). */
static inline uint64_t
ssp_swar_range(uint64_t v, unsigned lo, unsigned hi)
{
	return (v + (0x80 - lo) * SSP_ONES) & ~(v + (0x7f - hi) * SSP_ONES) & SSP_HIGH;
}

/* How many leading bytes of v are decimal digits (0..8). */
static inline unsigned
ssp_swar_ndigits(uint64_t v)
{
	uint64_t ok = v & SSP_HIGH ? 0 : ssp_swar_range(v, '0', '9');
	uint64_t bad = ~ok & SSP_HIGH;

	if (v & SSP_HIGH) {	/* bytes >= 0x80: fall back to a byte loop */
		unsigned n = 0;

		while (n < 8 && (unsigned)((v >> (8 * n)) & 0xff) - '0' < 10)
			n++;
		return n;
	}
	return bad ? (unsigned)__builtin_ctzll(bad) / 8 : 8;
}

/* The value of the first n (1..8) digit bytes of v. */
static inline uint64_t
ssp_swar_dec(uint64_t v, unsigned n)
{
	v -= 0x3030303030303030ULL;
	v <<= 8 * (8 - n);	/* drop what follows the digits; zeros lead */
	v = v * 10 + (v >> 8);
	v = (((v & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32))) +
	    (((v >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32)))) >> 32;
	return v;
}

/* 0x80 in each byte of v that is a hex digit (either case). */
static inline uint64_t
ssp_swar_hexmask(uint64_t v)
{
	if (v & SSP_HIGH) {
		uint64_t m = 0;
		unsigned i;

		for (i = 0; i < 8; i++) {
			unsigned c = (unsigned)(v >> (8 * i)) & 0xff;

			if (c - '0' < 10 || (c | 0x20) - 'a' < 6)
				m |= 0x80ULL << (8 * i);
		}
		return m;
	}
	return ssp_swar_range(v, '0', '9') | ssp_swar_range(v | 0x2020202020202020ULL, 'a', 'f');
}

/* The value of the first n (1..8) hex digit bytes of v. */
static inline uint64_t
ssp_swar_hex(uint64_t v, unsigned n)
{
	uint64_t x = (v & 0x0f0f0f0f0f0f0f0fULL) + 9 * ((v >> 6) & SSP_ONES);

	if (n < 8)	/* zero what follows: it could spill into a digit */
		x &= (1ULL << (8 * n)) - 1;
	x = __builtin_bswap64(x);	/* first digit most significant */
	x = (x >> 4 | x) & 0x00ff00ff00ff00ffULL;
	x = (x >> 8 | x) & 0x0000ffff0000ffffULL;
	x = (x >> 16 | x) & 0xffffffffULL;
	return x >> (4 * (8 - n));
}
#endif

/* One or more decimal digits into a uint64_t. */
static inline int
ssp_scan_dec(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t r = 0;
	unsigned d;

#ifdef SSP_SWAR
	if (end - p >= 16) {
		uint64_t a = ssp_load8(p);
		unsigned n = ssp_swar_ndigits(a), m;

		if (n == 0)
			return -1;
		if (n < 8) {
			*v = ssp_swar_dec(a, n);
			*pp = p + n;
			return 0;
		}
		a = ssp_swar_dec(a, 8);
		m = ssp_swar_ndigits(ssp_load8(p + 8));
		if (m < 8) {
			static const uint64_t p10[8] = { 1, 10, 100, 1000, 10000,
			    100000, 1000000, 10000000 };

			*v = m ? a * p10[m] + ssp_swar_dec(ssp_load8(p + 8), m) : a;
			*pp = p + 8 + m;
			return 0;
		}
		/* 16 digits or more: the careful loop below */
	}
#endif
	if (p >= end || !ssp_isdigit(*p))
		return -1;
	/* 19 digits cannot overflow: take them without checks. */
	while (p < end && (d = (unsigned)*p - '0') < 10 && p - *pp < 19) {
		r = r * 10 + d;
		p++;
	}
	while (p < end && (d = (unsigned)*p - '0') < 10) {
		if (r > (UINT64_MAX - d) / 10)
			return -1;
		r = r * 10 + d;
		p++;
	}
	*pp = p;
	*v = r;
	return 0;
}

/* Decimal digits of a small number (asid, thread, micro-op): a plain
 * loop beats the SWAR setup for one or two digits.  At most 9 digits. */
static inline int
ssp_scan_small(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t r = 0;
	unsigned d;

	if (p >= end || (d = (unsigned)*p - '0') >= 10)
		return -1;
	do {
		r = r * 10 + d;
		p++;
	} while (p < end && (d = (unsigned)*p - '0') < 10 && p - *pp < 9);
	if (p < end && ssp_isdigit(*p))
		return -1;
	*pp = p;
	*v = r;
	return 0;
}

/* Optional '-' then decimal digits, into an int64_t. */
static inline int
ssp_scan_sdec(const char **pp, const char *end, int64_t *v)
{
	const char *p = *pp;
	uint64_t u;
	int neg = 0;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	if (ssp_scan_dec(&p, end, &u) != 0)
		return -1;
	if (neg ? u > (uint64_t)INT64_MAX + 1 : u > (uint64_t)INT64_MAX)
		return -1;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	*pp = p;
	return 0;
}

/* One or more hex digits (no prefix) into a uint64_t. */
static inline int
ssp_scan_hex(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t r = 0;
	int d;

#ifdef SSP_SWAR
	if (end - p >= 17) {
		uint64_t a = ssp_load8(p), b, ma = ssp_swar_hexmask(a), mb;
		unsigned na = ma == SSP_HIGH ? 8 :
		    (unsigned)__builtin_ctzll(~ma & SSP_HIGH) / 8, nb = 0;

		if (na == 0)
			return -1;
		if (na == 8) {
			b = ssp_load8(p + 8);
			mb = ssp_swar_hexmask(b);
			nb = mb == SSP_HIGH ? 8 :
			    (unsigned)__builtin_ctzll(~mb & SSP_HIGH) / 8;
			if (nb == 8 && ssp_hexval(p[16]) >= 0)
				goto slow;	/* more than 16 digits */
			*v = nb ? ssp_swar_hex(a, 8) << (4 * nb) | ssp_swar_hex(b, nb) :
			    ssp_swar_hex(a, 8);
		} else {
			*v = ssp_swar_hex(a, na);
		}
		*pp = p + na + nb;
		return 0;
	}
slow:
#endif
	if (p >= end || (d = ssp_hexval(*p)) < 0)
		return -1;
	do {
		if (r >> 60)
			return -1;	/* more than 64 bits */
		r = r << 4 | (uint64_t)d;
		p++;
	} while (p < end && (d = ssp_hexval(*p)) >= 0);
	*pp = p;
	*v = r;
	return 0;
}

/* Match a literal. */
static inline int
ssp_scan_lit(const char **pp, const char *end, const char *lit, size_t n)
{
	if ((size_t)(end - *pp) < n || memcmp(*pp, lit, n) != 0)
		return -1;
	*pp += n;
	return 0;
}

#define SSP_LIT(pp, end, s) ssp_scan_lit((pp), (end), (s), sizeof(s) - 1)

/* Does [p, end) start with the literal s? */
#define SSP_HAS(p, end, s) \
	((size_t)((end) - (p)) >= sizeof(s) - 1 && memcmp((p), (s), sizeof(s) - 1) == 0)

/* "0x" then hex digits. */
static inline int
ssp_scan_0xhex(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;

	if (SSP_LIT(&p, end, "0x") != 0 || ssp_scan_hex(&p, end, v) != 0)
		return -1;
	*pp = p;
	return 0;
}

/* Skip spaces; returns how many. */
static inline size_t
ssp_skip_sp(const char **pp, const char *end)
{
	const char *p = *pp;

	while (p < end && *p == ' ')
		p++;
	end = *pp;
	*pp = p;
	return (size_t)(p - end);
}

/* Find the two-byte separator ": " in [p, end); NULL if absent. */
static inline const char *
ssp_find_colsp(const char *p, const char *end)
{
	while (p < end) {
		const char *c = memchr(p, ':', (size_t)(end - p));

		if (c == NULL || c + 1 >= end)
			return NULL;
		if (c[1] == ' ')
			return c;
		p = c + 1;
	}
	return NULL;
}

#endif
