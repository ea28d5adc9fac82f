/*
 * simsynth --print real: the LAN queues of i40e_bm as they run and print
 * (SimBricks sims/nic/i40e_bm: i40e_queues.cc queue_base, i40e_lan.cc
 * lan_queue_rx/lan_queue_tx, i40e_bm.cc SignalInterrupt), and the DMA op
 * pointers glibc hands out for them (synheap.h).  Internal to synth/.
 *
 * Per queue, descriptors move through fetch (one DMA read for every
 * descriptor between the fetch position and the tail, at most 128 active),
 * prepare (TX: a payload read per data descriptor, in parts of at most
 * 9024 bytes), in-order processing (TX: every segment of a send goes out
 * when its last descriptor is ready, all at once; RX: the descriptor
 * waits for a frame), and write-back (one DMA write for the processed
 * descriptors at the front, only when no write-back of the queue is in
 * flight; TX writes the head index, as the Linux driver enables head
 * write-back).  A finished write-back frees its descriptors, asks for the
 * queue's interrupt and fetches again (on RX: a refetch for the freed
 * descriptors).  An interrupt fires ITR after the first request since the
 * vector last fired; the driver's PFINT_DYN_CTLN writes are stored, not
 * obeyed (i40e_bm masks nothing).
 *
 * Every span's true parent comes from this bookkeeping: a fetch, payload
 * read or segment has the doorbell that posted its descriptor (RX
 * fetches: the write-back or register write whose handler issued it), an
 * RX payload write its frame, a write-back the oldest descriptor it
 * covers (TX: that send's doorbell, RX: that frame), an MSI-X the newest
 * frame whose write-back asked for it (the others its links), else the
 * doorbell of the newest TX write-back.
 */
#ifndef SSP_SYNQ_H
#define SSP_SYNQ_H

#include <stdint.h>

#include "synth/synmodel.h"

/* After ssp_synlinux_setup (the driver's ring pointers). */
int ssp_synq_new(struct syn *s, struct nic *n);
void ssp_synq_free(struct nic *n);
/* A register write reached the NIC; span is its nic.mmio. */
void ssp_synq_write(struct syn *s, struct nic *n, int64_t t,
    const struct nic_mmio *m, uint64_t span);
/* A frame came in (after its eth rx line) for RX queue q. */
void ssp_synq_rx(struct syn *s, struct nic *n, int64_t t, const struct pkt *pk,
    unsigned q, const struct lrx *rx);
/* A DMA of the queues completed (after its completed line): goes on with
 * the next part, or frees op. */
void ssp_synq_dma_done(struct syn *s, struct nic *n, int64_t t,
    struct dmaop *op);
/* EV_NIC_IRQ: a's armed interrupt fires. */
void ssp_synq_irq(struct syn *s, struct nic *n, uint64_t a, int64_t t);

#endif
