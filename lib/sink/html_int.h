/*
 * What the files of the HTML sink share, and nothing else includes (make
 * checkdeps): the sink's state, its trace aggregates and detailed spans,
 * and a few small helpers, inline.  The files:
 *
 *   html.c         the first pass (ssp_html_load): record types, streams,
 *                  trace aggregates spilled to a sort, lanes and their
 *                  density, latency groups, the traces the page lists
 *   html_detail.c  the second pass (ssp_html_detail): the listed traces'
 *                  spans, attributes, events and links, busy-time splits
 *   html_json.c    the page's data as JSON (ssp_html_json, formats/html.md)
 *   html_page.c    the page: the data gzip'd and base64'd into the viewer
 *                  (ssp_html_page)
 *
 * Names: what is shared and not inline is ssp_html_* (html.c, make
 * checksymbols); inline helpers have short names.
 */
#ifndef SSP_HTML_INT_H
#define SSP_HTML_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/atoms.h"
#include "base/buf.h"
#include "base/ksort.h"
#include "base/map.h"
#include "base/strfmt.h"
#include "sink/html.h"
#include "stream/rec.h"
#include "stream/span.h"

#define FORMAT_VERSION	2
#define TICK		4096
#define NONE		UINT32_MAX
#define NB		SSP_HTML_BINS
#define HSUB		(1u << SSP_HTML_HIST_BITS)
#define KW		7		/* words of a trace aggregate in the sort */
#define SORT_MEM	(1u << 20)	/* bytes of aggregates the sort holds */

enum { C_SKIP, C_SPAN, C_LINK, C_EVENT };

struct ftype {
	char *tname;		/* the record type's name (a copy) */
	int cls;
	const char *name;	/* span kind; event type without "ev." */
	int32_t kind;		/* index into h->kinds (spans) */
	int ctx_field;		/* host.syscall: the cpu field, else -1 */
	const char *ctx_suffix;	/* lane of its own per CPU: "irq", ... */
};

struct stream {
	char *name;
	const char *sim, *kind;
	int net;		/* a network simulator's stream */
};

/*
 * A trace as the first pass knows it, mergeable: the parts of one trace
 * aggregated at different times (before and after a spill) combine into
 * the numbers of the whole.
 */
struct agg {
	uint64_t hi, lo;
	int64_t start, end;
	uint64_t root_seq;	/* its root's place among the spans; max: none */
	uint32_t n, nev;	/* spans, member events (saturating) */
	int32_t root_kind;	/* index into kinds, -1: no root */
	uint32_t root_stream;	/* NONE: no root */
	uint32_t net;		/* a span on a network stream */
};

/* A timeline lane's density over the bins of the whole run (§2.4): the
 * busy time in each bin, and difference arrays of how many spans touch a
 * bin, cross the boundary after it, or cover it whole. */
struct lane {
	uint32_t stream, ctx;	/* ctx: atom of the CPU, 0: none */
	double *busy;		/* NB, ps */
	int64_t *cnt, *cross, *full;	/* NB + 1 each */
};

/* The latency histogram of one group of traces (root kind, root stream,
 * crosses the network): counts of buckets [base, base + len). */
struct lgroup {
	int32_t kind;
	uint32_t stream, net;
	uint64_t n;
	int64_t min, max;
	uint32_t base, len;
	uint64_t *c;
};

/* Disjoint intervals [v[2i], v[2i + 1]], sorted, none touching. */
struct iset {
	int64_t *v;
	uint32_t n, cap;
};

struct ssplit {			/* one stream's part of a listed trace */
	uint32_t stream, spans;
	int64_t busy;
	struct iset is;
};

/* A trace the page lists. */
struct strace {
	struct agg a;
	uint32_t flags;		/* or of its spans' flags */
	int32_t detail;		/* index among detailed traces, -1: none */
	int events;		/* its member events are in the page */
	uint32_t pos;		/* its place in the page's trace list */
	uint32_t first, last;	/* its detailed spans */
	uint32_t seen;		/* spans of the second pass */
	int64_t busy;
	struct iset all;
	struct ssplit *sp;
	uint32_t nsp, capsp;
};

/* A span of a detailed trace. */
struct span {
	int64_t start, dur;
	uint64_t id, parent;
	uint32_t next;		/* next span of the same trace */
	uint32_t ft;		/* file record type */
	uint32_t stream, flags, lane;
	uint32_t cause;		/* atom, 0: none */
	uint64_t attr;		/* offset of its attribute JSON in h->text */
	uint32_t attrlen, nevents;
	uint64_t xtra;		/* offset of its events in h->xtext */
	uint64_t ltra;		/* offset of its links in h->ltext */
	uint32_t xlinks, xevents;	/* bytes of each */
};

struct ssp_html {
	struct ssp_html_opts o;
	struct ssp_html_stats st;
	const struct ssp_schema *fs;	/* while reading */
	unsigned fs_ntypes;
	struct ftype *ft;
	char *kinds[64];	/* span kind names (copies: the reader goes first) */
	unsigned nkinds;
	struct stream *streams;
	uint32_t nstreams;
	char *producer;
	struct ssp_atoms *atoms;
	int pass;		/* 1 reading the first time, 2 the second, 3 done */
	int all;		/* every trace listed */
	int64_t t0, t1;		/* the run: earliest start, latest end */
	uint64_t check;		/* of the span records, to know the second
				 * pass reads the same stream */
	uint64_t records1;
	/* the current span, whose events and links follow */
	int have_cur;
	uint64_t cur_id;
	uint32_t cur;		/* pass 1: its live trace; 2: its detailed span */
	uint32_t cur_nl, cur_ne;
	int keep_events;
	/* pass 1: traces aggregated in memory, the sort they spill to */
	struct agg *live;
	uint32_t nlive, caplive, maxlive, last_live;
	struct ssp_map lmap;
	struct ssp_ksort *ks;
	uint64_t kpay;
	/* lanes and their density bins: bin k of width dw is [k dw,
	 * (k + 1) dw); array position p holds bin dlo + p */
	struct lane *lanes;
	uint32_t nlanes, caplanes, last_lane;
	int64_t dw, dlo, occ_lo, occ_hi;
	int docc;		/* occ_lo..occ_hi hold the bins touched */
	/* latency groups */
	struct lgroup *groups;
	uint32_t ngroups, capgroups, last_group;
	struct ssp_map gmap;
	/* choosing the listed traces */
	struct agg *heap;	/* the slowest so far, least slow first */
	uint32_t nheap, capheap;
	struct agg *samp;	/* every sstride-th trace in id order */
	uint32_t nsamp, capsamp;
	uint64_t srank, sstride, scap;
	/* the listed traces */
	struct strace *sel;
	uint32_t nsel, capsel, last_sel;
	struct ssp_map smap;
	uint32_t *order;	/* listed traces by start */
	uint32_t *detail;	/* detailed traces, by start */
	uint32_t ndetail;
	uint64_t omit_events;	/* member events left out (cap, --no-events) */
	/* pass 2: the detailed spans */
	struct span *sp;
	uint32_t nsp, capsp;
	struct ssp_buf text, xtext, ltext;
	uint64_t seq2, records2, check2;
};

static const char hexdig[] = "0123456789abcdef";

static inline uint64_t
mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static inline uint64_t
idhash(uint64_t hi, uint64_t lo)
{
	return mix(hi ^ mix(lo));
}

static inline uint32_t
sat32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* start + dur, at most INT64_MAX (dur >= 0) */
static inline int64_t
span_end(int64_t start, int64_t dur)
{
	return start > INT64_MAX - dur ? INT64_MAX : start + dur;
}

/* v as lowercase hex digits without leading zeros (at least one). */
static inline size_t
hex_digits(char *out, uint64_t v)
{
	char tmp[16];
	size_t n = 0, i;

	do {
		tmp[n++] = hexdig[v & 15];
		v >>= 4;
	} while (v != 0);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

static inline void
put_hex(struct ssp_buf *b, uint64_t v)
{
	if (ssp_buf_reserve(b, 18) != 0)
		return;
	b->p[b->len++] = '"';
	b->len += hex_digits((char *)b->p + b->len, v);
	b->p[b->len++] = '"';
}

/* A trace id: 32 hex digits, quoted. */
static inline void
put_trace_id(struct ssp_buf *b, uint64_t hi, uint64_t lo)
{
	int i;

	if (ssp_buf_reserve(b, 34) != 0)
		return;
	b->p[b->len++] = '"';
	for (i = 60; i >= 0; i -= 4)
		b->p[b->len++] = (uint8_t)hexdig[(hi >> i) & 15];
	for (i = 60; i >= 0; i -= 4)
		b->p[b->len++] = (uint8_t)hexdig[(lo >> i) & 15];
	b->p[b->len++] = '"';
}

/* A number JSON readers take exactly (|v| < 2^53), else a string. */
static inline void
put_num(struct ssp_buf *b, int64_t v)
{
	if (v > -(INT64_C(1) << 53) && v < (INT64_C(1) << 53)) {
		ssp_strfmt_json_i64(b, v);
	} else {
		ssp_buf_putc(b, '"');
		ssp_strfmt_json_i64(b, v);
		ssp_buf_putc(b, '"');
	}
}

/* html.c */
int ssp_html_grow(void **p, uint32_t *cap, uint32_t need, size_t size);
/* qsort, which must not see a null array even when it is empty */
void ssp_html_sort_n(void *p, size_t n, size_t size,
    int (*cmp)(const void *, const void *));
uint32_t ssp_html_lane_find(struct ssp_html *h, uint32_t stream, uint32_t ctx);
/* A lane's bins as plain values (prefix sums), and back to difference
 * arrays. */
void ssp_html_lane_concrete(struct lane *l, int64_t w);
void ssp_html_lane_diff(struct lane *l);
uint32_t ssp_html_span_ctx(struct ssp_html *h, const struct ssp_rec *r,
    const struct ftype *f, struct ssp_rec_rd *rr, int intern);
uint64_t ssp_html_span_check(uint64_t c, const struct ssp_rec *r);
/* A link or event record of the current span: counted, 1; else 0. */
int ssp_html_attached(struct ssp_html *h, const struct ssp_rec *r,
    const struct ftype *f);
int ssp_html_bad_span(const struct ssp_html *h, const struct ssp_rec *r,
    struct ssp_rec_rd *rr, struct ssp_err *e);

#endif
