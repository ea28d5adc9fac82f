/*
 * QEMU host log parser: the warn_report lines simbricks/qemu's
 * simbricks-pci device (hw/misc/simbricks_pci.c) prints when built with
 * DEBUG_PRINTS, on QEMU's stderr:
 *   "<prog>: warning: simbricks_mmio_rw: starting wait for read (<ns>)
 *   addr=<hex> size=<hex>" and its "done (<ns>) a=.. s=.. val=..",
 *   "finished write (<ns>) addr=.. size=.. val=..",
 *   "simbricks_comm_d2h_process: ts=<ns> type=<dec>" (one per message
 *   from the device: DMA read/write, interrupt, read/write completion),
 *   "simbricks_timer_sync: ts=<ns> pts=<ps> npts=<ps>" and the other
 *   timer lines.
 * QEMU prints its virtual clock in ns; events carry it in ps (x 1000) and
 * the timer-sync lines give sync events whose offset converts it to
 * SimBricks time (conv.h, SSP_OFFSET_SYNC_AUTO).  Events are the gem5
 * host types: what QEMU does not print is 0 (bar -1); the ids of MMIO
 * accesses and DMAs are the parser's own numbering (formats/events.md).
 * Guest console text is skipped; QEMU's other warnings are
 * unknown-message.
 */
#ifndef SSP_QEMU_H
#define SSP_QEMU_H

#include "source/pline.h"

struct ssp_qemu;

int ssp_qemu_new(struct ssp_qemu **qp, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e);
void ssp_qemu_free(struct ssp_qemu *q);
void ssp_qemu_line(struct ssp_qemu *q, const char *s, size_t len,
    struct ssp_pline *out);

#endif
