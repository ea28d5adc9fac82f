#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "span/evcheck.h"
#include "stream/rec.h"

/* Append one finding (formatted in full). */
static int __attribute__((format(printf, 4, 5)))
add(struct ssp_evcheck *c, int error, struct ssp_err *e, const char *fmt, ...)
{
	struct ssp_evcheck_msg *m;
	va_list ap;
	int len;
	char *s;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0 || (s = malloc((size_t)len + 1)) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	va_start(ap, fmt);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	va_end(ap);
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;

		if ((m = realloc(c->m, cap * sizeof(*m))) == NULL) {
			free(s);
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		}
		c->m = m;
		c->cap = cap;
	}
	c->m[c->n].error = error;
	c->m[c->n++].msg = s;
	return SSP_OK;
}

static size_t
dirlen(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? (size_t)(s - path) : 0;
}

/* Do the directories of two log paths differ? */
static int
otherdir(const char *a, const char *b)
{
	return dirlen(a) != dirlen(b) || memcmp(a, b, dirlen(a)) != 0;
}

/*
 * The stream name a header was written as (a mismatch is an error), and
 * whether one stream alone was made from a log in another directory than
 * all the others (a warning: the headers record no run id, and a real
 * SimBricks run keeps its logs in several directories, so the directory
 * is only a hint).
 */
enum ssp_status
ssp_evcheck_headers(struct ssp_evcheck *c, const struct ssp_evspan *ev,
    const struct ssp_topo *t, struct ssp_err *e)
{
	const char *src[SSP_TOPO_MAXSTREAMS], *name;
	size_t i, j, nsrc = 0, idx[SSP_TOPO_MAXSTREAMS], odd, nodd;
	char msg[1024];
	int rc;

	SSP_ASSERT(c != NULL && ev != NULL && t != NULL);
	SSP_ASSERT(t->nstreams <= SSP_TOPO_MAXSTREAMS);
	for (i = 0; i < t->nstreams; i++) {
		const struct ssp_rec_rd *rr = ssp_evspan_reader(ev, i);
		const struct ssp_topo_stream *ts = &t->streams[i];
		const char *s;

		if (rr == NULL)
			continue;
		name = ssp_rec_rd_meta(rr, "stream");
		if (name != NULL && strcmp(name, ts->name) != 0) {
			snprintf(msg, sizeof(msg), "%s: the header names stream "
			    "'%s', but %s:%u reads the file as stream '%s'%s",
			    ts->file, name, t->name, ts->line, ts->name,
			    ssp_topo_find(t, name) >= 0 ? " (swapped files?)" : "");
			if ((rc = add(c, 1, e, "%s", msg)) != SSP_OK)
				return rc;
		}
		s = ssp_rec_rd_meta(rr, "source");
		if (s == NULL || strcmp(s, "stdin") == 0 || strcmp(s, "-") == 0)
			continue;
		src[nsrc] = s;
		idx[nsrc++] = i;
	}
	/* One stream in another directory than all the others (at least two
	 * of them, so that "the others" say where the run is). */
	if (nsrc < 3)
		return SSP_OK;
	for (j = 0; j < 2; j++) {
		for (i = 0, nodd = 0, odd = 0; i < nsrc; i++)
			if (otherdir(src[i], src[j])) {
				odd = i;
				nodd++;
			}
		if (nodd == 1 && (src[odd][0] == '/') == (src[j][0] == '/'))
			return add(c, 0, e, "streams from different runs? %s was "
			    "made from %s, the other %zu streams from logs in the "
			    "directory of %s", t->streams[idx[odd]].name,
			    src[odd], nsrc - 1, src[j]);
		if (nodd == 0)
			break;
	}
	return SSP_OK;
}

uint64_t
ssp_evcheck_blacklist(const char *filter, char *file, size_t fsize)
{
	const char *p = filter, *q, *c;
	uint64_t n = 0;

	file[0] = '\0';
	while ((p = strstr(p, "blacklist=")) != NULL) {
		p += 10;
		q = p + strcspn(p, " |");
		for (c = q; c > p && c[-1] >= '0' && c[-1] <= '9'; c--)
			;
		if (c < q && c > p && c[-1] == ':') {
			n += strtoull(c, NULL, 10);
			if (file[0] == '\0')
				snprintf(file, fsize, "%.*s", (int)strcspn(p, "[:"), p);
		}
		p = q;
	}
	return n;
}

/*
 * An eth link whose network end saw no packet while other links' did,
 * though its NIC sent some or packets reached a device no link names: a
 * wrong node or device number (eth,client-nic,net,1,3 for 1,2) orphans
 * that NIC's traffic, often too little of the run to pass the orphan
 * threshold (issue 26).
 */
static enum ssp_status
eth_links(struct ssp_evcheck *c, const struct ssp_spanb_stats *st,
    const struct ssp_topo *t, struct ssp_err *e)
{
	uint64_t seen = 0;
	size_t i, busy = 0;
	char other[160] = "";
	int rc;

	for (i = 0; i < t->neth; i++)
		if (st->eth_seen[i] > 0) {
			busy++;
			seen += st->eth_seen[i];
		}
	if (busy == 0)
		return SSP_OK;
	if (st->eth_nolink > 0 && st->eth_nolink_net < t->nstreams)
		snprintf(other, sizeof(other), " (%" PRIu64 " packets went "
		    "through adapter devices no eth link names, the first %s "
		    "node %" PRIu32 " device %" PRIu32 ")", st->eth_nolink,
		    t->streams[st->eth_nolink_net].name, st->eth_nolink_node,
		    st->eth_nolink_dev);
	for (i = 0; i < t->neth; i++) {
		const struct ssp_topo_eth *l = &t->eth[i];

		if (st->eth_seen[i] > 0 || (st->eth_sent[i] == 0 &&
		    st->eth_nolink == 0))
			continue;
		if ((rc = add(c, 0, e, "%s line %u: the eth link of %s to %s "
		    "node %" PRIu32 " device %" PRIu32 " saw no packet while %zu "
		    "other%s saw %" PRIu64 " and %s sent %" PRIu64 ": a wrong "
		    "node or device number?%s", t->name, l->line,
		    t->streams[l->nic].name, t->streams[l->net].name, l->node,
		    l->dev, busy, busy == 1 ? "" : "s", seen,
		    t->streams[l->nic].name, st->eth_sent[i], other)) != SSP_OK)
			return rc;
	}
	return SSP_OK;
}

/*
 * Every fixed limit that dropped data, one warning each, whether or not
 * --stats was asked for (issue 26): the counts are in the stats, but a
 * user reading only the spans would never know.
 */
static enum ssp_status
limits(struct ssp_evcheck *c, const struct ssp_spanb_stats *st,
    uint32_t ctx_limit, struct ssp_err *e)
{
	const struct ssp_kctx_stats *k = &st->kst;
	unsigned x;
	int rc = SSP_OK;

	for (x = 0; x < SSP_CTX_N && rc == SSP_OK; x++) {
		/* host MSI-X spans pile up for irq entries that never come
		 * when kernel-context rules meet logs without them: no irq
		 * span is lost, the other checks name the rules */
		if (st->ctx_overflow[x] == 0 || (x == SSP_CTX_IRQ &&
		    k->opened[SSP_KCTX_IRQ] == 0))
			continue;
		if (x == SSP_CTX_IRQ)
			rc = add(c, 0, e, "%" PRIu64 " host MSI-X spans dropped from "
			    "the %d waiting for an irq entry: the kernel-context "
			    "rules' irq-entry functions never run in these logs?",
			    st->ctx_overflow[x], SSP_SPANB_IRQQ_MAX);
		else
			rc = add(c, 0, e, "%" PRIu64 " %s contexts dropped at the "
			    "context limit (%" PRIu32 " waiting per link): their "
			    "spans are orphans; raise context-limit in the rules "
			    "(formats/rules.md)", st->ctx_overflow[x],
			    ssp_spanb_ctx_name(x), ctx_limit);
	}
	if (rc == SSP_OK && k->cpu_limit > 0)
		rc = add(c, 0, e, "%" PRIu64 " events of CPUs past the first %d of "
		    "a host left out of the kernel contexts (no syscall, irq or "
		    "softirq spans for those CPUs): evspan follows at most %d "
		    "CPUs per host", k->cpu_limit, SSP_KCTX_MAXCPU,
		    SSP_KCTX_MAXCPU);
	if (rc == SSP_OK && k->stack_overflow > 0)
		rc = add(c, 0, e, "%" PRIu64 " irq entries nested deeper than %d "
		    "on one CPU ignored: the rules' irq-exit functions never run "
		    "in these logs?", k->stack_overflow, SSP_KCTX_DEPTH);
	if (rc == SSP_OK && k->suspend_overflow > 0)
		rc = add(c, 0, e, "%" PRIu64 " sleeping syscalls closed early: "
		    "more than %d asleep on one CPU (cause suspend-limit): the "
		    "rules' sched-in functions never run in these logs?",
		    k->suspend_overflow, SSP_KCTX_MAXSUSP);
	if (rc == SSP_OK && k->raised_overflow > 0)
		rc = add(c, 0, e, "%" PRIu64 " raised softirqs forgotten: more "
		    "than %d pending on one CPU, so those softirqs are roots",
		    k->raised_overflow, SSP_KCTX_MAXRAISED);
	if (rc == SSP_OK && st->rxb_overflow > 0)
		rc = add(c, 0, e, "%" PRIu64 " NIC rx spans left out of their "
		    "MSI-X's links: more than %d between two MSI-X of one NIC",
		    st->rxb_overflow, SSP_SPANB_RXB_MAX);
	if (rc == SSP_OK && st->tso_overflow > 0)
		rc = add(c, 0, e, "%" PRIu64 " TSO sends forgotten: more than %d "
		    "at once on one NIC, so their later segments' nic.tx spans "
		    "may have the wrong parent", st->tso_overflow,
		    SSP_SPANB_TSO_MAX);
	if (rc == SSP_OK && st->intx_overflow > 0)
		rc = add(c, 0, e, "%" PRIu64 " host interrupt spans closed "
		    "early (INCOMPLETE): more than %d interfaces raised INTx "
		    "at once on one host", st->intx_overflow,
		    SSP_SPANB_INTX_MAX);
	return rc;
}

enum ssp_status
ssp_evcheck_result(struct ssp_evcheck *c, const struct ssp_evspan *ev,
    const struct ssp_topo *t, const struct ssp_rules *r,
    const char *rules_path, struct ssp_err *e)
{
	const struct ssp_spanb_stats *st;
	char why[8][512], file[256], orph_line[256];
	uint64_t spans = 0, orph = 0, n, nowhere = 0, was;
	size_t i, nwhy = 0, nhost = 0;
	unsigned k;
	int len, rc;

	SSP_ASSERT(c != NULL && ev != NULL && t != NULL && r != NULL);
	st = ssp_evspan_stats(ev);
	for (k = 0; k < SSP_SK_NKINDS; k++)
		spans += st->spans[k];
	for (k = 0; k < SSP_CAUSE_N; k++)
		orph += st->orphans[k];
	for (i = 0; i < t->nstreams && nwhy < 4; i++) {
		const struct ssp_rec_rd *rr = ssp_evspan_reader(ev, i);
		const char *prod = rr ? ssp_rec_rd_meta(rr, "producer") : NULL;
		const char *sim = rr ? ssp_rec_rd_meta(rr, "simulator") : NULL;

		/* a QEMU host has no instruction trace: no syscall spans */
		if (sim != NULL && strcmp(sim, "qemu") == 0) {
			if (i < st->nstreams && st->in[i] == 0)
				snprintf(why[nwhy++], sizeof(why[0]), "%s: a QEMU "
				    "host without events: was QEMU's simbricks-pci "
				    "built with DEBUG_PRINTS? its NIC's spans are the "
				    "traces' roots", t->streams[i].name);
			continue;
		}
		nhost += t->streams[i].kind == SSP_SIM_GEM5;
		if (t->streams[i].kind == SSP_SIM_GEM5 && prod != NULL &&
		    strncmp(prod, "sim2ev ", 7) == 0 &&
		    ssp_rec_rd_meta(rr, "symtabs") == NULL)
			snprintf(why[nwhy++], sizeof(why[0]), "%s has no function "
			    "events — was sim2ev given -s? (its header records no "
			    "symbol table)", t->streams[i].name);
	}
	if (nhost > 0 && ssp_rules_count(r, SSP_FC_SYSCALL_ENTRY) == 0)
		snprintf(why[nwhy++], sizeof(why[0]), rules_path == NULL ?
		    "no rules (-r): no function is a syscall entry, so there are "
		    "no host.syscall spans; give -r rules.csv" : "%s names no "
		    "syscall-entry function: no host.syscall spans",
		    rules_path);
	for (k = SSP_CTX_MMIO; k <= SSP_CTX_MSIX; k++)
		nowhere += st->ctx_nowhere[k];
	if (nowhere > 0 && st->nolink_comp[0] != '\0' &&
	    st->nolink_stream < t->nstreams) {
		size_t h = st->nolink_stream;

		len = snprintf(why[nwhy], sizeof(why[0]), "%" PRIu64 " PCIe "
		    "events of %s found no link: the stream names adapter '%s', "
		    "%s names", nowhere, t->streams[h].name, st->nolink_comp,
		    t->name);
		for (i = 0, n = 0; i < t->npcie && len < (int)sizeof(why[0]); i++)
			if (t->pcie[i].host == h)
				len += snprintf(why[nwhy] + len, sizeof(why[0]) -
				    (size_t)len, "%s'%s' (line %u)", n++ ? ", " : " ",
				    t->pcie[i].adapter ? t->pcie[i].adapter : "",
				    t->pcie[i].line);
		nwhy++;
	}
	for (i = 0; i < t->nstreams && nwhy < 8; i++)
		if ((n = ssp_evspan_backwards(ev, i)) > SSP_EVCHECK_BACKWARDS_MAX)
			snprintf(why[nwhy++], sizeof(why[0]), "%s: time goes backwards "
			    "%" PRIu64 " times (evspan needs each stream in time "
			    "order: concatenated or interleaved logs?)",
			    t->streams[i].name, n);
	for (i = 0; i < t->nstreams && nwhy < 8; i++) {
		const struct ssp_rec_rd *rr = ssp_evspan_reader(ev, i);
		const char *f = rr ? ssp_rec_rd_meta(rr, "filter") : NULL;

		if (f != NULL && rules_path != NULL &&
		    (was = ssp_evcheck_blacklist(f, file, sizeof(file))) >
		    (n = ssp_rules_count(r, SSP_FC_BLACKLIST))) {
			snprintf(why[nwhy++], sizeof(why[0]), "%s was filtered by "
			    "evfilter -b %s (%" PRIu64 " functions), the rules "
			    "now blacklist %" PRIu64 ": the events of functions no "
			    "longer blacklisted are gone; rerun evfilter",
			    t->streams[i].name, file, was, n);
			break;	/* the same for every stream, usually */
		}
	}
	/* kernel-context rules on logs of another kernel: no irq ever
	 * exits, every host.irq is closed by whatever comes next */
	if (st->kctx && nwhy < 8 &&
	    st->kst.opened[SSP_KCTX_IRQ] >= SSP_EVCHECK_ORPHAN_MIN &&
	    st->kst.closed_unbalanced * 10 >= (st->kst.opened[SSP_KCTX_IRQ] +
	    st->kst.opened[SSP_KCTX_SOFTIRQ]) * 9)
		snprintf(why[nwhy++], sizeof(why[0]), "%" PRIu64 " of %" PRIu64
		    " host.irq spans were closed without an irq-exit (incomplete): "
		    "the kernel-context classes of %s (irq-entry, irq-exit, "
		    "softirq-entry, ...) do not fit the kernel of these logs, "
		    "whose interrupt exit never appears; use rules for that "
		    "kernel, or delete the irq-entry and syscall-exit rows for "
		    "the one-CPU model (formats/rules.md)",
		    st->kst.closed_unbalanced < st->kst.opened[SSP_KCTX_IRQ] ?
		    st->kst.closed_unbalanced : st->kst.opened[SSP_KCTX_IRQ],
		    st->kst.opened[SSP_KCTX_IRQ], rules_path != NULL ? rules_path :
		    "the rules");
	orph_line[0] = '\0';
	if (orph >= SSP_EVCHECK_ORPHAN_MIN &&
	    orph * 100 >= spans * SSP_EVCHECK_ORPHAN_PCT) {
		len = snprintf(orph_line, sizeof(orph_line), "%" PRIu64 " of %"
		    PRIu64 " spans are orphans", orph, spans);
		for (k = 0, n = 0; k < SSP_CAUSE_N && len < (int)sizeof(orph_line);
		    k++)
			if (st->orphans[k] != 0)
				len += snprintf(orph_line + len, sizeof(orph_line) -
				    (size_t)len, "%s%s %" PRIu64, n++ ? ", " : " (",
				    ssp_spanb_cause_name(k), st->orphans[k]);
		if (n && len < (int)sizeof(orph_line))
			snprintf(orph_line + len, sizeof(orph_line) - (size_t)len, ")");
	}
	if (orph_line[0] != '\0' && (rc = add(c, 0, e, "%s: %s", orph_line,
	    nwhy > 0 ? why[0] : "see --stats for the missing contexts")) != SSP_OK)
		return rc;
	for (i = orph_line[0] != '\0'; i < nwhy; i++)
		if ((rc = add(c, 0, e, "%s", why[i])) != SSP_OK)
			return rc;
	if ((rc = eth_links(c, st, t, e)) != SSP_OK)
		return rc;
	return limits(c, st, ssp_rules_context_limit(r), e);
}

void
ssp_evcheck_free(struct ssp_evcheck *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->m[i].msg);
	free(c->m);
	c->m = NULL;
	c->n = c->cap = 0;
}
