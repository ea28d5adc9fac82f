/* net_switch parser (FORMATS.md §9): NETSWITCH_DEBUG lines printed with
 * net_switch.cc's format strings ("%20lu: [P %zu -> %zu] %lx -> %lx ",
 * "[ IP] %8X -> %8X len: %lu", "[ARP] %8X -> %8X", "unknown eth type"),
 * the fan-out of a broadcast, vaastav/simbricks' Packet lines, the real
 * non-debug lines of a SwitchNet's stderr and stdout, malformed lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"
#include "source/switch.h"

#define BAD(h, line) SKIP((h), (line), SSP_SKIP_MALFORMED)

/* A field of the line's first event (the ingress, when there are two). */
static uint64_t
pre_f(const struct ph *h, const char *name)
{
	const struct ssp_rec_type *t = &ssp_event_schema.types[h->pl.pre_ev.type];
	int k = ssp_rec_type_field(t, name);

	if (k < 0)
		fail_msg("type %s has no field %s", t->name, name);
	return h->pl.pre_ev.f[k];
}

static void
test_debug_ip(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_SWITCH, NULL, NULL, 0, 0);
	/* 52:54:00:12:34:56 -> 52:54:00:12:34:57, 10.0.0.1 -> 10.0.0.2, an
	 * 84-byte ICMP echo: what forward_pkt prints on x86 */
	EV(&h, "         12458823247: [P 0 -> 1] 3412005452 -> 3412005452 [ IP]  "
	    "100000A ->  200000A len: 98", SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.pre, 1);
	assert_int_equal(h.pl.pre_ev.type, SSP_EV_NET_ENQ);
	assert_int_equal(h.pl.pre_ev.ts, 12458823247);
	assert_int_equal(pre_f(&h, "node"), 0);
	assert_int_equal(pre_f(&h, "dev"), 0);
	assert_int_equal(pre_f(&h, "boundary"), SSP_NET_FROM_ADAPTER);
	assert_int_equal((int64_t)pre_f(&h, "uid"), -1);
	assert_int_equal(h.pl.ev.ts, 12458823247);
	assert_int_equal(ph_f(&h, "dev"), 1);
	assert_int_equal(ph_f(&h, "boundary"), SSP_NET_TO_ADAPTER);
	assert_string_equal(ph_s(&h, "devtype"), "NetSwitch");
	assert_string_equal(ph_s(&h, "source"), "egress");
	assert_int_equal(ph_i(&h, "uid"), -1);
	assert_int_equal(ph_f(&h, "interesting"), 1);
	assert_int_equal(ph_f(&h, "eth_type"), 0x800);
	/* 40 bits: the sixth octet is not printed */
	assert_int_equal(ph_f(&h, "eth_src"), 0x525400123400ULL);
	assert_int_equal(ph_f(&h, "eth_dst"), 0x525400123400ULL);
	assert_int_equal(ph_f(&h, "ip_src"), 0x0a000001);
	assert_int_equal(ph_f(&h, "ip_dst"), 0x0a000002);
	assert_int_equal(ph_f(&h, "ip_len"), 84);
	assert_int_equal(ph_i(&h, "ip_proto"), -1);
	assert_int_equal(ph_i(&h, "payload"), -1);
	/* the next packet: a new ingress */
	EV(&h, "         12458824000: [P 1 -> 0] 3512005452 -> 3412005452 [ IP] "
	    "C0A8400A -> 200000A len: 1066", SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.pre, 1);
	assert_int_equal(pre_f(&h, "dev"), 1);
	assert_int_equal(ph_f(&h, "ip_src"), 0x0a40a8c0);
	assert_int_equal(ph_f(&h, "ip_len"), 1052);
	/* no ethertype the switch knows */
	EV(&h, "                 100: [P 2 -> 0] 1 -> 2 unknown eth type", SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.pre, 1);
	assert_int_equal(ph_f(&h, "eth_type"), 0);
	assert_int_equal(ph_f(&h, "eth_src"), 0x010000000000ULL);
	assert_int_equal(ph_f(&h, "ip_len"), 0);
	ph_close(&h);
}

static void
test_broadcast(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_SWITCH, NULL, NULL, 0, 0);
	/* an ARP who-has flooded to ports 1..3: one ingress, three copies */
	EV(&h, "           500443000: [P 0 -> 1] 3412005452 -> ffffffffff [ARP]  "
	    "100000A -> FA40A8C0", SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.pre, 1);
	assert_int_equal(pre_f(&h, "eth_type"), 0x806);
	assert_int_equal(ph_f(&h, "eth_dst"), 0xffffffffff00ULL);
	assert_int_equal(ph_f(&h, "ip_src"), 0x0a000001);
	assert_int_equal(ph_f(&h, "ip_dst"), 0xc0a840fa);
	EV(&h, "           500443000: [P 0 -> 2] 3412005452 -> ffffffffff [ARP]  "
	    "100000A -> FA40A8C0", SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.pre, 0);
	assert_int_equal(ph_f(&h, "dev"), 2);
	/* a status line between copies does not end the packet */
	SKIP(&h, "main_time = 500443000", SSP_SKIP_STATUS);
	EV(&h, "           500443000: [P 0 -> 3] 3412005452 -> ffffffffff [ARP]  "
	    "100000A -> FA40A8C0", SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.pre, 0);
	/* the same frame again to a port already served: a second packet */
	EV(&h, "           500443000: [P 0 -> 1] 3412005452 -> ffffffffff [ARP]  "
	    "100000A -> FA40A8C0", SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.pre, 1);
	/* a drop of the copy just sent: at the time of the last line */
	EV(&h, "forward_pkt: dropping packet on port 1", SSP_EV_NET_DROP);
	assert_int_equal(h.pl.ev.ts, 500443000);
	assert_int_equal(ph_f(&h, "dev"), 1);
	assert_string_equal(ph_s(&h, "source"), "dropping");
	assert_int_equal(ph_f(&h, "eth_src"), 0);
	ph_close(&h);
}

static void
test_vaastav(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_SWITCH, NULL, NULL, 0, 0);
	EV(&h, "info: main_time=1000 Packet Receive: id=7 port=2 "
	    "src=00:12:34:56:78:9a dst=ff:ff:ff:ff:ff:ff len=64", SSP_EV_NET_ENQ);
	assert_int_equal(h.pl.pre, 0);
	assert_int_equal(h.pl.ev.ts, 1000);
	assert_int_equal(ph_f(&h, "dev"), 2);
	assert_int_equal(ph_i(&h, "uid"), 7);
	assert_int_equal(ph_f(&h, "boundary"), SSP_NET_FROM_ADAPTER);
	assert_string_equal(ph_s(&h, "source"), "Receive");
	assert_int_equal(ph_f(&h, "eth_src"), 0x00123456789aULL);
	assert_int_equal(ph_f(&h, "eth_dst"), 0xffffffffffffULL);
	assert_int_equal(ph_f(&h, "ip_len"), 50);
	EV(&h, "info: main_time=2000 Packet Transmit: id=7 e_port=0 i_port=2",
	    SSP_EV_NET_DEQ);
	assert_int_equal(ph_f(&h, "dev"), 0);
	assert_int_equal(ph_i(&h, "uid"), 7);
	assert_int_equal(ph_f(&h, "boundary"), SSP_NET_TO_ADAPTER);
	assert_string_equal(ph_s(&h, "source"), "Transmit");
	EV(&h, "main_time=2000 Packet Drop: id=7 e_port=1 i_port=2", SSP_EV_NET_DROP);
	assert_int_equal(ph_f(&h, "dev"), 1);
	assert_string_equal(ph_s(&h, "source"), "Drop");
	BAD(&h, "info: main_time=2000 Packet Transmit: id=-1 e_port=0 i_port=2");
	BAD(&h, "info: main_time=2000 Packet Receive: id=1 port=2 src=zz dst=1 len=1");
	SKIP(&h, "info: main_time=2000 Packet Other: id=1", SSP_SKIP_UNKNOWN);
	SKIP(&h, "info: something else", SSP_SKIP_TEXT);
	ph_close(&h);
}

static void
test_status_lines(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_SWITCH, NULL, NULL, 0, 0);
	/* real net.switch_0 stderr and stdout lines (dist_memcache) */
	SKIP(&h, "main_time = 12458823247874", SSP_SKIP_STATUS);
	/* the rest of SIGUSR1's dump (component-net-base net_switch.cc) */
	SKIP(&h, "[Port 0 ]: in_timestamp == 12458823247000", SSP_SKIP_STATUS);
	SKIP(&h, "[Port 11 ]: out_timestamp == 12458823248000", SSP_SKIP_STATUS);
	SKIP(&h, "[Port 0 ]: in_timestamp == ", SSP_SKIP_TEXT);
	SKIP(&h, "[Port x ]: out_timestamp == 1", SSP_SKIP_TEXT);
	SKIP(&h, "Switch connecting to: /tmp/simbricks/eth.0", SSP_SKIP_UNKNOWN);
	SKIP(&h, "Switch listening on: /tmp/simbricks/n2n.0", SSP_SKIP_UNKNOWN);
	SKIP(&h, "start connecting...", SSP_SKIP_UNKNOWN);
	SKIP(&h, "done connecting", SSP_SKIP_UNKNOWN);
	SKIP(&h, "start polling", SSP_SKIP_UNKNOWN);
	SKIP(&h, "      d2n_poll_total:                   3360         d2n_poll_suc:"
	    "                     84  poll_suc_rate: 0.025000", SSP_SKIP_UNKNOWN);
	SKIP(&h, "    s_d2n_poll_total:                      0       s_d2n_poll_suc:"
	    "                      0  poll_suc_rate: -nan", SSP_SKIP_UNKNOWN);
	/* a drop line before any packet has no time: skipped */
	SKIP(&h, "forward_pkt: dropping packet on port 1", SSP_SKIP_UNKNOWN);
	/* other simulators' lines are text */
	SKIP(&h, "main_time = 1000: nicbm: eth tx: len 64", SSP_SKIP_TEXT);
	SKIP(&h, "1000: system.pc.simbricks_0: sending read", SSP_SKIP_TEXT);
	SKIP(&h, "+  1905164778000 /$ns3::NodeListPriv/NodeList/1", SSP_SKIP_TEXT);
	SKIP(&h, "", SSP_SKIP_EMPTY);
	SKIP(&h, "   ", SSP_SKIP_TEXT);
	ph_close(&h);
}

static void
test_malformed(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_SWITCH, NULL, NULL, 0, 0);
	BAD(&h, "       123: [P x -> 1] 1 -> 2 unknown eth type");
	BAD(&h, "       123: [P 0 -> 1] 1 -> 2 [ IP] 1 -> 2");
	BAD(&h, "       123: [P 0 -> 1] 1 -> 2 [ IP] 1 -> 2 len: ");
	BAD(&h, "       123: [P 0 -> 1] 1 -> 2 [ARP] 1 ->");
	BAD(&h, "       123: [P 0 -> 1] 1 -> 2 [XYZ] 1 -> 2");
	BAD(&h, "       123: [P 0 -> 1] 1 -> 2 unknown eth type!");
	BAD(&h, "       123: [P 0 -> 1] 10000000000 -> 2 unknown eth type");
	BAD(&h, "       123: [P 0 -> 1] 1 -> 2 [ IP] 100000000 -> 2 len: 1");
	BAD(&h, "       123: [P 4294967296 -> 1] 1 -> 2 unknown eth type");
	BAD(&h, "9223372036854775808: [P 0 -> 1] 1 -> 2 unknown eth type");
	BAD(&h, "forward_pkt: dropping packet on port x");
	/* cut short: the two-event line must not leave half an event */
	BAD(&h, "       123: [P 0 -> 1] 1");
	SKIP(&h, "       123 and more", SSP_SKIP_TEXT);
	/* a space inside the 20 timestamp columns: not a timestamp */
	SKIP(&h, "       0 12345678901: [P 0 -> 1] 1 -> 2 unknown eth type",
	    SSP_SKIP_TEXT);
	SKIP(&h, "                    : [P 0 -> 1] 1 -> 2 unknown eth type",
	    SSP_SKIP_TEXT);
	/* 20 digits: past the fast path, and past INT64_MAX */
	BAD(&h, "10000000000000000000: [P 0 -> 1] 1 -> 2 unknown eth type");
	EV(&h, "                   0: [P 0 -> 1] 1 -> 2 unknown eth type",
	    SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.ev.ts, 0);
	EV(&h, "    1234567890123456: [P 0 -> 1] 1 -> 2 unknown eth type",
	    SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.ev.ts, 1234567890123456LL);
	EV(&h, "   12345678901234567: [P 0 -> 1] 1 -> 2 unknown eth type",
	    SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.ev.ts, 12345678901234567LL);
	ph_close(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debug_ip),
		cmocka_unit_test(test_broadcast),
		cmocka_unit_test(test_vaastav),
		cmocka_unit_test(test_status_lines),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
