/*
 * Packet captures in a network stream (net_seen events, formats/events.md
 * "pcap"; formats/spans.md §3 says what spans they allow).  A capture has
 * no uid and no direction; net_switch's has no port either.  What ties its
 * records together is the packet's identity (pc_ident).
 *
 * ns-3's per-device files (dev known): each record is an instant
 * net.device span at its node and device.  The first sighting of a packet
 * at a node is a reception (or its origin), a later one at that node a
 * send (a bridge or router forwarding it).  Parent of a send: the
 * reception at the node.  Parent of a reception: the device at the other
 * end of an n2n row, when there is one and it saw the packet; else the
 * latest send of the packet anywhere.  The first sighting of all at a
 * device with an eth link takes the NIC's tx context; a later one there
 * hands its context to the NIC.
 *
 * net_switch's -p file (dev SSP_PCAPIN_ANY): one record per copy the
 * switch forwards, all copies of one packet at the same time.  The first
 * copy makes an ingress span too (without a member event), at the port
 * the packet came in by: the port its source MAC was learned at, else
 * the port whose queued tx context (a NIC's, or the other switch's
 * across an n2n row) is the oldest that fits the frame.  Each copy is an egress span under the
 * ingress.  Its port: the port the destination MAC was learned at; for a
 * flood whose copies are as many as the topology's other ports, those
 * ports in ascending order (the order net_switch sends them in); else it
 * stays unplaced until the NIC that receives a frame of its length claims
 * it (ssp_spanb_pcap_rx), or the switch across an n2n row takes it in by
 * identity, or it is older than PC_WINDOW (then its port stays unknown).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "span/spanb_int.h"

#define ANY 0xffffffffu			/* source/pcapin.h: SSP_PCAPIN_ANY */
#define PC_WINDOW 100000000LL		/* ps (100 us): a copy reaches its NIC */
/* b->chain keys of ns-3 capture sightings: a device's (stream st), a
 * node's first (the reception), the latest send (both stream PC_ST) */
#define PC_ST UINT32_MAX
#define K_DEV(n, d) (1ULL << 62 | (((uint64_t)(n) << 32 | (d)) & ((1ULL << 61) - 1)))
#define K_NODE(n) (3ULL << 61 | (uint64_t)(n))
#define K_SEND (UINT64_MAX >> 1)

struct unpl {			/* a switch copy whose port is not known yet */
	struct span *s;		/* NULL: taken */
	uint64_t id, dmac;
	int64_t ts;
	uint32_t len;
	int held;		/* finished (the stream ended): un[] holds a
				 * reference for the NIC that takes it */
};

struct ssp_spanb_pcap {
	uint32_t *port;		/* the switch's ports in the topology, ascending */
	size_t nport;
	int have_ports;
	struct ssp_map3 mac;	/* (MAC, 0, 0) -> port + 1 */
	/* the packet whose copies the last records are */
	int g_on;
	int64_t g_ts;
	uint64_t g_id, g_dmac;
	uint32_t g_in, g_n, g_direct;
	size_t g_first;		/* its first unplaced copy in un[] */
	struct span *g_ing;	/* its ingress span (a reference) */
	struct unpl *un;	/* un[uh..nun): unplaced copies, oldest first */
	size_t uh, nun, cun;
};

static uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v * 0x9e3779b97f4a7c15ULL;
	return (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL;
}

/* A packet's identity in a capture, the same at every hop: IPv4 addresses,
 * protocol, id, ports and length; ARP (and other Ethernet frames) the MACs,
 * the EtherType and the protocol addresses.  0: nothing to go by. */
static uint64_t
pc_ident(const struct ssp_rec *ev)
{
	const uint64_t *f = ev->f;
	uint64_t h;

	if (f[SSP_F_NET_IP_LEN] != 0) {
		h = mix(0x0800, f[SSP_F_NET_IP_SRC] << 32 | f[SSP_F_NET_IP_DST]);
		h = mix(h, (f[SSP_F_NET_IP_PROTO] & 0xff) << 48 |
		    (f[SSP_F_NET_IP_ID] & 0xffff) << 32 | f[SSP_F_NET_IP_LEN]);
		h = mix(h, f[SSP_F_NET_SPORT] << 16 | f[SSP_F_NET_DPORT]);
	} else if (f[SSP_F_NET_ETH_TYPE] != 0) {
		h = mix(f[SSP_F_NET_ETH_TYPE], f[SSP_F_NET_ETH_SRC]);
		h = mix(h, f[SSP_F_NET_ETH_DST]);
		h = mix(h, f[SSP_F_NET_IP_SRC] << 32 | f[SSP_F_NET_IP_DST]);
	} else {
		return 0;
	}
	return h | 1;
}

/* The frame's length on Ethernet as a NIC counts it (0: unknown). */
static uint32_t
pc_flen(const struct ssp_rec *ev)
{
	if (ev->f[SSP_F_NET_ETH_TYPE] == 0x0800 && ev->f[SSP_F_NET_IP_LEN] != 0)
		return (uint32_t)ev->f[SSP_F_NET_IP_LEN] + 14;
	if (ev->f[SSP_F_NET_ETH_TYPE] == 0x0806)
		return 42;
	return 0;
}

static int
len_fits(uint32_t want, uint64_t got)
{
	return want == 0 || got == 0 || got == want || (want < 60 && got == 60);
}

#define UNICAST(mac) ((mac) != 0 && !((mac) >> 40 & 1))

static struct ssp_spanb_pcap *
pc_of(struct ssp_spanb *b, unsigned st)
{
	struct wstate *w = net_of(b, st);

	if (w->pc == NULL && (w->pc = calloc(1, sizeof(*w->pc))) == NULL)
		nomem(b);
	return w->pc;
}

/* Remember s under (id, k2, k3) in b->chain (a reference; packet-idle
 * sweeps forget it). */
static void
pc_put(struct ssp_spanb *b, uint64_t id, uint64_t k2, uint32_t k3,
    struct span *s)
{
	void *o;

	if (ssp_map3_put(&b->chain, id, k2, k3, s, &o) != 0) {
		nomem(b);
		return;
	}
	ref(s);
	if (o != NULL)
		unref(b, o);
}

/* --- ns-3's per-device captures -------------------------------------------- */

/* Finish the sightings held for a tie (dev_event). */
static void
hold_flush(struct ssp_spanb *b)
{
	struct span *s;

	while ((s = ssp_fifo_pop(&b->pc_hold)) != NULL)
		ssp_spanb_done(b, s);
}

static void
dev_event(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	uint64_t id = pc_ident(ev);
	uint32_t node = (uint32_t)ev->f[SSP_F_NET_NODE];
	uint32_t dev = (uint32_t)ev->f[SSP_F_NET_DEV];
	struct elink *el = ssp_spanb_net_elink(b, st, node, dev);
	struct span *s, *at, *p = NULL, *c = NULL;
	int from_nic = 0, tie;

	if (b->pc_hold.n != 0 && ev->ts > b->pc_hold_ts)
		hold_flush(b);
	if (id == 0) {
		drop(b, st, SSP_DROP_NO_UID);
		return;
	}
	at = ssp_map3_get(&b->chain, id, K_NODE(node), PC_ST);
	if (el != NULL && el->peer != NULL)
		p = ssp_map3_get(&b->chain, id, K_DEV(el->peer->node,
		    el->peer->dev), el->peer->net);
	/* A tie: at this node's first sighting, at this time, was taken
	 * for the reception, but this one's n2n peer saw the packet: this is
	 * the reception and at the send (a router forwards it in no time). */
	tie = p != NULL && at != NULL && at->state == ST_OPEN &&
	    at->start == ev->ts;
	if (p == NULL)
		p = at != NULL ? at : ssp_map3_get(&b->chain, id, K_SEND, PC_ST);
	if (p == NULL && el != NULL && el->peer == NULL) {
		c = ssp_fifo_pop(&el->tx);	/* the NIC sent it */
		from_nic = 1;
	}
	if ((s = ssp_spanb_mk(b, SSP_SK_NET_DEVICE, st, ev->ts)) == NULL) {
		if (c != NULL)
			unref(b, c);
		return;
	}
	if (p != NULL)
		set_parent(s, p);
	else if (c != NULL)
		s->parent = c;
	else
		orphan(s, from_nic ? SSP_CAUSE_TX : SSP_CAUSE_PACKET);
	add_ev(b, s, ev);
	ssp_spanb_net_attrs(b, st, s, ev, 1);
	pc_put(b, id, K_DEV(node, dev), st, s);
	if (tie) {
		if (at->parent != NULL)
			unref(b, at->parent);
		at->flags &= (uint8_t)~SSP_SPAN_ORPHAN;
		at->cause = 0;
		set_parent(at, s);
		pc_put(b, id, K_NODE(node), PC_ST, s);
		pc_put(b, id, K_SEND, PC_ST, at);
	} else {
		if (at == NULL)
			pc_put(b, id, K_NODE(node), PC_ST, s);
		if (at != NULL || p == NULL)	/* a send, or the origin */
			pc_put(b, id, K_SEND, PC_ST, s);
	}
	if (el != NULL && el->peer == NULL && !from_nic)
		el_out(b, el, s);		/* on to the NIC */
	if (b->now >= b->next_sweep)
		ssp_spanb_net_sweep(b);
	if (at == NULL && !tie) {	/* may turn out to be a send: held */
		if (b->pc_hold.n == 0)
			b->pc_hold_ts = ev->ts;
		if (ssp_fifo_push(&b->pc_hold, s) != 0) {
			nomem(b);
			ssp_spanb_done(b, s);
		}
		return;
	}
	ssp_spanb_done(b, s);
}

/* --- net_switch's -p capture --------------------------------------------- */

static int
by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The switch's ports: the devices of its eth and n2n rows. */
static void
sw_ports(struct ssp_spanb *b, unsigned st, struct ssp_spanb_pcap *pc,
    uint32_t node)
{
	size_t i, n = 0;

	pc->have_ports = 1;
	if ((pc->port = malloc((b->nel ? b->nel : 1) * sizeof(*pc->port))) == NULL) {
		nomem(b);
		return;
	}
	for (i = 0; i < b->nel; i++)
		if (b->el[i].net == st && b->el[i].node == node)
			pc->port[n++] = b->el[i].dev;
	qsort(pc->port, n, sizeof(*pc->port), by_u32);
	for (i = 0, pc->nport = 0; i < n; i++)
		if (pc->nport == 0 || pc->port[pc->nport - 1] != pc->port[i])
			pc->port[pc->nport++] = pc->port[i];
}

static void
learn(struct ssp_spanb *b, struct ssp_spanb_pcap *pc, uint64_t mac,
    uint32_t port)
{
	void *o;

	if (UNICAST(mac) && port != ANY &&
	    ssp_map3_put(&pc->mac, mac, 0, 0, (void *)(uintptr_t)(port + 1ULL),
	    &o) != 0)
		nomem(b);
}

static uint32_t
learned(const struct ssp_spanb_pcap *pc, uint64_t mac)
{
	void *v = UNICAST(mac) ? ssp_map3_get(&pc->mac, mac, 0, 0) : NULL;

	return v != NULL ? (uint32_t)((uintptr_t)v - 1) : ANY;
}

/* Copy u goes out by port (ANY: unknown for good): finish it. */
static void
place(struct ssp_spanb *b, unsigned st, struct unpl *u, uint32_t port)
{
	struct span *s = u->s;
	struct elink *el;

	u->s = NULL;
	if (!u->held)
		SA(s, SSP_SA_NET_DEV) = port;
	if (port != ANY) {
		el = ssp_spanb_net_elink(b, st, SA(s, SSP_SA_NET_NODE), port);
		if (el != NULL)
			el_out(b, el, s);
		else
			b->st.ctx_nowhere[SSP_CTX_RX]++;
	}
	if (u->held)
		unref(b, s);
	else
		ssp_spanb_done(b, s);
}

/* Drop taken copies from the front; finish those older than the window. */
static void
un_trim(struct ssp_spanb *b, unsigned st, struct ssp_spanb_pcap *pc,
    int64_t now)
{
	while (pc->uh < pc->nun && (pc->un[pc->uh].s == NULL ||
	    pc->un[pc->uh].ts < now - PC_WINDOW)) {
		if (pc->un[pc->uh].s != NULL)
			place(b, st, &pc->un[pc->uh], ANY);
		pc->uh++;
	}
	if (pc->uh == pc->nun)
		pc->uh = pc->nun = 0;
}

/* All copies of the current packet are in: place a flood by the ports. */
static void
group_end(struct ssp_spanb *b, unsigned st, struct ssp_spanb_pcap *pc)
{
	size_t i, k, nu;

	pc->g_on = 0;
	nu = pc->g_n - pc->g_direct;
	if (nu > 0 && pc->g_direct == 0 && pc->g_first >= pc->uh) {
		size_t ne = 0;

		for (i = 0; i < pc->nport; i++)
			ne += pc->port[i] != pc->g_in;
		if (ne == nu) {
			uint32_t last = ANY;

			for (i = 0, k = pc->g_first; i < pc->nport; i++)
				if (pc->port[i] != pc->g_in)
					place(b, st, &pc->un[k++],
					    last = pc->port[i]);
			if (nu == 1)		/* a unicast: where dst is */
				learn(b, pc, pc->g_dmac, last);
		}
	}
	if (pc->g_ing != NULL) {
		unref(b, pc->g_ing);
		pc->g_ing = NULL;
	}
}

/* Take the unplaced copy of the switch of stream st that fits: the oldest
 * of identity id (id != 0) or of frame length len (id 0). */
static struct span *
un_take(struct ssp_spanb *b, unsigned st, struct ssp_spanb_pcap *pc,
    uint64_t id, uint64_t len, uint32_t port, int64_t now)
{
	size_t i;

	if (pc->g_on && now > pc->g_ts)
		group_end(b, st, pc);
	un_trim(b, st, pc, now);
	for (i = pc->uh; i < pc->nun; i++) {
		struct unpl *u = &pc->un[i];
		struct span *s = u->s;

		if (s == NULL || u->ts > now || (id != 0 ? u->id != id :
		    !len_fits(u->len, len)))
			continue;
		u->s = NULL;
		learn(b, pc, u->dmac, port);
		if (!u->held) {
			SA(s, SSP_SA_NET_DEV) = port;
			ref(s);		/* the taker's */
			ssp_spanb_done(b, s);
		}			/* else un[]'s reference is the taker's */
		return s;
	}
	return NULL;
}

/*
 * The context for a NIC's reception at time ts of a frame of len bytes
 * over eth link el: the next one the network sent on el, or a switch
 * capture's copy not placed yet (a reference, or NULL).
 */
struct span *
ssp_spanb_pcap_rx(struct ssp_spanb *b, struct elink *el, int64_t ts,
    uint64_t len)
{
	struct ssp_spanb_pcap *pc = net_of(b, el->net)->pc;
	struct span *c;

	if (b->pc_hold.n != 0 && ts > b->pc_hold_ts)
		hold_flush(b);
	if (pc != NULL && pc->g_on && ts > pc->g_ts)
		group_end(b, el->net, pc);
	if ((c = ssp_fifo_pop(&el->rx)) != NULL || pc == NULL)
		return c;
	return un_take(b, el->net, pc, 0, len, el->dev, ts);
}

/* Before looking at what came over n2n link el at time ts: the switch at
 * the other end has sent all copies of its last packet by now. */
static void
peer_settle(struct ssp_spanb *b, const struct elink *el, int64_t ts)
{
	struct ssp_spanb_pcap *ppc;

	if (el->peer != NULL && (ppc = net_of(b, el->peer->net)->pc) != NULL &&
	    ppc->g_on && ts > ppc->g_ts)
		group_end(b, el->peer->net, ppc);
}

/* The port a switch record's packet came in by, and its context. */
static uint32_t
sw_ingress(struct ssp_spanb *b, unsigned st, struct ssp_spanb_pcap *pc,
    const struct ssp_rec *ev, uint64_t id, struct span **cp)
{
	uint32_t node = (uint32_t)ev->f[SSP_F_NET_NODE], len = pc_flen(ev);
	uint32_t p = learned(pc, ev->f[SSP_F_NET_ETH_SRC]), best = ANY;
	struct span *h, *bh = NULL;
	struct elink *el;
	size_t i;

	*cp = NULL;
	if (p != ANY) {
		if ((el = ssp_spanb_net_elink(b, st, node, p)) != NULL)
			peer_settle(b, el, ev->ts);
		if (el != NULL && (*cp = ssp_fifo_pop(&el->tx)) == NULL &&
		    el->peer != NULL &&
		    net_of(b, el->peer->net)->pc != NULL)
			*cp = un_take(b, el->peer->net, net_of(b, el->peer->net)->pc,
			    id, 0, el->peer->dev, ev->ts);
		return p;
	}
	for (i = 0; i < pc->nport; i++) {
		if ((el = ssp_spanb_net_elink(b, st, node, pc->port[i])) == NULL)
			continue;
		peer_settle(b, el, ev->ts);
		if (el->tx.n != 0) {
			h = q_at(&el->tx, 0);
			if (h->start > ev->ts || (h->kind == SSP_SK_NIC_TX &&
			    !len_fits(len, SA(h, SSP_SA_NTX_LEN))) ||
			    (h->kind == SSP_SK_NET_DEVICE &&
			    (SA(h, SSP_SA_NET_IP_SRC) != ev->f[SSP_F_NET_IP_SRC] ||
			    SA(h, SSP_SA_NET_IP_DST) != ev->f[SSP_F_NET_IP_DST])))
				continue;
			if (bh == NULL || h->start < bh->start) {
				bh = h;
				best = pc->port[i];
			}
		} else if (el->peer != NULL && bh == NULL &&
		    net_of(b, el->peer->net)->pc != NULL &&
		    (*cp = un_take(b, el->peer->net, net_of(b, el->peer->net)->pc,
		    id, 0, el->peer->dev, ev->ts)) != NULL) {
			return pc->port[i];
		}
	}
	if (bh != NULL)
		*cp = ssp_fifo_pop(&ssp_spanb_net_elink(b, st, node, best)->tx);
	return best;
}

/* One more copy of the current packet. */
static void
sw_copy(struct ssp_spanb *b, unsigned st, struct ssp_spanb_pcap *pc,
    const struct ssp_rec *ev)
{
	uint32_t q = learned(pc, ev->f[SSP_F_NET_ETH_DST]);
	struct span *s;
	struct unpl *u;

	if ((s = ssp_spanb_mk(b, SSP_SK_NET_DEVICE, st, ev->ts)) == NULL)
		return;
	set_parent(s, pc->g_ing);
	if (pc->g_ing == NULL)
		orphan(s, SSP_CAUSE_PACKET);
	add_ev(b, s, ev);
	ssp_spanb_net_attrs(b, st, s, ev, 1);
	pc->g_n++;
	if (q != ANY && q != pc->g_in) {
		struct unpl d = { s, 0, 0, 0, 0, 0 };

		pc->g_direct++;
		place(b, st, &d, q);
		return;
	}
	if (pc->nun == pc->cun) {
		size_t n = pc->cun ? 2 * pc->cun : 64;
		struct unpl *nu;

		if (pc->uh > 0) {	/* slide the live part to the front */
			memmove(pc->un, pc->un + pc->uh, (pc->nun - pc->uh) *
			    sizeof(*pc->un));
			pc->g_first -= pc->g_first >= pc->uh ? pc->uh : pc->g_first;
			pc->nun -= pc->uh;
			pc->uh = 0;
		} else if ((nu = realloc(pc->un, n * sizeof(*nu))) == NULL) {
			SA(s, SSP_SA_NET_DEV) = ANY;
			pc->g_direct++;
			ssp_spanb_done(b, s);
			nomem(b);
			return;
		} else {
			pc->un = nu;
			pc->cun = n;
		}
	}
	SA(s, SSP_SA_NET_DEV) = ANY;
	u = &pc->un[pc->nun++];
	u->s = s;
	u->id = pc->g_id;
	u->dmac = ev->f[SSP_F_NET_ETH_DST];
	u->ts = ev->ts;
	u->len = pc_flen(ev);
	u->held = 0;
}

static void
sw_event(struct ssp_spanb *b, unsigned st, struct ssp_spanb_pcap *pc,
    const struct ssp_rec *ev)
{
	uint64_t id = pc_ident(ev);
	struct span *s, *c;
	uint32_t in;

	if (!pc->have_ports)
		sw_ports(b, st, pc, (uint32_t)ev->f[SSP_F_NET_NODE]);
	if (pc->g_on && ev->ts == pc->g_ts && id == pc->g_id) {
		sw_copy(b, st, pc, ev);
		return;
	}
	if (pc->g_on)
		group_end(b, st, pc);
	un_trim(b, st, pc, ev->ts);
	in = sw_ingress(b, st, pc, ev, id, &c);
	if ((s = ssp_spanb_mk(b, SSP_SK_NET_DEVICE, st, ev->ts)) == NULL) {
		if (c != NULL)
			unref(b, c);
		return;
	}
	if (c != NULL)
		s->parent = c;
	else if (in != ANY && ssp_spanb_net_elink(b, st,
	    ev->f[SSP_F_NET_NODE], in) != NULL)
		orphan(s, SSP_CAUSE_TX);
	/* else a port without a NIC, or not known: a root.  The record is
	 * the first copy's: the ingress has no member event of its own. */
	ssp_spanb_net_attrs(b, st, s, ev, 1);
	SA(s, SSP_SA_NET_DEV) = in;
	learn(b, pc, ev->f[SSP_F_NET_ETH_SRC], in);
	pc->g_on = 1;
	pc->g_ts = ev->ts;
	pc->g_id = id;
	pc->g_dmac = ev->f[SSP_F_NET_ETH_DST];
	pc->g_in = in;
	pc->g_n = pc->g_direct = 0;
	pc->g_first = pc->nun;
	pc->g_ing = s;
	ref(s);
	ssp_spanb_done(b, s);
	sw_copy(b, st, pc, ev);
}

void
ssp_spanb_pcap_event(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct ssp_spanb_pcap *pc;

	if ((uint32_t)ev->f[SSP_F_NET_DEV] != ANY) {
		dev_event(b, st, ev);
		return;
	}
	if ((pc = pc_of(b, st)) != NULL)
		sw_event(b, st, pc, ev);
}

/* The stream ended: finish the last packet and the unplaced copies (a NIC
 * may still take their contexts: they stay queued until the drain). */
void
ssp_spanb_pcap_end(struct ssp_spanb *b, unsigned st)
{
	struct ssp_spanb_pcap *pc = net_of(b, st)->pc;
	size_t i;

	if (pc == NULL)		/* held sightings wait: another stream */
		return;		/* may still have one of their time */
	if (pc->g_on)
		group_end(b, st, pc);
	for (i = pc->uh; i < pc->nun; i++)
		if (pc->un[i].s != NULL && !pc->un[i].held) {
			pc->un[i].held = 1;
			ref(pc->un[i].s);
			ssp_spanb_done(b, pc->un[i].s);
		}
}

void
ssp_spanb_pcap_drain(struct ssp_spanb *b, unsigned st)
{
	struct ssp_spanb_pcap *pc = net_of(b, st)->pc;
	size_t i;

	hold_flush(b);
	if (pc == NULL)
		return;
	for (i = pc->uh; i < pc->nun; i++)
		if (pc->un[i].s != NULL) {
			b->st.ctx_unused[SSP_CTX_RX]++;
			unref(b, pc->un[i].s);
			pc->un[i].s = NULL;
		}
	pc->uh = pc->nun = 0;
}

void
ssp_spanb_pcap_free(struct ssp_spanb *b, unsigned st)
{
	struct ssp_spanb_pcap *pc = net_of(b, st)->pc;

	ssp_fifo_free(&b->pc_hold);
	if (pc == NULL)
		return;
	free(pc->port);
	free(pc->un);
	ssp_map3_free(&pc->mac);
	free(pc);
	net_of(b, st)->pc = NULL;
}
