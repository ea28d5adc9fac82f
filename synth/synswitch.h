/*
 * simsynth --net switch: every NIC on one SimBricks net_switch (SwitchNet)
 * built with NETSWITCH_DEBUG, whose stderr is the network's log
 * (FORMATS.md §9).  Internal to synth/.
 */
#ifndef SSP_SYNSWITCH_H
#define SSP_SYNSWITCH_H

#include "synth/synmodel.h"

void ssp_synswitch_init(struct syn *s);
void ssp_synswitch_event(struct syn *s, const struct sev *ev);
void ssp_synswitch_start_bg(struct syn *s);
/* The polling statistics net_switch prints when it exits. */
void ssp_synswitch_finish(struct syn *s);

#endif
