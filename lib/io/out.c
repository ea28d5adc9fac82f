#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "base/path.h"
#include "base/ring.h"
#include "io/out.h"

#define OUT_BUF    (256 * 1024)
#define OUT_WINDOW_LOG 20	/* zstd window: 1 MiB (formats/framing.md §1) */
#define OUT_DIRECT (64 * 1024)	/* plain writes this large skip the buffer */
#define OUTQ_BUFS  4		/* ssp_out_async: buffers filled or queued */

struct ssp_out {
	int fd;
	int own_fd;
	char *name;
	uint64_t pos, rawpos;
	ZSTD_CStream *zcs;	/* with a writer thread, its own (and zbuf) */
	uint8_t *buf;		/* plain bytes waiting to be written/compressed */
	size_t len;
	uint8_t *zbuf;
	size_t zcap;
	int failed;
	/*
	 * The writer thread of ssp_out_async, or NULL: the caller fills
	 * buffer cur (buf is cur->p) and hands it over with the stream offset
	 * at its end (pos) and its ZSTD_EndDirective (mode); the thread
	 * compresses and writes it while the caller fills the next one.
	 */
	struct ssp_ring *ring;
	struct ssp_ring_buf *cur;
	_Atomic uint64_t qraw;	/* bytes the thread wrote */
	/* ssp_out_writeback: bytes between starts, the file's size and
	 * what was handed to writeback (only the thread that writes, the
	 * caller or the writer thread, touches them) */
	uint64_t wb_every, wb_off, wb_done;
};

enum ssp_status
ssp_out_open(struct ssp_out **op, const char *path, int zlevel,
    struct ssp_err *e)
{
	return ssp_out_open_as(op, path, path, zlevel, e);
}

enum ssp_status
ssp_out_open_as(struct ssp_out **op, const char *path, const char *name,
    int zlevel, struct ssp_err *e)
{
	struct ssp_out *o;
	int stdout_ = path == NULL || strcmp(path, "-") == 0;

	*op = NULL;
	if (!stdout_ && name == NULL)
		name = path;
	if (zlevel == SSP_OUT_ZAUTO)
		zlevel = !stdout_ && ssp_path_is_zst(name) ? SSP_OUT_ZDEFAULT : 0;
	if (zlevel < 0 || zlevel > ZSTD_maxCLevel())
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "zstd level %d out of "
		    "range 1..%d", zlevel, ZSTD_maxCLevel());
	o = calloc(1, sizeof(*o));
	if (o == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	o->name = strdup(stdout_ ? "stdout" : name);
	o->buf = malloc(OUT_BUF);
	if (o->name == NULL || o->buf == NULL)
		goto nomem;
	if (stdout_) {
		o->fd = STDOUT_FILENO;
	} else {
		o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (o->fd < 0) {
			int err = errno;
			ssp_out_abort(o);
			return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", name,
			    strerror(err));
		}
		o->own_fd = 1;
	}
	if (zlevel > 0) {
		o->zcs = ZSTD_createCStream();
		o->zcap = ZSTD_CStreamOutSize();
		o->zbuf = malloc(o->zcap);
		if (o->zcs == NULL || o->zbuf == NULL)
			goto nomem;
		ZSTD_CCtx_setParameter(o->zcs, ZSTD_c_compressionLevel, zlevel);
		ZSTD_CCtx_setParameter(o->zcs, ZSTD_c_checksumFlag, 1);
		/* A reader holds one window per stream, and evspan reads
		 * every stream of a run at once: 1 MiB instead of level
		 * 3's 2 MiB halves that memory for 0.04 % more bytes. */
		ZSTD_CCtx_setParameter(o->zcs, ZSTD_c_windowLog, OUT_WINDOW_LOG);
	}
	*op = o;
	return SSP_OK;
nomem:
	ssp_out_abort(o);
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

/* ssp_out_writeback: start writing back what came since the last start
 * once wb_every bytes have; advice only (the fsync that follows reports
 * errors), given up where the call is not supported. */
static void
writeback(struct ssp_out *o, size_t n)
{
	o->wb_off += n;
	if (o->wb_off - o->wb_done < o->wb_every)
		return;
#ifdef SYNC_FILE_RANGE_WRITE
	if (sync_file_range(o->fd, (off_t)o->wb_done,
	    (off_t)(o->wb_off - o->wb_done), SYNC_FILE_RANGE_WRITE) != 0)
		o->wb_every = 0;
#else
	o->wb_every = 0;
#endif
	o->wb_done = o->wb_off;
}

/* Write n bytes to the fd; *raw counts them.  pos (the stream offset)
 * is for the message.  Touches nothing else of o but the writeback
 * counts: the writer thread runs it. */
static enum ssp_status
write_all(struct ssp_out *o, const uint8_t *p, size_t n, uint64_t pos,
    uint64_t *raw, struct ssp_err *e)
{
	size_t all = n;
	ssize_t r;

	while (n > 0) {
		r = write(o->fd, p, n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return ssp_err_set(e, SSP_ERR_IO, pos, "%s: write: %s",
			    o->name, strerror(errno));
		}
		p += r;
		n -= (size_t)r;
		*raw += (uint64_t)r;
	}
	if (o->wb_every != 0)
		writeback(o, all);
	return SSP_OK;
}

/* Push len plain bytes through the compressor (or straight out), as
 * write_all. */
static enum ssp_status
emit(struct ssp_out *o, const uint8_t *buf, size_t len,
    ZSTD_EndDirective mode, uint64_t pos, uint64_t *raw, struct ssp_err *e)
{
	ZSTD_inBuffer in = { buf, len, 0 };
	enum ssp_status rc;
	size_t left;

	if (o->zcs == NULL)
		return write_all(o, buf, len, pos, raw, e);
	do {
		ZSTD_outBuffer out = { o->zbuf, o->zcap, 0 };

		left = ZSTD_compressStream2(o->zcs, &out, &in, mode);
		if (ZSTD_isError(left))
			return ssp_err_set(e, SSP_ERR_IO, pos, "%s: zstd: %s",
			    o->name, ZSTD_getErrorName(left));
		if ((rc = write_all(o, o->zbuf, out.pos, pos, raw, e)) != SSP_OK)
			return rc;
	} while (mode == ZSTD_e_continue ? in.pos < in.size : left != 0);
	return SSP_OK;
}

static void *
writer_main(void *arg)
{
	struct ssp_out *o = arg;
	const struct ssp_ring_buf *b;
	struct ssp_err e;
	uint64_t raw;
	enum ssp_status rc;

	while ((b = ssp_ring_get(o->ring)) != NULL) {
		raw = 0;
		rc = emit(o, b->p, b->len, (ZSTD_EndDirective)b->mode, b->pos,
		    &raw, &e);
		atomic_fetch_add(&o->qraw, raw);
		if (rc != SSP_OK) {
			e.code = rc;
			ssp_ring_fail(o->ring, &e);
			break;
		}
		ssp_ring_release(o->ring);
	}
	return NULL;
}

/* The writer thread failed: the error, once, then "earlier write failed". */
static enum ssp_status
writer_failed(struct ssp_out *o, struct ssp_err *e)
{
	o->failed = 1;
	return ssp_ring_error(o->ring, e);
}

/* Hand the buffer on: write it now, or queue it for the writer thread
 * and take the next free buffer. */
static enum ssp_status
drain(struct ssp_out *o, ZSTD_EndDirective mode, struct ssp_err *e)
{
	enum ssp_status r = SSP_OK;

	if (o->ring == NULL) {
		r = emit(o, o->buf, o->len, mode, o->pos, &o->rawpos, e);
		if (r != SSP_OK)
			o->failed = 1;
		o->len = 0;
		return r;
	}
	o->cur->len = o->len;
	o->cur->mode = (int)mode;
	o->cur->pos = o->pos;
	ssp_ring_push(o->ring);
	if ((o->cur = ssp_ring_fill(o->ring)) == NULL)
		r = writer_failed(o, e);
	o->rawpos = atomic_load(&o->qraw);
	o->buf = o->cur != NULL ? o->cur->p : NULL;
	o->len = 0;
	return r;
}

/* With a writer thread: wait until it wrote everything queued. */
static enum ssp_status
drained(struct ssp_out *o, struct ssp_err *e)
{
	enum ssp_status r = SSP_OK;

	if (o->ring == NULL)
		return SSP_OK;
	if (ssp_ring_drain(o->ring) != SSP_OK)
		r = writer_failed(o, e);
	o->rawpos = atomic_load(&o->qraw);
	return r;
}

/* Stop the writer thread (cancelled if it is stuck writing) and free the
 * ring, o->buf with it. */
static void
writer_stop(struct ssp_out *o)
{
	if (o->ring == NULL)
		return;
	ssp_ring_free(o->ring);
	o->ring = NULL;
	o->cur = NULL;
	o->buf = NULL;
	o->len = 0;
}

enum ssp_status
ssp_out_async(struct ssp_out *o, struct ssp_err *e)
{
	enum ssp_status rc;

	if (o->ring != NULL)
		return SSP_OK;
	if ((rc = ssp_ring_new(&o->ring, OUTQ_BUFS, OUT_BUF, 1, 1, e)) != SSP_OK)
		return rc;
	o->cur = ssp_ring_fill(o->ring);	/* a fresh ring: never NULL */
	memcpy(o->cur->p, o->buf, o->len);	/* what was written so far */
	atomic_store(&o->qraw, o->rawpos);
	if ((rc = ssp_ring_start(o->ring, SSP_RING_CONSUMER, writer_main, o, 1,
	    e)) != SSP_OK) {
		ssp_ring_free(o->ring);
		o->ring = NULL;
		o->cur = NULL;
		return rc;
	}
	free(o->buf);
	o->buf = o->cur->p;
	return SSP_OK;
}

enum ssp_status
ssp_out_write(struct ssp_out *o, const void *p, size_t n, struct ssp_err *e)
{
	const uint8_t *s = p;
	enum ssp_status rc;

	if (o->failed)
		return ssp_err_set(e, SSP_ERR_IO, o->pos, "%s: earlier write failed",
		    o->name);
	if (o->zcs == NULL && o->ring == NULL && n >= OUT_DIRECT) {
		/* big plain write: no copy */
		if (o->len > 0 && (rc = drain(o, ZSTD_e_continue, e)) != SSP_OK)
			return rc;
		o->pos += n;
		if ((rc = write_all(o, s, n, o->pos, &o->rawpos, e)) != SSP_OK)
			o->failed = 1;
		return rc;
	}
	while (n > 0) {
		size_t k = OUT_BUF - o->len;

		if (k > n)
			k = n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		o->pos += k;
		s += k;
		n -= k;
		if (o->len == OUT_BUF &&
		    (rc = drain(o, ZSTD_e_continue, e)) != SSP_OK)
			return rc;
	}
	return SSP_OK;
}

enum ssp_status
ssp_out_flush(struct ssp_out *o, struct ssp_err *e)
{
	enum ssp_status rc;

	if (o->failed)
		return ssp_err_set(e, SSP_ERR_IO, o->pos, "%s: earlier write failed",
		    o->name);
	if ((rc = drain(o, ZSTD_e_flush, e)) != SSP_OK)
		return rc;
	return drained(o, e);
}

enum ssp_status
ssp_out_close(struct ssp_out *o, struct ssp_err *e)
{
	enum ssp_status r = SSP_OK;

	if (o == NULL)
		return SSP_OK;
	if (!o->failed) {
		r = drain(o, o->zcs != NULL ? ZSTD_e_end : ZSTD_e_flush, e);
		if (r == SSP_OK)
			r = drained(o, e);
	} else {
		r = ssp_err_set(e, SSP_ERR_IO, o->pos, "%s: earlier write failed",
		    o->name);
	}
	writer_stop(o);
	if (o->own_fd && close(o->fd) != 0 && r == SSP_OK)
		r = ssp_err_set(e, SSP_ERR_IO, o->pos, "%s: close: %s", o->name,
		    strerror(errno));
	o->own_fd = 0;
	ssp_out_abort(o);
	return r;
}

void
ssp_out_abort(struct ssp_out *o)
{
	if (o == NULL)
		return;
	writer_stop(o);
	if (o->own_fd)
		close(o->fd);
	ZSTD_freeCStream(o->zcs);
	free(o->zbuf);
	free(o->buf);
	free(o->name);
	free(o);
}

void
ssp_out_writeback(struct ssp_out *o, uint64_t every)
{
	struct stat st;

	/* a regular file, written from its start */
	if (every > 0 && (fstat(o->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    lseek(o->fd, 0, SEEK_CUR) != (off_t)o->rawpos))
		every = 0;
	o->wb_every = every;
	o->wb_off = o->wb_done = o->rawpos;
}

const char *ssp_out_name(const struct ssp_out *o) { return o->name; }
uint64_t ssp_out_pos(const struct ssp_out *o) { return o->pos; }
uint64_t ssp_out_rawpos(const struct ssp_out *o) { return o->rawpos; }
int ssp_out_fd(const struct ssp_out *o) { return o->fd; }
int ssp_out_is_zstd(const struct ssp_out *o) { return o->zcs != NULL; }

enum ssp_status
ssp_out_buf(struct ssp_out *o, struct ssp_buf *b, size_t at, struct ssp_err *e)
{
	enum ssp_status rc;

	if (b->failed)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if (b->len < at || b->len == 0)
		return SSP_OK;
	if ((rc = ssp_out_write(o, b->p, b->len, e)) != SSP_OK)
		return rc;
	b->len = 0;
	return SSP_OK;
}
