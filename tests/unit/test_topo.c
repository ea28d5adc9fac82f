/* Topology reader: streams, links, paths, and every error with its
 * file:line:col. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/topo.h"

static void
test_dumbbell(void **state)
{
	static const char in[] =
	    "# the SimBricks dumbbell\n"
	    "type,name,kind,file\n"
	    "stream,client,host,client.ev.zst\n"
	    "stream,server,host,/abs/server.ev\n"
	    "stream,client-nic,nic,-\n"
	    "stream,server-nic,nic\n"
	    "stream,net,net,net.ev\n"
	    "pcie,client,client-nic,system.pc.simbricks_0\n"
	    "pcie,server,server-nic\n"
	    "eth,client-nic,net,1,2\n"
	    "eth , server-nic , net , 0 , 2\n";
	struct ssp_topo *t;
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_topo_parse(&t, "d.csv", "/data", in, sizeof(in) - 1,
	    &e), SSP_OK);
	assert_int_equal(t->nstreams, 5);
	assert_string_equal(t->streams[0].name, "client");
	assert_int_equal(t->streams[0].kind, SSP_SIM_GEM5);
	assert_string_equal(t->streams[0].file, "/data/client.ev.zst");
	assert_string_equal(t->streams[1].file, "/abs/server.ev");
	assert_string_equal(t->streams[2].file, "-");
	assert_null(t->streams[3].file);
	assert_int_equal(t->streams[4].kind, SSP_SIM_NS3);
	assert_int_equal(t->npcie, 2);
	assert_string_equal(t->pcie[0].adapter, "system.pc.simbricks_0");
	assert_null(t->pcie[1].adapter);
	assert_int_equal(t->pcie[1].host, 1);
	assert_int_equal(t->pcie[1].nic, 3);
	assert_int_equal(t->streams[2].pcie, 0);
	assert_int_equal(t->streams[3].eth, 1);
	assert_int_equal(t->neth, 2);
	assert_int_equal(t->eth[0].node, 1);
	assert_int_equal(t->eth[0].dev, 2);
	assert_int_equal(t->eth[1].net, 4);
	assert_int_equal(ssp_topo_find(t, "net"), 4);
	assert_int_equal(ssp_topo_find(t, "nope"), -1);
	/* NAME=FILE overrides, relative to the current directory */
	assert_int_equal(ssp_topo_override(t, "server-nic=x/s.ev", &e), SSP_OK);
	assert_string_equal(t->streams[3].file, "x/s.ev");
	assert_int_equal(ssp_topo_override(t, "nope=x", &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "no stream named 'nope'"));
	assert_int_equal(ssp_topo_override(t, "client", &e), SSP_ERR_INVAL);
	assert_int_equal(ssp_topo_override(t, "=x", &e), SSP_ERR_INVAL);
	assert_int_equal(ssp_topo_override(t, "b@d=x", &e), SSP_ERR_INVAL);
	ssp_topo_free(t);
}

/* 64 hosts, each with a NIC on one switch */
static void
test_many_hosts(void **state)
{
	char *buf = malloc(65536);
	size_t n = 0;
	struct ssp_topo *t;
	struct ssp_err e;
	int i;

	(void)state;
	n += (size_t)sprintf(buf + n, "stream,net,net,net.ev\n");
	for (i = 0; i < 64; i++)
		n += (size_t)sprintf(buf + n, "stream,h%d,host,h%d.ev\n"
		    "stream,n%d,nic,n%d.ev\npcie,h%d,n%d\neth,n%d,net,%d,1\n",
		    i, i, i, i, i, i, i, i);
	assert_int_equal(ssp_topo_parse(&t, "m.csv", NULL, buf, n, &e), SSP_OK);
	assert_int_equal(t->nstreams, 129);
	assert_int_equal(t->npcie, 64);
	assert_int_equal(t->neth, 64);
	assert_string_equal(t->streams[1].file, "h0.ev");
	ssp_topo_free(t);
	free(buf);
}

static void
expect(const char *in, const char *msg)
{
	struct ssp_topo *t = NULL;
	struct ssp_err e;

	assert_int_equal(ssp_topo_parse(&t, "t.csv", NULL, in, strlen(in), &e),
	    SSP_ERR_INVAL);
	assert_null(t);
	if (strstr(e.msg, msg) == NULL)
		fail_msg("got '%s', want '%s'", e.msg, msg);
}

static void
test_errors(void **state)
{
	(void)state;
	expect("", "t.csv:1:1: no stream rows");
	expect("streams,a,host\n", "t.csv:1:1: unknown row type 'streams'");
	expect("stream,a,hots\n", "t.csv:1:10: unknown stream kind 'hots'");
	expect("stream,a\n", "t.csv:1:9: missing stream kind");
	expect("stream\n", "missing stream name");
	expect("stream,a b,host\n", "t.csv:1:8: bad stream name 'a b'");
	expect("stream,a,host\nstream,a,nic\n",
	    "t.csv:2:8: duplicate stream name 'a' (first defined at line 1)");
	expect("stream,a,host,f,g\n", "t.csv:1:17: unexpected field 'g'");
	expect("stream,a,host\npcie,a,b\n", "t.csv:2:8: no stream named 'b'");
	expect("stream,a,host\nstream,b,host\npcie,a,b\n",
	    "t.csv:3:8: stream 'b' is a host stream, expected a nic stream");
	expect("stream,h,host\nstream,n,nic\nstream,m,net\neth,n,m,x,1\n",
	    "t.csv:4:9: bad ns-3 node number 'x'");
	expect("stream,h,host\nstream,n,nic\nstream,m,net\neth,n,m,1\n",
	    "missing ns-3 device number");
	expect("stream,h,host\nstream,n,nic\nstream,m,net\neth,n,m,1,99999999999\n",
	    "t.csv:4:11: bad ns-3 device number");
	expect("stream,h,host\nstream,n,nic\nstream,k,nic\npcie,h,n\npcie,h,k,a\n",
	    "t.csv:4:1: host 'h' has several nics");
	expect("stream,h,host\nstream,n,nic\nstream,k,nic\npcie,h,n,a\npcie,h,k,a\n",
	    "t.csv:5:10: adapter 'a' of host 'h' is already used at line 4");
	expect("stream,h,host\nstream,g,host\nstream,n,nic\npcie,h,n\npcie,g,n\n",
	    "t.csv:5:8: nic 'n' is already attached to a host at line 4");
	expect("stream,n,nic\nstream,m,net\neth,n,m,1,1\neth,n,m,1,2\n",
	    "t.csv:4:5: nic 'n' is already attached to a network at line 3");
	expect("stream,n,nic\nstream,k,nic\nstream,m,net\neth,n,m,1,1\neth,k,m,1,1\n",
	    "t.csv:5:9: node 1 device 1 of 'm' is already attached at line 4");
	expect("type,name\ntype,name\n", "t.csv:2:1: unknown row type 'type'");
	expect("stream,a,host,\"x\n", "unterminated quoted field");
}

/* Two net_switches joined on one socket (-h on sw0, -s on sw1), an ns-3
 * network on a third: n2n rows. */
static void
test_n2n(void **state)
{
	static const char in[] =
	    "stream,n0,nic\nstream,n1,nic\nstream,sw0,net\nstream,sw1,net\n"
	    "stream,ns3,net\n"
	    "eth,n0,sw0,0,0\neth,n1,sw1,0,0\n"
	    "n2n,sw0,0,1,sw1,0,1\n"
	    "n2n,sw1,0,2,ns3,3,1\n"
	    "n2n,ns3,3,2,ns3,4,1\n";	/* within one stream, other devices */
	struct ssp_topo *t;
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_topo_parse(&t, "t.csv", NULL, in, strlen(in), &e), SSP_OK);
	assert_int_equal(t->nn2n, 3);
	assert_int_equal(t->n2n[0].net[0], 2);
	assert_int_equal(t->n2n[0].node[0], 0);
	assert_int_equal(t->n2n[0].dev[0], 1);
	assert_int_equal(t->n2n[0].net[1], 3);
	assert_int_equal(t->n2n[0].dev[1], 1);
	assert_int_equal(t->n2n[0].line, 8);
	assert_int_equal(t->n2n[1].net[1], 4);
	assert_int_equal(t->n2n[1].node[1], 3);
	assert_int_equal(t->n2n[2].net[0], 4);
	assert_int_equal(t->n2n[2].net[1], 4);
	assert_int_equal(t->n2n[2].node[1], 4);
	assert_int_equal(t->neth, 2);
	ssp_topo_free(t);
}

static void
test_n2n_errors(void **state)
{
	static const char nets[] = "stream,n,nic\nstream,a,net\nstream,b,net\n";
	char in[256];

	(void)state;
#define N2N(rows, msg) do { \
	snprintf(in, sizeof(in), "%s%s", nets, rows); \
	expect(in, msg); \
} while (0)
	N2N("n2n,a,0,1,c,0,1\n", "t.csv:4:11: no stream named 'c'");
	N2N("n2n,a,0,1,n,0,1\n", "t.csv:4:11: stream 'n' is a nic stream, "
	    "expected a net stream");
	N2N("n2n,a,0,1,b,0\n", "t.csv:4:14: missing device number");
	N2N("n2n,a,x,1,b,0,1\n", "t.csv:4:7: bad node number 'x'");
	N2N("n2n,a,0,1,b,0,1,2\n", "t.csv:4:17: unexpected field '2' (a n2n row "
	    "has at most 7 fields)");
	N2N("n2n,a,0,1,a,0,1\n", "t.csv:4:13: node 0 device 1 of 'a' is linked to itself");
	N2N("eth,n,a,0,1\nn2n,a,0,1,b,0,1\n",
	    "t.csv:5:7: node 0 device 1 of 'a' is already attached at line 4");
	N2N("n2n,a,0,1,b,0,1\nn2n,b,0,2,b,0,1\n",
	    "t.csv:5:13: node 0 device 1 of 'b' is already attached at line 4");
	expect("stream,a,net\nlink,a,0,1,a,0,2\n", "t.csv:2:1: unknown row type "
	    "'link' (expected stream, pcie, eth or n2n)");
#undef N2N
}

static void
test_load_relative(void **state)
{
	char dir[] = "/tmp/ssp-test-topo-XXXXXX", path[128];
	struct ssp_topo *t;
	struct ssp_err e;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/topo.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("stream,a,host,a.ev\n", f);
	fclose(f);
	assert_int_equal(ssp_topo_load(&t, path, &e), SSP_OK);
	{
		char want[160];

		snprintf(want, sizeof(want), "%s/a.ev", dir);
		assert_string_equal(t->streams[0].file, want);
	}
	ssp_topo_free(t);
	unlink(path);
	rmdir(dir);
	assert_int_equal(ssp_topo_load(&t, path, &e), SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "topo.csv"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dumbbell),
		cmocka_unit_test(test_many_hosts),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_n2n),
		cmocka_unit_test(test_n2n_errors),
		cmocka_unit_test(test_load_relative),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
