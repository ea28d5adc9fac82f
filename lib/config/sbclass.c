#include <stddef.h>
#include <string.h>

#include "config/sbclass.h"

#define H SSP_SBCLASS_HOST
#define N SSP_SBCLASS_NIC
#define W SSP_SBCLASS_NET
#define NONE SSP_SIM_NONE

/* QEMU prints its simbricks-pci lines only when built so. */
#define QEMU_BUILD "build QEMU with DEBUG_PRINTS, the #define at the top of " \
	"simbricks/qemu's hw/misc/simbricks_pci.c"
#define QEMU_END "; without its lines the traces start at the NIC"

/*
 * One row per class.  A class whose parser lands gets its sim (sim2ev -f),
 * its log and needle, loses lacks, and its enable says how its debug
 * lines get into the log (simspan-simbricks(1), CLASSES, has the recipe).  2022 orchestrator classes first, then
 * symphony's (v0.3-v0.5.2 and its component packages).
 */
static const struct ssp_sbclass classes[] = {
	/* 2022 (simbricks/simbricks experiments/simbricks/orchestration) */
	{ "Gem5Host", H, SSP_SBCLASS_CMD_GEM5, SSP_SIM_GEM5, SSP_SBCLASS_LOG_GEM5,
	    NULL, NULL, NULL, NULL, NULL, 0 },
	{ "QemuHost", H, SSP_SBCLASS_CMD_QEMU, SSP_SIM_QEMU, SSP_SBCLASS_LOG_STDERR,
	    "_mmio_rw: ", NULL, NULL, NULL, QEMU_BUILD QEMU_END, 0 },
	{ "QemuIcountHost", H, SSP_SBCLASS_CMD_QEMU, SSP_SIM_QEMU,
	    SSP_SBCLASS_LOG_STDERR, "_mmio_rw: ", NULL, NULL, NULL,
	    QEMU_BUILD QEMU_END, 0 },
	{ "I40eNIC", N, SSP_SBCLASS_CMD_NICBM, SSP_SIM_NICBM, SSP_SBCLASS_LOG_NICBM,
	    "nicbm: ", "i40e", "linux-i40e.csv", NULL, NULL, 0 },
	{ "CorundumBMNIC", N, SSP_SBCLASS_CMD_NICBM, SSP_SIM_NICBM,
	    SSP_SBCLASS_LOG_NICBM, "nicbm: ", "mqnic", "linux-corundum.csv", NULL,
	    NULL, 0 },
	/* Ensō (simbricks/simbricks 2024-08, before symphony: enso_echo.py's
	 * EnsoBMNIC runs /enso_bm/enso_bm): nicbm's lines, and its own
	 * DEBUG_DEV log on stderr */
	{ "EnsoBMNIC", N, SSP_SBCLASS_CMD_NICBM, SSP_SIM_NICBM,
	    SSP_SBCLASS_LOG_NICBM, " enso: ", NULL, NULL, NULL, NULL, 0 },
	/* both orchestrators: e1000_gem5 (gem5's i8254xGBe on nicbm; gem5's
	 * own IGbE is inside gem5, no simulator of its own) */
	{ "E1000NIC", N, SSP_SBCLASS_CMD_NICBM, SSP_SIM_E1000,
	    SSP_SBCLASS_LOG_STDERR, ": Ethernet", "e1000", "linux-e1000.csv", NULL,
	    "set debug = True on the E1000NIC simulator: e1000_gem5 then runs "
	    "under env E1000_DEBUG=1 and prints its debug lines on stderr", 0 },
	{ "NS3BridgeNet", W, SSP_SBCLASS_CMD_NS3_2022, SSP_SIM_NS3,
	    SSP_SBCLASS_LOG_NS3TRACE, NULL, NULL, NULL, NULL, NULL, 0 },
	{ "NS3DumbbellNet", W, SSP_SBCLASS_CMD_NS3_2022, SSP_SIM_NS3,
	    SSP_SBCLASS_LOG_NS3TRACE, NULL, NULL, NULL, NULL, NULL, 0 },
	{ "SwitchNet", W, SSP_SBCLASS_CMD_SWITCH, SSP_SIM_SWITCH,
	    SSP_SBCLASS_LOG_SWITCH, "[P ", NULL, NULL, NULL, NULL, 0 },
	{ "I40eMultiNIC", N, SSP_SBCLASS_CMD_NONE, NONE, SSP_SBCLASS_LOG_NONE,
	    NULL, NULL, NULL, "one process simulates several NICs and its "
	    "nicbm log mixes them", NULL, 1 },
	{ "MultiSubNIC", N, SSP_SBCLASS_CMD_NONE, NONE, SSP_SBCLASS_LOG_NONE, NULL,
	    NULL, NULL, "a part of a multi-NIC process", NULL, 1 },
	{ "CorundumVerilatorNIC", N, SSP_SBCLASS_CMD_NICRTL, NONE,
	    SSP_SBCLASS_LOG_NONE, NULL, "mqnic", NULL, "the 2022 Corundum "
	    "Verilator model (sims/nic/corundum) prints its own MMIO_DEBUG and "
	    "DMA_DEBUG lines, which sim2ev -f corundum (component-corundum's "
	    "adapter, 2025) does not read", "a behavioural NIC (CorundumBMNIC, "
	    "I40eNIC) is traced", 0 },
	{ "MemSwitchNet", W, SSP_SBCLASS_CMD_NONE, NONE, SSP_SBCLASS_LOG_NONE,
	    NULL, NULL, NULL, "no parser for its log", NULL, 1 },
	{ "TofinoNet", W, SSP_SBCLASS_CMD_NONE, NONE, SSP_SBCLASS_LOG_NONE, NULL,
	    NULL, NULL, "no parser for its log", NULL, 1 },
	{ "WireNet", W, SSP_SBCLASS_CMD_NONE, NONE, SSP_SBCLASS_LOG_NONE, NULL,
	    NULL, NULL, "no parser for its log", NULL, 1 },
	{ "NS3E2ENet", W, SSP_SBCLASS_CMD_NONE, NONE, SSP_SBCLASS_LOG_NONE, NULL,
	    NULL, NULL, "its ns-3 node/device layout is made by the experiment "
	    "script", NULL, 1 },
	{ "NS3SequencerNet", W, SSP_SBCLASS_CMD_NONE, NONE, SSP_SBCLASS_LOG_NONE,
	    NULL, NULL, NULL, "its ns-3 node/device layout is not known", NULL, 1 },

	/* symphony (simbricks.orchestration and the component packages) */
	{ "Gem5Sim", H, SSP_SBCLASS_CMD_GEM5, SSP_SIM_GEM5, SSP_SBCLASS_LOG_GEM5,
	    NULL, NULL, NULL, NULL, NULL, 0 },
	{ "QemuSim", H, SSP_SBCLASS_CMD_QEMU, SSP_SIM_QEMU, SSP_SBCLASS_LOG_STDERR,
	    "_mmio_rw: ", NULL, NULL, NULL, QEMU_BUILD " (QemuSim has no "
	    "attribute for it)" QEMU_END, 0 },
	{ "I40eNicSim", N, SSP_SBCLASS_CMD_NICBM, SSP_SIM_NICBM,
	    SSP_SBCLASS_LOG_NICBM, "nicbm: ", "i40e", "linux-i40e.csv", NULL,
	    NULL, 0 },
	/* Enso: nicbm's lines, and its own DEBUG_DEV log on stderr */
	{ "EnsoNicSim", N, SSP_SBCLASS_CMD_NICBM, SSP_SIM_NICBM,
	    SSP_SBCLASS_LOG_NICBM, " enso: ", NULL, NULL, NULL, NULL, 0 },
	{ "CorundumVerilatorNICSim", N, SSP_SBCLASS_CMD_NICRTL, SSP_SIM_CORUNDUM,
	    SSP_SBCLASS_LOG_STDOUT, "ts=", "mqnic", "linux-mqnic.csv", NULL,
	    "build component-corundum's adapter with CORUNDUM_VERILATOR_DEBUG "
	    "(CorundumVerilatorNICSim has no attribute for it, and it ignores "
	    "mac and log_file: its lines are in out.json's stdout)", 0 },
	{ "NS3Net", W, SSP_SBCLASS_CMD_NS3, SSP_SIM_NS3, SSP_SBCLASS_LOG_NSLOG,
	    "NetDevice:", NULL, NULL, NULL, NULL, 0 },
	{ "TCPProxy", SSP_SBCLASS_PROXY, SSP_SBCLASS_CMD_PROXY, NONE,
	    SSP_SBCLASS_LOG_NONE, NULL, NULL, NULL, NULL, NULL, 0 },
};

const struct ssp_sbclass *
ssp_sbclass_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strcmp(classes[i].name, name) == 0)
			return &classes[i];
	return NULL;
}

const struct ssp_sbclass *
ssp_sbclass_at(unsigned i)
{
	return i < sizeof(classes) / sizeof(classes[0]) ? &classes[i] : NULL;
}
