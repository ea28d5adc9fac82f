#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/common/cli.h"
#include "tools/common/outfile.h"

static char tmp_path[4096];
static char target[4096];
static volatile sig_atomic_t have_tmp;
static const int cleanup_signals[] = { SIGHUP, SIGINT, SIGPIPE, SIGQUIT,
	SIGTERM, SIGXFSZ };
#define NSIGS (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))

static void
on_signal(int sig)
{
	if (have_tmp)
		unlink(tmp_path);	/* async-signal-safe */
	signal(sig, SIG_DFL);
	raise(sig);
}

const char *
ssp_outfile_begin(const char *path)
{
	sigset_t set, old;
	size_t i, n = strlen(path);
	mode_t um;
	int fd, saved;

	if (!ssp_cli_replaceable(path))
		return path;
	if (n + sizeof(".tmpXXXXXX") > sizeof(tmp_path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	memcpy(target, path, n + 1);
	memcpy(tmp_path, path, n);
	memcpy(tmp_path + n, ".tmpXXXXXX", sizeof(".tmpXXXXXX"));
	ssp_cli_catch_signals(cleanup_signals, NSIGS, on_signal);
	/* No signal between creating the file and recording that it exists. */
	sigemptyset(&set);
	for (i = 0; i < NSIGS; i++)
		sigaddset(&set, cleanup_signals[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	fd = mkstemp(tmp_path);
	if (fd >= 0)
		have_tmp = 1;
	saved = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		errno = saved;
		return NULL;
	}
	um = umask(0);
	umask(um);
	(void)fchmod(fd, 0666 & ~um);	/* mkstemp made it 0600 */
	close(fd);
	return tmp_path;
}

int
ssp_outfile_commit(void)
{
	int fd, rc, saved;

	if (!have_tmp)
		return 0;
	if ((fd = open(tmp_path, O_RDONLY | O_CLOEXEC)) < 0)
		goto fail;
	rc = fsync(fd);
	saved = errno;
	if (close(fd) != 0 || rc != 0) {
		if (rc != 0)
			errno = saved;
		goto fail;
	}
	if (rename(tmp_path, target) != 0)
		goto fail;
	have_tmp = 0;
	return 0;
fail:
	saved = errno;
	ssp_outfile_abort();
	errno = saved;
	return -1;
}

void
ssp_outfile_abort(void)
{
	if (have_tmp) {
		have_tmp = 0;
		unlink(tmp_path);
	}
}

int
ssp_outfile_write(const char *path, const void *p, size_t n)
{
	const char *to = ssp_outfile_begin(path);
	const char *c = p;
	int fd, saved;

	if (to == NULL)
		return -1;
	if ((fd = open(to, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0)
		goto fail;
	while (n > 0) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			saved = errno;
			close(fd);
			errno = saved;
			goto fail;
		}
		c += k;
		n -= (size_t)k;
	}
	if (close(fd) != 0)
		goto fail;
	return ssp_outfile_commit();
fail:
	saved = errno;
	ssp_outfile_abort();
	errno = saved;
	return -1;
}
