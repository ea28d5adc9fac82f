/*
 * ns-3 NS_LOG device spans (source/nslog.c's events, formats/events.md
 * "ns-3 NS_LOG") in an ns-3 network stream: spanb_net.c builds them as it
 * builds the trace dialects' (enqueue to dequeue or drop, per node and
 * device, keyed by packet uid), and asks here which span is a new span's
 * parent.  NS_LOG shows a packet's way through a bridge: received on one
 * device (Receive, RxInContext), taken by the bridge (ReceiveFromDevice),
 * sent on one or, flooded, on several (SendFrom).  So an outgoing span's
 * parent is the span that brought the packet into this node (not the
 * copy the bridge sent on another port a moment before), and an incoming
 * span's parent the span that last sent it on (an n2n row names which:
 * spanb_net.c takes that from the link), or the NIC's tx context at a
 * SimbricksNetDevice.
 */
#include <stdint.h>
#include <string.h>

#include "span/spanb_int.h"

/* The chain key of "the span that brought the packet into node n". */
#define KEY_IN(n) (1ULL << 63 | (uint64_t)(n))

static __attribute__((noinline)) unsigned
src_kind_new(struct ssp_spanb *b, unsigned st, uint64_t source,
    struct sinfo *si)
{
	size_t len;
	const char *t = text(b, st, source, &len);

#define IS(s) (len == sizeof(s) - 1 && memcmp(t, s, sizeof(s) - 1) == 0)
	si->src = IS("Receive") || IS("RxInContext") ? SRC_NSLOG_IN :
	    IS("ReceiveFromDevice") ? SRC_NSLOG_BRIDGE :
	    IS("SendFrom") || IS("StartTransmission") || IS("enqueue false") ||
	    IS("DropBeforeEnqueue") ? SRC_NSLOG_OUT : SRC_OTHER;
#undef IS
	si->have |= HAVE_SRC;
	return si->src;
}

/* What an event's source name says (SRC_*), computed once per name. */
static inline unsigned
src_kind(struct ssp_spanb *b, unsigned st, uint64_t source)
{
	struct sinfo *si = sinfo(b, st, source);

	return (si->have & HAVE_SRC) ? si->src : src_kind_new(b, st, source, si);
}

struct span *
ssp_spanb_nslog_prev(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	uint64_t uid = ev->f[SSP_F_NET_UID];
	struct span *p;

	if (src_kind(b, st, ev->f[SSP_F_NET_SOURCE]) == SRC_NSLOG_OUT &&
	    (p = ssp_map3_get(&b->chain, uid, KEY_IN(ev->f[SSP_F_NET_NODE]),
	    st)) != NULL)
		return p;
	return ssp_map3_get(&b->chain, uid, 0, st);
}

uint64_t
ssp_spanb_nslog_key(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	/* the bridge took it: the span that brought it into this node */
	return src_kind(b, st, ev->f[SSP_F_NET_SOURCE]) == SRC_NSLOG_BRIDGE ?
	    KEY_IN(ev->f[SSP_F_NET_NODE]) : 0;
}

int
ssp_spanb_nslog_dir(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	switch (src_kind(b, st, ev->f[SSP_F_NET_SOURCE])) {
	case SRC_NSLOG_IN:
	case SRC_NSLOG_BRIDGE:
		return -1;
	case SRC_NSLOG_OUT:
		return 1;
	default:
		return 0;
	}
}
