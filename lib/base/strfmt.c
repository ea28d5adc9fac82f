#include <string.h>

#include "base/strfmt.h"

/* Length of the valid UTF-8 sequence starting at s (n > 0), 0 if invalid. */
static size_t
utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	unsigned lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

size_t
ssp_strfmt_utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = utf8_seq(s + i, n - i)) == 0)
			break;
		i += k;
	}
	return i;
}

void
ssp_strfmt_utf8_repair(struct ssp_buf *b, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k;

	while (i < n) {
		k = ssp_strfmt_utf8_valid((const char *)s + i, n - i);
		ssp_buf_put(b, s + i, k);
		i += k;
		if (i < n) {
			ssp_buf_lit(b, "\xef\xbf\xbd");
			i++;	/* resynchronise on the next byte */
		}
	}
}

/* 0: copy as is, 1: escape, 2: start of a multi-byte sequence */
static const unsigned char jclass[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

static void
put_u(struct ssp_buf *b, unsigned c)
{
	static const char hex[] = "0123456789abcdef";
	char u[6] = { '\\', 'u', '0', '0', hex[c >> 4 & 15], hex[c & 15] };

	ssp_buf_put(b, u, sizeof(u));
}

__attribute__((always_inline)) static inline void
json_str(struct ssp_buf *b, const char *str, size_t n, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	int ctl = (flags & SSP_STRFMT_CTL_U) != 0;
	size_t i = 0, run, k;

	ssp_buf_putc(b, '"');
	while (i < n) {
		for (run = i; run < n && jclass[s[run]] == 0 &&
		    !(ctl && s[run] == 0x7f); run++)
			;
		ssp_buf_put(b, s + i, run - i);
		if ((i = run) >= n)
			break;
		if (jclass[s[i]] == 2) {
			if ((k = utf8_seq(s + i, n - i)) != 0)
				ssp_buf_put(b, s + i, k);
			else if (flags & SSP_STRFMT_BAD_ESC)
				ssp_buf_lit(b, "\\ufffd");
			else
				ssp_buf_lit(b, "\xef\xbf\xbd");
			i += k != 0 ? k : 1;
			continue;
		}
		if (ctl && (s[i] == '\b' || s[i] == '\f'))
			put_u(b, s[i]);
		else
			switch (s[i]) {
			case '"': ssp_buf_lit(b, "\\\""); break;
			case '\\': ssp_buf_lit(b, "\\\\"); break;
			case '\n': ssp_buf_lit(b, "\\n"); break;
			case '\r': ssp_buf_lit(b, "\\r"); break;
			case '\t': ssp_buf_lit(b, "\\t"); break;
			case '\b': ssp_buf_lit(b, "\\b"); break;
			case '\f': ssp_buf_lit(b, "\\f"); break;
			default: put_u(b, s[i]);
			}
		i++;
	}
	ssp_buf_putc(b, '"');
}

void
ssp_strfmt_json_str(struct ssp_buf *b, const char *s, size_t n)
{
	json_str(b, s, n, 0);
}

void
ssp_strfmt_json_str_flags(struct ssp_buf *b, const char *s, size_t n,
    unsigned flags)
{
	json_str(b, s, n, flags);
}

static const char digits2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static inline void
put2(char *p, uint32_t v)
{
	memcpy(p, digits2 + 2 * v, 2);
}

/* Exactly 8 digits of v < 10^8, with 32-bit arithmetic. */
static inline void
put8(char *p, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	put2(p, hi / 100);
	put2(p + 2, hi % 100);
	put2(p + 4, lo / 100);
	put2(p + 6, lo % 100);
}

/* v < 10^8, no leading zeros. */
static size_t
dec32(char *out, uint32_t v)
{
	size_t n = v >= 10000 ? (v >= 1000000 ? (v >= 10000000 ? 8 : 7) :
	    (v >= 100000 ? 6 : 5)) : (v >= 100 ? (v >= 1000 ? 4 : 3) :
	    (v >= 10 ? 2 : 1));
	char *p = out + n;

	while (v >= 100) {
		p -= 2;
		put2(p, v % 100);
		v /= 100;
	}
	if (v >= 10)
		put2(p - 2, v);
	else
		p[-1] = (char)('0' + v);
	return n;
}

size_t
ssp_strfmt_u64(char *out, uint64_t v)
{
	size_t n;

	if (v < 100000000)
		return dec32(out, (uint32_t)v);
	if (v < 10000000000000000ull) {
		n = dec32(out, (uint32_t)(v / 100000000));
		put8(out + n, (uint32_t)(v % 100000000));
		return n + 8;
	}
	n = dec32(out, (uint32_t)(v / 10000000000000000ull));
	put8(out + n, (uint32_t)(v / 100000000 % 100000000));
	put8(out + n + 8, (uint32_t)(v % 100000000));
	return n + 16;
}

size_t
ssp_strfmt_i64(char *out, int64_t v)
{
	if (v >= 0)
		return ssp_strfmt_u64(out, (uint64_t)v);
	out[0] = '-';
	return 1 + ssp_strfmt_u64(out + 1, (uint64_t)0 - (uint64_t)v);
}

/* --- reader -------------------------------------------------------------- */

#define MAXDEPTH 64

static const char *
ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

static const char *
skip_str(const char *p, const char *end)
{
	if (p >= end || *p != '"')
		return NULL;
	for (p++; p < end; p++) {
		if (*p == '\\') {
			if (++p >= end)
				return NULL;
		} else if (*p == '"')
			return p + 1;
		else if ((unsigned char)*p < 0x20)
			return NULL;
	}
	return NULL;
}

static const char *
skip_value(const char *p, const char *end, int depth)
{
	if ((p = ws(p, end)) >= end || depth > MAXDEPTH)
		return NULL;
	switch (*p) {
	case '"':
		return skip_str(p, end);
	case '{':
	case '[': {
		char close = *p == '{' ? '}' : ']';
		int obj = *p == '{';

		p = ws(p + 1, end);
		if (p < end && *p == close)
			return p + 1;
		for (;;) {
			if (obj) {
				if ((p = skip_str(ws(p, end), end)) == NULL ||
				    (p = ws(p, end)) >= end || *p++ != ':')
					return NULL;
			}
			if ((p = skip_value(p, end, depth + 1)) == NULL ||
			    (p = ws(p, end)) >= end)
				return NULL;
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	}
	default: {
		const char *q = p;

		while (q < end && (*q == '-' || *q == '+' || *q == '.' ||
		    (*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'z') ||
		    *q == 'E'))
			q++;
		if (q == p)
			return NULL;
		if ((*p >= 'a' && *p <= 'z') && !((q - p == 4 &&
		    (memcmp(p, "true", 4) == 0 || memcmp(p, "null", 4) == 0)) ||
		    (q - p == 5 && memcmp(p, "false", 5) == 0)))
			return NULL;
		return q;
	}
	}
}

int
ssp_strfmt_json_find(const char *s, size_t n, const char *const *path, size_t depth,
    const char **val, size_t *vlen)
{
	const char *p = ws(s, s + n), *end = s + n, *k, *v;
	char key[128];

	if (depth == 0 || p >= end || *p != '{')
		return -1;
	p = ws(p + 1, end);
	if (p < end && *p == '}')
		return 0;
	for (;;) {
		k = ws(p, end);
		if ((p = skip_str(k, end)) == NULL)
			return -1;
		if (ssp_strfmt_json_unquote(k, (size_t)(p - k), key, sizeof(key)) != 0)
			return -1;
		if ((p = ws(p, end)) >= end || *p++ != ':')
			return -1;
		v = ws(p, end);
		if ((p = skip_value(v, end, 0)) == NULL)
			return -1;
		if (strcmp(key, path[0]) == 0) {
			if (depth == 1) {
				*val = v;
				*vlen = (size_t)(p - v);
				return 1;
			}
			if (*v != '{')
				return 0;
			return ssp_strfmt_json_find(v, (size_t)(p - v), path + 1,
			    depth - 1, val, vlen);
		}
		if ((p = ws(p, end)) >= end)
			return -1;
		if (*p == '}')
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
ssp_strfmt_json_unquote(const char *val, size_t vlen, char *out, size_t outsz)
{
	size_t i, o = 0;

	if (outsz == 0 || vlen < 2 || val[0] != '"' || val[vlen - 1] != '"')
		return -1;
	for (i = 1; i + 1 < vlen; i++) {
		char c = val[i];

		if (c == '\\' && i + 2 < vlen) {
			c = val[++i];
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u': {
				int h[4], k;
				unsigned u = 0;

				if (i + 4 > vlen - 2)
					return -1;
				for (k = 0; k < 4; k++)
					if ((h[k] = hexval(val[i + 1 + k])) < 0)
						return -1;
				for (k = 0; k < 4; k++)
					u = u << 4 | (unsigned)h[k];
				i += 4;
				/* Non-ASCII escapes are not needed for the
				 * messages we show: keep a placeholder. */
				c = u < 0x80 && u >= 0x20 ? (char)u : '?';
				break;
			}
			default: break;	/* \" \\ \/ */
			}
		}
		if (o + 1 < outsz)
			out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

int
ssp_strfmt_json_int(const char *val, size_t vlen, int64_t *out)
{
	char buf[32];
	size_t i = 0;
	int neg = 0;
	uint64_t v = 0;

	if (vlen >= 2 && val[0] == '"') {
		if (ssp_strfmt_json_unquote(val, vlen, buf, sizeof(buf)) != 0)
			return -1;
	} else {
		if (vlen == 0 || vlen >= sizeof(buf))
			return -1;
		memcpy(buf, val, vlen);
		buf[vlen] = '\0';
	}
	if (buf[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (buf[i] == '\0')
		return -1;
	for (; buf[i] != '\0'; i++) {
		if (buf[i] < '0' || buf[i] > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(buf[i] - '0');
	}
	if (v > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}
