#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strfmt.h"
#include "sink/pb.h"
#include "sink/perfetto.h"
#include "stream/span.h"

#define FLUSH_AT (1u << 20)

/* Debug annotation names before the attribute names (iids 1..). */
enum { A_TRACE = 1, A_SPAN, A_PARENT, A_START, A_DUR, A_FLAGS, A_CAUSE,
	A_NCOMMON };
static const char *const common_names[A_NCOMMON] = {
	[A_TRACE] = "trace_id", [A_SPAN] = "span_id", [A_PARENT] = "parent_id",
	[A_START] = "start_ps", [A_DUR] = "dur_ps", [A_FLAGS] = "flags",
	[A_CAUSE] = "cause",
};

struct ssp_perfetto {
	const struct ssp_schema *fs;
	uint16_t (*iid)[SSP_MAXF];	/* per file type and field */
	const char **names;		/* annotation names by iid */
	size_t nnames;
};

struct ssp_perfetto *
ssp_perfetto_new(const struct ssp_rec_rd *rr)
{
	struct ssp_perfetto *p = calloc(1, sizeof(*p));
	unsigned t, k;
	size_t i;

	if (p == NULL)
		return NULL;
	p->fs = ssp_rec_rd_file_schema(rr);
	p->iid = calloc(p->fs->ntypes + 1, sizeof(*p->iid));
	p->names = calloc(A_NCOMMON + (size_t)p->fs->ntypes * SSP_MAXF,
	    sizeof(*p->names));
	if (p->iid == NULL || p->names == NULL) {
		ssp_perfetto_free(p);
		return NULL;
	}
	for (i = A_TRACE; i < A_NCOMMON; i++)
		p->names[i] = common_names[i];
	p->nnames = A_NCOMMON;
	for (t = 0; t < p->fs->ntypes; t++) {
		const struct ssp_rec_type *rt = &p->fs->types[t];

		for (k = SSP_SF_NCOMMON; k < rt->nf; k++) {
			for (i = A_TRACE; i < p->nnames; i++)
				if (strcmp(p->names[i], rt->f[k].name) == 0)
					break;
			if (i == p->nnames)
				p->names[p->nnames++] = rt->f[k].name;
			p->iid[t][k] = (uint16_t)i;
		}
	}
	return p;
}

void
ssp_perfetto_free(struct ssp_perfetto *p)
{
	if (p == NULL)
		return;
	free(p->iid);
	free(p->names);
	free(p);
}

static void
ann_uint(struct ssp_buf *b, unsigned iid, uint32_t field, uint64_t v)
{
	uint8_t *p;
	size_t n;

	/* DebugAnnotation { name_iid, value }: tag, length, then at most 3
	 * bytes of iid (< 2^16) and 11 of value: one byte of length */
	if (ssp_buf_reserve(b, 2 + 4 + 11) != 0)
		return;
	p = b->p + b->len;
	p[0] = SSP_PF_TE_ANNOTATION << 3 | SSP_PB_LEN;
	p[2] = SSP_PF_DA_NAME_IID << 3 | SSP_PB_VARINT;
	n = 3 + ssp_varint_put(p + 3, iid);
	p[n++] = (uint8_t)(field << 3 | SSP_PB_VARINT);
	n += ssp_varint_put(p + n, v);
	p[1] = (uint8_t)(n - 2);
	b->len += n;
}

/* A string field, with invalid UTF-8 replaced (protobuf strings are UTF-8). */
static void
pb_str(struct ssp_buf *b, uint32_t field, const char *s, size_t n)
{
	struct ssp_buf u = SSP_BUF_INIT;

	if (ssp_strfmt_utf8_valid(s, n) == n) {
		ssp_pb_bytes(b, field, s, n);
		return;
	}
	ssp_strfmt_utf8_repair(&u, s, n);
	if (u.failed)
		b->failed = 1;
	else
		ssp_pb_bytes(b, field, u.p, u.len);
	ssp_buf_free(&u);
}

static void
ann_str(struct ssp_buf *b, unsigned iid, const char *s, size_t n)
{
	struct ssp_pb_mark m;

	/* short valid strings (most): one reserve, one-byte lengths */
	if (n < 100 && ssp_strfmt_utf8_valid(s, n) == n) {
		uint8_t *p;
		size_t k;

		if (ssp_buf_reserve(b, n + 8) != 0)
			return;
		p = b->p + b->len;
		p[0] = SSP_PF_TE_ANNOTATION << 3 | SSP_PB_LEN;
		p[2] = SSP_PF_DA_NAME_IID << 3 | SSP_PB_VARINT;
		k = 3 + ssp_varint_put(p + 3, iid);
		p[k++] = SSP_PF_DA_STRING << 3 | SSP_PB_LEN;
		p[k++] = (uint8_t)n;
		memcpy(p + k, s, n);
		k += n;
		p[1] = (uint8_t)(k - 2);
		b->len += k;
		return;
	}
	m = ssp_pb_begin(b, SSP_PF_TE_ANNOTATION, 1);

	ssp_pb_uint(b, SSP_PF_DA_NAME_IID, iid);
	pb_str(b, SSP_PF_DA_STRING, s, n);
	ssp_pb_end(b, m);
}

void
ssp_perfetto_args(void *ctx, struct ssp_buf *b, const struct ssp_rec_rd *rr,
    const struct ssp_rec_type *rt, const struct ssp_rec *r)
{
	struct ssp_perfetto *p = ctx;
	unsigned t = r->ftag - 1, k;
	char hex[40];
	const char *s;
	size_t n;

	ssp_tracks_trace_hex(hex, r->f[SSP_SF_TRACE_HI], r->f[SSP_SF_TRACE_LO]);
	ann_str(b, A_TRACE, hex, 32);
	ann_uint(b, A_SPAN, SSP_PF_DA_UINT, r->f[SSP_SF_SPAN]);
	if (r->f[SSP_SF_PARENT] != 0)
		ann_uint(b, A_PARENT, SSP_PF_DA_UINT, r->f[SSP_SF_PARENT]);
	ann_uint(b, A_START, SSP_PF_DA_INT, (uint64_t)r->ts);
	ann_uint(b, A_DUR, SSP_PF_DA_INT, r->f[SSP_SF_DUR]);
	if (r->f[SSP_SF_FLAGS] != 0) {
		n = ssp_tracks_flags(hex, sizeof(hex), r->f[SSP_SF_FLAGS]);
		ann_str(b, A_FLAGS, hex, n);
	}
	if (r->f[SSP_SF_CAUSE] != 0 &&
	    (s = ssp_rec_rd_str(rr, r->f[SSP_SF_CAUSE], &n)) != NULL && n > 0)
		ann_str(b, A_CAUSE, s, n);
	for (k = SSP_SF_NCOMMON; k < rt->nf && k < r->nf; k++) {
		unsigned iid = p->iid[t][k];
		uint64_t v = r->f[k];

		switch (rt->f[k].enc) {
		case SSP_ENC_U:
			ann_uint(b, iid, SSP_PF_DA_UINT, v);
			break;
		case SSP_ENC_X:
			ann_uint(b, iid, SSP_PF_DA_POINTER, v);
			break;
		case SSP_ENC_I:
		case SSP_ENC_T:
			ann_uint(b, iid, SSP_PF_DA_INT, v);
			break;
		case SSP_ENC_B:
			ann_uint(b, iid, SSP_PF_DA_BOOL, v != 0);
			break;
		case SSP_ENC_S:
			if (v == 0 || (s = ssp_rec_rd_str(rr, v, &n)) == NULL)
				break;
			ann_str(b, iid, s, n);
			break;
		case SSP_ENC_A:
			n = ssp_tracks_ipv4(hex, v);
			ann_str(b, iid, hex, n);
			break;
		case SSP_ENC_M:
			n = (size_t)snprintf(hex, sizeof(hex),
			    "%02x:%02x:%02x:%02x:%02x:%02x",
			    (unsigned)(v >> 40) & 0xff, (unsigned)(v >> 32) & 0xff,
			    (unsigned)(v >> 24) & 0xff, (unsigned)(v >> 16) & 0xff,
			    (unsigned)(v >> 8) & 0xff, (unsigned)v & 0xff);
			ann_str(b, iid, hex, n);
			break;
		default:
			ann_uint(b, iid, SSP_PF_DA_UINT, v);
		}
	}
}

static void
interned(const struct ssp_perfetto *p, struct ssp_buf *b)
{
	struct ssp_pb_mark pk, id, m;
	const char *s;
	unsigned k;
	size_t i;

	pk = ssp_pb_begin(b, SSP_PF_TRACE_PACKET, 2);
	ssp_pb_uint(b, SSP_PF_PKT_SEQ_ID, SSP_PF_SEQUENCE);
	ssp_pb_uint(b, SSP_PF_PKT_SEQ_FLAGS, SSP_PF_SEQ_CLEARED);
	id = ssp_pb_begin(b, SSP_PF_PKT_INTERNED, 2);
	for (k = 0; k < SSP_SK_NKINDS; k++) {	/* categories and names */
		s = ssp_span_kind_name(k);
		m = ssp_pb_begin(b, SSP_PF_ID_CATEGORIES, 1);
		ssp_pb_uint(b, SSP_PF_IN_IID, k + 1);
		ssp_pb_bytes(b, SSP_PF_IN_NAME, s, strlen(s));
		ssp_pb_end(b, m);
		m = ssp_pb_begin(b, SSP_PF_ID_EVENT_NAMES, 1);
		ssp_pb_uint(b, SSP_PF_IN_IID, k + 1);
		ssp_pb_bytes(b, SSP_PF_IN_NAME, s, strlen(s));
		ssp_pb_end(b, m);
	}

	for (i = A_TRACE; i < p->nnames; i++) {
		m = ssp_pb_begin(b, SSP_PF_ID_ANNOT_NAMES, 1);
		ssp_pb_uint(b, SSP_PF_IN_IID, i);
		ssp_pb_bytes(b, SSP_PF_IN_NAME, p->names[i], strlen(p->names[i]));
		ssp_pb_end(b, m);
	}
	ssp_pb_end(b, id);
	ssp_pb_end(b, pk);
}

static void
descriptors(const struct ssp_tracks_view *v, struct ssp_buf *b)
{
	struct ssp_pb_mark pk, td, d;
	size_t i;
	char name[128];

	for (i = 0; i < v->nprocs; i++) {
		const struct ssp_tracks_proc *pr = &v->proc[i];
		int n = snprintf(name, sizeof(name), "%s%s%s%s", pr->name,
		    pr->sim[0] ? " (" : "", pr->sim, pr->sim[0] ? ")" : "");

		pk = ssp_pb_begin(b, SSP_PF_TRACE_PACKET, 1);
		ssp_pb_uint(b, SSP_PF_PKT_SEQ_ID, SSP_PF_SEQUENCE);
		td = ssp_pb_begin(b, SSP_PF_PKT_TRACK_DESC, 1);
		ssp_pb_uint(b, SSP_PF_TD_UUID, pr->pid);
		d = ssp_pb_begin(b, SSP_PF_TD_PROCESS, 1);
		ssp_pb_uint(b, SSP_PF_PD_PID, pr->pid);
		pb_str(b, SSP_PF_PD_NAME, name, n > 0 ? (size_t)n : 0);
		ssp_pb_end(b, d);
		ssp_pb_end(b, td);
		ssp_pb_end(b, pk);
	}
	for (i = 0; i < v->ntracks; i++) {
		const struct ssp_tracks_track *t = &v->track[i];
		size_t n = strlen(t->name);

		pk = ssp_pb_begin(b, SSP_PF_TRACE_PACKET, 1);
		ssp_pb_uint(b, SSP_PF_PKT_SEQ_ID, SSP_PF_SEQUENCE);
		td = ssp_pb_begin(b, SSP_PF_PKT_TRACK_DESC, 1);
		ssp_pb_uint(b, SSP_PF_TD_UUID, t->tid);
		ssp_pb_uint(b, SSP_PF_TD_PARENT, v->proc[t->proc].pid);
		pb_str(b, SSP_PF_TD_NAME, t->name, n);
		d = ssp_pb_begin(b, SSP_PF_TD_THREAD, 1);
		ssp_pb_uint(b, SSP_PF_THD_PID, v->proc[t->proc].pid);
		ssp_pb_uint(b, SSP_PF_THD_TID, t->tid);
		pb_str(b, SSP_PF_THD_NAME, t->name, n);
		ssp_pb_end(b, d);
		ssp_pb_end(b, td);
		ssp_pb_end(b, pk);
	}
}

int
ssp_perfetto_write(struct ssp_perfetto *p, const struct ssp_tracks_view *v,
    struct ssp_out *o, struct ssp_err *e)
{
	struct ssp_buf b = SSP_BUF_INIT;
	size_t i, k;
	int rc = SSP_OK;

	interned(p, &b);
	descriptors(v, &b);
	for (i = 0; i < 2 * v->nspans; i++) {
		const struct ssp_tracks_ev *ev = &v->ev[i];
		const struct ssp_tracks_span *s = &v->span[ev->span];
		struct ssp_pb_mark pk, te;

		pk = ssp_pb_begin(&b, SSP_PF_TRACE_PACKET, ev->end ? 1 : 2);
		ssp_pb_uint(&b, SSP_PF_PKT_TIMESTAMP, ev->ts);
		ssp_pb_uint(&b, SSP_PF_PKT_SEQ_ID, SSP_PF_SEQUENCE);
		ssp_pb_uint(&b, SSP_PF_PKT_SEQ_FLAGS, SSP_PF_SEQ_NEEDS);
		te = ssp_pb_begin(&b, SSP_PF_PKT_TRACK_EVENT, ev->end ? 1 : 2);
		ssp_pb_uint(&b, SSP_PF_TE_TYPE, ev->end ? SSP_PF_TYPE_SLICE_END :
		    SSP_PF_TYPE_SLICE_BEGIN);
		ssp_pb_uint(&b, SSP_PF_TE_TRACK_UUID, v->track[s->track].tid);
		if (!ev->end) {
			ssp_pb_uint(&b, SSP_PF_TE_CATEGORY_IIDS, s->kind + 1);
			if (s->ncall > 0) {	/* "host.syscall sendto" */
				char name[256];
				size_t nn = ssp_tracks_span_name(v, s, name,
				    sizeof(name));

				pb_str(&b, SSP_PF_TE_NAME, name, nn);
			} else {
				ssp_pb_uint(&b, SSP_PF_TE_NAME_IID, s->kind + 1);
			}
			for (k = 0; k < s->nout; k++)
				ssp_pb_fixed64(&b, SSP_PF_TE_FLOW_IDS,
				    v->flow[s->out0 + k].id);
			for (k = 0; k < s->nin; k++)
				ssp_pb_fixed64(&b, SSP_PF_TE_TERM_FLOW_IDS,
				    v->flow[v->in[s->in0 + k]].id);
			ssp_buf_put(&b, v->arena + s->args, s->nargs);
		}
		ssp_pb_end(&b, te);
		ssp_pb_end(&b, pk);
		if ((rc = ssp_out_buf(o, &b, FLUSH_AT, e)) != SSP_OK)
			break;
	}
	if (rc == SSP_OK)
		rc = ssp_out_buf(o, &b, 0, e);
	ssp_buf_free(&b);
	return rc;
}
