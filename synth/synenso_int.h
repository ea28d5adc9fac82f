/*
 * What synenso.c (enso_bm, the NIC) and synenso_app.c (Ensō's library on
 * the QEMU host) share: the constants of both sources, the notification
 * buffers and pipe as host memory holds them, the NIC's state.  Internal
 * to synenso*.c.
 */
#ifndef SSP_SYNENSO_INT_H
#define SSP_SYNENSO_INT_H

#include "synth/synenso.h"
#include "synth/synheap.h"

#define NS 1000LL

#define PIPE_FLITS  32768u	/* ENSO_PIPE_SIZE, 64-byte flits */
#define NOTIF_SLOTS 16384u	/* NOTIFICATION_BUF_SIZE */
#define NOTIF_REGS  0x2000000u	/* (MAX_NB_QUEUES + buffer 0) * 4 KiB in BAR 2 */
#define R_RX_TAIL 0x00u		/* struct queue_regs */
#define R_RX_HEAD 0x04u
#define R_RX_LO   0x08u
#define R_RX_HI   0x0cu
#define R_TX_TAIL 0x10u
#define R_TX_HEAD 0x14u
#define R_TX_LO   0x18u
#define R_TX_HI   0x1cu
#define MAX_DMA     2048u	/* nicbm::kMaxDmaLen */
#define MAX_PENDING 64u		/* nicbm's DMA_MAX_PENDING */
#define MAX_XFER    131072u	/* kMaxTransferLen */
#define HUGEPAGE    (2u << 20)	/* kBufPageSize */
#define BATCH       64u		/* kBatchSize */
#define DST_PORT    80u		/* example_helpers.h kDstPort */
#define BASE_IP     0xc0a80000u	/* kBaseIpAddress, 192.168.0.0 */
#define CHUNK       0x50u	/* malloc chunk of every dma op object */

/* configuration ids (enso_config.h) */
enum { CFG_FLOW = 1, CFG_RATE = 3, CFG_FALLBACK = 4 };

/* what a DMA write puts into host memory */
enum { W_DATA, W_NOTIF, W_COMPL };

/* Modelled windows of rings whose real size the indices keep. */
#define WIN   512u		/* TX notifications in flight */
#define PIPEQ 4096u		/* packets in a pipe */
#define LANDQ 1024u		/* RX notifications not yet consumed */
#define SENDQ 256u		/* EnsoGen transfers waiting */
#define OUTQ  256u		/* EnsoGen requests waiting for their echoes */
#define NSTEP 40u

/* A TX notification in host memory (struct TxNotification) and, for
 * data, the packets its bytes hold, in order. */
struct txn {
	int signal;			/* 1 data, 2 configuration, 0 completed */
	uint64_t addr;
	uint32_t len;
	unsigned cfg;			/* configuration id */
	int split;			/* wrap tracker: not the transfer's last part */
	struct pkt **pk;
	unsigned npk;
};

/* A packet in enso_bm's TX pipeline: its bytes are on their way, and
 * the TX tail write whose notification brought it. */
struct txpkt {
	struct pkt *pk;
	uint64_t cause;
};

struct ering {
	uint64_t buf;
	uint32_t head, tail;
};

struct landed {
	uint32_t tail;
	uint64_t span;			/* the host.dma that wrote it */
};

struct inpipe {
	struct pkt *pk;
	uint32_t flits;
};

struct astep {
	char op;			/* 'W' write, 'R' read, 'C' configuration */
	uint32_t off, val;
	unsigned cfg;
};

struct outreq {
	unsigned req, left;
};

struct app {
	int client;			/* EnsoGen, else the echo server */
	struct astep script[NSTEP];
	unsigned nscript, pc;
	int ready, blocked, sched;
	int64_t busy;			/* the CPU is busy until */
	uint64_t nbuf, pbuf;		/* notification buffer, pipe (physical) */
	/* the notification buffer */
	uint32_t nhead;
	struct landed land[LANDQ];
	unsigned lhead, llen;
	unsigned ids;			/* EnsoGen: pipe ids not yet taken */
	/* the pipe */
	uint32_t phead, ptail, pend;	/* freed, consumed, last notified tail */
	uint64_t pend_span;
	struct inpipe in[PIPEQ];
	unsigned ihead, ilen;
	/* TX */
	uint32_t txtail, txhead;
	struct txn slot[WIN];
	uint32_t pending_tx[WIN];	/* Device::Send's requests: bytes */
	unsigned pthead, ptlen;
	uint64_t compl_span;
	struct pkt **sendq[SENDQ];
	unsigned sqn[SENDQ], sqhead, sqlen;
	struct outreq out[OUTQ];
	unsigned nout;
};

struct synenso {
	struct ssp_synheap heap;
	struct ering pipe, rxn, txn;	/* pipe 0, notification buffer 0 */
	int flow;			/* the echo server's flow-table entry */
	unsigned fallback;
	uint64_t drops;
	/* tx_pipeline: one byte stream over all transfers, in the order the
	 * data arrives; a packet goes out when its aligned end has */
	struct txpkt txq[PIPEQ];
	unsigned txqhead, txqlen;
	uint32_t txgot;
	/* nicbm's dma_queue_: issued while 64 were executing */
	struct dmaop *dq[NIC_MAXOPS];
	unsigned dqhead, dqlen;
	struct app app;
};

static inline unsigned
ssp_synenso_aligned(unsigned len)
{
	return (len + 63) & ~63u;
}

/* Fail the run (the first failure wins): "NAME: WHAT". */
void ssp_synenso_fail(struct syn *s, int code, const char *what,
    const char *name);
/* The host side (synenso_app.c): its events, EnsoGen's transfers, its
 * state's setup, start and release. */
void ssp_synenso_app_event(struct syn *s, const struct sev *ev);
void ssp_synenso_app_send(struct syn *s, struct host *h, struct pkt *pk);
void ssp_synenso_app_init(struct syn *s, struct nic *n);
void ssp_synenso_app_start(struct syn *s, struct nic *n);
void ssp_synenso_app_free(struct synenso *e);

#endif
