/*
 * An input read twice (reread.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/reread.h"

struct ssp_reread {
	const char *path;	/* "-" for standard input */
	const char *name;	/* in messages: "stdin" or path */
	int spool;		/* the copy's descriptor, or -1: no copy */
	int in;			/* the first pass reads this one (copying) */
	off_t stdin_at;		/* standard input read again from here, or -1 */
	int err;		/* errno of a failed read or copy, 0 */
	int failed_write;
};

/* The input as it is read, copied to the spool. */
static ssize_t
tee_read(void *ctx, void *buf, size_t n)
{
	struct ssp_reread *r = ctx;
	ssize_t got, w;
	size_t done = 0;

	do
		got = read(r->in, buf, n);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		r->err = errno;
		return -SSP_ERR_IO;
	}
	while (done < (size_t)got) {
		w = write(r->spool, (const char *)buf + done, (size_t)got - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r->err = w < 0 ? errno : ENOSPC;
			r->failed_write = 1;
			return -SSP_ERR_IO;
		}
		done += (size_t)w;
	}
	return got;
}

/* An unlinked temporary file in $TMPDIR (or /tmp): its descriptor, or -1. */
static int
spool_open(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/ssp-reread.XXXXXX",
	    dir != NULL && *dir != '\0' ? dir : "/tmp");
	if ((fd = mkstemp(path)) >= 0)
		unlink(path);
	return fd;
}

int
ssp_reread_open(struct ssp_reread **rp, struct ssp_in **inp, const char *path,
    struct ssp_err *e)
{
	struct ssp_reread *r;
	struct stat sb;
	int rc, copy;

	*rp = NULL;
	*inp = NULL;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	r->path = path != NULL ? path : "-";
	r->spool = -1;
	r->in = STDIN_FILENO;
	r->stdin_at = -1;
	if (strcmp(r->path, "-") == 0) {
		r->name = "stdin";
		if (fstat(STDIN_FILENO, &sb) == 0 && S_ISREG(sb.st_mode))
			r->stdin_at = lseek(STDIN_FILENO, 0, SEEK_CUR);
		copy = r->stdin_at < 0;
	} else {
		r->name = r->path;
		copy = stat(r->path, &sb) == 0 && !S_ISREG(sb.st_mode);
	}
	if (!copy)
		rc = ssp_in_open(inp, r->path, SSP_IN_ZSTD_AUTO, NULL, e);
	else if (strcmp(r->path, "-") != 0 &&
	    (r->in = open(r->path, O_RDONLY | O_CLOEXEC)) < 0)
		rc = ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", r->path,
		    strerror(errno));
	else if ((r->spool = spool_open()) < 0)
		rc = ssp_err_set(e, SSP_ERR_IO, 0, "a temporary file for %s (in "
		    "$TMPDIR, else /tmp): %s", r->name, strerror(errno));
	else if ((rc = ssp_in_fnopen(inp, tee_read, r, r->name,
	    SSP_IN_ZSTD_AUTO, e)) != SSP_OK)
		ssp_reread_failed(r, e);
	if (rc != SSP_OK) {
		if (r->in < 0)
			r->in = STDIN_FILENO;
		ssp_reread_close(r);
		return rc;
	}
	*rp = r;
	return SSP_OK;
}

void
ssp_reread_failed(const struct ssp_reread *r, struct ssp_err *e)
{
	if (r == NULL || r->err == 0)
		return;
	if (r->failed_write)
		ssp_err_set(e, SSP_ERR_IO, 0, "copying %s to a temporary file (in "
		    "$TMPDIR, else /tmp) for the second pass: %s", r->name,
		    strerror(r->err));
	else
		ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", r->name,
		    strerror(r->err));
}

int
ssp_reread_again(struct ssp_reread *r, struct ssp_in **inp, struct ssp_err *e)
{
	*inp = NULL;
	if (r->spool >= 0) {
		int fd = r->spool;

		if (r->in != STDIN_FILENO)
			close(r->in);
		r->in = STDIN_FILENO;
		r->spool = -1;	/* the input adopts it */
		if (lseek(fd, 0, SEEK_SET) != 0) {
			int rc = ssp_err_set(e, SSP_ERR_IO, 0, "the copy of %s: %s",
			    r->name, strerror(errno));

			close(fd);
			return rc;
		}
		return ssp_in_fdopen(inp, fd, r->name, SSP_IN_ZSTD_AUTO, e);
	}
	if (r->stdin_at >= 0) {
		if (lseek(STDIN_FILENO, r->stdin_at, SEEK_SET) != r->stdin_at)
			return ssp_err_set(e, SSP_ERR_IO, 0, "stdin: %s",
			    strerror(errno));
		return ssp_in_open(inp, "-", SSP_IN_ZSTD_AUTO, NULL, e);
	}
	return ssp_in_open(inp, r->path, SSP_IN_ZSTD_AUTO, NULL, e);
}

void
ssp_reread_close(struct ssp_reread *r)
{
	if (r == NULL)
		return;
	if (r->in != STDIN_FILENO)
		close(r->in);
	if (r->spool >= 0)
		close(r->spool);
	free(r);
}
