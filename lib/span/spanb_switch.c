/*
 * SimBricks net_switch ports in a network stream (formats/spans.md §3):
 * an ingress span per net_enq under the NIC's tx context, an egress span
 * per copy sent or dropped under that ingress, its context to the NIC of
 * the egress port.  A port wired to another switch (an n2n row) is such a
 * link too: its egress context goes to the other switch's port, whose
 * ingress span takes it as parent (in order: a SimBricks channel loses
 * nothing and reorders nothing).
 */
#include <stdint.h>

#include "span/spanb_int.h"

/*
 * The chain key of a switch packet: its uid (vaastav/simbricks), or, for
 * NETSWITCH_DEBUG lines that have none, its identity (MACs, IPv4 or ARP
 * addresses, length, EtherType): the latest ingress with that identity.
 */
static uint64_t
sw_key(const struct ssp_rec *ev)
{
	uint64_t h;

	if ((int64_t)ev->f[SSP_F_NET_UID] >= 0)
		return 0;
	h = ev->f[SSP_F_NET_ETH_SRC] * 0x9e3779b97f4a7c15ULL;
	h ^= (h >> 29) ^ ev->f[SSP_F_NET_ETH_DST] * 0xc2b2ae3d27d4eb4fULL;
	h ^= (h >> 31) ^ (ev->f[SSP_F_NET_IP_SRC] << 32 | ev->f[SSP_F_NET_IP_DST]) *
	    0x165667b19e3779f9ULL;
	h ^= (h >> 27) ^ (ev->f[SSP_F_NET_IP_LEN] << 16 | ev->f[SSP_F_NET_ETH_TYPE]) *
	    0x27d4eb2f165667c5ULL;
	return h | 1;
}

/* The held egress span is complete: no drop line followed it. */
void
ssp_spanb_switch_flush(struct ssp_spanb *b, struct wstate *w)
{
	struct span *s = w->held;

	if (s != NULL) {
		w->held = NULL;
		ssp_spanb_done(b, s);
	}
}

/*
 * A net_switch port (formats/spans.md §3): net_enq at the ingress port is
 * a span of its own whose parent is the NIC's tx context there; each
 * net_deq at an egress port is a span whose parent is that ingress (found
 * by uid or packet identity), and its context goes to the NIC of the
 * egress port.  An egress span is finished at the next event of the
 * stream, so that a "dropping packet on port" line can still end it.
 */
void
ssp_spanb_switch_event(struct ssp_spanb *b, unsigned st,
    const struct ssp_rec *ev)
{
	struct wstate *w = net_of(b, st);
	uint64_t uid = ev->f[SSP_F_NET_UID], key = sw_key(ev);
	struct elink *el = ssp_spanb_net_elink(b, st, ev->f[SSP_F_NET_NODE],
	    ev->f[SSP_F_NET_DEV]);
	struct span *s, *c, *held = w->held;
	void *o;

	if (ev->type == SSP_EV_NET_DROP && (int64_t)uid < 0 && key == 1 &&
	    held != NULL && SA(held, SSP_SA_NET_DEV) == ev->f[SSP_F_NET_DEV]) {
		/* "forward_pkt: dropping packet on port N": the copy just
		 * forwarded there never reached the NIC */
		w->held = NULL;
		SA(held, SSP_SA_NET_DROPPED) = 1;
		add_ev(b, held, ev);
		if (el != NULL && ssp_fifo_last(el_outq(el)) == held) {
			ssp_fifo_pop_last(el_outq(el));
			unref(b, held);
		}
		ssp_spanb_done(b, held);
		return;
	}
	ssp_spanb_switch_flush(b, w);
	if (ev->type == SSP_EV_NET_ENQ) {
		c = el != NULL ? ssp_fifo_pop(&el->tx) : NULL;
		s = ssp_spanb_mk(b, SSP_SK_NET_DEVICE, st, ev->ts);
		if (s == NULL) {
			if (c != NULL)
				unref(b, c);
			return;
		}
		if (c != NULL)
			s->parent = c;
		else if (el != NULL)
			orphan(s, SSP_CAUSE_TX);
		/* else a port without a NIC or an n2n link: a root; at an
		 * n2n end the parent is the other switch's egress span */
		add_ev(b, s, ev);
		ssp_spanb_net_attrs(b, st, s, ev, 1);
		if (ssp_map3_put(&b->chain, uid, key, st, s, &o) != 0) {
			nomem(b);
			return;
		}
		ref(s);
		if (o != NULL)
			unref(b, o);
		if (b->now >= b->next_sweep)
			ssp_spanb_net_sweep(b);
		ssp_spanb_done(b, s);
		return;
	}
	/* net_deq (a copy sent on a port), net_drop (a copy dropped) */
	c = ssp_map3_get(&b->chain, uid, key, st);
	if ((s = ssp_spanb_mk(b, SSP_SK_NET_DEVICE, st, ev->ts)) == NULL)
		return;
	if (c != NULL)
		set_parent(s, c);
	else
		orphan(s, SSP_CAUSE_PACKET);
	add_ev(b, s, ev);
	ssp_spanb_net_attrs(b, st, s, ev, 1);
	if (ev->type == SSP_EV_NET_DROP) {
		SA(s, SSP_SA_NET_DROPPED) = 1;
		ssp_spanb_done(b, s);
		return;
	}
	if (el != NULL)
		el_out(b, el, s);
	else
		b->st.ctx_nowhere[SSP_CTX_RX]++;
	w->held = s;
}
