#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/sbcmds.h"
#include "config/shword.h"

static void
put(struct ssp_buf *b, const char *s)
{
	ssp_buf_put(b, s, strlen(s));
}

static void
putf(struct ssp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
putf(struct ssp_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = 1;
		return;
	}
	ssp_buf_put(b, s, (size_t)n);
	free(s);
}

/* Text for a comment: control characters (a newline would end it)
 * become '?'. */
static void
put_comment(struct ssp_buf *b, const char *s)
{
	for (; *s != '\0'; s++)
		ssp_buf_putc(b, (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

/* The drivers of all gem5 streams, each once. */
static size_t
all_drivers(const struct ssp_sbplan *p, const char **d, size_t max)
{
	size_t i, k, j, n = 0;

	for (i = 0; i < p->nstreams; i++)
		for (k = 0; k < p->streams[i].ndriver; k++) {
			for (j = 0; j < n && strcmp(d[j], p->streams[i].driver[k]) != 0; j++)
				;
			if (j == n && n < max)
				d[n++] = p->streams[i].driver[k];
		}
	return n;
}

static void
header(const struct ssp_sbplan *p, const struct ssp_simbricks *r,
    const struct ssp_sbplan_opts *o, struct ssp_buf *b)
{
	const char *kernel = NULL, *drv[16];
	char v1[80], v2[80];
	size_t i, k, nd, nhost = 0;

	for (i = 0; i < p->nstreams; i++)
		if (p->streams[i].sim == SSP_SIM_GEM5) {
			nhost++;
			if (kernel == NULL)
				kernel = p->streams[i].kernel;
		}
	nd = all_drivers(p, drv, 16);
	put(b, "#!/bin/sh\n# sim2ev and evspan commands for the SimBricks run ");
	put_comment(b, o->json);
	putf(b, "\n# (%s %s), by simspan-simbricks %s.\n",
	    ssp_simbricks_format(r) == SSP_SIMBRICKS_SYMPHONY ? "simulation" :
	    "experiment", ssp_simbricks_exp_name(r), SSP_VERSION);
	put(b, "# Run them in the directory of the topology: sh commands.sh\n");
	put(b, "# What the JSON cannot know is named by the variables below: set them\n"
	    "# in the environment or edit them here (simspan(7), TRACING A SIMBRICKS RUN).\n");
	put(b, "set -eu\nRUN=${RUN:-");
	ssp_shword_quote(b, o->json);
	put(b, "}\n");
	if (nhost > 0) {
		put(b, "# the guest kernel's symbols: objdump --syms ");
		ssp_shword_quote(b, kernel != NULL ? kernel : "vmlinux");
		put(b, " > vmlinux.syms\nVMLINUX_SYMS=${VMLINUX_SYMS:-vmlinux.syms}\n");
	}
	for (k = 0; k < nd; k++) {
		ssp_shword_var(v1, sizeof(v1), drv[k], "SYMS");
		ssp_shword_var(v2, sizeof(v2), drv[k], "TEXT");
		putf(b, "# the %s module: objdump --syms %s.ko > %s.syms; its load "
		    "address\n# in the guest: cat /sys/module/%s/sections/.text\n",
		    drv[k], drv[k], drv[k], drv[k]);
		putf(b, "%s=${%s:-%s.syms}\n%s=${%s:-0xffffffffa0000000}\n", v1, v1,
		    drv[k], v2, v2);
	}
	for (i = 0; i < p->nstreams; i++) {
		const struct ssp_sbplan_stream *st = &p->streams[i];

		if (st->sim != SSP_SIM_NS3 || st->want != NULL || !st->missing)
			continue;
		ssp_shword_var(v1, sizeof(v1), st->name, "TRACE");
		put(b, "# the ns-3 SimBricks trace helper's file of ");
		put(b, ssp_simbricks_sim(r, st->idx)->name);
		putf(b, " (its command line names none)\n%s=${%s:-", v1, v1);
		ssp_shword_quote(b, st->name);
		put(b, ".ns3.log}\n");
	}
	if (nhost > 0) {
		put(b, "# every symbol table must be there before sim2ev runs\n"
		    "for f in \"$VMLINUX_SYMS\"");
		for (k = 0; k < nd; k++) {
			ssp_shword_var(v1, sizeof(v1), drv[k], "SYMS");
			putf(b, " \"$%s\"", v1);
		}
		put(b, "; do\n\t[ -r \"$f\" ] || { echo \"commands.sh: $f: no such "
		    "symbol table; set VMLINUX_SYMS");
		for (k = 0; k < nd; k++) {
			ssp_shword_var(v1, sizeof(v1), drv[k], "SYMS");
			putf(b, ", %s", v1);
		}
		put(b, " (simspan(7))\" >&2; exit 2; }\ndone\n");
	}
	put(b, "# span rules: evspan finds a bare file name in share/simspan/rules\n"
	    "# (installed) or in rules/ of the source tree it was built in\n");
	put(b, "RULES=${RULES:-");
	ssp_shword_quote(b, p->rules);
	put(b, "}\n");
}

/* -s for a driver module's symbols at its load address. */
static void
put_driver(struct ssp_buf *b, const char *drv)
{
	char v1[80], v2[80];

	ssp_shword_var(v1, sizeof(v1), drv, "SYMS");
	ssp_shword_var(v2, sizeof(v2), drv, "TEXT");
	put(b, " -s \"$");
	put(b, v1);
	put(b, "\",");
	ssp_shword_quote(b, drv);
	put(b, ",\"$");
	put(b, v2);
	put(b, "\"");
}

static void
stream(const struct ssp_sbplan *p, const struct ssp_simbricks *r, size_t si,
    struct ssp_buf *b)
{
	const struct ssp_sbplan_stream *st = &p->streams[si];
	const struct ssp_simbricks_sim *s = ssp_simbricks_sim(r, st->idx);
	const char *log = st->log != NULL ? st->log : st->want;
	char v1[80];
	size_t k;

	put(b, "\n# ");
	put(b, s->name);
	put(b, " (");
	put(b, s->cls);
	put(b, ")");
	if (st->missing && log != NULL) {
		put(b, ": its log was not there when simspan-simbricks ran: ");
		put_comment(b, log);
		ssp_buf_putc(b, '\n');
	} else if (log != NULL) {
		put(b, st->sim == SSP_SIM_GEM5 ? ": its --debug-file\n" :
		    st->sim == SSP_SIM_PCAP ? ": its packet capture\n" :
		    st->sim == SSP_SIM_NS3 ? ": its trace file\n" : ": its log file\n");
	} else if (st->missing && st->sim == SSP_SIM_NS3) {
		put(b, ": the trace helper's file\n");
	} else if (st->ncaptured == 0 && st->cls->needle != NULL) {
		putf(b, ": no %s debug lines were captured\n",
		    ssp_event_sim_name(st->sim));
	} else {
		putf(b, ": %zu %s lines in its captured %s\n", st->ncaptured,
		    ssp_event_sim_name(st->sim), st->which == SSP_SIMBRICKS_STDERR ?
		    "stderr" : "stdout");
	}
	for (k = 0; k < p->nlinks; k++)
		if (p->links[k].type == SSP_SBPLAN_PCIE && p->links[k].sb == (int)si &&
		    p->links[k].sa < 0) {
			put(b, "# its host ");
			put(b, ssp_simbricks_sim(r, p->links[k].a)->name);
			put(b, " has no stream: the NIC's spans are trace roots\n");
		}
	putf(b, "sim2ev -f %s -n %s", ssp_event_sim_name(st->sim), st->name);
	if (st->sim == SSP_SIM_GEM5) {
		put(b, " -s \"$VMLINUX_SYMS\",vmlinux");
		for (k = 0; k < st->ndriver; k++)
			put_driver(b, st->driver[k]);
		if (st->time_sync)
			put(b, " --time-offset sync");
	}
	putf(b, " -o %s.ev.zst", st->name);
	if (log != NULL) {
		ssp_buf_putc(b, ' ');
		ssp_shword_quote(b, log);
	} else if (st->sim == SSP_SIM_NS3 && st->missing) {
		ssp_shword_var(v1, sizeof(v1), st->name, "TRACE");
		putf(b, " \"$%s\"", v1);
	} else {
		put(b, " --simbricks-json \"$RUN\" --sim ");
		ssp_shword_quote(b, s->name);
		if (st->which == SSP_SIMBRICKS_STDERR)
			put(b, " --sim-stderr");
	}
	ssp_buf_putc(b, '\n');
}

int
ssp_sbcmds_script(const struct ssp_sbplan *p, const struct ssp_simbricks *r,
    const struct ssp_sbplan_opts *o, struct ssp_buf *b)
{
	size_t i, k;
	int has;

	header(p, r, o, b);
	for (i = 0; i < ssp_simbricks_nsims(r); i++) {
		const struct ssp_simbricks_sim *s = ssp_simbricks_sim(r, i);
		const struct ssp_sbclass *c = ssp_sbclass_find(s->cls);

		for (has = 0, k = 0; k < p->nstreams; k++)
			has |= p->streams[k].idx == i;
		if (has || c == NULL || c->role == SSP_SBCLASS_PROXY)
			continue;
		put(b, "\n# ");
		put(b, s->name);
		put(b, " (");
		put(b, s->cls);
		put(b, "): no stream: ");
		put(b, c->lacks != NULL ? c->lacks :
		    "no trace file (give one: simspan-simbricks run --log)");
		ssp_buf_putc(b, '\n');
	}
	for (i = 0; i < p->nstreams; i++)
		stream(p, r, i, b);
	put(b, "\n# phase 2: spans\n");
	put(b, "evspan -t ");
	ssp_shword_quote(b, o->topology);
	put(b, " -r \"$RULES\" -o spans.sp\n");
	return b->failed ? -1 : 0;
}
