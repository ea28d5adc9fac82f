/*
 * simsynth's parameters: defaults, range checks (the messages name the
 * option) and the names of the log dialects.
 */
#include <string.h>

#include "synth/syngem5.h"
#include "synth/synparams.h"

#define PS_NS 1000LL
#define PS_US 1000000LL

void
ssp_synparams_defaults(struct ssp_synparams *p)
{
	memset(p, 0, sizeof(*p));
	p->hosts = 2;
	p->servers = 1;
	p->requests = 100;
	p->concurrency = 1;
	p->req_size = 64;
	p->resp_size = 1024;
	p->interval = 50 * PS_US;
	p->pcie_lat = 500 * PS_NS;
	p->eth_lat = 500 * PS_NS;
	p->net_lat = 1 * PS_US;
	p->bandwidth = 10000000000ull;
	p->queue_limit = 64;
	p->bg_load = 0.3;
	p->bg_flows = 2;
	p->bg_to_host = 0.05;
	p->bg_arp = 0.3;
	p->nonposted = 0.05;
	p->housekeeping = 1.0;
	p->itr = 0;
	p->sync_interval = 500 * PS_NS;
	p->seed = 1;
	p->exec_rate = 10;
	p->kernel = SSP_SYN_KERNEL_COLUMBO;
	p->cpus = 1;
	p->flow = SSP_SYN_FLOW_UDP_RR;
	p->napi_budget = 8;
	p->itr_linux = 8 * PS_US;
}

int
ssp_synparams_kernel(const char *name, enum ssp_synparams_kernel *out)
{
	if (strcmp(name, "columbo") == 0)
		*out = SSP_SYN_KERNEL_COLUMBO;
	else if (strcmp(name, "linux") == 0)
		*out = SSP_SYN_KERNEL_LINUX;
	else
		return SSP_ERR_INVAL;
	return SSP_OK;
}

int
ssp_synparams_print(const char *name, enum ssp_synparams_print *out)
{
	if (strcmp(name, "ideal") == 0)
		*out = SSP_SYN_PRINT_IDEAL;
	else if (strcmp(name, "real") == 0)
		*out = SSP_SYN_PRINT_REAL;
	else
		return SSP_ERR_INVAL;
	return SSP_OK;
}

enum ssp_synparams_print
ssp_synparams_printing(const struct ssp_synparams *p)
{
	if (p->print != SSP_SYN_PRINT_AUTO)
		return p->print;
	/* --kernel linux prints as gem5 and i40e_bm do (SPEC §3c); the
	 * Columbo world keeps the printing its rules assume */
	return p->kernel == SSP_SYN_KERNEL_LINUX ? SSP_SYN_PRINT_REAL :
	    SSP_SYN_PRINT_IDEAL;
}

static const char *const flows[] = { "udp-rr", "tcp-rr", "tcp-stream" };

int
ssp_synparams_flow(const char *name, enum ssp_synparams_flow *out)
{
	unsigned i;

	for (i = 0; i < sizeof(flows) / sizeof(flows[0]); i++)
		if (strcmp(name, flows[i]) == 0) {
			*out = (enum ssp_synparams_flow)i;
			return SSP_OK;
		}
	return SSP_ERR_INVAL;
}

const char *
ssp_synparams_flow_name(enum ssp_synparams_flow f)
{
	return (unsigned)f < sizeof(flows) / sizeof(flows[0]) ? flows[f] : "?";
}

static const char *const nicbm_dialects[] = { "upstream", "columbo",
	"sigcomm22" };

int
ssp_synparams_nicbm_dialect(const char *name, enum ssp_synparams_nicbm *d)
{
	unsigned i;

	for (i = 0; i < sizeof(nicbm_dialects) / sizeof(nicbm_dialects[0]); i++)
		if (strcmp(name, nicbm_dialects[i]) == 0) {
			*d = (enum ssp_synparams_nicbm)i;
			return SSP_OK;
		}
	return SSP_ERR_INVAL;
}

const char *
ssp_synparams_nicbm_dialect_name(enum ssp_synparams_nicbm d)
{
	return (unsigned)d < sizeof(nicbm_dialects) / sizeof(nicbm_dialects[0]) ?
	    nicbm_dialects[d] : "?";
}

static const char *const nics[] = { "i40e", "corundum", "e1000" };

int
ssp_synparams_nic(const char *name, enum ssp_synparams_nic *n)
{
	unsigned i;

	for (i = 0; i < sizeof(nics) / sizeof(nics[0]); i++)
		if (strcmp(name, nics[i]) == 0) {
			*n = (enum ssp_synparams_nic)i;
			return SSP_OK;
		}
	return SSP_ERR_INVAL;
}

const char *
ssp_synparams_nic_name(enum ssp_synparams_nic n)
{
	return (unsigned)n < sizeof(nics) / sizeof(nics[0]) ? nics[n] : "?";
}

int
ssp_synparams_gem5_dialect(const char *list, unsigned *bits)
{
	const char *p = list;

	*bits = 0;
	for (;;) {
		size_t n = strcspn(p, ",");

		if (n == 7 && strncmp(p, "current", 7) == 0)
			;
		else if (n == 7 && strncmp(p, "fmtflag", 7) == 0)
			*bits |= SSP_SYN_G5_FMTFLAG;
		else if (n == 8 && strncmp(p, "noposted", 8) == 0)
			*bits |= SSP_SYN_G5_NOPOSTED;
		else if (n == 5 && strncmp(p, "nobar", 5) == 0)
			*bits |= SSP_SYN_G5_NOBAR;
		else
			return SSP_ERR_INVAL;
		if (p[n] == '\0')
			return SSP_OK;
		p += n + 1;
	}
}

static int check_common(const struct ssp_synparams *p, struct ssp_err *e);
static int check_linux(const struct ssp_synparams *p, struct ssp_err *e);

int
ssp_synparams_check(const struct ssp_synparams *p, struct ssp_err *e)
{
	if (p->hosts < 2 || p->hosts > 200)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--hosts %u: want 2..200",
		    p->hosts);
	if (p->servers < 1 || p->servers >= p->hosts)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--servers %u: want "
		    "1..%u (at least one client)", p->servers, p->hosts - 1);
	if (p->kernel == SSP_SYN_KERNEL_LINUX)
		return check_linux(p, e);
	if (p->cpus != 1)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--cpus %u: only with "
		    "--kernel linux", p->cpus);
	if (p->concurrency < 1 || p->concurrency > p->hosts - p->servers)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--concurrency %u: want "
		    "1..%u (the number of clients)", p->concurrency,
		    p->hosts - p->servers);
	if (p->requests > 10000000)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--requests %u: at most "
		    "10000000", p->requests);
	if (p->req_size < 1 || p->req_size > 1472 || p->resp_size < 1 ||
	    p->resp_size > 1472)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "payload sizes must be "
		    "1..1472 bytes (one Ethernet frame)");
	return check_common(p, e);
}

/* --kernel linux: clients are threads (--concurrency per client host),
 * TCP sends may be larger than a frame (TSO). */
static int
check_linux(const struct ssp_synparams *p, struct ssp_err *e)
{
	unsigned max = p->flow == SSP_SYN_FLOW_UDP_RR ? 1472 : 65000;

	if (p->cpus < 1 || p->cpus > 4)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--cpus %u: want 1..4",
		    p->cpus);
	if (p->concurrency < 1 || p->concurrency > 16)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--concurrency %u: want "
		    "1..16 client threads per client host", p->concurrency);
	if ((p->hosts - p->servers) * p->concurrency > 64)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "at most 64 client "
		    "threads in all (clients x --concurrency)");
	if (p->req_size < 1 || p->req_size > max || p->resp_size < 1 ||
	    p->resp_size > max)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "payload sizes must be "
		    "1..%u bytes with --flow %s", max, ssp_synparams_flow_name(p->flow));
	if (p->napi_budget < 1 || p->napi_budget > 64)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--napi-budget %u: want "
		    "1..64", p->napi_budget);
	if (p->requests > 1000000)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--requests %u: at most "
		    "1000000 with --kernel linux", p->requests);
	return check_common(p, e);
}

static int
check_common(const struct ssp_synparams *p, struct ssp_err *e)
{
	if (p->pcie_lat < PS_NS || p->eth_lat < PS_NS || p->net_lat < 0)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "link latencies must be "
		    "at least 1ns (SimBricks links have latency > 0)");
	if (p->interval < PS_US)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--interval must be at "
		    "least 1us");
	if (p->bandwidth < 1000000 || p->bandwidth > 1000000000000ull)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--bandwidth must be "
		    "1Mbps..1Tbps");
	if (p->bg_load < 0 || p->bg_load > 0.95)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--bg-load must be "
		    "0..0.95");
	if (p->bg_to_host < 0 || p->bg_to_host > 1 || p->nonposted < 0 ||
	    p->nonposted > 1 || p->bg_arp < 0 || p->bg_arp > 1)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "fractions must be 0..1");
	if (p->housekeeping < 0 || p->housekeeping > 100)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--housekeeping must be "
		    "0..100");
	if (p->bg_flows > 64 || (p->bg_load > 0 && p->bg_flows == 0))
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--bg-flows must be 1..64 "
		    "with background load");
	if (p->sync_interval < 10 * PS_NS)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--sync-interval must be "
		    "at least 10ns");
	if (p->exec_rate < 0 || p->exec_rate > 1e6)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--exec-rate must be "
		    "0..1000000 lines per us");
	if ((unsigned)p->nic > SSP_SYN_NIC_E1000)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--nic: want i40e, "
		    "corundum or e1000");
	if (p->nic == SSP_SYN_NIC_E1000 && p->host != SSP_SYN_HOST_GEM5)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--nic e1000: the model "
		    "has gem5 hosts only (not --host qemu)");
	if (p->nic == SSP_SYN_NIC_CORUNDUM && p->itr > 0)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--itr: corundum_bm has "
		    "no interrupt moderation (every event raises an MSI)");
	if (p->kernel == SSP_SYN_KERNEL_LINUX && p->nic != SSP_SYN_NIC_I40E)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--kernel linux models "
		    "the i40e driver only (not --nic corundum or e1000)");
	if (p->print == SSP_SYN_PRINT_REAL && p->kernel != SSP_SYN_KERNEL_LINUX)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--print real needs "
		    "--kernel linux (the Columbo world prints the ideal way)");
	if (p->host == SSP_SYN_HOST_QEMU && p->kernel != SSP_SYN_KERNEL_COLUMBO)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--host qemu: QEMU prints "
		    "no instruction trace, so the host model is --kernel columbo");
	if (p->host == SSP_SYN_HOST_QEMU && (p->gem5_size > 0 || p->gem5_dialect))
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--host qemu writes no gem5 "
		    "log (--gem5-size, --gem5-dialect)");
	if (p->corundum_rtl && (p->nic != SSP_SYN_NIC_CORUNDUM ||
	    (p->host == SSP_SYN_HOST_GEM5 && p->nonposted > 0)))
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--nic corundum-verilator: "
		    "its adapter answers a non-posted write twice, which gem5 "
		    "cannot take: --nonposted 0 (QEMU hosts ignore the answers)");
	if (p->ckpt_offset < 0 || p->restart_at < 0 || p->itr < 0)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "times must not be "
		    "negative");
	return SSP_OK;
}
