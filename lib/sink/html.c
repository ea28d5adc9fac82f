/*
 * Span streams into one self-contained HTML page (sink/html.h, the data
 * format in formats/html.md), in two passes with bounded memory: this file
 * is the first pass, which aggregates every trace and chooses the ones the
 * page lists (html_int.h names the other files).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "sink/html_int.h"

int
ssp_html_grow(void **p, uint32_t *cap, uint32_t need, size_t size)
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
void
ssp_html_sort_n(void *p, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(p, n, size, cmp);
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


/* floor(a / w) for w > 0 */
static int64_t
floordiv(int64_t a, int64_t w)
{
	int64_t q = a / w;

	return (a % w != 0 && a < 0) ? q - 1 : q;
}

/* --- lanes and density ---------------------------------------------------- */

uint32_t
ssp_html_lane_find(struct ssp_html *h, uint32_t stream, uint32_t ctx)
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

	if ((i = ssp_html_lane_find(h, stream, ctx)) != NONE)
		return i;
	if (ssp_html_grow((void **)&h->lanes, &h->caplanes, h->nlanes + 1,
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
void
ssp_html_lane_concrete(struct lane *l, int64_t w)
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
void
ssp_html_lane_diff(struct lane *l)
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
		ssp_html_lane_concrete(&h->lanes[i], h->dw);
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
		ssp_html_lane_diff(&h->lanes[i]);
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
			if (ssp_html_grow((void **)&h->groups, &h->capgroups,
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
	if (ssp_html_grow((void **)&h->live, &h->caplive, h->nlive + 1,
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
uint32_t
ssp_html_span_ctx(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f,
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

uint64_t
ssp_html_span_check(uint64_t c, const struct ssp_rec *r)
{
	return mix(c ^ r->f[SSP_SF_SPAN] ^ mix((uint64_t)r->ts ^
	    mix(r->f[SSP_SF_TRACE_LO] ^ r->f[SSP_SF_TRACE_HI] << 1 ^
	    r->f[SSP_SF_STREAM] << 7)));
}

int
ssp_html_bad_span(const struct ssp_html *h, const struct ssp_rec *r,
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

	if ((rc = ssp_html_bad_span(h, r, rr, e)) != SSP_OK)
		return rc;
	end = span_end(start, (int64_t)r->f[SSP_SF_DUR]);
	stream = (uint32_t)r->f[SSP_SF_STREAM];
	flags = (uint32_t)r->f[SSP_SF_FLAGS];
	if (h->st.spans == 0 || start < h->t0)
		h->t0 = start;
	if (h->st.spans == 0 || end > h->t1)
		h->t1 = end;
	if ((ctx = ssp_html_span_ctx(h, r, f, rr, 1)) == NONE ||
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
	h->check = ssp_html_span_check(h->check, r);
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
int
ssp_html_attached(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f)
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
	if (ssp_html_grow((void **)&h->heap, &h->capheap, h->nheap + 1,
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
	if (ssp_html_grow((void **)&h->samp, &h->capsamp, h->nsamp + 1,
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

	if (ssp_html_grow((void **)&h->sel, &h->capsel, h->nsel + 1, sizeof(*h->sel)) != 0)
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
		ssp_html_sort_n(h->live, h->nlive, sizeof(*h->live), cmp_agg_id);
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
		ssp_html_sort_n(h->heap, h->nheap, sizeof(*h->heap), cmp_slow);
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
	ssp_html_sort_n(h->order, h->nsel, sizeof(uint32_t), cmp_start);
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
ssp_html_traces_parse(const char *s, struct ssp_html_opts *o)
{
	char buf[128], *tok, *save = NULL, *colon;
	const char *errstr;
	int64_t v;

	if (strcmp(s, "all") == 0) {
		o->all = 1;
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	o->all = 0;
	o->slowest = o->sample = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((colon = strchr(tok, ':')) == NULL)
			return -1;
		*colon++ = '\0';
		if (ssp_num_strtonum(colon, 0, UINT32_MAX, &v, &errstr) != 0)
			return -1;
		if (strcmp(tok, "slowest") == 0)
			o->slowest = (uint32_t)v;
		else if (strcmp(tok, "sample") == 0)
			o->sample = (uint32_t)v;
		else
			return -1;
	}
	return 0;
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
			if (!ssp_html_attached(h, &r, f))
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
