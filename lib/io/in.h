/*
 * Byte input for all tools: files, stdin, named pipes, with zstd and gzip
 * decompression detected by their magic and a follow mode for live logs.
 * Nothing here knows about records or lines.
 */
#ifndef SSP_IN_H
#define SSP_IN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"

struct ssp_in;
/* ssp_in_open flags */
#define SSP_IN_ZSTD_AUTO 0x1	/* decompress when the input starts with a zstd
				 * frame or a gzip member (several: one after
				 * the other, as gzip -d does) */
#define SSP_IN_FOLLOW    0x2	/* see struct ssp_follow */

/* ssp_in_read results besides a byte count (> 0) and an error (a negated
 * ssp_status, -SSP_ERR_*); the follow-mode ones lie below every -status. */
#define SSP_IN_EOF     0
#define SSP_IN_IDLE  (-0x100)	/* follow mode: nothing arrived for tick_ms */
#define SSP_IN_BREAK (-0x101)	/* follow mode: the pipe's writer went away and was reopened */

/*
 * Follow mode keeps reading across the end of input: a named pipe is
 * reopened when its writer closes it (a simulator restarting from a
 * checkpoint), a regular file is polled for growth like tail -f.  The
 * pipe always keeps a reader, so a writer never blocks in open(2), and
 * its buffer is enlarged to SSP_IN_PIPE_SIZE where the system permits.
 *
 * Reading ends when *stop becomes non-zero (set it from a signal handler)
 * or after timeout_ms (0 = never) of idleness: for a named pipe, time
 * during which no writer has it open, counted only after a first writer
 * came (waiting for the first writer, or behind a writer that is attached
 * but quiet, never times out); for other inputs, time without new bytes.
 * Either way the bytes already in the pipe or file when the stop is
 * noticed are still delivered before SSP_IN_EOF.
 */
#define SSP_IN_PIPE_SIZE (1024 * 1024)
struct ssp_follow {
	volatile sig_atomic_t *stop;
	unsigned tick_ms;	/* how often SSP_IN_IDLE is returned while waiting */
	uint64_t timeout_ms;
};

/* path NULL or "-" means stdin.  follow may be NULL without SSP_IN_FOLLOW. */
SSP_MUST_USE enum ssp_status ssp_in_open(struct ssp_in **inp, const char *path,
    int flags, const struct ssp_follow *follow, struct ssp_err *e);
/* Adopt an open descriptor (closed by ssp_in_close). */
SSP_MUST_USE enum ssp_status ssp_in_fdopen(struct ssp_in **inp, int fd,
    const char *name, int flags, struct ssp_err *e);
/*
 * Adopt a function instead of a descriptor (tests, fuzzing): fn(ctx, buf,
 * n) returns like ssp_in_read (bytes, SSP_IN_EOF, -SSP_ERR_IO, and with
 * SSP_IN_FOLLOW also SSP_IN_IDLE and SSP_IN_BREAK), never more than n.
 */
typedef ssize_t ssp_in_readfn(void *ctx, void *buf, size_t n);
SSP_MUST_USE enum ssp_status ssp_in_fnopen(struct ssp_in **inp,
    ssp_in_readfn *fn, void *ctx, const char *name, int flags,
    struct ssp_err *e);
/* Read up to n bytes: >0 bytes, SSP_IN_EOF, -status on an error (e set),
 * or in follow mode SSP_IN_IDLE / SSP_IN_BREAK. */
ssize_t ssp_in_read(struct ssp_in *in, void *buf, size_t n, struct ssp_err *e);
/* Read exactly n bytes unless the input ends: returns bytes read, or
 * -status on an error (e set). */
ssize_t ssp_in_read_full(struct ssp_in *in, void *buf, size_t n,
    struct ssp_err *e);
const char *ssp_in_name(const struct ssp_in *in);
uint64_t ssp_in_pos(const struct ssp_in *in);	/* bytes delivered (decompressed) */
uint64_t ssp_in_rawpos(const struct ssp_in *in);	/* bytes read from the file */
int64_t ssp_in_size(const struct ssp_in *in);	/* regular file size, else -1 */
int ssp_in_is_zstd(const struct ssp_in *in);
int ssp_in_is_compressed(const struct ssp_in *in);	/* zstd or gzip */
int ssp_in_fd(const struct ssp_in *in);	/* -1 for ssp_in_fnopen */
int ssp_in_follows(const struct ssp_in *in);	/* opened with SSP_IN_FOLLOW */
/* Follow mode on a pipe: its buffer size in bytes (0 if unknown). */
int ssp_in_pipe_size(const struct ssp_in *in);
void ssp_in_close(struct ssp_in *in);


#endif
