/*
 * The network as one SimBricks net_switch: NIC i on port i (its -s
 * socket, in order), and one more port (-h, listening) towards a network
 * simspan does not trace, from which background ARP broadcasts and UDP
 * probes come.  The switch has learned every NIC's MAC: a frame to a NIC
 * goes out on its port only, a broadcast on every NIC port.  It forwards
 * at the time a frame arrives, one frame per nanosecond (so no two
 * spans of the switch start at the same time), and prints one
 * NETSWITCH_DEBUG line per copy (sims/net/switch/net_switch.cc).
 *
 * Truth (formats/truth.md): a net.device span at the ingress port (key
 * "0/<port>/-1", parent the NIC's nic.tx; a root for the uplink port) and
 * one at each egress port (parent the ingress span), which is the parent
 * of the nic.rx of the NIC there.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "synth/synpcap.h"
#include "synth/synswitch.h"

#define NS 1000LL

static int64_t
ceil_ns(int64_t t)
{
	return (t + NS - 1) / NS * NS;
}

/* "%8X" of a little-endian word: spaces, not zeros, in front. */
static char *
put_hex8(char *p, uint32_t v)
{
	char d[8];
	int n = 0, i;

	do {
		d[n++] = "0123456789ABCDEF"[v & 15];
		v >>= 4;
	} while (v != 0);
	for (i = n; i < 8; i++)
		*p++ = ' ';
	while (n > 0)
		*p++ = d[--n];
	return p;
}

/* The first five octets of a MAC (first octet highest) read as a
 * little-endian word, as net_switch prints them. */
static uint64_t
mac40(uint64_t mac)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 5; i++)
		v |= ((mac >> (40 - 8 * i)) & 0xff) << (8 * i);
	return v;
}

static void
debug_line(struct syn *s, int64_t t, unsigned in, unsigned out,
    const struct pkt *pk)
{
	struct net *nt = &s->net;
	char *p;

	if (s->p->switch_pcap) {	/* -p: the copy's record instead */
		nt->nev[SSP_EV_NET_SEEN]++;
		nt->pcap_bytes += ssp_synpcap_frame(nt->pcap, t, pk);
		return;
	}
	nt->nev[SSP_EV_NET_DEQ]++;
	if (s->dry)
		return;
	p = ssp_synlog_room(nt->log);
	p = ssp_synlog_put_u64_w(p, (uint64_t)t, 20);
	p = ssp_synlog_put_str(p, ": [P ");
	p = ssp_synlog_put_u64(p, in);
	p = ssp_synlog_put_str(p, " -> ");
	p = ssp_synlog_put_u64(p, out);
	p = ssp_synlog_put_str(p, "] ");
	p = ssp_synlog_put_hex(p, mac40(pk->smac));
	p = ssp_synlog_put_str(p, " -> ");
	p = ssp_synlog_put_hex(p, mac40(pk->dmac));
	p = ssp_synlog_put_str(p, pk->kind == PK_BG_ARP ? " [ARP] " : " [ IP] ");
	p = put_hex8(p, __builtin_bswap32(pk->sip));
	p = ssp_synlog_put_str(p, " -> ");
	p = put_hex8(p, __builtin_bswap32(pk->dip));
	if (pk->kind != PK_BG_ARP) {
		p = ssp_synlog_put_str(p, " len: ");
		p = ssp_synlog_put_u64(p, pk->iplen + 14u);
	}
	*p++ = '\n';
	ssp_synlog_commit_n(nt->log, p, 1);
}

static void
text_line(struct syn *s, const char *a, const char *b, unsigned n)
{
	char *p;

	if (s->dry)
		return;
	p = ssp_synlog_room(s->net.log);
	p = ssp_synlog_put_str(p, a);
	p = ssp_synlog_put_str(p, b);
	p = ssp_synlog_put_u64(p, n);
	*p++ = '\n';
	ssp_synlog_commit_n(s->net.log, p, 1);
}

static uint64_t
port_span(struct syn *s, int64_t t, unsigned port, uint64_t parent)
{
	char key[32];

	snprintf(key, sizeof(key), "0/%u/-1", port);
	return ssp_synmodel_span(s, s->net.stream, SSP_SK_NET_DEVICE, t, key,
	    parent, parent);
}

/* One copy out on a NIC's port: its span, and the frame to the NIC. */
static void
egress(struct syn *s, int64_t t, unsigned in, unsigned out, uint64_t from,
    struct pkt *pk)
{
	uint64_t sp;

	debug_line(s, t, in, out, pk);
	sp = port_span(s, t, out, from);
	if (!pk->interesting)
		s->net.bg_to_nic++;
	pk->refs++;
	ssp_synmodel_schedule(s, t + s->p->eth_lat, EV_NIC_RX, out, sp, pk);
}

/* A frame arrives on port in at t (the caller's reference on pk is
 * handed over). */
static void
arrive(struct syn *s, int64_t t, unsigned in, struct pkt *pk, uint64_t tx)
{
	struct net *nt = &s->net;
	uint64_t sp;
	unsigned o;

	if (t < nt->sw_fwd + NS)	/* one frame per nanosecond */
		t = nt->sw_fwd + NS;
	nt->sw_fwd = t;
	if (!s->p->switch_pcap)
		nt->nev[SSP_EV_NET_ENQ]++;
	sp = port_span(s, t, in, tx);
	if (pk->broadcast) {
		for (o = 0; o < s->nhosts; o++)
			if (o != in)
				egress(s, t, in, o, sp, pk);
		if (in != s->nhosts) {	/* flooded from a NIC: the uplink too */
			debug_line(s, t, in, s->nhosts, pk);
			port_span(s, t, s->nhosts, sp);
		}
	} else if (pk->dst_host >= 0 && (unsigned)pk->dst_host != in) {
		egress(s, t, in, (unsigned)pk->dst_host, sp, pk);
	}
	ssp_synmodel_pkt_put(pk);
}

/* Background from the uplink: an ARP who-has (every NIC sees it) or a
 * UDP datagram to one NIC. */
static void
probe(struct syn *s, int64_t t)
{
	struct net *nt = &s->net;
	int d = (int)ssp_synrng_below(&nt->rng, 2 * nt->nflows);
	int arp = ssp_synrng_chance(&nt->rng, s->p->bg_arp);
	struct pkt *pk = ssp_synmodel_pkt_new(s, arp ? PK_BG_ARP : PK_BG_UDP);

	if (pk == NULL)
		return;
	pk->src_dummy = d;
	pk->sip = 0xc0a84001u + 2 * s->nhosts + (unsigned)d;
	pk->smac = 3 + (unsigned)d;
	pk->ipid = nt->ipid[d]++;
	if (arp) {
		pk->broadcast = 1;
		pk->dip = 0xc0a840fau;
		pk->dmac = 0xffffffffffffull;
		pk->frame = 42;
	} else {
		int h = (int)ssp_synrng_below(&nt->rng, s->nhosts);

		pk->dst_host = h;
		pk->dip = s->hosts[h].ip;
		pk->dmac = s->nics[h].mac;
		pk->sport = 49200;
		pk->dport = 9;
		pk->proto = 17;
		pk->payload = 32 + (unsigned)ssp_synrng_below(&nt->rng, 225);
		pk->iplen = 28 + pk->payload;
		pk->frame = 14 + pk->iplen;
	}
	nt->bg_packets++;
	arrive(s, ceil_ns(t), s->nhosts, pk, 0);
}

void
ssp_synswitch_event(struct syn *s, const struct sev *ev)
{
	struct net *nt = &s->net;

	switch (ev->type) {
	case EV_NET_IN: {	/* a NIC sent a frame: it arrives on its port */
		struct pkt *pk = ev->p;

		arrive(s, ev->t, s->hosts[ev->who].dev, pk, pk->tx_span);
		break;
	}
	case EV_BG_PROBE:
		if (s->ending && ev->t > s->end)
			break;
		probe(s, ev->t);
		ssp_synmodel_schedule(s, ceil_ns(ev->t + ssp_synrng_exp(&nt->rng,
		    (double)nt->burst_mean / (s->p->bg_to_host * nt->nflows))),
		    EV_BG_PROBE, 0, 0, NULL);
		break;
	default:
		break;
	}
}

void
ssp_synswitch_init(struct syn *s)
{
	unsigned i;

	s->net.sw_fwd = -NS;
	for (i = 0; i < s->nhosts; i++)
		text_line(s, "Switch connecting to: /tmp/simbricks/eth.", "", i);
	text_line(s, "Switch listening on: /tmp/simbricks/n2n.", "", 0);
}

void
ssp_synswitch_start_bg(struct syn *s)
{
	struct net *nt = &s->net;

	if (s->p->bg_load <= 0 || s->p->bg_to_host <= 0)
		return;
	ssp_synmodel_schedule(s, ceil_ns(s->t0 / 2 + ssp_synrng_exp(&nt->rng,
	    (double)nt->burst_mean / (s->p->bg_to_host * nt->nflows))),
	    EV_BG_PROBE, 0, 0, NULL);
}

void
ssp_synswitch_finish(struct syn *s)
{
	uint64_t n = s->net.bg_packets + s->net.nev[SSP_EV_NET_ENQ];
	char *p;

	if (s->dry || s->net.log == NULL)
		return;
	/* NETSWITCH_STAT's first table line, printed on exit */
	p = ssp_synlog_room(s->net.log);
	p = ssp_synlog_put_str(p, "      d2n_poll_total: ");
	p = ssp_synlog_put_u64_w(p, 40 * n, 22);
	p = ssp_synlog_put_str(p, "         d2n_poll_suc: ");
	p = ssp_synlog_put_u64_w(p, n, 22);
	p = ssp_synlog_put_str(p, "  poll_suc_rate: 0.025000\n");
	ssp_synlog_commit_n(s->net.log, p, 1);
}
