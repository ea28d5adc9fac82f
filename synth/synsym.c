#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/syndata.h"
#include "synth/synsym.h"

/*
 * Linux 5.15 functions on the paths simsynth's hosts run (syscall entry,
 * UDP send/receive, busy polling, interrupts, ethtool, sysfs PCI config
 * access, MSI-X affinity, fsync) and a few common helpers.  Sizes are close
 * to an x86-64 defconfig build; addresses are laid out in this order.
 */
static const struct {
	const char *name;
	unsigned size;
	char bind;		/* 'g' global, 'l' local */
} vmlinux_funcs[] = {
	{ "_stext", 0, 'g' },
	{ "__rcu_read_lock", 0x1a, 'g' },
	{ "__rcu_read_unlock", 0x2f, 'g' },
	{ "_raw_spin_lock", 0x1e, 'g' },
	{ "_raw_spin_lock_irqsave", 0x2d, 'g' },
	{ "_raw_spin_unlock_irqrestore", 0x20, 'g' },
	{ "mutex_lock", 0x22, 'g' },
	{ "mutex_unlock", 0x24, 'g' },
	{ "memcpy", 0x1a, 'g' },
	{ "memset", 0x2f, 'g' },
	{ "ktime_get", 0x9e, 'g' },
	{ "kfree", 0x260, 'g' },
	{ "kmem_cache_alloc", 0x237, 'g' },
	{ "kmem_cache_alloc_node", 0x256, 'g' },
	{ "kmem_cache_free", 0x2c9, 'g' },
	{ "__kmalloc_node_track_caller", 0x2d7, 'g' },
	{ "page_frag_free", 0x41, 'g' },
	{ "__check_object_size", 0x161, 'g' },
	{ "_copy_from_user", 0x4d, 'g' },
	{ "_copy_to_iter", 0x3e6, 'g' },
	{ "__fdget", 0x13, 'g' },
	{ "__fget_light", 0x8b, 'l' },
	{ "fput", 0x19, 'g' },
	{ "security_file_permission", 0x131, 'g' },
	{ "rw_verify_area", 0x5f, 'g' },
	{ "schedule", 0x99, 'g' },
	{ "io_schedule", 0x48, 'g' },
	{ "do_syscall_64", 0x8c, 'g' },
	{ "syscall_exit_to_user_mode", 0x2a, 'g' },
	{ "exit_to_user_mode_prepare", 0x150, 'l' },
	{ "irq_enter_rcu", 0x4e, 'g' },
	{ "irq_exit_rcu", 0x72, 'g' },
	{ "common_interrupt", 0x9d, 'g' },
	{ "__common_interrupt", 0xbb, 'g' },
	{ "handle_edge_irq", 0x1c5, 'g' },
	{ "handle_fasteoi_irq", 0x18a, 'g' },
	{ "handle_irq_event", 0x6c, 'g' },
	{ "__handle_irq_event_percpu", 0x15b, 'g' },
	{ "apic_ack_edge", 0x2c, 'g' },
	{ "__napi_schedule", 0x6e, 'g' },
	{ "napi_schedule_prep", 0x46, 'g' },
	{ "__x64_sys_futex", 0x169, 'g' },
	{ "do_futex", 0x1a1, 'g' },
	{ "futex_wait", 0x19d, 'l' },
	{ "__x64_sys_epoll_wait", 0x9d, 'g' },
	{ "do_epoll_wait", 0x6c7, 'l' },
	{ "ep_poll", 0x38f, 'l' },
	{ "__x64_sys_read", 0x1a, 'g' },
	{ "ksys_read", 0xce, 'g' },
	{ "vfs_read", 0x18c, 'g' },
	{ "__x64_sys_write", 0x1a, 'g' },
	{ "ksys_write", 0xce, 'g' },
	{ "vfs_write", 0x2b1, 'g' },
	{ "__x64_sys_clock_nanosleep", 0x137, 'g' },
	{ "hrtimer_nanosleep", 0xd0, 'g' },
	{ "__x64_sys_getpid", 0x1d, 'g' },
	{ "__x64_sys_pread64", 0x8b, 'g' },
	{ "ksys_pread64", 0x86, 'g' },
	{ "__x64_sys_pwrite64", 0x8b, 'g' },
	{ "ksys_pwrite64", 0x86, 'g' },
	{ "kernfs_fop_read_iter", 0x1b8, 'l' },
	{ "kernfs_fop_write_iter", 0x1a0, 'l' },
	{ "sysfs_kf_bin_read", 0x7b, 'l' },
	{ "sysfs_kf_bin_write", 0x77, 'l' },
	{ "pci_read_config", 0x1fe, 'l' },
	{ "pci_write_config", 0x1f6, 'l' },
	{ "pci_user_read_config_word", 0x9c, 'g' },
	{ "pci_user_read_config_dword", 0x9a, 'g' },
	{ "pci_user_write_config_word", 0x98, 'g' },
	{ "pci_bus_read_config_word", 0x6d, 'g' },
	{ "pci_bus_write_config_word", 0x5b, 'g' },
	{ "raw_pci_read", 0x4f, 'g' },
	{ "raw_pci_write", 0x4f, 'g' },
	{ "pci_conf1_read", 0xde, 'l' },
	{ "pci_conf1_write", 0xd6, 'l' },
	{ "proc_reg_write", 0x7a, 'l' },
	{ "write_irq_affinity.constprop.0", 0x117, 'l' },
	{ "irq_set_affinity", 0x50, 'g' },
	{ "irq_do_set_affinity", 0x148, 'g' },
	{ "msi_domain_set_affinity", 0x96, 'g' },
	{ "pci_msi_domain_write_msg", 0x2d, 'l' },
	{ "__pci_write_msi_msg", 0x130, 'g' },
	{ "pci_msix_write_vector_ctrl", 0x33, 'l' },
	{ "pci_msi_unmask_irq", 0x3b, 'g' },
	{ "__x64_sys_fsync", 0x13, 'g' },
	{ "do_fsync", 0x3e, 'l' },
	{ "vfs_fsync_range", 0x6e, 'g' },
	{ "ext4_sync_file", 0x2b1, 'g' },
	{ "file_write_and_wait_range", 0x9c, 'g' },
	{ "__filemap_fdatawrite_range", 0xb5, 'g' },
	{ "do_writepages", 0xe6, 'g' },
	{ "ext4_writepages", 0x10c5, 'l' },
	{ "submit_bio", 0x66, 'g' },
	{ "blk_mq_submit_bio", 0x5b2, 'g' },
	{ "ata_qc_issue", 0x1ad, 'g' },
	{ "ata_sff_qc_issue", 0x1f5, 'g' },
	{ "ata_bmdma_interrupt", 0x2a3, 'g' },
	{ "ata_sff_hsm_move", 0x6b8, 'g' },
	{ "wait_on_page_writeback", 0x6c, 'g' },
	{ "__x64_sys_ioctl", 0x9b, 'g' },
	{ "sock_ioctl", 0x3a9, 'l' },
	{ "dev_ioctl", 0x4a6, 'g' },
	{ "dev_ethtool", 0x2a95, 'g' },
	{ "ethtool_get_stats", 0x1e0, 'l' },
	{ "__x64_sys_socket", 0x1a, 'g' },
	{ "__sys_socket", 0xc6, 'g' },
	{ "sock_create", 0x2a, 'g' },
	{ "__sock_create", 0x1c5, 'l' },
	{ "inet_create", 0x2e5, 'l' },
	{ "sock_alloc_file", 0x8a, 'g' },
	{ "fd_install", 0x99, 'g' },
	{ "__x64_sys_bind", 0x1e, 'g' },
	{ "__sys_bind", 0xc2, 'g' },
	{ "inet_bind", 0x4a, 'g' },
	{ "__inet_bind", 0x1f1, 'g' },
	{ "inet_csk_get_port", 0x3ea, 'g' },
	{ "__x64_sys_connect", 0x1e, 'g' },
	{ "__sys_connect", 0xca, 'g' },
	{ "inet_stream_connect", 0x44, 'g' },
	{ "__inet_stream_connect", 0x2b2, 'g' },
	{ "__x64_sys_close", 0x2e, 'g' },
	{ "close_fd", 0x50, 'g' },
	{ "task_work_run", 0x8e, 'g' },
	{ "__fput", 0x247, 'l' },
	{ "sock_close", 0x19, 'l' },
	{ "__sock_release", 0x3d, 'l' },
	{ "inet_release", 0x4d, 'g' },
	{ "release_sock", 0x7c, 'g' },
	{ "tcp_v4_init_sock", 0x2b, 'l' },
	{ "tcp_init_sock", 0x1b6, 'g' },
	{ "tcp_init_xmit_timers", 0x6b, 'g' },
	{ "tcp_v4_connect", 0x4b5, 'g' },
	{ "ipv4_dst_check", 0x2c, 'l' },
	{ "tcp_set_state", 0xe5, 'g' },
	{ "tcp_fastopen_defer_connect", 0x82, 'g' },
	{ "tcp_connect", 0x7a3, 'g' },
	{ "tcp_sync_mss", 0x4d, 'g' },
	{ "tcp_initialize_rcv_mss", 0x3c, 'g' },
	{ "tcp_transmit_skb", 0x2b, 'l' },
	{ "__tcp_transmit_skb", 0x9fe, 'l' },
	{ "tcp_v4_send_check", 0x3b, 'g' },
	{ "__tcp_v4_send_check", 0x4c, 'g' },
	{ "tcp_v4_rcv", 0xcd1, 'g' },
	{ "tcp_v4_do_rcv", 0x1ba, 'g' },
	{ "tcp_rcv_state_process", 0x10b3, 'g' },
	{ "tcp_release_cb", 0x10d, 'g' },
	{ "tcp_close", 0x6e, 'g' },
	{ "__tcp_close", 0x3be, 'g' },
	{ "tcp_disconnect", 0x4ea, 'g' },
	{ "tcp_write_queue_purge", 0x1b7, 'g' },
	{ "tcp_clear_retrans", 0x2b, 'g' },
	{ "__x64_sys_sendto", 0x24, 'g' },
	{ "__sys_sendto", 0x13f, 'g' },
	{ "__x64_sys_sendmsg", 0x1f, 'g' },
	{ "__sys_sendmsg", 0x93, 'g' },
	{ "___sys_sendmsg", 0xa9, 'l' },
	{ "____sys_sendmsg", 0x23b, 'l' },
	{ "copy_msghdr_from_user", 0x8b, 'l' },
	{ "sockfd_lookup_light", 0x6c, 'l' },
	{ "sock_sendmsg", 0x5a, 'g' },
	{ "security_socket_sendmsg", 0x37, 'g' },
	{ "inet_sendmsg", 0x3c, 'g' },
	{ "udp_sendmsg", 0xab0, 'g' },
	{ "ip_route_output_flow", 0x5a, 'g' },
	{ "ip_route_output_key_hash", 0x84, 'g' },
	{ "ip_make_skb", 0x100, 'g' },
	{ "ip_setup_cork", 0x173, 'l' },
	{ "__ip_append_data", 0xc54, 'l' },
	{ "sock_alloc_send_pskb", 0x226, 'g' },
	{ "alloc_skb_with_frags", 0x1a5, 'g' },
	{ "__alloc_skb", 0x1b1, 'g' },
	{ "skb_put", 0x3d, 'g' },
	{ "udp_send_skb", 0x2c8, 'l' },
	{ "udp4_hwcsum", 0xe2, 'g' },
	{ "ip_send_skb", 0x19, 'g' },
	{ "ip_queue_xmit", 0x14, 'g' },
	{ "__ip_queue_xmit", 0x3d9, 'g' },
	{ "ip_local_out", 0x38, 'g' },
	{ "__ip_local_out", 0xd2, 'g' },
	{ "ip_output", 0x7c, 'g' },
	{ "ip_finish_output", 0xb6, 'l' },
	{ "__ip_finish_output", 0x172, 'l' },
	{ "ip_finish_output2", 0x43a, 'l' },
	{ "neigh_resolve_output", 0x17e, 'g' },
	{ "dev_queue_xmit", 0x12, 'g' },
	{ "__dev_queue_xmit", 0x8a4, 'l' },
	{ "netdev_core_pick_tx", 0x9b, 'g' },
	{ "validate_xmit_skb", 0x2c2, 'l' },
	{ "netif_skb_features", 0x2a8, 'g' },
	{ "skb_network_protocol", 0xb4, 'g' },
	{ "dev_hard_start_xmit", 0xf5, 'g' },
	{ "netdev_start_xmit", 0x42, 'l' },
	{ "eth_type_vlan", 0x24, 'l' },
	{ "dma_map_single_attrs", 0x70, 'l' },
	{ "dma_map_page_attrs", 0x1b0, 'g' },
	{ "loopback_xmit", 0xd5, 'l' },
	{ "netif_rx", 0x20, 'g' },
	{ "netif_rx_internal", 0x10f, 'l' },
	{ "do_softirq", 0x5c, 'g' },
	{ "net_rx_action", 0x2e5, 'l' },
	{ "process_backlog", 0x173, 'l' },
	{ "__netif_receive_skb_one_core", 0x7f, 'l' },
	{ "ip_rcv", 0xbd, 'g' },
	{ "__x64_sys_recvfrom", 0x24, 'g' },
	{ "__sys_recvfrom", 0x13d, 'g' },
	{ "sock_recvmsg", 0x5c, 'g' },
	{ "security_socket_recvmsg", 0x37, 'g' },
	{ "inet_recvmsg", 0x5e, 'g' },
	{ "udp_recvmsg", 0x5f6, 'g' },
	{ "__skb_recv_udp", 0x262, 'g' },
	{ "__skb_try_recv_from_queue", 0x196, 'g' },
	{ "sk_busy_loop_end", 0x3c, 'g' },
	{ "napi_busy_loop", 0x2f9, 'g' },
	{ "busy_poll_stop", 0x105, 'l' },
	{ "eth_type_trans", 0x120, 'g' },
	{ "napi_gro_receive", 0x1a3, 'g' },
	{ "dev_gro_receive", 0x5be, 'l' },
	{ "inet_gro_receive", 0x28b, 'g' },
	{ "udp4_gro_receive", 0x2ce, 'g' },
	{ "napi_complete_done", 0x16c, 'g' },
	{ "netif_receive_skb_list_internal", 0x250, 'l' },
	{ "__netif_receive_skb_list_core", 0x281, 'l' },
	{ "ip_list_rcv", 0x117, 'g' },
	{ "ip_sublist_rcv", 0x1d9, 'l' },
	{ "ip_rcv_core", 0x366, 'l' },
	{ "ip_rcv_finish_core.constprop.0", 0x3dd, 'l' },
	{ "ip_local_deliver", 0xb2, 'g' },
	{ "ip_local_deliver_finish", 0x6d, 'l' },
	{ "ip_protocol_deliver_rcu", 0x1b9, 'g' },
	{ "udp_rcv", 0x19, 'g' },
	{ "__udp4_lib_rcv", 0xad6, 'g' },
	{ "__udp4_lib_lookup", 0x3be, 'g' },
	{ "udp_unicast_rcv_skb", 0x77, 'l' },
	{ "udp_queue_rcv_skb", 0x14a, 'l' },
	{ "udp_queue_rcv_one_skb", 0x32b, 'l' },
	{ "__udp_enqueue_schedule_skb", 0x22b, 'g' },
	{ "sock_def_readable", 0x3b, 'l' },
	{ "arp_rcv", 0x142, 'l' },
	{ "arp_process", 0x786, 'l' },
	{ "skb_copy_datagram_iter", 0x1c, 'g' },
	{ "__skb_datagram_iter", 0x2bb, 'l' },
	{ "skb_consume_udp", 0xa3, 'g' },
	{ "__consume_stateless_skb", 0x24, 'g' },
	{ "skb_release_data", 0x124, 'l' },
	{ "consume_skb", 0x3b, 'g' },
	{ "kfree_skb", 0x3b, 'g' },
};

/*
 * simsynth --kernel linux: the Linux 5.15 functions of its paths that
 * the table above lacks (interrupt entry and exit, softirq and NAPI,
 * the scheduler and the idle loop, TCP), laid out after everything else
 * so the Columbo world's tables and Exec lines stay byte-identical.
 */
#define VMLINUX_LX_TEXT ((uint64_t)0xffffffff81a00000ull)
static const struct {
	const char *name;
	unsigned size;
	char bind;
} vmlinux_lx[] = {
	{ "irqentry_enter", 0x4d, 'g' },
	{ "irqentry_exit", 0x3d, 'g' },
	{ "irqentry_exit_to_user_mode", 0x1d, 'g' },
	{ "exit_to_user_mode_loop", 0xd9, 'l' },
	{ "syscall_enter_from_user_mode", 0x3a, 'g' },
	{ "sync_regs", 0x2a, 'g' },
	{ "sysvec_reschedule_ipi", 0x6f, 'g' },
	{ "irq_chip_ack_parent", 0x1e, 'g' },
	{ "add_interrupt_randomness", 0x1bb, 'g' },
	{ "__napi_schedule_irqoff", 0x5a, 'g' },
	{ "__do_softirq", 0x2c5, 'g' },
	{ "__raise_softirq_irqoff", 0x44, 'g' },
	{ "wakeup_softirqd", 0x36, 'l' },
	{ "run_ksoftirqd", 0x32, 'l' },
	{ "smpboot_thread_fn", 0x1a0, 'l' },
	{ "__napi_poll", 0x18d, 'l' },
	{ "__napi_alloc_skb", 0x10c, 'g' },
	{ "napi_consume_skb", 0x9c, 'g' },
	{ "napi_gro_flush", 0xb4, 'g' },
	{ "ip_sublist_rcv_finish", 0x4b, 'l' },
	{ "tcp4_gro_receive", 0x177, 'g' },
	{ "tcp_gro_receive", 0x2f1, 'g' },
	{ "tcp_rcv_established", 0x6b6, 'g' },
	{ "tcp_ack", 0x1357, 'l' },
	{ "tcp_data_queue", 0xd63, 'l' },
	{ "tcp_data_ready", 0x9a, 'g' },
	{ "__tcp_ack_snd_check", 0x15d, 'l' },
	{ "tcp_send_delayed_ack", 0x112, 'g' },
	{ "sk_reset_timer", 0x3e, 'g' },
	{ "tcp_send_ack", 0x1c, 'g' },
	{ "__tcp_send_ack", 0x12a, 'g' },
	{ "__kfree_skb", 0x1d, 'g' },
	{ "tcp_recvmsg", 0x1a0, 'g' },
	{ "tcp_recvmsg_locked", 0x7c8, 'l' },
	{ "tcp_rcv_space_adjust", 0x1bd, 'g' },
	{ "tcp_cleanup_rbuf", 0x111, 'g' },
	{ "tcp_sendmsg", 0x3e, 'g' },
	{ "tcp_sendmsg_locked", 0xd3b, 'g' },
	{ "sk_stream_alloc_skb", 0x1ae, 'g' },
	{ "_copy_from_iter", 0x3c4, 'g' },
	{ "tcp_push", 0xf7, 'g' },
	{ "__tcp_push_pending_frames", 0x37, 'g' },
	{ "tcp_write_xmit", 0xd9e, 'l' },
	{ "lock_sock_nested", 0x68, 'g' },
	{ "sk_wait_data", 0x146, 'g' },
	{ "wait_woken", 0x61, 'g' },
	{ "woken_wake_function", 0x23, 'g' },
	{ "__skb_wait_for_more_packets", 0x139, 'g' },
	{ "prepare_to_wait_exclusive", 0x6c, 'g' },
	{ "finish_wait", 0x68, 'g' },
	{ "remove_wait_queue", 0x48, 'g' },
	{ "receiver_wake_function", 0x26, 'l' },
	{ "autoremove_wake_function", 0x39, 'g' },
	{ "default_wake_function", 0x1d, 'g' },
	{ "__wake_up_sync_key", 0x1e, 'g' },
	{ "__wake_up_common_lock", 0x7c, 'l' },
	{ "__wake_up_common", 0x143, 'l' },
	{ "try_to_wake_up", 0x4c9, 'l' },
	{ "wake_up_process", 0x15, 'g' },
	{ "select_task_rq_fair", 0x9ae, 'l' },
	{ "enqueue_task_fair", 0x6b3, 'l' },
	{ "check_preempt_curr", 0x5d, 'g' },
	{ "check_preempt_wakeup", 0x193, 'l' },
	{ "resched_curr", 0x63, 'g' },
	{ "native_smp_send_reschedule", 0x40, 'l' },
	{ "schedule_timeout", 0xe0, 'g' },
	{ "__schedule", 0x7d6, 'l' },
	{ "schedule_idle", 0x27, 'g' },
	{ "pick_next_task_fair", 0x3e8, 'g' },
	{ "__switch_to", 0x3e3, 'g' },
	{ "finish_task_switch.isra.0", 0x226, 'l' },
	{ "do_idle", 0x28a, 'l' },
	{ "default_idle_call", 0x38, 'g' },
	{ "arch_cpu_idle", 0x15, 'g' },
	{ "default_idle", 0x10, 'g' },
	{ "native_safe_halt", 0xe, 'g' },
	{ "do_nanosleep", 0x10e, 'l' },
	{ "sch_direct_xmit", 0x12d, 'g' },
	{ "__icmp_send", 0x4a3, 'g' },
	{ "icmp_global_allow", 0xa3, 'g' },
};

/* ... and their assembly entry points, after the entry code below. */
static const struct {
	const char *name;
	unsigned size;
} vmlinux_lx_entry[] = {
	{ "__switch_to_asm", 0x49 },
	{ "asm_sysvec_apic_timer_interrupt", 0x20 },
	{ "asm_sysvec_call_function_single", 0x20 },
	{ "asm_sysvec_reschedule_ipi", 0x20 },
};

/* Assembly entry points live in .entry.text at the top of the kernel. */
static const struct {
	const char *name;
	unsigned size;
} vmlinux_entry[] = {
	{ "entry_SYSCALL_64", 0xa5 },
	{ "syscall_return_via_sysret", 0x7b },
	{ "error_entry", 0xa9 },
	{ "error_return", 0x26 },
	{ "asm_common_interrupt", 0x20 },
	{ "swapgs_restore_regs_and_return_to_usermode", 0x92 },
};

/*
 * Labels inside the entry code (SYM_INNER_LABEL): objdump lists them
 * without a type and size; sim2ev takes such code symbols as function
 * entries, and evspan keeps the syscall span going through them.  entry_SYSCALL_64_safe_stack follows the
 * stack switch of entry_SYSCALL_64 (Linux 5.15 arch/x86/entry/entry_64.S).
 */
static const struct {
	const char *name, *in;
	unsigned off;
} vmlinux_labels[] = {
	{ "entry_SYSCALL_64_safe_stack", "entry_SYSCALL_64", 0x19 },
};

/* A few data objects, for a table that looks like objdump's. */
static const struct {
	const char *name;
	uint64_t addr;
	unsigned size;
} vmlinux_data[] = {
	{ "jiffies", 0xffffffff82a05000ull, 8 },
	{ "init_net", 0xffffffff82c32c40ull, 0x3c0 },
	{ "loopback_dev", 0xffffffff82c33040ull, 8 },
};

/*
 * The mqnic module of SimBricks' guest images (images/mqnic, a Corundum
 * driver version that speaks corundum_bm's register layout), in link
 * order (mqnic_main.o mqnic_dev.o mqnic_netdev.o mqnic_port.o
 * mqnic_ethtool.o mqnic_i2c.o mqnic_ptp.o mqnic_tx.o mqnic_rx.o
 * mqnic_cq.o mqnic_eq.o).  No real objdump of it is public: names and
 * bindings are the driver's, sizes are made up.
 */
static const struct {
	const char *name;
	unsigned size;
	char bind;
} mqnic_funcs[] = {
	{ "mqnic_get_free_id", 0x4e, 'l' },
	{ "mqnic_find_by_minor", 0x5b, 'g' },
	{ "mqnic_interrupt", 0xb6, 'l' },
	{ "mqnic_probe", 0x6f2, 'l' },
	{ "mqnic_remove", 0x1a3, 'l' },
	{ "mqnic_shutdown", 0x2e, 'l' },
	{ "mqnic_open", 0x7c, 'l' },
	{ "mqnic_release", 0x3a, 'l' },
	{ "mqnic_map_registers", 0xa1, 'l' },
	{ "mqnic_mmap", 0x9e, 'l' },
	{ "mqnic_ioctl", 0x13c, 'l' },
	{ "mqnic_start_port", 0x3d8, 'l' },
	{ "mqnic_stop_port", 0x2f5, 'l' },
	{ "mqnic_open", 0x5d, 'l' },
	{ "mqnic_close", 0x5d, 'l' },
	{ "mqnic_update_stats", 0xe4, 'g' },
	{ "mqnic_get_stats64", 0x62, 'l' },
	{ "mqnic_hwtstamp_set", 0x14a, 'l' },
	{ "mqnic_hwtstamp_get", 0x4f, 'l' },
	{ "mqnic_change_mtu", 0xc3, 'l' },
	{ "mqnic_ioctl", 0x37, 'l' },
	{ "mqnic_init_netdev", 0x6a9, 'g' },
	{ "mqnic_destroy_netdev", 0x1b2, 'g' },
	{ "mqnic_create_port", 0xe8, 'g' },
	{ "mqnic_destroy_port", 0x3c, 'g' },
	{ "mqnic_activate_port", 0x7d, 'g' },
	{ "mqnic_deactivate_port", 0x45, 'g' },
	{ "mqnic_port_get_rss_mask", 0x13, 'g' },
	{ "mqnic_port_set_rss_mask", 0x15, 'g' },
	{ "mqnic_get_drvinfo", 0x8a, 'l' },
	{ "mqnic_get_ts_info", 0x6c, 'l' },
	{ "mqnic_i2c_set_scl", 0x2a, 'g' },
	{ "mqnic_i2c_set_sda", 0x2a, 'g' },
	{ "mqnic_i2c_get_scl", 0x1c, 'g' },
	{ "mqnic_i2c_get_sda", 0x1c, 'g' },
	{ "mqnic_init_i2c", 0x25e, 'g' },
	{ "mqnic_remove_i2c", 0x5a, 'g' },
	{ "mqnic_read_cpl_ts", 0x9b, 'g' },
	{ "mqnic_phc_adjfine", 0xd2, 'l' },
	{ "mqnic_phc_gettime", 0x5e, 'l' },
	{ "mqnic_phc_gettimex", 0x8d, 'l' },
	{ "mqnic_phc_settime", 0x4b, 'l' },
	{ "mqnic_phc_adjtime", 0xe6, 'l' },
	{ "mqnic_phc_perout", 0x1f4, 'l' },
	{ "mqnic_phc_enable", 0x3e, 'l' },
	{ "mqnic_phc_set_from_system_clock", 0x37, 'g' },
	{ "mqnic_register_phc", 0x13e, 'g' },
	{ "mqnic_unregister_phc", 0x46, 'g' },
	{ "mqnic_create_tx_ring", 0x1e7, 'g' },
	{ "mqnic_destroy_tx_ring", 0x8a, 'g' },
	{ "mqnic_activate_tx_ring", 0xa2, 'g' },
	{ "mqnic_deactivate_tx_ring", 0x2c, 'g' },
	{ "mqnic_is_tx_ring_empty", 0x11, 'g' },
	{ "mqnic_is_tx_ring_full", 0x19, 'g' },
	{ "mqnic_tx_read_tail_ptr", 0x21, 'g' },
	{ "mqnic_tx_write_head_ptr", 0x17, 'g' },
	{ "mqnic_free_tx_desc", 0xf3, 'g' },
	{ "mqnic_free_tx_buf", 0x6b, 'g' },
	{ "mqnic_process_tx_cq", 0x25d, 'g' },
	{ "mqnic_tx_irq", 0x2f, 'g' },
	{ "mqnic_poll_tx_cq", 0x6a, 'g' },
	{ "mqnic_map_skb", 0x2c4, 'l' },
	{ "mqnic_start_xmit", 0x2b8, 'g' },
	{ "mqnic_create_rx_ring", 0x1e7, 'g' },
	{ "mqnic_destroy_rx_ring", 0x8a, 'g' },
	{ "mqnic_activate_rx_ring", 0xae, 'g' },
	{ "mqnic_deactivate_rx_ring", 0x2c, 'g' },
	{ "mqnic_is_rx_ring_empty", 0x11, 'g' },
	{ "mqnic_is_rx_ring_full", 0x19, 'g' },
	{ "mqnic_rx_read_tail_ptr", 0x21, 'g' },
	{ "mqnic_rx_write_head_ptr", 0x17, 'g' },
	{ "mqnic_free_rx_desc", 0x8e, 'g' },
	{ "mqnic_free_rx_buf", 0x6b, 'g' },
	{ "mqnic_prepare_rx_desc", 0x13b, 'g' },
	{ "mqnic_refill_rx_buffers", 0x8c, 'g' },
	{ "mqnic_process_rx_cq", 0x2e6, 'g' },
	{ "mqnic_rx_irq", 0x2f, 'g' },
	{ "mqnic_poll_rx_cq", 0x6a, 'g' },
	{ "mqnic_create_cq_ring", 0x17a, 'g' },
	{ "mqnic_destroy_cq_ring", 0x6e, 'g' },
	{ "mqnic_activate_cq_ring", 0x9a, 'g' },
	{ "mqnic_deactivate_cq_ring", 0x3b, 'g' },
	{ "mqnic_is_cq_ring_empty", 0x11, 'g' },
	{ "mqnic_is_cq_ring_full", 0x19, 'g' },
	{ "mqnic_cq_read_head_ptr", 0x21, 'g' },
	{ "mqnic_cq_write_tail_ptr", 0x17, 'g' },
	{ "mqnic_arm_cq", 0x1d, 'g' },
	{ "mqnic_create_eq_ring", 0x17a, 'g' },
	{ "mqnic_destroy_eq_ring", 0x6e, 'g' },
	{ "mqnic_activate_eq_ring", 0x9a, 'g' },
	{ "mqnic_deactivate_eq_ring", 0x3b, 'g' },
	{ "mqnic_is_eq_ring_empty", 0x11, 'g' },
	{ "mqnic_is_eq_ring_full", 0x19, 'g' },
	{ "mqnic_eq_read_head_ptr", 0x21, 'g' },
	{ "mqnic_eq_write_tail_ptr", 0x17, 'g' },
	{ "mqnic_arm_eq", 0x1d, 'g' },
	{ "mqnic_process_eq", 0x1b9, 'g' },
};

/*
 * The e1000 module of a Linux 5.15 guest (drivers/net/ethernet/intel/
 * e1000: e1000_main.o e1000_hw.o e1000_ethtool.o e1000_param.o, link
 * order), the functions simsynth --nic e1000's paths run and their
 * neighbours.  Names and bindings are the driver's, sizes made up (no
 * objdump of this build is public).
 */
static const struct {
	const char *name;
	unsigned size;
	char bind;
} e1000_funcs[] = {
	{ "e1000_get_hw_dev", 0x15, 'g' },
	{ "e1000_init_module", 0x4a, 'l' },
	{ "e1000_request_irq", 0x6f, 'l' },
	{ "e1000_irq_disable", 0x3e, 'l' },
	{ "e1000_irq_enable", 0x2d, 'l' },
	{ "e1000_update_mng_vlan", 0xbd, 'l' },
	{ "e1000_configure", 0x3ae, 'l' },
	{ "e1000_up", 0x8c, 'g' },
	{ "e1000_down", 0x1b2, 'g' },
	{ "e1000_reset", 0x2e4, 'g' },
	{ "e1000_probe", 0xb5c, 'l' },
	{ "e1000_remove", 0x10a, 'l' },
	{ "e1000_open", 0x1a1, 'g' },
	{ "e1000_close", 0xe8, 'g' },
	{ "e1000_setup_all_tx_resources", 0x9a, 'g' },
	{ "e1000_setup_all_rx_resources", 0x9a, 'g' },
	{ "e1000_configure_tx", 0x1c8, 'l' },
	{ "e1000_configure_rx", 0x1e6, 'l' },
	{ "e1000_free_all_tx_resources", 0x4b, 'g' },
	{ "e1000_free_all_rx_resources", 0x4b, 'g' },
	{ "e1000_set_rx_mode", 0x2f3, 'l' },
	{ "e1000_watchdog", 0x4d8, 'l' },
	{ "e1000_update_itr", 0x62, 'l' },
	{ "e1000_set_itr", 0xc4, 'l' },
	{ "e1000_tso", 0x1f0, 'l' },
	{ "e1000_tx_csum", 0x14e, 'l' },
	{ "e1000_tx_map", 0x3fa, 'l' },
	{ "e1000_tx_queue", 0x1b8, 'l' },
	{ "e1000_maybe_stop_tx", 0x9e, 'l' },
	{ "e1000_xmit_frame", 0x6d4, 'l' },
	{ "e1000_tx_timeout", 0x1c, 'l' },
	{ "e1000_get_stats", 0x11, 'l' },
	{ "e1000_change_mtu", 0x162, 'l' },
	{ "e1000_update_stats", 0x8a0, 'g' },
	{ "e1000_intr", 0x10e, 'l' },
	{ "e1000_clean", 0x14c, 'l' },
	{ "e1000_clean_tx_irq", 0x35a, 'l' },
	{ "e1000_rx_checksum", 0x8c, 'l' },
	{ "e1000_receive_skb", 0x4a, 'l' },
	{ "e1000_alloc_rx_data", 0x5d, 'l' },
	{ "e1000_copybreak", 0xb1, 'l' },
	{ "e1000_clean_jumbo_rx_irq", 0x6b2, 'l' },
	{ "e1000_clean_rx_irq", 0x4f6, 'l' },
	{ "e1000_alloc_jumbo_rx_buffers", 0x2ae, 'l' },
	{ "e1000_alloc_rx_buffers", 0x2f8, 'l' },
	{ "e1000_smartspeed", 0x18e, 'l' },
	{ "e1000_ioctl", 0x41, 'l' },
	{ "e1000_read_phy_reg", 0xb3, 'g' },
	{ "e1000_write_phy_reg", 0xb3, 'g' },
	{ "e1000_get_ethtool_stats", 0x12e, 'l' },
	{ "e1000_get_sset_count", 0x2c, 'l' },
	{ "e1000_get_strings", 0x8e, 'l' },
	{ "e1000_check_options", 0x64c, 'g' },
};

/* Linux functions only the mqnic paths run (page-fragment receive, NAPI
 * from hard interrupts); with --nic corundum they follow every other
 * vmlinux function, so the i40e tables stay as they are. */
static const struct {
	const char *name;
	unsigned size;
} vmlinux_mqnic[] = {
	{ "napi_get_frags", 0x4b },
	{ "napi_gro_frags", 0x1f6 },
	{ "__napi_schedule_irqoff", 0x3c },
	{ "napi_consume_skb", 0x89 },
	{ "dma_unmap_page_attrs", 0x6c },
	{ "__alloc_pages", 0x27b },
	{ "dev_get_stats", 0x10e },
	{ "seq_read_iter", 0x43a },
	{ "dev_seq_show", 0x2e },
	{ "pci_bus_write_config_dword", 0x5b },
};

#define VMLINUX_TEXT  ((uint64_t)0xffffffff81000000ull)
#define VMLINUX_ENTRY ((uint64_t)0xffffffff81c00000ull)

struct ssp_synsym_set {
	struct ssp_synsym *sym;
	size_t n, nvm;		/* vmlinux functions are sym[0..nvm) */
	size_t nvf, nbl;	/* of which the table above, then blacklisted */
	size_t nx;		/* then vmlinux_mqnic (--nic corundum) */
	size_t lx0, lx1;	/* --kernel linux text functions: sym[lx0..lx1) */
	char *rules;		/* writable copy of the embedded rules (names) */
	char *i40e;		/* writable copy of the module's dump (names) */
	const char *modname;	/* "i40e" or "mqnic", for messages */
	uint64_t *starts;	/* sorted, every symbol of both tables */
	size_t nstarts;
	const struct ssp_synsym **byname;	/* sorted by name, then table */
};

static int
cmp_name(const void *a, const void *b)
{
	const struct ssp_synsym *x = *(const struct ssp_synsym *const *)a;
	const struct ssp_synsym *y = *(const struct ssp_synsym *const *)b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : x->table < y->table ? -1 : x->table > y->table ?
	    1 : x < y ? -1 : x > y;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Parse "<16 hex> <7 flags> <section>\t<16 hex size> <name>" lines. */
static int
load_i40e(struct ssp_synsym_set *s, struct ssp_err *e)
{
	char *p = s->i40e, *nl, *tab, *name, *end;
	uint64_t addr, size;

	for (; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		*nl = '\0';
		tab = strchr(p, '\t');
		if (strlen(p) < 26 || tab == NULL || p[16] != ' ')
			continue;	/* header and blank lines */
		addr = strtoull(p, &end, 16);
		if (end != p + 16)
			return ssp_err_set(e, SSP_ERR_FORMAT, 0, "embedded %s "
			    "table: bad address in '%.40s'", s->modname, p);
		s->starts[s->nstarts++] = addr + SSP_SYN_I40E_OFFSET;
		if (p[23] != 'F' || strncmp(tab - 5, ".text", 5) != 0)
			continue;
		size = strtoull(tab + 1, &name, 16);
		if (*name != ' ')
			return ssp_err_set(e, SSP_ERR_FORMAT, 0, "embedded %s "
			    "table: bad size in '%.40s'", s->modname, p);
		s->sym[s->n++] = (struct ssp_synsym){ name + 1,
		    addr + SSP_SYN_I40E_OFFSET, size, SSP_SYNTAB_I40E };
	}
	return SSP_OK;
}

/* A made-up but stable size for a function of the rules' blacklist. */
static uint64_t
noise_size(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return 0x18 + h % 0x1e0;
}

/*
 * The blacklist of the rules (Columbo's noise functions: xa_load,
 * __put_page, ...) that the table above lacks, after it: real guests run
 * them inside every kind of syscall.
 */
static void
add_blacklisted(struct ssp_synsym_set *s, uint64_t *addr)
{
	char *p, *nl;
	size_t i;

	for (p = s->rules; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		*nl = '\0';
		if (strncmp(p, "blacklist,", 10) != 0)
			continue;
		p += 10;
		for (i = 0; i < s->n; i++)
			if (strcmp(s->sym[i].name, p) == 0)
				break;
		if (i < s->n)
			continue;
		s->sym[s->n++] = (struct ssp_synsym){ p, *addr, noise_size(p),
		    SSP_SYNTAB_VMLINUX };
		s->starts[s->nstarts++] = *addr;
		*addr += (noise_size(p) + 0x1f) & ~0xfull;
		s->nbl++;
	}
}

/* A made-up module table (mqnic, e1000) in objdump --syms form,
 * section-relative addresses (malloc'd; NULL if out of memory). */
static char *
mod_dump(int mod)
{
	size_t n = mod == SSP_SYNMOD_E1000 ? sizeof(e1000_funcs) /
	    sizeof(e1000_funcs[0]) : sizeof(mqnic_funcs) / sizeof(mqnic_funcs[0]);
	size_t i, len = 0;
	uint64_t addr = 0;
	char *buf, *p;
	char head[160];

	snprintf(head, sizeof(head), "\n%s.ko:     file format elf64-x86-64\n"
	    "\nSYMBOL TABLE:\n"
	    "0000000000000000 l    d  .text\t0000000000000000 .text\n",
	    mod == SSP_SYNMOD_E1000 ? "e1000" : "mqnic");
	for (i = 0; i < n; i++)
		len += 64 + strlen(mod == SSP_SYNMOD_E1000 ? e1000_funcs[i].name :
		    mqnic_funcs[i].name);
	if ((buf = malloc(strlen(head) + len + 2)) == NULL)
		return NULL;
	p = buf + sprintf(buf, "%s", head);
	for (i = 0; i < n; i++) {
		const char *name = mod == SSP_SYNMOD_E1000 ? e1000_funcs[i].name :
		    mqnic_funcs[i].name;
		unsigned size = mod == SSP_SYNMOD_E1000 ? e1000_funcs[i].size :
		    mqnic_funcs[i].size;

		p += sprintf(p, "%016" PRIx64 " %c     F .text\t%016x %s\n", addr,
		    mod == SSP_SYNMOD_E1000 ? e1000_funcs[i].bind :
		    mqnic_funcs[i].bind, size, name);
		addr += (size + 0x1f) & ~0xfull;
	}
	strcpy(p, "\n");
	return buf;
}

int
ssp_synsym_new(struct ssp_synsym_set **sp, struct ssp_err *e)
{
	return ssp_synsym_new_ex(sp, 0, 0, e);
}

int
ssp_synsym_new_nic(struct ssp_synsym_set **sp, int mqnic, struct ssp_err *e)
{
	return ssp_synsym_new_ex(sp, mqnic, 0, e);
}

int
ssp_synsym_new_ex(struct ssp_synsym_set **sp, int mqnic, int linux_paths,
    struct ssp_err *e)
{
	struct ssp_synsym_set *s;
	size_t nvf = sizeof(vmlinux_funcs) / sizeof(vmlinux_funcs[0]);
	size_t nve = sizeof(vmlinux_entry) / sizeof(vmlinux_entry[0]);
	size_t nvl = sizeof(vmlinux_labels) / sizeof(vmlinux_labels[0]);
	size_t nx = mqnic ? sizeof(vmlinux_mqnic) / sizeof(vmlinux_mqnic[0]) : 0;
	size_t nlines = nx, i, k;
	size_t nlx = sizeof(vmlinux_lx) / sizeof(vmlinux_lx[0]) +
	    sizeof(vmlinux_lx_entry) / sizeof(vmlinux_lx_entry[0]);
	uint64_t addr = VMLINUX_TEXT, entry_end;
	const char *c;
	int r;

	*sp = NULL;
	s = calloc(1, sizeof(*s));
	if (s != NULL) {
		s->modname = mqnic == SSP_SYNMOD_E1000 ? "e1000" : mqnic ?
		    "mqnic" : "i40e";
		s->i40e = mqnic ? mod_dump(mqnic) : strdup(ssp_syndata_i40e);
	}
	if (s != NULL && s->i40e != NULL)
		for (c = s->i40e; *c != '\0'; c++)
			nlines += *c == '\n';
	for (c = ssp_syndata_rules; *c != '\0'; c++)
		nlines += *c == '\n';
	if (s == NULL || s->i40e == NULL ||
	    (s->rules = strdup(ssp_syndata_rules)) == NULL ||
	    (s->sym = calloc(nvf + nve + nvl + nlx + nlines, sizeof(*s->sym))) == NULL ||
	    (s->starts = calloc(nvf + nve + nvl + nlx + nlines + 8, sizeof(*s->starts))) == NULL) {
		ssp_synsym_free(s);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	for (i = 0; i < nvf; i++) {
		s->sym[s->n++] = (struct ssp_synsym){ vmlinux_funcs[i].name, addr,
		    vmlinux_funcs[i].size, SSP_SYNTAB_VMLINUX };
		s->starts[s->nstarts++] = addr;
		/* functions are 16-byte aligned, with padding between */
		addr += (vmlinux_funcs[i].size + 0x1f) & ~0xfull;
	}
	s->nvf = s->n;
	add_blacklisted(s, &addr);
	for (i = 0; i < nx; i++) {
		s->sym[s->n++] = (struct ssp_synsym){ vmlinux_mqnic[i].name, addr,
		    vmlinux_mqnic[i].size, SSP_SYNTAB_VMLINUX };
		s->starts[s->nstarts++] = addr;
		addr += (vmlinux_mqnic[i].size + 0x1f) & ~0xfull;
	}
	s->nx = nx;
	addr = VMLINUX_ENTRY;
	for (i = 0; i < nve; i++) {
		s->sym[s->n++] = (struct ssp_synsym){ vmlinux_entry[i].name, addr,
		    vmlinux_entry[i].size, SSP_SYNTAB_VMLINUX };
		s->starts[s->nstarts++] = addr;
		addr += (vmlinux_entry[i].size + 0x3f) & ~0x3full;
	}
	entry_end = addr;
	/* labels: size 0 (not functions), after the entry code */
	for (i = 0; i < nvl; i++)
		for (k = s->n - nve; k < s->n; k++)
			if (strcmp(s->sym[k].name, vmlinux_labels[i].in) == 0) {
				uint64_t a = s->sym[k].addr + vmlinux_labels[i].off;

				s->sym[s->n++] = (struct ssp_synsym){
				    vmlinux_labels[i].name, a, 0, SSP_SYNTAB_VMLINUX };
				s->starts[s->nstarts++] = a;
				break;
			}
	s->lx0 = s->lx1 = s->n;
	if (linux_paths) {
		uint64_t ea = entry_end;

		for (i = 0; i < sizeof(vmlinux_lx_entry) / sizeof(vmlinux_lx_entry[0]); i++) {
			s->sym[s->n++] = (struct ssp_synsym){ vmlinux_lx_entry[i].name,
			    ea, vmlinux_lx_entry[i].size, SSP_SYNTAB_VMLINUX };
			s->starts[s->nstarts++] = ea;
			ea += (vmlinux_lx_entry[i].size + 0x3f) & ~0x3full;
		}
		s->lx0 = s->n;
		addr = VMLINUX_LX_TEXT;
		for (i = 0; i < sizeof(vmlinux_lx) / sizeof(vmlinux_lx[0]); i++) {
			s->sym[s->n++] = (struct ssp_synsym){ vmlinux_lx[i].name,
			    addr, vmlinux_lx[i].size, SSP_SYNTAB_VMLINUX };
			s->starts[s->nstarts++] = addr;
			addr += (vmlinux_lx[i].size + 0x1f) & ~0xfull;
		}
		s->lx1 = s->n;
	}
	for (i = 0; i < sizeof(vmlinux_data) / sizeof(vmlinux_data[0]); i++)
		s->starts[s->nstarts++] = vmlinux_data[i].addr;
	s->nvm = s->n;
	if ((r = load_i40e(s, e)) != SSP_OK) {
		ssp_synsym_free(s);
		return r;
	}
	qsort(s->starts, s->nstarts, sizeof(*s->starts), cmp_u64);
	if ((s->byname = calloc(s->n, sizeof(*s->byname))) == NULL) {
		ssp_synsym_free(s);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	for (i = 0; i < s->n; i++)
		s->byname[i] = &s->sym[i];
	qsort(s->byname, s->n, sizeof(*s->byname), cmp_name);
	*sp = s;
	return SSP_OK;
}

void
ssp_synsym_free(struct ssp_synsym_set *s)
{
	if (s == NULL)
		return;
	free(s->sym);
	free(s->byname);
	free(s->starts);
	free(s->i40e);
	free(s->rules);
	free(s);
}

const struct ssp_synsym *
ssp_synsym_find(const struct ssp_synsym_set *s, const char *name)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {	/* the first symbol with this name */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->byname[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->n && strcmp(s->byname[lo]->name, name) == 0; lo++)
		if (s->byname[lo]->size > 0)	/* vmlinux first, then i40e */
			return s->byname[lo];
	return NULL;
}

size_t
ssp_synsym_nnoise(const struct ssp_synsym_set *s)
{
	return s->nbl;
}

const struct ssp_synsym *
ssp_synsym_noise(const struct ssp_synsym_set *s, size_t i)
{
	return i < s->nbl ? &s->sym[s->nvf + i] : NULL;
}

const struct ssp_synsym *
ssp_synsym_label(const struct ssp_synsym_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nvm; i++)
		if (s->sym[i].size == 0 && strcmp(s->sym[i].name, name) == 0)
			return &s->sym[i];
	return NULL;
}

int
ssp_synsym_is_start(const struct ssp_synsym_set *s, uint64_t addr)
{
	return bsearch(&addr, s->starts, s->nstarts, sizeof(*s->starts),
	    cmp_u64) != NULL;
}

size_t
ssp_synsym_nvmlinux(const struct ssp_synsym_set *s)
{
	return s->nvm;
}

const struct ssp_synsym *
ssp_synsym_vmlinux(const struct ssp_synsym_set *s, size_t i)
{
	return i < s->nvm ? &s->sym[i] : NULL;
}

int
ssp_synsym_write_vmlinux(const struct ssp_synsym_set *s, const char *path,
    struct ssp_err *e)
{
	FILE *f = fopen(path, "w");
	size_t i;
	int bad;

	if (f == NULL)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path,
		    strerror(errno));
	fprintf(f, "\nvmlinux:     file format elf64-x86-64\n\nSYMBOL TABLE:\n");
	fprintf(f, "%016" PRIx64 " l    d  .text\t0000000000000000 .text\n",
	    VMLINUX_TEXT);
	fprintf(f, "%016" PRIx64 " l    d  .entry.text\t0000000000000000 "
	    ".entry.text\n", VMLINUX_ENTRY);
	for (i = 0; i < sizeof(vmlinux_funcs) / sizeof(vmlinux_funcs[0]); i++) {
		const struct ssp_synsym *y = &s->sym[i];

		if (y->size == 0)
			fprintf(f, "%016" PRIx64 " g       .text\t%016" PRIx64
			    " %s\n", y->addr, y->size, y->name);
		else
			fprintf(f, "%016" PRIx64 " %c     F .text\t%016" PRIx64
			    " %s\n", y->addr, vmlinux_funcs[i].bind, y->size,
			    y->name);
	}
	for (; i < s->nvf + s->nbl + s->nx; i++)	/* ".isra.0" copies are local */
		fprintf(f, "%016" PRIx64 " %c     F .text\t%016" PRIx64 " %s\n",
		    s->sym[i].addr, strchr(s->sym[i].name, '.') != NULL ? 'l' : 'g',
		    s->sym[i].size, s->sym[i].name);
	for (; i < s->lx0; i++)
		fprintf(f, "%016" PRIx64 " g     %c .entry.text\t%016" PRIx64
		    " %s\n", s->sym[i].addr, s->sym[i].size > 0 ? 'F' : ' ',
		    s->sym[i].size, s->sym[i].name);
	for (; i < s->lx1; i++)
		fprintf(f, "%016" PRIx64 " %c     F .text\t%016" PRIx64 " %s\n",
		    s->sym[i].addr, vmlinux_lx[i - s->lx0].bind, s->sym[i].size,
		    s->sym[i].name);
	for (i = 0; i < sizeof(vmlinux_data) / sizeof(vmlinux_data[0]); i++)
		fprintf(f, "%016" PRIx64 " g     O .data\t%016x %s\n",
		    vmlinux_data[i].addr, vmlinux_data[i].size,
		    vmlinux_data[i].name);
	fprintf(f, "\n");
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: write failed", path);
	return SSP_OK;
}

int
ssp_synsym_write_i40e(const char *path, struct ssp_err *e)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (f == NULL)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path,
		    strerror(errno));
	fputs(ssp_syndata_i40e, f);
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: write failed", path);
	return SSP_OK;
}

int
ssp_synsym_write_mod(const char *path, int mod, struct ssp_err *e)
{
	char *text = mod_dump(mod);
	FILE *f;
	int bad;

	if (text == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((f = fopen(path, "w")) == NULL) {
		free(text);
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path,
		    strerror(errno));
	}
	fputs(text, f);
	free(text);
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: write failed", path);
	return SSP_OK;
}

int
ssp_synsym_write_mqnic(const char *path, struct ssp_err *e)
{
	return ssp_synsym_write_mod(path, SSP_SYNMOD_MQNIC, e);
}
