/*
 * Corundum Verilator NIC log parser: the CORUNDUM_VERILATOR_DEBUG lines
 * of simbricks/component-corundum adapter/corundum_simbricks_adapter.cpp
 * (sim_log "info: " lines on stdout, time in ps):
 *   "h2d_read ts=<ps> bar=<d> offset=0x<hex> len=<d>",
 *   "h2d_write ts=.. bar=.. offset=.. len=.. posted=<d> data=<XX >...",
 *   "CorundumAXILManager::read_done() ts=<ps>  id=<d>  addr=0x<hex>
 *   data=<XX >..." and write_done() (with posted=), the register access
 *   completions carrying the host's request id;
 *   "CorundumAXISubordinateRead::doRead() ts= id= addr= len=" and
 *   doWrite() (with data=), the DMAs, whose id is the SimBricks request
 *   id the host prints (gem5's DMA id);
 *   "MsiInterruptHandler::msi_issue: MSI interrupt ts=<ps>, vec=<d>";
 *   "<ps> corundum verilator packet_d2n transmitted packet: packet
 *   len=<d>, packet data=..." and "<ps> corundum verilator n2d_recv
 *   received packet: packet data=...".
 * With the AXI library's AXI_R_DEBUG/AXI_W_DEBUG (simbricks
 * lib/simbricks/axi/axi_subordinate.hh, std::cout), "<ps> AXI R:
 * read_done id=0x<hex>" and "<ps> AXI W completed write for id=<d>" give
 * the DMA completions; its other lines are skipped.
 */
#ifndef SSP_CORUNDUM_H
#define SSP_CORUNDUM_H

#include "source/pline.h"

struct ssp_corundum;

int ssp_corundum_new(struct ssp_corundum **cp, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e);
void ssp_corundum_free(struct ssp_corundum *c);
void ssp_corundum_line(struct ssp_corundum *c, const char *s, size_t len,
    struct ssp_pline *out);

#endif
