/*
 * pcap captures to events (`sim2ev -f pcap`, formats/events.md "pcap"):
 * ns-3's PcapHelper files (one per device, `<prefix>-<node>-<device>.pcap`,
 * microsecond timestamps unless ns-3 was told nanoseconds) and SimBricks
 * net_switch's -p file (nanosecond timestamps, one record per copy the
 * switch forwards, written before the copy is sent).  Read with libpcap
 * (pcap and pcapng, through a FILE over the ssp_in, so .zst and pipes
 * work), opened at the first use (dlopen) rather than linked; each record is one net_seen event at the capture's node and
 * device, with the Ethernet, ARP, IPv4 and UDP/TCP fields its bytes
 * carry: what evspan chains packets by, since a capture has no uid, no
 * direction and (net_switch) no port.
 */
#ifndef SSP_PCAPIN_H
#define SSP_PCAPIN_H

#include <stddef.h>
#include <stdint.h>

#include "base/atoms.h"
#include "base/err.h"
#include "io/in.h"
#include "source/conv.h"
#include "source/pline.h"

/* Where a capture was taken: an ns-3 node and device (ifindex), or a
 * net_switch (node 0; the port a record left by is not recorded:
 * dev SSP_PCAPIN_ANY). */
struct ssp_pcapin_at {
	uint32_t node, dev;
};

#define SSP_PCAPIN_ANY 0xffffffffu

/*
 * ns-3's file name "<prefix>-<node>-<device>.pcap" (optionally ".zst"):
 * 0 and *at set, or -1 when path is not of that form.
 */
int ssp_pcapin_name(const char *path, struct ssp_pcapin_at *at);

/*
 * Open libpcap (SSP_PCAPIN_LIBPCAP, dlopen) if it is not yet: SSP_OK, or
 * SSP_ERR_IO with e naming the library and the package to install.
 * ssp_pcapin_run calls it; a tool calls it first to fail before it writes.
 */
int ssp_pcapin_load(struct ssp_err *e);

/*
 * Convert every record of in through c (opened with cfg.sim SSP_SIM_PCAP),
 * then end the stream.  Input that is no pcap file, a link type other
 * than Ethernet, PPP and raw IPv4, and a read error fail (e names the
 * input); a record cut by the end of the file (its writer killed) is
 * counted as partial.
 */
int ssp_pcapin_run(struct ssp_conv *c, struct ssp_in *in,
    const struct ssp_pcapin_at *at, struct ssp_atoms *atoms, struct ssp_err *e);

/* One record's bytes (caplen of them, len on the wire) of link type dlt
 * (DLT_EN10MB, DLT_PPP, DLT_RAW, DLT_IPV4) at ts ps to a net_seen event
 * (or a skip).  devtype is the atom it carries (the link type). */
void ssp_pcapin_frame(int dlt, int64_t ts, const uint8_t *b, size_t caplen,
    size_t len, const struct ssp_pcapin_at *at, uint32_t devtype,
    uint32_t source, struct ssp_pline *o);

#endif
