#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hex.h"
#include "base/strfmt.h"
#include "sink/pb.h"
#include "sink/perfetto.h"
#include "stream/span.h"

#define FLUSH_AT (1u << 20)
/* The two-byte varint tag of a fixed64 field numbered 16..2047, low byte
 * first. */
#define FLOW_TAG(f) (((((f) << 3 | SSP_PB_I64) & 0x7f) | 0x80) | \
	((((f) << 3 | SSP_PB_I64) >> 7) << 8))

/* Debug annotation names before the attribute names (iids 1..). */
enum { A_TRACE = 1, A_SPAN, A_PARENT, A_START, A_DUR, A_FLAGS, A_CAUSE,
	A_NCOMMON };
static const char *const common_names[A_NCOMMON] = {
	[A_TRACE] = "trace_id", [A_SPAN] = "span_id", [A_PARENT] = "parent_id",
	[A_START] = "start_ps", [A_DUR] = "dur_ps", [A_FLAGS] = "flags",
	[A_CAUSE] = "cause",
};

/*
 * How a span's attribute is written, planned per file type and field: the
 * first bytes of its DebugAnnotation (tag, a length byte filled in later,
 * name_iid and its iid, the value's tag) and what to do with the value.
 * A varint annotation is then one 8-byte store, the value and its length.
 */
enum { OP_VARINT, OP_BOOL, OP_STRID, OP_IPV4, OP_MAC };

struct plan {
	uint8_t pre[8];
	uint8_t npre, op;
};

/* Bytes an annotation of a plan writes at most: 7 of prefix, then a
 * varint (10, or 8 stored from 7 in) or a MAC's length and 17 digits. */
#define ANN_MAX 25

struct ssp_perfetto {
	const struct ssp_schema *fs;
	uint8_t *sval;		/* per string id: 0 not seen, 1 valid UTF-8,
				 * 2 not */
	size_t nsval;
	uint64_t strgen;	/* of the reader's table sval describes */
	uint64_t hi;		/* the trace_hi of hihex (one per stream) */
	char hihex[16];
	struct ssp_out *out;
	struct ssp_buf b;
	struct ssp_buf fix;	/* a slice's name repaired to UTF-8 */
	uint16_t (*iid)[SSP_MAXF];	/* per file type and field */
	struct plan (*plan)[SSP_MAXF];	/* the same */
	uint8_t oct[256][4];	/* an IPv4 octet's digits, their count last */
	const char **names;		/* annotation names by iid */
	size_t nnames;
};

static void
plan_field(struct plan *pl, unsigned iid, char enc)
{
	uint32_t field = SSP_PF_DA_UINT;
	uint8_t *q = pl->pre;

	pl->op = OP_VARINT;
	switch (enc) {
	case SSP_ENC_X: field = SSP_PF_DA_POINTER; break;
	case SSP_ENC_I:
	case SSP_ENC_T: field = SSP_PF_DA_INT; break;
	case SSP_ENC_B: field = SSP_PF_DA_BOOL; pl->op = OP_BOOL; break;
	case SSP_ENC_S: pl->op = OP_STRID; break;
	case SSP_ENC_A: field = SSP_PF_DA_STRING; pl->op = OP_IPV4; break;
	case SSP_ENC_M: field = SSP_PF_DA_STRING; pl->op = OP_MAC; break;
	default: break;
	}
	*q++ = SSP_PF_TE_ANNOTATION << 3 | SSP_PB_LEN;
	*q++ = 0;
	*q++ = SSP_PF_DA_NAME_IID << 3 | SSP_PB_VARINT;
	q += ssp_varint_put(q, iid);	/* < 2^16: at most 3 bytes */
	*q++ = (uint8_t)(field << 3 | (field == SSP_PF_DA_STRING ? SSP_PB_LEN :
	    SSP_PB_VARINT));
	pl->npre = (uint8_t)(q - pl->pre);
}

/* The common fields' varint annotations (iids below 128). */
#define PLAN(iid, field) { { SSP_PF_TE_ANNOTATION << 3 | SSP_PB_LEN, 0, \
	SSP_PF_DA_NAME_IID << 3 | SSP_PB_VARINT, iid, \
	(field) << 3 | SSP_PB_VARINT }, 5, OP_VARINT }
static const struct plan plan_span = PLAN(A_SPAN, SSP_PF_DA_UINT);
static const struct plan plan_parent = PLAN(A_PARENT, SSP_PF_DA_UINT);
static const struct plan plan_start = PLAN(A_START, SSP_PF_DA_INT);
static const struct plan plan_dur = PLAN(A_DUR, SSP_PF_DA_INT);
#undef PLAN

/* A varint annotation at q (ANN_MAX bytes of room); returns its end. */
__attribute__((always_inline)) static inline uint8_t *
put_ann(uint8_t *q, const struct plan *pl, uint64_t v)
{
	uint8_t *e;

	memcpy(q, pl->pre, 8);
	e = ssp_varint_put_fast(q + pl->npre, v);
	q[1] = (uint8_t)(e - q - 2);
	return e;
}

/* A string annotation of n < 100 valid bytes at q (ANN_MAX + n bytes of
 * room). */
static inline uint8_t *
put_ann_str(uint8_t *q, const struct plan *pl, const char *s, size_t n)
{
	uint8_t *e = q + pl->npre;

	memcpy(q, pl->pre, 8);
	*e++ = (uint8_t)n;
	memcpy(e, s, n);
	e += n;
	q[1] = (uint8_t)(e - q - 2);
	return e;
}

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
	p->plan = calloc(p->fs->ntypes + 1, sizeof(*p->plan));
	p->names = calloc(A_NCOMMON + (size_t)p->fs->ntypes * SSP_MAXF,
	    sizeof(*p->names));
	if (p->iid == NULL || p->plan == NULL || p->names == NULL) {
		ssp_perfetto_free(p);
		return NULL;
	}
	for (i = 0; i < 256; i++) {	/* as ssp_tracks_ipv4 writes one */
		k = 0;
		if (i >= 100)
			p->oct[i][k++] = (uint8_t)('0' + i / 100);
		if (i >= 10)
			p->oct[i][k++] = (uint8_t)('0' + i / 10 % 10);
		p->oct[i][k++] = (uint8_t)('0' + i % 10);
		p->oct[i][3] = (uint8_t)k;
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
			plan_field(&p->plan[t][k], p->iid[t][k], rt->f[k].enc);
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
	free(p->plan);
	free(p->names);
	free(p->sval);
	ssp_buf_free(&p->b);
	ssp_buf_free(&p->fix);
	free(p);
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

/* A short string known to be valid (< 100 bytes): one reserve, one-byte
 * lengths. */
static void
ann_short(struct ssp_buf *b, unsigned iid, const char *s, size_t n)
{
	uint8_t *p;
	size_t k;

	if (ssp_buf_reserve(b, n + 8) != 0)
		return;
	p = b->p + b->len;
	p[0] = SSP_PF_TE_ANNOTATION << 3 | SSP_PB_LEN;
	p[2] = SSP_PF_DA_NAME_IID << 3 | SSP_PB_VARINT;
	k = (size_t)(ssp_varint_put_fast(p + 3, iid) - p);
	p[k++] = SSP_PF_DA_STRING << 3 | SSP_PB_LEN;
	p[k++] = (uint8_t)n;
	memcpy(p + k, s, n);
	k += n;
	p[1] = (uint8_t)(k - 2);
	b->len += k;
}

static void
ann_str(struct ssp_buf *b, unsigned iid, const char *s, size_t n)
{
	struct ssp_pb_mark m;

	if (n < 100 && ssp_strfmt_utf8_valid(s, n) == n) {
		ann_short(b, iid, s, n);
		return;
	}
	m = ssp_pb_begin(b, SSP_PF_TE_ANNOTATION, 1);

	ssp_pb_uint(b, SSP_PF_DA_NAME_IID, iid);
	pb_str(b, SSP_PF_DA_STRING, s, n);
	ssp_pb_end(b, m);
}

/* A string of the stream by id: checked for UTF-8 once per id. */
static void
ann_strid(struct ssp_perfetto *p, struct ssp_buf *b, unsigned iid,
    const struct ssp_rec_rd *rr, uint64_t id)
{
	const char *s;
	size_t n;

	if ((s = ssp_rec_rd_str(rr, id, &n)) == NULL)
		return;
	if (p->strgen != ssp_rec_rd_strgen(rr)) {	/* a new segment */
		memset(p->sval, 0, p->nsval);
		p->strgen = ssp_rec_rd_strgen(rr);
	}
	if (id >= p->nsval && id < (UINT64_C(1) << 28)) {
		size_t c = p->nsval ? p->nsval : 256;
		uint8_t *nv;

		while (c <= id)
			c *= 2;
		if ((nv = realloc(p->sval, c)) != NULL) {
			memset(nv + p->nsval, 0, c - p->nsval);
			p->sval = nv;
			p->nsval = c;
		}
	}
	if (id < p->nsval && n < 100) {
		if (p->sval[id] == 0)
			p->sval[id] = ssp_strfmt_utf8_valid(s, n) == n ? 1 : 2;
		if (p->sval[id] == 1) {
			ann_short(b, iid, s, n);
			return;
		}
	}
	ann_str(b, iid, s, n);
}

/* The 17 digits and colons of a MAC address at q. */
static uint8_t *
put_mac(uint8_t *q, uint64_t v)
{
	static const char hx[] = "0123456789abcdef";
	int i;

	for (i = 40; i >= 0; i -= 8) {
		*q++ = (uint8_t)hx[(v >> (i + 4)) & 15];
		*q++ = (uint8_t)hx[(v >> i) & 15];
		if (i > 0)
			*q++ = ':';
	}
	return q;
}

/* An IPv4 address's annotation at q (ANN_MAX bytes of room), as
 * ssp_tracks_ipv4 writes it: octets from a table, 4-byte stores. */
static uint8_t *
put_ipv4(const struct ssp_perfetto *p, uint8_t *q, const struct plan *pl,
    uint64_t v)
{
	uint8_t *e = q + pl->npre + 1, *d = e;
	int i;

	memcpy(q, pl->pre, 8);
	for (i = 24; i >= 0; i -= 8) {
		const uint8_t *o = p->oct[(v >> i) & 0xff];

		memcpy(d, o, 4);
		d += o[3];
		*d = '.';
		d += i > 0;
	}
	e[-1] = (uint8_t)(d - e);
	q[1] = (uint8_t)(d - q - 2);
	return d;
}

/*
 * The annotations go straight into b, ANN_MAX bytes reserved for each
 * (a string through b itself, then the room made again).  The same bytes
 * as one ssp_pb_begin/end per annotation.
 */
void
ssp_perfetto_args(void *ctx, struct ssp_buf *b, const struct ssp_rec_rd *rr,
    const struct ssp_rec_type *rt, const struct ssp_rec *r)
{
	struct ssp_perfetto *p = ctx;
	unsigned t = r->ftag - 1, k, nf = rt->nf < r->nf ? rt->nf : r->nf;
	const struct plan *pl = p->plan[t];
	uint8_t *q;
	char hex[40];
	const char *s;
	size_t n;

	if (r->f[SSP_SF_TRACE_HI] != p->hi || p->hihex[0] == '\0') {
		ssp_tracks_trace_hex(hex, r->f[SSP_SF_TRACE_HI], 0);
		memcpy(p->hihex, hex, 16);
		p->hi = r->f[SSP_SF_TRACE_HI];
	}
	if (ssp_buf_reserve(b, 40 + 4 * ANN_MAX) != 0)
		return;
	q = b->p + b->len;
	/* trace_id: 32 hex digits */
	q[0] = SSP_PF_TE_ANNOTATION << 3 | SSP_PB_LEN;
	q[1] = 36;
	q[2] = SSP_PF_DA_NAME_IID << 3 | SSP_PB_VARINT;
	q[3] = A_TRACE;
	q[4] = SSP_PF_DA_STRING << 3 | SSP_PB_LEN;
	q[5] = 32;
	memcpy(q + 6, p->hihex, 16);
	ssp_hex_u64((char *)q + 22, r->f[SSP_SF_TRACE_LO]);
	q += 38;
	q = put_ann(q, &plan_span, r->f[SSP_SF_SPAN]);
	if (r->f[SSP_SF_PARENT] != 0)
		q = put_ann(q, &plan_parent, r->f[SSP_SF_PARENT]);
	q = put_ann(q, &plan_start, (uint64_t)r->ts);
	q = put_ann(q, &plan_dur, r->f[SSP_SF_DUR]);
	b->len = (size_t)(q - b->p);
	if (r->f[SSP_SF_FLAGS] != 0) {
		n = ssp_tracks_flags(hex, sizeof(hex), r->f[SSP_SF_FLAGS]);
		ann_short(b, A_FLAGS, hex, n);
	}
	if (r->f[SSP_SF_CAUSE] != 0 &&
	    (s = ssp_rec_rd_str(rr, r->f[SSP_SF_CAUSE], &n)) != NULL && n > 0)
		ann_strid(p, b, A_CAUSE, rr, r->f[SSP_SF_CAUSE]);
	if (nf <= SSP_SF_NCOMMON ||
	    ssp_buf_reserve(b, ANN_MAX * (nf - SSP_SF_NCOMMON)) != 0)
		return;
	q = b->p + b->len;
	for (k = SSP_SF_NCOMMON; k < nf; k++) {
		uint64_t v = r->f[k];

		switch (pl[k].op) {
		case OP_VARINT:
			q = put_ann(q, &pl[k], v);
			break;
		case OP_BOOL:
			q = put_ann(q, &pl[k], v != 0);
			break;
		case OP_IPV4:
			q = put_ipv4(p, q, &pl[k], v);
			break;
		case OP_MAC:
			put_mac((uint8_t *)hex, v);
			q = put_ann_str(q, &pl[k], hex, 17);
			break;
		default:	/* OP_STRID */
			if (v == 0)
				break;
			b->len = (size_t)(q - b->p);
			ann_strid(p, b, p->iid[t][k], rr, v);
			if (ssp_buf_reserve(b, ANN_MAX * (nf - k)) != 0)
				return;
			q = b->p + b->len;
		}
	}
	b->len = (size_t)(q - b->p);
}

/* Event names and categories: the span kinds (iid kind + 1), then the
 * names of flows written as flow events of their own. */
#define IID_CAUSE (SSP_SK_NKINDS + 1)
#define IID_LINK  (SSP_SK_NKINDS + 2)

static void
intern(struct ssp_buf *b, uint32_t field, unsigned iid, const char *s)
{
	struct ssp_pb_mark m = ssp_pb_begin(b, field, 1);

	ssp_pb_uint(b, SSP_PF_IN_IID, iid);
	ssp_pb_bytes(b, SSP_PF_IN_NAME, s, strlen(s));
	ssp_pb_end(b, m);
}

enum ssp_status
ssp_perfetto_start(struct ssp_perfetto *p, struct ssp_out *o,
    struct ssp_err *e)
{
	struct ssp_buf *b = &p->b;
	struct ssp_pb_mark pk, id, td;
	unsigned k;
	size_t i;

	p->out = o;
	pk = ssp_pb_begin(b, SSP_PF_TRACE_PACKET, 2);
	ssp_pb_uint(b, SSP_PF_PKT_SEQ_ID, SSP_PF_SEQUENCE);
	ssp_pb_uint(b, SSP_PF_PKT_SEQ_FLAGS, SSP_PF_SEQ_CLEARED);
	id = ssp_pb_begin(b, SSP_PF_PKT_INTERNED, 2);
	for (k = 0; k < SSP_SK_NKINDS; k++) {	/* categories and names */
		intern(b, SSP_PF_ID_CATEGORIES, k + 1, ssp_span_kind_name(k));
		intern(b, SSP_PF_ID_EVENT_NAMES, k + 1, ssp_span_kind_name(k));
	}
	intern(b, SSP_PF_ID_CATEGORIES, IID_CAUSE, "cause");
	intern(b, SSP_PF_ID_EVENT_NAMES, IID_CAUSE, "cause");
	intern(b, SSP_PF_ID_CATEGORIES, IID_LINK, "link");
	intern(b, SSP_PF_ID_EVENT_NAMES, IID_LINK, "link");
	for (i = A_TRACE; i < p->nnames; i++)
		intern(b, SSP_PF_ID_ANNOT_NAMES, (unsigned)i, p->names[i]);
	ssp_pb_end(b, id);
	ssp_pb_end(b, pk);
	/* the root track: thread tracks in the order of their ranks */
	pk = ssp_pb_begin(b, SSP_PF_TRACE_PACKET, 1);
	ssp_pb_uint(b, SSP_PF_PKT_SEQ_ID, SSP_PF_SEQUENCE);
	td = ssp_pb_begin(b, SSP_PF_PKT_TRACK_DESC, 1);
	ssp_pb_uint(b, SSP_PF_TD_UUID, 0);
	ssp_pb_uint(b, SSP_PF_TD_THREAD_ORDERING, SSP_PF_THREAD_ORDERING_EXPLICIT);
	ssp_pb_end(b, td);
	ssp_pb_end(b, pk);
	return ssp_out_buf(o, b, FLUSH_AT, e);
}

static void
proc_desc(struct ssp_buf *b, const struct ssp_tracks_proc *pr)
{
	struct ssp_pb_mark pk, td, d;
	char name[128];
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

static void
track_desc(struct ssp_buf *b, const struct ssp_tracks_track *t,
    const struct ssp_tracks_proc *pr)
{
	struct ssp_pb_mark pk, td, d;
	size_t n = strlen(t->name);

	pk = ssp_pb_begin(b, SSP_PF_TRACE_PACKET, 1);
	ssp_pb_uint(b, SSP_PF_PKT_SEQ_ID, SSP_PF_SEQUENCE);
	td = ssp_pb_begin(b, SSP_PF_PKT_TRACK_DESC, 1);
	ssp_pb_uint(b, SSP_PF_TD_UUID, t->tid);
	ssp_pb_uint(b, SSP_PF_TD_PARENT, pr->pid);
	pb_str(b, SSP_PF_TD_NAME, t->name, n);
	d = ssp_pb_begin(b, SSP_PF_TD_THREAD, 1);
	ssp_pb_uint(b, SSP_PF_THD_PID, pr->pid);
	ssp_pb_uint(b, SSP_PF_THD_TID, t->tid);
	pb_str(b, SSP_PF_THD_NAME, t->name, n);
	ssp_pb_end(b, d);
	ssp_pb_uint(b, SSP_PF_TD_SIBLING_RANK, (uint64_t)(uint32_t)t->rank);
	ssp_pb_end(b, td);
	ssp_pb_end(b, pk);
}

/* A flow event of its own (a v1 flow): phase 's' on the source slice,
 * 'f' bound to the enclosing slice on the target. */
static void
flow_event(struct ssp_buf *b, const struct ssp_tracks_item *it)
{
	struct ssp_pb_mark pk, te, le;
	unsigned iid = it->flow & SSP_TRACKS_LINK_FLOW ? IID_LINK : IID_CAUSE;
	int in = it->what == SSP_TRACKS_FLOW_IN;

	pk = ssp_pb_begin(b, SSP_PF_TRACE_PACKET, 1);
	ssp_pb_uint(b, SSP_PF_PKT_TIMESTAMP, it->ts);
	ssp_pb_uint(b, SSP_PF_PKT_SEQ_ID, SSP_PF_SEQUENCE);
	ssp_pb_uint(b, SSP_PF_PKT_SEQ_FLAGS, SSP_PF_SEQ_NEEDS);
	te = ssp_pb_begin(b, SSP_PF_PKT_TRACK_EVENT, 1);
	ssp_pb_uint(b, SSP_PF_TE_TRACK_UUID, it->track->tid);
	ssp_pb_uint(b, SSP_PF_TE_CATEGORY_IIDS, iid);
	ssp_pb_uint(b, SSP_PF_TE_NAME_IID, iid);
	le = ssp_pb_begin(b, SSP_PF_TE_LEGACY, 1);
	ssp_pb_uint(b, SSP_PF_LE_PHASE, in ? 'f' : 's');
	ssp_pb_uint(b, SSP_PF_LE_UNSCOPED_ID, it->flow);
	if (in)
		ssp_pb_uint(b, SSP_PF_LE_BIND_ENCLOSING, 1);
	ssp_pb_end(b, le);
	ssp_pb_end(b, te);
	ssp_pb_end(b, pk);
}

static uint8_t *
put_fixed64(uint8_t *q, unsigned tag2, uint64_t v)
{
	*q++ = (uint8_t)(tag2 & 0xff);	/* fields 47 and 48: two-byte tags */
	*q++ = (uint8_t)(tag2 >> 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);	/* little-endian on the wire */
#endif
	memcpy(q, &v, 8);
	return q + 8;
}

/*
 * A BEGIN or END packet, the bulk of a trace: sizes first, then one
 * reserve and plain stores (the same bytes ssp_pb_begin/end would give;
 * the fast varint writes may store up to 8 bytes past a varint, so the
 * reserve has that much more).
 *   TracePacket { timestamp, trusted_packet_sequence_id, sequence_flags,
 *     track_event { type, track_uuid, [category_iids, name_iid,]
 *       flow_ids..., terminating_flow_ids..., [debug_annotations] } }
 */
static void
slice_event(struct ssp_buf *b, const struct ssp_tracks_item *it,
    const char *name, size_t nn)
{
	int end = it->what == SSP_TRACKS_END;
	size_t te, pk, k, nin = 0;
	uint8_t *q;

	for (k = 0; k < it->nfl; k++)
		nin += it->fl[k].part == SSP_TRACKS_FL_IN;
	te = 2 + 1 + ssp_varint_len(it->track->tid) + 10 * it->nfl;
	if (!end)
		te += 1 + ssp_varint_len(it->kind + 1) + (name != NULL ?
		    2 + ssp_varint_len(nn) + nn : 1 +
		    ssp_varint_len(it->kind + 1)) + it->nargs;
	pk = 1 + ssp_varint_len(it->ts) + 2 + 2 + 1 + ssp_varint_len(te) + te;
	if (ssp_buf_reserve(b, 1 + ssp_varint_len(pk) + pk + 8) != 0)
		return;
	q = b->p + b->len;
	*q++ = SSP_PF_TRACE_PACKET << 3 | SSP_PB_LEN;
	q = ssp_varint_put_fast(q, pk);
	*q++ = SSP_PF_PKT_TIMESTAMP << 3 | SSP_PB_VARINT;
	q = ssp_varint_put_fast(q, it->ts);
	*q++ = SSP_PF_PKT_SEQ_ID << 3 | SSP_PB_VARINT;
	*q++ = SSP_PF_SEQUENCE;
	*q++ = SSP_PF_PKT_SEQ_FLAGS << 3 | SSP_PB_VARINT;
	*q++ = SSP_PF_SEQ_NEEDS;
	*q++ = SSP_PF_PKT_TRACK_EVENT << 3 | SSP_PB_LEN;
	q = ssp_varint_put_fast(q, te);
	*q++ = SSP_PF_TE_TYPE << 3 | SSP_PB_VARINT;
	*q++ = end ? SSP_PF_TYPE_SLICE_END : SSP_PF_TYPE_SLICE_BEGIN;
	*q++ = SSP_PF_TE_TRACK_UUID << 3 | SSP_PB_VARINT;
	q = ssp_varint_put_fast(q, it->track->tid);
	if (!end) {
		*q++ = SSP_PF_TE_CATEGORY_IIDS << 3 | SSP_PB_VARINT;
		q = ssp_varint_put_fast(q, it->kind + 1);
		if (name != NULL) {	/* "host.syscall sendto" */
			*q++ = (uint8_t)(((SSP_PF_TE_NAME << 3 | SSP_PB_LEN) &
			    0x7f) | 0x80);	/* field 23: a two-byte tag */
			*q++ = (uint8_t)((SSP_PF_TE_NAME << 3 | SSP_PB_LEN) >> 7);
			q = ssp_varint_put_fast(q, nn);
			memcpy(q, name, nn);
			q += nn;
		} else {
			*q++ = SSP_PF_TE_NAME_IID << 3 | SSP_PB_VARINT;
			q = ssp_varint_put_fast(q, it->kind + 1);
		}
	}
	for (k = 0; k < it->nfl; k++)
		if (it->fl[k].part != SSP_TRACKS_FL_IN)
			q = put_fixed64(q, FLOW_TAG(SSP_PF_TE_FLOW_IDS),
			    it->fl[k].id);
	for (k = 0; nin > 0 && k < it->nfl; k++)
		if (it->fl[k].part == SSP_TRACKS_FL_IN)
			q = put_fixed64(q, FLOW_TAG(SSP_PF_TE_TERM_FLOW_IDS),
			    it->fl[k].id);
	if (!end && it->nargs > 0) {
		memcpy(q, it->args, it->nargs);
		q += it->nargs;
	}
	b->len = (size_t)(q - b->p);
}

enum ssp_status
ssp_perfetto_emit(void *ctx, const struct ssp_tracks_item *it,
    struct ssp_err *e)
{
	struct ssp_perfetto *p = ctx;
	struct ssp_buf *b = &p->b;

	switch (it->what) {
	case SSP_TRACKS_PROC:
		proc_desc(b, it->proc);
		break;
	case SSP_TRACKS_TRACK:
		track_desc(b, it->track, it->proc);
		break;
	case SSP_TRACKS_FLOW_OUT:
	case SSP_TRACKS_FLOW_IN:
		flow_event(b, it);
		break;
	case SSP_TRACKS_BEGIN:
		if (it->ncall > 0) {	/* a syscall named by its call */
			char name[SSP_TRACKS_CALL_MAX + 32];
			size_t nn = ssp_tracks_item_name(it, name,
			    sizeof(name));

			if (ssp_strfmt_utf8_valid(name, nn) == nn) {
				slice_event(b, it, name, nn);
			} else {
				p->fix.len = 0;
				ssp_strfmt_utf8_repair(&p->fix, name, nn);
				if (p->fix.failed)
					b->failed = 1;
				else
					slice_event(b, it, (const char *)
					    p->fix.p, p->fix.len);
			}
			break;
		}
		/* FALLTHROUGH */
	case SSP_TRACKS_END:
		slice_event(b, it, NULL, 0);
		break;
	}
	if (b->len < FLUSH_AT && !b->failed)
		return SSP_OK;
	return ssp_out_buf(p->out, b, FLUSH_AT, e);
}

enum ssp_status
ssp_perfetto_finish(struct ssp_perfetto *p, struct ssp_err *e)
{
	return ssp_out_buf(p->out, &p->b, 0, e);
}
