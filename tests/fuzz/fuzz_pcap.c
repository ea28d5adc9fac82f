/* sim2ev -f pcap's reader over arbitrary bytes (a capture file), through
 * libpcap and the conversion: it converts or fails cleanly with a message;
 * then the frame decoder alone on the bytes for every link type. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "base/atoms.h"
#include "fuzz_lines.h"
#include "fuzz_mem.h"
#include "source/pcapin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int dlts[] = { DLT_EN10MB, DLT_PPP, DLT_RAW, DLT_IPV4 };
	struct ssp_pcapin_at at = { 3, 1 };
	struct ssp_conv_cfg cfg = { 0 };
	struct ssp_atoms *atoms;
	struct ssp_conv *c;
	struct ssp_out *out;
	struct ssp_in *in;
	struct ssp_pline pl;
	struct ssp_err e = { 0 };
	unsigned i;
	int r;

	if (ssp_atoms_new(&atoms, NULL) != SSP_OK ||
	    ssp_out_open(&out, "/dev/null", 0, NULL) != SSP_OK)
		abort();
	cfg.sim = SSP_SIM_PCAP;
	cfg.stream = "fuzz";
	cfg.source = "fuzz";
	cfg.producer = "fuzz";
	cfg.out = out;
	cfg.atoms = atoms;
	if (ssp_conv_open(&c, &cfg, NULL) != SSP_OK)
		abort();
	in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	r = ssp_pcapin_run(c, in, &at, atoms, &e);
	if (r != SSP_OK && (e.code == SSP_OK || memchr(e.msg, '\0', sizeof(e.msg)) == NULL))
		abort();
	if (r != SSP_OK)
		ssp_conv_abort(c);
	ssp_conv_free(c);
	ssp_in_close(in);
	if (ssp_out_close(out, NULL) != SSP_OK)	/* /dev/null */
		abort();
	for (i = 0; i < sizeof(dlts) / sizeof(dlts[0]); i++) {
		memset(&pl, 0, sizeof(pl));
		ssp_pcapin_frame(dlts[i], 5, data, size, size, &at, 1, 1, &pl);
		if (pl.skip == SSP_SKIP_NONE ? pl.ev.type != SSP_EV_NET_SEEN ||
		    pl.ev.ts != 5 || pl.ev.f[SSP_F_NET_NODE] != 3 ||
		    pl.ev.f[SSP_F_NET_DEV] != 1 || pl.ev.f[SSP_F_NET_SPORT] > 65535 ||
		    pl.ev.f[SSP_F_NET_IP_LEN] > 65535 :
		    pl.skip != SSP_SKIP_MALFORMED || pl.why == NULL)
			abort();
	}
	ssp_atoms_free(atoms);
	return 0;
}
