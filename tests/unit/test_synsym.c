/* simsynth's symbol tables: the embedded i40e table parsed right, the
 * vmlinux table written in objdump --syms format, starts known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "synth/synsym.h"

static void
test_lookup(void **state)
{
	struct ssp_synsym_set *s;
	struct ssp_err e = { 0 };
	const struct ssp_synsym *f;

	(void)state;
	assert_int_equal(ssp_synsym_new(&s, &e), SSP_OK);
	/* from tests/data/samples/symbols/i40e-image-syms.columbo.dump */
	f = ssp_synsym_find(s, "i40e_napi_poll");
	assert_non_null(f);
	assert_true(f->addr == 0xffffffffa002406eull);
	assert_true(f->size == 0xda7);
	assert_int_equal(f->table, SSP_SYNTAB_I40E);
	f = ssp_synsym_find(s, "i40e_lan_xmit_frame");
	assert_true(f != NULL && f->addr == 0xffffffffa0025015ull);
	f = ssp_synsym_find(s, "i40e_msix_clean_rings");	/* a local symbol */
	assert_true(f != NULL && f->addr == 0xffffffffa0001b9bull);
	f = ssp_synsym_find(s, "entry_SYSCALL_64");
	assert_non_null(f);
	assert_int_equal(f->table, SSP_SYNTAB_VMLINUX);
	assert_true((f->addr & 0xffffffff80000000ull) == 0xffffffff80000000ull);
	assert_true(ssp_synsym_is_start(s, f->addr));
	assert_false(ssp_synsym_is_start(s, f->addr + 1));
	assert_true(ssp_synsym_is_start(s, 0xffffffffa002406eull));
	/* section symbols count as starts: never use their addresses */
	assert_true(ssp_synsym_is_start(s, 0xffffffffa0000000ull));
	assert_null(ssp_synsym_find(s, "no_such_function"));
	/* an inner label: no function, but a start inside entry_SYSCALL_64 */
	assert_null(ssp_synsym_find(s, "entry_SYSCALL_64_safe_stack"));
	assert_non_null(ssp_synsym_label(s, "entry_SYSCALL_64_safe_stack"));
	assert_true(ssp_synsym_label(s, "entry_SYSCALL_64_safe_stack")->addr ==
	    f->addr + 0x19);
	assert_true(ssp_synsym_is_start(s, f->addr + 0x19));
	assert_null(ssp_synsym_label(s, "entry_SYSCALL_64"));
	/* the rules' blacklist is in the table, as noise functions */
	assert_true(ssp_synsym_nnoise(s) > 40);
	assert_non_null(ssp_synsym_find(s, "xa_load"));
	assert_non_null(ssp_synsym_find(s, "biovec_phys_mergeable.isra.0"));
	assert_non_null(ssp_synsym_find(s, "__rcu_read_unlock"));
	assert_true(ssp_synsym_nvmlinux(s) > 100);
	assert_null(ssp_synsym_vmlinux(s, ssp_synsym_nvmlinux(s)));
	ssp_synsym_free(s);
}

static void
test_tables_written(void **state)
{
	struct ssp_synsym_set *s;
	struct ssp_err e = { 0 };
	char path[64], line[256], name[128], sect[32], flags[8];
	unsigned long long addr, size;
	unsigned nf = 0, nlines = 0;
	FILE *f;

	(void)state;
	assert_int_equal(ssp_synsym_new(&s, &e), SSP_OK);
	snprintf(path, sizeof(path), "/tmp/ssp-test-synsym-%d", (int)getpid());
	assert_int_equal(ssp_synsym_write_vmlinux(s, path, &e), SSP_OK);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		nlines++;
		if (strspn(line, "0123456789abcdef") != 16)
			continue;	/* header lines */
		/* <16 hex> <7 flag chars> <section>\t<16 hex> <name> */
		assert_int_equal(line[16], ' ');
		memcpy(flags, line + 17, 7);
		flags[7] = '\0';
		assert_int_equal(sscanf(line, "%16llx", &addr), 1);
		assert_int_equal(sscanf(line + 25, "%31[^\t]\t%16llx %127s", sect,
		    &size, name), 3);
		if (flags[6] == 'F') {
			const struct ssp_synsym *y = ssp_synsym_find(s, name);

			assert_non_null(y);
			assert_true(y->addr == addr && y->size == size);
			nf++;
		}
	}
	fclose(f);
	/* _stext and entry_SYSCALL_64_safe_stack have no F */
	assert_int_equal(nf, ssp_synsym_nvmlinux(s) - 2);
	assert_true(nlines > nf);
	assert_int_equal(ssp_synsym_write_i40e(path, &e), SSP_OK);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "i40e-image:     file format elf64-x86-64\n");
	fclose(f);
	unlink(path);
	assert_int_equal(ssp_synsym_write_vmlinux(s, "/proc/version/x", &e),
	    SSP_ERR_IO);
	ssp_synsym_free(s);
}

/* --nic corundum: the mqnic module instead of i40e, the vmlinux table
 * unchanged up to the functions only mqnic's paths run, which follow. */
static void
test_mqnic(void **state)
{
	struct ssp_synsym_set *s, *i40e;
	struct ssp_err e = { 0 };
	const struct ssp_synsym *f, *g;
	char path[64], line[256], name[128];
	unsigned long long addr, size;
	unsigned nf = 0;
	size_t i;
	FILE *fp;

	(void)state;
	assert_int_equal(ssp_synsym_new_nic(&s, 1, &e), SSP_OK);
	assert_int_equal(ssp_synsym_new(&i40e, &e), SSP_OK);
	assert_null(ssp_synsym_find(s, "i40e_napi_poll"));
	f = ssp_synsym_find(s, "mqnic_start_xmit");
	assert_non_null(f);
	assert_int_equal(f->table, SSP_SYNTAB_I40E);
	assert_true(f->addr > SSP_SYN_MQNIC_OFFSET &&
	    f->addr < SSP_SYN_MQNIC_OFFSET + 0x10000);
	assert_true(ssp_synsym_is_start(s, f->addr));
	assert_non_null(ssp_synsym_find(s, "mqnic_poll_rx_cq"));
	assert_non_null(ssp_synsym_find(s, "mqnic_interrupt"));
	/* every vmlinux function of the i40e set is where it was */
	for (i = 0; i < ssp_synsym_nvmlinux(i40e); i++) {
		f = ssp_synsym_vmlinux(i40e, i);
		if (f->size == 0)
			continue;
		g = ssp_synsym_find(s, f->name);
		assert_non_null(g);
		assert_true(g->addr == f->addr);
	}
	f = ssp_synsym_find(s, "napi_gro_frags");
	assert_non_null(f);
	assert_int_equal(f->table, SSP_SYNTAB_VMLINUX);
	assert_null(ssp_synsym_find(i40e, "napi_gro_frags"));
	assert_int_equal(ssp_synsym_nnoise(s), ssp_synsym_nnoise(i40e));
	/* mqnic.syms: objdump --syms lines, section-relative, all found */
	snprintf(path, sizeof(path), "/tmp/ssp-test-mqnic-%d", (int)getpid());
	assert_int_equal(ssp_synsym_write_mqnic(path, &e), SSP_OK);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (strspn(line, "0123456789abcdef") != 16 || line[23] != 'F')
			continue;
		assert_int_equal(sscanf(line, "%16llx", &addr), 1);
		assert_int_equal(sscanf(line + 25, ".text\t%16llx %127s", &size,
		    name), 2);
		f = ssp_synsym_find(s, name);
		assert_non_null(f);
		if (strcmp(name, "mqnic_open") != 0 && strcmp(name, "mqnic_ioctl") != 0)
			assert_true(f->addr == addr + SSP_SYN_MQNIC_OFFSET &&
			    f->size == size);	/* (two static functions each) */
		nf++;
	}
	fclose(fp);
	assert_true(nf > 80);
	/* and the vmlinux table lists the extra functions */
	assert_int_equal(ssp_synsym_write_vmlinux(s, path, &e), SSP_OK);
	fp = fopen(path, "r");
	assert_non_null(fp);
	nf = 0;
	while (fgets(line, sizeof(line), fp) != NULL)
		nf += strstr(line, " napi_gro_frags\n") != NULL;
	fclose(fp);
	assert_int_equal(nf, 1);
	unlink(path);
	ssp_synsym_free(s);
	ssp_synsym_free(i40e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_tables_written),
		cmocka_unit_test(test_mqnic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
