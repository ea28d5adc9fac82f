/* SimBricks run JSON: the model, the captured output as a stream, the
 * derived topology, and every refusal with its message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/simbricks.h"

/* A bridge run: one gem5 host with two NICs (connect: sockets), one
 * QEMU host, ns-3 bridge. */
static const char run2[] =
    "{\"exp_name\": \"t\", \"sims\": {"
    "\"host.a\": {\"class\": \"Gem5Host\", \"cmd\": [\"gem5\", \"--outdir=/o\","
    " \"--debug-flags=ExecEnable,SimBricksPci\", \"--debug-file=d.log\", \"c/simbricks.py\","
    " \"--simbricks-pci=connect:/s/pci.a0:latency=1ns\", \"--simbricks-pci=/s/pci.a1\"],"
    " \"stdout\": [], \"stderr\": []},"
    "\"host.q\": {\"class\": \"QemuHost\", \"cmd\": [\"qemu\", \"-chardev\","
    " \"socket,path=/s/pci.q,id=c\", \"-device\", \"cosim-pci,chardev=c\"]},"
    "\"nic.a0.\": {\"class\": \"I40eNIC\", \"cmd\": [\"i40e_bm\", \"/s/pci.a0\", \"/s/eth.a0\", \"/s/shm\"],"
    " \"stdout\": [\"main_time = 1: nicbm: eth tx: len 64\", \"x\"], \"stderr\": [\"e\"]},"
    "\"nic.a1.\": {\"class\": \"CorundumBMNIC\", \"cmd\": [\"corundum_bm\", \"/s/pci.a1\", \"/s/eth.a1\", \"/s/shm\"]},"
    "\"nic.q.\": {\"class\": \"I40eNIC\", \"cmd\": [\"i40e_bm\", \"/s/pci.q\", \"/s/eth.q\", \"/s/shm\"]},"
    "\"net.\": {\"class\": \"NS3BridgeNet\", \"cmd\": [\"run.sh\", \"cosim\", \"cosim-bridge-example\","
    " \"--CosimPort=/s/eth.q\", \"--CosimPort=/s/eth.a0\", \"--CosimPort=/s/eth.a1\"]}"
    "}, \"success\": true, \"interrupted\": false}";

static struct ssp_simbricks *
parse(const char *s)
{
	struct ssp_simbricks *r;
	struct ssp_err e;

	assert_int_equal(ssp_simbricks_parse(&r, "t.json", s, strlen(s), &e), SSP_OK);
	return r;
}

static void
test_model(void **state)
{
	struct ssp_simbricks *r = parse(run2);
	const struct ssp_simbricks_sim *s;

	(void)state;
	assert_string_equal(ssp_simbricks_exp_name(r), "t");
	assert_int_equal(ssp_simbricks_success(r), 1);
	assert_int_equal(ssp_simbricks_interrupted(r), 0);
	assert_int_equal(ssp_simbricks_nsims(r), 6);
	assert_int_equal(ssp_simbricks_find(r, "nic.a0."), 2);
	assert_int_equal(ssp_simbricks_find(r, "nic.a0"), -1);
	s = ssp_simbricks_sim(r, 2);
	assert_string_equal(s->cls, "I40eNIC");
	assert_int_equal(s->argc, 4);
	assert_string_equal(s->argv[1], "/s/pci.a0");
	assert_int_equal(s->nlines[SSP_SIMBRICKS_STDOUT], 2);
	assert_int_equal(ssp_simbricks_count(r, 2, SSP_SIMBRICKS_STDOUT, "nicbm: "), 1);
	assert_int_equal(ssp_simbricks_count(r, 2, SSP_SIMBRICKS_STDERR, "nicbm: "), 0);
	assert_null(ssp_simbricks_sim(r, 6));
	ssp_simbricks_free(r);
}

static void
test_text(void **state)
{
	struct ssp_simbricks *r = parse(run2);
	struct ssp_simbricks_text *t;
	struct ssp_err e;
	char buf[64], all[128];
	size_t n = 0;
	ssize_t k;

	(void)state;
	assert_int_equal(ssp_simbricks_text_open(&t, r, 2, SSP_SIMBRICKS_STDOUT, &e), SSP_OK);
	/* small reads cross line ends */
	while ((k = ssp_simbricks_text_read(t, buf, 5)) > 0) {
		assert_true(n + (size_t)k < sizeof(all));
		memcpy(all + n, buf, (size_t)k);
		n += (size_t)k;
	}
	assert_int_equal(k, 0);
	all[n] = '\0';
	assert_string_equal(all, "main_time = 1: nicbm: eth tx: len 64\nx\n");
	ssp_simbricks_text_close(t);
	/* no captured stderr: empty */
	assert_int_equal(ssp_simbricks_text_open(&t, r, 3, SSP_SIMBRICKS_STDERR, &e), SSP_OK);
	assert_int_equal(ssp_simbricks_text_read(t, buf, sizeof(buf)), 0);
	ssp_simbricks_text_close(t);
	assert_int_equal(ssp_simbricks_text_open(&t, r, 9, SSP_SIMBRICKS_STDOUT, &e), SSP_ERR_INVAL);
	ssp_simbricks_free(r);
}

static void
test_plan(void **state)
{
	struct ssp_simbricks_opts o = { "run.json", "topology.csv" };
	struct ssp_simbricks *r = parse(run2);
	struct ssp_simbricks_plan *p;
	struct ssp_buf b = SSP_BUF_INIT;
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_simbricks_plan(&p, r, &o, &e), SSP_OK);
	/* the QEMU host has no stream */
	assert_int_equal(p->nstreams, 5);
	assert_string_equal(p->streams[0].name, "host.a");
	assert_string_equal(p->streams[1].name, "nic.a0");
	assert_int_equal(p->streams[4].kind, SSP_SIM_NS3);
	assert_int_equal(p->npcie, 2);
	assert_int_equal(p->pcie[1].adapter, 1);
	assert_int_equal(p->neth, 3);
	assert_int_equal(p->eth[0].dev, 3);	/* nic.a0: the second port */
	assert_int_equal(p->eth[2].dev, 2);	/* nic.q: the first */
	assert_int_equal(ssp_simbricks_topology(p, r, &b), 0);
	ssp_buf_putc(&b, '\0');
	assert_non_null(strstr((char *)b.p,
	    "\"pcie\",\"host.a\",\"nic.a1\",\"system.pc.simbricks_1\"\n"));
	assert_non_null(strstr((char *)b.p, "\"eth\",\"nic.q\",\"net\",\"0\",\"2\"\n"));
	ssp_buf_putc(&p->cmd, '\0');
	/* both drivers of the host, once each */
	assert_non_null(strstr((char *)p->cmd.p, "-s \"$I40E_SYMS\",i40e,\"$I40E_TEXT\" "
	    "-s \"$MQNIC_SYMS\",mqnic,\"$MQNIC_TEXT\" -o host.a.ev.zst /o/d.log\n"));
	assert_true(p->nwarn >= 2);	/* QEMU, nicbm lines missing */
	ssp_buf_free(&b);
	ssp_simbricks_plan_free(p);
	ssp_simbricks_free(r);
}

/* Replace the first from in run2 by to, plan, expect msg. */
static void
refused(const char *from, const char *to, int code, const char *msg)
{
	struct ssp_simbricks_opts o = { "run.json", "topology.csv" };
	char buf[sizeof(run2) + 256];
	const char *at = strstr(run2, from);
	struct ssp_simbricks *r;
	struct ssp_simbricks_plan *p;
	struct ssp_err e;
	int rc;

	assert_non_null(at);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - run2), run2, to, at + strlen(from));
	rc = ssp_simbricks_parse(&r, "t.json", buf, strlen(buf), &e);
	if (rc == SSP_OK) {
		rc = ssp_simbricks_plan(&p, r, &o, &e);
		ssp_simbricks_free(r);
		if (rc == SSP_OK)
			ssp_simbricks_plan_free(p);
	}
	if (rc != code)
		fail_msg("%s -> %s: status %d, want %d (%s)", from, to, rc, code,
		    rc != SSP_OK ? e.msg : "");
	if (strstr(e.msg, msg) == NULL)
		fail_msg("message '%s' lacks '%s'", e.msg, msg);
}

static void
test_refused(void **state)
{
	(void)state;
	refused("\"exp_name\": \"t\",", "", SSP_ERR_FORMAT, "no \"exp_name\" string");
	refused("\"sims\"", "\"simz\"", SSP_ERR_FORMAT, "no \"sims\" object");
	refused("\"class\": \"QemuHost\", ", "", SSP_ERR_FORMAT,
	    "simulator 'host.q' has no \"class\"");
	refused("\"stdout\": [\"main", "\"stdout\": [1, \"main", SSP_ERR_FORMAT,
	    "stdout[0] is not a string");
	refused("}, \"success\"", "", SSP_ERR_FORMAT, "t.json:1:");
	refused("\"NS3BridgeNet\"", "\"WireNet\"", SSP_ERR_INVAL,
	    "simulator 'net.' (WireNet): cannot be traced yet");
	refused("\"NS3BridgeNet\"", "\"NewNet\"", SSP_ERR_INVAL,
	    "simulator 'net.' (NewNet): simspan cannot trace this class yet");
	refused("\"I40eNIC\"", "\"I40eMultiNIC\"", SSP_ERR_INVAL, "(I40eMultiNIC)");
	refused("\"--CosimPort=/s/eth.q\", ", "", SSP_ERR_INVAL,
	    "simulator 'nic.q.' (I40eNIC): no network uses its Ethernet socket /s/eth.q");
	refused("\"--simbricks-pci=/s/pci.a1\"", "\"--simbricks-pci=/s/pci.zz\"",
	    SSP_ERR_INVAL, "simulator 'nic.a1.' (CorundumBMNIC): no host uses its PCI socket /s/pci.a1");
	refused("\"/s/pci.q\", \"/s/eth.q\"", "\"/s/pci.a0\", \"/s/eth.q\"",
	    SSP_ERR_INVAL, "PCI socket /s/pci.a0 is also simulator 'nic.a0.''s");
	refused("\"--CosimPort=/s/eth.a1\"", "\"--CosimPort=/s/eth.a1\", \"--CosimPort=/s/eth.x\"",
	    SSP_ERR_INVAL, "simulator 'net.' (NS3BridgeNet): no NIC serves its port socket /s/eth.x");
	refused("\"--CosimPort=/s/eth.q\"", "\"--CosimPortLeft=/s/eth.q\"",
	    SSP_ERR_INVAL, "does not fit the cosim-bridge-example example");
	refused(" \"c/simbricks.py\",", "", SSP_ERR_INVAL,
	    "no gem5 configuration script");
	refused("\"c/simbricks.py\",", "\"c/simbricks.py\", \"--simbricks-eth=/s/e\",", SSP_ERR_INVAL,
	    "(--simbricks-eth)");
	refused("\"exp_name\": \"t\"", "\"exp_name\": \"t\\n\"", SSP_ERR_FORMAT,
	    "control character");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
