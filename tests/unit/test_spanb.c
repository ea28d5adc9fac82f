/* Span builder: every span kind and context hand-over, fed event by event
 * through the library API (no files): out-of-order ids, missing
 * completions, missing contexts, duplicate ids, a syscall receiving two
 * packets, background traffic, write ordering, ids, memory, the sink's
 * errors passed on, and (ASSERTS=1) a bad stream index. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/rules.h"
#include "config/topo.h"
#include "span/spanb.h"
#include "stream/event.h"
#include "stream/span.h"

#define NC SSP_SF_NCOMMON
enum { H1, H2, N1, N2, NET };	/* stream indices of the test topology */

static const char topo_csv[] =
    "# two hosts, two NICs, one network\n"
    "type,name,kind,file\n"
    "stream,h1,host\n"
    "stream,h2,host\n"
    "stream,n1,nic\n"
    "stream,n2,nic\n"
    "stream,net,net\n"
    "pcie,h1,n1,system.pc.simbricks_0\n"
    "pcie,h2,n2\n"
    "eth,n1,net,1,2\n"
    "eth,n2,net,0,2\n";

static const char rules_csv[] =
    "class,function\n"
    "syscall-entry,entry_SYSCALL_64\n"
    "kernel-tx,__sys_sendto\n"
    "driver-tx,i40e_lan_xmit_frame\n"
    "kernel-rx,netif_receive_skb_list_internal\n"
    "driver-rx,i40e_napi_poll\n"
    "pci-write,__pci_write_msi_msg\n"
    "linux-net,tcp_sendmsg\n"
    "blacklist,xas_load\n";

struct h {
	struct ssp_topo *t;
	struct ssp_rules *r;
	struct ssp_spanb *b;
	char *in[5][64];	/* input strings per stream, by id */
	unsigned nin[5];
	char *out[256];		/* output strings, by id */
	unsigned nout;
	struct ssp_rec *recs;
	size_t nrec, cap;
	int events;
	int kctx;		/* rules with kernel context classes */
	size_t put_limit;	/* > 0: the sink fails on this many records */
	const char *bad_str;	/* the sink fails to intern this string */
};

static const char *
sk_text(void *ctx, unsigned st, uint64_t id, size_t *len)
{
	struct h *h = ctx;

	if (id == 0 || id > h->nin[st])
		return NULL;
	*len = strlen(h->in[st][id - 1]);
	return h->in[st][id - 1];
}

static enum ssp_status
sk_intern(void *ctx, const char *s, size_t len, uint64_t *id,
    struct ssp_err *e)
{
	struct h *h = ctx;
	unsigned i;

	if (h->bad_str != NULL && strlen(h->bad_str) == len &&
	    memcmp(h->bad_str, s, len) == 0) {
		*id = 0;
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "intern: no room");
	}
	for (i = 0; i < h->nout; i++)
		if (strlen(h->out[i]) == len && memcmp(h->out[i], s, len) == 0) {
			*id = i + 1;
			return SSP_OK;
		}
	assert_true(h->nout < 256);
	h->out[h->nout] = strndup(s, len);
	*id = ++h->nout;
	return SSP_OK;
}

static enum ssp_status
sk_put(void *ctx, const struct ssp_rec *r, struct ssp_err *e)
{
	struct h *h = ctx;

	if (h->put_limit > 0 && h->nrec == h->put_limit)
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "put: full");
	if (h->nrec == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 256;
		h->recs = realloc(h->recs, h->cap * sizeof(*h->recs));
		assert_non_null(h->recs);
	}
	h->recs[h->nrec++] = *r;
	return SSP_OK;
}

static struct h *
setup_sims(const char *topo, const char *extra_rules, int events,
    const enum ssp_sim *sims)
{
	static const struct ssp_spanb_sink sink = { NULL, sk_text, sk_intern, sk_put };
	struct ssp_spanb_sink s = sink;
	struct ssp_spanb_opts o = { 0x5a17, events, sims };
	struct h *h = calloc(1, sizeof(*h));
	char rules[2048];
	struct ssp_err e;

	assert_non_null(h);
	h->events = events;
	snprintf(rules, sizeof(rules), "%s%s", rules_csv, extra_rules);
	assert_int_equal(ssp_topo_parse(&h->t, "topo.csv", NULL, topo,
	    strlen(topo), &e), SSP_OK);
	assert_int_equal(ssp_rules_parse(&h->r, "rules.csv", rules,
	    strlen(rules), &e), SSP_OK);
	s.ctx = h;
	assert_int_equal(ssp_spanb_new(&h->b, h->t, h->r, &o, &s, &e), SSP_OK);
	h->kctx = ssp_rules_kctx(h->r);
	return h;
}

static struct h *
setup_topo(const char *topo, const char *extra_rules, int events)
{
	return setup_sims(topo, extra_rules, events, NULL);
}

static struct h *
setup(const char *extra_rules, int events)
{
	return setup_topo(topo_csv, extra_rules, events);
}

static void
teardown(struct h *h)
{
	unsigned i, k;

	ssp_spanb_free(h->b);
	ssp_rules_free(h->r);
	ssp_topo_free(h->t);
	for (k = 0; k < 5; k++)
		for (i = 0; i < h->nin[k]; i++)
			free(h->in[k][i]);
	for (i = 0; i < h->nout; i++)
		free(h->out[i]);
	free(h->recs);
	free(h);
}

/* Input string id of a text in a stream (defined on first use). */
static uint64_t
sid(struct h *h, unsigned st, const char *s)
{
	unsigned i;

	for (i = 0; i < h->nin[st]; i++)
		if (strcmp(h->in[st][i], s) == 0)
			return i + 1;
	h->in[st][h->nin[st]] = strdup(s);
	return ++h->nin[st];
}

static void
feed(struct h *h, unsigned st, int64_t ts, unsigned type, unsigned nf, ...)
{
	struct ssp_rec r;
	struct ssp_err e;
	va_list ap;
	unsigned i;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.type = type;
	r.nf = ssp_event_schema.types[type].nf;
	va_start(ap, nf);
	for (i = 0; i < nf; i++)
		r.f[i] = va_arg(ap, uint64_t);
	va_end(ap);
	assert_int_equal(ssp_spanb_event(h->b, st, &r, &e), SSP_OK);
}

#define U(x) ((uint64_t)(x))
#define COMP "system.pc.simbricks_0"

static void
fn(struct h *h, unsigned st, int64_t ts, const char *sym)
{
	feed(h, st, ts, SSP_EV_FUNC, 3, sid(h, st, "cpu0"), sid(h, st, sym),
	    sid(h, st, "vmlinux"));
}

static void
fn_cpu(struct h *h, unsigned st, int64_t ts, const char *cpu, const char *sym)
{
	feed(h, st, ts, SSP_EV_FUNC, 3, sid(h, st, cpu), sid(h, st, sym),
	    sid(h, st, "vmlinux"));
}

static void
mmio_wr(struct h *h, unsigned st, int64_t ts, uint64_t id, int bar,
    uint64_t offs, int posted)
{
	feed(h, st, ts, SSP_EV_MMIO_WR, 7, sid(h, st, COMP), U(0xc0000000 + offs),
	    U(4), id, U((int64_t)bar), offs, U((int64_t)posted));
}

static void
mmio_rd(struct h *h, unsigned st, int64_t ts, uint64_t id, int bar,
    uint64_t offs)
{
	feed(h, st, ts, SSP_EV_MMIO_RD, 6, sid(h, st, COMP), U(0xc0000000 + offs),
	    U(4), id, U((int64_t)bar), offs);
}

static void
posted(struct h *h, unsigned st, int64_t ts)
{
	feed(h, st, ts, SSP_EV_MMIO_POSTED, 1, sid(h, st, COMP ".pio"));
}

static void
hdone(struct h *h, unsigned st, int64_t ts, unsigned type, uint64_t id)
{
	feed(h, st, ts, type, 2, sid(h, st, COMP), id);
}

static void
hdma(struct h *h, unsigned st, int64_t ts, int write, uint64_t id)
{
	feed(h, st, ts, write ? SSP_EV_DMA_WR : SSP_EV_DMA_RD, 4,
	    sid(h, st, COMP), id, U(0x1000), U(64));
}

static void
hmsix(struct h *h, unsigned st, int64_t ts, unsigned vec)
{
	feed(h, st, ts, SSP_EV_MSIX, 2, sid(h, st, COMP), U(vec));
}

static void
nic_wr(struct h *h, unsigned st, int64_t ts, uint64_t off)
{
	feed(h, st, ts, SSP_EV_NIC_WR, 4, off, U(4), U(1), U(1));
}

static void
nic_rd(struct h *h, unsigned st, int64_t ts, uint64_t off)
{
	feed(h, st, ts, SSP_EV_NIC_RD, 3, off, U(4), U(7));
}

static void
ndma(struct h *h, unsigned st, int64_t ts, unsigned type, uint64_t op)
{
	feed(h, st, ts, type, 4, op, U(0x1000), U(64), U(0));
}

/* ... at addr, len bytes */
static void
ndma_at(struct h *h, unsigned st, int64_t ts, unsigned type, uint64_t op,
    uint64_t addr, uint64_t len)
{
	feed(h, st, ts, type, 4, op, addr, len, U(0));
}

static void
nic1(struct h *h, unsigned st, int64_t ts, unsigned type, uint64_t a, uint64_t b)
{
	feed(h, st, ts, type, 2, a, b);
}

static void
net(struct h *h, int64_t ts, unsigned type, unsigned node, unsigned dev,
    int64_t uid, int interesting, unsigned boundary)
{
	feed(h, NET, ts, type, 7, U(node), U(dev), sid(h, NET,
	    dev == 2 ? "CosimNetDevice" : "SimpleNetDevice"), sid(h, NET, "x"),
	    U(uid), U(interesting), U(boundary));
}

static void
finish(struct h *h)
{
	struct ssp_err e;

	assert_int_equal(ssp_spanb_finish(h->b, &e), SSP_OK);
}

/* --- queries on the output ------------------------------------------------ */

static const struct ssp_rec *
span_at(const struct h *h, unsigned kind, int64_t ts)
{
	size_t i;

	for (i = 0; i < h->nrec; i++)
		if (h->recs[i].type == kind && h->recs[i].ts == ts)
			return &h->recs[i];
	fail_msg("no %s span starting at %lld", ssp_span_kind_name(kind),
	    (long long)ts);
	return NULL;
}

static const struct ssp_rec *
by_id(const struct h *h, uint64_t id)
{
	size_t i;

	for (i = 0; i < h->nrec; i++)
		if (h->recs[i].type < SSP_SK_NKINDS && h->recs[i].f[SSP_SF_SPAN] == id)
			return &h->recs[i];
	return NULL;
}

/* The parent of a span is the span of that kind starting at that time. */
static void
parent_is(const struct h *h, unsigned kind, int64_t ts, unsigned pkind,
    int64_t pts)
{
	const struct ssp_rec *s = span_at(h, kind, ts), *p;

	assert_true(s->f[SSP_SF_PARENT] != 0);
	p = by_id(h, s->f[SSP_SF_PARENT]);
	assert_non_null(p);
	if (p->type != pkind || p->ts != pts)
		fail_msg("%s@%lld: parent is %s@%lld, want %s@%lld",
		    ssp_span_kind_name(kind), (long long)ts,
		    ssp_span_kind_name(p->type), (long long)p->ts,
		    ssp_span_kind_name(pkind), (long long)pts);
	assert_true(s->f[SSP_SF_TRACE_LO] == p->f[SSP_SF_TRACE_LO]);
	assert_true(s->f[SSP_SF_TRACE_HI] == 0x5a17);
}

static const char *
ostr(const struct h *h, uint64_t id)
{
	return id == 0 || id > h->nout ? "" : h->out[id - 1];
}

static void
root_is(const struct h *h, unsigned kind, int64_t ts, unsigned flags,
    const char *cause)
{
	const struct ssp_rec *s = span_at(h, kind, ts);

	assert_true(s->f[SSP_SF_PARENT] == 0);
	assert_true(s->f[SSP_SF_TRACE_LO] == s->f[SSP_SF_SPAN]);
	assert_int_equal(s->f[SSP_SF_FLAGS], flags);
	assert_string_equal(ostr(h, s->f[SSP_SF_CAUSE]), cause);
}

static size_t
count(const struct h *h, unsigned type)
{
	size_t i, n = 0;

	for (i = 0; i < h->nrec; i++)
		n += h->recs[i].type == type;
	return n;
}

/* Invariants every output must keep. */
static void
check_invariants(const struct h *h)
{
	const struct ssp_spanb_stats *st = ssp_spanb_stats(h->b);
	uint64_t expect_id = 1, in = 0, used = 0, dropped = 0;
	size_t i, k;

	for (i = 0; i < h->nrec; i++) {
		const struct ssp_rec *r = &h->recs[i];

		if (r->type < SSP_SK_NKINDS) {
			/* ids sequential in output order, parents before children */
			assert_true(r->f[SSP_SF_SPAN] == expect_id);
			expect_id++;
			if (r->f[SSP_SF_PARENT] != 0) {
				const struct ssp_rec *p = by_id(h, r->f[SSP_SF_PARENT]);

				assert_non_null(p);
				assert_true(p < r);
				assert_true(p->f[SSP_SF_TRACE_LO] == r->f[SSP_SF_TRACE_LO]);
			} else {
				assert_true(r->f[SSP_SF_TRACE_LO] == r->f[SSP_SF_SPAN]);
			}
			assert_true((int64_t)r->f[SSP_SF_DUR] >= 0);
			/* a cause without the orphan flag: a heuristic parent
			 * or an early close (kernel contexts) */
			if (r->f[SSP_SF_FLAGS] & SSP_SPAN_ORPHAN)
				assert_true(r->f[SSP_SF_CAUSE] != 0);
			else if (!h->kctx)
				assert_true(r->f[SSP_SF_CAUSE] == 0);
		} else if (r->type == SSP_SPAN_T_LINK) {
			/* right after its span (and its member events and
			 * other links); the target written before */
			const struct ssp_rec *a = by_id(h, r->f[SSP_LF_SPAN]);
			const struct ssp_rec *b = by_id(h, r->f[SSP_LF_TARGET]);

			assert_non_null(a);
			assert_non_null(b);
			assert_true(r->f[SSP_LF_SPAN] == expect_id - 1);
			assert_true(b < r);
			assert_true(b->f[SSP_SF_TRACE_LO] == r->f[SSP_LF_TRACE_LO]);
		} else {
			/* member events right after their span or its siblings,
			 * before its links */
			assert_true(r->type >= SSP_SPAN_T_EV0);
			assert_true(r->f[SSP_EF_SPAN] == expect_id - 1);
			assert_true(h->recs[i - 1].type != SSP_SPAN_T_LINK);
		}
	}
	for (k = 0; k < st->nstreams; k++) {
		assert_true(st->in[k] == st->used[k] + st->dropped[k]);
		in += st->in[k];
		used += st->used[k];
		dropped += st->dropped[k];
	}
	for (k = 0, i = 0; k < SSP_DROP_N; k++)
		i += st->drop[k];
	assert_true(i == dropped);
	(void)in;
	(void)used;
	assert_true(ssp_spanb_live(h->b) == 0);
}

/* --- kernel execution contexts (SPEC §3b) ---------------------------------- */

static const char kctx_rules[] =
    "syscall-exit,syscall_exit_to_user_mode\n"
    "irq-entry,asm_common_interrupt\n"
    "irq-entry,asm_sysvec_apic_timer_interrupt\n"
    "irq-exit,irqentry_exit\n"
    "softirq-entry,__do_softirq\n"
    "softirq-entry,run_ksoftirqd\n"
    "sleep,schedule_timeout\n"
    "sched-in,finish_task_switch\n"
    "wakeup,try_to_wake_up\n"
    "idle,do_idle\n"
    "app-root,client_loop\n";

/* A host device event with the issuing CPU as its last field. */
static void
mmio_wr_cpu(struct h *h, unsigned st, int64_t ts, uint64_t id, uint64_t offs,
    const char *cpu)
{
	struct ssp_rec r;
	struct ssp_err e;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.type = SSP_EV_MMIO_WR;
	r.nf = SSP_F_MMIO_WR_CPU + 1;
	r.f[SSP_F_MMIO_COMP] = sid(h, st, COMP);
	r.f[SSP_F_MMIO_ADDR] = 0xc0000000 + offs;
	r.f[SSP_F_MMIO_SIZE] = 4;
	r.f[SSP_F_MMIO_ID] = id;
	r.f[SSP_F_MMIO_BAR] = 0;
	r.f[SSP_F_MMIO_OFFS] = offs;
	r.f[SSP_F_MMIO_POSTED] = 1;
	r.f[SSP_F_MMIO_WR_CPU] = cpu != NULL ? sid(h, st, cpu) : 0;
	assert_int_equal(ssp_spanb_event(h->b, st, &r, &e), SSP_OK);
}

static void
user(struct h *h, unsigned st, int64_t ts, const char *cpu)
{
	feed(h, st, ts, SSP_EV_USER, 2, sid(h, st, cpu), U(0x401000));
}

static const char *
cause_of(const struct h *h, unsigned kind, int64_t ts)
{
	return ostr(h, span_at(h, kind, ts)->f[SSP_SF_CAUSE]);
}

/* The links of a span: count, and the kind and target of the first. */
static size_t
links_of(const struct h *h, uint64_t span, const struct ssp_rec **first)
{
	size_t i, n = 0;

	*first = NULL;
	for (i = 0; i < h->nrec; i++)
		if (h->recs[i].type == SSP_SPAN_T_LINK &&
		    h->recs[i].f[SSP_LF_SPAN] == span && n++ == 0)
			*first = &h->recs[i];
	return n;
}

/* recvfrom sleeps on cpu1; two packets arrive under one MSI-X; the irq on
 * cpu0 runs the softirq that acks (a doorbell from softirq) and wakes the
 * syscall; cpu1 resumes it as a child of the softirq. */
static void
test_kctx_receive(void **state)
{
	struct h *h = setup(kctx_rules, 0);
	const struct ssp_rec *s, *l;
	const struct ssp_spanb_stats *st;

	(void)state;
	assert_true(h->kctx);
	fn_cpu(h, H1, 100, "cpu1", "entry_SYSCALL_64");
	fn_cpu(h, H1, 110, "cpu1", "__sys_recvfrom");
	fn_cpu(h, H1, 120, "cpu1", "schedule_timeout");
	fn_cpu(h, H1, 130, "cpu1", "finish_task_switch");	/* to idle */
	fn_cpu(h, H1, 140, "cpu1", "do_idle");
	fn_cpu(h, H1, 150, "cpu0", "do_idle");
	nic1(h, N1, 200, SSP_EV_NIC_RX, 0, 60);
	nic1(h, N1, 210, SSP_EV_NIC_RX, 0, 60);
	feed(h, N1, 220, SSP_EV_NIC_MSIX, 1, U(1));
	hmsix(h, H1, 230, 1);
	hdone(h, H1, 231, SSP_EV_DMA_DONE, 0);
	fn_cpu(h, H1, 240, "cpu0", "asm_common_interrupt");
	fn_cpu(h, H1, 241, "cpu0", "i40e_msix_clean_rings");
	fn_cpu(h, H1, 250, "cpu0", "__do_softirq");
	fn_cpu(h, H1, 251, "cpu0", "i40e_napi_poll");
	mmio_wr_cpu(h, H1, 252, 5, 0x40, "cpu0");	/* the ACK doorbell */
	posted(h, H1, 252);
	fn_cpu(h, H1, 260, "cpu0", "try_to_wake_up");
	fn_cpu(h, H1, 270, "cpu0", "irqentry_exit");
	fn_cpu(h, H1, 300, "cpu1", "finish_task_switch");
	fn_cpu(h, H1, 310, "cpu1", "udp_recvmsg");
	fn_cpu(h, H1, 320, "cpu1", "syscall_exit_to_user_mode");
	finish(h);
	check_invariants(h);
	parent_is(h, SSP_SK_NIC_MSIX, 220, SSP_SK_NIC_RX, 210);
	assert_string_equal(cause_of(h, SSP_SK_NIC_MSIX, 220), "rx-batch");
	assert_int_equal(links_of(h, span_at(h, SSP_SK_NIC_MSIX, 220)->f[SSP_SF_SPAN],
	    &l), 1);
	assert_true(l->f[SSP_LF_TARGET] == span_at(h, SSP_SK_NIC_RX, 200)->f[SSP_SF_SPAN]);
	assert_string_equal(ostr(h, l->f[SSP_LF_KIND]), "rx");
	parent_is(h, SSP_SK_HOST_MSIX, 230, SSP_SK_NIC_MSIX, 220);
	parent_is(h, SSP_SK_HOST_IRQ, 240, SSP_SK_HOST_MSIX, 230);
	assert_string_equal(cause_of(h, SSP_SK_HOST_IRQ, 240), "msix-fifo");
	s = span_at(h, SSP_SK_HOST_IRQ, 240);
	assert_string_equal(ostr(h, s->f[SSP_SA_CTX_CPU]), "cpu0");
	assert_string_equal(ostr(h, s->f[SSP_SA_CTX_ENTRY]), "asm_common_interrupt");
	assert_int_equal(s->f[SSP_SA_CTX_FUNCS], 2);
	assert_int_equal(s->f[SSP_SF_DUR], 10);		/* ends at the softirq */
	parent_is(h, SSP_SK_HOST_SOFTIRQ, 250, SSP_SK_HOST_IRQ, 240);
	s = span_at(h, SSP_SK_HOST_SOFTIRQ, 250);
	assert_int_equal(s->f[SSP_SA_CTX_FUNCS], 4);	/* to irqentry_exit */
	assert_int_equal(s->f[SSP_SF_DUR], 20);
	parent_is(h, SSP_SK_HOST_MMIO, 252, SSP_SK_HOST_SOFTIRQ, 250);
	parent_is(h, SSP_SK_HOST_RESUME, 300, SSP_SK_HOST_SOFTIRQ, 250);
	assert_string_equal(cause_of(h, SSP_SK_HOST_RESUME, 300), "wakeup-fifo");
	s = span_at(h, SSP_SK_HOST_RESUME, 300);
	assert_int_equal(s->f[SSP_SA_CTX_FUNCS], 3);
	assert_string_equal(ostr(h, s->f[SSP_SA_CTX_CPU]), "cpu1");
	/* the syscall: a root of its own, lasting to its exit, with a link
	 * to its resume */
	root_is(h, SSP_SK_HOST_SYSCALL, 100, 0, "");
	s = span_at(h, SSP_SK_HOST_SYSCALL, 100);
	assert_int_equal(s->f[SSP_SF_DUR], 220);
	assert_int_equal(s->f[SSP_SA_SYSCALL_FUNCS], 3);
	assert_int_equal(links_of(h, s->f[SSP_SF_SPAN], &l), 1);
	assert_true(l->f[SSP_LF_TARGET] == span_at(h, SSP_SK_HOST_RESUME, 300)->f[SSP_SF_SPAN]);
	assert_string_equal(ostr(h, l->f[SSP_LF_KIND]), "resume");
	st = ssp_spanb_stats(h->b);
	assert_true(st->kctx);
	assert_int_equal(st->kst.opened[SSP_KCTX_RESUME], 1);
	assert_int_equal(st->rx_batched, 1);
	assert_int_equal(st->rx_woken, 2);	/* not left for a later recvfrom */
	assert_int_equal(st->causes[SSP_CAUSE_MSIX_FIFO], 1);
	teardown(h);
}

/* NIC work chains (kctx): two overlapping TSO sends on one NIC.  Doorbell
 * A at 100 and B at 300; each has a descriptor read whose completion
 * issues the payload read, whose completion sends the first segment; the
 * further segments follow one wire time apart (1522 wire bytes at 1 ps a
 * byte, learnt from A's first two); a write-back issued with A's last
 * segment, then an MSI-X. */
static void
feed_tso(struct h *h)
{
	nic_wr(h, N1, 100, 0x108000);			/* doorbell A */
	ndma(h, N1, 100, SSP_EV_NIC_DMA_ISSUE, 1);	/* A's descriptor */
	ndma(h, N1, 200, SSP_EV_NIC_DMA_DONE_RD, 1);
	ndma(h, N1, 200, SSP_EV_NIC_DMA_ISSUE, 2);	/* A's payload */
	nic_wr(h, N1, 300, 0x108000);			/* doorbell B */
	ndma(h, N1, 300, SSP_EV_NIC_DMA_ISSUE, 3);	/* B's descriptor */
	ndma(h, N1, 400, SSP_EV_NIC_DMA_DONE_RD, 2);
	nic1(h, N1, 400, SSP_EV_NIC_TX, 1502, 0);	/* A 1 */
	ndma(h, N1, 420, SSP_EV_NIC_DMA_DONE_RD, 3);
	ndma(h, N1, 420, SSP_EV_NIC_DMA_ISSUE, 4);	/* B's payload */
	nic1(h, N1, 1922, SSP_EV_NIC_TX, 1502, 0);	/* A 2 */
	ndma(h, N1, 2000, SSP_EV_NIC_DMA_DONE_RD, 4);
	nic1(h, N1, 2000, SSP_EV_NIC_TX, 1502, 0);	/* B 1 */
	nic1(h, N1, 3444, SSP_EV_NIC_TX, 1502, 0);	/* A 3 */
	nic1(h, N1, 3522, SSP_EV_NIC_TX, 1502, 0);	/* B 2 */
	nic1(h, N1, 4966, SSP_EV_NIC_TX, 1502, 0);	/* A 4, the last */
	ndma(h, N1, 4966, SSP_EV_NIC_DMA_ISSUE, 5);	/* A's write-back */
	ndma(h, N1, 5000, SSP_EV_NIC_DMA_DONE_WR, 5);
	nic1(h, N1, 5044, SSP_EV_NIC_TX, 1502, 0);	/* B 3 */
	feed(h, N1, 5100, SSP_EV_NIC_MSIX, 1, U(1));
	/* two rx; the MSI-X comes after the first one's payload and
	 * descriptor writes completed (it asked for it), the second one's
	 * payload only */
	nic1(h, N1, 5200, SSP_EV_NIC_RX, 0, 60);
	ndma(h, N1, 5200, SSP_EV_NIC_DMA_ISSUE, 6);
	ndma(h, N1, 5200, SSP_EV_NIC_DMA_ISSUE, 8);
	ndma(h, N1, 5250, SSP_EV_NIC_DMA_DONE_WR, 6);
	ndma(h, N1, 5255, SSP_EV_NIC_DMA_DONE_WR, 8);
	nic1(h, N1, 5260, SSP_EV_NIC_RX, 0, 60);
	ndma(h, N1, 5260, SSP_EV_NIC_DMA_ISSUE, 7);
	ndma(h, N1, 5260, SSP_EV_NIC_DMA_ISSUE, 9);
	ndma(h, N1, 5270, SSP_EV_NIC_DMA_DONE_WR, 7);
	feed(h, N1, 5300, SSP_EV_NIC_MSIX, 1, U(1));
	ndma(h, N1, 5350, SSP_EV_NIC_DMA_DONE_WR, 9);
	feed(h, N1, 5400, SSP_EV_NIC_MSIX, 1, U(1));
	finish(h);
	check_invariants(h);
}

static void
test_kctx_nic_chain(void **state)
{
	struct h *h = setup(kctx_rules, 0);
	const struct ssp_spanb_stats *st;
	static const int64_t a[] = { 400, 1922, 3444, 4966 };
	static const int64_t bb[] = { 2000, 3522, 5044 };
	size_t i;

	(void)state;
	feed_tso(h);
	parent_is(h, SSP_SK_NIC_DMA, 200, SSP_SK_NIC_MMIO, 100);
	assert_string_equal(cause_of(h, SSP_SK_NIC_DMA, 200), "dma-chain");
	parent_is(h, SSP_SK_NIC_DMA, 420, SSP_SK_NIC_MMIO, 300);
	parent_is(h, SSP_SK_NIC_DMA, 4966, SSP_SK_NIC_MMIO, 100);
	assert_string_equal(cause_of(h, SSP_SK_NIC_DMA, 4966), "dma-chain");
	for (i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		parent_is(h, SSP_SK_NIC_TX, a[i], SSP_SK_NIC_MMIO, 100);
	for (i = 0; i < sizeof(bb) / sizeof(bb[0]); i++)
		parent_is(h, SSP_SK_NIC_TX, bb[i], SSP_SK_NIC_MMIO, 300);
	assert_string_equal(cause_of(h, SSP_SK_NIC_TX, 400), "dma-chain");
	assert_string_equal(cause_of(h, SSP_SK_NIC_TX, 2000), "dma-chain");
	assert_string_equal(cause_of(h, SSP_SK_NIC_TX, 1922), "tso");
	assert_string_equal(cause_of(h, SSP_SK_NIC_TX, 5044), "tso");
	parent_is(h, SSP_SK_NIC_MSIX, 5100, SSP_SK_NIC_MMIO, 100);
	assert_string_equal(cause_of(h, SSP_SK_NIC_MSIX, 5100), "tx-writeback");
	parent_is(h, SSP_SK_NIC_MSIX, 5300, SSP_SK_NIC_RX, 5200);
	parent_is(h, SSP_SK_NIC_MSIX, 5400, SSP_SK_NIC_RX, 5260);
	st = ssp_spanb_stats(h->b);
	assert_int_equal(st->causes[SSP_CAUSE_TSO], 5);
	assert_int_equal(st->causes[SSP_CAUSE_TX_WB], 1);
	teardown(h);

	/* without the kernel-context model: the last causing span (SPEC §3) */
	h = setup("", 0);
	feed_tso(h);
	parent_is(h, SSP_SK_NIC_DMA, 200, SSP_SK_NIC_MMIO, 100);
	parent_is(h, SSP_SK_NIC_TX, 400, SSP_SK_NIC_MMIO, 300);
	parent_is(h, SSP_SK_NIC_TX, 1922, SSP_SK_NIC_MMIO, 300);
	parent_is(h, SSP_SK_NIC_MSIX, 5100, SSP_SK_NIC_MMIO, 300);
	parent_is(h, SSP_SK_NIC_MSIX, 5300, SSP_SK_NIC_RX, 5260);
	assert_string_equal(cause_of(h, SSP_SK_NIC_TX, 400), "");
	teardown(h);
}

/* Reschedule IPIs (SPEC §3c): the irq is a child of the context that sent
 * it from another CPU (cause ipi); without one, an orphan (no-ipi); a
 * timer stays a root; with the model on, call names the syscall too. */
static void
test_kctx_ipi(void **state)
{
	static const char rules[] =
	    "syscall-exit,syscall_exit_to_user_mode\n"
	    "irq-entry,asm_sysvec_apic_timer_interrupt\n"
	    "irq-exit,irqentry_exit\n"
	    "ipi-entry,asm_sysvec_reschedule_ipi\n"
	    "ipi-send,native_smp_send_reschedule\n";
	struct h *h = setup(rules, 0);
	const struct ssp_rec *sc;

	(void)state;
	fn_cpu(h, H1, 100, "cpu0", "entry_SYSCALL_64");
	fn_cpu(h, H1, 110, "cpu0", "do_syscall_64");
	fn_cpu(h, H1, 120, "cpu0", "__x64_sys_sendto");
	fn_cpu(h, H1, 130, "cpu0", "native_smp_send_reschedule");
	/* its own CPU's IPI entry is not the one it sent */
	fn_cpu(h, H1, 140, "cpu0", "asm_sysvec_reschedule_ipi");
	fn_cpu(h, H1, 145, "cpu0", "irqentry_exit");
	fn_cpu(h, H1, 150, "cpu1", "asm_sysvec_reschedule_ipi");
	fn_cpu(h, H1, 160, "cpu1", "irqentry_exit");
	fn_cpu(h, H1, 170, "cpu2", "asm_sysvec_reschedule_ipi");
	fn_cpu(h, H1, 175, "cpu2", "irqentry_exit");
	fn_cpu(h, H1, 180, "cpu2", "asm_sysvec_apic_timer_interrupt");
	fn_cpu(h, H1, 185, "cpu2", "irqentry_exit");
	fn_cpu(h, H1, 190, "cpu0", "syscall_exit_to_user_mode");
	finish(h);
	check_invariants(h);
	sc = span_at(h, SSP_SK_HOST_SYSCALL, 100);
	assert_string_equal(ostr(h, sc->f[SSP_SA_SYSCALL_CALL]), "sendto");
	parent_is(h, SSP_SK_HOST_IRQ, 150, SSP_SK_HOST_SYSCALL, 100);
	assert_string_equal(cause_of(h, SSP_SK_HOST_IRQ, 150), "ipi");
	root_is(h, SSP_SK_HOST_IRQ, 140, SSP_SPAN_ORPHAN, "no-ipi");
	root_is(h, SSP_SK_HOST_IRQ, 170, SSP_SPAN_ORPHAN, "no-ipi");
	root_is(h, SSP_SK_HOST_IRQ, 180, 0, "system-vector");
	teardown(h);
}

/* i40e_bm's queues: a DMA issued right after a write completion (a
 * descriptor write-back after the payload write, a refetch after the
 * write-back) is a child of that completion's parent, the frame, not of
 * the NIC's last causing span (a later frame). */
static void
test_kctx_nic_write_chain(void **state)
{
	struct h *h = setup(kctx_rules, 0);

	(void)state;
	nic1(h, N1, 100, SSP_EV_NIC_RX, 0, 60);
	ndma(h, N1, 100, SSP_EV_NIC_DMA_ISSUE, 1);	/* payload */
	nic1(h, N1, 150, SSP_EV_NIC_RX, 0, 60);		/* a later frame */
	ndma(h, N1, 150, SSP_EV_NIC_DMA_ISSUE, 2);
	ndma(h, N1, 200, SSP_EV_NIC_DMA_DONE_WR, 1);
	ndma(h, N1, 200, SSP_EV_NIC_DMA_ISSUE, 3);	/* its write-back */
	ndma(h, N1, 300, SSP_EV_NIC_DMA_DONE_WR, 3);
	ndma(h, N1, 300, SSP_EV_NIC_DMA_ISSUE, 4);	/* the refetch */
	ndma(h, N1, 310, SSP_EV_NIC_DMA_ISSUE, 5);	/* another time */
	finish(h);
	check_invariants(h);
	parent_is(h, SSP_SK_NIC_DMA, 200, SSP_SK_NIC_RX, 100);
	assert_string_equal(cause_of(h, SSP_SK_NIC_DMA, 200), "dma-chain");
	parent_is(h, SSP_SK_NIC_DMA, 300, SSP_SK_NIC_RX, 100);
	parent_is(h, SSP_SK_NIC_DMA, 310, SSP_SK_NIC_RX, 150);
	assert_string_equal(cause_of(h, SSP_SK_NIC_DMA, 310), "");
	teardown(h);
}

/* The start time of the parent of the nic.dma span of op. */
static int64_t
dma_parent_ts(const struct h *h, uint64_t op)
{
	size_t i;

	for (i = 0; i < h->nrec; i++)
		if (h->recs[i].type == SSP_SK_NIC_DMA &&
		    h->recs[i].f[SSP_SA_NDMA_OP] == op) {
			const struct ssp_rec *p = by_id(h,
			    h->recs[i].f[SSP_SF_PARENT]);

			assert_non_null(p);
			assert_int_equal(p->type, SSP_SK_NIC_RX);
			return p->ts;
		}
	fail_msg("no nic.dma of op %llu", (unsigned long long)op);
	return -1;
}

/* i40e_bm keeps one descriptor write-back under way per rx ring: frames
 * written meanwhile wait, and the write-back issued when it completes
 * (at the address past it; the refetch at the same time reads elsewhere)
 * covers them: its parent is the oldest it covers, not the frame of the
 * write-back that completed. */
static void
test_kctx_rx_writeback_cover(void **state)
{
	struct h *h = setup(kctx_rules, 0);

	(void)state;
	nic1(h, N1, 100, SSP_EV_NIC_RX, 0, 60);			/* A */
	ndma_at(h, N1, 100, SSP_EV_NIC_DMA_ISSUE, 1, 0x50000, 60);
	nic1(h, N1, 120, SSP_EV_NIC_RX, 0, 60);			/* B */
	ndma_at(h, N1, 120, SSP_EV_NIC_DMA_ISSUE, 2, 0x51000, 60);
	nic1(h, N1, 130, SSP_EV_NIC_RX, 0, 60);			/* C */
	ndma_at(h, N1, 130, SSP_EV_NIC_DMA_ISSUE, 3, 0x52000, 60);
	nic1(h, N1, 140, SSP_EV_NIC_RX, 0, 60);			/* D */
	ndma_at(h, N1, 140, SSP_EV_NIC_DMA_ISSUE, 8, 0x53000, 60);
	ndma_at(h, N1, 200, SSP_EV_NIC_DMA_DONE_WR, 1, 0x50000, 60);
	ndma_at(h, N1, 200, SSP_EV_NIC_DMA_ISSUE, 4, 0x10000, 32);	/* A's */
	ndma_at(h, N1, 210, SSP_EV_NIC_DMA_DONE_WR, 2, 0x51000, 60);
	ndma_at(h, N1, 220, SSP_EV_NIC_DMA_DONE_WR, 3, 0x52000, 60);
	ndma_at(h, N1, 300, SSP_EV_NIC_DMA_DONE_WR, 4, 0x10000, 32);
	ndma_at(h, N1, 300, SSP_EV_NIC_DMA_ISSUE, 5, 0x11000, 32);	/* refetch */
	ndma_at(h, N1, 300, SSP_EV_NIC_DMA_ISSUE, 6, 0x10020, 64);	/* B, C */
	ndma_at(h, N1, 310, SSP_EV_NIC_DMA_DONE_WR, 8, 0x53000, 60);
	ndma_at(h, N1, 400, SSP_EV_NIC_DMA_DONE_RD, 5, 0x11000, 32);
	ndma_at(h, N1, 410, SSP_EV_NIC_DMA_DONE_WR, 6, 0x10020, 64);
	ndma_at(h, N1, 410, SSP_EV_NIC_DMA_ISSUE, 7, 0x11020, 64);	/* refetch */
	ndma_at(h, N1, 410, SSP_EV_NIC_DMA_ISSUE, 9, 0x10060, 32);	/* D */
	ndma_at(h, N1, 500, SSP_EV_NIC_DMA_DONE_WR, 9, 0x10060, 32);
	ndma_at(h, N1, 500, SSP_EV_NIC_DMA_ISSUE, 10, 0x11060, 32);	/* refetch */
	/* a write-back with no frame waiting (its rx lines missing) */
	ndma_at(h, N1, 500, SSP_EV_NIC_DMA_ISSUE, 11, 0x10080, 32);
	finish(h);
	check_invariants(h);
	assert_int_equal(dma_parent_ts(h, 11), 140);	/* the chain's */
	assert_int_equal(ssp_spanb_stats(h->b)->rx_wb_none, 1);
	assert_int_equal(dma_parent_ts(h, 4), 100);
	assert_int_equal(dma_parent_ts(h, 5), 100);	/* A's write-back */
	assert_int_equal(dma_parent_ts(h, 6), 120);	/* covers B and C */
	assert_int_equal(dma_parent_ts(h, 7), 120);
	assert_int_equal(dma_parent_ts(h, 9), 140);	/* then D */
	assert_int_equal(dma_parent_ts(h, 10), 140);
	teardown(h);
}

/* A write-back of a ring's last descriptor is followed by one at the
 * ring's start (16 KiB, as aligned), not right past it. */
static void
test_kctx_rx_writeback_wrap(void **state)
{
	struct h *h = setup(kctx_rules, 0);

	(void)state;
	nic1(h, N1, 100, SSP_EV_NIC_RX, 0, 60);			/* A */
	ndma_at(h, N1, 100, SSP_EV_NIC_DMA_ISSUE, 1, 0x500000, 60);
	nic1(h, N1, 110, SSP_EV_NIC_RX, 0, 60);			/* B */
	ndma_at(h, N1, 110, SSP_EV_NIC_DMA_ISSUE, 2, 0x500800, 60);
	ndma_at(h, N1, 200, SSP_EV_NIC_DMA_DONE_WR, 1, 0x500000, 60);
	ndma_at(h, N1, 200, SSP_EV_NIC_DMA_ISSUE, 3, 0x13fe0, 32);
	ndma_at(h, N1, 210, SSP_EV_NIC_DMA_DONE_WR, 2, 0x500800, 60);
	ndma_at(h, N1, 300, SSP_EV_NIC_DMA_DONE_WR, 3, 0x13fe0, 32);
	ndma_at(h, N1, 300, SSP_EV_NIC_DMA_ISSUE, 4, 0x10fe0, 32);	/* refetch */
	ndma_at(h, N1, 300, SSP_EV_NIC_DMA_ISSUE, 5, 0x10000, 32);	/* B */
	finish(h);
	check_invariants(h);
	assert_int_equal(dma_parent_ts(h, 4), 100);
	assert_int_equal(dma_parent_ts(h, 5), 110);
	teardown(h);
}

/* Two rx rings, both with a write-back under way when frames C and D are
 * written: each waits for the ring its buffer's region was last seen on
 * (A's and B's), not the oldest for the first ring that completes. */
static void
test_kctx_rx_writeback_two_rings(void **state)
{
	struct h *h = setup(kctx_rules, 0);

	(void)state;
	nic1(h, N1, 100, SSP_EV_NIC_RX, 0, 60);			/* A, ring 1 */
	ndma_at(h, N1, 100, SSP_EV_NIC_DMA_ISSUE, 1, 0x500000, 60);
	nic1(h, N1, 110, SSP_EV_NIC_RX, 0, 60);			/* B, ring 2 */
	ndma_at(h, N1, 110, SSP_EV_NIC_DMA_ISSUE, 2, 0x600000, 60);
	ndma_at(h, N1, 200, SSP_EV_NIC_DMA_DONE_WR, 1, 0x500000, 60);
	ndma_at(h, N1, 200, SSP_EV_NIC_DMA_ISSUE, 3, 0x10000, 32);
	ndma_at(h, N1, 210, SSP_EV_NIC_DMA_DONE_WR, 2, 0x600000, 60);
	ndma_at(h, N1, 210, SSP_EV_NIC_DMA_ISSUE, 4, 0x20000, 32);
	nic1(h, N1, 220, SSP_EV_NIC_RX, 0, 60);			/* C, ring 2 */
	ndma_at(h, N1, 220, SSP_EV_NIC_DMA_ISSUE, 5, 0x600800, 60);
	nic1(h, N1, 230, SSP_EV_NIC_RX, 0, 60);			/* D, ring 1 */
	ndma_at(h, N1, 230, SSP_EV_NIC_DMA_ISSUE, 6, 0x500800, 60);
	ndma_at(h, N1, 300, SSP_EV_NIC_DMA_DONE_WR, 5, 0x600800, 60);
	ndma_at(h, N1, 310, SSP_EV_NIC_DMA_DONE_WR, 6, 0x500800, 60);
	ndma_at(h, N1, 400, SSP_EV_NIC_DMA_DONE_WR, 3, 0x10000, 32);
	ndma_at(h, N1, 400, SSP_EV_NIC_DMA_ISSUE, 7, 0x10020, 32);	/* D */
	ndma_at(h, N1, 410, SSP_EV_NIC_DMA_DONE_WR, 4, 0x20000, 32);
	ndma_at(h, N1, 410, SSP_EV_NIC_DMA_ISSUE, 8, 0x20020, 32);	/* C */
	finish(h);
	check_invariants(h);
	assert_int_equal(dma_parent_ts(h, 3), 100);
	assert_int_equal(dma_parent_ts(h, 4), 110);
	assert_int_equal(dma_parent_ts(h, 7), 230);
	assert_int_equal(dma_parent_ts(h, 8), 220);
	teardown(h);
}

/* Four tx queues, one vector each (the log names neither): their head
 * write-backs complete in turn, every vector fires its ITR (8 ns here)
 * after its queue's.  Before that delay is known, the queue that waited
 * longest fired (vectors throttle alike); once it has repeated, the queue
 * whose write-back came exactly that delay before.  Each MSI-X is the
 * child of its own queue's doorbell, not the newest. */
static void
test_kctx_msix_ring(void **state)
{
	struct h *h = setup(kctx_rules, 0);
	static const int64_t wb[4] = { 1000, 1200, 1300, 1600 };
	static const uint64_t vec[4] = { 4, 2, 1, 3 };
	unsigned q;

	(void)state;
	for (q = 0; q < 4; q++) {	/* doorbells, descriptor reads */
		nic_wr(h, N1, 100 + 10 * q, 0x108000 + 4 * q);
		ndma_at(h, N1, 100 + 10 * q, SSP_EV_NIC_DMA_ISSUE, 1 + q,
		    0x100000 + ((uint64_t)q << 16), 16);
	}
	for (q = 0; q < 4; q++) {
		ndma_at(h, N1, 500 + 10 * q, SSP_EV_NIC_DMA_DONE_RD, 1 + q,
		    0x100000 + ((uint64_t)q << 16), 16);
		ndma_at(h, N1, 500 + 10 * q, SSP_EV_NIC_DMA_ISSUE, 11 + q,
		    0x100000 + ((uint64_t)q << 16) + 0x2000, 4);
	}
	for (q = 0; q < 4; q++)
		ndma_at(h, N1, wb[q], SSP_EV_NIC_DMA_DONE_WR, 11 + q,
		    0x100000 + ((uint64_t)q << 16) + 0x2000, 4);
	for (q = 0; q < 4; q++)
		feed(h, N1, wb[q] + 8000, SSP_EV_NIC_MSIX, 1, U(vec[q]));
	finish(h);
	check_invariants(h);
	for (q = 0; q < 4; q++) {
		parent_is(h, SSP_SK_NIC_MSIX, wb[q] + 8000, SSP_SK_NIC_MMIO,
		    100 + 10 * q);
		assert_string_equal(cause_of(h, SSP_SK_NIC_MSIX, wb[q] + 8000),
		    "tx-writeback");
	}
	teardown(h);
}

/* Unbalanced input: a log starting inside an interrupt, a softirq
 * without irq, an irq without MSI-X, a timer irq, work on an idle CPU,
 * contexts open at the end, the model's limits. */
static void
test_kctx_unbalanced(void **state)
{
	struct h *h = setup(kctx_rules, 0);
	const struct ssp_spanb_stats *st;

	(void)state;
	fn_cpu(h, H1, 10, "cpu0", "net_rx_action");	/* no context: dropped */
	fn_cpu(h, H1, 20, "cpu0", "irqentry_exit");	/* without entry */
	fn_cpu(h, H1, 30, "cpu0", "run_ksoftirqd");	/* nothing raised */
	fn_cpu(h, H1, 40, "cpu0", "finish_task_switch");	/* ends it */
	fn_cpu(h, H1, 50, "cpu0", "asm_common_interrupt");	/* no msix */
	fn_cpu(h, H1, 60, "cpu0", "irqentry_exit");
	fn_cpu(h, H1, 70, "cpu0", "asm_sysvec_apic_timer_interrupt");
	fn_cpu(h, H1, 80, "cpu0", "irqentry_exit");
	mmio_wr_cpu(h, H1, 90, 1, 0x40, "cpu0");	/* idle cpu: no context */
	posted(h, H1, 90);
	fn_cpu(h, H1, 100, "cpu1", "entry_SYSCALL_64");
	hmsix(h, H1, 105, 1);
	hdone(h, H1, 106, SSP_EV_DMA_DONE, 0);
	fn_cpu(h, H1, 110, "cpu1", "asm_common_interrupt");	/* never exits */
	user(h, H1, 120, "cpu1");	/* closes both, the irq unbalanced */
	fn_cpu(h, H1, 130, "cpu2", "entry_SYSCALL_64");	/* cpu2 vanishes */
	finish(h);
	check_invariants(h);
	root_is(h, SSP_SK_HOST_SOFTIRQ, 30, SSP_SPAN_ORPHAN, "no-irq");
	root_is(h, SSP_SK_HOST_IRQ, 50, SSP_SPAN_ORPHAN, "no-msix");
	root_is(h, SSP_SK_HOST_IRQ, 70, 0, "system-vector");
	root_is(h, SSP_SK_HOST_MMIO, 90, SSP_SPAN_ORPHAN, "no-context");
	root_is(h, SSP_SK_HOST_SYSCALL, 100, 0, "");
	assert_int_equal(span_at(h, SSP_SK_HOST_SYSCALL, 100)->f[SSP_SF_DUR], 20);
	parent_is(h, SSP_SK_HOST_IRQ, 110, SSP_SK_HOST_MSIX, 105);
	assert_string_equal(cause_of(h, SSP_SK_HOST_IRQ, 110), "no-irq-exit");
	assert_int_equal(span_at(h, SSP_SK_HOST_IRQ, 110)->f[SSP_SF_FLAGS] &
	    SSP_SPAN_INCOMPLETE, SSP_SPAN_INCOMPLETE);
	root_is(h, SSP_SK_HOST_SYSCALL, 130, SSP_SPAN_OPEN, "");
	st = ssp_spanb_stats(h->b);
	assert_int_equal(st->kst.irq_exit_unmatched, 1);
	assert_int_equal(st->kst.softirq_no_irq, 1);
	assert_int_equal(st->kst.closed_unbalanced, 1);
	assert_int_equal(st->kst.open_at_end, 1);
	assert_int_equal(st->orphans[SSP_CAUSE_NO_MSIX], 1);
	assert_int_equal(st->orphans[SSP_CAUSE_NO_CONTEXT], 1);
	assert_int_equal(st->causes[SSP_CAUSE_SYSVEC], 1);
	teardown(h);
}

/* app-root: the user function's span is the parent of the syscalls on
 * its CPU; a device event without cpu field goes to the last CPU with a
 * function (cause last-cpu when the host has several). */
static void
test_kctx_app_root(void **state)
{
	struct h *h = setup(kctx_rules, 0);

	(void)state;
	feed(h, H1, 100, SSP_EV_FUNC, 3, sid(h, H1, "cpu0"),
	    sid(h, H1, "client_loop"), sid(h, H1, "netperf"));
	fn_cpu(h, H1, 110, "cpu0", "entry_SYSCALL_64");
	fn_cpu(h, H1, 111, "cpu0", "__sys_sendto");
	fn_cpu(h, H1, 112, "cpu1", "entry_SYSCALL_64");
	fn_cpu(h, H1, 113, "cpu0", "i40e_lan_xmit_frame");
	mmio_wr(h, H1, 114, 1, 0, 0x40, 1);		/* no cpu field */
	posted(h, H1, 114);
	fn_cpu(h, H1, 120, "cpu0", "syscall_exit_to_user_mode");
	feed(h, H1, 200, SSP_EV_FUNC, 3, sid(h, H1, "cpu0"),
	    sid(h, H1, "client_loop"), sid(h, H1, "netperf"));
	finish(h);
	check_invariants(h);
	root_is(h, SSP_SK_HOST_APP, 100, 0, "");
	assert_int_equal(span_at(h, SSP_SK_HOST_APP, 100)->f[SSP_SF_DUR], 100);
	parent_is(h, SSP_SK_HOST_SYSCALL, 110, SSP_SK_HOST_APP, 100);
	assert_string_equal(cause_of(h, SSP_SK_HOST_SYSCALL, 110), "app-root");
	root_is(h, SSP_SK_HOST_SYSCALL, 112, SSP_SPAN_OPEN, "");
	parent_is(h, SSP_SK_HOST_MMIO, 114, SSP_SK_HOST_SYSCALL, 110);
	assert_string_equal(cause_of(h, SSP_SK_HOST_MMIO, 114), "last-cpu");
	root_is(h, SSP_SK_HOST_APP, 200, SSP_SPAN_OPEN, "");
	teardown(h);
}

/* ksoftirqd: an irq that ran no softirq; its work continues in ksoftirqd
 * after a sched-in; the ksoftirqd softirq ends at the next sched-in. */
static void
test_kctx_ksoftirqd(void **state)
{
	struct h *h = setup(kctx_rules, 0);

	(void)state;
	hmsix(h, H1, 5, 1);
	hdone(h, H1, 6, SSP_EV_DMA_DONE, 0);
	fn_cpu(h, H1, 10, "cpu0", "asm_common_interrupt");
	fn_cpu(h, H1, 20, "cpu0", "irqentry_exit");
	fn_cpu(h, H1, 30, "cpu0", "finish_task_switch");
	fn_cpu(h, H1, 40, "cpu0", "run_ksoftirqd");
	fn_cpu(h, H1, 41, "cpu0", "__do_softirq");
	fn_cpu(h, H1, 42, "cpu0", "net_rx_action");
	fn_cpu(h, H1, 50, "cpu0", "finish_task_switch");
	finish(h);
	check_invariants(h);
	parent_is(h, SSP_SK_HOST_SOFTIRQ, 40, SSP_SK_HOST_IRQ, 10);
	assert_string_equal(cause_of(h, SSP_SK_HOST_SOFTIRQ, 40), "raised-fifo");
	assert_int_equal(span_at(h, SSP_SK_HOST_SOFTIRQ, 40)->f[SSP_SF_DUR], 10);
	assert_int_equal(span_at(h, SSP_SK_HOST_SOFTIRQ, 40)->f[SSP_SF_FLAGS], 0);
	teardown(h);
}

/* One CPU: recvfrom sleeps, a softirq wakes it, a second irq leaves its
 * softirq to ksoftirqd.  ksoftirqd's sched-in, first taken for the
 * syscall's resume (a wakeup is pending), is taken back at run_ksoftirqd:
 * no host.resume there, the softirq is ksoftirqd's with the second irq as
 * parent, and the syscall is resumed, with its link, at the sched-in
 * after. */
static void
test_kctx_ksoftirqd_after_wakeup(void **state)
{
	struct h *h = setup(kctx_rules, 0);
	const struct ssp_rec *l;

	(void)state;
	fn_cpu(h, H1, 10, "cpu0", "entry_SYSCALL_64");
	fn_cpu(h, H1, 11, "cpu0", "schedule_timeout");
	fn_cpu(h, H1, 12, "cpu0", "finish_task_switch");	/* to idle */
	hmsix(h, H1, 15, 1);
	hdone(h, H1, 16, SSP_EV_DMA_DONE, 0);
	fn_cpu(h, H1, 20, "cpu0", "asm_common_interrupt");
	fn_cpu(h, H1, 21, "cpu0", "__do_softirq");
	fn_cpu(h, H1, 22, "cpu0", "try_to_wake_up");
	fn_cpu(h, H1, 23, "cpu0", "irqentry_exit");
	hmsix(h, H1, 25, 1);
	hdone(h, H1, 26, SSP_EV_DMA_DONE, 0);
	fn_cpu(h, H1, 30, "cpu0", "asm_common_interrupt");
	fn_cpu(h, H1, 31, "cpu0", "irqentry_exit");
	fn_cpu(h, H1, 40, "cpu0", "finish_task_switch");	/* ksoftirqd */
	fn_cpu(h, H1, 41, "cpu0", "smpboot_thread_fn");
	fn_cpu(h, H1, 42, "cpu0", "run_ksoftirqd");
	fn_cpu(h, H1, 43, "cpu0", "__do_softirq");
	fn_cpu(h, H1, 50, "cpu0", "finish_task_switch");	/* recvfrom */
	fn_cpu(h, H1, 51, "cpu0", "tcp_recvmsg");
	fn_cpu(h, H1, 60, "cpu0", "syscall_exit_to_user_mode");
	finish(h);
	check_invariants(h);
	assert_int_equal(count(h, SSP_SK_HOST_RESUME), 1);
	parent_is(h, SSP_SK_HOST_RESUME, 50, SSP_SK_HOST_SOFTIRQ, 21);
	parent_is(h, SSP_SK_HOST_SOFTIRQ, 42, SSP_SK_HOST_IRQ, 30);
	assert_string_equal(cause_of(h, SSP_SK_HOST_SOFTIRQ, 42), "raised-fifo");
	assert_int_equal(span_at(h, SSP_SK_HOST_SOFTIRQ, 42)->f[SSP_SF_DUR], 8);
	assert_int_equal(links_of(h, span_at(h, SSP_SK_HOST_SYSCALL,
	    10)->f[SSP_SF_SPAN], &l), 1);
	assert_int_equal(ssp_spanb_stats(h->b)->kst.resume_retracted, 1);
	assert_int_equal(ssp_spanb_stats(h->b)->kst.softirq_in_task, 0);
	teardown(h);
}

/* --- tests ----------------------------------------------------------------- */

static void
test_syscall(void **state)
{
	struct h *h = setup("", 0);
	const struct ssp_rec *s;

	(void)state;
	fn(h, H1, 10, "do_idle");		/* before any syscall: dropped */
	fn(h, H1, 100, "entry_SYSCALL_64");
	fn(h, H1, 110, "xas_load");		/* blacklisted: ignored */
	fn(h, H1, 120, "__sys_sendto");
	fn(h, H1, 130, "i40e_lan_xmit_frame");
	fn(h, H1, 140, "kfree");
	fn(h, H1, 200, "entry_SYSCALL_64");	/* next one: the first ends */
	fn(h, H1, 210, "netif_receive_skb_list_internal");
	finish(h);
	assert_int_equal(count(h, SSP_SK_HOST_SYSCALL), 2);
	s = span_at(h, SSP_SK_HOST_SYSCALL, 100);
	assert_string_equal(ostr(h, s->f[SSP_SA_SYSCALL_ENTRY]), "entry_SYSCALL_64");
	assert_string_equal(ostr(h, s->f[SSP_SA_SYSCALL_CALL]), "__sys_sendto");
	assert_string_equal(ostr(h, s->f[SSP_SA_SYSCALL_CPU]), "cpu0");
	assert_int_equal(s->f[SSP_SA_SYSCALL_FUNCS], 4);
	assert_int_equal(s->f[SSP_SA_SYSCALL_KTX], 1);
	assert_int_equal(s->f[SSP_SA_SYSCALL_DTX], 1);
	assert_int_equal(s->f[SSP_SA_SYSCALL_KRX], 0);
	assert_int_equal(s->f[SSP_SF_DUR], 40);
	root_is(h, SSP_SK_HOST_SYSCALL, 100, 0, "");
	/* the last syscall is open at the end of input: written with OPEN */
	root_is(h, SSP_SK_HOST_SYSCALL, 200, SSP_SPAN_OPEN, "");
	s = span_at(h, SSP_SK_HOST_SYSCALL, 200);
	assert_int_equal(s->f[SSP_SA_SYSCALL_KRX], 1);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_BLACKLIST], 1);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_NO_SYSCALL], 1);
	assert_int_equal(ssp_spanb_stats(h->b)->used[H1], 6);
	check_invariants(h);
	teardown(h);
}

/* call is the syscall a handler names (__x64_sys_X etc.: X), else the
 * first function after the entry; the first handler stays. */
static void
test_syscall_call(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	fn(h, H1, 110, "do_syscall_64");
	fn(h, H1, 120, "__x64_sys_sendto");
	fn(h, H1, 130, "__se_sys_recvfrom");	/* not this syscall's name */
	fn(h, H1, 200, "entry_SYSCALL_64");
	fn(h, H1, 210, "do_syscall_64");
	fn(h, H1, 220, "__do_sys_clock_nanosleep");
	fn(h, H1, 300, "entry_SYSCALL_64");
	fn(h, H1, 310, "do_syscall_64");	/* no handler: the first function */
	fn(h, H1, 320, "__sys_sendto");
	fn(h, H1, 400, "entry_SYSCALL_64");
	fn(h, H1, 410, "__x64_sys_");		/* a prefix only: a function */
	finish(h);
	assert_string_equal(ostr(h, span_at(h, SSP_SK_HOST_SYSCALL, 100)->
	    f[SSP_SA_SYSCALL_CALL]), "sendto");
	assert_string_equal(ostr(h, span_at(h, SSP_SK_HOST_SYSCALL, 200)->
	    f[SSP_SA_SYSCALL_CALL]), "clock_nanosleep");
	assert_string_equal(ostr(h, span_at(h, SSP_SK_HOST_SYSCALL, 300)->
	    f[SSP_SA_SYSCALL_CALL]), "do_syscall_64");
	assert_string_equal(ostr(h, span_at(h, SSP_SK_HOST_SYSCALL, 400)->
	    f[SSP_SA_SYSCALL_CALL]), "__x64_sys_");
	check_invariants(h);
	teardown(h);
}

/* The entry trampoline (entry_SYSCALL_64, then its inner label, both
 * syscall-entry) is one syscall; the same entry function again is not. */
static void
test_syscall_trampoline(void **state)
{
	struct h *h = setup("syscall-entry,entry_SYSCALL_64_safe_stack\n", 0);
	const struct ssp_rec *s;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	fn(h, H1, 105, "entry_SYSCALL_64_safe_stack");
	fn(h, H1, 110, "do_syscall_64");
	fn(h, H1, 120, "__sys_sendto");
	fn(h, H1, 200, "entry_SYSCALL_64");	/* a syscall of its entry alone */
	fn(h, H1, 300, "entry_SYSCALL_64");	/* then the next one */
	fn(h, H1, 310, "do_syscall_64");
	fn(h, H1, 320, "entry_SYSCALL_64_safe_stack");	/* after a call: new */
	finish(h);
	assert_int_equal(count(h, SSP_SK_HOST_SYSCALL), 4);
	s = span_at(h, SSP_SK_HOST_SYSCALL, 100);
	assert_string_equal(ostr(h, s->f[SSP_SA_SYSCALL_ENTRY]), "entry_SYSCALL_64");
	assert_string_equal(ostr(h, s->f[SSP_SA_SYSCALL_CALL]), "do_syscall_64");
	assert_int_equal(s->f[SSP_SA_SYSCALL_FUNCS], 4);
	assert_int_equal(s->f[SSP_SF_DUR], 20);
	assert_int_equal(span_at(h, SSP_SK_HOST_SYSCALL, 200)->f[SSP_SA_SYSCALL_FUNCS], 1);
	assert_int_equal(span_at(h, SSP_SK_HOST_SYSCALL, 300)->f[SSP_SA_SYSCALL_FUNCS], 2);
	s = span_at(h, SSP_SK_HOST_SYSCALL, 320);
	assert_string_equal(ostr(h, s->f[SSP_SA_SYSCALL_ENTRY]), "entry_SYSCALL_64_safe_stack");
	check_invariants(h);
	teardown(h);
}

static void
test_syscall_per_cpu(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	fn_cpu(h, H1, 100, "cpu0", "entry_SYSCALL_64");
	fn_cpu(h, H1, 105, "cpu1", "entry_SYSCALL_64");
	fn_cpu(h, H1, 110, "cpu0", "__sys_sendto");
	mmio_rd(h, H1, 120, 7, 0, 0x10);	/* after cpu0's function */
	fn_cpu(h, H1, 130, "cpu1", "kfree");
	mmio_rd(h, H1, 140, 8, 0, 0x20);	/* after cpu1's function */
	hdone(h, H1, 150, SSP_EV_MMIO_RD_DONE, 8);
	hdone(h, H1, 151, SSP_EV_MMIO_RD_DONE, 7);
	finish(h);
	parent_is(h, SSP_SK_HOST_MMIO, 120, SSP_SK_HOST_SYSCALL, 100);
	parent_is(h, SSP_SK_HOST_MMIO, 140, SSP_SK_HOST_SYSCALL, 105);
	assert_int_equal(span_at(h, SSP_SK_HOST_SYSCALL, 100)->f[SSP_SA_SYSCALL_FUNCS], 2);
	check_invariants(h);
	teardown(h);
}

/* host syscall -> host mmio -> NIC mmio, posted and non-posted */
static void
test_mmio_handover(void **state)
{
	struct h *h = setup("", 0);
	const struct ssp_rec *s;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	mmio_wr(h, H1, 200, 0xaa, 0, 0x108000, 1);
	posted(h, H1, 200);
	mmio_rd(h, H1, 300, 0xbb, 0, 0x80300);
	nic_wr(h, N1, 700, 0x108000);
	nic_rd(h, N1, 800, 0x80300);
	hdone(h, H1, 1300, SSP_EV_MMIO_RD_DONE, 0xbb);
	finish(h);
	parent_is(h, SSP_SK_HOST_MMIO, 200, SSP_SK_HOST_SYSCALL, 100);
	parent_is(h, SSP_SK_HOST_MMIO, 300, SSP_SK_HOST_SYSCALL, 100);
	parent_is(h, SSP_SK_NIC_MMIO, 700, SSP_SK_HOST_MMIO, 200);
	parent_is(h, SSP_SK_NIC_MMIO, 800, SSP_SK_HOST_MMIO, 300);
	s = span_at(h, SSP_SK_HOST_MMIO, 300);
	assert_int_equal(s->f[SSP_SF_DUR], 1000);
	assert_int_equal(s->f[SSP_SA_HMMIO_WRITE], 0);
	assert_int_equal(s->f[SSP_SA_HMMIO_OFFS], 0x80300);
	s = span_at(h, SSP_SK_HOST_MMIO, 200);
	assert_int_equal(s->f[SSP_SF_FLAGS], 0);	/* the response came */
	assert_int_equal(s->f[SSP_SA_HMMIO_POSTED], 1);
	s = span_at(h, SSP_SK_NIC_MMIO, 700);
	assert_int_equal(s->f[SSP_SA_NMMIO_WRITE], 1);
	assert_int_equal(ssp_spanb_stats(h->b)->mmio_mismatch, 0);
	check_invariants(h);
	teardown(h);
}

/* MMIO has no key: FIFO per link, checked by offset, resynchronised */
static void
test_mmio_fifo_offsets(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	mmio_wr(h, H1, 200, 1, -1, 0x40, -1);	/* old adapter: no bar, no posted */
	mmio_wr(h, H1, 210, 2, -1, 0x50, -1);
	hdone(h, H1, 220, SSP_EV_MMIO_WR_DONE, 1);
	hdone(h, H1, 230, SSP_EV_MMIO_WR_DONE, 2);
	/* the first access never reached the NIC (an MSI-X table write) */
	nic_wr(h, N1, 600, 0x50);
	mmio_wr(h, H1, 700, 3, -1, 0x60, -1);
	nic_wr(h, N1, 900, 0x64);		/* a wrong offset: counted */
	finish(h);
	parent_is(h, SSP_SK_NIC_MMIO, 600, SSP_SK_HOST_MMIO, 210);
	parent_is(h, SSP_SK_NIC_MMIO, 900, SSP_SK_HOST_MMIO, 700);
	assert_int_equal(ssp_spanb_stats(h->b)->mmio_skipped, 1);
	assert_int_equal(ssp_spanb_stats(h->b)->mmio_mismatch, 1);
	/* the never-answered write 3 is open at the end */
	root_is(h, SSP_SK_HOST_SYSCALL, 100, SSP_SPAN_OPEN, "");
	assert_true(span_at(h, SSP_SK_HOST_MMIO, 700)->f[SSP_SF_FLAGS] & SSP_SPAN_OPEN);
	check_invariants(h);
	teardown(h);
}

/* Other BARs and MSI programming stay inside gem5: no NIC context */
static void
test_mmio_not_for_nic(void **state)
{
	struct h *h = setup("device-bar,n1,0\ndevice-bar,n1,2\n", 0);

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	mmio_wr(h, H1, 200, 1, 3, 0x10, 0);	/* BAR 3: the MSI-X table */
	fn(h, H1, 250, "__pci_write_msi_msg");
	mmio_wr(h, H1, 300, 2, 0, 0x20, 0);	/* MSI programming */
	fn(h, H1, 350, "kfree");
	mmio_wr(h, H1, 400, 3, 2, 0x30, 0);	/* BAR 2: a device BAR here */
	mmio_wr(h, H1, 500, 4, 3, 0x10, 1);	/* posted, MSI-X table ... */
	posted(h, H1, 500);			/* ... still gets its response */
	mmio_wr(h, H1, 600, 5, 3, 0x10, 1);	/* or not: nothing is missing */
	nic_wr(h, N1, 900, 0x30);
	nic_wr(h, N1, 950, 0x40);		/* nothing left for it */
	hdone(h, H1, 1000, SSP_EV_MMIO_WR_DONE, 3);
	finish(h);
	assert_int_equal(span_at(h, SSP_SK_HOST_MMIO, 200)->f[SSP_SF_DUR], 0);
	assert_int_equal(span_at(h, SSP_SK_HOST_MMIO, 500)->f[SSP_SF_FLAGS], 0);
	assert_int_equal(span_at(h, SSP_SK_HOST_MMIO, 600)->f[SSP_SF_FLAGS], 0);
	assert_int_equal(ssp_spanb_stats(h->b)->used[H1], 10);	/* all of them */
	parent_is(h, SSP_SK_NIC_MMIO, 900, SSP_SK_HOST_MMIO, 400);
	root_is(h, SSP_SK_NIC_MMIO, 950, SSP_SPAN_ORPHAN, "mmio");
	assert_int_equal(ssp_spanb_stats(h->b)->orphans[SSP_CAUSE_MMIO], 1);
	check_invariants(h);
	teardown(h);
}

/* NIC dma -> host dma joined by op pointer == id, whatever the order */
static void
test_dma_join_by_key(void **state)
{
	struct h *h = setup("", 0);
	const struct ssp_rec *s;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	mmio_wr(h, H1, 200, 1, 0, 0x108000, 1);
	posted(h, H1, 200);
	nic_wr(h, N1, 700, 0x108000);
	ndma(h, N1, 800, SSP_EV_NIC_DMA_ISSUE, 0x55ea69870000);
	ndma(h, N1, 800, SSP_EV_NIC_DMA_EXEC, 0x55ea69870000);
	ndma(h, N1, 810, SSP_EV_NIC_DMA_ENQ, 0x55ea69870040);	/* queued */
	ndma(h, N1, 900, SSP_EV_NIC_DMA_EXEC, 0x55ea69870040);
	/* the host sees them in the other order */
	hdma(h, H1, 1400, 0, 0x55ea69870040);
	hdma(h, H1, 1410, 1, 0x55ea69870000);
	hdone(h, H1, 1500, SSP_EV_DMA_DONE, 0x55ea69870000);
	hdone(h, H1, 1510, SSP_EV_DMA_DONE, 0x55ea69870040);
	ndma(h, N1, 2000, SSP_EV_NIC_DMA_DONE_RD, 0x55ea69870040);
	ndma(h, N1, 2010, SSP_EV_NIC_DMA_DONE_WR, 0x55ea69870000);
	finish(h);
	parent_is(h, SSP_SK_HOST_DMA, 1400, SSP_SK_NIC_DMA, 810);
	parent_is(h, SSP_SK_HOST_DMA, 1410, SSP_SK_NIC_DMA, 800);
	parent_is(h, SSP_SK_NIC_DMA, 800, SSP_SK_NIC_MMIO, 700);
	parent_is(h, SSP_SK_NIC_DMA, 810, SSP_SK_NIC_MMIO, 700);
	s = span_at(h, SSP_SK_NIC_DMA, 800);
	assert_int_equal(s->f[SSP_SF_DUR], 1210);
	assert_int_equal(s->f[SSP_SA_NDMA_WRITE], 1);
	assert_true(s->f[SSP_SA_NDMA_OP] == 0x55ea69870000);
	assert_int_equal(span_at(h, SSP_SK_NIC_DMA, 810)->f[SSP_SA_NDMA_WRITE], 0);
	s = span_at(h, SSP_SK_HOST_DMA, 1400);
	assert_int_equal(s->f[SSP_SF_DUR], 110);
	assert_true(s->f[SSP_SA_HDMA_ID] == 0x55ea69870040);
	check_invariants(h);
	teardown(h);
}

/* One host, two NICs: both nicbm processes (ASLR off) use DMA op 0x5000
 * at the same time.  Each host DMA span is parented and completed by the
 * adapter its lines name. */
static const char topo_2nic[] =
    "stream,h,host\n"
    "stream,na,nic\n"
    "stream,nb,nic\n"
    "pcie,h,na,system.pc.simbricks_0\n"
    "pcie,h,nb,system.pc.simbricks_1\n";
enum { H2N_H, H2N_A, H2N_B };

static void
hdma_at(struct h *h, int64_t ts, const char *comp, int write, uint64_t id)
{
	feed(h, H2N_H, ts, write ? SSP_EV_DMA_WR : SSP_EV_DMA_RD, 4,
	    sid(h, H2N_H, comp), id, U(0x1000), U(64));
}

static void
hdma_done_at(struct h *h, int64_t ts, const char *comp, uint64_t id)
{
	feed(h, H2N_H, ts, SSP_EV_DMA_DONE, 2, sid(h, H2N_H, comp), id);
}

static void
test_dma_two_nics_same_op(void **state)
{
	struct h *h = setup_topo(topo_2nic, "", 0);
	const struct ssp_rec *s;

	(void)state;
	fn(h, H2N_H, 100, "entry_SYSCALL_64");
	mmio_wr(h, H2N_H, 200, 1, 0, 0x108000, 1);	/* simbricks_0: na */
	posted(h, H2N_H, 200);
	feed(h, H2N_H, 210, SSP_EV_MMIO_WR, 7, sid(h, H2N_H,
	    "system.pc.simbricks_1"), U(0xd0108000), U(4), U(2), U(0),
	    U(0x108000), U(1));
	feed(h, H2N_H, 210, SSP_EV_MMIO_POSTED, 1, sid(h, H2N_H,
	    "system.pc.simbricks_1.pio"));
	nic_wr(h, H2N_A, 700, 0x108000);
	nic_wr(h, H2N_B, 710, 0x108000);
	ndma(h, H2N_A, 800, SSP_EV_NIC_DMA_ISSUE, 0x5000);
	ndma(h, H2N_A, 800, SSP_EV_NIC_DMA_EXEC, 0x5000);
	ndma(h, H2N_B, 810, SSP_EV_NIC_DMA_ISSUE, 0x5000);
	ndma(h, H2N_B, 810, SSP_EV_NIC_DMA_EXEC, 0x5000);
	/* both host DMAs open at once, completed in the other order */
	hdma_at(h, 1300, "system.pc.simbricks_0", 1, 0x5000);
	hdma_at(h, 1310, "system.pc.simbricks_1", 0, 0x5000);
	hdma_done_at(h, 1400, "system.pc.simbricks_1", 0x5000);
	hdma_done_at(h, 1450, "system.pc.simbricks_0", 0x5000);
	ndma(h, H2N_B, 1900, SSP_EV_NIC_DMA_DONE_RD, 0x5000);
	ndma(h, H2N_A, 1950, SSP_EV_NIC_DMA_DONE_WR, 0x5000);
	fn(h, H2N_H, 3000, "entry_SYSCALL_64");
	finish(h);
	assert_int_equal(count(h, SSP_SK_HOST_DMA), 2);
	parent_is(h, SSP_SK_HOST_DMA, 1300, SSP_SK_NIC_DMA, 800);
	parent_is(h, SSP_SK_HOST_DMA, 1310, SSP_SK_NIC_DMA, 810);
	assert_int_equal(span_at(h, SSP_SK_NIC_DMA, 800)->f[SSP_SF_STREAM], H2N_A);
	assert_int_equal(span_at(h, SSP_SK_NIC_DMA, 810)->f[SSP_SF_STREAM], H2N_B);
	s = span_at(h, SSP_SK_HOST_DMA, 1300);	/* closed by simbricks_0 */
	assert_int_equal(s->f[SSP_SF_FLAGS], 0);
	assert_int_equal(s->f[SSP_SF_DUR], 150);
	assert_string_equal(ostr(h, s->f[SSP_SA_HDMA_COMP]), "system.pc.simbricks_0");
	s = span_at(h, SSP_SK_HOST_DMA, 1310);	/* closed by simbricks_1 */
	assert_int_equal(s->f[SSP_SF_FLAGS], 0);
	assert_int_equal(s->f[SSP_SF_DUR], 90);
	assert_string_equal(ostr(h, s->f[SSP_SA_HDMA_COMP]), "system.pc.simbricks_1");
	assert_int_equal(ssp_spanb_stats(h->b)->dup_ids, 0);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_NO_START], 0);
	assert_int_equal(ssp_spanb_stats(h->b)->incomplete, 0);
	check_invariants(h);
	teardown(h);
}

/* Missing completions: spans still open at the end are written OPEN */
static void
test_missing_completions(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	mmio_rd(h, H1, 200, 5, 0, 0x10);	/* no completion */
	nic_rd(h, N1, 600, 0x10);
	ndma(h, N1, 700, SSP_EV_NIC_DMA_ISSUE, 0x100);	/* never executes */
	ndma(h, N1, 710, SSP_EV_NIC_DMA_EXEC, 0x140);	/* no issue line */
	hdma(h, H1, 1200, 0, 0x140);			/* no completion */
	hdone(h, H1, 1300, SSP_EV_DMA_DONE, 0x999);	/* nothing open */
	ndma(h, N1, 1400, SSP_EV_NIC_DMA_DONE_RD, 0x777);	/* nothing open */
	finish(h);
	assert_true(span_at(h, SSP_SK_HOST_MMIO, 200)->f[SSP_SF_FLAGS] == SSP_SPAN_OPEN);
	assert_true(span_at(h, SSP_SK_NIC_DMA, 700)->f[SSP_SF_FLAGS] ==
	    (SSP_SPAN_OPEN | SSP_SPAN_ORPHAN));	/* a read is no cause */
	root_is(h, SSP_SK_NIC_DMA, 710, SSP_SPAN_OPEN | SSP_SPAN_ORPHAN, "nic-cause");
	parent_is(h, SSP_SK_HOST_DMA, 1200, SSP_SK_NIC_DMA, 710);
	assert_true(span_at(h, SSP_SK_HOST_DMA, 1200)->f[SSP_SF_FLAGS] == SSP_SPAN_OPEN);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_NO_START], 2);
	assert_int_equal(ssp_spanb_stats(h->b)->open, 5);	/* with the syscall */
	check_invariants(h);
	teardown(h);
}

/* An id reused while its span is open closes the old one INCOMPLETE */
static void
test_duplicate_ids(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	mmio_rd(h, H1, 200, 5, 0, 0x10);
	mmio_rd(h, H1, 300, 5, 0, 0x20);	/* same id: the first never completed */
	hdone(h, H1, 400, SSP_EV_MMIO_RD_DONE, 5);
	ndma(h, N1, 500, SSP_EV_NIC_DMA_ISSUE, 0x40);
	ndma(h, N1, 600, SSP_EV_NIC_DMA_ISSUE, 0x40);
	ndma(h, N1, 700, SSP_EV_NIC_DMA_DONE_RD, 0x40);
	finish(h);
	assert_true(span_at(h, SSP_SK_HOST_MMIO, 200)->f[SSP_SF_FLAGS] ==
	    SSP_SPAN_INCOMPLETE);
	assert_int_equal(span_at(h, SSP_SK_HOST_MMIO, 300)->f[SSP_SF_DUR], 100);
	assert_true(span_at(h, SSP_SK_NIC_DMA, 500)->f[SSP_SF_FLAGS] & SSP_SPAN_INCOMPLETE);
	assert_int_equal(span_at(h, SSP_SK_NIC_DMA, 600)->f[SSP_SF_DUR], 100);
	assert_int_equal(ssp_spanb_stats(h->b)->dup_ids, 2);
	check_invariants(h);
	teardown(h);
}

/* Every missing context makes an orphan root naming what was missing */
static void
test_missing_contexts(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	mmio_rd(h, H1, 50, 1, 0, 0x10);			/* no syscall yet */
	hdone(h, H1, 60, SSP_EV_MMIO_RD_DONE, 1);
	hdma(h, H1, 100, 0, 0x1234);			/* no NIC dma */
	hmsix(h, H1, 110, 3);				/* no NIC msix */
	nic1(h, N1, 120, SSP_EV_NIC_TX, 60, 0);		/* no cause on the NIC */
	nic1(h, N2, 130, SSP_EV_NIC_RX, 0, 60);		/* nothing from the net */
	net(h, 140, SSP_EV_NET_ENQ, 0, 2, 9, 1, SSP_NET_FROM_ADAPTER); /* no tx */
	net(h, 150, SSP_EV_NET_DEQ, 0, 2, 9, 1, 0);
	net(h, 160, SSP_EV_NET_ENQ, 3, 1, 77, 1, 0);	/* no previous hop */
	net(h, 170, SSP_EV_NET_DEQ, 3, 1, 77, 1, 0);
	finish(h);
	root_is(h, SSP_SK_HOST_MMIO, 50, SSP_SPAN_ORPHAN, "syscall");
	root_is(h, SSP_SK_HOST_DMA, 100, SSP_SPAN_ORPHAN | SSP_SPAN_OPEN, "dma");
	root_is(h, SSP_SK_HOST_MSIX, 110, SSP_SPAN_ORPHAN | SSP_SPAN_OPEN, "msix");
	root_is(h, SSP_SK_NIC_TX, 120, SSP_SPAN_ORPHAN, "nic-cause");
	root_is(h, SSP_SK_NIC_RX, 130, SSP_SPAN_ORPHAN, "rx");
	root_is(h, SSP_SK_NET_DEVICE, 140, SSP_SPAN_ORPHAN, "tx");
	root_is(h, SSP_SK_NET_DEVICE, 160, SSP_SPAN_ORPHAN, "packet");
	assert_int_equal(ssp_spanb_stats(h->b)->orphans[SSP_CAUSE_TX], 1);
	/* the NIC tx context was never consumed: counted */
	assert_int_equal(ssp_spanb_stats(h->b)->ctx_unused[SSP_CTX_TX], 1);
	check_invariants(h);
	teardown(h);
}

/* --- net_switch (sim2ev -f switch) -------------------------------------- */

static const char topo_switch[] =
    "stream,h1,host\n"
    "stream,h2,host\n"
    "stream,n1,nic\n"
    "stream,n2,nic\n"
    "stream,sw,net\n"
    "pcie,h1,n1\n"
    "pcie,h2,n2\n"
    "eth,n1,sw,0,0\n"		/* port 2: another network, no NIC */
    "eth,n2,sw,0,1\n";

/* A switch event (FORMATS.md §9 as sim2ev maps it). */
static void
swev(struct h *h, int64_t ts, unsigned type, unsigned port, int64_t uid,
    unsigned boundary, uint64_t smac, uint64_t dmac, unsigned len)
{
	feed(h, NET, ts, type, 15, U(0), U(port), sid(h, NET, "NetSwitch"),
	    sid(h, NET, type == SSP_EV_NET_ENQ ? "ingress" : "egress"), U(uid),
	    U(1), U(boundary), U(-1), U(smac ? 0x800 : 0), smac, dmac,
	    U(smac ? 0x0a000001 : 0), U(smac ? 0x0a000002 : 0), U(-1), U(len));
}

/* The net.device span of a port starting at ts. */
static const struct ssp_rec *
port_at(const struct h *h, int64_t ts, unsigned port)
{
	size_t i;

	for (i = 0; i < h->nrec; i++)
		if (h->recs[i].type == SSP_SK_NET_DEVICE && h->recs[i].ts == ts &&
		    h->recs[i].f[SSP_SA_NET_DEV] == port)
			return &h->recs[i];
	fail_msg("no net.device span on port %u at %lld", port, (long long)ts);
	return NULL;
}

static void
test_switch(void **state)
{
	struct h *h = setup_topo(topo_switch, "", 0);
	const struct ssp_rec *in, *out, *rx, *tx;

	(void)state;
	/* unicast n1 -> n2 through ports 0 -> 1 */
	nic1(h, N1, 100, SSP_EV_NIC_TX, 60, 0);
	swev(h, 200, SSP_EV_NET_ENQ, 0, -1, SSP_NET_FROM_ADAPTER, 0xa1, 0xb1, 74);
	swev(h, 200, SSP_EV_NET_DEQ, 1, -1, SSP_NET_TO_ADAPTER, 0xa1, 0xb1, 74);
	nic1(h, N2, 300, SSP_EV_NIC_RX, 0, 60);
	/* a broadcast from port 2 (no NIC there): one root, two copies */
	swev(h, 400, SSP_EV_NET_ENQ, 2, -1, SSP_NET_FROM_ADAPTER, 0xc1, 0xff, 0);
	swev(h, 400, SSP_EV_NET_DEQ, 0, -1, SSP_NET_TO_ADAPTER, 0xc1, 0xff, 0);
	swev(h, 400, SSP_EV_NET_DEQ, 1, -1, SSP_NET_TO_ADAPTER, 0xc1, 0xff, 0);
	nic1(h, N1, 500, SSP_EV_NIC_RX, 0, 60);
	nic1(h, N2, 510, SSP_EV_NIC_RX, 0, 60);
	/* a copy dropped on port 1 ("forward_pkt: dropping packet on
	 * port 1"), then the next packet: n2 receives the second */
	nic1(h, N1, 550, SSP_EV_NIC_TX, 60, 0);
	nic1(h, N1, 560, SSP_EV_NIC_TX, 60, 0);
	swev(h, 600, SSP_EV_NET_ENQ, 0, -1, SSP_NET_FROM_ADAPTER, 0xa1, 0xb1, 74);
	swev(h, 600, SSP_EV_NET_DEQ, 1, -1, SSP_NET_TO_ADAPTER, 0xa1, 0xb1, 74);
	swev(h, 600, SSP_EV_NET_DROP, 1, -1, SSP_NET_TO_ADAPTER, 0, 0, 0);
	swev(h, 650, SSP_EV_NET_ENQ, 0, -1, SSP_NET_FROM_ADAPTER, 0xa1, 0xb1, 90);
	swev(h, 650, SSP_EV_NET_DEQ, 1, -1, SSP_NET_TO_ADAPTER, 0xa1, 0xb1, 90);
	nic1(h, N2, 700, SSP_EV_NIC_RX, 0, 90);
	/* a copy whose ingress line is missing: no packet of that identity */
	swev(h, 800, SSP_EV_NET_DEQ, 1, -1, SSP_NET_TO_ADAPTER, 0xa2, 0xb2, 60);
	/* vaastav/simbricks lines: chained by uid */
	nic1(h, N2, 850, SSP_EV_NIC_TX, 60, 0);
	swev(h, 900, SSP_EV_NET_ENQ, 1, 7, SSP_NET_FROM_ADAPTER, 0xb1, 0xa1, 60);
	swev(h, 950, SSP_EV_NET_DEQ, 0, 7, SSP_NET_TO_ADAPTER, 0, 0, 0);
	nic1(h, N1, 990, SSP_EV_NIC_RX, 0, 60);
	finish(h);

	tx = span_at(h, SSP_SK_NIC_TX, 100);
	in = port_at(h, 200, 0);
	out = port_at(h, 200, 1);
	rx = span_at(h, SSP_SK_NIC_RX, 300);
	assert_true(in->f[SSP_SF_PARENT] == tx->f[SSP_SF_SPAN]);
	assert_true(out->f[SSP_SF_PARENT] == in->f[SSP_SF_SPAN]);
	assert_true(rx->f[SSP_SF_PARENT] == out->f[SSP_SF_SPAN]);
	assert_int_equal(in->f[SSP_SA_NET_BOUNDARY], SSP_NET_FROM_ADAPTER);
	assert_int_equal(out->f[SSP_SA_NET_BOUNDARY], SSP_NET_TO_ADAPTER);
	/* the broadcast: a root without a missing context, copies under it */
	in = port_at(h, 400, 2);
	assert_true(in->f[SSP_SF_PARENT] == 0);
	assert_int_equal(in->f[SSP_SF_FLAGS], 0);
	assert_true(port_at(h, 400, 0)->f[SSP_SF_PARENT] == in->f[SSP_SF_SPAN]);
	assert_true(port_at(h, 400, 1)->f[SSP_SF_PARENT] == in->f[SSP_SF_SPAN]);
	assert_true(span_at(h, SSP_SK_NIC_RX, 500)->f[SSP_SF_PARENT] ==
	    port_at(h, 400, 0)->f[SSP_SF_SPAN]);
	assert_true(span_at(h, SSP_SK_NIC_RX, 510)->f[SSP_SF_PARENT] ==
	    port_at(h, 400, 1)->f[SSP_SF_SPAN]);
	/* the dropped copy: marked, not handed to n2 */
	assert_int_equal(port_at(h, 600, 1)->f[SSP_SA_NET_DROPPED], 1);
	assert_int_equal(port_at(h, 650, 1)->f[SSP_SA_NET_DROPPED], 0);
	assert_true(span_at(h, SSP_SK_NIC_RX, 700)->f[SSP_SF_PARENT] ==
	    port_at(h, 650, 1)->f[SSP_SF_SPAN]);
	assert_true(port_at(h, 650, 0)->f[SSP_SF_PARENT] ==
	    span_at(h, SSP_SK_NIC_TX, 560)->f[SSP_SF_SPAN]);
	root_is(h, SSP_SK_NET_DEVICE, 800, SSP_SPAN_ORPHAN, "packet");
	assert_true(port_at(h, 950, 0)->f[SSP_SF_PARENT] ==
	    port_at(h, 900, 1)->f[SSP_SF_SPAN]);
	assert_true(span_at(h, SSP_SK_NIC_RX, 990)->f[SSP_SF_PARENT] ==
	    port_at(h, 950, 0)->f[SSP_SF_SPAN]);
	/* only the copy of 800 never reached n2 (the dropped one left the
	 * queue) */
	assert_int_equal(ssp_spanb_stats(h->b)->ctx_unused[SSP_CTX_RX], 1);
	check_invariants(h);
	teardown(h);
}

/* A capture record (net_seen, formats/events.md "pcap"): dev -1 for a
 * net_switch -p file; eth_type 0x800 with IPv4 length len - 14, else ARP. */
static void
seen(struct h *h, int64_t ts, unsigned node, uint32_t dev, uint64_t smac,
    uint64_t dmac, unsigned len, uint64_t ipid)
{
	int ip = len > 42;

	feed(h, NET, ts, SSP_EV_NET_SEEN, 18, U(node), U(dev),
	    sid(h, NET, ip ? "EN10MB" : "EN10MB"), sid(h, NET, "pcap"), U(-1),
	    U(1), U(0), U(-1), U(ip ? 0x800 : 0x806), smac, dmac,
	    U(0x0a000001), U(0x0a000002), U(ip ? 17 : -1), U(ip ? len - 14 : 0),
	    U(ip ? ipid : (uint64_t)-1), U(0), U(0));
}

/* net_switch -p: the ports come from the queued NIC contexts, the MACs
 * learned, the topology's ports (ports 0 and 1; port 2 has no row), and
 * the NIC that takes a copy whose port was left open */
static void
test_switch_pcap(void **state)
{
	struct h *h = setup_topo(topo_switch, "", 0);
	const struct ssp_rec *in, *out;

	(void)state;
	/* n1 -> n2: in by port 0 (n1's tx context), out by the one other port */
	nic1(h, N1, 100, SSP_EV_NIC_TX, 60, 0);
	seen(h, 200, 0, UINT32_MAX, 0xa1, 0xb1, 60, 1);
	nic1(h, N2, 300, SSP_EV_NIC_RX, 0, 60);
	/* a broadcast from port 2: no context anywhere, a root; two copies,
	 * as many as the topology's ports: 0 and 1 */
	seen(h, 400, 0, UINT32_MAX, 0xc1, 0xffffffffffffULL, 42, 0);
	seen(h, 400, 0, UINT32_MAX, 0xc1, 0xffffffffffffULL, 42, 0);
	nic1(h, N1, 500, SSP_EV_NIC_RX, 0, 42);
	nic1(h, N2, 510, SSP_EV_NIC_RX, 0, 42);
	/* n2 -> n1 by the MACs learned: b1 at port 1 (the first packet's
	 * one port), a1 at port 0 */
	nic1(h, N2, 550, SSP_EV_NIC_TX, 74, 0);
	seen(h, 600, 0, UINT32_MAX, 0xb1, 0xa1, 74, 2);
	nic1(h, N1, 650, SSP_EV_NIC_RX, 0, 74);
	/* n1's broadcast to ports 1 and 2: two copies, one other port in the
	 * topology: n2 takes one (its port: 1), the other's port stays open */
	nic1(h, N1, 700, SSP_EV_NIC_TX, 42, 0);
	seen(h, 800, 0, UINT32_MAX, 0xa1, 0xffffffffffffULL, 42, 0);
	seen(h, 800, 0, UINT32_MAX, 0xa1, 0xffffffffffffULL, 42, 0);
	nic1(h, N2, 850, SSP_EV_NIC_RX, 0, 42);
	finish(h);

	in = port_at(h, 200, 0);
	out = port_at(h, 200, 1);
	assert_true(in->f[SSP_SF_PARENT] == span_at(h, SSP_SK_NIC_TX, 100)->f[SSP_SF_SPAN]);
	assert_true(out->f[SSP_SF_PARENT] == in->f[SSP_SF_SPAN]);
	assert_true(span_at(h, SSP_SK_NIC_RX, 300)->f[SSP_SF_PARENT] == out->f[SSP_SF_SPAN]);
	in = port_at(h, 400, UINT32_MAX);
	assert_true(in->f[SSP_SF_PARENT] == 0);
	assert_int_equal(in->f[SSP_SF_FLAGS], 0);
	assert_true(port_at(h, 400, 0)->f[SSP_SF_PARENT] == in->f[SSP_SF_SPAN]);
	assert_true(span_at(h, SSP_SK_NIC_RX, 500)->f[SSP_SF_PARENT] ==
	    port_at(h, 400, 0)->f[SSP_SF_SPAN]);
	assert_true(span_at(h, SSP_SK_NIC_RX, 510)->f[SSP_SF_PARENT] ==
	    port_at(h, 400, 1)->f[SSP_SF_SPAN]);
	assert_true(port_at(h, 600, 1)->f[SSP_SF_PARENT] ==
	    span_at(h, SSP_SK_NIC_TX, 550)->f[SSP_SF_SPAN]);
	assert_true(span_at(h, SSP_SK_NIC_RX, 650)->f[SSP_SF_PARENT] ==
	    port_at(h, 600, 0)->f[SSP_SF_SPAN]);
	in = port_at(h, 800, 0);
	out = port_at(h, 800, 1);
	assert_true(out->f[SSP_SF_PARENT] == in->f[SSP_SF_SPAN]);
	assert_true(span_at(h, SSP_SK_NIC_RX, 850)->f[SSP_SF_PARENT] == out->f[SSP_SF_SPAN]);
	check_invariants(h);
	teardown(h);
}

/* ns-3 per-device captures: n1 - node 0 - node 1 (a router) - node 2 -
 * n2, the links between nodes as n2n rows */
static const char topo_pcap[] =
    "stream,h1,host\n"
    "stream,h2,host\n"
    "stream,n1,nic\n"
    "stream,n2,nic\n"
    "stream,net,net\n"
    "pcie,h1,n1\n"
    "pcie,h2,n2\n"
    "eth,n1,net,0,0\n"
    "eth,n2,net,2,0\n"
    "n2n,net,0,1,net,1,0\n"
    "n2n,net,1,1,net,2,1\n";

/* The span of a sighting at node/dev at ts. */
static const struct ssp_rec *
dev_at(const struct h *h, int64_t ts, unsigned node, unsigned dev)
{
	size_t i;

	for (i = 0; i < h->nrec; i++)
		if (h->recs[i].type == SSP_SK_NET_DEVICE && h->recs[i].ts == ts &&
		    h->recs[i].f[SSP_SA_NET_NODE] == node &&
		    h->recs[i].f[SSP_SA_NET_DEV] == dev)
			return &h->recs[i];
	fail_msg("no net.device span at %u/%u at %lld", node, dev, (long long)ts);
	return NULL;
}

#define PARENT_IS(c, p) assert_true((c)->f[SSP_SF_PARENT] == (p)->f[SSP_SF_SPAN])

static void
test_pcap_devices(void **state)
{
	struct h *h = setup_topo(topo_pcap, "", 0);

	(void)state;
	/* n1 -> n2: every hop a sighting, the router's two at one time, in
	 * the order of reception and send */
	nic1(h, N1, 100, SSP_EV_NIC_TX, 60, 0);
	seen(h, 200, 0, 0, 0xa1, 0xb1, 60, 1);	/* from n1 */
	seen(h, 210, 0, 1, 0xa1, 0xb1, 60, 1);	/* node 0 sends */
	seen(h, 300, 1, 0, 0xa1, 0xb1, 60, 1);	/* node 1 receives */
	seen(h, 300, 1, 1, 0xa1, 0xb1, 60, 1);	/* and sends */
	seen(h, 400, 2, 1, 0xa1, 0xb1, 60, 1);
	seen(h, 410, 2, 0, 0xa1, 0xb1, 60, 1);	/* to n2 */
	nic1(h, N2, 500, SSP_EV_NIC_RX, 0, 60);
	/* the other way, the router's send first in the stream: the n2n peer
	 * that saw the packet tells which is the reception */
	seen(h, 600, 2, 1, 0xb1, 0xa1, 60, 2);	/* node 2 sends (origin) */
	seen(h, 700, 1, 0, 0xb1, 0xa1, 60, 2);	/* node 1 sends ... */
	seen(h, 700, 1, 1, 0xb1, 0xa1, 60, 2);	/* ... what it received */
	seen(h, 800, 0, 1, 0xb1, 0xa1, 60, 2);
	finish(h);

	PARENT_IS(dev_at(h, 200, 0, 0), span_at(h, SSP_SK_NIC_TX, 100));
	PARENT_IS(dev_at(h, 210, 0, 1), dev_at(h, 200, 0, 0));
	PARENT_IS(dev_at(h, 300, 1, 0), dev_at(h, 210, 0, 1));
	PARENT_IS(dev_at(h, 300, 1, 1), dev_at(h, 300, 1, 0));
	PARENT_IS(dev_at(h, 400, 2, 1), dev_at(h, 300, 1, 1));
	PARENT_IS(dev_at(h, 410, 2, 0), dev_at(h, 400, 2, 1));
	PARENT_IS(span_at(h, SSP_SK_NIC_RX, 500), dev_at(h, 410, 2, 0));
	PARENT_IS(dev_at(h, 700, 1, 1), dev_at(h, 600, 2, 1));
	PARENT_IS(dev_at(h, 700, 1, 0), dev_at(h, 700, 1, 1));
	PARENT_IS(dev_at(h, 800, 0, 1), dev_at(h, 700, 1, 0));
	root_is(h, SSP_SK_NET_DEVICE, 600, SSP_SPAN_ORPHAN, "packet");
	check_invariants(h);
	teardown(h);
}

/* NIC msix -> host msix (+ the completed DMA id 0 that follows) */
static void
test_msix(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	nic1(h, N2, 100, SSP_EV_NIC_RX, 0, 60);
	nic1(h, N2, 200, SSP_EV_NIC_MSIX, 1, 0);
	nic1(h, N2, 210, SSP_EV_NIC_MSI, 2, 0);
	feed(h, H2, 700, SSP_EV_MSIX, 2, sid(h, H2, "system.pc.simbricks_1"), U(1));
	hdone(h, H2, 710, SSP_EV_DMA_DONE, 0);
	hmsix(h, H2, 720, 9);		/* vector differs from the NIC's */
	hdone(h, H2, 730, SSP_EV_DMA_DONE, 0);
	hdone(h, H2, 740, SSP_EV_DMA_DONE, 0);	/* no interrupt open */
	finish(h);
	parent_is(h, SSP_SK_NIC_MSIX, 200, SSP_SK_NIC_RX, 100);
	parent_is(h, SSP_SK_HOST_MSIX, 700, SSP_SK_NIC_MSIX, 200);
	parent_is(h, SSP_SK_HOST_MSIX, 720, SSP_SK_NIC_MSIX, 210);
	assert_int_equal(span_at(h, SSP_SK_HOST_MSIX, 700)->f[SSP_SF_DUR], 10);
	assert_int_equal(span_at(h, SSP_SK_NIC_MSIX, 210)->f[SSP_SA_NMSIX_MSI], 1);
	assert_int_equal(ssp_spanb_stats(h->b)->msix_mismatch, 1);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_NO_START], 1);
	root_is(h, SSP_SK_NIC_RX, 100, SSP_SPAN_ORPHAN, "rx");
	check_invariants(h);
	teardown(h);
}

/* NIC tx -> network device spans chained per packet uid -> NIC rx ->
 * receiving syscall; two packets interleaved in the network */
static void
test_network_chain(void **state)
{
	struct h *h = setup("", 0);
	const struct ssp_rec *s;

	(void)state;
	fn(h, H1, 10, "entry_SYSCALL_64");
	mmio_wr(h, H1, 20, 1, 0, 0x108000, 1);
	posted(h, H1, 20);
	nic_wr(h, N1, 100, 0x108000);
	nic1(h, N1, 200, SSP_EV_NIC_TX, 98, 0);
	nic1(h, N1, 210, SSP_EV_NIC_TX, 98, 0);
	net(h, 300, SSP_EV_NET_ENQ, 1, 2, 5, 1, SSP_NET_FROM_ADAPTER);
	net(h, 300, SSP_EV_NET_DEQ, 1, 2, 5, 1, 0);
	net(h, 300, SSP_EV_NET_ENQ, 1, 1, 5, 1, 0);
	net(h, 310, SSP_EV_NET_ENQ, 1, 2, 6, 1, SSP_NET_FROM_ADAPTER);
	net(h, 310, SSP_EV_NET_DEQ, 1, 2, 6, 1, 0);
	net(h, 310, SSP_EV_NET_ENQ, 1, 1, 6, 1, 0);
	net(h, 320, SSP_EV_NET_DEQ, 1, 1, 6, 1, 0);	/* 6 overtakes 5 */
	net(h, 330, SSP_EV_NET_DEQ, 1, 1, 5, 1, 0);
	net(h, 340, SSP_EV_NET_ENQ, 0, 2, 6, 1, 0);
	net(h, 345, SSP_EV_NET_ENQ, 0, 2, 5, 1, 0);
	net(h, 350, SSP_EV_NET_DEQ, 0, 2, 6, 1, SSP_NET_TO_ADAPTER);
	net(h, 360, SSP_EV_NET_DEQ, 0, 2, 5, 1, SSP_NET_TO_ADAPTER);
	nic1(h, N2, 400, SSP_EV_NIC_RX, 0, 98);
	nic1(h, N2, 410, SSP_EV_NIC_RX, 0, 98);
	fn(h, H2, 500, "entry_SYSCALL_64");
	fn(h, H2, 510, "i40e_napi_poll");	/* receives both: parent + link */
	finish(h);
	parent_is(h, SSP_SK_NIC_TX, 200, SSP_SK_NIC_MMIO, 100);
	parent_is(h, SSP_SK_NET_DEVICE, 300, SSP_SK_NIC_TX, 200);
	parent_is(h, SSP_SK_NET_DEVICE, 310, SSP_SK_NIC_TX, 210);
	/* second hop: by uid, not by arrival order */
	s = span_at(h, SSP_SK_NET_DEVICE, 345);
	assert_int_equal(s->f[SSP_SA_NET_UID], 5);
	parent_is(h, SSP_SK_NET_DEVICE, 345, SSP_SK_NET_DEVICE, 300);
	{
		const struct ssp_rec *p = by_id(h, s->f[SSP_SF_PARENT]);

		assert_int_equal(p->f[SSP_SA_NET_DEV], 1);	/* (1,1) hop of uid 5 */
		assert_int_equal(p->f[SSP_SA_NET_UID], 5);
	}
	parent_is(h, SSP_SK_NET_DEVICE, 340, SSP_SK_NET_DEVICE, 310);
	assert_int_equal(span_at(h, SSP_SK_NET_DEVICE, 340)->f[SSP_SA_NET_BOUNDARY],
	    SSP_NET_TO_ADAPTER);
	/* NIC rx in the order packets left the network */
	parent_is(h, SSP_SK_NIC_RX, 400, SSP_SK_NET_DEVICE, 340);
	parent_is(h, SSP_SK_NIC_RX, 410, SSP_SK_NET_DEVICE, 345);
	/* the receiving syscall: oldest rx as parent, a link to the other */
	parent_is(h, SSP_SK_HOST_SYSCALL, 500, SSP_SK_NIC_RX, 400);
	assert_int_equal(count(h, SSP_SPAN_T_LINK), 1);
	{
		size_t i;

		for (i = 0; i < h->nrec; i++)
			if (h->recs[i].type == SSP_SPAN_T_LINK) {
				const struct ssp_rec *a = by_id(h, h->recs[i].f[SSP_LF_SPAN]);
				const struct ssp_rec *b = by_id(h, h->recs[i].f[SSP_LF_TARGET]);

				assert_int_equal(a->type, SSP_SK_HOST_SYSCALL);
				assert_int_equal(b->type, SSP_SK_NIC_RX);
				assert_int_equal(b->ts, 410);
				assert_string_equal(ostr(h, h->recs[i].f[SSP_LF_KIND]), "rx");
			}
	}
	assert_int_equal(ssp_spanb_stats(h->b)->links, 1);
	check_invariants(h);
	teardown(h);
}

/* Only rx contexts that started before the syscall count for it */
static void
test_receive_window(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	nic1(h, N2, 100, SSP_EV_NIC_RX, 0, 60);
	fn(h, H2, 200, "entry_SYSCALL_64");
	nic1(h, N2, 250, SSP_EV_NIC_RX, 0, 60);	/* after the syscall began */
	fn(h, H2, 300, "netif_receive_skb_list_internal");
	fn(h, H2, 400, "entry_SYSCALL_64");
	fn(h, H2, 410, "kfree");		/* does not receive */
	fn(h, H2, 500, "entry_SYSCALL_64");
	fn(h, H2, 510, "i40e_napi_poll");
	fn(h, H2, 600, "entry_SYSCALL_64");
	fn(h, H2, 610, "i40e_napi_poll");	/* nothing pending: a plain root */
	finish(h);
	parent_is(h, SSP_SK_HOST_SYSCALL, 200, SSP_SK_NIC_RX, 100);
	root_is(h, SSP_SK_HOST_SYSCALL, 400, 0, "");
	parent_is(h, SSP_SK_HOST_SYSCALL, 500, SSP_SK_NIC_RX, 250);
	root_is(h, SSP_SK_HOST_SYSCALL, 600, SSP_SPAN_OPEN, "");
	assert_int_equal(count(h, SSP_SPAN_T_LINK), 0);
	check_invariants(h);
	teardown(h);
}

/* Background traffic: dropped inside ns-3, a new trace at an adapter */
static void
test_background_adapter(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	net(h, 100, SSP_EV_NET_ENQ, 3, 1, 40, 0, 0);	/* never reaches a NIC */
	net(h, 110, SSP_EV_NET_DEQ, 3, 1, 40, 0, 0);
	net(h, 120, SSP_EV_NET_ENQ, 0, 2, 41, 0, 0);	/* at the adapter device */
	net(h, 130, SSP_EV_NET_DEQ, 0, 2, 41, 0, 0);	/* ... but not to it */
	net(h, 140, SSP_EV_NET_ENQ, 0, 2, 42, 0, 0);
	net(h, 150, SSP_EV_NET_DEQ, 0, 2, 42, 0, SSP_NET_TO_ADAPTER);
	net(h, 160, SSP_EV_NET_DROP, 3, 1, 43, 0, 0);	/* dropped background */
	/* a broadcast: copies of uid 44 reach both NICs and a third port */
	net(h, 170, SSP_EV_NET_ENQ, 0, 2, 44, 0, 0);
	net(h, 171, SSP_EV_NET_DEQ, 0, 2, 44, 0, SSP_NET_TO_ADAPTER);
	net(h, 172, SSP_EV_NET_ENQ, 0, 3, 44, 0, 0);
	net(h, 173, SSP_EV_NET_ENQ, 1, 2, 44, 0, 0);
	net(h, 174, SSP_EV_NET_DEQ, 0, 3, 44, 0, 0);
	net(h, 175, SSP_EV_NET_DEQ, 1, 2, 44, 0, SSP_NET_TO_ADAPTER);
	nic1(h, N2, 200, SSP_EV_NIC_RX, 0, 60);
	fn(h, H2, 300, "entry_SYSCALL_64");
	fn(h, H2, 310, "i40e_napi_poll");
	finish(h);
	assert_int_equal(count(h, SSP_SK_NET_DEVICE), 3);
	root_is(h, SSP_SK_NET_DEVICE, 170, SSP_SPAN_BACKGROUND, "");
	root_is(h, SSP_SK_NET_DEVICE, 173, SSP_SPAN_BACKGROUND, "");
	root_is(h, SSP_SK_NET_DEVICE, 140, SSP_SPAN_BACKGROUND, "");
	parent_is(h, SSP_SK_NIC_RX, 200, SSP_SK_NET_DEVICE, 140);
	parent_is(h, SSP_SK_HOST_SYSCALL, 300, SSP_SK_NIC_RX, 200);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_BACKGROUND], 7);
	assert_int_equal(ssp_spanb_stats(h->b)->background, 3);
	check_invariants(h);
	teardown(h);
}

static void
test_background_all(void **state)
{
	struct h *h = setup("background,all\n", 0);

	(void)state;
	net(h, 100, SSP_EV_NET_ENQ, 3, 1, 40, 0, 0);
	net(h, 110, SSP_EV_NET_DEQ, 3, 1, 40, 0, 0);
	net(h, 120, SSP_EV_NET_ENQ, 4, 1, 40, 0, 0);
	net(h, 130, SSP_EV_NET_DROP, 4, 1, 40, 0, 0);
	finish(h);
	root_is(h, SSP_SK_NET_DEVICE, 100, SSP_SPAN_BACKGROUND, "");
	parent_is(h, SSP_SK_NET_DEVICE, 120, SSP_SK_NET_DEVICE, 100);
	assert_int_equal(span_at(h, SSP_SK_NET_DEVICE, 120)->f[SSP_SA_NET_DROPPED], 1);
	assert_int_equal(span_at(h, SSP_SK_NET_DEVICE, 120)->f[SSP_SF_FLAGS],
	    SSP_SPAN_BACKGROUND);
	check_invariants(h);
	teardown(h);
}

/* ns-3 drops: a device span ended by a drop, or a lone drop */
static void
test_net_drops_and_uids(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	nic1(h, N1, 10, SSP_EV_NIC_TX, 98, 0);
	net(h, 20, SSP_EV_NET_ENQ, 1, 2, 5, 1, SSP_NET_FROM_ADAPTER);
	net(h, 25, SSP_EV_NET_DEQ, 1, 2, 5, 1, 0);
	net(h, 30, SSP_EV_NET_ENQ, 1, 1, 5, 1, 0);
	net(h, 40, SSP_EV_NET_DROP, 1, 1, 5, 1, 0);	/* queue drop */
	net(h, 50, SSP_EV_NET_DROP, 2, 1, 5, 1, 0);	/* PhyRxDrop, no enqueue */
	net(h, 60, SSP_EV_NET_DEQ, 2, 1, 5, 1, 0);	/* no enqueue */
	net(h, 70, SSP_EV_NET_ENQ, 2, 1, -1, 1, 0);	/* no uid */
	net(h, 80, SSP_EV_NET_RX, 2, 1, 5, 1, 0);	/* ascii 'r' */
	finish(h);
	parent_is(h, SSP_SK_NET_DEVICE, 30, SSP_SK_NET_DEVICE, 20);
	assert_int_equal(span_at(h, SSP_SK_NET_DEVICE, 30)->f[SSP_SA_NET_DROPPED], 1);
	assert_int_equal(span_at(h, SSP_SK_NET_DEVICE, 30)->f[SSP_SF_DUR], 10);
	parent_is(h, SSP_SK_NET_DEVICE, 50, SSP_SK_NET_DEVICE, 20);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_NO_START], 1);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_NO_UID], 1);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_NO_RULE], 1);
	check_invariants(h);
	teardown(h);
}

/* pci config span (pci_host access + config line) and interrupt span */
static void
test_pci_and_intr(void **state)
{
	struct h *h = setup("", 0);
	const struct ssp_rec *s;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	feed(h, H1, 200, SSP_EV_PCIHOST_RD, 6, sid(h, H1, "system.pc.pci_host"),
	    U(0), U(4), U(0), U(0x4), U(2));
	feed(h, H1, 200, SSP_EV_CFG_RD, 6, sid(h, H1, COMP), U(0), U(0), U(0x4),
	    U(2), U(0x6));
	feed(h, H1, 300, SSP_EV_PCIHOST_WR, 6, sid(h, H1, "system.pc.pci_host"),
	    U(0), U(5), U(0), U(0x10), U(4));	/* another device: no config line */
	feed(h, H1, 400, SSP_EV_CFG_WR, 6, sid(h, H1, COMP), U(0), U(0), U(0x3d),
	    U(1), U(0x1));			/* config line alone */
	feed(h, H1, 500, SSP_EV_POST_INT, 4,
	    sid(h, H1, "system.pc.pci_host.interface[00:04.0]"), U(0), U(4), U(0));
	feed(h, H1, 560, SSP_EV_CLEAR_INT, 4,
	    sid(h, H1, "system.pc.pci_host.interface[00:04.0]"), U(0), U(4), U(0));
	finish(h);
	parent_is(h, SSP_SK_HOST_PCI, 200, SSP_SK_HOST_SYSCALL, 100);
	s = span_at(h, SSP_SK_HOST_PCI, 200);
	assert_int_equal(s->f[SSP_SA_HPCI_REG], 0x4);
	assert_int_equal(s->f[SSP_SA_HPCI_DATA], 0x6);
	assert_string_equal(ostr(h, s->f[SSP_SA_HPCI_COMP]), COMP);
	s = span_at(h, SSP_SK_HOST_PCI, 300);
	assert_int_equal(s->f[SSP_SA_HPCI_WRITE], 1);
	assert_int_equal(s->f[SSP_SA_HPCI_REG], 0x10);
	assert_int_equal(s->f[SSP_SA_HPCI_DEV], 5);
	assert_int_equal(span_at(h, SSP_SK_HOST_PCI, 400)->f[SSP_SA_HPCI_REG], 0x3d);
	parent_is(h, SSP_SK_HOST_INTR, 500, SSP_SK_HOST_SYSCALL, 100);
	assert_int_equal(span_at(h, SSP_SK_HOST_INTR, 500)->f[SSP_SF_DUR], 60);
	assert_int_equal(count(h, SSP_SK_HOST_PCI), 3);
	check_invariants(h);
	teardown(h);
}

/* A postInt/clearInt of interface [00:dd.0] of host H1. */
static void
intx(struct h *h, int64_t ts, unsigned dev, int post)
{
	char name[64];

	snprintf(name, sizeof(name), "system.pc.pci_host.interface[00:%02x.0]", dev);
	feed(h, H1, ts, post ? SSP_EV_POST_INT : SSP_EV_CLEAR_INT, 4,
	    sid(h, H1, name), U(0), U(dev), U(0));
}

/* Interrupt spans per interface: a disk's (00:04.0) postInt and clearInt
 * between a NIC's (00:00.0) split nothing; a second postInt of one
 * interface ends its first; a clearInt with nothing open is a span. */
static void
test_intr_interleaved(void **state)
{
	struct h *h = setup("", 0);
	const struct ssp_rec *s;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	intx(h, 500, 0, 1);
	intx(h, 600, 4, 1);
	intx(h, 650, 4, 0);
	intx(h, 800, 0, 0);
	intx(h, 900, 0, 1);
	intx(h, 950, 0, 1);
	intx(h, 1000, 0, 0);
	intx(h, 1100, 4, 0);
	intx(h, 1200, 5, 1);		/* open at the end */
	finish(h);
	assert_int_equal(count(h, SSP_SK_HOST_INTR), 6);
	s = span_at(h, SSP_SK_HOST_INTR, 500);
	assert_int_equal(s->f[SSP_SF_DUR], 300);
	assert_int_equal(s->f[SSP_SF_FLAGS], 0);
	assert_string_equal(ostr(h, s->f[SSP_SA_HINTR_COMP]),
	    "system.pc.pci_host.interface[00:00.0]");
	s = span_at(h, SSP_SK_HOST_INTR, 600);
	assert_int_equal(s->f[SSP_SF_DUR], 50);
	assert_int_equal(s->f[SSP_SF_FLAGS], 0);
	assert_string_equal(ostr(h, s->f[SSP_SA_HINTR_COMP]),
	    "system.pc.pci_host.interface[00:04.0]");
	parent_is(h, SSP_SK_HOST_INTR, 500, SSP_SK_HOST_SYSCALL, 100);
	parent_is(h, SSP_SK_HOST_INTR, 600, SSP_SK_HOST_SYSCALL, 100);
	assert_int_equal(span_at(h, SSP_SK_HOST_INTR, 900)->f[SSP_SF_FLAGS],
	    SSP_SPAN_INCOMPLETE);
	assert_int_equal(span_at(h, SSP_SK_HOST_INTR, 950)->f[SSP_SF_DUR], 50);
	s = span_at(h, SSP_SK_HOST_INTR, 1100);
	assert_int_equal(s->f[SSP_SF_DUR], 0);
	assert_int_equal(s->f[SSP_SF_FLAGS], 0);
	assert_int_equal(span_at(h, SSP_SK_HOST_INTR, 1200)->f[SSP_SF_FLAGS],
	    SSP_SPAN_OPEN);
	assert_int_equal(ssp_spanb_stats(h->b)->intx_overflow, 0);
	check_invariants(h);
	teardown(h);
}

/* More interfaces raised at once than the table holds: the oldest ends
 * INCOMPLETE and is counted; the others still pair with their clearInt,
 * whatever the order of the clearInts. */
static void
test_intr_overflow(void **state)
{
	struct h *h = setup("", 0);
	unsigned d;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	for (d = 0; d <= SSP_SPANB_INTX_MAX; d++)
		intx(h, 200 + 10 * d, d, 1);
	for (d = SSP_SPANB_INTX_MAX; d >= 1; d--)
		intx(h, 1000 + 10 * (SSP_SPANB_INTX_MAX - d), d, 0);
	finish(h);
	assert_int_equal(ssp_spanb_stats(h->b)->intx_overflow, 1);
	assert_int_equal(count(h, SSP_SK_HOST_INTR), SSP_SPANB_INTX_MAX + 1);
	assert_int_equal(span_at(h, SSP_SK_HOST_INTR, 200)->f[SSP_SF_FLAGS],
	    SSP_SPAN_INCOMPLETE);
	for (d = 1; d <= SSP_SPANB_INTX_MAX; d++) {
		const struct ssp_rec *s = span_at(h, SSP_SK_HOST_INTR, 200 + 10 * d);

		assert_int_equal(s->f[SSP_SF_FLAGS], 0);
		assert_int_equal(s->f[SSP_SF_DUR], 1000 + 10 *
		    (SSP_SPANB_INTX_MAX - d) - (200 + 10 * d));
	}
	check_invariants(h);
	teardown(h);
}

/* root,net-syscalls leaves out syscalls that touched no network code */
static void
test_root_net_syscalls(void **state)
{
	struct h *h = setup("root,net-syscalls\n", 0);

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	fn(h, H1, 110, "vfs_read");
	mmio_wr(h, H1, 120, 1, 3, 0x10, 0);	/* BAR 3: stays in gem5 */
	fn(h, H1, 200, "entry_SYSCALL_64");
	fn(h, H1, 210, "tcp_sendmsg");		/* linux-net: kept */
	fn(h, H1, 300, "entry_SYSCALL_64");
	mmio_wr(h, H1, 310, 2, 0, 0x20, 1);	/* makes the NIC work: kept */
	posted(h, H1, 310);
	fn(h, H1, 400, "entry_SYSCALL_64");	/* open at the end, no network */
	finish(h);
	assert_int_equal(count(h, SSP_SK_HOST_SYSCALL), 2);
	span_at(h, SSP_SK_HOST_SYSCALL, 200);
	parent_is(h, SSP_SK_HOST_MMIO, 310, SSP_SK_HOST_SYSCALL, 300);
	assert_int_equal(count(h, SSP_SK_HOST_MMIO), 1);
	assert_int_equal(ssp_spanb_stats(h->b)->suppressed, 3);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_NONNET], 4);
	check_invariants(h);
	teardown(h);
}

/* --events: each span is followed by its member events, strings mapped */
static void
test_member_events(void **state)
{
	struct h *h = setup("", 1);
	size_t i;
	int seen = 0;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	fn(h, H1, 110, "__sys_sendto");
	mmio_rd(h, H1, 120, 4, 0, 0x10);
	hdone(h, H1, 130, SSP_EV_MMIO_RD_DONE, 4);
	fn(h, H1, 200, "entry_SYSCALL_64");
	finish(h);
	for (i = 0; i < h->nrec; i++) {
		const struct ssp_rec *r = &h->recs[i];

		if (r->type != SSP_SK_HOST_SYSCALL || r->ts != 100)
			continue;
		assert_int_equal(h->recs[i + 1].type, SSP_SPAN_T_EV0 + SSP_EV_FUNC);
		assert_int_equal(h->recs[i + 2].type, SSP_SPAN_T_EV0 + SSP_EV_FUNC);
		assert_int_equal(h->recs[i + 2].ts, 110);
		assert_true(h->recs[i + 2].f[SSP_EF_SPAN] == r->f[SSP_SF_SPAN]);
		assert_int_equal(h->recs[i + 2].f[SSP_EF_STREAM], H1);
		assert_string_equal(ostr(h, h->recs[i + 2].f[SSP_EF_NCOMMON +
		    SSP_F_FUNC_SYM]), "__sys_sendto");
		seen = 1;
	}
	assert_true(seen);
	assert_int_equal(count(h, SSP_SPAN_T_EV0 + SSP_EV_MMIO_RD_DONE), 1);
	check_invariants(h);
	teardown(h);
}

/* Input string ids may start over (concatenated segments) */
static void
test_strings_reset(void **state)
{
	struct h *h = setup("", 0);
	unsigned i;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	/* new segment: ids redefined in another order */
	for (i = 0; i < h->nin[H1]; i++)
		free(h->in[H1][i]);
	h->nin[H1] = 0;
	ssp_spanb_strings_reset(h->b, H1);
	sid(h, H1, "i40e_napi_poll");
	fn(h, H1, 200, "entry_SYSCALL_64");
	finish(h);
	assert_int_equal(count(h, SSP_SK_HOST_SYSCALL), 2);
	assert_string_equal(ostr(h, span_at(h, SSP_SK_HOST_SYSCALL, 200)->f[
	    SSP_SA_SYSCALL_ENTRY]), "entry_SYSCALL_64");
	check_invariants(h);
	teardown(h);
}

/* A stream that ends early (truncated): its open spans are closed then */
static void
test_stream_end(void **state)
{
	struct h *h = setup("", 0);
	struct ssp_err e;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	mmio_rd(h, H1, 110, 1, 0, 0x10);
	assert_int_equal(ssp_spanb_stream_end(h->b, H1, &e), SSP_OK);
	/* written at once: the syscall was the root */
	assert_int_equal(count(h, SSP_SK_HOST_SYSCALL), 1);
	assert_int_equal(count(h, SSP_SK_HOST_MMIO), 1);
	nic_rd(h, N1, 500, 0x10);		/* the context was sent before */
	fn(h, H1, 600, "entry_SYSCALL_64");	/* after the end: not used */
	finish(h);
	parent_is(h, SSP_SK_NIC_MMIO, 500, SSP_SK_HOST_MMIO, 110);
	assert_true(span_at(h, SSP_SK_HOST_MMIO, 110)->f[SSP_SF_FLAGS] == SSP_SPAN_OPEN);
	assert_int_equal(ssp_spanb_stats(h->b)->drop[SSP_DROP_FOREIGN], 1);
	check_invariants(h);
	teardown(h);
}

/* Children wait for an unwritten parent; nothing is written early */
static void
test_write_order(void **state)
{
	struct h *h = setup("", 0);

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	mmio_wr(h, H1, 200, 1, 0, 0x108000, 1);
	posted(h, H1, 200);
	nic_wr(h, N1, 700, 0x108000);
	nic1(h, N1, 800, SSP_EV_NIC_TX, 98, 0);
	net(h, 900, SSP_EV_NET_ENQ, 1, 2, 1, 1, SSP_NET_FROM_ADAPTER);
	net(h, 950, SSP_EV_NET_DEQ, 1, 2, 1, 1, 0);
	assert_int_equal(h->nrec, 0);	/* all wait for the open syscall */
	fn(h, H1, 1000, "entry_SYSCALL_64");
	assert_int_equal(count(h, SSP_SK_NET_DEVICE), 1);
	assert_int_equal(h->recs[0].type, SSP_SK_HOST_SYSCALL);
	finish(h);
	check_invariants(h);
	teardown(h);
}

/* A span with links waits for its link targets, and its link records
 * follow it at once: the receiving syscall is finished and its parent (an
 * orphan rx) written, but the second rx it links to hangs in a trace whose
 * root syscall on the other host is still running. */
static void
test_link_order(void **state)
{
	struct h *h = setup("", 1);
	const struct ssp_rec *sc, *rx2;
	size_t i, isc = 0, irx2 = 0;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");		/* S1: open until 800 */
	mmio_wr(h, H1, 200, 1, 0, 0x108000, 1);
	posted(h, H1, 200);
	nic_wr(h, N1, 300, 0x108000);
	nic1(h, N1, 400, SSP_EV_NIC_TX, 98, 0);
	nic1(h, N2, 450, SSP_EV_NIC_RX, 0, 60);		/* rx1: an orphan root */
	net(h, 500, SSP_EV_NET_ENQ, 1, 2, 1, 1, SSP_NET_FROM_ADAPTER);
	net(h, 510, SSP_EV_NET_DEQ, 1, 2, 1, 1, 0);
	net(h, 520, SSP_EV_NET_ENQ, 0, 2, 1, 1, 0);
	net(h, 530, SSP_EV_NET_DEQ, 0, 2, 1, 1, SSP_NET_TO_ADAPTER);
	nic1(h, N2, 540, SSP_EV_NIC_RX, 0, 98);		/* rx2: under S1 */
	fn(h, H2, 600, "entry_SYSCALL_64");		/* S2 receives both */
	fn(h, H2, 610, "i40e_napi_poll");
	fn(h, H2, 700, "entry_SYSCALL_64");		/* S2 is finished */
	/* rx1 is out; S2's parent is written, but its link target is not */
	assert_int_equal(count(h, SSP_SK_NIC_RX), 1);
	assert_int_equal(count(h, SSP_SK_HOST_SYSCALL), 0);
	assert_int_equal(count(h, SSP_SPAN_T_LINK), 0);
	fn(h, H1, 800, "entry_SYSCALL_64");		/* S1 ends: all follow */
	assert_int_equal(count(h, SSP_SK_NIC_RX), 2);
	assert_int_equal(count(h, SSP_SK_HOST_SYSCALL), 2);	/* S1, S2 */
	assert_int_equal(count(h, SSP_SPAN_T_LINK), 1);
	finish(h);
	parent_is(h, SSP_SK_HOST_SYSCALL, 600, SSP_SK_NIC_RX, 450);
	parent_is(h, SSP_SK_NIC_RX, 540, SSP_SK_NET_DEVICE, 520);
	sc = span_at(h, SSP_SK_HOST_SYSCALL, 600);
	rx2 = span_at(h, SSP_SK_NIC_RX, 540);
	for (i = 0; i < h->nrec; i++) {
		if (&h->recs[i] == sc)
			isc = i;
		if (&h->recs[i] == rx2)
			irx2 = i;
	}
	assert_true(irx2 < isc);
	/* S2, its two member events, its link, then the next span */
	assert_true(isc + 4 < h->nrec);
	assert_int_equal(h->recs[isc + 1].type, SSP_SPAN_T_EV0 + SSP_EV_FUNC);
	assert_int_equal(h->recs[isc + 2].type, SSP_SPAN_T_EV0 + SSP_EV_FUNC);
	assert_int_equal(h->recs[isc + 3].type, SSP_SPAN_T_LINK);
	assert_true(h->recs[isc + 3].f[SSP_LF_SPAN] == sc->f[SSP_SF_SPAN]);
	assert_true(h->recs[isc + 3].f[SSP_LF_TARGET] == rx2->f[SSP_SF_SPAN]);
	assert_true(h->recs[isc + 3].f[SSP_LF_TRACE_LO] == rx2->f[SSP_SF_TRACE_LO]);
	assert_true(h->recs[isc + 4].type < SSP_SK_NKINDS);
	check_invariants(h);
	teardown(h);
}

/* Unconsumed contexts are capped by context-limit */
static void
test_context_limit(void **state)
{
	struct h *h = setup("context-limit,2\n", 0);
	int i;

	(void)state;
	fn(h, H1, 10, "entry_SYSCALL_64");
	for (i = 0; i < 5; i++) {
		mmio_wr(h, H1, 100 + i, (uint64_t)i + 1, 0, 0x10, 1);
		posted(h, H1, 100 + i);
	}
	finish(h);
	assert_int_equal(ssp_spanb_stats(h->b)->ctx_overflow[SSP_CTX_MMIO], 3);
	assert_int_equal(ssp_spanb_stats(h->b)->ctx_unused[SSP_CTX_MMIO], 2);
	check_invariants(h);
	teardown(h);
}

/* Memory is bounded by open spans, not by input: many requests */
static void
test_memory_bounded(void **state)
{
	struct h *h = setup("packet-idle,1us\n", 0);
	int64_t i, t;

	(void)state;
	for (i = 0; i < 5000; i++) {
		t = 1000000 * i;
		fn(h, H1, t, "entry_SYSCALL_64");
		mmio_wr(h, H1, t + 10, (uint64_t)i, 0, 0x108000, 1);
		posted(h, H1, t + 10);
		nic_wr(h, N1, t + 100, 0x108000);
		nic1(h, N1, t + 200, SSP_EV_NIC_TX, 98, 0);
		net(h, t + 300, SSP_EV_NET_ENQ, 1, 2, i, 1, SSP_NET_FROM_ADAPTER);
		net(h, t + 310, SSP_EV_NET_DEQ, 1, 2, i, 1, 0);
		net(h, t + 320, SSP_EV_NET_ENQ, 0, 2, i, 1, 0);
		net(h, t + 330, SSP_EV_NET_DEQ, 0, 2, i, 1, SSP_NET_TO_ADAPTER);
		nic1(h, N2, t + 400, SSP_EV_NIC_RX, 0, 98);
		fn(h, H2, t + 500, "entry_SYSCALL_64");
		fn(h, H2, t + 510, "i40e_napi_poll");
		h->nrec = 0;	/* keep the harness small */
	}
	finish(h);
	assert_true(ssp_spanb_peak(h->b) < 40);
	assert_int_equal(ssp_spanb_live(h->b), 0);
	assert_true(ssp_spanb_stats(h->b)->packets_expired > 4000);
	teardown(h);
}

/* Same input, same output: bytes and ids */
static void
test_deterministic(void **state)
{
	struct h *a = setup("", 1), *b = setup("", 1);
	struct h *hs[2] = { a, b };
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct h *h = hs[k];

		fn(h, H1, 10, "entry_SYSCALL_64");
		mmio_wr(h, H1, 20, 1, 0, 0x108000, 1);
		posted(h, H1, 20);
		nic_wr(h, N1, 100, 0x108000);
		ndma(h, N1, 110, SSP_EV_NIC_DMA_ISSUE, 0x40);
		ndma(h, N1, 110, SSP_EV_NIC_DMA_EXEC, 0x40);
		hdma(h, H1, 200, 0, 0x40);
		nic1(h, N2, 300, SSP_EV_NIC_RX, 0, 60);
		nic1(h, N2, 310, SSP_EV_NIC_RX, 0, 60);
		fn(h, H2, 400, "entry_SYSCALL_64");
		fn(h, H2, 410, "i40e_napi_poll");
		finish(h);
	}
	assert_int_equal(a->nrec, b->nrec);
	for (k = 0; k < (int)a->nrec; k++) {
		assert_int_equal(a->recs[k].type, b->recs[k].type);
		assert_true(a->recs[k].ts == b->recs[k].ts);
		assert_int_equal(a->recs[k].nf, b->recs[k].nf);
		assert_memory_equal(a->recs[k].f, b->recs[k].f,
		    a->recs[k].nf * sizeof(uint64_t));
	}
	check_invariants(a);
	teardown(a);
	teardown(b);
}

/* The sink's status is what the builder returns, from the call that
 * failed on (with the sink's error record) and from every later call. */
static void
test_sink_errors_pass_on(void **state)
{
	struct h *h = setup("", 0);
	struct ssp_rec r;
	struct ssp_err e;

	(void)state;
	h->put_limit = 1;	/* the second record fails */
	fn(h, H1, 1000, "entry_SYSCALL_64");
	fn(h, H1, 2000, "__sys_sendto");
	fn(h, H1, 3000, "entry_SYSCALL_64");	/* writes the first syscall */
	memset(&r, 0, sizeof(r));
	r.ts = 4000;
	r.type = SSP_EV_FUNC;
	r.nf = ssp_event_schema.types[SSP_EV_FUNC].nf;
	r.f[SSP_F_FUNC_CPU] = sid(h, H1, "cpu0");
	r.f[SSP_F_FUNC_SYM] = sid(h, H1, "entry_SYSCALL_64");
	memset(&e, 0, sizeof(e));
	assert_int_equal(ssp_spanb_event(h->b, H1, &r, &e), SSP_ERR_LIMIT);
	assert_int_equal(e.code, SSP_ERR_LIMIT);
	assert_string_equal(e.msg, "put: full");
	assert_int_equal(ssp_spanb_stream_end(h->b, H2, &e), SSP_ERR_LIMIT);
	assert_int_equal(ssp_spanb_finish(h->b, &e), SSP_ERR_LIMIT);
	assert_int_equal(h->nrec, 1);
	teardown(h);

	h = setup("", 0);
	h->bad_str = "cpu1";	/* the cpu attribute's string */
	memset(&e, 0, sizeof(e));
	r.f[SSP_F_FUNC_CPU] = sid(h, H1, "cpu1");
	r.f[SSP_F_FUNC_SYM] = sid(h, H1, "entry_SYSCALL_64");
	assert_int_equal(ssp_spanb_event(h->b, H1, &r, &e), SSP_ERR_NOMEM);
	assert_string_equal(e.msg, "intern: no room");
	assert_int_equal(ssp_spanb_finish(h->b, &e), SSP_ERR_NOMEM);
	teardown(h);
}

#if SSP_ASSERTS
/* A stream index past the topology's is the caller's bug: with
 * ASSERTS=1 the builder aborts on it instead of indexing past its
 * arrays. */
static void
test_bad_stream_aborts(void **state)
{
	int how;

	(void)state;
	for (how = 0; how < 3; how++) {
		struct h *h = setup("", 0);
		struct ssp_rec r;
		struct ssp_err e;
		pid_t pid;
		int ws;

		memset(&r, 0, sizeof(r));
		r.type = SSP_EV_SYNC;
		fflush(NULL);
		if ((pid = fork()) == 0) {
			/* the message on stderr is the test's own noise */
			if (freopen("/dev/null", "w", stderr) == NULL)
				_exit(3);
			if (how == 0 && ssp_spanb_event(h->b, 5, &r, &e) == SSP_OK)
				_exit(0);
			if (how == 1 && ssp_spanb_stream_end(h->b, 99, &e) == SSP_OK)
				_exit(0);
			if (how == 2)
				ssp_spanb_strings_reset(h->b, 5);
			_exit(0);
		}
		assert_true(pid > 0);
		assert_int_equal(waitpid(pid, &ws, 0), pid);
		assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGABRT);
		teardown(h);
	}
}
#endif

/* The topology's streams with h1 a QEMU host, or n1 a Corundum Verilator
 * or an e1000 NIC (the simulators their headers name). */
static const enum ssp_sim sims_qemu[] = { SSP_SIM_QEMU, SSP_SIM_GEM5,
    SSP_SIM_NICBM, SSP_SIM_NICBM, SSP_SIM_NS3 };
static const enum ssp_sim sims_corundum[] = { SSP_SIM_GEM5, SSP_SIM_GEM5,
    SSP_SIM_CORUNDUM, SSP_SIM_NICBM, SSP_SIM_NS3 };
static const enum ssp_sim sims_e1000[] = { SSP_SIM_GEM5, SSP_SIM_GEM5,
    SSP_SIM_E1000, SSP_SIM_NICBM, SSP_SIM_NS3 };

/* QEMU: host.mmio spans are roots (no kernel spans), a read lasts to its
 * done line, a write is an instant; DMA and interrupt messages take the
 * NIC's DMAs and interrupts in order, whatever their ops. */
static void
test_qemu_host(void **state)
{
	struct h *h = setup_sims(topo_csv, "", 0, sims_qemu);
	const struct ssp_rec *s;

	(void)state;
	mmio_wr(h, H1, 200, 0, 0, 0x108000, 1);
	nic_wr(h, N1, 700, 0x108000);
	ndma(h, N1, 800, SSP_EV_NIC_DMA_ISSUE, 0x6000);
	ndma(h, N1, 800, SSP_EV_NIC_DMA_EXEC, 0x6000);
	ndma(h, N1, 900, SSP_EV_NIC_DMA_ISSUE, 0x5000);
	ndma(h, N1, 900, SSP_EV_NIC_DMA_EXEC, 0x5000);
	hdma(h, H1, 1000, 0, 0);
	hdma(h, H1, 1010, 1, 0);
	ndma(h, N1, 1500, SSP_EV_NIC_DMA_DONE_RD, 0x6000);
	ndma(h, N1, 1510, SSP_EV_NIC_DMA_DONE_WR, 0x5000);
	mmio_rd(h, H1, 2000, 0, 0, 0x20);
	nic_rd(h, N1, 2100, 0x20);
	hdone(h, H1, 2500, SSP_EV_MMIO_RD_DONE, 0);
	nic1(h, N1, 3000, SSP_EV_NIC_MSIX, 3, 0);
	hmsix(h, H1, 3400, 0);
	hdma(h, H1, 3500, 0, 0);	/* no NIC DMA left */
	finish(h);
	s = span_at(h, SSP_SK_HOST_MMIO, 200);
	assert_true(s->f[SSP_SF_PARENT] == 0);
	assert_int_equal(s->f[SSP_SF_DUR], 0);
	parent_is(h, SSP_SK_NIC_MMIO, 700, SSP_SK_HOST_MMIO, 200);
	parent_is(h, SSP_SK_NIC_DMA, 800, SSP_SK_NIC_MMIO, 700);
	parent_is(h, SSP_SK_HOST_DMA, 1000, SSP_SK_NIC_DMA, 800);
	parent_is(h, SSP_SK_HOST_DMA, 1010, SSP_SK_NIC_DMA, 900);
	s = span_at(h, SSP_SK_HOST_DMA, 1010);
	assert_int_equal(s->f[SSP_SA_HDMA_WRITE], 1);
	assert_int_equal(s->f[SSP_SA_HDMA_ADDR], 0x1000);	/* the NIC's */
	assert_int_equal(s->f[SSP_SA_HDMA_SIZE], 64);
	s = span_at(h, SSP_SK_HOST_MMIO, 2000);
	assert_true(s->f[SSP_SF_PARENT] == 0);
	assert_int_equal(s->f[SSP_SF_DUR], 500);
	parent_is(h, SSP_SK_NIC_MMIO, 2100, SSP_SK_HOST_MMIO, 2000);
	parent_is(h, SSP_SK_HOST_MSIX, 3400, SSP_SK_NIC_MSIX, 3000);
	assert_int_equal(span_at(h, SSP_SK_HOST_MSIX, 3400)->f[SSP_SA_HMSIX_VEC],
	    3);
	root_is(h, SSP_SK_HOST_DMA, 3500, SSP_SPAN_ORPHAN, "dma");
	check_invariants(h);
	teardown(h);
}

static void
ndone(struct h *h, int64_t ts, int write, uint64_t id, uint64_t off,
    uint64_t val)
{
	if (write)
		feed(h, N1, ts, SSP_EV_NIC_WR_DONE, 4, id, off, val, U(1));
	else
		feed(h, N1, ts, SSP_EV_NIC_RD_DONE, 3, id, off, val);
}

/* Corundum Verilator under gem5: a register access lasts to its AXI-Lite
 * completion, whose id corrects the in-order match; DMA write ids repeat
 * (the AXI id), matched in link order by id, skipping DMAs whose host
 * lines are missing; a repeated id's host spans complete in order. */
static void
test_corundum_nic(void **state)
{
	struct h *h = setup_sims(topo_csv, "", 0, sims_corundum);
	const uint64_t rd = (U(2) << 32) | 1;
	const struct ssp_rec *s;

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	mmio_wr(h, H1, 200, 1, 0, 0x108000, 1);
	posted(h, H1, 200);
	nic_wr(h, N1, 700, 0x108000);
	ndone(h, 720, 1, 1, 0x108000, 1);
	ndma(h, N1, 800, SSP_EV_NIC_DMA_EXEC, 3);
	ndma(h, N1, 810, SSP_EV_NIC_DMA_EXEC, 3);
	ndma(h, N1, 820, SSP_EV_NIC_DMA_EXEC, rd);
	hdma(h, H1, 1000, 1, 3);
	hdma(h, H1, 1010, 1, 3);
	hdma(h, H1, 1020, 0, rd);
	hdone(h, H1, 1100, SSP_EV_DMA_DONE, 3);
	hdone(h, H1, 1120, SSP_EV_DMA_DONE, 3);
	hdone(h, H1, 1130, SSP_EV_DMA_DONE, rd);
	/* two reads: the NIC's completions name the host ids */
	mmio_rd(h, H1, 2000, 5, 0, 0x20);
	mmio_rd(h, H1, 2010, 6, 0, 0x20);
	nic_rd(h, N1, 2100, 0x20);
	nic_rd(h, N1, 2110, 0x20);
	ndone(h, 2200, 0, 5, 0x20, 0x77);
	ndone(h, 2210, 0, 6, 0x20, 0x78);
	hdone(h, H1, 2500, SSP_EV_MMIO_RD_DONE, 5);
	hdone(h, H1, 2510, SSP_EV_MMIO_RD_DONE, 6);
	/* the host line of op 4 is missing */
	ndma(h, N1, 3000, SSP_EV_NIC_DMA_EXEC, 4);
	ndma(h, N1, 3010, SSP_EV_NIC_DMA_EXEC, 5);
	hdma(h, H1, 3100, 1, 5);
	hdma(h, H1, 3200, 1, 9);	/* no NIC DMA of that id */
	finish(h);
	parent_is(h, SSP_SK_NIC_MMIO, 700, SSP_SK_HOST_MMIO, 200);
	assert_int_equal(span_at(h, SSP_SK_NIC_MMIO, 700)->f[SSP_SF_DUR], 20);
	parent_is(h, SSP_SK_NIC_DMA, 800, SSP_SK_NIC_MMIO, 700);
	assert_int_equal(span_at(h, SSP_SK_NIC_DMA, 800)->f[SSP_SF_DUR], 0);
	parent_is(h, SSP_SK_HOST_DMA, 1000, SSP_SK_NIC_DMA, 800);
	parent_is(h, SSP_SK_HOST_DMA, 1010, SSP_SK_NIC_DMA, 810);
	parent_is(h, SSP_SK_HOST_DMA, 1020, SSP_SK_NIC_DMA, 820);
	s = span_at(h, SSP_SK_HOST_DMA, 1000);
	assert_int_equal(s->f[SSP_SF_DUR], 100);
	assert_int_equal(s->f[SSP_SF_FLAGS], 0);
	s = span_at(h, SSP_SK_HOST_DMA, 1010);
	assert_int_equal(s->f[SSP_SF_DUR], 110);
	assert_int_equal(s->f[SSP_SF_FLAGS], 0);
	assert_int_equal(span_at(h, SSP_SK_HOST_DMA, 1020)->f[SSP_SF_DUR], 110);
	parent_is(h, SSP_SK_NIC_MMIO, 2100, SSP_SK_HOST_MMIO, 2000);
	parent_is(h, SSP_SK_NIC_MMIO, 2110, SSP_SK_HOST_MMIO, 2010);
	s = span_at(h, SSP_SK_NIC_MMIO, 2110);
	assert_int_equal(s->f[SSP_SF_DUR], 100);
	assert_int_equal(s->f[SSP_SA_NMMIO_VAL], 0x78);
	parent_is(h, SSP_SK_HOST_DMA, 3100, SSP_SK_NIC_DMA, 3010);
	root_is(h, SSP_SK_HOST_DMA, 3200, SSP_SPAN_ORPHAN | SSP_SPAN_OPEN, "dma");
	assert_int_equal(ssp_spanb_stats(h->b)->dup_ids, 0);
	assert_int_equal(ssp_spanb_stats(h->b)->ctx_unused[SSP_CTX_DMA], 1);
	check_invariants(h);
	teardown(h);
}

/* e1000: no DMA id the host knows; the host takes the NIC's DMAs in the
 * order they were issued. */
static void
test_e1000_nic(void **state)
{
	struct h *h = setup_sims(topo_csv, "", 0, sims_e1000);

	(void)state;
	fn(h, H1, 100, "entry_SYSCALL_64");
	mmio_wr(h, H1, 200, 1, 0, 0x3818, 1);
	posted(h, H1, 200);
	nic_wr(h, N1, 700, 0x3818);
	ndma(h, N1, 800, SSP_EV_NIC_DMA_ISSUE, 1);
	ndma(h, N1, 810, SSP_EV_NIC_DMA_ISSUE, 2);
	hdma(h, H1, 1000, 0, 0xabc);
	hdma(h, H1, 1010, 0, 0xdef);
	hdone(h, H1, 1100, SSP_EV_DMA_DONE, 0xabc);
	hdone(h, H1, 1110, SSP_EV_DMA_DONE, 0xdef);
	ndma(h, N1, 1500, SSP_EV_NIC_DMA_DONE_RD, 1);
	ndma(h, N1, 1510, SSP_EV_NIC_DMA_DONE_RD, 2);
	finish(h);
	parent_is(h, SSP_SK_NIC_MMIO, 700, SSP_SK_HOST_MMIO, 200);
	parent_is(h, SSP_SK_NIC_DMA, 800, SSP_SK_NIC_MMIO, 700);
	parent_is(h, SSP_SK_HOST_DMA, 1000, SSP_SK_NIC_DMA, 800);
	parent_is(h, SSP_SK_HOST_DMA, 1010, SSP_SK_NIC_DMA, 810);
	assert_int_equal(span_at(h, SSP_SK_NIC_DMA, 800)->f[SSP_SF_DUR], 700);
	check_invariants(h);
	teardown(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syscall),
		cmocka_unit_test(test_syscall_call),
		cmocka_unit_test(test_syscall_trampoline),
		cmocka_unit_test(test_syscall_per_cpu),
		cmocka_unit_test(test_mmio_handover),
		cmocka_unit_test(test_mmio_fifo_offsets),
		cmocka_unit_test(test_mmio_not_for_nic),
		cmocka_unit_test(test_dma_join_by_key),
		cmocka_unit_test(test_dma_two_nics_same_op),
		cmocka_unit_test(test_qemu_host),
		cmocka_unit_test(test_corundum_nic),
		cmocka_unit_test(test_e1000_nic),
		cmocka_unit_test(test_missing_completions),
		cmocka_unit_test(test_duplicate_ids),
		cmocka_unit_test(test_missing_contexts),
		cmocka_unit_test(test_msix),
		cmocka_unit_test(test_network_chain),
		cmocka_unit_test(test_receive_window),
		cmocka_unit_test(test_background_adapter),
		cmocka_unit_test(test_background_all),
		cmocka_unit_test(test_net_drops_and_uids),
		cmocka_unit_test(test_pci_and_intr),
		cmocka_unit_test(test_intr_interleaved),
		cmocka_unit_test(test_intr_overflow),
		cmocka_unit_test(test_root_net_syscalls),
		cmocka_unit_test(test_member_events),
		cmocka_unit_test(test_strings_reset),
		cmocka_unit_test(test_stream_end),
		cmocka_unit_test(test_write_order),
		cmocka_unit_test(test_link_order),
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_switch_pcap),
		cmocka_unit_test(test_pcap_devices),
		cmocka_unit_test(test_context_limit),
		cmocka_unit_test(test_memory_bounded),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_kctx_receive),
		cmocka_unit_test(test_kctx_nic_chain),
		cmocka_unit_test(test_kctx_nic_write_chain),
		cmocka_unit_test(test_kctx_rx_writeback_cover),
		cmocka_unit_test(test_kctx_msix_ring),
		cmocka_unit_test(test_kctx_rx_writeback_two_rings),
		cmocka_unit_test(test_kctx_rx_writeback_wrap),
		cmocka_unit_test(test_kctx_ipi),
		cmocka_unit_test(test_kctx_unbalanced),
		cmocka_unit_test(test_kctx_app_root),
		cmocka_unit_test(test_kctx_ksoftirqd),
		cmocka_unit_test(test_kctx_ksoftirqd_after_wakeup),
		cmocka_unit_test(test_sink_errors_pass_on),
#if SSP_ASSERTS
		cmocka_unit_test(test_bad_stream_aborts),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
