/*
 * What the files of the OTLP encoder share, and nothing else includes
 * (make checkdeps): the field numbers of opentelemetry-proto, the encoder
 * object with its batch, the attribute keys and record types encoded
 * once, the cache of the stream's strings, and the id and time
 * conversions, inline for the encoders' hot paths.  The files:
 *
 *   otlp.c       the public API (otlp.h): opening, the batch, requests
 *                split to the size limit
 *   otlp_key.c   keys, record types and stream resources, encoded once
 *   otlp_json.c  a request in the OTLP/JSON encoding
 *   otlp_pb.c    a request in protobuf
 *   otlp_attr.h  a record's values as attributes, for the two encoders
 *
 * Names: what is shared and not inline is ssp_otlp_* (otlp.c) or
 * ssp_otlp_<file>_* (make checksymbols); inline helpers have short names.
 */
#ifndef SSP_OTLP_INT_H
#define SSP_OTLP_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "base/hex.h"
#include "base/map.h"
#include "sink/otlp.h"
#include "stream/rec.h"
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

/* --- times and ids (ssp_otlp_ps_to_ns, ssp_otlp_span_hex), inline ----------- */

static inline uint64_t
otlp_ps_to_ns(int64_t ps, int64_t epoch_ns)
{
	int64_t q = ps / 1000, ns;

	if (ps % 1000 < 0)
		q--;		/* floor, also before 0 */
	if (__builtin_add_overflow(q, epoch_ns, &ns))
		return epoch_ns > 0 ? (uint64_t)INT64_MAX : 0;
	return ns < 0 ? 0 : (uint64_t)ns;
}

static inline void
otlp_span_hex(char out[16], uint64_t id)
{
	ssp_hex_u64(out, id);
}

static inline void
otlp_trace_hex(char out[32], uint64_t hi, uint64_t lo)
{
	otlp_span_hex(out, hi);
	otlp_span_hex(out + 16, lo);
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
				 * its kind's (ssp_otlp_key_span_name),
				 * encoded */
	struct ssp_buf nraw, nfix;	/* ... as text, repaired */
	struct ssp_otlp_stats stats;
	double avg;		/* bytes an encoded record takes, lately */
	size_t full_items;	/* records at which a batch is full by avg */
};

/* The record type of r. */
static inline const struct ftinfo *
info(const struct ssp_otlp *o, const struct ssp_rec *r)
{
	static const struct ftinfo skip = { .cls = C_SKIP };

	return r->ftag >= 1 && r->ftag <= o->nft ? &o->ft[r->ftag - 1] : &skip;
}

/* The first span of stream st with an index in [lo, hi), or NONE. */
static inline uint32_t
first_in(const struct ssp_otlp *o, const struct stream *st, uint32_t lo,
    uint32_t hi)
{
	uint32_t i;

	for (i = st->head; i != NONE; i = o->sp[i].next)
		if (i >= lo && i < hi)
			return i;
	return NONE;
}

/* --- strings of the stream (otlp.c) ---------------------------------------- */

struct strc *ssp_otlp_strc_grow(struct ssp_otlp *o, uint64_t id);

/* The cache entry of string id, or NULL (ids too large, out of memory). */
static inline struct strc *
strc_get(struct ssp_otlp *o, uint64_t id)
{
	return id < o->nsc ? &o->sc[id] : ssp_otlp_strc_grow(o, id);
}

/* --- the modules' entry points --------------------------------------------- */

/* otlp_key.c: the fixed keys of o, a record type, a stream's resource in
 * both encodings: 0, or -1 when out of memory. */
int ssp_otlp_key_fixed_init(struct ssp_otlp *o);
int ssp_otlp_key_type_init(struct ftinfo *fi, const struct ssp_rec_type *t);
int ssp_otlp_key_stream_init(struct ssp_otlp *o, struct stream *s,
    const struct ssp_span_source *src);
void ssp_otlp_key_free(struct okey *k);
void ssp_otlp_key_type_free(struct ftinfo *fi);
/* A span's name: its kind's, but a syscall's adds its call (the system
 * call, "host.syscall sendto", formats/otlp.md), as JSON string (pb 0)
 * or as protobuf field Span.name (pb 1); *n its length.  A syscall's is
 * built into o->name, valid until the next call; the kind's is fi's. */
const void *ssp_otlp_key_span_name(struct ssp_otlp *o,
    const struct ftinfo *fi, const struct ssp_rec *r, int pb, size_t *n);
/* otlp_json.c and otlp_pb.c: a stream's resource and scope, encoded once
 * into s->res_json or s->res_pb from its attributes a[0..n); */
void ssp_otlp_json_resource(struct ssp_otlp *o, struct stream *s,
    const struct av *a, size_t n);
void ssp_otlp_pb_resource(struct ssp_otlp *o, struct stream *s,
    const struct av *a, size_t n);
/* the spans [lo, hi) of the batch (in arrival order) as one
 * ExportTraceServiceRequest appended to b. */
void ssp_otlp_json_request(struct ssp_otlp *o, struct ssp_buf *b, uint32_t lo,
    uint32_t hi);
void ssp_otlp_pb_request(struct ssp_otlp *o, struct ssp_buf *b, uint32_t lo,
    uint32_t hi);

#endif
