/* An input read twice: a file by its name, standard input that is a file
 * from where it stood, a pipe through its spooled copy; what a failure of
 * the copy or of the spool says. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/reread.h"

static char path[64];
static char text[200000];	/* more than a pipe holds */

static int
setup(void **state)
{
	FILE *f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(text) - 1; i++)
		text[i] = (char)('a' + i % 26);
	snprintf(path, sizeof(path), "/tmp/ssp-test-reread-%d", (int)getpid());
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int
teardown(void **state)
{
	(void)state;
	return unlink(path);
}

/* All of in, closed; compared with want. */
static void
drain(struct ssp_in *in, const char *want)
{
	static char buf[sizeof(text)];
	struct ssp_err e = { 0 };
	ssize_t n;
	size_t len = 0;

	while ((n = ssp_in_read(in, buf + len, sizeof(buf) - len, &e)) > 0)
		len += (size_t)n;
	assert_int_equal(n, 0);
	ssp_in_close(in);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(buf, want, len);
}

/* Both passes over path (NULL: standard input) read want. */
static void
twice(const char *p, const char *want)
{
	struct ssp_reread *r;
	struct ssp_in *in;
	struct ssp_err e = { 0 };

	assert_int_equal(ssp_reread_open(&r, &in, p, &e), SSP_OK);
	drain(in, want);
	assert_int_equal(ssp_reread_again(r, &in, &e), SSP_OK);
	drain(in, want);
	ssp_reread_close(r);
}

/* Standard input from fd until the test restores it. */
static int
stdin_from(int fd)
{
	int saved = dup(STDIN_FILENO);

	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	return saved;
}

static void
stdin_back(int saved)
{
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
}

/* A pipe on standard input holding text, its writer in a child. */
static int
stdin_pipe(void)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	if ((pid = fork()) == 0) {
		close(p[0]);
		_exit(write(p[1], text, strlen(text)) == (ssize_t)strlen(text) ?
		    0 : 1);
	}
	assert_true(pid > 0);
	close(p[1]);
	return stdin_from(p[0]);
}

static void
test_file(void **state)
{
	int fd, saved;

	(void)state;
	twice(path, text);
	/* standard input that is a file: from where it stood, both times */
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	assert_int_equal(lseek(fd, 1000, SEEK_SET), 1000);
	saved = stdin_from(fd);
	twice("-", text + 1000);
	stdin_back(saved);
}

static void
test_pipe(void **state)
{
	int saved;

	(void)state;
	saved = stdin_pipe();
	twice(NULL, text);
	stdin_back(saved);
	while (wait(NULL) > 0)
		;
}

static void
test_failures(void **state)
{
	struct ssp_reread *r;
	struct ssp_in *in;
	struct ssp_err e = { 0 };
	struct rlimit old, small;
	char *dir = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	int saved;

	(void)state;
	assert_int_equal(ssp_reread_open(&r, &in, "/nonexistent/x.sp", &e),
	    SSP_ERR_IO);
	assert_string_equal(e.msg, "/nonexistent/x.sp: No such file or "
	    "directory");
	assert_null(r);
	/* no place for the copy */
	saved = stdin_pipe();
	setenv("TMPDIR", "/nonexistent", 1);
	assert_int_equal(ssp_reread_open(&r, &in, "-", &e), SSP_ERR_IO);
	assert_string_equal(e.msg, "a temporary file for stdin (in $TMPDIR, "
	    "else /tmp): No such file or directory");
	if (dir != NULL)
		setenv("TMPDIR", dir, 1);
	else
		unsetenv("TMPDIR");
	/* the copy cannot grow: the reader's error becomes the copy's */
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = (struct rlimit){ 8192, old.rlim_max };	/* soft only: undone */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	assert_int_equal(ssp_reread_open(&r, &in, "-", &e), SSP_OK);
	{
		char buf[4096];

		while (ssp_in_read(in, buf, sizeof(buf), &e) > 0)
			;
	}
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	ssp_reread_failed(r, &e);
	assert_string_equal(e.msg, "copying stdin to a temporary file (in "
	    "$TMPDIR, else /tmp) for the second pass: File too large");
	ssp_in_close(in);
	ssp_reread_close(r);
	stdin_back(saved);
	while (wait(NULL) > 0)
		;
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_failures),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
