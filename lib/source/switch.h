/*
 * SimBricks net_switch (SwitchNet) log parser (FORMATS.md §9), both
 * dialects, told apart per line:
 *   NETSWITCH_DEBUG: "<%20lu ps>: [P <in> -> <out>] <smac40> -> <dmac40>
 *     [ IP] <saddr> -> <daddr> len: <frame>" ("[ARP] <spa> -> <tpa>",
 *     "unknown eth type"): one line per copy the switch forwards.  The
 *     first line of a packet gives two events, net_enq at the ingress
 *     port and net_deq at the egress port (ssp_pline.pre); the further
 *     copies of a broadcast only the net_deq.  "forward_pkt: dropping
 *     packet on port N" gives net_drop at port N.
 *   vaastav/simbricks: "[info: ]main_time=<ps> Packet Receive|Transmit|
 *     Drop: id=.." give net_enq, net_deq, net_drop with uid = id.
 * Node is 0 and device the port index (the -s/-h order); devtype
 * "NetSwitch".  SIGUSR1's status dump ("main_time = <ps>", "[Port <n> ]:
 * in_timestamp == <ps>" / "out_timestamp") is skipped as status, the
 * other status lines (connecting, polling statistics) as unknown-message.
 * The executable is net_switch (sims/net/switch, 2022) or simb_net_switch
 * (component-net-base, symphony): the same program and lines.
 */
#ifndef SSP_SWITCH_H
#define SSP_SWITCH_H

#include "source/pline.h"

struct ssp_switch;

int ssp_switch_new(struct ssp_switch **sp, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e);
void ssp_switch_free(struct ssp_switch *w);
void ssp_switch_line(struct ssp_switch *w, const char *s, size_t len,
    struct ssp_pline *out);

#endif
