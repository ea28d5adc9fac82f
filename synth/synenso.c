/*
 * simsynth --nic enso (synenso.h): enso_bm as nicbm runs it, and Ensō's
 * userspace library on a QEMU host.  What each side does and in which
 * order follows the sources: component-enso enso_bm/enso_bm.cc (register
 * writes, DmaData, send_rx_notif, dma_read_tx_notif, dma_read_data,
 * tx_pipeline::enqueue_data), nicbm.cc (IssueDma, DmaDo, the completion
 * handlers, which run the device's DmaComplete before they count the DMA
 * done), and crossroadsfpga/enso simbricks-24.04 software/src/pcie.cpp
 * (notification_buf_init, enso_pipe_init, __get_new_tails,
 * __consume_queue, advance_pipe, __send_to_queue, update_tx_head,
 * send_config), pipe.cpp/pipe.h (RxTxPipe: PeekPkts, SendAndFree,
 * ProcessCompletions) and examples/echo.cpp, ensogen.cpp (single core:
 * receive_pkts, transmit_pkts).
 *
 * Truth: the NIC's spans have the parents SPEC §3 describes, the real
 * cause recorded where the NIC's last causing span is another (a data
 * read issued when the notification read completes, a packet sent when
 * its data arrives).  A QEMU host has no kernel spans, so its MMIO writes
 * are trace roots by the rules; their real cause is what the application
 * polled from memory, the host.dma that wrote the notification or the
 * completion it acts on.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synenso.h"
#include "synth/synheap.h"
#include "synth/synnic.h"
#include "synth/synnicbm.h"

#define NS 1000LL

#define PIPE_FLITS  32768u	/* ENSO_PIPE_SIZE, 64-byte flits */
#define NOTIF_SLOTS 16384u	/* NOTIFICATION_BUF_SIZE */
#define NOTIF_REGS  0x2000000u	/* (MAX_NB_QUEUES + buffer 0) * 4 KiB in BAR 2 */
#define R_RX_TAIL 0x00u		/* struct queue_regs */
#define R_RX_HEAD 0x04u
#define R_RX_LO   0x08u
#define R_RX_HI   0x0cu
#define R_TX_TAIL 0x10u
#define R_TX_HEAD 0x14u
#define R_TX_LO   0x18u
#define R_TX_HI   0x1cu
#define MAX_DMA     2048u	/* nicbm::kMaxDmaLen */
#define MAX_PENDING 64u		/* nicbm's DMA_MAX_PENDING */
#define MAX_XFER    131072u	/* kMaxTransferLen */
#define HUGEPAGE    (2u << 20)	/* kBufPageSize */
#define BATCH       64u		/* kBatchSize */
#define DST_PORT    80u		/* example_helpers.h kDstPort */
#define BASE_IP     0xc0a80000u	/* kBaseIpAddress, 192.168.0.0 */
#define CHUNK       0x50u	/* malloc chunk of every dma op object */

/* configuration ids (enso_config.h) */
enum { CFG_FLOW = 1, CFG_RATE = 3, CFG_FALLBACK = 4 };

/* what a DMA write puts into host memory */
enum { W_DATA, W_NOTIF, W_COMPL };

/* Modelled windows of rings whose real size the indices keep. */
#define WIN   512u		/* TX notifications in flight */
#define PIPEQ 4096u		/* packets in a pipe */
#define LANDQ 1024u		/* RX notifications not yet consumed */
#define SENDQ 256u		/* EnsoGen transfers waiting */
#define OUTQ  256u		/* EnsoGen requests waiting for their echoes */
#define NSTEP 40u

/* A TX notification in host memory (struct TxNotification) and, for
 * data, the packets its bytes hold, in order. */
struct txn {
	int signal;			/* 1 data, 2 configuration, 0 completed */
	uint64_t addr;
	uint32_t len;
	unsigned cfg;			/* configuration id */
	int split;			/* wrap tracker: not the transfer's last part */
	struct pkt **pk;
	unsigned npk;
};

/* A packet in enso_bm's TX pipeline: its bytes are on their way, and
 * the TX tail write whose notification brought it. */
struct txpkt {
	struct pkt *pk;
	uint64_t cause;
};

struct ering {
	uint64_t buf;
	uint32_t head, tail;
};

struct landed {
	uint32_t tail;
	uint64_t span;			/* the host.dma that wrote it */
};

struct inpipe {
	struct pkt *pk;
	uint32_t flits;
};

struct astep {
	char op;			/* 'W' write, 'R' read, 'C' configuration */
	uint32_t off, val;
	unsigned cfg;
};

struct outreq {
	unsigned req, left;
};

struct app {
	int client;			/* EnsoGen, else the echo server */
	struct astep script[NSTEP];
	unsigned nscript, pc;
	int ready, blocked, sched;
	int64_t busy;			/* the CPU is busy until */
	uint64_t nbuf, pbuf;		/* notification buffer, pipe (physical) */
	/* the notification buffer */
	uint32_t nhead;
	struct landed land[LANDQ];
	unsigned lhead, llen;
	unsigned ids;			/* EnsoGen: pipe ids not yet taken */
	/* the pipe */
	uint32_t phead, ptail, pend;	/* freed, consumed, last notified tail */
	uint64_t pend_span;
	struct inpipe in[PIPEQ];
	unsigned ihead, ilen;
	/* TX */
	uint32_t txtail, txhead;
	struct txn slot[WIN];
	uint32_t pending_tx[WIN];	/* Device::Send's requests: bytes */
	unsigned pthead, ptlen;
	uint64_t compl_span;
	struct pkt **sendq[SENDQ];
	unsigned sqn[SENDQ], sqhead, sqlen;
	struct outreq out[OUTQ];
	unsigned nout;
};

struct synenso {
	struct ssp_synheap heap;
	struct ering pipe, rxn, txn;	/* pipe 0, notification buffer 0 */
	int flow;			/* the echo server's flow-table entry */
	unsigned fallback;
	uint64_t drops;
	/* tx_pipeline: one byte stream over all transfers, in the order the
	 * data arrives; a packet goes out when its aligned end has */
	struct txpkt txq[PIPEQ];
	unsigned txqhead, txqlen;
	uint32_t txgot;
	/* nicbm's dma_queue_: issued while 64 were executing */
	struct dmaop *dq[NIC_MAXOPS];
	unsigned dqhead, dqlen;
	struct app app;
};

/* --- small helpers ------------------------------------------------------ */

static void
fail(struct syn *s, int code, const char *what, const char *name)
{
	if (s->failed)
		return;
	s->failed = 1;
	ssp_err_set(&s->err, code, 0, "%s: %s", name, what);
}

static uint8_t *
put_le(uint8_t *b, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		*b++ = (uint8_t)(v >> (8 * i));
	return b;
}

/* A 64-byte notification as enso_bm writes it: three words, zero pad. */
static void
notif_bytes(uint8_t d[64], uint64_t a, uint64_t b, uint64_t c)
{
	memset(d, 0, 64);
	put_le(put_le(put_le(d, a), b), c);
}

static unsigned
aligned(unsigned len)
{
	return (len + 63) & ~63u;
}

/* --- the NIC: enso_bm ---------------------------------------------------- */

/* enso_bm's logger (logger.cc) with DEBUG_DEV, on stderr: "<ps> enso: "
 * and the message, its numbers in hex without 0x (ss << std::hex). */
static char *
dev_begin(struct nic *n, int64_t t)
{
	char *p = ssp_synlog_room(n->devlog);

	p = ssp_synlog_put_u64(p, (uint64_t)t);
	return ssp_synlog_put_str(p, " enso: ");
}

static void
dev_end(struct nic *n, char *p)
{
	*p++ = '\n';
	ssp_synlog_commit(n->devlog, p);
}

static void
dev_line(struct nic *n, int64_t t, const char *msg, uint64_t v)
{
	char *p = dev_begin(n, t);

	p = ssp_synlog_put_str(p, msg);
	if (v != UINT64_MAX)
		p = ssp_synlog_put_hex(p, v);
	dev_end(n, p);
}

static uint32_t
be(const uint8_t *b, int n)
{
	uint32_t v = 0;

	while (n-- > 0)
		v = v << 8 | *b++;
	return v;
}

/* rx_pipeline::flow_director's four-tuple, read from the frame as it
 * reads it (an IPv4 header after Ethernet's, whatever the frame is). */
static void
dev_flow(struct nic *n, int64_t t, const uint8_t *f)
{
	uint32_t dport = 0, sport = 0, dip = be(f + 30, 4), sip = 0;
	char *p = dev_begin(n, t);

	if (f[23] == 6) {		/* TCP; a SYN matches on the destination */
		dport = be(f + 36, 2);
		if (!(f[47] & 0x02)) {
			sport = be(f + 34, 2);
			sip = be(f + 26, 4);
		}
	} else if (f[23] == 17) {
		dport = be(f + 36, 2);
	}
	p = ssp_synlog_put_str(p, "RX: Flow director: dst_port=");
	p = ssp_synlog_put_hex(p, dport);
	p = ssp_synlog_put_str(p, " src_port=");
	p = ssp_synlog_put_hex(p, sport);
	p = ssp_synlog_put_str(p, " dst_ip=");
	p = ssp_synlog_put_hex(p, dip);
	p = ssp_synlog_put_str(p, " src_ip=");
	p = ssp_synlog_put_hex(p, sip);
	dev_end(n, p);
}

/* new dma_*: the object, then (for a write, or a read's buffer) its
 * data; buffers of more than 72 bytes are in other size classes. */
static struct dmaop *
op_new(struct syn *s, struct nic *n, unsigned dlen)
{
	struct synenso *e = n->enso;
	struct dmaop *op;

	if ((op = ssp_synnicbm_op_get(s, n)) == NULL)
		return NULL;
	op->ptr = ssp_synheap_alloc(&e->heap, 0, CHUNK, 0);
	op->dbuf = dlen > 0 && dlen <= 72 ? ssp_synheap_alloc(&e->heap, 0,
	    CHUNK, 0) : 0;
	op->ext = NULL;
	return op;
}

/* delete: ~dma_*'s delete[] data_, then the object. */
static void
op_delete(struct nic *n, struct dmaop *op)
{
	struct synenso *e = n->enso;

	if (op->dbuf != 0)
		ssp_synheap_free(&e->heap, 0, op->dbuf);
	ssp_synheap_free(&e->heap, 0, op->ptr);
	ssp_synnicbm_op_put(n, op);
}

/* Runner::IssueDma: executed now, or queued behind 64 executing. */
static void
issue(struct syn *s, struct nic *n, int64_t t, struct dmaop *op, int write,
    uint64_t addr, unsigned len, uint64_t cause, enum dma_cont cont,
    struct pkt *pk, const uint8_t *data)
{
	struct synenso *e = n->enso;

	if (n->pending < MAX_PENDING) {
		ssp_synnicbm_dma_start(s, n, t, op, write, addr, len, cause, cont,
		    pk, NULL, data);
		return;
	}
	if (ssp_synnicbm_dma_enqueue(s, n, t, op, write, addr, len, cause, cont,
	    pk, NULL, data) != SSP_OK)
		return;
	e->dq[(e->dqhead + e->dqlen++) % NIC_MAXOPS] = op;
}

static void
dma_write(struct syn *s, struct nic *n, int64_t t, uint64_t addr,
    const uint8_t *d, unsigned len, uint64_t cause, unsigned what,
    uint32_t pos, struct pkt *pk)
{
	struct dmaop *op = op_new(s, n, len);

	if (op == NULL)
		return;
	op->q = what;
	op->pos = pos;
	issue(s, n, t, op, 1, addr, len, cause, DC_ENSO_WR, pk, d);
}

/* send_rx_notif: tell notification buffer 0 the pipe's new tail. */
static void
rx_notif(struct syn *s, struct nic *n, int64_t t, uint64_t cause)
{
	struct synenso *e = n->enso;
	uint8_t d[64];

	if (((e->rxn.head - e->rxn.tail - 1) % PIPE_FLITS) == 0) {
		/* full: enso_bm drops the notification */
		dev_line(n, t, "RX notification buffer is full.", UINT64_MAX);
		return;
	}
	notif_bytes(d, 1, 0, e->pipe.tail);
	dma_write(s, n, t, e->rxn.buf + 64ull * e->rxn.tail, d, 64, cause,
	    W_NOTIF, e->pipe.tail, NULL);
	e->rxn.tail = (e->rxn.tail + 1) % NOTIF_SLOTS;
}

/* dma_read_tx_notif: the notifications from old_tail to the tail, in two
 * reads when the tail wrapped (Issue: this one, then next_dma_). */
static void
read_notifs(struct syn *s, struct nic *n, int64_t t, uint32_t old_tail,
    uint64_t cause)
{
	struct synenso *e = n->enso;
	uint32_t tail = e->txn.tail, from[2] = { old_tail, 0 }, cnt[2];
	struct dmaop *op[2] = { NULL, NULL };
	unsigned k, parts = 1;

	if (old_tail > tail && tail != 0) {
		parts = 2;
		cnt[1] = tail;
		tail = 0;
	}
	cnt[0] = (tail - old_tail) % NOTIF_SLOTS;
	for (k = 0; k < parts; k++)	/* the constructors: this, then next */
		if ((op[k] = op_new(s, n, 64 * cnt[k])) == NULL)
			return;
	for (k = 0; k < parts; k++) {
		op[k]->pos = from[k];
		op[k]->nd = cnt[k];
		issue(s, n, t, op[k], 0, e->txn.buf + 64ull * from[k], 64 * cnt[k],
		    cause, DC_ENSO_TXN, NULL, NULL);
	}
}

static void
reg_write(struct syn *s, struct nic *n, int64_t t, uint32_t off, uint32_t v,
    uint64_t span)
{
	struct synenso *e = n->enso;
	struct ering *r = off >= NOTIF_REGS ? &e->rxn : &e->pipe;
	uint32_t reg = off & 0xfffu, old;

	if (off >= NOTIF_REGS && reg >= R_TX_TAIL)
		r = &e->txn;
	switch (reg) {
	case R_RX_TAIL:
		r->tail = v;
		break;
	case R_TX_TAIL:	/* DMA read the new notifications */
		old = r->tail;
		r->tail = v;
		if (old != v)
			read_notifs(s, n, t, old, span);
		break;
	case R_RX_HEAD: case R_TX_HEAD:
		r->head = v;
		/* reactive notification: the pipe has data past the head */
		if (r == &e->pipe && e->pipe.head != e->pipe.tail)
			rx_notif(s, n, t, span);
		break;
	case R_RX_LO: case R_TX_LO:
		r->buf = (r->buf & 0xffffffff00000000ull) | v;
		break;
	case R_RX_HI: case R_TX_HI:
		r->buf = (r->buf & 0xffffffffull) | (uint64_t)v << 32;
		break;
	}
}

static uint32_t
reg_read(const struct nic *n, uint32_t off)
{
	const struct synenso *e = n->enso;
	const struct ering *r = off >= NOTIF_REGS ? &e->rxn : &e->pipe;
	uint32_t reg = off & 0xfffu;

	if (off >= NOTIF_REGS && reg >= R_TX_TAIL)
		r = &e->txn;
	switch (reg) {
	case R_RX_TAIL: case R_TX_TAIL:
		return r->tail;
	case R_RX_HEAD: case R_TX_HEAD:
		return r->head;
	case R_RX_LO: case R_TX_LO:
		return (uint32_t)r->buf;
	default:
		return (uint32_t)(r->buf >> 32);
	}
}

/* nicbm's H2DRead / H2DWrite: the line, the register, the completion
 * (QEMU sends every write non-posted). */
static void
mmio_in(struct syn *s, struct nic *n, int64_t t, struct nic_mmio *m)
{
	char key[32], *p = ssp_synnicbm_begin(n, t);
	uint64_t span;

	if (!m->write)
		m->val = reg_read(n, m->off);
	p = ssp_synlog_put_str(p, m->write ? "write(off=0x" : "read(off=0x");
	p = ssp_synlog_put_hex(p, m->off);
	p = ssp_synlog_put_str(p, ", len=");
	p = ssp_synlog_put_u64(p, m->len);
	p = ssp_synlog_put_str(p, ", val=0x");
	p = ssp_synlog_put_hex(p, m->val);
	if (m->write && n->dialect == SSP_SYN_NICBM_UPSTREAM)
		p = ssp_synlog_put_str(p, ", posted=0");
	*p++ = ')';
	ssp_synnicbm_end(n, p, m->write ? SSP_EV_NIC_WR : SSP_EV_NIC_RD);
	snprintf(key, sizeof(key), "0x%x", m->off);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_MMIO, t, key, m->span,
	    m->span);
	if (m->write) {
		n->last_cause = span;
		reg_write(s, n, t, m->off, (uint32_t)m->val, span);
	}
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_MMIO_DONE,
	    n->h->idx, 0, m);
}

/* rx_pipeline::flow_director: the echo server's Bind (UDP to port 80 of
 * 192.168.0.0), else a fallback queue, else dropped. */
static int
flow_pipe(const struct synenso *e, const struct pkt *pk)
{
	if (e->flow && pk->kind != PK_BG_ARP && pk->proto == 17 &&
	    pk->dport == DST_PORT && pk->dip == BASE_IP)
		return 0;
	return e->fallback > 0 ? 0 : -1;
}

/* EthRx -> DmaData: the packet to the pipe's tail, a notification if the
 * pipe was empty. */
static void
eth_rx(struct syn *s, struct nic *n, int64_t t, struct pkt *pk, uint64_t from)
{
	static uint8_t frame[2048];
	struct synenso *e = n->enso;
	char *p = ssp_synnicbm_begin(n, t);
	uint64_t span;
	unsigned len, al, flits;
	uint32_t old, free_slots;

	p = ssp_synlog_put_str(p, "eth rx: port 0 len ");
	p = ssp_synlog_put_u64(p, pk->frame);
	ssp_synnicbm_end(n, p, SSP_EV_NIC_RX);
	dev_line(n, t, "received packet len=", pk->frame);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_RX, t, "", from, from);
	n->last_cause = span;
	memset(frame, 0, sizeof(frame));
	len = ssp_synnicbm_frame(pk, frame, sizeof(frame));
	if (pk->kind == PK_RESP && len > 63)
		frame[63]++;	/* echo.cpp: ++pkt[63] */
	dev_flow(n, t, frame);
	if (flow_pipe(e, pk) < 0) {
		dev_line(n, t, "RX: Packet dropped", UINT64_MAX);
		e->drops++;
		ssp_synmodel_pkt_put(pk);
		return;
	}
	dev_line(n, t, "RX: Sending packet to enso pipe ", 0);
	al = aligned(pk->frame);
	flits = al / 64;
	free_slots = (e->pipe.head - e->pipe.tail - 1) % PIPE_FLITS;
	p = dev_begin(n, t);
	p = ssp_synlog_put_str(p, "enso: DMA data to pipe 0 len=");
	p = ssp_synlog_put_hex(p, pk->frame);
	p = ssp_synlog_put_str(p, " aligned_len=");
	p = ssp_synlog_put_hex(p, al);
	p = ssp_synlog_put_str(p, " flits=");
	p = ssp_synlog_put_hex(p, flits);
	p = ssp_synlog_put_str(p, " nb_free_slots=");
	p = ssp_synlog_put_hex(p, free_slots);
	dev_end(n, p);
	if (free_slots < flits) {
		dev_line(n, t, "enso: Packet dropped.", UINT64_MAX);
		e->drops++;	/* no room in the pipe */
		ssp_synmodel_pkt_put(pk);
		return;
	}
	dma_write(s, n, t, (e->pipe.buf & ~1023ull) + 64ull * e->pipe.tail,
	    frame, al, span, W_DATA, flits, pk);
	old = e->pipe.tail;
	e->pipe.tail = (e->pipe.tail + flits) % PIPE_FLITS;
	if (old == e->pipe.head)
		rx_notif(s, n, t, span);
}

/* process_tx_notif for each notification the read brought.  Real memory
 * is read when QEMU serves the read; the model's notifications do not
 * change once written, so reading them now is the same. */
static void
tx_notifs(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	struct synenso *e = n->enso;
	struct app *a = &e->app;
	unsigned i, k, nchunk;

	for (i = 0; i < op->nd; i++) {
		struct txn *tn = &a->slot[(op->pos + i) % WIN];
		uint64_t caddr = op->addr + 64ull * i;
		struct dmaop *c, *ch[MAX_XFER / MAX_DMA];
		uint8_t d[64];

		if (tn->signal == 2) {	/* process_config, then the completion */
			if (tn->cfg == CFG_FLOW) {	/* Bind(kDstPort, 0, base, 0) */
				char *q = dev_begin(n, t);

				q = ssp_synlog_put_str(q, "RX: Adding flow table "
				    "entry: dst_port=");
				q = ssp_synlog_put_hex(q, DST_PORT);
				q = ssp_synlog_put_str(q, " src_port=0 dst_ip=");
				q = ssp_synlog_put_hex(q, BASE_IP);
				q = ssp_synlog_put_str(q, " src_ip=0 enso_pipe_id=0");
				dev_end(n, q);
				e->flow = 1;
			}
			else if (tn->cfg == CFG_FALLBACK)
				e->fallback = a->client ? 1 : 0;
			notif_bytes(d, 0, tn->cfg, 0);
			dma_write(s, n, t, caddr, d, 64, op->cause, W_COMPL,
			    op->pos + i, NULL);
			continue;
		}
		if (tn->signal != 1)
			continue;
		for (k = 0; k < tn->npk; k++) {	/* into the TX pipeline */
			if (e->txqlen == PIPEQ) {
				fail(s, SSP_ERR_LIMIT, "more than 4096 packets "
				    "being sent", n->name);
				return;
			}
			e->txq[(e->txqhead + e->txqlen++) % PIPEQ] = (struct txpkt){
			    tn->pk[k], op->cause };
		}
		free(tn->pk);
		tn->pk = NULL;
		tn->npk = 0;
		/* new dma_write (the completion), then the dma_read_data
		 * chain: its objects in order (each constructor makes the
		 * next first), then their buffers from the last back */
		if ((c = op_new(s, n, 64)) == NULL)
			return;
		c->q = W_COMPL;
		c->pos = op->pos + i;
		c->addr = caddr;
		c->len = tn->len;
		c->arg = tn->addr;	/* what its bytes say */
		nchunk = (tn->len + MAX_DMA - 1) / MAX_DMA;
		for (k = 0; k < nchunk; k++)
			if ((ch[k] = op_new(s, n, 0)) == NULL)
				return;
		for (k = nchunk; k-- > 0;) {
			unsigned len = k + 1 < nchunk ? MAX_DMA : tn->len -
			    MAX_DMA * (nchunk - 1);

			if (len <= 72)
				ch[k]->dbuf = ssp_synheap_alloc(&e->heap, 0, CHUNK, 0);
			ch[k]->len = len;
		}
		for (k = 0; k < nchunk; k++) {
			ch[k]->ext = k + 1 == nchunk ? c : NULL;
			issue(s, n, t, ch[k], 0, tn->addr + (uint64_t)MAX_DMA * k,
			    ch[k]->len, op->cause, DC_ENSO_DATA, NULL, NULL);
		}
	}
}

/* dma_read_data::done: the last one issues the completion, then
 * tx_pipeline::enqueue_data sends every packet whose (64-byte aligned)
 * end has arrived. */
static void
data_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	struct synenso *e = n->enso;
	struct dmaop *c = op->ext;

	if (c != NULL) {	/* the notification back, signal 0 */
		uint8_t d[64];

		notif_bytes(d, 0, c->arg, c->len);
		issue(s, n, t, c, 1, c->addr, 64, op->cause, DC_ENSO_WR, NULL, d);
	}
	dev_line(n, t, "TX pipeline: enqueue data len=0x", op->len);
	e->txgot += op->len;
	while (e->txqlen > 0) {
		struct txpkt *tp = &e->txq[e->txqhead];
		unsigned al = aligned(tp->pk->frame);

		if (al > e->txgot)
			break;
		e->txgot -= al;
		e->txqhead = (e->txqhead + 1) % PIPEQ;
		e->txqlen--;
		dev_line(n, t, "TX: sending packet to ethernet len=", tp->pk->frame);
		ssp_synnicbm_eth_tx(s, n, t, tp->pk, tp->cause);
	}
}

static void
dma_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	struct synenso *e = n->enso;
	char *p = ssp_synnicbm_begin(n, t);

	p = ssp_synlog_put_str(p, op->write ? "completed dma write op 0x" :
	    "completed dma read op 0x");
	p = ssp_synlog_put_hex(p, op->ptr);
	p = ssp_synnicbm_addr(n, p, op->addr);
	p = ssp_synlog_put_str(p, " len ");
	p = ssp_synlog_put_u64(p, op->len);
	ssp_synnicbm_end(n, p, op->write ? SSP_EV_NIC_DMA_DONE_WR :
	    SSP_EV_NIC_DMA_DONE_RD);
	/* DmaComplete runs before nicbm counts the DMA done */
	if (op->cont == DC_ENSO_TXN)
		tx_notifs(s, n, t, op);
	else if (op->cont == DC_ENSO_DATA)
		data_done(s, n, t, op);
	n->pending--;
	op_delete(n, op);
	if (e->dqlen > 0 && n->pending < MAX_PENDING) {	/* DmaTrigger */
		struct dmaop *q = e->dq[e->dqhead];

		e->dqhead = (e->dqhead + 1) % NIC_MAXOPS;
		e->dqlen--;
		ssp_synnicbm_dma_dequeue(s, n, t, q);
	}
}

/* --- the host: QEMU and Ensō's library ----------------------------------- */

static int64_t
react(struct host *h)
{
	/* a busy loop notices a memory write within an iteration or two */
	return 80 * NS + (int64_t)ssp_synrng_below(&h->rng, 240) * NS;
}

#define MMIO_COST (45 * NS)	/* a trapped access in QEMU */

/* DevBackend::mmio_write32/read32 through simbricks-pci: the line, the
 * host.mmio span (a root by the rules: real cause `cause`), the message. */
static void
app_mmio(struct syn *s, struct host *h, int64_t t, int write, uint32_t off,
    uint32_t val, uint64_t cause)
{
	struct nic_mmio *m;
	char key[32];
	uint64_t span;

	snprintf(key, sizeof(key), "%" PRIu64, ssp_synqemu_mmio(h->qemu, t,
	    write, off, 4, val));
	span = ssp_synmodel_span(s, h->stream, SSP_SK_HOST_MMIO, t, key, cause, 0);
	if ((m = calloc(1, sizeof(*m))) == NULL) {
		fail(s, SSP_ERR_NOMEM, "out of memory", h->name);
		return;
	}
	*m = (struct nic_mmio){ span, write, 0, off, 4, val, 0, NULL, 0 };
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_NIC_MMIO, h->idx, 0, m);
}

static void
app_wake(struct syn *s, struct host *h, int64_t t)
{
	struct app *a = &h->nic->enso->app;
	int64_t at = t + react(h);

	if (a->sched || a->blocked)
		return;
	if (at < a->busy)
		at = a->busy;
	a->sched = 1;
	ssp_synmodel_schedule(s, at, EV_ENSO_APP, h->idx, 0, NULL);
}

/* __send_to_queue: TX notifications for [addr, addr + len) (split at
 * kMaxTransferLen and at the huge page's end, where the address wraps
 * to the page's start), then the TX tail register. */
static int64_t
send_to_queue(struct syn *s, struct host *h, int64_t t, uint64_t addr,
    uint32_t len, struct pkt **pk, unsigned npk, uint64_t cause)
{
	struct app *a = &h->nic->enso->app;
	uint64_t base = addr & ~((uint64_t)HUGEPAGE - 1), xa = addr;
	uint32_t missing = len;

	while (missing > 0) {
		uint32_t req = missing < MAX_XFER ? missing : MAX_XFER;
		uint32_t inpage = (uint32_t)(base + HUGEPAGE - xa);
		struct txn *tn;

		if (((a->txhead - a->txtail - 1) % NOTIF_SLOTS) == 0 ||
		    ((a->txtail - a->txhead) % NOTIF_SLOTS) >= WIN - 1) {
			fail(s, SSP_ERR_LIMIT, "TX notification buffer full",
			    h->name);
			return t;
		}
		if (req > inpage)
			req = inpage;
		tn = &a->slot[a->txtail % WIN];
		*tn = (struct txn){ 1, xa, req, 0, missing > req, NULL, 0 };
		if (missing == req) {	/* the packets go with the last part */
			tn->pk = pk;
			tn->npk = npk;
		}
		xa = base + (xa + req) % HUGEPAGE;
		a->txtail = (a->txtail + 1) % NOTIF_SLOTS;
		missing -= req;
	}
	app_mmio(s, h, t, 1, NOTIF_REGS + R_TX_TAIL, a->txtail, cause);
	return t + MMIO_COST;
}

/* send_config: one configuration notification and the tail. */
static void
send_config(struct syn *s, struct host *h, int64_t t, unsigned cfg)
{
	struct app *a = &h->nic->enso->app;

	a->slot[a->txtail % WIN] = (struct txn){ 2, 0, 64, cfg, 0, NULL, 0 };
	a->txtail = (a->txtail + 1) % NOTIF_SLOTS;
	app_mmio(s, h, t, 1, NOTIF_REGS + R_TX_TAIL, a->txtail, 0);
}

/* update_tx_head: notifications the NIC has written back (signal 0), up
 * to a batch; returns the completions to report (a split transfer's
 * first part is none). */
static unsigned
tx_head(struct app *a)
{
	unsigned i, done = 0;

	for (i = 0; i < BATCH && a->txhead != a->txtail; i++) {
		struct txn *tn = &a->slot[a->txhead % WIN];

		if (tn->signal != 0)
			break;
		if (!tn->split && tn->cfg == 0)
			done++;
		a->txhead = (a->txhead + 1) % NOTIF_SLOTS;
	}
	return done;
}

/* __get_new_tails: up to a batch of notifications; their pipe's tail;
 * the buffer's head written back.  Returns how many, the host.dma of the
 * first in *cause. */
static unsigned
new_tails(struct syn *s, struct host *h, int64_t *t, uint64_t *cause)
{
	struct app *a = &h->nic->enso->app;
	unsigned k;

	for (k = 0; k < BATCH && a->llen > 0; k++) {
		struct landed *l = &a->land[a->lhead];

		if (k == 0)
			*cause = l->span;
		a->pend = l->tail;
		a->pend_span = l->span;
		a->lhead = (a->lhead + 1) % LANDQ;
		a->llen--;
		a->nhead = (a->nhead + 1) % NOTIF_SLOTS;
	}
	if (k > 0) {
		app_mmio(s, h, *t, 1, NOTIF_REGS + R_RX_HEAD, a->nhead, *cause);
		*t += MMIO_COST;
	}
	return k;
}

/* The packets between the consumed tail and the notified one. */
static unsigned
take_batch(struct syn *s, struct host *h, struct pkt ***out, uint32_t *bytes)
{
	struct app *a = &h->nic->enso->app;
	uint32_t flits = (a->pend - a->ptail) % PIPE_FLITS, got = 0;
	struct pkt **v = NULL;
	unsigned npk = 0;

	if (flits > 0 && (v = malloc(a->ilen * sizeof(*v) + 1)) == NULL) {
		fail(s, SSP_ERR_NOMEM, "out of memory", h->name);
		return 0;
	}
	while (got < flits && a->ilen > 0) {
		struct inpipe *ip = &a->in[a->ihead];

		got += ip->flits;
		v[npk++] = ip->pk;
		a->ihead = (a->ihead + 1) % PIPEQ;
		a->ilen--;
	}
	a->ptail = a->pend;
	*bytes = 64 * flits;
	*out = v;
	return npk;
}

/* echo.cpp's loop, one PeekPkts (ProcessCompletions first) and the
 * SendAndFree of what it got. */
static int64_t
echo_iter(struct syn *s, struct host *h, int64_t t)
{
	struct app *a = &h->nic->enso->app;
	uint64_t cause = 0;
	uint32_t freed = 0, bytes, start = a->ptail;
	struct pkt **v;
	unsigned i, done = tx_head(a), npk;

	for (i = 0; i < done && a->ptlen > 0; i++) {	/* NotifyCompletion */
		freed += a->pending_tx[a->pthead];
		a->pthead = (a->pthead + 1) % WIN;
		a->ptlen--;
	}
	if (freed > 0) {	/* the RX pipe gets the space back: advance_pipe */
		a->phead = (a->phead + (freed - 1) / 64 + 1) % PIPE_FLITS;
		app_mmio(s, h, t, 1, R_RX_HEAD, a->phead, a->compl_span);
		t += MMIO_COST;
	}
	new_tails(s, h, &t, &cause);
	npk = take_batch(s, h, &v, &bytes);
	if (npk == 0) {
		free(v);
		return t;
	}
	for (i = 0; i < npk; i++) {	/* ++pkt[63]: the same frame back */
		struct pkt *pk = ssp_synmodel_pkt_new(s, PK_RESP);

		if (pk == NULL)
			break;
		*pk = *v[i];
		pk->kind = v[i]->kind == PK_REQ ? PK_RESP : v[i]->kind;
		pk->refs = 1;
		pk->tx_span = 0;
		ssp_synmodel_pkt_put(v[i]);
		v[i] = pk;
		t += 10 * NS;
	}
	if (a->ptlen == WIN) {
		fail(s, SSP_ERR_LIMIT, "more than 512 transfers pending", h->name);
		return t;
	}
	a->pending_tx[(a->pthead + a->ptlen++) % WIN] = bytes;
	return send_to_queue(s, h, t, a->pbuf + 64ull * start, bytes, v, npk,
	    a->pend_span);
}

/* EnsoGen's request whose echo this is: one fewer to wait for. */
static void
echo_seen(struct syn *s, struct host *h, const struct pkt *pk, int64_t t)
{
	struct app *a = &h->nic->enso->app;
	unsigned i;

	if (pk->kind != PK_RESP || pk->src_host != (int)h->idx)
		return;
	for (i = 0; i < a->nout; i++)
		if (a->out[i].req == pk->req) {
			if (--a->out[i].left == 0) {
				ssp_synmodel_request_done(s, pk->req, t);
				a->out[i] = a->out[--a->nout];
			}
			return;
		}
}

/* ensogen.cpp single core: receive_pkts (recv_select, free_enso_pipe),
 * then transmit_pkts. */
static int64_t
gen_iter(struct syn *s, struct host *h, int64_t t)
{
	struct app *a = &h->nic->enso->app;
	uint64_t cause = 0;
	uint32_t bytes;
	struct pkt **v;
	unsigned i, npk;

	if (a->ids == 0)
		a->ids += new_tails(s, h, &t, &cause);
	if (a->ids > 0) {
		a->ids--;
		npk = take_batch(s, h, &v, &bytes);
		for (i = 0; i < npk; i++) {
			echo_seen(s, h, v[i], t);
			ssp_synmodel_pkt_put(v[i]);
		}
		free(v);
		if (bytes > 0) {	/* advance_pipe */
			a->phead = (a->phead + (bytes - 1) / 64 + 1) % PIPE_FLITS;
			app_mmio(s, h, t, 1, R_RX_HEAD, a->phead, a->pend_span);
			t += MMIO_COST;
		}
	}
	/* transmit_pkts reclaims notifications once many are pending (its
	 * update_tx_head reads memory only: no line) */
	if ((a->txtail - a->txhead) % NOTIF_SLOTS > WIN / 2)
		tx_head(a);
	if (a->sqlen > 0) {
		struct pkt **pk = a->sendq[a->sqhead];
		unsigned n = a->sqn[a->sqhead], len = 0;

		a->sqhead = (a->sqhead + 1) % SENDQ;
		a->sqlen--;
		for (i = 0; i < n; i++)
			len += aligned(pk[i]->frame);
		/* the pcap's packets, copied cache-aligned into a buffer
		 * after the RX pipe in its huge page's neighbour */
		t = send_to_queue(s, h, t, a->pbuf + HUGEPAGE, len, pk, n, 0);
	}
	return t;
}

/* The setup of echo.cpp / ensogen.cpp, in order: notification_buf_init,
 * enso_pipe_init (whose update_fallback_queues_config is a
 * configuration), then Bind (echo) or the rate limit and round robin
 * (EnsoGen). */
static void
script(struct app *a)
{
	const uint32_t N = NOTIF_REGS;
	uint64_t tx = a->nbuf + HUGEPAGE / 2;
	struct astep st[] = {
		{ 'W', N + R_RX_LO, 0, 0 }, { 'W', N + R_RX_HI, 0, 0 },
		{ 'R', N + R_RX_LO, 0, 0 }, { 'R', N + R_RX_HI, 0, 0 },
		{ 'W', N + R_RX_TAIL, 0, 0 }, { 'R', N + R_RX_TAIL, 0, 0 },
		{ 'W', N + R_RX_HEAD, 0, 0 }, { 'R', N + R_RX_HEAD, 0, 0 },
		{ 'R', N + R_RX_HEAD, 0, 0 }, { 'R', N + R_TX_TAIL, 0, 0 },
		{ 'W', N + R_TX_HEAD, 0, 0 },
		{ 'W', N + R_RX_LO, (uint32_t)a->nbuf, 0 },
		{ 'W', N + R_RX_HI, (uint32_t)(a->nbuf >> 32), 0 },
		{ 'W', N + R_TX_LO, (uint32_t)tx, 0 },
		{ 'W', N + R_TX_HI, (uint32_t)(tx >> 32), 0 },
		{ 'W', R_RX_LO, 0, 0 }, { 'W', R_RX_HI, 0, 0 },
		{ 'R', R_RX_LO, 0, 0 }, { 'R', R_RX_HI, 0, 0 },
		{ 'W', R_RX_TAIL, 0, 0 }, { 'R', R_RX_TAIL, 0, 0 },
		{ 'W', R_RX_HEAD, 0, 0 }, { 'R', R_RX_HEAD, 0, 0 },
		{ 'W', R_RX_LO, (uint32_t)a->pbuf + 0 /* + buffer id 0 */, 0 },
		{ 'W', R_RX_HI, (uint32_t)(a->pbuf >> 32), 0 },
		{ 'C', 0, 0, CFG_FALLBACK },
	};
	unsigned i;

	a->nscript = 0;
	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++)
		a->script[a->nscript++] = st[i];
	if (a->client) {
		a->script[a->nscript++] = (struct astep){ 'C', 0, 0, CFG_RATE };
		a->script[a->nscript++] = (struct astep){ 'C', 0, 0, CFG_FALLBACK };
	} else {
		a->script[a->nscript++] = (struct astep){ 'C', 0, 0, CFG_FLOW };
	}
}

/* The next setup step; 1 while the setup goes on. */
static int
setup_step(struct syn *s, struct host *h, int64_t t)
{
	struct app *a = &h->nic->enso->app;
	const struct astep *st;

	if (a->pc == a->nscript) {
		a->ready = 1;
		return 0;
	}
	st = &a->script[a->pc++];
	if (st->op == 'C') {
		send_config(s, h, t, st->cfg);
		a->blocked = 1;		/* until its completion is written */
		return 1;
	}
	app_mmio(s, h, t, st->op == 'W', st->off, st->val, 0);
	if (st->op == 'R') {
		a->blocked = 1;		/* QEMU waits for a read */
		return 1;
	}
	a->sched = 1;
	ssp_synmodel_schedule(s, t + MMIO_COST, EV_ENSO_APP, h->idx, 0, NULL);
	return 1;
}

static void
app_run(struct syn *s, struct host *h, int64_t t)
{
	struct app *a = &h->nic->enso->app;

	a->sched = 0;
	if (!a->ready && setup_step(s, h, t))
		return;
	if (!a->ready)
		return;
	t = a->client ? gen_iter(s, h, t) : echo_iter(s, h, t);
	a->busy = t;
	/* more left than one iteration takes */
	if (a->llen > 0 || a->ids > 0 || a->sqlen > 0) {
		a->sched = 1;
		ssp_synmodel_schedule(s, t + 20 * NS, EV_ENSO_APP, h->idx, 0,
		    NULL);
	}
}

/* QEMU serves a DMA: the line, the host.dma span, and for a write what
 * it puts into memory, which the polling application finds. */
static void
host_dma(struct syn *s, struct host *h, int64_t t, struct dmaop *op)
{
	struct app *a = &h->nic->enso->app;
	char key[32];
	uint64_t span;

	snprintf(key, sizeof(key), "%" PRIu64, ssp_synqemu_dma(h->qemu, t,
	    op->write));
	span = ssp_synmodel_span(s, h->stream, SSP_SK_HOST_DMA, t, key, op->span,
	    op->span);
	ssp_synmodel_schedule(s, t + 15 * NS + (int64_t)op->len * 125 / 2,
	    EV_HOST_DMA_DONE, h->idx, 0, op);
	if (!op->write)
		return;
	switch (op->q) {
	case W_DATA:
		if (a->ilen == PIPEQ) {
			fail(s, SSP_ERR_LIMIT, "more than 4096 packets in a pipe",
			    h->name);
			return;
		}
		a->in[(a->ihead + a->ilen++) % PIPEQ] = (struct inpipe){ op->pk,
		    op->pos };
		op->pk = NULL;
		return;
	case W_NOTIF:
		if (a->llen == LANDQ) {
			fail(s, SSP_ERR_LIMIT, "more than 1024 notifications "
			    "unread", h->name);
			return;
		}
		a->land[(a->lhead + a->llen++) % LANDQ] = (struct landed){ op->pos,
		    span };
		break;
	case W_COMPL:
		a->slot[op->pos % WIN].signal = 0;
		a->compl_span = span;
		if (!a->ready && a->blocked) {	/* send_config's wait */
			a->blocked = 0;
			app_wake(s, h, t);
			return;
		}
		break;
	}
	if (a->ready)
		app_wake(s, h, t);
}

void
ssp_synenso_event(struct syn *s, const struct sev *ev)
{
	struct host *h = &s->hosts[ev->who];
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
	case EV_NIC_INFO:
		ssp_synnic_event(s, ev);
		break;
	case EV_HOST_SYNC:
		if (s->ending && ev->t > s->end)
			break;
		ssp_synqemu_sync(h->qemu, ev->t);
		ssp_synmodel_schedule(s, ev->t + s->p->sync_interval, EV_HOST_SYNC,
		    h->idx, 0, NULL);
		break;
	case EV_HOST_MMIO_DONE: {
		struct nic_mmio *m = ev->p;
		struct app *a = &n->enso->app;
		int read = !m->write;

		ssp_synqemu_mmio_done(h->qemu, ev->t, m->write, m->off, m->len,
		    m->val);
		free(m);
		if (read && a->blocked) {	/* the vCPU goes on */
			a->blocked = 0;
			a->sched = 1;
			ssp_synmodel_schedule(s, ev->t + MMIO_COST, EV_ENSO_APP,
			    h->idx, 0, NULL);
		}
		break;
	}
	case EV_HOST_DMA:
		host_dma(s, h, ev->t, ev->p);
		break;
	case EV_HOST_DMA_DONE:
		ssp_synmodel_schedule(s, ev->t + s->p->pcie_lat, EV_NIC_DMA_DONE,
		    h->idx, 0, ev->p);
		break;
	case EV_ENSO_APP:
		app_run(s, h, ev->t);
		break;
	default:
		break;
	}
}

void
ssp_synenso_send(struct syn *s, struct host *h, struct pkt *pk)
{
	struct app *a = &h->nic->enso->app;
	unsigned k, n = s->p->enso_pkts;
	struct pkt **v;

	if (a->sqlen == SENDQ || a->nout == OUTQ) {
		fail(s, SSP_ERR_LIMIT, "more than 256 transfers waiting", h->name);
		ssp_synmodel_pkt_put(pk);
		return;
	}
	if ((v = calloc(n, sizeof(*v))) == NULL) {
		fail(s, SSP_ERR_NOMEM, "out of memory", h->name);
		ssp_synmodel_pkt_put(pk);
		return;
	}
	/* the pcap's frames: to Ensō's base address and port, MAC addresses
	 * no port has, so net_switch floods them (and their echoes) */
	pk->dip = BASE_IP;
	pk->dport = DST_PORT;
	pk->smac = 0x0cc47a000001ull + h->idx;
	pk->dmac = 0x0cc47affff01ull;
	pk->broadcast = 1;
	pk->dst_host = -1;
	pk->iplen = 28 + pk->payload;
	pk->frame = 14 + pk->iplen;
	v[0] = pk;
	for (k = 1; k < n; k++) {
		if ((v[k] = ssp_synmodel_pkt_new(s, PK_REQ)) == NULL) {
			free(v);
			return;
		}
		*v[k] = *pk;
		v[k]->refs = 1;
		v[k]->ipid = (uint16_t)(pk->ipid + k);
	}
	a->sendq[(a->sqhead + a->sqlen) % SENDQ] = v;
	a->sqn[(a->sqhead + a->sqlen) % SENDQ] = n;
	a->sqlen++;
	a->out[a->nout++] = (struct outreq){ pk->req, n };
	if (a->ready)
		app_wake(s, h, s->now);
}

int
ssp_synenso_init(struct syn *s, struct nic *n)
{
	struct synenso *e;
	struct app *a;

	ssp_synnic_init(s, n);
	ssp_synrng_seed(&n->h->rng, s->p->seed, 100 + n->h->idx);
	if ((e = calloc(1, sizeof(*e))) == NULL)
		return ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
	n->enso = e;
	a = &e->app;
	ssp_synheap_init(&e->heap, 0x55c000000000ull +
	    (ssp_synrng_below(&n->rng, 0x4000) << 20) + 0x2a0);
	a->client = !n->h->server;
	/* huge pages: notification buffers (RX half, TX half), the pipe */
	a->nbuf = 0x100000000ull + (ssp_synrng_below(&n->rng, 1024) << 21);
	a->pbuf = 0x180000000ull + (ssp_synrng_below(&n->rng, 1024) << 22);
	script(a);
	return SSP_OK;
}

void
ssp_synenso_start(struct syn *s, struct nic *n)
{
	struct host *h = n->h;

	ssp_synnic_start(s, n);
	ssp_synmodel_schedule(s, 0, EV_HOST_SYNC, h->idx, 0, NULL);
	/* the application starts (echo sleeps a second first: well before
	 * the requests, which the model starts at t0) */
	n->enso->app.sched = 1;
	ssp_synmodel_schedule(s, s->t0 / 8 + (int64_t)ssp_synrng_below(&h->rng,
	    1000) * NS, EV_ENSO_APP, h->idx, 0, NULL);
}

void
ssp_synenso_finish(struct syn *s, struct nic *n)
{
	ssp_synnic_finish(s, n);
}

void
ssp_synenso_free(struct nic *n)
{
	struct synenso *e = n->enso;
	unsigned i, k;

	if (e == NULL)
		return;
	for (i = 0; i < e->app.ilen; i++)
		ssp_synmodel_pkt_put(e->app.in[(e->app.ihead + i) % PIPEQ].pk);
	for (i = 0; i < e->app.sqlen; i++) {
		unsigned q = (e->app.sqhead + i) % SENDQ;

		for (k = 0; k < e->app.sqn[q]; k++)
			ssp_synmodel_pkt_put(e->app.sendq[q][k]);
		free(e->app.sendq[q]);
	}
	for (i = 0; i < e->txqlen; i++)
		ssp_synmodel_pkt_put(e->txq[(e->txqhead + i) % PIPEQ].pk);
	for (i = 0; i < WIN; i++) {
		for (k = 0; k < e->app.slot[i].npk; k++)
			ssp_synmodel_pkt_put(e->app.slot[i].pk[k]);
		free(e->app.slot[i].pk);
	}
	free(e);
	n->enso = NULL;
}
