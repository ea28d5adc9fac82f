#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/map.h"
#include "sink/tracks.h"
#include "stream/span.h"

/* Kind groups: one track (plus overflow lanes) per stream and group. */
enum kgroup { G_SYSCALL, G_HOSTIO, G_HDMA, G_HIRQ, G_NMMIO, G_NDMA, G_NTX,
	G_NRX, G_NIRQ, G_NET, G_KIRQ, G_KSOFT, G_APP, G_N };

static const char *const group_name[] = {
	[G_SYSCALL] = "syscall", [G_HOSTIO] = "mmio/pci", [G_HDMA] = "dma",
	[G_HIRQ] = "irq", [G_NMMIO] = "mmio", [G_NDMA] = "dma", [G_NTX] = "tx",
	[G_NRX] = "rx", [G_NIRQ] = "irq", [G_NET] = "dev",
	[G_KIRQ] = "hardirq", [G_KSOFT] = "softirq", [G_APP] = "app",
};

static const uint8_t kind_group[SSP_SK_NKINDS] = {
	[SSP_SK_HOST_SYSCALL] = G_SYSCALL, [SSP_SK_HOST_MMIO] = G_HOSTIO,
	[SSP_SK_HOST_DMA] = G_HDMA, [SSP_SK_HOST_MSIX] = G_HIRQ,
	[SSP_SK_HOST_PCI] = G_HOSTIO, [SSP_SK_HOST_INTR] = G_HIRQ,
	[SSP_SK_NIC_MMIO] = G_NMMIO, [SSP_SK_NIC_DMA] = G_NDMA,
	[SSP_SK_NIC_TX] = G_NTX, [SSP_SK_NIC_RX] = G_NRX,
	[SSP_SK_NIC_MSIX] = G_NIRQ, [SSP_SK_NET_DEVICE] = G_NET,
	/* kernel contexts: one lane group per CPU; a resume runs in its
	 * syscall's task, so on the CPU's syscall track */
	[SSP_SK_HOST_IRQ] = G_KIRQ, [SSP_SK_HOST_SOFTIRQ] = G_KSOFT,
	[SSP_SK_HOST_RESUME] = G_SYSCALL, [SSP_SK_HOST_APP] = G_APP,
};

_Static_assert(SSP_SK_NKINDS <= 256, "struct sp keeps a kind in a byte");
_Static_assert(SSP_TRACKS_CALL_MAX <= 255, "struct sp keeps ncall in a byte");

#define NIL SSP_TRACKS_NONE
#define CHUNK (64u * 1024)	/* bytes of an argument chunk */
#define SPARE_CHUNKS 8

/* Encoded arguments of the spans in the window: chunks filled in order
 * and given back when their last span has left (spans leave nearly in
 * the order they came). */
struct chunk {
	struct chunk *next;	/* on the spare list */
	uint32_t live, used, cap;
	uint8_t data[];
};

/* A span from its arrival until its END item is handed out. */
enum { S_WINDOW, S_OPEN, S_ENDED };
#define F_BOUT   1u	/* its BEGIN was handed out */
#define F_NESTED 2u

struct sp {
	int64_t start, end;	/* ps */
	uint64_t id, parent;
	uint64_t seq;		/* arrival; free list link when unused */
	uint64_t pseq;		/* placement order */
	uint8_t *args;
	struct chunk *ch;
	uint32_t nargs;
	uint32_t gi;		/* its group */
	uint32_t track;		/* once placed */
	uint32_t below;		/* the span under it on its lane */
	uint32_t fl, fl_tail;	/* flow ids attached: fnode list */
	uint32_t req;		/* flows waiting for its placement */
	uint8_t kind;
	uint8_t ncall;		/* a syscall's call, after its arguments */
	uint8_t state, flags;
};

/* A flow id on a span's BEGIN or END. */
struct fnode {
	uint64_t id;
	uint32_t next;
	uint8_t part, on_end;
};

/* A flow waiting for one of its ends to leave the window. */
struct rnode {
	uint64_t fid, other;	/* flow id, the other end's span id */
	uint32_t next;
	uint8_t from;		/* the waiting span is the source */
};

struct lane {
	uint32_t track, top;
	int64_t free_at;	/* end of the bottom span of its stack */
	int64_t last_ts;	/* the latest begin or end on it */
};

/* A stream's kind group (for CPU and device groups, of one CPU or
 * device): its lanes, and a heap of them by the time they are free. */
struct group {
	uint64_t sub;
	uint32_t stream, kg;
	uint32_t subrank;	/* order of first use in (stream, kg) */
	char name[64];		/* of its tracks: named while the CPU's
				 * string id means what it meant */
	struct lane *ln;
	uint32_t nln, lcap;
	uint32_t *heap;		/* lane numbers */
	uint32_t nheap;
};

struct wkey {			/* the window: by start, longest first */
	int64_t start, end;
	uint64_t seq;
	uint32_t idx;
};

struct okey {			/* open spans: by end, later begun first */
	int64_t end;
	uint64_t seq;
	uint32_t idx;
};

struct qitem {			/* the queue of items not handed out yet */
	uint64_t ts, flow;
	uint32_t idx;		/* span, track or process */
	uint8_t what;
};

struct cent {			/* recent spans' places, by id */
	uint64_t id, ts;	/* ts: start in ns */
	uint32_t track;
};

struct tkey {
	uint64_t sub;
	uint32_t stream, kg, gi;	/* gi NIL: empty slot */
};

struct ssp_tracks {
	const struct ssp_rec_rd *rr;
	struct ssp_tracks_opts o;
	struct ssp_tracks_stats st;
	enum ssp_status rc;	/* the first error of emit, sticky */
	struct ssp_err *err;	/* where emit errors go (the caller's) */

	struct ssp_tracks_proc *proc;
	size_t nprocs;
	uint16_t (*nsub)[G_N];	/* per process: subs seen per group */
	struct ssp_tracks_track *track;
	uint32_t *track_gi, *track_lane;
	size_t ntracks, tcap;
	struct group *grp;
	size_t ngrp, gcap;
	struct tkey *keys;
	size_t nkeys, kcap;

	struct sp *sp;
	size_t nsp, spcap;
	uint32_t spfree;
	uint32_t *dm;		/* span id -> sp index, by id & (ndm - 1) */
	size_t ndm;
	struct ssp_map live;	/* the ids whose dm slot was taken */
	struct fnode *fn;
	size_t nfn, fncap;
	uint32_t fnfree;
	struct rnode *rn;
	size_t nrn, rncap;
	uint32_t rnfree;

	/* the window: a ring in key order, for spans that come in order or
	 * nearly (most), and a heap for the others */
	struct wkey *ring;
	size_t rhead, wrn, rcap;	/* power of two */
	struct wkey *win;	/* the heap */
	size_t nwin, wcap, wmax;
	int64_t watermark;	/* start of the last span placed in order */
	int placed_any;
	struct okey *open;
	size_t nopen, ocap;
	uint64_t seq, pseq, evseq;

	struct qitem *q;
	size_t qhead, qn, qcap, qmax;	/* ring, power of two */

	struct cent *cache;
	size_t ccap;		/* power of two */

	struct chunk *cur, *spare;
	unsigned nspare;
	struct ssp_buf scratch;
	struct ssp_tracks_fl *flv;
	size_t flcap;
	uint64_t last_link_span;
};

static enum ssp_status
nomem(struct ssp_err *e)
{
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

static int
grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c;
	void *np;

	if (need <= *cap)
		return 0;
	for (c = *cap ? *cap : 64; c < need; c *= 2)
		;
	if ((np = realloc(*p, c * size)) == NULL)
		return -1;
	*p = np;
	*cap = c;
	return 0;
}

/* --- argument chunks ------------------------------------------------- */

static uint8_t *
arg_alloc(struct ssp_tracks *t, size_t n, struct chunk **out)
{
	struct chunk *c = t->cur;

	if (c == NULL || c->cap - c->used < n) {
		if (n > CHUNK / 4) {		/* a big one: a chunk of its own */
			if ((c = malloc(sizeof(*c) + n)) == NULL)
				return NULL;
			c->live = 0;
			c->used = 0;
			c->cap = (uint32_t)n;
			c->next = NULL;
			c->live++;
			c->used = (uint32_t)n;
			*out = c;
			return c->data;
		}
		if (t->cur != NULL && t->cur->live == 0) {
			c = t->cur;		/* empty: start it over */
		} else if ((c = t->spare) != NULL) {
			t->spare = c->next;
			t->nspare--;
		} else if ((c = malloc(sizeof(*c) + CHUNK)) == NULL) {
			return NULL;
		}
		c->live = 0;
		c->used = 0;
		c->cap = CHUNK;
		c->next = NULL;
		t->cur = c;
	}
	c->live++;
	c->used += (uint32_t)n;
	*out = c;
	return c->data + c->used - n;
}

static void
arg_free(struct ssp_tracks *t, struct chunk *c)
{
	if (c == NULL || --c->live > 0 || c == t->cur)
		return;
	if (c->cap != CHUNK || t->nspare >= SPARE_CHUNKS) {
		free(c);
		return;
	}
	c->next = t->spare;
	t->spare = c;
	t->nspare++;
}

/* --- heaps ----------------------------------------------------------- */

static int
w_less(const struct wkey *x, const struct wkey *y)
{
	if (x->start != y->start)
		return x->start < y->start;
	if (x->end != y->end)
		return x->end > y->end;
	return x->seq < y->seq;
}

static void
w_up(struct wkey *h, size_t i)
{
	struct wkey x = h[i];

	while (i > 0 && w_less(&x, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = x;
}

static void
w_down(struct wkey *h, size_t n, size_t i)
{
	struct wkey x = h[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && w_less(&h[c + 1], &h[c]))
			c++;
		if (!w_less(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

static int
o_less(const struct okey *x, const struct okey *y)
{
	if (x->end != y->end)
		return x->end < y->end;
	return x->seq > y->seq;
}

static void
o_up(struct okey *h, size_t i)
{
	struct okey x = h[i];

	while (i > 0 && o_less(&x, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = x;
}

static void
o_down(struct okey *h, size_t n, size_t i)
{
	struct okey x = h[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && o_less(&h[c + 1], &h[c]))
			c++;
		if (!o_less(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* Lanes of a group by the time they are free, then their number. */
static int
l_less(const struct group *g, uint32_t a, uint32_t b)
{
	if (g->ln[a].free_at != g->ln[b].free_at)
		return g->ln[a].free_at < g->ln[b].free_at;
	return a < b;
}

static void
l_up(struct group *g, size_t i)
{
	uint32_t x = g->heap[i];

	while (i > 0 && l_less(g, x, g->heap[(i - 1) / 2])) {
		g->heap[i] = g->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	g->heap[i] = x;
}

static void
l_down(struct group *g, size_t i)
{
	uint32_t x = g->heap[i];
	size_t n = g->nheap;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && l_less(g, g->heap[c + 1], g->heap[c]))
			c++;
		if (!l_less(g, g->heap[c], x))
			break;
		g->heap[i] = g->heap[c];
		i = c;
	}
	g->heap[i] = x;
}

/* --- the queue of items ---------------------------------------------- */

static int
q_push(struct ssp_tracks *t, unsigned what, uint32_t idx, uint64_t ts,
    uint64_t flow)
{
	struct qitem *it;

	if (t->qn == t->qcap) {		/* double the ring, unwrapped */
		size_t nc = t->qcap ? t->qcap * 2 : 1024, i;
		struct qitem *nq = malloc(nc * sizeof(*nq));

		if (nq == NULL)
			return -1;
		for (i = 0; i < t->qn; i++)
			nq[i] = t->q[(t->qhead + i) & (t->qcap - 1)];
		free(t->q);
		t->q = nq;
		t->qcap = nc;
		t->qhead = 0;
	}
	it = &t->q[(t->qhead + t->qn++) & (t->qcap - 1)];
	it->what = (uint8_t)what;
	it->idx = idx;
	it->ts = ts;
	it->flow = flow;
	return 0;
}

/* --- spans, flows ------------------------------------------------------ */

static uint32_t
sp_new(struct ssp_tracks *t)
{
	uint32_t i;

	if (t->spfree != NIL) {
		i = t->spfree;
		t->spfree = (uint32_t)t->sp[i].seq;
		return i;
	}
	if (t->nsp >= NIL - 1 || grow((void **)&t->sp, &t->spcap, t->nsp + 1,
	    sizeof(*t->sp)) != 0)
		return NIL;
	return (uint32_t)t->nsp++;
}

/* The span index of a live id: its direct slot, or the map. */
static uint32_t
live_find(const struct ssp_tracks *t, uint64_t id)
{
	uint32_t i = t->dm[id & (t->ndm - 1)];
	struct ssp_map_slot *sl;

	if (i != NIL && t->sp[i].id == id)
		return i;
	if (t->live.n > 0 && (sl = ssp_map_find(&t->live, id)) != NULL)
		return sl->val;
	return NIL;
}

static int
live_add(struct ssp_tracks *t, uint64_t id, uint32_t i)
{
	uint32_t *d = &t->dm[id & (t->ndm - 1)];

	if (*d == NIL) {
		*d = i;
		return 0;
	}
	return ssp_map_add(&t->live, id, i) != NULL ? 0 : -1;
}

static void
live_del(struct ssp_tracks *t, uint64_t id, uint32_t i)
{
	uint32_t *d = &t->dm[id & (t->ndm - 1)];
	struct ssp_map_slot *sl;

	if (*d == i) {
		*d = NIL;
		return;
	}
	for (sl = ssp_map_find(&t->live, id); sl != NULL;
	    sl = ssp_map_next(&t->live, sl))
		if (sl->val == i) {
			ssp_map_del(&t->live, sl);
			return;
		}
}

static void
fn_free_list(struct ssp_tracks *t, uint32_t k)
{
	while (k != NIL) {
		uint32_t n = t->fn[k].next;

		t->fn[k].next = t->fnfree;
		t->fnfree = k;
		k = n;
	}
}

/* The span leaves: its place stays in the table of recent spans. */
static void
sp_free(struct ssp_tracks *t, uint32_t i)
{
	struct sp *s = &t->sp[i];
	struct cent *c = &t->cache[s->id & (t->ccap - 1)];

	c->id = s->id;
	c->ts = ssp_tracks_ns(s->start);
	c->track = s->track;
	live_del(t, s->id, i);
	fn_free_list(t, s->fl);
	arg_free(t, s->ch);
	s->ch = NULL;
	s->seq = t->spfree;
	t->spfree = i;
}

static int
attach(struct ssp_tracks *t, uint32_t i, uint64_t id, unsigned part,
    int on_end)
{
	struct sp *s;
	uint32_t k;

	if (t->fnfree != NIL) {
		k = t->fnfree;
		t->fnfree = t->fn[k].next;
	} else {
		if (t->nfn >= NIL - 1 || grow((void **)&t->fn, &t->fncap,
		    t->nfn + 1, sizeof(*t->fn)) != 0)
			return -1;
		k = (uint32_t)t->nfn++;
	}
	t->fn[k].id = id;
	t->fn[k].part = (uint8_t)part;
	t->fn[k].on_end = (uint8_t)on_end;
	t->fn[k].next = NIL;
	s = &t->sp[i];
	if (s->fl == NIL)
		s->fl = k;
	else
		t->fn[s->fl_tail].next = k;
	s->fl_tail = k;
	return 0;
}

static int
req_add(struct ssp_tracks *t, uint32_t i, uint64_t fid, uint64_t other,
    int from)
{
	uint32_t k;

	if (t->rnfree != NIL) {
		k = t->rnfree;
		t->rnfree = t->rn[k].next;
	} else {
		if (t->nrn >= NIL - 1 || grow((void **)&t->rn, &t->rncap,
		    t->nrn + 1, sizeof(*t->rn)) != 0)
			return -1;
		k = (uint32_t)t->nrn++;
	}
	t->rn[k].fid = fid;
	t->rn[k].other = other;
	t->rn[k].from = (uint8_t)from;
	t->rn[k].next = t->sp[i].req;
	t->sp[i].req = k;
	return 0;
}

/* Where a span is: still held (live), only in the table of recent spans
 * (gone: its items are out), or not known. */
enum { E_NONE, E_FORGOTTEN, E_LIVE, E_GONE };

struct endp {
	int where;
	uint32_t idx, track;
	uint64_t ts;		/* start, ns */
};

static struct endp
lookup(const struct ssp_tracks *t, uint64_t id)
{
	struct endp p = { E_NONE, NIL, NIL, 0 };
	const struct cent *c;
	uint32_t i;

	if (id == 0)
		return p;
	if ((i = live_find(t, id)) != NIL) {
		const struct sp *s = &t->sp[i];

		p.where = E_LIVE;
		p.idx = i;
		p.track = s->track;
		p.ts = ssp_tracks_ns(s->start);
		return p;
	}
	c = &t->cache[id & (t->ccap - 1)];
	if (c->id == id) {
		p.where = E_GONE;
		p.track = c->track;
		p.ts = c->ts;
	} else if (c->id > id) {
		p.where = E_FORGOTTEN;	/* a later span took its place */
	}
	return p;
}

/*
 * Name flow fid on its source f and target d, both laid out (a source
 * that starts after its target trades places with it: trace_processor
 * directs a flow by the slices' starts).  Ids on the BEGINs where both
 * are still held; for protobuf, else on any event of each still held;
 * else flow events of their own.
 */
static int
join(struct ssp_tracks *t, const struct endp *f, const struct endp *d,
    uint64_t fid)
{
	const struct sp *fs = f->where == E_LIVE ? &t->sp[f->idx] : NULL;
	const struct sp *ds = d->where == E_LIVE ? &t->sp[d->idx] : NULL;
	int fb = fs != NULL && !(fs->flags & F_BOUT);
	int db = ds != NULL && !(ds->flags & F_BOUT);

	if (f->ts > d->ts) {	/* a viewer draws it forward in time anyway */
		const struct endp *x = f;
		const struct sp *xs = fs;
		int xb = fb;

		f = d, fs = ds, fb = db;
		d = x, ds = xs, db = xb;
	}
	if (t->o.flows == SSP_TRACKS_FLOWS_JSON) {
		/* an "f" after its "s" when both share a time */
		if (fb && db && fs->pseq < ds->pseq)
			return attach(t, f->idx, fid, SSP_TRACKS_FL_OUT, 0) ||
			    attach(t, d->idx, fid, SSP_TRACKS_FL_IN, 0);
		if (fb ? attach(t, f->idx, fid, SSP_TRACKS_FL_OUT, 0) :
		    q_push(t, SSP_TRACKS_FLOW_OUT, f->track, f->ts, fid))
			return -1;
		return q_push(t, SSP_TRACKS_FLOW_IN, d->track, d->ts, fid);
	}
	if (fb && db && (f->ts < d->ts || fs->pseq < ds->pseq))
		return attach(t, f->idx, fid, SSP_TRACKS_FL_OUT, 0) ||
		    attach(t, d->idx, fid, SSP_TRACKS_FL_IN, 0);
	/* else both in flow_ids, on any event of each still held: the
	 * first one read begins the flow, the second ends it, directed from
	 * the slice that starts first; at one start, from the one read
	 * first, so the target's is its END if not written yet */
	if (fs != NULL && ds != NULL)
		return attach(t, f->idx, fid, SSP_TRACKS_FL_OUT, !fb) ||
		    attach(t, d->idx, fid, SSP_TRACKS_FL_BOTH,
		    (f->ts == d->ts && ds->state == S_OPEN) || !db);
	t->st.flow_events++;
	return q_push(t, SSP_TRACKS_FLOW_OUT, f->track, f->ts, fid) ||
	    q_push(t, SSP_TRACKS_FLOW_IN, d->track, d->ts, fid);
}

static void
count_miss(struct ssp_tracks *t, const struct endp *a, const struct endp *b,
    uint64_t *what)
{
	(*what)++;
	if (a->where == E_FORGOTTEN || (b != NULL && b->where == E_FORGOTTEN))
		t->st.forgotten++;
}

/* A flow between two spans by id: joined now, or when the one still in
 * the window leaves it. */
static int
flow_ids(struct ssp_tracks *t, uint64_t fid, uint64_t from, uint64_t to,
    int link)
{
	struct endp f = lookup(t, from), d = lookup(t, to);

	if (f.where < E_LIVE || d.where < E_LIVE) {
		count_miss(t, &f, &d, link ? &t->st.links_unmatched :
		    &t->st.parents_missing);
		return 0;
	}
	if (f.where == E_LIVE && t->sp[f.idx].state == S_WINDOW)
		return req_add(t, f.idx, fid, to, 1);
	if (d.where == E_LIVE && t->sp[d.idx].state == S_WINDOW)
		return req_add(t, d.idx, fid, from, 0);
	if (link)
		t->st.link_flows++;
	else
		t->st.flows++;
	return join(t, &f, &d, fid);
}

/* --- processes, groups, tracks ----------------------------------------- */

static enum ssp_status
proc_for(struct ssp_tracks *t, uint64_t stream, struct ssp_err *e)
{
	size_t n = t->nprocs, i;
	struct ssp_tracks_proc *p;
	uint16_t (*ns)[G_N];

	if (stream < n)
		return SSP_OK;
	if (stream > 65535)
		return ssp_err_set(e, SSP_ERR_FORMAT, ssp_rec_rd_offset(t->rr),
		    "%s: stream index %" PRIu64 " out of range",
		    ssp_rec_rd_name(t->rr), stream);
	if ((p = realloc(t->proc, ((size_t)stream + 1) * sizeof(*p))) == NULL)
		return nomem(e);
	t->proc = p;
	if ((ns = realloc(t->nsub, ((size_t)stream + 1) * sizeof(*ns))) == NULL)
		return nomem(e);
	t->nsub = ns;
	for (i = n; i <= stream; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		memset(ns[i], 0, sizeof(ns[i]));
		snprintf(p[i].name, sizeof(p[i].name), "stream %zu", i);
		p[i].pid = (uint32_t)i + 1;
		if (q_push(t, SSP_TRACKS_PROC, (uint32_t)i, 0, 0) != 0)
			return nomem(e);
	}
	t->nprocs = (size_t)stream + 1;
	return SSP_OK;
}

static size_t
khash(uint64_t sub, uint32_t stream, uint32_t kg)
{
	uint64_t h = sub * 0x9e3779b97f4a7c15u ^ ((uint64_t)stream << 8 | kg);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9u;
	return (size_t)(h ^ h >> 32);
}

static int
keys_rehash(struct ssp_tracks *t)
{
	struct tkey *old = t->keys, *nk;
	size_t oc = t->kcap, i, h, m;

	if ((nk = malloc(oc * 2 * sizeof(*nk))) == NULL)
		return -1;
	t->keys = nk;
	t->kcap = oc * 2;
	m = t->kcap - 1;
	for (i = 0; i < t->kcap; i++)
		nk[i].gi = NIL;
	for (i = 0; i < oc; i++) {
		if (old[i].gi == NIL)
			continue;
		for (h = khash(old[i].sub, old[i].stream, old[i].kg) & m;
		    nk[h].gi != NIL; h = (h + 1) & m)
			;
		nk[h] = old[i];
	}
	free(old);
	return 0;
}

/* The group of a span record (sub: CPU string, node/dev). */
static enum ssp_status
group_for(struct ssp_tracks *t, const struct ssp_rec *r, unsigned kind,
    uint32_t *out, struct ssp_err *e)
{
	uint32_t stream = (uint32_t)r->f[SSP_SF_STREAM], kg = kind_group[kind];
	uint64_t sub = 0;
	size_t h, m = t->kcap - 1;
	struct group *g;

	if (kind == SSP_SK_HOST_SYSCALL && r->nf > SSP_SA_SYSCALL_CPU)
		sub = r->f[SSP_SA_SYSCALL_CPU];
	else if (kind >= SSP_SK_HOST_IRQ && r->nf > SSP_SA_CTX_CPU)
		sub = r->f[SSP_SA_CTX_CPU];	/* the same string as a syscall's */
	else if (kind == SSP_SK_NET_DEVICE && r->nf > SSP_SA_NET_DEV)
		sub = r->f[SSP_SA_NET_NODE] << 32 | (r->f[SSP_SA_NET_DEV] &
		    0xffffffffu);
	for (h = khash(sub, stream, kg) & m; t->keys[h].gi != NIL;
	    h = (h + 1) & m)
		if (t->keys[h].sub == sub && t->keys[h].stream == stream &&
		    t->keys[h].kg == kg) {
			*out = t->keys[h].gi;
			return SSP_OK;
		}
	if (t->ngrp >= NIL - 1 || grow((void **)&t->grp, &t->gcap, t->ngrp + 1,
	    sizeof(*t->grp)) != 0)
		return nomem(e);
	g = &t->grp[t->ngrp];
	memset(g, 0, sizeof(*g));
	g->sub = sub;
	g->stream = stream;
	g->kg = kg;
	g->subrank = t->nsub[stream][kg] < 255 ? t->nsub[stream][kg]++ : 255;
	if (kg == G_SYSCALL || kg >= G_KIRQ) {
		const char *cpu = sub ? ssp_rec_rd_str(t->rr, sub, NULL) : NULL;

		snprintf(g->name, sizeof(g->name), "%s%s%.48s", group_name[kg],
		    cpu ? " " : "", cpu ? cpu : "");
	} else if (kg == G_NET) {
		snprintf(g->name, sizeof(g->name), "node %" PRIu64 " dev %" PRIu64,
		    sub >> 32, sub & 0xffffffffu);
	} else {
		snprintf(g->name, sizeof(g->name), "%s", group_name[kg]);
	}
	t->keys[h].sub = sub;
	t->keys[h].stream = stream;
	t->keys[h].kg = kg;
	t->keys[h].gi = (uint32_t)t->ngrp;
	*out = (uint32_t)t->ngrp++;
	if (++t->nkeys * 2 > t->kcap && keys_rehash(t) != 0)
		return nomem(e);
	return SSP_OK;
}

/* A new lane of group gi, with its track; its item goes in the queue. */
static int
new_lane(struct ssp_tracks *t, uint32_t gi, uint32_t *lane)
{
	struct group *g = &t->grp[gi];
	struct ssp_tracks_track *k;
	uint32_t n = g->nln;

	if (t->ntracks >= NIL - 1)
		return -1;
	if (n == g->lcap) {		/* lanes and their heap grow together */
		uint32_t c = g->lcap ? g->lcap * 2 : 4;
		struct lane *nl = realloc(g->ln, c * sizeof(*nl));
		uint32_t *nh;

		if (nl == NULL)
			return -1;
		g->ln = nl;
		if ((nh = realloc(g->heap, c * sizeof(*nh))) == NULL)
			return -1;
		g->heap = nh;
		g->lcap = c;
	}
	if (t->ntracks == t->tcap) {
		size_t c = t->tcap ? t->tcap * 2 : 64;
		struct ssp_tracks_track *nt = realloc(t->track, c * sizeof(*nt));
		uint32_t *a, *b;

		if (nt == NULL)
			return -1;
		t->track = nt;
		if ((a = realloc(t->track_gi, c * sizeof(*a))) == NULL)
			return -1;
		t->track_gi = a;
		if ((b = realloc(t->track_lane, c * sizeof(*b))) == NULL)
			return -1;
		t->track_lane = b;
		t->tcap = c;
	}
	k = &t->track[t->ntracks];
	memset(k, 0, sizeof(*k));
	k->proc = g->stream;
	k->group = g->kg;
	k->sub = g->sub;
	k->lane = n;
	k->tid = SSP_TRACKS_TID0 + (uint32_t)t->ntracks;
	k->rank = (int32_t)((uint32_t)g->kg << 24 | g->subrank << 16 |
	    (n < 65535 ? n : 65535));
	if (n == 0)
		snprintf(k->name, sizeof(k->name), "%s", g->name);
	else
		snprintf(k->name, sizeof(k->name), "%.52s #%" PRIu32, g->name,
		    n + 1);
	t->track_gi[t->ntracks] = gi;
	t->track_lane[t->ntracks] = n;
	g->ln[n].track = (uint32_t)t->ntracks;
	g->ln[n].top = NIL;
	g->ln[n].free_at = INT64_MIN;
	g->ln[n].last_ts = INT64_MIN;
	g->nln = n + 1;
	if (q_push(t, SSP_TRACKS_TRACK, (uint32_t)t->ntracks, 0, 0) != 0)
		return -1;
	t->ntracks++;
	t->st.tracks = t->ntracks;
	if (n > 0)
		t->st.lanes++;
	*lane = n;
	return 0;
}

/* --- layout ----------------------------------------------------------- */

/* End the open spans that end by ts, in time order: their END items, and
 * each leaves the top of its lane's stack. */
static int
close_until(struct ssp_tracks *t, int64_t ts)
{
	while (t->nopen > 0 && t->open[0].end <= ts) {
		uint32_t i = t->open[0].idx;
		struct sp *s = &t->sp[i];
		struct lane *l = &t->grp[s->gi].ln[t->track_lane[s->track]];

		if (q_push(t, SSP_TRACKS_END, i, ssp_tracks_ns(s->end), 0) != 0)
			return -1;
		s->state = S_ENDED;
		l->top = s->below;
		if (s->end > l->last_ts)
			l->last_ts = s->end;
		t->open[0] = t->open[--t->nopen];
		if (t->nopen > 0)
			o_down(t->open, t->nopen, 0);
	}
	return 0;
}

/*
 * Lay out the span leaving the window: on the lane of its parent, when
 * the parent is the innermost open span there and the span ends inside
 * it (nested: no flow); else on the lane free the longest, if free by its
 * start (lowest number on a tie); else on a new lane.  Then its flows.
 */
static int
place(struct ssp_tracks *t, uint32_t i)
{
	struct sp *s = &t->sp[i];
	struct group *g = &t->grp[s->gi];
	uint32_t pick = NIL, r;
	struct endp p = { E_NONE, NIL, NIL, 0 };
	struct okey ok;

	if (close_until(t, s->start) != 0)
		return -1;
	if (t->placed_any && s->start < t->watermark)
		t->st.late++;
	else
		t->watermark = s->start;
	t->placed_any = 1;
	if (g->nln == 0) {
		if (new_lane(t, s->gi, &pick) != 0)
			return -1;
		g->heap[0] = 0;
		g->nheap = 1;
		pick = NIL;
	}
	if (s->parent != 0) {
		p = lookup(t, s->parent);
		if (p.where == E_LIVE && t->sp[p.idx].state == S_OPEN &&
		    t->sp[p.idx].gi == s->gi) {
			const struct sp *ps = &t->sp[p.idx];
			struct lane *l = &g->ln[t->track_lane[ps->track]];

			if (l->top == p.idx && s->end <= ps->end &&
			    s->start < ps->end && l->last_ts <= s->start) {
				pick = t->track_lane[ps->track];
				s->flags |= F_NESTED;
			}
		}
	}
	if (pick == NIL && g->ln[g->heap[0]].free_at <= s->start) {
		pick = g->heap[0];		/* its stack is empty */
		g->ln[pick].free_at = s->end;
		l_down(g, 0);
	}
	if (pick == NIL) {
		if (new_lane(t, s->gi, &pick) != 0)
			return -1;
		g = &t->grp[s->gi];
		g->ln[pick].free_at = s->end;
		g->heap[g->nheap++] = pick;
		l_up(g, g->nheap - 1);
	}
	s = &t->sp[i];
	s->track = g->ln[pick].track;
	s->below = g->ln[pick].top;
	g->ln[pick].top = i;
	if (s->start > g->ln[pick].last_ts)
		g->ln[pick].last_ts = s->start;
	s->state = S_OPEN;
	s->pseq = t->pseq++;
	if (grow((void **)&t->open, &t->ocap, t->nopen + 1, sizeof(*t->open)))
		return -1;
	ok.end = s->end;
	ok.seq = t->evseq++;
	ok.idx = i;
	t->open[t->nopen] = ok;
	o_up(t->open, t->nopen++);
	if (q_push(t, SSP_TRACKS_BEGIN, i, ssp_tracks_ns(s->start), 0) != 0)
		return -1;

	/* its parent flow */
	if (s->parent != 0) {
		if (s->flags & F_NESTED)
			t->st.nested++;
		else if (flow_ids(t, s->id, s->parent, s->id, 0) != 0)
			return -1;
	}
	/* flows that waited for it */
	for (r = t->sp[i].req, t->sp[i].req = NIL; r != NIL; ) {
		struct rnode *rn = &t->rn[r];
		uint32_t next = rn->next;
		uint64_t other = rn->other, fid = rn->fid;
		int from = rn->from;

		rn->next = t->rnfree;
		t->rnfree = r;
		if (flow_ids(t, fid, from ? t->sp[i].id : other,
		    from ? other : t->sp[i].id,
		    (fid & SSP_TRACKS_LINK_FLOW) != 0) != 0)
			return -1;
		r = next;
	}
	return 0;
}

/* The item at the head of the queue, handed to emit. */
static int
q_pop(struct ssp_tracks *t)
{
	struct qitem it = t->q[t->qhead];
	struct ssp_tracks_item x;
	struct sp *s = NULL;

	t->qhead = (t->qhead + 1) & (t->qcap - 1);
	t->qn--;
	memset(&x, 0, sizeof(x));
	x.what = (enum ssp_tracks_what)it.what;
	x.ts = it.ts;
	switch (it.what) {
	case SSP_TRACKS_PROC:
		x.proc = &t->proc[it.idx];
		break;
	case SSP_TRACKS_TRACK:
	case SSP_TRACKS_FLOW_OUT:
	case SSP_TRACKS_FLOW_IN:
		x.track = &t->track[it.idx];
		x.proc = &t->proc[x.track->proc];
		x.flow = it.flow;
		break;
	default: {
		size_t n = 0;
		uint32_t k;
		int end = it.what == SSP_TRACKS_END;

		s = &t->sp[it.idx];
		x.track = &t->track[s->track];
		x.proc = &t->proc[x.track->proc];
		x.kind = s->kind;
		x.end = ssp_tracks_ns(s->end);
		if (!end) {
			x.args = s->args;
			x.nargs = s->nargs;
			x.call = s->ncall > 0 ? (const char *)s->args +
			    s->nargs : NULL;
			x.ncall = s->ncall;
		}
		for (k = s->fl; k != NIL; k = t->fn[k].next)
			if (t->fn[k].on_end == end) {
				if (grow((void **)&t->flv, &t->flcap, n + 1,
				    sizeof(*t->flv)) != 0)
					return -1;
				t->flv[n].id = t->fn[k].id;
				t->flv[n++].part = t->fn[k].part;
			}
		x.fl = t->flv;
		x.nfl = n;
	}
	}
	if (t->rc == SSP_OK)
		t->rc = t->o.emit(t->o.ctx, &x, t->err);
	if (s != NULL && it.what == SSP_TRACKS_BEGIN) {
		s->flags |= F_BOUT;
		arg_free(t, s->ch);
		s->ch = NULL;
		s->args = NULL;
	} else if (s != NULL) {
		sp_free(t, it.idx);
	}
	return 0;
}

/* Hand out items while more than the queue's share wait. */
static enum ssp_status
drain(struct ssp_tracks *t, size_t keep, struct ssp_err *e)
{
	while (t->qn > keep && t->rc == SSP_OK)
		if (q_pop(t) != 0)
			return nomem(e);
	return t->rc;
}

#define RING_SCAN 8	/* places a span may move back in the ring */

static int
win_add(struct ssp_tracks *t, const struct wkey *k)
{
	size_t m, j, n;

	if (t->wrn == t->rcap) {		/* double the ring, unwrapped */
		size_t nc = t->rcap ? t->rcap * 2 : 1024, i;
		struct wkey *nr = malloc(nc * sizeof(*nr));

		if (nr == NULL)
			return -1;
		for (i = 0; i < t->wrn; i++)
			nr[i] = t->ring[(t->rhead + i) & (t->rcap - 1)];
		free(t->ring);
		t->ring = nr;
		t->rcap = nc;
		t->rhead = 0;
	}
	m = t->rcap - 1;
	/* its place in the ring, RING_SCAN from the end at most */
	if (t->wrn > RING_SCAN && w_less(k, &t->ring[(t->rhead + t->wrn - 1 -
	    RING_SCAN) & m]))
		n = RING_SCAN + 1;
	else
		for (n = 0; n < t->wrn && n <= RING_SCAN &&
		    w_less(k, &t->ring[(t->rhead + t->wrn - 1 - n) & m]); n++)
			;
	if (n > RING_SCAN || (n == t->wrn && n > 0)) {
		if (grow((void **)&t->win, &t->wcap, t->nwin + 1,
		    sizeof(*t->win)) != 0)
			return -1;
		t->win[t->nwin] = *k;
		w_up(t->win, t->nwin++);
		return 0;
	}
	for (j = t->wrn; j > t->wrn - n; j--)
		t->ring[(t->rhead + j) & m] = t->ring[(t->rhead + j - 1) & m];
	t->ring[(t->rhead + t->wrn - n) & m] = *k;
	t->wrn++;
	return 0;
}

/* The first span of the window leaves it and is laid out. */
static int
release(struct ssp_tracks *t)
{
	uint32_t i;

	if (t->wrn > 0 && (t->nwin == 0 || w_less(&t->ring[t->rhead],
	    &t->win[0]))) {
		i = t->ring[t->rhead].idx;
		t->rhead = (t->rhead + 1) & (t->rcap - 1);
		t->wrn--;
	} else {
		i = t->win[0].idx;
		t->win[0] = t->win[--t->nwin];
		if (t->nwin > 0)
			w_down(t->win, t->nwin, 0);
	}
	return place(t, i);
}

/* --- API ----------------------------------------------------------------- */

enum ssp_status
ssp_tracks_open(struct ssp_tracks **tp, const struct ssp_rec_rd *rr,
    const struct ssp_tracks_opts *o, struct ssp_err *e)
{
	struct ssp_tracks *t = calloc(1, sizeof(*t));
	struct ssp_span_source *src = NULL;
	int n, i;
	size_t k;

	*tp = NULL;
	if (t == NULL)
		return nomem(e);
	t->rr = rr;
	t->o = *o;
	t->err = e;
	t->wmax = o->window ? o->window : SSP_TRACKS_WINDOW;
	t->qmax = t->wmax < 1024 ? 1024 : t->wmax;
	for (t->ccap = 4096; t->ccap < 4 * t->wmax && t->ccap < (1u << 30);
	    t->ccap *= 2)
		;
	/* live spans: the window, the queue's, the open ones */
	for (t->ndm = 1024; t->ndm < 2 * (t->wmax + t->qmax) &&
	    t->ndm < (1u << 30); t->ndm *= 2)
		;
	t->spfree = t->fnfree = t->rnfree = NIL;
	t->kcap = 256;
	if ((n = ssp_span_reader_sources(rr, NULL, 0)) < 0) {
		free(t);
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: bad stream list in "
		    "the header", ssp_rec_rd_name(rr));
	}
	if ((src = calloc((size_t)n + 1, sizeof(*src))) == NULL ||
	    (t->proc = calloc((size_t)n + 1, sizeof(*t->proc))) == NULL ||
	    (t->nsub = calloc((size_t)n + 1, sizeof(*t->nsub))) == NULL ||
	    (t->keys = malloc(t->kcap * sizeof(*t->keys))) == NULL ||
	    (t->cache = calloc(t->ccap, sizeof(*t->cache))) == NULL ||
	    (t->dm = malloc(t->ndm * sizeof(*t->dm))) == NULL) {
		free(src);
		ssp_tracks_free(t);
		return nomem(e);
	}
	for (k = 0; k < t->kcap; k++)
		t->keys[k].gi = NIL;
	for (k = 0; k < t->ndm; k++)
		t->dm[k] = NIL;
	ssp_span_reader_sources(rr, src, (size_t)n);
	for (i = 0; i < n; i++) {
		snprintf(t->proc[i].name, sizeof(t->proc[i].name), "%.*s",
		    (int)src[i].namelen, src[i].name);
		snprintf(t->proc[i].sim, sizeof(t->proc[i].sim), "%s",
		    ssp_event_sim_name(src[i].sim));
		t->proc[i].pid = (uint32_t)i + 1;
		if (q_push(t, SSP_TRACKS_PROC, (uint32_t)i, 0, 0) != 0) {
			free(src);
			ssp_tracks_free(t);
			return nomem(e);
		}
	}
	t->nprocs = (size_t)n;
	t->st.procs = t->nprocs;
	free(src);
	*tp = t;
	return SSP_OK;
}

static enum ssp_status
add_link(struct ssp_tracks *t, const struct ssp_rec *r, struct ssp_err *e)
{
	t->st.links++;
	if (flow_ids(t, SSP_TRACKS_LINK_FLOW | t->st.links, r->f[SSP_LF_TARGET],
	    r->f[SSP_LF_SPAN], 1) != 0)
		return nomem(e);
	return drain(t, t->qmax, e);
}

enum ssp_status
ssp_tracks_add(struct ssp_tracks *t, const struct ssp_rec *r,
    struct ssp_err *e)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(t->rr);
	struct wkey k;
	struct sp *s;
	uint32_t i, gi = NIL;
	enum ssp_status rc;
	const char *call;
	size_t nargs, ncall = 0;

	t->err = e;
	if (t->rc != SSP_OK)
		return t->rc;
	if (r->type >= SSP_SK_NKINDS) {
		if (r->type == SSP_SPAN_T_LINK)
			return add_link(t, r, e);
		if (r->type != SSP_TYPE_UNKNOWN)
			t->st.events++;
		else
			t->st.other++;
		return SSP_OK;
	}
	t->st.spans++;
	if ((rc = proc_for(t, r->f[SSP_SF_STREAM], e)) != SSP_OK)
		return rc;
	t->st.procs = t->nprocs;
	if ((rc = group_for(t, r, r->type, &gi, e)) != SSP_OK)
		return rc;
	/* arguments, encoded now: string ids mean what they mean now */
	t->scratch.len = 0;
	t->o.args(t->o.ctx, &t->scratch, t->rr, &fs->types[r->ftag - 1], r);
	nargs = t->scratch.len;
	/* a syscall's call names its slice: kept after the arguments */
	if (r->type == SSP_SK_HOST_SYSCALL && r->nf > SSP_SA_SYSCALL_CALL &&
	    r->f[SSP_SA_SYSCALL_CALL] != 0 && (call = ssp_rec_rd_str(t->rr,
	    r->f[SSP_SA_SYSCALL_CALL], &ncall)) != NULL && ncall > 0)
		ssp_buf_put(&t->scratch, call, ncall > SSP_TRACKS_CALL_MAX ?
		    SSP_TRACKS_CALL_MAX : ncall);
	if (t->scratch.failed || (i = sp_new(t)) == NIL)
		return nomem(e);
	s = &t->sp[i];
	memset(s, 0, sizeof(*s));
	if (t->scratch.len > 0) {
		if ((s->args = arg_alloc(t, t->scratch.len, &s->ch)) == NULL)
			return nomem(e);
		memcpy(s->args, t->scratch.p, t->scratch.len);
	}
	s->nargs = (uint32_t)nargs;
	s->ncall = (uint8_t)(t->scratch.len - nargs);
	s->start = r->ts;
	if ((int64_t)r->f[SSP_SF_DUR] < 0)
		s->end = s->start;
	else if (r->ts > INT64_MAX - (int64_t)r->f[SSP_SF_DUR])
		s->end = INT64_MAX;
	else
		s->end = r->ts + (int64_t)r->f[SSP_SF_DUR];
	s->id = r->f[SSP_SF_SPAN];
	s->parent = r->f[SSP_SF_PARENT];
	s->seq = t->seq++;
	s->kind = (uint8_t)r->type;	/* < SSP_SK_NKINDS */
	s->gi = gi;
	s->track = NIL;
	s->below = NIL;
	s->fl = s->fl_tail = s->req = NIL;
	s->state = S_WINDOW;
	k.start = s->start;
	k.end = s->end;
	k.seq = s->seq;
	k.idx = i;
	if (live_add(t, s->id, i) != 0 || win_add(t, &k) != 0)
		return nomem(e);
	while (t->wrn + t->nwin > t->wmax)
		if (release(t) != 0)
			return nomem(e);
	if (t->wrn + t->nwin > t->st.held)
		t->st.held = t->wrn + t->nwin;
	return drain(t, t->qmax, e);
}

enum ssp_status
ssp_tracks_finish(struct ssp_tracks *t, struct ssp_err *e)
{
	t->err = e;
	while (t->wrn + t->nwin > 0 && t->rc == SSP_OK)
		if (release(t) != 0)
			return nomem(e);
	if (t->rc == SSP_OK && close_until(t, INT64_MAX) != 0)
		return nomem(e);
	return drain(t, 0, e);
}

void
ssp_tracks_trace_hex(char out[32], uint64_t hi, uint64_t lo)
{
	static const char hx[] = "0123456789abcdef";
	int i;

	/* a byte at a time: this runs for every span */
	for (i = 7; i >= 0; i--, hi >>= 8) {
		out[2 * i] = hx[(hi >> 4) & 15];
		out[2 * i + 1] = hx[hi & 15];
	}
	for (i = 7; i >= 0; i--, lo >>= 8) {
		out[16 + 2 * i] = hx[(lo >> 4) & 15];
		out[16 + 2 * i + 1] = hx[lo & 15];
	}
}

size_t
ssp_tracks_ipv4(char *out, uint64_t a)
{
	size_t n = 0;
	int i;

	for (i = 24; i >= 0; i -= 8) {
		unsigned o = (unsigned)(a >> i) & 0xff;

		if (o >= 100)
			out[n++] = (char)('0' + o / 100);
		if (o >= 10)
			out[n++] = (char)('0' + o / 10 % 10);
		out[n++] = (char)('0' + o % 10);
		if (i > 0)
			out[n++] = '.';
	}
	return n;
}

size_t
ssp_tracks_flags(char *buf, size_t size, uint64_t flags)
{
	static const char *const names[] = { "ORPHAN", "OPEN", "BACKGROUND",
	    "INCOMPLETE" };
	size_t len = 0, i;

	buf[0] = '\0';
	for (i = 0; i < 4; i++)
		if (flags & (UINT64_C(1) << i) && len < size) {
			int k = snprintf(buf + len, size - len, "%s%s",
			    len ? "|" : "", names[i]);

			len += k > 0 ? (size_t)k : 0;
		}
	if ((flags >> 4) != 0 && len < size) {
		int k = snprintf(buf + len, size - len, "%s0x%" PRIx64,
		    len ? "|" : "", flags & ~UINT64_C(15));

		len += k > 0 ? (size_t)k : 0;
	}
	return len < size ? len : size - 1;
}

const struct ssp_tracks_stats *
ssp_tracks_stats(const struct ssp_tracks *t)
{
	return &t->st;
}

void
ssp_tracks_free(struct ssp_tracks *t)
{
	size_t i;
	struct chunk *c;

	if (t == NULL)
		return;
	/* chunks still holding arguments (an error stopped the layout) */
	for (i = 0; i < t->nsp; i++) {
		struct chunk *k = t->sp[i].ch;

		if (k == NULL || k == t->cur)
			continue;
		if (k->cap != CHUNK || --k->live == 0)	/* big ones: their own */
			free(k);
	}
	for (i = 0; i < t->ngrp; i++) {
		free(t->grp[i].ln);
		free(t->grp[i].heap);
	}
	while ((c = t->spare) != NULL) {
		t->spare = c->next;
		free(c);
	}
	free(t->cur);
	free(t->grp);
	free(t->proc);
	free(t->nsub);
	free(t->track);
	free(t->track_gi);
	free(t->track_lane);
	free(t->keys);
	free(t->sp);
	ssp_map_free(&t->live);
	free(t->dm);
	free(t->ring);
	free(t->fn);
	free(t->rn);
	free(t->win);
	free(t->open);
	free(t->q);
	free(t->cache);
	ssp_buf_free(&t->scratch);
	free(t->flv);
	free(t);
}

/* memcpy, not snprintf (a tenth of a dumbbell's spans are syscalls with
 * a call, and snprintf cost a thousand instructions of each); the call
 * ends at a NUL in it, as "%.*s" had it. */
size_t
ssp_tracks_item_name(const struct ssp_tracks_item *it, char *buf, size_t n)
{
	const char *kn = ssp_span_kind_name(it->kind), *z;
	size_t k = strlen(kn), c;

	if (k > n - 1)
		k = n - 1;
	memcpy(buf, kn, k);
	if (it->ncall > 0 && k < n - 1) {
		buf[k++] = ' ';
		c = (z = memchr(it->call, '\0', it->ncall)) != NULL ?
		    (size_t)(z - it->call) : it->ncall;
		if (c > n - 1 - k)
			c = n - 1 - k;
		memcpy(buf + k, it->call, c);
		k += c;
	}
	buf[k] = '\0';
	return k;
}
