/*
 * The gem5 log parser over arbitrary bytes; then the whole conversion
 * twice, with adapter accesses held for their CPU's Exec line
 * (source/cpuhold.h) and without: holding may change only the cpu field
 * of mmio_rd/mmio_wr (to a CPU that printed), never the number, order,
 * times or other fields of the events, and leaves nothing held.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fuzz_lines.h"
#include "source/conv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* kernel functions and a user program's (as loaded at 0x555555554000:
 * user function entries after a user event on the same line) */
static const char syms[] =
    "ffffffff81600000 T entry_SYSCALL_64\n"
    "ffffffff814e6819 T mutex_unlock\n"
    "ffffffff814e6819 t mutex_unlock_alias\n"
    "0000555555555100 T main\n"
    "0000000000401000 T _start\n";

#define MAXEV 4096
#define SLEN  64

struct ev {
	unsigned type;
	int64_t ts;
	uint64_t f[SSP_MAXF];		/* numbers; strings below */
	char s[4][SLEN];		/* the first string fields, as text */
};

/* Convert data; the events read back into evs (at most MAXEV); returns
 * their number, or -1 when the conversion failed. */
static long
convert(const uint8_t *data, size_t size, int no_hold, struct ev *evs,
    struct ssp_cpuhold_stats *hs)
{
	struct ssp_conv_cfg cfg;
	struct ssp_atoms *atoms;
	struct ssp_symtab *st;
	struct ssp_in *in, *sin;
	struct ssp_out *out;
	struct ssp_conv *c;
	struct ssp_rec_rd *rr;
	struct ssp_rec rec;
	struct ssp_err e = { 0 };
	char path[64];
	long n = 0;
	int fd, r;

	if (ssp_atoms_new(&atoms, NULL) != SSP_OK)
		abort();
	sin = fuzz_in((const uint8_t *)syms, sizeof(syms) - 1, 0);
	if (ssp_symtab_new(&st, atoms, NULL) != SSP_OK ||
	    ssp_symtab_load(st, sin, "t", 0, NULL, NULL, NULL) != SSP_OK ||
	    ssp_symtab_finish(st, NULL) != SSP_OK)
		abort();
	ssp_in_close(sin);
	if ((fd = memfd_create("fuzzout", 0)) < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (ssp_out_open(&out, path, 0, NULL) != SSP_OK)
		abort();
	memset(&cfg, 0, sizeof(cfg));
	cfg.sim = SSP_SIM_GEM5;
	cfg.stream = "h";
	cfg.source = "fuzz";
	cfg.producer = "fuzz";
	cfg.out = out;
	cfg.atoms = atoms;
	cfg.syms = st;
	cfg.offset_mode = SSP_OFFSET_NONE;
	cfg.no_hold = no_hold;
	if (ssp_conv_open(&c, &cfg, NULL) != SSP_OK)
		abort();
	in = fuzz_in(data, size, 0);
	r = ssp_conv_run(c, in, 0, NULL, NULL, &e);
	ssp_in_close(in);
	if (r == SSP_OK)
		r = ssp_out_close(out, &e);
	else {
		ssp_conv_abort(c);
		ssp_out_abort(out);
	}
	memset(hs, 0, sizeof(*hs));
	if (ssp_conv_hold_stats(c) != NULL)
		*hs = *ssp_conv_hold_stats(c);
	ssp_conv_free(c);
	ssp_symtab_free(st);
	ssp_atoms_free(atoms);
	if (r != SSP_OK) {
		close(fd);
		return -1;
	}
	if (ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e) != SSP_OK ||
	    ssp_event_reader_open(&rr, in, &e) != SSP_OK)
		abort();
	while (n < MAXEV && ssp_rec_rd_next(rr, &rec, &e) == 1) {
		const struct ssp_rec_type *t = &ssp_event_schema.types[rec.type];
		struct ev *x = &evs[n++];
		unsigned k, ns = 0;

		memset(x, 0, sizeof(*x));
		x->type = rec.type;
		x->ts = rec.ts;
		for (k = 0; k < t->nf; k++) {
			size_t len = 0;
			const char *s;

			if (t->f[k].enc != SSP_ENC_S) {
				x->f[k] = rec.f[k];
				continue;
			}
			if (ns < 4 && rec.f[k] != 0 &&
			    (s = ssp_rec_rd_str(rr, rec.f[k], &len)) != NULL)
				snprintf(x->s[ns], SLEN, "%.*s", (int)len, s);
			ns++;
		}
	}
	if (e.code != 0)
		abort();	/* the writer's own stream must read back */
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	close(fd);
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ev a[MAXEV], b[MAXEV];
	struct ssp_cpuhold_stats ha, hb;
	long na, nb, i;

	fuzz_parse(SSP_SIM_GEM5, data, size, syms, size > 0 && (data[0] & 1));
	na = convert(data, size, 0, a, &ha);
	if (ha.held != ha.by_addr + ha.by_stall + ha.window + ha.full +
	    ha.end + ha.off)
		abort();	/* every held access ended one way */
	nb = convert(data, size, 1, b, &hb);
	if (na != nb || hb.held != 0)
		abort();
	for (i = 0; i < na; i++) {
		unsigned cpu = a[i].type == SSP_EV_MMIO_RD ||
		    a[i].type == SSP_EV_MMIO_WR ? 2 : 4;	/* comp, cpu */

		if (a[i].type != b[i].type || a[i].ts != b[i].ts ||
		    memcmp(a[i].f, b[i].f, sizeof(a[i].f)) != 0)
			abort();
		if (memcmp(a[i].s, b[i].s, sizeof(a[i].s[0]) * (cpu < 4 ? 1 : 4)) != 0)
			abort();
		/* a held access's CPU is its guess or one that printed */
		if (cpu < 4 && strcmp(a[i].s[1], b[i].s[1]) != 0 &&
		    a[i].s[1][0] == '\0')
			abort();
	}
	return 0;
}
