#include <stdlib.h>

#include "source/corundum.h"
#include "source/e1000.h"
#include "source/gem5.h"
#include "source/nicbm.h"
#include "source/ns3.h"
#include "source/qemu.h"
#include "source/switch.h"
#include "source/parser.h"

struct ssp_parser {
	enum ssp_sim sim;
	void *impl;
};

int
ssp_parser_new(struct ssp_parser **pp, enum ssp_sim sim,
    const struct ssp_parser_cfg *cfg, struct ssp_err *e)
{
	struct ssp_parser *p;
	int r;

	*pp = NULL;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	p->sim = sim;
	switch (sim) {
	case SSP_SIM_GEM5:
		r = ssp_gem5_new((struct ssp_gem5 **)&p->impl, cfg, e);
		break;
	case SSP_SIM_NICBM:
		r = ssp_nicbm_new((struct ssp_nicbm **)&p->impl, cfg, e);
		break;
	case SSP_SIM_NS3:
		r = ssp_ns3_new((struct ssp_ns3 **)&p->impl, cfg, e);
		break;
	case SSP_SIM_SWITCH:
		r = ssp_switch_new((struct ssp_switch **)&p->impl, cfg, e);
		break;
	case SSP_SIM_QEMU:
		r = ssp_qemu_new((struct ssp_qemu **)&p->impl, cfg, e);
		break;
	case SSP_SIM_CORUNDUM:
		r = ssp_corundum_new((struct ssp_corundum **)&p->impl, cfg, e);
		break;
	case SSP_SIM_E1000:
		r = ssp_e1000_new((struct ssp_e1000 **)&p->impl, cfg, e);
		break;
	default:
		r = ssp_err_set(e, SSP_ERR_INVAL, 0, "no parser for simulator %d",
		    (int)sim);
	}
	if (r != SSP_OK) {
		free(p);
		return r;
	}
	*pp = p;
	return SSP_OK;
}

void
ssp_parser_free(struct ssp_parser *p)
{
	if (p == NULL)
		return;
	switch (p->sim) {
	case SSP_SIM_GEM5: ssp_gem5_free(p->impl); break;
	case SSP_SIM_NICBM: ssp_nicbm_free(p->impl); break;
	case SSP_SIM_NS3: ssp_ns3_free(p->impl); break;
	case SSP_SIM_SWITCH: ssp_switch_free(p->impl); break;
	case SSP_SIM_QEMU: ssp_qemu_free(p->impl); break;
	case SSP_SIM_CORUNDUM: ssp_corundum_free(p->impl); break;
	case SSP_SIM_E1000: ssp_e1000_free(p->impl); break;
	default: break;
	}
	free(p);
}

void
ssp_parser_line(struct ssp_parser *p, const char *s, size_t n,
    struct ssp_pline *out)
{
	if (n > 0 && s[n - 1] == '\r')
		n--;
	out->recovered = 0;
	out->why = NULL;
	out->pre = 0;
	out->acc = 0;
	out->guess = 0;
	out->untimed = 0;
	if (n == 0) {
		out->skip = SSP_SKIP_EMPTY;
		return;
	}
	switch (p->sim) {
	case SSP_SIM_GEM5: ssp_gem5_line(p->impl, s, n, out); break;
	case SSP_SIM_NICBM: ssp_nicbm_line(p->impl, s, n, out); break;
	case SSP_SIM_NS3: ssp_ns3_line(p->impl, s, n, out); break;
	case SSP_SIM_SWITCH: ssp_switch_line(p->impl, s, n, out); break;
	case SSP_SIM_QEMU: ssp_qemu_line(p->impl, s, n, out); break;
	case SSP_SIM_CORUNDUM: ssp_corundum_line(p->impl, s, n, out); break;
	case SSP_SIM_E1000: ssp_e1000_line(p->impl, s, n, out); break;
	default: out->skip = SSP_SKIP_TEXT; break;
	}
}

void
ssp_parser_want_access(struct ssp_parser *p, int on)
{
	if (p->sim == SSP_SIM_GEM5)
		ssp_gem5_want_access(p->impl, on);
}
