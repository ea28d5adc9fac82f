/*
 * Span streams into one self-contained HTML page (sink/html.h, the data
 * format in formats/html.md), in two passes with bounded memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/atoms.h"
#include "base/map.h"
#include "base/strfmt.h"
#include "sink/html.h"
#include "sink/html_viewer.h"
#include "base/ksort.h"
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

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static int
grow(void **p, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t n;
	void *q;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap : 4;	/* small: a listed trace has a few of each */
	while (n < need) {
		if (n > UINT32_MAX / 2)
			return -1;
		n *= 2;
	}
	if ((q = realloc(*p, (size_t)n * size)) == NULL)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* qsort, which must not see a null array even when it is empty */
static void
sort_n(void *p, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(p, n, size, cmp);
}

static void
put_mac(struct ssp_buf *b, uint64_t v)
{
	char s[20];
	int n = snprintf(s, sizeof(s), "\"%02x:%02x:%02x:%02x:%02x:%02x\"",
	    (unsigned)(v >> 40) & 255, (unsigned)(v >> 32) & 255,
	    (unsigned)(v >> 24) & 255, (unsigned)(v >> 16) & 255,
	    (unsigned)(v >> 8) & 255, (unsigned)v & 255);

	ssp_buf_put(b, s, (size_t)n);
}

static void
put_ip(struct ssp_buf *b, uint64_t v)
{
	char s[20];
	int n = snprintf(s, sizeof(s), "\"%u.%u.%u.%u\"",
	    (unsigned)(v >> 24) & 255, (unsigned)(v >> 16) & 255,
	    (unsigned)(v >> 8) & 255, (unsigned)v & 255);

	ssp_buf_put(b, s, (size_t)n);
}

static const char hexdig[] = "0123456789abcdef";

/* v as lowercase hex digits without leading zeros (at least one). */
static size_t
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

static void
put_hex(struct ssp_buf *b, uint64_t v)
{
	if (ssp_buf_reserve(b, 18) != 0)
		return;
	b->p[b->len++] = '"';
	b->len += hex_digits((char *)b->p + b->len, v);
	b->p[b->len++] = '"';
}

/* A trace id: 32 hex digits, quoted. */
static void
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
static void
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

/* Fields [first, nf) of r as a JSON object (formats/html.md §4). */
static void
put_fields(struct ssp_buf *b, const struct ssp_rec_type *t, unsigned first,
    const struct ssp_rec *r, const struct ssp_rec_rd *rr)
{
	unsigned k;
	int any = 0;

	ssp_buf_putc(b, '{');
	for (k = first; k < t->nf && k < r->nf; k++) {
		uint64_t v = r->f[k];
		char enc = t->f[k].enc;
		const char *s = NULL;
		size_t len = 0;

		if ((enc == SSP_ENC_I && (int64_t)v == -1) ||
		    (enc == SSP_ENC_S && (v == 0 ||
		    (s = ssp_rec_rd_str(rr, v, &len)) == NULL)))
			continue;
		if (any)
			ssp_buf_putc(b, ',');
		any = 1;
		ssp_strfmt_json_str(b, t->f[k].name, strlen(t->f[k].name));
		ssp_buf_putc(b, ':');
		switch (enc) {
		case SSP_ENC_B: if (v) ssp_buf_lit(b, "true");
			else ssp_buf_lit(b, "false");
			break;
		case SSP_ENC_S: ssp_strfmt_json_str(b, s, len); break;
		case SSP_ENC_M: put_mac(b, v); break;
		case SSP_ENC_A: put_ip(b, v); break;
		case SSP_ENC_X: put_hex(b, v); break;
		case SSP_ENC_U:
			if (v < (UINT64_C(1) << 53))
				ssp_strfmt_json_u64(b, v);
			else
				put_hex(b, v);
			break;
		default: put_num(b, (int64_t)v);
		}
	}
	ssp_buf_putc(b, '}');
}

static int
setup_types(struct ssp_html *h, struct ssp_err *e)
{
	const struct ssp_rec_type *common = &ssp_span_schema(0)->types[0];
	unsigned i, k;

	if ((h->ft = calloc(h->fs->ntypes + 1, sizeof(*h->ft))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	h->fs_ntypes = h->fs->ntypes;
	for (i = 0; i < h->fs->ntypes; i++) {
		const struct ssp_rec_type *t = &h->fs->types[i];
		struct ftype *f = &h->ft[i];

		f->ctx_field = -1;
		f->kind = -1;
		if ((f->tname = strdup(t->name)) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		if (strcmp(t->name, "link") == 0 && t->nf > SSP_LF_TARGET) {
			f->cls = C_LINK;
		} else if (strncmp(t->name, "ev.", 3) == 0 &&
		    t->nf >= SSP_EF_NCOMMON) {
			f->cls = C_EVENT;
			f->name = f->tname + 3;	/* copies: the reader goes */
		} else if (t->nf >= SSP_SF_NCOMMON) {
			for (k = 0; k < SSP_SF_NCOMMON; k++)
				if (strcmp(t->f[k].name, common->f[k].name) != 0 ||
				    t->f[k].enc != common->f[k].enc)
					break;
			if (k < SSP_SF_NCOMMON || h->nkinds == 64)
				continue;
			f->cls = C_SPAN;
			f->name = f->tname;
			f->kind = (int32_t)h->nkinds;
			if ((h->kinds[h->nkinds++] = strdup(t->name)) == NULL)
				return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
			/* per-CPU lanes: syscalls (with the resumes of
			 * woken syscalls), hardirqs, softirqs, app spans */
			if (strcmp(t->name, "host.syscall") == 0 ||
			    strcmp(t->name, "host.resume") == 0)
				f->ctx_field = ssp_rec_type_field(t, "cpu");
			else if (strcmp(t->name, "host.irq") == 0 ||
			    strcmp(t->name, "host.softirq") == 0 ||
			    strcmp(t->name, "host.app") == 0) {
				f->ctx_field = ssp_rec_type_field(t, "cpu");
				f->ctx_suffix = f->tname + 5;	/* a copy: the reader goes */
			}
		}
	}
	return SSP_OK;
}

static int
setup_streams(struct ssp_html *h, struct ssp_rec_rd *rr, struct ssp_err *e)
{
	struct ssp_span_source *src;
	const char *p;
	int n = ssp_span_reader_sources(rr, NULL, 0), i;

	if (n < 0)
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: bad stream list in "
		    "the span stream header", ssp_rec_rd_name(rr));
	if ((src = calloc((size_t)n + 1, sizeof(*src))) == NULL ||
	    (h->streams = calloc((size_t)n + 1, sizeof(*h->streams))) == NULL) {
		free(src);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	ssp_span_reader_sources(rr, src, (size_t)n);
	for (i = 0; i < n; i++) {
		if ((h->streams[i].name = strndup(src[i].name, src[i].namelen))
		    == NULL) {
			free(src);
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		}
		h->streams[i].sim = ssp_event_sim_name(src[i].sim);
		h->streams[i].kind = ssp_event_sim_kind(src[i].sim);
		h->streams[i].net = strcmp(h->streams[i].kind, "net") == 0;
	}
	h->nstreams = (uint32_t)n;
	free(src);
	p = ssp_rec_rd_meta(rr, "producer");
	if ((h->producer = strdup(p != NULL ? p : "")) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
}


static uint64_t
idhash(uint64_t hi, uint64_t lo)
{
	return mix(hi ^ mix(lo));
}

static uint32_t
sat32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* start + dur, at most INT64_MAX (dur >= 0) */
static int64_t
span_end(int64_t start, int64_t dur)
{
	return start > INT64_MAX - dur ? INT64_MAX : start + dur;
}

/* floor(a / w) for w > 0 */
static int64_t
floordiv(int64_t a, int64_t w)
{
	int64_t q = a / w;

	return (a % w != 0 && a < 0) ? q - 1 : q;
}

/* --- lanes and density ---------------------------------------------------- */

static uint32_t
lane_find(struct ssp_html *h, uint32_t stream, uint32_t ctx)
{
	uint32_t i;

	if (h->last_lane < h->nlanes && h->lanes[h->last_lane].stream == stream &&
	    h->lanes[h->last_lane].ctx == ctx)
		return h->last_lane;
	for (i = 0; i < h->nlanes; i++)
		if (h->lanes[i].stream == stream && h->lanes[i].ctx == ctx)
			return h->last_lane = i;
	return NONE;
}

static uint32_t
lane_get(struct ssp_html *h, uint32_t stream, uint32_t ctx)
{
	struct lane *l;
	uint32_t i;

	if ((i = lane_find(h, stream, ctx)) != NONE)
		return i;
	if (grow((void **)&h->lanes, &h->caplanes, h->nlanes + 1,
	    sizeof(*h->lanes)) != 0)
		return NONE;
	l = &h->lanes[h->nlanes];
	memset(l, 0, sizeof(*l));
	l->stream = stream;
	l->ctx = ctx;
	if ((l->busy = calloc(NB, sizeof(*l->busy))) == NULL ||
	    (l->cnt = calloc(NB + 1, sizeof(*l->cnt))) == NULL ||
	    (l->cross = calloc(NB + 1, sizeof(*l->cross))) == NULL ||
	    (l->full = calloc(NB + 1, sizeof(*l->full))) == NULL) {
		free(l->busy);
		free(l->cnt);
		free(l->cross);
		free(l->full);
		return NONE;
	}
	return h->last_lane = h->nlanes++;
}

/* The lane's bins as plain values: busy with its whole bins added, cnt
 * and cross as counts (prefix sums), full zero. */
static void
lane_concrete(struct lane *l, int64_t w)
{
	int64_t c = 0, x = 0, f = 0;
	uint32_t i;

	for (i = 0; i < NB; i++) {
		c += l->cnt[i];
		x += l->cross[i];
		f += l->full[i];
		l->cnt[i] = c;
		l->cross[i] = x;
		l->busy[i] += (double)f * (double)w;
		l->full[i] = 0;
	}
	l->cnt[NB] = l->cross[NB] = l->full[NB] = 0;
}

/* Back from plain counts to difference arrays. */
static void
lane_diff(struct lane *l)
{
	int64_t pc = 0, px = 0, c, x;
	uint32_t i;

	for (i = 0; i < NB; i++) {
		c = l->cnt[i];
		x = l->cross[i];
		l->cnt[i] = c - pc;
		l->cross[i] = x - px;
		pc = c;
		px = x;
	}
	l->cnt[NB] = -pc;
	l->cross[NB] = -px;
}

/*
 * Make the bins hold absolute bins a..z (at the current width): double the
 * width until the bins touched so far and a..z fit in NB bins (two bins
 * merge into one: a span touching both counts once, which the crossings
 * tell), then move the window so they lie inside it, with half the room
 * left on either side.
 */
static void
regrid(struct ssp_html *h, int64_t a_ps, int64_t z_ps)
{
	int64_t a = floordiv(a_ps, h->dw), z = floordiv(z_ps, h->dw);
	int64_t need_lo, need_hi, nlo, shift, free_bins, r;
	uint32_t i, p, q;

	for (i = 0; i < h->nlanes; i++)
		lane_concrete(&h->lanes[i], h->dw);
	for (;;) {
		need_lo = h->docc && h->occ_lo < a ? h->occ_lo : a;
		need_hi = h->docc && h->occ_hi > z ? h->occ_hi : z;
		if ((uint64_t)need_hi - (uint64_t)need_lo < NB)
			break;
		/* merge pairs: absolute bin k goes to floor(k / 2), so new
		 * position q takes old positions 2q - r and 2q - r + 1, r the
		 * parity of dlo (never ahead of q: done in place) */
		nlo = floordiv(h->dlo, 2);
		r = h->dlo - 2 * nlo;
		for (i = 0; i < h->nlanes; i++) {
			struct lane *l = &h->lanes[i];

			for (q = 0; q < NB; q++) {
				int64_t at = 2 * (int64_t)q - r;
				double b = 0;
				int64_t c = 0, x = 0;

				if (at >= 0 && at < NB) {
					b += l->busy[at];
					c += l->cnt[at];
					/* a span in both counts once */
					if (at + 1 < NB)
						c -= l->cross[at];
				}
				if (at + 1 >= 0 && at + 1 < NB) {
					b += l->busy[at + 1];
					c += l->cnt[at + 1];
					x = l->cross[at + 1];
				}
				l->busy[q] = b;
				l->cnt[q] = c;
				l->cross[q] = x;
			}
		}
		h->dw *= 2;	/* at most 2^54: then 2^64 ps fit in 1024 bins */
		h->dlo = nlo;
		h->occ_lo = floordiv(h->occ_lo, 2);
		h->occ_hi = floordiv(h->occ_hi, 2);
		a = floordiv(a_ps, h->dw);
		z = floordiv(z_ps, h->dw);
	}
	if (need_lo < h->dlo || (uint64_t)need_hi - (uint64_t)h->dlo >= NB) {
		free_bins = NB - 1 - (need_hi - need_lo);
		nlo = need_lo >= INT64_MIN + free_bins / 2 ?
		    need_lo - free_bins / 2 : INT64_MIN;
		/* positions move up by shift (down when negative): less
		 * than NB, as the bins touched are in both windows (before
		 * the first span there is nothing to move) */
		shift = h->docc ? (int64_t)((uint64_t)h->dlo - (uint64_t)nlo) : 0;
		for (i = 0; shift != 0 && i < h->nlanes; i++) {
			struct lane *l = &h->lanes[i];
			size_t keep = (size_t)(NB - (shift > 0 ? shift : -shift));
			size_t to = shift > 0 ? (size_t)shift : 0;
			size_t from = shift > 0 ? 0 : (size_t)-shift;
			size_t clr = shift > 0 ? 0 : keep;

			memmove(l->busy + to, l->busy + from, keep * sizeof(*l->busy));
			memmove(l->cnt + to, l->cnt + from, keep * sizeof(*l->cnt));
			memmove(l->cross + to, l->cross + from,
			    keep * sizeof(*l->cross));
			for (p = 0; p < NB - keep; p++) {
				l->busy[clr + p] = 0;
				l->cnt[clr + p] = l->cross[clr + p] = 0;
			}
		}
		h->dlo = nlo;
	}
	for (i = 0; i < h->nlanes; i++)
		lane_diff(&h->lanes[i]);
}

/* A span [s, z] (ps) on lane l. */
static void
density_add(struct ssp_html *h, uint32_t li, int64_t s, int64_t z)
{
	struct lane *l;
	int64_t ka, kz, ba, bz, ra, rz, w;

	if (!h->docc) {		/* the first span: bins of 1 ps around it */
		h->dw = 1;
		h->dlo = s > INT64_MIN + NB / 2 ? s - NB / 2 : INT64_MIN;
		h->occ_lo = h->occ_hi = floordiv(s, h->dw);
	}
	ka = floordiv(s, h->dw);
	kz = floordiv(z, h->dw);
	if (ka < h->dlo || (uint64_t)kz - (uint64_t)h->dlo >= NB) {
		regrid(h, s, z);
		ka = floordiv(s, h->dw);
		kz = floordiv(z, h->dw);
	}
	if (!h->docc || ka < h->occ_lo)
		h->occ_lo = ka;
	if (!h->docc || kz > h->occ_hi)
		h->occ_hi = kz;
	h->docc = 1;
	l = &h->lanes[li];
	w = h->dw;
	ba = ka - h->dlo;
	bz = kz - h->dlo;
	l->cnt[ba]++;
	l->cnt[bz + 1]--;
	if (ba == bz) {
		l->busy[ba] += (double)(z - s);
		return;
	}
	/* offsets in their bins, exact (modulo 2^64, and below w) */
	ra = (int64_t)((uint64_t)s - (uint64_t)ka * (uint64_t)w);
	rz = (int64_t)((uint64_t)z - (uint64_t)kz * (uint64_t)w);
	l->busy[ba] += (double)(w - ra);
	l->busy[bz] += (double)rz;
	l->cross[ba]++;
	l->cross[bz]--;
	l->full[ba + 1]++;
	l->full[bz]--;
}

/* --- latency histograms ----------------------------------------------- */

/* The bucket of a latency (formats/html.md §2.5): exact below 2^BITS ps,
 * then 2^BITS buckets per octave. */
static uint32_t
hist_index(int64_t v)
{
	uint64_t u = v < 0 ? 0 : (uint64_t)v;
	unsigned e;

	if (u < HSUB)
		return (uint32_t)u;
	e = 63 - (unsigned)__builtin_clzll(u);
	return (uint32_t)((e - SSP_HTML_HIST_BITS) * HSUB +
	    (u >> (e - SSP_HTML_HIST_BITS)));
}

static int
group_add(struct ssp_html *h, const struct agg *a, int64_t dur)
{
	uint64_t key = (uint64_t)(uint32_t)(a->root_kind + 1) << 40 ^
	    (uint64_t)a->root_stream << 1 ^ a->net;
	struct ssp_map_slot *s;
	struct lgroup *g;
	uint32_t i = h->last_group, ix = hist_index(dur);
	int isnew;

	if (i >= h->ngroups || h->groups[i].kind != a->root_kind ||
	    h->groups[i].stream != a->root_stream || h->groups[i].net != a->net) {
		if ((s = ssp_map_put(&h->gmap, key, &isnew)) == NULL)
			return -1;
		if (isnew) {
			if (grow((void **)&h->groups, &h->capgroups,
			    h->ngroups + 1, sizeof(*h->groups)) != 0) {
				ssp_map_del(&h->gmap, s);
				return -1;
			}
			g = &h->groups[h->ngroups];
			memset(g, 0, sizeof(*g));
			g->kind = a->root_kind;
			g->stream = a->root_stream;
			g->net = a->net;
			s->val = h->ngroups++;
		}
		i = h->last_group = s->val;
	}
	g = &h->groups[i];
	if (g->n == 0 || dur < g->min)
		g->min = dur;
	if (g->n == 0 || dur > g->max)
		g->max = dur;
	g->n++;
	if (g->len == 0 || ix < g->base || ix >= g->base + g->len) {
		uint32_t lo = g->len && g->base < ix ? g->base : ix;
		uint32_t hi = g->len && g->base + g->len - 1 > ix ?
		    g->base + g->len - 1 : ix;
		uint64_t *c = calloc((size_t)(hi - lo) + 1, sizeof(*c));

		if (c == NULL)
			return -1;
		if (g->len)
			memcpy(c + (g->base - lo), g->c, g->len * sizeof(*c));
		free(g->c);
		g->c = c;
		g->base = lo;
		g->len = hi - lo + 1;
	}
	g->c[ix - g->base]++;
	return 0;
}

/* --- trace aggregates ------------------------------------------------------ */

static void
agg_merge(struct agg *a, const struct agg *b)
{
	if (b->start < a->start)
		a->start = b->start;
	if (b->end > a->end)
		a->end = b->end;
	if (b->root_seq < a->root_seq) {
		a->root_seq = b->root_seq;
		a->root_kind = b->root_kind;
		a->root_stream = b->root_stream;
	}
	a->n = sat32((uint64_t)a->n + b->n);
	a->nev = sat32((uint64_t)a->nev + b->nev);
	a->net |= b->net;
}

static void
agg_pack(const struct agg *a, uint64_t *k, uint64_t payload)
{
	k[0] = a->hi;
	k[1] = a->lo;
	k[2] = (uint64_t)a->start;
	k[3] = (uint64_t)a->end;
	k[4] = a->root_seq;
	k[5] = (uint64_t)a->n << 32 | a->nev;
	k[6] = (uint64_t)a->root_stream << 32 |
	    (uint64_t)(uint32_t)(a->root_kind + 1) << 1 | (a->net & 1);
	k[7] = payload;
}

static void
agg_unpack(const uint64_t *k, struct agg *a)
{
	a->hi = k[0];
	a->lo = k[1];
	a->start = (int64_t)k[2];
	a->end = (int64_t)k[3];
	a->root_seq = k[4];
	a->n = (uint32_t)(k[5] >> 32);
	a->nev = (uint32_t)k[5];
	a->root_stream = (uint32_t)(k[6] >> 32);
	a->root_kind = (int32_t)((uint32_t)k[6] >> 1) - 1;
	a->net = (uint32_t)(k[6] & 1);
}

/* The live traces to the sort, which keeps them on disk past SORT_MEM. */
static int
spill_live(struct ssp_html *h)
{
	uint64_t k[KW + 1];
	uint32_t i;
	int rc;

	if (h->ks == NULL && (h->ks = ssp_ksort_new(KW, SORT_MEM, NULL)) == NULL)
		return SSP_ERR_NOMEM;
	for (i = 0; i < h->nlive; i++) {
		agg_pack(&h->live[i], k, h->kpay++);
		if ((rc = ssp_ksort_add(h->ks, k)) != SSP_OK)
			return rc;
	}
	h->st.spilled += h->nlive;
	h->nlive = 0;
	h->last_live = NONE;
	ssp_map_clear(&h->lmap);
	return SSP_OK;
}

static int
sort_error(struct ssp_html *h, int rc, struct ssp_err *e)
{
	if (rc == SSP_ERR_IO)
		return ssp_err_set(e, SSP_ERR_IO, 0, "the temporary file of the "
		    "trace sort (in $TMPDIR, else /tmp): %s", strerror(errno));
	(void)h;
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

/* The live trace hi:lo, added when new (after a spill when the table is
 * full); NONE with *rc set on an error. */
static uint32_t
live_get(struct ssp_html *h, uint64_t hi, uint64_t lo, int *rc)
{
	uint64_t key = idhash(hi, lo);
	struct ssp_map_slot *s;
	struct agg *a;
	uint32_t i = h->last_live;

	if (i < h->nlive && h->live[i].hi == hi && h->live[i].lo == lo)
		return i;
	for (s = ssp_map_find(&h->lmap, key); s != NULL;
	    s = ssp_map_next(&h->lmap, s))
		if (h->live[s->val].hi == hi && h->live[s->val].lo == lo)
			return h->last_live = s->val;
	if (h->nlive == h->maxlive && (*rc = spill_live(h)) != SSP_OK)
		return NONE;
	*rc = SSP_ERR_NOMEM;
	if (grow((void **)&h->live, &h->caplive, h->nlive + 1,
	    sizeof(*h->live)) != 0 ||
	    ssp_map_add(&h->lmap, key, h->nlive) == NULL)
		return NONE;
	a = &h->live[h->nlive];
	memset(a, 0, sizeof(*a));
	a->hi = hi;
	a->lo = lo;
	a->start = INT64_MAX;
	a->end = INT64_MIN;
	a->root_seq = UINT64_MAX;
	a->root_kind = -1;
	a->root_stream = NONE;
	*rc = SSP_OK;
	return h->last_live = h->nlive++;
}

/* The span's lane context: its CPU (and "irq", "softirq", "app"), an atom;
 * 0 for none; NONE when it is not known and intern is 0, or out of
 * memory. */
static uint32_t
span_ctx(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f,
    struct ssp_rec_rd *rr, int intern)
{
	const char *str;
	size_t len;
	char lname[160];
	uint32_t a;

	if (f->ctx_field < 0 || (unsigned)f->ctx_field >= r->nf ||
	    r->f[f->ctx_field] == 0 ||
	    (str = ssp_rec_rd_str(rr, r->f[f->ctx_field], &len)) == NULL)
		return 0;
	if (f->ctx_suffix != NULL) {	/* "system.cpu0 softirq" */
		len = (size_t)snprintf(lname, sizeof(lname), "%.*s %s",
		    (int)(len < 120 ? len : 120), str, f->ctx_suffix);
		str = lname;
	}
	a = intern ? ssp_atoms_intern(h->atoms, str, len) :
	    ssp_atoms_find(h->atoms, str, len);
	return a != 0 ? a : NONE;
}

static uint64_t
span_check(uint64_t c, const struct ssp_rec *r)
{
	return mix(c ^ r->f[SSP_SF_SPAN] ^ mix((uint64_t)r->ts ^
	    mix(r->f[SSP_SF_TRACE_LO] ^ r->f[SSP_SF_TRACE_HI] << 1 ^
	    r->f[SSP_SF_STREAM] << 7)));
}

static int
bad_span(const struct ssp_html *h, const struct ssp_rec *r,
    struct ssp_rec_rd *rr, struct ssp_err *e)
{
	if (r->nf < SSP_SF_NCOMMON || r->f[SSP_SF_STREAM] >= h->nstreams ||
	    (int64_t)r->f[SSP_SF_DUR] < 0)
		return ssp_err_set(e, SSP_ERR_FORMAT, ssp_rec_rd_offset(rr),
		    "%s: offset %" PRIu64 ": span record with a bad stream index "
		    "or duration", ssp_rec_rd_name(rr), ssp_rec_rd_offset(rr));
	return SSP_OK;
}

static int
add_span(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f,
    struct ssp_rec_rd *rr, struct ssp_err *e)
{
	int64_t start = r->ts, end;
	uint32_t stream, flags, ti, ctx, li;
	struct agg *a;
	int rc;

	if ((rc = bad_span(h, r, rr, e)) != SSP_OK)
		return rc;
	end = span_end(start, (int64_t)r->f[SSP_SF_DUR]);
	stream = (uint32_t)r->f[SSP_SF_STREAM];
	flags = (uint32_t)r->f[SSP_SF_FLAGS];
	if (h->st.spans == 0 || start < h->t0)
		h->t0 = start;
	if (h->st.spans == 0 || end > h->t1)
		h->t1 = end;
	if ((ctx = span_ctx(h, r, f, rr, 1)) == NONE ||
	    (li = lane_get(h, stream, ctx)) == NONE)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	density_add(h, li, start, end);
	if ((ti = live_get(h, r->f[SSP_SF_TRACE_HI], r->f[SSP_SF_TRACE_LO],
	    &rc)) == NONE)
		return sort_error(h, rc, e);
	a = &h->live[ti];
	if (start < a->start)
		a->start = start;
	if (end > a->end)
		a->end = end;
	if (r->f[SSP_SF_PARENT] == 0 && a->root_seq == UINT64_MAX) {
		a->root_seq = h->st.spans;
		a->root_kind = f->kind;
		a->root_stream = stream;
	}
	a->n = sat32((uint64_t)a->n + 1);
	a->net |= (uint32_t)h->streams[stream].net;
	h->check = span_check(h->check, r);
	h->have_cur = 1;
	h->cur_id = r->f[SSP_SF_SPAN];
	h->cur = ti;
	h->cur_nl = h->cur_ne = 0;
	h->st.spans++;
	if (flags & SSP_SPAN_ORPHAN)
		h->st.orphans++;
	if (flags & SSP_SPAN_OPEN)
		h->st.open++;
	if (flags & SSP_SPAN_BACKGROUND)
		h->st.background++;
	if (flags & SSP_SPAN_INCOMPLETE)
		h->st.incomplete++;
	return SSP_OK;
}

/* Whether a member event or link belongs to the current span (spans.md
 * §7: they follow it at once, events first); counted in either case. */
static int
attached(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f)
{
	if (!h->have_cur || r->nf < 1 || r->f[0] != h->cur_id ||
	    (f->cls == C_EVENT && h->cur_nl > 0))
		return 0;
	if (f->cls == C_LINK)
		h->cur_nl++;
	else
		h->cur_ne++;
	return 1;
}

/* --- choosing the listed traces ------------------------------------------ */

static int
cmp_agg_id(const void *x, const void *y)
{
	const struct agg *a = x, *b = y;

	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* a is slower than b: longer latency, then earlier start, then id */
static int
slower(const struct agg *a, const struct agg *b)
{
	int64_t da = a->end - a->start, db = b->end - b->start;

	if (da != db)
		return da > db;
	if (a->start != b->start)
		return a->start < b->start;
	return cmp_agg_id(a, b) < 0;
}

static int
cmp_slow(const void *x, const void *y)
{
	return slower(x, y) ? -1 : slower(y, x) ? 1 : 0;
}

static void
heap_down(struct agg *v, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;
		struct agg t;

		if (l < n && slower(&v[m], &v[l]))
			m = l;
		if (l + 1 < n && slower(&v[m], &v[l + 1]))
			m = l + 1;
		if (m == i)
			return;
		t = v[i];
		v[i] = v[m];
		v[m] = t;
		i = m;
	}
}

/* Keep the o.slowest slowest traces: a heap with the least slow on top. */
static int
heap_push(struct ssp_html *h, const struct agg *a)
{
	uint32_t i;

	if (h->nheap == h->o.slowest) {
		if (slower(a, &h->heap[0])) {
			h->heap[0] = *a;
			heap_down(h->heap, h->nheap, 0);
		}
		return 0;
	}
	if (grow((void **)&h->heap, &h->capheap, h->nheap + 1,
	    sizeof(*h->heap)) != 0)
		return -1;
	for (i = h->nheap++; i > 0 && slower(&h->heap[(i - 1) / 2], a);
	    i = (i - 1) / 2)
		h->heap[i] = h->heap[(i - 1) / 2];
	h->heap[i] = *a;
	return 0;
}

/* Every sstride-th trace in id order; when scap are kept, every other one
 * goes and the stride doubles, so they stay evenly spaced. */
static int
sample_push(struct ssp_html *h, const struct agg *a)
{
	uint32_t i, j;

	if (h->srank++ % h->sstride != 0)
		return 0;
	if (grow((void **)&h->samp, &h->capsamp, h->nsamp + 1,
	    sizeof(*h->samp)) != 0)
		return -1;
	h->samp[h->nsamp++] = *a;
	if (h->nsamp >= h->scap) {
		for (i = j = 0; i < h->nsamp; i += 2)
			h->samp[j++] = h->samp[i];
		h->nsamp = j;
		h->sstride *= 2;
	}
	return 0;
}

static int
sel_add(struct ssp_html *h, const struct agg *a)
{
	struct strace *t;

	if (grow((void **)&h->sel, &h->capsel, h->nsel + 1, sizeof(*h->sel)) != 0)
		return -1;
	t = &h->sel[h->nsel++];
	memset(t, 0, sizeof(*t));
	t->a = *a;
	t->detail = -1;
	t->first = t->last = NONE;
	return 0;
}

/* A finished trace: into its latency group and the choice. */
static int
consume(struct ssp_html *h, const struct agg *a)
{
	h->st.traces++;
	if (group_add(h, a, a->end - a->start) != 0)
		return -1;
	if (h->all)
		return sel_add(h, a);
	if (h->o.slowest > 0 && heap_push(h, a) != 0)
		return -1;
	if (h->o.sample > 0 && sample_push(h, a) != 0)
		return -1;
	return 0;
}

/* Every trace once, complete, in id order (hi, lo). */
static int
finish_traces(struct ssp_html *h, struct ssp_err *e)
{
	const uint64_t *k;
	struct agg cur, x;
	uint32_t i;
	int have = 0, rc;

	if (h->ks == NULL) {
		sort_n(h->live, h->nlive, sizeof(*h->live), cmp_agg_id);
		for (i = 0; i < h->nlive; i++)
			if (consume(h, &h->live[i]) != 0)
				return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	} else {
		if ((rc = spill_live(h)) != SSP_OK ||
		    (rc = ssp_ksort_done(h->ks)) != SSP_OK)
			return sort_error(h, rc, e);
		while ((k = ssp_ksort_next(h->ks)) != NULL) {
			agg_unpack(k, &x);
			if (have && x.hi == cur.hi && x.lo == cur.lo) {
				agg_merge(&cur, &x);
				continue;
			}
			if (have && consume(h, &cur) != 0)
				return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
			cur = x;
			have = 1;
		}
		if ((rc = ssp_ksort_status(h->ks)) != SSP_OK)
			return sort_error(h, rc, e);
		if (have && consume(h, &cur) != 0)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		ssp_ksort_free(h->ks);
		h->ks = NULL;
	}
	free(h->live);
	h->live = NULL;
	h->nlive = h->caplive = 0;
	ssp_map_free(&h->lmap);
	return SSP_OK;
}

static const struct ssp_html *sort_h;

static int
cmp_start(const void *a, const void *b)
{
	const struct agg *x = &sort_h->sel[*(const uint32_t *)a].a;
	const struct agg *y = &sort_h->sel[*(const uint32_t *)b].a;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return cmp_agg_id(x, y);
}

static int
sel_has(const struct ssp_map *m, const struct strace *sel, const struct agg *a)
{
	const struct ssp_map_slot *s;

	for (s = ssp_map_find(m, idhash(a->hi, a->lo)); s != NULL;
	    s = ssp_map_next(m, s))
		if (sel[s->val].a.hi == a->hi && sel[s->val].a.lo == a->lo)
			return 1;
	return 0;
}

/*
 * The listed traces, in priority order: all of them, or the slowest, then
 * an even sample of the others.  They get detail in that order as long
 * as their spans fit under max_spans.
 */
static int
select_traces(struct ssp_html *h, struct ssp_err *e)
{
	uint64_t spans = 0, events = 0, cap = h->o.max_spans;
	uint64_t ecap = cap ? cap * 8 : UINT64_MAX;
	uint32_t i, n, nrest, want, taken, next;

	if (!h->all) {
		sort_n(h->heap, h->nheap, sizeof(*h->heap), cmp_slow);
		for (i = 0; i < h->nheap; i++)
			if (sel_add(h, &h->heap[i]) != 0 ||
			    ssp_map_add(&h->smap, idhash(h->heap[i].hi,
			    h->heap[i].lo), i) == NULL)
				goto nomem;
		/* the sample without the slowest, then every (rest / M)-th */
		for (i = nrest = 0; i < h->nsamp; i++)
			if (!sel_has(&h->smap, h->sel, &h->samp[i]))
				h->samp[nrest++] = h->samp[i];
		want = h->o.sample < nrest ? h->o.sample : nrest;
		for (i = taken = next = 0; i < nrest && taken < want; i++)
			if (i == next) {
				if (sel_add(h, &h->samp[i]) != 0)
					goto nomem;
				taken++;
				next = (uint32_t)((uint64_t)taken * nrest / want);
			}
		ssp_map_clear(&h->smap);
	}
	free(h->heap);
	free(h->samp);
	h->heap = h->samp = NULL;
	for (i = 0; i < h->nsel; i++) {
		struct strace *t = &h->sel[i];

		if (cap && spans + t->a.n > cap)
			continue;
		spans += t->a.n;
		if (h->o.events && events + t->a.nev <= ecap) {
			events += t->a.nev;
			t->events = 1;
		} else
			h->omit_events += t->a.nev;
		t->detail = 0;
	}
	for (i = 0; i < h->nsel; i++)	/* for the second pass */
		if (ssp_map_add(&h->smap, idhash(h->sel[i].a.hi,
		    h->sel[i].a.lo), i) == NULL)
			goto nomem;
	if ((h->order = malloc(((size_t)h->nsel + 1) * sizeof(uint32_t))) == NULL ||
	    (h->detail = malloc(((size_t)h->nsel + 1) * sizeof(uint32_t))) == NULL)
		goto nomem;
	for (i = 0; i < h->nsel; i++)
		h->order[i] = i;
	sort_h = h;
	sort_n(h->order, h->nsel, sizeof(uint32_t), cmp_start);
	for (i = n = 0; i < h->nsel; i++) {
		struct strace *t = &h->sel[h->order[i]];

		t->pos = i;
		if (t->detail >= 0) {
			t->detail = (int32_t)n;
			h->detail[n++] = h->order[i];
		}
	}
	h->ndetail = n;
	h->st.listed_traces = h->nsel;
	h->st.detail_traces = n;
	h->st.detail_spans = spans;
	h->st.detail_events = events;
	if (!h->o.events)
		h->omit_events = h->st.events;
	return SSP_OK;
nomem:
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

int
ssp_html_load(struct ssp_html **hp, struct ssp_rec_rd *rr,
    const struct ssp_html_opts *o, struct ssp_err *e)
{
	struct ssp_html *h;
	struct ssp_rec r;
	int got, rc;

	*hp = NULL;
	if ((h = calloc(1, sizeof(*h))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	h->last_live = h->last_lane = h->last_group = h->last_sel = NONE;
	h->cur = NONE;
	h->o = *o;
	h->pass = 1;
	h->maxlive = o->live_traces ? o->live_traces : SSP_HTML_LIVE;
	h->dw = 1;
	h->sstride = 1;
	h->scap = 2 * ((uint64_t)o->sample + o->slowest);
	if (h->scap < 2)
		h->scap = 2;
	if (h->scap > (1u << 30))
		h->scap = 1u << 30;
	if (h->o.source == NULL)
		h->o.source = "-";
	if (h->o.tool == NULL)
		h->o.tool = "";
	h->fs = ssp_rec_rd_file_schema(rr);
	if ((rc = ssp_atoms_new(&h->atoms, e)) != SSP_OK ||
	    (rc = setup_types(h, e)) != SSP_OK ||
	    (rc = setup_streams(h, rr, e)) != SSP_OK)
		goto fail;
	while ((got = ssp_rec_rd_next(rr, &r, e)) == 1) {
		const struct ftype *f = r.ftag >= 1 && r.ftag <= h->fs->ntypes ?
		    &h->ft[r.ftag - 1] : NULL;

		h->st.records++;
		if (f == NULL || f->cls == C_SKIP) {
			h->st.unknown++;
		} else if (f->cls == C_SPAN) {
			if ((rc = add_span(h, &r, f, rr, e)) != SSP_OK)
				goto fail;
		} else {
			if (f->cls == C_LINK)
				h->st.links++;
			else
				h->st.events++;
			if (!attached(h, &r, f))
				h->st.unattached++;
			else if (f->cls == C_EVENT)
				h->live[h->cur].nev = sat32((uint64_t)
				    h->live[h->cur].nev + 1);
		}
		if (h->o.tick != NULL && h->st.records % TICK == 0)
			h->o.tick(h->o.tick_ctx, h->st.records, h->st.spans);
	}
	if (got < 0) {
		rc = got;
		goto fail;
	}
	h->fs = NULL;
	h->have_cur = 0;
	h->records1 = h->st.records;
	h->all = h->o.all < 0 ? h->st.spans <= SSP_HTML_AUTO_ALL : h->o.all;
	if ((rc = finish_traces(h, e)) != SSP_OK ||
	    (rc = select_traces(h, e)) != SSP_OK)
		goto fail;
	*hp = h;
	return SSP_OK;
fail:
	ssp_html_free(h);
	return rc;
}


/* --- the second pass: the listed traces --------------------------------- */

/* Add [b, e] to the set (its union length is the busy time; an empty
 * interval adds nothing). */
static int
iset_add(struct iset *s, int64_t b, int64_t e)
{
	uint32_t lo = 0, hi = s->n, i, j;

	if (e <= b)
		return 0;
	while (lo < hi) {	/* the first interval that ends at or after b */
		uint32_t m = lo + (hi - lo) / 2;

		if (s->v[2 * m + 1] < b)
			lo = m + 1;
		else
			hi = m;
	}
	i = lo;
	for (j = i; j < s->n && s->v[2 * j] <= e; j++) {
		if (s->v[2 * j] < b)
			b = s->v[2 * j];
		if (s->v[2 * j + 1] > e)
			e = s->v[2 * j + 1];
	}
	if (j == i) {		/* touches none: a new one at i */
		if (grow((void **)&s->v, &s->cap, 2 * s->n + 2, sizeof(*s->v)) != 0)
			return -1;
		memmove(s->v + 2 * i + 2, s->v + 2 * i,
		    (size_t)(s->n - i) * 2 * sizeof(*s->v));
		s->n++;
	} else if (j > i + 1) {	/* i .. j - 1 become one */
		memmove(s->v + 2 * i + 2, s->v + 2 * j,
		    (size_t)(s->n - j) * 2 * sizeof(*s->v));
		s->n -= j - i - 1;
	}
	s->v[2 * i] = b;
	s->v[2 * i + 1] = e;
	return 0;
}

static int64_t
iset_len(const struct iset *s)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < s->n; i++)
		n += (uint64_t)s->v[2 * i + 1] - (uint64_t)s->v[2 * i];
	return n > INT64_MAX ? INT64_MAX : (int64_t)n;
}

static int
split_add(struct strace *t, uint32_t stream, int64_t b, int64_t e)
{
	uint32_t i;

	for (i = 0; i < t->nsp && t->sp[i].stream != stream; i++)
		;
	if (i == t->nsp) {
		if (grow((void **)&t->sp, &t->capsp, t->nsp + 1, sizeof(*t->sp)) != 0)
			return -1;
		memset(&t->sp[i], 0, sizeof(t->sp[i]));
		t->sp[i].stream = stream;
		t->nsp++;
	}
	t->sp[i].spans++;
	return iset_add(&t->sp[i].is, b, e) != 0 || iset_add(&t->all, b, e) != 0 ?
	    -1 : 0;
}

static uint32_t
sel_find(struct ssp_html *h, uint64_t hi, uint64_t lo)
{
	const struct ssp_map_slot *s;
	uint32_t i = h->last_sel;

	if (i < h->nsel && h->sel[i].a.hi == hi && h->sel[i].a.lo == lo)
		return i;
	for (s = ssp_map_find(&h->smap, idhash(hi, lo)); s != NULL;
	    s = ssp_map_next(&h->smap, s))
		if (h->sel[s->val].a.hi == hi && h->sel[s->val].a.lo == lo)
			return h->last_sel = s->val;
	return NONE;
}

static int
changed(struct ssp_rec_rd *rr, struct ssp_err *e)
{
	return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: not the stream read the "
	    "first time (did the file change?)", ssp_rec_rd_name(rr));
}

/* The second pass's span record: its trace's split, and when the trace
 * is detailed the span with its attributes. */
static int
detail_span(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f,
    struct ssp_rec_rd *rr, struct ssp_err *e)
{
	struct strace *t;
	struct span *s;
	uint32_t ti, ctx, lane;
	const char *str;
	size_t len;
	int64_t end;

	h->have_cur = 0;
	if (bad_span(h, r, rr, e) != SSP_OK)
		return changed(rr, e);
	h->seq2++;
	h->check2 = span_check(h->check2, r);
	if ((ti = sel_find(h, r->f[SSP_SF_TRACE_HI], r->f[SSP_SF_TRACE_LO])) ==
	    NONE)
		return SSP_OK;
	t = &h->sel[ti];
	end = span_end(r->ts, (int64_t)r->f[SSP_SF_DUR]);
	t->seen++;
	t->flags |= (uint32_t)r->f[SSP_SF_FLAGS];
	if (split_add(t, (uint32_t)r->f[SSP_SF_STREAM], r->ts, end) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if (t->detail < 0)
		return SSP_OK;
	if ((ctx = span_ctx(h, r, f, rr, 0)) == NONE ||
	    (lane = lane_find(h, (uint32_t)r->f[SSP_SF_STREAM], ctx)) == NONE)
		return changed(rr, e);
	if (grow((void **)&h->sp, &h->capsp, h->nsp + 1, sizeof(*h->sp)) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	s = &h->sp[h->nsp];
	memset(s, 0, sizeof(*s));
	s->start = r->ts;
	s->dur = (int64_t)r->f[SSP_SF_DUR];
	s->id = r->f[SSP_SF_SPAN];
	s->parent = r->f[SSP_SF_PARENT];
	s->next = NONE;
	s->ft = r->ftag - 1;
	s->stream = (uint32_t)r->f[SSP_SF_STREAM];
	s->flags = (uint32_t)r->f[SSP_SF_FLAGS];
	s->lane = lane;
	if (r->f[SSP_SF_CAUSE] != 0 &&
	    (str = ssp_rec_rd_str(rr, r->f[SSP_SF_CAUSE], &len)) != NULL &&
	    (s->cause = ssp_atoms_intern(h->atoms, str, len)) == 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	s->attr = h->text.len;
	put_fields(&h->text, &h->fs->types[r->ftag - 1], SSP_SF_NCOMMON, r, rr);
	s->attrlen = (uint32_t)(h->text.len - s->attr);
	s->xtra = h->xtext.len;
	s->ltra = h->ltext.len;
	if (t->last == NONE)
		t->first = h->nsp;
	else
		h->sp[t->last].next = h->nsp;
	t->last = h->nsp;
	h->have_cur = 1;
	h->cur_id = s->id;
	h->cur = h->nsp++;
	h->cur_nl = h->cur_ne = 0;
	h->keep_events = t->events;
	return SSP_OK;
}

/* A member event or link of the detailed span just read. */
static void
detail_extra(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f,
    struct ssp_rec_rd *rr)
{
	const struct ssp_rec_type *t = &h->fs->types[r->ftag - 1];
	struct ssp_buf *b = f->cls == C_LINK ? &h->ltext : &h->xtext;
	struct span *s;
	const char *str;
	size_t len, at = b->len;

	if (!attached(h, r, f))
		return;
	s = &h->sp[h->cur];
	if (f->cls == C_LINK) {
		if (s->xlinks > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_putc(b, '[');
		put_trace_id(b, r->f[SSP_LF_TRACE_HI], r->f[SSP_LF_TRACE_LO]);
		ssp_buf_putc(b, ',');
		put_hex(b, r->nf > SSP_LF_TARGET ? r->f[SSP_LF_TARGET] : 0);
		ssp_buf_putc(b, ',');
		if (r->nf > SSP_LF_KIND && r->f[SSP_LF_KIND] != 0 &&
		    (str = ssp_rec_rd_str(rr, r->f[SSP_LF_KIND], &len)) != NULL)
			ssp_strfmt_json_str(b, str, len);
		else
			ssp_buf_lit(b, "\"\"");
		ssp_buf_putc(b, ']');
		s->xlinks += (uint32_t)(b->len - at);
		return;
	}
	s->nevents++;
	if (!h->keep_events)
		return;
	if (s->xevents > 0)
		ssp_buf_putc(b, ',');
	ssp_buf_putc(b, '[');
	put_num(b, r->ts);
	ssp_buf_putc(b, ',');
	ssp_strfmt_json_str(b, f->name, strlen(f->name));
	ssp_buf_putc(b, ',');
	put_fields(b, t, SSP_EF_NCOMMON, r, rr);
	ssp_buf_putc(b, ']');
	s->xevents += (uint32_t)(b->len - at);
}

static int
cmp_split(const void *a, const void *b)
{
	const struct ssplit *x = a, *y = b;

	return x->stream < y->stream ? -1 : x->stream > y->stream;
}

int
ssp_html_detail(struct ssp_html *h, struct ssp_rec_rd *rr, struct ssp_err *e)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(rr);
	struct ssp_rec r;
	uint32_t i, k;
	int got, rc;

	if (h->pass != 1)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "ssp_html_detail: not "
		    "after ssp_html_load");
	/* the same file: the same schema */
	if (fs->ntypes != h->fs_ntypes)
		return changed(rr, e);
	for (i = 0; i < fs->ntypes; i++)
		if (strcmp(fs->types[i].name, h->ft[i].tname) != 0)
			return changed(rr, e);
	h->fs = fs;
	h->pass = 2;
	h->have_cur = 0;
	while ((got = ssp_rec_rd_next(rr, &r, e)) == 1) {
		const struct ftype *f = r.ftag >= 1 && r.ftag <= fs->ntypes ?
		    &h->ft[r.ftag - 1] : NULL;

		h->records2++;
		if (f == NULL || f->cls == C_SKIP)
			continue;
		if (f->cls == C_SPAN) {
			if ((rc = detail_span(h, &r, f, rr, e)) != SSP_OK)
				return rc;
		} else {
			detail_extra(h, &r, f, rr);
		}
		if (h->o.tick != NULL && h->records2 % TICK == 0)
			h->o.tick(h->o.tick_ctx, h->records1 + h->records2,
			    h->st.spans + h->seq2);
	}
	h->fs = NULL;
	h->have_cur = 0;
	if (got < 0)
		return got;
	if (h->seq2 != h->st.spans || h->records2 != h->records1 ||
	    h->check2 != h->check)
		return changed(rr, e);
	if (h->text.failed || h->xtext.failed || h->ltext.failed)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < h->nsel; i++) {
		struct strace *t = &h->sel[i];

		if (t->seen != t->a.n && t->a.n != UINT32_MAX)
			return changed(rr, e);
		t->busy = iset_len(&t->all);
		free(t->all.v);
		t->all.v = NULL;
		for (k = 0; k < t->nsp; k++) {
			t->sp[k].busy = iset_len(&t->sp[k].is);
			free(t->sp[k].is.v);
			t->sp[k].is.v = NULL;
		}
		sort_n(t->sp, t->nsp, sizeof(*t->sp), cmp_split);
	}
	h->pass = 3;
	return SSP_OK;
}

static void
put_str(struct ssp_buf *b, const char *s)
{
	ssp_strfmt_json_str(b, s, strlen(s));
}

static void
put_atom(struct ssp_buf *b, const struct ssp_html *h, uint32_t a)
{
	size_t n;
	const char *s = ssp_atoms_str(h->atoms, a, &n);

	ssp_strfmt_json_str(b, s, n);
}

static void
put_key(struct ssp_buf *b, const char *k)
{
	ssp_buf_putc(b, '"');
	ssp_buf_put(b, k, strlen(k));
	ssp_buf_lit(b, "\":");
}

struct idpos {
	uint64_t id;
	uint32_t i;
};

static int
cmp_idpos(const void *a, const void *b)
{
	const struct idpos *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* One detailed trace: its spans in stream order (a parent before its
 * children), as rows (formats/html.md §2.3).  Parents are looked up among
 * the trace's own spans (a parent is in the same trace). */
static int
write_detail(struct ssp_html *h, struct ssp_buf *b, uint32_t ti,
    uint32_t **idx, uint32_t *cap)
{
	const struct strace *tr = &h->sel[ti];
	struct idpos *byid, *hit;
	uint32_t n = 0, i, s, cnt = 0;
	int64_t p;

	for (s = tr->first; s != NONE; s = h->sp[s].next)
		cnt++;
	if (grow((void **)idx, cap, cnt + 1, sizeof(**idx)) != 0 ||
	    (byid = malloc(((size_t)cnt + 1) * sizeof(*byid))) == NULL)
		return -1;
	for (s = tr->first; s != NONE; s = h->sp[s].next) {
		byid[n].id = h->sp[s].id;
		byid[n].i = n;
		(*idx)[n++] = s;
	}
	sort_n(byid, n, sizeof(*byid), cmp_idpos);
	ssp_buf_lit(b, "{\"trace\":");
	put_num(b, tr->pos);
	ssp_buf_lit(b, ",\"spans\":[");
	for (i = 0; i < n; i++) {
		const struct span *x = &h->sp[(*idx)[i]];

		if (i > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_putc(b, '[');
		put_hex(b, x->id);
		ssp_buf_putc(b, ',');
		/* the first span with the parent's id (ids are unique in a
		 * good stream) */
		hit = NULL;
		if (x->parent != 0) {
			size_t lo = 0, hi = n;

			while (lo < hi) {
				size_t m = (lo + hi) / 2;

				if (byid[m].id < x->parent)
					lo = m + 1;
				else
					hi = m;
			}
			if (lo < n && byid[lo].id == x->parent)
				hit = &byid[lo];
		}
		p = hit != NULL ? (int64_t)hit->i : -1;
		put_num(b, p);
		ssp_buf_putc(b, ',');
		put_num(b, h->ft[x->ft].kind);
		ssp_buf_putc(b, ',');
		put_num(b, x->stream);
		ssp_buf_putc(b, ',');
		put_num(b, x->lane);
		ssp_buf_putc(b, ',');
		put_num(b, x->start);
		ssp_buf_putc(b, ',');
		put_num(b, x->dur);
		ssp_buf_putc(b, ',');
		put_num(b, x->flags);
		ssp_buf_putc(b, ',');
		if (x->cause)
			put_atom(b, h, x->cause);
		else
			ssp_buf_lit(b, "\"\"");
		ssp_buf_putc(b, ',');
		ssp_buf_put(b, h->text.p + x->attr, x->attrlen);
		ssp_buf_lit(b, ",[");
		if (x->xlinks > 0)
			ssp_buf_put(b, h->ltext.p + x->ltra, x->xlinks);
		ssp_buf_lit(b, "],");
		if (tr->events && x->xevents > 0) {
			ssp_buf_putc(b, '[');
			ssp_buf_put(b, h->xtext.p + x->xtra, x->xevents);
			ssp_buf_putc(b, ']');
		} else if (x->nevents > 0) {
			/* left out: minus their count */
			put_num(b, -(int64_t)x->nevents);
		} else {
			ssp_buf_lit(b, "[]");
		}
		ssp_buf_putc(b, ']');
	}
	ssp_buf_lit(b, "]}");
	free(byid);
	return 0;
}

/* One lane's row of bins, written as a JSON array. */


static int
write_traces(struct ssp_html *h, struct ssp_buf *b)
{
	static const char *const cols[] = { "id", "root_kind", "root_stream",
	    "start", "dur", "spans", "busy", "flags", "detail", "streams" };
	uint32_t c, i, k;

	ssp_buf_lit(b, "\"traces\":{");
	for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		if (c > 0)
			ssp_buf_putc(b, ',');
		put_key(b, cols[c]);
		ssp_buf_putc(b, '[');
		for (i = 0; i < h->nsel; i++) {
			const struct strace *tr = &h->sel[h->order[i]];
			const struct agg *a = &tr->a;

			if (i > 0)
				ssp_buf_putc(b, ',');
			switch (c) {
			case 0: put_trace_id(b, a->hi, a->lo); break;
			case 1: put_num(b, a->root_kind); break;
			case 2:
				put_num(b, a->root_stream == NONE ? -1 :
				    (int64_t)a->root_stream);
				break;
			case 3: put_num(b, a->start); break;
			case 4: put_num(b, a->end - a->start); break;
			case 5: put_num(b, a->n); break;
			case 6: put_num(b, tr->busy); break;
			case 7: put_num(b, tr->flags); break;
			case 8: put_num(b, tr->detail); break;
			case 9:
				ssp_buf_putc(b, '[');
				for (k = 0; k < tr->nsp; k++) {
					const struct ssplit *sp = &tr->sp[k];

					if (k > 0)
						ssp_buf_putc(b, ',');
					put_num(b, sp->stream);
					ssp_buf_putc(b, ',');
					put_num(b, sp->spans);
					ssp_buf_putc(b, ',');
					put_num(b, sp->busy);
				}
				ssp_buf_putc(b, ']');
				break;
			}
		}
		ssp_buf_putc(b, ']');
	}
	ssp_buf_putc(b, '}');
	return 0;
}

static int
cmp_group(const void *x, const void *y)
{
	const struct lgroup *a = x, *b = y;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->stream != b->stream)
		return a->stream < b->stream ? -1 : 1;
	return a->net < b->net ? -1 : a->net > b->net;
}

/* The latency histograms of every trace, per group (formats/html.md §2.5). */
static void
write_latency(struct ssp_html *h, struct ssp_buf *b)
{
	uint32_t i, k;
	int any;

	sort_n(h->groups, h->ngroups, sizeof(*h->groups), cmp_group);
	h->last_group = NONE;
	ssp_buf_lit(b, "\"latency\":{\"bits\":");
	put_num(b, SSP_HTML_HIST_BITS);
	ssp_buf_lit(b, ",\"groups\":[");
	for (i = 0; i < h->ngroups; i++) {
		const struct lgroup *g = &h->groups[i];

		if (i > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_lit(b, "{\"root_kind\":");
		put_num(b, g->kind);
		ssp_buf_lit(b, ",\"root_stream\":");
		put_num(b, g->stream == NONE ? -1 : (int64_t)g->stream);
		ssp_buf_lit(b, ",\"net\":");
		if (g->net)
			ssp_buf_lit(b, "true");
		else
			ssp_buf_lit(b, "false");
		ssp_buf_lit(b, ",\"traces\":");
		put_num(b, (int64_t)g->n);
		ssp_buf_lit(b, ",\"min\":");
		put_num(b, g->min);
		ssp_buf_lit(b, ",\"max\":");
		put_num(b, g->max);
		ssp_buf_lit(b, ",\"buckets\":[");
		for (k = any = 0; k < g->len; k++) {
			if (g->c[k] == 0)
				continue;
			if (any++)
				ssp_buf_putc(b, ',');
			put_num(b, g->base + k);
			ssp_buf_putc(b, ',');
			put_num(b, (int64_t)g->c[k]);
		}
		ssp_buf_lit(b, "]}");
	}
	ssp_buf_lit(b, "]}");
}

/*
 * Per lane and bin over the whole run (all spans): the busy fraction of
 * the bin in millionths, and how many spans touch it; the bins from the
 * first to the last any span touched.
 */
static void
write_density(struct ssp_html *h, struct ssp_buf *b)
{
	int64_t first = 0, nb = 0, w = h->dw;
	uint32_t l, i;

	if (h->docc) {
		first = h->occ_lo - h->dlo;
		nb = h->occ_hi - h->occ_lo + 1;
	}
	for (l = 0; l < h->nlanes; l++)
		lane_concrete(&h->lanes[l], w);
	ssp_buf_lit(b, "\"density\":{\"bins\":");
	put_num(b, nb);
	ssp_buf_lit(b, ",\"bin_ps\":");
	put_num(b, w);
	ssp_buf_lit(b, ",\"origin\":");
	/* the first bin's start, in ps: occ_lo * w, which may lie below
	 * INT64_MIN only for absurd times; then clamped */
	put_num(b, h->docc && h->occ_lo >= INT64_MIN / w ? h->occ_lo * w :
	    h->docc ? INT64_MIN : 0);
	ssp_buf_lit(b, ",\"busy\":[");
	for (l = 0; l < h->nlanes; l++) {
		if (l > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_putc(b, '[');
		for (i = 0; i < nb; i++) {
			if (i > 0)
				ssp_buf_putc(b, ',');
			ssp_strfmt_json_u64(b, (uint64_t)(h->lanes[l].busy[first + i] *
			    (1e6 / (double)w) + 0.5));
		}
		ssp_buf_putc(b, ']');
	}
	ssp_buf_lit(b, "],\"count\":[");
	for (l = 0; l < h->nlanes; l++) {
		if (l > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_putc(b, '[');
		for (i = 0; i < nb; i++) {
			if (i > 0)
				ssp_buf_putc(b, ',');
			put_num(b, h->lanes[l].cnt[first + i]);
		}
		ssp_buf_putc(b, ']');
	}
	ssp_buf_lit(b, "]}");
	for (l = 0; l < h->nlanes; l++)
		lane_diff(&h->lanes[l]);
}

int
ssp_html_json(struct ssp_html *h, struct ssp_buf *b, struct ssp_err *e)
{
	uint32_t i, *idx = NULL, cap = 0;
	const struct ssp_html_stats *st = &h->st;

	if (h->pass != 3)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "ssp_html_json: the "
		    "second pass (ssp_html_detail) has not run");
	ssp_buf_lit(b, "{\"format\":\"simspan-html\",\"version\":");
	put_num(b, FORMAT_VERSION);
	ssp_buf_lit(b, ",\"producer\":");
	put_str(b, h->o.tool);
	ssp_buf_lit(b, ",\"source\":");
	put_str(b, h->o.source);
	ssp_buf_lit(b, ",\"stream_producer\":");
	put_str(b, h->producer);
	ssp_buf_lit(b, ",\"streams\":[");
	for (i = 0; i < h->nstreams; i++) {
		if (i > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_lit(b, "{\"name\":");
		put_str(b, h->streams[i].name);
		ssp_buf_lit(b, ",\"sim\":");
		put_str(b, h->streams[i].sim);
		ssp_buf_lit(b, ",\"kind\":");
		put_str(b, h->streams[i].kind);
		ssp_buf_putc(b, '}');
	}
	ssp_buf_lit(b, "],\"kinds\":[");
	for (i = 0; i < h->nkinds; i++) {
		if (i > 0)
			ssp_buf_putc(b, ',');
		put_str(b, h->kinds[i]);
	}
	ssp_buf_lit(b, "],\"lanes\":[");
	for (i = 0; i < h->nlanes; i++) {
		if (i > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_putc(b, '[');
		put_num(b, h->lanes[i].stream);
		ssp_buf_putc(b, ',');
		if (h->lanes[i].ctx)
			put_atom(b, h, h->lanes[i].ctx);
		else
			ssp_buf_lit(b, "\"\"");
		ssp_buf_putc(b, ']');
	}
	ssp_buf_lit(b, "],\"counts\":{\"spans\":");
	put_num(b, (int64_t)st->spans);
	ssp_buf_lit(b, ",\"traces\":");
	put_num(b, (int64_t)st->traces);
	ssp_buf_lit(b, ",\"links\":");
	put_num(b, (int64_t)st->links);
	ssp_buf_lit(b, ",\"events\":");
	put_num(b, (int64_t)st->events);
	ssp_buf_lit(b, ",\"orphans\":");
	put_num(b, (int64_t)st->orphans);
	ssp_buf_lit(b, ",\"open\":");
	put_num(b, (int64_t)st->open);
	ssp_buf_lit(b, ",\"background\":");
	put_num(b, (int64_t)st->background);
	ssp_buf_lit(b, ",\"incomplete\":");
	put_num(b, (int64_t)st->incomplete);
	ssp_buf_lit(b, ",\"unknown\":");
	put_num(b, (int64_t)st->unknown);
	ssp_buf_lit(b, ",\"unattached\":");
	put_num(b, (int64_t)st->unattached);
	ssp_buf_lit(b, ",\"listed_traces\":");
	put_num(b, (int64_t)st->listed_traces);
	ssp_buf_lit(b, ",\"detail_traces\":");
	put_num(b, (int64_t)st->detail_traces);
	ssp_buf_lit(b, ",\"detail_spans\":");
	put_num(b, (int64_t)st->detail_spans);
	ssp_buf_lit(b, ",\"detail_events\":");
	put_num(b, (int64_t)st->detail_events);
	ssp_buf_lit(b, ",\"omitted_events\":");
	put_num(b, (int64_t)h->omit_events);
	ssp_buf_lit(b, "},\"selection\":");
	{
		char sel[96];

		if (h->all)
			snprintf(sel, sizeof(sel), "all");
		else
			snprintf(sel, sizeof(sel), "slowest:%" PRIu32 ",sample:%"
			    PRIu32, h->o.slowest, h->o.sample);
		put_str(b, sel);
	}
	ssp_buf_lit(b, ",\"max_spans\":");
	put_num(b, (int64_t)h->o.max_spans);
	ssp_buf_lit(b, ",\"start\":");
	put_num(b, h->st.spans ? h->t0 : 0);
	ssp_buf_lit(b, ",\"end\":");
	put_num(b, h->st.spans ? h->t1 : 0);
	ssp_buf_putc(b, ',');
	write_traces(h, b);
	ssp_buf_lit(b, ",\"details\":[");
	for (i = 0; i < h->ndetail; i++) {
		if (i > 0)
			ssp_buf_putc(b, ',');
		if (write_detail(h, b, h->detail[i], &idx, &cap) != 0)
			goto nomem;
	}
	ssp_buf_lit(b, "],");
	write_latency(h, b);
	ssp_buf_putc(b, ',');
	write_density(h, b);
	ssp_buf_lit(b, "}\n");
	free(idx);
	if (b->failed)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
nomem:
	free(idx);
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

static int
gzip_b64(const struct ssp_buf *in, struct ssp_buf *out, uint64_t *gzlen,
    struct ssp_err *e)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789+/";
	z_stream z;
	struct ssp_buf gz = SSP_BUF_INIT;
	size_t i, bound;
	int zr;

	memset(&z, 0, sizeof(z));
	/* level 6 as gzip(1); past 32 MiB of JSON level 3, three times as
	 * fast for a fifth more bytes */
	if (deflateInit2(&z, in->len > (32u << 20) ? 3 : 6, Z_DEFLATED, 31, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "zlib: deflateInit2 failed");
	bound = deflateBound(&z, (uLong)in->len) + 64;
	if (ssp_buf_reserve(&gz, bound) != 0) {
		deflateEnd(&z);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	z.next_in = in->p;
	z.avail_in = (uInt)in->len;
	z.next_out = gz.p;
	z.avail_out = (uInt)bound;
	zr = deflate(&z, Z_FINISH);
	gz.len = z.total_out;
	deflateEnd(&z);
	if (zr != Z_STREAM_END) {
		ssp_buf_free(&gz);
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "zlib: deflate failed "
		    "(%d): data too large", zr);
	}
	*gzlen = gz.len;
	if (ssp_buf_reserve(out, (gz.len + 2) / 3 * 4 + 1) != 0) {
		ssp_buf_free(&gz);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	for (i = 0; i + 2 < gz.len; i += 3) {
		uint32_t v = (uint32_t)gz.p[i] << 16 | (uint32_t)gz.p[i + 1] << 8 |
		    gz.p[i + 2];
		uint8_t *o = out->p + out->len;

		o[0] = (uint8_t)tab[v >> 18];
		o[1] = (uint8_t)tab[(v >> 12) & 63];
		o[2] = (uint8_t)tab[(v >> 6) & 63];
		o[3] = (uint8_t)tab[v & 63];
		out->len += 4;
	}
	if (i < gz.len) {
		uint32_t v = (uint32_t)gz.p[i] << 16 |
		    (i + 1 < gz.len ? (uint32_t)gz.p[i + 1] << 8 : 0);
		uint8_t *o = out->p + out->len;

		o[0] = (uint8_t)tab[v >> 18];
		o[1] = (uint8_t)tab[(v >> 12) & 63];
		o[2] = i + 1 < gz.len ? (uint8_t)tab[(v >> 6) & 63] : '=';
		o[3] = '=';
		out->len += 4;
	}
	ssp_buf_free(&gz);
	return SSP_OK;
}

/* Copy tmpl to b with each marker replaced. */
static void
subst(struct ssp_buf *b, const char *tmpl, const char *const *mark,
    const struct ssp_buf *const *val, size_t nmark)
{
	const char *p = tmpl, *q, *best;
	size_t k, which = 0;

	for (;;) {
		best = NULL;
		for (k = 0; k < nmark; k++)
			if ((q = strstr(p, mark[k])) != NULL &&
			    (best == NULL || q < best)) {
				best = q;
				which = k;
			}
		if (best == NULL)
			break;
		ssp_buf_put(b, p, (size_t)(best - p));
		ssp_buf_put(b, val[which]->p, val[which]->len);
		p = best + strlen(mark[which]);
	}
	ssp_buf_put(b, p, strlen(p));
}


int
ssp_html_page(struct ssp_html *h, struct ssp_buf *out, struct ssp_err *e)
{
	static const char *const mark[] = { "/*@CSS@*/", "/*@JS@*/", "@DATA@",
	    "@TITLE@", "@SCRIPT_HASH@", "@STYLE_HASH@" };
	struct ssp_buf json = SSP_BUF_INIT, b64 = SSP_BUF_INIT;
	struct ssp_buf css = SSP_BUF_INIT, js = SSP_BUF_INIT, title = SSP_BUF_INIT;
	struct ssp_buf jsh = SSP_BUF_INIT, cssh = SSP_BUF_INIT;
	const struct ssp_buf *val[] = { &css, &js, &b64, &title, &jsh, &cssh };
	size_t before = out->len;
	const char *s;
	int rc;

	if ((rc = ssp_html_json(h, &json, e)) != SSP_OK)
		goto done;
	h->st.json_bytes = json.len;
	if ((rc = gzip_b64(&json, &b64, &h->st.gz_bytes, e)) != SSP_OK)
		goto done;
	ssp_buf_put(&css, ssp_html_viewer_css, ssp_html_viewer_css_len);
	ssp_buf_put(&js, ssp_html_viewer_js, ssp_html_viewer_js_len);
	/* the policy allows the inline script and style by their hashes
	 * (made by the build), so an injected one would not run (viewer.html) */
	ssp_buf_put(&jsh, ssp_html_viewer_js_csp, ssp_html_viewer_js_csp_len);
	ssp_buf_put(&cssh, ssp_html_viewer_css_csp, ssp_html_viewer_css_csp_len);
	/* the title is HTML text: escape what HTML would read */
	for (s = h->o.source; *s != '\0'; s++) {
		if (*s == '<')
			ssp_buf_lit(&title, "&lt;");
		else if (*s == '&')
			ssp_buf_lit(&title, "&amp;");
		else if (*s == '>')
			ssp_buf_lit(&title, "&gt;");
		else
			ssp_buf_putc(&title, *s);
	}
	subst(out, ssp_html_viewer_html, mark, val, 6);
	h->st.page_bytes = out->len - before;
	rc = out->failed || css.failed || js.failed || title.failed ||
	    jsh.failed || cssh.failed ?
	    ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory") : SSP_OK;
done:
	ssp_buf_free(&json);
	ssp_buf_free(&b64);
	ssp_buf_free(&css);
	ssp_buf_free(&js);
	ssp_buf_free(&title);
	ssp_buf_free(&jsh);
	ssp_buf_free(&cssh);
	return rc;
}

const struct ssp_html_stats *
ssp_html_stats(const struct ssp_html *h)
{
	return &h->st;
}

void
ssp_html_free(struct ssp_html *h)
{
	uint32_t i, k;

	if (h == NULL)
		return;
	for (i = 0; h->streams != NULL && i < h->nstreams; i++)
		free(h->streams[i].name);
	free(h->streams);
	for (i = 0; i < h->nkinds; i++)
		free(h->kinds[i]);
	free(h->producer);
	for (i = 0; h->ft != NULL && i < h->fs_ntypes; i++)
		free(h->ft[i].tname);
	free(h->ft);
	ssp_atoms_free(h->atoms);
	free(h->live);
	ssp_map_free(&h->lmap);
	ssp_ksort_free(h->ks);
	for (i = 0; i < h->nlanes; i++) {
		free(h->lanes[i].busy);
		free(h->lanes[i].cnt);
		free(h->lanes[i].cross);
		free(h->lanes[i].full);
	}
	free(h->lanes);
	for (i = 0; i < h->ngroups; i++)
		free(h->groups[i].c);
	free(h->groups);
	ssp_map_free(&h->gmap);
	free(h->heap);
	free(h->samp);
	for (i = 0; i < h->nsel; i++) {
		free(h->sel[i].all.v);
		for (k = 0; k < h->sel[i].nsp; k++)
			free(h->sel[i].sp[k].is.v);
		free(h->sel[i].sp);
	}
	free(h->sel);
	ssp_map_free(&h->smap);
	free(h->order);
	free(h->detail);
	free(h->sp);
	ssp_buf_free(&h->text);
	ssp_buf_free(&h->xtext);
	ssp_buf_free(&h->ltext);
	free(h);
}
