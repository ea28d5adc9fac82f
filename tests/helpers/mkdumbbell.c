/*
 * mkdumbbell: write the event streams sim2ev makes from the five logs of
 * scripts/gen-dumbbell.py (same N requests, same timestamps, ids, ns-3
 * node/device numbers), plus topology.csv, so evspan can be tested and
 * benchmarked before and besides the real pipeline.
 *   client/server gem5 hosts, client-nic/server-nic nicbm, net ns-3
 * -I adds NOISE instruction events per request per host (sim2ev -I);
 * -b adds B background packets per request between ns-3 nodes 0 and 1
 * (Intersting=false, never reaching an adapter) and one background packet
 * every 10 requests that reaches the server NIC.
 *
 * usage: mkdumbbell [-z] [-n N] [-I NOISE] [-b B] OUTDIR
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/num.h"
#include "io/out.h"
#include "stream/event.h"

enum { CLIENT, SERVER, CNIC, SNIC, NET, NSTREAMS };
static const char *const names[NSTREAMS] = {
	"client", "server", "client-nic", "server-nic", "net" };
static const enum ssp_sim sims[NSTREAMS] = {
	SSP_SIM_GEM5, SSP_SIM_GEM5, SSP_SIM_NICBM, SSP_SIM_NICBM, SSP_SIM_NS3 };

static struct ssp_out *out[NSTREAMS];
static struct ssp_rec_wr *w[NSTREAMS];
static struct ssp_err e;

/* Per-request buffer of each stream's events, sorted by time like the
 * script sorts the gem5 lines (stable). */
static struct ssp_rec buf[NSTREAMS][4096];
static size_t nbuf[NSTREAMS];

#define PCIE 500000
#define ETH 1000000
#define PERIOD 10000000
#define OP_BASE 0x55ea69870000ull

static uint64_t
str(int s, const char *t)
{
	uint64_t id = ssp_rec_wr_str(w[s], t, strlen(t), &e);

	if (id == 0)
		errx(1, "%s", e.msg);
	return id;
}

static void
put(int s, const struct ssp_rec *r)
{
	if (ssp_rec_wr_put(w[s], r, &e) != SSP_OK)
		errx(1, "%s", e.msg);
}

static struct ssp_rec *
ev(int s, int64_t ts, unsigned type)
{
	struct ssp_rec *p;

	if (nbuf[s] == sizeof(buf[s]) / sizeof(buf[s][0]))
		errx(1, "too many events per request (lower -I)");
	p = &buf[s][nbuf[s]++];
	memset(p, 0, sizeof(*p));
	p->ts = ts;
	p->type = type;
	return p;
}

/* Flush a host's buffered events in time order (stable). */
static void
flush(int s)
{
	size_t i, j;

	if (nbuf[s] == 0)
		return;

	for (i = 1; i < nbuf[s]; i++) {
		struct ssp_rec x = buf[s][i];

		for (j = i; j > 0 && buf[s][j - 1].ts > x.ts; j--)
			buf[s][j] = buf[s][j - 1];
		buf[s][j] = x;
	}
	for (i = 0; i < nbuf[s]; i++)
		put(s, &buf[s][i]);
	nbuf[s] = 0;
}

static uint64_t cpu[2], comp[2], pio[2], table[2];

static void
func(int s, int64_t ts, const char *sym)
{
	struct ssp_rec *r = ev(s, ts, SSP_EV_FUNC);

	r->f[SSP_F_FUNC_CPU] = cpu[s];
	r->f[SSP_F_FUNC_SYM] = str(s, sym);
	r->f[SSP_F_FUNC_TABLE] = table[s];
}

static void
insn(int s, int64_t ts, unsigned k)
{
	struct ssp_rec *r = ev(s, ts, SSP_EV_INSN);

	r->f[SSP_F_INSN_CPU] = cpu[s];
	r->f[SSP_F_INSN_PC] = 0xffffffff81000001ull + 0x13ull * k;
	r->f[SSP_F_INSN_UPC] = (uint64_t)-1;
}

static void
hostdma(int s, int64_t ts, int write, uint64_t op, uint64_t addr, uint64_t len)
{
	struct ssp_rec *r = ev(s, ts, write ? SSP_EV_DMA_WR : SSP_EV_DMA_RD);

	r->f[SSP_F_DMA_COMP] = comp[s];
	r->f[SSP_F_DMA_ID] = op;
	r->f[SSP_F_DMA_ADDR] = addr;
	r->f[SSP_F_DMA_SIZE] = len;
}

static void
done(int s, int64_t ts, uint64_t id)
{
	struct ssp_rec *r = ev(s, ts, SSP_EV_DMA_DONE);

	r->f[SSP_F_DONE_COMP] = comp[s];
	r->f[SSP_F_DONE_ID] = id;
}

static void
nicdma(int s, int64_t ts, unsigned type, uint64_t op, uint64_t addr,
    uint64_t len, uint64_t pending)
{
	struct ssp_rec *r = ev(s, ts, type);

	r->f[SSP_F_NDMA_OP] = op;
	r->f[SSP_F_NDMA_ADDR] = addr;
	r->f[SSP_F_NDMA_LEN] = len;
	r->f[SSP_F_NDMA_PENDING] = pending;
}

static uint64_t devtype[2], srcs[8];

/* One ns-3 line: c is '+', '-' or 'd'. */
static void
net(int64_t ts, char c, unsigned node, unsigned dev, int cosim, unsigned src,
    uint64_t uid, int interesting, unsigned boundary, int with_eth)
{
	struct ssp_rec *r = ev(NET, ts, c == '+' ? SSP_EV_NET_ENQ :
	    c == '-' ? SSP_EV_NET_DEQ : SSP_EV_NET_DROP);

	r->f[SSP_F_NET_NODE] = node;
	r->f[SSP_F_NET_DEV] = dev;
	r->f[SSP_F_NET_DEVTYPE] = devtype[cosim];
	r->f[SSP_F_NET_SOURCE] = srcs[src];
	r->f[SSP_F_NET_UID] = uid;
	r->f[SSP_F_NET_INTERESTING] = (uint64_t)interesting;
	r->f[SSP_F_NET_BOUNDARY] = boundary;
	r->f[SSP_F_NET_PAYLOAD] = 56;
	if (with_eth) {
		r->f[SSP_F_NET_ETH_TYPE] = 0x800;
		r->f[SSP_F_NET_ETH_SRC] = 0xb09aac673c98ull;
		r->f[SSP_F_NET_ETH_DST] = 0xa832068c52b1ull;
	}
	r->f[SSP_F_NET_IP_SRC] = 0xc0a84001u;
	r->f[SSP_F_NET_IP_DST] = 0xc0a84002u;
	r->f[SSP_F_NET_IP_PROTO] = 17;
	r->f[SSP_F_NET_IP_LEN] = 84;
	r->f[SSP_F_NET_IP_ID] = 1;
}

enum { S_RXADAPTER, S_TXNET, S_ENQ, S_DEQ, S_RXNET, S_TXATT, S_TXADAPTER };

int
main(int argc, char **argv)
{
	static const char *const srcnames[] = { "RxPacketFromAdapter",
	    "TxPacketToNetwork", "TxQueue/Enqueue", "TxQueue/Dequeue",
	    "RxPacketFromNetwork", "TxPacketToAttachedDevice",
	    "TxPacketToAdapter" };
	const char *dir, *errstr, *sfx = ".ev";
	int64_t n = 10, noise = 0, nbg = 0, v, i, k;
	uint64_t bguid = 1ull << 40;
	char path[4096];
	FILE *tf;
	int ch, z = 0, s;

	while ((ch = getopt(argc, argv, "b:I:n:z")) != -1) {
		switch (ch) {
		case 'b':
		case 'I':
		case 'n':
			if (ssp_num_strtonum(optarg, 0, INT64_MAX / PERIOD, &v, &errstr) != 0)
				errx(2, "-%c %s: %s", ch, optarg, errstr);
			*(ch == 'b' ? &nbg : ch == 'I' ? &noise : &n) = v;
			break;
		case 'z':
			z = 1;
			sfx = ".ev.zst";
			break;
		default:
			fprintf(stderr, "usage: mkdumbbell [-z] [-n N] [-I NOISE] "
			    "[-b B] OUTDIR\n");
			return 2;
		}
	}
	if (optind + 1 != argc)
		errx(2, "usage: mkdumbbell [-z] [-n N] [-I NOISE] [-b B] OUTDIR");
	dir = argv[optind];
	mkdir(dir, 0777);
	for (s = 0; s < NSTREAMS; s++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, names[s], sfx);
		if (ssp_out_open(&out[s], path, z ? 1 : 0, &e) != SSP_OK ||
		    ssp_event_writer_open(&w[s], out[s], names[s], sims[s],
		    "mkdumbbell", NULL, 0, &e) != SSP_OK)
			errx(1, "%s", e.msg);
	}
	for (s = CLIENT; s <= SERVER; s++) {
		cpu[s] = str(s, "system.switch_cpus");
		comp[s] = str(s, "system.pc.simbricks_0");
		pio[s] = comp[s];	/* sim2ev drops the .pio of the responder */
		table[s] = str(s, "vmlinux");
	}
	devtype[0] = str(NET, "SimpleNetDevice");
	devtype[1] = str(NET, "CosimNetDevice");
	for (k = 0; k < 7; k++)
		srcs[k] = str(NET, srcnames[k]);

	for (i = 0; i < n; i++) {
		int64_t T = 2000000000LL + i * PERIOD, tm, tn, t, th, tx, tr, ts2;
		uint64_t op, uid = (uint64_t)i, addr, len;
		struct ssp_rec *r;
		int j;

		/* client: send syscall, posted doorbell write */
		func(CLIENT, T, "entry_SYSCALL_64");
		for (k = 0; k < noise / 2; k++)
			insn(CLIENT, T + 10 + k, (unsigned)k);
		func(CLIENT, T + 1000, "__sys_sendto");
		func(CLIENT, T + 2000, "dev_queue_xmit");
		func(CLIENT, T + 3000, "i40e_lan_xmit_frame");
		tm = T + 4000;
		r = ev(CLIENT, tm, SSP_EV_MMIO_WR);
		r->f[SSP_F_MMIO_COMP] = comp[CLIENT];
		r->f[SSP_F_MMIO_ADDR] = 0xc0508000;
		r->f[SSP_F_MMIO_SIZE] = 4;
		r->f[SSP_F_MMIO_ID] = 94469376954304ull + (uint64_t)i;
		r->f[SSP_F_MMIO_BAR] = 0;
		r->f[SSP_F_MMIO_OFFS] = 0x108000;
		r->f[SSP_F_MMIO_POSTED] = 1;
		r->f[SSP_F_MMIO_WR_CPU] = cpu[CLIENT];	/* its Exec line came last */
		r = ev(CLIENT, tm, SSP_EV_MMIO_POSTED);
		r->f[SSP_F_DONE_COMP] = pio[CLIENT];
		/* client NIC: doorbell, descriptor and packet DMA, tx */
		tn = tm + PCIE;
		r = ev(CNIC, tn, SSP_EV_NIC_WR);
		r->f[SSP_F_NMMIO_OFF] = 0x108000;
		r->f[SSP_F_NMMIO_LEN] = 4;
		r->f[SSP_F_NMMIO_VAL] = 1;
		r->f[SSP_F_NMMIO_POSTED] = 1;
		t = tn + 1000;
		for (j = 0; j < 2; j++) {
			addr = j == 0 ? 0x100240060ull : 0x100300000ull;
			len = j == 0 ? 16 : 98;
			op = OP_BASE + (uint64_t)(i * 4 + j) * 0x40;
			nicdma(CNIC, t, SSP_EV_NIC_DMA_ISSUE, op, addr, len, 0);
			nicdma(CNIC, t, SSP_EV_NIC_DMA_EXEC, op, addr, len, 1);
			th = t + PCIE;
			hostdma(CLIENT, th, 0, op, addr, len);
			done(CLIENT, th + 2000, op);
			t = th + 2000 + PCIE;
			nicdma(CNIC, t, SSP_EV_NIC_DMA_DONE_RD, op, addr, len, 0);
			t += 1000;
		}
		r = ev(CNIC, t, SSP_EV_NIC_TX);
		r->f[SSP_F_NTX_LEN] = 98;
		for (k = 0; k < noise / 2; k++)
			insn(CLIENT, t + 10 + k, (unsigned)k);
		/* ns-3: four devices from the client NIC to the server NIC */
		tx = t + ETH;
		net(tx, '+', 1, 2, 1, S_RXADAPTER, uid, 1, SSP_NET_FROM_ADAPTER, 1);
		net(tx, '-', 1, 2, 1, S_TXNET, uid, 1, 0, 1);
		net(tx, '+', 1, 1, 0, S_ENQ, uid, 1, 0, 0);
		if (nbg > 0 && i % 10 == 5)	/* background to the server NIC */
			net(tx + 5000, '+', 0, 2, 1, S_RXNET, bguid, 0, 0, 1);
		net(tx + 10000, '-', 1, 1, 0, S_DEQ, uid, 1, 0, 0);
		for (k = 0; k < nbg; k++) {	/* background inside ns-3 */
			uint64_t u = bguid + 1 + (uint64_t)k;

			net(tx + 11000, '+', 0, 1, 0, S_ENQ, u, 0, 0, 0);
			net(tx + 12000, '-', 0, 1, 0, S_DEQ, u, 0, 0, 0);
			net(tx + 13000, '+', 1, 1, 0, S_RXNET, u, 0, 0, 0);
			net(tx + 14000, '-', 1, 1, 0, S_TXATT, u, 0, 0, 0);
		}
		net(tx + 20000, '+', 0, 1, 0, S_RXNET, uid, 1, 0, 0);
		net(tx + 30000, '-', 0, 1, 0, S_TXATT, uid, 1, 0, 0);
		net(tx + 40000, '+', 0, 2, 1, S_RXNET, uid, 1, 0, 1);
		if (nbg > 0 && i % 10 == 5)
			net(tx + 45000, '-', 0, 2, 1, S_TXADAPTER, bguid, 0,
			    SSP_NET_TO_ADAPTER, 1);
		net(tx + 90000, '-', 0, 2, 1, S_TXADAPTER, uid, 1,
		    SSP_NET_TO_ADAPTER, 1);
		if (nbg > 0 && i % 10 == 5) {	/* the server NIC takes it */
			r = ev(SNIC, tx + 45000 + ETH, SSP_EV_NIC_RX);
			r->f[SSP_F_NRX_LEN] = 60;
		}
		bguid += (uint64_t)nbg + 1;
		/* server NIC: rx, packet DMA write, MSI-X */
		tr = tx + 90000 + ETH;
		r = ev(SNIC, tr, SSP_EV_NIC_RX);
		r->f[SSP_F_NRX_PORT] = 0;
		r->f[SSP_F_NRX_LEN] = 98;
		t = tr + 1000;
		op = OP_BASE + (uint64_t)(i * 4 + 2) * 0x40;
		addr = 0x200400000ull;
		nicdma(SNIC, t, SSP_EV_NIC_DMA_ISSUE, op, addr, 98, 0);
		nicdma(SNIC, t, SSP_EV_NIC_DMA_EXEC, op, addr, 98, 1);
		th = t + PCIE;
		hostdma(SERVER, th, 1, op, addr, 98);
		done(SERVER, th + 1000, op);
		t = th + 1000 + PCIE;
		nicdma(SNIC, t, SSP_EV_NIC_DMA_DONE_WR, op, addr, 98, 0);
		t += 1000;
		r = ev(SNIC, t, SSP_EV_NIC_MSIX);
		r->f[SSP_F_NIRQ_VEC] = 1;
		th = t + PCIE;
		r = ev(SERVER, th, SSP_EV_MSIX);
		r->f[SSP_F_IRQ_COMP] = comp[SERVER];
		r->f[SSP_F_IRQ_VEC] = 1;
		done(SERVER, th + 1000, 0);
		/* server: the receiving syscall */
		ts2 = th + 50000;
		func(SERVER, ts2, "entry_SYSCALL_64");
		func(SERVER, ts2 + 1000, "__sys_recvfrom");
		func(SERVER, ts2 + 2000, "i40e_napi_poll");
		func(SERVER, ts2 + 3000, "netif_receive_skb_list_internal");
		for (k = 0; k < noise; k++)
			insn(SERVER, ts2 + 3010 + k, (unsigned)k);
		for (s = 0; s < NSTREAMS; s++)
			flush(s);
	}
	/* the last syscall of each host stays open */
	func(CLIENT, 2000000000LL + n * PERIOD, "entry_SYSCALL_64");
	func(SERVER, 2000000000LL + n * PERIOD, "entry_SYSCALL_64");
	for (s = 0; s < NSTREAMS; s++) {
		flush(s);
		if (ssp_rec_wr_close(w[s], &e) != SSP_OK ||
		    ssp_out_close(out[s], &e) != SSP_OK)
			errx(1, "%s", e.msg);
	}
	snprintf(path, sizeof(path), "%s/topology.csv", dir);
	if ((tf = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	fprintf(tf, "# SimBricks dumbbell written by mkdumbbell (N = %lld)\n"
	    "type,name,kind,file\n", (long long)n);
	for (s = 0; s < NSTREAMS; s++)
		fprintf(tf, "stream,%s,%s,%s%s\n", names[s], ssp_event_sim_kind(sims[s]),
		    names[s], sfx);
	fprintf(tf, "pcie,client,client-nic,system.pc.simbricks_0\n"
	    "pcie,server,server-nic\n"
	    "eth,client-nic,net,1,2\n"
	    "eth,server-nic,net,0,2\n");
	if (fclose(tf) != 0)
		err(1, "%s", path);
	return 0;
}
