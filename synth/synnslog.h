/*
 * simsynth --ns3-log nslog: the ns-3 network model (synnet.c) printed as
 * SimBricks' ns-3 prints it with NS_LOG of BridgeNetDevice,
 * SimpleNetDevice and SimbricksNetDevice at level_all|prefix_all and ps
 * resolution (formats/events.md "ns-3 NS_LOG"), instead of Columbo's
 * trace-helper lines.  synnet.c calls ssp_synnslog_line where it would
 * print a trace line; the model's timing is the same, except that a
 * SimbricksNetDevice sends to its NIC at once (it has no queue, so no
 * one-frame-per-ns pacing) and that a SimpleNetDevice's transmission end
 * is printed (FinishTransmission), which is how NS_LOG shows the next
 * dequeue.  Internal to synth/.
 */
#ifndef SSP_SYNNSLOG_H
#define SSP_SYNNSLOG_H

#include <stdint.h>

#include "synth/synmodel.h"

/* The state, and ns-3's set-up lines (every device's SetIfIndex). */
void ssp_synnslog_init(struct syn *s);
/*
 * What the trace helper would print as "<c> <t> .../NodeList/<sw>/.../
 * DeviceList/<dev>/$ns3::<Cosim|Simple>NetDevice/<source>" for pk, as
 * NS_LOG lines (none for some), counted in s->net.nev as sim2ev will
 * count their events.
 */
void ssp_synnslog_line(struct syn *s, char c, int64_t t, int sw, unsigned dev,
    int cosim, const char *source, const struct pkt *pk);
void ssp_synnslog_free(struct syn *s);

#endif
