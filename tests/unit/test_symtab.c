/* Symbol tables: objdump -t and nm formats, offsets, preference among
 * symbols at one address, lookups against a brute-force reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "parse_helpers.h"

static struct ssp_atoms *atoms;
static struct ssp_symtab *st;

static int
setup(void **state)
{
	(void)state;
	assert_int_equal(ssp_atoms_new(&atoms, NULL), SSP_OK);
	assert_int_equal(ssp_symtab_new(&st, atoms, NULL), SSP_OK);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	ssp_symtab_free(st);
	ssp_atoms_free(atoms);
	return 0;
}

static int
load(const char *text, const char *name, uint64_t off, size_t *n,
    enum ssp_symfmt *fmt, struct ssp_err *e)
{
	struct ssp_in *in = ph_in(text);
	int r = ssp_symtab_load(st, in, name, off, n, fmt, e);

	ssp_in_close(in);
	return r;
}

static const char *
name_at(uint64_t pc)
{
	const struct ssp_sym *s = ssp_symtab_at(st, pc);

	return s != NULL ? ssp_atoms_str(atoms, s->name, NULL) : NULL;
}

static void
test_objdump_sample(void **state)
{
	FILE *f = fopen("tests/data/samples/symbols/i40e-homa.dump", "r");
	char *text;
	long len;
	size_t n;
	enum ssp_symfmt fmt;
	const struct ssp_sym *s;

	(void)state;
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	assert_int_equal(load(text, "i40e", 0xffffffffa0000000ULL, &n, &fmt, NULL), SSP_OK);
	free(text);
	assert_int_equal(fmt, SSP_SYMFMT_OBJDUMP);
	assert_int_equal(n, 683);	/* grep -c ' F ' */
	assert_int_equal(ssp_symtab_finish(st, NULL), SSP_OK);
	/* "0000000000000009 l     F .text	0000000000000009 test_and_clear_bit" */
	assert_string_equal(name_at(0xffffffffa0000009ULL), "test_and_clear_bit");
	/* address 0: test_and_set_bit in .text beats .init.text/.exit.text */
	assert_string_equal(name_at(0xffffffffa0000000ULL), "test_and_set_bit");
	assert_null(name_at(0x9));
	assert_null(name_at(0xffffffffa000000aULL));
	s = ssp_symtab_at(st, 0xffffffffa0000009ULL);
	assert_int_equal(s->table, 0);
	assert_string_equal(ssp_atoms_str(atoms, ssp_symtab_table_name(st, 0), NULL), "i40e");
	assert_int_equal(ssp_symtab_ntables(st), 1);
}

static void
test_formats(void **state)
{
	size_t n;
	enum ssp_symfmt fmt;
	struct ssp_err e;

	(void)state;
	assert_int_equal(load(
	    "\nvmlinux.o:\n"
	    "                 U printk\n"
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000100 t local_fn\n"
	    "ffffffff81000200 W weak_fn\n"
	    "ffffffff81000300 D some_data\n"
	    "ffffffff81000400 0000000000000020 T sized_fn\n"
	    "ffffffff81000500 T with_line\t/src/a.c:12\n"
	    "ffffffff81000100 T local_fn_global_alias\n",
	    "nm", 0, &n, &fmt, &e), SSP_OK);
	assert_int_equal(fmt, SSP_SYMFMT_NM);
	assert_int_equal(n, 6);
	assert_int_equal(load(
	    "a.out:     file format elf64-x86-64\n\nSYMBOL TABLE:\n"
	    "0000000000401000 g     F .text\t0000000000000010              .hidden hid_fn\n"
	    "0000000000401010  w   DF .text\t0000000000000010  GLIBC_2.2.5 dyn_like\n"
	    "0000000000401020 l    df *ABS*\t0000000000000000 a.c\n"
	    "0000000000000000       F *UND*\t0000000000000000 undefined_fn\n"
	    "ffffffff80fff000 g     F .text\t0000000000000010 _stext_objdump\n"
	    /* untyped code symbols: an assembly entry point and its label */
	    "ffffffff81c00000 g       .entry.text\t00000000000000a5 entry_SYSCALL_64\n"
	    "ffffffff81c00019 g       .entry.text\t0000000000000000 entry_SYSCALL_64_safe_stack\n"
	    "ffffffff81c00000 g     F .entry.text\t0000000000000010 typed_alias\n"
	    "ffffffff82000000 g       .data\t0000000000000000 untyped_data\n"
	    "ffffffff82000100 l    d  .text\t0000000000000000 .text\n",
	    "od", 0x1000, &n, &fmt, &e), SSP_OK);
	assert_int_equal(fmt, SSP_SYMFMT_OBJDUMP);
	assert_int_equal(n, 6);
	assert_int_equal(ssp_symtab_finish(st, &e), SSP_OK);
	assert_string_equal(name_at(0xffffffff81000000ULL), "_stext");	/* first table wins */
	assert_string_equal(name_at(0xffffffff81000100ULL), "local_fn_global_alias");
	assert_non_null(ssp_symtab_named(st, 0xffffffff81000100ULL,
	    ssp_atoms_find(atoms, "local_fn", 8)));
	assert_non_null(ssp_symtab_named(st, 0xffffffff81000000ULL,
	    ssp_atoms_find(atoms, "_stext_objdump", 14)));
	assert_null(ssp_symtab_named(st, 0xffffffff81000000ULL,
	    ssp_atoms_find(atoms, "local_fn", 8)));
	assert_string_equal(name_at(0xffffffff81000200ULL), "weak_fn");
	assert_null(name_at(0xffffffff81000300ULL));
	assert_string_equal(name_at(0xffffffff81000400ULL), "sized_fn");
	assert_string_equal(name_at(0xffffffff81000500ULL), "with_line");
	assert_string_equal(name_at(0x402000), "hid_fn");	/* offset 0x1000 */
	assert_string_equal(name_at(0x402010), "dyn_like");
	assert_null(name_at(0x1000));
	/* a typed function beats an untyped symbol at its address */
	assert_string_equal(name_at(0xffffffff81c01000ULL), "typed_alias");
	assert_string_equal(name_at(0xffffffff81c01019ULL), "entry_SYSCALL_64_safe_stack");
	assert_null(name_at(0xffffffff82001000ULL));
	assert_null(name_at(0xffffffff82001100ULL));
	assert_int_equal(ssp_symtab_count(st), 12);
	assert_true(ssp_symtab_bytes(st) > 0);
}

/* A table whose last line has no newline loads (no phantom line after it);
 * one without functions finishes empty. */
static void
test_no_final_newline(void **state)
{
	size_t n;
	struct ssp_err e;

	(void)state;
	assert_int_equal(load("0000000000000000       F *UND*\t0000000000000000 undefined_fn",
	    "od", 0, &n, NULL, &e), SSP_OK);
	assert_int_equal(n, 0);
	assert_int_equal(ssp_symtab_finish(st, &e), SSP_OK);
	assert_int_equal(ssp_symtab_count(st), 0);
	assert_null(name_at(0));
	assert_int_equal(load("ffffffff81000000 T _stext\nffffffff81000100 T last_fn",
	    "nm", 0, &n, NULL, &e), SSP_OK);
	assert_int_equal(n, 2);
	assert_int_equal(ssp_symtab_finish(st, &e), SSP_OK);
	assert_string_equal(name_at(0xffffffff81000100ULL), "last_fn");
}

static void
test_errors(void **state)
{
	struct ssp_err e;

	(void)state;
	assert_int_equal(load("", "empty", 0, NULL, NULL, &e), SSP_ERR_FORMAT);
	assert_non_null(strstr(e.msg, "no symbols"));
	assert_int_equal(load("ffffffff81000000 T a\nthis is not a symbol\n", "bad", 0,
	    NULL, NULL, &e), SSP_ERR_FORMAT);
	assert_int_equal(e.line, 2);
	assert_non_null(strstr(e.msg, "mem:2"));
	assert_non_null(strstr(e.msg, "nm"));
	/* objdump first, then an nm line: the format does not change midway */
	assert_int_equal(load("0000000000401000 g     F .text\t0000000000000010 f\n"
	    "ffffffff81000000 T a\n", "mixed", 0, NULL, NULL, &e), SSP_ERR_FORMAT);
	assert_int_equal(e.line, 2);
	assert_int_equal(load("\x89PNG\r\n\x1a\n\x01\x02", "bin", 0, NULL, NULL, &e),
	    SSP_ERR_FORMAT);
	/* failed loads leave nothing behind */
	assert_int_equal(ssp_symtab_count(st), 0);
	assert_int_equal(ssp_symtab_ntables(st), 0);
	assert_null(ssp_symtab_at(NULL, 0));
}

static void
test_many(void **state)
{
	enum { N = 20000 };
	size_t cap = (size_t)N * 80, len = 0, i;
	char *text = malloc(cap);
	uint64_t *addr = malloc(N * sizeof(*addr)), x = 88172645463325252ULL;

	(void)state;
	for (i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		addr[i] = 0xffffffff80000000ULL + (x % (64u << 20));
		len += (size_t)snprintf(text + len, cap - len, "%016llx T f%zu\n",
		    (unsigned long long)addr[i], i);
	}
	assert_int_equal(load(text, "rand", 0, NULL, NULL, NULL), SSP_OK);
	assert_int_equal(ssp_symtab_finish(st, NULL), SSP_OK);
	for (i = 0; i < N; i++) {
		const struct ssp_sym *s = ssp_symtab_at(st, addr[i]);

		assert_non_null(s);
		assert_int_equal(s->addr, addr[i]);
		assert_null(ssp_symtab_at(st, addr[i] + (64u << 20)));
	}
	free(text);
	free(addr);
}

/* sim2ev's -s FILE[,NAME[,OFFSET]]: defaults, provenance, bad specs */
static void
test_load_spec(void **state)
{
	char path[] = "/tmp/test_symtab.XXXXXX", spec[128];
	const char *text = "f.o:     file format elf64-x86-64\n\nSYMBOL TABLE:\n"
	    "0000000000000010 g     F .text\t0000000000000010 fn_a\n"
	    "0000000000000020 l     F .text\t0000000000000010 fn_b\n";
	const struct ssp_symtab_info *ti;
	struct ssp_err e;
	char *desc;
	int fd;

	(void)state;
	assert_true((fd = mkstemp(path)) >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(ssp_symtab_load_spec(st, path, &e), SSP_OK);
	snprintf(spec, sizeof(spec), "%s,i40e,0xffffffffa0000000", path);
	assert_int_equal(ssp_symtab_load_spec(st, spec, &e), SSP_OK);
	ti = ssp_symtab_info(st, 0);
	/* base name without its last extension (mkstemp's suffix here) */
	assert_string_equal(ti->name, "test_symtab");
	assert_string_equal(ti->file, path);
	assert_true(ti->offset == 0);
	assert_int_equal(ti->nfunc, 2);
	assert_int_equal(ti->fmt, SSP_SYMFMT_OBJDUMP);
	ti = ssp_symtab_info(st, 1);
	assert_string_equal(ti->name, "i40e");
	assert_true(ti->offset == 0xffffffffa0000000ULL);
	assert_null(ssp_symtab_info(st, 2));
	assert_non_null(desc = ssp_symtab_describe(st));
	snprintf(spec, sizeof(spec), "test_symtab=%s@0x0;i40e=%s@0xffffffffa0000000",
	    path, path);
	assert_string_equal(desc, spec);
	free(desc);
	assert_int_equal(ssp_symtab_finish(st, &e), SSP_OK);
	assert_string_equal(name_at(0xffffffffa0000020ULL), "fn_b");
	/* bad specs: the message names the whole spec and the expected form */
	snprintf(spec, sizeof(spec), "%s,x,12z", path);
	assert_int_equal(ssp_symtab_load_spec(st, spec, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, spec));
	assert_non_null(strstr(e.msg, "offset '12z': invalid"));
	assert_non_null(strstr(e.msg, "FILE[,NAME[,OFFSET]]"));
	assert_int_equal(ssp_symtab_load_spec(st, ",x", &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "',x': no file name"));
	snprintf(spec, sizeof(spec), "%s,app,0x1000,0x2000", path);
	assert_int_equal(ssp_symtab_load_spec(st, spec, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "more than three"));
	assert_non_null(strstr(e.msg, spec));
	snprintf(spec, sizeof(spec), "%s,app,-0x1000", path);
	assert_int_equal(ssp_symtab_load_spec(st, spec, &e), SSP_ERR_INVAL);
	snprintf(spec, sizeof(spec), "%s,app,0x10000000000000000", path);
	assert_int_equal(ssp_symtab_load_spec(st, spec, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "too large"));
	/* an offset that pushes a symbol past 2^64: the file, line and symbol */
	snprintf(spec, sizeof(spec), "%s,app,0xfffffffffffffff8", path);
	assert_int_equal(ssp_symtab_load_spec(st, spec, &e), SSP_ERR_FORMAT);
	assert_non_null(strstr(e.msg, ":4: symbol fn_a at 0x10"));
	assert_non_null(strstr(e.msg, "passes 2^64"));
	assert_null(ssp_symtab_info(st, 2));
	assert_int_equal(ssp_symtab_load_spec(st, "/nonexistent/t", &e), SSP_ERR_IO);
	unlink(path);
}

/* A user-space table with a load offset (sim2ev -s app.syms,netperf,
 * 0x555555554000) beside the kernel's: each pc finds its own table. */
static void
test_user_offset(void **state)
{
	char path[] = "/tmp/test_symtab.XXXXXX", spec[128];
	const char *app = "0000000000001100 T main\n0000000000001250 t send_request\n";
	const char *kern = "ffffffff81600000 T entry_SYSCALL_64\n";
	const struct ssp_sym *s;
	struct ssp_err e;
	int fd;

	(void)state;
	assert_true((fd = mkstemp(path)) >= 0);
	assert_int_equal(write(fd, kern, strlen(kern)), (ssize_t)strlen(kern));
	close(fd);
	snprintf(spec, sizeof(spec), "%s,vmlinux", path);
	assert_int_equal(ssp_symtab_load_spec(st, spec, &e), SSP_OK);
	assert_true((fd = open(path, O_WRONLY | O_TRUNC)) >= 0);
	assert_int_equal(write(fd, app, strlen(app)), (ssize_t)strlen(app));
	close(fd);
	snprintf(spec, sizeof(spec), "%s,netperf,0x555555554000", path);
	assert_int_equal(ssp_symtab_load_spec(st, spec, &e), SSP_OK);
	assert_int_equal(ssp_symtab_finish(st, &e), SSP_OK);
	assert_non_null(s = ssp_symtab_at(st, 0x555555555100ULL));
	assert_string_equal(ssp_atoms_str(atoms, ssp_symtab_table_name(st, s->table),
	    NULL), "netperf");
	assert_string_equal(name_at(0x555555555100ULL), "main");
	assert_string_equal(name_at(0x555555555250ULL), "send_request");
	assert_null(ssp_symtab_at(st, 0x1100));	/* the unshifted address */
	assert_string_equal(name_at(0xffffffff81600000ULL), "entry_SYSCALL_64");
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_objdump_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_formats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_final_newline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_spec, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_offset, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
