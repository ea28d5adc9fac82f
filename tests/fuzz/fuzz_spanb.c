/*
 * Span builder on arbitrary event sequences: every 6 input bytes are one
 * event (stream, type, time step, three field bytes) of a fixed two-host
 * topology (an n2n link inside the network too; capture records of ns-3
 * devices and of a net_switch), with small ids so they collide.  Whatever comes, the builder
 * must not crash and its output must keep the stream's guarantees: span
 * ids in order, parents written before children, a span's member events
 * and then its links right after it (their targets written before),
 * counts adding up, no span left in memory at the end.  Bits of the first
 * byte turn the kernel context model on and make streams QEMU, Corundum
 * Verilator or e1000 ones.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "span/spanb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char topo_csv[] =
    "stream,h1,host\nstream,h2,host\nstream,n1,nic\nstream,n2,nic\n"
    "stream,net,net\npcie,h1,n1,system.pc.simbricks_0\npcie,h2,n2\n"
    "eth,n1,net,1,2\neth,n2,net,0,2\nn2n,net,0,1,net,1,1\n";
static const char rules_csv[] =
    "syscall-entry,entry_SYSCALL_64\nkernel-tx,__sys_sendto\n"
    "driver-rx,i40e_napi_poll\npci-write,__pci_write_msi_msg\n"
    "blacklist,xas_load\ndevice-bar,n2,2\npacket-idle,1us\ncontext-limit,4\n";
/* With bit 1 of the first byte: the kernel context model on, its classes
 * on names of the pool (several classes per name). */
static const char kctx_csv[] =
    "irq-entry,i40e_napi_poll\nsleep,i40e_napi_poll\nirq-exit,__sys_sendto\n"
    "syscall-exit,__sys_sendto\nsoftirq-entry,__pci_write_msi_msg\n"
    "sched-in,SimpleNetDevice\nwakeup,system.pc.simbricks_0\n"
    "idle,system.pc.simbricks_0.pio\napp-root,system.pc.simbricks_0.pio\n"
    "softirq-entry,SimpleNetDevice\n";
static const char *const pool[8] = { "entry_SYSCALL_64", "i40e_napi_poll",
    "__sys_sendto", "xas_load", "__pci_write_msi_msg",
    "system.pc.simbricks_0", "system.pc.simbricks_0.pio", "SimpleNetDevice" };

struct out {
	uint64_t last_id;
	int in_links;		/* a link record came after the last span */
	uint8_t *written;	/* by span id */
	size_t cap;
};

static const char *
text(void *ctx, unsigned st, uint64_t id, size_t *len)
{
	(void)ctx;
	(void)st;
	if (id == 0 || id > 8)
		return NULL;
	*len = strlen(pool[id - 1]);
	return pool[id - 1];
}

static enum ssp_status
intern(void *ctx, const char *s, size_t len, uint64_t *id, struct ssp_err *e)
{
	(void)ctx;
	(void)e;
	*id = 1 + (len + (len ? (uint8_t)s[0] : 0)) % 1000;
	return SSP_OK;
}

static enum ssp_status
put(void *ctx, const struct ssp_rec *r, struct ssp_err *e)
{
	struct out *o = ctx;

	(void)e;
	if (r->type < SSP_SK_NKINDS) {
		uint64_t id = r->f[SSP_SF_SPAN], p = r->f[SSP_SF_PARENT];

		if (id != o->last_id + 1 || (p != 0 && (p >= id || !o->written[p])))
			abort();
		if (p == 0 && r->f[SSP_SF_TRACE_LO] != id)
			abort();
		if ((int64_t)r->f[SSP_SF_DUR] < 0)
			abort();
		if (id >= o->cap) {
			size_t c = o->cap ? o->cap * 2 : 1024;

			o->written = realloc(o->written, c);
			if (o->written == NULL)
				abort();
			memset(o->written + o->cap, 0, c - o->cap);
			o->cap = c;
		}
		o->written[id] = 1;
		o->last_id = id;
		o->in_links = 0;
	} else if (r->type == SSP_SPAN_T_LINK) {
		uint64_t a = r->f[SSP_LF_SPAN], b = r->f[SSP_LF_TARGET];

		if (a != o->last_id || b >= o->last_id || !o->written[b])
			abort();
		o->in_links = 1;
	} else if (r->f[SSP_EF_SPAN] != o->last_id || o->in_links) {
		abort();	/* a member event not right after its span */
	}
	return SSP_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_topo *t;
	struct ssp_rules *r;
	struct ssp_spanb *b;
	struct ssp_spanb_sink sink = { NULL, text, intern, put };
	struct ssp_spanb_opts opts = { 7, 0, NULL };
	const struct ssp_spanb_stats *st;
	struct out o = { 0, 0, NULL, 0 };
	struct ssp_rec ev;
	struct ssp_err e;
	int64_t ts = 0;
	size_t i, k;
	char rules[1024];

	enum ssp_sim sims[5] = { SSP_SIM_GEM5, SSP_SIM_GEM5, SSP_SIM_NICBM,
	    SSP_SIM_NICBM, SSP_SIM_NS3 };

	if (size > 0) {
		opts.events = data[0] & 1;
		/* bits 2-4: h1 a QEMU host, n1 a Corundum Verilator, n2 an
		 * e1000 NIC (their own span handlers) */
		if (data[0] & 4)
			sims[0] = SSP_SIM_QEMU;
		if (data[0] & 8)
			sims[2] = SSP_SIM_CORUNDUM;
		if (data[0] & 16)
			sims[3] = SSP_SIM_E1000;
		opts.sims = sims;
	}
	snprintf(rules, sizeof(rules), "%s%s", rules_csv,
	    size > 0 && (data[0] & 2) ? kctx_csv : "");
	if (ssp_topo_parse(&t, "t", NULL, topo_csv, sizeof(topo_csv) - 1, &e) != SSP_OK ||
	    ssp_rules_parse(&r, "r", rules, strlen(rules), &e) != SSP_OK)
		abort();
	sink.ctx = &o;
	if (ssp_spanb_new(&b, t, r, &opts, &sink, &e) != SSP_OK)
		abort();
	for (i = 0; i + 6 <= size; i += 6) {
		const uint8_t *p = data + i;
		unsigned st5 = p[0] % 6, type = p[1] % (SSP_EV_NTYPES + 1), nf, f;
		const struct ssp_rec_type *rt;

		if (st5 == 5) {		/* end a stream early now and then */
			if (ssp_spanb_stream_end(b, p[1] % 5, &e) != SSP_OK)
				abort();	/* the sink never fails */
			continue;
		}
		ts += p[2] & 0x7f;	/* bit 7 set: a step backwards */
		if (p[2] & 0x80)
			ts -= 3;
		memset(&ev, 0, sizeof(ev));
		ev.ts = ts;
		if (type == SSP_EV_NTYPES) {
			ev.type = SSP_TYPE_UNKNOWN;
			if (ssp_spanb_event(b, st5, &ev, &e) != SSP_OK)
				abort();
			continue;
		}
		ev.type = type;
		rt = &ssp_event_schema.types[type];
		nf = rt->nf;
		ev.nf = nf;
		for (f = 0; f < nf; f++) {
			uint8_t v = p[3 + f % 3];

			switch (rt->f[f].enc) {
			case 's': ev.f[f] = 1 + (v + f) % 9; break;	/* 9: undefined */
			case 'i': ev.f[f] = (uint64_t)((int64_t)(v % 5) - 1); break;
			case 'b': ev.f[f] = v & 1; break;
			default: ev.f[f] = (v >> (f % 3)) % 4;
			}
		}
		if (type >= SSP_EV_NET_ENQ && type <= SSP_EV_NET_RX) {
			ev.f[SSP_F_NET_BOUNDARY] = p[4] % 3;
			ev.f[SSP_F_NET_NODE] = p[5] & 1;
			ev.f[SSP_F_NET_DEV] = 1 + (p[5] >> 1) % 2;
			if (type == SSP_EV_NET_SEEN && (p[5] & 8))
				ev.f[SSP_F_NET_DEV] = UINT32_MAX;	/* net_switch -p */
		}
		if (ssp_spanb_event(b, st5, &ev, &e) != SSP_OK)
			abort();
	}
	if (ssp_spanb_finish(b, &e) != SSP_OK || ssp_spanb_live(b) != 0)
		abort();
	st = ssp_spanb_stats(b);
	for (k = 0; k < st->nstreams; k++)
		if (st->in[k] != st->used[k] + st->dropped[k])
			abort();
	ssp_spanb_free(b);
	ssp_rules_free(r);
	ssp_topo_free(t);
	free(o.written);
	return 0;
}
