#include <stdio.h>
#include <stdlib.h>

#include <pcap/pcap.h>

#include "synth/synnic.h"
#include "synth/synpcap.h"

struct ssp_synpcap {
	pcap_t *pc;
	pcap_dumper_t *d;	/* NULL: the dry run */
	char *path;
	uint64_t n;
};

int
ssp_synpcap_open(struct ssp_synpcap **pp, const char *path, struct ssp_err *e)
{
	struct ssp_synpcap *p = calloc(1, sizeof(*p));

	*pp = NULL;
	if (p == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if (path != NULL) {
		/* net_switch: pcap_open_dead_with_tstamp_precision(DLT_EN10MB,
		 * 65535, PCAP_TSTAMP_PRECISION_NANO), pcap_dump_open */
		p->pc = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535,
		    PCAP_TSTAMP_PRECISION_NANO);
		if (p->pc == NULL || (p->d = pcap_dump_open(p->pc, path)) == NULL) {
			ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path, p->pc != NULL ?
			    pcap_geterr(p->pc) : "pcap_open_dead failed");
			if (p->pc != NULL)
				pcap_close(p->pc);
			free(p);
			return SSP_ERR_IO;
		}
	}
	*pp = p;
	return SSP_OK;
}

unsigned
ssp_synpcap_frame(struct ssp_synpcap *p, int64_t t, const struct pkt *pk)
{
	struct pcap_pkthdr ph = { 0 };
	uint8_t buf[2048];
	unsigned n;

	if (p == NULL)
		return 0;
	p->n++;
	n = ssp_synnic_frame(pk, buf, sizeof(buf));
	if (p->d == NULL)
		return 16 + n;
	/* as forward_pkt fills it: seconds, and nanoseconds in tv_usec */
	ph.ts.tv_sec = (time_t)(t / 1000000000000LL);
	ph.ts.tv_usec = (suseconds_t)(t % 1000000000000LL / 1000);
	ph.caplen = n;
	ph.len = n;
	pcap_dump((u_char *)p->d, &ph, buf);
	return 16 + n;
}

uint64_t
ssp_synpcap_records(const struct ssp_synpcap *p)
{
	return p != NULL ? p->n : 0;
}

int
ssp_synpcap_close(struct ssp_synpcap *p, struct ssp_err *e)
{
	int bad = 0;

	if (p == NULL)
		return SSP_OK;
	if (p->d != NULL) {
		bad = pcap_dump_flush(p->d) != 0 || ferror(pcap_dump_file(p->d));
		pcap_dump_close(p->d);
		pcap_close(p->pc);
	}
	free(p);
	return bad ? ssp_err_set(e, SSP_ERR_IO, 0, "pcap capture: write failed") :
	    SSP_OK;
}
