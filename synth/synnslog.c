/*
 * The ns-3 model's NS_LOG lines, as SimBricks' ns-3 (ns-3.38 with
 * src/simbricks) prints them at LOG_LEVEL_ALL|LOG_PREFIX_ALL, ps
 * resolution.  Line shapes follow the real Debian ns-3 3.37 samples of
 * tests/data/ns3-nslog (BridgeNetDevice, SimpleNetDevice) and
 * simbricks-netdev.cc (SimbricksNetDevice: NS_LOG_FUNCTION only):
 *   a frame from a NIC   -1 SimbricksNetDevice:handleInMsg(D)
 *                        N SimbricksNetDevice:RxInContext(D)
 *   a frame off a link   N SimpleNetDevice:Receive(D, P, proto, to, from)
 *   the bridge           N BridgeNetDevice:ReceiveFromDevice() / "UID is U" /
 *                        ForwardUnicast|ForwardBroadcast() / the DEBUG
 *                        LearningBridgeForward line / Learn() /
 *                        GetLearnedState() (unicast) / per port the LOGIC
 *                        line ("... (UID U)." or "Learning bridge state
 *                        says to use port `T'") and the port's SendFrom
 *   a send               SendFrom(D, P, <src>, <dst>, proto) and GetMtu(D)
 *                        noise; "[INFO] simple-netdev: enqueue false" when
 *                        the queue is full (SimBricks' ns-3 prints it)
 *   a transmission end   FinishTransmission(D), GetNode(peer) and, when a
 *                        packet waits, GetMtu(D) as it starts
 * A SimpleNetDevice's FinishTransmission comes at the end of its
 * transmission (the bottleneck's rate; access links have none, so at the
 * end of the same ns-3 event): this is the only way NS_LOG shows the next
 * packet's dequeue, and what sim2ev infers it from.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synnslog.h"

#define NS 1000LL
#define DEV_BASE 0x55d1f0a31490ull
#define PKT_BASE 0x55d1f0c04e20ull

struct fin {			/* a FinishTransmission to print */
	int64_t t;
	int sw, at_end;		/* at_end: the end of the current event */
	unsigned dev;
};

struct ssp_synnslog {
	struct fin *fin;
	size_t nfin, cfin;
	uint8_t *busy;		/* per (switch, device) */
	uint32_t *qlen;
	uint64_t npk;		/* packet objects made (their pointers) */
	/* the packet the bridge of the current event handles */
	int bcast;
	int in_cosim;
	uint64_t uid;
};

static uint64_t
devptr(int sw, unsigned dev)
{
	return DEV_BASE + ((uint64_t)sw * 64 + dev) * 0x1c0;
}

/* A packet object: ns-3 reuses freed memory, so few distinct pointers. */
static uint64_t
pkptr(struct ssp_synnslog *l)
{
	return PKT_BASE + (l->npk++ * 0x9e3779b9ull % 61) * 0x70;
}

static const char *
type_name(int cosim)
{
	return cosim ? "ns3::simbricks::SimbricksNetDevice" : "ns3::SimpleNetDevice";
}

static char *
prefix(char *p, int64_t t, int node)
{
	*p++ = '+';
	p = ssp_synlog_put_u64(p, (uint64_t)t / 1000000000000ull);
	*p++ = '.';
	p = ssp_synlog_put_u64_w(p, (uint64_t)t % 1000000000000ull, 12);
	for (char *q = p - 12; q < p; q++)	/* zero-padded */
		if (*q == ' ')
			*q = '0';
	p = ssp_synlog_put_str(p, "s ");
	if (node < 0)
		p = ssp_synlog_put_str(p, "-1");
	else
		p = ssp_synlog_put_u64(p, (uint64_t)node);
	*p++ = ' ';
	return p;
}

static char *
hexptr(char *p, uint64_t v)
{
	p = ssp_synlog_put_str(p, "0x");
	return ssp_synlog_put_hex(p, v);
}

/* "<Class>:<Method>(0x<dev>)" */
static void
fn_dev(struct syn *s, int64_t t, int node, const char *cls, const char *fn,
    uint64_t dev)
{
	char *p = prefix(ssp_synlog_room(s->net.log), t, node);

	p = ssp_synlog_put_str(p, cls);
	*p++ = ':';
	p = ssp_synlog_put_str(p, fn);
	*p++ = '(';
	p = hexptr(p, dev);
	*p++ = ')';
	*p++ = '\n';
	ssp_synlog_commit_n(s->net.log, p, 1);
}

/* "BridgeNetDevice:<text>" */
static void
bridge(struct syn *s, int64_t t, int node, const char *text)
{
	char *p = prefix(ssp_synlog_room(s->net.log), t, node);

	p = ssp_synlog_put_str(p, "BridgeNetDevice:");
	p = ssp_synlog_put_str(p, text);
	*p++ = '\n';
	ssp_synlog_commit_n(s->net.log, p, 1);
}

static unsigned
proto(const struct pkt *pk)
{
	return pk->kind == PK_BG_ARP ? 2054 : 2048;
}

static uint64_t
dst_mac(const struct pkt *pk)
{
	return pk->broadcast ? 0xffffffffffffull : pk->dmac;
}

static size_t
didx(const struct syn *s, int sw, unsigned dev)
{
	return (size_t)sw * s->net.maxdev + dev;
}

void
ssp_synnslog_init(struct syn *s)
{
	struct net *nt = &s->net;
	struct ssp_synnslog *l = calloc(1, sizeof(*l));
	unsigned dev;
	int sw;

	if (l == NULL || (l->busy = calloc(2 * nt->maxdev, 1)) == NULL ||
	    (l->qlen = calloc(2 * nt->maxdev, sizeof(*l->qlen))) == NULL) {
		if (l != NULL)
			free(l->busy);
		free(l);
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
		return;
	}
	nt->nslog = l;
	if (s->dry)
		return;
	/* Node::AddDevice calls SetIfIndex before the simulation runs */
	for (sw = 0; sw < 2; sw++)
		for (dev = 1; dev < nt->ndev[sw]; dev++) {
			unsigned base = s->p->ns3_e2e ? 1 : 2;	/* first NIC's */
			int cosim = dev >= base && dev < base + nt->ncosim[sw];
			char *p = prefix(ssp_synlog_room(nt->log), 0, -1);

			p = ssp_synlog_put_str(p, cosim ? "SimbricksNetDevice:SetIfIndex(" :
			    "SimpleNetDevice:SetIfIndex(");
			p = hexptr(p, devptr(sw, dev));
			p = ssp_synlog_put_str(p, ", ");
			p = ssp_synlog_put_u64(p, dev);
			*p++ = ')';
			*p++ = '\n';
			ssp_synlog_commit_n(nt->log, p, 1);
		}
}

void
ssp_synnslog_free(struct syn *s)
{
	struct ssp_synnslog *l = s->net.nslog;

	if (l == NULL)
		return;
	free(l->fin);
	free(l->busy);
	free(l->qlen);
	free(l);
	s->net.nslog = NULL;
}

/* A SimpleNetDevice's transmission ends: the next waiting packet starts. */
static void
finish(struct syn *s, const struct fin *f)
{
	struct ssp_synnslog *l = s->net.nslog;
	size_t k = didx(s, f->sw, f->dev);

	l->busy[k] = 0;
	if (!s->dry) {
		fn_dev(s, f->t, f->sw, "SimpleNetDevice", "FinishTransmission",
		    devptr(f->sw, f->dev));
		/* SimpleChannel::Send asks the peer device for its node */
		fn_dev(s, f->t, f->sw, "SimpleNetDevice", "GetNode",
		    devptr(!f->sw, f->dev) + 0x40);
	}
	if (l->qlen[k] > 0) {
		l->qlen[k]--;
		l->busy[k] = 1;
		s->net.nev[SSP_EV_NET_DEQ]++;
		if (!s->dry)
			fn_dev(s, f->t, f->sw, "SimpleNetDevice", "GetMtu",
			    devptr(f->sw, f->dev));
	}
}

/* Print the FinishTransmission lines due before a line at t (at t too
 * when that line starts another ns-3 event). */
static void
flush(struct syn *s, int64_t t, int event_start)
{
	struct ssp_synnslog *l = s->net.nslog;
	size_t i = 0, j;

	while (i < l->nfin && (l->fin[i].t < t || (event_start && l->fin[i].t <= t))) {
		struct fin f = l->fin[i];

		finish(s, &f);
		i++;
	}
	if (i > 0) {
		for (j = i; j < l->nfin; j++)
			l->fin[j - i] = l->fin[j];
		l->nfin -= i;
	}
}

/* Schedule a FinishTransmission (kept in time order). */
static void
later(struct syn *s, int64_t t, int sw, unsigned dev, int at_end)
{
	struct ssp_synnslog *l = s->net.nslog;
	size_t i;

	if (l->nfin == l->cfin) {
		size_t cap = l->cfin ? l->cfin * 2 : 64;
		struct fin *f = realloc(l->fin, cap * sizeof(*f));

		if (f == NULL) {
			s->failed = 1;
			ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
			return;
		}
		l->fin = f;
		l->cfin = cap;
	}
	for (i = l->nfin; i > 0 && l->fin[i - 1].t > t; i--)
		l->fin[i] = l->fin[i - 1];
	l->fin[i] = (struct fin){ t, sw, at_end, dev };
	l->nfin++;
}

/* The bridge takes the frame the device line before received. */
static void
bridge_rx(struct syn *s, int64_t t, int sw, int cosim, const struct pkt *pk)
{
	struct ssp_synnslog *l = s->net.nslog;
	char *p;

	l->bcast = pk->broadcast;
	l->in_cosim = cosim;
	l->uid = pk->uid;
	s->net.nev[SSP_EV_NET_ENQ]++;
	s->net.nev[SSP_EV_NET_DEQ]++;
	if (s->dry)
		return;
	bridge(s, t, sw, "ReceiveFromDevice()");
	p = prefix(ssp_synlog_room(s->net.log), t, sw);
	p = ssp_synlog_put_str(p, "BridgeNetDevice:ReceiveFromDevice(): [DEBUG] UID is ");
	p = ssp_synlog_put_u64(p, pk->uid);
	*p++ = '\n';
	ssp_synlog_commit_n(s->net.log, p, 1);
	bridge(s, t, sw, pk->broadcast ? "ForwardBroadcast()" : "ForwardUnicast()");
	p = prefix(ssp_synlog_room(s->net.log), t, sw);
	p = ssp_synlog_put_str(p, pk->broadcast ? "BridgeNetDevice:ForwardBroadcast(): "
	    "[DEBUG] LearningBridgeForward (incomingPort=" : "BridgeNetDevice:"
	    "ForwardUnicast(): [DEBUG] LearningBridgeForward (incomingPort=");
	p = ssp_synlog_put_str(p, type_name(cosim));
	p = ssp_synlog_put_str(p, ", packet=");
	p = hexptr(p, pkptr(l));
	p = ssp_synlog_put_str(p, ", protocol=");
	p = ssp_synlog_put_u64(p, proto(pk));
	p = ssp_synlog_put_str(p, ", src=");
	p = ssp_synlog_put_mac(p, pk->smac);
	p = ssp_synlog_put_str(p, ", dst=");
	p = ssp_synlog_put_mac(p, dst_mac(pk));
	*p++ = ')';
	*p++ = '\n';
	ssp_synlog_commit_n(s->net.log, p, 1);
	bridge(s, t, sw, "Learn()");
	if (!pk->broadcast)
		bridge(s, t, sw, "GetLearnedState()");
}

/* The bridge's line for one port a frame leaves by, then its SendFrom. */
static void
send_from(struct syn *s, int64_t t, int sw, unsigned dev, int cosim,
    const struct pkt *pk)
{
	struct ssp_synnslog *l = s->net.nslog;
	char *p = prefix(ssp_synlog_room(s->net.log), t, sw);

	if (l->bcast) {
		p = ssp_synlog_put_str(p, "BridgeNetDevice:ForwardBroadcast(): [LOGIC] "
		    "LearningBridgeForward (");
		p = ssp_synlog_put_mac(p, pk->smac);
		p = ssp_synlog_put_str(p, " => ");
		p = ssp_synlog_put_mac(p, dst_mac(pk));
		p = ssp_synlog_put_str(p, "): ");
		p = ssp_synlog_put_str(p, type_name(l->in_cosim));
		p = ssp_synlog_put_str(p, " --> ");
		p = ssp_synlog_put_str(p, type_name(cosim));
		p = ssp_synlog_put_str(p, " (UID ");
		p = ssp_synlog_put_u64(p, l->uid);
		p = ssp_synlog_put_str(p, ").");
	} else {
		p = ssp_synlog_put_str(p, "BridgeNetDevice:ForwardUnicast(): [LOGIC] "
		    "Learning bridge state says to use port `");
		p = ssp_synlog_put_str(p, type_name(cosim));
		*p++ = '\'';
	}
	*p++ = '\n';
	ssp_synlog_commit_n(s->net.log, p, 1);
	p = prefix(ssp_synlog_room(s->net.log), t, sw);
	p = ssp_synlog_put_str(p, cosim ? "SimbricksNetDevice:SendFrom(" :
	    "SimpleNetDevice:SendFrom(");
	p = hexptr(p, devptr(sw, dev));
	p = ssp_synlog_put_str(p, ", ");
	p = hexptr(p, pkptr(l));
	p = ssp_synlog_put_str(p, ", 02-06-");
	p = ssp_synlog_put_mac(p, pk->smac);
	p = ssp_synlog_put_str(p, ", 02-06-");
	p = ssp_synlog_put_mac(p, dst_mac(pk));
	p = ssp_synlog_put_str(p, ", ");
	p = ssp_synlog_put_u64(p, proto(pk));
	*p++ = ')';
	*p++ = '\n';
	ssp_synlog_commit_n(s->net.log, p, 1);
	if (!cosim)	/* SendFrom checks the MTU */
		fn_dev(s, t, sw, "SimpleNetDevice", "GetMtu", devptr(sw, dev));
}

void
ssp_synnslog_line(struct syn *s, char c, int64_t t, int sw, unsigned dev,
    int cosim, const char *source, const struct pkt *pk)
{
	struct ssp_synnslog *l = s->net.nslog;
	struct net *nt = &s->net;
	size_t k = didx(s, sw, dev);
	char *p;

	if (l == NULL)
		return;
	if (c == '+' && strcmp(source, "RxPacketFromAdapter") == 0) {
		flush(s, t, 1);
		if (s->dry)
			return;
		fn_dev(s, t, -1, "SimbricksNetDevice", "handleInMsg", devptr(sw, dev));
		fn_dev(s, t, sw, "SimbricksNetDevice", "RxInContext", devptr(sw, dev));
		return;
	}
	if (c == '+' && !cosim && strcmp(source, "RxPacketFromNetwork") == 0) {
		flush(s, t, 1);		/* SimpleChannel delivers: a new event */
		if (s->dry)
			return;
		p = prefix(ssp_synlog_room(nt->log), t, sw);
		p = ssp_synlog_put_str(p, "SimpleNetDevice:Receive(");
		p = hexptr(p, devptr(sw, dev));
		p = ssp_synlog_put_str(p, ", ");
		p = hexptr(p, pkptr(l));
		p = ssp_synlog_put_str(p, ", ");
		p = ssp_synlog_put_u64(p, proto(pk));
		p = ssp_synlog_put_str(p, ", ");
		p = ssp_synlog_put_mac(p, dst_mac(pk));
		p = ssp_synlog_put_str(p, ", ");
		p = ssp_synlog_put_mac(p, pk->smac);
		*p++ = ')';
		*p++ = '\n';
		ssp_synlog_commit_n(nt->log, p, 1);
		return;
	}
	if (c == '-' && (strcmp(source, "TxPacketToNetwork") == 0 ||
	    strcmp(source, "TxPacketToAttachedDevice") == 0)) {
		flush(s, t, 0);
		bridge_rx(s, t, sw, cosim, pk);
		return;
	}
	if (c == '+' && cosim) {	/* to a NIC: SimbricksNetDevice sends at once */
		flush(s, t, 0);
		nt->nev[SSP_EV_NET_ENQ]++;
		nt->nev[SSP_EV_NET_DEQ]++;
		if (!s->dry)
			send_from(s, t, sw, dev, 1, pk);
		return;
	}
	if (c == '+') {			/* a SimpleNetDevice's queue */
		flush(s, t, 0);
		nt->nev[SSP_EV_NET_ENQ]++;
		if (!s->dry)
			send_from(s, t, sw, dev, 0, pk);
		if (!l->busy[k]) {	/* StartTransmission at once */
			l->busy[k] = 1;
			nt->nev[SSP_EV_NET_DEQ]++;
			if (!s->dry) {
				fn_dev(s, t, sw, "SimpleNetDevice", "GetMtu", devptr(sw, dev));
				fn_dev(s, t, sw, "SimpleNetDevice", "GetMtu", devptr(sw, dev));
			}
		} else {
			l->qlen[k]++;
			if (!s->dry)
				fn_dev(s, t, sw, "SimpleNetDevice", "GetMtu", devptr(sw, dev));
		}
		return;
	}
	if (c == 'd') {			/* the queue is full */
		flush(s, t, 0);
		nt->nev[SSP_EV_NET_ENQ]++;
		nt->nev[SSP_EV_NET_DROP]++;
		if (s->dry)
			return;
		send_from(s, t, sw, dev, 0, pk);
		p = prefix(ssp_synlog_room(nt->log), t, sw);
		p = ssp_synlog_put_str(p, "SimpleNetDevice:SendFrom(): [INFO] "
		    "simple-netdev: enqueue false\n");
		ssp_synlog_commit_n(nt->log, p, 1);
		return;
	}
	if (c == '-' && strcmp(source, "TxQueue/Dequeue") == 0) {
		/* the bottleneck's dequeue is an event of its own; its
		 * transmission ends after the frame's time on the wire.  An
		 * access link has no rate: it ends with this event. */
		if (dev == 1) {
			int64_t tx = (int64_t)((double)pk->frame * 8e12 /
			    (double)s->p->bandwidth);

			flush(s, t, 1);
			later(s, t + (tx + NS - 1) / NS * NS, sw, dev, 0);
		} else {
			later(s, t, sw, dev, 1);
		}
		return;
	}
	/* TxPacketToAdapter: SendFrom said it all */
}
