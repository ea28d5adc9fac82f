/*
 * A request in the OTLP/JSON encoding (otlp.h): protobuf's JSON mapping of
 * ExportTraceServiceRequest, lowerCamelCase field names, ids in hex,
 * 64-bit integers as strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/strfmt.h"
#include "sink/otlp_attr.h"
#include "sink/otlp_int.h"
#include "stream/rec.h"
#include "stream/span.h"

/* String id of the stream as a JSON string (quoted and escaped): escaped
 * once per id into o->jarena, else each time into o->tmp.  The pointer
 * is good until the next call; NULL when out of memory. */
static const char *
json_strid(struct ssp_otlp *o, uint64_t id, const char *s, size_t *n)
{
	struct strc *c = strc_get(o, id);
	struct ssp_buf *b = &o->tmp;
	size_t at = 0;

	if (c != NULL && c->jlen > 0) {
		*n = c->jlen;
		return (const char *)o->jarena.p + c->joff;
	}
	if (c != NULL && o->jarena.len + 6 * *n + 2 <= JARENA_MAX) {
		b = &o->jarena;
		at = b->len;
	} else
		ssp_buf_reset(b);
	ssp_strfmt_json_str(b, s, *n);
	if (b->failed)
		return NULL;
	if (b == &o->jarena) {
		c->joff = (uint32_t)at;
		c->jlen = (uint32_t)(b->len - at);
	}
	*n = b->len - at;
	return (const char *)b->p + at;
}

/* Copy a key fragment (readable for at least FRAG bytes). */
static inline char *
frag(char *p, const char *src, size_t n)
{
	if (n <= FRAG)
		memcpy(p, src, FRAG);	/* one fixed-size move, no call */
	else
		memcpy(p, src, n);
	return p + n;
}

/*
 * The JSON writers reserve room for a whole attribute once and then write
 * through a cursor: this is the hot path of span2otlp.
 */
static void
json_attrs(struct ssp_buf *b, const struct av *a, size_t n, int comma)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct av *x = &a[i];
		const struct okey *k = x->k;
		size_t need = 2 * FRAG + k->jlen[J_STR] + k->jlen[J_BOOL] +
		    (x->type == AV_STR ? 6 * x->n + 8 : 0);
		char *p;

		if (ssp_buf_reserve(b, need) != 0)
			return;
		p = (char *)b->p + b->len;
		if (i > 0 || comma)
			*p++ = ',';
		switch (x->type) {
		case AV_INT:
			p = frag(p, k->json[J_INT], k->jlen[J_INT]);
			p += ssp_strfmt_i64(p, x->i);
			memcpy(p, "\"}}", 3);
			p += 3;
			break;
		case AV_BOOL:
			p = frag(p, k->json[J_BOOL], k->jlen[J_BOOL]);
			if (x->i) {
				memcpy(p, "true}}", 6);
				p += 6;
			} else {
				memcpy(p, "false}}", 7);
				p += 7;
			}
			break;
		case AV_STR:
			p = frag(p, k->json[J_STR], k->jlen[J_STR]);
			b->len = (size_t)(p - (char *)b->p);
			ssp_strfmt_json_str(b, x->s, x->n);	/* within the reserve */
			p = (char *)b->p + b->len;
			*p++ = '}';
			*p++ = '}';
			break;
		default:
			p = frag(p, k->json[J_STR], k->jlen[J_STR]);
			*p++ = '"';
			memcpy(p, x->tmp, sizeof(x->tmp));
			p += x->n;
			memcpy(p, "\"}}", 3);
			p += 3;
			break;
		}
		b->len = (size_t)(p - (char *)b->p);
	}
}

/* Fields [from, nf) of a record as attributes, written directly (the
 * JSON twin of pb_fields()) after one reserve (and one more for each
 * string); returns how many were written. */
static size_t
json_fields(struct ssp_otlp *o, struct ssp_buf *b, const struct ftinfo *fi,
    const struct ssp_rec *r, unsigned from, int comma)
{
	unsigned k, nf = r->nf < fi->nf ? r->nf : fi->nf;
	size_t n = 0;
	char *p;

	if (ssp_buf_reserve(b, fi->jsmax) != 0)
		return 0;
	p = (char *)b->p + b->len;
	for (k = from; k < nf; k++) {
		const struct okey *key = &fi->key[k];
		uint64_t v = r->f[k];
		const char *str;
		size_t slen;

		switch (fi->enc[k]) {
		case SSP_ENC_I:
			if ((int64_t)v == -1)
				continue;
			break;
		case SSP_ENC_S:
			if (v == 0 || (str = ssp_rec_rd_str(o->rr, v, &slen)) == NULL)
				continue;
			b->len = (size_t)(p - (char *)b->p);
			if ((str = json_strid(o, v, str, &slen)) == NULL) {
				b->failed = 1;
				return n;
			}
			if (ssp_buf_reserve(b, slen + fi->jsmax) != 0)
				return n;
			p = (char *)b->p + b->len;
			if (n > 0 || comma)
				*p++ = ',';
			p = frag(p, key->json[J_STR], key->jlen[J_STR]);
			memcpy(p, str, slen);
			p += slen;
			*p++ = '}';
			*p++ = '}';
			n++;
			continue;
		case SSP_ENC_M:
		case SSP_ENC_A:
			if (v == 0)
				continue;
			break;
		default:
			break;
		}
		if (n > 0 || comma)
			*p++ = ',';
		switch (fi->enc[k]) {
		case SSP_ENC_X:
			p = frag(p, key->json[J_STR], key->jlen[J_STR]);
			*p++ = '"';
			p += hex_ascii(p, v);
			break;
		case SSP_ENC_B:
			p = frag(p, key->json[J_BOOL], key->jlen[J_BOOL]);
			if (v) {
				memcpy(p, "true}}", 6);
				p += 6;
			} else {
				memcpy(p, "false}}", 7);
				p += 7;
			}
			n++;
			continue;
		case SSP_ENC_M:
			p = frag(p, key->json[J_STR], key->jlen[J_STR]);
			*p++ = '"';
			p += mac_ascii(p, v);
			break;
		case SSP_ENC_A:
			p = frag(p, key->json[J_STR], key->jlen[J_STR]);
			*p++ = '"';
			p += ipv4_ascii(p, v);
			break;
		case SSP_ENC_U:
			if (v > (uint64_t)INT64_MAX) {	/* int64 can't hold it */
				p = frag(p, key->json[J_STR], key->jlen[J_STR]);
				*p++ = '"';
				p += fmt_u64(p, v);
				break;
			}
			/* FALLTHROUGH */
		default:
			p = frag(p, key->json[J_INT], key->jlen[J_INT]);
			p += fmt_i64(p, (int64_t)v);
			break;
		}
		memcpy(p, "\"}}", 3);
		p += 3;
		n++;
	}
	b->len = (size_t)(p - (char *)b->p);
	return n;
}

static void
json_span(struct ssp_otlp *o, struct ssp_buf *b, const struct sitem *s)
{
	const struct ssp_rec *r = &s->r;
	const struct ftinfo *fi = info(o, r);
	struct spaninfo si;
	struct av a[MAXAV];
	char id[32];
	uint32_t i;
	size_t jnlen;
	const void *jname = ssp_otlp_key_span_name(o, fi, r, 0, &jnlen);

	span_info(o, fi, r, &si);
	if (ssp_buf_reserve(b, 256 + jnlen + 4 * FRAG +
	    si.a[0].k->jlen[J_INT] + si.a[1].k->jlen[J_INT]) == 0) {
		char *p = (char *)b->p + b->len;
		char ps[2][24];
		size_t nps[2], nns[2];
		const char *ns[2];
		char nsbuf[2][24];

		memcpy(p, "{\"traceId\":\"", 12);
		p += 12;
		otlp_trace_hex(p, r->f[SSP_SF_TRACE_HI], r->f[SSP_SF_TRACE_LO]);
		p += 32;
		memcpy(p, "\",\"spanId\":\"", 12);
		p += 12;
		otlp_span_hex(p, r->f[SSP_SF_SPAN]);
		p += 16;
		if (r->f[SSP_SF_PARENT] != 0) {
			memcpy(p, "\",\"parentSpanId\":\"", 18);
			p += 18;
			otlp_span_hex(p, r->f[SSP_SF_PARENT]);
			p += 16;
		}
		memcpy(p, "\",\"name\":", 9);
		p += 9;
		memcpy(p, jname, jnlen);
		p += jnlen;
		memcpy(p, ",\"kind\":", 8);
		p += 8;
		*p++ = (char)('0' + si.kind);
		/* The times in ns are those in ps less their last three
		 * digits, unless an epoch is added or they are clamped. */
		nps[0] = fmt_i64(ps[0], si.a[0].i);
		nps[1] = fmt_i64(ps[1], si.a[1].i);
		if (o->opt.epoch_ns == 0 && si.a[0].i >= 1000 &&
		    si.a[1].i >= si.a[0].i) {
			ns[0] = ps[0];
			ns[1] = ps[1];
			nns[0] = nps[0] - 3;
			nns[1] = nps[1] - 3;
		} else {
			ns[0] = nsbuf[0];
			ns[1] = nsbuf[1];
			nns[0] = fmt_u64(nsbuf[0], si.start);
			nns[1] = fmt_u64(nsbuf[1], si.end);
		}
		memcpy(p, ",\"startTimeUnixNano\":\"", 22);
		p += 22;
		memcpy(p, ns[0], 24);
		p += nns[0];
		memcpy(p, "\",\"endTimeUnixNano\":\"", 21);
		p += 21;
		memcpy(p, ns[1], 24);
		p += nns[1];
		memcpy(p, "\",\"attributes\":[", 16);
		p += 16;
		/* simspan.start_ps, simspan.end_ps */
		p = frag(p, si.a[0].k->json[J_INT], si.a[0].k->jlen[J_INT]);
		memcpy(p, ps[0], 24);
		p += nps[0];
		memcpy(p, "\"}},", 4);
		p += 4;
		p = frag(p, si.a[1].k->json[J_INT], si.a[1].k->jlen[J_INT]);
		memcpy(p, ps[1], 24);
		p += nps[1];
		memcpy(p, "\"}}", 3);
		p += 3;
		b->len = (size_t)(p - (char *)b->p);
	}
	json_fields(o, b, fi, r, SSP_SF_NCOMMON, 1);
	json_attrs(b, si.t, si.nt, 1);
	ssp_buf_putc(b, ']');
	if (s->ev != NONE) {
		ssp_buf_lit(b, ",\"events\":[");
		for (i = s->ev; i != NONE; i = o->ev[i].next) {
			const struct ssp_rec *er = &o->ev[i].r;
			const struct ftinfo *efi = info(o, er);
			size_t n = event_head(o, er, r->f[SSP_SF_STREAM], a);

			/* time, name and simspan.ts_ps at one reserve */
			if (ssp_buf_reserve(b, 128 + efi->jnlen + 2 * FRAG +
			    a[0].k->jlen[J_INT]) == 0) {
				char *p = (char *)b->p + b->len, ps[24];
				size_t nps = fmt_i64(ps, a[0].i);

				if (i != s->ev)
					*p++ = ',';
				memcpy(p, "{\"timeUnixNano\":\"", 17);
				p += 17;
				if (o->opt.epoch_ns == 0 && a[0].i >= 1000) {
					memcpy(p, ps, 24);	/* ns: ps less 3 digits */
					p += nps - 3;
				} else
					p += fmt_u64(p, otlp_ps_to_ns(er->ts,
					    o->opt.epoch_ns));
				memcpy(p, "\",\"name\":", 9);
				p += 9;
				memcpy(p, efi->jname, efi->jnlen);
				p += efi->jnlen;
				memcpy(p, ",\"attributes\":[", 15);
				p += 15;
				p = frag(p, a[0].k->json[J_INT], a[0].k->jlen[J_INT]);
				memcpy(p, ps, 24);
				p += nps;
				memcpy(p, "\"}}", 3);
				b->len = (size_t)(p + 3 - (char *)b->p);
			}
			json_attrs(b, a + 1, n - 1, 1);
			json_fields(o, b, efi, er, SSP_EF_NCOMMON, 1);
			ssp_buf_lit(b, "]}");
			o->stats.events_out++;
		}
		ssp_buf_putc(b, ']');
	}
	if (s->ln != NONE) {
		ssp_buf_lit(b, ",\"links\":[");
		for (i = s->ln; i != NONE; i = o->ln[i].next) {
			const struct litem *l = &o->ln[i];
			size_t n = link_attrs(o, l, a);

			if (i != s->ln)
				ssp_buf_putc(b, ',');
			ssp_buf_lit(b, "{\"traceId\":\"");
			otlp_trace_hex(id, l->trace_hi, l->trace_lo);
			ssp_buf_put(b, id, 32);
			ssp_buf_lit(b, "\",\"spanId\":\"");
			otlp_span_hex(id, l->target);
			ssp_buf_put(b, id, 16);
			ssp_buf_lit(b, "\",\"attributes\":[");
			json_attrs(b, a, n, 0);
			ssp_buf_lit(b, "]}");
			o->stats.links_out++;
		}
		ssp_buf_putc(b, ']');
	}
	if (si.msg != NULL) {
		ssp_buf_lit(b, ",\"status\":{\"message\":");
		ssp_strfmt_json_str(b, si.msg, si.msglen);
		ssp_buf_lit(b, ",\"code\":2}");
	}
	ssp_buf_putc(b, '}');
}

void
ssp_otlp_json_resource(struct ssp_otlp *o, struct stream *s,
    const struct av *a, size_t n)
{
	const char *ver = o->opt.scope_version ? o->opt.scope_version : "";

	ssp_buf_lit(&s->res_json, "{\"resource\":{\"attributes\":[");
	json_attrs(&s->res_json, a, n, 0);
	ssp_buf_lit(&s->res_json, "]},\"scopeSpans\":[{\"scope\":{\"name\":"
	    "\"simspan\",\"version\":");
	ssp_strfmt_json_str(&s->res_json, ver, strlen(ver));
	ssp_buf_lit(&s->res_json, "},\"spans\":[");
}

void
ssp_otlp_json_request(struct ssp_otlp *o, struct ssp_buf *b, uint32_t lo,
    uint32_t hi)
{
	size_t k, first = 1;
	uint32_t i, i0;

	ssp_buf_lit(b, "{\"resourceSpans\":[");
	for (k = 0; k < o->nst; k++) {
		struct stream *st = &o->st[k];

		if ((i0 = first_in(o, st, lo, hi)) == NONE)
			continue;
		if (!first)
			ssp_buf_putc(b, ',');
		ssp_buf_put(b, st->res_json.p, st->res_json.len);
		for (i = i0; i != NONE; i = o->sp[i].next) {
			if (i < lo || i >= hi)
				continue;
			if (i != i0)
				ssp_buf_putc(b, ',');
			json_span(o, b, &o->sp[i]);
		}
		ssp_buf_lit(b, "]}]}");
		first = 0;
	}
	ssp_buf_lit(b, "]}");
}
