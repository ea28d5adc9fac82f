/*
 * nicbm's DEBUG_NICBM lines of one simsynth NIC (nicbm.cc Runner:
 * IssueDma/DmaDo, EthSend, MsiXIssue; FORMATS.md §5) and the nic.dma,
 * nic.tx and nic.msix spans they start, shared by the NIC models: synnic.c
 * (the i40e and corundum_bm models of --print ideal) and synq.c (i40e_bm's
 * queues, --print real).  Internal to synth/.
 */
#ifndef SSP_SYNNICBM_H
#define SSP_SYNNICBM_H

#include <stddef.h>
#include <stdint.h>

#include "synth/synmodel.h"

/* Frame bytes of a packet (for dma write data), returns the length. */
unsigned ssp_synnicbm_frame(const struct pkt *pk, uint8_t *buf, unsigned cap);
uint16_t ssp_synnicbm_ip_checksum(const struct pkt *pk);
/* "[info: ]main_time = <t>: nicbm: " in the NIC's dialect; the line goes
 * on at the pointer returned and ends with ssp_synnicbm_end (evtype: the
 * event type it counts as, -1 none). */
char *ssp_synnicbm_begin(struct nic *n, int64_t t);
void ssp_synnicbm_end(struct nic *n, char *p, int evtype);
/* " addr 0x<hex>" (upstream) or " addr <hex>" (older versions). */
char *ssp_synnicbm_addr(const struct nic *n, char *p, uint64_t addr);
/* A free DMA op (NULL and s->failed when NIC_MAXOPS are in flight), and
 * its return. */
struct dmaop *ssp_synnicbm_op_get(struct syn *s, struct nic *n);
void ssp_synnicbm_op_put(struct nic *n, struct dmaop *op);
/* The issuing and executing lines of op (op->ptr set: the object's
 * address), its nic.dma span (cause: the real parent), the payload of a
 * write (glued to the next line, as nicbm prints it), and the DMA sent to
 * the host. */
void ssp_synnicbm_dma_start(struct syn *s, struct nic *n, int64_t t,
    struct dmaop *op, int write, uint64_t addr, unsigned len, uint64_t cause,
    enum dma_cont cont, struct pkt *pk, struct rxwork *rw,
    const uint8_t *data);
/* nicbm's IssueDma with DMA_MAX_PENDING (64) executing: the enqueuing
 * line and the span; the bytes of a write are kept.  Later, when a DMA
 * completes (DmaTrigger), ssp_synnicbm_dma_dequeue executes it: the
 * executing line, the payload, the DMA sent to the host. */
int ssp_synnicbm_dma_enqueue(struct syn *s, struct nic *n, int64_t t,
    struct dmaop *op, int write, uint64_t addr, unsigned len, uint64_t cause,
    enum dma_cont cont, struct pkt *pk, struct rxwork *rw,
    const uint8_t *data);
void ssp_synnicbm_dma_dequeue(struct syn *s, struct nic *n, int64_t t,
    struct dmaop *op);
/* "completed dma read|write op 0x<op> addr <a> len <n>" (H2DReadcomp,
 * H2DWritecomp). */
void ssp_synnicbm_dma_done_line(struct nic *n, int64_t t,
    const struct dmaop *op);
/* An eth tx line, its nic.tx span, the frame sent to the network; returns
 * the span. */
uint64_t ssp_synnicbm_eth_tx(struct syn *s, struct nic *n, int64_t t,
    struct pkt *pk, uint64_t cause);
/* An MSI-X line (--kernel linux), its nic.msix span with links, sent to
 * the host. */
void ssp_synnicbm_msix(struct syn *s, struct nic *n, int64_t t, unsigned vec,
    uint64_t parent, const uint64_t *links, size_t nlinks);

#endif
