/*
 * ns-3 packet trace parser (FORMATS.md §6-§7).  Two dialects, told apart
 * per line by the spaces after the type character:
 *   SimBricks trace sinks: "<+|-|d>  <ps> <context> Packet-Uid=<u>
 *     Intersting=<bool> <headers>" (two spaces, integer picoseconds);
 *   AsciiTraceHelper:      "<+|-|r|d> <seconds> <context> <headers>" (one
 *     space, seconds with 6 significant digits, no packet uid).
 * The context gives node, device, device type and trace source; the
 * headers Ethernet, ARP, IPv4, UDP/TCP ports and payload size.
 */
#ifndef SSP_NS3_H
#define SSP_NS3_H

#include "source/pline.h"

struct ssp_ns3;

int ssp_ns3_new(struct ssp_ns3 **np, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e);
void ssp_ns3_free(struct ssp_ns3 *n);
void ssp_ns3_line(struct ssp_ns3 *n, const char *s, size_t len,
    struct ssp_pline *out);

/* "0.101005" / "1e-05" seconds as printed by an ostream, to picoseconds,
 * rounded to nearest: SSP_OK, or SSP_ERR_FORMAT when not such a number or
 * out of range. */
int ssp_ns3_seconds(const char **pp, const char *end, int64_t *ps);

#endif
