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

/* One or more decimal digits into a uint64_t. */
static inline int
ssp_scan_dec(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t r = 0;
	unsigned d;

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
