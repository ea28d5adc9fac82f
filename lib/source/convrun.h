/*
 * One conversion run to its end, as sim2ev makes it: the reader the
 * format needs (a log's lines through conv, following a named pipe when
 * the input was opened with SSP_IN_FOLLOW; a capture's records through
 * pcapin), then the output closed.  After a failure what came before it
 * is kept: the events so far are written without an end block, so readers
 * see the stream as truncated (ssp_conv_abort), and the output is closed.
 */
#ifndef SSP_CONVRUN_H
#define SSP_CONVRUN_H

#include "base/atoms.h"
#include "base/err.h"
#include "io/in.h"
#include "io/out.h"
#include "source/conv.h"
#include "source/pcapin.h"

struct ssp_convrun_opts {
	enum ssp_sim sim;		/* the conversion's cfg.sim */
	struct ssp_atoms *atoms;	/* its cfg.atoms */
	const struct ssp_pcapin_at *at;	/* SSP_SIM_PCAP: where it was taken */
	ssp_conv_progress_fn progress;	/* lines only; may be NULL */
	void *ctx;
};

/*
 * Convert in through c (opened with cfg.out = out) and close out, which
 * is gone after the call either way.  SSP_OK: the stream is complete.
 * Else e says why, and *written whether out was still closed cleanly
 * with the events before the failure (the caller keeps the file or
 * removes it).
 */
SSP_MUST_USE int ssp_convrun(struct ssp_conv *c, struct ssp_in *in,
    struct ssp_out *out, const struct ssp_convrun_opts *o, int *written,
    struct ssp_err *e);

#endif
