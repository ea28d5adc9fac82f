/*
 * Kernel context machine on arbitrary inputs: every 2 bytes are one input
 * (a CPU of 0-7, or one past SSP_KCTX_MAXCPU, and any mix of classes, or a
 * user-mode transition), with and without a syscall-exit class, with and
 * without the retract callback.  Whatever
 * comes, it must not crash, each context must be closed exactly once,
 * parents must be contexts opened before, holds and releases must balance,
 * and nothing is left open or held after ssp_kctx_end.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "span/kctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct ctx {
	unsigned kind;
	int closed, holds, linked;
	struct ctx *parent;
};

struct rec {
	struct ctx *c;
	size_t n, cap;
};

static void *
f_open(void *p, const struct ssp_kctx_open *o)
{
	struct rec *r = p;
	struct ctx *c;
	size_t i;

	if (o->kind >= SSP_KCTX_NKINDS || o->why >= SSP_KCTX_WHY_N)
		abort();
	if (o->parent != NULL) {	/* a context opened before */
		for (i = 0; i < r->n && (void *)&r->c[i] != o->parent; i++)
			;
		if (i == r->n)
			abort();
	}
	if (r->n == r->cap)
		return NULL;		/* not tracked: the machine copes */
	c = &r->c[r->n++];
	memset(c, 0, sizeof(*c));
	c->kind = o->kind;
	c->parent = o->parent;
	return c;
}

static void
f_close(void *p, void *x, unsigned why, int last)
{
	struct ctx *c = x;

	(void)p;
	(void)last;
	if (c->closed || why >= SSP_KCTX_WHY_N)
		abort();
	c->closed = 1;
}

static void f_hold(void *p, void *x) { (void)p; ((struct ctx *)x)->holds++; }

static void
f_release(void *p, void *x)
{
	(void)p;
	if (--((struct ctx *)x)->holds < 0)
		abort();
}

static void
f_link(void *p, void *sys, void *res)
{
	(void)p;
	if (((struct ctx *)sys)->kind != SSP_KCTX_SYSCALL ||
	    ((struct ctx *)res)->kind != SSP_KCTX_RESUME)
		abort();
	((struct ctx *)sys)->linked++;
}

static void f_woke(void *p, void *w, void *s) { (void)p; (void)w; (void)s; }

/* A taken-back resume: open, linked from its syscall; it is gone then. */
static void
f_retract(void *p, void *sys, void *res)
{
	struct ctx *s = sys, *r = res;

	(void)p;
	if (s->kind != SSP_KCTX_SYSCALL || s->closed)
		abort();
	if (r == NULL)
		return;
	if (r->kind != SSP_KCTX_RESUME || r->closed || s->linked <= 0)
		abort();
	s->linked--;
	r->closed = 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ctx pool[4096];
	struct rec r = { pool, 0, sizeof(pool) / sizeof(pool[0]) };
	struct ssp_kctx_cfg cfg = { size > 0 && (data[0] & 1) };
	/* data[0] bit 1: with the retract callback (the sched-in of
	 * ksoftirqd taken back) */
	struct ssp_kctx_ops ops = { &r, f_open, f_close, f_hold, f_release,
	    f_link, f_woke, size > 0 && (data[0] & 2) ? f_retract : NULL };
	struct ssp_kctx *k;
	struct ssp_err e;
	size_t i;

	if (ssp_kctx_new(&k, &cfg, &ops, &e) != SSP_OK)
		return 0;
	for (i = 1; i + 1 < size; i += 2) {
		unsigned cpu = data[i] & 7, cls = data[i + 1];
		void *top;

		if (data[i] & 0x80)
			cpu = SSP_KCTX_MAXCPU;
		cls |= (unsigned)(data[i] & 0x70) << 4;	/* idle, app-root, sysvec */
		if (cls == 0xff) {
			ssp_kctx_user(k, cpu);
			continue;
		}
		top = ssp_kctx_func(k, cpu, cls);
		if (top != NULL && ((struct ctx *)top)->closed)
			abort();	/* a member of a closed context */
		top = ssp_kctx_top(k, cpu);
		if (top != NULL && ((struct ctx *)top)->closed)
			abort();
	}
	ssp_kctx_end(k);
	for (i = 0; i < r.n; i++)
		if (!pool[i].closed || pool[i].holds != 0)
			abort();
	ssp_kctx_free(k);
	return 0;
}
