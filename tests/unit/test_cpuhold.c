/* Held adapter accesses: the CPU of the Exec line that shows the access
 * (address, then the learnt mapping; the stall rule without A=), log
 * order kept, the window, the buffer bound, giving up, the end of the log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "source/cpuhold.h"
#include "stream/event.h"

#define CPU0 11
#define CPU1 12
#define COMP 7

static struct ssp_rec
mmio(int write, int64_t ts, uint64_t addr, uint64_t offs, uint64_t guess)
{
	struct ssp_rec r;

	memset(&r, 0, sizeof(r));
	r.type = write ? SSP_EV_MMIO_WR : SSP_EV_MMIO_RD;
	r.ts = ts;
	r.f[0] = COMP;
	r.f[SSP_F_MMIO_ADDR] = addr;
	r.f[SSP_F_MMIO_OFFS] = offs;
	r.f[SSP_F_MMIO_BAR] = 0;
	r.f[ssp_event_cpu_field(r.type)] = guess;
	return r;
}

static struct ssp_rec
func(int64_t ts)
{
	struct ssp_rec r;

	memset(&r, 0, sizeof(r));
	r.type = SSP_EV_FUNC;
	r.ts = ts;
	return r;
}

static struct ssp_pline_access
acc(uint32_t cpu, char mem, int64_t tick, int has_ea, uint64_t ea)
{
	struct ssp_pline_access a = { cpu, mem, 1, 1, has_ea, ea, tick };

	return a;
}

static uint64_t
cpu_of(const struct ssp_rec *r)
{
	return r->f[ssp_event_cpu_field(r->type)];
}

/* Pop every writable event; returns how many, the types in *types. */
static size_t
drain(struct ssp_cpuhold *h, unsigned *types, uint64_t *cpus)
{
	struct ssp_rec *r;
	uint64_t ln;
	int pair;
	size_t n = 0;

	while ((r = ssp_cpuhold_head(h, &ln, &pair)) != NULL) {
		types[n] = r->type;
		cpus[n++] = r->type == SSP_EV_FUNC ? 0 : cpu_of(r);
		ssp_cpuhold_pop(h);
	}
	return n;
}

static void
test_timing_simple(void **state)
{
	struct ssp_cpuhold *h;
	struct ssp_rec r = mmio(1, 1000000, 0xc0108000, 0x108000, CPU1);
	struct ssp_rec f = func(1010000);
	struct ssp_pline_access a;
	unsigned ty[8];
	uint64_t cpu[8];

	(void)state;
	assert_int_equal(ssp_cpuhold_new(&h, NULL), SSP_OK);
	assert_false(ssp_cpuhold_wants(h, 0));
	assert_true(ssp_cpuhold_wants(h, 1));
	ssp_cpuhold_put(h, &r, 10, 1, 0);
	assert_true(ssp_cpuhold_wants(h, 0));	/* behind it */
	ssp_cpuhold_put(h, &f, 11, 0, 0);
	assert_null(ssp_cpuhold_head(h, &(uint64_t){ 0 }, &(int){ 0 }));
	/* another CPU's store at another page offset, then a load at it */
	a = acc(CPU1, 'w', 1005000, 1, 0xffff888000001010);
	ssp_cpuhold_access(h, &a, 12);
	a = acc(CPU0, 'r', 940000, 1, 0xffffc90000508000);
	ssp_cpuhold_access(h, &a, 13);
	assert_int_equal(ssp_cpuhold_len(h), 2);
	/* the store itself, dated before the adapter line */
	a = acc(CPU0, 'w', 940000, 1, 0xffffc90000508000);
	ssp_cpuhold_access(h, &a, 14);
	assert_int_equal(drain(h, ty, cpu), 2);
	assert_int_equal(ty[0], SSP_EV_MMIO_WR);
	assert_int_equal(cpu[0], CPU0);
	assert_int_equal(ty[1], SSP_EV_FUNC);
	assert_int_equal(ssp_cpuhold_stats(h)->by_addr, 1);
	/* the mapping is learnt: the same page offset at another base is
	 * not this BAR's access any more */
	r = mmio(1, 2000000, 0xc0108000, 0x108000, CPU1);
	ssp_cpuhold_put(h, &r, 20, 1, 0);
	a = acc(CPU1, 'w', 1900000, 1, 0xffffc90000708000);
	ssp_cpuhold_access(h, &a, 21);
	assert_int_equal(ssp_cpuhold_len(h), 1);
	a = acc(CPU1, 'w', 1900000, 1, 0xffffc90000508000);
	ssp_cpuhold_access(h, &a, 22);
	assert_int_equal(drain(h, ty, cpu), 1);
	assert_int_equal(cpu[0], CPU1);
	ssp_cpuhold_free(h);
}

static void
test_minor_and_order(void **state)
{
	struct ssp_cpuhold *h;
	struct ssp_rec r1 = mmio(1, 1000000, 0xc0108000, 0x108000, CPU0);
	struct ssp_rec r2 = mmio(0, 1000000, 0xc0128004, 0x128004, CPU0);
	struct ssp_pline_access a;
	unsigned ty[8];
	uint64_t cpu[8];

	(void)state;
	assert_int_equal(ssp_cpuhold_new(&h, NULL), SSP_OK);
	/* an earlier line of CPU1 (before the accesses) */
	a = acc(CPU1, '?', 900000, 0, 0);
	ssp_cpuhold_access(h, &a, 5);
	ssp_cpuhold_put(h, &r1, 10, 1, 0);
	ssp_cpuhold_put(h, &r2, 11, 1, 0);
	/* dated after the adapter line: only as its CPU's first line after
	 * it (MinorCPU's commit time); CPU0's first line is not this one */
	a = acc(CPU0, '?', 1010000, 0, 0);
	ssp_cpuhold_access(h, &a, 12);
	a = acc(CPU0, 'w', 1020000, 1, 0xffffc90000508000);
	ssp_cpuhold_access(h, &a, 13);
	assert_int_equal(ssp_cpuhold_len(h), 2);
	/* CPU1's first line since the hold: the load; the store waits */
	a = acc(CPU1, 'r', 1030000, 1, 0xffffc90000528004);
	ssp_cpuhold_access(h, &a, 14);
	assert_null(ssp_cpuhold_head(h, &(uint64_t){ 0 }, &(int){ 0 }));
	/* the window passes: the store keeps its guess, both go out in order */
	ssp_cpuhold_tick(h, 1000000 + SSP_CPUHOLD_WINDOW_PS + 1);
	assert_int_equal(drain(h, ty, cpu), 2);
	assert_int_equal(ty[0], SSP_EV_MMIO_WR);
	assert_int_equal(cpu[0], CPU0);
	assert_int_equal(ty[1], SSP_EV_MMIO_RD);
	assert_int_equal(cpu[1], CPU1);
	assert_int_equal(ssp_cpuhold_stats(h)->window, 1);
	ssp_cpuhold_free(h);
}

static void
test_stall_rule(void **state)
{
	struct ssp_cpuhold *h;
	struct ssp_rec r = mmio(1, 1000000, 0xc0108000, 0x108000, CPU0);
	struct ssp_pline_access a;
	unsigned ty[4];
	uint64_t cpu[4];

	(void)state;
	assert_int_equal(ssp_cpuhold_new(&h, NULL), SSP_OK);
	ssp_cpuhold_put(h, &r, 10, 1, 0);
	/* no A= in this log: a line dated only 10 ns before is not it, a
	 * macro-op header is not it in a log with micro-op lines */
	a = acc(CPU1, 'w', 990000, 0, 0);
	ssp_cpuhold_access(h, &a, 11);
	a = acc(CPU1, '?', 900000, 0, 0);
	a.micro = 0;
	ssp_cpuhold_access(h, &a, 12);
	assert_int_equal(ssp_cpuhold_len(h), 1);
	a = acc(CPU1, 'w', 900000, 0, 0);
	ssp_cpuhold_access(h, &a, 13);
	assert_int_equal(drain(h, ty, cpu), 1);
	assert_int_equal(cpu[0], CPU1);
	assert_int_equal(ssp_cpuhold_stats(h)->by_stall, 1);
	ssp_cpuhold_free(h);
}

static void
test_bounds(void **state)
{
	struct ssp_cpuhold *h;
	struct ssp_rec r = mmio(1, 1000, 0xc0108000, 0x108000, CPU0);
	struct ssp_rec f = func(1000);
	unsigned ty[SSP_CPUHOLD_MAX];
	uint64_t cpu[SSP_CPUHOLD_MAX];
	size_t i;

	(void)state;
	assert_int_equal(ssp_cpuhold_new(&h, NULL), SSP_OK);
	ssp_cpuhold_put(h, &r, 1, 1, 0);
	for (i = 1; i < SSP_CPUHOLD_MAX; i++)
		ssp_cpuhold_put(h, &f, 1 + i, 0, 0);
	assert_int_equal(ssp_cpuhold_len(h), SSP_CPUHOLD_MAX);
	ssp_cpuhold_put(h, &f, 9999, 0, 0);	/* full: not kept */
	assert_int_equal(ssp_cpuhold_len(h), SSP_CPUHOLD_MAX);
	ssp_cpuhold_release(h, 0);
	assert_int_equal(drain(h, ty, cpu), SSP_CPUHOLD_MAX);
	assert_int_equal(cpu[0], CPU0);
	assert_int_equal(ssp_cpuhold_stats(h)->full, 1);
	/* the end of the log */
	ssp_cpuhold_put(h, &r, 1, 1, 0);
	ssp_cpuhold_release(h, 1);
	assert_int_equal(drain(h, ty, cpu), 1);
	assert_int_equal(ssp_cpuhold_stats(h)->end, 1);
	/* none of the first SSP_CPUHOLD_GIVEUP matched: no more holding */
	for (i = 0; i + 1 < SSP_CPUHOLD_GIVEUP; i++) {
		ssp_cpuhold_put(h, &r, 1, 1, 0);
		ssp_cpuhold_release(h, 1);
		drain(h, ty, cpu);
	}
	ssp_cpuhold_tick(h, 2000);
	assert_false(ssp_cpuhold_wants(h, 1));
	ssp_cpuhold_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timing_simple),
		cmocka_unit_test(test_minor_and_order),
		cmocka_unit_test(test_stall_rule),
		cmocka_unit_test(test_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
