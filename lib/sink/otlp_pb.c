/*
 * A request in protobuf (otlp.h; the field numbers are in otlp_int.h),
 * written as protobuf's encoders write it: fields in field-number order,
 * lengths in their shortest form, backpatched (most spans and events in
 * place: two bytes are left for them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/strfmt.h"
#include "base/varint.h"
#include "sink/otlp_attr.h"
#include "sink/otlp_int.h"
#include "sink/pb.h"
#include "stream/rec.h"
#include "stream/span.h"

/* String id of the stream as protobuf string: as is when it is valid
 * UTF-8 (known per id after the first check), else repaired into o->tmp.
 * NULL when out of memory. */
static const char *
pb_str(struct ssp_otlp *o, uint64_t id, const char *s, size_t *n)
{
	struct strc *c = strc_get(o, id);
	int ok;

	if (c != NULL && c->pb == 1)
		return s;
	ok = ssp_strfmt_utf8_valid(s, *n) == *n;
	if (c != NULL)
		c->pb = ok ? 1 : 2;
	if (ok)
		return s;
	ssp_buf_reset(&o->tmp);
	ssp_strfmt_utf8_repair(&o->tmp, s, *n);
	if (o->tmp.failed)
		return NULL;
	*n = o->tmp.len;
	return (const char *)o->tmp.p;
}

/* A string field whose bytes came from the stream: must be valid UTF-8. */
static void
pb_text(struct ssp_otlp *o, struct ssp_buf *b, uint32_t field, const char *s,
    size_t n)
{
	if (ssp_strfmt_utf8_valid(s, n) == n) {
		ssp_pb_bytes(b, field, s, n);
		return;
	}
	ssp_buf_reset(&o->tmp);
	ssp_strfmt_utf8_repair(&o->tmp, s, n);
	ssp_pb_bytes(b, field, o->tmp.p, o->tmp.len);
}

/* Bytes of the varint v: 1 + floor(log2(v) / 7). */
static inline size_t
vsize(uint64_t v)
{
	return ((size_t)(63 - __builtin_clzll(v | 1)) * 9 + 73) / 64;
}

/*
 * One KeyValue as repeated field `tag` (a one-byte tag: fields below 16)
 * up to its AnyValue's payload of avlen bytes: the tag, the KeyValue's
 * length, the key (precomputed), the AnyValue's tag and length.  Each
 * pb_kv_* writes at most key->plen + PB_KV_SLACK bytes (strings: plus
 * their length beyond 24).
 */
static inline ALWAYS_INLINE uint8_t *
pb_kv(uint8_t *p, uint8_t tag, const struct okey *k, size_t avlen)
{
	*p++ = tag;
	p = ssp_varint_put_fast(p, k->plen + 1 + vsize(avlen) + avlen);
	if (k->plen <= FRAG)
		memcpy(p, k->pb, FRAG);
	else
		memcpy(p, k->pb, k->plen);
	p += k->plen;
	*p++ = TAG1(F_KV_VALUE, SSP_PB_LEN);
	return ssp_varint_put_fast(p, avlen);
}

/* The same when the KeyValue's length takes one byte (k->pb1, avlen of
 * at most 120 - k->plen): the key and AnyValue tag in one fixed copy. */
static inline ALWAYS_INLINE uint8_t *
pb_kv1(uint8_t *p, uint8_t tag, const struct okey *k, size_t avlen)
{
	p[0] = tag;
	p[1] = (uint8_t)(k->plen + 2 + avlen);
	memcpy(p + 2, k->pb, PBFRAG);
	p += 3 + k->plen;
	*p++ = (uint8_t)avlen;
	return p;
}

static inline ALWAYS_INLINE uint8_t *
pb_kv_int(uint8_t *p, uint8_t tag, const struct okey *k, uint64_t v)
{
	size_t vs = vsize(v);

	if (__builtin_expect(k->pb1, 1)) {
		p = pb_kv1(p, tag, k, 1 + vs);
		*p++ = TAG1(F_AV_INT, SSP_PB_VARINT);
		return ssp_varint_put_fast(p, v);
	}
	p = pb_kv(p, tag, k, 1 + vs);
	*p++ = TAG1(F_AV_INT, SSP_PB_VARINT);
	return ssp_varint_put_fast(p, v);
}

static inline ALWAYS_INLINE uint8_t *
pb_kv_bool(uint8_t *p, uint8_t tag, const struct okey *k, int v)
{
	p = k->pb1 ? pb_kv1(p, tag, k, 2) : pb_kv(p, tag, k, 2);
	*p++ = TAG1(F_AV_BOOL, SSP_PB_VARINT);
	*p++ = (uint8_t)(v != 0);
	return p;
}

static inline ALWAYS_INLINE uint8_t *
pb_kv_str(uint8_t *p, uint8_t tag, const struct okey *k, const char *s,
    size_t n)
{
	if (__builtin_expect(k->pb1 && n <= 118 - k->plen, 1)) {
		p = pb_kv1(p, tag, k, 2 + n);
		*p++ = TAG1(F_AV_STRING, SSP_PB_LEN);
		*p++ = (uint8_t)n;
	} else {
		p = pb_kv(p, tag, k, 1 + vsize(n) + n);
		*p++ = TAG1(F_AV_STRING, SSP_PB_LEN);
		p = ssp_varint_put_fast(p, n);
	}
	memcpy(p, s, n);
	return p + n;
}

/* "0x" and hex digits (hex_ascii) as a string value, formatted in place. */
static inline ALWAYS_INLINE uint8_t *
pb_kv_hex(uint8_t *p, uint8_t tag, const struct okey *k, uint64_t v)
{
	size_t n = 2 + (v != 0 ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1);

	if (!__builtin_expect(k->pb1, 1)) {
		char tmp[32];

		n = hex_ascii(tmp, v);
		return pb_kv_str(p, tag, k, tmp, n);
	}
	p = pb_kv1(p, tag, k, 2 + n);
	*p++ = TAG1(F_AV_STRING, SSP_PB_LEN);
	*p++ = (uint8_t)n;
	return p + hex_ascii((char *)p, v);
}

/* Fields [from, nf) of a record as KeyValue fields `tag`, written directly
 * (the protobuf twin of json_fields).  Absent values (-1 in 'i' fields,
 * 0 in 's', 'm' and 'a' fields) are left out; 'u' values above INT64_MAX
 * and 'x', 'm', 'a' values are strings. */
static void
pb_fields(struct ssp_otlp *o, struct ssp_buf *b, const struct ftinfo *fi,
    const struct ssp_rec *r, unsigned from, uint8_t tag)
{
	unsigned k, nf = r->nf < fi->nf ? r->nf : fi->nf;
	uint8_t *p;

	if (ssp_buf_reserve(b, fi->pbmax) != 0)
		return;
	p = b->p + b->len;
	for (k = from; k < nf; k++) {
		const struct okey *key = &fi->key[k];
		uint64_t v = r->f[k];
		const char *s;
		char tmp[32];
		size_t n;

		switch (fi->enc[k]) {
		case SSP_ENC_I:
			if ((int64_t)v == -1)	/* absent */
				continue;
			p = pb_kv_int(p, tag, key, v);
			break;
		case SSP_ENC_U:
			if (v > (uint64_t)INT64_MAX) {	/* int64 can't hold it */
				n = ssp_strfmt_u64(tmp, v);
				p = pb_kv_str(p, tag, key, tmp, n);
			} else
				p = pb_kv_int(p, tag, key, v);
			break;
		case SSP_ENC_X:
			p = pb_kv_hex(p, tag, key, v);
			break;
		case SSP_ENC_B:
			p = pb_kv_bool(p, tag, key, v != 0);
			break;
		case SSP_ENC_M:
			if (v == 0)
				continue;
			n = mac_ascii(tmp, v);
			p = pb_kv_str(p, tag, key, tmp, n);
			break;
		case SSP_ENC_A:
			if (v == 0)
				continue;
			n = ipv4_ascii(tmp, v);
			p = pb_kv_str(p, tag, key, tmp, n);
			break;
		case SSP_ENC_S:
			if (v == 0 || (s = ssp_rec_rd_str(o->rr, v, &n)) == NULL)
				continue;
			b->len = (size_t)(p - b->p);
			if ((s = pb_str(o, v, s, &n)) == NULL) {
				b->failed = 1;
				return;
			}
			if (ssp_buf_reserve(b, n + fi->pbmax) != 0)
				return;
			p = pb_kv_str(b->p + b->len, tag, key, s, n);
			break;
		default:	/* 't' and anything newer: a signed integer */
			p = pb_kv_int(p, tag, key, v);
			break;
		}
	}
	b->len = (size_t)(p - b->p);
}

/* KeyValue messages as repeated field `field` (< 16), written through a
 * cursor after one reserve per attribute, as the JSON writers do. */
static void
pb_attrs(struct ssp_otlp *o, struct ssp_buf *b, uint32_t field,
    const struct av *a, size_t n)
{
	const uint8_t tag = TAG1(field, SSP_PB_LEN);
	size_t i;

	for (i = 0; i < n; i++) {
		const struct av *x = &a[i];
		const char *s = x->tmp;
		size_t sn = x->type == AV_INT || x->type == AV_BOOL ? 0 : x->n;
		uint8_t *p;

		if (x->type == AV_STR) {
			s = x->s;
			if (ssp_strfmt_utf8_valid(s, sn) != sn) {
				ssp_buf_reset(&o->tmp);
				ssp_strfmt_utf8_repair(&o->tmp, s, sn);
				if (o->tmp.failed) {
					b->failed = 1;
					return;
				}
				s = (const char *)o->tmp.p;
				sn = o->tmp.len;
			}
		}
		if (ssp_buf_reserve(b, x->k->plen + PB_KV_SLACK + sn) != 0)
			return;
		p = b->p + b->len;
		switch (x->type) {
		case AV_INT:
			p = pb_kv_int(p, tag, x->k, (uint64_t)x->i);
			break;
		case AV_BOOL:
			p = pb_kv_bool(p, tag, x->k, x->i != 0);
			break;
		default:
			p = pb_kv_str(p, tag, x->k, s, sn);
			break;
		}
		b->len = (size_t)(p - b->p);
	}
}

static inline void
be64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
#else
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
#endif
}

/* fixed64: little-endian on the wire */
static inline void
le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, 8);
#else
	int i;

	for (i = 0; i < 8; i++) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
#endif
}

/* The length of a message begun with two bytes left for it at body - 2:
 * in place when it takes two bytes (most spans), else ssp_pb_end moves
 * the body. */
static inline void
pb_end2(struct ssp_buf *b, size_t body)
{
	size_t n = b->len - body;

	if (!b->failed && n >= 0x80 && n < 0x4000) {
		b->p[body - 2] = (uint8_t)(n | 0x80);
		b->p[body - 1] = (uint8_t)(n >> 7);
	} else {
		struct ssp_pb_mark m = { .body = body, .hint = 2 };

		ssp_pb_end(b, m);
	}
}

static void
pb_span(struct ssp_otlp *o, struct ssp_buf *b, const struct sitem *s)
{
	const struct ssp_rec *r = &s->r;
	const struct ftinfo *fi = info(o, r);
	const uint8_t tag = TAG1(F_SPAN_ATTRS, SSP_PB_LEN);
	struct spaninfo si;
	struct av a[MAXAV];
	struct ssp_pb_mark mm;
	uint8_t id[16];
	size_t body, pbnlen;
	const uint8_t *pbname = ssp_otlp_key_span_name(o, fi, r, 1, &pbnlen);
	uint32_t i;

	span_info(o, fi, r, &si);
	/* Span as field ScopeSpans.spans with two bytes for its length, its
	 * ids, name, kind, times and simspan.start_ps/end_ps, at one reserve */
	if (ssp_buf_reserve(b, 96 + pbnlen + PBFRAG + o->fkey[K_START_PS].plen +
	    o->fkey[K_END_PS].plen + 2 * PB_KV_SLACK) != 0)
		return;
	{
		uint8_t *p = b->p + b->len;

		*p++ = TAG1(F_SS_SPANS, SSP_PB_LEN);
		p += 2;
		body = (size_t)(p - b->p);
		*p++ = TAG1(F_SPAN_TRACE_ID, SSP_PB_LEN);
		*p++ = 16;
		be64(p, r->f[SSP_SF_TRACE_HI]);
		be64(p + 8, r->f[SSP_SF_TRACE_LO]);
		p += 16;
		*p++ = TAG1(F_SPAN_SPAN_ID, SSP_PB_LEN);
		*p++ = 8;
		be64(p, r->f[SSP_SF_SPAN]);
		p += 8;
		if (r->f[SSP_SF_PARENT] != 0) {
			*p++ = TAG1(F_SPAN_PARENT, SSP_PB_LEN);
			*p++ = 8;
			be64(p, r->f[SSP_SF_PARENT]);
			p += 8;
		}
		if (pbname == fi->pbname && pbnlen <= PBFRAG)
			memcpy(p, pbname, PBFRAG);	/* padded: fixed copy */
		else
			memcpy(p, pbname, pbnlen);
		p += pbnlen;
		*p++ = TAG1(F_SPAN_KIND, SSP_PB_VARINT);
		*p++ = (uint8_t)si.kind;
		*p++ = TAG1(F_SPAN_START, SSP_PB_I64);
		le64(p, si.start);
		p += 8;
		*p++ = TAG1(F_SPAN_END, SSP_PB_I64);
		le64(p, si.end);
		p += 8;
		p = pb_kv_int(p, tag, si.a[0].k, (uint64_t)si.a[0].i);
		p = pb_kv_int(p, tag, si.a[1].k, (uint64_t)si.a[1].i);
		b->len = (size_t)(p - b->p);
	}
	pb_fields(o, b, fi, r, SSP_SF_NCOMMON, tag);
	if (si.nt > 0)
		pb_attrs(o, b, F_SPAN_ATTRS, si.t, si.nt);
	for (i = s->ev; i != NONE; i = o->ev[i].next) {
		const struct ssp_rec *er = &o->ev[i].r;
		const struct ftinfo *efi = info(o, er);
		size_t n = event_head(o, er, r->f[SSP_SF_STREAM], a);

		size_t ebody;

		/* Event with two bytes for its length, its time, name and
		 * simspan.ts_ps at one reserve */
		if (ssp_buf_reserve(b, 32 + efi->pbnlen + a[0].k->plen +
		    PB_KV_SLACK) != 0)
			return;
		{
			uint8_t *p = b->p + b->len;

			*p++ = TAG1(F_SPAN_EVENTS, SSP_PB_LEN);
			p += 2;
			ebody = (size_t)(p - b->p);
			*p++ = TAG1(F_EV_TIME, SSP_PB_I64);
			le64(p, otlp_ps_to_ns(er->ts, o->opt.epoch_ns));
			p += 8;
			if (efi->pbnlen <= PBFRAG)
				memcpy(p, efi->pbname, PBFRAG);
			else
				memcpy(p, efi->pbname, efi->pbnlen);
			p += efi->pbnlen;
			p = pb_kv_int(p, TAG1(F_EV_ATTRS, SSP_PB_LEN), a[0].k,
			    (uint64_t)a[0].i);
			b->len = (size_t)(p - b->p);
		}
		pb_attrs(o, b, F_EV_ATTRS, a + 1, n - 1);
		pb_fields(o, b, efi, er, SSP_EF_NCOMMON,
		    TAG1(F_EV_ATTRS, SSP_PB_LEN));
		pb_end2(b, ebody);
		o->stats.events_out++;
	}
	for (i = s->ln; i != NONE; i = o->ln[i].next) {
		const struct litem *l = &o->ln[i];
		size_t n = link_attrs(o, l, a);

		mm = ssp_pb_begin(b, F_SPAN_LINKS, 1);
		be64(id, l->trace_hi);
		be64(id + 8, l->trace_lo);
		ssp_pb_bytes(b, F_LINK_TRACE_ID, id, 16);
		be64(id, l->target);
		ssp_pb_bytes(b, F_LINK_SPAN_ID, id, 8);
		pb_attrs(o, b, F_LINK_ATTRS, a, n);
		ssp_pb_end(b, mm);
		o->stats.links_out++;
	}
	if (si.msg != NULL) {
		mm = ssp_pb_begin(b, F_SPAN_STATUS, 1);
		pb_text(o, b, F_STATUS_MESSAGE, si.msg, si.msglen);
		ssp_pb_uint(b, F_STATUS_CODE, STATUS_CODE_ERROR);
		ssp_pb_end(b, mm);
	}
	pb_end2(b, body);
}

void
ssp_otlp_pb_resource(struct ssp_otlp *o, struct stream *s,
    const struct av *a, size_t n)
{
	struct ssp_pb_mark m;

	m = ssp_pb_begin(&s->res_pb, F_RS_RESOURCE, 1);
	pb_attrs(o, &s->res_pb, F_RES_ATTRS, a, n);
	ssp_pb_end(&s->res_pb, m);
}

void
ssp_otlp_pb_request(struct ssp_otlp *o, struct ssp_buf *b, uint32_t lo,
    uint32_t hi)
{
	size_t k;
	uint32_t i, i0;

	for (k = 0; k < o->nst; k++) {
		struct stream *st = &o->st[k];
		struct ssp_pb_mark rs, ss;

		if ((i0 = first_in(o, st, lo, hi)) == NONE)
			continue;
		/* Length hints from this stream's previous request:
		 * batches are alike, so the body rarely moves. */
		rs = ssp_pb_begin(b, F_REQ_RESOURCE_SPANS, st->hint_rs);
		ssp_buf_put(b, st->res_pb.p, st->res_pb.len);
		ss = ssp_pb_begin(b, F_RS_SCOPE_SPANS, st->hint_ss);
		{
			/* InstrumentationScope { name, version } */
			const char *ver = o->opt.scope_version ?
			    o->opt.scope_version : "";
			struct ssp_pb_mark sc;

			sc = ssp_pb_begin(b, F_SS_SCOPE, 1);
			ssp_pb_bytes(b, F_SCOPE_NAME, "simspan", 7);
			if (*ver != '\0')
				pb_text(o, b, F_SCOPE_VERSION, ver, strlen(ver));
			ssp_pb_end(b, sc);
		}
		for (i = i0; i != NONE; i = o->sp[i].next)
			if (i >= lo && i < hi)
				pb_span(o, b, &o->sp[i]);
		st->hint_ss = (unsigned)ssp_pb_varint_size(b->len - ss.body);
		ssp_pb_end(b, ss);
		st->hint_rs = (unsigned)ssp_pb_varint_size(b->len - rs.body);
		ssp_pb_end(b, rs);
	}
}
