/*
 * A record's values as OTLP attributes, for the two encoders (otlp_json.c,
 * otlp_pb.c), inline on their hot paths: decimal, hex, MAC and IPv4 text,
 * and the attributes a span, an event or a link gets besides its record's
 * fields.
 */
#ifndef SSP_OTLP_ATTR_H
#define SSP_OTLP_ATTR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "sink/otlp_int.h"
#include "stream/rec.h"
#include "stream/span.h"

/* The functions here are static, some not inline: both encoders use every
 * one, and the compiler inlines them or not as when they were in one
 * file with the encoders (callgrind counts within 1 %). */

static const char hexd[] = "0123456789abcdef";

/*
 * Decimal digits of v, written at a known length: the count from the bit
 * length, then groups of 8 digits, each made in one word without a table
 * (dig8) and stored at once, the leading zeros of the first shifted out.
 * Below 100 (most field values) from a table of digit pairs.  May write
 * up to 8 bytes at out even for fewer digits (every caller has that room:
 * the field reserves and the 24-byte scratch buffers).
 */
static const char dig2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static const uint64_t p10[20] = { 1ULL, 10ULL, 100ULL, 1000ULL,
    10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
    10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
    10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL, 10000000000000000000ULL };

/* Digits of v >= 1, 1 + floor(log10(v)). */
static inline ALWAYS_INLINE unsigned
ndigits(uint64_t v)
{
	unsigned t = (unsigned)(64 - __builtin_clzll(v)) * 1233 >> 12;

	return t + 1 - (v < p10[t]);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 digits of v < 10^8 as the bytes of a little-endian word, the
 * first digit in byte 0: halves of 4 digits in 32-bit lanes, split into
 * pairs in 16-bit lanes, then into digits in bytes (division by 100 and
 * 10 as multiplications, exact for these ranges), with no table. */
static inline ALWAYS_INLINE uint64_t
dig8(uint32_t v)
{
	uint64_t x = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
	uint64_t h = (x * 10486 >> 20) & 0x0000007f0000007fULL;	/* / 100 */
	uint64_t y = h | (x - 100 * h) << 16;
	uint64_t t = (y * 103 >> 10) & 0x000f000f000f000fULL;	/* / 10 */

	return (t | (y - 10 * t) << 8) + 0x3030303030303030ULL;
}

/* The 8 digits of v < 10^8 at p. */
static inline ALWAYS_INLINE void
put8w(char *p, uint32_t v)
{
	uint64_t w = dig8(v);

	memcpy(p, &w, 8);
}

/* The last n (1..8) of the 8 digits of v < 10^8 at p, in one 8-byte store
 * (the bytes after them are zeros). */
static inline ALWAYS_INLINE void
put_last(char *p, uint32_t v, unsigned n)
{
	uint64_t w = dig8(v) >> 8 * (8 - n);	/* leading zeros out */

	memcpy(p, &w, 8);
}
#else
static inline void
put8w(char *p, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	memcpy(p, dig2 + 2 * (hi / 100), 2);
	memcpy(p + 2, dig2 + 2 * (hi % 100), 2);
	memcpy(p + 4, dig2 + 2 * (lo / 100), 2);
	memcpy(p + 6, dig2 + 2 * (lo % 100), 2);
}

static inline void
put_last(char *p, uint32_t v, unsigned n)
{
	char d[8];

	put8w(d, v);
	memcpy(p, d + 8 - n, n);
}
#endif

static inline ALWAYS_INLINE size_t
fmt_u64(char *out, uint64_t v)
{
	unsigned n;

	if (v < 100) {		/* flags, sizes, ports */
		if (v < 10) {
			*out = (char)('0' + v);
			return 1;
		}
		memcpy(out, dig2 + 2 * v, 2);
		return 2;
	}
	n = ndigits(v);
	if (n <= 8) {
		put_last(out, (uint32_t)v, n);
		return n;
	}
	if (n <= 16) {		/* ps times, ids: two groups of 8 */
		uint64_t q = v / 100000000;

		put_last(out, (uint32_t)q, n - 8);
		put8w(out + n - 8, (uint32_t)(v - q * 100000000));
		return n;
	}
	{
		uint64_t q = v / 10000000000000000ULL, r;

		put_last(out, (uint32_t)q, n - 16);
		r = v - q * 10000000000000000ULL;
		q = r / 100000000;
		put8w(out + n - 16, (uint32_t)q);
		put8w(out + n - 8, (uint32_t)(r - q * 100000000));
	}
	return n;
}

static inline ALWAYS_INLINE size_t
fmt_i64(char *out, int64_t v)
{
	if (v >= 0)
		return fmt_u64(out, (uint64_t)v);
	out[0] = '-';
	return 1 + fmt_u64(out + 1, (uint64_t)0 - (uint64_t)v);
}

/* "0x" and the hex digits of v without leading zeros; writes 18 bytes. */
static size_t
hex_ascii(char *out, uint64_t v)
{
	size_t nd = v != 0 ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;
	char tmp[32];

	otlp_span_hex(tmp, v);
	out[0] = '0';
	out[1] = 'x';
	memcpy(out + 2, tmp + 16 - nd, 16);	/* nd digits matter */
	return nd + 2;
}

static size_t
mac_ascii(char *out, uint64_t v)
{
	int i;

	for (i = 0; i < 6; i++) {
		unsigned byte = (unsigned)(v >> (40 - 8 * i)) & 0xff;

		out[3 * i] = hexd[byte >> 4];
		out[3 * i + 1] = hexd[byte & 15];
		out[3 * i + 2] = ':';
	}
	return 17;
}

/* Dotted quad; writes 16 bytes.  Each octet is one 4-byte copy of its
 * digits and dots from a table. */
static const char octets[] =
    "0...1...2...3...4...5...6...7...8...9...10..11..12..13..14..15.."
    "16..17..18..19..20..21..22..23..24..25..26..27..28..29..30..31.."
    "32..33..34..35..36..37..38..39..40..41..42..43..44..45..46..47.."
    "48..49..50..51..52..53..54..55..56..57..58..59..60..61..62..63.."
    "64..65..66..67..68..69..70..71..72..73..74..75..76..77..78..79.."
    "80..81..82..83..84..85..86..87..88..89..90..91..92..93..94..95.."
    "96..97..98..99..100.101.102.103.104.105.106.107.108.109.110.111."
    "112.113.114.115.116.117.118.119.120.121.122.123.124.125.126.127."
    "128.129.130.131.132.133.134.135.136.137.138.139.140.141.142.143."
    "144.145.146.147.148.149.150.151.152.153.154.155.156.157.158.159."
    "160.161.162.163.164.165.166.167.168.169.170.171.172.173.174.175."
    "176.177.178.179.180.181.182.183.184.185.186.187.188.189.190.191."
    "192.193.194.195.196.197.198.199.200.201.202.203.204.205.206.207."
    "208.209.210.211.212.213.214.215.216.217.218.219.220.221.222.223."
    "224.225.226.227.228.229.230.231.232.233.234.235.236.237.238.239."
    "240.241.242.243.244.245.246.247.248.249.250.251.252.253.254.255.";

static inline size_t
octet(char *p, unsigned o, unsigned dot)
{
	memcpy(p, octets + 4 * o, 4);
	return 1 + (o >= 10) + (o >= 100) + dot;
}

static size_t
ipv4_ascii(char *out, uint64_t v)
{
	char *p = out;

	p += octet(p, (unsigned)(v >> 24) & 0xff, 1);
	p += octet(p, (unsigned)(v >> 16) & 0xff, 1);
	p += octet(p, (unsigned)(v >> 8) & 0xff, 1);
	p += octet(p, (unsigned)v & 0xff, 0);
	return (size_t)(p - out);
}

static void
av_int(struct av *x, const struct okey *k, int64_t v)
{
	x->k = k;
	x->type = AV_INT;
	x->i = v;
}

static void
av_bool(struct av *x, const struct okey *k)
{
	x->k = k;
	x->type = AV_BOOL;
	x->i = 1;
}

static int64_t
sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

struct spaninfo {
	struct av a[2], t[6];	/* before and after the record's fields */
	size_t na, nt;
	uint64_t start, end;
	int kind;
	const char *msg;	/* status message of an orphan, or NULL */
	size_t msglen;
};

static inline ALWAYS_INLINE void
span_info(struct ssp_otlp *o, const struct ftinfo *fi, const struct ssp_rec *r,
    struct spaninfo *si)
{
	int64_t end_ps = sat_add(r->ts, (int64_t)r->f[SSP_SF_DUR]);
	uint64_t flags = r->f[SSP_SF_FLAGS];
	const char *cause = NULL;
	size_t causelen = 0;

	if (o->opt.epoch_ns == 0 && r->ts >= 0 && end_ps >= r->ts) {
		si->start = (uint64_t)r->ts / 1000;	/* the same, simply */
		si->end = (uint64_t)end_ps / 1000;
	} else {
		si->start = otlp_ps_to_ns(r->ts, o->opt.epoch_ns);
		si->end = otlp_ps_to_ns(end_ps, o->opt.epoch_ns);
		if (si->end < si->start)
			si->end = si->start;
	}
	si->kind = fi->okind[fi->posted >= 0 && (unsigned)fi->posted < r->nf &&
	    r->f[fi->posted] == 1];
	si->na = si->nt = 0;
	av_int(&si->a[si->na++], &o->fkey[K_START_PS], r->ts);
	av_int(&si->a[si->na++], &o->fkey[K_END_PS], end_ps);
	si->msg = NULL;
	if (flags == 0 && r->f[SSP_SF_CAUSE] == 0)
		return;		/* most spans */
	if (flags & SSP_SPAN_ORPHAN)
		av_bool(&si->t[si->nt++], &o->fkey[K_ORPHAN]);
	if (flags & SSP_SPAN_OPEN)
		av_bool(&si->t[si->nt++], &o->fkey[K_OPEN]);
	if (flags & SSP_SPAN_BACKGROUND)
		av_bool(&si->t[si->nt++], &o->fkey[K_BACKGROUND]);
	if (flags & ~(uint64_t)(SSP_SPAN_ORPHAN | SSP_SPAN_OPEN |
	    SSP_SPAN_BACKGROUND))
		av_int(&si->t[si->nt++], &o->fkey[K_FLAGS], (int64_t)flags);
	if (r->f[SSP_SF_CAUSE] != 0 &&
	    (cause = ssp_rec_rd_str(o->rr, r->f[SSP_SF_CAUSE], &causelen)) != NULL) {
		struct av *x = &si->t[si->nt++];

		x->k = &o->fkey[K_CAUSE];
		x->type = AV_STR;
		x->s = cause;
		x->n = causelen;
	}
	if (flags & SSP_SPAN_ORPHAN) {
		ssp_buf_reset(&o->msg);
		ssp_buf_lit(&o->msg, "orphan: expected parent is missing");
		if (cause != NULL) {
			ssp_buf_lit(&o->msg, " (");
			ssp_buf_put(&o->msg, cause, causelen);
			ssp_buf_lit(&o->msg, ")");
		}
		si->msg = (const char *)o->msg.p;
		si->msglen = o->msg.len;
		if (o->msg.failed)
			si->msg = NULL;
	}
}

/* The attributes of an event before its fields. */
static size_t
event_head(struct ssp_otlp *o, const struct ssp_rec *r, uint64_t span_stream,
    struct av *a)
{
	size_t n = 0;
	uint64_t st = r->f[SSP_EF_STREAM];

	av_int(&a[n++], &o->fkey[K_TS_PS], r->ts);
	if (st != span_stream && st < o->nst) {
		a[n].k = &o->fkey[K_STREAM];
		a[n].type = AV_STR;
		a[n].s = o->st[st].name;
		a[n].n = o->st[st].namelen;
		n++;
	}
	return n;
}

static size_t
link_attrs(struct ssp_otlp *o, const struct litem *l, struct av *a)
{
	if (l->kind == 0 || (a[0].s = ssp_rec_rd_str(o->rr, l->kind, &a[0].n)) == NULL)
		return 0;
	a[0].k = &o->fkey[K_LINK_KIND];
	a[0].type = AV_STR;
	return 1;
}

#endif
