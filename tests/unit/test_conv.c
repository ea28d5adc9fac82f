/* Conversion driver: events written and read back, time offsets (fixed and
 * from the sync line, with held events), strict mode, accounting and
 * examples, partial and over-long lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"
#include "source/conv.h"

static char path[64];
static enum ssp_sim sim = SSP_SIM_GEM5;	/* start()'s simulator */

struct run {
	struct ssp_atoms *atoms;
	struct ssp_out *out;
	struct ssp_conv *c;
	struct ssp_err e;
	uint64_t lineno;
};

static void
start(struct run *r, enum ssp_offset_mode mode, int64_t off, int strict,
    size_t hold_max)
{
	struct ssp_conv_cfg cfg;
	static const struct ssp_meta meta[] = { { "source", "test.log" } };

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "/tmp/ssp-test-conv-%d.ev", (int)getpid());
	assert_int_equal(ssp_atoms_new(&r->atoms, NULL), SSP_OK);
	assert_int_equal(ssp_out_open(&r->out, path, 0, &r->e), SSP_OK);
	memset(&cfg, 0, sizeof(cfg));
	cfg.sim = sim;
	cfg.stream = "host";
	cfg.source = "test.log";
	cfg.producer = "test";
	cfg.meta = meta;
	cfg.nmeta = 1;
	cfg.out = r->out;
	cfg.atoms = r->atoms;
	cfg.strict = strict;
	cfg.offset_mode = mode;
	cfg.offset = off;
	cfg.hold_max = hold_max;
	assert_int_equal(ssp_conv_open(&r->c, &cfg, &r->e), SSP_OK);
}

static int
feed(struct run *r, const char *line)
{
	return ssp_conv_line(r->c, line, strlen(line), ++r->lineno, 0, 0, &r->e);
}

static void
finish(struct run *r)
{
	assert_int_equal(ssp_conv_finish(r->c, &r->e), SSP_OK);
	assert_int_equal(ssp_out_close(r->out, &r->e), SSP_OK);
}

static void
done(struct run *r)
{
	ssp_conv_free(r->c);
	ssp_atoms_free(r->atoms);
	unlink(path);
}

/* Read the stream back: fills ts[] and types[]; returns the count. */
static size_t
readback(int64_t *ts, unsigned *types, size_t max, char *offset, size_t olen)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec rec;
	struct ssp_err e = { 0 };
	size_t n = 0;
	const char *m;

	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	m = ssp_rec_rd_meta(rr, "time-offset");
	assert_non_null(m);
	if (offset != NULL)
		snprintf(offset, olen, "%s", m);
	assert_string_equal(ssp_rec_rd_meta(rr, "stream"), "host");
	assert_string_equal(ssp_rec_rd_meta(rr, "source"), "test.log");
	while (ssp_rec_rd_next(rr, &rec, &e) == 1) {
		assert_true(n < max);
		if (rec.type == SSP_EV_MMIO_RD) {
			size_t len;
			const char *s = ssp_rec_rd_str(rr, rec.f[SSP_F_MMIO_COMP], &len);

			assert_non_null(s);
			assert_string_equal(s, "system.pc.simbricks_0");
		}
		ts[n] = rec.ts;
		types[n++] = rec.type;
	}
	assert_int_equal(e.code, 0);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	return n;
}

static void
test_fixed_offset(void **state)
{
	struct run r;
	int64_t ts[8];
	unsigned ty[8];
	char off[32];
	const struct ssp_conv_stats *st;

	(void)state;
	start(&r, SSP_OFFSET_FIXED, 1000, 0, 0);
	assert_int_equal(feed(&r, "1500: system.pc.simbricks_0: simbricks-pci: sending read "
	    "addr c0 size 4 id 1 bar 0 offs 0"), SSP_OK);
	assert_int_equal(feed(&r, "console text"), SSP_OK);
	assert_int_equal(feed(&r, "500: global: simbricks: processInEvent"), SSP_OK);
	assert_int_equal(feed(&r, "9223372036854775807: global: simbricks: processInEvent"),
	    SSP_OK);
	st = ssp_conv_stats(r.c);
	finish(&r);
	assert_int_equal(st->lines, 4);
	assert_int_equal(st->nevents, 3);
	assert_int_equal(st->events[SSP_EV_MMIO_RD] + st->events[SSP_EV_PROC_IN], 3);
	assert_int_equal(st->skipped[SSP_SKIP_TEXT], 1);
	assert_int_equal(readback(ts, ty, 8, off, sizeof(off)), 3);
	assert_string_equal(off, "1000");
	assert_int_equal(ts[0], 500);
	assert_int_equal(ty[0], SSP_EV_MMIO_RD);
	assert_int_equal(ts[1], -500);	/* before the offset: negative */
	assert_int_equal(ts[2], INT64_MAX - 1000);
	done(&r);

	/* subtracting a negative offset can overflow: counted, not wrapped */
	start(&r, SSP_OFFSET_FIXED, -10, 0, 0);
	assert_int_equal(feed(&r, "9223372036854775807: global: simbricks: processInEvent"),
	    SSP_OK);
	st = ssp_conv_stats(r.c);
	assert_int_equal(st->skipped[SSP_SKIP_MALFORMED], 1);
	assert_int_equal(st->nevents, 0);
	finish(&r);
	done(&r);
}

static void
test_sync_offset(void **state)
{
	struct run r;
	int64_t ts[8];
	unsigned ty[8];
	char off[32];
	const struct ssp_conv_stats *st;

	(void)state;
	start(&r, SSP_OFFSET_SYNC, 0, 0, 0);
	assert_int_equal(feed(&r, "1999000000000: system.pc.simbricks_0: simbricks-pci: "
	    "sending read addr c0 size 4 id 1 bar 0 offs 0"), SSP_OK);
	assert_int_equal(feed(&r, "1999500000000: global: simbricks: processInEvent"), SSP_OK);
	st = ssp_conv_stats(r.c);
	assert_int_equal(st->held, 2);
	assert_false(st->offset_known);
	assert_false(ssp_conv_pending(r.c));
	assert_int_equal(feed(&r, "2000000000000: global: simbricks: sending sync message "
	    "for ts=500000"), SSP_OK);
	assert_true(st->offset_known);
	assert_int_equal(st->offset, 2000000000000 - 500000);
	assert_int_equal(st->offset_line, 3);
	assert_int_equal(st->held, 0);
	assert_int_equal(feed(&r, "2000001000000: global: simbricks: processInEvent"), SSP_OK);
	assert_true(ssp_conv_pending(r.c));
	assert_int_equal(ssp_conv_flush(r.c, &r.e), SSP_OK);
	assert_false(ssp_conv_pending(r.c));
	finish(&r);
	assert_int_equal(readback(ts, ty, 8, off, sizeof(off)), 4);
	assert_string_equal(off, "1999999500000");
	assert_int_equal(ts[0], 1999000000000 - 1999999500000);	/* held, negative */
	assert_int_equal(ty[0], SSP_EV_MMIO_RD);
	assert_int_equal(ts[1], 1999500000000 - 1999999500000);
	assert_int_equal(ty[2], SSP_EV_SYNC);
	assert_int_equal(ts[2], 500000);	/* the sync line lands on its own ts */
	assert_int_equal(ts[3], 1500000);
	done(&r);
}

/* The mode qemu runs in: the offset from a sync line when one comes,
 * else the times as printed (and sync_missing set). */
static void
test_sync_auto(void **state)
{
	struct run r;
	int64_t ts[8];
	unsigned ty[8];
	char off[32];
	const struct ssp_conv_stats *st;
	int i;

	(void)state;
	start(&r, SSP_OFFSET_SYNC_AUTO, 0, 0, 0);
	assert_int_equal(feed(&r, "2000: global: simbricks: processInEvent"), SSP_OK);
	assert_int_equal(feed(&r, "3000: global: simbricks: sending sync message "
	    "for ts=1000"), SSP_OK);
	st = ssp_conv_stats(r.c);
	assert_true(st->offset_known);
	assert_int_equal(st->offset, 2000);
	assert_false(st->sync_missing);
	finish(&r);
	assert_int_equal(readback(ts, ty, 8, off, sizeof(off)), 2);
	assert_string_equal(off, "2000");
	assert_int_equal(ts[0], 0);
	done(&r);
	/* none comes: the held events are written with offset 0 */
	start(&r, SSP_OFFSET_SYNC_AUTO, 0, 0, 0);
	assert_int_equal(feed(&r, "2000: global: simbricks: processInEvent"), SSP_OK);
	st = ssp_conv_stats(r.c);
	assert_false(st->offset_known);
	finish(&r);
	assert_true(st->sync_missing);
	assert_int_equal(readback(ts, ty, 8, off, sizeof(off)), 1);
	assert_string_equal(off, "0");
	assert_int_equal(ts[0], 2000);
	done(&r);
	/* the hold buffer fills first: no error, the times as printed */
	start(&r, SSP_OFFSET_SYNC_AUTO, 0, 0, 200);
	for (i = 0; i < 100; i++)
		assert_int_equal(feed(&r, "1: global: simbricks: processInEvent"), SSP_OK);
	st = ssp_conv_stats(r.c);
	assert_true(st->offset_known);
	assert_true(st->sync_missing);
	assert_int_equal(st->nevents, 100);
	finish(&r);
	done(&r);
}

/* qemu's unsynchronized d2h lines (ts=0) are counted, with the first. */
static void
test_untimed(void **state)
{
	struct run r;
	const struct ssp_conv_stats *st;

	(void)state;
	sim = SSP_SIM_QEMU;
	start(&r, SSP_OFFSET_SYNC_AUTO, 0, 0, 0);
	sim = SSP_SIM_GEM5;
	assert_int_equal(feed(&r, "qemu-system-x86_64: warning: simbricks_mmio_rw: "
	    "finished write (5) addr=8 size=4 val=1"), SSP_OK);
	assert_int_equal(feed(&r, "qemu-system-x86_64: warning: "
	    "simbricks_comm_d2h_process: ts=0 type=68"), SSP_OK);
	assert_int_equal(feed(&r, "qemu-system-x86_64: warning: "
	    "simbricks_comm_d2h_process: ts=0 type=64"), SSP_OK);
	finish(&r);
	st = ssp_conv_stats(r.c);
	assert_int_equal(st->untimed, 2);
	assert_int_equal(st->untimed_line, 2);
	assert_int_equal(st->nevents, 3);
	assert_true(st->sync_missing);
	done(&r);
}

static void
test_sync_missing(void **state)
{
	struct run r;
	int i, rc = SSP_OK;

	(void)state;
	/* never comes */
	start(&r, SSP_OFFSET_SYNC, 0, 0, 0);
	assert_int_equal(feed(&r, "1: global: simbricks: processInEvent"), SSP_OK);
	assert_int_equal(ssp_conv_finish(r.c, &r.e), SSP_ERR_FORMAT);
	assert_non_null(strstr(r.e.msg, "--time-offset"));
	assert_non_null(strstr(r.e.msg, "1 events held"));
	assert_int_equal(ssp_out_close(r.out, NULL), SSP_OK);
	done(&r);
	/* the hold buffer overflows */
	start(&r, SSP_OFFSET_SYNC, 0, 0, 200);
	for (i = 0; i < 100 && rc == SSP_OK; i++)
		rc = feed(&r, "1: global: simbricks: processInEvent");
	assert_int_equal(rc, SSP_ERR_LIMIT);
	assert_non_null(strstr(r.e.msg, "test.log:"));
	assert_non_null(strstr(r.e.msg, "--time-offset PS"));
	assert_true(r.e.line > 1 && r.e.line < 100);
	ssp_conv_abort(r.c);
	assert_int_equal(ssp_out_close(r.out, NULL), SSP_OK);
	done(&r);
}

static void
test_strict(void **state)
{
	struct run r;

	(void)state;
	start(&r, SSP_OFFSET_NONE, 0, 1, 0);
	assert_int_equal(feed(&r, "some console text"), SSP_OK);	/* not a known kind */
	assert_int_equal(feed(&r, "5: system.pc.simbricks_0: simbricks-pci: sending read "
	    "addr zz size 4 id 1"), SSP_ERR_FORMAT);
	assert_non_null(strstr(r.e.msg, "test.log:2: malformed line"));
	assert_non_null(strstr(r.e.msg, "sending read"));
	assert_int_equal(r.e.line, 2);
	ssp_conv_abort(r.c);
	assert_int_equal(ssp_out_close(r.out, NULL), SSP_OK);
	done(&r);
}

static void
test_accounting(void **state)
{
	struct run r;
	const struct ssp_conv_stats *st;
	const struct ssp_conv_example *ex;
	uint64_t sum = 0;
	char longline[300];
	size_t i;

	(void)state;
	start(&r, SSP_OFFSET_NONE, 0, 0, 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(feed(&r, "console\x01text"), SSP_OK);
	assert_int_equal(feed(&r, ""), SSP_OK);
	assert_int_equal(feed(&r, "1: system.cpu: A0 T0 : 0xffffffff81000010    : mov"),
	    SSP_OK);
	memset(longline, 'x', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	assert_int_equal(feed(&r, longline), SSP_OK);
	assert_int_equal(ssp_conv_line(r.c, "1: global", 9, ++r.lineno, 1, 0, &r.e), SSP_OK);
	assert_int_equal(ssp_conv_line(r.c, "1: global: simbricks: processInEvent", 36,
	    ++r.lineno, 0, 1, &r.e), SSP_OK);
	assert_int_equal(feed(&r, "2: global: simbricks: processInEvent"), SSP_OK);
	st = ssp_conv_stats(r.c);
	assert_int_equal(st->lines, 11);
	assert_int_equal(st->skipped[SSP_SKIP_TEXT], 6);
	assert_int_equal(st->skipped[SSP_SKIP_EMPTY], 1);
	assert_int_equal(st->skipped[SSP_SKIP_EXEC], 1);
	assert_int_equal(st->skipped[SSP_SKIP_LONG], 1);
	assert_int_equal(st->skipped[SSP_SKIP_PARTIAL], 1);
	for (i = 0; i < SSP_SKIP_N; i++)
		sum += st->skipped[i];
	assert_int_equal(sum + st->nevents, st->lines);
	/* first three examples, line numbers, non-printables replaced */
	assert_int_equal(ssp_conv_examples(r.c, SSP_SKIP_TEXT, &ex), SSP_CONV_EXAMPLES);
	assert_int_equal(ex[0].line, 1);
	assert_int_equal(ex[2].line, 3);
	assert_string_equal(ex[0].text, "console?text");
	assert_int_equal(ssp_conv_examples(r.c, SSP_SKIP_TEXT + 100, &ex), 0);
	/* long example text is cut and marked */
	assert_int_equal(ssp_conv_examples(r.c, SSP_SKIP_TEXT, &ex), 3);
	finish(&r);
	done(&r);
}

/* A line that gives two events (a user transition at a function entry):
 * both written, in order, held until the sync line like any other, and
 * counted: lines = lines with events + skipped. */
static void
test_two_events(void **state)
{
	struct run r;
	int64_t ts[8];
	unsigned ty[8];
	const struct ssp_conv_stats *st;
	uint64_t sum = 0;
	size_t i;

	(void)state;
	start(&r, SSP_OFFSET_SYNC, 0, 0, 0);
	assert_int_equal(feed(&r, "100: system.cpu1: A0 T0 : 0x401000    : push rbp"),
	    SSP_OK);
	assert_int_equal(feed(&r, "150: system.cpu1: A0 T0 : 0x401004    : mov"), SSP_OK);
	assert_int_equal(feed(&r, "200: global: simbricks: sending sync message for "
	    "ts=50"), SSP_OK);
	assert_int_equal(feed(&r, "300: system.cpu0: A0 T0 : 0x401000    : push rbp"),
	    SSP_OK);
	assert_int_equal(feed(&r, "300: system.pc.simbricks_0: simbricks-pci: sending "
	    "read addr c0000000 size 4 id 1 bar 0 offs 0"), SSP_OK);
	finish(&r);
	st = ssp_conv_stats(r.c);
	assert_int_equal(st->lines, 5);
	assert_int_equal(st->events[SSP_EV_USER], 2);
	assert_int_equal(st->skipped[SSP_SKIP_EXEC], 1);
	for (i = 0; i < SSP_SKIP_N; i++)
		sum += st->skipped[i];
	/* no symbol table, no func events: one event per line */
	assert_int_equal(st->lines, st->nevents + sum);
	assert_int_equal(readback(ts, ty, 8, NULL, 0), 4);
	assert_int_equal(ty[0], SSP_EV_USER);
	assert_int_equal(ts[0], -50);
	assert_int_equal(ty[1], SSP_EV_SYNC);
	assert_int_equal(ty[2], SSP_EV_USER);
	assert_int_equal(ts[2], 150);
	assert_int_equal(ty[3], SSP_EV_MMIO_RD);
	done(&r);
}

/* The same with a user symbol table: the entry also gives its func event. */
static void
test_two_events_func(void **state)
{
	struct run r;
	struct ssp_conv_cfg cfg;
	struct ssp_symtab *st;
	struct ssp_in *in;
	int64_t ts[8];
	unsigned ty[8];
	uint64_t sum = 0;
	size_t i;

	(void)state;
	/* like start(), with a symbol table */
	memset(&r, 0, sizeof(r));
	snprintf(path, sizeof(path), "/tmp/ssp-test-conv-%d.ev", (int)getpid());
	assert_int_equal(ssp_atoms_new(&r.atoms, NULL), SSP_OK);
	assert_int_equal(ssp_symtab_new(&st, r.atoms, &r.e), SSP_OK);
	in = ph_in("0000000000001000 g     F .text\t0000000000000010 main\n");
	assert_int_equal(ssp_symtab_load(st, in, "app", 0x400000, NULL, NULL, &r.e),
	    SSP_OK);
	ssp_in_close(in);
	assert_int_equal(ssp_symtab_finish(st, &r.e), SSP_OK);
	assert_int_equal(ssp_out_open(&r.out, path, 0, &r.e), SSP_OK);
	memset(&cfg, 0, sizeof(cfg));
	cfg.sim = sim;
	cfg.stream = "host";
	cfg.source = "test.log";
	cfg.producer = "test";
	cfg.meta = (const struct ssp_meta[]){ { "source", "test.log" } };
	cfg.nmeta = 1;
	cfg.out = r.out;
	cfg.atoms = r.atoms;
	cfg.syms = st;
	cfg.offset_mode = SSP_OFFSET_NONE;
	assert_int_equal(ssp_conv_open(&r.c, &cfg, &r.e), SSP_OK);
	assert_int_equal(feed(&r, "100: system.cpu1: A0 T0 : 0x401000    : push rbp"),
	    SSP_OK);
	assert_int_equal(feed(&r, "110: system.cpu1: A0 T0 : 0x401000    : push rbp"),
	    SSP_OK);
	finish(&r);
	assert_int_equal(ssp_conv_stats(r.c)->lines, 2);
	assert_int_equal(ssp_conv_stats(r.c)->nevents, 3);
	for (i = 0; i < SSP_SKIP_N; i++)
		sum += ssp_conv_stats(r.c)->skipped[i];
	assert_int_equal(sum, 0);
	assert_int_equal(readback(ts, ty, 8, NULL, 0), 3);
	assert_int_equal(ty[0], SSP_EV_USER);
	assert_int_equal(ty[1], SSP_EV_FUNC);
	assert_int_equal(ts[1], 100);
	assert_int_equal(ty[2], SSP_EV_FUNC);
	done(&r);
	ssp_symtab_free(st);
}

/* The cpu field of the first mmio_wr read back; *nev the events, in
 * *types their types in order. */
static void
readback_cpu(char *cpu, size_t clen, unsigned *types, size_t max, size_t *nev)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec rec;
	struct ssp_err e = { 0 };
	size_t n = 0, len;
	const char *s;

	cpu[0] = '\0';
	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	while (ssp_rec_rd_next(rr, &rec, &e) == 1) {
		assert_true(n < max);
		types[n++] = rec.type;
		if (rec.type == SSP_EV_MMIO_WR && cpu[0] == '\0' &&
		    (s = ssp_rec_rd_str(rr, rec.f[ssp_event_cpu_field(rec.type)],
		    &len)) != NULL)
			snprintf(cpu, clen, "%.*s", (int)len, s);
	}
	assert_int_equal(e.code, 0);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	*nev = n;
}

/* TimingSimpleCPU: the store's Exec lines come after the adapter line,
 * dated at the store; CPU 1 printed last before it. */
static const char *const ts_lines[] = {
	"1000: system.switch_cpus0: A0 T0 : 0xffffffff81000010    : mov        rax, rdx : IntAlu :",
	"1000: system.switch_cpus0: A0 T0 : 0xffffffff81000010. 0 :   MOV_R_R : mov   rax, rax, rdx : IntAlu :  D=0x0000000000000001  flags=(IsInteger|IsMicroop|IsLastMicroop|IsFirstMicroop)",
	"1000: system.switch_cpus1: A0 T0 : 0xffffffff81000020    : mov        rax, rdx : IntAlu :",
	"61000: system.pc.simbricks_0: simbricks-pci: sending write addr c0108000 size 4 id 5 bar 0 offs 108000 posted 1",
	"61000: system.pc.simbricks_0.pio: simbricks-pci: sending immediate response for posted write",
	"62000: system.switch_cpus1: A0 T0 : 0xffffffff81000030    : mov        rax, rdx : IntAlu :",
	"62000: global: simbricks: processInEvent",
	"1000: system.switch_cpus0: A0 T0 : 0xffffffffa0025032    : mov        DS:[rbx + 0x10], rax",
	"1000: system.switch_cpus0: A0 T0 : 0xffffffffa0025032. 0 :   MOV_M_R : st   rax, DS:[rbx + 0x10] : MemWrite :  D=0x000000000000004b A=0xffffc90000508000  flags=(IsInteger|IsStore|IsMemRef|IsMicroop|IsLastMicroop|IsFirstMicroop)",
	"130000: global: simbricks: processInEvent",
};

static void
test_hold_cpu(void **state)
{
	struct run r;
	unsigned ty[8];
	size_t i, n;
	char cpu[64];
	const struct ssp_cpuhold_stats *hs;

	(void)state;
	start(&r, SSP_OFFSET_NONE, 0, 0, 0);
	for (i = 0; i < sizeof(ts_lines) / sizeof(ts_lines[0]); i++)
		assert_int_equal(feed(&r, ts_lines[i]), SSP_OK);
	finish(&r);
	hs = ssp_conv_hold_stats(r.c);
	assert_non_null(hs);
	assert_int_equal(hs->held, 1);
	assert_int_equal(hs->by_addr, 1);
	readback_cpu(cpu, sizeof(cpu), ty, 8, &n);
	assert_string_equal(cpu, "system.switch_cpus0");
	/* log order: the write, its response, the sync noise */
	assert_int_equal(n, 4);
	assert_int_equal(ty[0], SSP_EV_MMIO_WR);
	assert_int_equal(ty[1], SSP_EV_MMIO_POSTED);
	assert_int_equal(ty[2], SSP_EV_PROC_IN);
	done(&r);

	/* truncated before the store's line: the last Exec line's CPU */
	start(&r, SSP_OFFSET_NONE, 0, 0, 0);
	for (i = 0; i < 7; i++)
		assert_int_equal(feed(&r, ts_lines[i]), SSP_OK);
	finish(&r);
	hs = ssp_conv_hold_stats(r.c);
	assert_int_equal(hs->end, 1);
	readback_cpu(cpu, sizeof(cpu), ty, 8, &n);
	assert_string_equal(cpu, "system.switch_cpus1");
	assert_int_equal(n, 3);
	done(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_offset),
		cmocka_unit_test(test_sync_offset),
		cmocka_unit_test(test_sync_missing),
		cmocka_unit_test(test_sync_auto),
		cmocka_unit_test(test_untimed),
		cmocka_unit_test(test_strict),
		cmocka_unit_test(test_accounting),
		cmocka_unit_test(test_two_events),
		cmocka_unit_test(test_two_events_func),
		cmocka_unit_test(test_hold_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
