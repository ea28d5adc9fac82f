/*
 * The scenario driver: rounds of requests, the event loop that hands each
 * event to the host, NIC or network, the output directory (logs, topology,
 * symbol tables, rules, truth, commands) and the two passes (a dry run
 * that measures the logs when they must be padded to a size, then the
 * real one).
 */
#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/clock.h"
#include "stream/span.h"
#include "synth/syndata.h"
#include "synth/synhost.h"
#include "synth/synlinux.h"
#include "synth/synmodel.h"
#include "synth/synnet.h"
#include "synth/synpcap.h"
#include "synth/synswitch.h"
#include "synth/syne1000.h"
#include "synth/synenso.h"
#include "synth/synnic.h"
#include "synth/synq.h"
#include "synth/synsim.h"
#include "synth/synverilator.h"

#define PS_US 1000000LL
#define PS_MS 1000000000LL
#define START_PS PS_MS		/* requests start 1 ms into the run */

/* --- rounds ------------------------------------------------------------- */

static void
round_start(struct syn *s, int64_t t)
{
	const struct ssp_synparams *p = s->p;
	unsigned r = s->rounds_sent++, k;
	unsigned server = r % s->nservers;

	for (k = 0; k < p->concurrency && s->reqs_sent < s->nreqs; k++) {
		unsigned c = s->nservers + (r * p->concurrency + k) % s->nclients;
		struct host *ch = &s->hosts[c], *sh = &s->hosts[server];
		struct pkt *pk = ssp_synmodel_pkt_new(s, PK_REQ);
		unsigned q = s->reqs_sent++;

		if (pk == NULL)
			return;
		s->reqs[q] = (struct req){ c, server, t, 0 };
		pk->interesting = 1;
		pk->req = q;
		pk->src_host = (int)c;
		pk->dst_host = (int)server;
		pk->sip = ch->ip;
		pk->dip = sh->ip;
		pk->sport = (uint16_t)(40000 + c);
		pk->dport = 7000;
		pk->proto = 17;
		pk->payload = p->req_size;
		if (p->nic == SSP_SYN_NIC_ENSO)	/* EnsoGen: one transfer */
			ssp_synenso_send(s, ch, pk);
		else
			ssp_synhost_task(s, ch, TK_SEND, pk);
	}
	if (s->reqs_sent < s->nreqs)
		ssp_synmodel_schedule(s, t + p->interval +
		    ssp_synrng_range(&s->rng, 0, p->interval / 4), EV_ROUND, 0, 0,
		    NULL);
}

static void
dispatch(struct syn *s, const struct sev *ev)
{
	unsigned i;

	switch (ev->type) {
	case EV_ROUND:
		round_start(s, ev->t);
		break;
	case EV_RESTART:	/* the simulators restart from a checkpoint */
		for (i = 0; i < s->nhosts; i++) {
			struct nic *n = &s->nics[i];

			ssp_synlog_reopen(s->hosts[i].log, NULL);
			if (n->glue && ssp_synlog_reopen(n->log, NULL) == SSP_OK &&
			    ssp_synlog_stats(n->log)->reopens > 0) {
				/* dma data bytes the old process left unended */
				n->glue = 0;
				n->nskip[SSP_SYNSKIP_DMADATA]++;
			} else if (!n->glue) {
				ssp_synlog_reopen(n->log, NULL);
			}
		}
		ssp_synlog_reopen(s->net.log, NULL);
		break;
	case EV_HOST_STEP: case EV_HOST_TASK: case EV_HOST_MMIO_DONE:
	case EV_HOST_DMA: case EV_HOST_DMA_DONE: case EV_HOST_MSIX:
	case EV_HOST_MSIX_DONE: case EV_HOST_SYNC: case EV_HOST_HOUSE:
	case EV_HOST_PUSH: case EV_HOST_INTX: case EV_ENSO_APP:
		if (s->p->nic == SSP_SYN_NIC_ENSO)
			ssp_synenso_event(s, ev);
		else if (s->lx)
			ssp_synlinux_event(s, ev);
		else
			ssp_synhost_event(s, ev);
		break;
	case EV_LX_STEP: case EV_LX_MSIX: case EV_LX_MSIX_DONE: case EV_LX_IPI:
	case EV_LX_MMIO_DONE: case EV_LX_IO_REQ: case EV_LX_IO_RESP:
		ssp_synlinux_event(s, ev);
		break;
	case EV_NIC_MMIO: case EV_NIC_DMA_DONE: case EV_NIC_IRQ:
	case EV_NIC_RX: case EV_NIC_INFO: case EV_NIC_TSO: case EV_NIC_RTL:
	case EV_NIC_E1000:
		if (s->p->corundum_rtl)
			ssp_synverilator_event(s, ev);
		else if (s->p->nic == SSP_SYN_NIC_E1000)
			ssp_syne1000_event(s, ev);
		else if (s->p->nic == SSP_SYN_NIC_ENSO)
			ssp_synenso_event(s, ev);
		else
			ssp_synnic_event(s, ev);
		break;
	default:
		if (s->p->net == SSP_SYN_NET_SWITCH)
			ssp_synswitch_event(s, ev);
		else
			ssp_synnet_event(s, ev);
		break;
	}
}

/* The network's stream and log names. */
static const char *
net_name(const struct syn *s)
{
	return s->p->net == SSP_SYN_NET_SWITCH ? "switch" : "net";
}

static const char *
net_log(const struct syn *s)
{
	return s->p->net == SSP_SYN_NET_SWITCH ? "switch.net_switch.log" :
	    "net.ns3.log";
}

/* A host's log: gem5's, or QEMU's stderr (--host qemu). */
static const char *
host_log(const struct syn *s)
{
	return s->p->host == SSP_SYN_HOST_QEMU ? "qemu" : "gem5";
}

/* A NIC's log: nicbm's, or the Corundum Verilator adapter's stdout. */
static const char *
nic_log(const struct syn *s)
{
	return s->p->corundum_rtl ? "corundum" : s->p->nic == SSP_SYN_NIC_E1000 ?
	    "e1000" : "nicbm";
}

/* --- output files ------------------------------------------------------- */

/* dir/name into path (for messages), and the path to write it to
 * (p->out_path); NULL after filling e. */
static const char *
out_path(const struct ssp_synparams *p, char *path, size_t size,
    const char *dir, const char *name, struct ssp_err *e)
{
	const char *to;

	snprintf(path, size, "%s/%s", dir, name);
	if (p->out_path == NULL)
		return path;
	if ((to = p->out_path(path)) == NULL)
		ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path, strerror(errno));
	return to;
}

/* rules.csv: the embedded Columbo rules; --kernel linux appends the
 * kernel-context classes (SPEC §3b). */
static int
write_rules(const struct ssp_synparams *p, const char *dir, const char *base,
    int lx, int real, struct ssp_err *e)
{
	char path[4096];
	const char *to;
	FILE *f;
	int bad;

	if ((to = out_path(p, path, sizeof(path), dir, "rules.csv", e)) == NULL)
		return SSP_ERR_IO;
	if ((f = fopen(to, "w")) == NULL)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path,
		    strerror(errno));
	fputs(base, f);
	if (lx)
		fputs(ssp_synlinux_rules, f);
	if (lx && real)
		fputs(ssp_synlinux_rules_real, f);
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: write failed", path);
	return SSP_OK;
}

static void
csv_row(FILE *f, int n, ...)
{
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++) {
		const char *v = va_arg(ap, const char *);

		if (i > 0)
			fputc(',', f);
		csv_fwrite(f, v, strlen(v));
	}
	va_end(ap);
	fputs("\r\n", f);
}

static const char *
zsuffix(const struct syn *s)
{
	return s->p->zlevel > 0 ? ".zst" : "";
}

/* Topology for evspan (formats/topology.md): streams are the event
 * streams sim2ev makes from the logs (commands.sh). */
static int
write_topology(struct syn *s, const char *dir, struct ssp_err *e)
{
	char path[4096], a[64], b[64], c[16], d[16];
	const char *to;
	FILE *f;
	unsigned i;
	int bad;

	if ((to = out_path(s->p, path, sizeof(path), dir, "topology.csv",
	    e)) == NULL)
		return SSP_ERR_IO;
	if ((f = fopen(to, "w")) == NULL)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path,
		    strerror(errno));
	if (s->p->net == SSP_SYN_NET_SWITCH || s->p->ns3_e2e)
		fprintf(f, "# simsynth: %u hosts (%u server%s, %u client%s) on one "
		    "%s, NIC i on %s\r\n", s->nhosts, s->nservers,
		    s->nservers == 1 ? "" : "s", s->nclients,
		    s->nclients == 1 ? "" : "s", s->p->ns3_e2e ? "ns-3 switch "
		    "node (symphony NS3Net)" : "SimBricks net_switch", s->p->ns3_e2e ?
		    "device i + 1" : "port i");
	else
		fprintf(f, "# simsynth dumbbell: %u hosts (%u server%s on switch 0, "
		    "%u client%s on switch 1), one ns-3 network\r\n", s->nhosts,
		    s->nservers, s->nservers == 1 ? "" : "s", s->nclients,
		    s->nclients == 1 ? "" : "s");
	fprintf(f, "# stream files are the event streams commands.sh makes\r\n");
	csv_row(f, 4, "type", "name", "kind", "file");
	for (i = 0; i < s->nhosts; i++) {
		snprintf(a, sizeof(a), "%s.ev.zst", s->hosts[i].name);
		csv_row(f, 4, "stream", s->hosts[i].name, "host", a);
		snprintf(b, sizeof(b), "%s.ev.zst", s->nics[i].name);
		csv_row(f, 4, "stream", s->nics[i].name, "nic", b);
	}
	snprintf(a, sizeof(a), "%s.ev.zst", net_name(s));
	csv_row(f, 4, "stream", net_name(s), "net", a);
	for (i = 0; i < s->nhosts; i++)	/* the adapter's comp in its events */
		csv_row(f, 4, "pcie", s->hosts[i].name, s->nics[i].name,
		    s->p->host == SSP_SYN_HOST_QEMU ? "simbricks-pci" :
		    "system.pc.simbricks_0");
	for (i = 0; i < s->nhosts; i++) {
		snprintf(c, sizeof(c), "%d", s->hosts[i].sw);
		snprintf(d, sizeof(d), "%u", s->hosts[i].dev);
		csv_row(f, 5, "eth", s->nics[i].name, net_name(s), c, d);
	}
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: write failed", path);
	return SSP_OK;
}

/* The phase-one and phase-two command lines, as a sourceable script. */
static int
write_commands(struct syn *s, const char *dir, struct ssp_err *e)
{
	char path[4096], off[64];
	const char *to, *drv = s->p->nic == SSP_SYN_NIC_CORUNDUM ? "mqnic" :
	    s->p->nic == SSP_SYN_NIC_E1000 ? "e1000" : "i40e";
	FILE *f;
	unsigned i;
	int bad;

	if ((to = out_path(s->p, path, sizeof(path), dir, "commands.sh",
	    e)) == NULL)
		return SSP_ERR_IO;
	if ((f = fopen(to, "w")) == NULL)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path,
		    strerror(errno));
	snprintf(off, sizeof(off), "%s", s->p->ckpt_offset > 0 ?
	    " --time-offset sync" : "");
	fprintf(f, "# Made by: %s\n", s->p->cmdline != NULL ? s->p->cmdline :
	    "simsynth");
	fprintf(f, "# Turn the logs into event streams (phase 1) and spans "
	    "(phase 2): sh commands.sh\n# (it runs in its own directory and "
	    "stops at the first command that fails).\n");
	fprintf(f, "# gem5 logs need both symbol tables; the %s module is "
	    "loaded at 0x%llx.\n", drv, (unsigned long long)SSP_SYN_I40E_OFFSET);
	if (s->p->ckpt_offset > 0)
		fprintf(f, "# gem5 prints absolute ticks (checkpoint offset "
		    "%" PRId64 " ps): --time-offset sync\n# takes the offset from "
		    "its 'sending sync message for ts=' lines.\n",
		    s->p->ckpt_offset);
	if (s->lx)
		fprintf(f, "# the application's functions: app.syms, loaded at "
		    "0x%llx\n", (unsigned long long)SSP_SYNLINUX_APP_BASE);
	fprintf(f, "set -e\ncd \"$(dirname \"$0\")\"\n");
	for (i = 0; s->p->host == SSP_SYN_HOST_QEMU && i < s->nhosts; i++)
		fprintf(f, "sim2ev -f qemu -n %s -o %s.ev.zst %s.qemu.log%s\n",
		    s->hosts[i].name, s->hosts[i].name, s->hosts[i].name, zsuffix(s));
	for (i = 0; s->p->host == SSP_SYN_HOST_GEM5 && i < s->nhosts; i++) {
		char app[96] = "";

		if (s->lx)
			snprintf(app, sizeof(app), " -s app.syms,app,0x%llx",
			    (unsigned long long)SSP_SYNLINUX_APP_BASE);
		fprintf(f, "sim2ev -f gem5 -n %s -s vmlinux.syms "
		    "-s %s.syms,%s,0x%llx%s%s -o %s.ev.zst %s.gem5.log%s\n",
		    s->hosts[i].name, drv, drv,
		    (unsigned long long)SSP_SYN_I40E_OFFSET, app, off, s->hosts[i].name,
		    s->hosts[i].name, zsuffix(s));
	}
	for (i = 0; i < s->nhosts; i++)
		fprintf(f, "sim2ev -f %s -n %s -o %s.ev.zst %s.%s.log%s\n",
		    nic_log(s), s->nics[i].name, s->nics[i].name, s->nics[i].name,
		    nic_log(s), zsuffix(s));
	if (s->p->switch_pcap)	/* libpcap writes it plain */
		fprintf(f, "sim2ev -f pcap -n %s -o %s.ev.zst switch.pcap\n",
		    net_name(s), net_name(s));
	else
		fprintf(f, "sim2ev -f %s -n %s -o %s.ev.zst %s%s\n",
		    s->p->net == SSP_SYN_NET_SWITCH ? "switch" : "ns3", net_name(s),
		    net_name(s), net_log(s), zsuffix(s));
	fprintf(f, "evspan -t topology.csv -r rules.csv -o spans.sp\n");
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: write failed", path);
	return SSP_OK;
}

/* --- setup and teardown ------------------------------------------------- */

static int
open_log(struct syn *s, struct ssp_synlog **lp, const char *dir,
    const char *file, struct ssp_err *e)
{
	char path[4096];
	const char *to;

	if (s->dry)
		return ssp_synlog_open(lp, NULL, 0, NULL, 0, e);
	if ((to = out_path(s->p, path, sizeof(path), dir, file, e)) == NULL)
		return SSP_ERR_IO;
	return ssp_synlog_open(lp, to, s->p->zlevel, &s->pacer,
	    s->p->pace > 0 ? 4096 : 0, e);
}

static void
free_syn(struct syn *s)
{
	unsigned i;

	for (i = 0; i < s->nheap; i++)	/* packets still in flight */
		if (s->heap[i].type == EV_HOST_TASK && s->heap[i].p != NULL)
			ssp_synmodel_pkt_put(s->heap[i].p);
	free(s->heap);
	if (s->hosts != NULL)
		for (i = 0; i < s->nhosts; i++) {
			ssp_synlog_close(s->hosts[i].log, NULL);
			free(s->hosts[i].qemu);
		}
	free(s->qemu_stream);
	if (s->nics != NULL)
		for (i = 0; i < s->nhosts; i++) {
			ssp_synlog_close(s->nics[i].log, NULL);
			ssp_synlog_close(s->nics[i].devlog, NULL);
			ssp_syne1000_free(&s->nics[i]);
			ssp_synenso_free(&s->nics[i]);
		}
	ssp_synlog_close(s->net.log, NULL);
	ssp_synpcap_close(s->net.pcap, NULL);
	ssp_synnet_free(s);
	ssp_synlinux_free(s);
	for (i = 0; s->nics != NULL && i < s->nhosts; i++)
		ssp_synq_free(&s->nics[i]);
	ssp_syntruth_close(s->truth, NULL);
	if (s->stream_names != NULL)
		for (i = 0; i < s->nstreams; i++)
			free(s->stream_names[i]);
	free(s->stream_names);
	free(s->hosts);
	free(s->nics);
	free(s->reqs);
}

static int
setup(struct syn *s, const char *dir, struct ssp_err *e)
{
	const struct ssp_synparams *p = s->p;
	char file[128], path[4096];
	const char *to;
	unsigned i, nsw[2] = { 0, 0 };
	int r;

	ssp_synrng_seed(&s->rng, p->seed, 1);
	s->nhosts = p->hosts;
	s->nservers = p->servers;
	s->nclients = p->hosts - p->servers;
	s->nreqs = p->requests;
	s->end = INT64_MAX;
	s->t0 = START_PS;
	s->nstreams = 2 * s->nhosts + 1;
	s->hosts = calloc(s->nhosts, sizeof(*s->hosts));
	s->nics = calloc(s->nhosts, sizeof(*s->nics));
	s->reqs = calloc(s->nreqs + 1, sizeof(*s->reqs));
	s->stream_names = calloc(s->nstreams, sizeof(*s->stream_names));
	if (p->host == SSP_SYN_HOST_QEMU)
		s->qemu_stream = calloc(s->nstreams, sizeof(*s->qemu_stream));
	if (s->hosts == NULL || s->nics == NULL || s->reqs == NULL ||
	    s->stream_names == NULL || (p->host == SSP_SYN_HOST_QEMU &&
	    s->qemu_stream == NULL))
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	s->fn_entry = ssp_synmodel_fn(s, "entry_SYSCALL_64");
	s->fn_error_entry = ssp_synmodel_fn(s, "error_entry");
	s->lbl_safe_stack = ssp_synsym_label(s->syms,
	    "entry_SYSCALL_64_safe_stack");
	if (s->lbl_safe_stack == NULL)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "internal: no label "
		    "entry_SYSCALL_64_safe_stack");
	for (i = 0; i < s->nhosts; i++) {
		struct host *h = &s->hosts[i];
		struct nic *n = &s->nics[i];

		h->idx = n->idx = i;
		h->server = i < s->nservers;
		snprintf(h->name, sizeof(h->name), "%s%u", h->server ? "server" :
		    "client", h->server ? i : i - s->nservers);
		snprintf(n->name, sizeof(n->name), "%s-nic", h->name);
		h->sw = h->server ? 0 : 1;
		h->dev = 2 + nsw[h->sw]++;
		if (p->ns3_e2e) {	/* after the bridge, in --Network order */
			h->sw = 0;
			h->dev = 1 + i;
		}
		if (p->net == SSP_SYN_NET_SWITCH) {	/* port i, its -s order */
			h->sw = 0;
			h->dev = i;
		}
		h->ip = 0xc0a84001u + i;	/* 192.168.64.1 + i */
		h->nic = n;
		n->h = h;
		h->stream = 2 * i;
		n->stream = 2 * i + 1;
		if ((s->stream_names[h->stream] = strdup(h->name)) == NULL ||
		    (s->stream_names[n->stream] = strdup(n->name)) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		snprintf(file, sizeof(file), "%s.%s.log%s", h->name, host_log(s),
		    zsuffix(s));
		if ((r = open_log(s, &h->log, dir, file, e)) != SSP_OK)
			return r;
		if (p->host == SSP_SYN_HOST_QEMU) {
			if ((h->qemu = malloc(sizeof(*h->qemu))) == NULL)
				return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
			ssp_synqemu_init(h->qemu, h->log, SSP_SYNQEMU_BASE_NS,
			    p->sync_interval);
			s->qemu_stream[h->stream] = 1;
		}
		snprintf(file, sizeof(file), "%s.%s.log%s", n->name, nic_log(s),
		    zsuffix(s));
		if ((r = open_log(s, &n->log, dir, file, e)) != SSP_OK)
			return r;
		/* enso_bm's own device log (DEBUG_DEV), on its stderr */
		snprintf(file, sizeof(file), "%s.enso.log%s", n->name, zsuffix(s));
		if (p->nic == SSP_SYN_NIC_ENSO &&
		    (r = open_log(s, &n->devlog, dir, file, e)) != SSP_OK)
			return r;
	}
	s->net.stream = 2 * s->nhosts;
	s->net.ncosim[0] = p->ns3_e2e ? s->nhosts : nsw[0];
	s->net.ncosim[1] = p->ns3_e2e ? 0 : nsw[1];
	if ((s->stream_names[s->net.stream] = strdup(net_name(s))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	snprintf(file, sizeof(file), "%s%s", net_log(s), zsuffix(s));
	if ((r = open_log(s, &s->net.log, dir, file, e)) != SSP_OK)
		return r;
	if (p->net == SSP_SYN_NET_SWITCH && p->switch_pcap) {	/* its -p file */
		if (s->dry)
			to = NULL;
		else if ((to = out_path(s->p, path, sizeof(path), dir,
		    "switch.pcap", e)) == NULL)
			return SSP_ERR_IO;
		if ((r = ssp_synpcap_open(&s->net.pcap, to, e)) != SSP_OK)
			return r;
	}
	if (s->dry)
		to = NULL;
	else if ((to = out_path(s->p, path, sizeof(path), dir,
	    s->p->zlevel > 0 ? "truth.csv.zst" : "truth.csv", e)) == NULL)
		return SSP_ERR_IO;
	if ((r = ssp_syntruth_open_ex(&s->truth, to, s->nstreams, s->lx,
	    s->p->zlevel, e)) != SSP_OK)
		return r;
	ssp_synnet_init(s);
	if (p->net == SSP_SYN_NET_SWITCH)
		ssp_synswitch_init(s);
	for (i = 0; i < s->nhosts; i++) {
		if (p->corundum_rtl)
			ssp_synverilator_init(s, &s->nics[i]);
		else if (p->nic == SSP_SYN_NIC_E1000 &&
		    (r = ssp_syne1000_init(s, &s->nics[i])) != SSP_OK)
			return ssp_err_set(e, r, 0, "%s", s->err.msg);
		else if (p->nic == SSP_SYN_NIC_ENSO) {
			if ((r = ssp_synenso_init(s, &s->nics[i])) != SSP_OK)
				return ssp_err_set(e, r, 0, "%s", s->err.msg);
			continue;	/* its host runs Ensō's library */
		} else if (p->nic != SSP_SYN_NIC_E1000)
			ssp_synnic_init(s, &s->nics[i]);
		if (s->lx)
			continue;
		if ((r = ssp_synhost_init(s, &s->hosts[i])) != SSP_OK)
			return ssp_err_set(e, r, 0, "%s", s->err.msg);
	}
	if (s->lx && (r = ssp_synlinux_setup(s)) != SSP_OK)
		return ssp_err_set(e, r, 0, "%s", s->failed ? s->err.msg :
		    "out of memory");
	for (i = 0; s->real && i < s->nhosts; i++)
		if ((r = ssp_synq_new(s, &s->nics[i])) != SSP_OK)
			return ssp_err_set(e, r, 0, "out of memory");
	return s->failed ? ssp_err_set(e, s->err.code, 0, "%s", s->err.msg) :
	    SSP_OK;
}

static void
collect(struct syn *s, struct ssp_synsim_result *res)
{
	unsigned i, k, n = 0;
	double sum = 0, mx = 0;

	res->nlogs = s->nstreams;
	res->logs = calloc(res->nlogs, sizeof(*res->logs));
	if (res->logs == NULL) {
		res->nlogs = 0;
		return;
	}
	for (i = 0; i < s->nhosts; i++) {
		struct ssp_synsim_logstat *hl = &res->logs[2 * i], *nl = &res->logs[2 * i + 1];
		struct host *h = &s->hosts[i];
		struct nic *nc = &s->nics[i];

		snprintf(hl->name, sizeof(hl->name), "%s", h->name);
		snprintf(hl->file, sizeof(hl->file), "%s.%s.log%s", h->name,
		    host_log(s), zsuffix(s));
		hl->sim = h->qemu != NULL ? SSP_SIM_QEMU : SSP_SIM_GEM5;
		hl->io = *ssp_synlog_stats(h->log);
		if (h->qemu != NULL) {
			memcpy(hl->nev, h->qemu->nev, sizeof(hl->nev));
			memcpy(hl->nskip, h->qemu->nskip, sizeof(h->qemu->nskip));
		} else {
			memcpy(hl->nev, h->g.nev, sizeof(hl->nev));
			for (k = 0; k < SSP_G5_NSKIP; k++)
				hl->nskip[k] = h->g.nskip[k];	/* same order */
		}
		snprintf(nl->name, sizeof(nl->name), "%s", nc->name);
		snprintf(nl->file, sizeof(nl->file), "%s.%s.log%s", nc->name,
		    nic_log(s), zsuffix(s));
		nl->sim = s->p->corundum_rtl ? SSP_SIM_CORUNDUM :
		    s->p->nic == SSP_SYN_NIC_E1000 ? SSP_SIM_E1000 : SSP_SIM_NICBM;
		nl->io = *ssp_synlog_stats(nc->log);
		memcpy(nl->nev, nc->nev, sizeof(nl->nev));
		memcpy(nl->nskip, nc->nskip, sizeof(nc->nskip));
		nl->glued = nc->glued;
	}
	snprintf(res->logs[s->net.stream].name, 64, "%s", net_name(s));
	snprintf(res->logs[s->net.stream].file, 80, "%s%s", s->p->switch_pcap ?
	    "switch.pcap" : net_log(s), s->p->switch_pcap ? "" : zsuffix(s));
	res->logs[s->net.stream].sim = s->p->switch_pcap ? SSP_SIM_PCAP :
	    s->p->net == SSP_SYN_NET_SWITCH ? SSP_SIM_SWITCH : SSP_SIM_NS3;
	res->logs[s->net.stream].io = *ssp_synlog_stats(s->net.log);
	if (s->p->switch_pcap) {	/* the capture, records as lines */
		res->logs[s->net.stream].io.bytes = SSP_SYNPCAP_HEADER + s->net.pcap_bytes;
		res->logs[s->net.stream].io.lines = s->net.nev[SSP_EV_NET_SEEN];
	}
	memcpy(res->logs[s->net.stream].nev, s->net.nev, sizeof(s->net.nev));
	res->spans = ssp_syntruth_count(s->truth);
	res->ambiguous = ssp_syntruth_ambiguous(s->truth);
	for (k = 0; k < SSP_SYNTRUTH_NKINDS && k < 32; k++)
		res->spans_kind[k] = ssp_syntruth_count_kind(s->truth, k);
	res->ties = ssp_syntruth_ties(s->truth);
	res->rule_differs = ssp_syntruth_rule_differs(s->truth);
	res->requests_done = s->reqs_done;
	res->end_ps = s->end;
	for (i = 0; i < s->nreqs; i++) {
		double d;

		if (s->reqs[i].t_done == 0)
			continue;
		d = (double)(s->reqs[i].t_done - s->reqs[i].t_send);
		sum += d;
		if (d > mx)
			mx = d;
		n++;
	}
	res->rtt_mean_ps = n > 0 ? sum / n : 0;
	res->rtt_max_ps = mx;
	res->bg_packets = s->net.bg_packets;
	res->bg_drops = s->net.bg_drops;
	res->bg_to_nic = s->net.bg_to_nic;
}

/* Stop as soon as an output cannot be written (disk full, pipe gone). */
static void
check_outputs(struct syn *s)
{
	struct ssp_synlog *l = NULL;
	unsigned i;

	for (i = 0; i < s->nhosts && l == NULL; i++) {
		if (ssp_synlog_failed(s->hosts[i].log))
			l = s->hosts[i].log;
		else if (ssp_synlog_failed(s->nics[i].log))
			l = s->nics[i].log;
	}
	if (l == NULL && ssp_synlog_failed(s->net.log))
		l = s->net.log;
	if (l != NULL && !s->failed) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_IO, 0, "%s", ssp_synlog_error(l));
	}
}

/* One pass over the scenario.  density[h] < 0: use the exec rate. */
static int
run_once(struct syn *s, const char *dir, const double *density,
    struct ssp_err *e)
{
	struct sev ev;
	unsigned i;
	int r;

	if ((r = setup(s, dir, e)) != SSP_OK)
		return r;
	for (i = 0; i < s->nhosts; i++) {
		double d = density != NULL && density[i] >= 0 ? density[i] :
		    s->p->exec_rate;

		if (s->p->nic == SSP_SYN_NIC_ENSO)	/* QEMU hosts only */
			continue;
		if (!s->lx)
			ssp_syngem5_density(&s->hosts[i].g, d);
		else
			ssp_synlinux_density(&s->hosts[i], d);
	}
	if (s->lx)
		ssp_synlinux_start(s);
	if (s->nreqs > 0 && !s->lx)
		ssp_synmodel_schedule(s, s->t0, EV_ROUND, 0, 0, NULL);
	else if (s->nreqs == 0) {
		s->ending = 1;
		s->end = s->t0 + TAIL_PS;
	}
	for (i = 0; i < s->nhosts; i++) {
		if (s->p->corundum_rtl)
			ssp_synverilator_start(s, &s->nics[i]);
		else if (s->p->nic == SSP_SYN_NIC_E1000)
			ssp_syne1000_start(s, &s->nics[i]);
		else if (s->p->nic == SSP_SYN_NIC_ENSO)
			ssp_synenso_start(s, &s->nics[i]);
		else
			ssp_synnic_start(s, &s->nics[i]);
	}
	if (s->p->net == SSP_SYN_NET_SWITCH)
		ssp_synswitch_start_bg(s);
	else
		ssp_synnet_start_bg(s);
	if (s->p->restart_at > 0 && !s->dry)
		ssp_synmodel_schedule(s, s->p->restart_at, EV_RESTART, 0, 0, NULL);
	while (!s->failed && ssp_synmodel_pop(s, &ev)) {
		/* periodic work stops at the end: its events left in the queue
		 * do nothing and must not move the clock (and the end) on */
		if (s->ending && ev.t > s->end && (ev.type == EV_HOST_HOUSE ||
		    ev.type == EV_HOST_SYNC || ev.type == EV_BG_BURST ||
		    ev.type == EV_BG_PROBE))
			continue;
		s->now = ev.t;
		if (s->lx && !s->ending && s->now > s->t0 + 200 * PS_MS +
		    (int64_t)s->nreqs * 50 * s->p->interval) {
			s->failed = 1;
			ssp_err_set(&s->err, SSP_ERR_INVAL, 0, "internal: %u of %u "
			    "requests answered after %.1f ms", s->reqs_done,
			    s->nreqs, (double)s->now / PS_MS);
			if (getenv("SSP_SYNSYNTH_DUMP") != NULL)
				ssp_synlinux_dump(s, stderr);
			break;
		}
		dispatch(s, &ev);
		if ((s->seq & 0xfff) == 0)
			check_outputs(s);
	}
	check_outputs(s);
	if (s->failed)
		return ssp_err_set(e, s->err.code, 0, "%s", s->err.msg);
	if (s->reqs_done < s->nreqs)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "internal: %u of %u "
		    "requests answered", s->reqs_done, s->nreqs);
	if (s->now > s->end)
		s->end = s->now;
	for (i = 0; i < s->nhosts; i++) {
		if (s->lx)
			ssp_synlinux_finish(s, &s->hosts[i]);
		else
			ssp_synhost_finish(s, &s->hosts[i]);
		if (s->p->corundum_rtl)
			ssp_synverilator_finish(s, &s->nics[i]);
		else if (s->p->nic == SSP_SYN_NIC_E1000)
			ssp_syne1000_finish(s, &s->nics[i]);
		else if (s->p->nic == SSP_SYN_NIC_ENSO)
			ssp_synenso_finish(s, &s->nics[i]);
		else
			ssp_synnic_finish(s, &s->nics[i]);
	}
	return SSP_OK;
}

static int
close_logs(struct syn *s, struct ssp_err *e)
{
	unsigned i;
	int r = SSP_OK, r2;

	for (i = 0; i < s->nhosts; i++) {
		if ((r2 = ssp_synlog_flush(s->hosts[i].log, e)) != SSP_OK && r == SSP_OK)
			r = r2;
		if ((r2 = ssp_synlog_flush(s->nics[i].log, e)) != SSP_OK && r == SSP_OK)
			r = r2;
		if (s->nics[i].devlog != NULL && (r2 = ssp_synlog_flush(
		    s->nics[i].devlog, e)) != SSP_OK && r == SSP_OK)
			r = r2;
	}
	if (s->p->net == SSP_SYN_NET_SWITCH)
		ssp_synswitch_finish(s);
	if ((r2 = ssp_synlog_flush(s->net.log, e)) != SSP_OK && r == SSP_OK)
		r = r2;
	if ((r2 = ssp_synpcap_close(s->net.pcap, e)) != SSP_OK && r == SSP_OK)
		r = r2;
	s->net.pcap = NULL;
	return r;
}

int
ssp_synsim_run(const struct ssp_synparams *p, const char *outdir,
    struct ssp_synsim_result *res, struct ssp_err *e)
{
	struct syn s;
	struct ssp_synsym_set *syms = NULL;
	struct ssp_syngem5_execpool *kpool = NULL, *upool = NULL;
	struct ssp_syngem5_execpool *lkpool[4] = { NULL }, *lupool[4] = { NULL };
	struct ssp_synparams lp;
	double *density = NULL;
	int lx, crd;
	char path[4096];
	const char *to;
	uint64_t t0;
	unsigned i;
	int r;

	if (res != NULL)
		memset(res, 0, sizeof(*res));
	if ((r = ssp_synparams_check(p, e)) != SSP_OK)
		return r;
	lx = p->kernel == SSP_SYN_KERNEL_LINUX;
	if (lx) {	/* the Linux model's own defaults */
		lp = *p;
		if (!lp.itr_set)
			lp.itr = lp.itr_linux;
		p = &lp;
	}
	if (mkdir(outdir, 0777) != 0 && errno != EEXIST)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", outdir,
		    strerror(errno));
	if ((r = ssp_synsym_new_ex(&syms, p->nic == SSP_SYN_NIC_E1000 ?
	    SSP_SYNMOD_E1000 : p->nic == SSP_SYN_NIC_CORUNDUM, lx,
	    e)) != SSP_OK)
		return r;
	for (i = 0; lx && i < p->cpus; i++) {
		char name[32];

		ssp_synlinux_cpu_name(p->cpus, i, name, sizeof(name));
		if ((r = ssp_syngem5_execpool_new(&lkpool[i], syms, name, 0,
		    (p->gem5_dialect & SSP_SYN_G5_FMTFLAG) != 0,
		    p->seed + 7 * i, e)) != SSP_OK ||
		    (r = ssp_syngem5_execpool_new(&lupool[i], syms, name, 1,
		    (p->gem5_dialect & SSP_SYN_G5_FMTFLAG) != 0,
		    p->seed + 7 * i, e)) != SSP_OK)
			goto out;
	}
	if ((r = ssp_syngem5_execpool_new(&kpool, syms, "system.switch_cpus", 0,
	    (p->gem5_dialect & SSP_SYN_G5_FMTFLAG) != 0,
	    p->seed, e)) != SSP_OK ||
	    (r = ssp_syngem5_execpool_new(&upool, syms, "system.switch_cpus", 1,
	    (p->gem5_dialect & SSP_SYN_G5_FMTFLAG) != 0,
	    p->seed, e)) != SSP_OK)
		goto out;
	if ((density = calloc(p->hosts, sizeof(*density))) == NULL) {
		r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	for (i = 0; i < p->hosts; i++)
		density[i] = -1;
	if (p->gem5_size > 0) {
		/* Dry run without padding: the timeline does not depend on
		 * the padding, so it tells how much each log must grow. */
		double line, us;
		char digits[32];

		memset(&s, 0, sizeof(s));
		s.p = p;
		s.dry = 1;
		s.syms = syms;
		s.kpool = kpool;
		s.upool = upool;
		s.lx = lx;
		s.real = lx && ssp_synparams_printing(p) == SSP_SYN_PRINT_REAL;
		memcpy(s.lkpool, lkpool, sizeof(lkpool));
		memcpy(s.lupool, lupool, sizeof(lupool));
		for (i = 0; i < p->hosts; i++)
			density[i] = 0;
		r = run_once(&s, outdir, density, e);
		if (r == SSP_OK) {
			line = (ssp_syngem5_execpool_line_bytes(kpool) +
			    ssp_syngem5_execpool_line_bytes(upool)) / 2 +
			    snprintf(digits, sizeof(digits), "%" PRId64,
			    s.end + p->ckpt_offset);
			us = (double)s.end / PS_US;
			for (i = 0; i < p->hosts; i++) {
				double base = (double)ssp_synlog_stats(
				    s.hosts[i].log)->bytes;

				density[i] = base >= (double)p->gem5_size ? 0 :
				    ((double)p->gem5_size - base) / line / us;
			}
		}
		free_syn(&s);
		if (r != SSP_OK)
			goto out;
	}
	memset(&s, 0, sizeof(s));
	s.p = p;
	s.syms = syms;
	s.kpool = kpool;
	s.upool = upool;
	s.lx = lx;
	s.real = lx && ssp_synparams_printing(p) == SSP_SYN_PRINT_REAL;
	memcpy(s.lkpool, lkpool, sizeof(lkpool));
	memcpy(s.lupool, lupool, sizeof(lupool));
	s.pacer.rate = p->pace;
	t0 = ssp_clock_ns();
	crd = p->nic == SSP_SYN_NIC_CORUNDUM;
	to = out_path(p, path, sizeof(path), outdir, "vmlinux.syms", e);
	r = to == NULL ? SSP_ERR_IO : ssp_synsym_write_vmlinux(syms, to, e);
	if (r == SSP_OK) {
		to = out_path(p, path, sizeof(path), outdir, crd ? "mqnic.syms" :
		    p->nic == SSP_SYN_NIC_E1000 ? "e1000.syms" : "i40e.syms", e);
		r = to == NULL ? SSP_ERR_IO : crd ? ssp_synsym_write_mqnic(to, e) :
		    p->nic == SSP_SYN_NIC_E1000 ? ssp_synsym_write_mod(to,
		    SSP_SYNMOD_E1000, e) : ssp_synsym_write_i40e(to, e);
	}
	if (r == SSP_OK)
		r = write_rules(p, outdir, crd ? ssp_syndata_rules_corundum :
		    p->nic == SSP_SYN_NIC_E1000 ? ssp_syndata_rules_e1000 :
		    ssp_syndata_rules, lx, s.real, e);
	if (r == SSP_OK && lx) {
		to = out_path(p, path, sizeof(path), outdir, "app.syms", e);
		r = to == NULL ? SSP_ERR_IO : ssp_synlinux_write_app(to, e);
	}
	if (r != SSP_OK)
		goto out;
	r = run_once(&s, outdir, density, e);
	if (r == SSP_OK)
		r = close_logs(&s, e);
	if (r == SSP_OK && (r = write_topology(&s, outdir, e)) == SSP_OK)
		r = write_commands(&s, outdir, e);
	if (res != NULL && r == SSP_OK) {
		collect(&s, res);
		res->gen_seconds = (double)(ssp_clock_ns() - t0) / 1e9;
	}
	if (r == SSP_OK) {
		struct ssp_syntruth *t = s.truth;

		s.truth = NULL;
		r = ssp_syntruth_close(t, e);
	}
	free_syn(&s);
out:
	free(density);
	ssp_syngem5_execpool_free(kpool);
	ssp_syngem5_execpool_free(upool);
	for (i = 0; i < 4; i++) {
		ssp_syngem5_execpool_free(lkpool[i]);
		ssp_syngem5_execpool_free(lupool[i]);
	}
	ssp_synsym_free(syms);
	return r;
}

void
ssp_synsim_result_free(struct ssp_synsim_result *res)
{
	if (res == NULL)
		return;
	free(res->logs);
	res->logs = NULL;
	res->nlogs = 0;
}

void
ssp_synsim_report(FILE *f, const struct ssp_synsim_result *r, int zlevel)
{
	uint64_t total = 0;
	unsigned i, k, o, n;

	fprintf(f, "%-26s %12s %10s %10s  %s\n", "log", "bytes", "lines",
	    "events", "lines without an event");
	for (i = 0; i < r->nlogs; i++) {
		const struct ssp_synsim_logstat *l = &r->logs[i];
		uint64_t ev = 0;

		for (k = 0; k < SSP_EV_NTYPES; k++)
			ev += l->nev[k];
		fprintf(f, "%-26s %12" PRIu64 " %10" PRIu64 " %10" PRIu64 " ",
		    l->file, l->io.bytes, l->io.lines, ev);
		for (k = 0; k < SSP_SYNSKIP_N; k++)
			if (l->nskip[k] > 0)
				fprintf(f, " %s=%" PRIu64, ssp_synlog_skip_name(k),
				    l->nskip[k]);
		if (l->glued > 0)
			fprintf(f, " (glued=%" PRIu64 ")", l->glued);
		fprintf(f, "\n");
		total += l->io.bytes;
	}
	fprintf(f, "spans %" PRIu64 ":", r->spans);
	for (k = 0; k < SSP_SK_NKINDS; k++)
		fprintf(f, " %s=%" PRIu64, ssp_span_kind_name(k),
		    r->spans_kind[k]);
	for (k = SSP_SYNTRUTH_K_IRQ; k < SSP_SYNTRUTH_NKINDS; k++)
		if (r->spans_kind[k] > 0)
			fprintf(f, " %s=%" PRIu64, ssp_syntruth_kind_name(k),
			    r->spans_kind[k]);
	if (r->ambiguous > 0)
		fprintf(f, " (ambiguous %" PRIu64 ")", r->ambiguous);
	fprintf(f, "\nspans whose SPEC heuristic parent differs from the "
	    "real one: %" PRIu64 "\n", r->rule_differs);
	fprintf(f, "requests %u, round trip mean %.2f us max %.2f us; "
	    "simulated %.3f ms\n", r->requests_done, r->rtt_mean_ps / 1e6,
	    r->rtt_max_ps / 1e6, (double)r->end_ps / 1e9);
	fprintf(f, "background packets %" PRIu64 ", dropped %" PRIu64
	    ", reaching a NIC %" PRIu64 "\n", r->bg_packets, r->bg_drops,
	    r->bg_to_nic);
	for (i = 0, k = 0, o = 0, n = 0; i < r->nlogs; i++) {
		if (r->logs[i].io.blocked_max_ns > r->logs[k].io.blocked_max_ns)
			k = i;
		if (r->logs[i].io.open_max_ns > r->logs[o].io.open_max_ns)
			o = i;
		n += r->logs[i].io.reopens;
	}
	if (n > 0)
		fprintf(f, "reopened %u named pipes (restart)\n", n);
	fprintf(f, "wrote %.1f MB%s in %.2f s (%.0f MB/s); longest write "
	    "%.1f ms (%s); longest open %.1f ms (%s)\n", (double)total / 1e6,
	    zlevel ? " before zstd" : "", r->gen_seconds, r->gen_seconds > 0 ?
	    (double)total / 1e6 / r->gen_seconds : 0, r->nlogs ?
	    (double)r->logs[k].io.blocked_max_ns / 1e6 : 0,
	    r->nlogs ? r->logs[k].file : "-", r->nlogs ?
	    (double)r->logs[o].io.open_max_ns / 1e6 : 0,
	    r->nlogs ? r->logs[o].file : "-");
}
