/*
 * mkspans: write a synthetic but well-formed span stream for exporter tests
 * and benchmarks, shaped like one request through a SimBricks dumbbell:
 * client syscall -> mmio -> NIC mmio -> 2 NIC dma (+ host dma) -> NIC tx ->
 * 4 network device spans -> server NIC rx -> dma (+ host dma), msix (+ host
 * msix) -> server syscall.  18 spans per trace.  Every 7th request has its
 * NIC rx orphaned (new trace, flag and cause set); every server syscall
 * after the first links to the previous request's NIC rx.  With -j, each
 * request queues for a different time (0 to 4.8 us) in the network, so
 * latencies differ: request i waits ((i * 7919) % 97) * 50 ns at the
 * second network device.
 *
 * With -L, the link records are written at the end of the stream instead
 * of right after their span (the order of older evspan output).
 *
 * usage: mkspans [-e] [-j] [-L] [-z] [-n TRACES] [-o FILE]
 */
#include <err.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "stream/span.h"

enum { CLIENT, CLIENT_NIC, NET, SERVER_NIC, SERVER, NSTREAMS };

static struct ssp_rec_wr *w;
static struct ssp_err e;
static int with_events, jitter, links_last;
static struct ssp_rec *late;	/* -L: link records held back */
static size_t nlate;
static uint64_t next_id = 1;
static const uint64_t trace_hi = 0x5353500000000001ull;

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

/* Start a span record: common fields filled, attributes zeroed. */
static uint64_t
span(struct ssp_rec *r, unsigned kind, unsigned stream, int64_t start,
    int64_t dur, uint64_t parent, uint64_t trace_lo)
{
	memset(r, 0, sizeof(*r));
	r->type = kind;
	r->ts = start;
	r->f[SSP_SF_TRACE_HI] = trace_hi;
	r->f[SSP_SF_SPAN] = next_id;
	r->f[SSP_SF_TRACE_LO] = trace_lo != 0 ? trace_lo : next_id;
	r->f[SSP_SF_PARENT] = parent;
	r->f[SSP_SF_STREAM] = stream;
	r->f[SSP_SF_DUR] = (uint64_t)dur;
	return next_id++;
}

/* A member event; fields after span/stream are given in order. */
static void
event(uint64_t sp, unsigned stream, unsigned evtype, int64_t ts, int n, ...)
{
	struct ssp_rec r;
	va_list ap;
	int i;

	if (!with_events)
		return;
	memset(&r, 0, sizeof(r));
	r.type = SSP_SPAN_T_EV0 + evtype;
	r.ts = ts;
	r.f[SSP_EF_SPAN] = sp;
	r.f[SSP_EF_STREAM] = stream;
	va_start(ap, n);
	for (i = 0; i < n; i++)
		r.f[SSP_EF_NCOMMON + i] = va_arg(ap, uint64_t);
	va_end(ap);
	put(&r);
}

static void
request(unsigned i, uint64_t *prev_rx)
{
	struct ssp_rec r;
	int64_t T = 2000000000 + (int64_t)i * 10000000;
	int64_t J = jitter ? (int64_t)((i * 7919u) % 97u) * 50000 : 0;
	uint64_t root, mmio, nmmio, dma[2], tx, dev, rx, sdma, msix, tr, tr2;
	unsigned k;

	root = span(&r, SSP_SK_HOST_SYSCALL, CLIENT, T, 60000, 0, 0);
	tr = root;
	r.f[SSP_SA_SYSCALL_CPU] = str("system.switch_cpus");
	r.f[SSP_SA_SYSCALL_ENTRY] = str("entry_SYSCALL_64");
	r.f[SSP_SA_SYSCALL_CALL] = str("__sys_sendto");
	r.f[SSP_SA_SYSCALL_FUNCS] = 4;
	r.f[SSP_SA_SYSCALL_KTX] = r.f[SSP_SA_SYSCALL_DTX] = 1;
	put(&r);
	event(root, CLIENT, SSP_EV_FUNC, T, 3, str("system.switch_cpus"),
	    str("entry_SYSCALL_64"), str("vmlinux"));
	event(root, CLIENT, SSP_EV_FUNC, T + 1000, 3, str("system.switch_cpus"),
	    str("__sys_sendto"), str("vmlinux"));

	mmio = span(&r, SSP_SK_HOST_MMIO, CLIENT, T + 4000, 0, root, tr);
	r.f[SSP_SA_HMMIO_COMP] = str("system.pc.simbricks_0");
	r.f[SSP_SA_HMMIO_WRITE] = 1;
	r.f[SSP_SA_HMMIO_ADDR] = 0xc0508000;
	r.f[SSP_SA_HMMIO_SIZE] = 4;
	r.f[SSP_SA_HMMIO_ID] = 94469376954304ull + i;
	r.f[SSP_SA_HMMIO_OFFS] = 0x108000;
	r.f[SSP_SA_HMMIO_POSTED] = 1;
	put(&r);
	event(mmio, CLIENT, SSP_EV_MMIO_WR, T + 4000, 7,
	    str("system.pc.simbricks_0"), (uint64_t)0xc0508000, (uint64_t)4,
	    (uint64_t)94469376954304ull + i, (uint64_t)0, (uint64_t)0x108000,
	    (uint64_t)1);

	nmmio = span(&r, SSP_SK_NIC_MMIO, CLIENT_NIC, T + 504000, 0, mmio, tr);
	r.f[SSP_SA_NMMIO_WRITE] = 1;
	r.f[SSP_SA_NMMIO_OFF] = 0x108000;
	r.f[SSP_SA_NMMIO_LEN] = 4;
	r.f[SSP_SA_NMMIO_VAL] = 1;
	r.f[SSP_SA_NMMIO_POSTED] = 1;
	put(&r);

	for (k = 0; k < 2; k++) {
		int64_t t = T + 505000 + (int64_t)k * 1003000;
		uint64_t op = 0x55ea69870000ull + ((uint64_t)i * 4 + k) * 0x40;

		dma[k] = span(&r, SSP_SK_NIC_DMA, CLIENT_NIC, t, 1002000, nmmio, tr);
		r.f[SSP_SA_NDMA_OP] = op;
		r.f[SSP_SA_NDMA_ADDR] = k ? 0x100300000ull : 0x100240060ull;
		r.f[SSP_SA_NDMA_LEN] = k ? 98 : 16;
		put(&r);
		event(dma[k], CLIENT_NIC, SSP_EV_NIC_DMA_ISSUE, t, 4, op,
		    r.f[SSP_SA_NDMA_ADDR], r.f[SSP_SA_NDMA_LEN], (uint64_t)0);
		event(dma[k], CLIENT_NIC, SSP_EV_NIC_DMA_DONE_RD, t + 1002000, 3,
		    op, r.f[SSP_SA_NDMA_ADDR], r.f[SSP_SA_NDMA_LEN]);
		span(&r, SSP_SK_HOST_DMA, CLIENT, t + 500000, 2000, dma[k], tr);
		r.f[SSP_SA_HDMA_COMP] = str("system.pc.simbricks_0");
		r.f[SSP_SA_HDMA_ID] = op;
		r.f[SSP_SA_HDMA_ADDR] = k ? 0x100300000ull : 0x100240060ull;
		r.f[SSP_SA_HDMA_SIZE] = k ? 98 : 16;
		put(&r);
	}

	tx = span(&r, SSP_SK_NIC_TX, CLIENT_NIC, T + 2511000, 0, nmmio, tr);
	r.f[SSP_SA_NTX_LEN] = 98;
	put(&r);

	dev = tx;
	for (k = 0; k < 4; k++) {
		static const unsigned node[] = { 1, 1, 0, 0 }, devn[] = { 2, 1, 1, 2 };
		int64_t t = T + 3511000 + (int64_t)k * 20000 + (k >= 2 ? J : 0);

		dev = span(&r, SSP_SK_NET_DEVICE, NET, t, 10000 + (int64_t)k * 1000 +
		    (k == 1 ? J : 0), dev, tr);
		r.f[SSP_SA_NET_NODE] = node[k];
		r.f[SSP_SA_NET_DEV] = devn[k];
		r.f[SSP_SA_NET_DEVTYPE] = str(devn[k] == 2 ? "CosimNetDevice" :
		    "SimpleNetDevice");
		r.f[SSP_SA_NET_UID] = i;
		r.f[SSP_SA_NET_INTERESTING] = 1;
		r.f[SSP_SA_NET_BOUNDARY] = k == 0 ? SSP_NET_FROM_ADAPTER :
		    k == 3 ? SSP_NET_TO_ADAPTER : SSP_NET_INTERNAL;
		r.f[SSP_SA_NET_PAYLOAD] = 56;
		r.f[SSP_SA_NET_ETH_TYPE] = 0x800;
		r.f[SSP_SA_NET_IP_SRC] = 0xc0a84001;
		r.f[SSP_SA_NET_IP_DST] = 0xc0a84002;
		r.f[SSP_SA_NET_IP_PROTO] = 17;
		put(&r);
		event(dev, NET, SSP_EV_NET_ENQ, t, 5, (uint64_t)node[k],
		    (uint64_t)devn[k], r.f[SSP_SA_NET_DEVTYPE], str("TxQueue/Enqueue"),
		    (uint64_t)i);
	}

	T += J;		/* everything after the queue */
	/* Every 7th request: the rx context is missing, a new trace starts. */
	if (i % 7 == 6) {
		rx = span(&r, SSP_SK_NIC_RX, SERVER_NIC, T + 4601000, 0, 0, 0);
		r.f[SSP_SF_FLAGS] = SSP_SPAN_ORPHAN;
		r.f[SSP_SF_CAUSE] = str("net.device");
		tr2 = rx;
	} else {
		rx = span(&r, SSP_SK_NIC_RX, SERVER_NIC, T + 4601000, 0, dev, tr);
		tr2 = tr;
	}
	r.f[SSP_SA_NRX_LEN] = 98;
	put(&r);

	sdma = span(&r, SSP_SK_NIC_DMA, SERVER_NIC, T + 4602000, 1002000, rx, tr2);
	r.f[SSP_SA_NDMA_WRITE] = 1;
	r.f[SSP_SA_NDMA_OP] = 0x55ea69870000ull + ((uint64_t)i * 4 + 2) * 0x40;
	r.f[SSP_SA_NDMA_ADDR] = 0x200400000ull;
	r.f[SSP_SA_NDMA_LEN] = 98;
	put(&r);
	span(&r, SSP_SK_HOST_DMA, SERVER, T + 5102000, 1000, sdma, tr2);
	r.f[SSP_SA_HDMA_COMP] = str("system.pc.simbricks_0");
	r.f[SSP_SA_HDMA_WRITE] = 1;
	r.f[SSP_SA_HDMA_ID] = 0x55ea69870000ull + ((uint64_t)i * 4 + 2) * 0x40;
	r.f[SSP_SA_HDMA_ADDR] = 0x200400000ull;
	r.f[SSP_SA_HDMA_SIZE] = 98;
	put(&r);

	msix = span(&r, SSP_SK_NIC_MSIX, SERVER_NIC, T + 5605000, 0, rx, tr2);
	r.f[SSP_SA_NMSIX_VEC] = 1;
	put(&r);
	span(&r, SSP_SK_HOST_MSIX, SERVER, T + 6105000, 1000, msix, tr2);
	r.f[SSP_SA_HMSIX_COMP] = str("system.pc.simbricks_0");
	r.f[SSP_SA_HMSIX_VEC] = 1;
	put(&r);

	root = span(&r, SSP_SK_HOST_SYSCALL, SERVER, T + 6155000, 3500, rx, tr2);
	r.f[SSP_SA_SYSCALL_CPU] = str("system.switch_cpus");
	r.f[SSP_SA_SYSCALL_ENTRY] = str("entry_SYSCALL_64");
	r.f[SSP_SA_SYSCALL_CALL] = str("__sys_recvfrom");
	r.f[SSP_SA_SYSCALL_FUNCS] = 4;
	r.f[SSP_SA_SYSCALL_KRX] = r.f[SSP_SA_SYSCALL_DRX] = 1;
	put(&r);
	if (*prev_rx != 0) {	/* a second packet this syscall also received */
		memset(&r, 0, sizeof(r));
		r.type = SSP_SPAN_T_LINK;
		r.ts = T + 6155000;
		r.f[SSP_LF_SPAN] = root;
		r.f[SSP_LF_TRACE_HI] = trace_hi;
		r.f[SSP_LF_TRACE_LO] = prev_rx[1];
		r.f[SSP_LF_TARGET] = prev_rx[0];
		r.f[SSP_LF_KIND] = str("nic.rx");
		if (!links_last) {
			put(&r);
		} else {
			struct ssp_rec *nl = realloc(late, (nlate + 1) * sizeof(*nl));

			if (nl == NULL)
				err(1, NULL);
			late = nl;
			late[nlate++] = r;
		}
	}
	prev_rx[0] = rx;
	prev_rx[1] = tr2;
}

int
main(int argc, char **argv)
{
	static const struct ssp_span_source src[NSTREAMS] = {
		{ "client", 0, SSP_SIM_GEM5 }, { "client-nic", 0, SSP_SIM_NICBM },
		{ "net", 0, SSP_SIM_NS3 }, { "server-nic", 0, SSP_SIM_NICBM },
		{ "server", 0, SSP_SIM_GEM5 },
	};
	const char *path = NULL, *errstr;
	struct ssp_out *o;
	int64_t n = 10;
	uint64_t prev_rx[2] = { 0, 0 };
	int ch, z = 0;
	unsigned i;

	while ((ch = getopt(argc, argv, "ejLn:o:z")) != -1) {
		switch (ch) {
		case 'e': with_events = 1; break;
		case 'j': jitter = 1; break;
		case 'L': links_last = 1; break;
		case 'n':
			if (ssp_num_strtonum(optarg, 0, 100000000, &n, &errstr) != 0)
				errx(2, "-n %s: %s", optarg, errstr);
			break;
		case 'o': path = optarg; break;
		case 'z': z = SSP_OUT_ZDEFAULT; break;
		default:
			fprintf(stderr, "usage: mkspans [-ejLz] [-n TRACES] [-o FILE]\n");
			return 2;
		}
	}
	if (ssp_out_open(&o, path, z ? z : SSP_OUT_ZAUTO, &e) != SSP_OK ||
	    ssp_span_writer_open(&w, o, "mkspans", src, NSTREAMS, with_events,
	    &e) != SSP_OK)
		errx(1, "%s", e.msg);
	for (i = 0; i < (unsigned)n; i++)
		request(i, prev_rx);
	for (i = 0; i < nlate; i++)
		put(&late[i]);
	free(late);
	if (ssp_rec_wr_close(w, &e) != SSP_OK || ssp_out_close(o, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	return 0;
}
