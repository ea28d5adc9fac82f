#include <stdlib.h>
#include <string.h>

#include "base/scan.h"
#include "source/ns3.h"
#include "source/nslog.h"

#define NCACHE 16
#define CNAME  48

/* Device types and trace sources repeat on every line: remember atoms. */
struct cache {
	char s[CNAME];
	size_t len;
	uint32_t atom;
};

struct ssp_ns3 {
	struct ssp_atoms *atoms;
	struct cache c[NCACHE];
	struct ssp_nslog *log;		/* the NS_LOG dialect */
};

int
ssp_ns3_new(struct ssp_ns3 **np, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e)
{
	struct ssp_ns3 *n = calloc(1, sizeof(*n));

	*np = NULL;
	if (n == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	n->atoms = cfg->atoms;
	if (ssp_nslog_new(&n->log, cfg, e) != SSP_OK) {
		free(n);
		return e != NULL ? e->code : SSP_ERR_NOMEM;
	}
	*np = n;
	return SSP_OK;
}

void
ssp_ns3_free(struct ssp_ns3 *n)
{
	if (n != NULL)
		ssp_nslog_free(n->log);
	free(n);
}

static uint32_t
atom(struct ssp_ns3 *n, const char *s, size_t len)
{
	struct cache *c;
	uint32_t a;

	if (len == 0)
		return 0;
	{
		uint32_t hh = 2166136261u;	/* FNV-1a: names differ anywhere */
		size_t i;

		for (i = 0; i < len; i++)
			hh = (hh ^ (unsigned char)s[i]) * 16777619u;
		c = &n->c[(hh ^ hh >> 16) % NCACHE];
	}
	if (c->atom != 0 && c->len == len && memcmp(c->s, s, len) == 0)
		return c->atom;
	if ((a = ssp_atoms_intern(n->atoms, s, len)) != 0 && len < CNAME) {
		memcpy(c->s, s, len);
		c->len = len;
		c->atom = a;
	}
	return a;
}

static const uint64_t pow10_[20] = { 1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL,
	100000ULL, 1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
	10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL };

int
ssp_ns3_seconds(const char **pp, const char *end, int64_t *ps)
{
	const char *p = *pp;
	uint64_t m = 0;
	int nd = 0, k = 12, any = 0;
	int64_t x;

	for (; p < end && ssp_isdigit(*p); p++, any = 1) {
		if (nd < 19) {
			m = m * 10 + (uint64_t)(*p - '0');
			nd += m != 0;
		} else {
			k++;	/* digit beyond precision: scale */
		}
	}
	if (p < end && *p == '.') {
		for (p++; p < end && ssp_isdigit(*p); p++, any = 1) {
			if (nd < 19) {
				m = m * 10 + (uint64_t)(*p - '0');
				nd += m != 0;
				k--;
			}
		}
	}
	if (!any)
		return SSP_ERR_FORMAT;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && *p == '+')
			p++;
		if (ssp_scan_sdec(&p, end, &x) != 0 || x > 400 || x < -400)
			return SSP_ERR_FORMAT;
		k += (int)x;
	}
	if (m == 0) {
		*ps = 0;
	} else if (k >= 0) {
		if (k > 18 || m > (uint64_t)INT64_MAX / pow10_[k])
			return SSP_ERR_FORMAT;
		*ps = (int64_t)(m * pow10_[k]);
	} else if (-k > 19) {
		*ps = 0;
	} else {
		uint64_t d = pow10_[-k], q = m / d;

		if ((m % d) >= d - m % d)	/* round half up */
			q++;
		*ps = (int64_t)q;
	}
	*pp = p;
	return SSP_OK;
}

/* aa:bb:cc:dd:ee:ff */
static int
scan_mac(const char **pp, const char *end, uint64_t *mac)
{
	const char *p = *pp;
	uint64_t v = 0;
	int i, h, l;

	for (i = 0; i < 6; i++) {
		if (end - p < 2 || (h = ssp_hexval(p[0])) < 0 || (l = ssp_hexval(p[1])) < 0)
			return -1;
		v = v << 8 | (uint64_t)(h << 4 | l);
		p += 2;
		if (i < 5 && SSP_LIT(&p, end, ":") != 0)
			return -1;
	}
	*pp = p;
	*mac = v;
	return 0;
}

static int
scan_ip(const char **pp, const char *end, uint64_t *ip)
{
	const char *p = *pp;
	uint64_t v = 0, b;
	int i;

	for (i = 0; i < 4; i++) {
		if (ssp_scan_small(&p, end, &b) != 0 || b > 255 ||
		    (i < 3 && SSP_LIT(&p, end, ".") != 0))
			return -1;
		v = v << 8 | b;
	}
	*pp = p;
	*ip = v;
	return 0;
}

/* Position right after the first s in [p, end), or NULL.  memchr on a
 * byte of s that is rare in ns-3 lines (glibc's memmem sets up tables per
 * call, which costs more than these short searches). */
static const char *
after(const char *p, const char *end, const char *s, size_t n)
{
	size_t k = 0, i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == ':' || c == '/' || c == '=' || c == '(' || c == 'P') {
			k = i;
			break;
		}
	}
	for (p += k; p < end && (size_t)(end - p) >= n - k; ) {
		const char *q = memchr(p, s[k], (size_t)(end - p) - (n - k) + 1), *a;

		if (q == NULL)
			return NULL;
		for (a = q - k, i = 0; i < n && a[i] == s[i]; i++)
			;
		if (i == n)
			return q - k + n;
		p = q + 1;
	}
	return NULL;
}

#define AFTER(p, end, s) after((p), (end), (s), sizeof(s) - 1)

struct hdrs {
	uint64_t eth_type, eth_src, eth_dst, ip_src, ip_dst, ip_len, sport, dport;
	int64_t ip_proto, ip_id, payload;
	int eth, ip, l4;
};

/* " length/type=0x806, source=.., destination=..)" */
static int
eth_hdr(const char *p, const char *end, struct hdrs *h)
{
	if ((p = AFTER(p, end, "length/type=")) == NULL ||
	    ssp_scan_0xhex(&p, end, &h->eth_type) != 0 ||
	    SSP_LIT(&p, end, ", source=") != 0 || scan_mac(&p, end, &h->eth_src) != 0 ||
	    SSP_LIT(&p, end, ", destination=") != 0 || scan_mac(&p, end, &h->eth_dst) != 0)
		return -1;
	h->eth = 1;
	return 0;
}

/* "(tos .. ttl 64 id 9662 protocol 1 offset (bytes) 0 flags [DF] length: 84
 * 192.168.64.1 > 192.168.64.0)" */
static int
ipv4_hdr(const char *p, const char *end, struct hdrs *h)
{
	uint64_t id, proto;

	if ((p = AFTER(p, end, " id ")) == NULL || ssp_scan_small(&p, end, &id) != 0 ||
	    SSP_LIT(&p, end, " protocol ") != 0 || ssp_scan_small(&p, end, &proto) != 0 ||
	    (p = AFTER(p, end, "length: ")) == NULL ||
	    ssp_scan_small(&p, end, &h->ip_len) != 0 || SSP_LIT(&p, end, " ") != 0 ||
	    scan_ip(&p, end, &h->ip_src) != 0 || SSP_LIT(&p, end, " > ") != 0 ||
	    scan_ip(&p, end, &h->ip_dst) != 0 || id > INT64_MAX || proto > INT64_MAX)
		return -1;
	h->ip_id = (int64_t)id;
	h->ip_proto = (int64_t)proto;
	h->ip = 1;
	return 0;
}

/* "(request source mac: .. source ipv4: a.b.c.d dest ipv4: e.f.g.h)" */
static int
arp_hdr(const char *p, const char *end, struct hdrs *h)
{
	uint64_t s, d;

	if ((p = AFTER(p, end, "source ipv4: ")) == NULL || scan_ip(&p, end, &s) != 0 ||
	    (p = AFTER(p, end, "dest ipv4: ")) == NULL || scan_ip(&p, end, &d) != 0)
		return -1;
	if (!h->ip) {
		h->ip_src = s;
		h->ip_dst = d;
	}
	return 0;
}

/* "<sport> > <dport>" */
static int
ports(const char *p, const char *end, struct hdrs *h)
{
	if (ssp_scan_small(&p, end, &h->sport) != 0 || SSP_LIT(&p, end, " > ") != 0 ||
	    ssp_scan_small(&p, end, &h->dport) != 0 || h->sport > 65535 ||
	    h->dport > 65535)
		return -1;
	h->l4 = 1;
	return 0;
}

/* Everything after the context (and uid/flag); NULL or the error text. */
static const char *
headers(const char *p, const char *end, int simple, struct hdrs *h)
{
	const char *q, *next;
	uint64_t v, a, b;

	const char *last = p;

	for (q = AFTER(p, end, "ns3::"); q != NULL; q = next) {
		next = AFTER(q, end, "ns3::");
		last = q;
		{
		const char *hend = next != NULL ? next - 5 : end;

		if (SSP_HAS(q, hend, "EthernetHeader")) {
			q += 14;
			/* the manual print ("EthernetHeader(") is garbage where
			 * the packet has no Ethernet header */
			if (!h->eth && !(simple && q < hend && *q == '(') &&
			    eth_hdr(q, hend, h) != 0)
				return "ns-3 EthernetHeader: expected 'length/type=0x<hex>, "
				    "source=<mac>, destination=<mac>'";
		} else if (SSP_HAS(q, hend, "Ipv4Header")) {
			if (!h->ip && ipv4_hdr(q + 10, hend, h) != 0)
				return "ns-3 Ipv4Header: expected 'id <n> protocol <n> ... "
				    "length: <n> <ip> > <ip>'";
		} else if (SSP_HAS(q, hend, "ArpHeader")) {
			if (arp_hdr(q + 9, hend, h) != 0)
				return "ns-3 ArpHeader: expected 'source ipv4: <ip> ... "
				    "dest ipv4: <ip>'";
		} else if (SSP_HAS(q, hend, "UdpHeader")) {
			q += 9;
			if (!h->l4 && ((q = AFTER(q, hend, "length: ")) == NULL ||
			    ssp_scan_small(&q, hend, &v) != 0 || SSP_LIT(&q, hend, " ") != 0 ||
			    ports(q, hend, h) != 0))
				return "ns-3 UdpHeader: expected '(length: <n> <sport> > <dport>'";
		} else if (SSP_HAS(q, hend, "TcpHeader")) {
			q += 9;
			ssp_skip_sp(&q, hend);
			if (!h->l4 && (SSP_LIT(&q, hend, "(") != 0 || ports(q, hend, h) != 0))
				return "ns-3 TcpHeader: expected '(<sport> > <dport>'";
		}
		}
	}
	/* payload: sum of "Payload (size=N)" and "Payload Fragment [a:b]" */
	/* payload comes after the last header */
	for (q = last; (q = AFTER(q, end, "Payload ")) != NULL; ) {
		if (SSP_LIT(&q, end, "(size=") == 0) {
			if (ssp_scan_small(&q, end, &v) != 0 || v > INT32_MAX)
				return "ns-3 Payload: expected '(size=<n>)'";
		} else if (SSP_LIT(&q, end, "Fragment [") == 0) {
			if (ssp_scan_small(&q, end, &a) != 0 || SSP_LIT(&q, end, ":") != 0 ||
			    ssp_scan_small(&q, end, &b) != 0 || b < a || b - a > INT32_MAX)
				return "ns-3 Payload Fragment: expected '[<from>:<to>]'";
			v = b - a;
		} else {
			continue;
		}
		h->payload = (h->payload < 0 ? 0 : h->payload) + (int64_t)v;
	}
	return NULL;
}

void
ssp_ns3_line(struct ssp_ns3 *n, const char *s, size_t len, struct ssp_pline *o)
{
	const char *p = s, *end = s + len, *ctx, *ctxend, *t, *why;
	uint64_t node, dev, uid = 0, ts = 0;
	int64_t sts;
	int simbricks, interesting = 1, simple;
	unsigned type;
	uint32_t devtype, source;
	struct hdrs h;

	/* the trace dialects: one character and a space; else NS_LOG */
	if (len < 4 || p[1] != ' ')
		return ssp_nslog_line(n->log, s, len, o);
	switch (p[0]) {
	case '+': type = SSP_EV_NET_ENQ; break;
	case '-': type = SSP_EV_NET_DEQ; break;
	case 'd': type = SSP_EV_NET_DROP; break;
	case 'r': type = SSP_EV_NET_RX; break;
	case 's':	/* the commented-out sync sink */
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	default:	/* "<node> <Class>:..." (NS_LOG prefix_node only) */
		return ssp_nslog_line(n->log, s, len, o);
	}
	simbricks = p[2] == ' ';
	if (simbricks) {
		p += 3;
		if (ssp_scan_dec(&p, end, &ts) != 0)	/* p unmoved */
			return ssp_isdigit(*p) ? ssp_pline_bad(o, "ns-3 trace: timestamp "
			    "out of range") : ssp_pline_skip(o, SSP_SKIP_TEXT);
		if (ts > INT64_MAX)
			return ssp_pline_bad(o, "ns-3 trace: timestamp out of range");
	} else {
		p += 2;
		if (!ssp_isdigit(*p))
			return ssp_pline_skip(o, SSP_SKIP_TEXT);
		if (ssp_ns3_seconds(&p, end, &sts) != 0)
			return ssp_pline_bad(o, "ns-3 ascii trace: expected the time in "
			    "seconds");
		ts = (uint64_t)sts;
	}
	if (SSP_LIT(&p, end, " ") != 0 || p >= end || *p != '/')
		return ssp_pline_bad(o, "ns-3 trace: expected ' /<context>' after the time");
	ctx = p;
	ctxend = memchr(p, ' ', (size_t)(end - p));
	if (ctxend == NULL)
		ctxend = end;
	/* /[$ns3::NodeListPriv]/NodeList/<n>/[$ns3::Node/]DeviceList/<d>/$ns3::<Type>/<Source> */
	if ((t = AFTER(ctx, ctxend, "/NodeList/")) == NULL ||
	    ssp_scan_small(&t, ctxend, &node) != 0 || SSP_LIT(&t, ctxend, "/") != 0)
		goto badctx;
	if (SSP_HAS(t, ctxend, "$ns3::Node/"))
		t += 11;
	if (SSP_LIT(&t, ctxend, "DeviceList/") != 0 ||
	    ssp_scan_small(&t, ctxend, &dev) != 0 || SSP_LIT(&t, ctxend, "/") != 0)
badctx:
		return ssp_pline_bad(o, "ns-3 trace: expected a context "
		    "'/NodeList/<n>/DeviceList/<d>/$ns3::<Type>/<Source>'");
	if (SSP_HAS(t, ctxend, "$ns3::"))
		t += 6;
	p = memchr(t, '/', (size_t)(ctxend - t));
	if (p == NULL || p == t || p + 1 >= ctxend)
		return ssp_pline_bad(o, "ns-3 trace: expected '$ns3::<Type>/<Source>' "
		    "after the device number");
	/* Only packets on the adapter side of a CosimNetDevice carry an
	 * Ethernet header; elsewhere the manual print misreads the IP/ARP
	 * bytes (SimpleNetDevice lines, and RxPacketFromNetwork coming from
	 * the SimpleNetDevice side, in the real samples). */
	simple = (p - t == 15 && memcmp(t, "SimpleNetDevice", 15) == 0) ||
	    (ctxend - p - 1 == 19 && memcmp(p + 1, "RxPacketFromNetwork", 19) == 0);
	if ((devtype = atom(n, t, (size_t)(p - t))) == 0 ||
	    (source = atom(n, p + 1, (size_t)(ctxend - p - 1))) == 0)
		return ssp_pline_skip(o, SSP_SKIP_NAMES);
	t = p + 1;
	p = ctxend;
	if (simbricks) {
		if (SSP_LIT(&p, end, " Packet-Uid=") != 0 || ssp_scan_dec(&p, end, &uid) != 0 ||
		    uid > INT64_MAX || SSP_LIT(&p, end, " Intersting=") != 0)
			return ssp_pline_bad(o, "ns-3 trace: expected ' Packet-Uid=<n> "
			    "Intersting=<true|false>' after the context");
		if (SSP_LIT(&p, end, "true") == 0)
			interesting = 1;
		else if (SSP_LIT(&p, end, "false") == 0)
			interesting = 0;
		else
			return ssp_pline_bad(o, "ns-3 trace: expected Intersting=true "
			    "or false");
	}
	memset(&h, 0, sizeof(h));
	h.ip_proto = h.ip_id = h.payload = -1;
	if ((why = headers(p, end, simple, &h)) != NULL)
		return ssp_pline_bad(o, why);
	ssp_pline_event(o, type, ts);
	o->ev.f[SSP_F_NET_NODE] = node;
	o->ev.f[SSP_F_NET_DEV] = dev;
	o->ev.f[SSP_F_NET_DEVTYPE] = devtype;
	o->ev.f[SSP_F_NET_SOURCE] = source;
	o->ev.f[SSP_F_NET_UID] = simbricks ? uid : (uint64_t)(int64_t)-1;
	o->ev.f[SSP_F_NET_INTERESTING] = (uint64_t)interesting;
	o->ev.f[SSP_F_NET_BOUNDARY] =
	    ctxend - t == 19 && memcmp(t, "RxPacketFromAdapter", 19) == 0 ?
	    SSP_NET_FROM_ADAPTER : ctxend - t == 17 &&
	    memcmp(t, "TxPacketToAdapter", 17) == 0 ? SSP_NET_TO_ADAPTER :
	    SSP_NET_INTERNAL;
	o->ev.f[SSP_F_NET_PAYLOAD] = (uint64_t)h.payload;
	o->ev.f[SSP_F_NET_ETH_TYPE] = h.eth_type;
	o->ev.f[SSP_F_NET_ETH_SRC] = h.eth_src;
	o->ev.f[SSP_F_NET_ETH_DST] = h.eth_dst;
	o->ev.f[SSP_F_NET_IP_SRC] = h.ip_src;
	o->ev.f[SSP_F_NET_IP_DST] = h.ip_dst;
	o->ev.f[SSP_F_NET_IP_PROTO] = (uint64_t)h.ip_proto;
	o->ev.f[SSP_F_NET_IP_LEN] = h.ip_len;
	o->ev.f[SSP_F_NET_IP_ID] = (uint64_t)h.ip_id;
	o->ev.f[SSP_F_NET_SPORT] = h.sport;
	o->ev.f[SSP_F_NET_DPORT] = h.dport;
}
