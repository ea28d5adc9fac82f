#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/span.h"

#define COMMON { "trace_hi", 'x' }, { "trace_lo", 'x' }, { "span", 'x' }, \
	{ "parent", 'x' }, { "stream", 'u' }, { "dur", 't' }, \
	{ "flags", 'u' }, { "cause", 's' }
#define CTX { "cpu", 's' }, { "entry", 's' }, { "funcs", 'u' }
#define NC SSP_SF_NCOMMON

static const struct ssp_rec_type kinds[SSP_SK_NKINDS + 1] = {
	[SSP_SK_HOST_SYSCALL] = { "host.syscall", NC + 8, { COMMON,
	    { "cpu", 's' }, { "entry", 's' }, { "call", 's' }, { "funcs", 'u' },
	    { "kernel_tx", 'b' }, { "driver_tx", 'b' }, { "kernel_rx", 'b' },
	    { "driver_rx", 'b' } } },
	[SSP_SK_HOST_MMIO] = { "host.mmio", NC + 8, { COMMON, { "comp", 's' },
	    { "write", 'b' }, { "addr", 'x' }, { "size", 'u' }, { "id", 'u' },
	    { "bar", 'i' }, { "offs", 'x' }, { "posted", 'i' } } },
	[SSP_SK_HOST_DMA] = { "host.dma", NC + 5, { COMMON, { "comp", 's' },
	    { "write", 'b' }, { "id", 'u' }, { "addr", 'x' }, { "size", 'u' } } },
	[SSP_SK_HOST_MSIX] = { "host.msix", NC + 2, { COMMON, { "comp", 's' },
	    { "vec", 'u' } } },
	[SSP_SK_HOST_PCI] = { "host.pci", NC + 7, { COMMON, { "comp", 's' },
	    { "write", 'b' }, { "dev", 'u' }, { "func", 'u' }, { "reg", 'x' },
	    { "bytes", 'u' }, { "data", 'x' } } },
	[SSP_SK_HOST_INTR] = { "host.intr", NC + 1, { COMMON, { "comp", 's' } } },
	[SSP_SK_NIC_MMIO] = { "nic.mmio", NC + 5, { COMMON, { "write", 'b' },
	    { "off", 'x' }, { "len", 'u' }, { "val", 'x' }, { "posted", 'i' } } },
	[SSP_SK_NIC_DMA] = { "nic.dma", NC + 4, { COMMON, { "write", 'b' },
	    { "op", 'x' }, { "addr", 'x' }, { "len", 'u' } } },
	[SSP_SK_NIC_TX] = { "nic.tx", NC + 1, { COMMON, { "len", 'u' } } },
	[SSP_SK_NIC_RX] = { "nic.rx", NC + 2, { COMMON, { "port", 'u' },
	    { "len", 'u' } } },
	[SSP_SK_NIC_MSIX] = { "nic.msix", NC + 2, { COMMON, { "vec", 'u' },
	    { "msi", 'b' } } },
	[SSP_SK_NET_DEVICE] = { "net.device", NC + 12, { COMMON, { "node", 'u' },
	    { "dev", 'u' }, { "devtype", 's' }, { "uid", 'i' },
	    { "interesting", 'b' }, { "dropped", 'b' }, { "boundary", 'u' },
	    { "payload", 'i' }, { "eth_type", 'x' }, { "ip_src", 'a' },
	    { "ip_dst", 'a' }, { "ip_proto", 'i' } } },
	[SSP_SK_HOST_IRQ] = { "host.irq", NC + 3, { COMMON, CTX } },
	[SSP_SK_HOST_SOFTIRQ] = { "host.softirq", NC + 3, { COMMON, CTX } },
	[SSP_SK_HOST_RESUME] = { "host.resume", NC + 3, { COMMON, CTX } },
	[SSP_SK_HOST_APP] = { "host.app", NC + 3, { COMMON, CTX } },
	[SSP_SPAN_T_LINK] = { "link", 5, { { "span", 'x' }, { "trace_hi", 'x' },
	    { "trace_lo", 'x' }, { "target", 'x' }, { "kind", 's' } } },
};

static struct ssp_rec_type with_ev[SSP_SPAN_T_EV0 + SSP_EV_NTYPES];
static char ev_names[SSP_EV_NTYPES][40];
static const struct ssp_schema plain = { SSP_SPAN_T_EV0, kinds };
static struct ssp_schema full;
static pthread_once_t full_once = PTHREAD_ONCE_INIT;

/* The span types, then "ev.<type>" for each event type (all constant):
 * built once, by whichever thread asks first. */
static void
full_build(void)
{
	unsigned i, k;

	memcpy(with_ev, kinds, sizeof(kinds));
	for (i = 0; i < SSP_EV_NTYPES; i++) {
		const struct ssp_rec_type *et = &ssp_event_schema.types[i];
		struct ssp_rec_type *t = &with_ev[SSP_SPAN_T_EV0 + i];

		snprintf(ev_names[i], sizeof(ev_names[i]), "ev.%s", et->name);
		t->name = ev_names[i];
		t->nf = SSP_EF_NCOMMON + et->nf;
		t->f[SSP_EF_SPAN] = (struct ssp_field){ "span", 'x' };
		t->f[SSP_EF_STREAM] = (struct ssp_field){ "stream", 'u' };
		for (k = 0; k < et->nf; k++)
			t->f[SSP_EF_NCOMMON + k] = et->f[k];
	}
	full.types = with_ev;
	full.ntypes = SSP_SPAN_T_EV0 + SSP_EV_NTYPES;
}

const struct ssp_schema *
ssp_span_schema(int with_events)
{
	if (!with_events)
		return &plain;
	pthread_once(&full_once, full_build);
	return &full;
}

const char *
ssp_span_kind_name(unsigned kind)
{
	return kind < SSP_SK_NKINDS ? kinds[kind].name : NULL;
}

unsigned
ssp_span_kind_parse(const char *name)
{
	unsigned i;

	for (i = 0; i < SSP_SK_NKINDS; i++)
		if (strcmp(kinds[i].name, name) == 0)
			return i;
	return SSP_SK_NKINDS;
}

enum ssp_sim
ssp_span_kind_sim(unsigned kind)
{
	if (kind <= SSP_SK_HOST_INTR)
		return SSP_SIM_GEM5;
	if (kind <= SSP_SK_NIC_MSIX)
		return SSP_SIM_NICBM;
	if (kind == SSP_SK_NET_DEVICE)
		return SSP_SIM_NS3;
	if (kind < SSP_SK_NKINDS)
		return SSP_SIM_GEM5;	/* the context kinds of 1.2 */
	return SSP_SIM_NONE;
}

/*
 * Sources are listed as repeated "stream" metadata entries whose value is
 * "<name> <simulator>", in stream-index order.
 */
enum ssp_status
ssp_span_writer_open(struct ssp_rec_wr **wp, struct ssp_out *o, const char *producer,
    const struct ssp_span_source *src, size_t nsrc, int with_events,
    struct ssp_err *e)
{
	struct ssp_meta *m;
	char **vals;
	size_t i, n = 0;
	int r = SSP_OK;

	m = calloc(nsrc + 3, sizeof(*m));
	vals = calloc(nsrc + 1, sizeof(*vals));
	if (m == NULL || vals == NULL) {
		r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	m[n++] = (struct ssp_meta){ "producer", producer };
	m[n++] = (struct ssp_meta){ "time-unit", "ps" };
	for (i = 0; i < nsrc; i++) {
		size_t len = strlen(src[i].name) + 16;

		if ((vals[i] = malloc(len)) == NULL) {
			r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
			goto out;
		}
		snprintf(vals[i], len, "%s %s", src[i].name, ssp_event_sim_name(src[i].sim));
		m[n++] = (struct ssp_meta){ "stream", vals[i] };
	}
	r = ssp_rec_wr_open_minor(wp, o, ssp_frame_magic_spans, SSP_SPAN_MINOR,
	    ssp_span_schema(with_events), m, n, e);
out:
	if (vals != NULL)
		for (i = 0; i < nsrc; i++)
			free(vals[i]);
	free(vals);
	free(m);
	return r;
}

enum ssp_status
ssp_span_reader_open(struct ssp_rec_rd **rp, struct ssp_in *in, struct ssp_err *e)
{
	return ssp_rec_rd_open(rp, in, ssp_frame_magic_spans, ssp_span_schema(1), 0, e);
}

int
ssp_span_reader_sources(const struct ssp_rec_rd *rr, struct ssp_span_source *src,
    size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < ssp_rec_rd_nmeta(rr); i++) {
		const struct ssp_meta *m = ssp_rec_rd_meta_at(rr, i);
		const char *sp;

		if (strcmp(m->key, "stream") != 0)
			continue;
		sp = strrchr(m->value, ' ');
		if (sp == NULL || ssp_event_sim_parse(sp + 1) == SSP_SIM_NONE)
			return -SSP_ERR_FORMAT;
		if (n < max) {
			src[n].name = m->value;
			src[n].namelen = (size_t)(sp - m->value);
			src[n].sim = ssp_event_sim_parse(sp + 1);
		}
		n++;
	}
	return (int)n;
}
