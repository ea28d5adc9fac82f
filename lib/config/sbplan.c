#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/sbns3.h"
#include "config/sbplan.h"
#include "config/shword.h"
#include "config/topo.h"
#include "io/in.h"

/* The debug flags a gem5 host needs, for messages. */
#define GEM5_FLAGS "ExecEnable,SimBricksPci,SimBricksSync,PciDevice,PciHost"
/* The largest NS3Net params file read. */
#define PARAMS_MAX (4u << 20)

/* The ns-3 examples whose node/device layout is known (2022 and the
 * NS3BridgeNet/NS3DumbbellNet classes): a CosimNetDevice per port,
 * after the bridge (device 0) and the loopback (bridge example, from
 * InternetStackHelper) or the bottleneck link (dumbbells). */
static const char *const ns3_bridge[] = {
	"cosim-bridge-example", "simbricks-bridge-example", NULL };
static const char *const ns3_dumbbell[] = {
	"cosim-dumbbell-example", "simbricks-dumbbell-example",
	"cosim-dumbbell-hybrid", NULL };

/* One end of a channel: a socket as one simulator names it. */
enum endk { E_PCI_HOST, E_PCI_DEV, E_ETH_NIC, E_ETH_NET, E_PROXY };

struct end {
	enum endk k;
	const char *p;		/* the socket path, len bytes */
	size_t len;
	size_t sim;
	unsigned idx;		/* host: adapter number */
	uint32_t node, dev;	/* network */
	int listen;		/* net_switch -h */
	int sync;		/* 1, 0, or -1 unknown */
	const char *how;	/* the option that says so, for messages */
	int peer;		/* the paired end, or -1 */
};

struct info {
	const struct ssp_sbclass *c;
	int stream;		/* stream index or -1 */
	int order;		/* position in the planning order */
	const char *outdir, *dfile, *dflags, *kernel, *trace, *pcap;
	const char *logfile;	/* nicbm's log-file argument */
	const char *mapped;	/* --log SIM=FILE */
	int pci, eth;		/* NIC: its ends, or -1 */
	int host;		/* NIC: host simulator or -1 */
	int fast;		/* gem5.fast */
	unsigned npci;		/* QEMU: its simbricks-pci devices */
	int e1000_debug;	/* E1000NIC: run under env E1000_DEBUG=1 */
	struct ssp_sbns3 *ns3;
	char *params;		/* NS3Net: its params file, found */
};

struct planner {
	const struct ssp_simbricks *r;
	const struct ssp_sbplan_opts *o;
	struct ssp_sbplan *p;
	int sym;		/* a symphony run */
	struct info *in;
	size_t *order;		/* simulators in planning order */
	struct end *ends;
	size_t nends, cends;
	size_t cwarn, clinks;
	char *orig;		/* symphony: the run directory its commands name */
	struct ssp_err *e;
};

static int
warn(struct planner *pl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
warn(struct planner *pl, const char *fmt, ...)
{
	struct ssp_sbplan *p = pl->p;
	char *m;
	va_list ap;
	int n;

	if (ssp_buf_array((void **)&p->warn, &pl->cwarn, p->nwarn + 1,
	    sizeof(*p->warn)) != 0)
		return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	va_start(ap, fmt);
	n = vasprintf(&m, fmt, ap);
	va_end(ap);
	if (n < 0)
		return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	p->warn[p->nwarn++] = m;
	return SSP_OK;
}

static int
refuse(struct planner *pl, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
refuse(struct planner *pl, size_t i, const char *fmt, ...)
{
	const struct ssp_simbricks_sim *s = ssp_simbricks_sim(pl->r, i);
	char why[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return ssp_err_set(pl->e, SSP_ERR_INVAL, 0, "%s: simulator '%s' (%s): %s",
	    ssp_simbricks_path(pl->r), s->name, s->cls, why);
}

static const char *
simname(const struct planner *pl, size_t i)
{
	return ssp_simbricks_sim(pl->r, i)->name;
}

static const char *
simcls(const struct planner *pl, size_t i)
{
	return ssp_simbricks_sim(pl->r, i)->cls;
}

/* ---- command lines ---- */

/* "connect:P[:opts]" / "listen:P[:opts]" (gem5, nicbm and newer), or a
 * bare path: the path. */
static void
sock_of(const char *arg, const char **p, size_t *len)
{
	const char *c;

	*p = arg;
	*len = strlen(arg);
	if (strncmp(arg, "connect:", 8) == 0 || strncmp(arg, "listen:", 7) == 0) {
		*p = strchr(arg, ':') + 1;
		c = strchr(*p, ':');
		*len = c != NULL ? (size_t)(c - *p) : strlen(*p);
	}
}

/* The sync= option of a generic URL (…:sync=true:…): 1, 0 or -1. */
static int
url_sync(const char *arg)
{
	const char *s = strstr(arg, ":sync=");

	if (s == NULL)
		return -1;
	return strncmp(s + 6, "true", 4) == 0 || strncmp(s + 6, "1", 1) == 0;
}

static int
add_end(struct planner *pl, enum endk k, const char *p, size_t len, size_t sim,
    unsigned idx, uint32_t node, uint32_t dev, int sync, const char *how)
{
	if (ssp_buf_array((void **)&pl->ends, &pl->cends, pl->nends + 1,
	    sizeof(*pl->ends)) != 0)
		return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	pl->ends[pl->nends++] = (struct end){ k, p, len, sim, idx, node, dev, 0,
	    sync, how, -1 };
	return SSP_OK;
}

/* "--name=value" or "--name value": the value, or NULL. */
static const char *
opt_val(const char **argv, size_t argc, size_t *i, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* The first word after an "env NAME=VALUE ..." prefix (E1000NIC's
 * E1000_DEBUG=1, which e1000_gem5 takes as 1, y or Y: *dbg). */
static size_t
skip_env(const struct ssp_simbricks_sim *s, int *dbg)
{
	size_t k = 0;

	*dbg = 0;
	if (s->argc > 0 && strcmp(s->argv[0], "env") == 0)
		for (k = 1; k < s->argc && strchr(s->argv[k], '=') != NULL &&
		    s->argv[k][0] != '-'; k++)
			if (strncmp(s->argv[k], "E1000_DEBUG=", 12) == 0)
				*dbg = strcmp(s->argv[k] + 12, "1") == 0 ||
				    strcmp(s->argv[k] + 12, "y") == 0 ||
				    strcmp(s->argv[k] + 12, "Y") == 0;
	return k;
}

static int
has_flag(const char *flags, const char *f)
{
	size_t n = strlen(f);
	const char *p;

	for (p = flags; p != NULL && (p = strstr(p, f)) != NULL; p += n)
		if ((p == flags || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
			return 1;
	return 0;
}

static int
scan_gem5(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = ssp_simbricks_sim(pl->r, i);
	struct info *in = &pl->in[i];
	const char *v, *p;
	unsigned npci = 0;
	size_t k, n, len;
	int script = 0, rc, sync;

	in->outdir = "m5out";
	n = s->argc > 0 ? strlen(s->argv[0]) : 0;
	in->fast = n > 5 && strcmp(s->argv[0] + n - 5, ".fast") == 0;
	for (k = 1; k < s->argc; k++) {
		const char *a = s->argv[k];

		n = strlen(a);
		if (!script && n > 3 && strcmp(a + n - 3, ".py") == 0) {
			script = 1;
			continue;
		}
		if (!script) {	/* gem5's own options */
			if ((v = opt_val(s->argv, s->argc, &k, "--outdir")) != NULL ||
			    (v = opt_val(s->argv, s->argc, &k, "-d")) != NULL)
				in->outdir = v;
			else if ((v = opt_val(s->argv, s->argc, &k, "--debug-flags")) != NULL)
				in->dflags = v;
			else if ((v = opt_val(s->argv, s->argc, &k, "--debug-file")) != NULL)
				in->dfile = v;
			continue;
		}
		if ((v = opt_val(s->argv, s->argc, &k, "--simbricks-pci")) != NULL) {
			sock_of(v, &p, &len);
			/* symphony: ...:sync_interval=<n>ns[:sync] */
			sync = -1;
			if (pl->sym)
				sync = strstr(v, ":sync_interval=") != NULL &&
				    (strstr(v, ":sync:") != NULL ||
				    (strlen(v) >= 5 && strcmp(v + strlen(v) - 5, ":sync") == 0));
			if ((rc = add_end(pl, E_PCI_HOST, p, len, i, npci++, 0, 0,
			    sync, "--simbricks-pci without :sync")) != SSP_OK)
				return rc;
		} else if ((v = opt_val(s->argv, s->argc, &k, "--simbricks-eth")) != NULL) {
			return refuse(pl, i, "gem5's own NIC talks to the network "
			    "(--simbricks-eth): no NIC log to trace; not supported yet");
		} else if ((v = opt_val(s->argv, s->argc, &k, "--kernel")) != NULL) {
			in->kernel = v;
		}
	}
	if (!script)
		return refuse(pl, i, "no gem5 configuration script (*.py) in its "
		    "command line");
	return SSP_OK;
}

/* QEMU: -chardev socket,path=P,id=X with -device cosim-pci,chardev=X, or
 * -device simbricks-pci,socket=P[,sync=on|off]. */
static int
scan_qemu(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = ssp_simbricks_sim(pl->r, i);
	unsigned npci = 0;
	const char *p, *q, *y;
	size_t k;
	int rc, sync;

	for (k = 1; k + 1 < s->argc; k++) {
		if (strcmp(s->argv[k], "-chardev") != 0 &&
		    strcmp(s->argv[k], "-device") != 0)
			continue;
		q = s->argv[++k];
		if ((strncmp(q, "socket,", 7) == 0 && (p = strstr(q, ",path=")) != NULL &&
		    (p += 6)) || ((p = strstr(q, "socket=")) != NULL && (p += 7))) {
			sync = -1;
			if ((y = strstr(q, ",sync=")) != NULL)
				sync = strncmp(y + 6, "on", 2) == 0;
			if ((rc = add_end(pl, E_PCI_HOST, p, strcspn(p, ","), i,
			    npci++, 0, 0, sync, "sync=off")) != SSP_OK)
				return rc;
		}
	}
	pl->in[i].npci = npci;
	return SSP_OK;
}

/* 12 hex digits: nicbm's MAC argument (symphony: the MAC byte-reversed). */
static int
is_mac(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return n == 12 && s[n] == '\0';
}

/*
 * nicbm: PCI-PARAMS ETH-PARAMS [START-TICK] [MAC] [LOG-FILE] (symphony;
 * PARAMS "listen:P:SHM:sync=..."), or PCI ETH SHM ... (2022: bare paths);
 * the RTL models the same first two.
 */
static int
scan_nic(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = ssp_simbricks_sim(pl->r, i);
	struct info *in = &pl->in[i];
	size_t k = skip_env(s, &in->e1000_debug), len;
	const char *p;
	int rc;

	if (s->argc < k + 3)
		return refuse(pl, i, "expected PCI and Ethernet socket arguments "
		    "after the program");
	in->pci = (int)pl->nends;
	sock_of(s->argv[k + 1], &p, &len);
	if ((rc = add_end(pl, E_PCI_DEV, p, len, i, 0, 0, 0,
	    url_sync(s->argv[k + 1]), "sync=false")) != SSP_OK)
		return rc;
	in->eth = (int)pl->nends;
	sock_of(s->argv[k + 2], &p, &len);
	if ((rc = add_end(pl, E_ETH_NIC, p, len, i, 0, 0, 0,
	    url_sync(s->argv[k + 2]), "sync=false")) != SSP_OK)
		return rc;
	if (in->c->cmd == SSP_SBCLASS_CMD_NICBM && pl->sym &&
	    s->argc > k + 5 && is_mac(s->argv[k + 4]))
		in->logfile = s->argv[k + 5];
	return SSP_OK;
}

static int
in_list(const char *a, const char *const *l)
{
	for (; *l != NULL; l++)
		if (strcmp(a, *l) == 0)
			return 1;
	return 0;
}

static int
scan_ns3_2022(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = ssp_simbricks_sim(pl->r, i);
	struct info *in = &pl->in[i];
	uint32_t dev[2] = { 2, 2 };
	const char *v, *example = NULL, *p;
	int layout = 0, rc;	/* 1 bridge, 2 dumbbell */
	size_t k, len;
	unsigned side;

	for (k = 1; k < s->argc && layout == 0; k++) {
		if (in_list(s->argv[k], ns3_bridge))
			layout = 1;
		else if (in_list(s->argv[k], ns3_dumbbell))
			layout = 2;
		if (layout != 0)
			example = s->argv[k];
	}
	if (layout == 0)
		return refuse(pl, i, "no ns-3 example of known node/device layout "
		    "(cosim-bridge-example, cosim-dumbbell-example) in its "
		    "command line");
	for (k = 1; k < s->argc; k++) {
		const char *a = s->argv[k];

		v = strchr(a, '=');
		if (strncmp(a, "--EnableTracing=", 16) == 0) {
			in->trace = v + 1;
			continue;
		}
		if (strncmp(a, "--CosimPort", 11) == 0)
			a += 11;
		else if (strncmp(a, "--SimbricksPort", 15) == 0)
			a += 15;
		else
			continue;
		if (v == NULL)
			return refuse(pl, i, "'%s' has no '=PATH'", s->argv[k]);
		if (*a == '=' && layout == 1)
			side = 0;
		else if (strncmp(a, "Left=", 5) == 0 && layout == 2)
			side = 0;
		else if (strncmp(a, "Right=", 6) == 0 && layout == 2)
			side = 1;
		else
			return refuse(pl, i, "'%.*s' does not fit the %s example",
			    (int)(v - s->argv[k]), s->argv[k], example);
		sock_of(v + 1, &p, &len);
		if ((rc = add_end(pl, E_ETH_NET, p, len, i, 0, side, dev[side]++,
		    -1, NULL)) != SSP_OK)
			return rc;
	}
	return SSP_OK;
}

/* net_switch: -s P connects, -h P listens; ports are numbered in argument
 * order across both; -u runs unsynchronized, -p FILE writes a pcap. */
static int
scan_switch(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = ssp_simbricks_sim(pl->r, i);
	struct info *in = &pl->in[i];
	uint32_t port = 0;
	size_t k, first = pl->nends, j;
	int rc, unsync = 0;

	for (k = 1; k < s->argc; k++) {
		const char *a = s->argv[k];

		if ((strcmp(a, "-s") == 0 || strcmp(a, "-h") == 0) && k + 1 < s->argc) {
			k++;
			if ((rc = add_end(pl, E_ETH_NET, s->argv[k], strlen(s->argv[k]),
			    i, 0, 0, port++, -1, NULL)) != SSP_OK)
				return rc;
			pl->ends[pl->nends - 1].listen = a[1] == 'h';
		} else if (strcmp(a, "-u") == 0) {
			unsync = 1;
		} else if (strcmp(a, "-p") == 0 && k + 1 < s->argc) {
			in->pcap = s->argv[++k];
		} else if (a[0] == '-' && a[1] != '\0' && strchr("mSE", a[1]) != NULL &&
		    a[2] == '\0' && k + 1 < s->argc) {
			k++;	/* -m -S -E take a value */
		}
	}
	if (pl->sym)
		for (j = first; j < pl->nends; j++) {
			pl->ends[j].sync = !unsync;
			pl->ends[j].how = "-u";
		}
	return SSP_OK;
}

/* ---- files the run names, where they are now ---- */

static int
readable(const char *p)
{
	return access(p, R_OK) == 0;
}

/* Append "candidate" to the list of places looked at (for messages). */
static void
tried_add(char *tried, size_t n, const char *p)
{
	size_t k = strlen(tried);

	if (k + 8 < n)
		snprintf(tried + k, n - k, "%s%s", k ? ", " : "", p);
}

/* "a/b/../c" -> "a/c", in place, where b is a name (not . or ..):
 * the path as a person would write it. */
static void
tidy(char *p)
{
	char *s, *prev;

	for (;;) {
		if ((s = strstr(p, "/../")) == NULL || s == p)
			return;
		for (prev = s - 1; prev > p && prev[-1] != '/'; prev--)
			;
		if ((s - prev == 2 && prev[0] == '.' && prev[1] == '.') ||
		    (s - prev == 1 && prev[0] == '.'))
			return;	/* a leading ../ stays */
		memmove(prev, s + 4, strlen(s + 4) + 1);
	}
}

static char *
try_path(const char *a, const char *b, const char *c, char *tried, size_t n)
{
	char *p;

	if (asprintf(&p, "%s%s%s%s%s", a, b ? "/" : "", b ? b : "", c ? "/" : "",
	    c ? c : "") < 0)
		return NULL;
	tidy(p);
	if (readable(p))
		return p;
	tried_add(tried, n, p);
	free(p);
	return NULL;
}

static const char *
base_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s != NULL ? s + 1 : p;
}

/*
 * Where a file the run names is now: the path as recorded (absolute, or
 * relative to the directory the runner ran in when rel), found under
 * --logs, moved with the run directory, or next to it.  A malloc'd path,
 * NULL when it is nowhere (the places looked at in tried), or NULL with
 * *oom set.
 */
static char *
locate(struct planner *pl, const char *want, int rel, char *tried, size_t n,
    int *oom)
{
	const char *rd = pl->p->rundir, *sub = NULL, *b = base_of(want);
	char *f = NULL, parent[512];
	size_t ol;

	tried[0] = '\0';
	*oom = 0;
	/* the part of the path under the run directory the commands name */
	if (pl->orig != NULL && (ol = strlen(pl->orig)) > 0 &&
	    strncmp(want, pl->orig, ol) == 0 && want[ol] == '/')
		sub = want + ol + 1;
	parent[0] = '\0';
	if (b > want + 1) {
		const char *q = b - 1;

		while (q > want && q[-1] != '/')
			q--;
		snprintf(parent, sizeof(parent), "%.*s", (int)(b - 1 - q), q);
	}
	if (pl->o->logs != NULL) {
		if (sub != NULL && (f = try_path(pl->o->logs, sub, NULL, tried, n)) != NULL)
			return f;
		if (parent[0] != '\0' && (f = try_path(pl->o->logs, parent, b, tried,
		    n)) != NULL)
			return f;
		if ((f = try_path(pl->o->logs, b, NULL, tried, n)) != NULL)
			return f;
	}
	if (want[0] == '/' || !rel) {
		if (readable(want))
			return (f = strdup(want)) == NULL ? (*oom = 1, NULL) : f;
		tried_add(tried, n, want);
	}
	if (rd != NULL && sub != NULL && (f = try_path(rd, sub, NULL, tried, n)) != NULL)
		return f;
	if (rel && want[0] != '/' && rd != NULL) {
		/* nicbm's log_file: relative to simbricks-run's directory,
		 * which is often the --workdir (<run>/../..) or above it */
		if ((f = try_path(rd, want, NULL, tried, n)) != NULL ||
		    (f = try_path(rd, "output", want, tried, n)) != NULL ||
		    (f = try_path(rd, "../..", want, tried, n)) != NULL ||
		    (f = try_path(rd, "../../..", want, tried, n)) != NULL)
			return f;
		if (readable(want))
			return (f = strdup(want)) == NULL ? (*oom = 1, NULL) : f;
		tried_add(tried, n, want);
	}
	return NULL;
}

/* ---- NS3Net: its params file ---- */

static int
scan_ns3(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = ssp_simbricks_sim(pl->r, i);
	struct info *in = &pl->in[i];
	const char *cfg = NULL, *const *words = s->argv;
	char **split = NULL, tried[1024], *buf = NULL;
	size_t k, nw = s->argc, len = 0;
	struct ssp_err se;
	struct ssp_in *fin;
	struct stat st;
	int rc, oom;
	ssize_t got;

	for (k = 1; k < s->argc; k++)
		if (strncmp(s->argv[k], "--ConfigFile=", 13) == 0)
			cfg = s->argv[k] + 13;
	if (cfg != NULL) {
		if ((in->params = locate(pl, cfg, 0, tried, sizeof(tried), &oom)) == NULL)
			return oom ? ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of "
			    "memory") : refuse(pl, i, "its params file %s "
			    "(--ConfigFile, with the NIC links) is missing; give "
			    "--logs DIR", base_of(cfg));
		if (stat(in->params, &st) != 0 || !S_ISREG(st.st_mode))
			return refuse(pl, i, "its params file %s is not a regular "
			    "file", in->params);
		if ((rc = ssp_in_open(&fin, in->params, 0, NULL, &se)) != SSP_OK)
			return ssp_err_set(pl->e, rc, 0, "%s", se.msg);
		if ((buf = malloc(PARAMS_MAX + 1)) == NULL) {
			ssp_in_close(fin);
			return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
		}
		got = ssp_in_read_full(fin, buf, PARAMS_MAX + 1, &se);
		ssp_in_close(fin);
		if (got < 0) {
			free(buf);
			return ssp_err_set(pl->e, -(int)got, 0, "%s", se.msg);
		}
		if ((size_t)got > PARAMS_MAX) {
			free(buf);
			return ssp_err_set(pl->e, SSP_ERR_LIMIT, 0, "%s: more than "
			    "%u bytes: not an NS3Net params file", in->params,
			    PARAMS_MAX);
		}
		len = (size_t)got;
		buf[len] = '\0';
		if (memchr(buf, '\0', len) != NULL) {
			free(buf);
			return ssp_err_set(pl->e, SSP_ERR_FORMAT, 0, "%s: a NUL byte: "
			    "not an NS3Net params file", in->params);
		}
		rc = ssp_shword_split(buf, &split, &nw, &se);
		free(buf);
		if (rc != SSP_OK)
			return ssp_err_set(pl->e, rc, 0, "%s: %s", in->params, se.msg);
		words = (const char *const *)split;
	}
	rc = ssp_sbns3_parse(&in->ns3, words, nw, cfg != NULL ? in->params :
	    simname(pl, i), &se);
	free(split);
	if (rc != SSP_OK)
		return rc == SSP_ERR_INVAL ? refuse(pl, i, "%s", se.msg) :
		    ssp_err_set(pl->e, rc, 0, "%s", se.msg);
	for (k = 0; k < in->ns3->nports; k++) {
		const struct ssp_sbns3_port *np = &in->ns3->ports[k];

		if ((rc = add_end(pl, E_ETH_NET, np->sock, strlen(np->sock), i, 0,
		    np->node, np->dev, np->sync, "Sync:0")) != SSP_OK)
			return rc;
	}
	return SSP_OK;
}

/* TCPProxy (net_sockets [-l] -s SHM {-L|-C} P ... IP PORT FILE FILE): the
 * sockets it carries to another fragment. */
static int
scan_proxy(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = ssp_simbricks_sim(pl->r, i);
	size_t k;
	int rc;

	for (k = 1; k + 1 < s->argc; k++)
		if (strcmp(s->argv[k], "-L") == 0 || strcmp(s->argv[k], "-C") == 0) {
			k++;
			if ((rc = add_end(pl, E_PROXY, s->argv[k], strlen(s->argv[k]),
			    i, 0, 0, 0, -1, NULL)) != SSP_OK)
				return rc;
		}
	return SSP_OK;
}

/* ---- pairing ---- */

static int
same(const struct end *a, const struct end *b)
{
	return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

/* A socket for messages: as written (2022), or its base name, which
 * names the channel (symphony: <workdir>/tmp/shm/pci-7.8.6). */
static const char *
sockname(const struct planner *pl, const struct end *x, char *b, size_t n)
{
	const char *p = x->p, *sl;
	size_t len = x->len;

	if (pl->sym && (sl = memrchr(p, '/', len)) != NULL) {
		len -= (size_t)(sl + 1 - p);
		p = sl + 1;
	}
	snprintf(b, n, "%.*s", (int)(len < n ? len : n - 1), p);
	return b;
}

/* The one end on the other side of x's socket: its index, -1 if none;
 * -2 (and refused) if the socket goes to a proxy or to two peers. */
static int
peer_of(struct planner *pl, size_t x, const enum endk *kinds, size_t nk,
    const char *what, int *rc)
{
	const struct end *a = &pl->ends[x];
	char b[200];
	size_t j, t;
	int found = -1;

	*rc = SSP_OK;
	for (j = 0; j < pl->nends; j++) {
		const struct end *c = &pl->ends[j];

		if (j == x || !same(a, c))
			continue;
		if (c->k == E_PROXY) {
			*rc = refuse(pl, a->sim, "its %s socket %s goes to %s (%s), "
			    "to another fragment: simspan cannot pair through "
			    "proxies yet; run it in one fragment", what,
			    sockname(pl, a, b, sizeof(b)), simname(pl, c->sim),
			    simcls(pl, c->sim));
			return -2;
		}
		for (t = 0; t < nk && kinds[t] != c->k; t++)
			;
		if (t == nk)
			continue;
		if (found >= 0) {
			*rc = refuse(pl, a->sim, "%s and %s both use its %s socket "
			    "%s", simname(pl, pl->ends[found].sim), simname(pl,
			    c->sim), what, sockname(pl, a, b, sizeof(b)));
			return -2;
		}
		found = (int)j;
	}
	return found;
}

/* A hint for an end nothing serves: out.json keeps one entry per name. */
static const char *
dup_hint(const struct planner *pl)
{
	return pl->sym ? " (two simulators with one name? out.json keeps one "
	    "entry per name: give --simulation simulation.json to check)" : "";
}

static int
pair(struct planner *pl)
{
	static const enum endk host[] = { E_PCI_HOST }, net[] = { E_ETH_NET };
	char b[200];
	size_t i, k;
	int j, rc;

	for (i = 0; i < pl->nends; i++) {
		struct end *x = &pl->ends[i];
		struct info *in = &pl->in[x->sim];

		if (x->k == E_PCI_DEV) {
			if ((j = peer_of(pl, i, host, 1, "PCI", &rc)) == -2)
				return rc;
			if (j < 0)
				return refuse(pl, x->sim, "no host uses its PCI socket "
				    "%s%s", sockname(pl, x, b, sizeof(b)), dup_hint(pl));
			if (pl->ends[j].peer >= 0)
				return refuse(pl, x->sim, "PCI socket %s is also "
				    "simulator '%s''s", sockname(pl, x, b, sizeof(b)),
				    simname(pl, pl->ends[pl->ends[j].peer].sim));
			x->peer = j;
			pl->ends[j].peer = (int)i;
			in->host = (int)pl->ends[j].sim;
		} else if (x->k == E_ETH_NIC) {
			if ((j = peer_of(pl, i, net, 1, "Ethernet", &rc)) == -2)
				return rc;
			if (j < 0)
				return refuse(pl, x->sim, "no network uses its Ethernet "
				    "socket %s%s", sockname(pl, x, b, sizeof(b)),
				    dup_hint(pl));
			if (pl->ends[j].peer >= 0)
				return refuse(pl, x->sim, "Ethernet socket %s is also "
				    "simulator '%s''s", sockname(pl, x, b, sizeof(b)),
				    simname(pl, pl->ends[pl->ends[j].peer].sim));
			x->peer = j;
			pl->ends[j].peer = (int)i;
		}
	}
	for (k = 0; k < pl->nends; k++) {
		struct end *x = &pl->ends[k];

		if (x->peer >= 0 || (x->k != E_PCI_HOST && x->k != E_ETH_NET))
			continue;
		/* a proxy or another network on the other side: a network to
		 * network channel (net_switch -h on one, -s on the other) */
		if ((j = peer_of(pl, k, net, 1, "port", &rc)) == -2)
			return rc;
		if (j >= 0 && x->k == E_ETH_NET) {
			x->peer = j;
			pl->ends[j].peer = (int)k;
			continue;
		}
		return refuse(pl, x->sim, "no NIC serves its %s socket %s%s",
		    x->k == E_PCI_HOST ? "PCI" : "port", sockname(pl, x, b, sizeof(b)),
		    dup_hint(pl));
	}
	return SSP_OK;
}

/* ---- synchronization ---- */

/* One warning naming every channel that runs unsynchronized (symphony's
 * default): "pci-7.8.6 (host.QemuSim-24 sync=off, nic.NICSim-26
 * sync=false)". */
static int
sync_check(struct planner *pl)
{
	struct ssp_buf b = SSP_BUF_INIT;
	size_t i, n = 0, nch = 0;
	const char *sl, *bs;
	int rc = SSP_OK;

	for (i = 0; i < pl->nends; i++) {
		const struct end *x = &pl->ends[i], *y;

		/* a channel once: by its NIC's end, a network pair by its
		 * first end */
		if (x->k != E_PCI_DEV && x->k != E_ETH_NIC && (x->k != E_ETH_NET ||
		    x->peer < (int)i || pl->ends[x->peer].k != E_ETH_NET))
			continue;
		nch++;
		y = x->peer >= 0 ? &pl->ends[x->peer] : NULL;
		if (x->sync != 0 && (y == NULL || y->sync != 0))
			continue;
		if (n > 0)
			ssp_buf_lit(&b, "; ");
		sl = memrchr(x->p, '/', x->len);
		bs = sl != NULL ? sl + 1 : x->p;
		ssp_buf_put(&b, bs, x->len - (size_t)(bs - x->p));
		ssp_buf_lit(&b, " (");
		if (x->sync == 0) {
			ssp_buf_put(&b, simname(pl, x->sim), strlen(simname(pl, x->sim)));
			ssp_buf_putc(&b, ' ');
			ssp_buf_put(&b, x->how, strlen(x->how));
		}
		if (y != NULL && y->sync == 0) {
			if (x->sync == 0)
				ssp_buf_lit(&b, ", ");
			ssp_buf_put(&b, simname(pl, y->sim), strlen(simname(pl, y->sim)));
			ssp_buf_putc(&b, ' ');
			ssp_buf_put(&b, y->how, strlen(y->how));
		}
		ssp_buf_putc(&b, ')');
		n++;
	}
	ssp_buf_putc(&b, '\0');
	if (b.failed) {
		ssp_buf_free(&b);
		return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	pl->p->unsync = n;
	if (n > 0 && pl->o->strict)
		rc = ssp_err_set(pl->e, SSP_ERR_INVAL, 0, "the run is not "
		    "synchronized (%zu of %zu channels, first %.*s): --strict "
		    "refuses it; call simulation.enable_synchronization() in the "
		    "experiment script", n, nch, (int)strcspn((char *)b.p, ";"),
		    (char *)b.p);
	else if (n > 0)
		rc = warn(pl, "the run is not synchronized: %zu of %zu channels run "
		    "without SimBricks synchronization (%s), so timestamps of "
		    "different simulators are not comparable and spans that cross "
		    "simulators are wrong; call simulation.enable_synchronization() "
		    "in the experiment script (symphony's simple_simulation() "
		    "leaves it off)", n, nch, (char *)b.p);
	ssp_buf_free(&b);
	return rc;
}

/* ---- streams and logs ---- */

/* A stream name from a simulator name: [A-Za-z0-9._-], trailing dots
 * dropped ("nic.client.0." -> "nic.client.0"), unique. */
static char *
stream_name(struct planner *pl, const char *sim)
{
	char b[SSP_TOPO_NAMEMAX + 1], *d;
	size_t n = 0, k, j;
	int dup;

	for (; *sim != '\0' && n < SSP_TOPO_NAMEMAX - 8; sim++)
		b[n++] = isalnum((unsigned char)*sim) || *sim == '.' || *sim == '_' ||
		    *sim == '-' ? *sim : '-';
	while (n > 0 && b[n - 1] == '.')
		n--;
	if (n == 0)
		b[n++] = 's';
	b[n] = '\0';
	for (k = 1;; k++) {
		if (k > 1)
			snprintf(b + n, sizeof(b) - n, "-%zu", k);
		for (dup = 0, j = 0; j < pl->p->nstreams; j++)
			if (strcmp(pl->p->streams[j].name, b) == 0)
				dup = 1;
		if (!dup)
			break;
	}
	if ((d = strdup(b)) == NULL)
		ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	return d;
}

static int
set_log(struct planner *pl, struct ssp_sbplan_stream *st, const char *want,
    int rel)
{
	char tried[1024];
	int oom;

	if ((st->want = strdup(want)) == NULL)
		return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	st->log = locate(pl, want, rel, tried, sizeof(tried), &oom);
	if (oom)
		return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	if (st->log == NULL) {
		st->missing = 1;
		return warn(pl, "%s (%s): its log %s is not there (looked at %s): "
		    "give --logs DIR (a copy of the run's files) or --log %s=FILE",
		    simname(pl, st->idx), simcls(pl, st->idx), want, tried,
		    simname(pl, st->idx));
	}
	return SSP_OK;
}

/* The --log SIM=FILE of simulator i, or NULL. */
static const char *
mapped(const struct planner *pl, size_t i)
{
	return pl->in[i].mapped;
}

static int
gem5_log(struct planner *pl, struct ssp_sbplan_stream *st)
{
	const struct info *in = &pl->in[st->idx];
	const char *n = simname(pl, st->idx), *c = simcls(pl, st->idx);
	const char *var = pl->sym ? "_variant" : "variant";
	char *path = NULL;
	int rc;

	st->kernel = in->kernel;
	st->time_sync = in->dflags != NULL && (has_flag(in->dflags, "SimBricksSync") ||
	    has_flag(in->dflags, "SimBricksAll"));
	if (in->dflags == NULL) {
		if ((rc = warn(pl, "%s (%s): gem5 ran without --debug-flags: no "
		    "events; in the experiment script: %s = \"opt\", "
		    "extra_main_args = [\"--debug-flags=" GEM5_FLAGS "\", "
		    "\"--debug-file=gem5-debug.log\"] (simspan(7))", n, c, var)) != SSP_OK)
			return rc;
	} else {
		if (in->fast && (rc = warn(pl, "%s (%s): --debug-flags with gem5.fast, "
		    "which has DPRINTF compiled out: its debug output is empty; "
		    "set %s = \"opt\" on the simulator", n, c, var)) != SSP_OK)
			return rc;
		if (((!has_flag(in->dflags, "ExecEnable") && !has_flag(in->dflags,
		    "Exec") && !has_flag(in->dflags, "ExecAll")) ||
		    (!has_flag(in->dflags, "SimBricksPci") &&
		    !has_flag(in->dflags, "SimBricksAll"))) &&
		    (rc = warn(pl, "%s (%s): --debug-flags=%s lacks Exec or "
		    "SimBricksPci: no function or PCI events", n, c, in->dflags)) != SSP_OK)
			return rc;
	}
	if (mapped(pl, st->idx) != NULL)
		return set_log(pl, st, mapped(pl, st->idx), 0);
	if (in->dfile == NULL)
		return SSP_OK;	/* DPRINTF lines go to stdout */
	if (in->dfile[0] != '/' && asprintf(&path, "%s/%s", in->outdir, in->dfile) < 0)
		return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	rc = set_log(pl, st, path != NULL ? path : in->dfile, 0);
	free(path);
	return rc;
}

/* Captured lines of one output of simulator i that have needle, and
 * (when it differs) nicbm's own "nicbm: " lines. */
static size_t
count2(const struct planner *pl, size_t i, enum ssp_simbricks_out w,
    const char *needle)
{
	size_t n = ssp_simbricks_count(pl->r, i, w, "nicbm: ");

	if (needle != NULL && strcmp(needle, "nicbm: ") != 0)
		n += ssp_simbricks_count(pl->r, i, w, needle);
	return n;
}

static int
nic_log(struct planner *pl, struct ssp_sbplan_stream *st)
{
	const struct info *in = &pl->in[st->idx];
	const char *n = simname(pl, st->idx), *c = simcls(pl, st->idx);
	size_t n0, n1;
	int rc;

	if (mapped(pl, st->idx) != NULL)
		return set_log(pl, st, mapped(pl, st->idx), 0);
	if (in->logfile != NULL)
		return set_log(pl, st, in->logfile, 1);
	/* nicbm's lines (and Enso's own, on stderr): the output with more */
	n0 = count2(pl, st->idx, SSP_SIMBRICKS_STDOUT, in->c->needle);
	n1 = count2(pl, st->idx, SSP_SIMBRICKS_STDERR, in->c->needle);
	if (n1 > n0)
		st->which = SSP_SIMBRICKS_STDERR;
	st->ncaptured = n0 > n1 ? n0 : n1;
	if (st->ncaptured == 0 && (rc = warn(pl, "%s (%s): no nicbm debug lines in "
	    "its output: build it with DEBUG_NICBM (simspan(7))%s", n, c,
	    pl->sym ? "; set mac and log_file on the simulator to keep them "
	    "out of out.json" : "")) != SSP_OK)
		return rc;
	return SSP_OK;
}

/* A pcap file (libpcap's four magic numbers, either byte order; pcapng's
 * section header)?  1, or 0 when it is not, is no regular file (a FIFO
 * would block the planner) or cannot be read. */
static int
is_pcap(const char *path)
{
	static const uint32_t magic[] = { 0xa1b2c3d4u, 0xd4c3b2a1u, 0xa1b23c4du,
	    0x4d3cb2a1u, 0x0a0d0d0au };
	unsigned char b[4];
	struct stat sb;
	uint32_t v;
	size_t k;
	FILE *f;

	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (f = fopen(path, "rb")) == NULL)
		return 0;
	k = fread(b, 1, 4, f);
	fclose(f);
	if (k != 4)
		return 0;
	v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	for (k = 0; k < sizeof(magic) / sizeof(magic[0]); k++)
		if (v == magic[k])
			return 1;
	return 0;
}

/* --log SIM=FILE of a network: a pcap is read with sim2ev -f pcap. */
static int
mapped_net(struct planner *pl, struct ssp_sbplan_stream *st)
{
	int rc = set_log(pl, st, mapped(pl, st->idx), 0);

	if (rc == SSP_OK && st->log != NULL && is_pcap(st->log))
		st->sim = SSP_SIM_PCAP;
	return rc;
}

/* A log the orchestrator captured (SSP_SBCLASS_LOG_STDOUT/STDERR): the
 * class's needle counted, and its way to debug lines when none is there. */
static int
captured_log(struct planner *pl, struct ssp_sbplan_stream *st)
{
	const struct info *in = &pl->in[st->idx];
	const char *n = simname(pl, st->idx), *c = simcls(pl, st->idx);
	const char *w;

	if (mapped(pl, st->idx) != NULL)
		return set_log(pl, st, mapped(pl, st->idx), 0);
	st->which = in->c->log == SSP_SBCLASS_LOG_STDERR ? SSP_SIMBRICKS_STDERR :
	    SSP_SIMBRICKS_STDOUT;
	w = st->which == SSP_SIMBRICKS_STDERR ? "stderr" : "stdout";
	if (in->c->needle == NULL)
		return SSP_OK;
	st->ncaptured = ssp_simbricks_count(pl->r, st->idx, st->which,
	    in->c->needle);
	if (st->ncaptured > 0)
		return SSP_OK;
	/* e1000_gem5 says so on stderr when E1000_DEBUG turned its lines on
	 * (DEBUG_E1000, defined in its support.h, makes it read the variable) */
	if (in->c->sim == SSP_SIM_E1000 && in->e1000_debug)
		return warn(pl, "%s (%s): no debug lines in its captured stderr "
		    "although it ran under E1000_DEBUG=1: %s", n, c,
		    ssp_simbricks_count(pl->r, st->idx, SSP_SIMBRICKS_STDERR,
		    "enabling debug messages") > 0 ? "it said it enabled them, so "
		    "the guest never used the NIC?" : "it never said 'enabling "
		    "debug messages', so it was built without DEBUG_E1000 (its "
		    "support.h defines it)");
	return warn(pl, "%s (%s): no debug lines in its captured %s (none has "
	    "'%s')%s%s", n, c, w, in->c->needle, in->c->enable != NULL ? "; " : "",
	    in->c->enable != NULL ? in->c->enable : "");
}

/* net_switch: its -p pcap (sim2ev -f pcap); without one, or when it is
 * not there or not a capture (empty: the switch never ran), the
 * NETSWITCH_DEBUG lines of its captured stderr. */
static int
switch_log(struct planner *pl, struct ssp_sbplan_stream *st)
{
	const struct info *in = &pl->in[st->idx];
	const char *n = simname(pl, st->idx), *c = simcls(pl, st->idx);
	char tried[1024], why[1100];
	int oom;

	if (mapped(pl, st->idx) != NULL)
		return mapped_net(pl, st);
	st->which = SSP_SIMBRICKS_STDERR;
	st->ncaptured = ssp_simbricks_count(pl->r, st->idx, st->which, "[P ");
	if (in->pcap != NULL) {
		st->log = locate(pl, in->pcap, 0, tried, sizeof(tried), &oom);
		if (oom)
			return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
		if (st->log != NULL && is_pcap(st->log)) {
			st->sim = SSP_SIM_PCAP;
			if ((st->want = strdup(in->pcap)) == NULL)
				return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of "
				    "memory");
			return SSP_OK;
		}
		if (st->log != NULL)
			snprintf(why, sizeof(why), "%s is not a pcap capture (empty: "
			    "did the switch run?)", st->log);
		else
			snprintf(why, sizeof(why), "is not there (looked at %s)", tried);
		free(st->log);
		st->log = NULL;
		if (st->ncaptured > 0)
			return warn(pl, "%s (%s): its pcap %s (-p) %s: its %zu "
			    "NETSWITCH_DEBUG lines in out.json's stderr are read "
			    "instead; give --logs DIR or --log %s=FILE", n, c, in->pcap,
			    why, st->ncaptured, n);
		st->missing = 1;
		st->sim = SSP_SIM_PCAP;	/* the command to run once it is there */
		if ((st->want = strdup(in->pcap)) == NULL)
			return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
		return warn(pl, "%s (%s): its pcap %s (-p) %s, and its stderr has no "
		    "NETSWITCH_DEBUG lines: give --logs DIR (a copy of the run's "
		    "files) or --log %s=FILE", n, c, in->pcap, why, n);
	}
	if (st->ncaptured > 0)
		return SSP_OK;
	return warn(pl, "%s (%s): no NETSWITCH_DEBUG lines in its stderr and no "
	    "pcap: net_switch prints a line per forwarded packet only when built "
	    "with NETSWITCH_DEBUG (compile time); for its packets, give it a pcap "
	    "file (%s), which sim2ev -f pcap reads", n, c, pl->sym ?
	    "the attribute _relative_pcap_file_path on the SwitchNet simulator" :
	    "run.py --pcap");
}

/* ---- NS3Net's NS_LOG lines ---- */

/* ns-3's LogLevel bits (core/model/log.h) that matter here. */
#define NSL_DEBUG 0x4u
#define NSL_INFO 0x8u
#define NSL_FUNCTION 0x10u
#define NSL_LOGIC 0x20u
#define NSL_PREFIX_FUNC 0x80000000u
#define NSL_PREFIX_TIME 0x40000000u
#define NSL_PREFIX_NODE 0x20000000u
#define NSL_WHEN (NSL_PREFIX_TIME | NSL_PREFIX_NODE)

/* A level name as simbricks-ns3-net's table has it (e2e-cc-example.cc,
 * copied from ns-3's log.cc): its bits, 0 when unknown. */
static uint32_t
nsl_bits(const char *s, size_t n)
{
	static const struct { const char *name; uint32_t bits; } lv[] = {
		{ "error", 0x1 }, { "level_error", 0x1 }, { "warn", 0x2 },
		{ "level_warn", 0x3 }, { "debug", 0x4 }, { "level_debug", 0x7 },
		{ "info", 0x8 }, { "level_info", 0xf }, { "function", 0x10 },
		{ "level_function", 0x1f }, { "logic", 0x20 },
		{ "level_logic", 0x3f }, { "all", 0x0fffffff },
		{ "level_all", 0x0fffffff }, { "func", NSL_PREFIX_FUNC },
		{ "prefix_func", NSL_PREFIX_FUNC }, { "time", NSL_PREFIX_TIME },
		{ "prefix_time", NSL_PREFIX_TIME }, { "node", NSL_PREFIX_NODE },
		{ "prefix_node", NSL_PREFIX_NODE }, { "level", 0x10000000 },
		{ "prefix_level", 0x10000000 }, { "prefix_all", 0xf0000000u },
	};
	size_t k;

	for (k = 0; k < sizeof(lv) / sizeof(lv[0]); k++)
		if (strlen(lv[k].name) == n && memcmp(lv[k].name, s, n) == 0)
			return lv[k].bits;
	return 0;
}

/* The levels --Logging="Comp:lev|lev;..." gives component comp ("All"
 * enables for every component); *named: comp itself is listed. */
static uint32_t
nsl_levels(const char *logging, const char *comp, int *named)
{
	const char *p = logging, *e, *c, *q, *b;
	size_t cl = strlen(comp);
	uint32_t bits = 0;

	*named = 0;
	for (; p != NULL && *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = p + strcspn(p, ";");
		if ((c = memchr(p, ':', (size_t)(e - p))) == NULL)
			continue;
		if ((size_t)(c - p) == cl && memcmp(p, comp, cl) == 0)
			*named = 1;
		else if (!((c - p) == 3 && memcmp(p, "All", 3) == 0))
			continue;
		for (q = c + 1; q < e; q = b + (b < e)) {
			b = q + strcspn(q, "|;");
			if (b > e)
				b = e;
			bits |= nsl_bits(q, (size_t)(b - q));
		}
	}
	return bits;
}

/* The ns-3 classes whose NS_LOG lines are the events, and what sim2ev's
 * parser reads of each (source/nslog.h): the levels, and the prefixes
 * (every line its time and node; a message line, unlike a function line,
 * names its class and method only with prefix_func). */
static const struct { const char *name; uint32_t levels, prefixes; }
    nsl_classes[] = {
	{ "BridgeNetDevice", NSL_FUNCTION | NSL_DEBUG | NSL_LOGIC,
	    NSL_WHEN | NSL_PREFIX_FUNC },	/* "UID is", the port */
	{ "SimbricksNetDevice", NSL_FUNCTION, NSL_WHEN },
	{ "SimpleNetDevice", NSL_FUNCTION | NSL_INFO,	/* "enqueue false" */
	    NSL_WHEN | NSL_PREFIX_FUNC },
};

/* NS3Net with --Logging naming one of them: a stream. */
static int
nslog_on(const struct info *in)
{
	size_t k;
	int named;

	if (in->ns3 == NULL || in->ns3->logging == NULL)
		return 0;
	for (k = 0; k < 3; k++)
		if (nsl_levels(in->ns3->logging, nsl_classes[k].name, &named) != 0)
			return 1;
	return 0;
}

/* ", name" onto a list of names in b. */
static void
list_add(char *b, size_t n, const char *name)
{
	size_t k = strlen(b);

	snprintf(b + k, n - k, "%s%s", k > 0 ? ", " : "", name);
}

/* What its --Logging leaves out, in the lines of an experiment script. */
static int
nslog_advice(struct planner *pl, struct ssp_sbplan_stream *st)
{
	const struct info *in = &pl->in[st->idx];
	char lack[200] = "", pre[200] = "";
	size_t k, need = in->ns3->nsimple > 0 ? 3 : 2;
	uint32_t b;
	int named;

	/* SimpleNetDevice only where there are channels or ns-3 hosts */
	for (k = 0; k < need; k++) {
		b = nsl_levels(in->ns3->logging, nsl_classes[k].name, &named);
		if ((b & nsl_classes[k].levels) != nsl_classes[k].levels)
			list_add(lack, sizeof(lack), nsl_classes[k].name);
		else if ((b & nsl_classes[k].prefixes) != nsl_classes[k].prefixes)
			list_add(pre, sizeof(pre), nsl_classes[k].name);
	}
	if (lack[0] != '\0' && warn(pl, "%s (%s): its --Logging (\"%s\") leaves "
	    "out lines of %s that are events (function, debug, logic, info); on "
	    "the NS3Net simulator: logging.add_logging(\"<class>\", "
	    "ns3_components.NS3LoggingLevel.LEVEL_ALL) for each", simname(pl,
	    st->idx), simcls(pl, st->idx), in->ns3->logging, lack) != SSP_OK)
		return SSP_ERR_NOMEM;
	if (pre[0] != '\0' && warn(pl, "%s (%s): its --Logging (\"%s\") gives %s "
	    "not all of the time, node and function prefixes, without which an "
	    "NS_LOG line is no event (unless NS_LOG in simbricks-run's "
	    "environment adds them); on the NS3Net simulator: "
	    "logging.add_logging(\"All\", "
	    "ns3_components.NS3LoggingLevel.PREFIX_ALL)", simname(pl, st->idx),
	    simcls(pl, st->idx), in->ns3->logging, pre) != SSP_OK)
		return SSP_ERR_NOMEM;
	return SSP_OK;
}

/* NS3Net: --log, else the NS_LOG lines (std::clog) of its stderr. */
static int
nslog_log(struct planner *pl, struct ssp_sbplan_stream *st)
{
	int rc;

	if (mapped(pl, st->idx) != NULL)
		return mapped_net(pl, st);
	st->which = SSP_SIMBRICKS_STDERR;
	st->ncaptured = ssp_simbricks_count(pl->r, st->idx, st->which,
	    pl->in[st->idx].c->needle);
	if ((rc = nslog_advice(pl, st)) != SSP_OK)
		return rc;
	if (st->ncaptured == 0)
		return warn(pl, "%s (%s): no NS_LOG lines of BridgeNetDevice, "
		    "SimbricksNetDevice or SimpleNetDevice in its captured stderr "
		    "(none has '%s'): an ns-3 built without logging (optimized) "
		    "prints none", simname(pl, st->idx), simcls(pl, st->idx),
		    pl->in[st->idx].c->needle);
	return SSP_OK;
}

/* An ns-3 trace-helper file (--EnableTracing=F, or --log). */
static int
ns3_log(struct planner *pl, struct ssp_sbplan_stream *st)
{
	const struct info *in = &pl->in[st->idx];

	if (mapped(pl, st->idx) != NULL)
		return mapped_net(pl, st);
	if (in->trace != NULL)
		return set_log(pl, st, in->trace, 0);
	st->missing = 1;
	return warn(pl, "%s (%s): its command line names no trace file: run an "
	    "ns-3 example with the SimBricks trace helper (simspan(7)) and set "
	    "its path in the commands", simname(pl, st->idx), simcls(pl, st->idx));
}

static int
add_stream(struct planner *pl, size_t i)
{
	struct ssp_sbplan *p = pl->p;
	struct ssp_sbplan_stream *st = &p->streams[p->nstreams];
	const struct info *in = &pl->in[i];
	char *name;
	int rc;

	if ((name = stream_name(pl, simname(pl, i))) == NULL)
		return SSP_ERR_NOMEM;
	*st = (struct ssp_sbplan_stream){ .name = name, .sim = in->c->sim,
	    .idx = i, .cls = in->c, .which = SSP_SIMBRICKS_STDOUT };
	pl->in[i].stream = (int)p->nstreams++;
	/* where the log is, by the class table's word for it */
	switch (in->c->log) {
	case SSP_SBCLASS_LOG_GEM5: rc = gem5_log(pl, st); break;
	case SSP_SBCLASS_LOG_NICBM: rc = nic_log(pl, st); break;
	case SSP_SBCLASS_LOG_NS3TRACE: rc = ns3_log(pl, st); break;
	case SSP_SBCLASS_LOG_SWITCH: rc = switch_log(pl, st); break;
	case SSP_SBCLASS_LOG_NSLOG: rc = nslog_log(pl, st); break;
	default: rc = captured_log(pl, st); break;
	}
	return rc;
}

/* Streams: hosts, NICs, networks, in the planning order. */
static int
streams(struct planner *pl)
{
	static const enum ssp_sbclass_role pass[] = { SSP_SBCLASS_HOST,
	    SSP_SBCLASS_NIC, SSP_SBCLASS_NET };
	size_t n = ssp_simbricks_nsims(pl->r), k, j, i;
	int rc;

	for (k = 0; k < 3; k++)
		for (j = 0; j < n; j++) {
			const struct info *in = &pl->in[i = pl->order[j]];

			if (in->c->role != pass[k])
				continue;
			if (in->c->sim == SSP_SIM_NONE)
				continue;
			/* NS3Net: a stream with NS_LOG turned on, or a file */
			if (in->c->cmd == SSP_SBCLASS_CMD_NS3 && mapped(pl, i) == NULL &&
			    !nslog_on(in))
				continue;
			/* QEMU names no device: one, or none at all */
			if (in->c->cmd == SSP_SBCLASS_CMD_QEMU && in->npci > 1)
				continue;
			if ((rc = add_stream(pl, i)) != SSP_OK)
				return rc;
		}
	return SSP_OK;
}

/* One line for each simulator that gets no stream. */
static int
no_stream(struct planner *pl)
{
	size_t n = ssp_simbricks_nsims(pl->r), j, i;
	int rc;

	for (j = 0; j < n; j++) {
		const struct info *in = &pl->in[i = pl->order[j]];
		const struct ssp_sbclass *c = in->c;

		if (in->stream >= 0 || c->role == SSP_SBCLASS_PROXY)
			continue;
		if (c->cmd == SSP_SBCLASS_CMD_NS3) {
			rc = warn(pl, "%s (%s): no network stream: %s%s%s; on the "
			    "NS3Net simulator of the experiment script: "
			    "logging.add_logging(\"BridgeNetDevice\", "
			    "ns3_components.NS3LoggingLevel.LEVEL_ALL), the same for "
			    "\"SimbricksNetDevice\" and \"SimpleNetDevice\", and "
			    "logging.add_logging(\"All\", ns3_components."
			    "NS3LoggingLevel.PREFIX_ALL) (the time, node and function "
			    "on every line); its NIC links are in the topology as "
			    "comments; a trace file (Columbo's ns-3 trace helper, an "
			    "ns-3 pcap) goes in with --log %s=FILE", simname(pl, i),
			    simcls(pl, i), in->ns3->logging == NULL ? "its NS_LOG "
			    "output is off (--Logging is empty)" : "its --Logging (\"",
			    in->ns3->logging == NULL ? "" : in->ns3->logging,
			    in->ns3->logging == NULL ? "" : "\") logs none of "
			    "BridgeNetDevice, SimbricksNetDevice, SimpleNetDevice",
			    simname(pl, i));
		} else if (c->cmd == SSP_SBCLASS_CMD_QEMU && c->sim != SSP_SIM_NONE) {
			rc = warn(pl, "%s (%s): no host stream: QEMU's simbricks-pci "
			    "lines name no device, so those of its %u devices cannot "
			    "be told apart; its NICs' spans are trace roots",
			    simname(pl, i), simcls(pl, i), in->npci);
		} else if (c->role == SSP_SBCLASS_HOST) {
			rc = warn(pl, "%s (%s): %s: no host stream, its NIC's spans are "
			    "trace roots%s%s", simname(pl, i), simcls(pl, i), c->lacks,
			    c->enable ? "; " : "", c->enable ? c->enable : "");
		} else {
			rc = warn(pl, "%s (%s): %s: no %s stream%s%s", simname(pl, i),
			    simcls(pl, i), c->lacks, c->role == SSP_SBCLASS_NIC ? "NIC" :
			    "network", c->enable ? "; " : "", c->enable ? c->enable : "");
		}
		if (rc != SSP_OK)
			return rc;
	}
	return SSP_OK;
}

/* Links NIC by NIC, in the planning order: PCIe then Ethernet; then the
 * network-to-network channels, the listening end (-h) first. */
static int
links(struct planner *pl)
{
	struct ssp_sbplan *p = pl->p;
	size_t n = ssp_simbricks_nsims(pl->r), j, i, t;

	for (j = 0; j < n; j++) {
		const struct info *in = &pl->in[i = pl->order[j]];

		if (in->c->role != SSP_SBCLASS_NIC || in->pci < 0)
			continue;
		if (ssp_buf_array((void **)&p->links, &pl->clinks, p->nlinks + 2,
		    sizeof(*p->links)) != 0)
			return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
		for (t = 0; t < 2; t++) {
			const struct end *x = &pl->ends[t == 0 ? in->pci : in->eth];
			const struct end *y = &pl->ends[x->peer];
			struct ssp_sbplan_link *l = &p->links[p->nlinks++];

			*l = (struct ssp_sbplan_link){ .type = t == 0 ?
			    SSP_SBPLAN_PCIE : SSP_SBPLAN_ETH, .a = t == 0 ? y->sim : i,
			    .b = t == 0 ? i : y->sim, .adapter = y->idx,
			    .node = y->node, .dev = y->dev, .sock = x->p };
			/* QEMU's events name the device type, not an object */
			if (t == 0 && pl->in[y->sim].c->cmd == SSP_SBCLASS_CMD_QEMU)
				l->comp = "simbricks-pci";
			l->sa = pl->in[l->a].stream;
			l->sb = pl->in[l->b].stream;
		}
	}
	for (j = 0; j < pl->nends; j++) {
		const struct end *x = &pl->ends[j], *y;
		struct ssp_sbplan_link *l;

		if (x->k != E_ETH_NET || x->peer < (int)j ||
		    pl->ends[x->peer].k != E_ETH_NET)
			continue;
		y = &pl->ends[x->peer];
		if (y->listen && !x->listen) {
			const struct end *z = x;

			x = y;
			y = z;
		}
		if (ssp_buf_array((void **)&p->links, &pl->clinks, p->nlinks + 1,
		    sizeof(*p->links)) != 0)
			return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
		l = &p->links[p->nlinks++];
		*l = (struct ssp_sbplan_link){ .type = SSP_SBPLAN_N2N, .a = x->sim,
		    .b = y->sim, .node = x->node, .dev = x->dev, .node_b = y->node,
		    .dev_b = y->dev, .sock = x->p };
		l->sa = pl->in[l->a].stream;
		l->sb = pl->in[l->b].stream;
	}
	return SSP_OK;
}

/* Each gem5 stream's NIC drivers (symbol tables), each once. */
static void
drivers(struct planner *pl)
{
	struct ssp_sbplan *p = pl->p;
	size_t k, d;

	for (k = 0; k < p->nlinks; k++) {
		const struct ssp_sbplan_link *l = &p->links[k];
		const char *drv = pl->in[l->b].c->driver;
		struct ssp_sbplan_stream *st;

		if (l->type != SSP_SBPLAN_PCIE || l->sa < 0 || drv == NULL ||
		    p->streams[l->sa].sim != SSP_SIM_GEM5)
			continue;	/* QEMU hosts: no symbol tables */
		st = &p->streams[l->sa];
		for (d = 0; d < st->ndriver && strcmp(st->driver[d], drv) != 0; d++)
			;
		if (d == st->ndriver && d < SSP_SBPLAN_MAXDRV)
			st->driver[st->ndriver++] = drv;
	}
	for (k = 0; k < p->nstreams && p->rules == NULL; k++)
		if (p->streams[k].cls->rules != NULL)
			p->rules = p->streams[k].cls->rules;
	if (p->rules == NULL)
		p->rules = "linux-i40e.csv";
}

/* ---- the run as a whole ---- */

/* Where the run is now (symphony: <run>/output/out.json) and where its
 * commands say it was (the directory before /tmp/shm/ in a socket). */
static int
rundirs(struct planner *pl)
{
	const char *path = ssp_simbricks_path(pl->r), *s, *q, *a;
	size_t n = ssp_simbricks_nsims(pl->r), i, k, len = strlen(path);

	/* <run>/output/out.json; else (a copied out.json) its directory */
	if (!pl->sym)
		;
	else if (len >= 15 && strcmp(path + len - 15, "output/out.json") == 0 &&
	    (len == 15 || path[len - 16] == '/'))
		pl->p->rundir = len == 15 ? strdup(".") : len == 16 ? strdup("/") :
		    strndup(path, len - 16);
	else if ((s = strrchr(path, '/')) != NULL)
		pl->p->rundir = s == path ? strdup("/") : strndup(path,
		    (size_t)(s - path));
	else
		pl->p->rundir = strdup(".");
	if (pl->sym && pl->p->rundir == NULL)
		return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < n && pl->orig == NULL; i++) {
		const struct ssp_simbricks_sim *sm = ssp_simbricks_sim(pl->r, i);

		for (k = 0; k < sm->argc; k++) {
			a = sm->argv[k];
			if ((q = strstr(a, "/tmp/shm/")) == NULL || q == a)
				continue;
			for (s = q; s > a && strchr(":=,", s[-1]) == NULL; s--)
				;
			if ((pl->orig = strndup(s, (size_t)(q - s))) == NULL)
				return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
			break;
		}
	}
	return SSP_OK;
}

static int
by_name(const void *a, const void *b, void *ctx)
{
	const struct ssp_simbricks *r = ctx;

	return strcmp(ssp_simbricks_sim(r, *(const size_t *)a)->name,
	    ssp_simbricks_sim(r, *(const size_t *)b)->name);
}

/* --log SIM=FILE: onto the simulators. */
static int
logmap(struct planner *pl)
{
	size_t k, n;
	char name[512];
	int i;

	for (k = 0; k < pl->o->nlogmap; k++) {
		const char *m = pl->o->logmap[k], *eq = strchr(m, '=');

		if (eq == NULL || eq == m || eq[1] == '\0' ||
		    (n = (size_t)(eq - m)) >= sizeof(name))
			return ssp_err_set(pl->e, SSP_ERR_INVAL, 0, "--log %s: "
			    "expected SIMULATOR=FILE", m);
		memcpy(name, m, n);
		name[n] = '\0';
		if ((i = ssp_simbricks_find(pl->r, name)) < 0)
			return ssp_err_set(pl->e, SSP_ERR_INVAL, 0, "--log %s: %s has "
			    "no simulator named '%s'", m, ssp_simbricks_path(pl->r),
			    name);
		if (pl->in[i].c->sim == SSP_SIM_NONE)
			return ssp_err_set(pl->e, SSP_ERR_INVAL, 0, "--log %s: %s "
			    "(%s) has no parser yet: %s", m, name, pl->in[i].c->name,
			    pl->in[i].c->lacks);
		pl->in[i].mapped = eq + 1;
	}
	return SSP_OK;
}

static int
scan(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = ssp_simbricks_sim(pl->r, i);
	const struct ssp_sbclass *c = ssp_sbclass_find(s->cls);
	struct info *in = &pl->in[i];

	in->stream = in->host = in->pci = in->eth = -1;
	if (c == NULL)
		return refuse(pl, i, "simspan cannot trace this class yet "
		    "(simspan-simbricks(1) lists the classes it traces)");
	in->c = c;
	if (c->refuse)
		return refuse(pl, i, "cannot be traced yet: %s", c->lacks);
	switch (c->cmd) {
	case SSP_SBCLASS_CMD_GEM5: return scan_gem5(pl, i);
	case SSP_SBCLASS_CMD_QEMU: return scan_qemu(pl, i);
	case SSP_SBCLASS_CMD_NICBM:
	case SSP_SBCLASS_CMD_NICRTL: return scan_nic(pl, i);
	case SSP_SBCLASS_CMD_SWITCH: return scan_switch(pl, i);
	case SSP_SBCLASS_CMD_NS3_2022: return scan_ns3_2022(pl, i);
	case SSP_SBCLASS_CMD_NS3: return scan_ns3(pl, i);
	case SSP_SBCLASS_CMD_PROXY: return scan_proxy(pl, i);
	default: return refuse(pl, i, "cannot be traced yet");
	}
}

int
ssp_sbplan_make(struct ssp_sbplan **pp, const struct ssp_simbricks *r,
    const struct ssp_sbplan_opts *o, struct ssp_err *e)
{
	struct planner pl = { .r = r, .o = o, .e = e };
	size_t n = ssp_simbricks_nsims(r), i;
	struct ssp_sbplan *p;
	int rc = SSP_OK;

	*pp = NULL;
	pl.sym = ssp_simbricks_format(r) == SSP_SIMBRICKS_SYMPHONY;
	if (pl.sym && ssp_simbricks_interrupted(r) && !o->force)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: \"_interrupted\" is "
		    "true: the run was stopped early, its logs end early and "
		    "simulators that had not started are missing; --force traces "
		    "it anyway", ssp_simbricks_path(r));
	if ((p = calloc(1, sizeof(*p))) == NULL ||
	    (p->streams = calloc(n + 1, sizeof(*p->streams))) == NULL ||
	    (pl.in = calloc(n + 1, sizeof(*pl.in))) == NULL ||
	    (pl.order = calloc(n + 1, sizeof(*pl.order))) == NULL) {
		rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	pl.p = p;
	for (i = 0; i < n; i++)
		pl.order[i] = i;
	/* symphony writes its simulators in the order they first printed
	 * something: sort by name, so the streams do not change order */
	if (pl.sym)
		qsort_r(pl.order, n, sizeof(*pl.order), by_name, (void *)r);
	for (i = 0; i < n; i++)
		pl.in[pl.order[i]].order = (int)i;
	if ((rc = rundirs(&pl)) != SSP_OK)
		goto out;
	for (i = 0; i < n && rc == SSP_OK; i++)
		rc = scan(&pl, pl.order[i]);
	if (rc == SSP_OK)
		rc = logmap(&pl);
	if (rc == SSP_OK)
		rc = pair(&pl);
	if (rc == SSP_OK && pl.sym)
		rc = sync_check(&pl);
	if (rc == SSP_OK)
		rc = streams(&pl);
	if (rc == SSP_OK)
		rc = no_stream(&pl);
	if (rc == SSP_OK)
		rc = links(&pl);
	if (rc != SSP_OK)
		goto out;
	drivers(&pl);
	if (ssp_simbricks_interrupted(r) || !ssp_simbricks_success(r))
		rc = warn(&pl, "%s: the run %s: its logs may end early",
		    ssp_simbricks_path(r), ssp_simbricks_interrupted(r) ?
		    "was interrupted" : "did not succeed");
	if (rc == SSP_OK && p->nstreams == 0)
		rc = warn(&pl, "%s: no simulator of this run has a parser: nothing "
		    "to trace", ssp_simbricks_path(r));
out:
	if (pl.in != NULL)
		for (i = 0; i < n; i++)
			ssp_sbns3_free(pl.in[i].ns3), free(pl.in[i].params);
	free(pl.in);
	free(pl.order);
	free(pl.ends);
	free(pl.orig);
	if (rc != SSP_OK) {
		ssp_sbplan_free(p);
		return rc;
	}
	*pp = p;
	return SSP_OK;
}

size_t
ssp_sbplan_present(const struct ssp_sbplan *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nstreams; i++)
		n += !p->streams[i].missing;
	return n;
}

void
ssp_sbplan_free(struct ssp_sbplan *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nstreams; i++) {
		free(p->streams[i].name);
		free(p->streams[i].log);
		free(p->streams[i].want);
	}
	for (i = 0; i < p->nwarn; i++)
		free(p->warn[i]);
	free(p->streams);
	free(p->links);
	free(p->warn);
	free(p->rundir);
	free(p);
}

/* ---- the topology ---- */

static void
put(struct ssp_buf *b, const char *s)
{
	ssp_buf_put(b, s, strlen(s));
}

static void
csvq(struct ssp_buf *b, const char *s)
{
	ssp_buf_putc(b, '"');
	for (; *s != '\0'; s++) {
		if (*s == '"')
			ssp_buf_putc(b, '"');
		ssp_buf_putc(b, *s);
	}
	ssp_buf_putc(b, '"');
}

int
ssp_sbplan_topology(const struct ssp_sbplan *p, const struct ssp_simbricks *r,
    int present_only, struct ssp_buf *b)
{
	char num[64];
	size_t i;
	int pass;

	put(b, "# SimBricks run ");
	put(b, ssp_simbricks_exp_name(r));	/* no control characters */
	put(b, ", by simspan-simbricks\n");
	put(b, "\"type\",\"name\",\"kind\",\"file\"\n");
	for (i = 0; i < p->nstreams; i++) {
		const struct ssp_sbplan_stream *st = &p->streams[i];

		if (present_only && st->missing)
			continue;
		put(b, "\"stream\",");
		csvq(b, st->name);
		ssp_buf_putc(b, ',');
		csvq(b, ssp_event_sim_kind(st->sim));
		put(b, ",\"");
		put(b, st->name);
		put(b, ".ev.zst\"\n");
	}
	/* PCIe rows, Ethernet rows, network-to-network rows, then
	 * (symphony) the links a stream is missing for, as comments */
	for (pass = 0; pass < 4; pass++)
		for (i = 0; i < p->nlinks; i++) {
			const struct ssp_sbplan_link *l = &p->links[i];
			int ok = l->sa >= 0 && l->sb >= 0 && (!present_only ||
			    (!p->streams[l->sa].missing && !p->streams[l->sb].missing));
			size_t s;

			if (pass < 3 ? !ok || (int)l->type != pass + 1 :
			    ok || ssp_simbricks_format(r) != SSP_SIMBRICKS_SYMPHONY)
				continue;
			if (!ok)
				put(b, "# ");
			put(b, l->type == SSP_SBPLAN_PCIE ? "\"pcie\"," :
			    l->type == SSP_SBPLAN_ETH ? "\"eth\"," : "\"n2n\",");
			csvq(b, l->sa >= 0 ? p->streams[l->sa].name :
			    ssp_simbricks_sim(r, l->a)->name);
			ssp_buf_putc(b, ',');
			if (l->type == SSP_SBPLAN_N2N) {
				snprintf(num, sizeof(num), "\"%u\",\"%u\",", l->node,
				    l->dev);
				put(b, num);
			}
			csvq(b, l->sb >= 0 ? p->streams[l->sb].name :
			    ssp_simbricks_sim(r, l->b)->name);
			if (l->type == SSP_SBPLAN_PCIE && l->comp != NULL)
				snprintf(num, sizeof(num), ",\"%s\"", l->comp);
			else if (l->type == SSP_SBPLAN_PCIE)
				snprintf(num, sizeof(num), ",\"system.pc.simbricks_%u\"",
				    l->adapter);
			else if (l->type == SSP_SBPLAN_ETH)
				snprintf(num, sizeof(num), ",\"%u\",\"%u\"", l->node,
				    l->dev);
			else
				snprintf(num, sizeof(num), ",\"%u\",\"%u\"", l->node_b,
				    l->dev_b);
			put(b, num);
			if (!ok) {
				s = l->sa < 0 ? l->a : l->sb < 0 ? l->b :
				    p->streams[l->sa].missing ? l->a : l->b;
				put(b, "   no stream for ");
				put(b, ssp_simbricks_sim(r, s)->name);
			}
			ssp_buf_putc(b, '\n');
		}
	return b->failed ? -1 : 0;
}
