/*
 * The span builder's ns-3 networks (SPEC §3): a device span from each
 * enqueue to its dequeue or drop, chained hop by hop per packet uid,
 * parented at the network's edge to the NIC's tx context and handing its
 * own to the NIC it reaches; background traffic kept or left out by the
 * rules; packet chains forgotten after packet-idle.  A device at an n2n
 * link hands the context of what it sends to the device at the other end
 * (another network, or another node of this one), whose next span takes
 * it as parent.  Devices of type NetSwitch go to spanb_switch.c, capture
 * records (net_seen) to spanb_pcap.c.
 */
#include <stdint.h>
#include <string.h>

#include "span/spanb_int.h"

struct elink *
ssp_spanb_net_elink(struct ssp_spanb *b, unsigned st, uint64_t node,
    uint64_t dev)
{
	return ssp_map3_get(&b->elmap, node << 32 | (dev & 0xffffffffu), 0, st);
}

static __attribute__((noinline)) unsigned
dev_kind_new(struct ssp_spanb *b, unsigned st, uint64_t devtype,
    struct sinfo *si)
{
	size_t len;
	const char *t = text(b, st, devtype, &len);

	si->dev = len == 15 && memcmp(t, "SimpleNetDevice", 15) == 0 ?
	    DEV_SIMPLE : len == 9 && memcmp(t, "NetSwitch", 9) == 0 ?
	    DEV_SWITCH : DEV_OTHER;
	si->have |= HAVE_DEV;
	return si->dev;
}

/* What a network device type name is (DEV_*), computed once per name
 * (out of line: the lookup is all an event pays). */
static inline unsigned
dev_kind(struct ssp_spanb *b, unsigned st, uint64_t devtype)
{
	struct sinfo *si = sinfo(b, st, devtype);

	return (si->have & HAVE_DEV) ? si->dev : dev_kind_new(b, st, devtype, si);
}

void
ssp_spanb_net_attrs(struct ssp_spanb *b, unsigned st, struct span *s,
    const struct ssp_rec *ev, int first)
{
	if (first) {
		SA(s, SSP_SA_NET_NODE) = ev->f[SSP_F_NET_NODE];
		SA(s, SSP_SA_NET_DEV) = ev->f[SSP_F_NET_DEV];
		SA(s, SSP_SA_NET_DEVTYPE) = ostr(b, st,
		    ev->f[SSP_F_NET_DEVTYPE]);
		SA(s, SSP_SA_NET_UID) = ev->f[SSP_F_NET_UID];
		SA(s, SSP_SA_NET_INTERESTING) = ev->f[SSP_F_NET_INTERESTING];
		SA(s, SSP_SA_NET_PAYLOAD) = (uint64_t)-1;
		SA(s, SSP_SA_NET_IP_PROTO) = (uint64_t)-1;
	}
	if (ev->f[SSP_F_NET_BOUNDARY] != SSP_NET_INTERNAL)
		SA(s, SSP_SA_NET_BOUNDARY) = ev->f[SSP_F_NET_BOUNDARY];
	if ((int64_t)SA(s, SSP_SA_NET_PAYLOAD) < 0)
		SA(s, SSP_SA_NET_PAYLOAD) = ev->f[SSP_F_NET_PAYLOAD];
	/* The manual Ethernet header of SimpleNetDevice lines is garbage. */
	if (SA(s, SSP_SA_NET_ETH_TYPE) == 0 &&
	    dev_kind(b, st, ev->f[SSP_F_NET_DEVTYPE]) != DEV_SIMPLE)
		SA(s, SSP_SA_NET_ETH_TYPE) = ev->f[SSP_F_NET_ETH_TYPE];
	if (SA(s, SSP_SA_NET_IP_SRC) == 0 && SA(s, SSP_SA_NET_IP_DST) == 0) {
		SA(s, SSP_SA_NET_IP_SRC) = ev->f[SSP_F_NET_IP_SRC];
		SA(s, SSP_SA_NET_IP_DST) = ev->f[SSP_F_NET_IP_DST];
	}
	if ((int64_t)SA(s, SSP_SA_NET_IP_PROTO) < 0)
		SA(s, SSP_SA_NET_IP_PROTO) = ev->f[SSP_F_NET_IP_PROTO];
}

/* A packet at an adapter device: counted for its eth link, or as one of
 * a device no link names (a wrong node or device in the topology). */
static void
eth_seen(struct ssp_spanb *b, unsigned st, const struct elink *el,
    const struct ssp_rec *ev)
{
	if (el != NULL) {
		if ((size_t)(el - b->el) < b->t->neth)
			b->st.eth_seen[el - b->el]++;
		return;
	}
	if (b->st.eth_nolink++ == 0) {
		b->st.eth_nolink_net = st;
		b->st.eth_nolink_node = (uint32_t)ev->f[SSP_F_NET_NODE];
		b->st.eth_nolink_dev = (uint32_t)ev->f[SSP_F_NET_DEV];
	}
}

/*
 * A device span starts (enqueue, or a drop with no enqueue before it).
 * Returns NULL when the event is not traced (background, dropped here).
 */
static struct span *
net_start(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	int interesting = ev->f[SSP_F_NET_INTERESTING] != 0;
	struct elink *el;
	struct span *s, *prev, *c = NULL;
	unsigned xf = 0;
	int bg = 0;

	el = ssp_spanb_net_elink(b, st, ev->f[SSP_F_NET_NODE],
	    ev->f[SSP_F_NET_DEV]);
	if (ev->f[SSP_F_NET_BOUNDARY] == SSP_NET_FROM_ADAPTER)
		eth_seen(b, st, el, ev);
	if (ev->f[SSP_F_NET_BOUNDARY] == SSP_NET_FROM_ADAPTER ||
	    (el != NULL && el->peer != NULL && ssp_spanb_nslog_dir(b, st, ev) < 0)) {
		/* from a NIC, or received over an n2n link (from another
		 * network, or another node of this one) */
		if (el != NULL)
			c = ssp_fifo_pop(&el->tx);
		s = ssp_spanb_mk(b, SSP_SK_NET_DEVICE, st, ev->ts);
		if (s == NULL) {
			if (c != NULL)
				unref(b, c);
			return NULL;
		}
		if (c != NULL)
			s->parent = c;
		else
			orphan(s, SSP_CAUSE_TX);
		bg = !interesting && c == NULL;
	} else {
		prev = ssp_spanb_nslog_prev(b, st, ev);	/* also the others' */
		if (prev == NULL && !interesting) {
			if (b->bg == SSP_BG_ADAPTER) {
				if (el == NULL)
					return NULL;
				xf = X_TENTATIVE;	/* kept if it reaches the NIC */
			}
			bg = 1;
		} else if (prev != NULL) {
			bg = (prev->flags & SSP_SPAN_BACKGROUND) != 0;
		}
		s = ssp_spanb_mk(b, SSP_SK_NET_DEVICE, st, ev->ts);
		if (s == NULL)
			return NULL;
		if (prev != NULL)
			set_parent(s, prev);
		else if (interesting)
			orphan(s, SSP_CAUSE_PACKET);
		s->xf |= (uint8_t)xf;
	}
	if (bg)
		s->flags |= SSP_SPAN_BACKGROUND;
	add_ev(b, s, ev);
	ssp_spanb_net_attrs(b, st, s, ev, 1);
	return s;
}

/* Forget packets whose last hop is older than packet-idle.  Runs at most
 * once per half packet-idle of simulated time, so the map holds about 1.5
 * packet-idle worth of packets and each sweep costs O(1) per packet. */
void
ssp_spanb_net_sweep(struct ssp_spanb *b)
{
	int64_t horizon = b->now - b->idle;
	size_t i;

	b->next_sweep = b->now + b->idle / 2;
	for (i = 0; i < b->chain.cap; ) {
		struct span *x = b->chain.t[i].v;

		if (b->chain.t[i].used && x->end < horizon) {
			ssp_map3_del_at(&b->chain, i);
			unref(b, x);
			b->st.packets_expired++;
		} else {
			i++;
		}
	}
}

static void
net_end(struct ssp_spanb *b, unsigned st, struct span *s,
    const struct ssp_rec *ev)
{
	int to_adapter = ev->type == SSP_EV_NET_DEQ &&
	    ev->f[SSP_F_NET_BOUNDARY] == SSP_NET_TO_ADAPTER;
	struct elink *el;
	void *o;

	if (ev->type == SSP_EV_NET_DROP)
		SA(s, SSP_SA_NET_DROPPED) = 1;
	if (s->xf & X_TENTATIVE) {
		if (!to_adapter) {	/* background that stays inside ns-3 */
			add_ev(b, s, ev);
			ssp_spanb_gone(b, s, SSP_DROP_BACKGROUND);
			return;
		}
		s->xf &= (uint8_t)~X_TENTATIVE;
	}
	add_ev(b, s, ev);
	ssp_spanb_net_attrs(b, st, s, ev, 0);
	/* Chain the packet's next hops to this one; not for background
	 * traffic kept only where it reaches a NIC: each copy of it that
	 * reaches another NIC starts a trace of its own, the others vanish. */
	if (ev->type == SSP_EV_NET_DEQ && !(b->bg == SSP_BG_ADAPTER &&
	    (s->flags & SSP_SPAN_BACKGROUND))) {
		if (ssp_map3_put(&b->chain, ev->f[SSP_F_NET_UID],
		    ssp_spanb_nslog_key(b, st, ev), st, s, &o) != 0) {
			nomem(b);
			return;
		}
		ref(s);
		if (o != NULL)
			unref(b, o);
		if (b->now >= b->next_sweep)
			ssp_spanb_net_sweep(b);
	}
	el = ssp_spanb_net_elink(b, st, ev->f[SSP_F_NET_NODE],
	    ev->f[SSP_F_NET_DEV]);
	if (to_adapter)
		eth_seen(b, st, el, ev);
	if (to_adapter || (ev->type == SSP_EV_NET_DEQ && el != NULL &&
	    el->peer != NULL && ssp_spanb_nslog_dir(b, st, ev) > 0)) {
		/* to the NIC, or over an n2n link into the other network */
		if (el != NULL)
			el_out(b, el, s);
		else
			b->st.ctx_nowhere[SSP_CTX_RX]++;
	}
	ssp_spanb_done(b, s);
}

static void
ev_net(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	uint64_t uid = ev->f[SSP_F_NET_UID];
	uint64_t nd = ev->f[SSP_F_NET_NODE] << 32 |
	    (ev->f[SSP_F_NET_DEV] & 0xffffffffu);
	struct span *s, *old;
	void *o;

	if (ev->type == SSP_EV_NET_RX) {
		drop(b, st, SSP_DROP_NO_RULE);
		return;
	}
	if (ev->type == SSP_EV_NET_SEEN) {	/* a capture's record */
		ssp_spanb_pcap_event(b, st, ev);
		return;
	}
	if (ev->type > SSP_EV_NET_RX || ev->type < SSP_EV_NET_ENQ) {
		drop(b, st, SSP_DROP_FOREIGN);
		return;
	}
	if (dev_kind(b, st, ev->f[SSP_F_NET_DEVTYPE]) == DEV_SWITCH) {
		ssp_spanb_switch_event(b, st, ev);
		return;
	}
	if ((int64_t)uid < 0) {
		drop(b, st, SSP_DROP_NO_UID);
		return;
	}
	if (ev->type == SSP_EV_NET_ENQ) {
		if ((s = net_start(b, st, ev)) == NULL) {
			drop(b, st, SSP_DROP_BACKGROUND);
			return;
		}
		if (ssp_map3_put(&b->net_open, uid, nd, st, s, &o) != 0) {
			nomem(b);
			return;
		}
		if ((old = o) != NULL) {	/* enqueued twice here */
			b->st.dup_ids++;
			if (old->xf & X_TENTATIVE)
				ssp_spanb_gone(b, old, SSP_DROP_BACKGROUND);
			else
				ssp_spanb_incomplete(b, old);
		}
		return;
	}
	s = ssp_map3_del(&b->net_open, uid, nd, st);
	if (s == NULL) {
		if (ev->type != SSP_EV_NET_DROP) {
			drop(b, st, ssp_map3_get(&b->chain, uid, 0, st) != NULL ||
			    ev->f[SSP_F_NET_INTERESTING] ? SSP_DROP_NO_START :
			    SSP_DROP_BACKGROUND);
			return;
		}
		/* dropped before it was enqueued: a one-event span */
		if ((s = net_start(b, st, ev)) == NULL) {
			drop(b, st, SSP_DROP_BACKGROUND);
			return;
		}
		SA(s, SSP_SA_NET_DROPPED) = 1;
		if (s->xf & X_TENTATIVE) {
			ssp_spanb_gone(b, s, SSP_DROP_BACKGROUND);
			return;
		}
		ssp_spanb_done(b, s);
		return;
	}
	net_end(b, st, s, ev);
}

static void
net_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++, ev = ssp_rec_packed_next(ev)) {
		b->now = ev->ts;	/* packet-idle sweeps */
		if (ours(b, SSP_SIM_NS3, ev))
			ev_net(b, st, ev);
		else
			drop(b, st, SSP_DROP_FOREIGN);
	}
}

static void
net_stream_end(struct ssp_spanb *b, unsigned st)
{
	ssp_spanb_switch_flush(b, net_of(b, st));
	ssp_spanb_pcap_end(b, st);
	ssp_spanb_close_stream(b, &b->net_open, st);
}

/* (b->now, which net_events sets from every event, is only read by the
 * event that set it.) */
static void
net_skips(struct ssp_spanb *b, unsigned st)
{
	skip_foreign(b, st, SSP_SIM_NS3);
	skip(b, st, SSP_EV_NET_RX, SSP_RA_SKIP, SSP_DROP_NO_RULE);
}

const struct ssp_spanb_sim ssp_spanb_net_sim = {
	NULL, net_events, net_stream_end, ssp_spanb_pcap_drain,
	ssp_spanb_pcap_free, net_skips,
};
