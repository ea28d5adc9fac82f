/*
 * A conversion run to its end (convrun.h).
 */
#include "source/convrun.h"

int
ssp_convrun(struct ssp_conv *c, struct ssp_in *in, struct ssp_out *out,
    const struct ssp_convrun_opts *o, int *written, struct ssp_err *e)
{
	int rc;

	SSP_ASSERT(c != NULL && in != NULL && out != NULL && o != NULL &&
	    written != NULL);
	*written = 0;
	if (o->sim == SSP_SIM_PCAP)
		rc = ssp_pcapin_run(c, in, o->at, o->atoms, e);
	else
		rc = ssp_conv_run(c, in, ssp_in_follows(in), o->progress,
		    o->ctx, e);
	if (rc == SSP_OK) {
		if ((rc = ssp_out_close(out, e)) == SSP_OK) {
			*written = 1;
			return SSP_OK;
		}
		out = NULL;	/* closed, and it failed: nothing to keep */
	}
	ssp_conv_abort(c);
	*written = out != NULL && ssp_out_close(out, NULL) == SSP_OK;
	return rc;
}
