/*
 * simsynth --nic e1000: SimBricks' e1000 model (simbricks/component-e1000
 * e1000_gem5: gem5's i8254xGBe on nicbm) as it logs with E1000_DEBUG=1,
 * behind Linux's e1000 driver.  The device follows i8254xGBe.cc: the
 * descriptor caches (64 entries, fetches and write-backs in batches after
 * fetch_delay / wb_delay, 10 ns each, and a DMA issued fetch_comp_delay /
 * wb_comp_delay later), the 1 ns tick of the RX and TX state machines,
 * the interrupt cause register, mask, ITR throttling and the RADV, TIDV,
 * TADV timers, INTx to the host.  Internal to synth/.
 */
#ifndef SSP_SYNE1000_H
#define SSP_SYNE1000_H

#include "synth/synmodel.h"


int ssp_syne1000_init(struct syn *s, struct nic *n);
void ssp_syne1000_start(struct syn *s, struct nic *n);
void ssp_syne1000_event(struct syn *s, const struct sev *ev);
void ssp_syne1000_finish(struct syn *s, struct nic *n);
void ssp_syne1000_free(struct nic *n);

#endif
