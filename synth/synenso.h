/*
 * simsynth --nic enso: SimBricks' Ensō NIC (simbricks/component-enso
 * enso_bm, a nicbm device) with nicbm's DEBUG_NICBM lines, behind Ensō's
 * userspace library (crossroadsfpga/enso, branch simbricks-24.04, the
 * one component-enso's guest image installs) on QEMU hosts, as SimBricks'
 * enso_echo.py runs it: EnsoGen clients and an echo server on one
 * net_switch.  Ensō has no descriptor rings and no interrupts: the NIC
 * writes packets into a pipe (a 2 MiB ring in host memory) and an RX
 * notification when a pipe goes from empty to not empty; the software
 * polls its notification buffer and writes the heads back by MMIO; to
 * send, it writes a TX notification into memory and the TX tail
 * register, and the NIC reads the notifications, the data (2 KiB DMAs),
 * sends every whole packet and writes the notification back as its
 * completion.  Internal to synth/.
 */
#ifndef SSP_SYNENSO_H
#define SSP_SYNENSO_H

#include "synth/synmodel.h"

int ssp_synenso_init(struct syn *s, struct nic *n);
/* nicbm's start lines, the host's sync timer and the application's
 * setup (notification buffer, pipe, configuration). */
void ssp_synenso_start(struct syn *s, struct nic *n);
/* The events of an Ensō NIC and its host (EV_NIC_*, EV_HOST_*,
 * EV_ENSO_APP). */
void ssp_synenso_event(struct syn *s, const struct sev *ev);
/* EnsoGen on client h sends one transfer: --enso-pkts copies of pk
 * (handed over). */
void ssp_synenso_send(struct syn *s, struct host *h, struct pkt *pk);
void ssp_synenso_finish(struct syn *s, struct nic *n);
void ssp_synenso_free(struct nic *n);

#endif
