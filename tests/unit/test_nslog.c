/* ns-3 NS_LOG dialect of the ns-3 parser: lines from the real Debian ns-3
 * 3.37 samples of tests/data/ns3-nslog (pointers shortened), SimBricks'
 * SimbricksNetDevice lines, what the parser infers from them (ifindex,
 * the bridge's uid, a device queue's order), malformed lines and noise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"
#include "source/nslog.h"

#define F(r, k) ((r)->f[SSP_F_NET_##k])

static const char *
src(const struct ph *h, const struct ssp_rec *r)
{
	const char *s = ssp_atoms_str(h->atoms, (uint32_t)F(r, SOURCE), NULL);

	return s != NULL ? s : "(none)";
}

/* Two events: the pre one must be an enqueue of the same packet. */
static void
pair(const struct ph *h, unsigned type, int64_t ts, uint64_t node, uint64_t dev,
    int64_t uid, const char *pre_src, const char *ev_src)
{
	const struct ssp_rec *a = &h->pl.pre_ev, *b = &h->pl.ev;

	assert_int_equal(h->pl.pre, 1);
	assert_int_equal(a->type, SSP_EV_NET_ENQ);
	assert_int_equal(b->type, type);
	assert_int_equal(a->ts, ts);
	assert_int_equal(b->ts, ts);
	assert_int_equal(F(a, NODE), node);
	assert_int_equal(F(b, NODE), node);
	assert_int_equal(F(a, DEV), dev);
	assert_int_equal(F(b, DEV), dev);
	assert_int_equal((int64_t)F(a, UID), uid);
	assert_int_equal((int64_t)F(b, UID), uid);
	assert_string_equal(src(h, a), pre_src);
	assert_string_equal(src(h, b), ev_src);
}

static void
one(const struct ph *h, unsigned type, int64_t ts, uint64_t node, uint64_t dev,
    int64_t uid, const char *source)
{
	const struct ssp_rec *r = &h->pl.ev;

	assert_int_equal(h->pl.pre, 0);
	assert_int_equal(r->type, type);
	assert_int_equal(r->ts, ts);
	assert_int_equal(F(r, NODE), node);
	assert_int_equal(F(r, DEV), dev);
	assert_int_equal((int64_t)F(r, UID), uid);
	assert_string_equal(src(h, r), source);
}

#define T(s) "+0.0020007240" s "s "

/* A learning bridge between SimpleNetDevices (bridge-ps.log). */
static void
test_bridge(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NS3, NULL, NULL, 0, 0);
	/* set-up lines: before Simulator::Run the node is -1 */
	SKIP(&h, "+0.000000000000s -1 SimpleNetDevice:SetIfIndex(0x55e1f490, 0)",
	    SSP_SKIP_UNKNOWN);		/* host h0's device */
	SKIP(&h, "+0.000000000000s -1 SimpleNetDevice:SetIfIndex(0x55a6f0, 0)",
	    SSP_SKIP_UNKNOWN);		/* switch 0, port 0 */
	SKIP(&h, "+0.000000000000s -1 SimpleNetDevice:SetIfIndex(0x55a76a0, 1)",
	    SSP_SKIP_UNKNOWN);
	SKIP(&h, "+0.000000000000s -1 SimpleNetDevice:SetIfIndex(0x55a6270, 2)",
	    SSP_SKIP_UNKNOWN);
	SKIP(&h, "+0.000000000000s -1 SimpleNetDevice:SetQueue(0x55a6270, 0x55a3ef0)",
	    SSP_SKIP_UNKNOWN);
	/* h0 (node 2) broadcasts an ARP request: no bridge, no uid; the
	 * device is idle, so it is dequeued at once */
	EV(&h, "+0.002000000000s 2 SimpleNetDevice:SendFrom(0x55e1f490, 0x55ed6b0, "
	    "02-06-00:00:00:00:00:01, 02-06-ff:ff:ff:ff:ff:ff, 2054)", SSP_EV_NET_DEQ);
	pair(&h, SSP_EV_NET_DEQ, 2000000000, 2, 0, -1, "SendFrom", "StartTransmission");
	assert_int_equal(F(&h.pl.ev, ETH_TYPE), 0x806);
	assert_int_equal(F(&h.pl.ev, ETH_SRC), 1);
	assert_int_equal(F(&h.pl.ev, ETH_DST), 0xffffffffffffULL);
	assert_int_equal(F(&h.pl.ev, BOUNDARY), SSP_NET_INTERNAL);
	SKIP(&h, "+0.002000224000s 2 SimpleNetDevice:FinishTransmission(0x55e1f490)",
	    SSP_SKIP_UNKNOWN);		/* nothing queued behind it */
	/* the switch receives it: the event waits for the bridge's uid */
	SKIP(&h, T("00") "0 SimpleNetDevice:Receive(0x55a6f0, 0x55f9180, 2054, "
	    "ff:ff:ff:ff:ff:ff, 00:00:00:00:00:01)", SSP_SKIP_DEFERRED);
	SKIP(&h, T("00") "0 BridgeNetDevice:ReceiveFromDevice()", SSP_SKIP_UNKNOWN);
	EV(&h, T("00") "0 BridgeNetDevice:ReceiveFromDevice(): [DEBUG] UID is 1",
	    SSP_EV_NET_DEQ);
	pair(&h, SSP_EV_NET_DEQ, 2000724000, 0, 0, 1, "Receive", "ReceiveFromDevice");
	assert_int_equal(F(&h.pl.pre_ev, INTERESTING), 0);	/* an ns-3 host's */
	assert_int_equal(F(&h.pl.pre_ev, ETH_SRC), 1);
	assert_int_equal(F(&h.pl.pre_ev, ETH_DST), 0xffffffffffffULL);
	SKIP(&h, T("00") "0 BridgeNetDevice:ForwardBroadcast(): [DEBUG] "
	    "LearningBridgeForward (incomingPort=ns3::SimpleNetDevice, packet=0x55f9180, "
	    "protocol=2054, src=00:00:00:00:00:01, dst=ff:ff:ff:ff:ff:ff)",
	    SSP_SKIP_UNKNOWN);
	SKIP(&h, T("00") "0 BridgeNetDevice:ForwardBroadcast(): [LOGIC] "
	    "LearningBridgeForward (00:00:00:00:00:01 => ff:ff:ff:ff:ff:ff): "
	    "ns3::SimpleNetDevice --> ns3::SimpleNetDevice (UID 1).", SSP_SKIP_UNKNOWN);
	/* the copy to port 1 carries the bridge's uid */
	EV(&h, T("00") "0 SimpleNetDevice:SendFrom(0x55a76a0, 0x55eacd0, "
	    "02-06-00:00:00:00:00:01, 02-06-ff:ff:ff:ff:ff:ff, 2054)", SSP_EV_NET_DEQ);
	pair(&h, SSP_EV_NET_DEQ, 2000724000, 0, 1, 1, "SendFrom", "StartTransmission");
	/* Queue lines of a device queue: nothing new */
	SKIP(&h, T("00") "0 DropTailQueue:Enqueue(0x55ec0d0, 0x55eacd0)", SSP_SKIP_UNKNOWN);
	SKIP(&h, T("00") "0 DropTailQueue:Dequeue(): [LOGIC] Popped 0x55eacd0",
	    SSP_SKIP_UNKNOWN);
	/* port 2 (the trunk) is busy (its SendFrom is the first) ... */
	EV(&h, T("00") "0 SimpleNetDevice:SendFrom(0x55a6270, 0x55e0ea0, "
	    "02-06-00:00:00:00:00:01, 02-06-ff:ff:ff:ff:ff:ff, 2054)", SSP_EV_NET_DEQ);
	pair(&h, SSP_EV_NET_DEQ, 2000724000, 0, 2, 1, "SendFrom", "StartTransmission");
	/* ... so a second packet waits: an enqueue only */
	SKIP(&h, "+0.002000800000s 0 BridgeNetDevice:ReceiveFromDevice(): [DEBUG] UID is 7",
	    SSP_SKIP_UNKNOWN);	/* no receive line before it: no event */
	EV(&h, "+0.002000800000s 0 SimpleNetDevice:SendFrom(0x55a6270, 0x55e1000, "
	    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)", SSP_EV_NET_ENQ);
	one(&h, SSP_EV_NET_ENQ, 2000800000, 0, 2, 7, "SendFrom");
	/* a third is dropped: the Queue's drop, then SimBricks' INFO line for
	 * the same SendFrom (one drop) */
	SKIP(&h, "+0.002000900000s 0 BridgeNetDevice:ReceiveFromDevice(): [DEBUG] UID is 8",
	    SSP_SKIP_UNKNOWN);
	EV(&h, "+0.002000900000s 0 SimpleNetDevice:SendFrom(0x55a6270, 0x55e2000, "
	    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)", SSP_EV_NET_ENQ);
	SKIP(&h, "+0.002000900000s 0 Queue:DropBeforeEnqueue(0x55a3ef0, 0x55e1111)",
	    SSP_SKIP_UNKNOWN);		/* not that packet */
	EV(&h, "+0.002000900000s 0 Queue:DropBeforeEnqueue(0x55a3ef0, 0x55e2000)",
	    SSP_EV_NET_DROP);
	one(&h, SSP_EV_NET_DROP, 2000900000, 0, 2, 8, "DropBeforeEnqueue");
	SKIP(&h, "+0.002000900000s 0 SimpleNetDevice:SendFrom(): [INFO] simple-netdev: "
	    "enqueue false", SSP_SKIP_UNKNOWN);
	/* the trunk finishes uid 1: uid 7 starts */
	EV(&h, "+0.002002964000s 0 SimpleNetDevice:FinishTransmission(0x55a6270)",
	    SSP_EV_NET_DEQ);
	one(&h, SSP_EV_NET_DEQ, 2002964000, 0, 2, 7, "StartTransmission");
	assert_int_equal(F(&h.pl.ev, ETH_DST), 2);
	assert_int_equal(F(&h.pl.ev, ETH_TYPE), 0x800);
	SKIP(&h, "+0.002003964000s 0 SimpleNetDevice:FinishTransmission(0x55a6270)",
	    SSP_SKIP_UNKNOWN);
	/* a flood's per-port line names the uid; SimBricks' ns-3 INFO line
	 * alone is the drop */
	SKIP(&h, "+0.002004000000s 0 BridgeNetDevice:ForwardBroadcast(): [LOGIC] "
	    "LearningBridgeForward (00:00:00:00:00:01 => ff:ff:ff:ff:ff:ff): "
	    "ns3::SimpleNetDevice --> ns3::SimpleNetDevice (UID 9).", SSP_SKIP_UNKNOWN);
	EV(&h, "+0.002004000000s 0 SimpleNetDevice:SendFrom(0x55a6270, 0x55e3000, "
	    "02-06-00:00:00:00:00:01, 02-06-ff:ff:ff:ff:ff:ff, 2054)", SSP_EV_NET_DEQ);
	pair(&h, SSP_EV_NET_DEQ, 2004000000, 0, 2, 9, "SendFrom", "StartTransmission");
	SKIP(&h, "+0.002004000000s 0 BridgeNetDevice:ForwardBroadcast(): [LOGIC] "
	    "LearningBridgeForward (00:00:00:00:00:03 => ff:ff:ff:ff:ff:ff): "
	    "ns3::SimpleNetDevice --> ns3::SimpleNetDevice (UID 10).", SSP_SKIP_UNKNOWN);
	EV(&h, "+0.002004000000s 0 SimpleNetDevice:SendFrom(0x55a6270, 0x55e4000, "
	    "02-06-00:00:00:00:00:03, 02-06-ff:ff:ff:ff:ff:ff, 2054)", SSP_EV_NET_ENQ);
	one(&h, SSP_EV_NET_ENQ, 2004000000, 0, 2, 10, "SendFrom");
	EV(&h, "+0.002004000000s 0 SimpleNetDevice:SendFrom(): [INFO] simple-netdev: "
	    "enqueue false", SSP_EV_NET_DROP);
	one(&h, SSP_EV_NET_DROP, 2004000000, 0, 2, 10, "enqueue false");
	assert_int_equal(F(&h.pl.ev, ETH_SRC), 3);
	/* a later time: no drop line refers back to an old SendFrom */
	SKIP(&h, "+0.002005000000s 0 SimpleNetDevice:SendFrom(): [INFO] simple-netdev: "
	    "enqueue false", SSP_SKIP_UNKNOWN);
	ph_close(&h);
}

/* SimBricks' SimbricksNetDevice (its NS_LOG_FUNCTION lines): a frame from
 * a NIC enters, the bridge forwards it to another NIC. */
static void
test_simbricks(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NS3, NULL, NULL, 0, 0);
	SKIP(&h, "+0.000000000000s -1 SimbricksNetDevice:SetIfIndex(0x5571a0, 1)",
	    SSP_SKIP_UNKNOWN);
	/* before the simulator exists ns-3 prints no prefix at all */
	SKIP(&h, "SimbricksNetDevice:SetIfIndex(0x5572b0, 2)", SSP_SKIP_NOTS);
	SKIP(&h, "+1.905164778000s -1 SimbricksNetDevice:handleInMsg(0x5571a0)",
	    SSP_SKIP_UNKNOWN);
	SKIP(&h, "+1.905164778000s 0 SimbricksNetDevice:RxInContext(0x5571a0)",
	    SSP_SKIP_DEFERRED);
	EV(&h, "+1.905164778000s 0 BridgeNetDevice:ReceiveFromDevice(): [DEBUG] "
	    "UID is 12", SSP_EV_NET_DEQ);
	pair(&h, SSP_EV_NET_DEQ, 1905164778000, 0, 1, 12, "RxInContext",
	    "ReceiveFromDevice");
	assert_int_equal(F(&h.pl.pre_ev, BOUNDARY), SSP_NET_FROM_ADAPTER);
	assert_int_equal(F(&h.pl.ev, BOUNDARY), SSP_NET_INTERNAL);
	/* from a NIC: interesting, from here on */
	assert_int_equal(F(&h.pl.pre_ev, INTERESTING), 1);
	assert_int_equal(F(&h.pl.ev, INTERESTING), 1);
	assert_string_equal(ssp_atoms_str(h.atoms, (uint32_t)F(&h.pl.ev, DEVTYPE),
	    NULL), "SimbricksNetDevice");
	SKIP(&h, "+1.905164778000s 0 BridgeNetDevice:ForwardUnicast(): [LOGIC] "
	    "Learning bridge state says to use port `ns3::simbricks::SimbricksNetDevice'",
	    SSP_SKIP_UNKNOWN);
	EV(&h, "+1.905164778000s 0 SimbricksNetDevice:SendFrom(0x5572b0, 0x5579000, "
	    "02-06-b0:9a:ac:67:3c:98, 02-06-a8:32:06:8c:52:b1, 2048)", SSP_EV_NET_DEQ);
	pair(&h, SSP_EV_NET_DEQ, 1905164778000, 0, 2, 12, "SendFrom", "SendFrom");
	assert_int_equal(F(&h.pl.pre_ev, BOUNDARY), SSP_NET_INTERNAL);
	assert_int_equal(F(&h.pl.ev, BOUNDARY), SSP_NET_TO_ADAPTER);
	assert_int_equal(F(&h.pl.ev, ETH_SRC), 0xb09aac673c98ULL);
	assert_int_equal(F(&h.pl.ev, ETH_DST), 0xa832068c52b1ULL);
	assert_int_equal(F(&h.pl.ev, INTERESTING), 1);
	/* a device no SetIfIndex named, and a line without a node prefix */
	EV(&h, "+1.905164779000s SimbricksNetDevice:SendFrom(0x5573c0, 0x5579000, "
	    "02-06-b0:9a:ac:67:3c:98, 02-06-a8:32:06:8c:52:b1, 2048)", SSP_EV_NET_DEQ);
	assert_int_equal(F(&h.pl.ev, NODE), SSP_NSLOG_UNKNOWN);
	assert_int_equal(F(&h.pl.ev, DEV), SSP_NSLOG_UNKNOWN);
	assert_int_equal((int64_t)F(&h.pl.ev, UID), -1);
	ph_close(&h);
}

/* A root queue disc (qdisc.log, ns resolution): enqueue, transmit, drop. */
static void
test_qdisc(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NS3, NULL, NULL, 0, 0);
	SKIP(&h, "+0.000000000s -1 SimpleNetDevice:SetIfIndex(0x56b110, 1)",
	    SSP_SKIP_UNKNOWN);
	SKIP(&h, "+0.000000000s -1 TrafficControlLayer:SetRootQueueDiscOnDevice("
	    "0x57f980, 0x56b110, 0x5bd8c0)", SSP_SKIP_UNKNOWN);
	EV(&h, "+0.004045680s 1 QueueDisc:Enqueue(0x5bd8c0, 0x610350)", SSP_EV_NET_ENQ);
	one(&h, SSP_EV_NET_ENQ, 4045680000, 1, 1, -1, "Enqueue");
	assert_string_equal(ssp_atoms_str(h.atoms, (uint32_t)F(&h.pl.ev, DEVTYPE),
	    NULL), "QueueDisc");
	SKIP(&h, "+0.004045680s 1 QueueDisc:Enqueue(0x60e100, 0x610350)",
	    SSP_SKIP_UNKNOWN);		/* a child queue disc */
	EV(&h, "+0.004045680s 1 QueueDisc:Transmit(0x5bd8c0, 0x610350)", SSP_EV_NET_DEQ);
	one(&h, SSP_EV_NET_DEQ, 4045680000, 1, 1, -1, "Transmit");
	EV(&h, "+0.004423800s 1 QueueDisc:Enqueue(0x5bd8c0, 0x610350)", SSP_EV_NET_ENQ);
	EV(&h, "+0.004423800s 1 QueueDisc:DropBeforeEnqueue(0x5bd8c0, 0x610350, "
	    "\"Queue disc limit exceeded\")", SSP_EV_NET_DROP);
	one(&h, SSP_EV_NET_DROP, 4423800000, 1, 1, -1, "DropBeforeEnqueue");
	/* a child's drop of the item the root took in this event */
	EV(&h, "+0.004423900s 1 QueueDisc:Enqueue(0x5bd8c0, 0x610460)", SSP_EV_NET_ENQ);
	EV(&h, "+0.004423900s 1 QueueDisc:DropAfterDequeue(0x60e100, 0x610460, "
	    "\"Dropped by CoDel\")", SSP_EV_NET_DROP);
	one(&h, SSP_EV_NET_DROP, 4423900000, 1, 1, -1, "DropAfterDequeue");
	SKIP(&h, "+0.004423800s 1 QueueDisc:DropBeforeEnqueue(): [DEBUG] Total "
	    "packets/bytes dropped before enqueue: 1 / 528", SSP_SKIP_UNKNOWN);
	ph_close(&h);
}

/* Time prefixes: 12 decimals (ps), 9 (ns), others; noise; malformed lines. */
static void
test_envelope(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NS3, NULL, NULL, 0, 0);
	SKIP(&h, "+0.000000000000s -1 SimpleNetDevice:SetIfIndex(0xa0, 4)", SSP_SKIP_UNKNOWN);
	EV(&h, "+12.345678901234s 3 SimpleNetDevice:SendFrom(0xa0, 0xb0, "
	    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)", SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.ev.ts, 12345678901234LL);
	assert_int_equal(F(&h.pl.ev, DEV), 4);
	EV(&h, "+12.345678902s 3 SimpleNetDevice:SendFrom(0xa0, 0xb0, "
	    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)", SSP_EV_NET_ENQ);
	assert_int_equal(h.pl.ev.ts, 12345678902000LL);	/* ns: 9 decimals */
	EV(&h, "+12.5s 3 SimpleNetDevice:FinishTransmission(0xa0)", SSP_EV_NET_DEQ);
	assert_int_equal(h.pl.ev.ts, 12500000000000LL);
	EV(&h, "+7s 3 SimpleNetDevice:SendFrom(0xa0, 0xb0, "
	    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)", SSP_EV_NET_ENQ);
	assert_int_equal(h.pl.ev.ts, 7000000000000LL);
	EV(&h, "+0.0000000000015s 3 SimpleNetDevice:SendFrom(0xa0, 0xb0, "
	    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)", SSP_EV_NET_ENQ);
	assert_int_equal(h.pl.ev.ts, 2);	/* finer than ps: rounded */
	/* the other components, log lines without a function prefix */
	SKIP(&h, "+0.002000000000s 2 ArpL3Protocol:Lookup(0x1, 0x2, 10.0.0.3, 0x3, 0x4, 0x5)",
	    SSP_SKIP_UNKNOWN);
	SKIP(&h, "+0.002000000000s 2 UID is 3", SSP_SKIP_UNKNOWN);
	SKIP(&h, "+0.002000000000s 2  [node 2] TcpSocketBase:Send(0x1)", SSP_SKIP_UNKNOWN);
	SKIP(&h, "+0.002000000000s 2 SimpleNetDevice:GetMtu(0xa0)", SSP_SKIP_UNKNOWN);
	SKIP(&h, "+0.002000000000s 2 SimpleNetDevice:SendFrom(): [WARN] something else",
	    SSP_SKIP_UNKNOWN);
	/* no time prefix (SimBricks' level_all without prefix_all) */
	SKIP(&h, "BridgeNetDevice:ReceiveFromDevice()", SSP_SKIP_NOTS);
	SKIP(&h, "-1 SimpleNetDevice:GetMtu(0xa0)", SSP_SKIP_NOTS);
	SKIP(&h, "0 SimpleNetDevice:SendFrom(0xa0, 0xb0, 02-06-00:00:00:00:00:01, "
	    "02-06-00:00:00:00:00:02, 2048)", SSP_SKIP_NOTS);
	/* console text */
	SKIP(&h, "current time: 100ms", SSP_SKIP_TEXT);
	SKIP(&h, "UID is 3", SSP_SKIP_TEXT);
	SKIP(&h, "+ 0.1 no trace line", SSP_SKIP_MALFORMED);
	SKIP(&h, "+x", SSP_SKIP_TEXT);
	SKIP(&h, "Simulation: done", SSP_SKIP_TEXT);
	SKIP(&h, "12 apples", SSP_SKIP_TEXT);
	/* malformed lines of known kinds */
	SKIP(&h, "+0.1x 2 SimpleNetDevice:GetMtu(0xa0)", SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1.2s 2 SimpleNetDevice:SendFrom(0xa0, 0xb0, 02-06-00:00:00:00:00:01, "
	    "02-06-00:00:00:00:00:02, 2048)", SSP_SKIP_MALFORMED);
	SKIP(&h, "+99999999999.0s 2 SimpleNetDevice:SendFrom(0xa0, 0xb0, "
	    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)", SSP_SKIP_MALFORMED);
	SKIP(&h, "+9223372.0s 2 SimpleNetDevice:SendFrom(0xa0, 0xb0, "
	    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)", SSP_SKIP_MALFORMED);
	EV(&h, "+9223371.999999999999s 2 SimpleNetDevice:SendFrom(0xa0, 0xb0, "
	    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)", SSP_EV_NET_ENQ);
	assert_int_equal(h.pl.ev.ts, 9223371999999999999LL);
	SKIP(&h, "+0.1s x SimpleNetDevice:GetMtu(0xa0)", SSP_SKIP_UNKNOWN);
	SKIP(&h, "+0.1s 12x SimpleNetDevice:GetMtu(0xa0)", SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1s 2 SimpleNetDevice:SendFrom(0xa0, 0xb0, 2048)", SSP_SKIP_MALFORMED);
	assert_non_null(h.pl.why);
	SKIP(&h, "+0.1s 2 SimpleNetDevice:SendFrom(0xa0, 0xb0, 02-06-00:00:00:00:00:01, "
	    "02-06-00:00:00:00:00:02, 2048", SSP_SKIP_UNKNOWN);	/* cut: no ')' */
	SKIP(&h, "+0.1s 2 SimpleNetDevice:Receive(0xa0, 0xb0, 2048, 00:00:00:00:00:01)",
	    SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1s 2 SimbricksNetDevice:RxInContext()", SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1s 2 SimpleNetDevice:SetIfIndex(0xa0, -1)", SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1s 2 BridgeNetDevice:ReceiveFromDevice(): [DEBUG] UID is x",
	    SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1s 2 BridgeNetDevice:ReceiveFromDevice(): [DEBUG] UID is "
	    "99999999999999999999", SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1s 2 BridgeNetDevice:ForwardBroadcast(): [LOGIC] "
	    "LearningBridgeForward (00:00:00:00:00:01 => ff:ff:ff:ff:ff:ff): a --> b (UID).",
	    SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1s 2 QueueDisc:Enqueue(0x1)", SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1s 2 QueueDisc:DropBeforeEnqueue(0x1, 0x2)", SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1s 2 Queue:DropBeforeEnqueue(0x1)", SSP_SKIP_MALFORMED);
	SKIP(&h, "+0.1s 2 TrafficControlLayer:SetRootQueueDiscOnDevice(0x1, 0x2)",
	    SSP_SKIP_MALFORMED);
	ph_close(&h);
}

/* More devices than the parser remembers: the rest name no device. */
static void
test_bounds(void **state)
{
	struct ph h;
	char line[160];
	unsigned i;

	(void)state;
	ph_open(&h, SSP_SIM_NS3, NULL, NULL, 0, 0);
	for (i = 0; i < 4100; i++) {
		snprintf(line, sizeof(line), "+0.000000000000s -1 SimpleNetDevice:"
		    "SetIfIndex(0x%x, %u)", 0x1000 + i * 16, i % 7);
		SKIP(&h, line, SSP_SKIP_UNKNOWN);
	}
	EV(&h, "+1.0s 0 SimpleNetDevice:SendFrom(0x1000, 0xb0, 02-06-00:00:00:00:00:01, "
	    "02-06-00:00:00:00:00:02, 2048)", SSP_EV_NET_DEQ);
	assert_int_equal(F(&h.pl.ev, DEV), 0);
	snprintf(line, sizeof(line), "+1.0s 0 SimpleNetDevice:SendFrom(0x%x, 0xb0, "
	    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)", 0x1000 + 4099 * 16);
	EV(&h, line, SSP_EV_NET_ENQ);
	assert_int_equal(F(&h.pl.ev, DEV), SSP_NSLOG_UNKNOWN);
	/* a deep queue: every packet keeps its place */
	for (i = 0; i < 3000; i++) {
		snprintf(line, sizeof(line), "+2.0s 0 BridgeNetDevice:ForwardBroadcast(): "
		    "[LOGIC] LearningBridgeForward (00:00:00:00:00:01 => "
		    "ff:ff:ff:ff:ff:ff): a --> b (UID %u).", 100 + i);
		SKIP(&h, line, SSP_SKIP_UNKNOWN);
		EV(&h, "+2.0s 0 SimpleNetDevice:SendFrom(0x1000, 0xb0, "
		    "02-06-00:00:00:00:00:01, 02-06-00:00:00:00:00:02, 2048)",
		    SSP_EV_NET_ENQ);
	}
	for (i = 0; i < 3000; i++) {
		EV(&h, "+3.0s 0 SimpleNetDevice:FinishTransmission(0x1000)", SSP_EV_NET_DEQ);
		assert_int_equal((int64_t)F(&h.pl.ev, UID), 100 + (int)i);
	}
	SKIP(&h, "+3.0s 0 SimpleNetDevice:FinishTransmission(0x1000)", SSP_SKIP_UNKNOWN);
	ph_close(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bridge),
		cmocka_unit_test(test_simbricks),
		cmocka_unit_test(test_qdisc),
		cmocka_unit_test(test_envelope),
		cmocka_unit_test(test_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
