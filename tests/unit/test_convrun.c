/* A conversion run to its end: the lines of a log and a capture's records
 * each through their reader, the output closed; after bad input the
 * events before it kept without an end block; a failed close keeps
 * nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"
#include "source/convrun.h"

static const char lines[] =
    "1500: system.pc.simbricks_0: simbricks-pci: sending read addr c0 size 4 "
    "id 1 bar 0 offs 0\n"
    "console text\n"
    "2000: global: simbricks: processInEvent\n"
    "2500: system.pc.simbricks_0: simbricks-pci: sending read addr zz size 4 "
    "id 2\n"
    "3000: global: simbricks: processInEvent\n";

struct run {
	char path[64];
	struct ssp_atoms *atoms;
	struct ssp_out *out;
	struct ssp_conv *c;
	struct ssp_convrun_opts o;
	struct ssp_pcapin_at at;
	struct ssp_err e;
};

/* A conversion of sim to path (NULL: the run's temporary file). */
static void
start(struct run *r, enum ssp_sim sim, int strict, const char *path)
{
	struct ssp_conv_cfg cfg;

	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "/tmp/ssp-test-convrun-%d.ev",
	    (int)getpid());
	assert_int_equal(ssp_atoms_new(&r->atoms, NULL), SSP_OK);
	assert_int_equal(ssp_out_open(&r->out, path != NULL ? path : r->path,
	    0, &r->e), SSP_OK);
	memset(&cfg, 0, sizeof(cfg));
	cfg.sim = sim;
	cfg.stream = "host";
	cfg.source = "mem";
	cfg.producer = "test";
	cfg.out = r->out;
	cfg.atoms = r->atoms;
	cfg.strict = strict;
	assert_int_equal(ssp_conv_open(&r->c, &cfg, &r->e), SSP_OK);
	r->at = (struct ssp_pcapin_at){ 0, SSP_PCAPIN_ANY };
	r->o = (struct ssp_convrun_opts){ sim, r->atoms, &r->at, NULL, NULL };
}

static void
done(struct run *r)
{
	ssp_conv_free(r->c);
	ssp_atoms_free(r->atoms);
	unlink(r->path);
}

/* The events the run wrote; *end: whether the stream ended cleanly. */
static size_t
readback(struct run *r, int *end)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec rec;
	struct ssp_err e = { 0 };
	size_t n = 0;
	int got;

	assert_int_equal(ssp_in_open(&in, r->path, SSP_IN_ZSTD_AUTO, NULL, &e),
	    SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	while ((got = ssp_rec_rd_next(rr, &rec, &e)) == 1)
		n++;
	*end = got == 0;
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	return n;
}

static void
test_lines(void **state)
{
	struct run r;
	struct ssp_in *in = ph_in(lines);
	int written = -1, end;

	(void)state;
	start(&r, SSP_SIM_GEM5, 0, NULL);
	assert_int_equal(ssp_convrun(r.c, in, r.out, &r.o, &written, &r.e),
	    SSP_OK);
	assert_int_equal(written, 1);
	/* the malformed line is counted, not an error */
	assert_int_equal(ssp_conv_stats(r.c)->lines, 5);
	assert_int_equal(ssp_conv_stats(r.c)->skipped[SSP_SKIP_MALFORMED], 1);
	assert_int_equal(readback(&r, &end), 3);
	assert_true(end);
	ssp_in_close(in);
	done(&r);
}

/* --strict: the first malformed line ends the run, the events before it
 * are written, without the end block. */
static void
test_bad_input(void **state)
{
	struct run r;
	struct ssp_in *in = ph_in(lines);
	int written = -1, end = 1;

	(void)state;
	start(&r, SSP_SIM_GEM5, 1, NULL);
	assert_int_equal(ssp_convrun(r.c, in, r.out, &r.o, &written, &r.e),
	    SSP_ERR_FORMAT);
	assert_int_equal(r.e.line, 4);
	assert_int_equal(written, 1);
	assert_int_equal(readback(&r, &end), 2);
	assert_false(end);
	ssp_in_close(in);
	done(&r);
}

/* A close that fails (a full disk) leaves nothing worth keeping. */
static void
test_close_fails(void **state)
{
	struct run r;
	struct ssp_in *in = ph_in(lines);
	int written = -1;

	(void)state;
	start(&r, SSP_SIM_GEM5, 0, "/dev/full");
	assert_int_equal(ssp_convrun(r.c, in, r.out, &r.o, &written, &r.e),
	    SSP_ERR_IO);
	assert_int_equal(written, 0);
	ssp_in_close(in);
	done(&r);
}

/* -f pcap reads records, not lines: a log is no capture. */
static void
test_pcap_reader(void **state)
{
	struct run r;
	struct ssp_in *in;
	int written = -1, end;

	(void)state;
	if (ssp_pcapin_load(NULL) != SSP_OK)
		skip();
	in = ph_in(lines);
	start(&r, SSP_SIM_PCAP, 0, NULL);
	assert_int_equal(ssp_convrun(r.c, in, r.out, &r.o, &written, &r.e),
	    SSP_ERR_FORMAT);
	assert_non_null(strstr(r.e.msg, "mem: not a pcap capture"));
	assert_int_equal(ssp_conv_stats(r.c)->lines, 0);
	assert_int_equal(written, 1);
	assert_int_equal(readback(&r, &end), 0);
	ssp_in_close(in);
	done(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_close_fails),
		cmocka_unit_test(test_pcap_reader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
