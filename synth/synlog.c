#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#include "base/clock.h"
#include "io/out.h"
#include "synth/synlog.h"

#define BUFCAP (1024 * 1024 + SSP_SYNLOG_LINEMAX)

struct ssp_synlog {
	char *path;		/* NULL: count only */
	int zlevel;
	int fd;			/* plain output: written directly, no copy */
	struct ssp_out *out;	/* zstd output */
	struct ssp_pacer *pacer;
	int push;		/* hand every buffer to the reader (pipes, pacing) */
	size_t flush_at;
	char *buf;
	size_t len;
	struct ssp_synlog_stats st;
	int failed;
	char errmsg[256];
};

/* Open the output; a named pipe's open(2) waits for a reader: timed. */
static int
out_open(struct ssp_synlog *l, struct ssp_err *e)
{
	uint64_t t0 = ssp_clock_ns(), dt;
	int r = SSP_OK;

	if (l->zlevel > 0) {
		r = ssp_out_open(&l->out, l->path, l->zlevel, e);
	} else {
		l->fd = open(l->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (l->fd < 0)
			r = ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", l->path,
			    strerror(errno));
	}
	dt = ssp_clock_ns() - t0;
	if (dt > l->st.open_max_ns)
		l->st.open_max_ns = dt;
	return r;
}

static int
is_open(const struct ssp_synlog *l)
{
	return l->fd >= 0 || l->out != NULL;
}

static int
out_close(struct ssp_synlog *l, struct ssp_err *e)
{
	int r = SSP_OK;

	if (l->out != NULL)
		r = ssp_out_close(l->out, e);
	else if (l->fd >= 0 && close(l->fd) != 0)
		r = ssp_err_set(e, SSP_ERR_IO, 0, "%s: close: %s", l->path,
		    strerror(errno));
	l->out = NULL;
	l->fd = -1;
	return r;
}

static int
write_all(struct ssp_synlog *l, const char *p, size_t n, struct ssp_err *e)
{
	ssize_t r;

	while (n > 0) {
		if ((r = write(l->fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			return ssp_err_set(e, SSP_ERR_IO, l->st.bytes, "%s: write: %s",
			    l->path, strerror(errno));
		}
		p += r;
		n -= (size_t)r;
	}
	return SSP_OK;
}

int
ssp_synlog_open(struct ssp_synlog **lp, const char *path, int zlevel,
    struct ssp_pacer *pacer, size_t flush_bytes, struct ssp_err *e)
{
	struct ssp_synlog *l = calloc(1, sizeof(*l));

	*lp = NULL;
	if (l == NULL || (l->buf = malloc(BUFCAP)) == NULL ||
	    (path != NULL && (l->path = strdup(path)) == NULL)) {
		if (l != NULL)
			free(l->buf);
		free(l);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	l->zlevel = zlevel;
	l->fd = -1;
	l->pacer = pacer;
	l->flush_at = flush_bytes == 0 || flush_bytes > BUFCAP - SSP_SYNLOG_LINEMAX ?
	    BUFCAP - SSP_SYNLOG_LINEMAX : flush_bytes;
	if (path != NULL) {
		struct stat sb;

		l->push = (pacer != NULL && pacer->rate > 0) ||
		    (stat(path, &sb) == 0 && S_ISFIFO(sb.st_mode));
	}
	if (path != NULL && out_open(l, e) != SSP_OK) {
		free(l->path);
		free(l->buf);
		free(l);
		return e != NULL ? e->code : SSP_ERR_IO;
	}
	*lp = l;
	return SSP_OK;
}

static void
pace(struct ssp_pacer *pc, size_t n)
{
	uint64_t due_ns, now;

	if (pc == NULL || pc->rate == 0)
		return;
	if (pc->t0_ns == 0)
		pc->t0_ns = ssp_clock_ns();
	pc->bytes += n;
	due_ns = pc->t0_ns + (uint64_t)((double)pc->bytes * 1e9 / (double)pc->rate);
	now = ssp_clock_ns();
	if (due_ns > now) {
		struct timespec ts = { (time_t)((due_ns - now) / 1000000000u),
		    (long)((due_ns - now) % 1000000000u) };

		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
}

int
ssp_synlog_flush(struct ssp_synlog *l, struct ssp_err *e)
{
	struct ssp_err le = { 0 };
	uint64_t t0, dt;
	int r;

	if (l->failed) {	/* the output is gone: drop what comes */
		l->len = 0;
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s", l->errmsg);
	}
	if (!is_open(l) || l->len == 0) {
		l->len = 0;
		return SSP_OK;
	}
	pace(l->pacer, l->len);
	t0 = ssp_clock_ns();
	if (l->out == NULL) {
		r = write_all(l, l->buf, l->len, &le);
	} else {
		r = ssp_out_write(l->out, l->buf, l->len, &le);
		if (r == SSP_OK && l->push)	/* ends a zstd block */
			r = ssp_out_flush(l->out, &le);
	}
	dt = ssp_clock_ns() - t0;
	l->st.writes++;
	l->st.blocked_ns += dt;
	if (dt > l->st.blocked_max_ns)
		l->st.blocked_max_ns = dt;
	l->len = 0;
	if (r != SSP_OK) {
		l->failed = 1;
		snprintf(l->errmsg, sizeof(l->errmsg), "%s", le.msg);
		return ssp_err_set(e, r, le.offset, "%s", le.msg);
	}
	return SSP_OK;
}

char *
ssp_synlog_room(struct ssp_synlog *l)
{
	if (l->len >= l->flush_at)
		(void)ssp_synlog_flush(l, NULL);	/* failure is sticky */
	return l->buf + l->len;
}

void
ssp_synlog_commit_n(struct ssp_synlog *l, char *end, uint64_t lines)
{
	l->st.bytes += (uint64_t)(end - (l->buf + l->len));
	l->st.lines += lines;
	l->len = (size_t)(end - l->buf);
	if (!is_open(l) && l->len >= l->flush_at)
		l->len = 0;
}

void
ssp_synlog_commit(struct ssp_synlog *l, char *end)
{
	char *p = l->buf + l->len;
	uint64_t lines = 0;

	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		lines++;
		p++;
	}
	ssp_synlog_commit_n(l, end, lines);
}

int
ssp_synlog_reopen(struct ssp_synlog *l, struct ssp_err *e)
{
	struct stat sb;
	int r;

	if (!is_open(l) || stat(l->path, &sb) != 0 || !S_ISFIFO(sb.st_mode))
		return SSP_OK;
	if ((r = ssp_synlog_flush(l, e)) != SSP_OK)
		return r;
	r = out_close(l, e);
	if (r != SSP_OK || (r = out_open(l, e)) != SSP_OK) {
		l->failed = 1;
		snprintf(l->errmsg, sizeof(l->errmsg), "%s: reopen failed",
		    l->path);
		return r;
	}
	l->st.reopens++;
	return SSP_OK;
}

int
ssp_synlog_close(struct ssp_synlog *l, struct ssp_err *e)
{
	int r;

	if (l == NULL)
		return SSP_OK;
	r = ssp_synlog_flush(l, e);
	if (r == SSP_OK)
		r = out_close(l, e);
	else if (l->out != NULL)
		ssp_out_abort(l->out);
	else if (l->fd >= 0)
		close(l->fd);
	free(l->path);
	free(l->buf);
	free(l);
	return r;
}

const char *ssp_synlog_path(const struct ssp_synlog *l) { return l->path; }
const struct ssp_synlog_stats *ssp_synlog_stats(const struct ssp_synlog *l) { return &l->st; }
int ssp_synlog_failed(const struct ssp_synlog *l) { return l->failed; }
const char *ssp_synlog_error(const struct ssp_synlog *l) { return l->errmsg; }

/* --- formatting --------------------------------------------------------- */

static const char digits2[201] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

char *
ssp_synlog_put_u64(char *p, uint64_t v)
{
	char tmp[24], *t = tmp + sizeof(tmp);
	size_t n;

	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;

		v /= 100;
		*--t = digits2[d + 1];
		*--t = digits2[d];
	}
	if (v >= 10) {
		*--t = digits2[v * 2 + 1];
		*--t = digits2[v * 2];
	} else {
		*--t = (char)('0' + v);
	}
	n = (size_t)(tmp + sizeof(tmp) - t);
	memcpy(p, t, n);
	return p + n;
}

char *
ssp_synlog_put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return ssp_synlog_put_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return ssp_synlog_put_u64(p, (uint64_t)v);
}

char *
ssp_synlog_put_u64_w(char *p, uint64_t v, int width)
{
	char tmp[24];
	int n = (int)(ssp_synlog_put_u64(tmp, v) - tmp);

	while (n < width--)
		*p++ = ' ';
	memcpy(p, tmp, (size_t)n);
	return p + n;
}

static char *
put_hex_gen(char *p, uint64_t v, int width, const char *dig)
{
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = dig[v & 0xf];
		v >>= 4;
	} while (v != 0);
	while (n < width)
		tmp[n++] = '0';
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

char *ssp_synlog_put_hex(char *p, uint64_t v) { return put_hex_gen(p, v, 0, "0123456789abcdef"); }
char *ssp_synlog_put_hex_w(char *p, uint64_t v, int w) { return put_hex_gen(p, v, w, "0123456789abcdef"); }
char *ssp_synlog_put_hex_up(char *p, uint64_t v, int w) { return put_hex_gen(p, v, w, "0123456789ABCDEF"); }

char *
ssp_synlog_put_hashx(char *p, uint64_t v)
{
	if (v == 0) {
		*p++ = '0';
		return p;
	}
	*p++ = '0';
	*p++ = 'x';
	return ssp_synlog_put_hex(p, v);
}

char *
ssp_synlog_put_mac(char *p, uint64_t mac)
{
	int i;

	for (i = 5; i >= 0; i--) {
		p = ssp_synlog_put_hex_w(p, (mac >> (8 * i)) & 0xff, 2);
		if (i > 0)
			*p++ = ':';
	}
	return p;
}

char *
ssp_synlog_put_ip(char *p, uint32_t ip)
{
	int i;

	for (i = 3; i >= 0; i--) {
		p = ssp_synlog_put_u64(p, (ip >> (8 * i)) & 0xff);
		if (i > 0)
			*p++ = '.';
	}
	return p;
}

static const char *skip_names[SSP_SYNSKIP_N] = { "exec", "microop",
	"nopfence", "fault", "sbother", "nicinfo", "dmadata" };

const char *
ssp_synlog_skip_name(unsigned reason)
{
	return reason < SSP_SYNSKIP_N ? skip_names[reason] : "?";
}
