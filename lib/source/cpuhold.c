#include <stdlib.h>
#include <string.h>

#include "source/cpuhold.h"
#include "stream/event.h"

struct held {
	struct ssp_rec r;
	uint64_t lineno;
	uint8_t wait, pair;
};

/* The line of a CPU's latest Exec line reported. */
struct cpuline {
	uint64_t cpu, lineno;
};

/* A BAR mapping: the A= of an access minus its BAR offset. */
struct delta {
	uint64_t comp;
	int64_t bar;
	uint64_t d;
};

struct ssp_cpuhold {
	struct held *q;
	size_t head, n;
	uint64_t seq0;		/* sequence number of q[head] */
	uint64_t *wq;		/* sequence numbers of the waiting, in order */
	size_t nwait;
	int seen_ea;		/* an Exec line showed A= */
	int off;		/* holding stopped: none of the first matched */
	struct delta delta[SSP_CPUHOLD_NDELTA];
	unsigned ndelta;
	struct cpuline cl[SSP_CPUHOLD_NCPU];
	unsigned ncl;
	struct ssp_cpuhold_stats st;
};

int
ssp_cpuhold_new(struct ssp_cpuhold **hp, struct ssp_err *e)
{
	struct ssp_cpuhold *h = calloc(1, sizeof(*h));

	*hp = NULL;
	if (h == NULL || (h->q = calloc(SSP_CPUHOLD_MAX, sizeof(*h->q))) == NULL ||
	    (h->wq = calloc(SSP_CPUHOLD_MAX, sizeof(*h->wq))) == NULL) {
		if (h != NULL)
			free(h->q);
		free(h);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	*hp = h;
	return SSP_OK;
}

void
ssp_cpuhold_free(struct ssp_cpuhold *h)
{
	if (h == NULL)
		return;
	free(h->q);
	free(h->wq);
	free(h);
}

size_t
ssp_cpuhold_len(const struct ssp_cpuhold *h)
{
	return h->n;
}

int
ssp_cpuhold_wants(const struct ssp_cpuhold *h, int guess)
{
	return h->n > 0 || (guess && !h->off);
}

static struct held *
at(struct ssp_cpuhold *h, size_t i)
{
	return &h->q[(h->head + i) % SSP_CPUHOLD_MAX];
}

void
ssp_cpuhold_put(struct ssp_cpuhold *h, const struct ssp_rec *r,
    uint64_t lineno, int guess, int pair)
{
	struct held *x;

	if (h->n == SSP_CPUHOLD_MAX)	/* the caller's error: keep bounded */
		return;
	x = at(h, h->n++);
	x->r = *r;
	x->lineno = lineno;
	x->pair = (uint8_t)pair;
	x->wait = guess && !h->off &&
	    (r->type == SSP_EV_MMIO_WR || r->type == SSP_EV_MMIO_RD);
	if (x->wait) {
		h->wq[h->nwait++] = h->seq0 + h->n - 1;
		h->st.held++;
	}
}

/* The k-th waiting entry, oldest first. */
static struct held *
waiting(struct ssp_cpuhold *h, size_t k)
{
	return at(h, (size_t)(h->wq[k] - h->seq0));
}

/* The k-th waiting entry waits no more. */
static void
unwait(struct ssp_cpuhold *h, size_t k)
{
	waiting(h, k)->wait = 0;
	memmove(&h->wq[k], &h->wq[k + 1], (h->nwait - k - 1) * sizeof(h->wq[0]));
	h->nwait--;
}

static struct delta *
delta_of(struct ssp_cpuhold *h, const struct ssp_rec *r)
{
	unsigned i;

	for (i = 0; i < h->ndelta; i++)
		if (h->delta[i].comp == r->f[0] &&
		    h->delta[i].bar == (int64_t)r->f[SSP_F_MMIO_BAR])
			return &h->delta[i];
	return NULL;
}

static void
learn(struct ssp_cpuhold *h, const struct ssp_rec *r, uint64_t ea)
{
	struct delta *d;

	if (h->ndelta == SSP_CPUHOLD_NDELTA)
		return;
	d = &h->delta[h->ndelta++];
	d->comp = r->f[0];
	d->bar = (int64_t)r->f[SSP_F_MMIO_BAR];
	d->d = ea - r->f[SSP_F_MMIO_OFFS];
}

/*
 * Does access a (on line lineno; prev: the line of its CPU's Exec line
 * before) show the held access x?  TimingSimpleCPU prints it dated before
 * the adapter line, MinorCPU (commit times) as its CPU's first Exec line
 * after it: either way a line that cannot be an older access's.
 */
static int
shows(struct ssp_cpuhold *h, const struct held *x,
    const struct ssp_pline_access *a, uint64_t prev)
{
	const struct ssp_rec *r = &x->r;
	char dir = r->type == SSP_EV_MMIO_WR ? 'w' : 'r';
	const struct delta *d;

	if (a->mem != '?' && a->mem != dir)
		return 0;
	if (a->has_ea) {
		if (a->mem == '?' || (a->tick >= r->ts && prev > x->lineno))
			return 0;
		if ((d = delta_of(h, r)) != NULL)
			return a->ea - r->f[SSP_F_MMIO_OFFS] == d->d;
		/* the page offset of the virtual and the physical address */
		return ((a->ea ^ r->f[SSP_F_MMIO_ADDR]) & 0xfff) == 0;
	}
	/* no A= in this log: the CPU that stalled across the access prints
	 * it dated before the adapter line by at least the IO bridge; with
	 * micro-op lines, its micro-op line (the macro-op header before it
	 * shows no access) */
	return !h->seen_ea && a->micro == a->micro_log &&
	    a->tick <= r->ts - SSP_CPUHOLD_STALL_PS;
}


/* The line of cpu's previous Exec line reported (0: none), now lineno. */
static uint64_t
cpu_line(struct ssp_cpuhold *h, uint64_t cpu, uint64_t lineno)
{
	uint64_t prev;
	unsigned i;

	for (i = 0; i < h->ncl; i++)
		if (h->cl[i].cpu == cpu)
			break;
	if (i == h->ncl) {
		if (h->ncl == SSP_CPUHOLD_NCPU)
			return 0;	/* untracked: every line is a first */
		h->cl[h->ncl++] = (struct cpuline){ cpu, 0 };
	}
	prev = h->cl[i].lineno;
	h->cl[i].lineno = lineno;
	return prev;
}

void
ssp_cpuhold_access(struct ssp_cpuhold *h, const struct ssp_pline_access *a,
    uint64_t lineno)
{
	uint64_t prev = cpu_line(h, a->cpu, lineno);
	size_t i;

	if (a->has_ea)
		h->seen_ea = 1;
	for (i = 0; i < h->nwait; i++) {
		struct held *x = waiting(h, i);

		if (!shows(h, x, a, prev))
			continue;
		if (a->has_ea) {
			if (delta_of(h, &x->r) == NULL)
				learn(h, &x->r, a->ea);
			h->st.by_addr++;
		} else {
			h->st.by_stall++;
		}
		x->r.f[ssp_event_cpu_field(x->r.type)] = a->cpu;
		unwait(h, i);
		return;
	}
}

void
ssp_cpuhold_tick(struct ssp_cpuhold *h, int64_t tick)
{
	while (h->nwait > 0 && tick - waiting(h, 0)->r.ts > SSP_CPUHOLD_WINDOW_PS) {
		h->st.window++;	/* later ones are younger */
		unwait(h, 0);
	}
	/* none of the first matched: this CPU prints otherwise (O3), or
	 * Exec tracing is off */
	if (!h->off && h->st.held >= SSP_CPUHOLD_GIVEUP &&
	    h->st.by_addr + h->st.by_stall == 0) {
		h->off = 1;
		while (h->nwait > 0) {
			h->st.off++;
			unwait(h, 0);
		}
	}
}

void
ssp_cpuhold_release(struct ssp_cpuhold *h, int all)
{
	while (h->nwait > 0) {
		if (all)
			h->st.end++;
		else
			h->st.full++;
		unwait(h, 0);
		if (!all)
			return;
	}
}

struct ssp_rec *
ssp_cpuhold_head(struct ssp_cpuhold *h, uint64_t *lineno, int *pair)
{
	struct held *x;

	if (h->n == 0 || (x = at(h, 0))->wait)
		return NULL;
	*lineno = x->lineno;
	*pair = x->pair;
	return &x->r;
}

void
ssp_cpuhold_pop(struct ssp_cpuhold *h)
{
	if (h->n == 0)
		return;
	if (at(h, 0)->wait)
		unwait(h, 0);
	h->head = (h->head + 1) % SSP_CPUHOLD_MAX;
	h->n--;
	h->seq0++;
}

const struct ssp_cpuhold_stats *
ssp_cpuhold_stats(const struct ssp_cpuhold *h)
{
	return &h->st;
}
