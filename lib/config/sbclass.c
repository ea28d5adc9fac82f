#include <stddef.h>
#include <string.h>

#include "config/sbclass.h"

#define H SSP_SBCLASS_HOST
#define N SSP_SBCLASS_NIC
#define W SSP_SBCLASS_NET
#define NONE SSP_SIM_NONE

/*
 * One row per class.  A class whose parser lands gets its sim (sim2ev -f),
 * its log and needle, and loses lacks/enable (simspan-simbricks(1),
 * CLASSES, has the recipe).  2022 orchestrator classes first, then
 * symphony's (v0.3-v0.5.2 and its component packages).
 */
static const struct ssp_sbclass classes[] = {
	/* 2022 (simbricks/simbricks experiments/simbricks/orchestration) */
	{ "Gem5Host", H, SSP_SBCLASS_CMD_GEM5, SSP_SIM_GEM5, SSP_SBCLASS_LOG_GEM5,
	    NULL, NULL, NULL, NULL, NULL, 0 },
	{ "QemuHost", H, SSP_SBCLASS_CMD_QEMU, NONE, SSP_SBCLASS_LOG_NONE, NULL,
	    NULL, NULL, "QEMU prints no trace",
	    "trace a gem5 host instead", 0 },
	{ "I40eNIC", N, SSP_SBCLASS_CMD_NICBM, SSP_SIM_NICBM, SSP_SBCLASS_LOG_NICBM,
	    "nicbm: ", "i40e", "linux-i40e.csv", NULL, NULL, 0 },
	{ "CorundumBMNIC", N, SSP_SBCLASS_CMD_NICBM, SSP_SIM_NICBM,
	    SSP_SBCLASS_LOG_NICBM, "nicbm: ", "mqnic", "linux-corundum.csv", NULL,
	    NULL, 0 },
	{ "E1000NIC", N, SSP_SBCLASS_CMD_NICBM, NONE, SSP_SBCLASS_LOG_NONE, NULL,
	    "e1000", NULL, "no parser reads e1000_gem5's E1000_DEBUG lines yet "
	    "(sim2ev -f e1000 is coming)", "run it with debug = True "
	    "(E1000_DEBUG=1) so that its log is there when the parser lands", 0 },
	{ "NS3BridgeNet", W, SSP_SBCLASS_CMD_NS3_2022, SSP_SIM_NS3,
	    SSP_SBCLASS_LOG_NS3TRACE, NULL, NULL, NULL, NULL, NULL, 0 },
	{ "NS3DumbbellNet", W, SSP_SBCLASS_CMD_NS3_2022, SSP_SIM_NS3,
	    SSP_SBCLASS_LOG_NS3TRACE, NULL, NULL, NULL, NULL, NULL, 0 },
	{ "SwitchNet", W, SSP_SBCLASS_CMD_SWITCH, SSP_SIM_SWITCH,
	    SSP_SBCLASS_LOG_STDERR, "[P ", NULL, NULL, NULL, NULL, 0 },
	{ "I40eMultiNIC", N, SSP_SBCLASS_CMD_NONE, NONE, SSP_SBCLASS_LOG_NONE,
	    NULL, NULL, NULL, "one process simulates several NICs and its "
	    "nicbm log mixes them", NULL, 1 },
	{ "MultiSubNIC", N, SSP_SBCLASS_CMD_NONE, NONE, SSP_SBCLASS_LOG_NONE, NULL,
	    NULL, NULL, "a part of a multi-NIC process", NULL, 1 },
	{ "CorundumVerilatorNIC", N, SSP_SBCLASS_CMD_NONE, NONE,
	    SSP_SBCLASS_LOG_NONE, NULL, NULL, NULL, "an RTL model prints no "
	    "nicbm lines", NULL, 1 },
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
	{ "QemuSim", H, SSP_SBCLASS_CMD_QEMU, NONE, SSP_SBCLASS_LOG_NONE, NULL,
	    NULL, NULL, "no parser reads QEMU's simbricks-pci DEBUG_PRINTS "
	    "lines yet (sim2ev -f qemu is coming), and QEMU has no "
	    "instruction trace", "for host spans use Gem5Sim (its NIC and "
	    "network spans are traced either way)", 0 },
	{ "I40eNicSim", N, SSP_SBCLASS_CMD_NICBM, SSP_SIM_NICBM,
	    SSP_SBCLASS_LOG_NICBM, "nicbm: ", "i40e", "linux-i40e.csv", NULL,
	    NULL, 0 },
	{ "EnsoNicSim", N, SSP_SBCLASS_CMD_NICBM, SSP_SIM_NICBM,
	    SSP_SBCLASS_LOG_NICBM, "nicbm: ", NULL, NULL, NULL, NULL, 0 },
	{ "CorundumVerilatorNICSim", N, SSP_SBCLASS_CMD_NICRTL, NONE,
	    SSP_SBCLASS_LOG_NONE, NULL, "mqnic", NULL, "no parser reads the "
	    "Corundum Verilator model's debug lines yet (sim2ev -f corundum "
	    "is coming)", "its NIC spans need that parser; a behavioural NIC "
	    "(I40eNicSim) is traced today", 0 },
	{ "NS3Net", W, SSP_SBCLASS_CMD_NS3, SSP_SIM_NS3, SSP_SBCLASS_LOG_NS3TRACE,
	    NULL, NULL, NULL, NULL, NULL, 0 },
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
