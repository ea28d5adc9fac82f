/*
 * simsynth's parameters: defaults, range checks (the messages name the
 * option) and the names of the log dialects.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
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
	p->enso_pkts = 4;
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

static const char *const nics[] = { "i40e", "corundum", "e1000", "enso" };

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
	if ((unsigned)p->nic > SSP_SYN_NIC_ENSO)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--nic: want i40e, "
		    "corundum, e1000 or enso");
	if (p->nic == SSP_SYN_NIC_ENSO && (p->host != SSP_SYN_HOST_QEMU ||
	    p->net != SSP_SYN_NET_SWITCH || p->servers != 1))
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--nic enso: the model "
		    "is SimBricks' enso_echo.py, QEMU hosts on one net_switch with "
		    "one echo server (--host qemu --net switch --servers 1)");
	if (p->nic == SSP_SYN_NIC_ENSO && p->switch_pcap)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "--nic enso: not with "
		    "--net switch-pcap (its records carry no port, and Ensō's "
		    "frames carry MAC addresses no port has: every copy is a "
		    "flood, which a capture cannot place)");
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

int
ssp_synparams_scaled(const char *s, int binary, uint64_t *out)
{
	char buf[64];
	size_t n = strlen(s);
	uint64_t mul = 1, v;
	const char *errstr;

	if (n == 0 || n >= sizeof(buf))
		return SSP_ERR_INVAL;
	memcpy(buf, s, n + 1);
	if (n > 3 && strcmp(buf + n - 3, "bps") == 0)
		buf[n -= 3] = '\0';
	switch (n > 0 ? buf[n - 1] : 0) {
	case 'k': case 'K': mul = binary ? 1024ull : 1000ull; break;
	case 'M': mul = binary ? 1024ull * 1024 : 1000000ull; break;
	case 'G': mul = binary ? 1024ull * 1024 * 1024 : 1000000000ull; break;
	case 'T': mul = binary ? 1024ull * 1024 * 1024 * 1024 : 1000000000000ull; break;
	}
	if (mul > 1)
		buf[n - 1] = '\0';
	if (ssp_num_strtou64(buf, &v, &errstr) != 0 || v > UINT64_MAX / mul)
		return SSP_ERR_INVAL;
	*out = v * mul;
	return SSP_OK;
}

/* How the plain parameters are read: numbers in a range, fractions up to
 * a maximum, times (ps, not negative), scaled rates and sizes. */
enum pkind { PK_UNSIGNED, PK_INT, PK_FRAC, PK_TIME, PK_RATE10, PK_RATE2,
	PK_SIZE2 };

#define PO(f) offsetof(struct ssp_synparams, f)
static const struct {
	const char *name;
	enum pkind kind;
	size_t off;
	double min, max;	/* PK_UNSIGNED, PK_INT: min..max; PK_FRAC: 0..max */
} plain[] = {
	{ "bandwidth", PK_RATE10, PO(bandwidth), 0, 0 },
	{ "bg-arp", PK_FRAC, PO(bg_arp), 0, 1 },
	{ "bg-flows", PK_UNSIGNED, PO(bg_flows), 0, 64 },
	{ "bg-load", PK_FRAC, PO(bg_load), 0, 0.95 },
	{ "bg-to-host", PK_FRAC, PO(bg_to_host), 0, 1 },
	{ "checkpoint-offset", PK_TIME, PO(ckpt_offset), 0, 0 },
	{ "concurrency", PK_UNSIGNED, PO(concurrency), 1, 1000 },
	{ "cpus", PK_UNSIGNED, PO(cpus), 1, 4 },
	{ "enso-pkts", PK_UNSIGNED, PO(enso_pkts), 1, 32 },
	{ "eth-latency", PK_TIME, PO(eth_lat), 0, 0 },
	{ "exec-rate", PK_FRAC, PO(exec_rate), 0, 1e6 },
	{ "gem5-size", PK_SIZE2, PO(gem5_size), 0, 0 },
	{ "hosts", PK_UNSIGNED, PO(hosts), 2, 200 },
	{ "housekeeping", PK_FRAC, PO(housekeeping), 0, 100 },
	{ "interval", PK_TIME, PO(interval), 0, 0 },
	{ "itr", PK_TIME, PO(itr), 0, 0 },
	{ "napi-budget", PK_UNSIGNED, PO(napi_budget), 1, 64 },
	{ "net-latency", PK_TIME, PO(net_lat), 0, 0 },
	{ "nonposted", PK_FRAC, PO(nonposted), 0, 1 },
	{ "pace", PK_RATE2, PO(pace), 0, 0 },
	{ "pcie-latency", PK_TIME, PO(pcie_lat), 0, 0 },
	{ "queue-limit", PK_UNSIGNED, PO(queue_limit), 1, 1000000 },
	{ "request-size", PK_UNSIGNED, PO(req_size), 1, 65000 },
	{ "requests", PK_UNSIGNED, PO(requests), 0, 10000000 },
	{ "response-size", PK_UNSIGNED, PO(resp_size), 1, 65000 },
	{ "restart-at", PK_TIME, PO(restart_at), 0, 0 },
	{ "servers", PK_UNSIGNED, PO(servers), 1, 199 },
	{ "sync-interval", PK_TIME, PO(sync_interval), 0, 0 },
	{ "zstd-level", PK_INT, PO(zlevel), 1, 19 },
};
#undef PO

static int
set_plain(struct ssp_synparams *p, unsigned i, const char *arg,
    struct ssp_err *e)
{
	void *f = (char *)p + plain[i].off;
	const char *errstr;
	char *end;
	int64_t v;
	double d;

	switch (plain[i].kind) {
	case PK_UNSIGNED:
	case PK_INT:
		if (ssp_num_strtonum(arg, (int64_t)plain[i].min,
		    (int64_t)plain[i].max, &v, &errstr) != 0)
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s", errstr);
		if (plain[i].kind == PK_INT)
			*(int *)f = (int)v;
		else
			*(unsigned *)f = (unsigned)v;
		break;
	case PK_FRAC:
		d = strtod(arg, &end);
		if (*arg == '\0' || *end != '\0' || !(d >= 0 && d <= plain[i].max))
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "invalid");
		*(double *)f = d;
		break;
	case PK_TIME:
		if (ssp_num_parse_time(arg, &v, &errstr) != 0)
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s", errstr);
		if (v < 0)
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "negative");
		*(int64_t *)f = v;
		break;
	case PK_RATE10:
	case PK_RATE2:
	case PK_SIZE2:
		if (ssp_synparams_scaled(arg, plain[i].kind != PK_RATE10,
		    (uint64_t *)f) != SSP_OK)
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "invalid %s",
			    plain[i].kind == PK_SIZE2 ? "size" : "rate");
		break;
	}
	return SSP_OK;
}

/* --net: the model and its variants. */
static int
set_net(struct ssp_synparams *p, const char *arg, struct ssp_err *e)
{
	p->ns3_e2e = strcmp(arg, "ns3net-nslog") == 0;
	p->ns3_nslog = strcmp(arg, "ns3-nslog") == 0 || p->ns3_e2e;
	p->switch_pcap = strcmp(arg, "switch-pcap") == 0;
	if (strcmp(arg, "ns3") == 0 || p->ns3_nslog)
		p->net = SSP_SYN_NET_NS3;
	else if (strcmp(arg, "switch") == 0 || p->switch_pcap)
		p->net = SSP_SYN_NET_SWITCH;
	else
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "want ns3, ns3-nslog, "
		    "ns3net-nslog, switch or switch-pcap");
	return SSP_OK;
}

int
ssp_synparams_set(struct ssp_synparams *p, const char *name, const char *arg,
    struct ssp_err *e)
{
	const char *errstr;
	unsigned i;
	int rc;

#define WANT(ok, why) ((ok) == SSP_OK ? SSP_OK : \
	ssp_err_set(e, SSP_ERR_INVAL, 0, "%s", why))
	if (strcmp(name, "seed") == 0)
		return ssp_num_strtou64(arg, &p->seed, &errstr) == 0 ? SSP_OK :
		    ssp_err_set(e, SSP_ERR_INVAL, 0, "%s", errstr);
	if (strcmp(name, "gem5-dialect") == 0)
		return WANT(ssp_synparams_gem5_dialect(arg, &p->gem5_dialect),
		    "want a comma-separated list of current, fmtflag, "
		    "noposted, nobar");
	if (strcmp(name, "kernel") == 0)
		return WANT(ssp_synparams_kernel(arg, &p->kernel),
		    "want columbo or linux");
	if (strcmp(name, "host") == 0) {
		if (strcmp(arg, "gem5") == 0)
			p->host = SSP_SYN_HOST_GEM5;
		else if (strcmp(arg, "qemu") == 0)
			p->host = SSP_SYN_HOST_QEMU;
		else
			return WANT(SSP_ERR_INVAL, "want gem5 or qemu");
		return SSP_OK;
	}
	if (strcmp(name, "flow") == 0)
		return WANT(ssp_synparams_flow(arg, &p->flow),
		    "want udp-rr, tcp-rr or tcp-stream");
	if (strcmp(name, "print") == 0)
		return WANT(ssp_synparams_print(arg, &p->print),
		    "want ideal or real");
	if (strcmp(name, "net") == 0)
		return set_net(p, arg, e);
	if (strcmp(name, "nic") == 0) {
		p->corundum_rtl = strcmp(arg, "corundum-verilator") == 0;
		if (p->corundum_rtl) {
			p->nic = SSP_SYN_NIC_CORUNDUM;
			return SSP_OK;
		}
		return WANT(ssp_synparams_nic(arg, &p->nic), "want i40e, "
		    "corundum, corundum-verilator, e1000 or enso");
	}
	if (strcmp(name, "nicbm-dialect") == 0)
		return WANT(ssp_synparams_nicbm_dialect(arg, &p->nicbm_dialect),
		    "want upstream, columbo or sigcomm22");
#undef WANT
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (strcmp(name, plain[i].name) == 0) {
			if ((rc = set_plain(p, i, arg, e)) != SSP_OK)
				return rc;
			if (strcmp(name, "itr") == 0)
				p->itr_set = 1;
			else if (strcmp(name, "nonposted") == 0)
				p->nonposted_set = 1;
			return SSP_OK;
		}
	return ssp_err_set(e, SSP_ERR_INVAL, 0, "not a parameter");
}

void
ssp_synparams_settle(struct ssp_synparams *p)
{
	/* the RTL adapter answers non-posted writes twice: gem5 hosts send
	 * posted ones unless told otherwise (ssp_synparams_check) */
	if (p->corundum_rtl && p->host == SSP_SYN_HOST_GEM5 && !p->nonposted_set)
		p->nonposted = 0;
}
