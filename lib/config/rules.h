/*
 * Span rules (formats/rules.md): which functions belong to which class
 * (syscall entries, kernel/driver tx/rx paths, pci-write, blacklist, the
 * informative linux-net/driver-net), which BARs address each NIC, what
 * makes a trace root, how background network traffic is treated, and the
 * limits that keep evspan's memory bounded.
 */
#ifndef SSP_RULES_H
#define SSP_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "config/topo.h"

/* Function classes, as a bit mask per function name. */
enum ssp_fclass {
	SSP_FC_SYSCALL_ENTRY = 0x001,
	SSP_FC_KERNEL_TX     = 0x002,
	SSP_FC_KERNEL_RX     = 0x004,
	SSP_FC_DRIVER_TX     = 0x008,
	SSP_FC_DRIVER_RX     = 0x010,
	SSP_FC_PCI_WRITE     = 0x020,
	SSP_FC_BLACKLIST     = 0x040,
	SSP_FC_LINUX_NET     = 0x080,	/* informative: network code */
	SSP_FC_DRIVER_NET    = 0x100,	/* informative: driver code */
	/* kernel execution contexts (SPEC §3b) */
	SSP_FC_SYSCALL_EXIT  = 0x200,
	SSP_FC_IRQ_ENTRY     = 0x400,
	SSP_FC_IRQ_EXIT      = 0x800,
	SSP_FC_SOFTIRQ_ENTRY = 0x1000,
	SSP_FC_SLEEP         = 0x2000,
	SSP_FC_SCHED_IN      = 0x4000,
	SSP_FC_WAKEUP        = 0x8000,
	SSP_FC_IDLE          = 0x10000,
	SSP_FC_APP_ROOT      = 0x20000,	/* user functions */
	SSP_FC_IPI_SEND      = 0x40000,	/* sends a reschedule IPI (SPEC §3c) */
	SSP_FC_IPI_ENTRY     = 0x80000,	/* an irq-entry that serves one */
};
#define SSP_FC_NCLASSES 20
#define SSP_FC_KCTX (SSP_FC_SYSCALL_EXIT | SSP_FC_IRQ_ENTRY | SSP_FC_IRQ_EXIT | \
	SSP_FC_SOFTIRQ_ENTRY | SSP_FC_SLEEP | SSP_FC_SCHED_IN | SSP_FC_WAKEUP | \
	SSP_FC_IDLE | SSP_FC_APP_ROOT | SSP_FC_IPI_SEND | SSP_FC_IPI_ENTRY)
#define SSP_FC_RX  (SSP_FC_KERNEL_RX | SSP_FC_DRIVER_RX)
#define SSP_FC_TX  (SSP_FC_KERNEL_TX | SSP_FC_DRIVER_TX)
#define SSP_FC_NET (SSP_FC_RX | SSP_FC_TX | SSP_FC_LINUX_NET | SSP_FC_DRIVER_NET)

enum ssp_root_policy {
	SSP_ROOT_ALL_SYSCALLS,	/* every syscall span is written (SPEC) */
	SSP_ROOT_NET_SYSCALLS,	/* only syscalls touching the network */
};

enum ssp_bg_policy {
	SSP_BG_ADAPTER,		/* background packets: only where they reach a NIC */
	SSP_BG_ALL,		/* every background device span, chained by uid */
};

#define SSP_RULES_PACKET_IDLE  10000000000LL	/* 10 ms, in ps */
#define SSP_RULES_CONTEXT_LIMIT 65536

struct ssp_rules;

/* Empty rules: SPEC defaults (device BAR 0), no function classes. */
int ssp_rules_new(struct ssp_rules **rp, struct ssp_err *e);
int ssp_rules_parse(struct ssp_rules **rp, const char *name, const char *buf,
    size_t len, struct ssp_err *e);
int ssp_rules_load(struct ssp_rules **rp, const char *path, struct ssp_err *e);
/* device-bar rows must name NICs of the topology (error at their line). */
int ssp_rules_check(const struct ssp_rules *r, const struct ssp_topo *t,
    struct ssp_err *e);
void ssp_rules_free(struct ssp_rules *r);

/* Classes of a function name (0 if none). */
unsigned ssp_rules_fclass(const struct ssp_rules *r, const char *name,
    size_t len);
/* Bit mask of the BARs that address NIC nic (bit b = BAR b). */
unsigned ssp_rules_device_bars(const struct ssp_rules *r, const char *nic);
enum ssp_root_policy ssp_rules_root(const struct ssp_rules *r);
enum ssp_bg_policy ssp_rules_background(const struct ssp_rules *r);
int64_t ssp_rules_packet_idle(const struct ssp_rules *r);
uint32_t ssp_rules_context_limit(const struct ssp_rules *r);
/* Number of functions in a class (one bit of enum ssp_fclass). */
size_t ssp_rules_count(const struct ssp_rules *r, unsigned fclass);
/* Whether the kernel context model (SPEC §3b) is on: the rules name at
 * least one irq-entry or syscall-exit function.  Otherwise the new classes
 * are ignored and spans are built as in SPEC §3. */
int ssp_rules_kctx(const struct ssp_rules *r);
/* "syscall-entry", ... for one class bit; NULL if not a class. */
const char *ssp_rules_fclass_name(unsigned fclass);

#endif
