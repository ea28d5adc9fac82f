#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/sbclass.h"
#include "config/sbsim.h"

struct ssp_sbsim {
	json_t *sim, *sys;
	char *simpath, *syspath;
};

/* The JSON object in path, in *jp. */
static int
load(const char *path, json_t **jp, struct ssp_err *e)
{
	json_error_t je;
	json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);

	*jp = NULL;
	if (j == NULL)
		return ssp_err_set(e, je.line < 0 ? SSP_ERR_IO : SSP_ERR_FORMAT,
		    0, "%s:%d:%d: %s", path, je.line, je.column, je.text);
	if (!json_is_object(j)) {
		json_decref(j);
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: the top level is "
		    "not a JSON object", path);
	}
	*jp = j;
	return SSP_OK;
}

void
ssp_sbsim_free(struct ssp_sbsim *s)
{
	if (s == NULL)
		return;
	json_decref(s->sim);
	json_decref(s->sys);
	free(s->simpath);
	free(s->syspath);
	free(s);
}

/* Every element of key is an object with the string/integer members
 * named; else SSP_ERR_FORMAT naming the first one that is not. */
static int
shape(json_t *top, const char *path, const char *key, const char *str1,
    const char *int1, const char *int2, struct ssp_err *e)
{
	json_t *a = json_object_get(top, key), *o;
	size_t i;

	if (!json_is_array(a))
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: no \"%s\" list", path,
		    key);
	json_array_foreach(a, i, o) {
		const char *bad = !json_is_object(o) ? "an object" :
		    str1 != NULL && !json_is_string(json_object_get(o, str1)) ? str1 :
		    int1 != NULL && !json_is_integer(json_object_get(o, int1)) ? int1 :
		    int2 != NULL && !json_is_integer(json_object_get(o, int2)) ? int2 :
		    NULL;

		if (bad != NULL)
			return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: %s[%zu] has no "
			    "\"%s\"", path, key, i, bad);
	}
	return SSP_OK;
}

int
ssp_sbsim_load(struct ssp_sbsim **sp, const char *simulation,
    const char *system, struct ssp_err *e)
{
	struct ssp_sbsim *s;
	int rc = SSP_OK;

	*sp = NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (s->simpath = strdup(simulation)) == NULL ||
	    (system != NULL && (s->syspath = strdup(system)) == NULL)) {
		ssp_sbsim_free(s);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	rc = load(simulation, &s->sim, e);
	if (rc == SSP_OK)
		rc = shape(s->sim, simulation, "sim_list", "name", "id", NULL, e);
	if (rc == SSP_OK && system != NULL)
		rc = load(system, &s->sys, e);
	if (rc == SSP_OK && system != NULL)
		rc = shape(s->sys, system, "channels", "type", "interface_a",
		    "interface_b", e);
	if (rc == SSP_OK && system != NULL)
		rc = shape(s->sys, system, "interfaces", NULL, "id", "component", e);
	if (rc != SSP_OK) {
		ssp_sbsim_free(s);
		return rc;
	}
	*sp = s;
	return SSP_OK;
}

/* The display name of sim_list entry o: its class's prefix and name
 * (symphony's full_name()); NULL for a class the table lacks. */
static int
full_name(json_t *o, char *out, size_t n)
{
	const char *t = json_string_value(json_object_get(o, "type"));
	const struct ssp_sbclass *c = t != NULL ? ssp_sbclass_find(t) : NULL;
	const char *pre;

	if (c == NULL)
		return -1;
	pre = c->role == SSP_SBCLASS_HOST ? "host." : c->role == SSP_SBCLASS_NIC ?
	    "nic." : c->role == SSP_SBCLASS_NET ? "net." : "";
	snprintf(out, n, "%s%s", pre, json_string_value(json_object_get(o, "name")));
	return 0;
}

static int
add(char ***warn, size_t *nwarn, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
add(char ***warn, size_t *nwarn, const char *fmt, ...)
{
	char **w, *m;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&m, fmt, ap);
	va_end(ap);
	if (n < 0 || (w = realloc(*warn, (*nwarn + 1) * sizeof(*w))) == NULL) {
		if (n >= 0)
			free(m);
		return -1;
	}
	w[(*nwarn)++] = m;
	*warn = w;
	return 0;
}

static json_t *
by_id(json_t *a, json_int_t id)
{
	json_t *o;
	size_t i;

	json_array_foreach(a, i, o)
		if (json_integer_value(json_object_get(o, "id")) == id)
			return o;
	return NULL;
}

/* The sim_list entry that simulates component id, or NULL. */
static json_t *
sim_of(json_t *list, json_int_t id)
{
	json_t *s, *c;
	size_t i, k;

	json_array_foreach(list, i, s)
		json_array_foreach(json_object_get(s, "components"), k, c)
			if (json_integer_value(c) == id)
				return s;
	return NULL;
}

static int
linked(const struct ssp_sbplan *p, const struct ssp_simbricks *r, const char *a,
    const char *b)
{
	size_t i;

	for (i = 0; i < p->nlinks; i++) {
		const char *x = ssp_simbricks_sim(r, p->links[i].a)->name;
		const char *y = ssp_simbricks_sim(r, p->links[i].b)->name;

		if ((strcmp(x, a) == 0 && strcmp(y, b) == 0) ||
		    (strcmp(x, b) == 0 && strcmp(y, a) == 0))
			return 1;
	}
	return 0;
}

static int
check(const struct ssp_sbsim *s, const struct ssp_simbricks *r,
    const struct ssp_sbplan *p, char ***warn, size_t *nwarn,
    struct ssp_err *e)
{
	json_t *list = json_object_get(s->sim, "sim_list"), *o, *q, *ch;
	char a[300], b[300];
	size_t i, k, n = ssp_simbricks_nsims(r);
	int found;

	o = json_object_get(s->sim, "name");
	if (json_is_string(o) && strcmp(json_string_value(o),
	    ssp_simbricks_exp_name(r)) != 0)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: another run's: its "
		    "simulation is '%s', out.json's '%s'", s->simpath,
		    json_string_value(o), ssp_simbricks_exp_name(r));
	json_array_foreach(list, i, o) {
		if (full_name(o, a, sizeof(a)) != 0)
			continue;
		for (k = 0; k < i; k++) {
			q = json_array_get(list, k);
			if (full_name(q, b, sizeof(b)) == 0 && strcmp(a, b) == 0)
				return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: sim_list[%zu] "
				    "(%s, id %lld) and sim_list[%zu] (%s, id %lld) are "
				    "both '%s': out.json keeps one entry per name, so the "
				    "output of one of them is lost; give them different "
				    "names in the experiment script", s->simpath, k,
				    json_string_value(json_object_get(q, "type")),
				    (long long)json_integer_value(json_object_get(q, "id")), i,
				    json_string_value(json_object_get(o, "type")),
				    (long long)json_integer_value(json_object_get(o, "id")), a);
		}
		if (ssp_simbricks_find(r, a) < 0 && add(warn, nwarn, "%s (%s) is in "
		    "%s but not in %s: it never started, or the files are of "
		    "different runs", a, json_string_value(json_object_get(o,
		    "type")), s->simpath, ssp_simbricks_path(r)) != 0)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	for (k = 0; k < n; k++) {
		const struct ssp_simbricks_sim *sm = ssp_simbricks_sim(r, k);

		if (strcmp(sm->cls, "TCPProxy") == 0)
			continue;
		for (found = 0, i = 0; i < json_array_size(list) && !found; i++)
			found = full_name(json_array_get(list, i), a, sizeof(a)) == 0 &&
			    strcmp(a, sm->name) == 0;
		if (!found && add(warn, nwarn, "%s (%s) of %s is not in %s: the "
		    "files are of different runs?", sm->name, sm->cls,
		    ssp_simbricks_path(r), s->simpath) != 0)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	if (s->sys == NULL)
		return SSP_OK;
	json_array_foreach(json_object_get(s->sys, "channels"), i, ch) {
		json_t *ifs = json_object_get(s->sys, "interfaces");
		json_t *ia = by_id(ifs, json_integer_value(json_object_get(ch,
		    "interface_a")));
		json_t *ib = by_id(ifs, json_integer_value(json_object_get(ch,
		    "interface_b")));
		json_t *sa, *sb;

		if (ia == NULL || ib == NULL)
			return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: channels[%zu] "
			    "names an interface that \"interfaces\" lacks", s->syspath, i);
		sa = sim_of(list, json_integer_value(json_object_get(ia, "component")));
		sb = sim_of(list, json_integer_value(json_object_get(ib, "component")));
		if (sa == NULL || sb == NULL || sa == sb ||
		    full_name(sa, a, sizeof(a)) != 0 || full_name(sb, b, sizeof(b)) != 0)
			continue;	/* inside one simulator, or a class not known */
		if (ssp_simbricks_find(r, a) < 0 || ssp_simbricks_find(r, b) < 0)
			continue;	/* said above */
		if (!linked(p, r, a, b))
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: channels[%zu] (%s, "
			    "id %lld) joins %s and %s, but their command lines in %s "
			    "do not: the files are of different runs?", s->syspath, i,
			    json_string_value(json_object_get(ch, "type")),
			    (long long)json_integer_value(json_object_get(ch, "id")), a,
			    b, ssp_simbricks_path(r));
	}
	return SSP_OK;
}

int
ssp_sbsim_check(const struct ssp_sbsim *s, const struct ssp_simbricks *r,
    const struct ssp_sbplan *p, char ***warn, size_t *nwarn,
    struct ssp_err *e)
{
	size_t n0 = *nwarn;
	int rc = check(s, r, p, warn, nwarn, e);

	if (rc != SSP_OK) {	/* an error: no findings added */
		while (*nwarn > n0)
			free((*warn)[--*nwarn]);
		if (n0 == 0) {
			free(*warn);
			*warn = NULL;
		}
	}
	return rc;
}
