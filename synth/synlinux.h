/*
 * The Linux 5.15 host model of simsynth --kernel linux (synlinux.c):
 * 1-4 CPUs per gem5 host, each with a stack of execution contexts (task,
 * hardirq, softirq), MSI-X interrupts that preempt whatever runs at a
 * function boundary, NET_RX softirqs (NAPI) that deliver to sockets and
 * wake receivers blocked in recvfrom, ksoftirqd, the scheduler's context
 * switches and the idle loop, and user-mode applications (request/
 * response clients and servers, a TCP stream).  The truth of the context
 * spans (SPEC §3b) comes from this bookkeeping, never from the rules.
 * Internal to synth/.
 */
#ifndef SSP_SYNLINUX_H
#define SSP_SYNLINUX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "synth/synmodel.h"

/* Where the application is loaded (sim2ev -s app.syms,app,<this>). */
#define SSP_SYNLINUX_APP_BASE 0x555555554000ull

/* gem5's name of CPU k of ncpu (system.switch_cpus, system.switch_cpusN). */
void ssp_synlinux_cpu_name(unsigned ncpu, unsigned k, char *buf, size_t n);
/* After the hosts and NICs are set up: threads, sockets, connections. */
int ssp_synlinux_setup(struct syn *s);
/* Padding Exec lines per simulated us, for every CPU of h. */
void ssp_synlinux_density(struct host *h, double lines_per_us);
/* The applications start (the first requests). */
void ssp_synlinux_start(struct syn *s);
void ssp_synlinux_event(struct syn *s, const struct sev *ev);
/* The NIC wrote a received frame into RX queue q (descriptor done). */
void ssp_synlinux_rx_done(struct syn *s, struct host *h, unsigned q,
    const struct lrx *rx);
/* The NIC wrote back a TX descriptor of queue q. */
void ssp_synlinux_tx_done(struct syn *s, struct host *h, unsigned q);
/* i40e_tx_map's descriptors for a send (--print real): one for a linear
 * frame (UDP, ARP, a pure TCP ACK), two for TCP (the header, the payload
 * in a page fragment), TSO: a context descriptor, the header and the
 * payload in pieces of at most SSP_SYNLINUX_TXD_MAX bytes. */
#define SSP_SYNLINUX_TXD_MAX 12288u	/* I40E_MAX_DATA_PER_TXD_ALIGNED */
unsigned ssp_synlinux_ndesc(const struct pkt *pk);
/* --print real: the driver's RX and TX tail of queue q at the start. */
void ssp_synlinux_rings(const struct host *h, unsigned q, uint32_t *rx_tail,
    uint32_t *tx_tail);
/* The end of the run: pad the log, write the rows of open syscalls. */
void ssp_synlinux_finish(struct syn *s, struct host *h);
void ssp_synlinux_free(struct syn *s);
/* The state of every CPU, task and vector (debugging a stuck run). */
void ssp_synlinux_dump(struct syn *s, FILE *f);
/* app.syms (objdump -t of the application). */
int ssp_synlinux_write_app(const char *path, struct ssp_err *e);
/* The rules rows --kernel linux adds to rules.csv (kernel-context classes
 * of SPEC §3b and the application's request function). */
extern const char ssp_synlinux_rules[];
/* What --print real adds to them (the IPI classes, SPEC §3c). */
extern const char ssp_synlinux_rules_real[];

#endif
