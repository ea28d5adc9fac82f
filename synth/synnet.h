/*
 * The ns-3 network of the simsynth model (synnet.c): two switches, a
 * bottleneck link and background traffic.  Internal to synth/.
 */
#ifndef SSP_SYNNET_H
#define SSP_SYNNET_H

#include <stdint.h>

#include "synth/synmodel.h"

void ssp_synnet_init(struct syn *s);
void ssp_synnet_event(struct syn *s, const struct sev *ev);
void ssp_synnet_start_bg(struct syn *s);
void ssp_synnet_free(struct syn *s);

#endif
