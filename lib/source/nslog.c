#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/map.h"
#include "base/scan.h"
#include "source/nslog.h"

#define DEV_MAX   4096		/* devices remembered; later ones: unknown */
#define FIFO_MAX  65536		/* packets one device queue may hold */
#define NIC_UIDS  65536		/* packets from NICs remembered (power of 2) */
#define NONE      ((uint64_t)(int64_t)-1)

/* A packet waiting in a SimpleNetDevice's queue. */
struct fent {
	int64_t uid;
	uint64_t src, dst;
	uint32_t proto;
};

enum { C_OTHER, C_SIMPLE, C_SIMBRICKS };

struct dev {
	uint64_t ptr;
	uint32_t ifindex;
	uint8_t cls;
	uint8_t busy;		/* SimpleNetDevice: a transmission is on */
	struct fent *q;		/* its queue (a ring), NULL until used */
	uint32_t qhead, qlen, qcap;
};

/* What the last lines said about the packet being handled now: ns-3 runs
 * one event at a time, and the lines of one event share time and node. */
struct cur {
	int valid;
	int64_t ts;
	uint32_t node;
};

struct ssp_nslog {
	struct dev *dev;
	size_t ndev, cdev;
	struct ssp_map devs, queues, qdiscs;	/* pointer -> index in dev */
	/* the receive line waiting for the bridge's "UID is" line */
	struct cur pend;
	uint32_t pend_dev;
	unsigned pend_boundary;
	uint64_t pend_src, pend_dst;
	uint32_t pend_proto;
	/* the packet the bridge handles */
	struct cur br;
	int64_t br_uid;
	/* the last SimpleNetDevice:SendFrom, which a drop line may undo */
	struct cur send;
	uint32_t send_dev;
	uint64_t send_pkt;
	int send_dropped;
	/* the time prefix parsed last: the lines of one ns-3 event share it */
	char last_tp[24];
	size_t last_tpn;
	int64_t last_ts;
	/* the last root queue-disc enqueue, for a child's drop of that item */
	struct cur qenq;
	uint32_t qenq_dev;
	uint64_t qenq_item;
	/* the uids of the last NIC_UIDS packets that came from a NIC, in a
	 * ring (oldest first) and a set: what "interesting" means */
	uint64_t *nic_uid;
	size_t nic_head, nic_n;
	struct ssp_map nic_set;
	/* atoms */
	uint32_t t_simple, t_simbricks, t_qdisc;
	uint32_t s_sendfrom, s_start, s_receive, s_rxin, s_bridge, s_false,
	    s_dbe, s_dad, s_enq, s_transmit;
};

int
ssp_nslog_new(struct ssp_nslog **lp, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e)
{
	struct ssp_nslog *l = calloc(1, sizeof(*l));
	struct ssp_atoms *a = cfg->atoms;
#define A(v, s) ((l->v = ssp_atoms_intern(a, s, sizeof(s) - 1)) != 0)

	*lp = NULL;
	if (l == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if (!A(t_simple, "SimpleNetDevice") || !A(t_simbricks, "SimbricksNetDevice") ||
	    !A(t_qdisc, "QueueDisc") || !A(s_sendfrom, "SendFrom") ||
	    !A(s_start, "StartTransmission") || !A(s_receive, "Receive") ||
	    !A(s_rxin, "RxInContext") || !A(s_bridge, "ReceiveFromDevice") ||
	    !A(s_false, "enqueue false") || !A(s_dbe, "DropBeforeEnqueue") ||
	    !A(s_dad, "DropAfterDequeue") || !A(s_enq, "Enqueue") ||
	    !A(s_transmit, "Transmit")) {
		free(l);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory (names)");
	}
#undef A
	*lp = l;
	return SSP_OK;
}

void
ssp_nslog_free(struct ssp_nslog *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->ndev; i++)
		free(l->dev[i].q);
	free(l->dev);
	free(l->nic_uid);
	ssp_map_free(&l->nic_set);
	ssp_map_free(&l->devs);
	ssp_map_free(&l->queues);
	ssp_map_free(&l->qdiscs);
	free(l);
}

/* --- what the log said before --------------------------------------------- */

/* The device at a pointer, made on first sight; NULL past DEV_MAX (or out
 * of memory): its events name no device. */
static struct dev *
dev_get(struct ssp_nslog *l, uint64_t ptr, int make)
{
	struct ssp_map_slot *s = ssp_map_find(&l->devs, ptr);
	struct dev *d;

	if (s != NULL)
		return &l->dev[s->val];
	if (!make || l->ndev == DEV_MAX ||
	    ssp_buf_array((void **)&l->dev, &l->cdev, l->ndev + 1, sizeof(*d)) != 0 ||
	    ssp_map_add(&l->devs, ptr, (uint32_t)l->ndev) == NULL)
		return NULL;
	d = &l->dev[l->ndev++];
	memset(d, 0, sizeof(*d));
	d->ptr = ptr;
	d->ifindex = SSP_NSLOG_UNKNOWN;
	return d;
}

static uint32_t
dev_index(const struct ssp_nslog *l, const struct dev *d)
{
	return (uint32_t)(d - l->dev);
}

/* map[key] = device index (last binding wins: ns-3 reuses freed memory). */
static void
bind(struct ssp_map *m, uint64_t key, uint32_t di)
{
	int isnew;
	struct ssp_map_slot *s = ssp_map_put(m, key, &isnew);

	if (s != NULL)
		s->val = di;
}

static struct dev *
bound(struct ssp_nslog *l, const struct ssp_map *m, uint64_t key)
{
	struct ssp_map_slot *s = ssp_map_find(m, key);

	return s != NULL ? &l->dev[s->val] : NULL;
}

/* A packet from a NIC: ns-3 has no Interesting flag, this is its meaning
 * (the trace helper's: the packet came from a simulated host). */
static void
from_nic(struct ssp_nslog *l, int64_t uid)
{
	struct ssp_map_slot *s;

	if (ssp_map_find(&l->nic_set, (uint64_t)uid) != NULL)
		return;
	if (l->nic_uid == NULL &&
	    (l->nic_uid = malloc(NIC_UIDS * sizeof(*l->nic_uid))) == NULL)
		return;		/* then nothing is interesting */
	if (l->nic_n == NIC_UIDS) {	/* forget the oldest */
		if ((s = ssp_map_find(&l->nic_set, l->nic_uid[l->nic_head])) != NULL)
			ssp_map_del(&l->nic_set, s);
		l->nic_head = (l->nic_head + 1) & (NIC_UIDS - 1);
		l->nic_n--;
	}
	if (ssp_map_add(&l->nic_set, (uint64_t)uid, 0) == NULL)
		return;
	l->nic_uid[(l->nic_head + l->nic_n++) & (NIC_UIDS - 1)] = (uint64_t)uid;
}

static int
interesting(const struct ssp_nslog *l, int64_t uid)
{
	return uid >= 0 && ssp_map_find(&l->nic_set, (uint64_t)uid) != NULL;
}

static int
fifo_push(struct dev *d, const struct fent *f)
{
	if (d->qlen == d->qcap) {
		uint32_t cap = d->qcap ? d->qcap * 2 : 64, i;
		struct fent *q;

		if (d->qcap >= FIFO_MAX || (q = malloc(cap * sizeof(*q))) == NULL)
			return -1;
		for (i = 0; i < d->qlen; i++)
			q[i] = d->q[(d->qhead + i) & (d->qcap - 1)];
		free(d->q);
		d->q = q;
		d->qcap = cap;
		d->qhead = 0;
	}
	d->q[(d->qhead + d->qlen++) & (d->qcap - 1)] = *f;
	return 0;
}

/* --- scanning ---------------------------------------------------------------- */

/* Hex digit values + 1, 0 for other bytes (pointers are 12 digits: a
 * table beats both the branches and the SWAR set-up of scan.h here). */
#define HX(c) ((c) >= '0' && (c) <= '9' ? (c) - '0' + 1 : (c) >= 'a' && \
	(c) <= 'f' ? (c) - 'a' + 11 : (c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 11 : 0)
#define H4(b) HX(b), HX(b + 1), HX(b + 2), HX(b + 3)
#define H16(b) H4(b), H4(b + 4), H4(b + 8), H4(b + 12)
static const unsigned char hexv[256] = { H16(0), H16(16), H16(32), H16(48),
	H16(64), H16(80), H16(96), H16(112) };

/* "0x<hex>" (at most 16 digits) or "0" (a null Ptr) */
static int
ptr(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp, *d;
	uint64_t r = 0;
	unsigned x;

	if (end - p >= 3 && p[0] == '0' && p[1] == 'x') {
		for (d = p += 2; p < end && (x = hexv[(unsigned char)*p]) != 0; p++)
			r = r << 4 | (x - 1);
		if (p == d || p - d > 16)
			return -1;
	} else if (p < end && *p == '0') {
		p++;
	} else {
		return -1;
	}
	*pp = p;
	*v = r;
	return 0;
}

static int
comma(const char **pp, const char *end)
{
	return SSP_LIT(pp, end, ", ");
}

/* Mac48Address: "aa:bb:cc:dd:ee:ff" */
static int
mac(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t m = 0;
	int i, h, lo;

	if (end - p < 17)
		return -1;
	for (i = 0; i < 6; i++, p += 3) {
		if ((h = ssp_hexval(p[0])) < 0 || (lo = ssp_hexval(p[1])) < 0 ||
		    (i < 5 && p[2] != ':'))
			return -1;
		m = m << 8 | (uint64_t)(h << 4 | lo);
	}
	*pp = p - 1;
	*v = m;
	return 0;
}

/* Address: "<type>-<len>-aa:bb:cc:dd:ee:ff" (type and len two hex digits;
 * a Mac48Address is length 06) */
static int
address(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;

	if (end - p < 6 || ssp_hexval(p[0]) < 0 || ssp_hexval(p[1]) < 0 ||
	    p[2] != '-' || p[3] != '0' || p[4] != '6' || p[5] != '-')
		return -1;
	p += 6;
	if (mac(&p, end, v) != 0)
		return -1;
	*pp = p;
	return 0;
}

static int
u32(const char **pp, const char *end, uint32_t *v)
{
	uint64_t x;

	if (ssp_scan_dec(pp, end, &x) != 0 || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int
close_paren(const char *p, const char *end)
{
	return end - p == 1 && *p == ')' ? 0 : -1;
}

/* Identifier bytes: 1 letters and '_' (and '~', a destructor's first),
 * 2 digits. */
#define I1(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || \
	(c) == '_' || (c) == '~' ? 1 : (c) >= '0' && (c) <= '9' ? 2 : 0)
#define I4(b) I1(b), I1(b + 1), I1(b + 2), I1(b + 3)
#define I16(b) I4(b), I4(b + 4), I4(b + 8), I4(b + 12)
static const unsigned char idc[256] = { I16(0), I16(16), I16(32), I16(48),
	I16(64), I16(80), I16(96), I16(112) };

/* End of the identifier at p: [A-Za-z_~][A-Za-z_~0-9]*; p itself when none. */
static inline const char *
ident(const char *p, const char *end)
{
	const char *q = p;

	if (q < end && idc[(unsigned char)*q] == 1)
		for (q++; q < end && idc[(unsigned char)*q] != 0; q++)
			;
	return q;
}

/* "<digits>[.<digits>]s" as TimePrinter writes it ("%.12f" at ps
 * resolution, "%.9f" at ns) to ps, rounded to nearest.  s is past the
 * "+" and known to be digits and dots up to an 's'. */
static int
seconds(const char *p, const char *end, int64_t *ps)
{
	static const uint64_t p10[20] = { 1ULL, 10ULL, 100ULL, 1000ULL,
	    10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
	    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	    10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
	    10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
	    10000000000000000000ULL };
	uint64_t whole = 0, frac = 0;
	const char *f;
	size_t nd = 0;
	unsigned d;

	for (f = p; p < end && (d = (unsigned)*p - '0') < 10; p++)
		whole = whole * 10 + d;
	if (p == f || p - f > 7 || whole > (uint64_t)INT64_MAX / p10[12] - 1)
		return -1;	/* past 9.2e6 s in ps */
	if (p < end && *p == '.') {
		for (f = ++p; p < end && (d = (unsigned)*p - '0') < 10; p++)
			if (p - f < 19)
				frac = frac * 10 + d;
		if (p - f > 19)
			return -1;	/* more than 19 decimals */
		nd = (size_t)(p - f);
	}
	if (p >= end || *p != 's')
		return -1;
	if (nd > 12) {		/* finer than ps: round to nearest */
		uint64_t q = p10[nd - 12];

		frac = frac / q + (frac % q >= q - frac % q);
	} else {
		frac *= p10[12 - nd];
	}
	*ps = (int64_t)(whole * p10[12] + frac);
	return 0;
}

#define IS(p, n, s) ((n) == sizeof(s) - 1 && memcmp((p), (s), sizeof(s) - 1) == 0)

/* --- events ------------------------------------------------------------------ */

static void
fill(const struct ssp_nslog *l, struct ssp_rec *r, unsigned type, int64_t ts,
    uint32_t node, uint32_t dev, uint32_t devtype, uint32_t source, int64_t uid,
    unsigned boundary, uint64_t src, uint64_t dst, uint32_t proto)
{
	r->type = type;
	r->ts = ts;
	r->f[SSP_F_NET_NODE] = node;
	r->f[SSP_F_NET_DEV] = dev;
	r->f[SSP_F_NET_DEVTYPE] = devtype;
	r->f[SSP_F_NET_SOURCE] = source;
	r->f[SSP_F_NET_UID] = (uint64_t)uid;
	r->f[SSP_F_NET_INTERESTING] = (uint64_t)interesting(l, uid);
	r->f[SSP_F_NET_BOUNDARY] = boundary;
	r->f[SSP_F_NET_PAYLOAD] = NONE;
	r->f[SSP_F_NET_ETH_TYPE] = proto;
	r->f[SSP_F_NET_ETH_SRC] = src;
	r->f[SSP_F_NET_ETH_DST] = dst;
	r->f[SSP_F_NET_IP_SRC] = 0;
	r->f[SSP_F_NET_IP_DST] = 0;
	r->f[SSP_F_NET_IP_PROTO] = NONE;
	r->f[SSP_F_NET_IP_LEN] = 0;
	r->f[SSP_F_NET_IP_ID] = NONE;
	r->f[SSP_F_NET_SPORT] = 0;
	r->f[SSP_F_NET_DPORT] = 0;
}

static uint32_t
ifx(const struct dev *d)
{
	return d != NULL ? d->ifindex : SSP_NSLOG_UNKNOWN;
}

static int
same(const struct cur *c, int64_t ts, uint32_t node)
{
	return c->valid && c->ts == ts && c->node == node;
}

/* The uid the bridge is forwarding in this event, or -1. */
static int64_t
bridge_uid(const struct ssp_nslog *l, int64_t ts, uint32_t node)
{
	return same(&l->br, ts, node) ? l->br_uid : -1;
}

/* The queued packet at the head of d starts its transmission. */
static void
dequeue(struct ssp_nslog *l, struct dev *d, struct ssp_rec *r, int64_t ts,
    uint32_t node)
{
	struct fent f = d->q[d->qhead];

	d->qhead = (d->qhead + 1) & (d->qcap - 1);
	d->qlen--;
	d->busy = 1;
	fill(l, r, SSP_EV_NET_DEQ, ts, node, d->ifindex, l->t_simple, l->s_start,
	    f.uid, SSP_NET_INTERNAL, f.src, f.dst, f.proto);
}

/* --- the lines ------------------------------------------------------------- */

struct line {
	int64_t ts;		/* valid once have_ts: parsed when needed */
	const char *tsp, *tend;	/* the time prefix, after '+', up to 's' */
	int have_ts;
	uint32_t node;
	const char *fn, *args, *end;	/* method name; after '(' */
	size_t fnlen;
	const char *msg;		/* message lines: after "(): [LEVEL] " */
};

/* The line's time, for the lines that need it; -1: malformed (o says). */
static int
ts_of(struct ssp_nslog *l, struct line *ln, struct ssp_pline *o)
{
	size_t n = (size_t)(ln->tend - ln->tsp);

	if (ln->have_ts)
		return 0;
	if (n == l->last_tpn && memcmp(ln->tsp, l->last_tp, n) == 0) {
		ln->ts = l->last_ts;
	} else if (seconds(ln->tsp, ln->end, &ln->ts) != 0) {
		ssp_pline_bad(o, "ns-3 NS_LOG: expected the time prefix "
		    "'+<seconds>s ' (at most 9.2e6 s)");
		return -1;
	} else if (n <= sizeof(l->last_tp)) {
		memcpy(l->last_tp, ln->tsp, n);
		l->last_tpn = n;
		l->last_ts = ln->ts;
	}
	ln->have_ts = 1;
	return 0;
}

#define TS(ln, o) do { if (ts_of(l, (ln), (o)) != 0) return; } while (0)

static const char bad_send[] = "ns-3 NS_LOG SendFrom: expected '(0x<device>, "
    "0x<packet>, <source address>, <destination address>, <protocol>)'";

/* SimpleNetDevice / SimbricksNetDevice method lines (NS_LOG_FUNCTION). */
static void
device_fn(struct ssp_nslog *l, int simbricks, struct line *ln,
    struct ssp_pline *o)
{
	const char *p = ln->args, *end = ln->end;
	uint64_t dp, pk, src, dst;
	uint32_t n, proto;
	struct dev *d;

	if (IS(ln->fn, ln->fnlen, "SendFrom")) {
		struct fent f;

		if (ptr(&p, end, &dp) != 0 || comma(&p, end) != 0 ||
		    ptr(&p, end, &pk) != 0 || comma(&p, end) != 0 ||
		    address(&p, end, &src) != 0 || comma(&p, end) != 0 ||
		    address(&p, end, &dst) != 0 || comma(&p, end) != 0 ||
		    u32(&p, end, &proto) != 0 || close_paren(p, end) != 0)
			return ssp_pline_bad(o, bad_send);
		TS(ln, o);
		d = dev_get(l, dp, 1);
		if (d != NULL)
			d->cls = simbricks ? C_SIMBRICKS : C_SIMPLE;
		f.uid = bridge_uid(l, ln->ts, ln->node);
		f.src = src;
		f.dst = dst;
		f.proto = proto;
		if (simbricks) {	/* straight to the adapter, no queue */
			o->pre = 1;
			fill(l, &o->pre_ev, SSP_EV_NET_ENQ, ln->ts, ln->node, ifx(d),
			    l->t_simbricks, l->s_sendfrom, f.uid, SSP_NET_INTERNAL,
			    src, dst, proto);
			ssp_pline_event(o, SSP_EV_NET_DEQ, (uint64_t)ln->ts);
			fill(l, &o->ev, SSP_EV_NET_DEQ, ln->ts, ln->node, ifx(d),
			    l->t_simbricks, l->s_sendfrom, f.uid, SSP_NET_TO_ADAPTER,
			    src, dst, proto);
			return;
		}
		l->send = (struct cur){ 1, ln->ts, ln->node };
		l->send_dev = d != NULL ? dev_index(l, d) : 0;
		l->send_pkt = pk;
		l->send_dropped = d == NULL;
		ssp_pline_event(o, SSP_EV_NET_ENQ, (uint64_t)ln->ts);
		fill(l, &o->ev, SSP_EV_NET_ENQ, ln->ts, ln->node, ifx(d), l->t_simple,
		    l->s_sendfrom, f.uid, SSP_NET_INTERNAL, src, dst, proto);
		if (d == NULL || fifo_push(d, &f) != 0) {
			l->send_dropped = 1;	/* beyond the bounds: no dequeue */
			return;
		}
		if (!d->busy) {		/* idle: StartTransmission dequeues it now */
			o->pre = 1;
			o->pre_ev = o->ev;
			dequeue(l, d, &o->ev, ln->ts, ln->node);
		}
		return;
	}
	if (IS(ln->fn, ln->fnlen, "Receive") && !simbricks) {
		if (ptr(&p, end, &dp) != 0 || comma(&p, end) != 0 ||
		    ptr(&p, end, &pk) != 0 || comma(&p, end) != 0 ||
		    u32(&p, end, &proto) != 0 || comma(&p, end) != 0 ||
		    mac(&p, end, &dst) != 0 || comma(&p, end) != 0 ||
		    mac(&p, end, &src) != 0 || close_paren(p, end) != 0)
			return ssp_pline_bad(o, "ns-3 NS_LOG SimpleNetDevice:Receive: "
			    "expected '(0x<device>, 0x<packet>, <protocol>, <to>, <from>)'");
		TS(ln, o);
		d = dev_get(l, dp, 1);
		l->pend = (struct cur){ 1, ln->ts, ln->node };
		l->pend_dev = d != NULL ? dev_index(l, d) : UINT32_MAX;
		l->pend_boundary = SSP_NET_INTERNAL;
		l->pend_src = src;
		l->pend_dst = dst;
		l->pend_proto = proto;
		return ssp_pline_skip(o, SSP_SKIP_DEFERRED);
	}
	if (IS(ln->fn, ln->fnlen, "RxInContext") && simbricks) {
		if (ptr(&p, end, &dp) != 0 || close_paren(p, end) != 0)
			return ssp_pline_bad(o, "ns-3 NS_LOG SimbricksNetDevice:"
			    "RxInContext: expected '(0x<device>)'");
		TS(ln, o);
		d = dev_get(l, dp, 1);
		if (d != NULL)
			d->cls = C_SIMBRICKS;
		l->pend = (struct cur){ 1, ln->ts, ln->node };
		l->pend_dev = d != NULL ? dev_index(l, d) : UINT32_MAX;
		l->pend_boundary = SSP_NET_FROM_ADAPTER;
		l->pend_src = l->pend_dst = 0;
		l->pend_proto = 0;
		return ssp_pline_skip(o, SSP_SKIP_DEFERRED);
	}
	if (IS(ln->fn, ln->fnlen, "FinishTransmission") && !simbricks) {
		if (ptr(&p, end, &dp) != 0 || close_paren(p, end) != 0)
			return ssp_pline_bad(o, "ns-3 NS_LOG SimpleNetDevice:"
			    "FinishTransmission: expected '(0x<device>)'");
		TS(ln, o);
		if ((d = dev_get(l, dp, 0)) == NULL)
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		d->busy = 0;
		if (d->qlen == 0)
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		ssp_pline_event(o, SSP_EV_NET_DEQ, (uint64_t)ln->ts);
		dequeue(l, d, &o->ev, ln->ts, ln->node);
		return;
	}
	if (IS(ln->fn, ln->fnlen, "SetIfIndex")) {
		if (ptr(&p, end, &dp) != 0 || comma(&p, end) != 0 ||
		    u32(&p, end, &n) != 0 || close_paren(p, end) != 0)
			return ssp_pline_bad(o, "ns-3 NS_LOG SetIfIndex: expected "
			    "'(0x<device>, <index>)'");
		if ((d = dev_get(l, dp, 1)) != NULL) {
			d->ifindex = n;
			d->busy = 0;	/* a new device at a reused address */
			d->qlen = 0;
		}
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	}
	if (IS(ln->fn, ln->fnlen, "SetQueue") && !simbricks) {
		uint64_t q;

		if (ptr(&p, end, &dp) != 0 || comma(&p, end) != 0 ||
		    ptr(&p, end, &q) != 0 || close_paren(p, end) != 0)
			return ssp_pline_bad(o, "ns-3 NS_LOG SimpleNetDevice:SetQueue: "
			    "expected '(0x<device>, 0x<queue>)'");
		if ((d = dev_get(l, dp, 1)) != NULL)
			bind(&l->queues, q, dev_index(l, d));
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	}
	return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
}

/* The last SendFrom of this event did not make it into the queue. */
static void
undo_send(struct ssp_nslog *l, struct line *ln, uint32_t source,
    struct ssp_pline *o)
{
	struct dev *d;
	struct fent f;

	TS(ln, o);
	if (l->send_dropped || !same(&l->send, ln->ts, ln->node) ||
	    (d = &l->dev[l->send_dev])->qlen == 0)
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	l->send_dropped = 1;
	f = d->q[(d->qhead + --d->qlen) & (d->qcap - 1)];
	ssp_pline_event(o, SSP_EV_NET_DROP, (uint64_t)ln->ts);
	fill(l, &o->ev, SSP_EV_NET_DROP, ln->ts, ln->node, d->ifindex, l->t_simple,
	    source, f.uid, SSP_NET_INTERNAL, f.src, f.dst, f.proto);
}

/* "UID is N": the bridge takes the packet of the pending receive. */
static void
bridge_rx(struct ssp_nslog *l, struct line *ln, const char *p,
    struct ssp_pline *o)
{
	uint64_t uid;
	struct dev *d;
	uint32_t type;

	if (ssp_scan_dec(&p, ln->end, &uid) != 0 || p != ln->end || uid > INT64_MAX)
		return ssp_pline_bad(o, "ns-3 NS_LOG BridgeNetDevice: expected "
		    "'UID is <n>'");
	TS(ln, o);
	l->br = (struct cur){ 1, ln->ts, ln->node };
	l->br_uid = (int64_t)uid;
	if (!same(&l->pend, ln->ts, ln->node))
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	l->pend.valid = 0;
	if (l->pend_boundary == SSP_NET_FROM_ADAPTER)
		from_nic(l, (int64_t)uid);
	d = l->pend_dev != UINT32_MAX ? &l->dev[l->pend_dev] : NULL;
	type = d != NULL && d->cls == C_SIMBRICKS ? l->t_simbricks : l->t_simple;
	o->pre = 1;
	fill(l, &o->pre_ev, SSP_EV_NET_ENQ, ln->ts, ln->node, ifx(d), type,
	    type == l->t_simbricks ? l->s_rxin : l->s_receive, (int64_t)uid,
	    l->pend_boundary, l->pend_src, l->pend_dst, l->pend_proto);
	ssp_pline_event(o, SSP_EV_NET_DEQ, (uint64_t)ln->ts);
	fill(l, &o->ev, SSP_EV_NET_DEQ, ln->ts, ln->node, ifx(d), type, l->s_bridge,
	    (int64_t)uid, SSP_NET_INTERNAL, l->pend_src, l->pend_dst,
	    l->pend_proto);
}

static const char bad_fwd[] = "ns-3 NS_LOG BridgeNetDevice: expected "
    "'LearningBridgeForward (<mac> => <mac>): <type> --> <type> (UID <n>).'";

/* BridgeNetDevice messages. */
static void
bridge_msg(struct ssp_nslog *l, struct line *ln, struct ssp_pline *o)
{
	const char *p = ln->msg, *end = ln->end, *q;
	uint64_t v, s, d;

	if (SSP_LIT(&p, end, "UID is ") == 0)
		return bridge_rx(l, ln, p, o);
	if (SSP_LIT(&p, end, "LearningBridgeForward (") != 0)
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	if (SSP_LIT(&p, end, "incomingPort=") == 0)	/* DEBUG: nothing new */
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	/* LOGIC, one line per port a flood goes to: "(..): A --> B (UID n)." */
	if (mac(&p, end, &s) != 0 || SSP_LIT(&p, end, " => ") != 0 ||
	    mac(&p, end, &d) != 0 || SSP_LIT(&p, end, "): ") != 0 ||
	    end - p < 8 || memcmp(end - 2, ").", 2) != 0)
		return ssp_pline_bad(o, bad_fwd);
	for (q = end - 3; q > p && ssp_isdigit(*q); q--)
		;
	if (q - p < 6 || memcmp(q - 5, " (UID", 5) != 0 || *q != ' ' ||
	    (p = q + 1, ssp_scan_dec(&p, end, &v) != 0) || p != end - 2 ||
	    v > INT64_MAX)
		return ssp_pline_bad(o, bad_fwd);
	TS(ln, o);
	l->br = (struct cur){ 1, ln->ts, ln->node };
	l->br_uid = (int64_t)v;
	return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
}

/* Queue (Queue<Packet> and Queue<QueueDiscItem>): only a drop at a device
 * queue is news; enqueue and dequeue come from the device's own lines. */
static void
queue_fn(struct ssp_nslog *l, struct line *ln, struct ssp_pline *o)
{
	const char *p = ln->args, *end = ln->end;
	uint64_t q, pk;
	struct dev *d;

	if (!IS(ln->fn, ln->fnlen, "DropBeforeEnqueue"))
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	if (ptr(&p, end, &q) != 0 || comma(&p, end) != 0 ||
	    ptr(&p, end, &pk) != 0 || close_paren(p, end) != 0)
		return ssp_pline_bad(o, "ns-3 NS_LOG Queue:DropBeforeEnqueue: "
		    "expected '(0x<queue>, 0x<packet>)'");
	TS(ln, o);
	d = bound(l, &l->queues, q);
	if (d == NULL || dev_index(l, d) != l->send_dev || pk != l->send_pkt)
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	undo_send(l, ln, l->s_dbe, o);
}

/* QueueDisc and TrafficControlLayer method lines. */
static void
qdisc_fn(struct ssp_nslog *l, int tc, struct line *ln, struct ssp_pline *o)
{
	const char *p = ln->args, *end = ln->end;
	uint64_t qd, item, dp;
	uint32_t type, source;
	struct dev *d;

	if (tc) {
		if (!IS(ln->fn, ln->fnlen, "SetRootQueueDiscOnDevice"))
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		if (ptr(&p, end, &item) != 0 || comma(&p, end) != 0 ||
		    ptr(&p, end, &dp) != 0 || comma(&p, end) != 0 ||
		    ptr(&p, end, &qd) != 0 || close_paren(p, end) != 0)
			return ssp_pline_bad(o, "ns-3 NS_LOG TrafficControlLayer:"
			    "SetRootQueueDiscOnDevice: expected '(0x<tc>, 0x<device>, "
			    "0x<queue disc>)'");
		if ((d = dev_get(l, dp, 1)) != NULL)
			bind(&l->qdiscs, qd, dev_index(l, d));
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	}
	if (IS(ln->fn, ln->fnlen, "Enqueue")) {
		type = SSP_EV_NET_ENQ;
		source = l->s_enq;
	} else if (IS(ln->fn, ln->fnlen, "Transmit")) {
		type = SSP_EV_NET_DEQ;
		source = l->s_transmit;
	} else if (IS(ln->fn, ln->fnlen, "DropBeforeEnqueue")) {
		type = SSP_EV_NET_DROP;
		source = l->s_dbe;
	} else if (IS(ln->fn, ln->fnlen, "DropAfterDequeue")) {
		type = SSP_EV_NET_DROP;
		source = l->s_dad;
	} else {
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	}
	if (ptr(&p, end, &qd) != 0 || comma(&p, end) != 0 || ptr(&p, end, &item) != 0 ||
	    (type == SSP_EV_NET_DROP ? comma(&p, end) != 0 || end - p < 1 ||
	    end[-1] != ')' : close_paren(p, end) != 0))
		return ssp_pline_bad(o, type == SSP_EV_NET_DROP ? "ns-3 NS_LOG "
		    "QueueDisc drop: expected '(0x<queue disc>, 0x<item>, <reason>)'" :
		    "ns-3 NS_LOG QueueDisc: expected '(0x<queue disc>, 0x<item>)'");
	TS(ln, o);
	d = bound(l, &l->qdiscs, qd);
	if (d == NULL && type == SSP_EV_NET_DROP && same(&l->qenq, ln->ts, ln->node) &&
	    item == l->qenq_item)
		d = &l->dev[l->qenq_dev];	/* a child queue disc's drop */
	if (d == NULL)		/* a child queue disc, or none we know */
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	if (type == SSP_EV_NET_ENQ) {
		l->qenq = (struct cur){ 1, ln->ts, ln->node };
		l->qenq_dev = dev_index(l, d);
		l->qenq_item = item;
	}
	ssp_pline_event(o, type, (uint64_t)ln->ts);
	fill(l, &o->ev, type, ln->ts, ln->node, d->ifindex, l->t_qdisc, source, -1,
	    SSP_NET_INTERNAL, 0, 0, 0);
}

/* --- the envelope --------------------------------------------------------- */

enum { K_OTHER, K_SIMPLE, K_SIMBRICKS, K_BRIDGE, K_QUEUE, K_QDISC, K_TC };

/* The class a line at p starts with, and its length (*n): compared in
 * place, so the many lines of other classes cost a byte or two. */
static int
class_at(const char *p, const char *end, size_t *n)
{
	size_t left = (size_t)(end - p);

#define CL(s, k) if (left > sizeof(s) - 1 && memcmp(p, s ":", sizeof(s)) == 0) \
	return *n = sizeof(s) - 1, (k)
	switch (*p) {
	case 'Q':
		CL("Queue", K_QUEUE);
		CL("QueueDisc", K_QDISC);
		break;
	case 'S':
		CL("SimpleNetDevice", K_SIMPLE);
		CL("SimbricksNetDevice", K_SIMBRICKS);
		break;
	case 'B':
		CL("BridgeNetDevice", K_BRIDGE);
		break;
	case 'T':
		CL("TrafficControlLayer", K_TC);
		break;
	default:
		break;
	}
#undef CL
	return K_OTHER;
}

void
ssp_nslog_line(struct ssp_nslog *l, const char *s, size_t len, struct ssp_pline *o)
{
	const char *p = s, *end = s + len, *q, *tsp = NULL;
	struct line ln;
	int kind, timed = 0;
	uint64_t v;
	size_t n;

	ln.node = SSP_NSLOG_UNKNOWN;
	ln.ts = 0;
	ln.have_ts = 0;
	ln.msg = NULL;
	if (*p == '+') {	/* "+<seconds>s ": "%.12f" (ps), "%.9f" (ns) */
		if (len < 4 || !ssp_isdigit(p[1]))
			return ssp_pline_skip(o, SSP_SKIP_TEXT);
		tsp = ++p;
		while (p < end && ssp_isdigit(*p))
			p++;
		if (end - p >= 15 && *p == '.' && p[13] == 's')
			p += 13;
		else if (end - p >= 12 && *p == '.' && p[10] == 's')
			p += 10;
		else
			while (p < end && (ssp_isdigit(*p) || *p == '.'))
				p++;
		if (end - p < 2 || p[0] != 's' || p[1] != ' ')
			return ssp_pline_bad(o, "ns-3 NS_LOG: expected the time "
			    "prefix '+<seconds>s '");
		ln.tsp = tsp;
		ln.tend = p;
		p += 2;
		timed = 1;
	}
	/* "<node> " (prefix_node; -1 outside any node's event) */
	if (p < end && *p == '-' && end - p >= 3 && p[1] == '1' && p[2] == ' ') {
		p += 3;
	} else if (p < end && ssp_isdigit(*p)) {
		if (ssp_scan_small(&p, end, &v) != 0 || p >= end || *p != ' ' ||
		    v >= SSP_NSLOG_UNKNOWN)
			return timed ? ssp_pline_bad(o, "ns-3 NS_LOG: expected the "
			    "node number after the time") : ssp_pline_skip(o, SSP_SKIP_TEXT);
		ln.node = (uint32_t)v;
		p++;
	}
	/* "<Class>:<Method>(": the class is one of a few or the line is
	 * noise; identifiers are checked only where that decides */
	if ((kind = class_at(p, end, &n)) == K_OTHER) {
		if (timed)	/* most lines: another class */
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		q = ident(p, end);
		if (q == p || q >= end || *q != ':' || (ln.fn = q + 1,
		    q = ident(ln.fn, end)) == ln.fn || q >= end || *q != '(')
			return ssp_pline_skip(o, SSP_SKIP_TEXT);
		return ssp_pline_skip(o, SSP_SKIP_NOTS);
	}
	/* the method: up to '(' (the names compared below check it) */
	ln.fn = p + n + 1;
	if ((q = memchr(ln.fn, '(', (size_t)(end - ln.fn))) == NULL || q == ln.fn)
		return ssp_pline_skip(o, timed ? SSP_SKIP_UNKNOWN : SSP_SKIP_TEXT);
	ln.fnlen = (size_t)(q - ln.fn);
	ln.args = q + 1;
	ln.end = end;
	if (end - q >= 4 && q[1] == ')' && q[2] == ':' && q[3] == ' ') {
		/* a message: "(): [LEVEL] text" ([LEVEL] with prefix_level) */
		ln.msg = q + 4;
		if (ln.msg < end && *ln.msg == '[') {	/* "[DEBUG] ", "[INFO ] " */
			for (q = ln.msg + 1; q < end && q - ln.msg <= 6 && *q != ']'; q++)
				;
			if (q + 1 < end && *q == ']' && q[1] == ' ')
				ln.msg = q + 2;
		}
	} else if (end[-1] != ')') {
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	}
	if (!timed) {
		/* no time, no event; the setup lines still say what is what */
		if (ln.msg == NULL && (kind == K_SIMPLE || kind == K_SIMBRICKS ||
		    kind == K_TC) && (IS(ln.fn, ln.fnlen, "SetIfIndex") ||
		    IS(ln.fn, ln.fnlen, "SetQueue") ||
		    IS(ln.fn, ln.fnlen, "SetRootQueueDiscOnDevice"))) {
			if (kind == K_TC)
				qdisc_fn(l, 1, &ln, o);
			else
				device_fn(l, kind == K_SIMBRICKS, &ln, o);
			if (o->skip == SSP_SKIP_MALFORMED)
				return;
		}
		return ssp_pline_skip(o, SSP_SKIP_NOTS);
	}
	switch (kind) {
	case K_SIMPLE:
		if (ln.msg != NULL) {
			if (IS(ln.fn, ln.fnlen, "SendFrom") &&
			    IS(ln.msg, (size_t)(end - ln.msg), "simple-netdev: enqueue false"))
				return undo_send(l, &ln, l->s_false, o);
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		}
		return device_fn(l, 0, &ln, o);
	case K_SIMBRICKS:
		if (ln.msg != NULL)
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		return device_fn(l, 1, &ln, o);
	case K_BRIDGE:
		if (ln.msg == NULL)
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		return bridge_msg(l, &ln, o);
	case K_QUEUE:
		if (ln.msg != NULL)
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		return queue_fn(l, &ln, o);
	default:	/* K_QDISC, K_TC */
		if (ln.msg != NULL)
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		return qdisc_fn(l, kind == K_TC, &ln, o);
	}
}
