#include <stdlib.h>
#include <string.h>

#include "base/scan.h"
#include "source/switch.h"

/* What a line says about the packet. */
struct pk {
	uint64_t ts, iport, oport, smac, dmac, sip, dip, len, etype;
};

struct ssp_switch {
	uint32_t devtype;	/* atoms, made once */
	uint32_t s_in, s_out, s_drop, s_rcv, s_xmit, s_vdrop;
	int have;		/* last holds the packet of the last debug line */
	struct pk last;
	uint64_t omask;		/* its egress ports below 64 seen so far */
};

int
ssp_switch_new(struct ssp_switch **sp, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e)
{
	struct ssp_switch *w = calloc(1, sizeof(*w));
	struct ssp_atoms *a = cfg->atoms;

	*sp = NULL;
	if (w == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	w->devtype = ssp_atoms_intern(a, "NetSwitch", 9);
	w->s_in = ssp_atoms_intern(a, "ingress", 7);
	w->s_out = ssp_atoms_intern(a, "egress", 6);
	w->s_drop = ssp_atoms_intern(a, "dropping", 8);
	w->s_rcv = ssp_atoms_intern(a, "Receive", 7);
	w->s_xmit = ssp_atoms_intern(a, "Transmit", 8);
	w->s_vdrop = ssp_atoms_intern(a, "Drop", 4);
	if (w->devtype == 0 || w->s_in == 0 || w->s_out == 0 || w->s_drop == 0 ||
	    w->s_rcv == 0 || w->s_xmit == 0 || w->s_vdrop == 0) {
		free(w);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory (names)");
	}
	*sp = w;
	return SSP_OK;
}

void
ssp_switch_free(struct ssp_switch *w)
{
	free(w);
}

static void
fill(const struct ssp_switch *w, struct ssp_rec *r, unsigned type, uint64_t ts,
    uint64_t dev, uint32_t source, int64_t uid, unsigned boundary,
    const struct pk *k)
{
	r->type = type;
	r->ts = (int64_t)ts;
	r->f[SSP_F_NET_NODE] = 0;
	r->f[SSP_F_NET_DEV] = dev;
	r->f[SSP_F_NET_DEVTYPE] = w->devtype;
	r->f[SSP_F_NET_SOURCE] = source;
	r->f[SSP_F_NET_UID] = (uint64_t)uid;
	r->f[SSP_F_NET_INTERESTING] = 1;
	r->f[SSP_F_NET_BOUNDARY] = boundary;
	r->f[SSP_F_NET_PAYLOAD] = (uint64_t)(int64_t)-1;
	r->f[SSP_F_NET_ETH_TYPE] = k->etype;
	r->f[SSP_F_NET_ETH_SRC] = k->smac;
	r->f[SSP_F_NET_ETH_DST] = k->dmac;
	r->f[SSP_F_NET_IP_SRC] = k->sip;
	r->f[SSP_F_NET_IP_DST] = k->dip;
	r->f[SSP_F_NET_IP_PROTO] = (uint64_t)(int64_t)-1;
	r->f[SSP_F_NET_IP_LEN] = k->len >= 14 ? k->len - 14 : 0;
	r->f[SSP_F_NET_IP_ID] = (uint64_t)(int64_t)-1;
	r->f[SSP_F_NET_SPORT] = 0;
	r->f[SSP_F_NET_DPORT] = 0;
}

static int
at_end(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p == end;
}

/*
 * "%lx" of the first five octets of a MAC read as a little-endian word
 * (net_switch masks it to 40 bits): octet 0 is the lowest byte.  As a
 * 48-bit MAC (octet 0 in bits 47-40), the sixth octet unknown, 0.
 */
static inline uint64_t
mac40(uint64_t v)
{
	return __builtin_bswap64(v << 24) << 8;
}

/* Hex digit values, -1 for other bytes. */
#define HX(c) ((c) >= '0' && (c) <= '9' ? (c) - '0' : (c) >= 'a' && (c) <= 'f' ? \
	(c) - 'a' + 10 : (c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 10 : -1)
#define H4(b) HX(b), HX(b + 1), HX(b + 2), HX(b + 3)
#define H16(b) H4(b), H4(b + 4), H4(b + 8), H4(b + 12)
static const signed char hexv[256] = { H16(0), H16(16), H16(32), H16(48),
	H16(64), H16(80), H16(96), H16(112), H16(128), H16(144), H16(160),
	H16(176), H16(192), H16(208), H16(224), H16(240) };

/*
 * 1 to max (at most 16) hex digits: a plain loop over a table is faster
 * than the SWAR scanners of scan.h on these short fields.
 */
static inline int
hexn(const char **pp, const char *end, long max, uint64_t *v)
{
	const char *p = *pp;
	uint64_t r = 0;
	int d;

#ifdef SSP_SWAR
	if (end - p >= 8) {	/* the first 8 digits at once */
		uint64_t w = ssp_load8(p), m;
		unsigned n;

		if (!(w & SSP_HIGH)) {
			m = ssp_swar_range(w, '0', '9') |
			    ssp_swar_range(w | 0x2020202020202020ULL, 'a', 'f');
			n = m == SSP_HIGH ? 8 : (unsigned)__builtin_ctzll(~m & SSP_HIGH) / 8;
			if (n == 0)
				return -1;
			r = ssp_swar_hex(w, n);
			p += n;
			if (n < 8)
				goto done;
		}
	}
#endif
	while (p < end && (d = hexv[(unsigned char)*p]) >= 0) {
		r = r << 4 | (unsigned)d;
		p++;
	}
#ifdef SSP_SWAR
done:
#endif
	if (p == *pp || p - *pp > max)
		return -1;
	*pp = p;
	*v = r;
	return 0;
}

/* 1 to 19 decimal digits. */
static inline int
decn(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t r = 0;
	unsigned d;

	while (p < end && (d = (unsigned)(unsigned char)*p - '0') < 10) {
		r = r * 10 + d;
		p++;
	}
	if (p == *pp || p - *pp > 19)
		return -1;
	*pp = p;
	*v = r;
	return 0;
}

/* " -> " */
static inline int
arrow(const char **pp, const char *end)
{
	const char *p = *pp;

	if (end - p < 4 || p[0] != ' ' || p[1] != '-' || p[2] != '>' || p[3] != ' ')
		return -1;
	*pp = p + 4;
	return 0;
}

/* "%8X" of an IPv4 address read as a little-endian word. */
static inline int
raw_ip(const char **pp, const char *end, uint64_t *ip)
{
	uint64_t v;
#ifdef SSP_SWAR
	/* the usual case: exactly 8 columns, spaces in front */
	if (end - *pp >= 8) {
		uint64_t w = ssp_load8(*pp), sp = ssp_swar_range(w, ' ', ' ');
		uint64_t lead = (sp >> 7) * 0xff;	/* 0xff in each space byte */

		w |= sp >> 3;			/* ' ' | 0x10 = '0' */
		if ((lead & (lead + 1)) == 0 && ssp_swar_hexmask(w) == SSP_HIGH) {
			*ip = __builtin_bswap32((uint32_t)ssp_swar_hex(w, 8));
			*pp += 8;
			return 0;
		}
	}
#endif
	while (*pp < end && **pp == ' ')
		(*pp)++;
	if (hexn(pp, end, 8, &v) != 0)
		return -1;
	*ip = __builtin_bswap32((uint32_t)v);
	return 0;
}

static const char bad_debug[] = "net_switch debug: expected '<ps>: [P <in> -> "
    "<out>] <smac> -> <dmac> [ IP] <saddr> -> <daddr> len: <n>' (or '[ARP] "
    "<spa> -> <tpa>', 'unknown eth type')";

#ifdef SSP_SWAR
/* 8 bytes of "%20lu": spaces in front, then digits; -1 if not so. */
static inline int
dec8(const char *p, uint64_t *v)
{
	uint64_t w = ssp_load8(p), sp = ssp_swar_range(w, ' ', ' ');
	uint64_t lead = (sp >> 7) * 0xff;

	w |= sp >> 3;			/* ' ' | 0x10 = '0' */
	if ((lead & (lead + 1)) != 0 || (w & SSP_HIGH) ||
	    ssp_swar_range(w, '0', '9') != SSP_HIGH)
		return -1;
	*v = ssp_swar_dec(w, 8);
	return 0;
}
#endif

/* A NETSWITCH_DEBUG line from its start s; p is past the leading spaces. */
static void
debug_line(struct ssp_switch *w, const char *s, const char *p,
    const char *end, struct ssp_pline *o)
{
	struct pk k;
	int same;

#ifdef SSP_SWAR
	uint64_t a, b;

	/* the usual "%20lu" below 10^16: four spaces, then 16 columns of
	 * spaces followed by at least one digit, then ':' */
	if (end - s >= 24 && s[20] == ':' && s[0] == ' ' && s[1] == ' ' &&
	    s[2] == ' ' && s[3] == ' ' && ssp_isdigit(s[19]) &&
	    (s[11] == ' ' || s[12] != ' ') && dec8(s + 4, &a) == 0 &&
	    dec8(s + 12, &b) == 0) {
		k.ts = a * 100000000ULL + b;
		p = s + 20;
	} else
#endif
	if (ssp_scan_dec(&p, end, &k.ts) != 0)
		return ssp_pline_skip(o, SSP_SKIP_TEXT);
	if (end - p < 5 || p[0] != ':' || p[1] != ' ' || p[2] != '[' || p[3] != 'P' ||
	    p[4] != ' ')
		return ssp_pline_skip(o, SSP_SKIP_TEXT);
	p += 5;
	if (k.ts > INT64_MAX)
		return ssp_pline_bad(o, "net_switch debug: timestamp out of range");
	if (decn(&p, end, &k.iport) != 0 || k.iport > UINT32_MAX ||
	    arrow(&p, end) != 0 || decn(&p, end, &k.oport) != 0 ||
	    k.oport > UINT32_MAX || end - p < 2 || p[0] != ']' || p[1] != ' ' ||
	    (p += 2, hexn(&p, end, 10, &k.smac) != 0) || arrow(&p, end) != 0 ||
	    hexn(&p, end, 10, &k.dmac) != 0 || p >= end || *p++ != ' ')
		return ssp_pline_bad(o, bad_debug);
	k.smac = mac40(k.smac);
	k.dmac = mac40(k.dmac);
	k.sip = k.dip = k.len = 0;
	if (end - p >= 6 && p[0] == '[' && p[4] == ']' && p[5] == ' ' &&
	    p[1] == ' ' && p[2] == 'I' && p[3] == 'P') {
		p += 6;
		k.etype = 0x800;
		if (raw_ip(&p, end, &k.sip) != 0 || arrow(&p, end) != 0 ||
		    raw_ip(&p, end, &k.dip) != 0 || end - p < 6 || p[0] != ' ' ||
		    p[1] != 'l' || p[2] != 'e' || p[3] != 'n' || p[4] != ':' ||
		    p[5] != ' ' || (p += 6, decn(&p, end, &k.len) != 0) ||
		    k.len > UINT32_MAX)
			return ssp_pline_bad(o, bad_debug);
	} else if (SSP_LIT(&p, end, "[ARP] ") == 0) {
		k.etype = 0x806;
		if (raw_ip(&p, end, &k.sip) != 0 || arrow(&p, end) != 0 ||
		    raw_ip(&p, end, &k.dip) != 0)
			return ssp_pline_bad(o, bad_debug);
	} else if (SSP_LIT(&p, end, "unknown eth type") == 0) {
		k.etype = 0;
	} else {
		return ssp_pline_bad(o, bad_debug);
	}
	if (p != end && !at_end(p, end))
		return ssp_pline_bad(o, bad_debug);
	/* Further copies of a broadcast follow at once, with the same
	 * ingress and packet and an egress port not seen yet. */
	same = w->have && w->last.ts == k.ts && w->last.iport == k.iport &&
	    w->last.smac == k.smac && w->last.dmac == k.dmac &&
	    w->last.etype == k.etype && w->last.sip == k.sip &&
	    w->last.dip == k.dip && w->last.len == k.len &&
	    !(k.oport < 64 && (w->omask >> k.oport & 1)) && k.oport != k.iport;
	if (!same) {
		w->last = k;
		w->have = 1;
		w->omask = 0;
		o->pre = 1;
		fill(w, &o->pre_ev, SSP_EV_NET_ENQ, k.ts, k.iport, w->s_in, -1,
		    SSP_NET_FROM_ADAPTER, &k);
	}
	if (k.oport < 64)
		w->omask |= 1ULL << k.oport;
	w->last.oport = k.oport;
	o->skip = SSP_SKIP_NONE;
	fill(w, &o->ev, SSP_EV_NET_DEQ, k.ts, k.oport, w->s_out, -1,
	    SSP_NET_TO_ADAPTER, &k);
}

/* "aa:bb:cc:dd:ee:ff", 1 or 2 digits an octet. */
static int
scan_mac(const char **pp, const char *end, uint64_t *mac)
{
	const char *p = *pp;
	uint64_t v = 0;
	int i, d, n;

	for (i = 0; i < 6; i++) {
		if (i > 0 && SSP_LIT(&p, end, ":") != 0)
			return -1;
		for (n = 0, d = 0; p < end && n < 3 && ssp_hexval(*p) >= 0; p++, n++)
			d = d << 4 | ssp_hexval(*p);
		if (n == 0 || n > 2)
			return -1;
		v = v << 8 | (uint64_t)d;
	}
	*pp = p;
	*mac = v;
	return 0;
}

static int
scan_id(const char **pp, const char *end, const char *name, size_t n,
    uint64_t *v)
{
	int64_t x;

	if (ssp_scan_lit(pp, end, name, n) != 0 || ssp_scan_sdec(pp, end, &x) != 0 ||
	    x < 0 || x > INT32_MAX)
		return -1;
	*v = (uint64_t)x;
	return 0;
}

#define ID(pp, end, name, v) scan_id((pp), (end), (name), sizeof(name) - 1, (v))

/* vaastav/simbricks: after "main_time=". */
static void
variant_line(struct ssp_switch *w, const char *p, const char *end,
    struct ssp_pline *o)
{
	struct pk k;
	uint64_t id;

	memset(&k, 0, sizeof(k));
	if (ssp_scan_dec(&p, end, &k.ts) != 0 || k.ts > INT64_MAX)
		return ssp_pline_bad(o, "net_switch: expected 'main_time=<ps>'");
	if (SSP_LIT(&p, end, " Packet ") != 0)
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	if (SSP_LIT(&p, end, "Receive: ") == 0) {
		if (ID(&p, end, "id=", &id) != 0 || ID(&p, end, " port=", &k.iport) != 0 ||
		    SSP_LIT(&p, end, " src=") != 0 || scan_mac(&p, end, &k.smac) != 0 ||
		    SSP_LIT(&p, end, " dst=") != 0 || scan_mac(&p, end, &k.dmac) != 0 ||
		    ID(&p, end, " len=", &k.len) != 0)
			return ssp_pline_bad(o, "net_switch Packet Receive: expected "
			    "'id=<n> port=<n> src=<mac> dst=<mac> len=<n>'");
		o->skip = SSP_SKIP_NONE;
		fill(w, &o->ev, SSP_EV_NET_ENQ, k.ts, k.iport, w->s_rcv, (int64_t)id,
		    SSP_NET_FROM_ADAPTER, &k);
		return;
	}
	if (SSP_LIT(&p, end, "Transmit: ") == 0 || SSP_LIT(&p, end, "Drop: ") == 0) {
		int drop = p[-3] == 'p';	/* "Drop: " */

		if (ID(&p, end, "id=", &id) != 0 || ID(&p, end, " e_port=", &k.oport) != 0 ||
		    ID(&p, end, " i_port=", &k.iport) != 0)
			return ssp_pline_bad(o, drop ? "net_switch Packet Drop: expected "
			    "'id=<n> e_port=<n> i_port=<n>'" : "net_switch Packet "
			    "Transmit: expected 'id=<n> e_port=<n> i_port=<n>'");
		o->skip = SSP_SKIP_NONE;
		fill(w, &o->ev, drop ? SSP_EV_NET_DROP : SSP_EV_NET_DEQ, k.ts, k.oport,
		    drop ? w->s_vdrop : w->s_xmit, (int64_t)id, SSP_NET_TO_ADAPTER, &k);
		return;
	}
	return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
}

void
ssp_switch_line(struct ssp_switch *w, const char *s, size_t len,
    struct ssp_pline *o)
{
	const char *p = s, *end = s + len;
	uint64_t v;

	if (*p == ' ' || ssp_isdigit(*p)) {
		ssp_skip_sp(&p, end);
		if (p < end && ssp_isdigit(*p))
			return debug_line(w, s, p, end, o);
		/* the polling statistics at exit */
		if (SSP_HAS(p, end, "d2n_poll_") || SSP_HAS(p, end, "s_d2n_poll_"))
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		return ssp_pline_skip(o, SSP_SKIP_TEXT);
	}
	if (SSP_LIT(&p, end, "info: ") == 0 && !SSP_HAS(p, end, "main_time="))
		return ssp_pline_skip(o, SSP_SKIP_TEXT);
	if (SSP_LIT(&p, end, "main_time=") == 0)
		return variant_line(w, p, end, o);
	if (SSP_LIT(&p, end, "main_time = ") == 0) {
		/* SIGUSR1's dump; "main_time = <ps>: nicbm: ..." is a NIC's */
		if (ssp_scan_dec(&p, end, &v) == 0 && at_end(p, end))
			return ssp_pline_skip(o, SSP_SKIP_STATUS);
		return ssp_pline_skip(o, SSP_SKIP_TEXT);
	}
	/* the rest of SIGUSR1's dump: "[Port %lu ]: in_timestamp == %lu",
	 * "... out_timestamp == %lu" (component-net-base net_switch.cc) */
	if (SSP_LIT(&p, end, "[Port ") == 0) {
		if (ssp_scan_dec(&p, end, &v) == 0 && SSP_LIT(&p, end, " ]: ") == 0 &&
		    (SSP_LIT(&p, end, "in_timestamp == ") == 0 ||
		    SSP_LIT(&p, end, "out_timestamp == ") == 0) &&
		    ssp_scan_dec(&p, end, &v) == 0 && at_end(p, end))
			return ssp_pline_skip(o, SSP_SKIP_STATUS);
		return ssp_pline_skip(o, SSP_SKIP_TEXT);
	}
	if (SSP_LIT(&p, end, "forward_pkt: dropping packet on port ") == 0) {
		struct pk k;

		memset(&k, 0, sizeof(k));
		if (ssp_scan_dec(&p, end, &v) != 0 || v > UINT32_MAX || !at_end(p, end))
			return ssp_pline_bad(o, "net_switch: expected 'forward_pkt: "
			    "dropping packet on port <n>'");
		if (!w->have)	/* no time to give it */
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		o->skip = SSP_SKIP_NONE;
		fill(w, &o->ev, SSP_EV_NET_DROP, w->last.ts, v, w->s_drop, -1,
		    SSP_NET_TO_ADAPTER, &k);
		return;
	}
	if (SSP_HAS(p, end, "Switch connecting to: ") ||
	    SSP_HAS(p, end, "Switch listening on: ") ||
	    SSP_HAS(p, end, "start connecting...") || SSP_HAS(p, end, "done connecting") ||
	    SSP_HAS(p, end, "start polling") || SSP_HAS(p, end, "switch_pkt: ") ||
	    SSP_HAS(p, end, "Usage: net_switch"))
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	return ssp_pline_skip(o, SSP_SKIP_TEXT);
}
