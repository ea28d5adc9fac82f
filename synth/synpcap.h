/*
 * simsynth --net switch-pcap: net_switch's -p capture (component-net-base
 * switch/net_switch.cc forward_pkt: pcap_dump of every copy it forwards,
 * before the copy is sent, with the SimBricks time in the nanosecond
 * precision the dumper was opened with), written with libpcap as the
 * switch writes it.  Internal to synth/.
 */
#ifndef SSP_SYNPCAP_H
#define SSP_SYNPCAP_H

#include <stdint.h>

#include "base/err.h"
#include "synth/synmodel.h"

struct ssp_synpcap;

/* path NULL: count records only (the dry run). */
int ssp_synpcap_open(struct ssp_synpcap **pp, const char *path, struct ssp_err *e);
/* One forwarded copy of pk at t ps: its frame bytes (synnic's frame);
 * returns the bytes the record takes in the file. */
unsigned ssp_synpcap_frame(struct ssp_synpcap *p, int64_t t, const struct pkt *pk);
#define SSP_SYNPCAP_HEADER 24	/* bytes of the file header */
uint64_t ssp_synpcap_records(const struct ssp_synpcap *p);
/* Flush and close (NULL is fine): SSP_ERR_IO if a write failed. */
int ssp_synpcap_close(struct ssp_synpcap *p, struct ssp_err *e);

#endif
