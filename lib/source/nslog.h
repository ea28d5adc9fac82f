/*
 * ns-3 NS_LOG parser, the third dialect of `sim2ev -f ns3` (formats/
 * events.md "ns-3 NS_LOG"): std::clog lines "[+<s>s ][<node> ]<Class>:
 * <Method>(<args>)" (NS_LOG_FUNCTION) and "...<Class>:<Method>(): [LEVEL]
 * <message>" (NS_LOG_DEBUG/LOGIC/INFO with prefix_func|prefix_level), as
 * ns-3's log-macros-enabled.h prints them; the time has 12 decimals at ps
 * resolution (SimBricks) and 9 at ns-3's default ns.
 *
 * The lines name objects by pointer and packets mostly by pointer, so the
 * parser keeps what the log said earlier: device pointer -> ifindex
 * (SetIfIndex), device -> queue (SetQueue), root queue disc -> device
 * (SetRootQueueDiscOnDevice), the packet a BridgeNetDevice is handling
 * (its "UID is N" line) and, per SimpleNetDevice, the FIFO of packets
 * waiting in its queue, whose dequeue the log shows only as the
 * FinishTransmission of the packet before.  All of it is bounded by the
 * number of devices and the packets their queues hold; nothing is
 * allocated per line.
 *
 * Events (net_enq, net_deq, net_drop; uid = ns-3's packet uid where the
 * log gives it, -1 where it cannot, e.g. a packet an ns-3 host sends
 * before any bridge has seen it; interesting = the packet came from a NIC,
 * i.e. its uid is one of the last 65536 a SimbricksNetDevice received):
 *   SimbricksNetDevice:RxInContext / SimpleNetDevice:Receive and the
 *     bridge's "UID is N" after it: net_enq + net_deq at that device
 *     (both written with the bridge line: the receive line is "deferred");
 *   SimpleNetDevice:SendFrom: net_enq (and net_deq when the device was
 *     idle); FinishTransmission: net_deq of the next queued packet;
 *     "enqueue false" (SimBricks' ns-3) / Queue:DropBeforeEnqueue: net_drop;
 *   SimbricksNetDevice:SendFrom: net_enq + net_deq (boundary to-adapter);
 *   QueueDisc:Enqueue / Transmit / DropBeforeEnqueue / DropAfterDequeue at
 *     a root queue disc: net_enq / net_deq / net_drop, uid -1 (NS_LOG names
 *     queue-disc items by pointer only).
 */
#ifndef SSP_NSLOG_H
#define SSP_NSLOG_H

#include "source/pline.h"

struct ssp_nslog;

int ssp_nslog_new(struct ssp_nslog **lp, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e);
void ssp_nslog_free(struct ssp_nslog *l);
/* One line; SSP_SKIP_TEXT when it is not an NS_LOG line. */
void ssp_nslog_line(struct ssp_nslog *l, const char *s, size_t len,
    struct ssp_pline *out);

/* Devices whose ifindex no SetIfIndex line gave, and lines without a node
 * prefix, carry this node / dev number. */
#define SSP_NSLOG_UNKNOWN 0xffffffffu

#endif
