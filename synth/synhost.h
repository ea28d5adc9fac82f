/*
 * gem5 hosts of the simsynth model (synhost.c): a CPU running syscall and
 * interrupt scripts, and the SimBricks PCI adapter.  Internal to synth/.
 */
#ifndef SSP_SYNHOST_H
#define SSP_SYNHOST_H

#include <stdint.h>

#include "synth/synmodel.h"

int ssp_synhost_init(struct syn *s, struct host *h);
/* Queue a task on the host's CPU (pk: the frame a TK_SEND sends). */
void ssp_synhost_task(struct syn *s, struct host *h, enum task_kind kind,
    struct pkt *pk);
void ssp_synhost_event(struct syn *s, const struct sev *ev);
/* A receive context the NIC hands to the next receiving syscall. */
void ssp_synhost_rx(struct syn *s, struct host *h, const struct rxctx *rx);
void ssp_synhost_finish(struct syn *s, struct host *h);

#endif
