/* gem5 lines byte for byte against the format strings and the real
 * samples (tests/data/samples/FORMATS.md), and the Exec padding: never a
 * symbol start, monotonic, at the density asked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "synth/syngem5.h"
#include "synth/synsym.h"

static struct ssp_synsym_set *syms;
static struct ssp_syngem5_execpool *kp, *up;
static char path[64];

static int
setup(void **state)
{
	struct ssp_err e = { 0 };

	(void)state;
	snprintf(path, sizeof(path), "/tmp/ssp-test-syngem5-%d", (int)getpid());
	return ssp_synsym_new(&syms, &e) != SSP_OK ||
	    ssp_syngem5_execpool_new(&kp, syms, "system.switch_cpus", 0, 0, 7, &e) != SSP_OK ||
	    ssp_syngem5_execpool_new(&up, syms, "system.switch_cpus", 1, 0, 7, &e) != SSP_OK;
}

static int
teardown(void **state)
{
	(void)state;
	ssp_syngem5_execpool_free(kp);
	ssp_syngem5_execpool_free(up);
	ssp_synsym_free(syms);
	unlink(path);
	return 0;
}

static char *
slurp(size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b = malloc(1 << 24);

	assert_non_null(f);
	*n = fread(b, 1, (1 << 24) - 1, f);
	fclose(f);
	b[*n] = '\0';
	return b;
}

static void
test_lines_exact(void **state)
{
	struct ssp_synlog *l;
	struct ssp_syngem5 w;
	struct ssp_err e = { 0 };
	char *got;
	size_t n;
	const char *want =
	    /* FORMATS.md §2-3, real samples with our values */
	    "1869691991749: system.pc.simbricks_0: simbricks-pci: sending read addr c0080300 size 4 id 94469181196688 bar 0 offs 80300\n"
	    "1967474400999: system.pc.simbricks_0: simbricks-pci: sending write addr c0400010 size 4 id 94469376954304 bar 3 offs 10 posted 1\n"
	    "1967474400999: system.pc.simbricks_0.pio: simbricks-pci: sending immediate response for posted write\n"
	    "1967474401000: system.pc.simbricks_0: simbricks-pci: received read completion id 94469181196688\n"
	    "1967474401000: system.pc.simbricks_0: simbricks-pci: received write completion id 7\n"
	    "1967474401001: system.pc.simbricks_0: simbricks-pci: received DMA read id 94113551511792 addr 23697ad60 size 20\n"
	    "1967474401001: system.pc.simbricks_0: simbricks-pci: received DMA write id 94113551511792 addr 100 size 10\n"
	    "1967474401002: system.pc.simbricks_0: simbricks-pci: completed DMA id 0\n"
	    "1967474401002: system.pc.simbricks_0: simbricks-pci: received MSI-X intr vec 1\n"
	    /* gem5 msi_signal: the vector, then the message it writes */
	    "1967474401003: system.pc.simbricks_0: simbricks-pci: received MSI intr vec 0\n"
	    "1967474401003: system.pc.simbricks_0: simbricks-pci: MSI addr=fee00000 val=25 mask=0\n"
	    "1369143199499: system.pc.pci_host: 00:00.0: read: offset=0x3d, size=0x1\n"
	    "1369143199499: system.pc.simbricks_0: readConfig:  dev 0 func 0 reg 0x3d 1 bytes: data = 0x1\n"
	    "1369146219499: system.pc.pci_host: 00:00.0: write: offset=0x4, size=0x2\n"
	    "1369146219499: system.pc.simbricks_0: writeConfig: dev 0 func 0 reg 0x4 2 bytes: data = 0x6\n"
	    "1369146219500: system.pc.pci_host: 00:00.0: read: offset=0x0, size=0x4\n"
	    "1369146219500: system.pc.simbricks_0: readConfig:  dev 0 func 0 reg 0 4 bytes: data = 0\n"
	    "1473659826000: system.pc.pci_host.interface[00:04.0]: postInt\n"
	    "1473661882374: system.pc.pci_host.interface[00:04.0]: clearInt\n"
	    "1473661882374: global: simbricks: sending sync message for ts=500000\n"
	    "1473661882375: global: simbricks: processInEvent\n"
	    "1473661882375: External Interrupt: RIP 0xffffffff812b781c: vector 236: #INTR\n";

	(void)state;
	assert_int_equal(ssp_synlog_open(&l, path, 0, NULL, 0, &e), SSP_OK);
	ssp_syngem5_init(&w, l, "system.switch_cpus", 0, kp, up, 0);
	ssp_syngem5_mmio(&w, 1869691991749, 0, 0xc0080300, 4, 94469181196688ull, 0, 0x80300, 0);
	ssp_syngem5_mmio(&w, 1967474400999, 1, 0xc0400010, 4, 94469376954304ull, 3, 0x10, 1);
	ssp_syngem5_posted(&w, 1967474400999);
	ssp_syngem5_mmio_done(&w, 1967474401000, 0, 94469181196688ull);
	ssp_syngem5_mmio_done(&w, 1967474401000, 1, 7);
	ssp_syngem5_dma(&w, 1967474401001, 0, 94113551511792ull, 0x23697ad60, 32);
	ssp_syngem5_dma(&w, 1967474401001, 1, 94113551511792ull, 0x100, 16);
	ssp_syngem5_dma_done(&w, 1967474401002, 0);
	ssp_syngem5_msix(&w, 1967474401002, 1);
	ssp_syngem5_msi(&w, 1967474401003, 0, 37);
	ssp_syngem5_config(&w, 1369143199499, 0, 0x3d, 1, 1);
	ssp_syngem5_config(&w, 1369146219499, 1, 0x4, 2, 6);
	ssp_syngem5_config(&w, 1369146219500, 0, 0, 4, 0);
	ssp_syngem5_intx(&w, 1473659826000, 1);
	ssp_syngem5_intx(&w, 1473661882374, 0);
	ssp_syngem5_sync(&w, 1473661882374, 500000);
	ssp_syngem5_procin(&w, 1473661882375);
	ssp_syngem5_fault_intr(&w, 1473661882375, 0xffffffff812b781cull, 236);
	assert_int_equal(w.nev[SSP_EV_MMIO_RD], 1);
	assert_int_equal(w.nev[SSP_EV_CFG_RD], 2);
	assert_int_equal(w.nskip[SSP_G5_FAULT], 1);
	assert_int_equal(w.nev[SSP_EV_MSI], 1);
	assert_int_equal(w.nskip[SSP_G5_SBOTHER], 1);
	assert_int_equal(ssp_synlog_close(l, &e), SSP_OK);
	got = slurp(&n);
	assert_string_equal(got, want);
	free(got);
}

static void
starts(const char *got, const char *want)
{
	if (strncmp(got, want, strlen(want)) != 0)
		fail_msg("got  %.*s\nwant %s", (int)strlen(want), got, want);
}

static void
test_func_and_short_ticks(void **state)
{
	struct ssp_synlog *l;
	struct ssp_syngem5 w;
	struct ssp_err e = { 0 };
	const struct ssp_synsym *f = ssp_synsym_find(syms, "i40e_napi_poll");
	char *got, *nl;
	size_t n;

	(void)state;
	assert_int_equal(ssp_synlog_open(&l, path, 0, NULL, 0, &e), SSP_OK);
	ssp_syngem5_init(&w, l, "system.switch_cpus", 0, kp, up, 0);
	ssp_syngem5_constructed(&w, 0);
	ssp_syngem5_func(&w, 857006011458, f->addr);
	assert_int_equal(ssp_synlog_close(l, &e), SSP_OK);
	got = slurp(&n);
	/* %7d pads short ticks */
	starts(got, "      0: system.pc.simbricks_0: simbricks-pci: "
	    "device constructed\n");
	nl = strchr(got, '\n') + 1;
	/* macro-op line: pc, 3 spaces, " : ", disassembly padded to 26 */
	starts(nl, "857006011458: system.switch_cpus: A0 T0 : "
	    "0xffffffffa002406e    : push       rbp            \n");
	nl = strchr(nl, '\n') + 1;
	starts(nl, "857006011458: system.switch_cpus: A0 T0 : "
	    "0xffffffffa002406e. 0 :   PUSH_R : stupd   rbp, SS:[rsp + "
	    "0xfffffffffffffff8] : MemWrite :  D=0x");
	free(got);
}

/* Padding: pcs never at a symbol start, ticks in order and below the
 * next real line, about the density asked. */
static void
test_padding(void **state)
{
	struct ssp_synlog *l;
	struct ssp_syngem5 w;
	struct ssp_err e = { 0 };
	char *got, *p, *nl;
	size_t n, lines = 0;
	long long last = 0;

	(void)state;
	assert_int_equal(ssp_synlog_open(&l, path, 0, NULL, 0, &e), SSP_OK);
	ssp_syngem5_init(&w, l, "system.switch_cpus", 0, kp, up, 3);
	ssp_syngem5_density(&w, 200);	/* lines per us */
	w.user = 0;
	ssp_syngem5_procin(&w, 50000000);	/* 50 us of kernel code */
	w.user = 1;
	ssp_syngem5_procin(&w, 100000000);	/* 50 us of user code */
	assert_int_equal(ssp_synlog_close(l, &e), SSP_OK);
	got = slurp(&n);
	for (p = got; *p != '\0'; p = nl + 1) {
		long long t = strtoll(p, &nl, 10);
		char *pc;

		assert_true(t >= last);
		last = t;
		nl = strchr(p, '\n');
		assert_non_null(nl);
		lines++;
		if ((pc = strstr(p, "A0 T0 : 0x")) != NULL && pc < nl) {
			char *q;
			unsigned long long a = strtoull(pc + 10, &q, 16);

			assert_false(ssp_synsym_is_start(syms, a));
			assert_true(strncmp(q, "    : ", 6) == 0 || q[0] == '.');
		}
	}
	/* 100 us at 200 lines/us, +-10% */
	assert_true(lines > 18000 && lines < 22000);
	assert_int_equal(lines, w.nfill + 2);
	assert_true(w.nskip[SSP_G5_EXEC] > 0 && w.nskip[SSP_G5_MICROOP] > 0 &&
	    w.nskip[SSP_G5_NOPFENCE] > 0);
	free(got);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_exact),
		cmocka_unit_test(test_func_and_short_ticks),
		cmocka_unit_test(test_padding),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
