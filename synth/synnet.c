/*
 * The ns-3 network: two switches (nodes 0 and 1) bridging a bottleneck
 * SimpleNetDevice (device 1), one CosimNetDevice per NIC (devices 2..)
 * and one access SimpleNetDevice per ns-3 host, as in SimBricks'
 * cosim-dumbbell-hybrid.cc.  Lines are those of the SimBricks trace helper
 * (FORMATS.md §6).  With ns3_e2e, symphony NS3Net's layout instead (its
 * E2E program, one --TopologyNode with a --Network per NIC): every NIC on
 * node 0, devices 1.., no bottleneck and no background traffic.  The bottleneck is a FIFO with a rate, so packets queue;
 * background TCP bursts between ns-3 hosts load it, and some background
 * packets (UDP probes, ARP broadcasts) reach the NICs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synnet.h"
#include "synth/synnic.h"
#include "synth/synnslog.h"

#define NS 1000LL
#define US 1000000LL
#define BG_BURST 8
#define BG_FRAME 1514
#define BG_MSS 1448
#define ACK_FRAME 66

enum hdrmode { H_FROM_ADAPTER, H_INSIDE, H_TO_ADAPTER };

static int64_t
ceil_ns(int64_t t)
{
	return (t + NS - 1) / NS * NS;
}

/* Ipv4Header::Print */
static char *
put_ipv4(char *p, const struct pkt *pk)
{
	p = ssp_synlog_put_str(p, "ns3::Ipv4Header (tos 0x0 DSCP Default ECN Not-ECT "
	    "ttl 64 id ");
	p = ssp_synlog_put_u64(p, pk->ipid);
	p = ssp_synlog_put_str(p, " protocol ");
	p = ssp_synlog_put_u64(p, pk->proto);
	p = ssp_synlog_put_str(p, pk->interesting ? " offset (bytes) 0 flags [DF] "
	    "length: " : " offset (bytes) 0 flags [none] length: ");
	p = ssp_synlog_put_u64(p, pk->iplen);
	*p++ = ' ';
	p = ssp_synlog_put_ip(p, pk->sip);
	p = ssp_synlog_put_str(p, " > ");
	return ssp_synlog_put_ip(p, pk->dip);
}

/* ArpHeader::Print */
static char *
put_arp(char *p, const struct pkt *pk)
{
	p = ssp_synlog_put_str(p, "request source mac: 00-06-");
	p = ssp_synlog_put_mac(p, pk->smac);
	p = ssp_synlog_put_str(p, " source ipv4: ");
	p = ssp_synlog_put_ip(p, pk->sip);
	p = ssp_synlog_put_str(p, " dest ipv4: ");
	return ssp_synlog_put_ip(p, pk->dip);
}

/* The rest of Packet::Print for packets ns-3 applications made. */
static char *
put_l4(char *p, const struct pkt *pk)
{
	switch (pk->kind) {
	case PK_BG_TCP:
	case PK_BG_ACK:
		p = ssp_synlog_put_str(p, " ns3::TcpHeader (");
		p = ssp_synlog_put_u64(p, pk->sport);
		p = ssp_synlog_put_str(p, " > ");
		p = ssp_synlog_put_u64(p, pk->dport);
		p = ssp_synlog_put_str(p, " [ACK] Seq=");
		p = ssp_synlog_put_u64(p, pk->kind == PK_BG_TCP ? pk->tcpseq : 1);
		p = ssp_synlog_put_str(p, " Ack=");
		p = ssp_synlog_put_u64(p, pk->kind == PK_BG_TCP ? 1 : pk->tcpseq);
		p = ssp_synlog_put_str(p, " Win=65535)");
		break;
	case PK_BG_UDP:
		p = ssp_synlog_put_str(p, " ns3::UdpHeader (length: ");
		p = ssp_synlog_put_u64(p, pk->iplen - 20);
		*p++ = ' ';
		p = ssp_synlog_put_u64(p, pk->sport);
		p = ssp_synlog_put_str(p, " > ");
		p = ssp_synlog_put_u64(p, pk->dport);
		*p++ = ')';
		break;
	default:
		break;
	}
	if (pk->kind == PK_BG_ACK)
		return p;
	p = ssp_synlog_put_str(p, " Payload (size=");
	p = ssp_synlog_put_u64(p, pk->interesting ? pk->frame : pk->payload);
	*p++ = ')';
	return p;
}

/* The manual EthernetHeader on SimpleNetDevice lines: ns-3 peeks an
 * Ethernet header where the IP (or ARP) header starts. */
static char *
put_garbage_eth(char *p, const struct pkt *pk)
{
	uint64_t dst, src;
	unsigned type;

	if (pk->kind == PK_BG_ARP) {
		dst = 0x000108000604ull;
		src = 0x000100000000ull | (pk->smac >> 16);
		type = (unsigned)(pk->smac & 0xffff);
	} else {
		dst = 0x450000000000ull | (uint64_t)pk->iplen << 16 | pk->ipid;
		src = (pk->interesting ? 0x4000ull : 0) << 32 |
		    (uint64_t)64 << 24 | (uint64_t)pk->proto << 16 |
		    ssp_synnic_ip_checksum(pk);
		type = pk->sip >> 16;
	}
	p = ssp_synlog_put_str(p, "ns3::EthernetHeader( length/type=0x");
	p = ssp_synlog_put_hex(p, type);
	p = ssp_synlog_put_str(p, ", source=");
	p = ssp_synlog_put_mac(p, src);
	p = ssp_synlog_put_str(p, ", destination=");
	p = ssp_synlog_put_mac(p, dst);
	return ssp_synlog_put_str(p, ")");
}

static char *
put_real_eth(char *p, const struct pkt *pk, int space)
{
	p = ssp_synlog_put_str(p, space ? "ns3::EthernetHeader ( length/type=0x" :
	    "ns3::EthernetHeader( length/type=0x");
	p = ssp_synlog_put_str(p, pk->kind == PK_BG_ARP ? "806" : "800");
	p = ssp_synlog_put_str(p, ", source=");
	p = ssp_synlog_put_mac(p, pk->smac);
	p = ssp_synlog_put_str(p, ", destination=");
	p = ssp_synlog_put_mac(p, pk->broadcast ? 0xffffffffffffull : pk->dmac);
	return ssp_synlog_put_str(p, ")");
}

static void
nsline(struct syn *s, char c, int64_t t, int sw, unsigned dev, int cosim,
    const char *source, const struct pkt *pk, enum hdrmode mode)
{
	struct net *nt = &s->net;
	char *p;

	if (s->p->ns3_nslog)
		return ssp_synnslog_line(s, c, t, sw, dev, cosim, source, pk);
	nt->nev[c == '+' ? SSP_EV_NET_ENQ : c == '-' ? SSP_EV_NET_DEQ :
	    SSP_EV_NET_DROP]++;
	if (s->dry)	/* only gem5 logs are measured */
		return;
	p = ssp_synlog_room(nt->log);
	*p++ = c;
	*p++ = ' ';
	*p++ = ' ';
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	p = ssp_synlog_put_str(p, " /$ns3::NodeListPriv/NodeList/");
	p = ssp_synlog_put_u64(p, (uint64_t)sw);
	p = ssp_synlog_put_str(p, "/$ns3::Node/DeviceList/");
	p = ssp_synlog_put_u64(p, dev);
	p = ssp_synlog_put_str(p, cosim ? "/$ns3::CosimNetDevice/" :
	    "/$ns3::SimpleNetDevice/");
	p = ssp_synlog_put_str(p, source);
	p = ssp_synlog_put_str(p, " Packet-Uid=");
	p = ssp_synlog_put_u64(p, pk->uid);
	p = ssp_synlog_put_str(p, pk->interesting ? " Intersting=true " :
	    " Intersting=false ");
	switch (mode) {
	case H_FROM_ADAPTER:	/* raw frame from a NIC */
		p = put_real_eth(p, pk, 0);
		p = ssp_synlog_put_str(p, " Payload (size=");
		p = ssp_synlog_put_u64(p, pk->frame);
		*p++ = ')';
		break;
	case H_INSIDE:
		p = put_garbage_eth(p, pk);
		*p++ = ' ';
		if (pk->kind == PK_BG_ARP) {
			p = ssp_synlog_put_str(p, "ns3::ArpHeader(");
			p = put_arp(p, pk);
			p = ssp_synlog_put_str(p, ") ns3::ArpHeader (");
			p = put_arp(p, pk);
			*p++ = ')';
		} else {
			p = put_ipv4(p, pk);
			*p++ = ')';
			p = put_l4(p, pk);
		}
		break;
	case H_TO_ADAPTER:
		p = put_real_eth(p, pk, 1);
		*p++ = ' ';
		if (pk->kind == PK_BG_ARP) {
			p = ssp_synlog_put_str(p, "ns3::ArpHeader (");
			p = put_arp(p, pk);
			*p++ = ')';
		} else {
			p = put_ipv4(p, pk);
			*p++ = ')';
			p = put_l4(p, pk);
		}
		break;
	}
	*p++ = '\n';
	ssp_synlog_commit_n(nt->log, p, 1);
}

static struct hop *
hop_new(struct syn *s, struct pkt *pk, int sw, unsigned dev, uint64_t prev)
{
	struct hop *hp = calloc(1, sizeof(*hp));

	if (hp == NULL) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
		return NULL;
	}
	hp->pk = pk;
	pk->refs++;
	hp->sw = sw;
	hp->dev = dev;
	hp->prev_span = prev;
	return hp;
}

static void
hop_free(struct hop *hp)
{
	ssp_synmodel_pkt_put(hp->pk);
	free(hp);
}

static uint64_t
dev_span(struct syn *s, const struct hop *hp, int64_t t, unsigned dev,
    int root)
{
	char key[64];

	snprintf(key, sizeof(key), "%d/%u/%" PRIu64, hp->sw, dev, hp->pk->uid);
	return ssp_synmodel_span(s, s->net.stream, SSP_SK_NET_DEVICE, t, key,
	    root ? 0 : hp->prev_span, root ? 0 : hp->prev_span);
}

static void
new_uid(struct syn *s, struct pkt *pk)
{
	pk->uid = s->net.next_uid;
	s->net.next_uid += 1 + ssp_synrng_below(&s->net.rng, 3);
}

static unsigned
access_dev(const struct syn *s, int dummy, int *sw)
{
	unsigned f = s->net.nflows;

	*sw = (unsigned)dummy < f ? 0 : 1;
	return 2 + s->net.ncosim[*sw] + (unsigned)dummy % f;
}

/* --- delivery ----------------------------------------------------------- */

static void
to_adapter(struct syn *s, struct hop *hp, int64_t t)
{
	struct host *h = NULL;
	unsigned i;

	for (i = 0; i < s->nhosts; i++)
		if (s->hosts[i].sw == hp->sw && s->hosts[i].dev == hp->dev)
			h = &s->hosts[i];
	nsline(s, '-', t, hp->sw, hp->dev, 1, "TxPacketToAdapter", hp->pk,
	    H_TO_ADAPTER);
	s->net.last_out[hp->sw * s->net.maxdev + hp->dev] = t;
	if (!hp->pk->interesting)
		s->net.bg_to_nic++;
	hp->pk->refs++;
	ssp_synmodel_schedule(s, t + s->p->eth_lat, EV_NIC_RX, h->idx, hp->prev_span,
	    hp->pk);
	hop_free(hp);
}

static void
to_cosim(struct syn *s, struct hop *hp, int64_t t)
{
	int64_t out = s->net.last_out[hp->sw * s->net.maxdev + hp->dev] + NS;

	nsline(s, '+', t, hp->sw, hp->dev, 1, "RxPacketFromNetwork", hp->pk,
	    H_INSIDE);
	/* background packets start their trace where they reach a NIC */
	hp->prev_span = dev_span(s, hp, t, hp->dev, !hp->pk->interesting);
	if (out <= t || s->p->ns3_nslog)	/* SimbricksNetDevice: no queue */
		to_adapter(s, hp, t);
	else		/* one frame per nanosecond towards each NIC */
		ssp_synmodel_schedule(s, out, EV_NET_OUT, 0, 0, hp);
}

static void
bg_ack(struct syn *s, const struct pkt *data, int64_t t)
{
	struct pkt *pk = ssp_synmodel_pkt_new(s, PK_BG_ACK);

	if (pk == NULL)
		return;
	pk->src_dummy = data->dst_dummy;
	pk->dst_dummy = data->src_dummy;
	pk->sip = data->dip;
	pk->dip = data->sip;
	pk->sport = data->dport;
	pk->dport = data->sport;
	pk->proto = 6;
	pk->payload = 0;
	pk->iplen = 52;
	pk->frame = ACK_FRAME;
	pk->smac = data->dmac;
	pk->dmac = data->smac;
	pk->tcpseq = data->tcpseq + BG_MSS;
	pk->ipid = s->net.ipid[pk->src_dummy]++;
	ssp_synmodel_schedule(s, ceil_ns(t + 2 * US), EV_BG_ACK, 0, 0, pk);
}

static void
to_access(struct syn *s, struct hop *hp, int64_t t)
{
	struct pkt *pk = hp->pk;

	nsline(s, '+', t, hp->sw, hp->dev, 0, "TxQueue/Enqueue", pk, H_INSIDE);
	nsline(s, '-', t, hp->sw, hp->dev, 0, "TxQueue/Dequeue", pk, H_INSIDE);
	if (pk->kind == PK_BG_TCP && pk->dst_dummy >= 0 &&
	    ++s->net.acks[pk->src_dummy] % 2 == 0)
		bg_ack(s, pk, t);	/* delayed ACK: every second segment */
	hop_free(hp);
}

static void
bottleneck(struct syn *s, struct hop *hp, int64_t t)
{
	struct link *l = &s->net.bl[hp->sw];
	struct pkt *pk = hp->pk;
	int64_t deq, tx;

	while (l->qlen > 0 && l->deq[l->qhead] <= t) {
		l->qhead = (l->qhead + 1) % l->qcap;
		l->qlen--;
	}
	if (!pk->interesting && l->qlen >= s->p->queue_limit) {
		nsline(s, 'd', t, hp->sw, 1, 0, "TxQueue/Drop", pk, H_INSIDE);
		s->net.bg_drops++;
		hop_free(hp);
		return;
	}
	if (l->qlen == l->qcap) {	/* interesting packets always fit */
		unsigned cap = l->qcap * 2, i;
		int64_t *d = malloc(cap * sizeof(*d));

		if (d == NULL) {
			s->failed = 1;
			ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
			hop_free(hp);
			return;
		}
		for (i = 0; i < l->qlen; i++)
			d[i] = l->deq[(l->qhead + i) % l->qcap];
		free(l->deq);
		l->deq = d;
		l->qcap = cap;
		l->qhead = 0;
	}
	nsline(s, '+', t, hp->sw, 1, 0, "TxQueue/Enqueue", pk, H_INSIDE);
	hp->dev = 1;
	if (pk->interesting)
		hp->prev_span = dev_span(s, hp, t, 1, 0);
	tx = ceil_ns((int64_t)((double)pk->frame * 8e12 / (double)s->p->bandwidth));
	deq = l->busy_until > t ? l->busy_until : t;
	l->busy_until = deq + tx;
	l->deq[(l->qhead + l->qlen++) % l->qcap] = deq;
	ssp_synmodel_schedule(s, deq, EV_NET_DEQ, (uint32_t)hp->sw, (uint64_t)tx, hp);
}

/* Where a packet goes from switch hp->sw, arriving on device from. */
static void
forward(struct syn *s, struct hop *hp, int64_t t, unsigned from)
{
	struct pkt *pk = hp->pk;
	struct hop *c;
	unsigned i, k;
	int dsw;

	if (pk->broadcast) {	/* flood every other port */
		for (i = 0; i < s->nhosts; i++)
			if (s->hosts[i].sw == hp->sw && (c = hop_new(s, pk, hp->sw,
			    s->hosts[i].dev, 0)) != NULL)
				to_cosim(s, c, t);
		for (k = 0; k < s->net.nflows; k++) {
			int d = hp->sw == 0 ? (int)k : (int)(s->net.nflows + k), dsw2;
			unsigned dev = access_dev(s, d, &dsw2);

			if (dev != from && (c = hop_new(s, pk, hp->sw, dev, 0)) != NULL)
				to_access(s, c, t);
		}
		if (from != 1 && (c = hop_new(s, pk, hp->sw, 1, 0)) != NULL)
			bottleneck(s, c, t);
		hop_free(hp);
		return;
	}
	if (pk->dst_host >= 0) {
		dsw = s->hosts[pk->dst_host].sw;
		if (dsw == hp->sw) {
			hp->dev = s->hosts[pk->dst_host].dev;
			to_cosim(s, hp, t);
			return;
		}
	} else {
		unsigned dev = access_dev(s, pk->dst_dummy, &dsw);

		if (dsw == hp->sw) {
			hp->dev = dev;
			to_access(s, hp, t);
			return;
		}
	}
	bottleneck(s, hp, t);
}

/* --- background traffic ------------------------------------------------- */

static void
bg_burst(struct syn *s, unsigned f, int64_t t)
{
	struct net *nt = &s->net;
	unsigned k;
	int sw;

	for (k = 0; k < BG_BURST; k++) {
		struct pkt *pk = ssp_synmodel_pkt_new(s, PK_BG_TCP);
		struct hop *hp;
		unsigned dev;

		if (pk == NULL)
			return;
		pk->src_dummy = (int)f;
		pk->dst_dummy = (int)(nt->nflows + f);
		pk->sip = 0xc0a84001u + 2 * s->nhosts + f;
		pk->dip = 0xc0a84001u + 2 * s->nhosts + nt->nflows + f;
		pk->sport = 49153;
		pk->dport = (uint16_t)(50000 + f);
		pk->proto = 6;
		pk->payload = BG_MSS;
		pk->iplen = BG_MSS + 40;
		pk->frame = BG_FRAME;
		pk->smac = 3 + f;
		pk->dmac = 3 + nt->nflows + f;
		pk->tcpseq = nt->seq[f];
		nt->seq[f] += BG_MSS;
		pk->ipid = nt->ipid[f]++;
		new_uid(s, pk);
		nt->bg_packets++;
		dev = access_dev(s, (int)f, &sw);
		hp = hop_new(s, pk, sw, dev, 0);
		ssp_synmodel_pkt_put(pk);
		if (hp == NULL)
			return;
		/* back to back on a 10x faster access link */
		ssp_synmodel_schedule(s, ceil_ns(t + (int64_t)k * (int64_t)((double)BG_FRAME *
		    8e11 / (double)s->p->bandwidth)), EV_NET_ARRIVE, (uint32_t)sw,
		    dev, hp);
	}
}

static void
bg_probe(struct syn *s, int64_t t)
{
	struct net *nt = &s->net;
	int d = (int)ssp_synrng_below(&nt->rng, 2 * nt->nflows), sw;
	int arp = ssp_synrng_chance(&nt->rng, s->p->bg_arp);
	struct pkt *pk = ssp_synmodel_pkt_new(s, arp ? PK_BG_ARP : PK_BG_UDP);
	unsigned dev = access_dev(s, d, &sw);
	struct hop *hp;

	if (pk == NULL)
		return;
	pk->src_dummy = d;
	pk->sip = 0xc0a84001u + 2 * s->nhosts + (unsigned)d;
	pk->smac = 3 + (unsigned)d;
	pk->ipid = nt->ipid[d]++;
	if (arp) {	/* who-has an address nobody owns: every port sees it */
		pk->broadcast = 1;
		pk->dip = 0xc0a840fau;
		pk->frame = 42;
		pk->payload = 0;
	} else {	/* a UDP datagram to one of the simulated hosts */
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
	new_uid(s, pk);
	nt->bg_packets++;
	hp = hop_new(s, pk, sw, dev, 0);
	ssp_synmodel_pkt_put(pk);
	if (hp != NULL)
		ssp_synmodel_schedule(s, ceil_ns(t), EV_NET_ARRIVE, (uint32_t)sw, dev, hp);
}

/* --- events ------------------------------------------------------------- */

void
ssp_synnet_event(struct syn *s, const struct sev *ev)
{
	struct net *nt = &s->net;
	struct hop *hp = ev->p;
	int64_t t = ev->t;

	switch (ev->type) {
	case EV_NET_IN: {	/* a NIC sent a frame */
		struct pkt *pk = ev->p;
		struct host *h = &s->hosts[ev->who];

		new_uid(s, pk);
		if ((hp = hop_new(s, pk, h->sw, h->dev, pk->tx_span)) == NULL)
			return;
		ssp_synmodel_pkt_put(pk);	/* the hop holds it now */
		nsline(s, '+', t, h->sw, h->dev, 1, "RxPacketFromAdapter", pk,
		    H_FROM_ADAPTER);
		nsline(s, '-', t, h->sw, h->dev, 1, "TxPacketToNetwork", pk,
		    H_FROM_ADAPTER);
		hp->prev_span = dev_span(s, hp, t, h->dev, 0);
		forward(s, hp, t, h->dev);
		break;
	}
	case EV_NET_DEQ:
		nsline(s, '-', t, hp->sw, 1, 0, "TxQueue/Dequeue", hp->pk, H_INSIDE);
		ssp_synmodel_schedule(s, ceil_ns(t + (int64_t)ev->a + s->p->net_lat),
		    EV_NET_ARRIVE, (uint32_t)!hp->sw, 1, hp);
		break;
	case EV_NET_ARRIVE:	/* on device ev->a of switch ev->who */
		hp->sw = (int)ev->who;
		hp->dev = (unsigned)ev->a;
		nsline(s, '+', t, hp->sw, hp->dev, 0, "RxPacketFromNetwork", hp->pk,
		    H_INSIDE);
		nsline(s, '-', t, hp->sw, hp->dev, 0, "TxPacketToAttachedDevice",
		    hp->pk, H_INSIDE);
		if (hp->pk->interesting)
			hp->prev_span = dev_span(s, hp, t, hp->dev, 0);
		forward(s, hp, t, hp->dev);
		break;
	case EV_NET_OUT:
		to_adapter(s, hp, t);
		break;
	case EV_BG_BURST:
		if (s->ending && t > s->end)
			break;
		bg_burst(s, ev->who, t);
		ssp_synmodel_schedule(s, ceil_ns(t + ssp_synrng_exp(&nt->rng,
		    (double)nt->burst_mean)), EV_BG_BURST, ev->who, 0, NULL);
		break;
	case EV_BG_PROBE:
		if (s->ending && t > s->end)
			break;
		bg_probe(s, t);
		ssp_synmodel_schedule(s, ceil_ns(t + ssp_synrng_exp(&nt->rng,
		    (double)nt->burst_mean / (s->p->bg_to_host * nt->nflows))),
		    EV_BG_PROBE, 0, 0, NULL);
		break;
	case EV_BG_ACK: {
		struct pkt *pk = ev->p;
		int sw;
		unsigned dev = access_dev(s, pk->src_dummy, &sw);

		new_uid(s, pk);
		nt->bg_packets++;
		hp = hop_new(s, pk, sw, dev, 0);
		ssp_synmodel_pkt_put(pk);
		if (hp != NULL)
			ssp_synmodel_schedule(s, t + 1 * US, EV_NET_ARRIVE, (uint32_t)sw,
			    dev, hp);
		break;
	}
	}
}

void
ssp_synnet_init(struct syn *s)
{
	struct net *nt = &s->net;
	unsigned i;

	ssp_synrng_seed(&nt->rng, s->p->seed, 300);
	nt->nflows = s->p->bg_flows > 0 ? s->p->bg_flows : 1;
	nt->ndev[0] = 2 + nt->ncosim[0] + nt->nflows;
	nt->ndev[1] = 2 + nt->ncosim[1] + nt->nflows;
	if (s->p->ns3_e2e) {	/* the bridge, then the NICs' devices */
		nt->ndev[0] = 1 + nt->ncosim[0];
		nt->ndev[1] = 1;
	}
	nt->maxdev = nt->ndev[0] > nt->ndev[1] ? nt->ndev[0] : nt->ndev[1];
	nt->last_out = calloc(2 * nt->maxdev, sizeof(*nt->last_out));
	nt->seq = calloc(nt->nflows, sizeof(*nt->seq));
	nt->acks = calloc(2 * nt->nflows, sizeof(*nt->acks));
	nt->ipid = calloc(2 * nt->nflows, sizeof(*nt->ipid));
	for (i = 0; i < 2; i++) {
		nt->bl[i].qcap = 256;
		nt->bl[i].deq = calloc(nt->bl[i].qcap, sizeof(*nt->bl[i].deq));
	}
	if (nt->last_out == NULL || nt->seq == NULL || nt->acks == NULL ||
	    nt->ipid == NULL || nt->bl[0].deq == NULL || nt->bl[1].deq == NULL) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
		return;
	}
	for (i = 0; i < 2 * nt->maxdev; i++)
		nt->last_out[i] = -NS;
	for (i = 0; i < nt->nflows; i++)
		nt->seq[i] = 1;
	for (i = 0; i < 2 * nt->nflows; i++)
		nt->ipid[i] = (uint16_t)ssp_synrng_below(&nt->rng, 60000);
	if (s->p->ns3_nslog && s->p->net == SSP_SYN_NET_NS3)
		ssp_synnslog_init(s);
	if (s->p->bg_load > 0)
		nt->burst_mean = (int64_t)((double)BG_BURST * BG_FRAME * 8e12 *
		    nt->nflows / (s->p->bg_load * (double)s->p->bandwidth));
}

void
ssp_synnet_start_bg(struct syn *s)
{
	struct net *nt = &s->net;
	unsigned f;

	if (s->p->bg_load <= 0 || s->p->ns3_e2e)
		return;
	for (f = 0; f < nt->nflows; f++)
		ssp_synmodel_schedule(s, ceil_ns(s->t0 / 2 + ssp_synrng_exp(&nt->rng,
		    (double)nt->burst_mean)), EV_BG_BURST, f, 0, NULL);
	if (s->p->bg_to_host > 0)
		ssp_synmodel_schedule(s, ceil_ns(s->t0 / 2 + ssp_synrng_exp(&nt->rng,
		    (double)nt->burst_mean / (s->p->bg_to_host * nt->nflows))),
		    EV_BG_PROBE, 0, 0, NULL);
}

void
ssp_synnet_free(struct syn *s)
{
	struct net *nt = &s->net;

	ssp_synnslog_free(s);
	free(nt->last_out);
	free(nt->seq);
	free(nt->acks);
	free(nt->ipid);
	free(nt->bl[0].deq);
	free(nt->bl[1].deq);
	memset(nt->bl, 0, sizeof(nt->bl));
	nt->last_out = NULL;
	nt->seq = NULL;
	nt->acks = NULL;
	nt->ipid = NULL;
}
