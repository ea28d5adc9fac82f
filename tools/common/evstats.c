/*
 * evspan's --stats report and -v summary (evstats.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "span/kctx.h"
#include "span/spanb.h"
#include "stream/event.h"
#include "stream/span.h"
#include "tools/common/evstats.h"

/* The kernel context model's counters (SPEC §3b, evspan(1) --stats). */
static void
print_kctx(const struct ssp_spanb_stats *st, FILE *f)
{
	const struct ssp_kctx_stats *k = &st->kst;
	unsigned c, i;

	fprintf(f, "\nkernel contexts: %" PRIu64 " syscalls, %" PRIu64 " irqs, %"
	    PRIu64 " softirqs, %" PRIu64 " resumes, %" PRIu64 " app spans opened",
	    k->opened[SSP_KCTX_SYSCALL], k->opened[SSP_KCTX_IRQ],
	    k->opened[SSP_KCTX_SOFTIRQ], k->opened[SSP_KCTX_RESUME],
	    k->opened[SSP_KCTX_APP]);
	fprintf(f, "\n  unbalanced: %" PRIu64 " irq-exit without entry, %" PRIu64
	    " softirq without irq, %" PRIu64 " sched-in with nothing to resume, %"
	    PRIu64 " wakeup with nothing asleep, %" PRIu64 " syscall-exit "
	    "without syscall, %" PRIu64 " closed for a missing exit, %" PRIu64
	    " open at the end, %" PRIu64 " wakeups dropped (more than "
	    "sleepers)", k->irq_exit_unmatched, k->softirq_no_irq,
	    k->sched_in_empty, k->wakeup_none, k->exit_unmatched,
	    k->closed_unbalanced, k->open_at_end, k->wakeup_dropped);
	fprintf(f, "\n  kept in place: %" PRIu64 " syscall entries inside a "
	    "context, %" PRIu64 " softirqs inside a syscall, %" PRIu64
	    " preempted syscalls resumed", k->entry_in_syscall,
	    k->softirq_in_task, k->resumed_unwoken);
	if (k->resume_retracted != 0)
		fprintf(f, "\n  taken back: %" PRIu64 " sched-ins of ksoftirqd "
		    "first taken for a syscall's", k->resume_retracted);
	fprintf(f, "\n  limits: %" PRIu64 " irq nesting, %" PRIu64 " suspended, %"
	    PRIu64 " pending irqs, %" PRIu64 " cpus", k->stack_overflow,
	    k->suspend_overflow, k->raised_overflow, k->cpu_limit);
	fprintf(f, "\n  rx: %" PRIu64 " delivered by a wakeup, %" PRIu64
	    " batched as msix links; %" PRIu64 " resume links left out (cycle)",
	    st->rx_woken, st->rx_batched, st->links_cyclic);
	if (st->rx_wb_none != 0)
		fprintf(f, "\n  rx: %" PRIu64 " descriptor write-backs with no "
		    "frame waiting (parent: the completed one's)", st->rx_wb_none);
	if (st->ipi_dropped != 0)
		fprintf(f, "\n  ipi: %" PRIu64 " sent and never taken (dropped)",
		    st->ipi_dropped);
	fprintf(f, "\n  causes:");
	for (i = 0, c = SSP_CAUSE_COLUMBO; c < SSP_CAUSE_N; c++)
		if (st->causes[c] != 0)
			fprintf(f, "%s %s %" PRIu64, i++ ? "," : "",
			    ssp_spanb_cause_name(c), st->causes[c]);
	if (i == 0)
		fprintf(f, " none");
}

void
ssp_evstats_print(FILE *f, const struct ssp_evspan *ev,
    const struct ssp_topo *t, double secs)
{
	const struct ssp_spanb_stats *st = ssp_evspan_stats(ev);
	uint64_t in = 0, used = 0, dropped = 0, spans = 0, orph = 0;
	size_t i, w = 6;
	unsigned k;

	for (i = 0; i < t->nstreams; i++) {
		in += st->in[i];
		used += st->used[i];
		dropped += st->dropped[i];
		if (strlen(t->streams[i].name) > w)
			w = strlen(t->streams[i].name);
	}
	for (k = 0; k < SSP_SK_NKINDS; k++)
		spans += st->spans[k];
	for (k = 0; k < SSP_CAUSE_N; k++)
		orph += st->orphans[k];
	fprintf(f, "events per stream:\n");
	fprintf(f, "  %-*s %-4s %12s %12s %12s %9s\n", (int)w, "stream", "kind",
	    "in", "used", "dropped", "backwards");
	for (i = 0; i < t->nstreams; i++)
		fprintf(f, "  %-*s %-4s %12" PRIu64 " %12" PRIu64 " %12" PRIu64
		    " %9" PRIu64 "%s\n", (int)w, t->streams[i].name,
		    ssp_event_sim_kind(t->streams[i].kind), st->in[i], st->used[i],
		    st->dropped[i], ssp_evspan_backwards(ev, i),
		    st->in[i] == st->used[i] + st->dropped[i] ? "" : "  (mismatch!)");
	fprintf(f, "  %-*s %-4s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
	    (int)w, "total", "", in, used, dropped);
	fprintf(f, "dropped events by reason:\n");
	for (k = 0; k < SSP_DROP_N; k++)
		if (st->drop[k] != 0)
			fprintf(f, "  %12" PRIu64 "  %s\n", st->drop[k],
			    ssp_spanb_drop_name(k));
	if (dropped == 0)
		fprintf(f, "  %12d  none\n", 0);
	fprintf(f, "spans by kind:\n");
	for (k = 0; k < SSP_SK_NKINDS; k++)
		if (st->spans[k] != 0)
			fprintf(f, "  %12" PRIu64 "  %s\n", st->spans[k],
			    ssp_span_kind_name(k));
	fprintf(f, "  %12" PRIu64 "  total\n", spans);
	fprintf(f, "traces: %" PRIu64 " roots, %" PRIu64 " links, %" PRIu64
	    " open, %" PRIu64 " background, %" PRIu64 " incomplete, %" PRIu64
	    " left out (root rule)\n", st->roots, st->links, st->open,
	    st->background, st->incomplete, st->suppressed);
	/* "orphans by missing context: 503 (syscall 500, mmio 3)" */
	fprintf(f, "orphans by missing context: %" PRIu64, orph);
	for (i = 0, k = 0; k < SSP_CAUSE_N; k++)
		if (st->orphans[k] != 0)
			fprintf(f, "%s%s %" PRIu64, i++ == 0 ? " (" : ", ",
			    ssp_spanb_cause_name(k), st->orphans[k]);
	fprintf(f, "%s\ncontexts (unused / over limit / no link):", i ? ")" : "");
	for (k = 0; k < (st->kctx ? SSP_CTX_N : SSP_CTX_IRQ); k++)
		fprintf(f, " %s %" PRIu64 "/%" PRIu64 "/%" PRIu64, ssp_spanb_ctx_name(k),
		    st->ctx_unused[k], st->ctx_overflow[k], st->ctx_nowhere[k]);
	if (st->kctx)
		print_kctx(st, f);
	fprintf(f, "\nchecks: %" PRIu64 " mmio offset mismatches (%" PRIu64
	    " contexts skipped), %" PRIu64 " msix vector mismatches, %" PRIu64
	    " dma address changes, %" PRIu64 " duplicate ids, %" PRIu64
	    " packets expired\n", st->mmio_mismatch, st->mmio_skipped,
	    st->msix_mismatch, st->dma_mismatch, st->dup_ids, st->packets_expired);
	fprintf(f, "memory: at most %" PRIu64 " spans held at once\n",
	    ssp_evspan_peak(ev));
	fprintf(f, "reading: %" PRIu64 " of the dropped events skipped by type, "
	    "not decoded\n", st->skipped);
	fprintf(f, "time: %.3f s, %.2f M events/s\n", secs,
	    secs > 0 ? (double)in / secs / 1e6 : 0.0);
}

void
ssp_evstats_summary(FILE *f, const struct ssp_evspan *ev, const char *prog)
{
	const struct ssp_spanb_stats *st = ssp_evspan_stats(ev);
	uint64_t in = 0, spans = 0;
	unsigned k;

	for (k = 0; k < SSP_SK_NKINDS; k++)
		spans += st->spans[k];
	for (k = 0; k < st->nstreams; k++)
		in += st->in[k];
	fprintf(f, "%s: %" PRIu64 " events from %zu streams -> %" PRIu64
	    " spans in %" PRIu64 " traces (salt %016" PRIx64 ")\n", prog, in,
	    st->nstreams, spans, st->roots, ssp_evspan_salt(ev));
}
