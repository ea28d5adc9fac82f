/*
 * simsynth --nic corundum-verilator: Corundum's RTL model as
 * simbricks/component-corundum's Verilator adapter logs it with
 * CORUNDUM_VERILATOR_DEBUG (adapter/corundum_simbricks_adapter.cpp):
 * "info: h2d_read/h2d_write ...", the AXI-Lite read_done/write_done with
 * the host's request id, doRead/doWrite with the SimBricks DMA id, MSI,
 * packets with their bytes.  The NIC does what corundum_bm does for the
 * same driver (descriptor, payload, completion, event, MSI; the register
 * layout of synmodel.h), on the adapter's clock (250 MHz: messages are
 * polled at cycle starts, the RTL acts at rising edges).  Internal to
 * synth/.
 */
#ifndef SSP_SYNVERILATOR_H
#define SSP_SYNVERILATOR_H

#include "synth/synmodel.h"

void ssp_synverilator_init(struct syn *s, struct nic *n);
void ssp_synverilator_start(struct syn *s, struct nic *n);
void ssp_synverilator_event(struct syn *s, const struct sev *ev);
void ssp_synverilator_finish(struct syn *s, struct nic *n);

#endif
