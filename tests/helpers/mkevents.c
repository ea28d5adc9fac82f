/*
 * mkevents: write event streams for tests and benchmarks.
 *
 * Synthetic mode (default) writes COUNT events shaped like a gem5 host log
 * after sim2ev: ~96 % function entries over ~300 real symbol names (half of
 * the entries hit the rules CSV blacklist, skewed so a few symbols are
 * hot), small timestamp deltas, and some sync, mmio, dma, interrupt and
 * ns-3 packet events.  The output is a pure function of -n, -s and -a.
 *
 * Text mode (-r) reads evcat's text form ("ts type name=value ...", one
 * event per line, '#' comments) from stdin, so tests can write exact
 * streams by hand.
 *
 * usage: mkevents [-arz] [-m KEY=VALUE] [-n COUNT] [-o FILE] [-S STREAM]
 *                 [-s SEED] [-t START]
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "stream/event.h"

#include "mkevents-syms.h"

#define NBL    (sizeof(bl_syms) / sizeof(bl_syms[0]))
#define NOTHER (sizeof(other_syms) / sizeof(other_syms[0]))
#define MAXMETA 16

static struct ssp_rec_wr *w;
static struct ssp_err e;
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t bl_id[NBL], other_id[NOTHER];

static uint64_t
rnd(void)	/* xorshift64* */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static uint64_t
str(const char *s)
{
	uint64_t id = ssp_rec_wr_str(w, s, strlen(s), &e);

	if (id == 0)
		errx(1, "%s", e.msg);
	return id;
}

static void
put(struct ssp_rec *r)
{
	if (ssp_rec_wr_put(w, r, &e) != SSP_OK)
		errx(1, "%s", e.msg);
}

/* Index in [0, n) skewed towards 0: the square of a uniform fraction. */
static size_t
skewed(size_t n)
{
	uint64_t u = rnd() >> 32;	/* 32-bit uniform */

	return (size_t)((u * u >> 32) * n >> 32);
}

static void
func(struct ssp_rec *r)
{
	static uint64_t cpu[2], tab[2];
	const char *name;
	uint64_t *id;
	size_t k;

	if (cpu[0] == 0) {
		cpu[0] = str("system.switch_cpus");
		cpu[1] = str("system.switch_cpus1");
		tab[0] = str("linux");
		tab[1] = str("i40e");
	}
	if (rnd() & 1) {
		k = skewed(NBL);
		name = bl_syms[k];
		id = &bl_id[k];
	} else {
		k = skewed(NOTHER);
		name = other_syms[k];
		id = &other_id[k];
	}
	if (*id == 0)
		*id = str(name);
	r->type = SSP_EV_FUNC;
	r->f[SSP_F_FUNC_CPU] = cpu[(rnd() & 7) == 0];
	r->f[SSP_F_FUNC_SYM] = *id;
	r->f[SSP_F_FUNC_TABLE] = tab[strncmp(name, "i40e", 4) == 0];
}

/* One event of type t with plausible fields. */
static void
fill(struct ssp_rec *r, unsigned t, uint64_t seq)
{
	uint64_t comp = str("system.pc.simbricks_0");

	memset(r->f, 0, sizeof(r->f));
	r->type = t;
	switch (t) {
	case SSP_EV_SYNC:
		r->f[SSP_F_SYNC_TS] = (uint64_t)(r->ts - 1000000);
		break;
	case SSP_EV_INSN:
		r->f[SSP_F_INSN_CPU] = str("system.switch_cpus");
		r->f[SSP_F_INSN_PC] = 0xffffffff81000000ull + (seq & 0xffff) * 4;
		r->f[SSP_F_INSN_UPC] = (uint64_t)-1;
		break;
	case SSP_EV_FUNC:
		func(r);
		break;
	case SSP_EV_MMIO_RD:
	case SSP_EV_MMIO_WR:
		r->f[SSP_F_MMIO_COMP] = comp;
		r->f[SSP_F_MMIO_ADDR] = 0xc0508000 + (seq & 0xff) * 4;
		r->f[SSP_F_MMIO_SIZE] = 4;
		r->f[SSP_F_MMIO_ID] = 94469376954304ull + seq;
		r->f[SSP_F_MMIO_BAR] = 0;
		r->f[SSP_F_MMIO_OFFS] = 0x108000 + (seq & 0xff) * 4;
		if (t == SSP_EV_MMIO_WR)
			r->f[SSP_F_MMIO_POSTED] = 1;
		break;
	case SSP_EV_MMIO_POSTED:
		r->f[SSP_F_DONE_COMP] = str("system.pc.simbricks_0.pio");
		break;
	case SSP_EV_MMIO_RD_DONE:
	case SSP_EV_MMIO_WR_DONE:
	case SSP_EV_DMA_DONE:
		r->f[SSP_F_DONE_COMP] = comp;
		r->f[SSP_F_DONE_ID] = 94469376954304ull + seq;
		break;
	case SSP_EV_DMA_RD:
	case SSP_EV_DMA_WR:
		r->f[SSP_F_DMA_COMP] = comp;
		r->f[SSP_F_DMA_ID] = 94469376954304ull + seq;
		r->f[SSP_F_DMA_ADDR] = 0x100240060ull + (seq & 0xfff) * 64;
		r->f[SSP_F_DMA_SIZE] = 16 + (seq & 3) * 41;
		break;
	case SSP_EV_MSIX:
	case SSP_EV_MSI:
	case SSP_EV_INTR:
		r->f[SSP_F_IRQ_COMP] = comp;
		r->f[SSP_F_IRQ_VEC] = seq & 3;
		break;
	case SSP_EV_CFG_RD:
	case SSP_EV_CFG_WR:
		r->f[SSP_F_CFG_COMP] = comp;
		r->f[SSP_F_CFG_REG] = 0x10;
		r->f[SSP_F_CFG_BYTES] = 4;
		r->f[SSP_F_CFG_DATA] = 0xfebf0000;
		break;
	case SSP_EV_PCIHOST_RD:
	case SSP_EV_PCIHOST_WR:
		r->f[SSP_F_PH_COMP] = str("system.pc.pci_host");
		r->f[SSP_F_PH_DEV] = 4;
		r->f[SSP_F_PH_OFFSET] = 0x4;
		r->f[SSP_F_PH_SIZE] = 2;
		break;
	case SSP_EV_POST_INT:
	case SSP_EV_CLEAR_INT:
		r->f[SSP_F_INT_COMP] = str("system.pc.pci_host.interface[00:04.0]");
		r->f[SSP_F_INT_DEV] = 4;
		break;
	case SSP_EV_NIC_RD:
	case SSP_EV_NIC_WR:
		r->f[SSP_F_NMMIO_OFF] = 0x108000;
		r->f[SSP_F_NMMIO_LEN] = 4;
		r->f[SSP_F_NMMIO_VAL] = seq & 0xffff;
		r->f[SSP_F_NMMIO_POSTED] = t == SSP_EV_NIC_WR ? 1 : (uint64_t)-1;
		break;
	case SSP_EV_NIC_DMA_ISSUE:
	case SSP_EV_NIC_DMA_EXEC:
	case SSP_EV_NIC_DMA_ENQ:
	case SSP_EV_NIC_DMA_DONE_RD:
	case SSP_EV_NIC_DMA_DONE_WR:
		r->f[SSP_F_NDMA_OP] = 94469376954304ull + seq;
		r->f[SSP_F_NDMA_ADDR] = 0x100240060ull;
		r->f[SSP_F_NDMA_LEN] = 98;
		break;
	case SSP_EV_NIC_MSIX:
	case SSP_EV_NIC_MSI:
	case SSP_EV_NIC_INTX:
		r->f[SSP_F_NIRQ_VEC] = 1;
		break;
	case SSP_EV_NIC_TX:
		r->f[SSP_F_NTX_LEN] = 98;
		break;
	case SSP_EV_NIC_RX:
		r->f[SSP_F_NRX_LEN] = 98;
		break;
	case SSP_EV_NET_ENQ:
	case SSP_EV_NET_DEQ:
	case SSP_EV_NET_DROP:
	case SSP_EV_NET_RX:
		r->f[SSP_F_NET_NODE] = seq & 1;
		r->f[SSP_F_NET_DEV] = 1 + ((seq >> 1) & 1);
		r->f[SSP_F_NET_DEVTYPE] = str(r->f[SSP_F_NET_DEV] == 2 ?
		    "CosimNetDevice" : "SimpleNetDevice");
		r->f[SSP_F_NET_SOURCE] = str(t == SSP_EV_NET_DEQ ?
		    "TxQueue/Dequeue" : "TxQueue/Enqueue");
		r->f[SSP_F_NET_UID] = seq;
		r->f[SSP_F_NET_INTERESTING] = (seq >> 2) & 1;
		r->f[SSP_F_NET_BOUNDARY] = SSP_NET_INTERNAL;
		r->f[SSP_F_NET_PAYLOAD] = 56;
		r->f[SSP_F_NET_ETH_TYPE] = 0x800;
		r->f[SSP_F_NET_ETH_SRC] = 0x0242ac110002ull;
		r->f[SSP_F_NET_ETH_DST] = 0x0242ac110003ull;
		r->f[SSP_F_NET_IP_SRC] = 0xc0a84001;
		r->f[SSP_F_NET_IP_DST] = 0xc0a84002;
		r->f[SSP_F_NET_IP_PROTO] = 17;
		r->f[SSP_F_NET_IP_LEN] = 84;
		r->f[SSP_F_NET_IP_ID] = seq & 0xffff;
		r->f[SSP_F_NET_SPORT] = 5000;
		r->f[SSP_F_NET_DPORT] = 6000;
		break;
	default:
		break;
	}
}

static void
synthetic(uint64_t n, int alltypes, int64_t ts)
{
	struct ssp_rec r;
	uint64_t i;
	unsigned t, roll;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < n; i++) {
		ts += 200 + (int64_t)(rnd() % 3000);
		r.ts = ts;
		if (alltypes && i < SSP_EV_NTYPES) {
			fill(&r, (unsigned)i, i);
			put(&r);
			continue;
		}
		roll = (unsigned)(rnd() % 1000);
		if (roll < 960) {
			r.type = SSP_EV_FUNC;	/* hot path: no memset */
			func(&r);
			put(&r);
			continue;
		}
		t = roll < 965 ? SSP_EV_SYNC : roll < 970 ? SSP_EV_PROC_IN :
		    roll < 975 ? SSP_EV_MMIO_WR : roll < 978 ? SSP_EV_MMIO_RD :
		    roll < 980 ? SSP_EV_MMIO_RD_DONE : roll < 983 ? SSP_EV_DMA_RD :
		    roll < 985 ? SSP_EV_DMA_WR : roll < 988 ? SSP_EV_DMA_DONE :
		    roll < 990 ? SSP_EV_MSIX : roll < 995 ? SSP_EV_NET_ENQ :
		    SSP_EV_NET_DEQ;
		fill(&r, t, i);
		put(&r);
	}
}

/* --- text mode ------------------------------------------------------------ */

/* Next token: bare up to a blank, or "quoted" with \" \\ \n \t \xNN. */
static char *
token(char **pp, unsigned line)
{
	char *p = *pp, *q, *start;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n')
		return NULL;
	start = q = p;
	for (; *p != '\0' && *p != ' ' && *p != '\t' && *p != '\n'; p++) {
		if (*p != '"') {
			*q++ = *p;
			continue;
		}
		for (p++; *p != '"'; p++) {
			if (*p == '\0' || *p == '\n')
				errx(2, "line %u: unterminated quote", line);
			if (*p != '\\') {
				*q++ = *p;
				continue;
			}
			switch (*++p) {
			case 'n': *q++ = '\n'; break;
			case 't': *q++ = '\t'; break;
			case 'r': *q++ = '\r'; break;
			case 'x': {
				unsigned v;

				if (sscanf(p + 1, "%2x", &v) != 1)
					errx(2, "line %u: bad \\x escape", line);
				*q++ = (char)v;
				p += 2;
				break;
			}
			case '\0': errx(2, "line %u: unterminated quote", line);
			default: *q++ = *p;
			}
		}
	}
	*pp = *p != '\0' ? p + 1 : p;	/* past the blank the NUL replaces */
	*q = '\0';
	return start;
}

static uint64_t
value(const char *v, char enc, unsigned line, const char *name)
{
	unsigned a[6];
	char *end;
	uint64_t x;

	switch (enc) {
	case SSP_ENC_S:
		return *v == '\0' ? 0 : str(v);
	case SSP_ENC_M:
		if (sscanf(v, "%x:%x:%x:%x:%x:%x", &a[0], &a[1], &a[2], &a[3],
		    &a[4], &a[5]) != 6)
			errx(2, "line %u: %s: bad MAC address", line, name);
		return (uint64_t)a[0] << 40 | (uint64_t)a[1] << 32 |
		    (uint64_t)a[2] << 24 | (uint64_t)a[3] << 16 |
		    (uint64_t)a[4] << 8 | a[5];
	case SSP_ENC_A:
		if (sscanf(v, "%u.%u.%u.%u", &a[0], &a[1], &a[2], &a[3]) != 4)
			errx(2, "line %u: %s: bad IPv4 address", line, name);
		return (uint64_t)a[0] << 24 | a[1] << 16 | a[2] << 8 | a[3];
	case SSP_ENC_I:
	case SSP_ENC_T:
		x = (uint64_t)strtoll(v, &end, 0);
		break;
	default:
		x = strtoull(v, &end, 0);
	}
	if (*v == '\0' || *end != '\0')
		errx(2, "line %u: %s: bad number '%s'", line, name, v);
	return x;
}

static void
text(void)
{
	char buf[65536], *p, *tok, *eq;
	unsigned line = 0;
	struct ssp_rec r;
	const struct ssp_rec_type *t;
	int k;

	while (fgets(buf, sizeof(buf), stdin) != NULL) {
		line++;
		p = buf;
		if ((tok = token(&p, line)) == NULL || *tok == '#')
			continue;
		memset(&r, 0, sizeof(r));
		r.ts = (int64_t)value(tok, SSP_ENC_T, line, "ts");
		if ((tok = token(&p, line)) == NULL)
			errx(2, "line %u: no event type", line);
		if ((k = ssp_rec_schema_find(&ssp_event_schema, tok)) < 0)
			errx(2, "line %u: unknown event type '%s'", line, tok);
		r.type = (uint32_t)k;
		t = &ssp_event_schema.types[k];
		while ((tok = token(&p, line)) != NULL) {
			if ((eq = strchr(tok, '=')) == NULL)
				errx(2, "line %u: '%s' is not name=value", line, tok);
			*eq = '\0';
			if ((k = ssp_rec_type_field(t, tok)) < 0)
				errx(2, "line %u: %s has no field '%s'", line,
				    t->name, tok);
			r.f[k] = value(eq + 1, t->f[k].enc, line, tok);
		}
		put(&r);
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: mkevents [-arz] [-m KEY=VALUE] [-n COUNT] "
	    "[-o FILE] [-S STREAM] [-s SEED] [-t START]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct ssp_meta meta[MAXMETA];
	const char *path = NULL, *stream = "mkevents", *errstr;
	struct ssp_out *o;
	int64_t n = 1000, seed = 1, start = 1000000000;
	size_t nmeta = 0;
	int ch, z = 0, alltypes = 0, fromtext = 0;
	char *eq;

	while ((ch = getopt(argc, argv, "am:n:o:rS:s:t:z")) != -1) {
		switch (ch) {
		case 'a': alltypes = 1; break;
		case 'm':
			if ((eq = strchr(optarg, '=')) == NULL || nmeta == MAXMETA)
				usage();
			*eq = '\0';
			meta[nmeta++] = (struct ssp_meta){ optarg, eq + 1 };
			break;
		case 'n':
			if (ssp_num_strtonum(optarg, 0, INT64_MAX, &n, &errstr) != 0)
				errx(2, "-n %s: %s", optarg, errstr);
			break;
		case 'o': path = optarg; break;
		case 'r': fromtext = 1; break;
		case 'S': stream = optarg; break;
		case 's':
			if (ssp_num_strtonum(optarg, 1, INT64_MAX, &seed, &errstr) != 0)
				errx(2, "-s %s: %s", optarg, errstr);
			break;
		case 't':
			if (ssp_num_parse_time(optarg, &start, &errstr) != 0)
				errx(2, "-t %s: %s", optarg, errstr);
			break;
		case 'z': z = SSP_OUT_ZDEFAULT; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	rng ^= (uint64_t)seed * 0xbf58476d1ce4e5b9ull;
	if (ssp_out_open(&o, path, z ? z : SSP_OUT_ZAUTO, &e) != SSP_OK ||
	    ssp_event_writer_open(&w, o, stream, SSP_SIM_GEM5, "mkevents", meta,
	    nmeta, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	if (fromtext)
		text();
	else
		synthetic((uint64_t)n, alltypes, start);
	if (ssp_rec_wr_close(w, &e) != SSP_OK || ssp_out_close(o, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	return 0;
}
