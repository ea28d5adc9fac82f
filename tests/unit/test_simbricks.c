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
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/sbcmds.h"
#include "config/sbns3.h"
#include "config/sbplan.h"
#include "config/sbsim.h"
#include "config/shword.h"
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

/* The link of type t whose NIC is named nic, or NULL. */
static const struct ssp_sbplan_link *
link_of(const struct ssp_sbplan *p, const struct ssp_simbricks *r,
    enum ssp_sbplan_ltype t, const char *nic)
{
	size_t i;

	for (i = 0; i < p->nlinks; i++)
		if (p->links[i].type == t && strcmp(ssp_simbricks_sim(r,
		    t == SSP_SBPLAN_PCIE ? p->links[i].b : p->links[i].a)->name, nic) == 0)
			return &p->links[i];
	return NULL;
}

static void
test_plan(void **state)
{
	struct ssp_sbplan_opts o = { "run.json", "topology.csv", NULL, NULL, 0, 0, 0 };
	struct ssp_simbricks *r = parse(run2);
	struct ssp_sbplan *p;
	struct ssp_buf b = SSP_BUF_INIT, cmd = SSP_BUF_INIT;
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_sbplan_make(&p, r, &o, &e), SSP_OK);
	/* the QEMU host's stream: its captured stderr */
	assert_int_equal(p->nstreams, 6);
	assert_string_equal(p->streams[0].name, "host.a");
	assert_string_equal(p->streams[1].name, "host.q");
	assert_int_equal(p->streams[1].sim, SSP_SIM_QEMU);
	assert_int_equal(p->streams[1].which, SSP_SIMBRICKS_STDERR);
	assert_int_equal(p->streams[1].ndriver, 0);	/* no symbol tables */
	assert_string_equal(p->streams[2].name, "nic.a0");
	assert_int_equal(p->streams[5].sim, SSP_SIM_NS3);
	assert_int_equal(p->nlinks, 6);
	assert_int_equal(link_of(p, r, SSP_SBPLAN_PCIE, "nic.a1.")->adapter, 1);
	assert_int_equal(link_of(p, r, SSP_SBPLAN_PCIE, "nic.q.")->sa, 1);
	assert_string_equal(link_of(p, r, SSP_SBPLAN_PCIE, "nic.q.")->comp,
	    "simbricks-pci");
	/* nic.a0: the second port, nic.q the first */
	assert_int_equal(link_of(p, r, SSP_SBPLAN_ETH, "nic.a0.")->dev, 3);
	assert_int_equal(link_of(p, r, SSP_SBPLAN_ETH, "nic.q.")->dev, 2);
	assert_int_equal(ssp_sbplan_topology(p, r, 0, &b), 0);
	ssp_buf_putc(&b, '\0');
	assert_non_null(strstr((char *)b.p,
	    "\"pcie\",\"host.a\",\"nic.a1\",\"system.pc.simbricks_1\"\n"));
	assert_non_null(strstr((char *)b.p, "\"eth\",\"nic.q\",\"net\",\"0\",\"2\"\n"));
	assert_non_null(strstr((char *)b.p,
	    "\"pcie\",\"host.q\",\"nic.q\",\"simbricks-pci\"\n"));
	/* a 2022 run: no comment rows for links without a stream */
	assert_null(strstr((char *)b.p, "# \"pcie\""));
	assert_int_equal(ssp_sbcmds_script(p, r, &o, &cmd), 0);
	ssp_buf_putc(&cmd, '\0');
	/* both drivers of the host, once each */
	assert_non_null(strstr((char *)cmd.p, "-s \"$I40E_SYMS\",i40e,\"$I40E_TEXT\" "
	    "-s \"$MQNIC_SYMS\",mqnic,\"$MQNIC_TEXT\" -o host.a.ev.zst /o/d.log\n"));
	assert_true(p->nwarn >= 2);	/* QEMU, nicbm lines missing */
	ssp_buf_free(&b);
	ssp_buf_free(&cmd);
	ssp_sbplan_free(p);
	ssp_simbricks_free(r);
}

/* Replace the first from in run2 by to, plan, expect msg. */
static void
refused(const char *from, const char *to, int code, const char *msg)
{
	struct ssp_sbplan_opts o = { "run.json", "topology.csv", NULL, NULL, 0, 0, 0 };
	char buf[sizeof(run2) + 256];
	const char *at = strstr(run2, from);
	struct ssp_simbricks *r;
	struct ssp_sbplan *p;
	struct ssp_err e;
	int rc;

	assert_non_null(at);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - run2), run2, to, at + strlen(from));
	rc = ssp_simbricks_parse(&r, "t.json", buf, strlen(buf), &e);
	if (rc == SSP_OK) {
		rc = ssp_sbplan_make(&p, r, &o, &e);
		ssp_simbricks_free(r);
		if (rc == SSP_OK)
			ssp_sbplan_free(p);
	}
	if (rc != code)
		fail_msg("%s -> %s: status %d, want %d (%s)", from, to, rc, code,
		    rc != SSP_OK ? e.msg : "");
	if (strstr(e.msg, msg) == NULL)
		fail_msg("message '%s' lacks '%s'", e.msg, msg);
}

/* SimBricks of 2024-08, before symphony: enso_echo.py's QemuHost and
 * EnsoBMNIC on a SwitchNet.  enso_bm's nicbm lines, or its own on
 * stderr: whichever output has more. */
static const char run_enso[] =
    "{\"exp_name\": \"echo-qemu-switch-enso_bm\", \"sims\": {"
    "\"host.server.0\": {\"class\": \"QemuHost\", \"cmd\": [\"qemu\", \"-device\","
    " \"simbricks-pci,socket=/s/pci.s,sync=on\"]},"
    "\"nic.server.0.\": {\"class\": \"EnsoBMNIC\", \"cmd\": [\"/sb/sims/nic/enso_bm/enso_bm\","
    " \"/s/pci.s\", \"/s/eth.s\", \"/s/shm\"], \"stdout\": [],"
    " \"stderr\": [\"5 enso: received packet len=3c\", \"5 enso: RX: Packet dropped\"]},"
    "\"net.\": {\"class\": \"SwitchNet\", \"cmd\": [\"net_switch\", \"-s\", \"/s/eth.s\"]}"
    "}, \"success\": true, \"interrupted\": false}";

static void
test_enso2024(void **state)
{
	struct ssp_sbplan_opts o = { "run.json", "topology.csv", NULL, NULL, 0, 0, 0 };
	struct ssp_simbricks *r = parse(run_enso);
	struct ssp_sbplan *p;
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_sbplan_make(&p, r, &o, &e), SSP_OK);
	assert_int_equal(p->nstreams, 3);
	assert_string_equal(p->streams[1].name, "nic.server.0");
	assert_int_equal(p->streams[1].sim, SSP_SIM_NICBM);
	assert_int_equal(p->streams[1].which, SSP_SIMBRICKS_STDERR);
	assert_int_equal(p->streams[1].ncaptured, 2);
	assert_non_null(link_of(p, r, SSP_SBPLAN_PCIE, "nic.server.0."));
	assert_non_null(link_of(p, r, SSP_SBPLAN_ETH, "nic.server.0."));
	ssp_sbplan_free(p);
	ssp_simbricks_free(r);
}

static void
test_refused(void **state)
{
	(void)state;
	refused("\"exp_name\": \"t\",", "", SSP_ERR_FORMAT,
	    "no \"exp_name\" (2022) or \"_sim_name\" (symphony) string");
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

/* ---- symphony ---- */

static void
test_shword(void **state)
{
	static const struct { const char *in; int n; const char *w[4]; } ok[] = {
		{ "a  b\tc", 3, { "a", "b", "c" } },
		{ "x 'y z' \"w\\\"v\"", 3, { "x", "y z", "w\"v" } },
		{ "a\\ b \"c\\d\" ''", 3, { "a b", "c\\d", "" } },
		{ "-o backing_file=\"/a b\"", 2, { "-o", "backing_file=/a b" } },
		{ "  ", 0, { NULL } },
	};
	struct ssp_buf b = SSP_BUF_INIT;
	struct ssp_err e;
	char **v, var[32];
	size_t i, n;
	int k;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(ssp_shword_split(ok[i].in, &v, &n, &e), SSP_OK);
		assert_int_equal(n, ok[i].n);
		for (k = 0; k < ok[i].n; k++)
			assert_string_equal(v[k], ok[i].w[k]);
		assert_null(v[n]);
		free(v);
	}
	assert_int_equal(ssp_shword_split("a 'b", &v, &n, &e), SSP_ERR_FORMAT);
	assert_string_equal(e.msg, "no closing quotation");
	assert_int_equal(ssp_shword_split("a \"b", &v, &n, &e), SSP_ERR_FORMAT);
	assert_int_equal(ssp_shword_split("a\\", &v, &n, &e), SSP_ERR_FORMAT);
	assert_string_equal(e.msg, "no escaped character");
	/* quoting: what sh would read back as the same word */
	ssp_shword_quote(&b, "it's a/b");
	ssp_buf_putc(&b, ' ');
	ssp_shword_quote(&b, "plain-1.2");
	ssp_buf_putc(&b, '\0');
	assert_string_equal((char *)b.p, "'it'\\''s a/b' plain-1.2");
	ssp_buf_free(&b);
	ssp_shword_var(var, sizeof(var), "0net", "TRACE");
	assert_string_equal(var, "_0NET_TRACE");
	ssp_shword_var(var, sizeof(var), "nic.client-NIC", "SYMS");
	assert_string_equal(var, "NIC_CLIENT_NIC_SYMS");
	ssp_shword_var(var, sizeof(var), "", NULL);
	assert_string_equal(var, "_");
	ssp_shword_var(var, 8, "abcdefghijkl", "X");
	assert_string_equal(var, "ABCDEFG");
}

static void
test_sbns3(void **state)
{
	const char *w[] = {
		"--Global=StopTime:60s;MACStart:0",
		"--Logging=Ping:level_all;SimbricksNetDevice:level_all",
		"--TopologyNode=Id:-16;Type:Switch",
		"--Network=UnixSocket:/t/eth-5.18.17;Sync:0;Id:-16/-4;Type:Simbricks",
		"--TopologyNode=Id:sw2-20;Type:Switch",
		"--TopologyChannel=Id:c;Type:Simple;LeftNode:-16;RightNode:sw2-20",
		"--Host=Id:sw2-20/h;Type:SimpleNs3",
		"--Network=UnixSocket:/t/eth-12.20.19;Sync:1;Id:sw2-20/-11;Type:Simbricks",
		"--Network=UnixSocket:/t/eth-9.9.9;Id:-16/-9;Type:Simbricks",
	};
	struct ssp_sbns3 *n;
	struct ssp_err e;
	const char *bad[1];

	(void)state;
	assert_int_equal(ssp_sbns3_parse(&n, w, 9, "p", &e), SSP_OK);
	assert_int_equal(n->nnodes, 2);
	assert_int_equal(n->nports, 3);
	assert_string_equal(n->logging, "Ping:level_all;SimbricksNetDevice:level_all");
	/* node 0: bridge, channel end, then the networks in order */
	assert_string_equal(n->ports[0].sock, "/t/eth-5.18.17");
	assert_int_equal(n->ports[0].node, 0);
	assert_int_equal(n->ports[0].dev, 2);
	assert_int_equal(n->ports[0].sync, 0);
	/* node 1: bridge, channel end, the host's device, this network */
	assert_int_equal(n->ports[1].node, 1);
	assert_int_equal(n->ports[1].dev, 3);
	assert_int_equal(n->ports[1].sync, 1);
	assert_int_equal(n->ports[2].dev, 3);
	assert_int_equal(n->ports[2].sync, -1);
	ssp_sbns3_free(n);
	bad[0] = "--Network=UnixSocket:/x;Id:nonode/a;Type:Simbricks";
	assert_int_equal(ssp_sbns3_parse(&n, bad, 1, "p", &e), SSP_ERR_FORMAT);
	assert_non_null(strstr(e.msg, "does not start with a --TopologyNode's Id"));
	bad[0] = "--TopologyNode=Id;Type:Switch";
	assert_int_equal(ssp_sbns3_parse(&n, bad, 1, "p", &e), SSP_ERR_FORMAT);
	assert_non_null(strstr(e.msg, "is not Key:Value"));
	bad[0] = "--TopologyNode=Id:a;Type:Router";
	assert_int_equal(ssp_sbns3_parse(&n, bad, 1, "p", &e), SSP_ERR_FORMAT);
	{
		const char *tr[] = { "--TopologyNode=Id:a;Type:Switch",
		    "--Network=UnixSocket:/x;Id:a/t;Type:Trunk" };

		assert_int_equal(ssp_sbns3_parse(&n, tr, 2, "p", &e), SSP_ERR_INVAL);
		assert_non_null(strstr(e.msg, "trunk"));
	}
}

/* A small symphony run: gem5 + i40e + SwitchNet, unsynchronized. */
static const char sym1[] =
    "{\"_sim_name\": \"s\", \"_start_time\": 1.0, \"_end_time\": 2.0,"
    " \"_success\": true, \"_interrupted\": false, \"_metadata\": {},"
    " \"generic_prepare\": [],"
    " \"nic.NICSim-26\": {\"class\": \"I40eNicSim\", \"output\": [{\"cmd\":"
    " \"simb_i40e_bm listen:/w/tmp/shm/pci-7.8.6:/w/tmp/shm/p:sync=false:latency=500"
    " listen:/w/tmp/shm/eth-5.18.17:/w/tmp/shm/p:sync=false 0  \","
    " \"stdout\": [\"info: exit main_time: 0\"], \"stderr\": [], \"merged_output\": []}]},"
    " \"host.Gem5Sim-24\": {\"class\": \"Gem5Sim\", \"output\": [{\"cmd\":"
    " \"/g/gem5.opt --outdir=/w/output/output.host.Gem5Sim-24-24"
    " --debug-flags=ExecEnable,SimBricksAll --debug-file=d.log /g/simbricks.py"
    " --kernel '/i/vmlinux' --simbricks-pci=connect:/w/tmp/shm/pci-7.8.6:latency=500ns:sync_interval=500ns\","
    " \"stdout\": [\"gem5 Simulator System\"], \"stderr\": []}]},"
    " \"net.SwitchNet-32\": {\"class\": \"SwitchNet\", \"output\": [{\"cmd\":"
    " \"simb_net_switch -S 500 -E 500 -u -s /w/tmp/shm/eth-5.18.17\","
    " \"stdout\": [], \"stderr\": [\"Switch connecting to: x\"]}]},"
    " \"host.QemuSim-9\": {\"class\": \"QemuSim\", \"output\": ["
    "  {\"cmd\": \"qemu-img create x\", \"stdout\": [], \"stderr\": []},"
    "  {\"cmd\": \"qemu-system-x86_64 -device simbricks-pci,socket=/w/tmp/shm/pci-3.4.2,sync=off\","
    "   \"stdout\": [\"boot\"], \"stderr\": []}]},"
    " \"nic.NICSim-2\": {\"class\": \"I40eNicSim\", \"output\": [{\"cmd\":"
    " \"simb_i40e_bm listen:/w/tmp/shm/pci-3.4.2:/w/tmp/shm/q listen:/w/tmp/shm/eth-1.2.3:/w/tmp/shm/q 0\","
    " \"stdout\": [], \"stderr\": []}]},"
    " \"net.SwitchNet-99\": {\"class\": \"SwitchNet\", \"output\": [{\"cmd\":"
    " \"simb_net_switch -S 500 -E 500 -s /w/tmp/shm/eth-1.2.3\"}]}"
    "}";

static void
test_symphony_model(void **state)
{
	struct ssp_simbricks *r = parse(sym1);
	const struct ssp_simbricks_sim *s;
	int i;

	(void)state;
	assert_int_equal(ssp_simbricks_format(r), SSP_SIMBRICKS_SYMPHONY);
	assert_string_equal(ssp_simbricks_exp_name(r), "s");
	assert_int_equal(ssp_simbricks_nsims(r), 6);
	assert_true((i = ssp_simbricks_find(r, "host.Gem5Sim-24")) >= 0);
	s = ssp_simbricks_sim(r, (size_t)i);
	assert_string_equal(s->cls, "Gem5Sim");
	assert_int_equal(s->argc, 8);
	assert_string_equal(s->argv[6], "/i/vmlinux");	/* quotes gone */
	assert_non_null(s->cmd);
	/* the run command is the last output: the prepare step is not */
	s = ssp_simbricks_sim(r, (size_t)ssp_simbricks_find(r, "host.QemuSim-9"));
	assert_string_equal(s->argv[0], "qemu-system-x86_64");
	assert_int_equal(s->nlines[SSP_SIMBRICKS_STDOUT], 1);
	ssp_simbricks_free(r);
}

/* The run of the last sym_plan: the plan borrows from it. */
static struct ssp_simbricks *sym_run;

static void
sym_free(struct ssp_sbplan *p)
{
	ssp_sbplan_free(p);
	ssp_simbricks_free(sym_run);
	sym_run = NULL;
}

/* Plan sym1 with from replaced by to; expect code and msg (NULL: any).
 * A plan returned is freed with sym_free (its run with it). */
static struct ssp_sbplan *
sym_plan(const char *from, const char *to, const struct ssp_sbplan_opts *o,
    int code, const char *msg)
{
	char buf[sizeof(sym1) + 512];
	const char *at = from != NULL ? strstr(sym1, from) : sym1;
	struct ssp_simbricks *r;
	struct ssp_sbplan *p = NULL;
	struct ssp_err e;
	int rc;

	assert_non_null(at);
	if (from == NULL)
		snprintf(buf, sizeof(buf), "%s", sym1);
	else
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - sym1), sym1, to,
		    at + strlen(from));
	rc = ssp_simbricks_parse(&r, "out.json", buf, strlen(buf), &e);
	if (rc == SSP_OK) {
		rc = ssp_sbplan_make(&p, r, o, &e);
		if (rc == SSP_OK)
			sym_run = r;
		else
			ssp_simbricks_free(r);
	}
	if (rc != code)
		fail_msg("%s -> %s: status %d, want %d (%s)", from, to, rc, code,
		    rc != SSP_OK ? e.msg : "");
	if (msg != NULL && strstr(e.msg, msg) == NULL)
		fail_msg("message '%s' lacks '%s'", e.msg, msg);
	return p;
}

static int
has_warn(const struct ssp_sbplan *p, const char *s)
{
	size_t i;

	for (i = 0; i < p->nwarn; i++)
		if (strstr(p->warn[i], s) != NULL)
			return 1;
	return 0;
}

static void
test_symphony_plan(void **state)
{
	struct ssp_sbplan_opts o = { "out.json", "topology.csv", NULL, NULL, 0, 0, 0 };
	struct ssp_sbplan_opts so = o, fo = o;
	struct ssp_sbplan *p;

	(void)state;
	so.strict = 1;
	fo.force = 1;
	p = sym_plan(NULL, NULL, &o, SSP_OK, NULL);
	/* streams sorted by name within each role: hosts, NICs, switches */
	assert_int_equal(p->nstreams, 6);
	assert_string_equal(p->streams[0].name, "host.Gem5Sim-24");
	assert_string_equal(p->streams[1].name, "host.QemuSim-9");
	assert_int_equal(p->streams[1].sim, SSP_SIM_QEMU);
	assert_string_equal(p->streams[2].name, "nic.NICSim-2");
	assert_string_equal(p->streams[3].name, "nic.NICSim-26");
	assert_int_equal(p->streams[0].time_sync, 1);
	assert_string_equal(p->streams[0].want, "/w/output/output.host.Gem5Sim-24-24/d.log");
	assert_int_equal(p->streams[0].missing, 1);
	assert_string_equal(p->streams[0].kernel, "/i/vmlinux");
	assert_int_equal(p->streams[4].sim, SSP_SIM_SWITCH);
	assert_int_equal(p->streams[4].which, SSP_SIMBRICKS_STDERR);
	assert_int_equal(p->nlinks, 4);
	/* eth-1.2.3 is synchronized (no -u), pci-3.4.2 has a sync=off end */
	assert_int_equal(p->unsync, 3);
	assert_true(has_warn(p, "3 of 4 channels run without SimBricks synchronization"));
	assert_true(has_warn(p, "pci-7.8.6 (nic.NICSim-26 sync=false, host.Gem5Sim-24 "
	    "--simbricks-pci without :sync)"));
	assert_true(has_warn(p, "host.QemuSim-9 (QemuSim): no debug lines in its "
	    "captured stderr (none has '_mmio_rw: '); build QEMU with DEBUG_PRINTS"));
	assert_true(has_warn(p, "no NETSWITCH_DEBUG lines in its stderr"));
	assert_string_equal(p->rules, "linux-i40e.csv");
	sym_free(p);
	/* synchronized everywhere: no warning */
	p = sym_plan("sync=false:latency=500 listen:/w/tmp/shm/eth-5.18.17:/w/tmp/shm/p:sync=false",
	    "sync=true listen:/w/tmp/shm/eth-5.18.17:/w/tmp/shm/p:sync=true", &o, SSP_OK, NULL);
	assert_int_equal(p->unsync, 3);	/* gem5 without :sync, -u, sync=off */
	sym_free(p);
	/* --strict refuses, naming the channels */
	sym_plan(NULL, NULL, &so, SSP_ERR_INVAL, "the run is not synchronized (3 of 4 "
	    "channels, first pci-3.4.2 (host.QemuSim-9 sync=off)): --strict refuses it");
	/* interrupted: refused unless forced */
	sym_plan("\"_interrupted\": false", "\"_interrupted\": true", &o,
	    SSP_ERR_INVAL, "\"_interrupted\" is true");
	p = sym_plan("\"_interrupted\": false", "\"_interrupted\": true", &fo, SSP_OK, NULL);
	assert_true(has_warn(p, "the run was interrupted"));
	sym_free(p);
	sym_plan("\"_interrupted\": false", "\"_interrupted\": 1", &o, SSP_ERR_FORMAT,
	    "\"_interrupted\" is not true or false");
	/* a socket that pairs nothing; one that goes to a proxy */
	sym_plan("-s /w/tmp/shm/eth-1.2.3", "-s /w/tmp/shm/eth-1.2.4", &o, SSP_ERR_INVAL,
	    "simulator 'nic.NICSim-2' (I40eNicSim): no network uses its Ethernet socket "
	    "eth-1.2.3 (two simulators with one name?");
	sym_plan(" \"net.SwitchNet-99\": {\"class\": \"SwitchNet\"",
	    " \"proxy_7\": {\"class\": \"TCPProxy\", \"output\": [{\"cmd\": \"net_sockets"
	    " -l -s /w/tmp/shm/x -C /w/tmp/shm/eth-1.2.3 1.2.3.4 0 /f /g\"}]},"
	    " \"net.SwitchNet-99\": {\"class\": \"SwitchNet\"", &o, SSP_ERR_INVAL,
	    "its Ethernet socket eth-1.2.3 goes to proxy_7 (TCPProxy), to another fragment");
	/* switch to switch: an n2n link, the listening end first */
	p = sym_plan("-s /w/tmp/shm/eth-1.2.3\"", "-s /w/tmp/shm/eth-1.2.3 -h /w/tmp/shm/n2n\"}]},"
	    " \"net.SwitchNet-5\": {\"class\": \"SwitchNet\", \"output\": [{\"cmd\":"
	    " \"simb_net_switch -u -s /w/tmp/shm/n2n\"", &o, SSP_OK, NULL);
	assert_int_equal(p->nlinks, 5);
	assert_int_equal(p->links[4].type, SSP_SBPLAN_N2N);
	assert_string_equal(ssp_simbricks_sim(sym_run, p->links[4].a)->name,
	    "net.SwitchNet-99");
	assert_int_equal(p->links[4].dev, 1);
	assert_string_equal(ssp_simbricks_sim(sym_run, p->links[4].b)->name,
	    "net.SwitchNet-5");
	assert_int_equal(p->links[4].dev_b, 0);
	assert_true(p->links[4].sa >= 0 && p->links[4].sb >= 0);
	/* the n2n channel is a channel: SwitchNet-5 runs with -u */
	assert_true(has_warn(p, "4 of 5 channels"));
	assert_true(has_warn(p, "n2n (net.SwitchNet-5 -u)"));
	{
		struct ssp_buf b = SSP_BUF_INIT;

		assert_int_equal(ssp_sbplan_topology(p, sym_run, 0, &b), 0);
		ssp_buf_putc(&b, '\0');
		assert_non_null(strstr((char *)b.p, "\"n2n\",\"net.SwitchNet-99\",\"0\","
		    "\"1\",\"net.SwitchNet-5\",\"0\",\"0\"\n"));
		ssp_buf_free(&b);
	}
	sym_free(p);
	/* bad input */
	sym_plan("\"host.QemuSim-9\"", "\"host.Gem5Sim-24\"", &o, SSP_ERR_FORMAT,
	    "duplicate object key near '\"host.Gem5Sim-24\"' (two simulators with one name?)");
	sym_plan("-u -s", "-u \\\"-s", &o, SSP_ERR_FORMAT,
	    "\"net.SwitchNet-32\".output[0].cmd: no closing quotation");
	sym_plan("\"class\": \"QemuSim\", ", "", &o, SSP_ERR_FORMAT,
	    "\"host.QemuSim-9\" has no \"class\" string");
	sym_plan("\"output\": [{\"cmd\": \"simb_net_switch -S 500 -E 500 -s",
	    "\"output\": [{\"cmd\": 5, \"x\": \"", &o, SSP_ERR_FORMAT,
	    "\"net.SwitchNet-99\".output[0] has no \"cmd\" string");
	sym_plan("\"stderr\": [\"Switch", "\"stderr\": [7, \"Switch", &o, SSP_ERR_FORMAT,
	    "\"net.SwitchNet-32\".output[0].stderr[0] is not a string");
	sym_plan("\"nic.NICSim-2\"", "\"nic.NICSim\\u0000-2\"", &o, SSP_ERR_FORMAT, NULL);
	sym_plan("\"class\": \"QemuSim\"", "\"class\": \"Qemu\\u0000Sim\"", &o,
	    SSP_ERR_FORMAT, "control character");
	/* Corundum Verilator: its stdout, mqnic's rules */
	p = sym_plan("\"class\": \"I40eNicSim\", \"output\": [{\"cmd\":"
	    " \"simb_i40e_bm listen:/w/tmp/shm/pci-3",
	    "\"class\": \"CorundumVerilatorNICSim\", \"output\": [{\"cmd\":"
	    " \"simb_corundum listen:/w/tmp/shm/pci-3", &o, SSP_OK, NULL);
	assert_true(has_warn(p, "nic.NICSim-2 (CorundumVerilatorNICSim): no debug "
	    "lines in its captured stdout (none has 'ts='); build component-corundum's "
	    "adapter with CORUNDUM_VERILATOR_DEBUG"));
	assert_int_equal(p->nstreams, 6);
	assert_int_equal(p->streams[2].sim, SSP_SIM_CORUNDUM);
	assert_int_equal(p->streams[2].which, SSP_SIMBRICKS_STDOUT);
	assert_string_equal(p->rules, "linux-mqnic.csv");
	sym_free(p);
}

/* ---- the shared fixtures (tests/data/simbricks-symphony) ---- */

#define FIX "tests/data/simbricks-symphony"

static char tmpdir[256];

/* The fixture's run as simbricks-run left it (workdir-after-run.txt),
 * out.json and the ns-3 params file in place, under tmpdir/name; the
 * path of out.json in *out. */
static void
layout(const char *name, char *out, size_t n)
{
	char path[1024], line[1024], dst[1400], *s;
	FILE *f, *in, *o;
	int c;

	snprintf(path, sizeof(path), FIX "/%s/workdir-after-run.txt", name);
	assert_non_null(f = fopen(path, "r"));
	out[0] = '\0';
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(dst, sizeof(dst), "%s/%s/%s", tmpdir, name, line);
		for (s = dst + strlen(tmpdir) + 1; (s = strchr(s, '/')) != NULL; s++) {
			*s = '\0';
			mkdir(dst, 0777);
			*s = '/';
		}
		if (line[strlen(line) - 1] == '/')
			continue;
		if (strstr(line, "/output/out.json") != NULL) {
			snprintf(path, sizeof(path), FIX "/%s/out.json", name);
			snprintf(out, n, "%s", dst);
		} else if (strstr(line, "_params") != NULL) {
			snprintf(path, sizeof(path), FIX "/%s/NS3Net-28_params.ns3-config.txt",
			    name);
		} else {
			path[0] = '\0';
		}
		assert_non_null(o = fopen(dst, "w"));
		if (path[0] != '\0') {
			assert_non_null(in = fopen(path, "r"));
			while ((c = getc(in)) != EOF)
				putc(c, o);
			fclose(in);
		}
		fclose(o);
	}
	fclose(f);
	assert_true(out[0] != '\0');
}

static const char *
prefix_of(const char *cls)
{
	static const struct { const char *cls, *prefix; } m[] = {
		{ "Gem5Sim", "host." }, { "QemuSim", "host." },
		{ "I40eNicSim", "nic." }, { "CorundumVerilatorNICSim", "nic." },
		{ "SwitchNet", "net." }, { "NS3Net", "net." },
	};
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (strcmp(m[i].cls, cls) == 0)
			return m[i].prefix;
	fail_msg("simulation.json: class %s", cls);
	return NULL;
}

/* The simulator (full name) that simulates component id. */
static void
sim_of(json_t *simj, json_int_t id, char *out, size_t n)
{
	json_t *s, *c;
	size_t i, k;

	json_array_foreach(json_object_get(simj, "sim_list"), i, s)
		json_array_foreach(json_object_get(s, "components"), k, c)
			if (json_integer_value(c) == id) {
				snprintf(out, n, "%s%s", prefix_of(json_string_value(
				    json_object_get(s, "type"))), json_string_value(
				    json_object_get(s, "name")));
				return;
			}
	fail_msg("no simulator simulates component %lld", (long long)id);
}

static json_t *
by_id(json_t *a, json_int_t id)
{
	json_t *o;
	size_t i;

	json_array_foreach(a, i, o)
		if (json_integer_value(json_object_get(o, "id")) == id)
			return o;
	fail_msg("no object with id %lld", (long long)id);
	return NULL;
}

/* Each channel of system.json as "pcie HOST NIC" / "eth NIC NET" between
 * simulators, sorted, against the plan's links the same way. */
static void
fixture(const char *name, size_t unsync)
{
	struct ssp_sbplan_opts o = { "out.json", "topology.csv", NULL, NULL, 0, 0, 0 };
	char out[1500], path[512], a[128], b[128], want[64][300], got[64][300];
	json_t *sys, *simj, *ch, *ia, *ib;
	struct ssp_simbricks *r;
	struct ssp_sbplan *p;
	struct ssp_err e;
	size_t i, nw = 0, ng = 0;
	json_error_t je;

	layout(name, out, sizeof(out));
	snprintf(path, sizeof(path), FIX "/%s/system.json", name);
	assert_non_null(sys = json_load_file(path, 0, &je));
	snprintf(path, sizeof(path), FIX "/%s/simulation.json", name);
	assert_non_null(simj = json_load_file(path, 0, &je));
	json_array_foreach(json_object_get(sys, "channels"), i, ch) {
		const char *t = json_string_value(json_object_get(ch, "type"));

		ia = by_id(json_object_get(sys, "interfaces"),
		    json_integer_value(json_object_get(ch, "interface_a")));
		ib = by_id(json_object_get(sys, "interfaces"),
		    json_integer_value(json_object_get(ch, "interface_b")));
		sim_of(simj, json_integer_value(json_object_get(ia, "component")), a, sizeof(a));
		sim_of(simj, json_integer_value(json_object_get(ib, "component")), b, sizeof(b));
		if (strcmp(t, "PCIeChannel") == 0)
			snprintf(want[nw++], sizeof(want[0]), "pcie %s %s", a, b);
		else	/* EthChannel: a is the NIC (connect_eth_peer_if) */
			snprintf(want[nw++], sizeof(want[0]), "eth %s %s", a, b);
	}
	json_decref(sys);
	json_decref(simj);
	assert_int_equal(ssp_simbricks_load(&r, out, &e), SSP_OK);
	if (ssp_sbplan_make(&p, r, &o, &e) != SSP_OK)
		fail_msg("%s: %s", name, e.msg);
	for (i = 0; i < p->nlinks; i++)
		snprintf(got[ng++], sizeof(got[0]), "%s %s %s",
		    p->links[i].type == SSP_SBPLAN_PCIE ? "pcie" : "eth",
		    ssp_simbricks_sim(r, p->links[i].a)->name,
		    ssp_simbricks_sim(r, p->links[i].b)->name);
	qsort(want, nw, sizeof(want[0]), (int (*)(const void *, const void *))strcmp);
	qsort(got, ng, sizeof(got[0]), (int (*)(const void *, const void *))strcmp);
	assert_int_equal(ng, nw);
	for (i = 0; i < nw; i++)
		assert_string_equal(got[i], want[i]);
	assert_int_equal(p->unsync, unsync);
	/* the same files as the optional extra input: no finding */
	{
		char sp[512], yp[512], **w = NULL;
		struct ssp_sbsim *sb;
		size_t nw2 = 0;

		snprintf(sp, sizeof(sp), FIX "/%s/simulation.json", name);
		snprintf(yp, sizeof(yp), FIX "/%s/system.json", name);
		assert_int_equal(ssp_sbsim_load(&sb, sp, yp, &e), SSP_OK);
		if (ssp_sbsim_check(sb, r, p, &w, &nw2, &e) != SSP_OK)
			fail_msg("%s: %s", name, e.msg);
		assert_int_equal(nw2, 0);
		ssp_sbsim_free(sb);
		free(w);
	}
	ssp_sbplan_free(p);
	ssp_simbricks_free(r);
}

/* simulation.json of another run, or with two simulators of one name. */
static void
test_sbsim(void **state)
{
	struct ssp_sbplan_opts o = { "out.json", "topology.csv", NULL, NULL, 0, 0, 0 };
	char path[256], *text, **w = NULL;
	struct ssp_simbricks *r;
	struct ssp_sbplan *p;
	struct ssp_sbsim *sb;
	struct ssp_err e;
	size_t nw = 0, len;
	json_t *j, *a;
	FILE *f;

	(void)state;
	r = parse(sym1);
	assert_int_equal(ssp_sbplan_make(&p, r, &o, &e), SSP_OK);
	/* another simulation */
	assert_int_equal(ssp_sbsim_load(&sb, FIX "/qemu-i40e-ns3/simulation.json",
	    NULL, &e), SSP_OK);
	assert_int_equal(ssp_sbsim_check(sb, r, p, &w, &nw, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "simulation.json: another run's: its simulation "
	    "is 'simple-ping-ns3', out.json's 's'"));
	ssp_sbsim_free(sb);
	/* the same name twice */
	assert_non_null(j = json_load_file(FIX "/qemu-i40e-ns3/simulation.json", 0, NULL));
	a = json_object_get(j, "sim_list");
	json_object_set(json_array_get(a, 3), "name", json_object_get(
	    json_array_get(a, 1), "name"));
	json_object_set_new(j, "name", json_string("s"));
	assert_non_null(text = json_dumps(j, 0));
	json_decref(j);
	snprintf(path, sizeof(path), "%s/test_sbsim.%ld.json", getenv("TMPDIR") ?
	    getenv("TMPDIR") : "/tmp", (long)getpid());
	assert_non_null(f = fopen(path, "w"));
	len = strlen(text);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	free(text);
	assert_int_equal(ssp_sbsim_load(&sb, path, NULL, &e), SSP_OK);
	assert_int_equal(ssp_sbsim_check(sb, r, p, &w, &nw, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "sim_list[1] (I40eNicSim, id 25) and sim_list[3] "
	    "(I40eNicSim, id 27) are both 'nic.NICSim-25'"));
	ssp_sbsim_free(sb);
	unlink(path);
	/* not the shape */
	assert_int_equal(ssp_sbsim_load(&sb, FIX "/qemu-i40e-ns3/system.json", NULL,
	    &e), SSP_ERR_FORMAT);
	assert_non_null(strstr(e.msg, "no \"sim_list\" list"));
	assert_int_equal(ssp_sbsim_load(&sb, FIX "/nope.json", NULL, &e), SSP_ERR_IO);
	ssp_sbplan_free(p);
	ssp_simbricks_free(r);
}

/* ---- the classes of issue 24: one symphony run, its parts varied ---- */

/* Two QEMU hosts (their -device options), a NIC of some class (its
 * program, stdout and stderr lines), a switch (options, stderr lines). */
static const char sym2_fmt[] =
    "{\"_sim_name\": \"s\", \"_success\": true, \"_interrupted\": false,"
    " \"host.QemuSim-1\": {\"class\": \"QemuSim\", \"output\": [{\"cmd\":"
    " \"qemu-system-x86_64 %s\", \"stdout\": [], \"stderr\": [%s]}]},"
    " \"host.QemuSim-4\": {\"class\": \"QemuSim\", \"output\": [{\"cmd\":"
    " \"qemu-system-x86_64 %s\", \"stdout\": [], \"stderr\": []}]},"
    " \"nic.NICSim-2\": {\"class\": \"%s\", \"output\": [{\"cmd\": \"%s"
    " listen:/w/tmp/shm/pci-3.4.2:/w/tmp/shm/q listen:/w/tmp/shm/eth-1.2.3:/w/tmp/shm/q 0\","
    " \"stdout\": [%s], \"stderr\": [%s]}]},"
    " \"nic.NICSim-5\": {\"class\": \"I40eNicSim\", \"output\": [{\"cmd\": \"simb_i40e_bm"
    " listen:/w/tmp/shm/pci-6.5.5:/w/tmp/shm/q listen:/w/tmp/shm/eth-7.5.5:/w/tmp/shm/q 0\","
    " \"stdout\": [\"info: main_time = 1: nicbm: eth tx: len 60\"], \"stderr\": []}]},"
    " \"net.SwitchNet-9\": {\"class\": \"SwitchNet\", \"output\": [{\"cmd\":"
    " \"simb_net_switch -S 500 %s -s /w/tmp/shm/eth-1.2.3 -s /w/tmp/shm/eth-7.5.5\","
    " \"stdout\": [], \"stderr\": [%s]}]}}";

#define DEV1 "-device simbricks-pci,socket=/w/tmp/shm/pci-3.4.2,sync=on"
#define DEV4 "-device simbricks-pci,socket=/w/tmp/shm/pci-6.5.5,sync=on"
#define E1000_LINE "\"1000: Ethernet: Read device register 0x8\""
#define SW_LINE "\"     1000: [P 0 -> 1] a0 -> b0 [ IP]  100000A ->  200000A len: 98\""

struct sym2 {
	const char *dev1, *qerr, *dev4, *cls, *prog, *out, *err, *swopt, *swerr;
};

static struct ssp_sbplan *
sym2_plan(const struct sym2 *v, const struct ssp_sbplan_opts *o, int code,
    const char *msg)
{
	char buf[sizeof(sym2_fmt) + 2048];
	struct ssp_simbricks *r;
	struct ssp_sbplan *p = NULL;
	struct ssp_err e;
	int rc;

	snprintf(buf, sizeof(buf), sym2_fmt, v->dev1, v->qerr, v->dev4, v->cls,
	    v->prog, v->out, v->err, v->swopt, v->swerr);
	assert_int_equal(ssp_simbricks_parse(&r, "out.json", buf, strlen(buf), &e),
	    SSP_OK);
	rc = ssp_sbplan_make(&p, r, o, &e);
	if (rc != code)
		fail_msg("status %d, want %d (%s)", rc, code, rc != SSP_OK ? e.msg : "");
	if (msg != NULL && strstr(e.msg, msg) == NULL)
		fail_msg("message '%s' lacks '%s'", e.msg, msg);
	if (rc == SSP_OK)
		sym_run = r;
	else
		ssp_simbricks_free(r);
	return p;
}

/* The stream of simulator name, or NULL. */
static const struct ssp_sbplan_stream *
stream_of(const struct ssp_sbplan *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nstreams; i++)
		if (strcmp(p->streams[i].name, name) == 0)
			return &p->streams[i];
	return NULL;
}

static void
test_symphony_classes(void **state)
{
	struct ssp_sbplan_opts o = { "out.json", "topology.csv", NULL, NULL, 0, 0, 0 };
	struct sym2 v = { DEV1, "", DEV4, "E1000NIC", "env E1000_DEBUG=1 simb_e1000_gem5",
	    "", E1000_LINE ", " E1000_LINE, "", SW_LINE };
	const struct ssp_sbplan_stream *st;
	char pcap[300], nopcap[300], opt[700], lm[400];
	const char *maps[1];
	struct ssp_sbplan *p;
	FILE *f;

	(void)state;
	/* e1000_gem5: its E1000_DEBUG lines on stderr, e1000's rules */
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	assert_non_null(st = stream_of(p, "nic.NICSim-2"));
	assert_int_equal(st->sim, SSP_SIM_E1000);
	assert_int_equal(st->which, SSP_SIMBRICKS_STDERR);
	assert_int_equal(st->ncaptured, 2);
	assert_string_equal(p->rules, "linux-e1000.csv");
	assert_false(has_warn(p, "nic.NICSim-2"));
	/* QEMU hosts: a stream each, the adapter as their events name it */
	assert_non_null(st = stream_of(p, "host.QemuSim-1"));
	assert_int_equal(st->sim, SSP_SIM_QEMU);
	assert_int_equal(st->ndriver, 0);
	assert_string_equal(link_of(p, sym_run, SSP_SBPLAN_PCIE, "nic.NICSim-2")->comp,
	    "simbricks-pci");
	sym_free(p);
	/* without debug = True; with it, but a build without DEBUG_E1000 */
	v.prog = "simb_e1000_gem5";
	v.err = "";
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	assert_true(has_warn(p, "nic.NICSim-2 (E1000NIC): no debug lines in its captured "
	    "stderr (none has ': Ethernet'); set debug = True on the E1000NIC simulator"));
	sym_free(p);
	v.prog = "env E1000_DEBUG=1 simb_e1000_gem5";
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	assert_true(has_warn(p, "although it ran under E1000_DEBUG=1: it never said "
	    "'enabling debug messages', so it was built without DEBUG_E1000"));
	sym_free(p);
	v.err = "\"warn: enabling debug messages because E1000_DEBUG envar set\"";
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	assert_true(has_warn(p, "it said it enabled them"));
	sym_free(p);
	/* Enso: nicbm's lines, or its own on stderr, whichever has more */
	v.cls = "EnsoNicSim";
	v.prog = "simb_enso_bm";
	v.err = "\"1000 enso: received packet len=40\"";
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	assert_non_null(st = stream_of(p, "nic.NICSim-2"));
	assert_int_equal(st->sim, SSP_SIM_NICBM);
	assert_int_equal(st->which, SSP_SIMBRICKS_STDERR);
	sym_free(p);
	/* a QEMU with two simbricks-pci devices: its lines mix them */
	v.dev1 = DEV1 " " DEV4;
	v.dev4 = "";
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	assert_null(stream_of(p, "host.QemuSim-1"));
	assert_non_null(stream_of(p, "host.QemuSim-4"));
	assert_true(has_warn(p, "host.QemuSim-1 (QemuSim): no host stream: QEMU's "
	    "simbricks-pci lines name no device, so those of its 2 devices"));
	sym_free(p);
	v.dev1 = DEV1;
	v.dev4 = DEV4;
	/* the switch's -p capture; not there: its debug lines, or nothing */
	snprintf(pcap, sizeof(pcap), "%s/sw.pcap", tmpdir);
	snprintf(nopcap, sizeof(nopcap), "%s/nope.pcap", tmpdir);
	assert_non_null(f = fopen(pcap, "wb"));
	fwrite("\xd4\xc3\xb2\xa1\x02\x00\x04\x00\0\0\0\0\0\0\0\0\xff\xff\0\0\x01\0\0\0",
	    1, 24, f);
	fclose(f);
	snprintf(opt, sizeof(opt), "-p %s", pcap);
	v.swopt = opt;
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	assert_non_null(st = stream_of(p, "net.SwitchNet-9"));
	assert_int_equal(st->sim, SSP_SIM_PCAP);
	assert_string_equal(st->log, pcap);
	sym_free(p);
	snprintf(opt, sizeof(opt), "-p %s", nopcap);
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	st = stream_of(p, "net.SwitchNet-9");
	assert_int_equal(st->sim, SSP_SIM_SWITCH);
	assert_null(st->log);
	assert_int_equal(st->missing, 0);
	assert_true(has_warn(p, "is not there (looked at "));
	assert_true(has_warn(p, "its 1 NETSWITCH_DEBUG lines in out.json's stderr are "
	    "read instead"));
	sym_free(p);
	v.swerr = "";
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	st = stream_of(p, "net.SwitchNet-9");
	assert_int_equal(st->sim, SSP_SIM_PCAP);
	assert_int_equal(st->missing, 1);
	assert_true(has_warn(p, "and its stderr has no NETSWITCH_DEBUG lines"));
	sym_free(p);
	/* an empty file is no capture */
	assert_non_null(f = fopen(nopcap, "wb"));
	fclose(f);
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	assert_true(has_warn(p, "is not a pcap capture (empty: did the switch run?)"));
	sym_free(p);
	/* --log of a switch: a capture by its magic */
	snprintf(lm, sizeof(lm), "net.SwitchNet-9=%s", pcap);
	maps[0] = lm;
	o.logmap = maps;
	o.nlogmap = 1;
	v.swopt = "";
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	assert_int_equal(stream_of(p, "net.SwitchNet-9")->sim, SSP_SIM_PCAP);
	sym_free(p);
	o.nlogmap = 0;
	unlink(pcap);
	unlink(nopcap);
	/* without -p or debug lines: what to set */
	p = sym2_plan(&v, &o, SSP_OK, NULL);
	assert_true(has_warn(p, "net.SwitchNet-9 (SwitchNet): no NETSWITCH_DEBUG lines in "
	    "its stderr and no pcap"));
	assert_true(has_warn(p, "the attribute _relative_pcap_file_path on the "
	    "SwitchNet simulator"));
	sym_free(p);
}

/* NS3Net with its configuration on the command line (use_file=False). */
static const char ns3_fmt[] =
    "{\"_sim_name\": \"s\", \"_success\": true, \"_interrupted\": false,"
    " \"host.QemuSim-1\": {\"class\": \"QemuSim\", \"output\": [{\"cmd\":"
    " \"qemu-system-x86_64 " DEV1 "\", \"stdout\": [], \"stderr\": []}]},"
    " \"nic.NICSim-2\": {\"class\": \"I40eNicSim\", \"output\": [{\"cmd\": \"simb_i40e_bm"
    " listen:/w/tmp/shm/pci-3.4.2:/w/tmp/shm/q listen:/w/tmp/shm/eth-1.2.3:/w/tmp/shm/q 0\","
    " \"stdout\": [], \"stderr\": []}]},"
    " \"net.NS3Net-8\": {\"class\": \"NS3Net\", \"output\": [{\"cmd\":"
    " \"simbricks-ns3-net %s --TopologyNode='Id:-16;Type:Switch' %s"
    " --Network='UnixSocket:/w/tmp/shm/eth-1.2.3;Listen:false;Sync:1;Id:-16/-4;Type:Simbricks'\","
    " \"stdout\": [], \"stderr\": [%s]}]}}";

static struct ssp_sbplan *
ns3_plan(const char *logging, const char *more, const char *err)
{
	struct ssp_sbplan_opts o = { "out.json", "topology.csv", NULL, NULL, 0, 0, 0 };
	char buf[sizeof(ns3_fmt) + 1024];
	struct ssp_simbricks *r;
	struct ssp_sbplan *p;
	struct ssp_err e;

	snprintf(buf, sizeof(buf), ns3_fmt, logging, more, err);
	assert_int_equal(ssp_simbricks_parse(&r, "out.json", buf, strlen(buf), &e),
	    SSP_OK);
	if (ssp_sbplan_make(&p, r, &o, &e) != SSP_OK)
		fail_msg("%s", e.msg);
	sym_run = r;
	return p;
}

static void
test_symphony_nslog(void **state)
{
	const char *line = "\"+0.000001000000s 0 BridgeNetDevice:ReceiveFromDevice()\"";
	const struct ssp_sbplan_stream *st;
	struct ssp_sbplan *p;

	(void)state;
	/* what the parser needs, and the prefixes for every class */
	p = ns3_plan("--Logging='BridgeNetDevice:level_all;SimbricksNetDevice:"
	    "function|debug|logic;All:prefix_all'", "", line);
	assert_non_null(st = stream_of(p, "net.NS3Net-8"));
	assert_int_equal(st->sim, SSP_SIM_NS3);
	assert_int_equal(st->which, SSP_SIMBRICKS_STDERR);
	assert_int_equal(st->ncaptured, 1);
	assert_false(has_warn(p, "net.NS3Net-8"));
	sym_free(p);
	/* prefix_time|prefix_node|prefix_func one by one will do; the
	 * SimBricks device prints function lines only */
	p = ns3_plan("--Logging='BridgeNetDevice:level_all|prefix_time|prefix_node|func;"
	    "SimbricksNetDevice:function|time|node'", "", line);
	assert_false(has_warn(p, "net.NS3Net-8"));
	sym_free(p);
	p = ns3_plan("--Logging='BridgeNetDevice:level_all|prefix_time|prefix_node;"
	    "SimbricksNetDevice:function|time|node'", "", line);
	assert_true(has_warn(p, "gives BridgeNetDevice not all of"));
	sym_free(p);
	/* SimBricks' example: level_all, no prefix */
	p = ns3_plan("--Logging='BridgeNetDevice:level_all;SimbricksNetDevice:level_all'",
	    "", line);
	assert_true(has_warn(p, "gives BridgeNetDevice, SimbricksNetDevice not all of "
	    "the time, node and function prefixes"));
	sym_free(p);
	/* a class left out or at too low a level; SimpleNetDevice once there
	 * are channels */
	p = ns3_plan("--Logging='BridgeNetDevice:level_all;SimbricksNetDevice:level_info;"
	    "All:prefix_all'", "--TopologyNode='Id:-17;Type:Switch' --TopologyChannel="
	    "'Id:c;Type:Simple;LeftNode:-16;RightNode:-17'", "");
	assert_true(has_warn(p, "leaves out lines of SimbricksNetDevice, SimpleNetDevice "
	    "that are events"));
	assert_true(has_warn(p, "no NS_LOG lines of BridgeNetDevice, SimbricksNetDevice "
	    "or SimpleNetDevice in its captured stderr"));
	/* device 0 the bridge, 1 the channel's end, 2 the NIC's */
	assert_int_equal(link_of(p, sym_run, SSP_SBPLAN_ETH, "nic.NICSim-2")->dev, 2);
	sym_free(p);
	/* logging off, or of other classes: no stream, what to add */
	p = ns3_plan("--Logging=''", "", "");
	assert_null(stream_of(p, "net.NS3Net-8"));
	assert_true(has_warn(p, "net.NS3Net-8 (NS3Net): no network stream: its NS_LOG "
	    "output is off (--Logging is empty); on the NS3Net simulator of the "
	    "experiment script: logging.add_logging(\"BridgeNetDevice\", "
	    "ns3_components.NS3LoggingLevel.LEVEL_ALL)"));
	sym_free(p);
	p = ns3_plan("--Logging='Ping:level_all'", "", "");
	assert_null(stream_of(p, "net.NS3Net-8"));
	assert_true(has_warn(p, "its --Logging (\"Ping:level_all\") logs none of "
	    "BridgeNetDevice, SimbricksNetDevice, SimpleNetDevice"));
	sym_free(p);
}

static void
test_fixtures(void **state)
{
	const char *t = getenv("TMPDIR");
	char cmd[400];

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_simbricks.%ld",
	    t != NULL ? t : "/tmp", (long)getpid());
	assert_int_equal(mkdir(tmpdir, 0777), 0);
	fixture("gem5-i40e-switch", 4);
	fixture("gem5-i40e-switch-debug", 0);
	fixture("qemu-i40e-switch", 4);
	fixture("qemu-i40e-ns3", 4);
	fixture("qemu-i40e-ns3-logging", 4);
	fixture("corundum-verilator", 4);
	test_symphony_classes(state);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_enso2024),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_shword),
		cmocka_unit_test(test_sbns3),
		cmocka_unit_test(test_symphony_model),
		cmocka_unit_test(test_symphony_plan),
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_symphony_nslog),
		cmocka_unit_test(test_sbsim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
