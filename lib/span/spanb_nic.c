/*
 * The span builder's nicbm NICs (SPEC §3): mmio spans under the host's
 * mmio contexts, dma spans whose contexts go to the host, msix, tx and rx
 * spans and the contexts they hand to the host and the network, and with
 * the kernel context model (SPEC §3b) the NIC work chains, TSO sends and
 * the batching of rx under one MSI-X.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "span/spanb_int.h"

#define RESYNC 8		/* mmio contexts looked at past a mismatch */

/* A NIC span caused by the NIC's last causing span. */
static struct span *
nic_caused(struct ssp_spanb *b, unsigned kind, unsigned st,
    const struct ssp_rec *ev)
{
	struct span *s = ssp_spanb_mk(b, kind, st, ev->ts);
	struct span *last = nic_of(b, st)->last;

	if (s == NULL)
		return NULL;
	if (last != NULL)
		set_parent(s, last);
	else
		orphan(s, SSP_CAUSE_NIC);
	add_ev(b, s, ev);
	return s;
}

void
ssp_spanb_nic_set_last(struct ssp_spanb *b, struct nstate *n, struct span *s)
{
	ref(s);
	if (n->last != NULL)
		unref(b, n->last);
	n->last = s;
}

/* --- NIC work chains (kctx) ------------------------------------------------ */

static void
chain_set(struct ssp_spanb *b, struct nstate *n, struct span *c, int64_t ts,
    int tx)
{
	if (c != NULL)
		ref(c);
	if (n->chain != NULL)
		unref(b, n->chain);
	n->chain = c;
	n->chain_ts = ts;
	n->chain_tx = tx;
	n->chain_ring = -1;
}

/* The cause a NIC line at ts inherits from the completion or eth tx
 * (CHAIN_*) just before it at the same time, or NULL. */
static struct span *
chain_at(const struct nstate *n, int64_t ts, int tx)
{
	return n->chain != NULL && n->chain_ts == ts && n->chain_tx == tx ?
	    n->chain : NULL;
}

/* The cause a DMA issued at ts inherits: that of the completion just
 * before it (i40e_bm issues what a completion makes possible in its
 * done(): a payload read after a descriptor read, a descriptor
 * write-back after a payload write, a refetch after a write-back). */
static struct span *
chain_dma(const struct nstate *n, int64_t ts)
{
	struct span *c = chain_at(n, ts, CHAIN_READ);

	return c != NULL ? c : chain_at(n, ts, CHAIN_WRITE);
}

static void
tso_del(struct ssp_spanb *b, struct nstate *n, unsigned i)
{
	unref(b, n->tso[i].cause);
	memmove(&n->tso[i], &n->tso[i + 1],
	    (n->ntso - i - 1) * sizeof(n->tso[0]));
	n->ntso--;
}

/* The TSO send an eth tx of len bytes at ts continues: the one whose next
 * segment is due closest to ts (one wire time after its last one).  The
 * wire time per byte is learnt from the first send seen alone. */
static struct span *
tso_next(struct nstate *n, int64_t ts, uint64_t len)
{
	struct tso *j, *best = NULL;
	int64_t d, bd = 0;
	unsigned i;

	if (n->ntso == 1 && n->tso_ppb == 0 && ts > n->tso[0].last)
		n->tso_ppb = (ts - n->tso[0].last) / n->tso[0].bytes;
	for (i = 0; i < n->ntso; i++) {
		j = &n->tso[i];
		d = ts - (j->last + j->bytes * n->tso_ppb);
		if (d < 0)
			d = -d;
		if (best == NULL || d < bd) {
			best = j;
			bd = d;
		}
	}
	if (best == NULL)
		return NULL;
	best->last = ts;
	best->bytes = (int64_t)(len & 0xffff) + 20;
	return best->cause;
}

static void
tso_start(struct ssp_spanb *b, struct nstate *n, struct span *c, int64_t ts,
    uint64_t len)
{
	if (n->ntso == TSO_MAX) {
		tso_del(b, n, 0);
		b->st.tso_overflow++;
	}
	ref(c);
	n->tso[n->ntso].cause = c;
	n->tso[n->ntso].last = ts;
	n->tso[n->ntso].bytes = (int64_t)(len & 0xffff) + 20;
	n->ntso++;
}

/* A tx write-back is issued with the send's last segment: the send ends. */
static void
tso_end(struct ssp_spanb *b, struct nstate *n, const struct span *c)
{
	unsigned i;

	for (i = 0; i < n->ntso; i++)
		if (n->tso[i].cause == c) {
			tso_del(b, n, i);
			return;
		}
}

/* The rx rings with a descriptor write-back under way, bits of ring[]. */
static uint16_t
rings_writing(const struct nstate *n)
{
	unsigned r;
	uint16_t m = 0;

	for (r = 0; r < n->nring; r++)
		if (n->ring[r].wbseq != 0)
			m |= (uint16_t)(1u << r);
	return m;
}

/* The rx ring of buffer region key (+1) as last seen for sure, or -1. */
static int
buf_ring(const struct nstate *n, uint64_t key)
{
	const struct bufring *e = &n->bufr[(key * 0x9e3779b97f4a7c15u) >> 58];

	return e->key == key ? (int)e->ring : -1;
}

static void
buf_ring_set(struct nstate *n, uint64_t key, unsigned ring)
{
	struct bufring *e = &n->bufr[(key * 0x9e3779b97f4a7c15u) >> 58];

	e->key = key;
	e->ring = ring;
}

/* A write DMA (at addr, len bytes, time ts) of an rx of the batch list
 * completed. */
static void
rx_written(struct nstate *n, const struct span *rx, uint64_t addr,
    uint64_t len, int64_t ts)
{
	unsigned i = n->nrxb;

	while (i-- > 0)
		if (n->rxb[i] == rx) {
			if (n->rxw[i] == 0) {	/* its payload */
				uint16_t m = rings_writing(n);
				int r;

				n->rxp[i] = (addr >> BUFR_SHIFT) + 1;
				r = buf_ring(n, n->rxp[i]);
				/* waiting for its buffer's ring, if busy */
				if (r >= 0 && (m & (1u << r)))
					m = (uint16_t)(1u << r);
				n->rxm[i] = m;
			}
			if (n->rxk[i] == 0 || len <= n->rxl[i]) {
				n->rxk[i] = (addr >> RING_SHIFT) + 1;
				n->rxl[i] = (uint32_t)(len > UINT32_MAX ?
				    UINT32_MAX : len);
			}
			if (n->rxw[i] < UINT8_MAX && ++n->rxw[i] == 2)
				n->rxt[i] = ts;
			return;
		}
}

/* The descriptor write-back of rx ring r issued when its previous one
 * completed (i40e_bm keeps one under way per ring) covers len bytes of
 * descriptors: those of the oldest frames written meanwhile that may be
 * waiting for that ring.  Returns the oldest of them (its parent), or
 * NULL. */
static struct span *
rx_cover(struct nstate *n, unsigned r, uint64_t len)
{
	uint64_t k = len / (n->ring[r].dsize != 0 ? n->ring[r].dsize : 32);
	struct span *first = NULL;
	unsigned i;

	for (i = 0; i < n->nrxb && k > 0; i++)
		if (n->rxw[i] >= 1 && !n->rxc[i] &&
		    (n->rxm[i] == 0 || (n->rxm[i] & (1u << r)))) {
			if (first == NULL)
				first = n->rxb[i];
			n->rxc[i] = 1;
			k--;
		}
	return first;
}

/* The ring of key (add: a new one, tx: 1 a tx ring, 0 an rx ring). */
static struct ring *
ring_of(struct nstate *n, uint64_t key, int add, int tx)
{
	unsigned i;

	for (i = 0; i < n->nring; i++)
		if (n->ring[i].key == key)
			return &n->ring[i];
	if (!add || n->nring == RING_MAX)
		return NULL;
	memset(&n->ring[n->nring], 0, sizeof(n->ring[0]));
	n->ring[n->nring].key = key;
	n->ring[n->nring].tx = (uint8_t)tx;
	n->nring_tx += (unsigned)tx;
	return &n->ring[n->nring++];
}

/* The vector ring r's write-backs ask for, as learnt: the vector whose
 * MSI-X came while they waited (an exact repeat of the delay counts 8),
 * with 16 points and four times as many as any
 * other vector (-1: not known, e.g. one ring for several queues). */
static int
ring_vec(const struct ring *r)
{
	unsigned v, best = 0, second = 0;
	int bv = -1;

	for (v = 0; v < VEC_MAX; v++)
		if (r->score[v] > best) {
			second = best;
			best = r->score[v];
			bv = (int)v;
		} else if (r->score[v] > second) {
			second = r->score[v];
		}
	/* a ring two vectors fired for at the exact delay serves both; one
	 * vector at the exact delay is its vector */
	if (r->exact & (r->exact - 1))
		return -1;
	if (r->exact != 0)
		return __builtin_ctz(r->exact);
	return best >= 16 && best >= 4 * second ? bv : -1;
}

/* Is ring key (+1) known to ask for a vector other than vec (1), for vec
 * (0), or not known (-1)? */
static int
key_other(struct nstate *n, uint64_t key, uint64_t vec)
{
	struct ring *r;
	int rv;

	if (key == 0 || vec >= VEC_MAX || (r = ring_of(n, key, 0, 0)) == NULL)
		return -1;
	/* one ring of its kind serves every queue (a NIC model with one
	 * ring per direction): nothing to tell apart */
	if ((r->tx ? n->nring_tx : n->nring - n->nring_tx) < 2)
		return 0;
	if ((rv = ring_vec(r)) < 0)
		return -1;
	return (uint64_t)rv != vec;
}

/* Does the MSI-X of vector vec answer the write-backs of ring key (+1)?
 * Those of the rings that fired it and of the rings known to ask for
 * vec; those of rings not known only when none is known to have fired
 * it. */
static int
key_serves(struct nstate *n, uint64_t key, uint64_t vec)
{
	unsigned i;
	int o;

	for (i = 0; i < n->nfire; i++)
		if (n->fire[i] == key)
			return 1;
	o = key_other(n, key, vec);
	return o == 0 || (o < 0 && n->nfire == 0);
}

/* Can asked rx i be one the MSI-X of vector vec serves? */
static int
rx_for_vec(struct nstate *n, unsigned i, uint64_t vec)
{
	return key_serves(n, n->rxk[i], vec);
}

/* A tx write-back (at addr) of doorbell db completed: it asks for the
 * vector of its ring. */
static void
tx_asked(struct ssp_spanb *b, struct nstate *n, struct span *db, uint64_t addr,
    int64_t ts)
{
	uint64_t key = (addr >> RING_SHIFT) + 1;
	unsigned i;

	for (i = 0; i < n->ntxa && n->txa[i].key != key; i++)
		;
	if (i == n->ntxa) {
		if (n->ntxa == RING_MAX) {	/* drop the oldest */
			unsigned o = 0, k;

			for (k = 1; k < n->ntxa; k++)
				if (n->txa[k].seq < n->txa[o].seq)
					o = k;
			unref(b, n->txa[o].db);
			n->txa[o] = n->txa[--n->ntxa];
			i = n->ntxa;
		}
		n->txa[n->ntxa].db = NULL;
		n->txa[n->ntxa++].first = ts;
	}
	ref(db);
	if (n->txa[i].db != NULL)
		unref(b, n->txa[i].db);
	n->txa[i].db = db;
	n->txa[i].key = key;
	n->txa[i].seq = ++n->txseq;
}

/* The MSI-X of vector vec: the doorbell of the newest tx write-back it
 * serves (reference; NULL: none), and the write-backs it answers
 * dropped: those of its rings and of rings not known. */
static struct span *
tx_take(struct ssp_spanb *b, struct nstate *n, uint64_t vec, int keep)
{
	struct span *db = NULL;
	uint64_t best = 0;
	unsigned i;

	for (i = 0; i < n->ntxa; i++)
		if (key_serves(n, n->txa[i].key, vec) && n->txa[i].seq > best) {
			best = n->txa[i].seq;
			db = n->txa[i].db;
		}
	if (db != NULL && keep)
		ref(db);
	for (i = 0; i < n->ntxa; )
		if (key_serves(n, n->txa[i].key, vec)) {
			unref(b, n->txa[i].db);
			n->txa[i] = n->txa[--n->ntxa];
		} else {
			i++;
		}
	return keep ? db : NULL;
}

static int rx_takes(struct nstate *n, unsigned i, uint64_t vec, int all);

/* How many batch rx an MSI-X of vector vec takes. */
static unsigned
rx_count(struct nstate *n, uint64_t vec)
{
	unsigned i, c = 0;

	for (i = 0; i < n->nrxb; i++)
		c += rx_takes(n, i, vec, 0);
	return c;
}

/* The delays ts - first[i] of an MSI-X at ts after the first waiting
 * write-back of each ring go into the NIC's candidates; returns the
 * delay seen most often, at least twice (-1: none yet). */
static int64_t
vec_delay(struct vdelay *v, int64_t ts, const int64_t *first, unsigned ns)
{
	unsigned i, k, lo;
	int64_t best = -1;
	uint32_t bn = 1;

	for (i = 0; i < ns; i++) {
		for (k = 0, lo = 0; k < VDELAY_N && v->d[k] != ts - first[i]; k++)
			if (v->n[k] <= v->n[lo])
				lo = k;
		if (k < VDELAY_N) {
			v->n[k]++;
		} else {	/* replace the rarest, the latest such */
			v->d[lo] = ts - first[i];
			v->n[lo] = 1;
		}
	}
	for (k = 0; k < VDELAY_N; k++)
		if (v->n[k] > bn) {
			bn = v->n[k];
			best = v->d[k];
		}
	return best;
}

/* An MSI-X of vector vec at ts: every ring with a write-back waiting for
 * an interrupt may be one whose vector it is; more likely when the first
 * of them came the vector's delay before. */
static void
ring_learn(struct nstate *n, uint64_t vec, int64_t ts)
{
	struct ring *r, *seen[RING_MAX];
	int64_t first[RING_MAX], d;
	unsigned i, k, ns = 0;

	n->nfire = 0;
	if (vec >= VEC_MAX)
		return;
	for (i = 0; i < n->nrxb + n->ntxa; i++) {
		uint64_t key = i < n->nrxb ? (n->rxw[i] >= 2 ? n->rxk[i] : 0) :
		    n->txa[i - n->nrxb].key;
		int64_t t = i < n->nrxb ? n->rxt[i] : n->txa[i - n->nrxb].first;

		if (key == 0 || (r = ring_of(n, key, 1, i >= n->nrxb)) == NULL)
			continue;
		for (k = 0; k < ns && seen[k] != r; k++)
			;
		if (k == ns) {
			seen[ns] = r;
			first[ns++] = t;
		} else if (t < first[k]) {
			first[k] = t;
		}
	}
	d = vec_delay(&n->vd, ts, first, ns);
	for (k = 0; k < ns; k++)
		if (d >= 0 && ts - first[k] == d) {
			seen[k]->score[vec] += 8;
			seen[k]->exact |= 1u << vec;
			n->fire[n->nfire++] = seen[k]->key;
		} else {
			seen[k]->score[vec]++;
		}
	/* the delay not known yet: vectors throttle alike, so the ring
	 * waiting longest fired (a guess, not learnt as exact) */
	if (d < 0 && ns > 0) {
		unsigned o = 0;

		for (k = 1; k < ns; k++)
			if (first[k] < first[o])
				o = k;
		n->fire[n->nfire++] = seen[o]->key;
	}
}

/* Has this rx asked for an interrupt: its payload and its descriptor
 * written back (i40e_bm's writeback_done, after the descriptor)? */
static int
rx_asked(const struct nstate *n, unsigned i)
{
	return n->rxw[i] >= 2;
}

static int
rx_any_asked(const struct nstate *n)
{
	unsigned i;

	for (i = 0; i < n->nrxb; i++)
		if (rx_asked(n, i))
			return 1;
	return 0;
}

/* Does an MSI-X of vector vec take batch rx i (all: every rx, their
 * completion lines missing)? */
static int
rx_takes(struct nstate *n, unsigned i, uint64_t vec, int all)
{
	return all || (rx_asked(n, i) && rx_for_vec(n, i, vec));
}

static void
nic_chain_free(struct ssp_spanb *b, struct nstate *n)
{
	chain_set(b, n, NULL, 0, 0);
	while (n->ntso > 0)
		tso_del(b, n, n->ntso - 1);
	while (n->ntxa > 0)
		unref(b, n->txa[--n->ntxa].db);
}

struct span *
ssp_spanb_nic_mmio_ctx(struct ssp_spanb *b, struct nstate *n, uint64_t off)
{
	struct ssp_fifo *q;
	uint32_t i, k = 0;

	if (n->plink < 0)
		return NULL;
	q = &b->pl[n->plink].mmio;
	/* FIFO order per link, checked by the BAR offset; a short look ahead
	 * skips host contexts that never reached the NIC. */
	if (q->n > 0 && SA(q_at(q, 0), SSP_SA_HMMIO_OFFS) != off) {
		for (i = 1; i < q->n && i <= RESYNC; i++)
			if (SA(q_at(q, i), SSP_SA_HMMIO_OFFS) == off) {
				k = i;
				break;
			}
		if (k == 0)
			b->st.mmio_mismatch++;
		for (i = 0; i < k; i++) {
			unref(b, ssp_fifo_pop(q));
			b->st.mmio_skipped++;
		}
	}
	return ssp_fifo_pop(q);
}

static void
ev_nic_mmio(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	int write = ev->type == SSP_EV_NIC_WR;
	struct span *s = ssp_spanb_mk(b, SSP_SK_NIC_MMIO, st, ev->ts);
	struct span *c;
	uint64_t off = ev->f[SSP_F_NMMIO_OFF];

	if (s == NULL)
		return;
	c = ssp_spanb_nic_mmio_ctx(b, n, off);
	if (c != NULL)
		s->parent = c;
	else
		orphan(s, SSP_CAUSE_MMIO);
	add_ev(b, s, ev);
	SA(s, SSP_SA_NMMIO_WRITE) = (uint64_t)write;
	SA(s, SSP_SA_NMMIO_OFF) = off;
	SA(s, SSP_SA_NMMIO_LEN) = ev->f[SSP_F_NMMIO_LEN];
	SA(s, SSP_SA_NMMIO_VAL) = ev->f[SSP_F_NMMIO_VAL];
	SA(s, SSP_SA_NMMIO_POSTED) = write && ev->nf > SSP_F_NMMIO_POSTED ?
	    ev->f[SSP_F_NMMIO_POSTED] : (uint64_t)-1;
	if (write)
		ssp_spanb_nic_set_last(b, n, s);
	if (write && b->kctx)
		chain_set(b, n, NULL, 0, 0);
	ssp_spanb_done(b, s);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Bound the DMA context map: drop its older half (rare: the host stream
 * is missing its DMA lines). */
static void
trim_dma_ctx(struct ssp_spanb *b)
{
	size_t i, k = 0, m = b->dma_ctx.n;
	uint64_t *seqs = malloc(m * sizeof(*seqs)), cut;

	if (seqs == NULL) {
		nomem(b);
		return;
	}
	for (i = 0; i < b->dma_ctx.cap; i++)
		if (b->dma_ctx.t[i].used)
			seqs[k++] = ((struct span *)b->dma_ctx.t[i].v)->seq;
	qsort(seqs, k, sizeof(*seqs), cmp_u64);
	cut = seqs[k / 2];
	free(seqs);
	for (i = 0; i < b->dma_ctx.cap; ) {
		struct span *x = b->dma_ctx.t[i].v;

		if (b->dma_ctx.t[i].used && x->seq < cut) {
			ssp_map3_del_at(&b->dma_ctx, i);
			unref(b, x);
			b->st.ctx_overflow[SSP_CTX_DMA]++;
		} else {
			i++;
		}
	}
}

/* A DMA s (at addr, len bytes) issued at a write completion that old
 * caused: the next descriptor write-back of the ring whose write-back
 * completed (at the address past it) covers the frames written meanwhile,
 * the oldest is its parent; one issued as a frame's payload completes is
 * that frame's write-back.  Returns s's parent. */
static struct span *
rx_wb_issue(struct ssp_spanb *b, struct nstate *n, const struct span *s,
    struct span *old, uint64_t addr, uint64_t len)
{
	struct ring *r;
	struct span *p;
	unsigned i;

	if (n->chain_tx != CHAIN_WRITE)
		return old;
	if (n->chain_ring >= 0) {
		/* right past it, or at the ring's start after its last
		 * descriptor (a ring of 1 << RING_SHIFT bytes, as aligned) */
		if (addr != n->chain_end &&
		    ((n->chain_end & RING_MASK) != 0 ||
		    addr != ((n->chain_end - 1) & ~RING_MASK)))
			return old;	/* a refetch */
		r = &n->ring[n->chain_ring];
		r->wbseq = s->seq;
		if ((p = rx_cover(n, (unsigned)n->chain_ring, len)) != NULL)
			return p;
		b->st.rx_wb_none++;	/* their rx lines missing */
		return old;
	}
	if (old->kind != SSP_SK_NIC_RX)
		return old;
	for (i = 0; i < n->nrxb && n->rxb[i] != old; i++)
		;
	/* not its payload just written: a DMA this model does not know */
	if (i == n->nrxb || n->rxc[i] || n->rxw[i] != 1 ||
	    (r = ring_of(n, (addr >> RING_SHIFT) + 1, 1, 0)) == NULL)
		return old;
	r->wbseq = s->seq;
	r->dsize = len;
	n->rxc[i] = 1;
	buf_ring_set(n, n->rxp[i], (unsigned)(r - n->ring));
	return old;
}

static void
ev_nic_dma(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	uint64_t op = ev->f[SSP_F_NDMA_OP], addr = ev->f[SSP_F_NDMA_ADDR];
	struct ssp_map3_ent *hf = ssp_map3_find(&b->ndma_open, op, 0, st);
	struct span *s = hf != NULL ? hf->v : NULL, *old;
	void *o;

	switch (ev->type) {
	case SSP_EV_NIC_DMA_ISSUE:
	case SSP_EV_NIC_DMA_ENQ:
		if (s != NULL) {
			b->st.dup_ids++;
			ssp_map3_del_at(&b->ndma_open, (size_t)(hf - b->ndma_open.t));
			ssp_spanb_incomplete(b, s);
		}
		if (b->kctx && (old = chain_dma(n, ev->ts)) != NULL) {
			s = ssp_spanb_mk(b, SSP_SK_NIC_DMA, st, ev->ts);
			if (s == NULL)
				return;
			set_parent(s, rx_wb_issue(b, n, s, old, addr,
			    ev->f[SSP_F_NDMA_LEN]));
			s->cause = SSP_CAUSE_DMA_CHAIN + 1;
			add_ev(b, s, ev);
		} else if (b->kctx && (old = chain_at(n, ev->ts, CHAIN_TX)) != NULL) {
			/* the write-back after a send's last segment */
			s = ssp_spanb_mk(b, SSP_SK_NIC_DMA, st, ev->ts);
			if (s == NULL)
				return;
			set_parent(s, old);
			s->cause = SSP_CAUSE_DMA_CHAIN + 1;
			add_ev(b, s, ev);
			tso_end(b, n, old);
			chain_set(b, n, NULL, 0, 0);
		} else if ((s = nic_caused(b, SSP_SK_NIC_DMA, st, ev)) == NULL) {
			return;
		}
		SA(s, SSP_SA_NDMA_OP) = op;
		SA(s, SSP_SA_NDMA_ADDR) = addr;
		SA(s, SSP_SA_NDMA_LEN) = ev->f[SSP_F_NDMA_LEN];
		if (ssp_map3_put(&b->ndma_open, op, 0, st, s, &o) != 0)
			nomem(b);
		return;
	case SSP_EV_NIC_DMA_EXEC:
		if (s == NULL) {	/* its issue line is missing */
			if ((s = nic_caused(b, SSP_SK_NIC_DMA, st, ev)) == NULL)
				return;
			SA(s, SSP_SA_NDMA_OP) = op;
			SA(s, SSP_SA_NDMA_ADDR) = addr;
			SA(s, SSP_SA_NDMA_LEN) = ev->f[SSP_F_NDMA_LEN];
			if (ssp_map3_put(&b->ndma_open, op, 0, st, s, &o) != 0) {
				nomem(b);
				return;
			}
		} else {
			if (SA(s, SSP_SA_NDMA_ADDR) != addr)
				b->st.dma_mismatch++;
			add_ev(b, s, ev);
		}
		if (n->plink < 0) {
			b->st.ctx_nowhere[SSP_CTX_DMA]++;
			return;
		}
		if (b->pl[n->plink].dma_fifo) {	/* the host takes them in order */
			ssp_spanb_send(b, &b->pl[n->plink].dma, s, SSP_CTX_DMA);
			return;
		}
		if (ssp_map3_put(&b->dma_ctx, op, 0, (uint32_t)n->plink, s, &o) != 0) {
			nomem(b);
			return;
		}
		ref(s);
		if ((old = o) != NULL) {	/* the host never took it */
			b->st.ctx_unused[SSP_CTX_DMA]++;
			unref(b, old);
		}
		if (b->dma_ctx.n > b->ctx_limit)
			trim_dma_ctx(b);
		return;
	default:		/* completed dma read / write */
		if (s == NULL) {
			drop(b, st, SSP_DROP_NO_START);
			return;
		}
		ssp_map3_del_at(&b->ndma_open, (size_t)(hf - b->ndma_open.t));
		if (SA(s, SSP_SA_NDMA_ADDR) != addr)
			b->st.dma_mismatch++;
		SA(s, SSP_SA_NDMA_WRITE) = ev->type == SSP_EV_NIC_DMA_DONE_WR;
		add_ev(b, s, ev);
		if (b->kctx && s->parent != NULL) {
			struct ring *r;

			chain_set(b, n, s->parent, ev->ts,
			    ev->type == SSP_EV_NIC_DMA_DONE_RD ? CHAIN_READ :
			    CHAIN_WRITE);
			if (ev->type == SSP_EV_NIC_DMA_DONE_WR &&
			    (r = ring_of(n, (addr >> RING_SHIFT) + 1, 0, 0)) !=
			    NULL && r->wbseq == s->seq) {
				r->wbseq = 0;
				n->chain_ring = (int)(r - n->ring);
				n->chain_end = addr + SA(s, SSP_SA_NDMA_LEN);
			}
			if (ev->type == SSP_EV_NIC_DMA_DONE_WR &&
			    s->parent->kind == SSP_SK_NIC_RX)
				rx_written(n, s->parent, addr,
				    SA(s, SSP_SA_NDMA_LEN), ev->ts);
			else if (ev->type == SSP_EV_NIC_DMA_DONE_WR &&
			    s->parent->kind == SSP_SK_NIC_MMIO)
				tx_asked(b, n, s->parent, addr, ev->ts);
		}
		ssp_spanb_done(b, s);
	}
}

/* Receive batching (SPEC §3b): an MSI-X after k rx has the newest as its
 * parent and links to the k-1 others: the rx whose write-backs completed
 * (they asked for it) and whose ring asks for this vector, or all (their
 * completion lines are missing). */
static struct span *
nic_msix_batch(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    int all)
{
	struct nstate *n = nic_of(b, st);
	struct span *s = ssp_spanb_mk(b, SSP_SK_NIC_MSIX, st, ev->ts);
	struct span *sel[RXB_MAX];
	struct lnk **tail;
	uint64_t vec = ev->f[SSP_F_NIRQ_VEC];
	unsigned i, k = 0, nsel = 0;

	if (s == NULL)
		return NULL;
	for (i = 0; i < n->nrxb; i++) {
		if (rx_takes(n, i, vec, all)) {
			sel[nsel++] = n->rxb[i];
		} else {
			n->rxb[k] = n->rxb[i];
			n->rxk[k] = n->rxk[i];
			n->rxl[k] = n->rxl[i];
			n->rxt[k] = n->rxt[i];
			n->rxc[k] = n->rxc[i];
			n->rxm[k] = n->rxm[i];
			n->rxp[k] = n->rxp[i];
			n->rxw[k++] = n->rxw[i];
		}
	}
	n->nrxb = k;
	s->parent = sel[--nsel];	/* the reference moves over */
	tail = &s->out;
	for (i = 0; i < nsel; i++) {
		struct lnk *l = ssp_pool_get(&b->lpool);

		if (l == NULL) {
			nomem(b);
			unref(b, sel[i]);
			continue;
		}
		l->dst = sel[i];	/* so does this one */
		l->src = s;
		l->next = l->wnext = NULL;
		l->resume = 0;
		*tail = l;
		tail = &l->next;
		b->st.rx_batched++;
	}
	if (nsel > 0)
		s->cause = SSP_CAUSE_RX_BATCH + 1;
	add_ev(b, s, ev);
	return s;
}

/* kctx: an eth tx at the time of a read completion is the first segment of
 * that DMA's send; others continue the TSO send whose segment is due. */
static struct span *
nic_tx_chained(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	struct span *s, *c = chain_at(n, ev->ts, CHAIN_READ);
	uint64_t len = ev->f[SSP_F_NTX_LEN];
	unsigned why = SSP_CAUSE_DMA_CHAIN;

	if (c != NULL)
		tso_start(b, n, c, ev->ts, len);
	else if ((c = tso_next(n, ev->ts, len)) != NULL)
		why = SSP_CAUSE_TSO;
	else
		return nic_caused(b, SSP_SK_NIC_TX, st, ev);
	if ((s = ssp_spanb_mk(b, SSP_SK_NIC_TX, st, ev->ts)) == NULL)
		return NULL;
	set_parent(s, c);
	s->cause = (uint8_t)(why + 1);
	add_ev(b, s, ev);
	chain_set(b, n, c, ev->ts, CHAIN_TX);
	return s;
}

void
ssp_spanb_nic_event(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	struct span *s, *c;
	uint64_t vec;

	switch (ev->type) {
	case SSP_EV_NIC_RD:
	case SSP_EV_NIC_WR:
		ev_nic_mmio(b, st, ev);
		break;
	case SSP_EV_NIC_DMA_ISSUE:
	case SSP_EV_NIC_DMA_EXEC:
	case SSP_EV_NIC_DMA_ENQ:
	case SSP_EV_NIC_DMA_DONE_RD:
	case SSP_EV_NIC_DMA_DONE_WR:
		ev_nic_dma(b, st, ev);
		break;
	case SSP_EV_NIC_MSIX:
	case SSP_EV_NIC_MSI:
		vec = ev->f[SSP_F_NIRQ_VEC];
		if (b->kctx)
			ring_learn(n, vec, ev->ts);
		if (b->kctx && n->nrxb > 0 && rx_count(n, vec) > 0) {
			s = nic_msix_batch(b, st, ev, 0);
		} else if (b->kctx && n->nrxb > 0 && n->ntxa == 0 &&
		    !rx_any_asked(n)) {
			s = nic_msix_batch(b, st, ev, 1);
		} else if (b->kctx && (c = tx_take(b, n, vec, 1)) != NULL) {
			if ((s = ssp_spanb_mk(b, SSP_SK_NIC_MSIX, st, ev->ts)) != NULL) {
				s->parent = c;	/* the reference moves */
				s->cause = SSP_CAUSE_TX_WB + 1;
				add_ev(b, s, ev);
			} else {
				unref(b, c);
			}
		} else {
			s = nic_caused(b, SSP_SK_NIC_MSIX, st, ev);
		}
		if (b->kctx)	/* what this vector's MSI-X answers */
			tx_take(b, n, vec, 0);
		if (s == NULL)
			break;
		SA(s, SSP_SA_NMSIX_VEC) = ev->f[SSP_F_NIRQ_VEC];
		SA(s, SSP_SA_NMSIX_MSI) = ev->type == SSP_EV_NIC_MSI;
		if (n->plink >= 0)
			ssp_spanb_send(b, &b->pl[n->plink].msix, s,
			    SSP_CTX_MSIX);
		else
			b->st.ctx_nowhere[SSP_CTX_MSIX]++;
		ssp_spanb_done(b, s);
		break;
	case SSP_EV_NIC_TX:
		if (b->kctx) {
			s = nic_tx_chained(b, st, ev);
			if (s == NULL)
				break;
		} else if ((s = nic_caused(b, SSP_SK_NIC_TX, st, ev)) == NULL) {
			break;
		}
		SA(s, SSP_SA_NTX_LEN) = ev->f[SSP_F_NTX_LEN];
		if (n->elink >= 0) {
			ssp_spanb_send(b, &b->el[n->elink].tx, s, SSP_CTX_TX);
			if ((size_t)n->elink < b->t->neth)
				b->st.eth_sent[n->elink]++;
		} else
			b->st.ctx_nowhere[SSP_CTX_TX]++;
		ssp_spanb_done(b, s);
		break;
	case SSP_EV_NIC_RX:
		if ((s = ssp_spanb_mk(b, SSP_SK_NIC_RX, st, ev->ts)) == NULL)
			break;
		c = n->elink >= 0 ? ssp_spanb_pcap_rx(b, &b->el[n->elink],
		    ev->ts, ev->f[SSP_F_NRX_LEN]) : NULL;
		if (c != NULL)
			s->parent = c;
		else
			orphan(s, SSP_CAUSE_RX);
		add_ev(b, s, ev);
		SA(s, SSP_SA_NRX_PORT) = ev->f[SSP_F_NRX_PORT];
		SA(s, SSP_SA_NRX_LEN) = ev->f[SSP_F_NRX_LEN];
		ssp_spanb_nic_set_last(b, n, s);
		if (b->kctx)
			chain_set(b, n, NULL, 0, 0);
		if (b->kctx) {		/* for the next MSI-X */
			if (n->nrxb == RXB_MAX) {
				b->st.rxb_overflow++;
				unref(b, n->rxb[0]);
				memmove(&n->rxb[0], &n->rxb[1],
				    (RXB_MAX - 1) * sizeof(n->rxb[0]));
				memmove(&n->rxw[0], &n->rxw[1],
				    (RXB_MAX - 1) * sizeof(n->rxw[0]));
				memmove(&n->rxk[0], &n->rxk[1],
				    (RXB_MAX - 1) * sizeof(n->rxk[0]));
				memmove(&n->rxt[0], &n->rxt[1],
				    (RXB_MAX - 1) * sizeof(n->rxt[0]));
				memmove(&n->rxl[0], &n->rxl[1],
				    (RXB_MAX - 1) * sizeof(n->rxl[0]));
				memmove(&n->rxc[0], &n->rxc[1],
				    (RXB_MAX - 1) * sizeof(n->rxc[0]));
				memmove(&n->rxm[0], &n->rxm[1],
				    (RXB_MAX - 1) * sizeof(n->rxm[0]));
				memmove(&n->rxp[0], &n->rxp[1],
				    (RXB_MAX - 1) * sizeof(n->rxp[0]));
				n->nrxb--;
			}
			ref(s);
			n->rxw[n->nrxb] = 0;
			n->rxk[n->nrxb] = 0;
			n->rxc[n->nrxb] = 0;
			n->rxm[n->nrxb] = 0;
			n->rxp[n->nrxb] = 0;
			n->rxb[n->nrxb++] = s;
		}
		if (n->plink >= 0 && b->pl[n->plink].recv != NULL)
			ssp_spanb_send(b, b->pl[n->plink].recv, s,
			    SSP_CTX_RECV);
		else if (n->plink < 0)	/* a QEMU host: no receiving syscall */
			b->st.ctx_nowhere[SSP_CTX_RECV]++;
		ssp_spanb_done(b, s);
		break;
	case SSP_EV_NIC_INTX:
		drop(b, st, SSP_DROP_NO_RULE);
		break;
	default:
		drop(b, st, SSP_DROP_FOREIGN);
	}
}

static enum ssp_status
nic_init(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	struct nstate *n = nic_of(b, st);

	(void)e;
	n->plink = b->t->streams[st].pcie;
	n->elink = b->t->streams[st].eth;
	return SSP_OK;
}

static void
nic_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++, ev = ssp_rec_packed_next(ev))
		if (ours(b, SSP_SIM_NICBM, ev))
			ssp_spanb_nic_event(b, st, ev);
		else
			drop(b, st, SSP_DROP_FOREIGN);
}

static void
nic_stream_end(struct ssp_spanb *b, unsigned st)
{
	struct nstate *n = nic_of(b, st);
	unsigned i;

	ssp_spanb_close_stream(b, &b->ndma_open, st);
	if (n->last != NULL) {
		unref(b, n->last);
		n->last = NULL;
	}
	for (i = 0; i < n->nrxb; i++)
		unref(b, n->rxb[i]);
	n->nrxb = 0;
	nic_chain_free(b, n);
}

static void
nic_skips(struct ssp_spanb *b, unsigned st)
{
	skip_foreign(b, st, SSP_SIM_NICBM);
	skip(b, st, SSP_EV_NIC_INTX, SSP_RA_SKIP, SSP_DROP_NO_RULE);
}

const struct ssp_spanb_sim ssp_spanb_nic_sim = {
	nic_init, nic_events, nic_stream_end, NULL, NULL, nic_skips,
};
