#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/tracks.h"
#include "stream/span.h"

/* Kind groups: one track (plus overflow lanes) per stream and group. */
enum group { G_SYSCALL, G_HOSTIO, G_HDMA, G_HIRQ, G_NMMIO, G_NDMA, G_NTX,
	G_NRX, G_NIRQ, G_NET, G_KIRQ, G_KSOFT, G_APP };

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

struct tkey {
	uint64_t sub;
	uint32_t stream, group;
	uint32_t track;		/* SSP_TRACKS_NONE: empty slot */
};

/* The sorts work on (key, index) pairs of the event type: key in ts,
 * index in span (end: a second payload, the END flag of events). */
#define idx ssp_tracks_ev

struct tlink {
	uint64_t span, target;
	uint32_t no;		/* link number, from 1 */
};

struct ssp_tracks {
	const struct ssp_rec_rd *rr;
	ssp_tracks_args_fn args;
	void *ctx;
	struct ssp_tracks_view v;
	struct ssp_tracks_stats st;
	struct ssp_tracks_span *span;
	size_t cap;
	struct ssp_tracks_track *track;
	size_t tcap;
	struct ssp_tracks_proc *proc;
	struct tkey *keys;	/* open addressing, power of two */
	size_t nkeys, kcap;
	struct tlink *link;
	size_t nlinks, lcap;
	struct idx *byid;	/* (span id, index), unless dense */
	int byid_sorted;	/* ids increase */
	int dense;		/* ids are 1, 2, ..., n */
	struct ssp_buf arena;
	struct ssp_tracks_flow *flow;
	uint32_t *in;
	struct ssp_tracks_ev *ev;
};

static int
grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c;
	void *np;

	if (need <= *cap)
		return 0;
	for (c = *cap ? *cap : 1024; c < need; c *= 2)
		;
	if ((np = realloc(*p, c * size)) == NULL)
		return -1;
	*p = np;
	*cap = c;
	return 0;
}

static int
nomem(struct ssp_err *e)
{
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

int
ssp_tracks_open(struct ssp_tracks **tp, const struct ssp_rec_rd *rr,
    ssp_tracks_args_fn args, void *ctx, struct ssp_err *e)
{
	struct ssp_tracks *t = calloc(1, sizeof(*t));
	struct ssp_span_source *src = NULL;
	int n, i;

	*tp = NULL;
	if (t == NULL)
		return nomem(e);
	t->rr = rr;
	t->args = args;
	t->ctx = ctx;
	t->byid_sorted = 1;
	if ((n = ssp_span_reader_sources(rr, NULL, 0)) < 0) {
		free(t);
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: bad stream list in "
		    "the header", ssp_rec_rd_name(rr));
	}
	t->kcap = 256;
	if ((src = calloc((size_t)n + 1, sizeof(*src))) == NULL ||
	    (t->proc = calloc((size_t)n + 1, sizeof(*t->proc))) == NULL ||
	    (t->keys = malloc(t->kcap * sizeof(*t->keys))) == NULL) {
		free(src);
		ssp_tracks_free(t);
		return nomem(e);
	}
	for (size_t k = 0; k < t->kcap; k++)
		t->keys[k].track = SSP_TRACKS_NONE;
	ssp_span_reader_sources(rr, src, (size_t)n);
	for (i = 0; i < n; i++) {
		snprintf(t->proc[i].name, sizeof(t->proc[i].name), "%.*s",
		    (int)src[i].namelen, src[i].name);
		snprintf(t->proc[i].sim, sizeof(t->proc[i].sim), "%s",
		    ssp_event_sim_name(src[i].sim));
		t->proc[i].pid = (uint32_t)i + 1;
	}
	t->v.nprocs = (size_t)n;
	free(src);
	*tp = t;
	return SSP_OK;
}

/* A process for a stream index the header does not list. */
static int
proc_for(struct ssp_tracks *t, uint64_t stream, struct ssp_err *e)
{
	size_t n = t->v.nprocs, i;
	struct ssp_tracks_proc *p;

	if (stream < n)
		return 0;
	if (stream > 65535)
		return ssp_err_set(e, SSP_ERR_FORMAT, ssp_rec_rd_offset(t->rr),
		    "%s: stream index %" PRIu64 " out of range",
		    ssp_rec_rd_name(t->rr), stream);
	if ((p = realloc(t->proc, ((size_t)stream + 1) * sizeof(*p))) == NULL)
		return nomem(e);
	t->proc = p;
	for (i = n; i <= stream; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		snprintf(p[i].name, sizeof(p[i].name), "stream %zu", i);
		p[i].pid = (uint32_t)i + 1;
	}
	t->v.nprocs = (size_t)stream + 1;
	return 0;
}

static size_t
khash(uint64_t sub, uint32_t stream, uint32_t group)
{
	uint64_t h = sub * 0x9e3779b97f4a7c15u ^ ((uint64_t)stream << 8 | group);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9u;
	return (size_t)(h ^ h >> 32);
}

static int
new_track(struct ssp_tracks *t, uint32_t proc, uint32_t group, uint64_t sub,
    uint32_t lane, uint32_t base, const char *name, uint32_t *out)
{
	struct ssp_tracks_track *k;
	char nm[64];

	/* name may point into t->track, which grow() moves */
	snprintf(nm, sizeof(nm), "%s", name);
	if (t->v.ntracks >= SSP_TRACKS_NONE - 1 ||
	    grow((void **)&t->track, &t->tcap, t->v.ntracks + 1,
	    sizeof(*t->track)) != 0)
		return -1;
	k = &t->track[t->v.ntracks];
	memset(k, 0, sizeof(*k));
	k->proc = proc;
	k->group = group;
	k->sub = sub;
	k->lane = lane;
	k->base = base == SSP_TRACKS_NONE ? (uint32_t)t->v.ntracks : base;
	k->tid = SSP_TRACKS_TID0 + (uint32_t)t->v.ntracks;
	if (lane == 0)
		snprintf(k->name, sizeof(k->name), "%s", nm);
	else
		snprintf(k->name, sizeof(k->name), "%.52s #%" PRIu32, nm,
		    lane + 1);
	*out = (uint32_t)t->v.ntracks++;
	return 0;
}

/* The lane-0 track of a stream and group (sub: CPU string, node/dev). */
static int
base_track(struct ssp_tracks *t, const struct ssp_rec *r, unsigned kind,
    uint32_t *out, struct ssp_err *e)
{
	uint32_t stream = (uint32_t)r->f[SSP_SF_STREAM], group = kind_group[kind];
	uint64_t sub = 0;
	size_t h, m;
	char name[64];

	if (kind == SSP_SK_HOST_SYSCALL && r->nf > SSP_SA_SYSCALL_CPU)
		sub = r->f[SSP_SA_SYSCALL_CPU];
	else if (kind >= SSP_SK_HOST_IRQ && r->nf > SSP_SA_CTX_CPU)
		sub = r->f[SSP_SA_CTX_CPU];	/* the same string as a syscall's */
	else if (kind == SSP_SK_NET_DEVICE && r->nf > SSP_SA_NET_DEV)
		sub = r->f[SSP_SA_NET_NODE] << 32 | (r->f[SSP_SA_NET_DEV] &
		    0xffffffffu);
	m = t->kcap - 1;
	for (h = khash(sub, stream, group) & m; t->keys[h].track !=
	    SSP_TRACKS_NONE; h = (h + 1) & m)
		if (t->keys[h].sub == sub && t->keys[h].stream == stream &&
		    t->keys[h].group == group) {
			*out = t->keys[h].track;
			return 0;
		}
	if (kind == SSP_SK_HOST_SYSCALL || kind >= SSP_SK_HOST_IRQ) {
		const char *cpu = sub ? ssp_rec_rd_str(t->rr, sub, NULL) : NULL;

		snprintf(name, sizeof(name), "%s%s%.48s", group_name[group],
		    cpu ? " " : "", cpu ? cpu : "");
	} else if (kind == SSP_SK_NET_DEVICE) {
		snprintf(name, sizeof(name), "node %" PRIu64 " dev %" PRIu64,
		    sub >> 32, sub & 0xffffffffu);
	} else {
		snprintf(name, sizeof(name), "%s", group_name[group]);
	}
	if (new_track(t, stream, group, sub, 0, SSP_TRACKS_NONE, name, out) != 0)
		return nomem(e);
	t->keys[h].sub = sub;
	t->keys[h].stream = stream;
	t->keys[h].group = group;
	t->keys[h].track = *out;
	if (++t->nkeys * 2 > t->kcap) {		/* rehash at half full */
		struct tkey *old = t->keys, *nk;
		size_t oc = t->kcap, i;

		if ((nk = malloc(oc * 2 * sizeof(*nk))) == NULL)
			return nomem(e);
		t->keys = nk;
		t->kcap = oc * 2;
		m = t->kcap - 1;
		for (i = 0; i < t->kcap; i++)
			nk[i].track = SSP_TRACKS_NONE;
		for (i = 0; i < oc; i++) {
			if (old[i].track == SSP_TRACKS_NONE)
				continue;
			for (h = khash(old[i].sub, old[i].stream, old[i].group) & m;
			    nk[h].track != SSP_TRACKS_NONE; h = (h + 1) & m)
				;
			nk[h] = old[i];
		}
		free(old);
	}
	return 0;
}

int
ssp_tracks_add(struct ssp_tracks *t, const struct ssp_rec *r,
    struct ssp_err *e)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(t->rr);
	struct ssp_tracks_span *s;
	size_t n = t->v.nspans, before;

	if (r->type >= SSP_SK_NKINDS) {
		if (r->type == SSP_SPAN_T_LINK) {
			t->st.links++;
			if (grow((void **)&t->link, &t->lcap, t->nlinks + 1,
			    sizeof(*t->link)) != 0)
				return nomem(e);
			t->link[t->nlinks].span = r->f[SSP_LF_SPAN];
			t->link[t->nlinks].target = r->f[SSP_LF_TARGET];
			t->link[t->nlinks].no = (uint32_t)t->st.links;
			t->nlinks++;
		} else if (r->type != SSP_TYPE_UNKNOWN) {
			t->st.events++;
		} else {
			t->st.other++;
		}
		return SSP_OK;
	}
	t->st.spans++;
	if (n >= SSP_TRACKS_NONE - 1)
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "more than %" PRIu32
		    " spans", SSP_TRACKS_NONE - 2);
	if (proc_for(t, r->f[SSP_SF_STREAM], e) != 0)
		return e->code;
	if (grow((void **)&t->span, &t->cap, n + 1, sizeof(*t->span)) != 0)
		return nomem(e);
	s = &t->span[n];
	memset(s, 0, sizeof(*s));
	s->start = r->ts;
	if ((int64_t)r->f[SSP_SF_DUR] < 0)
		s->end = s->start;
	else if (r->ts > INT64_MAX - (int64_t)r->f[SSP_SF_DUR])
		s->end = INT64_MAX;
	else
		s->end = r->ts + (int64_t)r->f[SSP_SF_DUR];
	s->id = r->f[SSP_SF_SPAN];
	s->kind = r->type;
	s->parent = SSP_TRACKS_NONE;
	s->below = SSP_TRACKS_NONE;
	/* parent id, kept in out0/nout until layout resolves it */
	s->out0 = (uint32_t)r->f[SSP_SF_PARENT];
	s->nout = (uint32_t)(r->f[SSP_SF_PARENT] >> 32);
	if (base_track(t, r, r->type, &s->track, e) != 0)
		return e->code;
	before = t->arena.len;
	t->args(t->ctx, &t->arena, t->rr, &fs->types[r->ftag - 1], r);
	if (t->arena.failed)
		return nomem(e);
	s->args = before;
	s->nargs = (uint32_t)(t->arena.len - before);
	if (r->type == SSP_SK_HOST_SYSCALL && r->nf > SSP_SA_SYSCALL_CALL &&
	    r->f[SSP_SA_SYSCALL_CALL] != 0) {
		size_t len = 0;
		const char *c = ssp_rec_rd_str(t->rr, r->f[SSP_SA_SYSCALL_CALL],
		    &len);

		if (c != NULL && len > 0) {
			s->call = t->arena.len;
			s->ncall = (uint32_t)(len > 200 ? 200 : len);
			ssp_buf_put(&t->arena, c, s->ncall);
			if (t->arena.failed)
				return nomem(e);
		}
	}
	if (n > 0 && t->span[n - 1].id >= s->id)
		t->byid_sorted = 0;
	t->v.nspans++;
	return SSP_OK;
}

/*
 * Stable LSD radix sort of a[0..n) by k, 8 bits a pass, skipping the bytes
 * that are the same in every key.  tmp has room for n.  Returns the array
 * that holds the result (a or tmp).
 */
static struct idx *
radix(struct idx *a, struct idx *tmp, size_t n)
{
	size_t cnt[8][256];
	uint64_t diff = 0;
	size_t i, d, nd = 0;
	unsigned dig[8];

	/* only the bytes in which some keys differ */
	for (i = 1; i < n; i++)
		diff |= a[i].ts ^ a[0].ts;
	for (d = 0; d < 8; d++)
		if ((diff >> (8 * d)) & 0xff)
			dig[nd++] = (unsigned)d;
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++)
		for (d = 0; d < nd; d++)
			cnt[d][(a[i].ts >> (8 * dig[d])) & 0xff]++;
	for (d = 0; d < nd; d++) {
		size_t sum = 0, c, b;
		unsigned sh = 8 * dig[d];
		struct idx *x;

		for (b = 0; b < 256; b++) {
			c = cnt[d][b];
			cnt[d][b] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[cnt[d][(a[i].ts >> sh) & 0xff]++] = a[i];
		x = a;
		a = tmp;
		tmp = x;
	}
	return a;
}

/*
 * Spans in (track, start, longest first) order into *out (a or b): one
 * radix sort of track << 48 | start, then runs of equal keys put longest
 * first.  -1 when a start is not in [0, 2^48) ps or there are 2^16 tracks
 * or more: the caller sorts by all three keys then.
 */
static int
sort_spans(struct ssp_tracks *t, struct idx *a, struct idx *b,
    struct idx **out)
{
	size_t n = t->v.nspans, i, j, k;
	struct idx *r;

	if (t->v.ntracks >= 65536)
		return -1;
	for (i = 0; i < n; i++) {
		const struct ssp_tracks_span *s = &t->span[i];

		if (s->start < 0 || s->start >= (INT64_C(1) << 48))
			return -1;
		a[i].ts = (uint64_t)s->track << 48 | (uint64_t)s->start;
		a[i].span = (uint32_t)i;
	}
	r = radix(a, b, n);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && r[j].ts == r[i].ts; j++)
			;
		for (k = i + 1; k < j; k++) {	/* insertion sort, end desc */
			struct idx x = r[k];
			size_t m = k;

			while (m > i && t->span[r[m - 1].span].end < t->span[x.span].end) {
				r[m] = r[m - 1];
				m--;
			}
			r[m] = x;
		}
	}
	*out = r;
	return 0;
}

static uint32_t
find(const struct ssp_tracks *t, uint64_t id)
{
	size_t lo = 0, hi = t->v.nspans;

	if (id == 0)
		return SSP_TRACKS_NONE;
	if (t->dense)
		return id <= t->v.nspans ? (uint32_t)(id - 1) : SSP_TRACKS_NONE;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->byid[mid].ts < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->v.nspans && t->byid[lo].ts == id ? t->byid[lo].span :
	    SSP_TRACKS_NONE;
}

struct lane {
	uint32_t track, top;
	int64_t free_at;	/* end of the bottom span of its stack */
};

/* The open spans of a group by end, then later begun first (so a child
 * ending with its parent closes first): a binary heap. */
struct oent {
	int64_t end;
	uint32_t seq, span;
};

struct oheap {
	struct oent *h;
	size_t n, cap;
};

static int
oh_less(const struct oent *x, const struct oent *y)
{
	if (x->end != y->end)
		return x->end < y->end;
	return x->seq > y->seq;
}

static void
oh_down(struct oheap *o, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1, m = i;
		struct oent x;

		if (c < o->n && oh_less(&o->h[c], &o->h[m]))
			m = c;
		if (c + 1 < o->n && oh_less(&o->h[c + 1], &o->h[m]))
			m = c + 1;
		if (m == i)
			return;
		x = o->h[i];
		o->h[i] = o->h[m];
		o->h[m] = x;
		i = m;
	}
}

static void
oh_up(struct oheap *o, size_t i)
{
	while (i > 0 && oh_less(&o->h[i], &o->h[(i - 1) / 2])) {
		struct oent x = o->h[i];

		o->h[i] = o->h[(i - 1) / 2];
		o->h[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
}

/* End the open spans of the group that end by ts, in time order: their
 * END events, and each leaves the top of its lane's stack. */
static void
close_until(struct ssp_tracks *t, struct oheap *o, struct lane *ln,
    int64_t ts, size_t *nev)
{
	while (o->n > 0 && o->h[0].end <= ts) {
		uint32_t si = o->h[0].span;
		struct ssp_tracks_span *s = &t->span[si];

		t->ev[*nev].ts = ssp_tracks_ns(s->end);
		t->ev[*nev].span = si;
		t->ev[*nev].end = 1;
		(*nev)++;
		ln[t->track[s->track].lane].top = s->below;
		o->h[0] = o->h[--o->n];
		oh_down(o, 0);
	}
}

/* The lanes of a group by the time they are free, then their number: a
 * binary heap of lane numbers. */
struct lheap {
	uint32_t *h;
	size_t n, cap;
	const struct lane *ln;
};

static int
lh_less(const struct lheap *q, uint32_t a, uint32_t b)
{
	if (q->ln[a].free_at != q->ln[b].free_at)
		return q->ln[a].free_at < q->ln[b].free_at;
	return a < b;
}

static void
lh_down(struct lheap *q, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1, m = i;
		uint32_t x;

		if (c < q->n && lh_less(q, q->h[c], q->h[m]))
			m = c;
		if (c + 1 < q->n && lh_less(q, q->h[c + 1], q->h[m]))
			m = c + 1;
		if (m == i)
			return;
		x = q->h[i];
		q->h[i] = q->h[m];
		q->h[m] = x;
		i = m;
	}
}

static void
lh_up(struct lheap *q, size_t i)
{
	while (i > 0 && lh_less(q, q->h[i], q->h[(i - 1) / 2])) {
		uint32_t x = q->h[i];

		q->h[i] = q->h[(i - 1) / 2];
		q->h[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
}

/*
 * Give each span its lane, in (track, start, longest first) order: the
 * lane of its parent when the parent is the innermost open span there and
 * the span ends inside it (nested: no flow), else the lane free the
 * longest if it is free by the span's start (lowest number on a tie),
 * else a new lane.  A lane is free when the bottom span of its stack has
 * ended; nested spans end inside it.  O(log lanes) a span.  Spans end
 * (leave their lane) in time order too, so the events of each group come
 * out sorted by time; group k's are ev[gstart[k] .. gstart[k + 1]).
 */
static int
lanes(struct ssp_tracks *t, const struct idx *order, size_t **gstart,
    size_t *ngroups, struct ssp_err *e)
{
	struct lane *ln = NULL;
	struct lheap q = { 0 };
	struct oheap o = { 0 };
	size_t nln = 0, lcap = 0, nev = 0, i, ng = 0, gcap = 0;
	uint32_t base = SSP_TRACKS_NONE;

	*gstart = NULL;

	for (i = 0; i <= t->v.nspans; i++) {
		uint32_t si = i < t->v.nspans ? order[i].span : SSP_TRACKS_NONE;
		struct ssp_tracks_span *s = si != SSP_TRACKS_NONE ? &t->span[si] :
		    NULL;
		uint32_t pick = SSP_TRACKS_NONE;

		if (s == NULL || s->track != base) {	/* next group */
			close_until(t, &o, ln, INT64_MAX, &nev);
			if (grow((void **)gstart, &gcap, ng + 1, sizeof(**gstart)) != 0)
				goto oom;
			(*gstart)[ng++] = nev;
			if (s == NULL)
				break;
			base = s->track;
			nln = 1;
			if (grow((void **)&ln, &lcap, 1, sizeof(*ln)) != 0 ||
			    grow((void **)&q.h, &q.cap, 1, sizeof(*q.h)) != 0)
				goto oom;
			ln[0].track = base;
			ln[0].top = SSP_TRACKS_NONE;
			ln[0].free_at = INT64_MIN;
			q.h[0] = 0;
			q.n = 1;
		}
		q.ln = ln;
		close_until(t, &o, ln, s->start, &nev);
		if (s->parent != SSP_TRACKS_NONE &&
		    t->span[s->parent].track != SSP_TRACKS_NONE &&
		    t->track[t->span[s->parent].track].base == base) {
			struct lane *l = &ln[t->track[t->span[s->parent].track].lane];

			if (l->top == s->parent && s->end <= t->span[l->top].end &&
			    s->start < t->span[l->top].end) {
				pick = (uint32_t)(l - ln);
				s->nested = 1;
			}
		}
		if (pick == SSP_TRACKS_NONE && ln[q.h[0]].free_at <= s->start) {
			pick = q.h[0];		/* its stack is empty */
			ln[pick].free_at = s->end;
			lh_down(&q, 0);
		}
		if (pick == SSP_TRACKS_NONE) {		/* a new lane */
			uint32_t tr;

			if (grow((void **)&ln, &lcap, nln + 1, sizeof(*ln)) != 0 ||
			    grow((void **)&q.h, &q.cap, q.n + 1, sizeof(*q.h)) != 0 ||
			    new_track(t, t->track[base].proc, t->track[base].group,
			    t->track[base].sub, (uint32_t)nln, base,
			    t->track[base].name, &tr) != 0)
				goto oom;
			ln[nln].track = tr;
			ln[nln].top = SSP_TRACKS_NONE;
			ln[nln].free_at = s->end;
			pick = (uint32_t)nln++;
			q.ln = ln;
			q.h[q.n++] = pick;
			lh_up(&q, q.n - 1);
			t->st.lanes++;
		}
		s->track = ln[pick].track;
		s->below = ln[pick].top;
		ln[pick].top = si;
		if (grow((void **)&o.h, &o.cap, o.n + 1, sizeof(*o.h)) != 0)
			goto oom;
		o.h[o.n].end = s->end;
		o.h[o.n].seq = (uint32_t)nev;
		o.h[o.n].span = si;
		oh_up(&o, o.n++);
		t->ev[nev].ts = ssp_tracks_ns(s->start);
		t->ev[nev].span = si;
		t->ev[nev].end = 0;
		nev++;
	}
	*ngroups = ng - 1;
	free(ln);
	free(q.h);
	free(o.h);
	return SSP_OK;
oom:
	free(ln);
	free(q.h);
	free(o.h);
	free(*gstart);
	*gstart = NULL;
	return nomem(e);
}

/*
 * Merge the time-sorted runs ev[gs[k] .. gs[k + 1]) (k < ng) into out,
 * by time, a run's events in their order, equal times by run number: a
 * heap of the runs' next events.  0, or -1 when out of memory.
 */
static int
merge(const struct idx *ev, const size_t *gs, size_t ng, struct idx *out)
{
	size_t *pos = malloc((ng + 1) * sizeof(*pos)), *h = malloc((ng + 1) *
	    sizeof(*h)), n = 0, k, o = 0;

#define KEY_LT(x, y) (ev[pos[x]].ts != ev[pos[y]].ts ? \
	ev[pos[x]].ts < ev[pos[y]].ts : (x) < (y))
	if (pos == NULL || h == NULL) {
		free(pos);
		free(h);
		return -1;
	}
	for (k = 0; k < ng; k++) {
		size_t i;

		if (gs[k] == gs[k + 1])
			continue;
		pos[k] = gs[k];
		for (i = n++; i > 0 && KEY_LT(k, h[(i - 1) / 2]); i = (i - 1) / 2)
			h[i] = h[(i - 1) / 2];
		h[i] = k;
	}
	while (n > 0) {
		size_t g = h[0], i = 0;

		out[o++] = ev[pos[g]++];
		if (pos[g] == gs[g + 1])
			g = h[--n];
		for (;;) {		/* sift g down from the root */
			size_t c = 2 * i + 1;

			if (c >= n)
				break;
			if (c + 1 < n && KEY_LT(h[c + 1], h[c]))
				c++;
			if (!KEY_LT(h[c], g))
				break;
			h[i] = h[c];
			i = c;
		}
		if (n > 0)
			h[i] = g;
	}
#undef KEY_LT
	free(pos);
	free(h);
	return 0;
}

static void
add_flow(struct ssp_tracks *t, uint64_t id, uint32_t from, uint32_t to,
    int link)
{
	struct ssp_tracks_span *f = &t->span[from], *d = &t->span[to];
	uint32_t k = f->out0 + f->nout++;

	t->flow[k].id = id;
	t->flow[k].from = from;
	t->flow[k].to = to;
	t->flow[k].link = link;
	t->in[d->in0 + d->nin++] = k;
}

static int
track_cmp(const void *a, const void *b, void *arg)
{
	const struct ssp_tracks_track *tr = arg;
	const struct ssp_tracks_track *x = &tr[*(const uint32_t *)a];
	const struct ssp_tracks_track *y = &tr[*(const uint32_t *)b];

	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->sub != y->sub)	/* CPU: by name; node/dev: by number */
		return x->group == G_SYSCALL ? strcmp(x->name, y->name) :
		    x->sub < y->sub ? -1 : 1;
	return x->lane < y->lane ? -1 : x->lane > y->lane;
}

int
ssp_tracks_layout(struct ssp_tracks *t, struct ssp_err *e)
{
	size_t n = t->v.nspans, i, nf = 0;
	struct idx *a = NULL, *b = NULL, *r;
	size_t *gstart = NULL, ngroups = 0;

	/* span ids 1, 2, ..., n in order (as evspan writes them): an id is its
	 * index + 1, no table needed */
	t->dense = t->byid_sorted && (n == 0 || (t->span[0].id == 1 &&
	    t->span[n - 1].id == n));
	if ((!t->dense && (t->byid = malloc((n + 1) * sizeof(*t->byid))) ==
	    NULL) || (a = malloc((2 * n + 1) * sizeof(*a))) == NULL ||
	    (b = malloc((2 * n + 1) * sizeof(*b))) == NULL ||
	    (t->flow = malloc((n + t->nlinks + 1) * sizeof(*t->flow))) == NULL ||
	    (t->in = malloc((n + t->nlinks + 1) * sizeof(*t->in))) == NULL)
		goto oom;
	/* spans by id, to resolve parents and links */
	for (i = 0; !t->dense && i < n; i++) {
		t->byid[i].ts = t->span[i].id;
		t->byid[i].span = (uint32_t)i;
	}
	if (!t->dense && !t->byid_sorted &&
	    (r = radix(t->byid, a, n)) != t->byid)
		memcpy(t->byid, r, n * sizeof(*r));
	for (i = 0; i < n; i++) {
		struct ssp_tracks_span *s = &t->span[i];
		uint64_t pid = (uint64_t)s->nout << 32 | s->out0;

		s->out0 = s->nout = 0;
		s->parent = find(t, pid);
		if (pid != 0 && s->parent == SSP_TRACKS_NONE)
			t->st.parents_missing++;
	}
	/* (track, start, longer first) */
	if (sort_spans(t, a, b, &r) == 0)
		goto sorted;
	/* times beyond 2^48 ps: three stable passes, last key first */
	for (i = 0; i < n; i++) {
		a[i].ts = ~(uint64_t)t->span[i].end ^ (UINT64_C(1) << 63);
		a[i].span = (uint32_t)i;
	}
	r = radix(a, b, n);
	for (i = 0; i < n; i++)
		r[i].ts = (uint64_t)t->span[r[i].span].start ^ (UINT64_C(1) << 63);
	r = radix(r, r == a ? b : a, n);
	for (i = 0; i < n; i++)
		r[i].ts = t->span[r[i].span].track;
	r = radix(r, r == a ? b : a, n);
sorted:
	/* the events go into the other buffer, sorted within each group */
	t->ev = r == a ? b : a;
	if (lanes(t, r, &gstart, &ngroups, e) != SSP_OK)
		goto fail;
	/* thread ids in display order: viewers sort tracks by them */
	if (t->v.ntracks > 0) {
		uint32_t *o = malloc(t->v.ntracks * sizeof(*o));

		if (o == NULL)
			goto oom;
		for (i = 0; i < t->v.ntracks; i++)
			o[i] = (uint32_t)i;
		qsort_r(o, t->v.ntracks, sizeof(*o), track_cmp, t->track);
		for (i = 0; i < t->v.ntracks; i++)
			t->track[o[i]].tid = SSP_TRACKS_TID0 + (uint32_t)i;
		free(o);
	}
	/* events in time order: the groups merged (r's buffer is free now) */
	{
		struct idx *m = t->ev == a ? b : a;

		if (merge(t->ev, gstart, ngroups, m) != 0)
			goto oom;
		t->ev = m;
		if (m == a)
			a = NULL;
		else
			b = NULL;
	}
	/* flows: parent -> child unless nested, link target -> span; written
	 * straight into out lists (by from) and in lists (by to), each in
	 * the order of the children, then the links */
	for (i = 0; i < n; i++) {
		struct ssp_tracks_span *s = &t->span[i];

		if (s->parent == SSP_TRACKS_NONE)
			continue;
		if (s->nested) {
			t->st.nested++;
			continue;
		}
		t->span[s->parent].nout++;
		s->nin++;
		t->st.flows++;
	}
	for (i = 0; i < t->nlinks; i++) {
		uint32_t from = find(t, t->link[i].target);
		uint32_t to = find(t, t->link[i].span);

		if (from == SSP_TRACKS_NONE || to == SSP_TRACKS_NONE) {
			t->st.links_unmatched++;
			continue;
		}
		t->span[from].nout++;
		t->span[to].nin++;
		t->st.link_flows++;
	}
	{
		uint32_t po = 0, pi = 0;

		for (i = 0; i < n; i++) {
			t->span[i].out0 = po;
			po += t->span[i].nout;
			t->span[i].nout = 0;
			t->span[i].in0 = pi;
			pi += t->span[i].nin;
			t->span[i].nin = 0;
		}
		nf = po;
	}
	for (i = 0; i < n; i++) {
		struct ssp_tracks_span *s = &t->span[i];

		if (s->parent != SSP_TRACKS_NONE && !s->nested)
			add_flow(t, s->id, s->parent, (uint32_t)i, 0);
	}
	for (i = 0; i < t->nlinks; i++) {
		uint32_t from = find(t, t->link[i].target);
		uint32_t to = find(t, t->link[i].span);

		if (from != SSP_TRACKS_NONE && to != SSP_TRACKS_NONE)
			add_flow(t, SSP_TRACKS_LINK_FLOW | t->link[i].no, from, to, 1);
	}
	free(a);
	free(b);
	t->v.span = t->span;
	t->v.track = t->track;
	t->v.proc = t->proc;
	t->v.flow = t->flow;
	t->v.in = t->in;
	t->v.nflows = nf;
	t->v.ev = t->ev;
	t->v.arena = t->arena.p;
	free(gstart);
	return SSP_OK;
oom:
	nomem(e);
fail:
	if (t->ev == a || t->ev == b)
		t->ev = NULL;
	free(a);
	free(b);
	free(gstart);
	return e->code;
}

void
ssp_tracks_trace_hex(char out[32], uint64_t hi, uint64_t lo)
{
	static const char hx[] = "0123456789abcdef";
	int i;

	for (i = 15; i >= 0; i--, hi >>= 4)
		out[i] = hx[hi & 15];
	for (i = 31; i >= 16; i--, lo >>= 4)
		out[i] = hx[lo & 15];
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

const struct ssp_tracks_view *
ssp_tracks_view(const struct ssp_tracks *t)
{
	return &t->v;
}

const struct ssp_tracks_stats *
ssp_tracks_stats(const struct ssp_tracks *t)
{
	return &t->st;
}

void
ssp_tracks_free(struct ssp_tracks *t)
{
	if (t == NULL)
		return;
	free(t->span);
	free(t->track);
	free(t->proc);
	free(t->keys);
	free(t->link);
	free(t->byid);
	ssp_buf_free(&t->arena);
	free(t->flow);
	free(t->in);
	free(t->ev);
	free(t);
}

size_t
ssp_tracks_span_name(const struct ssp_tracks_view *v,
    const struct ssp_tracks_span *s, char *buf, size_t n)
{
	int k = s->ncall > 0 ? snprintf(buf, n, "%s %.*s",
	    ssp_span_kind_name(s->kind), (int)s->ncall,
	    (const char *)v->arena + s->call) :
	    snprintf(buf, n, "%s", ssp_span_kind_name(s->kind));

	return k < 0 ? 0 : (size_t)k >= n ? n - 1 : (size_t)k;
}
