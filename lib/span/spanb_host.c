/*
 * The span builder's gem5 hosts (SPEC §3): syscall spans from function
 * entries (or, with the kernel context model, through spanb_kctx.c),
 * mmio, dma, msix, pci and intr spans under them, and the contexts they
 * hand to and take from the NICs of their pcie links.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "span/spanb_int.h"

/* The prefixes of Linux's syscall handlers (SYSCALL_DEFINE: the
 * architecture's entry __x64_sys_X or __ia32_sys_X, then __se_sys_X and
 * __do_sys_X when not inlined); the rest of the name is the syscall. */
static const struct {
	const char *p;
	size_t n;
} handlers[] = {
	{ "__x64_sys_", 10 }, { "__se_sys_", 9 }, { "__do_sys_", 9 },
	{ "__ia32_sys_", 11 }, { "__ia32_compat_sys_", 18 },
	{ "__x64_compat_sys_", 17 },
};

static unsigned __attribute__((noinline))
fclass_new(struct ssp_spanb *b, unsigned st, uint64_t id, struct sinfo *si)
{
	const char *t;
	size_t len, i;

	t = text(b, st, id, &len);
	si->fcls = ssp_rules_fclass(b->rules, t, len);
	if (si->fcls & SSP_FC_IPI_ENTRY)
		si->fcls |= SSP_FC_IRQ_ENTRY;
	if ((si->fcls & SSP_FC_IRQ_ENTRY) && len > 11 &&
	    memcmp(t, "asm_sysvec_", 11) == 0)
		si->fcls |= FC_SYSVEC;
	for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		if (len > handlers[i].n &&
		    memcmp(t, handlers[i].p, handlers[i].n) == 0) {
			si->call = (uint32_t)ssp_spanb_intern(b, t + handlers[i].n,
			    len - handlers[i].n);
			if (si->call != 0)
				si->fcls |= FC_HANDLER;
			break;
		}
	si->have |= HAVE_FCLS;
	return si->fcls;
}

void
ssp_spanb_host_call(struct ssp_spanb *b, unsigned st, struct span *sc,
    const struct ssp_rec *ev, unsigned cls)
{
	if (cls & FC_HANDLER) {
		if (!(sc->xf & X_HANDLER)) {
			SA(sc, SSP_SA_SYSCALL_CALL) = sinfo(b, st,
			    ev->f[SSP_F_FUNC_SYM])->call;
			sc->xf |= X_HANDLER;
		}
	} else if (SA(sc, SSP_SA_SYSCALL_CALL) == 0) {
		SA(sc, SSP_SA_SYSCALL_CALL) = ostr(b, st,
		    ev->f[SSP_F_FUNC_SYM]);
	}
}

static inline unsigned
fclass(struct ssp_spanb *b, unsigned st, uint64_t id)
{
	struct sinfo *si = sinfo(b, st, id);

	return (si->have & HAVE_FCLS) ? si->fcls : fclass_new(b, st, id, si);
}

static __attribute__((noinline)) void
link_new(struct ssp_spanb *b, unsigned st, uint64_t comp, struct sinfo *si)
{
	struct hstate *h = host_of(b, st);
	const char *t;
	size_t len, k;

	si->link = 0;
	t = text(b, st, comp, &len);
	if (len > 4 && memcmp(t + len - 4, ".pio", 4) == 0)
		len -= 4;	/* the posted-write responder of the adapter */
	for (k = 0; k < h->nplinks; k++) {
		const char *a = b->t->pcie[h->plinks[k]].adapter;

		if (a == NULL || (strlen(a) == len && memcmp(a, t, len) == 0)) {
			si->link = (uint16_t)(h->plinks[k] + 1);
			break;
		}
	}
	if (si->link == 0 && b->st.nolink_comp[0] == '\0') {
		snprintf(b->st.nolink_comp, sizeof(b->st.nolink_comp),
		    "%.*s", (int)len, t);
		b->st.nolink_stream = st;
	}
	si->have |= HAVE_LINK;
}

/* The pcie link an adapter component of a host names, or -1 (found once
 * per name, out of line). */
static inline int
link_of(struct ssp_spanb *b, unsigned st, uint64_t comp)
{
	struct sinfo *si;

	if (host_of(b, st)->nplinks == 0)
		return -1;
	si = sinfo(b, st, comp);
	if (!(si->have & HAVE_LINK))
		link_new(b, st, comp, si);
	return (int)si->link - 1;
}

__attribute__((noinline)) unsigned
ssp_spanb_host_cpu_new(struct ssp_spanb *b, unsigned st, uint64_t cpu,
    struct sinfo *si)
{
	struct hstate *h = host_of(b, st);
	uint64_t out;
	unsigned i;

	out = ostr(b, st, cpu);
	for (i = 0; i < h->ncpu; i++)
		if (h->cpu_out[i] == out)
			break;
	if (i == h->ncpu) {
		if (h->ncpu == h->ccpu) {
			unsigned n = h->ccpu ? h->ccpu * 2 : 4;
			struct span **nc = realloc(h->cur, n * sizeof(*nc));
			uint64_t *no;

			if (nc == NULL) {
				nomem(b);
				return 0;
			}
			h->cur = nc;
			if ((no = realloc(h->cpu_out, n * sizeof(*no))) == NULL) {
				nomem(b);
				return 0;
			}
			h->cpu_out = no;
			h->ccpu = n;
		}
		h->cur[h->ncpu] = NULL;
		h->cpu_out[h->ncpu++] = out;
	}
	si->cpu = (uint16_t)(i + 1);
	si->have |= HAVE_CPU;
	return i;
}

/* The syscall span new host spans hang under. */
static struct span *
cur_syscall(const struct hstate *h)
{
	return h->last_cpu >= 0 ? h->cur[h->last_cpu] : NULL;
}

/* A host span whose parent is the current syscall span. */
static struct span *
host_child(struct ssp_spanb *b, unsigned kind, unsigned st,
    const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	struct span *s = ssp_spanb_mk(b, kind, st, ev->ts), *sc;

	if (s == NULL)
		return NULL;
	if (h->kctx != NULL) {
		ssp_spanb_kctx_parent(b, st, s, ev);
		add_ev(b, s, ev);
		return s;
	}
	sc = cur_syscall(h);
	if (sc != NULL)
		set_parent(s, sc);
	else
		orphan(s, SSP_CAUSE_SYSCALL);
	add_ev(b, s, ev);
	return s;
}

/* A receiving syscall: parent = oldest rx context that started before it,
 * links to the other such contexts. */
void
ssp_spanb_host_receive(struct ssp_spanb *b, struct hstate *h, struct span *sc)
{
	struct lnk **tail = &sc->out;
	struct span *c;

	sc->xf |= X_RECEIVED;
	/* Only contexts made before the syscall (seq): with timestamps going
	 * backwards a later one could be its own descendant, and a span
	 * cannot wait for its descendant. */
	while (h->recv.n > 0 && q_at(&h->recv, 0)->start < sc->start &&
	    q_at(&h->recv, 0)->seq < sc->seq) {
		c = ssp_fifo_pop(&h->recv);		/* its reference moves over */
		if (sc->parent == NULL) {
			sc->parent = c;
			continue;
		}
		{
			struct lnk *l = ssp_pool_get(&b->lpool);

			if (l == NULL) {
				nomem(b);
				unref(b, c);
				return;
			}
			l->dst = c;
			l->src = sc;
			l->next = l->wnext = NULL;
			l->resume = 0;
			while (*tail != NULL)
				tail = &(*tail)->next;
			*tail = l;
		}
	}
}

static void
ev_func(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	unsigned cls = fclass(b, st, ev->f[SSP_F_FUNC_SYM]), cpu;
	struct span *sc;

	if (cls & SSP_FC_BLACKLIST) {
		b->st.drop[SSP_DROP_BLACKLIST]++;
		b->st.dropped[st]++;
		return;
	}
	if (h->kctx != NULL) {
		ssp_spanb_kctx_func(b, st, ev, cls);
		return;
	}
	cpu = cpu_of(b, st, ev->f[SSP_F_FUNC_CPU]);
	if (b->status != SSP_OK)
		return;
	h->last_cpu = (int)cpu;
	h->last_fcls = cls;
	sc = h->cur[cpu];
	if (cls & SSP_FC_SYSCALL_ENTRY) {
		/* Another syscall-entry function before any other function of
		 * the syscall is the entry trampoline going on (entry_SYSCALL_64,
		 * then its label entry_SYSCALL_64_safe_stack, which gem5 names
		 * too): the same syscall.  Its own entry function again is a
		 * new syscall. */
		if (sc != NULL && SA(sc, SSP_SA_SYSCALL_CALL) == 0 &&
		    SA(sc, SSP_SA_SYSCALL_ENTRY) !=
		    ostr(b, st, ev->f[SSP_F_FUNC_SYM])) {
			add_ev(b, sc, ev);
			SA(sc, SSP_SA_SYSCALL_FUNCS)++;
			return;
		}
		if (sc != NULL)
			ssp_spanb_done(b, sc);
		sc = ssp_spanb_mk(b, SSP_SK_HOST_SYSCALL, st, ev->ts);
		if ((h->cur[cpu] = sc) == NULL)
			return;
		SA(sc, SSP_SA_SYSCALL_CPU) = h->cpu_out[cpu];
		/* interned after ssp_spanb_done(): the output's string order
		 * stays */
		SA(sc, SSP_SA_SYSCALL_ENTRY) = ostr(b, st,
		    ev->f[SSP_F_FUNC_SYM]);
		SA(sc, SSP_SA_SYSCALL_FUNCS) = 1;
		sc->fcls = cls;
		add_ev(b, sc, ev);
		return;
	}
	if (sc == NULL) {
		b->st.drop[SSP_DROP_NO_SYSCALL]++;
		b->st.dropped[st]++;
		return;
	}
	add_ev(b, sc, ev);
	SA(sc, SSP_SA_SYSCALL_FUNCS)++;
	ssp_spanb_host_call(b, st, sc, ev, cls);
	sc->fcls |= cls & ~(FC_SYSVEC | FC_HANDLER);
	if ((cls & SSP_FC_RX) && !(sc->xf & X_RECEIVED))
		ssp_spanb_host_receive(b, h, sc);
}

/* A posted write whose immediate response did not come: expected for
 * accesses answered inside gem5, else the span is incomplete. */
static void
close_posted(struct ssp_spanb *b, struct hstate *h)
{
	struct span *s = h->posted;

	h->posted = NULL;
	if (s->xf & X_INSIDE)
		ssp_spanb_done(b, s);
	else
		ssp_spanb_incomplete(b, s);
}

static void
ev_mmio(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	int write = ev->type == SSP_EV_MMIO_WR;
	int link = link_of(b, st, ev->f[SSP_F_MMIO_COMP]);
	int64_t bar = (int64_t)ev->f[SSP_F_MMIO_BAR];
	int64_t posted = write && ev->nf > SSP_F_MMIO_POSTED ?
	    (int64_t)ev->f[SSP_F_MMIO_POSTED] : -1;
	unsigned bars = link >= 0 ? b->pl[link].bars :
	    ssp_rules_device_bars(b->rules, "");
	struct span *s = host_child(b, SSP_SK_HOST_MMIO, st, ev), *old;
	void *o;

	if (s == NULL)
		return;
	SA(s, SSP_SA_HMMIO_COMP) = ostr(b, st, ev->f[SSP_F_MMIO_COMP]);
	SA(s, SSP_SA_HMMIO_WRITE) = (uint64_t)write;
	SA(s, SSP_SA_HMMIO_ADDR) = ev->f[SSP_F_MMIO_ADDR];
	SA(s, SSP_SA_HMMIO_SIZE) = ev->f[SSP_F_MMIO_SIZE];
	SA(s, SSP_SA_HMMIO_ID) = ev->f[SSP_F_MMIO_ID];
	SA(s, SSP_SA_HMMIO_BAR) = (uint64_t)bar;
	SA(s, SSP_SA_HMMIO_OFFS) = ev->f[SSP_F_MMIO_OFFS];
	SA(s, SSP_SA_HMMIO_POSTED) = (uint64_t)posted;
	/* Other BARs (the MSI-X table) and MSI programming are answered
	 * inside gem5: no NIC line, no completion. */
	if ((bar >= 0 && (bar > 31 || !(bars & (1u << bar)))) ||
	    (h->last_fcls & SSP_FC_PCI_WRITE)) {
		if (posted == 1) {	/* may still get its immediate response */
			if (h->posted != NULL)
				close_posted(b, h);
			s->xf |= X_INSIDE;
			h->posted = s;
			return;
		}
		ssp_spanb_done(b, s);
		return;
	}
	if (link >= 0) {
		ssp_spanb_send(b, &b->pl[link].mmio, s, SSP_CTX_MMIO);
		if (s->parent != NULL)
			s->parent->xf |= X_NICWORK;
	} else {
		b->st.ctx_nowhere[SSP_CTX_MMIO]++;
	}
	if (posted == 1) {
		if (h->posted != NULL)	/* the previous one got no response */
			close_posted(b, h);
		h->posted = s;
		return;
	}
	if (ssp_map3_put(&b->mmio_open, ev->f[SSP_F_MMIO_ID], 0, st, s, &o) != 0) {
		nomem(b);
		return;
	}
	if ((old = o) != NULL) {
		b->st.dup_ids++;
		ssp_spanb_incomplete(b, old);
	}
}

#define DMA_RESYNC 16	/* keyed DMA contexts looked at for the host's id */

/* The NIC's dma span a host DMA answers: by op, or the oldest sent (an
 * e1000 NIC), or the oldest with the host's id (a Corundum NIC: its AXI
 * write ids repeat, and the link keeps the order), those before it being
 * DMAs whose host lines are missing. */
static struct span *
dma_ctx(struct ssp_spanb *b, int link, uint64_t id)
{
	struct plink *l = &b->pl[link];
	uint32_t i;

	if (!l->dma_fifo)
		return ssp_map3_del(&b->dma_ctx, id, 0, (uint32_t)link);
	if (!l->dma_keyed)
		return ssp_fifo_pop(&l->dma);
	for (i = 0; i < l->dma.n && i < DMA_RESYNC; i++)
		if (SA(q_at(&l->dma, i), SSP_SA_NDMA_OP) == id)
			break;
	if (i == l->dma.n || i == DMA_RESYNC) {
		b->st.dma_mismatch++;
		return NULL;
	}
	while (i-- > 0) {
		unref(b, ssp_fifo_pop(&l->dma));
		b->st.ctx_unused[SSP_CTX_DMA]++;
	}
	return ssp_fifo_pop(&l->dma);
}

static void
ev_host_dma(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	int link = link_of(b, st, ev->f[SSP_F_DMA_COMP]);
	uint64_t id = ev->f[SSP_F_DMA_ID];
	struct span *s = ssp_spanb_mk(b, SSP_SK_HOST_DMA, st, ev->ts);
	struct span *c = NULL, *old;
	void *o;

	if (s == NULL)
		return;
	if (link >= 0)
		c = dma_ctx(b, link, id);
	if (c != NULL)
		s->parent = c;		/* the map's reference moves over */
	else
		orphan(s, SSP_CAUSE_DMA);
	add_ev(b, s, ev);
	SA(s, SSP_SA_HDMA_COMP) = ostr(b, st, ev->f[SSP_F_DMA_COMP]);
	SA(s, SSP_SA_HDMA_WRITE) = ev->type == SSP_EV_DMA_WR;
	SA(s, SSP_SA_HDMA_ID) = id;
	SA(s, SSP_SA_HDMA_ADDR) = ev->f[SSP_F_DMA_ADDR];
	SA(s, SSP_SA_HDMA_SIZE) = ev->f[SSP_F_DMA_SIZE];
	/* Two NICs on one host may use the same DMA op pointer (nicbm
	 * processes with ASLR off): open host DMA spans are keyed by (id,
	 * adapter component). */
	if (ssp_map3_put(&b->hdma_open, id, SA(s, SSP_SA_HDMA_COMP), st, s,
	    &o) != 0) {
		nomem(b);
		return;
	}
	if ((old = o) == NULL)
		return;
	if (link >= 0 && b->pl[link].dma_keyed) {
		/* a repeated AXI id: the older one completes first (AXI
		 * answers an id in order); this one waits its turn (the
		 * oldest waiting ends incomplete beyond the context limit) */
		struct ssp_fifo *q = &host_of(b, st)->hdma_dup;

		if (q->n >= b->ctx_limit) {
			ssp_spanb_incomplete(b, ssp_fifo_pop(q));
			b->st.ctx_overflow[SSP_CTX_DMA]++;
		}
		if (ssp_map3_put(&b->hdma_open, id, SA(s, SSP_SA_HDMA_COMP),
		    st, old, &o) != 0 || ssp_fifo_push(q, s) != 0)
			nomem(b);
		return;
	}
	b->st.dup_ids++;
	ssp_spanb_incomplete(b, old);
}

/* A dma span waiting behind an open one with its id and component takes
 * its place. */
static void
dma_dup_next(struct ssp_spanb *b, unsigned st, uint64_t id, uint64_t comp)
{
	struct ssp_fifo *q = &host_of(b, st)->hdma_dup;
	uint32_t i;
	void *o;

	for (i = 0; i < q->n; i++)
		if (SA(q_at(q, i), SSP_SA_HDMA_ID) == id &&
		    SA(q_at(q, i), SSP_SA_HDMA_COMP) == comp) {
			if (ssp_map3_put(&b->hdma_open, id, comp, st,
			    q_take(q, i), &o) != 0)
				nomem(b);
			return;
		}
}

static void
ev_dma_done(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	uint64_t id = ev->f[SSP_F_DONE_ID];
	int link = link_of(b, st, ev->f[SSP_F_DONE_COMP]);
	uint64_t comp;
	struct span *s;

	if (id == 0) {		/* the gem5-internal write of an MSI(-X) */
		if (link >= 0 && (s = b->pl[link].msix_open) != NULL) {
			b->pl[link].msix_open = NULL;
			add_ev(b, s, ev);
			ssp_spanb_done(b, s);
		} else {
			drop(b, st, SSP_DROP_NO_START);
		}
		return;
	}
	comp = ostr(b, st, ev->f[SSP_F_DONE_COMP]);
	if ((s = ssp_map3_del(&b->hdma_open, id, comp, st)) == NULL) {
		drop(b, st, SSP_DROP_NO_START);
		return;
	}
	add_ev(b, s, ev);
	ssp_spanb_done(b, s);
	if (host_of(b, st)->hdma_dup.n > 0)
		dma_dup_next(b, st, id, comp);
}

static void
ev_msix(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	int link = link_of(b, st, ev->f[SSP_F_IRQ_COMP]);
	struct span *s = ssp_spanb_mk(b, SSP_SK_HOST_MSIX, st, ev->ts);
	struct span *c = NULL;

	if (s == NULL)
		return;
	if (link >= 0) {
		struct plink *l = &b->pl[link];

		if (l->msix_open != NULL) {	/* no completion came */
			ssp_spanb_incomplete(b, l->msix_open);
			l->msix_open = NULL;
		}
		if ((c = ssp_fifo_pop(&l->msix)) != NULL &&
		    SA(c, SSP_SA_NMSIX_VEC) != ev->f[SSP_F_IRQ_VEC])
			b->st.msix_mismatch++;
		l->msix_open = s;
	}
	if (c != NULL)
		s->parent = c;
	else
		orphan(s, SSP_CAUSE_MSIX);
	add_ev(b, s, ev);
	SA(s, SSP_SA_HMSIX_COMP) = ostr(b, st, ev->f[SSP_F_IRQ_COMP]);
	SA(s, SSP_SA_HMSIX_VEC) = ev->f[SSP_F_IRQ_VEC];
	if (h->kctx != NULL) {	/* for the irq entry that serves it */
		struct ssp_fifo *q = &h->irqq;

		if (q->n >= IRQQ_MAX) {	/* a log without irq entries */
			unref(b, ssp_fifo_pop(q));
			b->st.ctx_overflow[SSP_CTX_IRQ]++;
		}
		ssp_spanb_send(b, q, s, SSP_CTX_IRQ);
	}
	if (link < 0)
		ssp_spanb_done(b, s);	/* no link to take its completion */
}

static void
pci_attrs(struct ssp_spanb *b, unsigned st, struct span *s,
    const struct ssp_rec *ev)
{
	SA(s, SSP_SA_HPCI_COMP) = ostr(b, st, ev->f[SSP_F_CFG_COMP]);
	SA(s, SSP_SA_HPCI_WRITE) = ev->type == SSP_EV_CFG_WR;
	SA(s, SSP_SA_HPCI_DEV) = ev->f[SSP_F_CFG_DEV];
	SA(s, SSP_SA_HPCI_FUNC) = ev->f[SSP_F_CFG_FUNC];
	SA(s, SSP_SA_HPCI_REG) = ev->f[SSP_F_CFG_REG];
	SA(s, SSP_SA_HPCI_BYTES) = ev->f[SSP_F_CFG_BYTES];
	SA(s, SSP_SA_HPCI_DATA) = ev->f[SSP_F_CFG_DATA];
}

/* The interface of a postInt/clearInt, bus << 16 | dev << 8 | func. */
static uint64_t
intx_bdf(const struct ssp_rec *ev)
{
	return ev->f[SSP_F_INT_BUS] << 16 | ev->f[SSP_F_INT_DEV] << 8 |
	    ev->f[SSP_F_INT_FUNC];
}

/* The slot of the open interrupt of ev's interface, or -1.  A component
 * name never interned has none open (and stays uninterned: strings are
 * written where they are first used). */
static int
intx_find(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	const struct sinfo *si;
	uint64_t bdf = intx_bdf(ev), comp = 0;
	unsigned i;

	if (h->nintx == 0)
		return -1;
	if (ev->f[SSP_F_INT_COMP] != 0) {
		si = sinfo(b, st, ev->f[SSP_F_INT_COMP]);
		if (!(si->have & HAVE_OUT))
			return -1;
		comp = si->out;
	}
	for (i = 0; i < h->nintx; i++)
		if (h->intx[i].comp == comp && h->intx[i].bdf == bdf)
			return (int)i;
	return -1;
}

/* Take slot i's span out, keeping the others in postInt order. */
static struct span *
intx_take(struct hstate *h, unsigned i)
{
	struct span *s = h->intx[i].s;

	memmove(&h->intx[i], &h->intx[i + 1],
	    (h->nintx - i - 1) * sizeof(h->intx[0]));
	h->nintx--;
	return s;
}

/* postInt: an interrupt span of its interface until that interface's
 * clearInt.  A second postInt of the interface ends the first
 * (INCOMPLETE); with INTX_MAX interfaces raised, so does the oldest
 * (counted). */
static void
ev_post_int(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	struct span *s;
	int i;

	if ((i = intx_find(b, st, ev)) >= 0) {
		ssp_spanb_incomplete(b, intx_take(h, (unsigned)i));
	} else if (h->nintx == INTX_MAX) {
		b->st.intx_overflow++;
		ssp_spanb_incomplete(b, intx_take(h, 0));
	}
	if ((s = host_child(b, SSP_SK_HOST_INTR, st, ev)) == NULL)
		return;
	SA(s, SSP_SA_HINTR_COMP) = ostr(b, st, ev->f[SSP_F_INT_COMP]);
	h->intx[h->nintx].s = s;
	h->intx[h->nintx].comp = SA(s, SSP_SA_HINTR_COMP);
	h->intx[h->nintx].bdf = intx_bdf(ev);
	h->nintx++;
}

static void
ev_host(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	struct span *s;
	int i;

	/* Lines gem5 prints at the same tick as their start are over. */
	if (h->posted != NULL && ev->ts > h->posted->start)
		close_posted(b, h);
	if (h->pci != NULL && ev->ts > h->pci->start) {
		ssp_spanb_done(b, h->pci);
		h->pci = NULL;
	}
	switch (ev->type) {
	case SSP_EV_SYNC:
	case SSP_EV_PROC_IN:
		drop(b, st, SSP_DROP_NOISE);
		break;
	case SSP_EV_INSN:
		drop(b, st, SSP_DROP_INSN);
		break;
	case SSP_EV_USER:
		if (h->kctx != NULL)
			ssp_spanb_kctx_user(b, st, ev);
		drop(b, st, SSP_DROP_INSN);
		break;
	case SSP_EV_FUNC:
		ev_func(b, st, ev);
		break;
	case SSP_EV_MMIO_RD:
	case SSP_EV_MMIO_WR:
		ev_mmio(b, st, ev);
		break;
	case SSP_EV_MMIO_POSTED:
		if ((s = h->posted) != NULL && ev->ts == s->start) {
			h->posted = NULL;
			add_ev(b, s, ev);
			ssp_spanb_done(b, s);
		} else {
			drop(b, st, SSP_DROP_NO_START);
		}
		break;
	case SSP_EV_MMIO_RD_DONE:
	case SSP_EV_MMIO_WR_DONE:
		if ((s = ssp_map3_del(&b->mmio_open, ev->f[SSP_F_DONE_ID], 0, st)) != NULL) {
			add_ev(b, s, ev);
			ssp_spanb_done(b, s);
		} else {
			drop(b, st, SSP_DROP_NO_START);
		}
		break;
	case SSP_EV_DMA_RD:
	case SSP_EV_DMA_WR:
		ev_host_dma(b, st, ev);
		break;
	case SSP_EV_DMA_DONE:
		ev_dma_done(b, st, ev);
		break;
	case SSP_EV_MSIX:
	case SSP_EV_MSI:
	case SSP_EV_INTR:
		ev_msix(b, st, ev);
		break;
	case SSP_EV_CFG_RD:
	case SSP_EV_CFG_WR:
		s = h->pci;
		if (s != NULL && SA(s, SSP_SA_HPCI_WRITE) ==
		    (ev->type == SSP_EV_CFG_WR)) {
			h->pci = NULL;
			add_ev(b, s, ev);
		} else if ((s = host_child(b, SSP_SK_HOST_PCI, st, ev)) == NULL) {
			break;
		}
		pci_attrs(b, st, s, ev);
		ssp_spanb_done(b, s);
		break;
	case SSP_EV_PCIHOST_RD:
	case SSP_EV_PCIHOST_WR:
		if (h->pci != NULL) {
			ssp_spanb_done(b, h->pci);
			h->pci = NULL;
		}
		if ((s = host_child(b, SSP_SK_HOST_PCI, st, ev)) == NULL)
			break;
		SA(s, SSP_SA_HPCI_COMP) = ostr(b, st, ev->f[SSP_F_PH_COMP]);
		SA(s, SSP_SA_HPCI_WRITE) = ev->type == SSP_EV_PCIHOST_WR;
		SA(s, SSP_SA_HPCI_DEV) = ev->f[SSP_F_PH_DEV];
		SA(s, SSP_SA_HPCI_FUNC) = ev->f[SSP_F_PH_FUNC];
		SA(s, SSP_SA_HPCI_REG) = ev->f[SSP_F_PH_OFFSET];
		SA(s, SSP_SA_HPCI_BYTES) = ev->f[SSP_F_PH_SIZE];
		h->pci = s;
		break;
	case SSP_EV_POST_INT:
		ev_post_int(b, st, ev);
		break;
	case SSP_EV_CLEAR_INT:
		if ((i = intx_find(b, st, ev)) >= 0) {
			s = intx_take(h, (unsigned)i);
			add_ev(b, s, ev);
		} else if ((s = host_child(b, SSP_SK_HOST_INTR, st, ev)) != NULL) {
			SA(s, SSP_SA_HINTR_COMP) =
			    ostr(b, st, ev->f[SSP_F_INT_COMP]);
		} else {
			break;
		}
		ssp_spanb_done(b, s);
		break;
	default:
		drop(b, st, SSP_DROP_FOREIGN);
	}
}

static enum ssp_status
host_init(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	struct hstate *h = host_of(b, st);
	const struct ssp_topo *t = b->t;
	size_t i;

	h->last_cpu = -1;
	for (i = 0; i < t->npcie; i++) {
		unsigned *np;

		if (t->pcie[i].host != st)
			continue;
		if ((np = realloc(h->plinks, (h->nplinks + 1) * sizeof(*np))) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		h->plinks = np;
		h->plinks[h->nplinks++] = (unsigned)i;
		b->pl[i].recv = &h->recv;
	}
	return b->kctx ? ssp_spanb_kctx_new(b, st, e) : SSP_OK;
}

static void
host_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++, ev = ssp_rec_packed_next(ev))
		if (ours(b, SSP_SIM_GEM5, ev))
			ev_host(b, st, ev);
		else
			drop(b, st, SSP_DROP_FOREIGN);
}

static void
host_stream_end(struct ssp_spanb *b, unsigned st)
{
	struct hstate *h = host_of(b, st);
	struct span *list[8], *s;
	size_t k = 0;
	unsigned c;

	if (h->kctx != NULL)
		ssp_spanb_kctx_end(b, st);
	/* the spans held in slots, in creation order */
	for (c = 0; c < h->ncpu; c++) {
		if (h->cur[c] == NULL)
			continue;
		if (k == sizeof(list) / sizeof(list[0])) {
			ssp_spanb_close_list(b, list, k);
			k = 0;
		}
		list[k++] = h->cur[c];
		h->cur[c] = NULL;
	}
	ssp_spanb_close_list(b, list, k);
	k = 0;
	if (h->posted != NULL)
		list[k++] = h->posted;
	if (h->pci != NULL)
		list[k++] = h->pci;
	h->posted = h->pci = NULL;
	for (c = 0; c < h->nintx; c++) {
		if (k == sizeof(list) / sizeof(list[0])) {
			ssp_spanb_close_list(b, list, k);
			k = 0;
		}
		list[k++] = h->intx[c].s;
	}
	h->nintx = 0;
	for (c = 0; c < h->nplinks; c++) {
		struct plink *l = &b->pl[h->plinks[c]];

		if (l->msix_open != NULL) {
			if (k == sizeof(list) / sizeof(list[0])) {
				ssp_spanb_close_list(b, list, k);
				k = 0;
			}
			list[k++] = l->msix_open;
			l->msix_open = NULL;
		}
	}
	ssp_spanb_close_list(b, list, k);
	ssp_spanb_close_stream(b, &b->mmio_open, st);
	ssp_spanb_close_stream(b, &b->hdma_open, st);
	while ((s = ssp_fifo_pop(&h->hdma_dup)) != NULL)
		ssp_spanb_close_open(b, s);
}

static void
host_drain(struct ssp_spanb *b, unsigned st)
{
	struct hstate *h = host_of(b, st);

	ssp_spanb_drain(b, &h->recv, SSP_CTX_RECV);
	ssp_spanb_drain(b, &h->irqq, SSP_CTX_IRQ);
}

static void
host_free(struct ssp_spanb *b, unsigned st)
{
	struct hstate *h = host_of(b, st);

	free(h->cur);
	free(h->cpu_out);
	free(h->plinks);
	ssp_fifo_free(&h->recv);
	ssp_fifo_free(&h->irqq);
	ssp_fifo_free(&h->hdma_dup);
	ssp_kctx_free(h->kctx);
}

/* Noise and instruction lines are dropped by ev_host, after it ended the
 * posted write and pci_host access that a later line ends: ticks for the
 * mmio and pci_host accesses that start those (ARM). */
static void
host_skips(struct ssp_spanb *b, unsigned st)
{
	skip_foreign(b, st, SSP_SIM_GEM5);
	skip(b, st, SSP_EV_SYNC, SSP_RA_TICK, SSP_DROP_NOISE);
	skip(b, st, SSP_EV_PROC_IN, SSP_RA_TICK, SSP_DROP_NOISE);
	skip(b, st, SSP_EV_INSN, SSP_RA_TICK, SSP_DROP_INSN);
	if (host_of(b, st)->kctx == NULL)
		skip(b, st, SSP_EV_USER, SSP_RA_TICK, SSP_DROP_INSN);
	skip(b, st, SSP_EV_MMIO_RD, SSP_RA_ARM, 0);
	skip(b, st, SSP_EV_MMIO_WR, SSP_RA_ARM, 0);
	skip(b, st, SSP_EV_PCIHOST_RD, SSP_RA_ARM, 0);
	skip(b, st, SSP_EV_PCIHOST_WR, SSP_RA_ARM, 0);
}

const struct ssp_spanb_sim ssp_spanb_host_sim = {
	host_init, host_events, host_stream_end, host_drain, host_free,
	host_skips,
};
