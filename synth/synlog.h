/*
 * simsynth's log writers: one buffered output per simulator log, with
 * hand-rolled number formatting (the hot path writes hundreds of MB/s),
 * optional zstd, a shared pacer that limits the output rate, close/reopen
 * of named pipes (a simulator restarting from a checkpoint), and the time
 * spent blocked in writes.  A writer opened without a path only counts
 * bytes (the dry run that sizes the noise padding).
 */
#ifndef SSP_SYNLOG_H
#define SSP_SYNLOG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"

#define SSP_SYNLOG_LINEMAX 65536	/* room guaranteed by ssp_synlog_room */

/* Output rate limit shared by all writers (bytes per second, 0 = none). */
struct ssp_pacer {
	uint64_t rate;
	uint64_t t0_ns;
	uint64_t bytes;
};

struct ssp_synlog_stats {
	uint64_t bytes, lines;
	uint64_t writes;		/* calls handing data to the output */
	uint64_t blocked_ns, blocked_max_ns;	/* time inside those calls */
	uint64_t open_max_ns;		/* longest open(2), a pipe's included */
	unsigned reopens;
};

/* Why a log line gives no event (by reason, as sim2ev names them). */
enum { SSP_SYNSKIP_EXEC, SSP_SYNSKIP_MICROOP, SSP_SYNSKIP_NOPFENCE,
	SSP_SYNSKIP_FAULT, SSP_SYNSKIP_SBOTHER, SSP_SYNSKIP_NICINFO,
	SSP_SYNSKIP_DMADATA, SSP_SYNSKIP_N };
const char *ssp_synlog_skip_name(unsigned reason);

struct ssp_synlog;

/* path NULL: count only.  zlevel as for ssp_out_open (0 = plain). */
int ssp_synlog_open(struct ssp_synlog **lp, const char *path, int zlevel,
    struct ssp_pacer *pacer, size_t flush_bytes, struct ssp_err *e);
/* Flush and close; the writer is freed even on error. */
int ssp_synlog_close(struct ssp_synlog *l, struct ssp_err *e);
/* If the output is a named pipe: flush, close and open it again. */
int ssp_synlog_reopen(struct ssp_synlog *l, struct ssp_err *e);
int ssp_synlog_flush(struct ssp_synlog *l, struct ssp_err *e);
const char *ssp_synlog_path(const struct ssp_synlog *l);
const struct ssp_synlog_stats *ssp_synlog_stats(const struct ssp_synlog *l);
int ssp_synlog_failed(const struct ssp_synlog *l);	/* an earlier write failed */
const char *ssp_synlog_error(const struct ssp_synlog *l);

/*
 * Appending: ssp_synlog_room returns a pointer with at least
 * SSP_SYNLOG_LINEMAX bytes free (flushing first if needed); write the line
 * there and hand back the end with ssp_synlog_commit.  Lines are counted
 * by their newlines.
 */
char *ssp_synlog_room(struct ssp_synlog *l);
void ssp_synlog_commit(struct ssp_synlog *l, char *end);
/* The same when the caller knows how many lines it wrote. */
void ssp_synlog_commit_n(struct ssp_synlog *l, char *end, uint64_t lines);

/* Formatting helpers: each writes at p and returns the new end. */
static inline char *
ssp_synlog_put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static inline char *
ssp_synlog_put_mem(char *p, const void *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

char *ssp_synlog_put_u64(char *p, uint64_t v);
char *ssp_synlog_put_i64(char *p, int64_t v);
char *ssp_synlog_put_hex(char *p, uint64_t v);		/* lowercase, no 0x */
char *ssp_synlog_put_hex_up(char *p, uint64_t v, int width);	/* uppercase, zero-padded */
char *ssp_synlog_put_hex_w(char *p, uint64_t v, int width);	/* lowercase, zero-padded */
char *ssp_synlog_put_u64_w(char *p, uint64_t v, int width);	/* right-aligned, spaces */
/* gem5's "%#x": 0 prints as "0", anything else as 0x<hex>. */
char *ssp_synlog_put_hashx(char *p, uint64_t v);
/* "aa:bb:cc:dd:ee:ff" */
char *ssp_synlog_put_mac(char *p, uint64_t mac);
char *ssp_synlog_put_ip(char *p, uint32_t ip);

#endif
