/*
 * e1000 NIC log parser: the E1000_DEBUG=1 lines of SimBricks' e1000_gem5
 * behavioural model (gem5's i8254xGBe on nicbm; simbricks/component-e1000
 * e1000_gem5/), "<ps>: <flag>: <gem5 DPRINTF message>" on stderr:
 *   Ethernet "Read device register <%#lx>", "Wrote device register .. value
 *   ..", "RxFIFO: Receiving pcakte from wire" (sic); EthernetIntr "EINT:
 *   Posting/Clearing interrupt to CPU now. Vector .."; EthernetSM "TxFIFO:
 *   Successful transmit, ..."; EthernetDesc descriptor fetches and
 *   write-backs and the packet DMAs, with their completion lines.
 * e1000 prints no DMA id: the DMA events' op is the parser's own number
 * (1, 2, ... per log), its completion line gets the number of the DMA it
 * completes (one per descriptor cache and kind is in flight).  nicbm's
 * own lines (DEBUG_NICBM, on stdout) may be in the same input: they are
 * parsed as -f nicbm parses them, and once one gave an event, e1000's
 * lines give none (the nicbm line of the same operation is its event).
 */
#ifndef SSP_E1000_H
#define SSP_E1000_H

#include "source/pline.h"

struct ssp_e1000;

int ssp_e1000_new(struct ssp_e1000 **ep, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e);
void ssp_e1000_free(struct ssp_e1000 *x);
void ssp_e1000_line(struct ssp_e1000 *x, const char *s, size_t len,
    struct ssp_pline *out);

#endif
