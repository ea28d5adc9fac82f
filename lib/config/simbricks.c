#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/shword.h"
#include "config/simbricks.h"
#include "config/topo.h"

struct simx {
	json_t *lines[2];	/* borrowed: stdout, stderr arrays or NULL */
	char **split;		/* symphony: the split command (one block) */
};

struct ssp_simbricks {
	json_t *root;
	char *name;
	const char *exp;
	enum ssp_simbricks_fmt fmt;
	int success, interrupted;
	struct ssp_simbricks_sim *sims;
	struct simx *x;
	size_t nsims;
};

/* Does the JSON string v hold a control character or a NUL byte (a name
 * reaches comments and words of a shell script, and file names)? */
static int
bad_str(json_t *v)
{
	const char *s = json_string_value(v);
	size_t i, n = json_string_length(v);

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 1;
	return 0;
}

static int
bad_cstr(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static int
fmt_err(struct ssp_err *e, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
fmt_err(struct ssp_err *e, const char *name, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: not SimBricks experiment "
	    "output (2022 out/<exp>-<run>.json or symphony output/out.json): %s",
	    name, what);
}

/* An array of strings, or absent (NULL).  1 if it is something else. */
static int
lines_of(json_t *o, const char *key, json_t **out, size_t *bad)
{
	json_t *v = json_object_get(o, key), *a;
	size_t j;

	*out = NULL;
	if (v == NULL)
		return 0;
	if (!json_is_array(v)) {
		*bad = (size_t)-1;
		return 1;
	}
	json_array_foreach(v, j, a)
		if (!json_is_string(a)) {
			*bad = j;
			return 1;
		}
	*out = v;
	return 0;
}

static int
alloc_sims(struct ssp_simbricks *r, size_t n, struct ssp_err *e)
{
	if (n > SSP_TOPO_MAXSTREAMS)
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "%s: %zu simulators (at "
		    "most %d)", r->name, n, SSP_TOPO_MAXSTREAMS);
	r->sims = calloc(n + 1, sizeof(*r->sims));
	r->x = calloc(n + 1, sizeof(*r->x));
	if (r->sims == NULL || r->x == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
}

/* ---- 2022: {"exp_name", "sims": {NAME: {"class", "cmd": [...], ...}}} ---- */

static int
build_2022(struct ssp_simbricks *r, struct ssp_err *e)
{
	json_t *sims, *v, *s, *cmd, *a;
	const char *key, *which[2] = { "stdout", "stderr" };
	size_t i, j, k, bad;
	int rc;

	v = json_object_get(r->root, "exp_name");
	r->exp = json_string_value(v);
	if (bad_str(v))
		return fmt_err(e, r->name, "a control character in \"exp_name\"");
	sims = json_object_get(r->root, "sims");
	if (!json_is_object(sims))
		return fmt_err(e, r->name, "no \"sims\" object");
	r->success = json_is_true(json_object_get(r->root, "success"));
	r->interrupted = json_is_true(json_object_get(r->root, "interrupted"));
	if (json_object_size(sims) == 0)
		return fmt_err(e, r->name, "\"sims\" is empty");
	if ((rc = alloc_sims(r, json_object_size(sims), e)) != SSP_OK)
		return rc;
	i = 0;
	json_object_foreach(sims, key, s) {
		struct ssp_simbricks_sim *sm = &r->sims[i];

		sm->name = key;
		r->nsims = i + 1;	/* argv freed up to here on an error */
		if (!json_is_object(s))
			return fmt_err(e, r->name, "simulator '%.64s' is not an "
			    "object", key);
		v = json_object_get(s, "class");
		cmd = json_object_get(s, "cmd");
		if (!json_is_string(v) || !json_is_array(cmd))
			return fmt_err(e, r->name, "simulator '%.64s' has no "
			    "\"%s\"", key, json_is_string(v) ? "cmd" : "class");
		sm->cls = json_string_value(v);
		if (bad_cstr(key) || bad_str(v))
			return fmt_err(e, r->name, "a control character in the "
			    "name or class of simulator '%.64s'", key);
		sm->argc = json_array_size(cmd);
		if ((sm->argv = calloc(sm->argc + 1, sizeof(char *))) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		json_array_foreach(cmd, j, a) {
			if (!json_is_string(a))
				return fmt_err(e, r->name, "simulator '%.64s': "
				    "cmd[%zu] is not a string", key, j);
			sm->argv[j] = json_string_value(a);
			if (bad_str(a))
				return fmt_err(e, r->name, "simulator '%.64s': "
				    "a control character in cmd[%zu]", key, j);
		}
		for (k = 0; k < 2; k++) {
			if (lines_of(s, which[k], &r->x[i].lines[k], &bad)) {
				if (bad == (size_t)-1)
					return fmt_err(e, r->name, "simulator '%.64s': "
					    "\"%s\" is not an array of lines", key,
					    which[k]);
				return fmt_err(e, r->name, "simulator '%.64s': "
				    "%s[%zu] is not a string", key, which[k], bad);
			}
			sm->nlines[k] = json_array_size(r->x[i].lines[k]);
		}
		i++;
	}
	return SSP_OK;
}

/* ---- symphony: runtime.output.SimulationOutput.toJSON() ----------------- */

static int
build_symphony(struct ssp_simbricks *r, struct ssp_err *e)
{
	const char *key, *which[2] = { "stdout", "stderr" };
	json_t *v, *s, *out, *o, *cmd;
	struct ssp_err se;
	size_t i, j, k, n = 0, bad;
	int rc;

	v = json_object_get(r->root, "_sim_name");
	r->exp = json_string_value(v);
	if (bad_str(v))
		return fmt_err(e, r->name, "a control character in \"_sim_name\"");
	v = json_object_get(r->root, "_success");
	if (v != NULL && !json_is_boolean(v))
		return fmt_err(e, r->name, "\"_success\" is not true or false");
	r->success = json_is_true(v);
	v = json_object_get(r->root, "_interrupted");
	if (v != NULL && !json_is_boolean(v))
		return fmt_err(e, r->name, "\"_interrupted\" is not true or false");
	r->interrupted = json_is_true(v);
	json_object_foreach(r->root, key, s)
		if (key[0] != '_' && strcmp(key, "generic_prepare") != 0)
			n++;
	if (n == 0)
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: no simulators: "
		    "this out.json has only the run's header (\"_sim_name\" "
		    "...), as a fragment runner (simbricks-runner) writes it; "
		    "that runner sends its simulators' output to the SimBricks "
		    "backend (simbricks-cli runs follow), so nothing here can "
		    "be traced; run it with simbricks-run", r->name);
	if ((rc = alloc_sims(r, n, e)) != SSP_OK)
		return rc;
	i = 0;
	json_object_foreach(r->root, key, s) {
		struct ssp_simbricks_sim *sm;
		size_t no;

		if (key[0] == '_' || strcmp(key, "generic_prepare") == 0)
			continue;
		sm = &r->sims[i];
		r->nsims = i + 1;
		sm->name = key;
		if (bad_cstr(key))
			return fmt_err(e, r->name, "a control character in the "
			    "simulator name \"%.64s\"", key);
		if (!json_is_object(s))
			return fmt_err(e, r->name, "\"%.64s\" is not an object "
			    "(a simulator: {\"class\", \"output\"})", key);
		v = json_object_get(s, "class");
		if (!json_is_string(v))
			return fmt_err(e, r->name, "\"%.64s\" has no \"class\" "
			    "string", key);
		if (bad_str(v))
			return fmt_err(e, r->name, "\"%.64s\".class: a control "
			    "character", key);
		sm->cls = json_string_value(v);
		out = json_object_get(s, "output");
		if (!json_is_array(out) || json_array_size(out) == 0)
			return fmt_err(e, r->name, "\"%.64s\".output is not a "
			    "list of commands (prepare commands, then the run)",
			    key);
		no = json_array_size(out);
		json_array_foreach(out, j, o) {
			cmd = json_object_get(o, "cmd");
			if (!json_is_object(o) || !json_is_string(cmd))
				return fmt_err(e, r->name, "\"%.64s\".output[%zu] "
				    "has no \"cmd\" string", key, j);
			for (k = 0; k < 2; k++)
				if (lines_of(o, which[k], &r->x[i].lines[k], &bad)) {
					if (bad == (size_t)-1)
						return fmt_err(e, r->name, "\"%.64s\"."
						    "output[%zu].%s is not a list of "
						    "lines", key, j, which[k]);
					return fmt_err(e, r->name, "\"%.64s\".output"
					    "[%zu].%s[%zu] is not a string", key, j,
					    which[k], bad);
				}
		}
		/* the run command is the last: its lines stay in x */
		o = json_array_get(out, no - 1);
		cmd = json_object_get(o, "cmd");
		if (bad_str(cmd))
			return fmt_err(e, r->name, "\"%.64s\".output[%zu].cmd: a "
			    "control character", key, no - 1);
		sm->cmd = json_string_value(cmd);
		if ((rc = ssp_shword_split(sm->cmd, &r->x[i].split, &sm->argc,
		    &se)) != SSP_OK) {
			if (rc == SSP_ERR_NOMEM)
				return ssp_err_set(e, rc, 0, "out of memory");
			return fmt_err(e, r->name, "\"%.64s\".output[%zu].cmd: %s",
			    key, no - 1, se.msg);
		}
		sm->argv = (const char **)r->x[i].split;
		for (k = 0; k < 2; k++)
			sm->nlines[k] = json_array_size(r->x[i].lines[k]);
		i++;
	}
	return SSP_OK;
}

static int
build(struct ssp_simbricks *r, struct ssp_err *e)
{
	if (!json_is_object(r->root))
		return fmt_err(e, r->name, "the top level is not a JSON object");
	if (json_is_string(json_object_get(r->root, "exp_name"))) {
		r->fmt = SSP_SIMBRICKS_2022;
		return build_2022(r, e);
	}
	if (json_is_string(json_object_get(r->root, "_sim_name"))) {
		r->fmt = SSP_SIMBRICKS_SYMPHONY;
		return build_symphony(r, e);
	}
	return fmt_err(e, r->name, "no \"exp_name\" (2022) or \"_sim_name\" "
	    "(symphony) string");
}

static int
finish(struct ssp_simbricks **rp, struct ssp_simbricks *r, json_t *root,
    const json_error_t *je, struct ssp_err *e)
{
	int rc;

	r->root = root;
	if (root == NULL) {
		/* a repeated top-level key: two simulators with one name */
		rc = ssp_err_set(e, SSP_ERR_FORMAT, (uint64_t)je->position,
		    "%s:%d:%d: not JSON: %s%s", r->name, je->line, je->column,
		    je->text, strstr(je->text, "duplicate object key") != NULL ?
		    " (two simulators with one name?)" : "");
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

int
ssp_simbricks_load(struct ssp_simbricks **rp, const char *path,
    struct ssp_err *e)
{
	struct ssp_in *in;
	struct stat st;
	char *p = NULL;
	int rc;

	*rp = NULL;
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (asprintf(&p, "%s/output/out.json", path) < 0)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		if (access(p, F_OK) != 0) {
			free(p);
			if (asprintf(&p, "%s/out.json", path) < 0)
				return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
			if (access(p, F_OK) != 0) {
				free(p);
				return ssp_err_set(e, SSP_ERR_IO, 0, "%s: a directory "
				    "without output/out.json (a symphony run is "
				    "<workdir>/<simulation>/<instantiation id>/)", path);
			}
		}
		path = p;
	}
	rc = ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, e);
	if (rc == SSP_OK) {
		rc = ssp_simbricks_read(rp, in, e);
		ssp_in_close(in);
	}
	free(p);
	return rc;
}

void
ssp_simbricks_free(struct ssp_simbricks *r)
{
	size_t i;

	if (r == NULL)
		return;
	if (r->sims != NULL)
		for (i = 0; i < r->nsims; i++) {
			if (r->x[i].split != NULL)
				free(r->x[i].split);
			else
				free(r->sims[i].argv);
		}
	free(r->sims);
	free(r->x);
	json_decref(r->root);
	free(r->name);
	free(r);
}

enum ssp_simbricks_fmt
ssp_simbricks_format(const struct ssp_simbricks *r)
{
	return r->fmt;
}

const char *
ssp_simbricks_exp_name(const struct ssp_simbricks *r)
{
	return r->exp;
}

const char *
ssp_simbricks_path(const struct ssp_simbricks *r)
{
	return r->name;
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

/* --- one simulator's output as an input (sim2ev --simbricks-json) ------- */

struct ssp_simbricks_input {
	struct ssp_simbricks *run;
	struct ssp_simbricks_text *text;
	size_t sim;
	char *name;			/* "run.json:nic.client.0.:stdout" */
	char stem[SSP_TOPO_NAMEMAX + 1];
};

static size_t
stemlen(const char *s)
{
	size_t n = strlen(s);

	while (n > 1 && s[n - 1] == '.')
		n--;
	return n;
}

/* "no simulator named X", with the name meant or the names there are. */
static int
no_such_sim(const struct ssp_simbricks *r, const char *path, const char *sim,
    struct ssp_err *e)
{
	char list[160];
	size_t i, n = 0, k = stemlen(sim);

	for (i = 0; i < r->nsims; i++)
		if (stemlen(r->sims[i].name) == k &&
		    strncmp(r->sims[i].name, sim, k) == 0)
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: no simulator "
			    "named '%s'; it is '%s' (2022 runs end the names of "
			    "NICs and networks with a dot)", path, sim,
			    r->sims[i].name);
	list[0] = '\0';
	for (i = 0; i < r->nsims && n + 8 < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s'%s'",
		    i ? ", " : "", r->sims[i].name);
	if (n >= sizeof(list) - 8)
		snprintf(list + sizeof(list) - 8, 8, ", ...");
	return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: no simulator named '%s' "
	    "(it has %s)", path, sim, list);
}

int
ssp_simbricks_input_open(struct ssp_simbricks_input **sp, struct ssp_in **inp,
    const char *path, const char *sim, enum ssp_simbricks_out which,
    struct ssp_err *e)
{
	const char *wn = which == SSP_SIMBRICKS_STDERR ? "stderr" : "stdout";
	struct ssp_simbricks_input *s;
	size_t n;
	int i, r;

	*sp = NULL;
	*inp = NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((r = ssp_simbricks_load(&s->run, path, e)) != SSP_OK)
		goto fail;
	if ((i = ssp_simbricks_find(s->run, sim)) < 0) {
		r = no_such_sim(s->run, path, sim, e);
		goto fail;
	}
	s->sim = (size_t)i;
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
	snprintf(s->stem, sizeof(s->stem), "%.*s", (int)stemlen(sim), sim);
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

const struct ssp_simbricks *
ssp_simbricks_input_run(const struct ssp_simbricks_input *s)
{
	return s->run;
}

size_t
ssp_simbricks_input_sim(const struct ssp_simbricks_input *s)
{
	return s->sim;
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
