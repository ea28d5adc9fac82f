#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/syne1000.h"
#include "synth/synhost.h"
#include "synth/synnic.h"
#include "synth/synnicbm.h"

#define NS 1000LL
#define CACHE 64		/* rx_desc_cache_size, tx_desc_cache_size */
#define FETCH_DELAY (10 * NS)	/* fetch_delay, wb_delay, fetch_comp_delay, */
#define WB_DELAY (10 * NS)	/* wb_comp_delay (e1000_gem5.cc main) */
#define FIFO_BYTES (384 * 1024)	/* tx_fifo_size */
#define INT_CLOCK (1000LL * 1024)	/* intClock(): the timers' unit */
#define RADV 8			/* the driver's RxAbsIntDelay */
#define TIDV 8			/* TxIntDelay */
#define TADV 32			/* TxAbsIntDelay */
#define RXFIFO 64
#define BUF_LEN 2048		/* rctl.descSize() for the driver's BSIZE */

/* ICR bits (i8254xGBe_defs.h IntTypes) */
#define IT_TXDW   0x01u
#define IT_TXQE   0x02u
#define IT_RXDMT  0x10u
#define IT_RXT    0x80u
#define INT_ASSERT 0x80000000u

/* Timers: cancellable ones carry a generation in the event. */
enum { T_TICK, T_RADV, T_TIDV, T_TADV, T_INTER, T_NCANCEL = T_INTER + 1,
	T_FETCH1 = T_NCANCEL, T_WB1 = T_FETCH1 + 2, T_WBDONE = T_WB1 + 2,
	T_RXPKT = T_WBDONE + 2 };

/* IGbE::DescCache: descriptors [head, head + used) are used and not
 * written back, [head + used, cpnt) fetched and unused. */
struct ecache {
	int tx;
	const char *name;
	uint64_t base;			/* the ring's bus address */
	uint32_t head, tail, cpnt;
	unsigned used, unused, fetching, wbout;
	int more_wb;
	unsigned wb_align;
	uint64_t cause[E1K_RING];	/* what made the descriptor count */
	struct pkt *pk[E1K_RING];	/* TX data descriptor: its frame */
	uint8_t ctx[E1K_RING];		/* TX: a context descriptor */
	uint64_t wb_cause;
};

struct rxf {
	struct pkt *pk;
	uint64_t span;
};

struct syne1000 {
	struct ecache rx, tx;
	uint32_t icr, imr, itr;
	uint64_t icr_cause;		/* the work the pending causes report */
	int64_t last_int;
	uint64_t gen[T_NCANCEL];
	int sched[T_NCANCEL];
	int rx_tick, tx_tick, txf_tick, in_tick, rx_dma;
	int rx_done, tx_done, tx_waiting;
	int tx_have;			/* txPacket exists */
	unsigned tx_len;		/* its length so far */
	struct pkt *tx_pk;
	uint64_t tx_cause;
	struct pkt *txf_pk;		/* the TX FIFO (one frame at most) */
	uint64_t txf_cause;
	struct rxf rxf[RXFIFO];
	unsigned rxf_head, rxf_n;
	struct rxf rx_cur;		/* the frame being written */
	uint64_t ndma;			/* sim2ev's DMA numbers */
	uint64_t radv_cause, tidv_cause, tadv_cause;
};

/* --- lines -------------------------------------------------------------- */

/* "<ps>: <flag>: <message>" (debug_printf); evtype < 0: no event. */
static void dline(struct nic *n, int64_t t, int evtype, const char *flag,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void
dline(struct nic *n, int64_t t, int evtype, const char *flag,
    const char *fmt, ...)
{
	char *p = ssp_synlog_room(n->log), *start = p;
	va_list ap;
	int k;

	p = ssp_synlog_put_u64(p, (uint64_t)t);
	p = ssp_synlog_put_str(p, ": ");
	p = ssp_synlog_put_str(p, flag);
	p = ssp_synlog_put_str(p, ": ");
	va_start(ap, fmt);
	k = vsnprintf(p, (size_t)(SSP_SYNLOG_LINEMAX - (p - start) - 2), fmt, ap);
	va_end(ap);
	if (k > 0)
		p += k < SSP_SYNLOG_LINEMAX - (p - start) - 2 ? k :
		    SSP_SYNLOG_LINEMAX - (p - start) - 3;
	*p++ = '\n';
	ssp_synlog_commit(n->log, p);
	if (evtype >= 0)
		n->nev[evtype]++;
	else
		n->nskip[SSP_SYNSKIP_SBOTHER]++;
}

#define ETH(n, t, ...) dline(n, t, -1, "Ethernet", __VA_ARGS__)
#define DESC(n, t, ...) dline(n, t, -1, "EthernetDesc", __VA_ARGS__)
#define INTR(n, t, ...) dline(n, t, -1, "EthernetIntr", __VA_ARGS__)
#define SM(n, t, ...) dline(n, t, -1, "EthernetSM", __VA_ARGS__)

/* --- timers ------------------------------------------------------------- */

static void
timer(struct syn *s, struct nic *n, int k, int64_t t)
{
	struct syne1000 *e = n->e1k;
	uint64_t a = (uint64_t)k;

	if (k < T_NCANCEL) {
		e->sched[k] = 1;
		a |= ++e->gen[k] << 8;
	}
	ssp_synmodel_schedule(s, t, EV_NIC_E1000, n->idx, a, NULL);
}

static void
cancel(struct syne1000 *e, int k)
{
	e->sched[k] = 0;
	e->gen[k]++;
}

/* clockEdge(): the next whole ns, one more ns on. */
static int64_t
clock_edge(int64_t t)
{
	if (t % 1000 != 0)
		t += 1000 - t % 1000;
	return t + 1000;
}

static void
restart_clock(struct syn *s, struct nic *n, int64_t t)
{
	struct syne1000 *e = n->e1k;

	SM(n, t, "IGbE: requesting restart clock: sched=%d rxt=%d txt=%d txf=%d",
	    e->sched[T_TICK], e->rx_tick, e->tx_tick, e->txf_tick);
	if (!e->sched[T_TICK] && (e->rx_tick || e->tx_tick || e->txf_tick)) {
		timer(s, n, T_TICK, clock_edge(t));
		SM(n, t, "IGbE: scheduled");
	}
}

/* --- interrupts --------------------------------------------------------- */

static void
intx(struct syn *s, struct nic *n, int64_t t, int level, uint64_t cause)
{
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_INTX, n->h->idx,
	    (uint64_t)level, (void *)(uintptr_t)cause);
}

static void
cpu_post(struct syn *s, struct nic *n, int64_t t)
{
	struct syne1000 *e = n->e1k;

	if (!(e->icr & e->imr)) {
		ETH(n, t, "Interrupt Masked. Not Posting");
		return;
	}
	ETH(n, t, "Posting Interrupt");
	if (e->sched[T_INTER])
		cancel(e, T_INTER);
	if (e->sched[T_RADV]) {
		e->icr |= IT_RXT;
		cancel(e, T_RADV);
	}
	if (e->sched[T_TADV]) {
		e->icr |= IT_TXDW;
		cancel(e, T_TADV);
	}
	if (e->sched[T_TIDV]) {
		e->icr |= IT_TXDW;
		cancel(e, T_TIDV);
	}
	e->icr |= INT_ASSERT;
	dline(n, t, SSP_EV_NIC_INTX, "EthernetIntr", "EINT: Posting interrupt to "
	    "CPU now. Vector %#x", e->icr);
	intx(s, n, t, 1, e->icr_cause);
	e->last_int = t;
}

static void
cpu_clear(struct syn *s, struct nic *n, int64_t t)
{
	struct syne1000 *e = n->e1k;

	if (!(e->icr & INT_ASSERT))
		return;
	e->icr &= ~INT_ASSERT;
	dline(n, t, SSP_EV_NIC_INTX, "EthernetIntr", "EINT: Clearing interrupt to "
	    "CPU now. Vector %#x", e->icr);
	intx(s, n, t, 0, 0);
}

static void
post_interrupt(struct syn *s, struct nic *n, int64_t t, uint32_t type,
    uint64_t cause)
{
	struct syne1000 *e = n->e1k;
	int64_t iv = 1000LL * 256 * e->itr;

	if (type & e->icr)
		return;		/* already pending */
	if (!(e->icr & ~INT_ASSERT) || e->icr_cause == 0)
		e->icr_cause = cause;
	e->icr |= type;
	INTR(n, t, "EINT: postInterrupt() curTick(): %" PRId64 " itr: %d "
	    "interval: %" PRId64, t, e->itr, iv);
	if (e->itr == 0 || e->last_int + iv <= t) {
		if (e->sched[T_INTER])
			cancel(e, T_INTER);
		cpu_post(s, n, t);
	} else {
		INTR(n, t, "EINT: Scheduling timer interrupt for tick %" PRId64,
		    e->last_int + iv);
		if (!e->sched[T_INTER])
			timer(s, n, T_INTER, e->last_int + iv);
	}
}

static void
chk_interrupt(struct syn *s, struct nic *n, int64_t t)
{
	struct syne1000 *e = n->e1k;

	ETH(n, t, "Checking interrupts icr: %#x imr: %#x", e->icr, e->imr);
	if (!(e->icr & e->imr)) {
		ETH(n, t, "Mask cleaned all interrupts");
		if (e->sched[T_INTER])
			cancel(e, T_INTER);
		if (e->icr & INT_ASSERT)
			cpu_clear(s, n, t);
	}
	ETH(n, t, "ITR = %#X itr.interval = %#X", e->itr, e->itr);
	if (e->icr & e->imr) {
		if (e->itr == 0) {
			cpu_post(s, n, t);
		} else {
			ETH(n, t, "Possibly scheduling interrupt because of imr write");
			if (!e->sched[T_INTER]) {
				int64_t at = t + 1000LL * 256 * e->itr;

				ETH(n, t, "Scheduling for %" PRId64, at);
				timer(s, n, T_INTER, at);
			}
		}
	}
}

/* --- descriptor caches -------------------------------------------------- */

static unsigned
desc_left(const struct ecache *c)
{
	return c->unused + (c->cpnt > c->tail ? E1K_RING - c->cpnt + c->tail :
	    c->tail - c->cpnt);
}

static struct dmaop *
dma(struct syn *s, struct nic *n, int64_t t, int64_t at, int write,
    uint64_t addr, unsigned len, uint64_t cause, enum dma_cont cont)
{
	struct syne1000 *e = n->e1k;
	struct dmaop *op = ssp_synnicbm_op_get(s, n);
	char key[40];

	if (op == NULL)
		return NULL;
	op->busy = 1;
	op->write = write;
	op->addr = addr;
	op->len = len;
	op->cause = cause;
	op->cont = cont;
	op->pk = NULL;
	op->rw = NULL;
	/* sim2ev numbers e1000's DMAs in log order (it prints no id) */
	snprintf(key, sizeof(key), "0x%" PRIx64, ++e->ndma);
	op->span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_DMA, t, key, cause,
	    n->last_cause);
	/* the Gem5DMAOp goes to nicbm's IssueDma at 'at' */
	ssp_synmodel_schedule(s, at + s->p->pcie_lat, EV_HOST_DMA, n->h->idx, 0, op);
	return op;
}

static void
fetch(struct syn *s, struct nic *n, struct ecache *c, int64_t t)
{
	unsigned max, fr;

	if (c->fetching) {
		DESC(n, t, "[%s] Currently fetching %d descriptors, returning",
		    c->name, c->fetching);
		return;
	}
	max = c->tail >= c->cpnt ? c->tail - c->cpnt : E1K_RING - c->cpnt;
	fr = CACHE - c->used - c->unused;
	if (max > fr)
		max = fr;
	DESC(n, t, "[%s] Fetching descriptors head: %u tail: %u len: %u "
	    "cachePnt: %u max_to_fetch: %u descleft: %u", c->name, c->head,
	    c->tail, E1K_RING, c->cpnt, max, desc_left(c));
	if (max == 0)
		return;
	c->fetching = max;
	timer(s, n, T_FETCH1 + c->tx, t + FETCH_DELAY);
}

static void
fetch1(struct syn *s, struct nic *n, struct ecache *c, int64_t t)
{
	uint64_t a = c->base + 16ull * c->cpnt;

	dline(n, t, SSP_EV_NIC_DMA_ISSUE, "EthernetDesc", "[%s] Fetching "
	    "descriptors at %#" PRIx64 " (%#" PRIx64 "), size: %#x", c->name, a, a,
	    c->fetching * 16);
	dma(s, n, t, t + FETCH_DELAY, 0, a, c->fetching * 16, c->cause[c->cpnt],
	    c->tx ? DC_TX_DESC : DC_RX_DESC);
}

static void enable_sm(struct syn *s, struct nic *n, struct ecache *c,
    int64_t t);

static void
fetch_done(struct syn *s, struct nic *n, struct ecache *c, int64_t t)
{
	uint32_t old = c->cpnt;

	c->unused += c->fetching;
	c->cpnt += c->fetching;
	if (c->cpnt == E1K_RING)
		c->cpnt = 0;
	c->fetching = 0;
	dline(n, t, SSP_EV_NIC_DMA_DONE_RD, "EthernetDesc", "[%s] Fetching "
	    "complete cachePnt %u -> %u", c->name, old, c->cpnt);
	enable_sm(s, n, c, t);
}

static void
writeback(struct syn *s, struct nic *n, struct ecache *c, int64_t t,
    unsigned amask)
{
	unsigned max = c->used;

	if (c->wbout) {
		if (amask < c->wb_align) {
			c->more_wb = 1;
			c->wb_align = amask;
		}
		DESC(n, t, "[%s] Writing back already in process, returning",
		    c->name);
		return;
	}
	c->more_wb = 0;
	c->wb_align = amask;
	DESC(n, t, "[%s] Writing back descriptors head: %u tail: %u len: %u "
	    "cachePnt: %u max_to_wb: %u descleft: %u", c->name, c->head, c->tail,
	    E1K_RING, c->cpnt, max, desc_left(c));
	if (max + c->head >= E1K_RING) {
		max = E1K_RING - c->head;
		c->more_wb = 1;
	} else if (c->wb_align != 0) {
		max &= ~c->wb_align;
	}
	DESC(n, t, "[%s] Writing back %u descriptors", c->name, max);
	if (max == 0)
		return;
	c->wbout = max;
	timer(s, n, T_WB1 + c->tx, t + WB_DELAY);
}

static void
wb1(struct syn *s, struct nic *n, struct ecache *c, int64_t t)
{
	dline(n, t, SSP_EV_NIC_DMA_ISSUE, "EthernetDesc", "[%s] Begining DMA of "
	    "%u descriptors", c->name, c->wbout);
	c->wb_cause = c->cause[c->head];
	dma(s, n, t, t + WB_DELAY, 1, c->base + 16ull * c->head, c->wbout * 16,
	    c->wb_cause, c->tx ? DC_TX_WB : DC_RX_DESC);
	/* the write's completion event: due when the DMA leaves, not when
	 * the host has the data (IGbE::dmaWrite) */
	timer(s, n, T_WBDONE + c->tx, t + WB_DELAY);
}

static void
wb_done(struct syn *s, struct nic *n, struct ecache *c, int64_t t)
{
	struct syne1000 *e = n->e1k;
	uint32_t old = c->head;

	c->used -= c->wbout;
	c->head = (c->head + c->wbout) % E1K_RING;
	c->wbout = 0;
	dline(n, t, SSP_EV_NIC_DMA_DONE_WR, "EthernetDesc", "[%s] Writeback "
	    "complete curHead %u -> %u", c->name, old, c->head);
	if (c->tx) {	/* actionAfterWb */
		DESC(n, t, "actionAfterWb() completionEnabled: 0");
		post_interrupt(s, n, t, IT_TXDW, c->wb_cause);
	}
	if (c->more_wb) {
		c->more_wb = 0;
		DESC(n, t, "[%s] Writeback has more todo", c->name);
		writeback(s, n, c, t, c->wb_align);
	}
	if (!(c->tx ? e->tx_tick : e->rx_tick))	/* fetchAfterWb */
		fetch(s, n, c, t);
}

static void
enable_sm(struct syn *s, struct nic *n, struct ecache *c, int64_t t)
{
	if (c->tx)
		n->e1k->tx_tick = 1;
	else
		n->e1k->rx_tick = 1;
	restart_clock(s, n, t);
}

/* --- receive ------------------------------------------------------------ */

static void
eth_rx(struct syn *s, struct nic *n, int64_t t, struct pkt *pk, uint64_t from)
{
	struct syne1000 *e = n->e1k;
	struct rxctx rx;

	dline(n, t, SSP_EV_NIC_RX, "Ethernet", "RxFIFO: Receiving pcakte from wire");
	rx.span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_RX, t, "", from, from);
	rx.ts = t;
	rx.kind = pk->kind;
	rx.req = pk->req;
	rx.src_host = pk->src_host;
	n->last_cause = rx.span;
	ssp_synhost_rx(s, n->h, &rx);
	e->rx_tick = 1;
	if (!e->sched[T_TICK]) {
		SM(n, t, "RXS: received packet into fifo, starting ticking");
		restart_clock(s, n, t);
	}
	if (e->rxf_n == RXFIFO) {
		ETH(n, t, "RxFIFO: Packet won't fit in fifo... dropped");
		ssp_synmodel_pkt_put(pk);
		return;
	}
	e->rxf[(e->rxf_head + e->rxf_n++) % RXFIFO] = (struct rxf){ pk, rx.span };
}

static void
rx_sm(struct syn *s, struct nic *n, int64_t t)
{
	struct syne1000 *e = n->e1k;
	struct ecache *c = &e->rx;
	static uint8_t frame[2048];
	unsigned left, len, slot;

	if (e->rx_done) {
		e->rx_done = 0;
		e->rx_dma = 0;
		SM(n, t, "RXS: Packet completed DMA to memory");
		left = desc_left(c);
		SM(n, t, "RXS: descLeft: %u rdmts: 0 rdlen: %u", left, E1K_RING * 16);
		if (left * 2 <= E1K_RING * 16) {	/* descriptors vs bytes (sic) */
			ETH(n, t, "RXS: Interrupting (RXDMT) because of descriptors "
			    "left");
			post_interrupt(s, n, t, IT_RXDMT, c->cause[(c->head + c->used +
			    E1K_RING - 1) % E1K_RING]);
		}
		if (e->rxf_n == 0)
			writeback(s, n, c, t, 0);
		if (left == 0) {
			writeback(s, n, c, t, 0);
			SM(n, t, "RXS: No descriptors left in ring, forcing writeback "
			    "and stopping ticking");
			e->rx_tick = 0;
		}
		if (1 >= c->used) {	/* rxdctl.wthresh() 1 */
			SM(n, t, "RXS: Writing back because WTHRESH >= descUsed");
			writeback(s, n, c, t, 0);
		}
		if (c->unused == 0) {
			fetch(s, n, c, t);
			SM(n, t, "RXS: No descriptors available in cache, fetching "
			    "descriptors and stopping ticking");
			e->rx_tick = 0;
		}
		return;
	}
	if (e->rx_dma) {
		SM(n, t, "RXS: stopping ticking until packet DMA completes");
		e->rx_tick = 0;
		return;
	}
	if (c->unused == 0) {
		fetch(s, n, c, t);
		SM(n, t, "RXS: No descriptors available in cache, stopping ticking");
		e->rx_tick = 0;
		SM(n, t, "RXS: No descriptors available, fetching");
		return;
	}
	if (e->rxf_n == 0) {
		SM(n, t, "RXS: RxFIFO empty, stopping ticking");
		e->rx_tick = 0;
		return;
	}
	e->rx_cur = e->rxf[e->rxf_head];
	len = ssp_synnicbm_frame(e->rx_cur.pk, frame, sizeof(frame));
	slot = (c->head + c->used) % E1K_RING;
	c->cause[slot] = e->rx_cur.span;
	dline(n, t, SSP_EV_NIC_DMA_ISSUE, "EthernetDesc", "Packet Length: %u Desc "
	    "Size: %d", len, BUF_LEN);
	dma(s, n, t, t, 1, n->rx_buf + (uint64_t)BUF_LEN * slot, len,
	    e->rx_cur.span, DC_RX_DATA);
	timer(s, n, T_RXPKT, t);	/* pktEvent: rx_write_delay 0 */
	SM(n, t, "RXS: Writing packet into memory");
	SM(n, t, "RXS: Removing packet from FIFO");
	e->rxf_head = (e->rxf_head + 1) % RXFIFO;
	e->rxf_n--;
	SM(n, t, "RXS: stopping ticking until packet DMA completes");
	e->rx_tick = 0;
	e->rx_dma = 1;
}

/* RxDescCache::pktComplete */
static void
rx_pkt_done(struct syn *s, struct nic *n, int64_t t)
{
	struct syne1000 *e = n->e1k;
	struct ecache *c = &e->rx;
	struct pkt *pk = e->rx_cur.pk;
	unsigned len = pk->frame, slot = (c->head + c->used) % E1K_RING;
	int ip = pk->kind != PK_BG_ARP;

	DESC(n, t, "pktPtr->length: %u bytesCopied: %u stripcrc offset: 4 value "
	    "written: %u %u", len, len, len + 4, len + 4);
	dline(n, t, SSP_EV_NIC_DMA_DONE_WR, "EthernetDesc", "Packet written to "
	    "memory updating Descriptor");
	if (ip) {
		DESC(n, t, "Proccesing Ip packet with Id=%u", pk->ipid);
		DESC(n, t, pk->proto == 6 ? "Checking TCP checksum" :
		    "Checking UDP checksum");
	} else {
		SM(n, t, "Proccesing Non-Ip packet");
	}
	DESC(n, t, "Descriptor complete w0: %#" PRIx64 " w1: %#" PRIx64,
	    n->rx_buf + (uint64_t)BUF_LEN * slot, (uint64_t)(len + 4) |
	    (uint64_t)(ip ? 0x23 : 0x03) << 32);
	DESC(n, t, "Packet completely written to descriptor buffers");
	SM(n, t, "RXS: Scheduling ADV for %" PRId64, (int64_t)(RADV * INT_CLOCK));
	if (!e->sched[T_RADV]) {
		e->radv_cause = e->rx_cur.span;
		timer(s, n, T_RADV, t + RADV * INT_CLOCK);
	}
	ssp_synmodel_pkt_put(pk);
	e->rx_cur.pk = NULL;
	enable_sm(s, n, c, t);
	e->rx_done = 1;
	DESC(n, t, "Processing of this descriptor complete");
	c->unused--;
	c->used++;
}

/* --- transmit ----------------------------------------------------------- */

static void
tx_sm(struct syn *s, struct nic *n, int64_t t)
{
	struct syne1000 *e = n->e1k;
	struct ecache *c = &e->tx;
	unsigned slot, size;

	if (e->tx_have && e->tx_done) {
		e->tx_done = 0;
		if (e->tx_len > 0) {
			SM(n, t, "TXS: packet placed in TX FIFO");
			e->txf_pk = e->tx_pk;
			e->txf_cause = e->tx_cause;
			e->txf_tick = 1;
			e->tx_have = 0;
			e->tx_pk = NULL;
			writeback(s, n, c, t, (64 - 1) >> 4);
			return;
		}
	}
	if (!e->tx_have) {
		e->tx_have = 1;
		e->tx_len = 0;
	}
	if (e->tx_waiting) {
		SM(n, t, "TXS: Nothing to do, stopping ticking");
		e->tx_tick = 0;
		return;
	}
	if (desc_left(c) == 0) {
		post_interrupt(s, n, t, IT_TXQE, c->cause[(c->head + c->used +
		    E1K_RING - 1) % E1K_RING]);
		writeback(s, n, c, t, 0);
		fetch(s, n, c, t);
		SM(n, t, "TXS: No descriptors left in ring, forcing writeback "
		    "stopping ticking and posting TXQE");
		e->tx_tick = 0;
		return;
	}
	if (c->unused == 0) {
		fetch(s, n, c, t);
		SM(n, t, "TXS: No descriptors available in cache, fetching and "
		    "stopping ticking");
		e->tx_tick = 0;
		return;
	}
	DESC(n, t, "Checking and  processing context descriptors");
	while (c->unused > 0 && c->ctx[slot = (c->head + c->used) % E1K_RING]) {
		DESC(n, t, "Got context descriptor type...");
		DESC(n, t, "Descriptor upper: %#x lower: %#lX", 0x2a00, 0x20000000ul |
		    (unsigned long)(34u << 24 | 40u << 8 | 34u));
		c->unused--;
		c->used++;
	}
	size = 0;
	if (c->unused > 0) {
		slot = (c->head + c->used) % E1K_RING;
		DESC(n, t, "Starting processing of descriptor");
		size = c->pk[slot] != NULL ? c->pk[slot]->frame : 0;
		DESC(n, t, "Next TX packet is %u bytes", size);
	}
	if (size > 0) {
		uint64_t buf = n->tx_buf + (uint64_t)BUF_LEN * slot;

		SM(n, t, "TXS: Reserving %u bytes in FIFO and beginning DMA of next "
		    "packet", size);
		DESC(n, t, "getPacketData(): TxDescriptor data d1: %#" PRIx64
		    " d2: %#" PRIx64, buf, (uint64_t)0x2b100000u | size);
		e->tx_waiting = 1;
		e->tx_pk = c->pk[slot];
		e->tx_cause = c->cause[slot];
		dline(n, t, SSP_EV_NIC_DMA_ISSUE, "EthernetDesc", "Starting DMA of "
		    "packet at offset %u", e->tx_len);
		dma(s, n, t, t, 0, buf, size, c->cause[slot], DC_TX_DATA);
	} else {
		SM(n, t, "TXS: getPacketSize returned: %u", size);
		SM(n, t, "TXS: No packets to get, writing back used descriptors");
		writeback(s, n, c, t, 0);
	}
}

/* TxDescCache::pktComplete */
static void
tx_pkt_done(struct syn *s, struct nic *n, int64_t t)
{
	struct syne1000 *e = n->e1k;
	struct ecache *c = &e->tx;
	unsigned slot = (c->head + c->used) % E1K_RING;
	unsigned size = e->tx_pk->frame;
	uint64_t buf = n->tx_buf + (uint64_t)BUF_LEN * slot;

	dline(n, t, SSP_EV_NIC_DMA_DONE_RD, "EthernetDesc", "DMA of packet complete");
	DESC(n, t, "TxDescriptor data d1: %#" PRIx64 " d2: %#" PRIx64, buf,
	    (uint64_t)0x2b100000u | size);
	e->tx_len += size;
	DESC(n, t, "TxDescriptor data d1: %#" PRIx64 " d2: %#" PRIx64, buf,
	    (uint64_t)0x2b100000u | size | (uint64_t)1 << 32);
	DESC(n, t, "Calculating checksums for packet");
	DESC(n, t, e->tx_pk->proto == 6 ? "Calculated TCP checksum" :
	    "Calculated UDP checksum");
	DESC(n, t, "Descriptor had IDE set");
	DESC(n, t, "setting tidv");
	e->tidv_cause = e->tx_cause;
	timer(s, n, T_TIDV, t + TIDV * INT_CLOCK);	/* reschedule(.., true) */
	DESC(n, t, "setting tadv");
	if (!e->sched[T_TADV]) {
		e->tadv_cause = e->tx_cause;
		timer(s, n, T_TADV, t + TADV * INT_CLOCK);
	}
	DESC(n, t, "Descriptor Done");
	c->pk[slot] = NULL;
	c->unused--;
	c->used++;
	DESC(n, t, "------Packet of %u bytes ready for transmission-------", size);
	e->tx_done = 1;
	e->tx_waiting = 0;
	DESC(n, t, "WTHRESH == 0, writing back descriptor");
	writeback(s, n, c, t, 0);
	enable_sm(s, n, c, t);
}

static void
tx_wire(struct syn *s, struct nic *n, int64_t t)
{
	struct syne1000 *e = n->e1k;
	struct pkt *pk = e->txf_pk;

	e->txf_tick = 0;
	if (pk == NULL)
		return;
	/* sendPacket: EthSend, then ethTxDone */
	pk->tx_span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_TX, t, "",
	    e->txf_cause, n->last_cause);
	ssp_synmodel_schedule(s, (t + s->p->eth_lat + NS - 1) / NS * NS,
	    EV_NET_IN, n->idx, 0, pk);
	e->txf_pk = NULL;
	e->txf_tick = 1;
	if (desc_left(&e->tx) != 0)
		e->tx_tick = 1;
	if (!e->in_tick)
		restart_clock(s, n, t);
	SM(n, t, "TxFIFO: Transmission complete");
	dline(n, t, SSP_EV_NIC_TX, "EthernetSM", "TxFIFO: Successful transmit, "
	    "bytes available in fifo: %u", FIFO_BYTES - pk->frame);
}

static void
tick(struct syn *s, struct nic *n, int64_t t)
{
	struct syne1000 *e = n->e1k;

	SM(n, t, "IGbE: -------------- Cycle --------------");
	e->in_tick = 1;
	if (e->rx_tick)
		rx_sm(s, n, t);
	if (e->tx_tick)
		tx_sm(s, n, t);
	while (e->txf_tick)
		tx_wire(s, n, t);
	if (e->rx_tick || e->tx_tick || e->txf_tick) {
		SM(n, t, "IGbE: rescheduling next cycle");
		timer(s, n, T_TICK, t + 1000);
	} else {
		SM(n, t, "IGbE: no next cycle scheduled");
	}
	e->in_tick = 0;
}

/* --- registers ---------------------------------------------------------- */

static void
mmio_in(struct syn *s, struct nic *n, int64_t t, struct nic_mmio *m)
{
	struct syne1000 *e = n->e1k;
	char key[32];
	uint64_t span;
	uint32_t v, i;

	if (!m->write) {
		dline(n, t, SSP_EV_NIC_RD, "Ethernet", "Read device register %#x",
		    m->off);
		m->val = 0;
	} else {
		dline(n, t, SSP_EV_NIC_WR, "Ethernet", "Wrote device register %#x "
		    "value %#x", m->off, (uint32_t)m->val);
	}
	snprintf(key, sizeof(key), "0x%x", m->off);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_MMIO, t, key, m->span,
	    m->span);
	if (m->write)
		n->last_cause = span;
	v = (uint32_t)m->val;
	switch (m->off) {
	case E1K_STATUS:
		if (!m->write)
			m->val = 0x80080783u;	/* 1000 Mb/s, full duplex, link up */
		break;
	case E1K_ICR:
		if (m->write)
			break;
		ETH(n, t, "Reading ICR. ICR=%#x IMR=%#x IAM=%#x IAME=%d", e->icr,
		    e->imr, 0, 0);
		m->val = e->icr;
		if ((e->icr & INT_ASSERT) || e->imr == 0) {
			e->icr &= ~((1u << 30) - 1);
			e->icr_cause = 0;
			ETH(n, t, "Cleared ICR. ICR=%#x", e->icr);
		}
		chk_interrupt(s, n, t);
		break;
	case E1K_IMS:
		if (m->write) {
			e->imr |= v;
			chk_interrupt(s, n, t);
		}
		break;
	case E1K_IMC:
		if (m->write) {
			e->imr &= ~v;
			chk_interrupt(s, n, t);
		}
		break;
	case E1K_RDT:
		if (!m->write)
			break;
		for (i = e->rx.tail; i != v % E1K_RING; i = (i + 1) % E1K_RING)
			e->rx.cause[i] = span;
		e->rx.tail = v % E1K_RING;
		SM(n, t, "RXS: RDT Updated.");
		SM(n, t, "RXS: RDT Fetching Descriptors!");
		fetch(s, n, &e->rx, t);
		break;
	case E1K_TDT:
		if (!m->write)
			break;
		/* the driver's context descriptor, then the frame's */
		for (i = e->tx.tail; i != v % E1K_RING; i = (i + 1) % E1K_RING) {
			e->tx.cause[i] = span;
			e->tx.ctx[i] = (i + 1) % E1K_RING != v % E1K_RING;
			e->tx.pk[i] = e->tx.ctx[i] ? NULL : m->pk;
		}
		m->pk = NULL;
		e->tx.tail = v % E1K_RING;
		SM(n, t, "TXS: TX Tail pointer updated");
		SM(n, t, "TXS: TDT Fetching Descriptors!");
		fetch(s, n, &e->tx, t);
		break;
	default:
		break;
	}
	ssp_synmodel_pkt_put(m->pk);
	m->pk = NULL;
	if (!m->write || !m->posted)	/* nicbm answers at once */
		ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_MMIO_DONE,
		    n->h->idx, 0, m);
	else
		free(m);
}

static void
dma_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	struct syne1000 *e = n->e1k;
	enum dma_cont cont = op->cont;
	int write = op->write;

	ssp_synnicbm_op_put(n, op);
	if (write)
		return;		/* IGbE::DmaComplete: the data is freed */
	if (cont == DC_TX_DESC)
		fetch_done(s, n, &e->tx, t);
	else if (cont == DC_RX_DESC)
		fetch_done(s, n, &e->rx, t);
	else if (cont == DC_TX_DATA)
		tx_pkt_done(s, n, t);
}

static void
timer_fire(struct syn *s, struct nic *n, int64_t t, uint64_t a)
{
	struct syne1000 *e = n->e1k;
	int k = (int)(a & 0xff);

	if (k < T_NCANCEL) {
		if (!e->sched[k] || e->gen[k] != a >> 8)
			return;		/* descheduled */
		e->sched[k] = 0;
	}
	switch (k) {
	case T_TICK: tick(s, n, t); break;
	case T_RADV:
		writeback(s, n, &e->rx, t, 0);
		INTR(n, t, "Posting RXT interrupt because RADV timer expired");
		post_interrupt(s, n, t, IT_RXT, e->radv_cause);
		break;
	case T_TIDV:
		writeback(s, n, &e->tx, t, 0);
		INTR(n, t, "Posting TXDW interrupt because TIDV timer expired");
		post_interrupt(s, n, t, IT_TXDW, e->tidv_cause);
		break;
	case T_TADV:
		writeback(s, n, &e->tx, t, 0);
		INTR(n, t, "Posting TXDW interrupt because TADV timer expired");
		post_interrupt(s, n, t, IT_TXDW, e->tadv_cause);
		break;
	case T_INTER: cpu_post(s, n, t); break;
	case T_FETCH1: fetch1(s, n, &e->rx, t); break;
	case T_FETCH1 + 1: fetch1(s, n, &e->tx, t); break;
	case T_WB1: wb1(s, n, &e->rx, t); break;
	case T_WB1 + 1: wb1(s, n, &e->tx, t); break;
	case T_WBDONE: wb_done(s, n, &e->rx, t); break;
	case T_WBDONE + 1: wb_done(s, n, &e->tx, t); break;
	case T_RXPKT: rx_pkt_done(s, n, t); break;
	default: break;
	}
}

/* --- the NIC ------------------------------------------------------------ */

int
ssp_syne1000_init(struct syn *s, struct nic *n)
{
	struct syne1000 *e;

	ssp_synnic_init(s, n);	/* MAC, ring and buffer addresses, op pool */
	if ((e = calloc(1, sizeof(*e))) == NULL) {
		s->failed = 1;
		return ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
	}
	n->e1k = e;
	e->rx.name = "RxDesc";
	e->tx.name = "TxDesc";
	e->tx.tx = 1;
	e->rx.base = n->rx_ring;
	e->tx.base = n->tx_ring;
	/* the driver's InterruptThrottleRate in ITR's 256 ns units (0: off) */
	e->itr = (uint32_t)(s->p->itr / (256 * NS));
	e->imr = E1K_IMS_ENABLE;
	e->last_int = -((int64_t)1 << 40);
	return SSP_OK;
}

void
ssp_syne1000_start(struct syn *s, struct nic *n)
{
	struct syne1000 *e = n->e1k;
	struct host *h = n->h;
	char *p;

	(void)s;
	/* e1000_up filled the RX ring (RDT = count - 1) and the NIC fetched
	 * a cache full of descriptors before the trace starts */
	e->tx.head = e->tx.tail = e->tx.cpnt = h->tx_tail % E1K_RING;
	h->tx_tail = e->tx.tail;
	e->rx.head = h->rx_tail % E1K_RING;
	e->rx.tail = (e->rx.head + E1K_RING - 1) % E1K_RING;
	e->rx.cpnt = (e->rx.head + CACHE) % E1K_RING;
	e->rx.unused = CACHE;
	h->rx_tail = e->rx.tail;
	p = ssp_synlog_put_str(ssp_synlog_room(n->log), "warn: enabling debug "
	    "messages because E1000_DEBUG envar set\n");
	ssp_synlog_commit(n->log, p);
	n->nskip[SSP_SYNSKIP_NICINFO]++;
}

void
ssp_syne1000_event(struct syn *s, const struct sev *ev)
{
	struct nic *n = &s->nics[ev->who];

	switch (ev->type) {
	case EV_NIC_MMIO:
		mmio_in(s, n, ev->t, ev->p);
		break;
	case EV_NIC_DMA_DONE:
		dma_done(s, n, ev->t, ev->p);
		break;
	case EV_NIC_RX:
		eth_rx(s, n, ev->t, ev->p, ev->a);
		break;
	case EV_NIC_E1000:
		timer_fire(s, n, ev->t, ev->a);
		break;
	default:	/* SIGUSR1: e1000_gem5 prints nothing */
		break;
	}
}

void
ssp_syne1000_finish(struct syn *s, struct nic *n)
{
	(void)s;
	(void)n;
}

void
ssp_syne1000_free(struct nic *n)
{
	struct syne1000 *e = n->e1k;
	unsigned i;

	if (e == NULL)
		return;
	for (i = 0; i < E1K_RING; i++)
		ssp_synmodel_pkt_put(e->tx.pk[i]);
	for (i = 0; i < e->rxf_n; i++)
		ssp_synmodel_pkt_put(e->rxf[(e->rxf_head + i) % RXFIFO].pk);
	ssp_synmodel_pkt_put(e->rx_cur.pk);
	ssp_synmodel_pkt_put(e->txf_pk);
	free(e);
	n->e1k = NULL;
}
