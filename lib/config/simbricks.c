#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/simbricks.h"
#include "config/topo.h"

/* What a simulator is to simspan, by its orchestrator class. */
enum role { R_NONE, R_GEM5, R_QEMU, R_NIC, R_NS3, R_SWITCH };

static const struct cls {
	const char *name;
	enum role role;
	const char *what;	/* NIC: driver module; refused: why */
} classes[] = {
	{ "Gem5Host", R_GEM5, NULL },
	{ "QemuHost", R_QEMU, NULL },
	{ "I40eNIC", R_NIC, "i40e" },
	{ "CorundumBMNIC", R_NIC, "mqnic" },
	{ "E1000NIC", R_NIC, "e1000" },
	{ "NS3BridgeNet", R_NS3, NULL },
	{ "NS3DumbbellNet", R_NS3, NULL },
	{ "SwitchNet", R_SWITCH, NULL },
	{ "I40eMultiNIC", R_NONE, "one process simulates several NICs and "
	    "its nicbm log mixes them" },
	{ "MultiSubNIC", R_NONE, "a part of a multi-NIC process" },
	{ "CorundumVerilatorNIC", R_NONE, "an RTL model prints no nicbm lines" },
	{ "MemSwitchNet", R_NONE, "no parser for its log" },
	{ "TofinoNet", R_NONE, "no parser for its log" },
	{ "WireNet", R_NONE, "no parser for its log" },
	{ "NS3E2ENet", R_NONE, "its ns-3 node/device layout is made by the "
	    "experiment script" },
	{ "NS3SequencerNet", R_NONE, "its ns-3 node/device layout is not known" },
};

/* The ns-3 examples whose node/device layout is known: a CosimNetDevice
 * per port, after the bridge (device 0) and the loopback (bridge example,
 * from InternetStackHelper) or the bottleneck link (dumbbells). */
static const char *const ns3_bridge[] = {
	"cosim-bridge-example", "simbricks-bridge-example", NULL };
static const char *const ns3_dumbbell[] = {
	"cosim-dumbbell-example", "simbricks-dumbbell-example",
	"cosim-dumbbell-hybrid", NULL };

struct simx {
	json_t *lines[2];	/* borrowed: stdout, stderr arrays or NULL */
};

struct ssp_simbricks {
	json_t *root;
	char *name;
	const char *exp;
	int success, interrupted;
	struct ssp_simbricks_sim *sims;
	struct simx *x;
	size_t nsims;
};

/* Does s hold a control character (a newline would break out of a
 * comment of the commands script)? */
static int
has_ctl(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static int
fmt_err(struct ssp_err *e, const char *name, const char *what)
{
	return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: not SimBricks experiment "
	    "output (out/<exp>-<run>.json): %s", name, what);
}

/* Check the shape and index the simulators. */
static int
build(struct ssp_simbricks *r, struct ssp_err *e)
{
	json_t *sims, *v, *s, *cmd, *a;
	const char *key, *which[2] = { "stdout", "stderr" };
	char what[160];
	size_t i, j, k, n;

	if (!json_is_object(r->root))
		return fmt_err(e, r->name, "the top level is not a JSON object");
	v = json_object_get(r->root, "exp_name");
	if (!json_is_string(v))
		return fmt_err(e, r->name, "no \"exp_name\" string");
	r->exp = json_string_value(v);
	if (has_ctl(r->exp))
		return fmt_err(e, r->name, "a control character in \"exp_name\"");
	sims = json_object_get(r->root, "sims");
	if (!json_is_object(sims))
		return fmt_err(e, r->name, "no \"sims\" object");
	v = json_object_get(r->root, "success");
	r->success = json_is_true(v);
	v = json_object_get(r->root, "interrupted");
	r->interrupted = json_is_true(v);
	n = json_object_size(sims);
	if (n == 0)
		return fmt_err(e, r->name, "\"sims\" is empty");
	if (n > SSP_TOPO_MAXSTREAMS)
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "%s: %zu simulators (at "
		    "most %d)", r->name, n, SSP_TOPO_MAXSTREAMS);
	r->sims = calloc(n, sizeof(*r->sims));
	r->x = calloc(n, sizeof(*r->x));
	if (r->sims == NULL || r->x == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	r->nsims = n;	/* argv freed up to here on an error */
	i = 0;
	json_object_foreach(sims, key, s) {
		struct ssp_simbricks_sim *sm = &r->sims[i];

		sm->name = key;
		if (!json_is_object(s)) {
			snprintf(what, sizeof(what), "simulator '%.64s' is not an "
			    "object", key);
			return fmt_err(e, r->name, what);
		}
		v = json_object_get(s, "class");
		cmd = json_object_get(s, "cmd");
		if (!json_is_string(v) || !json_is_array(cmd)) {
			snprintf(what, sizeof(what), "simulator '%.64s' has no "
			    "\"%s\"", key, json_is_string(v) ? "cmd" : "class");
			return fmt_err(e, r->name, what);
		}
		sm->cls = json_string_value(v);
		if (has_ctl(key) || has_ctl(sm->cls)) {
			snprintf(what, sizeof(what), "a control character in the "
			    "name or class of simulator '%.64s'", key);
			return fmt_err(e, r->name, what);
		}
		sm->argc = json_array_size(cmd);
		if ((sm->argv = calloc(sm->argc + 1, sizeof(char *))) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		json_array_foreach(cmd, j, a) {
			if (!json_is_string(a)) {
				snprintf(what, sizeof(what), "simulator '%.64s': "
				    "cmd[%zu] is not a string", key, j);
				return fmt_err(e, r->name, what);
			}
			sm->argv[j] = json_string_value(a);
			if (has_ctl(sm->argv[j])) {
				snprintf(what, sizeof(what), "simulator '%.64s': "
				    "a control character in cmd[%zu]", key, j);
				return fmt_err(e, r->name, what);
			}
		}
		for (k = 0; k < 2; k++) {
			v = json_object_get(s, which[k]);
			if (v == NULL)
				continue;
			if (!json_is_array(v)) {
				snprintf(what, sizeof(what), "simulator '%.64s': "
				    "\"%s\" is not an array of lines", key, which[k]);
				return fmt_err(e, r->name, what);
			}
			json_array_foreach(v, j, a)
				if (!json_is_string(a)) {
					snprintf(what, sizeof(what), "simulator "
					    "'%.64s': %s[%zu] is not a string", key,
					    which[k], j);
					return fmt_err(e, r->name, what);
				}
			r->x[i].lines[k] = v;
			sm->nlines[k] = json_array_size(v);
		}
		i++;
	}
	return SSP_OK;
}

static int
finish(struct ssp_simbricks **rp, struct ssp_simbricks *r, json_t *root,
    const json_error_t *je, struct ssp_err *e)
{
	int rc;

	r->root = root;
	if (root == NULL) {
		rc = ssp_err_set(e, SSP_ERR_FORMAT, (uint64_t)je->position,
		    "%s:%d:%d: not JSON: %s", r->name, je->line, je->column,
		    je->text);
		if (e != NULL)
			e->line = je->line > 0 ? (uint64_t)je->line : 0;
	} else {
		rc = build(r, e);
	}
	if (rc != SSP_OK) {
		ssp_simbricks_free(r);
		return rc;
	}
	*rp = r;
	return SSP_OK;
}

static struct ssp_simbricks *
alloc_run(const char *name)
{
	struct ssp_simbricks *r = calloc(1, sizeof(*r));

	if (r != NULL && (r->name = strdup(name != NULL ? name : "-")) == NULL) {
		free(r);
		r = NULL;
	}
	return r;
}

int
ssp_simbricks_parse(struct ssp_simbricks **rp, const char *name,
    const char *buf, size_t len, struct ssp_err *e)
{
	struct ssp_simbricks *r;
	json_error_t je;
	json_t *root;

	*rp = NULL;
	if ((r = alloc_run(name)) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
	return finish(rp, r, root, &je, e);
}

struct feed {
	struct ssp_in *in;
	struct ssp_err *e;
	int failed;
};

static size_t
feed_cb(void *buf, size_t len, void *data)
{
	struct feed *f = data;
	ssize_t n = ssp_in_read(f->in, buf, len, f->e);

	if (n < 0) {
		f->failed = 1;
		return (size_t)-1;
	}
	return (size_t)n;
}

int
ssp_simbricks_read(struct ssp_simbricks **rp, struct ssp_in *in,
    struct ssp_err *e)
{
	struct ssp_err ie = { 0 };
	struct feed f = { in, &ie, 0 };
	struct ssp_simbricks *r;
	json_error_t je;
	json_t *root;

	*rp = NULL;
	if ((r = alloc_run(ssp_in_name(in))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	root = json_load_callback(feed_cb, &f, JSON_REJECT_DUPLICATES |
	    JSON_ALLOW_NUL, &je);
	if (f.failed) {
		json_decref(root);
		ssp_simbricks_free(r);
		if (e != NULL)
			*e = ie;
		return ie.code != 0 ? ie.code : SSP_ERR_IO;
	}
	return finish(rp, r, root, &je, e);
}

void
ssp_simbricks_free(struct ssp_simbricks *r)
{
	size_t i;

	if (r == NULL)
		return;
	if (r->sims != NULL)
		for (i = 0; i < r->nsims; i++)
			free(r->sims[i].argv);
	free(r->sims);
	free(r->x);
	json_decref(r->root);
	free(r->name);
	free(r);
}

const char *
ssp_simbricks_exp_name(const struct ssp_simbricks *r)
{
	return r->exp;
}

int
ssp_simbricks_success(const struct ssp_simbricks *r)
{
	return r->success;
}

int
ssp_simbricks_interrupted(const struct ssp_simbricks *r)
{
	return r->interrupted;
}

size_t
ssp_simbricks_nsims(const struct ssp_simbricks *r)
{
	return r->nsims;
}

const struct ssp_simbricks_sim *
ssp_simbricks_sim(const struct ssp_simbricks *r, size_t i)
{
	return i < r->nsims ? &r->sims[i] : NULL;
}

int
ssp_simbricks_find(const struct ssp_simbricks *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nsims; i++)
		if (strcmp(r->sims[i].name, name) == 0)
			return (int)i;
	return -1;
}

size_t
ssp_simbricks_count(const struct ssp_simbricks *r, size_t i,
    enum ssp_simbricks_out which, const char *needle)
{
	json_t *a;
	size_t j, n = 0;

	if (i >= r->nsims || r->x[i].lines[which] == NULL)
		return 0;
	json_array_foreach(r->x[i].lines[which], j, a)
		if (strstr(json_string_value(a), needle) != NULL)
			n++;
	return n;
}

/* ---- captured output as a byte stream ---- */

struct ssp_simbricks_text {
	json_t *lines;
	size_t line, off;	/* next byte: line's off-th, or its '\n' */
};

int
ssp_simbricks_text_open(struct ssp_simbricks_text **tp,
    const struct ssp_simbricks *r, size_t sim, enum ssp_simbricks_out which,
    struct ssp_err *e)
{
	struct ssp_simbricks_text *t;

	*tp = NULL;
	if (sim >= r->nsims)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "no simulator %zu", sim);
	if ((t = calloc(1, sizeof(*t))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	t->lines = r->x[sim].lines[which];
	*tp = t;
	return SSP_OK;
}

ssize_t
ssp_simbricks_text_read(void *ctx, void *buf, size_t n)
{
	struct ssp_simbricks_text *t = ctx;
	char *p = buf;
	size_t got = 0, len, k;
	json_t *s;

	while (got < n && t->lines != NULL && t->line < json_array_size(t->lines)) {
		s = json_array_get(t->lines, t->line);
		len = json_string_length(s);
		if (t->off < len) {
			k = len - t->off < n - got ? len - t->off : n - got;
			memcpy(p + got, json_string_value(s) + t->off, k);
			t->off += k;
			got += k;
		} else {
			p[got++] = '\n';
			t->line++;
			t->off = 0;
		}
	}
	return (ssize_t)got;
}

void
ssp_simbricks_text_close(struct ssp_simbricks_text *t)
{
	free(t);
}

/* ---- the plan ---- */

/* A socket path as a command line gives it: "P", or "connect:P[:opts]" /
 * "listen:P[:opts]" (gem5 and newer simulators). */
struct sock {
	const char *p;
	size_t len;
};

static struct sock
sock_of(const char *arg)
{
	struct sock s = { arg, strlen(arg) };
	const char *c;

	if (strncmp(arg, "connect:", 8) == 0 || strncmp(arg, "listen:", 7) == 0) {
		s.p = strchr(arg, ':') + 1;
		c = strchr(s.p, ':');
		s.len = c != NULL ? (size_t)(c - s.p) : strlen(s.p);
	}
	return s;
}

static int
sock_eq(struct sock a, struct sock b)
{
	return a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
}

/* One end of a link: a host's PCI socket or a network's port. */
struct port {
	struct sock s;
	size_t sim;
	unsigned idx;		/* host: adapter number */
	uint32_t node, dev;	/* network */
	int nic;		/* the simulator serving it, or -1 */
};

struct info {
	const struct cls *c;
	enum role role;
	int stream;		/* stream index or -1 */
	struct sock pci, eth;	/* NIC */
	const char *outdir, *dfile, *dflags, *kernel, *trace;
	int host_pcie;		/* NIC: index into pcie ports, or -1 */
	int host;		/* NIC: host simulator or -1 */
};

struct planner {
	const struct ssp_simbricks *r;
	const struct ssp_simbricks_opts *o;
	struct ssp_simbricks_plan *p;
	struct info *in;
	struct port *pp, *ep;	/* host PCI sockets, network ports */
	size_t npp, cpp, nep, cep;
	size_t cwarn;
	struct ssp_err *e;
};

static int
refuse(struct planner *pl, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
refuse(struct planner *pl, size_t i, const char *fmt, ...)
{
	const struct ssp_simbricks_sim *s = &pl->r->sims[i];
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return ssp_err_set(pl->e, SSP_ERR_INVAL, 0, "%s: simulator '%s' (%s): %s",
	    pl->r->name, s->name, s->cls, why);
}

static int
warn(struct planner *pl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
warn(struct planner *pl, const char *fmt, ...)
{
	struct ssp_simbricks_plan *p = pl->p;
	char *m;
	va_list ap;
	int n;

	if (ssp_buf_array((void **)&p->warn, &pl->cwarn, p->nwarn + 1,
	    sizeof(*p->warn)) != 0)
		return -1;
	va_start(ap, fmt);
	n = vasprintf(&m, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	p->warn[p->nwarn++] = m;
	return 0;
}

static int
add_port(struct planner *pl, int host, struct sock s, size_t sim, unsigned idx,
    uint32_t node, uint32_t dev)
{
	struct port **a = host ? &pl->pp : &pl->ep;
	size_t *n = host ? &pl->npp : &pl->nep, *c = host ? &pl->cpp : &pl->cep;

	if (ssp_buf_array((void **)a, c, *n + 1, sizeof(**a)) != 0)
		return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	(*a)[(*n)++] = (struct port){ s, sim, idx, node, dev, -1 };
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

static int
scan_gem5(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = &pl->r->sims[i];
	struct info *in = &pl->in[i];
	const char *v;
	unsigned npci = 0;
	size_t k;
	int script = 0, rc;

	in->outdir = "m5out";
	for (k = 1; k < s->argc; k++) {
		const char *a = s->argv[k];
		size_t n = strlen(a);

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
			if ((rc = add_port(pl, 1, sock_of(v), i, npci++, 0, 0)) != SSP_OK)
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
 * -device simbricks-pci,socket=P. */
static int
scan_qemu(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = &pl->r->sims[i];
	unsigned npci = 0;
	const char *p, *q;
	size_t k;
	int rc;

	for (k = 1; k + 1 < s->argc; k++) {
		if (strcmp(s->argv[k], "-chardev") != 0 &&
		    strcmp(s->argv[k], "-device") != 0)
			continue;
		q = s->argv[++k];
		if ((strncmp(q, "socket,", 7) == 0 && (p = strstr(q, ",path=")) != NULL &&
		    (p += 6)) || ((p = strstr(q, "socket=")) != NULL && (p += 7))) {
			struct sock so = { p, strcspn(p, ",") };

			if ((rc = add_port(pl, 1, so, i, npci++, 0, 0)) != SSP_OK)
				return rc;
		}
	}
	return SSP_OK;
}

/* nicbm: argv[1] PCI socket, argv[2] Ethernet socket, argv[3] shm. */
static int
scan_nic(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = &pl->r->sims[i];
	struct info *in = &pl->in[i];

	if (s->argc < 3)
		return refuse(pl, i, "expected PCI and Ethernet socket arguments "
		    "after the program");
	in->pci = sock_of(s->argv[1]);
	in->eth = sock_of(s->argv[2]);
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
scan_ns3(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = &pl->r->sims[i];
	struct info *in = &pl->in[i];
	uint32_t dev[2] = { 2, 2 };
	const char *v, *example = NULL;
	int layout = 0, rc;	/* 1 bridge, 2 dumbbell */
	size_t k;
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
		if ((rc = add_port(pl, 0, sock_of(v + 1), i, 0, side, dev[side]++)) != SSP_OK)
			return rc;
	}
	return SSP_OK;
}

/* net_switch: -s P connects to a NIC, -h P listens for another switch;
 * ports are numbered in argument order. */
static int
scan_switch(struct planner *pl, size_t i)
{
	const struct ssp_simbricks_sim *s = &pl->r->sims[i];
	uint32_t port = 0;
	size_t k;
	int rc;

	for (k = 1; k < s->argc; k++) {
		if (strcmp(s->argv[k], "-h") == 0 && k + 1 < s->argc)
			return refuse(pl, i, "switch-to-switch link (n2n socket "
			    "-h %s): not supported yet", s->argv[k + 1]);
		if (strcmp(s->argv[k], "-s") == 0 && k + 1 < s->argc) {
			k++;
			if ((rc = add_port(pl, 0, sock_of(s->argv[k]), i, 0, 0, port++)) != SSP_OK)
				return rc;
		} else if (s->argv[k][0] == '-' && s->argv[k][1] != '\0' &&
		    strchr("mSEpu", s->argv[k][1]) != NULL && s->argv[k][2] == '\0' &&
		    s->argv[k][1] != 'u' && k + 1 < s->argc) {
			k++;	/* -m -S -E -p take a value */
		}
	}
	return SSP_OK;
}

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
add_stream(struct planner *pl, size_t sim, enum ssp_sim kind)
{
	struct ssp_simbricks_plan *p = pl->p;
	char *name;

	if ((name = stream_name(pl, pl->r->sims[sim].name)) == NULL)
		return SSP_ERR_NOMEM;
	p->streams[p->nstreams] = (struct ssp_simbricks_stream){ name, kind, sim };
	pl->in[sim].stream = (int)p->nstreams++;
	return SSP_OK;
}

static const char *
sockname(struct sock s, char *b, size_t n)
{
	snprintf(b, n, "%.*s", (int)(s.len < n ? s.len : n - 1), s.p);
	return b;
}

/* Pair NICs with host PCI sockets and network ports. */
static int
pair(struct planner *pl)
{
	const struct ssp_simbricks *r = pl->r;
	char b[160];
	size_t i, k;
	int found;

	for (i = 0; i < r->nsims; i++) {
		struct info *in = &pl->in[i];

		if (in->role != R_NIC)
			continue;
		for (found = -1, k = 0; k < pl->npp; k++) {
			if (!sock_eq(pl->pp[k].s, in->pci))
				continue;
			if (pl->pp[k].nic >= 0)
				return refuse(pl, i, "PCI socket %s is also simulator "
				    "'%s''s", sockname(in->pci, b, sizeof(b)),
				    r->sims[pl->pp[k].nic].name);
			if (found >= 0)
				return refuse(pl, i, "two hosts use its PCI socket %s",
				    sockname(in->pci, b, sizeof(b)));
			pl->pp[k].nic = (int)i;
			found = (int)k;
		}
		if (found < 0)
			return refuse(pl, i, "no host uses its PCI socket %s",
			    sockname(in->pci, b, sizeof(b)));
		in->host_pcie = found;
		in->host = (int)pl->pp[found].sim;
		for (found = -1, k = 0; k < pl->nep; k++) {
			if (!sock_eq(pl->ep[k].s, in->eth))
				continue;
			if (pl->ep[k].nic >= 0)
				return refuse(pl, i, "Ethernet socket %s is also "
				    "simulator '%s''s", sockname(in->eth, b, sizeof(b)),
				    r->sims[pl->ep[k].nic].name);
			if (found >= 0)
				return refuse(pl, i, "two networks use its Ethernet "
				    "socket %s", sockname(in->eth, b, sizeof(b)));
			pl->ep[k].nic = (int)i;
			found = (int)k;
		}
		if (found < 0)
			return refuse(pl, i, "no network uses its Ethernet socket %s",
			    sockname(in->eth, b, sizeof(b)));
	}
	for (k = 0; k < pl->npp; k++)
		if (pl->pp[k].nic < 0)
			return refuse(pl, pl->pp[k].sim, "no NIC serves its PCI "
			    "socket %s", sockname(pl->pp[k].s, b, sizeof(b)));
	for (k = 0; k < pl->nep; k++)
		if (pl->ep[k].nic < 0)
			return refuse(pl, pl->ep[k].sim, "no NIC serves its port "
			    "socket %s", sockname(pl->ep[k].s, b, sizeof(b)));
	return SSP_OK;
}

/* ---- the commands script ---- */

static void
put(struct ssp_buf *b, const char *s)
{
	ssp_buf_put(b, s, strlen(s));
}

static void
putf(struct ssp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
putf(struct ssp_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = 1;
		return;
	}
	ssp_buf_put(b, s, (size_t)n);
	free(s);
}

/* A word for sh: bare when safe, else in single quotes. */
static void
putq(struct ssp_buf *b, const char *s)
{
	const char *c;

	if (*s != '\0' && s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	    "qrstuvwxyz0123456789._-/:,+=@%")] == '\0') {
		put(b, s);
		return;
	}
	ssp_buf_putc(b, '\'');
	for (c = s; *c != '\0'; c++)
		if (*c == '\'')
			ssp_buf_lit(b, "'\\''");
		else
			ssp_buf_putc(b, *c);
	ssp_buf_putc(b, '\'');
}

/* The shell variable of a driver's symbols: I40E_SYMS / I40E_TEXT. */
static void
drv_var(char *b, size_t n, const char *drv, const char *suffix)
{
	size_t k;

	for (k = 0; drv[k] != '\0' && k + 1 < n; k++)
		b[k] = (char)toupper((unsigned char)drv[k]);
	snprintf(b + k, n - k, "_%s", suffix);
}

/* -s for a driver module's symbols at its load address. */
static void
put_driver(struct ssp_buf *b, const char *drv)
{
	char v1[64], v2[64];

	drv_var(v1, sizeof(v1), drv, "SYMS");
	drv_var(v2, sizeof(v2), drv, "TEXT");
	putf(b, " -s \"$%s\",%s,\"$%s\"", v1, drv, v2);
}

/* Does an earlier PCI socket of the same host have a NIC of the same driver? */
static int
driver_before(const struct planner *pl, size_t k)
{
	size_t j;

	for (j = 0; j < k; j++)
		if (pl->pp[j].sim == pl->pp[k].sim && strcmp(pl->in[pl->pp[j].nic].c->what,
		    pl->in[pl->pp[k].nic].c->what) == 0)
			return 1;
	return 0;
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

static void
cmd_header(struct planner *pl)
{
	const struct ssp_simbricks *r = pl->r;
	struct ssp_buf *b = &pl->p->cmd;
	const char *kernel = NULL, *rules = NULL, *drivers[16];
	char v1[64], v2[64];
	size_t i, k, nd = 0, ntrace = 0;

	for (i = 0; i < r->nsims; i++) {
		const struct info *in = &pl->in[i];

		if (in->role == R_GEM5 && in->kernel != NULL && kernel == NULL)
			kernel = in->kernel;
		if (in->role == R_NS3 && in->trace == NULL)
			ntrace++;
		if (in->role == R_NIC && in->host >= 0 &&
		    pl->in[in->host].role == R_GEM5) {
			for (k = 0; k < nd && strcmp(drivers[k], in->c->what) != 0; k++)
				;
			if (k == nd && nd < 16)
				drivers[nd++] = in->c->what;
		}
		if (in->role == R_NIC && rules == NULL)	/* Corundum: mqnic */
			rules = strcmp(in->c->what, "mqnic") == 0 ? "corundum" :
			    in->c->what;
	}
	put(b, "#!/bin/sh\n");
	put(b, "# sim2ev and evspan commands for the SimBricks run ");
	for (i = 0; pl->o->json[i] != '\0'; i++)
		ssp_buf_putc(b, has_ctl((char[]){ pl->o->json[i], '\0' }) ? '?' :
		    pl->o->json[i]);
	ssp_buf_putc(b, '\n');
	putf(b, "# (experiment %s), by simspan-simbricks %s.\n", r->exp, SSP_VERSION);
	put(b, "# Run them in the directory of the topology: sh commands.sh\n");
	put(b, "# What the JSON cannot know is named by the variables below: set them\n"
	    "# in the environment or edit them here (simspan(7), TRACING A SIMBRICKS RUN).\n");
	put(b, "set -eu\nRUN=${RUN:-");
	putq(b, pl->o->json);
	put(b, "}\n");
	if (kernel != NULL || nd > 0) {
		put(b, "# the guest kernel's symbols: objdump --syms ");
		putq(b, kernel != NULL ? kernel : "vmlinux");
		put(b, " > vmlinux.syms\nVMLINUX_SYMS=${VMLINUX_SYMS:-vmlinux.syms}\n");
	}
	for (k = 0; k < nd; k++) {
		drv_var(v1, sizeof(v1), drivers[k], "SYMS");
		drv_var(v2, sizeof(v2), drivers[k], "TEXT");
		putf(b, "# the %s module: objdump --syms %s.ko > %s.syms; its load "
		    "address\n# in the guest: cat /sys/module/%s/sections/.text\n",
		    drivers[k], drivers[k], drivers[k], drivers[k]);
		putf(b, "%s=${%s:-%s.syms}\n%s=${%s:-0xffffffffa0000000}\n", v1, v1,
		    drivers[k], v2, v2);
	}
	for (i = 0; i < r->nsims; i++) {
		const struct info *in = &pl->in[i];

		if (in->role != R_NS3 || in->trace != NULL)
			continue;
		drv_var(v1, sizeof(v1), pl->p->streams[in->stream].name, "TRACE");
		for (k = 0; v1[k] != '\0'; k++)
			if (!isalnum((unsigned char)v1[k]))
				v1[k] = '_';
		putf(b, "# the ns-3 SimBricks trace helper's file of %s (its command "
		    "line names none)\n%s=${%s:-%s.ns3.log}\n", r->sims[i].name, v1,
		    v1, pl->p->streams[in->stream].name);
	}
	(void)ntrace;
	put(b, "# span rules (rules/ in simspan's source, share/simspan/rules when "
	    "installed)\n");
	putf(b, "RULES=${RULES:-linux-%s.csv}\n", rules != NULL ? rules : "i40e");
}

static int
cmd_stream(struct planner *pl, size_t si)
{
	const struct ssp_simbricks_stream *st = &pl->p->streams[si];
	const struct ssp_simbricks_sim *s = &pl->r->sims[st->sim];
	const struct info *in = &pl->in[st->sim];
	struct ssp_buf *b = &pl->p->cmd;
	enum ssp_simbricks_out which = SSP_SIMBRICKS_STDOUT;
	const char *fmt = "gem5", *log = NULL;
	char *path = NULL, v1[64];
	size_t k, n0, n1;

	putf(b, "\n# %s (%s)", s->name, s->cls);
	switch (in->role) {
	case R_GEM5:
		if (in->dflags == NULL) {
			put(b, ": gem5 ran without --debug-flags, its log has no events\n");
			if (warn(pl, "%s (%s): gem5 ran without --debug-flags: no "
			    "events (simspan(7) lists the flags)", s->name, s->cls) != 0)
				return SSP_ERR_NOMEM;
		} else {
			put(b, ": its --debug-file\n");
			if ((!has_flag(in->dflags, "ExecEnable") && !has_flag(in->dflags,
			    "Exec") && !has_flag(in->dflags, "ExecAll")) ||
			    (!has_flag(in->dflags, "SimBricksPci") &&
			    !has_flag(in->dflags, "SimBricksAll")))
				if (warn(pl, "%s (%s): --debug-flags=%s lacks Exec or "
				    "SimBricksPci: no function or PCI events", s->name,
				    s->cls, in->dflags) != 0)
					return SSP_ERR_NOMEM;
		}
		if (in->dfile != NULL) {
			if (in->dfile[0] == '/')
				log = in->dfile;
			else if (asprintf(&path, "%s/%s", in->outdir, in->dfile) < 0)
				return SSP_ERR_NOMEM;
		}
		break;
	case R_NIC:
		fmt = "nicbm";
		n0 = ssp_simbricks_count(pl->r, st->sim, SSP_SIMBRICKS_STDOUT, "nicbm: ");
		n1 = ssp_simbricks_count(pl->r, st->sim, SSP_SIMBRICKS_STDERR, "nicbm: ");
		if (n1 > n0)
			which = SSP_SIMBRICKS_STDERR;
		if (n0 + n1 == 0) {
			put(b, ": no nicbm debug lines were captured\n");
			if (warn(pl, "%s (%s): no nicbm debug lines in its output: "
			    "build it with DEBUG_NICBM (simspan(7))", s->name, s->cls) != 0)
				return SSP_ERR_NOMEM;
		} else {
			putf(b, ": %zu nicbm lines in its %s\n", n0 > n1 ? n0 : n1,
			    which ? "stderr" : "stdout");
		}
		if (in->host >= 0 && pl->in[in->host].role == R_QEMU) {
			putf(b, "# its host %s runs QEMU, which prints no trace: the "
			    "NIC's spans are trace roots\n", pl->r->sims[in->host].name);
		}
		break;
	case R_NS3:
		fmt = "ns3";
		if (in->trace != NULL) {
			put(b, ": --EnableTracing\n");
			log = in->trace;
		} else {
			put(b, ": the trace helper's file\n");
			if (warn(pl, "%s (%s): its command line names no trace file: "
			    "run an ns-3 example with the SimBricks trace helper "
			    "(simspan(7)) and set its path in the commands", s->name,
			    s->cls) != 0)
				return SSP_ERR_NOMEM;
		}
		break;
	case R_SWITCH:
		fmt = "switch";
		which = SSP_SIMBRICKS_STDERR;
		put(b, ": NETSWITCH_DEBUG lines in its stderr (net_switch "
		    "built with it)\n");
		break;
	default:
		break;
	}
	putf(b, "sim2ev -f %s -n %s", fmt, st->name);
	if (in->role == R_GEM5) {
		put(b, " -s \"$VMLINUX_SYMS\",vmlinux");
		for (k = 0; k < pl->npp; k++)	/* each driver once */
			if (pl->pp[k].sim == st->sim && !driver_before(pl, k))
				put_driver(b, pl->in[pl->pp[k].nic].c->what);
		if (in->dflags != NULL && (has_flag(in->dflags, "SimBricksSync") ||
		    has_flag(in->dflags, "SimBricksAll")))
			put(b, " --time-offset sync");
	}
	putf(b, " -o %s.ev.zst", st->name);
	if (path != NULL || log != NULL) {
		ssp_buf_putc(b, ' ');
		putq(b, path != NULL ? path : log);
	} else if (in->role == R_NS3) {
		drv_var(v1, sizeof(v1), st->name, "TRACE");
		for (k = 0; v1[k] != '\0'; k++)
			if (!isalnum((unsigned char)v1[k]))
				v1[k] = '_';
		putf(b, " \"$%s\"", v1);
	} else {
		put(b, " --simbricks-json \"$RUN\" --sim ");
		putq(b, s->name);
		if (which == SSP_SIMBRICKS_STDERR)
			put(b, " --sim-stderr");
	}
	ssp_buf_putc(b, '\n');
	free(path);
	return SSP_OK;
}

static int
commands(struct planner *pl)
{
	struct ssp_buf *b = &pl->p->cmd;
	size_t i;
	int rc;

	cmd_header(pl);
	for (i = 0; i < pl->r->nsims; i++)
		if (pl->in[i].role == R_QEMU) {
			putf(b, "\n# %s (%s): QEMU prints no function or PCI trace; no "
			    "stream\n", pl->r->sims[i].name, pl->r->sims[i].cls);
			if (warn(pl, "%s (%s): QEMU prints no trace: no host stream, "
			    "its NIC's spans are trace roots", pl->r->sims[i].name,
			    pl->r->sims[i].cls) != 0)
				return SSP_ERR_NOMEM;
		}
	for (i = 0; i < pl->p->nstreams; i++)
		if ((rc = cmd_stream(pl, i)) != SSP_OK)
			return ssp_err_set(pl->e, rc, 0, "out of memory");
	put(b, "\n# phase 2: spans\n");
	put(b, "evspan -t ");
	putq(b, pl->o->topology);
	put(b, " -r \"$RULES\" -o spans.sp\n");
	if (b->failed)
		return ssp_err_set(pl->e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
}

int
ssp_simbricks_plan(struct ssp_simbricks_plan **pp, const struct ssp_simbricks *r,
    const struct ssp_simbricks_opts *o, struct ssp_err *e)
{
	struct planner pl = { r, o, NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, e };
	struct ssp_simbricks_plan *p;
	size_t i, k, nhost = 0, nnic = 0, npcie;
	int rc = SSP_OK, pass;
	enum role want[3] = { R_GEM5, R_NIC, R_NS3 };

	*pp = NULL;
	if ((p = calloc(1, sizeof(*p))) == NULL ||
	    (p->streams = calloc(r->nsims, sizeof(*p->streams))) == NULL ||
	    (pl.in = calloc(r->nsims, sizeof(*pl.in))) == NULL) {
		rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	pl.p = p;
	for (i = 0; i < r->nsims && rc == SSP_OK; i++) {
		const struct ssp_simbricks_sim *s = &r->sims[i];

		pl.in[i].stream = pl.in[i].host = pl.in[i].host_pcie = -1;
		for (k = 0; k < sizeof(classes) / sizeof(classes[0]); k++)
			if (strcmp(classes[k].name, s->cls) == 0)
				break;
		if (k == sizeof(classes) / sizeof(classes[0])) {
			rc = refuse(&pl, i, "simspan cannot trace this class yet "
			    "(simspan-simbricks(1) lists the classes it traces)");
			break;
		}
		pl.in[i].c = &classes[k];
		pl.in[i].role = classes[k].role;
		switch (classes[k].role) {
		case R_NONE:
			rc = refuse(&pl, i, "cannot be traced yet: %s", classes[k].what);
			break;
		case R_GEM5: rc = scan_gem5(&pl, i); nhost++; break;
		case R_QEMU: rc = scan_qemu(&pl, i); break;
		case R_NIC: rc = scan_nic(&pl, i); nnic++; break;
		case R_NS3: rc = scan_ns3(&pl, i); break;
		case R_SWITCH: rc = scan_switch(&pl, i); break;
		}
	}
	if (rc == SSP_OK)
		rc = pair(&pl);
	if (rc != SSP_OK)
		goto out;
	/* streams: gem5 hosts, NICs, networks, each in the JSON's order */
	for (pass = 0; pass < 3 && rc == SSP_OK; pass++)
		for (i = 0; i < r->nsims && rc == SSP_OK; i++)
			if (pl.in[i].role == want[pass] || (pass == 2 &&
			    pl.in[i].role == R_SWITCH))
				rc = add_stream(&pl, i, pass == 0 ? SSP_SIM_GEM5 :
				    pass == 1 ? SSP_SIM_NICBM : SSP_SIM_NS3);
	if (rc != SSP_OK)
		goto out;
	/* links, in the order of the NIC streams */
	for (npcie = 0, i = 0; i < pl.npp; i++)
		if (pl.in[pl.pp[i].sim].role == R_GEM5)
			npcie++;
	p->pcie = calloc(npcie + 1, sizeof(*p->pcie));
	p->eth = calloc(pl.nep + 1, sizeof(*p->eth));
	if (p->pcie == NULL || p->eth == NULL) {
		rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	for (k = 0; k < p->nstreams; k++) {
		size_t nic = p->streams[k].sim;
		const struct info *in = &pl.in[nic];

		if (p->streams[k].kind != SSP_SIM_NICBM)
			continue;
		if (in->host >= 0 && pl.in[in->host].role == R_GEM5)
			p->pcie[p->npcie++] = (struct ssp_simbricks_pcie){
			    (size_t)pl.in[in->host].stream, k, pl.pp[in->host_pcie].idx };
		for (i = 0; i < pl.nep; i++)
			if (pl.ep[i].nic == (int)nic)
				p->eth[p->neth++] = (struct ssp_simbricks_eth){ k,
				    (size_t)pl.in[pl.ep[i].sim].stream, pl.ep[i].node,
				    pl.ep[i].dev };
	}
	if (r->interrupted || !r->success)
		if (warn(&pl, "%s: the run %s: its logs may end early", r->name,
		    r->interrupted ? "was interrupted" : "did not succeed") != 0) {
			rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
			goto out;
		}
	rc = commands(&pl);
out:
	free(pl.in);
	free(pl.pp);
	free(pl.ep);
	if (rc != SSP_OK) {
		ssp_simbricks_plan_free(p);
		return rc;
	}
	(void)nhost;
	(void)nnic;
	*pp = p;
	return SSP_OK;
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
ssp_simbricks_topology(const struct ssp_simbricks_plan *p,
    const struct ssp_simbricks *r, struct ssp_buf *b)
{
	char num[32];
	size_t i;

	put(b, "# SimBricks run ");
	put(b, r->exp);	/* no control characters (build) */
	put(b, ", by simspan-simbricks\n");
	put(b, "\"type\",\"name\",\"kind\",\"file\"\n");
	for (i = 0; i < p->nstreams; i++) {
		put(b, "\"stream\",");
		csvq(b, p->streams[i].name);
		ssp_buf_putc(b, ',');
		csvq(b, ssp_event_sim_kind(p->streams[i].kind));
		put(b, ",\"");
		put(b, p->streams[i].name);
		put(b, ".ev.zst\"\n");
	}
	for (i = 0; i < p->npcie; i++) {
		put(b, "\"pcie\",");
		csvq(b, p->streams[p->pcie[i].host].name);
		ssp_buf_putc(b, ',');
		csvq(b, p->streams[p->pcie[i].nic].name);
		snprintf(num, sizeof(num), ",\"system.pc.simbricks_%u\"\n",
		    p->pcie[i].adapter);
		put(b, num);
	}
	for (i = 0; i < p->neth; i++) {
		put(b, "\"eth\",");
		csvq(b, p->streams[p->eth[i].nic].name);
		ssp_buf_putc(b, ',');
		csvq(b, p->streams[p->eth[i].net].name);
		snprintf(num, sizeof(num), ",\"%u\",\"%u\"\n", p->eth[i].node,
		    p->eth[i].dev);
		put(b, num);
	}
	return b->failed ? -1 : 0;
}

void
ssp_simbricks_plan_free(struct ssp_simbricks_plan *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nstreams; i++)
		free(p->streams[i].name);
	for (i = 0; i < p->nwarn; i++)
		free(p->warn[i]);
	free(p->streams);
	free(p->pcie);
	free(p->eth);
	free(p->warn);
	ssp_buf_free(&p->cmd);
	free(p);
}

/* --- one simulator's output as an input (sim2ev --simbricks-json) ------- */

struct ssp_simbricks_input {
	struct ssp_simbricks *run;
	struct ssp_simbricks_text *text;
	char *name;			/* "run.json:nic.client.0.:stdout" */
	char stem[SSP_TOPO_NAMEMAX + 1];
};

int
ssp_simbricks_input_open(struct ssp_simbricks_input **sp, struct ssp_in **inp,
    const char *path, const char *sim, enum ssp_simbricks_out which,
    struct ssp_err *e)
{
	const char *wn = which == SSP_SIMBRICKS_STDERR ? "stderr" : "stdout";
	struct ssp_simbricks_input *s;
	struct ssp_in *jin;
	size_t n;
	int i, r;

	*sp = NULL;
	*inp = NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((r = ssp_in_open(&jin, path, SSP_IN_ZSTD_AUTO, NULL, e)) != SSP_OK)
		goto fail;
	r = ssp_simbricks_read(&s->run, jin, e);
	ssp_in_close(jin);
	if (r != SSP_OK)
		goto fail;
	if ((i = ssp_simbricks_find(s->run, sim)) < 0) {
		r = ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: no simulator named '%s'",
		    path, sim);
		goto fail;
	}
	if ((r = ssp_simbricks_text_open(&s->text, s->run, (size_t)i, which,
	    e)) != SSP_OK)
		goto fail;
	n = strlen(path) + strlen(sim) + strlen(wn) + 3;
	if ((s->name = malloc(n)) == NULL) {
		r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto fail;
	}
	snprintf(s->name, n, "%s:%s:%s", path, sim, wn);
	if ((r = ssp_in_fnopen(inp, ssp_simbricks_text_read, s->text, s->name,
	    0, e)) != SSP_OK)
		goto fail;
	snprintf(s->stem, sizeof(s->stem), "%s", sim);
	for (n = strlen(s->stem); n > 1 && s->stem[n - 1] == '.'; n--)
		s->stem[n - 1] = '\0';
	*sp = s;
	return SSP_OK;
fail:
	ssp_simbricks_input_close(s);
	return r;
}

const char *
ssp_simbricks_input_stem(const struct ssp_simbricks_input *s)
{
	return s->stem;
}

void
ssp_simbricks_input_close(struct ssp_simbricks_input *s)
{
	if (s == NULL)
		return;
	ssp_simbricks_text_close(s->text);
	ssp_simbricks_free(s->run);
	free(s->name);
	free(s);
}
