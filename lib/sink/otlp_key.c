/*
 * What the OTLP encoder encodes once, when it opens, in both encodings:
 * the attribute keys (the JSON up to a value, the protobuf KeyValue.key),
 * the record types of the stream's schema (class, span kind, name, the
 * keys of their fields) and each stream's resource and scope.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/strfmt.h"
#include "sink/otlp_int.h"
#include "sink/pb.h"
#include "stream/rec.h"
#include "stream/span.h"

static const char *const fixed_keys[K_N] = {
	"simspan.start_ps", "simspan.end_ps", "simspan.orphan", "simspan.open",
	"simspan.background", "simspan.flags", "simspan.cause", "simspan.ts_ps",
	"simspan.stream", "simspan.link_kind", "service.name",
	"simspan.simulator", "simspan.stream_kind",
};

/* A copy of b's bytes with FRAG zero bytes after them, in an allocation of
 * its own size (ssp_buf's start at 4 KiB: ~60 keys x 4 of them were a
 * megabyte of page faults at every start); NULL when out of memory. */
static char *
okey_pad(const struct ssp_buf *b)
{
	char *p;

	if (b->failed || (p = malloc(b->len + FRAG)) == NULL)
		return NULL;
	memcpy(p, b->p, b->len);
	memset(p + b->len, 0, FRAG);	/* short keys move as one 64-byte copy */
	return p;
}

static int
okey_init(struct okey *k, const char *name, size_t len)
{
	static const char *const vt[J_N] = { "\"intValue\":\"",
	    "\"stringValue\":", "\"boolValue\":" };
	struct ssp_buf b = SSP_BUF_INIT;
	unsigned i;

	for (i = 0; i < J_N; i++) {
		ssp_buf_reset(&b);
		ssp_buf_lit(&b, "{\"key\":");
		ssp_strfmt_json_str(&b, name, len);
		ssp_buf_lit(&b, ",\"value\":{");
		ssp_buf_put(&b, vt[i], strlen(vt[i]));
		k->jlen[i] = b.len;
		if ((k->json[i] = okey_pad(&b)) == NULL) {
			ssp_buf_free(&b);
			return -1;
		}
	}
	ssp_buf_reset(&b);
	ssp_pb_bytes(&b, F_KV_KEY, name, len);
	k->plen = b.len;
	k->pb = (uint8_t *)okey_pad(&b);
	ssp_buf_free(&b);
	if (k->pb == NULL)
		return -1;
	k->pb[k->plen] = TAG1(F_KV_VALUE, SSP_PB_LEN);
	k->pb1 = k->plen < PBFRAG;
	return 0;
}

void
ssp_otlp_key_free(struct okey *k)
{
	unsigned i;

	for (i = 0; i < J_N; i++)
		free(k->json[i]);
	free(k->pb);
}

static int
okey_field(struct okey *k, const char *field)
{
	char name[300];
	int n = snprintf(name, sizeof(name), "simspan.%s", field);

	return okey_init(k, name, (size_t)n < sizeof(name) ? (size_t)n :
	    sizeof(name) - 1);
}

static const char *const common_names[SSP_SF_NCOMMON] = {
	"trace_hi", "trace_lo", "span", "parent", "stream", "dur", "flags",
	"cause" };
static const char common_enc[SSP_SF_NCOMMON] = "xxxxutus";

/* Classify a file record type by its name and leading fields, so span
 * kinds and event types newer than this program are exported too. */
int
ssp_otlp_key_type_init(struct ftinfo *fi, const struct ssp_rec_type *t)
{
	unsigned k, from = 0;

	memset(fi, 0, sizeof(*fi));
	fi->cls = C_SKIP;
	fi->posted = -1;
	fi->call = -1;
	fi->nf = t->nf;
	for (k = 0; k < t->nf; k++)
		fi->enc[k] = t->f[k].enc;
	if (strcmp(t->name, "link") == 0 && t->nf >= 5) {
		fi->cls = C_LINK;
		return 0;
	}
	if (strncmp(t->name, "ev.", 3) == 0 && t->nf >= SSP_EF_NCOMMON &&
	    strcmp(t->f[SSP_EF_SPAN].name, "span") == 0 &&
	    strcmp(t->f[SSP_EF_STREAM].name, "stream") == 0) {
		fi->cls = C_EVENT;
		fi->name = t->name + 3;
		from = SSP_EF_NCOMMON;
	} else if (t->nf >= SSP_SF_NCOMMON) {
		for (k = 0; k < SSP_SF_NCOMMON; k++)
			if (strcmp(t->f[k].name, common_names[k]) != 0 ||
			    t->f[k].enc != common_enc[k])
				return 0;
		fi->cls = C_SPAN;
		fi->name = t->name;
		fi->kind = ssp_span_kind_parse(t->name);
		fi->posted = ssp_rec_type_field(t, "posted");
		if (fi->kind == SSP_SK_HOST_SYSCALL &&
		    (fi->call = ssp_rec_type_field(t, "call")) >= 0 &&
		    t->f[fi->call].enc != 's')
			fi->call = -1;
		fi->okind[0] = fi->okind[1] = SSP_OTLP_KIND_INTERNAL;
		if (fi->kind < SSP_SK_NKINDS) {
			fi->okind[0] = (uint8_t)ssp_otlp_kind_of(fi->kind, 0);
			fi->okind[1] = (uint8_t)ssp_otlp_kind_of(fi->kind, 1);
		}
		from = SSP_SF_NCOMMON;
	} else
		return 0;
	fi->nlen = strlen(fi->name);
	{
		struct ssp_buf j = SSP_BUF_INIT;

		ssp_strfmt_json_str(&j, fi->name, fi->nlen);
		if (j.failed)
			return -1;
		fi->jname = (char *)j.p;
		fi->jnlen = j.len;
	}
	{
		struct ssp_buf pn = SSP_BUF_INIT, fixed = SSP_BUF_INIT;

		ssp_strfmt_utf8_repair(&fixed, fi->name, fi->nlen);
		ssp_pb_bytes(&pn, fi->cls == C_SPAN ? F_SPAN_NAME : F_EV_NAME,
		    fixed.p, fixed.len);
		ssp_buf_free(&fixed);
		fi->pbname = fixed.failed ? NULL : (uint8_t *)okey_pad(&pn);
		fi->pbnlen = pn.len;
		ssp_buf_free(&pn);
		if (fi->pbname == NULL)
			return -1;
	}
	fi->pbmax = fi->jsmax = 64;
	for (k = from; k < t->nf; k++) {
		if (okey_field(&fi->key[k], t->f[k].name) != 0)
			return -1;
		fi->pbmax += fi->key[k].plen + PB_KV_SLACK;
		fi->jsmax += fi->key[k].jlen[J_STR] + fi->key[k].jlen[J_INT] +
		    JS_KV_SLACK;
	}
	return 0;
}

const void *
ssp_otlp_key_span_name(struct ssp_otlp *o, const struct ftinfo *fi,
    const struct ssp_rec *r, int pb, size_t *n)
{
	const char *c;
	size_t clen;

	if (fi->call >= 0 && (unsigned)fi->call < r->nf &&
	    r->f[fi->call] != 0 &&
	    (c = ssp_rec_rd_str(o->rr, r->f[fi->call], &clen)) != NULL &&
	    clen > 0) {
		struct ssp_buf *t = &o->nraw;

		if (clen > NAME_CALL_MAX)
			clen = NAME_CALL_MAX;
		ssp_buf_reset(&o->name);
		ssp_buf_reset(t);
		ssp_buf_put(t, fi->name, fi->nlen);
		ssp_buf_lit(t, " ");
		ssp_buf_put(t, c, clen);
		if (pb) {
			ssp_buf_reset(&o->nfix);
			ssp_strfmt_utf8_repair(&o->nfix, (const char *)t->p,
			    t->len);
			ssp_pb_bytes(&o->name, F_SPAN_NAME, o->nfix.p,
			    o->nfix.len);
			o->name.failed |= o->nfix.failed;
		} else {
			ssp_strfmt_json_str(&o->name, (const char *)t->p,
			    t->len);
		}
		if (!t->failed && !o->name.failed) {
			*n = o->name.len;
			return o->name.p;
		}
	}
	*n = pb ? fi->pbnlen : fi->jnlen;
	return pb ? (const void *)fi->pbname : (const void *)fi->jname;
}

void
ssp_otlp_key_type_free(struct ftinfo *fi)
{
	unsigned k;

	free(fi->jname);
	free(fi->pbname);
	for (k = 0; k < SSP_MAXF; k++)
		ssp_otlp_key_free(&fi->key[k]);
}


/* Resource and scope of one stream, encoded once for every batch. */
int
ssp_otlp_key_stream_init(struct ssp_otlp *o, struct stream *s,
    const struct ssp_span_source *src)
{
	struct av a[3];
	size_t n = 0;

	memset(a, 0, sizeof(a));
	s->head = s->tail = NONE;
	s->hint_rs = s->hint_ss = 3;
	s->name = src->name;
	s->namelen = src->namelen;
	a[n].k = &o->fkey[K_SERVICE];
	a[n].type = AV_STR;
	a[n].s = src->name;
	a[n++].n = src->namelen;
	a[n].k = &o->fkey[K_SIMULATOR];
	a[n].type = AV_STR;
	a[n].s = ssp_event_sim_name(src->sim);
	a[n].n = strlen(a[n].s);
	n++;
	a[n].k = &o->fkey[K_STREAM_KIND];
	a[n].type = AV_STR;
	a[n].s = ssp_event_sim_kind(src->sim);
	a[n].n = strlen(a[n].s);
	n++;

	ssp_otlp_json_resource(o, s, a, n);
	ssp_otlp_pb_resource(o, s, a, n);
	return s->res_json.failed || s->res_pb.failed ? -1 : 0;
}

int
ssp_otlp_key_fixed_init(struct ssp_otlp *o)
{
	unsigned i;

	for (i = 0; i < K_N; i++)
		if (okey_init(&o->fkey[i], fixed_keys[i], strlen(fixed_keys[i])) != 0)
			return -1;
	return 0;
}
