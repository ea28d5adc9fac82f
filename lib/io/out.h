/*
 * Byte output for all tools: files and stdout, plain or zstd-compressed,
 * optionally compressed and written by a thread of its own.
 */
#ifndef SSP_OUT_H
#define SSP_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

struct ssp_out;
/*
 * Output: path NULL or "-" means stdout.  zlevel 0 writes plain bytes,
 * 1..19 compresses with zstd at that level, SSP_OUT_ZAUTO compresses at the
 * default level when path ends in ".zst".
 */
#define SSP_OUT_ZAUTO (-1)
#define SSP_OUT_ZDEFAULT 3
SSP_MUST_USE enum ssp_status ssp_out_open(struct ssp_out **op, const char *path,
    int zlevel, struct ssp_err *e);
/*
 * The same, writing path but called name in messages, with SSP_OUT_ZAUTO
 * deciding from name: for a temporary file that becomes name once
 * complete (tools/common/outfile.h).  name NULL: path.
 */
SSP_MUST_USE enum ssp_status ssp_out_open_as(struct ssp_out **op,
    const char *path, const char *name, int zlevel, struct ssp_err *e);
SSP_MUST_USE enum ssp_status ssp_out_write(struct ssp_out *o, const void *p,
    size_t n, struct ssp_err *e);
/*
 * Compress and write in a thread of its own from now on: ssp_out_write
 * copies into a buffer and hands full ones over.  Errors show in a later
 * ssp_out_write, ssp_out_flush or ssp_out_close.
 */
SSP_MUST_USE enum ssp_status ssp_out_async(struct ssp_out *o,
    struct ssp_err *e);
/*
 * For a file that is fsynced once complete (tools/common/outfile.h): from
 * now on, each time every more bytes have been written, ask the kernel
 * to start writing them to disk (Linux: sync_file_range), so the disk
 * works while the tool does and the fsync finds little left to wait for
 * (it was 0.2 to 0.4 s of 0.9 to 1.3 s on a 400 MB trace).  Advice only;
 * nothing on what is not a regular file written from its start; 0 stops.
 * Call before ssp_out_async.
 */
void ssp_out_writeback(struct ssp_out *o, uint64_t every);
/* Hand everything written so far to the kernel (ends a zstd block). */
SSP_MUST_USE enum ssp_status ssp_out_flush(struct ssp_out *o,
    struct ssp_err *e);
/*
 * For encoders that build output in an ssp_buf: once b holds at least at
 * bytes (0: any), write them and empty b.  A failed b (out of memory) is
 * SSP_ERR_NOMEM.
 */
SSP_MUST_USE enum ssp_status ssp_out_buf(struct ssp_out *o, struct ssp_buf *b,
    size_t at, struct ssp_err *e);
/* Finish the zstd frame, flush and close; reports any pending error. */
SSP_MUST_USE enum ssp_status ssp_out_close(struct ssp_out *o,
    struct ssp_err *e);
/* Free without finishing (after an error). */
void ssp_out_abort(struct ssp_out *o);
const char *ssp_out_name(const struct ssp_out *o);
uint64_t ssp_out_pos(const struct ssp_out *o);	/* bytes written before compression */
/* bytes handed to the fd (with a writer thread: by the last flush, or
 * when the last buffer was handed over) */
uint64_t ssp_out_rawpos(const struct ssp_out *o);
int ssp_out_fd(const struct ssp_out *o);
int ssp_out_is_zstd(const struct ssp_out *o);	/* compresses */


#endif
