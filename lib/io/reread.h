/*
 * An input read twice, for a sink that makes two passes (span2html): a
 * file again by its name; standard input, when it is a regular file, by
 * seeking back to where it was; anything else (a pipe, a FIFO, /dev/fd/N)
 * through a copy spooled to an unlinked temporary file in $TMPDIR (else
 * /tmp) while the first pass reads it.  Either pass detects zstd and gzip
 * (SSP_IN_ZSTD_AUTO).
 */
#ifndef SSP_REREAD_H
#define SSP_REREAD_H

#include "base/err.h"
#include "io/in.h"

struct ssp_reread;

/* path, NULL or "-" for standard input: the first pass as *inp. */
SSP_MUST_USE int ssp_reread_open(struct ssp_reread **rp, struct ssp_in **inp,
    const char *path, struct ssp_err *e);
/*
 * After the first pass failed: when reading the input or copying it to
 * the spool is what failed (a read error, a full $TMPDIR), e says that
 * instead of what the reader made of the bytes that did not come.
 */
void ssp_reread_failed(const struct ssp_reread *r, struct ssp_err *e);
/* The second pass as *inp, once the first one's input is closed. */
SSP_MUST_USE int ssp_reread_again(struct ssp_reread *r, struct ssp_in **inp,
    struct ssp_err *e);
/* Free r (the second pass's input closes the spool). */
void ssp_reread_close(struct ssp_reread *r);

#endif
