/*
 * Span streams into one self-contained HTML page (ssp_html.h, the data
 * format in formats/html.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/atoms.h"
#include "base/strfmt.h"
#include "stream/span.h"
#include "sink/html.h"

/*
 * The viewer's sources are embedded by the assembler (paths relative to
 * the top directory, where make runs; the Makefile lists them as
 * dependencies of this object).
 */
#define EMBED(sym, file)					\
	"\t.global " sym "\n"					\
	"\t.type " sym ", @object\n"				\
	sym ":\n"						\
	"\t.incbin \"" file "\"\n"				\
	"\t.byte 0\n"						\
	"\t.size " sym ", . - " sym "\n"
__asm__(
    "\t.pushsection .rodata\n"
    EMBED("ssp_html_viewer_html", "lib/sink/html/viewer.html")
    EMBED("ssp_html_viewer_css", "lib/sink/html/viewer.css")
    EMBED("ssp_html_viewer_js", "lib/sink/html/viewer.js")
    "\t.popsection\n");

#define FORMAT_VERSION	1
#define TICK		4096
#define NONE		UINT32_MAX

enum { C_SKIP, C_SPAN, C_LINK, C_EVENT };

struct span {
	int64_t start, dur;
	uint64_t id, parent;
	uint32_t trace;		/* index into h->tr */
	uint32_t next;		/* next span of the same trace */
	uint32_t ft;		/* file record type */
	uint32_t stream;
	uint32_t flags;
	uint32_t cause;		/* atom, 0: none */
	uint32_t lane;
	uint64_t attr;		/* offset of its attribute JSON in h->text */
	uint32_t attrlen;
	uint32_t nlinks, nevents;
	uint64_t xtra;		/* offset of its events in h->xtext */
	uint64_t ltra;		/* offset of its links in h->ltext */
	uint32_t xlinks, xevents;	/* bytes of each */
};

struct trace {
	uint64_t hi, lo;
	int64_t start, end, busy;
	uint32_t first, last;	/* span list */
	uint32_t n, root;	/* spans; root span (NONE: none) */
	uint32_t nstreams;	/* streams with spans */
	uint32_t split;		/* offset into h->split: 3 per stream */
	uint32_t flags;		/* or of its spans' flags */
	int32_t detail;		/* index among detailed traces, -1: none */
	int events;		/* its member events are in the page */
	uint32_t pos;		/* its place in the page's trace list */
};

struct lane {
	uint32_t stream, ctx;	/* ctx: atom of the CPU, 0: none */
};

struct ftype {
	char *tname;		/* the record type's name (a copy) */
	int cls;
	const char *name;	/* span kind; event type without "ev." */
	int32_t kind;		/* index into h->kinds (spans) */
	int ctx_field;		/* host.syscall: the cpu field, else -1 */
	const char *ctx_suffix;	/* lane of its own per CPU: "irq", ... */
};

struct sstat {			/* one stream's part of a trace */
	uint32_t stream, spans;
	int64_t busy;
};

struct stream {
	char *name;
	const char *sim, *kind;
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
	struct span *sp;
	uint32_t nsp, capsp;
	struct trace *tr;
	uint32_t ntr, captr;
	uint32_t *tmap;		/* open addressing: trace index + 1 */
	size_t tmask;
	uint32_t last_trace;	/* the trace of the last span (spans come in runs) */
	/* reading: 0 one pass that keeps everything; 1 the first of two
	 * passes (no attributes, events or links kept); 2 the second, which
	 * keeps them for the detailed traces only */
	int pass;
	uint32_t cur;		/* the span whose events and links follow */
	uint32_t cur_nl, cur_ne;	/* its links and events so far */
	int keep;		/* keep the current span's text */
	struct lane *lanes;
	uint32_t nlanes, caplanes;
	struct sstat *split;
	uint32_t nsplit, capsplit;
	struct ssp_atoms *atoms;
	struct ssp_buf text, xtext, ltext;
	int64_t t0, t1;
	uint32_t *order;	/* traces by start */
	uint32_t *detail;	/* detailed traces, by start */
	uint32_t ndetail;
	uint64_t omit_events;	/* member events left out (cap, --no-events) */
};

/* --- small helpers ------------------------------------------------------ */

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
	n = *cap ? *cap : 256;
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

/* Rehash a map of indices + 1 keyed by key(index). */
static int
rehash(uint32_t **map, size_t *mask, uint32_t count, const struct ssp_html *h)
{
	size_t size = *mask ? (*mask + 1) * 2 : 1024, i, j;
	uint32_t *m, v;

	if ((uint64_t)count * 2 < (uint64_t)(*mask + 1) && *map != NULL)
		return 0;
	if ((m = calloc(size, sizeof(*m))) == NULL)
		return -1;
	for (i = 0; *map != NULL && i <= *mask; i++) {
		if ((v = (*map)[i]) == 0)
			continue;
		j = mix(h->tr[v - 1].hi ^ mix(h->tr[v - 1].lo)) & (size - 1);
		while (m[j] != 0)
			j = (j + 1) & (size - 1);
		m[j] = v;
	}
	free(*map);
	*map = m;
	*mask = size - 1;
	return 0;
}

/* The index of trace hi:lo, added when new; NONE when out of memory. */
static uint32_t
trace_get(struct ssp_html *h, uint64_t hi, uint64_t lo, int64_t start)
{
	size_t j;
	uint32_t v;
	struct trace *t;

	if (h->last_trace < h->ntr && h->tr[h->last_trace].hi == hi &&
	    h->tr[h->last_trace].lo == lo)
		return h->last_trace;
	if (rehash(&h->tmap, &h->tmask, h->ntr + 1, h) != 0)
		return NONE;
	for (j = mix(hi ^ mix(lo)) & h->tmask; (v = h->tmap[j]) != 0;
	    j = (j + 1) & h->tmask)
		if (h->tr[v - 1].hi == hi && h->tr[v - 1].lo == lo)
			return h->last_trace = v - 1;
	if (grow((void **)&h->tr, &h->captr, h->ntr + 1, sizeof(*h->tr)) != 0)
		return NONE;
	t = &h->tr[h->ntr];
	memset(t, 0, sizeof(*t));
	t->hi = hi;
	t->lo = lo;
	t->start = start;
	t->end = start;
	t->first = t->last = t->root = NONE;
	t->detail = -1;
	h->tmap[j] = ++h->ntr;
	return h->last_trace = h->ntr - 1;
}

static uint32_t
lane_get(struct ssp_html *h, uint32_t stream, uint32_t ctx)
{
	uint32_t i;

	for (i = 0; i < h->nlanes; i++)
		if (h->lanes[i].stream == stream && h->lanes[i].ctx == ctx)
			return i;
	if (grow((void **)&h->lanes, &h->caplanes, h->nlanes + 1,
	    sizeof(*h->lanes)) != 0)
		return NONE;
	h->lanes[h->nlanes].stream = stream;
	h->lanes[h->nlanes].ctx = ctx;
	return h->nlanes++;
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

/* --- reading ------------------------------------------------------------ */

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
				f->ctx_suffix = t->name + 5;
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
	}
	h->nstreams = (uint32_t)n;
	free(src);
	p = ssp_rec_rd_meta(rr, "producer");
	if ((h->producer = strdup(p != NULL ? p : "")) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
}

static int
add_span(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f,
    struct ssp_rec_rd *rr, struct ssp_err *e)
{
	const struct ssp_rec_type *t = &h->fs->types[r->ftag - 1];
	struct span *s;
	struct trace *tr;
	uint32_t ti, ctx = 0;
	const char *str;
	size_t len;

	if (r->nf < SSP_SF_NCOMMON || r->f[SSP_SF_STREAM] >= h->nstreams ||
	    (int64_t)r->f[SSP_SF_DUR] < 0)
		return ssp_err_set(e, SSP_ERR_FORMAT, ssp_rec_rd_offset(rr),
		    "%s: offset %" PRIu64 ": span record with a bad stream index "
		    "or duration", ssp_rec_rd_name(rr), ssp_rec_rd_offset(rr));
	if (grow((void **)&h->sp, &h->capsp, h->nsp + 1, sizeof(*h->sp)) != 0 ||
	    (ti = trace_get(h, r->f[SSP_SF_TRACE_HI], r->f[SSP_SF_TRACE_LO],
	    r->ts)) == NONE)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	s = &h->sp[h->nsp];
	memset(s, 0, sizeof(*s));
	s->start = r->ts;
	s->dur = (int64_t)r->f[SSP_SF_DUR];
	s->id = r->f[SSP_SF_SPAN];
	s->parent = r->f[SSP_SF_PARENT];
	s->trace = ti;
	s->next = NONE;
	s->ft = r->ftag - 1;
	s->stream = (uint32_t)r->f[SSP_SF_STREAM];
	s->flags = (uint32_t)r->f[SSP_SF_FLAGS];
	if (r->f[SSP_SF_CAUSE] != 0 &&
	    (str = ssp_rec_rd_str(rr, r->f[SSP_SF_CAUSE], &len)) != NULL &&
	    (s->cause = ssp_atoms_intern(h->atoms, str, len)) == 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if (f->ctx_field >= 0 && (unsigned)f->ctx_field < r->nf &&
	    r->f[f->ctx_field] != 0 &&
	    (str = ssp_rec_rd_str(rr, r->f[f->ctx_field], &len)) != NULL) {
		char lname[160];

		if (f->ctx_suffix != NULL) {	/* "system.cpu0 softirq" */
			len = (size_t)snprintf(lname, sizeof(lname), "%.*s %s",
			    (int)(len < 120 ? len : 120), str, f->ctx_suffix);
			str = lname;
		}
		if ((ctx = ssp_atoms_intern(h->atoms, str, len)) == 0)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	if ((s->lane = lane_get(h, s->stream, ctx)) == NONE)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	s->attr = h->text.len;
	if (h->pass == 0)
		put_fields(&h->text, t, SSP_SF_NCOMMON, r, rr);
	s->attrlen = (uint32_t)(h->text.len - s->attr);
	s->xtra = h->xtext.len;
	s->ltra = h->ltext.len;
	h->cur = h->nsp;
	h->cur_nl = h->cur_ne = 0;
	h->keep = h->pass == 0;
	tr = &h->tr[ti];
	if (tr->last == NONE)
		tr->first = h->nsp;
	else
		h->sp[tr->last].next = h->nsp;
	tr->last = h->nsp;
	tr->n++;
	if (s->start < tr->start)
		tr->start = s->start;
	if (s->start + s->dur > tr->end)
		tr->end = s->start + s->dur;
	tr->flags |= s->flags;
	if (s->parent == 0 && tr->root == NONE)
		tr->root = h->nsp;
	h->nsp++;
	h->st.spans++;
	if (s->flags & SSP_SPAN_ORPHAN)
		h->st.orphans++;
	if (s->flags & SSP_SPAN_OPEN)
		h->st.open++;
	if (s->flags & SSP_SPAN_BACKGROUND)
		h->st.background++;
	if (s->flags & SSP_SPAN_INCOMPLETE)
		h->st.incomplete++;
	return SSP_OK;
}

/* A member event or link of the span just read (spans.md §7: they follow
 * it at once, events first); anything else is counted as unattached. */
static void
add_extra(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f,
    struct ssp_rec_rd *rr)
{
	const struct ssp_rec_type *t = &h->fs->types[r->ftag - 1];
	struct span *s = h->cur != NONE ? &h->sp[h->cur] : NULL;
	struct ssp_buf *b = f->cls == C_LINK ? &h->ltext : &h->xtext;
	const char *str;
	size_t len, at = b->len;

	if (s == NULL || r->nf < 1 || r->f[0] != s->id ||
	    (f->cls == C_EVENT && h->cur_nl > 0)) {
		if (h->pass != 2)
			h->st.unattached++;
		return;
	}
	if (f->cls == C_LINK)
		h->cur_nl++;
	else
		h->cur_ne++;
	if (h->pass != 2) {	/* counted once */
		if (f->cls == C_LINK)
			s->nlinks++;
		else
			s->nevents++;
	}
	if (!h->keep || (f->cls == C_EVENT && (!h->o.events ||
	    (h->pass == 2 && !h->tr[s->trace].events))))
		return;
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
	} else {
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
}

/* The second pass's span record k: the same span as in the first, its
 * attributes kept when its trace is detailed. */
static int
detail_span(struct ssp_html *h, const struct ssp_rec *r, uint64_t k,
    struct ssp_rec_rd *rr, struct ssp_err *e)
{
	struct span *s;

	if (k >= h->nsp || r->nf < SSP_SF_NCOMMON ||
	    h->sp[k].id != r->f[SSP_SF_SPAN] || h->sp[k].start != r->ts)
		return ssp_err_set(e, SSP_ERR_FORMAT, ssp_rec_rd_offset(rr),
		    "%s: offset %" PRIu64 ": not the span read there the first "
		    "time (did the file change?)", ssp_rec_rd_name(rr),
		    ssp_rec_rd_offset(rr));
	s = &h->sp[k];
	h->cur = (uint32_t)k;
	h->cur_nl = h->cur_ne = 0;
	h->keep = h->tr[s->trace].detail >= 0;
	if (!h->keep)
		return SSP_OK;
	s->attr = h->text.len;
	put_fields(&h->text, &h->fs->types[r->ftag - 1], SSP_SF_NCOMMON, r, rr);
	s->attrlen = (uint32_t)(h->text.len - s->attr);
	s->xtra = h->xtext.len;
	s->ltra = h->ltext.len;
	s->xlinks = s->xevents = 0;
	return SSP_OK;
}

int
ssp_html_detail(struct ssp_html *h, struct ssp_rec_rd *rr, struct ssp_err *e)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(rr);
	struct ssp_rec r;
	uint64_t k = 0;
	unsigned i;
	int got, rc;

	if (h->pass != 1)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "ssp_html_detail: not "
		    "loaded for two passes");
	/* the same file: the same schema */
	if (fs->ntypes != h->fs_ntypes)
		goto changed;
	for (i = 0; i < fs->ntypes; i++)
		if (strcmp(fs->types[i].name, h->ft[i].tname) != 0)
			goto changed;
	h->fs = fs;
	h->pass = 2;
	h->cur = NONE;
	while ((got = ssp_rec_rd_next(rr, &r, e)) == 1) {
		const struct ftype *f = r.ftag >= 1 && r.ftag <= fs->ntypes ?
		    &h->ft[r.ftag - 1] : NULL;

		if (f == NULL || f->cls == C_SKIP)
			continue;
		if (f->cls == C_SPAN) {
			if ((rc = detail_span(h, &r, k++, rr, e)) != SSP_OK)
				return rc;
		} else {
			add_extra(h, &r, f, rr);
		}
	}
	h->fs = NULL;
	if (got < 0)
		return got;
	if (k != h->nsp)
		goto changed;
	if (h->text.failed || h->xtext.failed || h->ltext.failed)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
changed:
	return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: not the stream read the "
	    "first time (did the file change?)", ssp_rec_rd_name(rr));
}

/* --- after reading: splits, lanes, detail selection --------------------- */

struct ivl {
	int64_t b, e;
	uint32_t stream;
};

static int
cmp_ivl(const void *a, const void *b)
{
	const struct ivl *x = a, *y = b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->b < y->b ? -1 : x->b > y->b;
}

/* Union length of v[0..n) sorted by start (formats/sqlite.md §5). */
static int64_t
union_len(const struct ivl *v, uint32_t n)
{
	int64_t busy = 0, reach = INT64_MIN, lo;
	uint32_t i;

	for (i = 0; i < n; i++) {
		lo = v[i].b > reach ? v[i].b : reach;
		if (v[i].e > lo)
			busy = (int64_t)((uint64_t)busy + (uint64_t)v[i].e -
			    (uint64_t)lo);
		if (v[i].e > reach)
			reach = v[i].e;
	}
	return busy;
}

static int
splits(struct ssp_html *h, struct ssp_err *e)
{
	struct ivl *v = NULL, *all = NULL;
	uint32_t cap = 0, cap2 = 0, t, i, j, n;

	for (t = 0; t < h->ntr; t++) {
		struct trace *tr = &h->tr[t];

		if (grow((void **)&v, &cap, tr->n, sizeof(*v)) != 0 ||
		    grow((void **)&all, &cap2, tr->n, sizeof(*all)) != 0)
			goto nomem;
		for (n = 0, i = tr->first; i != NONE; i = h->sp[i].next, n++) {
			v[n].b = h->sp[i].start;
			v[n].e = h->sp[i].start + h->sp[i].dur;
			v[n].stream = h->sp[i].stream;
			all[n] = v[n];
			all[n].stream = 0;
		}
		qsort(v, n, sizeof(*v), cmp_ivl);
		qsort(all, n, sizeof(*all), cmp_ivl);
		tr->busy = union_len(all, n);
		tr->split = h->nsplit;
		for (i = 0; i < n; i = j) {
			for (j = i; j < n && v[j].stream == v[i].stream; j++)
				;
			if (grow((void **)&h->split, &h->capsplit, h->nsplit + 1,
			    sizeof(*h->split)) != 0)
				goto nomem;
			h->split[h->nsplit].stream = v[i].stream;
			h->split[h->nsplit].spans = j - i;
			h->split[h->nsplit].busy = union_len(v + i, j - i);
			h->nsplit++;
			tr->nstreams++;
		}
	}
	free(v);
	free(all);
	return SSP_OK;
nomem:
	free(v);
	free(all);
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

static const struct ssp_html *sort_h;

static int
cmp_start(const void *a, const void *b)
{
	const struct trace *x = &sort_h->tr[*(const uint32_t *)a];
	const struct trace *y = &sort_h->tr[*(const uint32_t *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi < y->hi ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int
cmp_slow(const void *a, const void *b)
{
	const struct trace *x = &sort_h->tr[*(const uint32_t *)a];
	const struct trace *y = &sort_h->tr[*(const uint32_t *)b];
	int64_t dx = x->end - x->start, dy = y->end - y->start;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return cmp_start(a, b);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
select_detail(struct ssp_html *h, struct ssp_err *e)
{
	uint32_t *slow, i, n = 0, want, step_n, rest;
	uint64_t spans = 0, events = 0, cap = h->o.max_spans;
	uint64_t ecap = cap ? cap * 8 : UINT64_MAX;
	int all = h->o.all < 0 ? h->nsp <= SSP_HTML_AUTO_ALL : h->o.all;

	if ((h->order = malloc(((size_t)h->ntr + 1) * sizeof(uint32_t))) == NULL ||
	    (h->detail = malloc(((size_t)h->ntr + 1) * sizeof(uint32_t))) == NULL ||
	    (slow = malloc(((size_t)h->ntr + 1) * sizeof(uint32_t))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < h->ntr; i++)
		h->order[i] = slow[i] = i;
	sort_h = h;
	qsort(h->order, h->ntr, sizeof(uint32_t), cmp_start);
	for (i = 0; i < h->ntr; i++)
		h->tr[h->order[i]].pos = i;
	qsort(slow, h->ntr, sizeof(uint32_t), cmp_slow);
	/* candidates, in priority order, into slow[] */
	if (!all) {
		want = h->o.slowest < h->ntr ? h->o.slowest : h->ntr;
		for (i = 0; i < want; i++)
			h->tr[slow[i]].detail = -2;	/* taken */
		n = want;
		rest = h->ntr - want;
		if (h->o.sample > 0 && rest > 0) {
			step_n = h->o.sample < rest ? h->o.sample : rest;
			/* every (rest / step_n)-th trace by start time */
			uint32_t seen = 0, next = 0, taken = 0;

			for (i = 0; i < h->ntr && taken < step_n; i++) {
				uint32_t t = h->order[i];

				if (h->tr[t].detail == -2)
					continue;
				if (seen++ == next) {
					slow[n++] = t;
					taken++;
					next = (uint32_t)((uint64_t)taken * rest / step_n);
				}
			}
		}
		for (i = 0; i < n; i++)
			h->tr[slow[i]].detail = -1;
	} else {
		n = h->ntr;
	}
	for (i = 0; i < n; i++) {
		struct trace *tr = &h->tr[slow[i]];
		uint64_t ev = 0;
		uint32_t s;

		if (cap && spans + tr->n > cap)
			continue;
		for (s = tr->first; s != NONE; s = h->sp[s].next)
			ev += h->sp[s].nevents;
		spans += tr->n;
		if (h->o.events && events + ev <= ecap) {
			events += ev;
			tr->events = 1;
		} else
			h->omit_events += ev;
		h->detail[h->ndetail++] = slow[i];
		tr->detail = 0;
	}
	free(slow);
	qsort(h->detail, h->ndetail, sizeof(uint32_t), cmp_u32);
	/* by start: the order of h->order */
	for (i = 0, n = 0; i < h->ntr; i++)
		if (h->tr[h->order[i]].detail == 0)
			h->detail[n++] = h->order[i];
	for (i = 0; i < h->ndetail; i++)
		h->tr[h->detail[i]].detail = (int32_t)i;
	h->st.detail_traces = h->ndetail;
	h->st.detail_spans = spans;
	h->st.detail_events = events;
	if (!h->o.events)
		h->omit_events = h->st.events;
	return SSP_OK;
}

int
ssp_html_load(struct ssp_html **hp, struct ssp_rec_rd *rr,
    const struct ssp_html_opts *o, struct ssp_err *e)
{
	struct ssp_html *h;
	struct ssp_rec r;
	int got, rc;
	uint32_t i;

	*hp = NULL;
	if ((h = calloc(1, sizeof(*h))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	h->last_trace = NONE;
	h->cur = NONE;
	h->o = *o;
	h->pass = o->two_pass ? 1 : 0;
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
			add_extra(h, &r, f, rr);
		}
		if (h->o.tick != NULL && h->st.records % TICK == 0)
			h->o.tick(h->o.tick_ctx, h->st.records, h->st.spans);
	}
	if (got < 0) {
		rc = got;
		goto fail;
	}
	if (h->text.failed || h->xtext.failed || h->ltext.failed) {
		rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto fail;
	}
	h->st.traces = h->ntr;
	h->t0 = h->t1 = 0;
	for (i = 0; i < h->ntr; i++) {
		if (i == 0 || h->tr[i].start < h->t0)
			h->t0 = h->tr[i].start;
		if (i == 0 || h->tr[i].end > h->t1)
			h->t1 = h->tr[i].end;
	}
	if ((rc = splits(h, e)) != SSP_OK || (rc = select_detail(h, e)) != SSP_OK)
		goto fail;
	*hp = h;
	return SSP_OK;
fail:
	ssp_html_free(h);
	return rc;
}

/* --- writing ------------------------------------------------------------ */

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
		for (i = 0; i < h->ntr; i++) {
			const struct trace *tr = &h->tr[h->order[i]];
			const struct span *root = tr->root != NONE ?
			    &h->sp[tr->root] : NULL;

			if (i > 0)
				ssp_buf_putc(b, ',');
			switch (c) {
			case 0: put_trace_id(b, tr->hi, tr->lo); break;
			case 1:
				put_num(b, root ? h->ft[root->ft].kind : -1);
				break;
			case 2: put_num(b, root ? (int64_t)root->stream : -1); break;
			case 3: put_num(b, tr->start); break;
			case 4: put_num(b, tr->end - tr->start); break;
			case 5: put_num(b, tr->n); break;
			case 6: put_num(b, tr->busy); break;
			case 7: put_num(b, tr->flags); break;
			case 8: put_num(b, tr->detail); break;
			case 9:
				ssp_buf_putc(b, '[');
				for (k = 0; k < tr->nstreams; k++) {
					const struct sstat *sp = &h->split[tr->split + k];

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
	const struct trace *tr = &h->tr[ti];
	struct idpos *byid, *hit;
	uint32_t n = 0, i, s;
	int64_t p;

	if (grow((void **)idx, cap, tr->n, sizeof(**idx)) != 0 ||
	    (byid = malloc(((size_t)tr->n + 1) * sizeof(*byid))) == NULL)
		return -1;
	for (s = tr->first; s != NONE; s = h->sp[s].next) {
		byid[n].id = h->sp[s].id;
		byid[n].i = n;
		(*idx)[n++] = s;
	}
	qsort(byid, n, sizeof(*byid), cmp_idpos);
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
		if (x->attrlen > 0)
			ssp_buf_put(b, h->text.p + x->attr, x->attrlen);
		else	/* two passes but no second one */
			ssp_buf_lit(b, "{}");
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
static void
put_row(struct ssp_buf *b, const double *v, uint32_t nb, double scale)
{
	uint32_t i;

	ssp_buf_putc(b, '[');
	for (i = 0; i < nb; i++) {
		if (i > 0)
			ssp_buf_putc(b, ',');
		ssp_strfmt_json_u64(b, (uint64_t)(v[i] * scale + 0.5));
	}
	ssp_buf_putc(b, ']');
}

/*
 * Per lane and bin over the whole run (aggregates of all spans): the busy
 * fraction of the bin in millionths, and how many spans touch it.  Bins a
 * span covers whole go through difference arrays, so a long span costs
 * no more than a short one.
 */
static int
write_density(struct ssp_html *h, struct ssp_buf *b)
{
	const uint32_t nb = SSP_HTML_BINS, rl = nb + 1;
	int64_t span = h->t1 - h->t0, w;
	double *busy, *cnt, *dfull, *dcnt, run_full, run_cnt;
	size_t cells = (size_t)h->nlanes * rl + 1;
	uint32_t i, l;

	w = span / nb + 1;
	busy = calloc(cells, sizeof(double));
	cnt = calloc(cells, sizeof(double));
	dfull = calloc(cells, sizeof(double));
	dcnt = calloc(cells, sizeof(double));
	if (busy == NULL || cnt == NULL || dfull == NULL || dcnt == NULL) {
		free(busy);
		free(cnt);
		free(dfull);
		free(dcnt);
		return -1;
	}
	for (i = 0; i < h->nsp; i++) {
		const struct span *s = &h->sp[i];
		size_t row = (size_t)s->lane * rl;
		int64_t a = s->start - h->t0, z = a + s->dur;
		uint64_t ba, bz;

		if (a < 0 || z < a || z > span)
			continue;
		ba = (uint64_t)a / (uint64_t)w;
		bz = (uint64_t)z / (uint64_t)w;
		dcnt[row + ba] += 1;		/* touches ba .. bz */
		dcnt[row + bz + 1] -= 1;
		if (ba == bz) {
			busy[row + ba] += (double)(z - a);
			continue;
		}
		busy[row + ba] += (double)((int64_t)(ba + 1) * w - a);
		busy[row + bz] += (double)(z - (int64_t)bz * w);
		dfull[row + ba + 1] += 1;	/* whole bins ba + 1 .. bz - 1 */
		dfull[row + bz] -= 1;
	}
	for (l = 0; l < h->nlanes; l++) {
		size_t row = (size_t)l * rl;

		run_full = run_cnt = 0;
		for (i = 0; i < nb; i++) {
			run_full += dfull[row + i];
			run_cnt += dcnt[row + i];
			busy[row + i] += run_full * (double)w;
			cnt[row + i] = run_cnt;
		}
	}
	ssp_buf_lit(b, "\"density\":{\"bins\":");
	put_num(b, nb);
	ssp_buf_lit(b, ",\"bin_ps\":");
	put_num(b, w);
	ssp_buf_lit(b, ",\"busy\":[");
	for (l = 0; l < h->nlanes; l++) {
		if (l > 0)
			ssp_buf_putc(b, ',');
		put_row(b, busy + (size_t)l * rl, nb, 1e6 / (double)w);
	}
	ssp_buf_lit(b, "],\"count\":[");
	for (l = 0; l < h->nlanes; l++) {
		if (l > 0)
			ssp_buf_putc(b, ',');
		put_row(b, cnt + (size_t)l * rl, nb, 1);
	}
	ssp_buf_lit(b, "]}");
	free(busy);
	free(cnt);
	free(dfull);
	free(dcnt);
	return 0;
}

int
ssp_html_json(struct ssp_html *h, struct ssp_buf *b, struct ssp_err *e)
{
	uint32_t i, *idx = NULL, cap = 0;
	const struct ssp_html_stats *st = &h->st;

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
		int all = h->o.all < 0 ? h->nsp <= SSP_HTML_AUTO_ALL : h->o.all;

		if (all)
			snprintf(sel, sizeof(sel), "all");
		else
			snprintf(sel, sizeof(sel), "slowest:%" PRIu32 ",sample:%"
			    PRIu32, h->o.slowest, h->o.sample);
		put_str(b, sel);
	}
	ssp_buf_lit(b, ",\"max_spans\":");
	put_num(b, (int64_t)h->o.max_spans);
	ssp_buf_lit(b, ",\"start\":");
	put_num(b, h->t0);
	ssp_buf_lit(b, ",\"end\":");
	put_num(b, h->t1);
	ssp_buf_putc(b, ',');
	if (write_traces(h, b) != 0)
		goto nomem;
	ssp_buf_lit(b, ",\"details\":[");
	for (i = 0; i < h->ndetail; i++) {
		if (i > 0)
			ssp_buf_putc(b, ',');
		if (write_detail(h, b, h->detail[i], &idx, &cap) != 0)
			goto nomem;
	}
	ssp_buf_lit(b, "],");
	if (write_density(h, b) != 0)
		goto nomem;
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
	    "@TITLE@" };
	struct ssp_buf json = SSP_BUF_INIT, b64 = SSP_BUF_INIT;
	struct ssp_buf css = SSP_BUF_INIT, js = SSP_BUF_INIT, title = SSP_BUF_INIT;
	const struct ssp_buf *val[] = { &css, &js, &b64, &title };
	size_t before = out->len;
	const char *s;
	int rc;

	if ((rc = ssp_html_json(h, &json, e)) != SSP_OK)
		goto done;
	h->st.json_bytes = json.len;
	if ((rc = gzip_b64(&json, &b64, &h->st.gz_bytes, e)) != SSP_OK)
		goto done;
	ssp_buf_put(&css, ssp_html_viewer_css, strlen(ssp_html_viewer_css));
	ssp_buf_put(&js, ssp_html_viewer_js, strlen(ssp_html_viewer_js));
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
	subst(out, ssp_html_viewer_html, mark, val, 4);
	h->st.page_bytes = out->len - before;
	rc = out->failed || css.failed || js.failed || title.failed ?
	    ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory") : SSP_OK;
done:
	ssp_buf_free(&json);
	ssp_buf_free(&b64);
	ssp_buf_free(&css);
	ssp_buf_free(&js);
	ssp_buf_free(&title);
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
	uint32_t i;

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
	free(h->sp);
	free(h->tr);
	free(h->tmap);
	free(h->lanes);
	free(h->split);
	ssp_atoms_free(h->atoms);
	ssp_buf_free(&h->text);
	ssp_buf_free(&h->xtext);
	ssp_buf_free(&h->ltext);
	free(h->order);
	free(h->detail);
	free(h);
}
