#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "source/pcapin.h"

#define NONE ((uint64_t)(int64_t)-1)
#ifndef SSP_PCAPIN_LIBPCAP
#define SSP_PCAPIN_LIBPCAP "libpcap.so.0.8"	/* Debian's soname (libpcap.so.1 elsewhere) */
#endif

/*
 * libpcap is opened at its first use (dlopen), not linked: it and the
 * shared objects it needs (dbus, systemd, gcrypt, lzma, lz4, libcap) cost
 * about 1.3 M instructions of the dynamic loader at every start of
 * sim2ev, most of whose runs read text logs.  The types and constants are
 * <pcap/pcap.h>'s; these are the functions this file calls, by their
 * libpcap names without "pcap_".
 */
static struct {
	pcap_t *(*fopen_offline_with_tstamp_precision)(FILE *, u_int, char *);
	int (*datalink)(pcap_t *);
	const char *(*datalink_val_to_name)(int);
	int (*next_ex)(pcap_t *, struct pcap_pkthdr **, const u_char **);
	char *(*geterr)(pcap_t *);
	void (*close)(pcap_t *);
} P;

#define SYM(f) { "pcap_" #f, offsetof(__typeof__(P), f) }
static const struct { const char *name; size_t off; } syms[] = {
	SYM(fopen_offline_with_tstamp_precision), SYM(datalink),
	SYM(datalink_val_to_name), SYM(next_ex), SYM(geterr), SYM(close),
};
#undef SYM

static pthread_once_t pcap_once = PTHREAD_ONCE_INIT;
static char pcap_err[200];	/* why libpcap could not be loaded, or "" */

static void
pcap_load_once(void)
{
	/* lazy, as a linked libpcap would be: 0.15 M instructions less */
	void *lib = dlopen(SSP_PCAPIN_LIBPCAP, RTLD_LAZY | RTLD_LOCAL), *f;
	size_t i;

	if (lib == NULL) {
		snprintf(pcap_err, sizeof(pcap_err), "%s (on Debian: apt-get "
		    "install libpcap0.8)", dlerror());
		/* the soname of other distributions */
		if ((lib = dlopen("libpcap.so.1", RTLD_LAZY | RTLD_LOCAL)) == NULL)
			return;
		pcap_err[0] = '\0';
	}
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if ((f = dlsym(lib, syms[i].name)) == NULL) {
			snprintf(pcap_err, sizeof(pcap_err), "%s: no %s (libpcap "
			    "1.5 or later is needed)", SSP_PCAPIN_LIBPCAP,
			    syms[i].name);
			return;
		}
		/* POSIX: a function's address fits a void * */
		memcpy((char *)&P + syms[i].off, &f, sizeof(f));
	}
}

int
ssp_pcapin_load(struct ssp_err *e)
{
	pthread_once(&pcap_once, pcap_load_once);
	if (pcap_err[0] == '\0')
		return SSP_OK;
	return ssp_err_set(e, SSP_ERR_IO, 0, "cannot load libpcap, which reading "
	    "a capture needs: %s", pcap_err);
}

int
ssp_pcapin_name(const char *path, struct ssp_pcapin_at *at)
{
	const char *base = strrchr(path, '/'), *end, *p;
	uint64_t v[2];
	int i;

	base = base != NULL ? base + 1 : path;
	end = base + strlen(base);
	if (end - base > 4 && strcmp(end - 4, ".zst") == 0)
		end -= 4;
	if (end - base < 5 || memcmp(end - 5, ".pcap", 5) != 0)
		return -1;
	end -= 5;
	/* "-<node>-<device>" backwards from end */
	for (i = 1; i >= 0; i--) {
		for (p = end, v[i] = 0; p > base && p[-1] >= '0' && p[-1] <= '9'; p--)
			;
		if (p == end || end - p > 9 || p == base || p[-1] != '-')
			return -1;
		v[i] = strtoull(p, NULL, 10);
		end = p - 1;
	}
	if (end == base)	/* no prefix before "-N-D" */
		return -1;
	at->node = (uint32_t)v[0];
	at->dev = (uint32_t)v[1];
	return 0;
}

static inline uint32_t
be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static inline uint64_t
be32(const uint8_t *p)
{
	return (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3];
}

static inline uint64_t
be48(const uint8_t *p)
{
	return be32(p) << 16 | be16(p + 4);
}

/* IPv4 at b[0..n): addresses, protocol, length, id, ports, L4 payload. */
static void
ipv4(const uint8_t *b, size_t n, struct ssp_rec *r)
{
	size_t ihl, tot;

	if (n < 20 || b[0] >> 4 != 4 || (ihl = (size_t)(b[0] & 15) * 4) < 20)
		return;
	tot = be16(b + 2);
	r->f[SSP_F_NET_IP_LEN] = tot;
	r->f[SSP_F_NET_IP_ID] = be16(b + 4);
	r->f[SSP_F_NET_IP_PROTO] = b[9];
	r->f[SSP_F_NET_IP_SRC] = be32(b + 12);
	r->f[SSP_F_NET_IP_DST] = be32(b + 16);
	/* the first fragment carries the L4 header */
	if ((be16(b + 6) & 0x1fff) != 0 || n < ihl + 4 || (b[9] != 6 && b[9] != 17))
		return;
	r->f[SSP_F_NET_SPORT] = be16(b + ihl);
	r->f[SSP_F_NET_DPORT] = be16(b + ihl + 2);
	if (b[9] == 17 && n >= ihl + 6 && be16(b + ihl + 4) >= 8)
		r->f[SSP_F_NET_PAYLOAD] = be16(b + ihl + 4) - 8;
	else if (b[9] == 6 && n >= ihl + 13 && tot >= ihl + (size_t)(b[ihl + 12] >> 4) * 4)
		r->f[SSP_F_NET_PAYLOAD] = tot - ihl - (size_t)(b[ihl + 12] >> 4) * 4;
}

void
ssp_pcapin_frame(int dlt, int64_t ts, const uint8_t *b, size_t caplen,
    size_t len, const struct ssp_pcapin_at *at, uint32_t devtype,
    uint32_t source, struct ssp_pline *o)
{
	struct ssp_rec *r = &o->ev;
	uint32_t type;
	size_t off;

	(void)len;
	memset(r->f, 0, sizeof(r->f[0]) * 18);
	r->f[SSP_F_NET_NODE] = at->node;
	r->f[SSP_F_NET_DEV] = at->dev;
	r->f[SSP_F_NET_DEVTYPE] = devtype;
	r->f[SSP_F_NET_SOURCE] = source;
	r->f[SSP_F_NET_UID] = NONE;
	r->f[SSP_F_NET_INTERESTING] = 1;
	r->f[SSP_F_NET_PAYLOAD] = NONE;
	r->f[SSP_F_NET_IP_PROTO] = NONE;
	r->f[SSP_F_NET_IP_ID] = NONE;
	switch (dlt) {
	case DLT_EN10MB:
		if (caplen < 14)
			return ssp_pline_bad(o, "pcap record: shorter than an Ethernet "
			    "header (14 bytes)");
		r->f[SSP_F_NET_ETH_DST] = be48(b);
		r->f[SSP_F_NET_ETH_SRC] = be48(b + 6);
		type = be16(b + 12);
		off = 14;
		if ((type == 0x8100 || type == 0x88a8) && caplen >= 18) {
			type = be16(b + 16);	/* one VLAN tag */
			off = 18;
		}
		r->f[SSP_F_NET_ETH_TYPE] = type;
		if (type == 0x0800)
			ipv4(b + off, caplen - off, r);
		else if (type == 0x0806 && caplen >= off + 28) {
			r->f[SSP_F_NET_IP_SRC] = be32(b + off + 14);	/* spa */
			r->f[SSP_F_NET_IP_DST] = be32(b + off + 24);	/* tpa */
		}
		break;
	case DLT_PPP:		/* ns-3's PppHeader: the 2-byte protocol only */
		if (caplen < 2)
			return ssp_pline_bad(o, "pcap record: shorter than a PPP header "
			    "(2 bytes)");
		off = caplen >= 4 && b[0] == 0xff && b[1] == 0x03 ? 2 : 0;
		if (be16(b + off) == 0x0021)
			ipv4(b + off + 2, caplen - off - 2, r);
		break;
	default:		/* DLT_RAW, DLT_IPV4 */
		ipv4(b, caplen, r);
		break;
	}
	ssp_pline_event(o, SSP_EV_NET_SEEN, (uint64_t)ts);
}

/* libpcap reads a FILE: one over the ssp_in (zstd, pipes). */
struct cookie {
	struct ssp_in *in;
	struct ssp_err err;
	int failed;
};

static ssize_t
cookie_read(void *ctx, char *buf, size_t n)
{
	struct cookie *k = ctx;
	ssize_t r = ssp_in_read(k->in, buf, n, &k->err);

	if (r >= 0)
		return r;
	k->failed = 1;
	errno = EIO;
	return -1;
}

int
ssp_pcapin_run(struct ssp_conv *c, struct ssp_in *in,
    const struct ssp_pcapin_at *at, struct ssp_atoms *atoms, struct ssp_err *e)
{
	static const cookie_io_functions_t fns = { cookie_read, NULL, NULL, NULL };
	char eb[PCAP_ERRBUF_SIZE], what[64];
	const char *name = ssp_in_name(in), *dltname;
	struct cookie k = { in, { 0 }, 0 };
	struct pcap_pkthdr *h;
	const u_char *data;
	struct ssp_pline pl;
	uint32_t devtype, source;
	uint64_t recno = 0;
	pcap_t *pc;
	FILE *f;
	int dlt, r, rc = SSP_OK;

	if ((rc = ssp_pcapin_load(e)) != SSP_OK)
		return rc;
	if ((f = fopencookie(&k, "r", fns)) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	eb[0] = '\0';
	pc = P.fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, eb);
	if (pc == NULL) {
		fclose(f);
		if (k.failed)
			return ssp_err_set(e, k.err.code ? k.err.code : SSP_ERR_IO, 0,
			    "%s", k.err.msg);
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: not a pcap capture (%s)",
		    name, eb[0] ? eb : "libpcap could not read its header");
	}
	dlt = P.datalink(pc);
	if (dlt != DLT_EN10MB && dlt != DLT_PPP && dlt != DLT_RAW && dlt != DLT_IPV4) {
		dltname = P.datalink_val_to_name(dlt);
		P.close(pc);
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: link type %d (%s): sim2ev "
		    "reads Ethernet, PPP and raw IPv4 captures", name, dlt,
		    dltname != NULL ? dltname : "unknown");
	}
	dltname = P.datalink_val_to_name(dlt);
	if ((devtype = ssp_atoms_intern(atoms, dltname, strlen(dltname))) == 0 ||
	    (source = ssp_atoms_intern(atoms, "pcap", 4)) == 0) {
		P.close(pc);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory (names)");
	}
	while ((r = P.next_ex(pc, &h, &data)) == 1) {
		int64_t ts;

		recno++;
		memset(&pl, 0, sizeof(pl));
		pl.skip = SSP_SKIP_NONE;
		/* nanosecond precision asked for: tv_usec holds ns */
		if (h->ts.tv_sec < 0 || (uint64_t)h->ts.tv_sec > (uint64_t)INT64_MAX /
		    1000000000000ULL - 1 || h->ts.tv_usec < 0)
			ssp_pline_bad(&pl, "pcap record: time out of range");
		else {
			ts = (int64_t)h->ts.tv_sec * 1000000000000LL +
			    (int64_t)h->ts.tv_usec * 1000;
			ssp_pcapin_frame(dlt, ts, data, h->caplen, h->len, at, devtype,
			    source, &pl);
		}
		snprintf(what, sizeof(what), "record %" PRIu64 ": %u of %u bytes",
		    recno, h->caplen, h->len);
		if ((rc = ssp_conv_record(c, &pl, what, strlen(what), recno, e)) != SSP_OK)
			break;
	}
	if (rc == SSP_OK && r == PCAP_ERROR) {
		if (k.failed) {
			rc = ssp_err_set(e, k.err.code ? k.err.code : SSP_ERR_IO, 0,
			    "%s", k.err.msg);
		} else if (strstr(P.geterr(pc), "truncated") != NULL) {
			/* the writer was killed mid-record: keep what came */
			memset(&pl, 0, sizeof(pl));
			ssp_pline_skip(&pl, SSP_SKIP_PARTIAL);
			snprintf(what, sizeof(what), "record %" PRIu64 ": cut",
			    recno + 1);
			rc = ssp_conv_record(c, &pl, what, strlen(what), recno + 1, e);
		} else {
			rc = ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: after record %"
			    PRIu64 ": %s", name, recno, P.geterr(pc));
		}
	}
	P.close(pc);
	if (rc != SSP_OK)
		return rc;
	return ssp_conv_finish(c, e);
}
