/* Rules reader: function classes, device BARs, policies, limits, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config/rules.h"

static struct ssp_rules *
parse(const char *in)
{
	struct ssp_rules *r;
	struct ssp_err e;

	if (ssp_rules_parse(&r, "r.csv", in, strlen(in), &e) != SSP_OK)
		fail_msg("%s", e.msg);
	return r;
}

static void
test_classes(void **state)
{
	struct ssp_rules *r;
	char big[200000];
	size_t n = 0;
	int i;

	(void)state;
	r = parse("class,function\n"
	    "syscall-entry,entry_SYSCALL_64\n"
	    "kernel-tx,dev_queue_xmit\n"
	    "linux-net,dev_queue_xmit\n"		/* in two classes */
	    "driver-rx,i40e_napi_poll\n"
	    "kernel-rx,netif_receive_skb_list_internal\n"
	    "driver-tx,i40e_lan_xmit_frame\n"
	    "pci-write,__pci_write_msi_msg\n"
	    "driver-net,i40e_features_check\n"
	    "blacklist,biovec_phys_mergeable.isra.0\n"
	    "blacklist,biovec_phys_mergeable.isra.0\n");	/* twice: once */
	assert_int_equal(ssp_rules_fclass(r, "entry_SYSCALL_64", 16),
	    SSP_FC_SYSCALL_ENTRY);
	assert_int_equal(ssp_rules_fclass(r, "dev_queue_xmit", 14),
	    SSP_FC_KERNEL_TX | SSP_FC_LINUX_NET);
	assert_int_equal(ssp_rules_fclass(r, "dev_queue_xmi", 13), 0);
	assert_int_equal(ssp_rules_fclass(r, "biovec_phys_mergeable.isra.0", 28),
	    SSP_FC_BLACKLIST);
	assert_int_equal(ssp_rules_count(r, SSP_FC_BLACKLIST), 1);
	assert_int_equal(ssp_rules_count(r, SSP_FC_KERNEL_TX), 1);
	assert_int_equal(ssp_rules_count(r, SSP_FC_DRIVER_NET), 1);
	assert_string_equal(ssp_rules_fclass_name(SSP_FC_PCI_WRITE), "pci-write");
	assert_null(ssp_rules_fclass_name(3));
	/* defaults */
	assert_int_equal(ssp_rules_root(r), SSP_ROOT_ALL_SYSCALLS);
	assert_int_equal(ssp_rules_background(r), SSP_BG_ADAPTER);
	assert_true(ssp_rules_packet_idle(r) == 10000000000LL);
	assert_int_equal(ssp_rules_context_limit(r), 65536);
	assert_int_equal(ssp_rules_device_bars(r, "nic0"), 1);
	ssp_rules_free(r);
	/* many functions: the hash keeps them all */
	for (i = 0; i < 5000; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "blacklist,f%d\n", i);
	r = parse(big);
	for (i = 0; i < 5000; i += 7) {
		char name[16];

		snprintf(name, sizeof(name), "f%d", i);
		assert_int_equal(ssp_rules_fclass(r, name, strlen(name)),
		    SSP_FC_BLACKLIST);
	}
	assert_int_equal(ssp_rules_count(r, SSP_FC_BLACKLIST), 5000);
	ssp_rules_free(r);
}

static void
test_settings(void **state)
{
	struct ssp_rules *r;
	struct ssp_topo *t;
	struct ssp_err e;
	static const char topo[] = "stream,h,host\nstream,n0,nic\nstream,n1,nic\n";

	(void)state;
	r = parse("root,net-syscalls\nbackground,all\npacket-idle,5ms\n"
	    "context-limit,100\ndevice-bar,*,2\ndevice-bar,n1,0\ndevice-bar,n1,4\n");
	assert_int_equal(ssp_rules_root(r), SSP_ROOT_NET_SYSCALLS);
	assert_int_equal(ssp_rules_background(r), SSP_BG_ALL);
	assert_true(ssp_rules_packet_idle(r) == 5000000000LL);
	assert_int_equal(ssp_rules_context_limit(r), 100);
	assert_int_equal(ssp_rules_device_bars(r, "n0"), 1u << 2);
	assert_int_equal(ssp_rules_device_bars(r, "n1"), 1u | 1u << 4);
	assert_int_equal(ssp_topo_parse(&t, "t.csv", NULL, topo, sizeof(topo) - 1,
	    &e), SSP_OK);
	assert_int_equal(ssp_rules_check(r, t, &e), SSP_OK);
	ssp_rules_free(r);
	r = parse("device-bar,n9,0\n");
	assert_int_equal(ssp_rules_check(r, t, &e), SSP_ERR_INVAL);
	assert_string_equal(e.msg, "r.csv:1:12: no stream named 'n9' in t.csv");
	ssp_rules_free(r);
	r = parse("\n# comment\ndevice-bar,h,0\n");
	assert_int_equal(ssp_rules_check(r, t, &e), SSP_ERR_INVAL);
	assert_string_equal(e.msg, "r.csv:3:12: stream 'h' is a host stream, "
	    "expected a nic stream");
	ssp_rules_free(r);
	ssp_topo_free(t);
	assert_int_equal(ssp_rules_new(&r, &e), SSP_OK);
	assert_int_equal(ssp_rules_count(r, SSP_FC_SYSCALL_ENTRY), 0);
	assert_int_equal(ssp_rules_device_bars(r, "x"), 1);
	ssp_rules_free(r);
}

static void
expect(const char *in, const char *msg)
{
	struct ssp_rules *r = NULL;
	struct ssp_err e;

	assert_int_equal(ssp_rules_parse(&r, "r.csv", in, strlen(in), &e),
	    SSP_ERR_INVAL);
	assert_null(r);
	if (strstr(e.msg, msg) == NULL)
		fail_msg("got '%s', want '%s'", e.msg, msg);
}

static void
test_errors(void **state)
{
	(void)state;
	expect("syscall-entri,x\n", "r.csv:1:1: unknown class 'syscall-entri'");
	expect("class,function\nkernel-tx\n", "r.csv:2:10: missing function name");
	expect("kernel-tx,a,b\n", "r.csv:1:13: unexpected field 'b'");
	expect("device-bar,n0,6\n", "r.csv:1:15: bad BAR '6'");
	expect("device-bar,n0,01\n", "bad BAR '01'");
	expect("device-bar,n0\n", "missing BAR number");
	expect("device-bar,a b,0\n", "r.csv:1:12: bad nic name 'a b'");
	expect("root,some\n", "r.csv:1:6: unknown root policy 'some'");
	expect("root,all-syscalls\nroot,net-syscalls\n",
	    "r.csv:2:1: 'root' is already set at line 1");
	expect("background,none\n", "unknown background policy 'none'");
	expect("packet-idle,0\n", "bad time '0'");
	expect("packet-idle,5 parsecs\n", "bad time");
	expect("context-limit,0\n", "bad context limit '0' (too small");
	expect("context-limit,99999999999\n", "too large");
	expect("class,function\nclass,function\n", "r.csv:2:1: unknown class 'class'");
}

/* The kernel context classes (SPEC §3b) and when they turn the model on. */
static void
test_kctx_classes(void **state)
{
	static const char *const names[] = { "syscall-exit", "irq-entry",
	    "irq-exit", "softirq-entry", "sleep", "sched-in", "wakeup", "idle",
	    "app-root" };
	struct ssp_rules *r;
	unsigned i;

	(void)state;
	r = parse("syscall-entry,entry_SYSCALL_64\n"
	    "sleep,schedule_timeout\nwakeup,try_to_wake_up\n"
	    "sched-in,finish_task_switch\nsched-in,finish_task_switch.isra.0\n"
	    "idle,do_idle\napp-root,client_loop\nsoftirq-entry,__do_softirq\n"
	    "irq-exit,irqentry_exit\n");
	assert_false(ssp_rules_kctx(r));	/* no irq-entry, no syscall-exit */
	assert_int_equal(ssp_rules_fclass(r, "finish_task_switch.isra.0", 25),
	    SSP_FC_SCHED_IN);
	assert_int_equal(ssp_rules_count(r, SSP_FC_SCHED_IN), 2);
	assert_int_equal(ssp_rules_fclass(r, "client_loop", 11), SSP_FC_APP_ROOT);
	ssp_rules_free(r);
	r = parse("irq-entry,asm_common_interrupt\n");
	assert_true(ssp_rules_kctx(r));
	assert_int_equal(ssp_rules_fclass(r, "asm_common_interrupt", 20),
	    SSP_FC_IRQ_ENTRY);
	ssp_rules_free(r);
	r = parse("syscall-exit,syscall_exit_to_user_mode\n");
	assert_true(ssp_rules_kctx(r));
	ssp_rules_free(r);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_string_equal(ssp_rules_fclass_name(SSP_FC_SYSCALL_EXIT << i),
		    names[i]);
	assert_int_equal(SSP_FC_APP_ROOT, SSP_FC_SYSCALL_EXIT << 8);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_kctx_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
