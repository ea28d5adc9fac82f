/*
 * i40e NICs of the simsynth model as nicbm logs them (synnic.c).
 * Internal to synth/.
 */
#ifndef SSP_SYNNIC_H
#define SSP_SYNNIC_H

#include <stdint.h>

#include "synth/synmodel.h"

void ssp_synnic_init(struct syn *s, struct nic *n);
void ssp_synnic_event(struct syn *s, const struct sev *ev);
void ssp_synnic_start(struct syn *s, struct nic *n);
void ssp_synnic_finish(struct syn *s, struct nic *n);

#endif
