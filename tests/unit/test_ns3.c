/* ns-3 parser: SimBricks trace sink lines (real samples) and standard
 * AsciiTraceHelper lines, header extraction, seconds conversion, malformed
 * lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"
#include "source/ns3.h"

#define CTX "/$ns3::NodeListPriv/NodeList/"

static void
test_simbricks(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NS3, NULL, NULL, 0, 0);
	/* real lines, ns3-simbricks/columbo-ns3-raw-log.txt */
	EV(&h, "+  1905164778000 " CTX "1/$ns3::Node/DeviceList/2/$ns3::CosimNetDevice/"
	    "RxPacketFromAdapter Packet-Uid=0 Intersting=true ns3::EthernetHeader( "
	    "length/type=0x806, source=b0:9a:ac:67:3c:98, destination=ff:ff:ff:ff:ff:ff) "
	    "Payload (size=42)", SSP_EV_NET_ENQ);
	assert_int_equal(h.pl.ev.ts, 1905164778000);
	assert_int_equal(ph_f(&h, "node"), 1);
	assert_int_equal(ph_f(&h, "dev"), 2);
	assert_string_equal(ph_s(&h, "devtype"), "CosimNetDevice");
	assert_string_equal(ph_s(&h, "source"), "RxPacketFromAdapter");
	assert_int_equal(ph_i(&h, "uid"), 0);
	assert_int_equal(ph_f(&h, "interesting"), 1);
	assert_int_equal(ph_f(&h, "boundary"), SSP_NET_FROM_ADAPTER);
	assert_int_equal(ph_i(&h, "payload"), 42);
	assert_int_equal(ph_f(&h, "eth_type"), 0x806);
	assert_int_equal(ph_f(&h, "eth_src"), 0xb09aac673c98ULL);
	assert_int_equal(ph_f(&h, "eth_dst"), 0xffffffffffffULL);
	assert_int_equal(ph_i(&h, "ip_proto"), -1);
	assert_int_equal(ph_i(&h, "ip_id"), -1);
	EV(&h, "-  1905164778000 " CTX "1/$ns3::Node/DeviceList/3/$ns3::CosimNetDevice/"
	    "TxPacketToAdapter Packet-Uid=0 Intersting=true ns3::EthernetHeader ( "
	    "length/type=0x806, source=b0:9a:ac:67:3c:98, destination=ff:ff:ff:ff:ff:ff) "
	    "Payload (size=42)", SSP_EV_NET_DEQ);
	assert_int_equal(ph_f(&h, "boundary"), SSP_NET_TO_ADAPTER);
	assert_int_equal(ph_f(&h, "eth_type"), 0x806);
	/* SimpleNetDevice: the manual Ethernet header is garbage, ignored;
	 * the Ipv4Header (Packet::Print) is real */
	EV(&h, "+  2966621239000 " CTX "1/$ns3::Node/DeviceList/1/$ns3::SimpleNetDevice/"
	    "TxQueue/Enqueue Packet-Uid=12 Intersting=true ns3::EthernetHeader( "
	    "length/type=0xc0a8, source=40:00:40:01:13:99, destination=45:00:00:54:25:be) "
	    "ns3::Ipv4Header (tos 0x0 DSCP Default ECN Not-ECT ttl 64 id 9662 protocol 1 "
	    "offset (bytes) 0 flags [DF] length: 84 192.168.64.1 > 192.168.64.0) "
	    "Payload (size=98)", SSP_EV_NET_ENQ);
	assert_string_equal(ph_s(&h, "source"), "TxQueue/Enqueue");
	assert_int_equal(ph_f(&h, "boundary"), SSP_NET_INTERNAL);
	assert_int_equal(ph_f(&h, "eth_type"), 0);
	assert_int_equal(ph_f(&h, "eth_src"), 0);
	assert_int_equal(ph_f(&h, "ip_src"), 0xc0a84001);
	assert_int_equal(ph_f(&h, "ip_dst"), 0xc0a84000);
	assert_int_equal(ph_i(&h, "ip_proto"), 1);
	assert_int_equal(ph_i(&h, "ip_id"), 9662);
	assert_int_equal(ph_f(&h, "ip_len"), 84);
	assert_int_equal(ph_i(&h, "uid"), 12);
	/* RxPacketFromNetwork on the Cosim device: from the Simple side, the
	 * manual header is garbage there too (0x3c98 in the sample) */
	EV(&h, "+  1905164778000 " CTX "0/$ns3::Node/DeviceList/2/$ns3::CosimNetDevice/"
	    "RxPacketFromNetwork Packet-Uid=0 Intersting=true ns3::EthernetHeader( "
	    "length/type=0x3c98, source=00:01:b0:9a:ac:67, destination=00:01:08:00:06:04) "
	    "ns3::ArpHeader(request source mac: 00-06-b0:9a:ac:67:3c:98 source ipv4: "
	    "192.168.64.1 dest ipv4: 192.168.64.0) Payload (size=42)", SSP_EV_NET_ENQ);
	assert_int_equal(ph_f(&h, "eth_type"), 0);
	/* ARP: sender and target addresses in ip_src/ip_dst */
	assert_int_equal(ph_f(&h, "ip_src"), 0xc0a84001);
	assert_int_equal(ph_f(&h, "ip_dst"), 0xc0a84000);
	/* columbo-ns3-parser-test-inline.txt: no payload, interesting=false */
	EV(&h, "+  1001000000000 " CTX "0/$ns3::Node/DeviceList/1/$ns3::SimpleNetDevice/"
	    "TxQueue/Enqueue Packet-Uid=2 Intersting=false ns3::EthernetHeader( "
	    "length/type=0x9, source=00:01:00:00:00:00, destination=00:01:08:00:06:04) "
	    "ns3::ArpHeader(request source mac: 00-06-00:00:00:00:00:09 source ipv4: "
	    "192.168.64.4 dest ipv4: 192.168.64.6) ns3::ArpHeader (request source mac: "
	    "00-06-00:00:00:00:00:09 source ipv4: 192.168.64.4 dest ipv4: 192.168.64.6)",
	    SSP_EV_NET_ENQ);
	assert_int_equal(ph_f(&h, "interesting"), 0);
	assert_int_equal(ph_i(&h, "payload"), -1);
	EV(&h, "d  5 " CTX "0/$ns3::Node/DeviceList/1/$ns3::SimpleNetDevice/TxQueue/Drop "
	    "Packet-Uid=7 Intersting=true Payload (size=10)", SSP_EV_NET_DROP);
	assert_string_equal(ph_s(&h, "source"), "TxQueue/Drop");
	ph_close(&h);
}

static void
test_ascii(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NS3, NULL, NULL, 0, 0);
	/* real lines, ns3-std/ns3-bottleneck-head400.tr */
	EV(&h, "+ 0.2 /NodeList/2/DeviceList/0/$ns3::PointToPointNetDevice/TxQueue/Enqueue "
	    "ns3::PppHeader (Point-to-Point Protocol: IP (0x0021)) ns3::Ipv4Header (tos 0x0 "
	    "DSCP Default ECN Not-ECT ttl 64 id 0 protocol 17 offset (bytes) 0 flags [none] "
	    "length: 1052 10.1.2.2 > 10.1.1.1) ns3::UdpHeader (length: 1032 49153 > 9) "
	    "Payload (size=1024)", SSP_EV_NET_ENQ);
	assert_int_equal(h.pl.ev.ts, 200000000000);
	assert_int_equal(ph_i(&h, "uid"), -1);
	assert_int_equal(ph_f(&h, "interesting"), 1);
	assert_string_equal(ph_s(&h, "devtype"), "PointToPointNetDevice");
	assert_int_equal(ph_f(&h, "sport"), 49153);
	assert_int_equal(ph_f(&h, "dport"), 9);
	assert_int_equal(ph_i(&h, "ip_proto"), 17);
	assert_int_equal(ph_f(&h, "ip_len"), 1052);
	assert_int_equal(ph_i(&h, "payload"), 1024);
	EV(&h, "r 0.101005 /NodeList/1/DeviceList/0/$ns3::PointToPointNetDevice/MacRx "
	    "ns3::PppHeader (Point-to-Point Protocol: IP (0x0021)) ns3::Ipv4Header (tos 0x0 "
	    "DSCP Default ECN Not-ECT ttl 64 id 0 protocol 6 offset (bytes) 0 flags [none] "
	    "length: 56 10.1.1.1 > 10.1.2.2) ns3::TcpHeader (49153 > 5000 [SYN] Seq=0 Ack=0 "
	    "Win=65535 ns3::TcpOptionTS(100;0) ns3::TcpOptionWinScale(4) "
	    "ns3::TcpOptionSackPermitted([sack_perm]) ns3::TcpOptionEnd(EOL))", SSP_EV_NET_RX);
	assert_int_equal(h.pl.ev.ts, 101005000000);
	assert_int_equal(ph_f(&h, "sport"), 49153);
	assert_int_equal(ph_f(&h, "dport"), 5000);
	assert_string_equal(ph_s(&h, "source"), "MacRx");
	/* fragments add up */
	EV(&h, "d 0.294297 /NodeList/2/DeviceList/0/$ns3::PointToPointNetDevice/PhyRxDrop "
	    "ns3::PppHeader (x) Payload Fragment [464:512] Payload (size=512) Payload "
	    "(size=512) Payload Fragment [0:376]", SSP_EV_NET_DROP);
	assert_int_equal(h.pl.ev.ts, 294297000000);
	assert_int_equal(ph_i(&h, "payload"), 48 + 512 + 512 + 376);
	EV(&h, "- 1e-05 /NodeList/0/DeviceList/0/$ns3::CsmaNetDevice/TxQueue/Dequeue x",
	    SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.ev.ts, 10000000);
	ph_close(&h);
}

static void
test_seconds(void **state)
{
	static const struct { const char *s; int64_t ps; } ok[] = {
		{ "0.2", 200000000000 }, { "0.101005", 101005000000 },
		{ "1.52122", 1521220000000 }, { "2", 2000000000000 }, { "0", 0 },
		{ "1e-05", 10000000 }, { "1.5e+02", 150000000000000 },
		{ "0.0000000000005", 1 }, { "0.0000000000004", 0 },
		{ "9223372.036854775807", INT64_MAX },
		{ "00000000000000000000001", 1000000000000 },
	};
	static const char *const bad[] = { "", ".", "e5", "1e", "9223373", "1e400",
	    "1e-401" };
	size_t i;
	int64_t ps;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		const char *p = ok[i].s, *end = p + strlen(p);

		if (ssp_ns3_seconds(&p, end, &ps) != 0 || ps != ok[i].ps || p != end)
			fail_msg("%s: got %lld", ok[i].s, (long long)ps);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *p = bad[i];

		if (ssp_ns3_seconds(&p, p + strlen(p), &ps) == 0 && p == bad[i] + strlen(bad[i]))
			fail_msg("%s accepted", bad[i]);
	}
}

static void
test_skips(void **state)
{
	static const char *const bad[] = {
		"+  x " CTX "0/$ns3::Node/DeviceList/1/$ns3::SimpleNetDevice/TxQueue/Enqueue",
		"+  99999999999999999999 " CTX "0/$ns3::Node/DeviceList/1/$ns3::S/T Packet-Uid=1 Intersting=true",
		"+  5 /ChannelList/0/$ns3::SimpleChannel/Foo Packet-Uid=1 Intersting=true",
		"+  5 " CTX "0/$ns3::Node/DeviceList/1/$ns3::SimpleNetDevice Packet-Uid=1 Intersting=true",
		"+  5 " CTX "0/$ns3::Node/DeviceList/1/$ns3::S/T Packet-Uid=x Intersting=true",
		"+  5 " CTX "0/$ns3::Node/DeviceList/1/$ns3::S/T Packet-Uid=1 Intersting=maybe",
		"+  5 " CTX "0/$ns3::Node/DeviceList/1/$ns3::S/T Packet-Uid=1",
		"+  5 " CTX "0/$ns3::Node/DeviceList/1/$ns3::CosimNetDevice/TxPacketToNetwork "
		    "Packet-Uid=1 Intersting=true ns3::EthernetHeader( length/type=zz)",
		"+  5 " CTX "0/$ns3::Node/DeviceList/1/$ns3::S/T Packet-Uid=1 Intersting=true "
		    "ns3::Ipv4Header (tos 0x0 ttl 64 id 1 protocol 17 length: 84 1.2.3 > 1.2.3.4)",
		"+  5 " CTX "0/$ns3::Node/DeviceList/1/$ns3::S/T Packet-Uid=1 Intersting=true "
		    "Payload (size=x)",
		"+ 0.x /NodeList/2/DeviceList/0/$ns3::PointToPointNetDevice/TxQueue/Enqueue",
		"+ 1e999 /NodeList/2/DeviceList/0/$ns3::PointToPointNetDevice/TxQueue/Enqueue",
	};
	struct ph h;
	size_t i;

	(void)state;
	ph_open(&h, SSP_SIM_NS3, NULL, NULL, 0, 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		SKIP(&h, bad[i], i == 0 ? SSP_SKIP_TEXT : SSP_SKIP_MALFORMED);
	SKIP(&h, "", SSP_SKIP_EMPTY);
	SKIP(&h, "+", SSP_SKIP_TEXT);
	SKIP(&h, "x  5 /NodeList/0", SSP_SKIP_TEXT);
	SKIP(&h, "s  5 " CTX "0/$ns3::Node/DeviceList/1/x sending sync message 5",
	    SSP_SKIP_UNKNOWN);
	SKIP(&h, "- the end", SSP_SKIP_TEXT);
	/* 2^63..2^64-1 and >= 2^64 alike: malformed (issue 12) */
	SKIP(&h, "+  9223372036854775808 " CTX "0/$ns3::Node/DeviceList/1/x",
	    SSP_SKIP_MALFORMED);
	assert_string_equal(h.pl.why, "ns-3 trace: timestamp out of range");
	SKIP(&h, "+  18446744073709551616 " CTX "0/$ns3::Node/DeviceList/1/x",
	    SSP_SKIP_MALFORMED);
	assert_string_equal(h.pl.why, "ns-3 trace: timestamp out of range");
	ph_close(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simbricks),
		cmocka_unit_test(test_ascii),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_skips),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
