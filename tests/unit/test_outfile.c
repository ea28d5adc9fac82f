/*
 * Outputs written whole or not at all (tools/common/outfile): temporary
 * files beside the target, put in place by commit, removed by abort;
 * several at once; in place for what is not a regular file; a tool's
 * binary output stream through them.  The signals, and the exits on a
 * failure or a terminal, are tested with the real tools
 * (tests/cli/outfile.sh, each tool's script).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/out.h"
#include "tools/common/outfile.h"

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ssp-outfile.%ld", (long)getpid());
	return mkdir(dir, 0777);
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static const char *
at(const char *name)
{
	static char p[4][128];
	static unsigned k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void
put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The file's text ("" when missing). */
static const char *
text_of(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (f != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* Entries of the directory with ".tmp" in their name. */
static int
ntmp(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		n += strstr(de->d_name, ".tmp") != NULL;
	closedir(d);
	return n;
}

/* A temporary file beside the target, which commit renames over it. */
static void
test_outfile_commit(void **state)
{
	const char *to;
	mode_t um;
	struct stat st;

	(void)state;
	put_file(at("a"), "old");
	to = ssp_outfile_begin(at("a"));
	assert_non_null(to);
	assert_string_not_equal(to, at("a"));
	assert_int_equal(strncmp(to, at("a.tmp"), strlen(at("a.tmp"))), 0);
	assert_string_equal(text_of(to), "");
	/* mode 0666 less the umask, as open(2) would give */
	um = umask(022);
	umask(um);
	assert_int_equal(stat(to, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666 & ~um);
	put_file(to, "new");
	assert_string_equal(text_of(at("a")), "old");
	assert_int_equal(ssp_outfile_commit(), 0);
	assert_string_equal(text_of(at("a")), "new");
	assert_int_equal(ntmp(), 0);
	/* nothing pending: commit and abort do nothing */
	assert_int_equal(ssp_outfile_commit(), 0);
	ssp_outfile_abort();
	assert_string_equal(text_of(at("a")), "new");
}

/* abort leaves the old file and removes the temporary one. */
static void
test_outfile_abort(void **state)
{
	const char *to;

	(void)state;
	put_file(at("b"), "old");
	assert_non_null(to = ssp_outfile_begin(at("b")));
	put_file(to, "half");
	ssp_outfile_abort();
	assert_string_equal(text_of(at("b")), "old");
	assert_int_equal(ntmp(), 0);
	/* a new target: nothing left after abort */
	assert_non_null(ssp_outfile_begin(at("c")));
	ssp_outfile_abort();
	assert_int_equal(access(at("c"), F_OK), -1);
	assert_int_equal(ntmp(), 0);
}

/* Several outputs at once: commit puts all in place, abort none. */
static void
test_outfile_several(void **state)
{
	const char *t1, *t2;

	(void)state;
	assert_int_equal(ssp_outfile_put(at("d1"), "one", 3), 0);
	assert_non_null(t1 = ssp_outfile_begin(at("d2")));
	put_file(t1, "two");
	assert_int_equal(ntmp(), 2);
	assert_int_equal(access(at("d1"), F_OK), -1);
	assert_int_equal(ssp_outfile_commit(), 0);
	assert_string_equal(text_of(at("d1")), "one");
	assert_string_equal(text_of(at("d2")), "two");
	assert_int_equal(ntmp(), 0);

	assert_int_equal(ssp_outfile_put(at("d1"), "ONE", 3), 0);
	assert_non_null(t2 = ssp_outfile_begin(at("d2")));
	put_file(t2, "TWO");
	ssp_outfile_abort();
	assert_string_equal(text_of(at("d1")), "one");
	assert_string_equal(text_of(at("d2")), "two");
	assert_int_equal(ntmp(), 0);
}

/* write commits its own output only, not others pending. */
static void
test_outfile_write(void **state)
{
	(void)state;
	put_file(at("e2"), "old");
	assert_int_equal(ssp_outfile_put(at("e2"), "pending", 7), 0);
	assert_int_equal(ssp_outfile_write(at("e1"), "whole", 5), 0);
	assert_string_equal(text_of(at("e1")), "whole");
	assert_string_equal(text_of(at("e2")), "old");
	assert_int_equal(ntmp(), 1);
	ssp_outfile_abort();
	assert_string_equal(text_of(at("e2")), "old");
	assert_int_equal(ssp_outfile_write(at("e3"), "", 0), 0);
	assert_string_equal(text_of(at("e3")), "");
	assert_int_equal(ntmp(), 0);
}

/* A symbolic link stays a link: the file it names is replaced, in its own
 * directory. */
static void
test_outfile_symlink(void **state)
{
	char sub[128];
	struct stat st;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0777), 0);
	put_file(at("sub/real"), "old");
	assert_int_equal(symlink("sub/real", at("link")), 0);
	assert_int_equal(ssp_outfile_write(at("link"), "new", 3), 0);
	assert_int_equal(lstat(at("link"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(text_of(at("sub/real")), "new");
	assert_int_equal(ntmp(), 0);
}

/* What is not a regular file is written in place; failures set errno. */
static void
test_outfile_in_place(void **state)
{
	char missing[160];
	int fd;

	(void)state;
	assert_string_equal(ssp_outfile_begin("/dev/null"), "/dev/null");
	assert_int_equal(ssp_outfile_write("/dev/null", "x", 1), 0);
	assert_int_equal(mkfifo(at("fifo"), 0666), 0);
	/* a reader, so that the writer's open does not wait */
	fd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	assert_true(fd >= 0);
	assert_string_equal(ssp_outfile_begin(at("fifo")), at("fifo"));
	assert_int_equal(ssp_outfile_write(at("fifo"), "abc", 3), 0);
	{
		char buf[8];

		assert_int_equal(read(fd, buf, sizeof(buf)), 3);
	}
	close(fd);
	assert_int_equal(ssp_outfile_commit(), 0);
	assert_int_equal(ntmp(), 0);
	snprintf(missing, sizeof(missing), "%s/no/such/dir", dir);
	errno = 0;
	assert_null(ssp_outfile_begin(missing));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(ssp_outfile_write(missing, "x", 1), -1);
	assert_int_equal(errno, ENOENT);
}

/* A tool's output stream: through a temporary file, or in place, and
 * compressed by name or by request. */
static void
test_outfile_stream(void **state)
{
	struct ssp_out *o;
	unsigned char b[4];
	FILE *f;

	(void)state;
	put_file(at("s"), "old");
	o = ssp_outfile_stream(at("s"), 0, 0, 0, "test");
	assert_int_equal(ntmp(), 1);
	assert_int_equal(ssp_out_write(o, "new", 3, NULL), SSP_OK);
	assert_int_equal(ssp_out_close(o, NULL), SSP_OK);
	assert_string_equal(text_of(at("s")), "old");
	assert_int_equal(ssp_outfile_commit(), 0);
	assert_string_equal(text_of(at("s")), "new");
	/* --follow: written where it is, at once */
	o = ssp_outfile_stream(at("s"), 1, 0, 0, "test");
	assert_int_equal(ntmp(), 0);
	assert_int_equal(ssp_out_write(o, "grown", 5, NULL), SSP_OK);
	assert_int_equal(ssp_out_close(o, NULL), SSP_OK);
	assert_string_equal(text_of(at("s")), "grown");
	/* .zst, and -z whatever the name: a zstd frame */
	o = ssp_outfile_stream(at("s.zst"), 1, 0, 0, "test");
	assert_int_equal(ssp_out_write(o, "z", 1, NULL), SSP_OK);
	assert_int_equal(ssp_out_close(o, NULL), SSP_OK);
	o = ssp_outfile_stream(at("t"), 1, 1, 0, "test");
	assert_int_equal(ssp_out_write(o, "z", 1, NULL), SSP_OK);
	assert_int_equal(ssp_out_close(o, NULL), SSP_OK);
	assert_non_null(f = fopen(at("t"), "r"));
	assert_int_equal(fread(b, 1, 4, f), 4);
	fclose(f);
	assert_memory_equal(b, "\x28\xb5\x2f\xfd", 4);
	assert_non_null(f = fopen(at("s.zst"), "r"));
	assert_int_equal(fread(b, 1, 4, f), 4);
	fclose(f);
	assert_memory_equal(b, "\x28\xb5\x2f\xfd", 4);
}

/* Another file, standard output or a missing one is not the input. */
static void
test_outfile_not_input(void **state)
{
	int fd;

	(void)state;
	put_file(at("in"), "x");
	put_file(at("other"), "y");
	assert_true((fd = open(at("in"), O_RDONLY)) >= 0);
	ssp_outfile_not_input(at("other"), fd);
	ssp_outfile_not_input(at("missing"), fd);
	ssp_outfile_not_input("-", fd);
	ssp_outfile_not_input(NULL, fd);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outfile_commit),
		cmocka_unit_test(test_outfile_abort),
		cmocka_unit_test(test_outfile_several),
		cmocka_unit_test(test_outfile_write),
		cmocka_unit_test(test_outfile_symlink),
		cmocka_unit_test(test_outfile_in_place),
		cmocka_unit_test(test_outfile_stream),
		cmocka_unit_test(test_outfile_not_input),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
