/*
 * nicbm log parser (FORMATS.md §5): "[info: ]main_time = <ps>: nicbm:
 * <message>" debug lines of the behavioural NIC library (MMIO, DMA
 * issue/execute/enqueue/complete, interrupts, Ethernet tx/rx), in all the
 * versions' variants.  A "dma write data:" payload has no newline, so the
 * next message is glued behind the payload bytes: it is recovered.
 * Status lines (MAC, sync flags, exit time, statistics) are skipped.
 * The Enso model's device logger ("<ps> enso: <msg>", hex numbers) is a
 * dialect read here too: its packet rx and tx lines are events.
 */
#ifndef SSP_NICBM_H
#define SSP_NICBM_H

#include "source/pline.h"

struct ssp_nicbm;

int ssp_nicbm_new(struct ssp_nicbm **np, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e);
void ssp_nicbm_free(struct ssp_nicbm *n);
void ssp_nicbm_line(struct ssp_nicbm *n, const char *s, size_t len,
    struct ssp_pline *out);

#endif
