#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/out.h"
#include "tools/common/cli.h"
#include "tools/common/outfile.h"

#define SUFFIX ".tmpXXXXXX"

/*
 * One output through a temporary file.  The signal handler walks the
 * list (from any thread), so a slot is linked only once complete and is
 * never freed: a tool makes a few outputs and exits.  live is 1 while the
 * temporary file exists under tmp.
 */
struct slot {
	_Atomic(struct slot *) next;
	atomic_int live;
	char *tmp;
	char *target;
};

static _Atomic(struct slot *) head;
static struct slot *last;
static int caught;
static const int cleanup_signals[] = { SIGHUP, SIGINT, SIGPIPE, SIGQUIT,
	SIGTERM, SIGXFSZ };
#define NSIGS (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))

/* Only async-signal-safe calls: atomics, unlink, signal, raise. */
static void
on_signal(int sig)
{
	struct slot *s;

	for (s = atomic_load(&head); s != NULL; s = atomic_load(&s->next))
		if (atomic_exchange(&s->live, 0))
			unlink(s->tmp);
	signal(sig, SIG_DFL);
	raise(sig);	/* delivered once the handler returns */
}

static void
block(int how, sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < NSIGS; i++)
		sigaddset(&set, cleanup_signals[i]);
	pthread_sigmask(how, &set, old);
}

/* begin, also giving the slot (NULL for in-place output). */
static const char *
begin(const char *path, struct slot **sp)
{
	char *real = NULL;
	sigset_t old;
	struct stat st;
	struct slot *s;
	size_t n;
	mode_t um;
	int fd, saved;

	*sp = NULL;
	if (!ssp_cli_replaceable(path))
		return path;
	/* A symbolic link stays: the file it names is replaced (a link
	 * that names nothing is replaced itself). */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
	    (real = realpath(path, NULL)) != NULL)
		path = real;
	n = strlen(path);
	s = malloc(sizeof(*s) + 2 * n + 1 + sizeof(SUFFIX));
	if (s == NULL) {
		free(real);
		return NULL;
	}
	s->target = (char *)(s + 1);
	memcpy(s->target, path, n + 1);
	s->tmp = s->target + n + 1;
	memcpy(s->tmp, path, n);
	memcpy(s->tmp + n, SUFFIX, sizeof(SUFFIX));
	free(real);
	atomic_init(&s->next, NULL);
	atomic_init(&s->live, 0);
	if (!caught) {
		ssp_cli_catch_signals(cleanup_signals, NSIGS, on_signal);
		atexit(ssp_outfile_abort);	/* err(3) after begin */
		caught = 1;
	}
	/* No signal here between creating the file and listing it. */
	block(SIG_BLOCK, &old);
	if ((fd = mkstemp(s->tmp)) >= 0) {
		atomic_store(&s->live, 1);
		if (last == NULL)
			atomic_store(&head, s);
		else
			atomic_store(&last->next, s);
		last = s;
	}
	saved = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		free(s);
		errno = saved;
		return NULL;
	}
	um = umask(0);
	umask(um);
	(void)fchmod(fd, 0666 & ~um);	/* mkstemp made it 0600 */
	close(fd);
	*sp = s;
	return s->tmp;
}

const char *
ssp_outfile_begin(const char *path)
{
	struct slot *s;

	return begin(path, &s);
}

static void
drop(struct slot *s)
{
	if (atomic_exchange(&s->live, 0))
		unlink(s->tmp);
}

/* The data on disk before the name points at it. */
static int
sync_file(const char *path)
{
	int fd, rc, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	rc = fsync(fd);
	saved = errno;
	if (close(fd) != 0 && rc == 0)
		return -1;
	errno = saved;
	return rc;
}

/* Put s in place (one = 1), or every pending output (s NULL). */
static int
commit(struct slot *one)
{
	struct slot *s;
	int saved;

	for (s = one ? one : atomic_load(&head); s != NULL;
	    s = one ? NULL : atomic_load(&s->next))
		if (atomic_load(&s->live) && sync_file(s->tmp) != 0)
			goto fail;
	for (s = one ? one : atomic_load(&head); s != NULL;
	    s = one ? NULL : atomic_load(&s->next)) {
		if (!atomic_load(&s->live))
			continue;
		if (rename(s->tmp, s->target) != 0)
			goto fail;
		atomic_store(&s->live, 0);
	}
	return 0;
fail:
	saved = errno;
	if (one != NULL)
		drop(one);
	else
		ssp_outfile_abort();
	errno = saved;
	return -1;
}

int
ssp_outfile_commit(void)
{
	return commit(NULL);
}

void
ssp_outfile_abort(void)
{
	struct slot *s;

	for (s = atomic_load(&head); s != NULL; s = atomic_load(&s->next))
		drop(s);
}

/* put, also giving the slot. */
static int
put(const char *path, const void *p, size_t n, struct slot **sp)
{
	const char *to = begin(path, sp);
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
	if (close(fd) == 0)
		return 0;
fail:
	saved = errno;
	if (*sp != NULL)
		drop(*sp);
	errno = saved;
	return -1;
}

int
ssp_outfile_put(const char *path, const void *p, size_t n)
{
	struct slot *s;

	return put(path, p, n, &s);
}

int
ssp_outfile_write(const char *path, const void *p, size_t n)
{
	struct slot *s;

	if (put(path, p, n, &s) != 0)
		return -1;
	return s != NULL ? commit(s) : 0;
}

struct ssp_out *
ssp_outfile_stream(const char *path, int inplace, int zstd, int force,
    const char *prog)
{
	struct ssp_out *o;
	struct ssp_err e = { 0 };
	const char *to = path;

	if (!inplace && path != NULL && strcmp(path, "-") != 0 &&
	    (to = ssp_outfile_begin(path)) == NULL)
		err(SSP_EXIT_FAIL, "%s", path);
	if (ssp_out_open_as(&o, to, path, zstd ? SSP_OUT_ZDEFAULT :
	    SSP_OUT_ZAUTO, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	if (ssp_cli_refuse_tty(ssp_out_fd(o), force, prog) != 0) {
		ssp_out_abort(o);
		exit(SSP_EXIT_FAIL);
	}
	return o;
}

void
ssp_outfile_not_input(const char *path, int in_fd)
{
	struct stat a, b;

	if (path != NULL && strcmp(path, "-") != 0 && fstat(in_fd, &a) == 0 &&
	    stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		errx(SSP_EXIT_FAIL, "%s: the output is the input file", path);
}
