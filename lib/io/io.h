/*
 * Byte input and output for all tools: files, stdin/stdout, named pipes,
 * with zstd decompression detected by magic on input and zstd compression
 * on request on output.  Nothing here knows about records or lines.
 */
#ifndef SSP_IO_H
#define SSP_IO_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"

struct ssp_in;
struct ssp_out;

/* ssp_in_open flags */
#define SSP_IN_ZSTD_AUTO 0x1	/* decompress when the input starts with a zstd frame */
#define SSP_IN_FOLLOW    0x2	/* see struct ssp_follow */

/* ssp_in_read results besides a byte count */
#define SSP_IN_EOF     0
#define SSP_IN_ERROR (-1)
#define SSP_IN_IDLE  (-2)	/* follow mode: nothing arrived for tick_ms */
#define SSP_IN_BREAK (-3)	/* follow mode: the pipe's writer went away and was reopened */

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
int ssp_in_open(struct ssp_in **inp, const char *path, int flags,
    const struct ssp_follow *follow, struct ssp_err *e);
/* Adopt an open descriptor (closed by ssp_in_close). */
int ssp_in_fdopen(struct ssp_in **inp, int fd, const char *name, int flags,
    struct ssp_err *e);
/*
 * Adopt a function instead of a descriptor (tests, fuzzing): fn(ctx, buf,
 * n) returns like ssp_in_read (bytes, SSP_IN_EOF, SSP_IN_ERROR, and with
 * SSP_IN_FOLLOW also SSP_IN_IDLE and SSP_IN_BREAK), never more than n.
 */
typedef ssize_t ssp_in_readfn(void *ctx, void *buf, size_t n);
int ssp_in_fnopen(struct ssp_in **inp, ssp_in_readfn *fn, void *ctx,
    const char *name, int flags, struct ssp_err *e);
/* Read up to n bytes: >0 bytes, SSP_IN_EOF, SSP_IN_ERROR (e set), or in
 * follow mode SSP_IN_IDLE / SSP_IN_BREAK. */
ssize_t ssp_in_read(struct ssp_in *in, void *buf, size_t n, struct ssp_err *e);
/* Read exactly n bytes unless the input ends: returns bytes read. */
ssize_t ssp_in_read_full(struct ssp_in *in, void *buf, size_t n,
    struct ssp_err *e);
const char *ssp_in_name(const struct ssp_in *in);
uint64_t ssp_in_pos(const struct ssp_in *in);	/* bytes delivered (decompressed) */
uint64_t ssp_in_rawpos(const struct ssp_in *in);	/* bytes read from the file */
int64_t ssp_in_size(const struct ssp_in *in);	/* regular file size, else -1 */
int ssp_in_is_zstd(const struct ssp_in *in);
int ssp_in_fd(const struct ssp_in *in);	/* -1 for ssp_in_fnopen */
int ssp_in_follows(const struct ssp_in *in);	/* opened with SSP_IN_FOLLOW */
/* Follow mode on a pipe: its buffer size in bytes (0 if unknown). */
int ssp_in_pipe_size(const struct ssp_in *in);
void ssp_in_close(struct ssp_in *in);

/*
 * Output: path NULL or "-" means stdout.  zlevel 0 writes plain bytes,
 * 1..19 compresses with zstd at that level, SSP_OUT_ZAUTO compresses at the
 * default level when path ends in ".zst".
 */
#define SSP_OUT_ZAUTO (-1)
#define SSP_OUT_ZDEFAULT 3
int ssp_out_open(struct ssp_out **op, const char *path, int zlevel,
    struct ssp_err *e);
int ssp_out_write(struct ssp_out *o, const void *p, size_t n, struct ssp_err *e);
/*
 * Compress and write in a thread of its own from now on: ssp_out_write
 * copies into a buffer and hands full ones over.  Errors show in a later
 * ssp_out_write, ssp_out_flush or ssp_out_close.
 */
int ssp_out_async(struct ssp_out *o, struct ssp_err *e);
/* Hand everything written so far to the kernel (ends a zstd block). */
int ssp_out_flush(struct ssp_out *o, struct ssp_err *e);
/* Finish the zstd frame, flush and close; reports any pending error. */
int ssp_out_close(struct ssp_out *o, struct ssp_err *e);
/* Free without finishing (after an error). */
void ssp_out_abort(struct ssp_out *o);
const char *ssp_out_name(const struct ssp_out *o);
uint64_t ssp_out_pos(const struct ssp_out *o);	/* bytes written before compression */
/* bytes handed to the fd (with a writer thread: by the last flush, or
 * when the last buffer was handed over) */
uint64_t ssp_out_rawpos(const struct ssp_out *o);
int ssp_out_fd(const struct ssp_out *o);
int ssp_out_is_zstd(const struct ssp_out *o);	/* compresses */

/* Does the file name ask for zstd? */
int ssp_path_is_zst(const char *path);
/* The base name without directories, a .zst suffix and then its last
 * extension ("logs/client.gem5.log.zst" -> "client.gem5"), malloc'd;
 * NULL when out of memory. */
char *ssp_path_stem(const char *path);

#endif
