/*
 * gem5 hosts: one CPU that runs tasks (syscalls and interrupt handlers)
 * one after the other, each a script of Linux function entries and device
 * accesses, and the SimBricks PCI adapter that answers the NIC's DMA and
 * interrupts whatever the CPU does.  Tasks are not preempted, so every
 * device access happens inside the syscall span SPEC §3 gives it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synhost.h"

#define NS 1000LL
#define US 1000000LL

/* Mean time between housekeeping tasks (scaled by --housekeeping). */
static const int64_t house_mean[TK_NKINDS] = {
	[TK_OTHER] = 25 * US, [TK_STATS] = 400 * US, [TK_CFG] = 900 * US,
	[TK_MSIX] = 1500 * US, [TK_FSYNC] = 700 * US, [TK_TCP] = 300 * US,
};

static void start_next(struct syn *s, struct host *h, int64_t t);

static int64_t
tick_round(int64_t t)
{
	return (t + 124) / 125 * 125;	/* the CPU clock: 8 GHz ticks */
}

/* --- building task scripts ---------------------------------------------- */

static void
add(struct syn *s, struct host *h, const char *fn)
{
	struct step *st;

	if (h->nsteps >= MAXSTEPS)
		return;
	st = &h->steps[h->nsteps++];
	memset(st, 0, sizeof(*st));
	st->op = ST_FUNC;
	st->fn = ssp_synmodel_fn(s, fn);
	st->dur = tick_round(20 * NS + ssp_synrng_exp(&h->rng, 70 * NS));
}

/* Now and then a helper the kernel calls everywhere. */
static void
helper(struct syn *s, struct host *h)
{
	static const char *helpers[] = { "_raw_spin_lock", "__rcu_read_lock",
	    "__rcu_read_unlock", "ktime_get", "kfree", "memcpy",
	    "__check_object_size", "mutex_lock", "mutex_unlock" };

	size_t nn = ssp_synsym_nnoise(s->syms);

	if (!ssp_synrng_chance(&h->rng, 0.3))
		return;
	if (nn > 0 && ssp_synrng_chance(&h->rng, 0.2)) {	/* rules' blacklist */
		add(s, h, ssp_synsym_noise(s->syms, ssp_synrng_below(&h->rng,
		    nn))->name);
		return;
	}
	add(s, h, helpers[ssp_synrng_below(&h->rng, sizeof(helpers) /
	    sizeof(helpers[0]))]);
}

static void
adds(struct syn *s, struct host *h, const char *const *fns)
{
	for (; *fns != NULL; fns++) {
		add(s, h, *fns);
		helper(s, h);
	}
}

static void
mmio(struct host *h, const struct syn *s, int write, int bar, uint32_t off,
    uint64_t val, struct pkt *pk)
{
	struct step *st;

	if (h->nsteps >= MAXSTEPS)
		return;
	st = &h->steps[h->nsteps++];
	memset(st, 0, sizeof(*st));
	st->op = ST_MMIO;
	st->write = write;
	st->bar = bar;
	st->off = off;
	st->val = val;
	st->size = 4;
	st->posted = write && !ssp_synrng_chance(&h->rng, s->p->nonposted);
	/* adapters before posted-write support complete every write (the
	 * draw above is made all the same: one scenario, any dialect) */
	if (s->p->gem5_dialect & (SSP_SYN_G5_NOPOSTED | SSP_SYN_G5_NOBAR))
		st->posted = 0;
	st->dur = tick_round(20 * NS + (int64_t)ssp_synrng_below(&h->rng, 40 * NS));
	st->pk = pk;
}

static void
simple(struct host *h, enum step_op op, uint32_t a, unsigned size,
    uint64_t val, int64_t dur)
{
	struct step *st;

	if (h->nsteps >= MAXSTEPS)
		return;
	st = &h->steps[h->nsteps++];
	memset(st, 0, sizeof(*st));
	st->op = op;
	st->write = op == ST_CFG && (a & 0x80000000u);
	st->off = a & 0x7fffffffu;
	st->size = size;
	st->val = val;
	st->dur = tick_round(dur);
}

static void
build_send(struct syn *s, struct host *h, struct pkt *pk)
{
	/* sendto(2), or now and then sendmsg(2) */
	static const char *const sendto[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_sendto", "__sys_sendto", "sockfd_lookup_light", NULL };
	static const char *const sendmsg[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_sendmsg", "__sys_sendmsg", "sockfd_lookup_light",
	    "___sys_sendmsg", "copy_msghdr_from_user", "____sys_sendmsg", NULL };
	static const char *const pre[] = {
	    "sock_sendmsg", "security_socket_sendmsg", "inet_sendmsg",
	    "udp_sendmsg", "ip_route_output_flow", "ip_route_output_key_hash",
	    "ip_make_skb", "ip_setup_cork", "__ip_append_data",
	    "sock_alloc_send_pskb", "alloc_skb_with_frags", "__alloc_skb",
	    "kmem_cache_alloc_node", "__kmalloc_node_track_caller", "skb_put",
	    "_copy_from_user", "udp_send_skb", "udp4_hwcsum", "ip_send_skb",
	    "ip_local_out", "__ip_local_out", "ip_output", "ip_finish_output",
	    "__ip_finish_output", "ip_finish_output2", "neigh_resolve_output",
	    "dev_queue_xmit", "__dev_queue_xmit", "netdev_core_pick_tx",
	    "validate_xmit_skb", "netif_skb_features", NULL };
	static const char *const i40e_check[] = { "i40e_features_check", NULL };
	static const char *const xmit[] = { "skb_network_protocol",
	    "dev_hard_start_xmit", "netdev_start_xmit", NULL };
	static const char *const i40e[] = { "i40e_lan_xmit_frame",
	    "vlan_get_protocol", "eth_type_vlan", "dma_map_single_attrs", NULL };
	/* SimBricks' mqnic: no ndo_features_check; mqnic_map_skb maps the
	 * head (dma_map_single) and rings the doorbell: the TX queue's head
	 * pointer */
	static const char *const mqnic[] = { "mqnic_start_xmit", "mqnic_map_skb",
	    "dma_map_page_attrs", "mqnic_is_tx_ring_full", NULL };
	static const char *const post[] = { "i40e_maybe_stop_tx",
	    "syscall_exit_to_user_mode", "exit_to_user_mode_prepare", NULL };

	pk->ipid = h->ipid++;
	pk->iplen = 28 + pk->payload;
	pk->frame = 14 + pk->iplen;
	pk->smac = h->nic->mac;
	pk->dmac = s->nics[pk->dst_host].mac;
	adds(s, h, ssp_synrng_chance(&h->rng, 0.3) ? sendmsg : sendto);
	adds(s, h, pre);
	if (h->nic->corundum) {
		adds(s, h, xmit);
		adds(s, h, mqnic);
		add(s, h, "mqnic_tx_write_head_ptr");
		h->tx_tail = (h->tx_tail + 1) & 0xffff;
		mmio(h, s, 1, 0, CQM_TXQ + CQM_HEAD, h->tx_tail, pk);
		adds(s, h, post + 1);
		return;
	}
	if (s->p->nic == SSP_SYN_NIC_E1000) {
		/* e1000_xmit_frame: a checksum context descriptor (e1000_tx_csum)
		 * and the frame's, then the tail register TDT */
		static const char *const e1000[] = { "e1000_xmit_frame",
		    "e1000_tx_csum", "e1000_tx_map", "dma_map_page_attrs",
		    "e1000_tx_queue", NULL };

		adds(s, h, xmit);
		adds(s, h, e1000);
		h->tx_tail = (h->tx_tail + 2) % E1K_RING;
		mmio(h, s, 1, 0, E1K_TDT, h->tx_tail, pk);
		add(s, h, "e1000_maybe_stop_tx");
		adds(s, h, post + 1);
		return;
	}
	adds(s, h, i40e_check);
	adds(s, h, xmit);
	adds(s, h, i40e);
	add(s, h, "dma_map_page_attrs");	/* last function before the doorbell */
	h->tx_tail = (h->tx_tail + 1) % 512;
	mmio(h, s, 1, 0, I40E_QTX_TAIL0, h->tx_tail, pk);
	adds(s, h, post);
}

/* Take the receive contexts that started before t. */
static unsigned
take_rx(struct host *h, int64_t t, struct rxctx *out, unsigned max)
{
	unsigned n = 0;

	while (h->rxlen > 0 && n < max && h->rx[h->rxhead].ts < t) {
		out[n++] = h->rx[h->rxhead];
		h->rxhead = (h->rxhead + 1) % RXQ;
		h->rxlen--;
	}
	return n;
}

static void
build_recv(struct syn *s, struct host *h, const struct rxctx *rx, unsigned n)
{
	static const char *const pre[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_recvfrom", "__sys_recvfrom", "sockfd_lookup_light",
	    "sock_recvmsg", "security_socket_recvmsg", "inet_recvmsg",
	    "udp_recvmsg", "__skb_recv_udp", "__skb_try_recv_from_queue",
	    "napi_busy_loop", "i40e_napi_poll", NULL };
	static const char *const gro[] = { "i40e_process_skb_fields",
	    "eth_type_trans", "napi_gro_receive", "dev_gro_receive", NULL };
	static const char *const udp[] = { "ip_list_rcv", "ip_sublist_rcv",
	    "ip_rcv_core", "ip_rcv_finish_core.constprop.0", "ip_local_deliver",
	    "ip_local_deliver_finish", "ip_protocol_deliver_rcu", "udp_rcv",
	    "__udp4_lib_rcv", "__udp4_lib_lookup", "udp_unicast_rcv_skb",
	    "udp_queue_rcv_skb", "udp_queue_rcv_one_skb",
	    "__udp_enqueue_schedule_skb", "sock_def_readable", NULL };
	static const char *const arp[] = { "arp_rcv", "arp_process",
	    "consume_skb", NULL };
	static const char *const post[] = { "napi_complete_done",
	    "busy_poll_stop", "skb_copy_datagram_iter", "__skb_datagram_iter",
	    "_copy_to_iter", "skb_consume_udp", "__consume_stateless_skb",
	    "skb_release_data", "kmem_cache_free", "syscall_exit_to_user_mode",
	    NULL };
	unsigned i;

	adds(s, h, pre);
	for (i = 0; i < n; i++) {
		adds(s, h, gro);
		if (rx[i].kind != PK_BG_ARP) {
			add(s, h, "inet_gro_receive");
			add(s, h, "udp4_gro_receive");
		}
	}
	if (ssp_synrng_chance(&h->rng, 0.2))
		add(s, h, "i40e_finalize_xdp_rx");
	add(s, h, "netif_receive_skb_list_internal");
	add(s, h, "__netif_receive_skb_list_core");
	for (i = 0; i < n; i++)
		adds(s, h, rx[i].kind == PK_BG_ARP ? arp : udp);
	add(s, h, "i40e_alloc_rx_buffers");	/* refill, then bump the tail */
	h->rx_tail = (h->rx_tail + n) % 512;
	mmio(h, s, 1, 0, I40E_QRX_TAIL0, h->rx_tail, NULL);
	add(s, h, "i40e_update_itr");		/* re-enable the vector */
	mmio(h, s, 1, 0, I40E_PFINT_DYN_CTLN + 4 * (RX_VEC - 1), 0x1b, NULL);
	adds(s, h, post);
}

/* The same receive through SimBricks' mqnic driver: the busy poll runs
 * mqnic_poll_rx_cq, which reads the RX completion queue's head pointer,
 * hands each completion's page to GRO, moves the completion queue's tail,
 * reads the RX queue's tail, refills the ring when 8 or more buffers are
 * missing (writing the RX queue's head) and re-arms the completion
 * queue. */
static void
build_recv_mqnic(struct syn *s, struct host *h, const struct rxctx *rx,
    unsigned n)
{
	static const char *const pre[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_recvfrom", "__sys_recvfrom", "sockfd_lookup_light",
	    "sock_recvmsg", "security_socket_recvmsg", "inet_recvmsg",
	    "udp_recvmsg", "__skb_recv_udp", "__skb_try_recv_from_queue",
	    "napi_busy_loop", "mqnic_poll_rx_cq", "mqnic_process_rx_cq", NULL };
	static const char *const frag[] = { "napi_get_frags",
	    "dma_unmap_page_attrs", "napi_gro_frags", "dev_gro_receive", NULL };
	static const char *const udp[] = { "ip_list_rcv", "ip_sublist_rcv",
	    "ip_rcv_core", "ip_rcv_finish_core.constprop.0", "ip_local_deliver",
	    "ip_local_deliver_finish", "ip_protocol_deliver_rcu", "udp_rcv",
	    "__udp4_lib_rcv", "__udp4_lib_lookup", "udp_unicast_rcv_skb",
	    "udp_queue_rcv_skb", "udp_queue_rcv_one_skb",
	    "__udp_enqueue_schedule_skb", "sock_def_readable", NULL };
	static const char *const arp[] = { "arp_rcv", "arp_process",
	    "consume_skb", NULL };
	static const char *const refill[] = { "mqnic_prepare_rx_desc",
	    "__alloc_pages", "dma_map_page_attrs", NULL };
	static const char *const post[] = { "busy_poll_stop",
	    "skb_copy_datagram_iter", "__skb_datagram_iter", "_copy_to_iter",
	    "skb_consume_udp", "__consume_stateless_skb", "skb_release_data",
	    "kmem_cache_free", "syscall_exit_to_user_mode", NULL };
	unsigned i, k;

	adds(s, h, pre);
	add(s, h, "mqnic_cq_read_head_ptr");
	mmio(h, s, 0, 0, CQM_RXCQ + CQM_HEAD, 0, NULL);
	for (i = 0; i < n; i++) {
		adds(s, h, frag);
		if (rx[i].kind != PK_BG_ARP) {
			add(s, h, "inet_gro_receive");
			add(s, h, "udp4_gro_receive");
		}
	}
	h->rxcq_tail = (h->rxcq_tail + n) & 0xffff;
	add(s, h, "mqnic_cq_write_tail_ptr");
	mmio(h, s, 1, 0, CQM_RXCQ + CQM_TAIL, h->rxcq_tail, NULL);
	add(s, h, "mqnic_rx_read_tail_ptr");
	mmio(h, s, 0, 0, CQM_RXQ + CQM_TAIL, 0, NULL);
	add(s, h, "mqnic_refill_rx_buffers");
	h->rx_missing += n;
	if (h->rx_missing >= 8) {
		for (k = 0; k < h->rx_missing && k < 32; k++)
			adds(s, h, refill);
		h->rx_tail = (h->rx_tail + h->rx_missing) & 0xffff;
		h->rx_missing = 0;
		add(s, h, "mqnic_rx_write_head_ptr");
		mmio(h, s, 1, 0, CQM_RXQ + CQM_HEAD, h->rx_tail, NULL);
	}
	add(s, h, "napi_complete_done");	/* flushes GRO */
	add(s, h, "netif_receive_skb_list_internal");
	add(s, h, "__netif_receive_skb_list_core");
	for (i = 0; i < n; i++)
		adds(s, h, rx[i].kind == PK_BG_ARP ? arp : udp);
	add(s, h, "mqnic_arm_cq");
	mmio(h, s, 1, 0, CQM_RXCQ + CQM_INDEX, CQM_ARM | 0, NULL);
	adds(s, h, post);
}

/* mqnic's MSI handler: it reads the event queue's head pointer, calls
 * the handler of each event's completion queue (RX: the busy poll owns
 * the NAPI, so napi_schedule_prep declines; TX: NAPI is scheduled),
 * moves the event queue's tail and re-arms it.  The softirq on the way
 * out polls the TX completion queue: head pointer read, descriptors
 * freed, tail written, TX queue tail read, re-armed. */
static void
build_irq_mqnic(struct syn *s, struct host *h)
{
	static const char *const pre[] = { "asm_common_interrupt", "error_entry",
	    "common_interrupt", "irq_enter_rcu", "__common_interrupt",
	    "handle_edge_irq", "apic_ack_edge", "handle_irq_event",
	    "__handle_irq_event_percpu", "mqnic_interrupt", "mqnic_process_eq",
	    NULL };
	static const char *const rx[] = { "mqnic_rx_irq", "napi_schedule_prep",
	    NULL };
	static const char *const tx[] = { "mqnic_tx_irq", "napi_schedule_prep",
	    "__napi_schedule_irqoff", NULL };
	static const char *const softirq[] = { "do_softirq", "net_rx_action",
	    "mqnic_poll_tx_cq", "mqnic_process_tx_cq", NULL };
	static const char *const freed[] = { "mqnic_free_tx_desc",
	    "dma_unmap_page_attrs", "napi_consume_skb", NULL };
	static const char *const post[] = { "error_return",
	    "swapgs_restore_regs_and_return_to_usermode", NULL };
	unsigned ntx = h->eq_tx, nrx = h->eq_rx, ncpl = h->txcq, i;

	h->eq_tx = h->eq_rx = 0;
	simple(h, ST_FAULT, CQM_IRQ_VECTOR, 0, 0, 10 * NS);
	adds(s, h, pre);
	add(s, h, "mqnic_eq_read_head_ptr");
	mmio(h, s, 0, 0, CQM_EQ + CQM_HEAD, 0, NULL);
	for (i = 0; i < nrx && i < 16; i++)
		adds(s, h, rx);
	for (i = 0; i < ntx && i < 16; i++)
		adds(s, h, tx);
	h->eq_tail = (h->eq_tail + ntx + nrx) & 0xffff;
	add(s, h, "mqnic_eq_write_tail_ptr");
	mmio(h, s, 1, 0, CQM_EQ + CQM_TAIL, h->eq_tail, NULL);
	add(s, h, "mqnic_arm_eq");
	mmio(h, s, 1, 0, CQM_EQ + CQM_INDEX, CQM_ARM | 0, NULL);
	add(s, h, "irq_exit_rcu");
	if (ntx > 0) {
		h->txcq = 0;
		adds(s, h, softirq);
		add(s, h, "mqnic_cq_read_head_ptr");
		mmio(h, s, 0, 0, CQM_TXCQ + CQM_HEAD, 0, NULL);
		for (i = 0; i < ncpl && i < 16; i++)
			adds(s, h, freed);
		h->txcq_tail = (h->txcq_tail + ncpl) & 0xffff;
		add(s, h, "mqnic_cq_write_tail_ptr");
		mmio(h, s, 1, 0, CQM_TXCQ + CQM_TAIL, h->txcq_tail, NULL);
		add(s, h, "mqnic_tx_read_tail_ptr");
		mmio(h, s, 0, 0, CQM_TXQ + CQM_TAIL, 0, NULL);
		add(s, h, "napi_complete_done");
		add(s, h, "mqnic_arm_cq");
		mmio(h, s, 1, 0, CQM_TXCQ + CQM_INDEX, CQM_ARM | 0, NULL);
	}
	adds(s, h, post);
}

/* The same receive through Linux's e1000 driver: the busy poll calls the
 * NAPI poll e1000_clean, which cleans the TX ring and hands each frame to
 * GRO (e1000_clean_rx_irq), refills the ring (the tail register RDT);
 * napi_complete_done declines inside the busy poll, so busy_poll_stop
 * polls once more and then re-enables the interrupts (IMS, flushed by a
 * STATUS read). */
static void
build_recv_e1000(struct syn *s, struct host *h, const struct rxctx *rx,
    unsigned n)
{
	static const char *const pre[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_recvfrom", "__sys_recvfrom", "sockfd_lookup_light",
	    "sock_recvmsg", "security_socket_recvmsg", "inet_recvmsg",
	    "udp_recvmsg", "__skb_recv_udp", "__skb_try_recv_from_queue",
	    "napi_busy_loop", "e1000_clean", "e1000_clean_tx_irq",
	    "e1000_clean_rx_irq", NULL };
	static const char *const frame[] = { "e1000_rx_checksum",
	    "eth_type_trans", "e1000_receive_skb", "napi_gro_receive",
	    "dev_gro_receive", NULL };
	static const char *const udp[] = { "ip_list_rcv", "ip_sublist_rcv",
	    "ip_rcv_core", "ip_rcv_finish_core.constprop.0", "ip_local_deliver",
	    "ip_local_deliver_finish", "ip_protocol_deliver_rcu", "udp_rcv",
	    "__udp4_lib_rcv", "__udp4_lib_lookup", "udp_unicast_rcv_skb",
	    "udp_queue_rcv_skb", "udp_queue_rcv_one_skb",
	    "__udp_enqueue_schedule_skb", "sock_def_readable", NULL };
	static const char *const arp[] = { "arp_rcv", "arp_process",
	    "consume_skb", NULL };
	static const char *const stop[] = { "napi_complete_done",
	    "busy_poll_stop", "e1000_clean", "e1000_clean_tx_irq",
	    "e1000_clean_rx_irq", "napi_complete_done", "e1000_irq_enable",
	    NULL };
	static const char *const post[] = { "skb_copy_datagram_iter",
	    "__skb_datagram_iter", "_copy_to_iter", "skb_consume_udp",
	    "__consume_stateless_skb", "skb_release_data", "kmem_cache_free",
	    "syscall_exit_to_user_mode", NULL };
	unsigned i;

	adds(s, h, pre);
	for (i = 0; i < n; i++) {
		adds(s, h, frame);
		if (rx[i].kind != PK_BG_ARP) {
			add(s, h, "inet_gro_receive");
			add(s, h, "udp4_gro_receive");
		}
	}
	add(s, h, "e1000_alloc_rx_buffers");	/* refill, then bump the tail */
	h->rx_tail = (h->rx_tail + n) % E1K_RING;
	mmio(h, s, 1, 0, E1K_RDT, h->rx_tail, NULL);
	add(s, h, "netif_receive_skb_list_internal");
	add(s, h, "__netif_receive_skb_list_core");
	for (i = 0; i < n; i++)
		adds(s, h, rx[i].kind == PK_BG_ARP ? arp : udp);
	adds(s, h, stop);
	mmio(h, s, 1, 0, E1K_IMS, E1K_IMS_ENABLE, NULL);
	mmio(h, s, 0, 0, E1K_STATUS, 0, NULL);
	adds(s, h, post);
}

/* e1000_intr on the INTx line: it reads ICR (which lowers the line),
 * masks every cause (IMC, flushed by a STATUS read) and schedules NAPI.
 * With no frame waiting for the busy poll, the softirq on the way out
 * runs e1000_clean, which cleans the TX ring and re-enables the
 * interrupts. */
static void
build_irq_e1000(struct syn *s, struct host *h)
{
	static const char *const pre[] = { "asm_common_interrupt", "error_entry",
	    "common_interrupt", "irq_enter_rcu", "__common_interrupt",
	    "handle_fasteoi_irq", "handle_irq_event", "__handle_irq_event_percpu",
	    "e1000_intr", NULL };
	static const char *const sched[] = { "napi_schedule_prep",
	    "__napi_schedule", "irq_exit_rcu", NULL };
	static const char *const softirq[] = { "do_softirq", "net_rx_action",
	    "e1000_clean", "e1000_clean_tx_irq", "e1000_clean_rx_irq",
	    "napi_complete_done", "e1000_irq_enable", NULL };
	static const char *const post[] = { "error_return",
	    "swapgs_restore_regs_and_return_to_usermode", NULL };

	simple(h, ST_FAULT, E1K_IRQ_VECTOR, 0, 0, 10 * NS);
	adds(s, h, pre);
	mmio(h, s, 0, 0, E1K_ICR, 0, NULL);
	mmio(h, s, 1, 0, E1K_IMC, 0xffffffffu, NULL);
	mmio(h, s, 0, 0, E1K_STATUS, 0, NULL);
	adds(s, h, sched);
	if (h->rxlen == 0) {
		adds(s, h, softirq);
		mmio(h, s, 1, 0, E1K_IMS, E1K_IMS_ENABLE, NULL);
		mmio(h, s, 0, 0, E1K_STATUS, 0, NULL);
	}
	adds(s, h, post);
}

/* ethtool -S on e1000: e1000_update_stats reads the statistics
 * registers (0x4000 on). */
static void
build_stats_e1000(struct syn *s, struct host *h)
{
	static const char *const pre[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_ioctl", "__fdget", "sock_ioctl", "dev_ioctl",
	    "mutex_lock", "dev_ethtool", "ethtool_get_stats",
	    "e1000_get_ethtool_stats", "e1000_update_stats", NULL };
	static const char *const post[] = { "mutex_unlock", "kfree",
	    "syscall_exit_to_user_mode", NULL };
	unsigned k, n = 4 + (unsigned)ssp_synrng_below(&h->rng, 5);

	adds(s, h, pre);
	for (k = 0; k < n; k++)
		mmio(h, s, 0, 0, E1K_STATS + 4 * (uint32_t)ssp_synrng_below(&h->rng,
		    64), 0, NULL);
	adds(s, h, post);
}

static void
build_irq(struct syn *s, struct host *h)
{
	static const char *const fns[] = { "asm_common_interrupt", "error_entry",
	    "common_interrupt", "irq_enter_rcu", "__common_interrupt",
	    "handle_edge_irq", "apic_ack_edge", "handle_irq_event",
	    "__handle_irq_event_percpu", "i40e_msix_clean_rings",
	    "napi_schedule_prep", "__napi_schedule", "irq_exit_rcu",
	    "error_return", "swapgs_restore_regs_and_return_to_usermode", NULL };

	simple(h, ST_FAULT, 37, 0, 0, 10 * NS);
	adds(s, h, fns);
}

static void
build_other(struct syn *s, struct host *h)
{
	static const char *const calls[][8] = {
		{ "__x64_sys_futex", "do_futex", "futex_wait", "_raw_spin_lock",
		    "schedule", NULL },
		{ "__x64_sys_epoll_wait", "do_epoll_wait", "__fdget", "ep_poll",
		    "_raw_spin_lock_irqsave", "_raw_spin_unlock_irqrestore", NULL },
		{ "__x64_sys_read", "ksys_read", "__fget_light", "vfs_read",
		    "rw_verify_area", "security_file_permission", NULL },
		{ "__x64_sys_write", "ksys_write", "__fget_light", "vfs_write",
		    "rw_verify_area", "security_file_permission", NULL },
		{ "__x64_sys_clock_nanosleep", "hrtimer_nanosleep", "schedule",
		    NULL },
		{ "__x64_sys_getpid", NULL },
	};
	static const char *const pre[] = { "entry_SYSCALL_64", "do_syscall_64",
	    NULL };

	adds(s, h, pre);
	adds(s, h, calls[ssp_synrng_below(&h->rng, sizeof(calls) / sizeof(calls[0]))]);
	add(s, h, "syscall_exit_to_user_mode");
}

/* ethtool -S: the driver reads statistics registers (MMIO reads). */
static void
build_stats(struct syn *s, struct host *h)
{
	static const char *const pre[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_ioctl", "__fdget", "sock_ioctl", "dev_ioctl",
	    "mutex_lock", "dev_ethtool", "ethtool_get_stats",
	    "i40e_get_ethtool_stats", "i40e_update_stats", NULL };
	static const char *const post[] = { "mutex_unlock", "kfree",
	    "syscall_exit_to_user_mode", NULL };
	unsigned k, n = 2 + (unsigned)ssp_synrng_below(&h->rng, 3);

	adds(s, h, pre);
	for (k = 0; k < n; k++) {
		uint32_t reg = I40E_GLPRT_GORCL0 + 8 * (uint32_t)ssp_synrng_below(&h->rng, 64);

		add(s, h, "i40e_stat_update48");
		mmio(h, s, 0, 0, reg + 4, 0, NULL);	/* high half first */
		mmio(h, s, 0, 0, reg, 0, NULL);
	}
	adds(s, h, post);
}

/* cat /proc/net/dev: mqnic keeps its counters in memory (no register
 * reads; corundum_bm has no statistics registers). */
static void
build_stats_mqnic(struct syn *s, struct host *h)
{
	static const char *const fns[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_read", "ksys_read", "__fget_light", "vfs_read",
	    "rw_verify_area", "seq_read_iter", "dev_seq_show", "dev_get_stats",
	    "mqnic_get_stats64", "mqnic_update_stats", "syscall_exit_to_user_mode",
	    NULL };

	adds(s, h, fns);
}

/* lspci / setpci through sysfs: PCI config space accesses. */
static void
build_cfg(struct syn *s, struct host *h)
{
	static const struct { unsigned reg, bytes; uint32_t data; } regs[] = {
		{ 0x0, 4, 0x15728086 }, { 0x4, 2, 0x406 }, { 0x6, 2, 0x10 },
		{ 0x8, 4, 0x2000002 }, { 0x2c, 4, 0x8086 }, { 0x3d, 1, 0x1 },
		{ 0xa0, 2, 0x5 }, { 0xb2, 2, 0x8080 },
	};
	static const char *const rd[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_pread64", "ksys_pread64", "__fdget", "vfs_read",
	    "rw_verify_area", "kernfs_fop_read_iter", "sysfs_kf_bin_read",
	    "pci_read_config", NULL };
	static const char *const wr[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_pwrite64", "ksys_pwrite64", "__fdget", "vfs_write",
	    "rw_verify_area", "kernfs_fop_write_iter", "sysfs_kf_bin_write",
	    "pci_write_config", "pci_user_write_config_word", "raw_pci_write",
	    "pci_conf1_write", NULL };
	unsigned k, n;

	if (ssp_synrng_chance(&h->rng, 0.25)) {	/* setpci COMMAND=0x406 */
		adds(s, h, wr);
		simple(h, ST_CFG, 0x80000000u | 0x4, 2, 0x406, 60 * NS);
	} else {
		adds(s, h, rd);
		n = 1 + (unsigned)ssp_synrng_below(&h->rng, 3);
		for (k = 0; k < n; k++) {
			unsigned i = (unsigned)ssp_synrng_below(&h->rng,
			    sizeof(regs) / sizeof(regs[0]));

			uint32_t data = regs[i].data;

			if (h->nic->corundum && (regs[i].reg == 0 || regs[i].reg == 0x2c))
				data = regs[i].reg == 0 ? 0x10015543 : 0x5543;
			if (h->nic->e1k != NULL && regs[i].reg == 0)
				data = 0x10758086;	/* e1000_gem5's 82547GI */
			add(s, h, regs[i].bytes == 4 ? "pci_user_read_config_dword" :
			    "pci_user_read_config_word");
			add(s, h, "raw_pci_read");
			add(s, h, "pci_conf1_read");
			simple(h, ST_CFG, regs[i].reg, regs[i].bytes, data, 60 * NS);
		}
	}
	add(s, h, "syscall_exit_to_user_mode");
}

/* Writing /proc/irq/N/smp_affinity reprograms the MSI-X table entry in
 * BAR 3: answered inside gem5, no NIC line. */
static void
build_msix(struct syn *s, struct host *h)
{
	static const char *const pre[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_write", "ksys_write", "vfs_write", "proc_reg_write",
	    "write_irq_affinity.constprop.0", "irq_set_affinity",
	    "_raw_spin_lock_irqsave", "irq_do_set_affinity",
	    "msi_domain_set_affinity", "pci_msi_domain_write_msg", NULL };
	uint32_t e = 16 * (uint32_t)(ssp_synrng_below(&h->rng, 2) ? RX_VEC : 0);
	uint32_t cpu = (uint32_t)ssp_synrng_below(&h->rng, 4);

	adds(s, h, pre);
	add(s, h, "__pci_write_msi_msg");	/* pci-write class */
	mmio(h, s, 1, 3, e + 0, 0xfee00000u | (cpu << 12), NULL);
	mmio(h, s, 1, 3, e + 4, 0, NULL);
	mmio(h, s, 1, 3, e + 8, 0x21 + e / 16, NULL);
	add(s, h, "pci_msix_write_vector_ctrl");	/* pci-write class */
	mmio(h, s, 1, 3, e + 12, 0, NULL);
	mmio(h, s, 0, 3, e + 12, 0, NULL);	/* flushing read */
	add(s, h, "_raw_spin_unlock_irqrestore");
	add(s, h, "syscall_exit_to_user_mode");
}

/* The same for the mqnic, which uses MSI (corundum_bm offers 32 MSI
 * vectors and no MSI-X): the new message goes to the MSI capability in
 * configuration space (address low, high, data), no BAR access. */
static void
build_msi_mqnic(struct syn *s, struct host *h)
{
	static const char *const pre[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_write", "ksys_write", "vfs_write", "proc_reg_write",
	    "write_irq_affinity.constprop.0", "irq_set_affinity",
	    "_raw_spin_lock_irqsave", "irq_do_set_affinity",
	    "msi_domain_set_affinity", "pci_msi_domain_write_msg", NULL };
	uint32_t cpu = (uint32_t)ssp_synrng_below(&h->rng, 4);
	const uint32_t cap = 0x50;	/* the MSI capability */

	adds(s, h, pre);
	add(s, h, "__pci_write_msi_msg");	/* pci-write class */
	add(s, h, "pci_bus_write_config_dword");
	add(s, h, "raw_pci_write");
	add(s, h, "pci_conf1_write");
	simple(h, ST_CFG, 0x80000000u | (cap + 4), 4, 0xfee00000u | (cpu << 12),
	    60 * NS);
	add(s, h, "pci_bus_write_config_dword");
	add(s, h, "raw_pci_write");
	add(s, h, "pci_conf1_write");
	simple(h, ST_CFG, 0x80000000u | (cap + 8), 4, 0, 60 * NS);
	add(s, h, "pci_bus_write_config_word");
	add(s, h, "raw_pci_write");
	add(s, h, "pci_conf1_write");
	simple(h, ST_CFG, 0x80000000u | (cap + 12), 2, CQM_IRQ_VECTOR, 60 * NS);
	add(s, h, "_raw_spin_unlock_irqrestore");
	add(s, h, "syscall_exit_to_user_mode");
}

/* fsync on the IDE disk: the disk interrupt (postInt/clearInt) arrives
 * while the syscall waits for it. */
static void
build_fsync(struct syn *s, struct host *h)
{
	static const char *const pre[] = { "entry_SYSCALL_64", "do_syscall_64",
	    "__x64_sys_fsync", "__fdget", "do_fsync", "vfs_fsync_range",
	    "ext4_sync_file", "file_write_and_wait_range",
	    "__filemap_fdatawrite_range", "do_writepages", "ext4_writepages",
	    "submit_bio", "blk_mq_submit_bio", "ata_qc_issue",
	    "ata_sff_qc_issue", "io_schedule", NULL };
	static const char *const irq[] = { "asm_common_interrupt",
	    "error_entry", "common_interrupt", "__common_interrupt",
	    "handle_fasteoi_irq", "handle_irq_event",
	    "__handle_irq_event_percpu", "ata_bmdma_interrupt",
	    "ata_sff_hsm_move", NULL };

	adds(s, h, pre);
	add(s, h, "schedule");
	h->steps[h->nsteps - 1].dur = tick_round(2 * US +
	    ssp_synrng_exp(&h->rng, 3 * US));	/* the disk works */
	simple(h, ST_POSTINT, 0, 0, 0, 40 * NS);
	simple(h, ST_FAULT, 46, 0, 0, 20 * NS);
	adds(s, h, irq);
	simple(h, ST_CLEARINT, 0, 0, 0, 50 * NS);
	add(s, h, "irq_exit_rcu");
	add(s, h, "wait_on_page_writeback");
	add(s, h, "syscall_exit_to_user_mode");
}

/* A daemon on the host talks TCP to itself over loopback: one syscall of
 * socket, bind, connect (the SYN, SYN-ACK and ACK go through the loopback
 * device and the softirq on this CPU; no NIC) and close with SO_LINGER 0,
 * in turn. */
static void
build_tcp(struct syn *s, struct host *h)
{
	static const char *const calls[][48] = {
		{ "__x64_sys_socket", "__sys_socket", "sock_create",
		    "__sock_create", "inet_create", "tcp_v4_init_sock",
		    "tcp_init_sock", "tcp_init_xmit_timers", "sock_alloc_file",
		    "fd_install", NULL },
		{ "__x64_sys_bind", "__sys_bind", "sockfd_lookup_light",
		    "inet_bind", "__inet_bind", "inet_csk_get_port", "fput", NULL },
		{ "__x64_sys_connect", "__sys_connect", "sockfd_lookup_light",
		    "inet_stream_connect", "__inet_stream_connect",
		    "tcp_v4_connect", "ip_route_output_key_hash", "ipv4_dst_check",
		    "tcp_set_state", "tcp_fastopen_defer_connect", "tcp_connect",
		    "tcp_sync_mss", "tcp_initialize_rcv_mss", "tcp_transmit_skb",
		    "__tcp_transmit_skb", "tcp_v4_send_check",
		    "__tcp_v4_send_check", "ip_queue_xmit", "__ip_queue_xmit",
		    "ip_local_out", "__ip_local_out", "ip_output",
		    "ip_finish_output", "__ip_finish_output", "ip_finish_output2",
		    "dev_queue_xmit", "__dev_queue_xmit", "dev_hard_start_xmit",
		    "netdev_start_xmit", "loopback_xmit", "eth_type_trans",
		    "netif_rx", "netif_rx_internal", "do_softirq", "net_rx_action",
		    "process_backlog", "__netif_receive_skb_one_core", "ip_rcv",
		    "ip_local_deliver", "tcp_v4_rcv", "tcp_v4_do_rcv",
		    "tcp_rcv_state_process", "tcp_release_cb", "release_sock",
		    "fput", NULL },
		{ "__x64_sys_close", "close_fd", "exit_to_user_mode_prepare",
		    "task_work_run", "__fput", "sock_close", "__sock_release",
		    "inet_release", "tcp_close", "__tcp_close", "tcp_disconnect",
		    "tcp_set_state", "tcp_clear_retrans", "tcp_write_queue_purge",
		    "release_sock", "tcp_release_cb", NULL },
	};
	static const char *const pre[] = { "entry_SYSCALL_64", "do_syscall_64",
	    NULL };

	adds(s, h, pre);
	adds(s, h, calls[h->tcp_step++ % 4]);
	add(s, h, "syscall_exit_to_user_mode");
}

/* --- running tasks ------------------------------------------------------ */

/* Build the script when the task's first step runs: a receiving syscall
 * takes what arrived before its entry.  0: nothing to do. */
static int
build(struct syn *s, struct host *h, int64_t t)
{
	h->nsteps = 0;
	h->pc = 0;
	switch (h->cur.kind) {
	case TK_SEND: build_send(s, h, h->cur.pk); break;
	case TK_RECV:
		h->recv_queued = 0;
		h->ntaken = take_rx(h, t, h->taken, RXQ);
		if (h->ntaken == 0)
			return 0;
		if (h->nic->corundum)
			build_recv_mqnic(s, h, h->taken, h->ntaken);
		else if (h->nic->e1k != NULL)
			build_recv_e1000(s, h, h->taken, h->ntaken);
		else
			build_recv(s, h, h->taken, h->ntaken);
		break;
	case TK_IRQ:
		if (h->nic->corundum)
			build_irq_mqnic(s, h);
		else if (h->nic->e1k != NULL)
			build_irq_e1000(s, h);
		else
			build_irq(s, h);
		break;
	case TK_OTHER: build_other(s, h); break;
	case TK_STATS:
		if (h->nic->corundum)
			build_stats_mqnic(s, h);
		else if (h->nic->e1k != NULL)
			build_stats_e1000(s, h);
		else
			build_stats(s, h);
		break;
	case TK_CFG: build_cfg(s, h); break;
	case TK_MSIX:
		if (h->nic->corundum)
			build_msi_mqnic(s, h);
		else if (h->nic->e1k != NULL)	/* INTx: the IO-APIC only */
			build_other(s, h);
		else
			build_msix(s, h);
		break;
	case TK_FSYNC: build_fsync(s, h); break;
	case TK_TCP: build_tcp(s, h); break;
	default: return 0;
	}
	return 1;
}

static void
task_end(struct syn *s, struct host *h, int64_t t)
{
	unsigned i;

	if (h->cur.kind == TK_IRQ && !h->recv_queued) {
		h->recv_queued = 1;
		ssp_synhost_task(s, h, TK_RECV, NULL);
	}
	if (h->cur.kind == TK_RECV) {
		for (i = 0; i < h->ntaken; i++) {
			if (h->taken[i].kind == PK_RESP && !h->server)
				ssp_synmodel_request_done(s, h->taken[i].req, t);
			if (h->taken[i].kind == PK_REQ && h->server) {
				struct host *c = &s->hosts[h->taken[i].src_host];
				struct pkt *pk = ssp_synmodel_pkt_new(s, PK_RESP);

				if (pk == NULL)
					return;
				pk->interesting = 1;
				pk->req = h->taken[i].req;
				pk->src_host = (int)h->idx;
				pk->dst_host = (int)c->idx;
				pk->sip = h->ip;
				pk->dip = c->ip;
				pk->sport = 7000;
				pk->dport = (uint16_t)(40000 + c->idx);
				pk->proto = 17;
				pk->payload = s->p->resp_size;
				ssp_synhost_task(s, h, TK_SEND, pk);
			}
		}
		h->ntaken = 0;
	}
	h->busy = 0;
	h->g.user = 1;
	start_next(s, h, t + tick_round(50 * NS +
	    (int64_t)ssp_synrng_below(&h->rng, 200 * NS)));
}

static void
start_next(struct syn *s, struct host *h, int64_t t)
{
	if (h->busy || h->qlen == 0)
		return;
	h->cur = h->q[h->qhead];
	h->qhead = (h->qhead + 1) % TASKQ;
	h->qlen--;
	h->busy = 1;
	h->nsteps = 0;
	h->pc = 0;
	ssp_synmodel_schedule(s, t, EV_HOST_STEP, h->idx, 0, NULL);
}

void
ssp_synhost_task(struct syn *s, struct host *h, enum task_kind kind,
    struct pkt *pk)
{
	if (h->qlen == TASKQ) {
		if (kind == TK_SEND || kind == TK_RECV || kind == TK_IRQ) {
			s->failed = 1;
			ssp_err_set(&s->err, SSP_ERR_LIMIT, 0, "%s: more than %d "
			    "tasks waiting for the CPU; lower --concurrency or "
			    "raise --interval", h->name, TASKQ);
		}
		ssp_synmodel_pkt_put(pk);
		return;
	}
	h->q[(h->qhead + h->qlen) % TASKQ] = (struct task){ kind, pk };
	h->qlen++;
	if (!h->busy)
		start_next(s, h, tick_round(s->now + 20 * NS));
}

static uint64_t
mmio_id(struct host *h)
{
	return h->compl_pool[ssp_synrng_below(&h->rng, 8)];
}

/* Run step h->pc at t.  Returns 1 if the CPU now waits for a completion. */
static int
run_step(struct syn *s, struct host *h, const struct step *st, int64_t t)
{
	char key[48];
	uint64_t id;

	switch (st->op) {
	case ST_FUNC:
		if (h->qemu == NULL)	/* QEMU prints no instruction trace */
			ssp_syngem5_func(&h->g, t, st->fn->addr);
		/* On through the inner label, written when due: written
		 * ahead, its lines could precede (in the file) lines of
		 * events due in the next 625 ps, and time would go back. */
		if (st->fn == s->fn_entry)
			ssp_synmodel_schedule(s, t + 4 * 125, EV_HOST_PUSH,
			    h->idx, s->lbl_safe_stack->addr, NULL);
		if (st->fn == s->fn_entry || st->fn == s->fn_error_entry) {
			uint64_t links[RXQ];
			unsigned i;

			if (h->cur.kind == TK_RECV && st->fn == s->fn_entry &&
			    h->ntaken > 0) {
				for (i = 1; i < h->ntaken; i++)
					links[i - 1] = h->taken[i].span;
				h->cur_sys = ssp_synmodel_span_links(s, h->stream,
				    SSP_SK_HOST_SYSCALL, t, "", h->taken[0].span,
				    links, h->ntaken - 1);
			} else {
				h->cur_sys = ssp_synmodel_span(s, h->stream,
				    SSP_SK_HOST_SYSCALL, t, "", 0, 0);
			}
		}
		return 0;
	case ST_MMIO:
		if (h->qemu != NULL) {
			if (st->bar != 0)	/* QEMU answers the MSI-X table */
				return 0;
			/* QEMU's request id is the CPU's index (one CPU),
			 * the span's key the id sim2ev numbers */
			snprintf(key, sizeof(key), "%" PRIu64, ssp_synqemu_mmio(h->qemu,
			    t, st->write, st->off, st->size, st->val));
			id = 0;
		} else {
			id = mmio_id(h);
			ssp_syngem5_mmio(&h->g, t, st->write, (st->bar == 3 ?
			    BAR3_BASE : BAR0_BASE) + st->off, st->size, id, st->bar,
			    st->off, st->posted);
			if (st->write && st->posted)
				ssp_syngem5_posted(&h->g, t);
			snprintf(key, sizeof(key), "%" PRIu64, id);
		}
		{
			uint64_t span = ssp_synmodel_span(s, h->stream,
			    SSP_SK_HOST_MMIO, t, key, h->cur_sys, h->cur_sys);
			struct nic_mmio *m;

			if (st->bar != 0)
				return 0;	/* MSI-X table: answered by gem5 */
			if ((m = calloc(1, sizeof(*m))) == NULL) {
				s->failed = 1;
				ssp_err_set(&s->err, SSP_ERR_NOMEM, 0,
				    "out of memory");
				return 0;
			}
			/* QEMU sends every write non-posted, and does not
			 * wait for it */
			*m = (struct nic_mmio){ span, st->write, h->qemu == NULL &&
			    st->posted, st->off, st->size, st->val, id, st->pk, 0 };
			ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_NIC_MMIO,
			    h->idx, 0, m);
			return !st->write || (!st->posted && h->qemu == NULL);
		}
	case ST_CFG:
		if (h->qemu == NULL)
			ssp_syngem5_config(&h->g, t, st->write, st->off, st->size,
			    st->val);
		snprintf(key, sizeof(key), "0x%x", st->off);
		ssp_synmodel_span(s, h->stream, SSP_SK_HOST_PCI, t, key, h->cur_sys,
		    h->cur_sys);
		return 0;
	case ST_POSTINT:
		if (h->qemu == NULL)
			ssp_syngem5_intx(&h->g, t, 1);
		ssp_synmodel_span(s, h->stream, SSP_SK_HOST_INTR, t, "", h->cur_sys,
		    h->cur_sys);
		return 0;
	case ST_CLEARINT:
		if (h->qemu == NULL)
			ssp_syngem5_intx(&h->g, t, 0);
		return 0;
	case ST_FAULT:
		if (h->qemu != NULL)
			return 0;
		ssp_syngem5_fault_intr(&h->g, t, 0x7fc14f71f8b0ull +
		    ssp_synrng_below(&h->rng, 0x1000), st->off);
		return 0;
	}
	return 0;
}

/* A receiving syscall takes the frames whose NIC rx started before it
 * (SPEC §3); it starts no sooner than one PCIe latency after the newest
 * of them, when the host can know of it.  Returns when it may start. */
static int64_t
recv_start(const struct syn *s, const struct host *h, int64_t t)
{
	int64_t newest = INT64_MIN;
	unsigned i;

	if (h->cur.kind != TK_RECV)
		return t;
	for (i = 0; i < h->rxlen; i++) {
		const struct rxctx *r = &h->rx[(h->rxhead + i) % RXQ];

		if (r->ts < t && r->ts > newest)
			newest = r->ts;
	}
	if (newest == INT64_MIN || t - newest >= s->p->pcie_lat)
		return t;
	return tick_round(newest + s->p->pcie_lat);
}

static void
host_step(struct syn *s, struct host *h, int64_t t)
{
	const struct step *st;
	int64_t at;

	if (h->pc == 0 && h->nsteps == 0 && (at = recv_start(s, h, t)) > t) {
		ssp_synmodel_schedule(s, at, EV_HOST_STEP, h->idx, 0, NULL);
		return;
	}
	if (h->pc == 0 && h->nsteps == 0 && !build(s, h, t)) {
		task_end(s, h, t);
		return;
	}
	h->g.user = 0;
	st = &h->steps[h->pc++];
	if (run_step(s, h, st, t)) {
		h->blocked = 1;
		return;
	}
	if (h->pc == h->nsteps)
		task_end(s, h, t + st->dur);
	else
		ssp_synmodel_schedule(s, t + st->dur, EV_HOST_STEP, h->idx, 0, NULL);
}

void
ssp_synhost_rx(struct syn *s, struct host *h, const struct rxctx *rx)
{
	if (h->rxlen == RXQ) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_LIMIT, 0, "%s: more than %d frames "
		    "waiting for a receiving syscall", h->name, RXQ);
		return;
	}
	h->rx[(h->rxhead + h->rxlen) % RXQ] = *rx;
	h->rxlen++;
}

static int64_t
mem_latency(unsigned len)
{
	return 15 * NS + (int64_t)len * 125 / 2;	/* ~16 GB/s */
}

void
ssp_synhost_event(struct syn *s, const struct sev *ev)
{
	struct host *h = &s->hosts[ev->who];
	int64_t t = ev->t;
	char key[48];

	switch (ev->type) {
	case EV_HOST_STEP:
		host_step(s, h, t);
		break;
	case EV_HOST_TASK:
		ssp_synhost_task(s, h, (enum task_kind)ev->a, ev->p);
		break;
	case EV_HOST_PUSH:
		if (h->qemu == NULL)
			ssp_syngem5_push_imm(&h->g, t, ev->a);
		break;
	case EV_HOST_HOUSE:
		if (s->ending && t > s->end)
			break;
		ssp_synhost_task(s, h, (enum task_kind)ev->a, NULL);
		ssp_synmodel_schedule(s, t + ssp_synrng_exp(&h->rng,
		    (double)house_mean[ev->a] / s->p->housekeeping),
		    EV_HOST_HOUSE, h->idx, ev->a, NULL);
		break;
	case EV_HOST_SYNC:
		if (s->ending && t > s->end)
			break;
		if (h->qemu != NULL) {
			ssp_synqemu_sync(h->qemu, t);
		} else {
			if (t == 0)
				ssp_syngem5_constructed(&h->g, 0);
			ssp_syngem5_sync(&h->g, t, t);
			ssp_syngem5_procin(&h->g, t == 0 ? 1 : t);
		}
		ssp_synmodel_schedule(s, t + s->p->sync_interval, EV_HOST_SYNC, h->idx,
		    0, NULL);
		break;
	case EV_HOST_MMIO_DONE: {
		struct nic_mmio *m = ev->p;
		int nowait = h->qemu != NULL && m->write;	/* never waited */

		if (h->qemu != NULL) {
			ssp_synqemu_mmio_done(h->qemu, t, m->write, m->off, m->len,
			    m->val);
		} else {
			ssp_syngem5_procin(&h->g, t);
			ssp_syngem5_mmio_done(&h->g, t, m->write, m->id);
		}
		free(m);
		if (h->blocked && !nowait) {
			const struct step *st = &h->steps[h->pc - 1];

			h->blocked = 0;
			if (h->pc == h->nsteps)
				task_end(s, h, t + st->dur);
			else
				ssp_synmodel_schedule(s, t + st->dur, EV_HOST_STEP,
				    h->idx, 0, NULL);
		}
		break;
	}
	case EV_HOST_DMA: {
		struct dmaop *op = ev->p;

		if (h->qemu != NULL) {	/* QEMU prints no DMA id: sim2ev's */
			snprintf(key, sizeof(key), "%" PRIu64,
			    ssp_synqemu_dma(h->qemu, t, op->write));
		} else {
			ssp_syngem5_procin(&h->g, t);
			ssp_syngem5_dma(&h->g, t, op->write, op->ptr, op->addr,
			    op->len);
			snprintf(key, sizeof(key), "%" PRIu64, op->ptr);
		}
		ssp_synmodel_span(s, h->stream, SSP_SK_HOST_DMA, t, key, op->span,
		    op->span);
		ssp_synmodel_schedule(s, t + mem_latency(op->len), EV_HOST_DMA_DONE,
		    h->idx, 0, op);
		break;
	}
	case EV_HOST_DMA_DONE: {
		struct dmaop *op = ev->p;

		if (h->qemu == NULL)
			ssp_syngem5_dma_done(&h->g, t, op->ptr);
		ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_NIC_DMA_DONE, h->idx,
		    0, op);
		break;
	}
	case EV_HOST_MSIX:
		if (h->qemu != NULL) {
			ssp_synqemu_intr(h->qemu, t);
		} else {
			ssp_syngem5_procin(&h->g, t);
			if (h->nic->corundum)
				ssp_syngem5_msi(&h->g, t, CQM_MSI_VEC, CQM_IRQ_VECTOR);
			else
				ssp_syngem5_msix(&h->g, t, RX_VEC);
		}
		snprintf(key, sizeof(key), "%u", h->nic->corundum ? CQM_MSI_VEC :
		    RX_VEC);
		ssp_synmodel_span(s, h->stream, SSP_SK_HOST_MSIX, t, key, ev->a, ev->a);
		ssp_synmodel_schedule(s, t + mem_latency(4), EV_HOST_MSIX_DONE, h->idx,
		    0, NULL);
		break;
	case EV_HOST_INTX:	/* e1000's INTx: gem5's PciHost interface */
		ssp_syngem5_procin(&h->g, t);
		ssp_syngem5_intx_dev(&h->g, t, (int)ev->a,
		    "system.pc.pci_host.interface[00:00.0]");
		if (ev->a) {
			/* SPEC §3: a child of the current syscall */
			ssp_synmodel_span(s, h->stream, SSP_SK_HOST_INTR, t, "",
			    (uint64_t)(uintptr_t)ev->p, h->cur_sys);
			if (!h->intx)	/* the line rises: the CPU is interrupted */
				ssp_synmodel_schedule(s, t + 100 * NS +
				    (int64_t)ssp_synrng_below(&h->rng, 200 * NS),
				    EV_HOST_TASK, h->idx, TK_IRQ, NULL);
		}
		h->intx = (int)ev->a;
		break;
	case EV_HOST_MSIX_DONE:
		if (h->qemu == NULL)
			ssp_syngem5_dma_done(&h->g, t, 0);
		ssp_synmodel_schedule(s, t + 100 * NS + (int64_t)ssp_synrng_below(&h->rng,
		    200 * NS), EV_HOST_TASK, h->idx, TK_IRQ, NULL);
		break;
	}
}

int
ssp_synhost_init(struct syn *s, struct host *h)
{
	const struct ssp_synparams *p = s->p;
	uint64_t base;
	unsigned i, k;

	ssp_synrng_seed(&h->rng, p->seed, 100 + h->idx);
	ssp_syngem5_init(&h->g, h->log, "system.switch_cpus", p->ckpt_offset,
	    s->kpool, s->upool, 997u * h->idx + ssp_synrng_below(&h->rng, 4096));
	h->g.dialect = p->gem5_dialect;
	/* PciPioCompl objects live on gem5's heap: a handful of addresses
	 * come back again and again. */
	base = 0x55e000000000ull + (ssp_synrng_below(&h->rng, 0x400) << 28);
	for (i = 0; i < 8; i++)
		h->compl_pool[i] = base + (ssp_synrng_below(&h->rng, 1u << 24) << 4);
	h->tx_tail = h->rx_tail = (uint32_t)ssp_synrng_below(&h->rng, 512);
	if (h->nic->corundum) {	/* the driver filled the RX ring at start */
		struct nic *n = h->nic;

		n->txq_head = n->txq_fetch = n->txq_tail = h->tx_tail;
		n->rxq_head = h->rx_tail;
		n->rxq_fetch = n->rxq_tail = (h->rx_tail - CQM_RING) & 0xffff;
		h->eq_tail = n->eq_head = n->eq_next;
		h->txcq_tail = n->txcq_head = n->txcq_next;
		h->rxcq_tail = n->rxcq_head = n->rxcq_next;
	}
	ssp_synmodel_schedule(s, 0, EV_HOST_SYNC, h->idx, 0, NULL);
	/* The first syscall starts well before anything else happens, and
	 * every housekeeping kind shows up once during setup. */
	ssp_synmodel_schedule(s, s->t0 / 8 + ssp_synrng_below(&h->rng, 1000) * NS,
	    EV_HOST_TASK, h->idx, TK_OTHER, NULL);
	if (p->housekeeping > 0) {
		for (k = TK_OTHER; k < TK_NKINDS; k++) {
			ssp_synmodel_schedule(s, s->t0 / 4 + (int64_t)ssp_synrng_below(&h->rng,
			    (uint64_t)(s->t0 / 2)), EV_HOST_HOUSE, h->idx, k, NULL);
		}
	}
	return s->failed ? s->err.code : SSP_OK;
}

void
ssp_synhost_finish(struct syn *s, struct host *h)
{
	int64_t last = h->qemu != NULL ? h->qemu->last : h->g.last;
	int64_t t = s->end > last ? s->end : last;

	if (h->qemu != NULL) {	/* no instruction trace: no syscall */
		ssp_synqemu_sync(h->qemu, t);
		return;
	}
	/* A syscall still running when the simulation stops. */
	ssp_syngem5_sync(&h->g, t, t);
	ssp_syngem5_func(&h->g, t + 125, s->fn_entry->addr);
	ssp_synmodel_span(s, h->stream, SSP_SK_HOST_SYSCALL, t + 125, "", 0, 0);
	ssp_syngem5_push_imm(&h->g, t + 250, s->lbl_safe_stack->addr);
	ssp_syngem5_func(&h->g, t + 750, ssp_synmodel_fn(s, "do_syscall_64")->addr);
	ssp_syngem5_fill(&h->g, t + 1000);
}
