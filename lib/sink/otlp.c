#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#define HEX_SSE2 1
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HEX_SWAR 1
#endif

#include "base/buf.h"
#include "base/hugemem.h"
#include "base/map.h"
#include "base/strfmt.h"
#include "sink/otlp.h"
#include "sink/pb.h"
#include "stream/span.h"

/*
 * Field numbers, from opentelemetry-proto (v1.x):
 *   collector/trace/v1/trace_service.proto
 *     ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
 *   trace/v1/trace.proto
 *     ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
 *     ScopeSpans    { InstrumentationScope scope = 1; repeated Span spans = 2; }
 *     Span { bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4;
 *            string name = 5; SpanKind kind = 6;
 *            fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
 *            repeated KeyValue attributes = 9; repeated Event events = 11;
 *            repeated Link links = 13; Status status = 15; }
 *     Span.Event { fixed64 time_unix_nano = 1; string name = 2;
 *                  repeated KeyValue attributes = 3; }
 *     Span.Link  { bytes trace_id = 1; bytes span_id = 2;
 *                  repeated KeyValue attributes = 4; }
 *     Status { string message = 2; StatusCode code = 3; }  (ERROR = 2)
 *   resource/v1/resource.proto
 *     Resource { repeated KeyValue attributes = 1; }
 *   common/v1/common.proto
 *     InstrumentationScope { string name = 1; string version = 2; }
 *     KeyValue { string key = 1; AnyValue value = 2; }
 *     AnyValue { string string_value = 1; bool bool_value = 2;
 *                int64 int_value = 3; }
 * Fields are written in field-number order, as protobuf encoders do.
 */
enum {
	F_REQ_RESOURCE_SPANS = 1,
	F_RS_RESOURCE = 1, F_RS_SCOPE_SPANS = 2,
	F_SS_SCOPE = 1, F_SS_SPANS = 2,
	F_SPAN_TRACE_ID = 1, F_SPAN_SPAN_ID = 2, F_SPAN_PARENT = 4,
	F_SPAN_NAME = 5, F_SPAN_KIND = 6, F_SPAN_START = 7, F_SPAN_END = 8,
	F_SPAN_ATTRS = 9, F_SPAN_EVENTS = 11, F_SPAN_LINKS = 13,
	F_SPAN_STATUS = 15,
	F_EV_TIME = 1, F_EV_NAME = 2, F_EV_ATTRS = 3,
	F_LINK_TRACE_ID = 1, F_LINK_SPAN_ID = 2, F_LINK_ATTRS = 4,
	F_STATUS_MESSAGE = 2, F_STATUS_CODE = 3,
	F_RES_ATTRS = 1,
	F_SCOPE_NAME = 1, F_SCOPE_VERSION = 2,
	F_KV_KEY = 1, F_KV_VALUE = 2,
	F_AV_STRING = 1, F_AV_BOOL = 2, F_AV_INT = 3,
};
#define STATUS_CODE_ERROR 2

#define NONE UINT32_MAX
/* Field tags below 16 take one byte: (field << 3) | wire type. */
#define TAG1(field, wt) ((uint8_t)((field) << 3 | (wt)))
#define ALWAYS_INLINE __attribute__((always_inline))

/* --- pure helpers ---------------------------------------------------------- */

uint64_t
ssp_otlp_ps_to_ns(int64_t ps, int64_t epoch_ns)
{
	int64_t q = ps / 1000, ns;

	if (ps % 1000 < 0)
		q--;		/* floor, also before 0 */
	if (__builtin_add_overflow(q, epoch_ns, &ns))
		return epoch_ns > 0 ? (uint64_t)INT64_MAX : 0;
	return ns < 0 ? 0 : (uint64_t)ns;
}

static const char hexd[] = "0123456789abcdef";

#if defined(HEX_SWAR)
/* The 8 hex digits of v as 8 bytes, digit k (counting from the least
 * significant) in byte k: nibbles spread into bytes, then to ASCII
 * without a table. */
static inline uint64_t
hex8(uint32_t v)
{
	uint64_t x = v, gt9;

	x = ((x & 0xffff0000ULL) << 16) | (x & 0xffffULL);
	x = ((x & 0x0000ff000000ff00ULL) << 8) | (x & 0x000000ff000000ffULL);
	x = ((x & 0x00f000f000f000f0ULL) << 4) | (x & 0x000f000f000f000fULL);
	/* byte k holds nibble k; digits 10..15 get 'a' - '0' - 10 more */
	gt9 = ((x + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL;
	return x + 0x3030303030303030ULL + gt9 * (uint64_t)('a' - '0' - 10);
}
#endif

void
ssp_otlp_span_hex(char out[16], uint64_t id)
{
#if defined(HEX_SSE2)
	/* bytes most significant first, split into nibbles, interleaved */
	const __m128i m = _mm_set1_epi8(0x0f);
	__m128i x = _mm_cvtsi64_si128((long long)__builtin_bswap64(id));
	__m128i d = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(x, 4), m),
	    _mm_and_si128(x, m));
	__m128i gt9 = _mm_cmpgt_epi8(d, _mm_set1_epi8(9));

	d = _mm_add_epi8(d, _mm_set1_epi8('0'));
	d = _mm_add_epi8(d, _mm_and_si128(gt9, _mm_set1_epi8('a' - '0' - 10)));
	_mm_storeu_si128((__m128i *)(void *)out, d);
#elif defined(HEX_SWAR)
	uint64_t hi = __builtin_bswap64(hex8((uint32_t)(id >> 32)));
	uint64_t lo = __builtin_bswap64(hex8((uint32_t)id));

	memcpy(out, &hi, 8);
	memcpy(out + 8, &lo, 8);
#else
	static const char hexpairs[] =
	    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	int i;

	for (i = 7; i >= 0; i--) {
		memcpy(out + 2 * i, hexpairs + 2 * (id & 0xff), 2);
		id >>= 8;
	}
#endif
}

void
ssp_otlp_trace_hex(char out[32], uint64_t hi, uint64_t lo)
{
	ssp_otlp_span_hex(out, hi);
	ssp_otlp_span_hex(out + 16, lo);
}

/*
 * CLIENT/SERVER where one side asks and waits for the other (MMIO reads and
 * non-posted writes host->NIC, DMA NIC->host memory), PRODUCER/CONSUMER
 * where something is handed over without an answer (posted writes, packets,
 * interrupts), INTERNAL for work inside one simulator (syscalls, PCI config,
 * interrupt handling, queueing hops inside the network).
 */
enum ssp_otlp_kind
ssp_otlp_kind_of(unsigned kind, int64_t posted)
{
	switch (kind) {
	case SSP_SK_HOST_MMIO:
		return posted == 1 ? SSP_OTLP_KIND_PRODUCER : SSP_OTLP_KIND_CLIENT;
	case SSP_SK_NIC_MMIO:
		return posted == 1 ? SSP_OTLP_KIND_CONSUMER : SSP_OTLP_KIND_SERVER;
	case SSP_SK_NIC_DMA:
		return SSP_OTLP_KIND_CLIENT;
	case SSP_SK_HOST_DMA:
		return SSP_OTLP_KIND_SERVER;
	case SSP_SK_NIC_TX:
	case SSP_SK_NIC_MSIX:
		return SSP_OTLP_KIND_PRODUCER;
	case SSP_SK_NIC_RX:
	case SSP_SK_HOST_MSIX:
		return SSP_OTLP_KIND_CONSUMER;
	default:
		return SSP_OTLP_KIND_INTERNAL;
	}
}

/* --- attribute keys and record types --------------------------------------- */

/* An attribute key, encoded once: the JSON text up to the value for each
 * value type, and the protobuf KeyValue.key field (tag, length, bytes). */
enum { J_INT, J_STR, J_BOOL, J_N };
#define FRAG 64
#define PBFRAG 32	/* protobuf keys and names: most are shorter */
#define NAME_CALL_MAX 200	/* bytes of a syscall's call in its name */
/* Room a protobuf KeyValue takes beyond its key's bytes, string values
 * of up to 24 bytes included (see pb_kv_int): tags, lengths, the key
 * fragment's overrun and ssp_varint_put_fast's. */
#define PB_KV_SLACK (FRAG + 72)
/* ... and a JSON attribute beyond its key fragments' bytes */
#define JS_KV_SLACK (2 * FRAG + 48)
struct okey {
	char *json[J_N];	/* {"key":"simspan.x","value":{"intValue":" ... */
	size_t jlen[J_N];
	uint8_t *pb;		/* ... then AnyValue's tag (in the padding) */
	size_t plen;
	int pb1;		/* short (below PBFRAG bytes with AnyValue's
				 * tag): a KeyValue's lengths take one byte
				 * each for values of up to 120 - plen bytes */
};

enum { C_SKIP, C_SPAN, C_LINK, C_EVENT };

struct ftinfo {			/* one record type of the file */
	int cls;
	unsigned kind;		/* enum ssp_span_kind, SSP_SK_NKINDS if unknown */
	int posted;		/* field index of "posted", or -1 */
	uint8_t okind[2];	/* SpanKind when posted is not 1, and when it is */
	char *jname;		/* span or event name as a JSON string */
	size_t jnlen;
	uint8_t *pbname;	/* ... as protobuf field Span.name or
				 * Event.name (tag, length, valid UTF-8) */
	size_t pbnlen;
	int call;		/* host.syscall: field index of its call, which
				 * the span's name adds; -1 */
	const char *name;	/* span or event name */
	size_t nlen;
	unsigned nf;
	char enc[SSP_MAXF];
	struct okey key[SSP_MAXF];
	size_t pbmax;		/* bytes pb_fields writes at most, strings aside */
	size_t jsmax;		/* ... and json_fields */
};

enum { K_START_PS, K_END_PS, K_ORPHAN, K_OPEN, K_BACKGROUND, K_FLAGS,
	K_CAUSE, K_TS_PS, K_STREAM, K_LINK_KIND, K_SERVICE, K_SIMULATOR,
	K_STREAM_KIND, K_N };
static const char *const fixed_keys[K_N] = {
	"simspan.start_ps", "simspan.end_ps", "simspan.orphan", "simspan.open",
	"simspan.background", "simspan.flags", "simspan.cause", "simspan.ts_ps",
	"simspan.stream", "simspan.link_kind", "service.name",
	"simspan.simulator", "simspan.stream_kind",
};

/* One attribute value, gathered before encoding in either form. */
enum { AV_INT, AV_BOOL, AV_STR, AV_ASCII };
struct av {
	const struct okey *k;
	int type;
	int64_t i;
	const char *s;		/* AV_STR: from the stream, any bytes */
	size_t n;
	char tmp[24];		/* AV_ASCII: formatted here */
};
#define MAXAV (SSP_MAXF + 8)

/* What is known of a string of the stream, by its id. */
struct strc {
	uint32_t joff, jlen;	/* as a JSON string in jarena; jlen 0: not yet */
	uint8_t pb;		/* 0 not checked yet, 1 valid UTF-8, 2 not */
};
#define STRC_MAX (1u << 20)		/* ids cached (12 MiB); others: each time */
#define JARENA_MAX (16u << 20)		/* bytes of JSON strings cached */

/* --- batch storage ----------------------------------------------------------- */

struct sitem {
	struct ssp_rec r;
	uint32_t ev, ev_last, ln, ln_last, next;
};
struct eitem {
	struct ssp_rec r;	/* a member event or (pending) a link */
	uint32_t next;
};
struct litem {
	uint64_t trace_hi, trace_lo, target, kind;
	uint32_t next;
};


struct stream {
	uint32_t head, tail;	/* spans of the current batch */
	unsigned hint_rs, hint_ss;	/* length bytes last time */
	const char *name;
	size_t namelen;
	struct ssp_buf res_json, res_pb;	/* resource + scope, encoded */
};

struct ssp_otlp {
	struct ssp_otlp_opts opt;
	const struct ssp_rec_rd *rr;
	int events;
	struct okey fkey[K_N];
	struct ftinfo *ft;	/* by file tag - 1 */
	unsigned nft;
	struct stream *st;
	size_t nst;
	/* current batch */
	struct sitem *sp;
	size_t nsp, capsp;
	struct eitem *ev;
	size_t nev, capev;
	struct litem *ln;
	size_t nln, capln;
	struct ssp_map spmap;	/* span id -> index, built on first need */
	int spmap_live;
	uint64_t last_id;	/* fast path: id of the last span added */
	uint32_t last_idx;
	/* events and links that came before their span */
	struct eitem *pend;
	size_t npend, cappend, npend_live, pend_max;
	struct ssp_map pendmap;	/* span -> first pending record */
	struct ssp_buf tmp;	/* repaired strings */
	struct strc *sc;	/* by string id (< nsc), of string generation
				 * strgen */
	size_t nsc;
	uint64_t strgen;
	struct ssp_buf jarena;	/* the JSON strings of sc */
	struct ssp_buf msg;	/* status message of the current span */
	struct ssp_buf name;	/* name of the current span when it is not
				 * its kind's (name_of), encoded */
	struct ssp_buf nraw, nfix;	/* ... as text, repaired */
	struct ssp_otlp_stats stats;
	double avg;		/* bytes an encoded record takes, lately */
	size_t full_items;	/* records at which a batch is full by avg */
};

/* Span id -> index maps (ids are never 0). */
static uint32_t
idmap_get(const struct ssp_map *m, uint64_t id)
{
	const struct ssp_map_slot *s = ssp_map_find(m, id);

	return s != NULL ? s->val : NONE;
}

static int
idmap_put(struct ssp_map *m, uint64_t id, uint32_t v)
{
	struct ssp_map_slot *s;
	int isnew;

	if ((s = ssp_map_put(m, id, &isnew)) == NULL)
		return -1;
	s->val = v;
	return 0;
}

/* --- setup ----------------------------------------------------------------- */

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

static void
okey_free(struct okey *k)
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
static int
ftinfo_init(struct ftinfo *fi, const struct ssp_rec_type *t)
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

static void
ftinfo_free(struct ftinfo *fi)
{
	unsigned k;

	free(fi->jname);
	free(fi->pbname);
	for (k = 0; k < SSP_MAXF; k++)
		okey_free(&fi->key[k]);
}

static void json_attrs(struct ssp_buf *b, const struct av *a, size_t n,
    int comma);
static void pb_attrs(struct ssp_otlp *o, struct ssp_buf *b, uint32_t field,
    const struct av *a, size_t n);

/* Resource and scope of one stream, encoded once for every batch. */
static int
stream_init(struct ssp_otlp *o, struct stream *s, const struct ssp_span_source *src)
{
	struct av a[3];
	const char *ver = o->opt.scope_version ? o->opt.scope_version : "";
	struct ssp_pb_mark m;
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

	ssp_buf_lit(&s->res_json, "{\"resource\":{\"attributes\":[");
	json_attrs(&s->res_json, a, n, 0);
	ssp_buf_lit(&s->res_json, "]},\"scopeSpans\":[{\"scope\":{\"name\":"
	    "\"simspan\",\"version\":");
	ssp_strfmt_json_str(&s->res_json, ver, strlen(ver));
	ssp_buf_lit(&s->res_json, "},\"spans\":[");

	m = ssp_pb_begin(&s->res_pb, F_RS_RESOURCE, 1);
	pb_attrs(o, &s->res_pb, F_RES_ATTRS, a, n);
	ssp_pb_end(&s->res_pb, m);
	return s->res_json.failed || s->res_pb.failed ? -1 : 0;
}

/*
 * The record count at which a batch is full by the size estimate: the
 * least n with n * avg > 0.9 * max_bytes, found with that comparison
 * itself, so batches end where the test on every record ended them.
 */
static void
set_full_items(struct ssp_otlp *o)
{
	double lim = 0.9 * (double)o->opt.max_bytes, g;
	size_t n;

	if (o->opt.max_bytes == 0 || !(o->avg > 0) ||
	    (g = lim / o->avg) > 1e15) {
		o->full_items = SIZE_MAX;
		return;
	}
	n = (size_t)g;
	while (!((double)n * o->avg > lim))
		n++;
	while (n > 0 && (double)(n - 1) * o->avg > lim)
		n--;
	o->full_items = n;
}

int
ssp_otlp_open(struct ssp_otlp **op, const struct ssp_otlp_opts *opts,
    const struct ssp_rec_rd *rr, struct ssp_err *e)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(rr);
	struct ssp_span_source *src = NULL;
	struct ssp_otlp *o;
	unsigned i;
	int nsrc, has_events = 0;

	*op = NULL;
	if ((o = calloc(1, sizeof(*o))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	o->opt = *opts;
	if (o->opt.batch == 0)
		o->opt.batch = 1;
	o->rr = rr;
	nsrc = ssp_span_reader_sources(rr, NULL, 0);
	if (nsrc < 0) {
		free(o);
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: bad stream list in "
		    "the span stream header", ssp_rec_rd_name(rr));
	}
	for (i = 0; i < K_N; i++)
		if (okey_init(&o->fkey[i], fixed_keys[i], strlen(fixed_keys[i])) != 0)
			goto nomem;
	if ((o->ft = calloc(fs->ntypes + 1, sizeof(*o->ft))) == NULL)
		goto nomem;
	o->nft = fs->ntypes;
	for (i = 0; i < fs->ntypes; i++) {
		if (ftinfo_init(&o->ft[i], &fs->types[i]) != 0)
			goto nomem;
		if (o->ft[i].cls == C_EVENT)
			has_events = 1;
	}
	o->events = opts->events < 0 ? has_events : opts->events;
	if ((src = calloc((size_t)nsrc + 1, sizeof(*src))) == NULL ||
	    (o->st = calloc((size_t)nsrc + 1, sizeof(*o->st))) == NULL)
		goto nomem;
	ssp_span_reader_sources(rr, src, (size_t)nsrc);
	o->nst = (size_t)nsrc;
	for (i = 0; i < o->nst; i++)
		if (stream_init(o, &o->st[i], &src[i]) != 0)
			goto nomem;
	free(src);
	src = NULL;
	o->pend_max = o->opt.batch * 4 > 65536 ? o->opt.batch * 4 : 65536;
	if (ssp_map_init(&o->spmap, o->opt.batch < 1u << 20 ? o->opt.batch :
	    1u << 20) != 0 || ssp_map_init(&o->pendmap, 64) != 0)
		goto nomem;
	o->last_idx = NONE;
	/* first guess of a record's size (JSON, protobuf); then measured */
	o->avg = o->opt.proto == SSP_OTLP_JSON ? 700 : 300;
	set_full_items(o);
	*op = o;
	return SSP_OK;
nomem:
	free(src);
	ssp_otlp_close(o);
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

void
ssp_otlp_close(struct ssp_otlp *o)
{
	unsigned i;

	if (o == NULL)
		return;
	for (i = 0; i < K_N; i++)
		okey_free(&o->fkey[i]);
	if (o->ft != NULL)
		for (i = 0; i < o->nft; i++)
			ftinfo_free(&o->ft[i]);
	free(o->ft);
	if (o->st != NULL)
		for (i = 0; i < o->nst; i++) {
			ssp_buf_free(&o->st[i].res_json);
			ssp_buf_free(&o->st[i].res_pb);
		}
	free(o->st);
	ssp_hugemem_free(o->sp);
	ssp_hugemem_free(o->ev);
	free(o->ln);
	free(o->pend);
	ssp_map_free(&o->spmap);
	ssp_map_free(&o->pendmap);
	ssp_buf_free(&o->tmp);
	ssp_buf_free(&o->msg);
	ssp_buf_free(&o->name);
	ssp_buf_free(&o->nraw);
	ssp_buf_free(&o->nfix);
	free(o->sc);
	ssp_buf_free(&o->jarena);
	free(o);
}

const struct ssp_otlp_stats *
ssp_otlp_stats(const struct ssp_otlp *o)
{
	return &o->stats;
}

int
ssp_otlp_events_on(const struct ssp_otlp *o)
{
	return o->events;
}

size_t
ssp_otlp_nspans(const struct ssp_otlp *o)
{
	return o->nsp;
}

/* --- adding records ---------------------------------------------------------- */

static const struct ftinfo *
info(const struct ssp_otlp *o, const struct ssp_rec *r)
{
	static const struct ftinfo skip = { .cls = C_SKIP };

	return r->ftag >= 1 && r->ftag <= o->nft ? &o->ft[r->ftag - 1] : &skip;
}

int
ssp_otlp_full(const struct ssp_otlp *o, const struct ssp_rec *r)
{
	if (o->nsp == 0 || info(o, r)->cls != C_SPAN)
		return 0;
	/* Events and links are capped too, so one batch stays bounded; and
	 * the request's bytes, estimated from the previous requests (with
	 * room for the new span's events; ssp_otlp_encode_each splits a
	 * batch that is larger all the same). */
	return o->nsp >= o->opt.batch || o->nev + o->nln >= 16 * o->opt.batch ||
	    o->nsp + o->nev + o->nln + 1 >= o->full_items;
}

/*
 * The batch's spans and member events: MiBs filled once per batch (a
 * batch of 8192 spans takes 2 MB), on huge pages (base/hugemem) so that
 * the first batch faults their memory in per 2 MiB rather than per
 * 4 KiB.  The spans' array is made for a whole batch (full) at its
 * second growth (growing it by doubling would touch fresh memory at every
 * step); the first is small and from the heap, so that a short stream
 * does not fault in (and the kernel zero) a 2 MiB page for a few spans.
 */
#define BATCH_FIRST	256

static __attribute__((noinline)) int
batch_grow(void **p, size_t *cap, size_t need, size_t size, size_t full)
{
	size_t c = *cap == 0 ? (full < BATCH_FIRST ? full : BATCH_FIRST) :
	    *cap < full ? full : *cap;
	void *np;

	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if (c > SIZE_MAX / size || (np = ssp_hugemem_realloc(*p, c * size)) == NULL)
		return -1;
	*p = np;
	*cap = c;
	return 0;
}

static inline int
batch_array(void **p, size_t *cap, size_t need, size_t size, size_t full)
{
	return need <= *cap ? 0 : batch_grow(p, cap, need, size, full);
}

struct ssp_rec *
ssp_otlp_slot(struct ssp_otlp *o)
{
	if (batch_array((void **)&o->sp, &o->capsp, o->nsp + 1,
	    sizeof(*o->sp), o->opt.batch) != 0)
		return NULL;
	return &o->sp[o->nsp].r;
}

static int
attach_event(struct ssp_otlp *o, uint32_t si, const struct ssp_rec *r)
{
	struct sitem *s = &o->sp[si];

	if (batch_array((void **)&o->ev, &o->capev, o->nev + 1,
	    sizeof(*o->ev), 16) != 0)
		return -1;
	o->ev[o->nev].r = *r;
	o->ev[o->nev].next = NONE;
	if (s->ev == NONE)
		s->ev = (uint32_t)o->nev;
	else
		o->ev[s->ev_last].next = (uint32_t)o->nev;
	s->ev_last = (uint32_t)o->nev++;
	return 0;
}

static int
attach_link(struct ssp_otlp *o, uint32_t si, const struct ssp_rec *r)
{
	struct sitem *s = &o->sp[si];
	struct litem *l;

	if (ssp_buf_array((void **)&o->ln, &o->capln, o->nln + 1,
	    sizeof(*o->ln)) != 0)
		return -1;
	l = &o->ln[o->nln];
	l->trace_hi = r->f[SSP_LF_TRACE_HI];
	l->trace_lo = r->f[SSP_LF_TRACE_LO];
	l->target = r->f[SSP_LF_TARGET];
	l->kind = r->f[SSP_LF_KIND];
	l->next = NONE;
	if (s->ln == NONE)
		s->ln = (uint32_t)o->nln;
	else
		o->ln[s->ln_last].next = (uint32_t)o->nln;
	s->ln_last = (uint32_t)o->nln++;
	return 0;
}

static int
attach(struct ssp_otlp *o, uint32_t si, const struct ssp_rec *r, int cls)
{
	return cls == C_EVENT ? attach_event(o, si, r) : attach_link(o, si, r);
}

/* An event or link that is not exported: count it, and remember the
 * first span that lost one, to name it. */
static void
unmatched(struct ssp_otlp *o, uint64_t span, int cls)
{
	if (o->stats.events_unmatched + o->stats.links_unmatched == 0)
		o->stats.unmatched_span = span;
	if (cls == C_EVENT) {
		o->stats.events_unmatched++;
		o->stats.unmatched_span_events += span == o->stats.unmatched_span;
	} else {
		o->stats.links_unmatched++;
		o->stats.unmatched_span_links += span == o->stats.unmatched_span;
	}
}

/* An event or link whose span is not (yet) in the batch. */
static int
add_pending(struct ssp_otlp *o, uint64_t span, const struct ssp_rec *r, int cls)
{
	uint32_t head;

	if (span == 0 || o->npend >= o->pend_max) {
		unmatched(o, span, cls);
		return 0;
	}
	if (ssp_buf_array((void **)&o->pend, &o->cappend, o->npend + 1,
	    sizeof(*o->pend)) != 0)
		return -1;
	head = idmap_get(&o->pendmap, span);
	o->pend[o->npend].r = *r;
	o->pend[o->npend].next = head;	/* newest first; reversed on use */
	if (idmap_put(&o->pendmap, span, (uint32_t)o->npend) != 0)
		return -1;
	o->npend++;
	o->npend_live++;
	return 0;
}

static int
take_pending(struct ssp_otlp *o, uint64_t span, uint32_t si)
{
	uint32_t i, prev = NONE, next;

	if ((i = idmap_get(&o->pendmap, span)) == NONE)
		return 0;
	(void)idmap_put(&o->pendmap, span, NONE);	/* slot exists */
	while (i != NONE) {		/* reverse to stream order */
		next = o->pend[i].next;
		o->pend[i].next = prev;
		prev = i;
		i = next;
	}
	for (i = prev; i != NONE; i = o->pend[i].next) {
		const struct ssp_rec *r = &o->pend[i].r;

		if (attach(o, si, r, info(o, r)->cls) != 0)
			return -1;
		o->npend_live--;
	}
	if (o->npend_live == 0) {
		o->npend = 0;
		ssp_map_clear(&o->pendmap);
	}
	return 0;
}

/* Most events and links follow their span directly (the fast path in
 * ssp_otlp_add); the map is built only when one does not. */
static uint32_t
find_span(struct ssp_otlp *o, uint64_t span)
{
	size_t i;

	if (!o->spmap_live) {
		for (i = 0; i < o->nsp; i++)
			if (idmap_put(&o->spmap, o->sp[i].r.f[SSP_SF_SPAN],
			    (uint32_t)i) != 0) {
				ssp_map_clear(&o->spmap);
				return NONE - 1;
			}
		o->spmap_live = 1;
	}
	return idmap_get(&o->spmap, span);
}

static int
add_span(struct ssp_otlp *o, const struct ssp_rec *r)
{
	uint64_t stream = r->f[SSP_SF_STREAM];
	struct sitem *s;
	struct stream *st;
	uint32_t si;

	o->stats.spans++;
	if ((r->f[SSP_SF_TRACE_HI] == 0 && r->f[SSP_SF_TRACE_LO] == 0) ||
	    r->f[SSP_SF_SPAN] == 0) {
		o->stats.spans_bad_id++;
		return 0;
	}
	if (stream >= o->nst) {
		o->stats.spans_bad_stream++;
		return 0;
	}
	if (batch_array((void **)&o->sp, &o->capsp, o->nsp + 1,
	    sizeof(*o->sp), o->opt.batch) != 0)
		return -1;
	si = (uint32_t)o->nsp++;
	s = &o->sp[si];
	if (r != &s->r)		/* not decoded in place (ssp_otlp_slot) */
		s->r = *r;
	s->ev = s->ln = s->next = NONE;
	st = &o->st[stream];
	if (st->head == NONE)
		st->head = si;
	else
		o->sp[st->tail].next = si;
	st->tail = si;
	if (o->spmap_live && idmap_put(&o->spmap, r->f[SSP_SF_SPAN], si) != 0)
		return -1;
	o->last_id = r->f[SSP_SF_SPAN];
	o->last_idx = si;
	if (o->npend_live > 0)
		return take_pending(o, r->f[SSP_SF_SPAN], si);
	return 0;
}

int
ssp_otlp_add(struct ssp_otlp *o, const struct ssp_rec *r, struct ssp_err *e)
{
	const struct ftinfo *fi = info(o, r);
	uint64_t span;
	uint32_t si;
	int rc = 0;

	switch (fi->cls) {
	case C_SPAN:
		rc = add_span(o, r);
		break;
	case C_EVENT:
	case C_LINK:
		if (fi->cls == C_EVENT) {
			o->stats.events++;
			if (!o->events) {
				o->stats.events_off++;
				return SSP_OK;
			}
			span = r->f[SSP_EF_SPAN];
		} else {
			o->stats.links++;
			span = r->f[SSP_LF_SPAN];
		}
		if (span != 0 && span == o->last_id && o->last_idx != NONE)
			si = o->last_idx;
		else
			si = span != 0 ? find_span(o, span) : NONE;
		if (si == NONE - 1)
			rc = -1;
		else
			rc = si != NONE ? attach(o, si, r, fi->cls) :
			    add_pending(o, span, r, fi->cls);
		break;
	default:
		o->stats.other++;
		break;
	}
	if (rc != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
}

static void
batch_reset(struct ssp_otlp *o)
{
	size_t i;

	for (i = 0; i < o->nst; i++)
		o->st[i].head = o->st[i].tail = NONE;
	o->nsp = o->nev = o->nln = 0;
	ssp_map_clear(&o->spmap);
	o->spmap_live = 0;
	o->last_id = 0;
	o->last_idx = NONE;
}

void
ssp_otlp_discard(struct ssp_otlp *o, size_t *nspans)
{
	*nspans = o->nsp;
	o->stats.spans_discarded += o->nsp;
	o->stats.events_discarded += o->nev;
	o->stats.links_discarded += o->nln;
	batch_reset(o);
}

void
ssp_otlp_finish(struct ssp_otlp *o)
{
	size_t i;

	for (i = 0; i < o->npend; i++) {
		/* Entries already attached are unlinked from the map. */
		const struct ssp_rec *r = &o->pend[i].r;
		int cls = info(o, r)->cls;
		uint64_t span = cls == C_EVENT ? r->f[SSP_EF_SPAN] :
		    r->f[SSP_LF_SPAN];
		uint32_t j;

		/* Count each live entry once, through its chain head. */
		if (idmap_get(&o->pendmap, span) != (uint32_t)i)
			continue;
		for (j = (uint32_t)i; j != NONE; j = o->pend[j].next)
			unmatched(o, span, info(o, &o->pend[j].r)->cls);
	}
	o->npend = o->npend_live = 0;
	ssp_map_clear(&o->pendmap);
}

/* --- strings of the stream ------------------------------------------------ */

/* Entries start over when the stream's string ids do: checked before
 * each request is encoded (ids change only while records are read). */
static void
strc_sync(struct ssp_otlp *o)
{
	uint64_t gen = ssp_rec_rd_strgen(o->rr);

	if (gen != o->strgen) {		/* ids start over */
		if (o->nsc > 0)
			memset(o->sc, 0, o->nsc * sizeof(*o->sc));
		ssp_buf_reset(&o->jarena);
		o->strgen = gen;
	}
}

static struct strc *strc_grow(struct ssp_otlp *o, uint64_t id);

/* The cache entry of string id, or NULL (ids too large, out of memory). */
static inline struct strc *
strc_get(struct ssp_otlp *o, uint64_t id)
{
	return id < o->nsc ? &o->sc[id] : strc_grow(o, id);
}

static struct strc *
strc_grow(struct ssp_otlp *o, uint64_t id)
{
	if (id < STRC_MAX) {
		size_t nn = o->nsc < 1024 ? 1024 : o->nsc;
		struct strc *q;

		while (nn <= id)
			nn *= 2;
		if ((q = realloc(o->sc, nn * sizeof(*q))) != NULL) {
			memset(q + o->nsc, 0, (nn - o->nsc) * sizeof(*q));
			o->sc = q;
			o->nsc = nn;
			return &o->sc[id];
		}
	}
	return NULL;
}

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

/* --- gathering attributes ---------------------------------------------------- */

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

	ssp_otlp_span_hex(tmp, v);
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
		si->start = ssp_otlp_ps_to_ns(r->ts, o->opt.epoch_ns);
		si->end = ssp_otlp_ps_to_ns(end_ps, o->opt.epoch_ns);
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

/* --- OTLP/JSON ----------------------------------------------------------------- */

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

/* A span's name: its kind's, but a syscall's adds its call (the syscall,
 * "host.syscall sendto", formats/otlp.md), as JSON string (pb 0) or as
 * protobuf field Span.name (pb 1); *n its length.  The name of a syscall
 * is built into o->name, the kind's name is fi's. */
static const void *
name_of(struct ssp_otlp *o, const struct ftinfo *fi, const struct ssp_rec *r,
    int pb, size_t *n)
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
	const void *jname = name_of(o, fi, r, 0, &jnlen);

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
		ssp_otlp_trace_hex(p, r->f[SSP_SF_TRACE_HI], r->f[SSP_SF_TRACE_LO]);
		p += 32;
		memcpy(p, "\",\"spanId\":\"", 12);
		p += 12;
		ssp_otlp_span_hex(p, r->f[SSP_SF_SPAN]);
		p += 16;
		if (r->f[SSP_SF_PARENT] != 0) {
			memcpy(p, "\",\"parentSpanId\":\"", 18);
			p += 18;
			ssp_otlp_span_hex(p, r->f[SSP_SF_PARENT]);
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
					p += fmt_u64(p, ssp_otlp_ps_to_ns(er->ts,
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
			ssp_otlp_trace_hex(id, l->trace_hi, l->trace_lo);
			ssp_buf_put(b, id, 32);
			ssp_buf_lit(b, "\",\"spanId\":\"");
			ssp_otlp_span_hex(id, l->target);
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

/* --- protobuf ------------------------------------------------------------------ */

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
	const uint8_t *pbname = name_of(o, fi, r, 1, &pbnlen);
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
			le64(p, ssp_otlp_ps_to_ns(er->ts, o->opt.epoch_ns));
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

/* --- batches -------------------------------------------------------------------- */

/* The first span of stream st with an index in [lo, hi), or NONE. */
static uint32_t
first_in(const struct ssp_otlp *o, const struct stream *st, uint32_t lo,
    uint32_t hi)
{
	uint32_t i;

	for (i = st->head; i != NONE; i = o->sp[i].next)
		if (i >= lo && i < hi)
			return i;
	return NONE;
}

/* The spans [lo, hi) of the batch (in arrival order) as one request. */
static void
encode_range(struct ssp_otlp *o, struct ssp_buf *b, uint32_t lo, uint32_t hi)
{
	size_t k, first = 1;
	uint32_t i, i0;

	strc_sync(o);
	if (o->opt.proto == SSP_OTLP_JSON)
		ssp_buf_lit(b, "{\"resourceSpans\":[");
	for (k = 0; k < o->nst; k++) {
		struct stream *st = &o->st[k];

		if ((i0 = first_in(o, st, lo, hi)) == NONE)
			continue;
		if (o->opt.proto == SSP_OTLP_JSON) {
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
		} else {
			struct ssp_pb_mark rs, ss;

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
					pb_text(o, b, F_SCOPE_VERSION, ver,
					    strlen(ver));
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
		first = 0;
	}
	if (o->opt.proto == SSP_OTLP_JSON)
		ssp_buf_lit(b, "]}");
}

int
ssp_otlp_encode(struct ssp_otlp *o, struct ssp_buf *b, size_t *nspans,
    struct ssp_err *e)
{
	*nspans = o->nsp;
	encode_range(o, b, 0, (uint32_t)o->nsp);
	o->stats.spans_out += o->nsp;
	o->stats.batches++;
	batch_reset(o);
	if (b->failed)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory encoding "
		    "a batch of %zu spans", *nspans);
	return SSP_OK;
}

/* Spans, events and links of the spans [lo, hi). */
static size_t
items(const struct ssp_otlp *o, uint32_t lo, uint32_t hi)
{
	size_t n = hi - lo;
	uint32_t i, j;

	for (i = lo; i < hi; i++) {
		if (o->events)
			for (j = o->sp[i].ev; j != NONE; j = o->ev[j].next)
				n++;
		for (j = o->sp[i].ln; j != NONE; j = o->ln[j].next)
			n++;
	}
	return n;
}

int
ssp_otlp_encode_each(struct ssp_otlp *o, struct ssp_buf *b,
    ssp_otlp_emit_fn emit, void *ctx, struct ssp_err *e)
{
	size_t max = o->opt.max_bytes;
	uint32_t lo = 0, hi, n = (uint32_t)o->nsp;
	int rc = SSP_OK;

	/* Requests of up to max bytes, and a batch before it is split, in
	 * memory on huge pages (base/buf): for full batches only, so that a
	 * short stream does not fault in 2 MiB pages for a few KB. */
	if (max != 0 && max <= SIZE_MAX / 4 && o->nsp >= o->opt.batch &&
	    ssp_buf_reserve_huge(b, max + max / 2) != 0) {
		batch_reset(o);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory for a "
		    "request buffer");
	}

	while (lo < n && rc == SSP_OK) {
		struct ssp_otlp_stats saved = o->stats;

		hi = n;
		for (;;) {
			ssp_buf_reset(b);
			encode_range(o, b, lo, hi);
			if (b->failed) {
				rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of "
				    "memory encoding a batch of %u spans", hi - lo);
				break;
			}
			if (max == 0 || b->len <= max || hi - lo == 1)
				break;
			/* Too large (rare: the batch was ended by the estimate):
			 * fewer spans, in proportion, with a margin. */
			o->stats = saved;
			hi = lo + (uint32_t)((double)(hi - lo) * 0.9 * (double)max /
			    (double)b->len);
			if (hi <= lo)
				hi = lo + 1;
		}
		if (rc != SSP_OK)
			break;
		/* what a record costs, for ssp_otlp_full() */
		o->avg = (double)b->len / (double)items(o, lo, hi);
		set_full_items(o);
		o->stats.spans_out += hi - lo;
		o->stats.batches++;
		if (emit(ctx, b, hi - lo) != 0)
			rc = ssp_err_set(e, SSP_ERR_IO, 0, "writing a request");
		lo = hi;
	}
	batch_reset(o);
	return rc;
}