#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "base/clock.h"
#include "io/in.h"

#define IN_RAWBUF  (128 * 1024)

struct ssp_in {
	int fd;
	int flags;
	int is_fifo;
	int fresh;		/* follow: no byte since the pipe was (re)opened */
	int seen_writer;	/* follow: a writer had the pipe open at some time */
	int stopping;		/* follow: stop requested, delivering drain_left */
	int pipe_size;		/* follow: the pipe's buffer size, 0 if unknown */
	int zstd;		/* 1 once a zstd frame was detected */
	int gz;			/* 1 once a gzip member was detected */
	int gzend;		/* gzip: the last member ended */
	char *name;		/* for messages: path or "stdin" */
	char *path;		/* NULL for stdin/adopted fds: cannot reopen */
	int64_t size;
	uint64_t pos, rawpos;
	struct ssp_follow follow;
	int quiet;		/* follow: the idle clock runs ... */
	uint64_t quiet_since;	/* ... since this time (ms) */
	uint64_t drain_left;	/* follow, stopping: bytes still to deliver */
	ssp_in_readfn *fn;	/* ssp_in_fnopen: read through fn, no fd */
	void *fnctx;
	ZSTD_DStream *zds;
	z_stream *gzs;
	size_t zret;		/* last ZSTD_decompressStream hint; 0 = frame done */
	uint8_t *raw;		/* compressed bytes not yet decompressed */
	size_t rawlen, rawoff;
	int raweof;
	uint8_t pend[4];	/* bytes read while sniffing for zstd */
	size_t pendlen, pendoff;
};

/*
 * Give a pipe read in follow mode a buffer of SSP_IN_PIPE_SIZE bytes, so a
 * burst of log output fits while the reader is busy (Linux F_SETPIPE_SZ).
 * Without permission (fs.pipe-max-size, the per-user pipe page limit) try
 * halves down to 64 KiB, and otherwise keep the buffer as it is; never
 * shrink it.
 */
static void
pipe_grow(struct ssp_in *in)
{
#if defined(F_SETPIPE_SZ) && defined(F_GETPIPE_SZ)
	int cur = fcntl(in->fd, F_GETPIPE_SZ), sz;

	for (sz = SSP_IN_PIPE_SIZE; cur >= 0 && sz > cur && sz >= 65536; sz /= 2)
		if (fcntl(in->fd, F_SETPIPE_SZ, sz) >= 0) {
			cur = fcntl(in->fd, F_GETPIPE_SZ);
			break;
		}
	in->pipe_size = cur > 0 ? cur : 0;
#else
	(void)in;
#endif
}

static enum ssp_status
in_init(struct ssp_in **inp, int fd, const char *name, const char *path,
    int flags, const struct ssp_follow *follow, struct ssp_err *e)
{
	struct ssp_in *in;
	struct stat st;

	in = calloc(1, sizeof(*in));
	if (in == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "%s: out of memory", name);
	in->fd = fd;
	in->flags = flags;
	in->size = -1;
	in->zret = 1;
	in->fresh = 1;
	if (fd >= 0 && fstat(fd, &st) == 0) {
		if (S_ISREG(st.st_mode))
			in->size = st.st_size;
		in->is_fifo = S_ISFIFO(st.st_mode);
	}
	in->name = strdup(name);
	in->path = path != NULL ? strdup(path) : NULL;
	if (in->name == NULL || (path != NULL && in->path == NULL)) {
		ssp_in_close(in);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "%s: out of memory", name);
	}
	if (follow != NULL)
		in->follow = *follow;
	if (in->follow.tick_ms == 0)
		in->follow.tick_ms = 200;
	if ((flags & SSP_IN_FOLLOW) && in->is_fifo)
		pipe_grow(in);
	*inp = in;
	return SSP_OK;
}

enum ssp_status
ssp_in_open(struct ssp_in **inp, const char *path, int flags,
    const struct ssp_follow *follow, struct ssp_err *e)
{
	int fd, oflags = O_RDONLY | O_CLOEXEC;
	enum ssp_status rc;
	struct stat st;

	*inp = NULL;
	if (path == NULL || strcmp(path, "-") == 0)
		return in_init(inp, STDIN_FILENO, "stdin", NULL, flags, follow, e);
	/* A follower must not block in open(2) waiting for a pipe's writer. */
	if ((flags & SSP_IN_FOLLOW) && stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
		oflags |= O_NONBLOCK;
	fd = open(path, oflags);
	if (fd < 0)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path, strerror(errno));
	if ((rc = in_init(inp, fd, path, path, flags, follow, e)) != SSP_OK)
		close(fd);
	return rc;
}

enum ssp_status
ssp_in_fdopen(struct ssp_in **inp, int fd, const char *name, int flags,
    struct ssp_err *e)
{
	*inp = NULL;
	return in_init(inp, fd, name, NULL, flags, NULL, e);
}

enum ssp_status
ssp_in_fnopen(struct ssp_in **inp, ssp_in_readfn *fn, void *ctx,
    const char *name, int flags, struct ssp_err *e)
{
	enum ssp_status rc;

	*inp = NULL;
	if ((rc = in_init(inp, -1, name, NULL, flags, NULL, e)) != SSP_OK)
		return rc;
	(*inp)->fn = fn;
	(*inp)->fnctx = ctx;
	return SSP_OK;
}

/* Start the idle clock unless it runs. */
static void
quiet_start(struct ssp_in *in)
{
	if (!in->quiet) {
		in->quiet = 1;
		in->quiet_since = (ssp_clock_ns() / 1000000);
	}
}

/*
 * A stop was requested (signal or timeout): deliver the bytes already in
 * the pipe or file, not what a writer adds later, then SSP_IN_EOF.
 */
static void
follow_stop(struct ssp_in *in)
{
	int n;

	in->stopping = 1;
	if (ioctl(in->fd, FIONREAD, &n) == 0 && n >= 0)
		in->drain_left = (uint64_t)n;
	else	/* unknown: read until the input is empty */
		in->drain_left = UINT64_MAX;
}

static int
stop_requested(const struct ssp_in *in)
{
	return in->follow.stop != NULL && *in->follow.stop;
}

/*
 * Wait up to one tick for the follow-mode input to become readable: 1 to
 * read again (data, a writer that hung up, a stop to honour), SSP_IN_IDLE
 * when the tick passed, -SSP_ERR_IO.
 */
static ssize_t
follow_wait(struct ssp_in *in, struct ssp_err *e)
{
	struct pollfd pfd;
	int r;

	if (stop_requested(in))
		return 1;
	if (in->follow.timeout_ms != 0 && in->quiet &&
	    (ssp_clock_ns() / 1000000) - in->quiet_since >= in->follow.timeout_ms) {
		follow_stop(in);
		return 1;
	}
	if (in->is_fifo) {
		pfd.fd = in->fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		r = poll(&pfd, 1, (int)in->follow.tick_ms);
		if (r < 0 && errno != EINTR)
			return -ssp_err_set(e, SSP_ERR_IO, in->pos, "%s: poll: %s",
			    in->name, strerror(errno));
		/* A hang-up on a descriptor opened with no writer means a
		 * writer came and went (possibly without writing). */
		if (r > 0 && (pfd.revents & POLLHUP))
			in->seen_writer = 1;
	} else {
		struct timespec ts = { (time_t)(in->follow.tick_ms / 1000),
		    (long)(in->follow.tick_ms % 1000) * 1000000L };

		r = 0;
		nanosleep(&ts, NULL);
	}
	if (r > 0 || stop_requested(in))
		return 1;
	return SSP_IN_IDLE;
}

/* Reopen a named pipe whose writer closed it. */
static int
follow_reopen(struct ssp_in *in, struct ssp_err *e)
{
	int fd;

	if (in->path == NULL)
		return SSP_IN_EOF;
	/* The new descriptor is opened before the old one is closed: the
	 * pipe always has a reader, so a writer's open(2) never blocks and
	 * nothing written in between is lost. */
	fd = open(in->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		return -ssp_err_set(e, SSP_ERR_IO, in->pos, "%s: reopen: %s",
		    in->name, strerror(errno));
	}
	close(in->fd);
	in->fd = fd;
	pipe_grow(in);
	return SSP_IN_BREAK;
}

/*
 * Read raw bytes from the descriptor, with follow-mode semantics.  The idle
 * clock of a named pipe runs only while no writer has it open (read(2)
 * says 0 rather than EAGAIN) and a writer was there before: waiting for
 * the first writer, or behind a writer that is quiet, never times out.
 */
static ssize_t
raw_read(struct ssp_in *in, void *buf, size_t n, struct ssp_err *e)
{
	ssize_t r;
	int follow = (in->flags & SSP_IN_FOLLOW) != 0;

	if (in->fn != NULL) {
		r = in->fn(in->fnctx, buf, n);
		if (r > 0)
			in->rawpos += (uint64_t)r;
		else if (r < 0 && r != SSP_IN_IDLE && r != SSP_IN_BREAK)
			r = -ssp_err_set(e, SSP_ERR_IO, in->pos, "%s: read error",
			    in->name);
		return r;
	}
	for (;;) {
		if (follow && !in->stopping && stop_requested(in))
			follow_stop(in);
		if (in->stopping) {
			if (in->drain_left == 0)
				return SSP_IN_EOF;
			if (n > in->drain_left)
				n = (size_t)in->drain_left;
		}
		r = read(in->fd, buf, n);
		if (r > 0) {
			in->rawpos += (uint64_t)r;
			in->fresh = 0;
			in->seen_writer = 1;
			in->quiet = 0;
			if (in->stopping)
				in->drain_left -= (uint64_t)r;
			return r;
		}
		if (r < 0 && errno == EINTR)
			continue;	/* a stop is checked above */
		if (r < 0 && (errno != EAGAIN || !follow)) {
			return -ssp_err_set(e, SSP_ERR_IO, in->pos, "%s: read: %s",
			    in->name, strerror(errno));
		}
		if (!follow || in->stopping)
			return SSP_IN_EOF;
		if (in->is_fifo && r < 0) {	/* EAGAIN: a writer, quiet */
			in->seen_writer = 1;
			in->quiet = 0;
		} else if (in->is_fifo) {	/* no writer: wait for the next one */
			int had_data = !in->fresh, k;
			struct pollfd pfd = { in->fd, POLLIN, 0 };

			if (in->path == NULL)	/* stdin: cannot reopen */
				return SSP_IN_EOF;
			/* A hang-up says a writer came and went since the
			 * descriptor was opened, perhaps without writing. */
			if (poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLHUP))
				in->seen_writer = 1;
			if (had_data || (pfd.revents & POLLHUP)) {
				/* a fresh descriptor does not hang up until
				 * the next writer came and went */
				if ((k = follow_reopen(in, e)) != SSP_IN_BREAK)
					return k;
				in->fresh = 1;
			}
			if (in->seen_writer)
				quiet_start(in);
			if (had_data)
				return SSP_IN_BREAK;
		} else {	/* a file that does not grow (yet) */
			quiet_start(in);
		}
		r = follow_wait(in, e);
		if (r <= 0)
			return r;
	}
}

static int
zstd_start(struct ssp_in *in, struct ssp_err *e)
{
	in->zds = ZSTD_createDStream();
	in->raw = malloc(IN_RAWBUF);
	if (in->zds == NULL || in->raw == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "%s: out of memory", in->name);
	ZSTD_initDStream(in->zds);
	in->zstd = 1;
	return SSP_OK;
}

static int
is_zstd_magic(const uint8_t *p)
{
	uint32_t m = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;

	return m == ZSTD_MAGICNUMBER ||
	    (m & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START;
}

static int
gz_start(struct ssp_in *in, struct ssp_err *e)
{
	in->gzs = calloc(1, sizeof(*in->gzs));
	in->raw = malloc(IN_RAWBUF);
	if (in->gzs == NULL || in->raw == NULL ||
	    inflateInit2(in->gzs, 16 + MAX_WBITS) != Z_OK) {
		free(in->gzs);
		in->gzs = NULL;
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "%s: out of memory", in->name);
	}
	in->gz = 1;
	return SSP_OK;
}

/* A gzip member: 1f 8b, then the method, deflate (RFC 1952). */
static int
is_gzip_magic(const uint8_t *p)
{
	return p[0] == 0x1f && p[1] == 0x8b && p[2] == 8;
}

static ssize_t
gz_read(struct ssp_in *in, void *buf, size_t n, struct ssp_err *e)
{
	z_stream *z = in->gzs;
	size_t want = n > (1u << 30) ? 1u << 30 : n, got;
	ssize_t r;
	int zr;

	z->next_out = buf;
	z->avail_out = (uInt)want;
	while (z->avail_out == want) {
		if (in->rawoff == in->rawlen) {
			if (in->raweof)
				break;
			r = raw_read(in, in->raw, IN_RAWBUF, e);
			if (r == SSP_IN_EOF) {
				in->raweof = 1;
				break;
			}
			if (r < 0)
				return r;
			in->rawlen = (size_t)r;
			in->rawoff = 0;
		}
		if (in->gzend) {	/* another member follows */
			if (inflateReset(z) != Z_OK)
				return -ssp_err_set(e, SSP_ERR_NOMEM, in->pos,
				    "%s: gzip: %s", in->name, "inflateReset failed");
			in->gzend = 0;
		}
		z->next_in = in->raw + in->rawoff;
		z->avail_in = (uInt)(in->rawlen - in->rawoff);
		zr = inflate(z, Z_NO_FLUSH);
		in->rawoff = in->rawlen - z->avail_in;
		if (zr == Z_STREAM_END)
			in->gzend = 1;
		else if (zr != Z_OK && zr != Z_BUF_ERROR)
			return -ssp_err_set(e, SSP_ERR_FORMAT, in->pos, "%s: gzip: "
			    "%s (compressed offset %llu)", in->name, z->msg != NULL ?
			    z->msg : zr == Z_MEM_ERROR ? "out of memory" : "bad data",
			    (unsigned long long)(in->rawpos - (in->rawlen - in->rawoff)));
	}
	got = want - z->avail_out;
	if (got == 0 && !in->gzend)
		return -ssp_err_set(e, SSP_ERR_TRUNCATED, in->pos,
		    "%s: truncated gzip data after %llu compressed bytes",
		    in->name, (unsigned long long)in->rawpos);
	in->pos += got;
	return (ssize_t)got;
}

static ssize_t
zstd_read(struct ssp_in *in, void *buf, size_t n, struct ssp_err *e)
{
	ZSTD_outBuffer out = { buf, n, 0 };
	ZSTD_inBuffer zin;
	ssize_t r;

	while (out.pos == 0) {
		if (in->rawoff == in->rawlen) {
			if (in->raweof)
				break;
			r = raw_read(in, in->raw, IN_RAWBUF, e);
			if (r == SSP_IN_EOF) {
				in->raweof = 1;
				break;
			}
			if (r < 0)
				return r;
			in->rawlen = (size_t)r;
			in->rawoff = 0;
		}
		zin.src = in->raw;
		zin.size = in->rawlen;
		zin.pos = in->rawoff;
		in->zret = ZSTD_decompressStream(in->zds, &out, &zin);
		in->rawoff = zin.pos;
		if (ZSTD_isError(in->zret)) {
			return -ssp_err_set(e, SSP_ERR_FORMAT, in->pos, "%s: zstd: "
			    "%s (compressed offset %llu)", in->name,
			    ZSTD_getErrorName(in->zret),
			    (unsigned long long)(in->rawpos - (in->rawlen - in->rawoff)));
		}
	}
	if (out.pos == 0 && in->zret != 0) {
		return -ssp_err_set(e, SSP_ERR_TRUNCATED, in->pos,
		    "%s: truncated zstd frame after %llu compressed bytes",
		    in->name, (unsigned long long)in->rawpos);
	}
	in->pos += out.pos;
	return (ssize_t)out.pos;
}

ssize_t
ssp_in_read(struct ssp_in *in, void *buf, size_t n, struct ssp_err *e)
{
	ssize_t r;

	if (n == 0)
		return 0;
	if (in->zstd)
		return zstd_read(in, buf, n, e);
	if (in->gz)
		return gz_read(in, buf, n, e);
	if ((in->flags & SSP_IN_ZSTD_AUTO) && in->rawpos == 0) {
		/* Sniff four bytes; keep them for the decoder or the caller. */
		while (in->pendlen < 4) {
			r = raw_read(in, in->pend + in->pendlen, 4 - in->pendlen, e);
			if (r == SSP_IN_EOF)
				break;
			if (r == SSP_IN_IDLE || r == SSP_IN_BREAK) {
				if (in->pendlen == 0)
					return r;
				continue;
			}
			if (r < 0)
				return r;
			in->pendlen += (size_t)r;
		}
		in->flags &= ~SSP_IN_ZSTD_AUTO;
		if (in->pendlen == 4 && is_zstd_magic(in->pend)) {
			if ((r = zstd_start(in, e)) != SSP_OK)
				return -r;
			memcpy(in->raw, in->pend, 4);
			in->rawlen = 4;
			in->pendlen = 0;
			return zstd_read(in, buf, n, e);
		}
		if (in->pendlen == 4 && is_gzip_magic(in->pend)) {
			if ((r = gz_start(in, e)) != SSP_OK)
				return -r;
			memcpy(in->raw, in->pend, 4);
			in->rawlen = 4;
			in->pendlen = 0;
			return gz_read(in, buf, n, e);
		}
	}
	if (in->pendoff < in->pendlen) {	/* sniffed bytes not yet delivered */
		size_t k = in->pendlen - in->pendoff;

		if (k > n)
			k = n;
		memcpy(buf, in->pend + in->pendoff, k);
		in->pendoff += k;
		in->pos += k;
		return (ssize_t)k;
	}
	r = raw_read(in, buf, n, e);
	if (r > 0)
		in->pos += (uint64_t)r;
	return r;
}

ssize_t
ssp_in_read_full(struct ssp_in *in, void *buf, size_t n, struct ssp_err *e)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = ssp_in_read(in, (uint8_t *)buf + got, n - got, e);
		if (r == SSP_IN_EOF)
			break;
		if (r == SSP_IN_IDLE || r == SSP_IN_BREAK)
			continue;
		if (r < 0)
			return r;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

const char *ssp_in_name(const struct ssp_in *in) { return in->name; }
uint64_t ssp_in_pos(const struct ssp_in *in) { return in->pos; }
uint64_t ssp_in_rawpos(const struct ssp_in *in) { return in->rawpos; }
int64_t ssp_in_size(const struct ssp_in *in) { return in->size; }
int ssp_in_is_zstd(const struct ssp_in *in) { return in->zstd; }
int ssp_in_is_compressed(const struct ssp_in *in) { return in->zstd || in->gz; }
int ssp_in_fd(const struct ssp_in *in) { return in->fd; }
int ssp_in_pipe_size(const struct ssp_in *in) { return in->pipe_size; }
int ssp_in_follows(const struct ssp_in *in) { return (in->flags & SSP_IN_FOLLOW) != 0; }

void
ssp_in_close(struct ssp_in *in)
{
	if (in == NULL)
		return;
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	ZSTD_freeDStream(in->zds);
	if (in->gzs != NULL) {
		inflateEnd(in->gzs);
		free(in->gzs);
	}
	free(in->raw);
	free(in->name);
	free(in->path);
	free(in);
}

