#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "sink/dump.h"
#include "sink/spantree.h"
#include "stream/span.h"

struct tspan {
	uint64_t id, parent, trace_hi, trace_lo;
	int64_t start, dur;
	uint64_t stream, flags;
	uint32_t ftype;		/* file type index */
	uint32_t nev, nlinks;
	size_t text;		/* attributes and cause, in the arena */
	long first, next;	/* children, by (start, id) */
	long link0;		/* first of its links in the link list */
	int64_t end;		/* subtree end, computed before printing */
};

struct tlink {
	uint64_t span, target, trace_hi, trace_lo;
	size_t kind;		/* text in the arena */
};

struct ssp_spantree {
	const struct ssp_rec_rd *rr;
	const struct ssp_schema *fs;
	const char *const *streams;
	size_t nstreams;
	struct tspan *s;
	size_t n, cap;
	struct tlink *l;
	size_t nl, capl;
	char *arena;
	size_t alen, acap;
	uint64_t orphan_events;	/* member events of spans not in the input */
	size_t printed;		/* traces the last print showed */
};

static const struct {
	const char *kind;
	const char *f[8];
} keys[] = {
	{ "host.syscall", { "entry", "call", "funcs", "kernel_tx", "driver_tx",
	    "kernel_rx", "driver_rx", NULL } },
	{ "host.mmio", { "write", "bar", "offs", "id", "posted", NULL } },
	{ "host.dma", { "write", "id", "addr", "size", NULL } },
	{ "host.msix", { "vec", NULL } },
	{ "host.pci", { "write", "reg", "dev", "func", "data", NULL } },
	{ "host.intr", { "comp", NULL } },
	{ "nic.mmio", { "write", "off", "val", "len", NULL } },
	{ "nic.dma", { "write", "op", "addr", "len", NULL } },
	{ "nic.tx", { "len", NULL } },
	{ "nic.rx", { "port", "len", NULL } },
	{ "nic.msix", { "vec", "msi", NULL } },
	{ "net.device", { "node", "dev", "uid", "devtype", "boundary",
	    "dropped", "interesting", NULL } },
};

struct ssp_spantree *
ssp_spantree_new(const struct ssp_rec_rd *rr, const char *const *streams,
    size_t nstreams)
{
	struct ssp_spantree *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->rr = rr;
	t->fs = ssp_rec_rd_file_schema(rr);
	t->streams = streams;
	t->nstreams = nstreams;
	return t;
}

/* Append text to the arena; returns its offset or (size_t)-1. */
static size_t
save(struct ssp_spantree *t, const char *s)
{
	size_t n = strlen(s) + 1, off = t->alen;

	if (ssp_buf_array((void **)&t->arena, &t->acap, t->alen + n, 1) != 0)
		return (size_t)-1;
	memcpy(t->arena + off, s, n);
	t->alen += n;
	return off;
}

/* Append " a" or " a=b" (b not NULL) to buf. */
static void
cat(char *buf, size_t size, size_t *len, const char *a, const char *b)
{
	int n;

	if (*len >= size)
		return;
	if (b != NULL)
		n = snprintf(buf + *len, size - *len, " %s=%s", a, b);
	else
		n = snprintf(buf + *len, size - *len, " %s", a);
	if (n > 0)
		*len += (size_t)n;
}

/* The key attributes of a span as "name=value ..." text. */
static void
attrs(const struct ssp_spantree *t, const struct ssp_rec_type *rt,
    const struct ssp_rec *r, char *buf, size_t size)
{
	char v[256];
	size_t len = 0, i, k;
	const char *const *names = NULL;

	buf[0] = '\0';
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(keys[i].kind, rt->name) == 0)
			names = keys[i].f;
	for (k = SSP_SF_NCOMMON; k < rt->nf && k < r->nf; k++) {
		const struct ssp_field *f = &rt->f[k];

		if (names != NULL) {
			for (i = 0; names[i] != NULL; i++)
				if (strcmp(names[i], f->name) == 0)
					break;
			if (names[i] == NULL)
				continue;
		}
		if (strcmp(f->name, "write") == 0) {
			cat(buf, size, &len, r->f[k] ? "write" : "read", NULL);
			continue;
		}
		if (strcmp(f->name, "boundary") == 0) {
			if (r->f[k] == 1 || r->f[k] == 2)
				cat(buf, size, &len, r->f[k] == 1 ?
				    "from-adapter" : "to-adapter", NULL);
			continue;
		}
		if (f->enc == SSP_ENC_B) {
			if (r->f[k])
				cat(buf, size, &len, f->name, NULL);
			continue;
		}
		if (f->enc == SSP_ENC_S && r->f[k] == 0)
			continue;
		ssp_dump_value(v, sizeof(v), f->enc, r->f[k], t->rr);
		cat(buf, size, &len, f->name, v);
	}
	if (r->f[SSP_SF_FLAGS] & SSP_SPAN_ORPHAN) {
		const char *c = ssp_rec_rd_str(t->rr, r->f[SSP_SF_CAUSE], NULL);

		char o[160];

		snprintf(o, sizeof(o), "ORPHAN(missing %s)", c ? c : "?");
		cat(buf, size, &len, o, NULL);
	}
	if (r->f[SSP_SF_FLAGS] & SSP_SPAN_OPEN)
		cat(buf, size, &len, "OPEN", NULL);
	if (r->f[SSP_SF_FLAGS] & SSP_SPAN_BACKGROUND)
		cat(buf, size, &len, "BACKGROUND", NULL);
	if (r->f[SSP_SF_FLAGS] & SSP_SPAN_INCOMPLETE)
		cat(buf, size, &len, "INCOMPLETE", NULL);
}

enum ssp_status
ssp_spantree_add(struct ssp_spantree *t, const struct ssp_rec *r,
    struct ssp_err *e)
{
	const struct ssp_rec_type *rt = &t->fs->types[r->ftag - 1];
	char buf[1024];

	if (r->type < SSP_SK_NKINDS) {
		struct tspan *s;

		if (ssp_buf_array((void **)&t->s, &t->cap, t->n + 1,
		    sizeof(*t->s)) != 0)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		s = &t->s[t->n];
		memset(s, 0, sizeof(*s));
		s->id = r->f[SSP_SF_SPAN];
		s->parent = r->f[SSP_SF_PARENT];
		s->trace_hi = r->f[SSP_SF_TRACE_HI];
		s->trace_lo = r->f[SSP_SF_TRACE_LO];
		s->start = r->ts;
		s->dur = (int64_t)r->f[SSP_SF_DUR];
		s->stream = r->f[SSP_SF_STREAM];
		s->flags = r->f[SSP_SF_FLAGS];
		s->ftype = r->ftag - 1;
		s->first = s->next = s->link0 = -1;
		attrs(t, rt, r, buf, sizeof(buf));
		if ((s->text = save(t, buf)) == (size_t)-1)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		t->n++;
	} else if (r->type == SSP_SPAN_T_LINK) {
		struct tlink *l;
		const char *k = ssp_rec_rd_str(t->rr, r->f[SSP_LF_KIND], NULL);

		if (ssp_buf_array((void **)&t->l, &t->capl, t->nl + 1,
		    sizeof(*t->l)) != 0)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		l = &t->l[t->nl];
		l->span = r->f[SSP_LF_SPAN];
		l->target = r->f[SSP_LF_TARGET];
		l->trace_hi = r->f[SSP_LF_TRACE_HI];
		l->trace_lo = r->f[SSP_LF_TRACE_LO];
		if ((l->kind = save(t, k != NULL ? k : "")) == (size_t)-1)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		t->nl++;
	} else if (r->type >= SSP_SPAN_T_EV0 && r->type != SSP_TYPE_UNKNOWN &&
	    t->n > 0) {
		/* member events follow their span */
		if (t->s[t->n - 1].id == r->f[SSP_EF_SPAN])
			t->s[t->n - 1].nev++;
		else
			t->orphan_events++;
	}
	return SSP_OK;
}

static const struct ssp_spantree *sort_t;

static int
by_id(const void *a, const void *b)
{
	const struct tspan *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int
by_start(const void *a, const void *b)
{
	const struct tspan *x = &sort_t->s[*(const long *)a];
	const struct tspan *y = &sort_t->s[*(const long *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int
link_by_span(const void *a, const void *b)
{
	const struct tlink *x = a, *y = b;

	return x->span < y->span ? -1 : x->span > y->span;
}

static long
find(const struct ssp_spantree *t, uint64_t id)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->s[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->n && t->s[lo].id == id ? (long)lo : -1;
}

static const char *
sname(const struct ssp_spantree *t, uint64_t i, char *buf, size_t n)
{
	if (i < t->nstreams)
		return t->streams[i];
	snprintf(buf, n, "#%" PRIu64, i);
	return buf;
}

size_t
ssp_spantree_time(char *buf, size_t n, int64_t ps)
{
	static const struct { int64_t div; const char *unit; } u[] = {
		{ INT64_C(1000000000000), "s" }, { INT64_C(1000000000), "ms" },
		{ INT64_C(1000000), "us" }, { INT64_C(1000), "ns" },
	};
	uint64_t v = ps < 0 ? 0 - (uint64_t)ps : (uint64_t)ps;
	const char *sign = ps < 0 ? "-" : "";
	int k;
	size_t i;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (v >= (uint64_t)u[i].div) {
			uint64_t d = (uint64_t)u[i].div;

			k = snprintf(buf, n, "%s%" PRIu64 ".%03" PRIu64 " %s", sign,
			    v / d, v % d / (d / 1000), u[i].unit);
			return k > 0 ? (size_t)k : 0;
		}
	k = snprintf(buf, n, "%s%" PRIu64 " ps", sign, v);
	return k > 0 ? (size_t)k : 0;
}

static const char *
tm(const struct ssp_spantree_opts *o, char *buf, size_t n, int64_t ps)
{
	if (o->ps)
		snprintf(buf, n, "%" PRId64, ps);
	else
		ssp_spantree_time(buf, n, ps);
	return buf;
}

void
ssp_spantree_print(struct ssp_spantree *t, FILE *out)
{
	struct ssp_spantree_opts o = { .ps = 1 };

	ssp_spantree_print_opts(t, out, &o);
}

size_t
ssp_spantree_printed(const struct ssp_spantree *t)
{
	return t->printed;
}

static const int64_t *sort_dur;

/* longest first; equal ones in write order */
static int
by_dur(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	if (sort_dur[x] != sort_dur[y])
		return sort_dur[x] > sort_dur[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

void
ssp_spantree_print_opts(struct ssp_spantree *t, FILE *out,
    const struct ssp_spantree_opts *o)
{
	long *order, *stack, *depth, *roots, *count, *sel, nroots = 0, nsel = 0;
	int64_t *dur;
	size_t i, j;
	char sb[32], t1[40], t2[40], t3[40];

	t->printed = 0;
	if (t->n == 0)
		return;
	qsort(t->s, t->n, sizeof(*t->s), by_id);
	if (t->nl > 0)
		qsort(t->l, t->nl, sizeof(*t->l), link_by_span);
	order = malloc(t->n * sizeof(*order));
	stack = malloc(t->n * sizeof(*stack));
	depth = malloc(t->n * sizeof(*depth));
	roots = malloc(t->n * sizeof(*roots));
	count = malloc(t->n * sizeof(*count));
	sel = malloc(t->n * sizeof(*sel));
	dur = malloc(t->n * sizeof(*dur));
	if (order == NULL || stack == NULL || depth == NULL || roots == NULL ||
	    count == NULL || sel == NULL || dur == NULL) {
		fprintf(out, "(out of memory)\n");
		goto out;
	}
	for (i = 0, j = 0; i < t->n; i++) {
		t->s[i].nlinks = 0;
		t->s[i].link0 = -1;
		t->s[i].first = t->s[i].next = -1;
		while (j < t->nl && t->l[j].span < t->s[i].id)
			j++;
		if (j < t->nl && t->l[j].span == t->s[i].id) {
			t->s[i].link0 = (long)j;
			while (j < t->nl && t->l[j].span == t->s[i].id) {
				t->s[i].nlinks++;
				j++;
			}
		}
	}
	/* children lists in (start, id) order: insert in reverse */
	for (i = 0; i < t->n; i++)
		order[i] = (long)i;
	sort_t = t;
	qsort(order, t->n, sizeof(*order), by_start);
	for (i = t->n; i-- > 0; ) {
		struct tspan *s = &t->s[order[i]];
		long p = s->parent != 0 ? find(t, s->parent) : -1;

		if (p >= 0) {
			s->next = t->s[p].first;
			t->s[p].first = order[i];
		}
	}
	for (i = 0; i < t->n; i++)	/* roots by id: write order */
		if (t->s[i].parent == 0 || find(t, t->s[i].parent) < 0)
			roots[nroots++] = (long)i;
	/* size and duration of each trace; the ones to show */
	for (j = 0; j < (size_t)nroots; j++) {
		const struct tspan *r = &t->s[roots[j]];
		long sp = 0, c;
		int64_t end = r->start + r->dur;

		if (o->trace && (r->trace_lo != o->trace_lo ||
		    (!o->lo_only && r->trace_hi != o->trace_hi)))
			continue;
		count[j] = 0;
		stack[sp++] = roots[j];
		while (sp > 0) {
			const struct tspan *s = &t->s[stack[--sp]];

			count[j]++;
			if (s->start + s->dur > end)
				end = s->start + s->dur;
			for (c = s->first; c >= 0; c = t->s[c].next)
				stack[sp++] = c;
		}
		dur[j] = end - r->start;
		sel[nsel++] = (long)j;
	}
	if (o->slowest > 0) {
		sort_dur = dur;
		qsort(sel, (size_t)nsel, sizeof(*sel), by_dur);
		if ((size_t)nsel > o->slowest)
			nsel = (long)o->slowest;
	}
	for (j = 0; j < (size_t)nsel; j++) {
		long rj = sel[j];
		const struct tspan *r = &t->s[roots[rj]];
		long sp = 0, c;

		fprintf(out, "trace %016" PRIx64 "%016" PRIx64 ": %ld span%s, "
		    "%s%s from %s%s\n", r->trace_hi, r->trace_lo, count[rj],
		    count[rj] == 1 ? "" : "s", tm(o, t1, sizeof(t1), dur[rj]),
		    o->ps ? " ps" : "", tm(o, t2, sizeof(t2), r->start),
		    r->parent != 0 ? " (parent not in the input)" : "");
		t->printed++;
		/* depth first, children in start order */
		stack[sp] = roots[rj];
		depth[sp++] = 0;
		while (sp > 0) {
			long k, d, n = 0;
			const struct tspan *s;

			sp--;
			k = stack[sp];
			d = depth[sp];
			s = &t->s[k];
			if (o->ps)
				fprintf(out, "%*s%-12s %-10s %15s +%-12s dur %-10s span %"
				    PRIu64 "%s", (int)(2 + 2 * d), "",
				    t->fs->types[s->ftype].name,
				    sname(t, s->stream, sb, sizeof(sb)),
				    tm(o, t1, sizeof(t1), s->start),
				    tm(o, t2, sizeof(t2), s->start - r->start),
				    tm(o, t3, sizeof(t3), s->dur), s->id,
				    t->arena + s->text);
			else
				fprintf(out, "%*s%-12s %-10s %14s +%-12s dur %-11s span %"
				    PRIu64 "%s", (int)(2 + 2 * d), "",
				    t->fs->types[s->ftype].name,
				    sname(t, s->stream, sb, sizeof(sb)),
				    tm(o, t1, sizeof(t1), s->start),
				    tm(o, t2, sizeof(t2), s->start - r->start),
				    tm(o, t3, sizeof(t3), s->dur), s->id,
				    t->arena + s->text);
			if (s->nev > 0)
				fprintf(out, " (%u event%s)", s->nev,
				    s->nev == 1 ? "" : "s");
			fputc('\n', out);
			for (i = 0; i < s->nlinks; i++) {
				const struct tlink *l = &t->l[s->link0 + (long)i];

				fprintf(out, "%*s-> link %s: span %" PRIu64 " of trace "
				    "%016" PRIx64 "%016" PRIx64 "\n", (int)(4 + 2 * d), "",
				    t->arena + l->kind, l->target, l->trace_hi,
				    l->trace_lo);
			}
			/* push children reversed so the first is printed first */
			for (c = s->first; c >= 0; c = t->s[c].next)
				n++;
			sp += n;
			for (c = s->first, i = 1; c >= 0; c = t->s[c].next, i++) {
				stack[sp - (long)i] = c;
				depth[sp - (long)i] = d + 1;
			}
		}
	}
out:
	free(order);
	free(stack);
	free(depth);
	free(roots);
	free(count);
	free(sel);
	free(dur);
}

void
ssp_spantree_free(struct ssp_spantree *t)
{
	if (t == NULL)
		return;
	free(t->s);
	free(t->l);
	free(t->arena);
	free(t);
}

/* --trace (spantree.h) */
int
ssp_spantree_parse_trace(const char *s, struct ssp_spantree_opts *o)
{
	size_t n, i;
	uint64_t hi = 0, lo = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	n = strlen(s);
	if (n == 0 || n > 32)
		return -1;
	for (i = 0; i < n; i++) {
		int c = s[i], v;

		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v = c - 'A' + 10;
		else
			return -1;
		if (n > 16 && i < n - 16)
			hi = hi << 4 | (uint64_t)v;
		else
			lo = lo << 4 | (uint64_t)v;
	}
	o->trace = 1;
	o->trace_hi = hi;
	o->trace_lo = lo;
	o->lo_only = n <= 16;
	return 0;
}
