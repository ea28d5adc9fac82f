#include <stdlib.h>
#include <string.h>

#include "config/sbns3.h"

#define MAXPAIRS 64

enum cat { C_OTHER, C_NODE, C_CHANNEL, C_HOST, C_NETWORK, C_LOGGING };

struct word {
	enum cat cat;
	char *val;		/* in the text copy */
	size_t npairs;
	char *key[MAXPAIRS], *v[MAXPAIRS];
	const char *orig;	/* for messages */
};

static const char *
find(const struct word *w, const char *key)
{
	size_t i;

	for (i = 0; i < w->npairs; i++)
		if (strcmp(w->key[i], key) == 0)
			return w->v[i];
	return NULL;
}

/* "K:V;K:V" in place; empty items are skipped (a trailing ';'). */
static int
pairs(struct word *w, const char *name, struct ssp_err *e)
{
	char *p = w->val, *semi, *colon;

	w->npairs = 0;
	while (*p != '\0') {
		if ((semi = strchr(p, ';')) != NULL)
			*semi = '\0';
		if (*p != '\0') {
			if ((colon = strchr(p, ':')) == NULL)
				return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: '%.80s': "
				    "'%.40s' is not Key:Value", name, w->orig, p);
			if (w->npairs == MAXPAIRS)
				return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: '%.80s': "
				    "more than %d keys", name, w->orig, MAXPAIRS);
			*colon = '\0';
			w->key[w->npairs] = p;
			w->v[w->npairs++] = colon + 1;
		}
		if (semi == NULL)
			break;
		p = semi + 1;
	}
	return SSP_OK;
}

static long
node_of(char **ids, size_t n, const char *id, size_t idlen)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(ids[i]) == idlen && memcmp(ids[i], id, idlen) == 0)
			return (long)i;
	return -1;
}

void
ssp_sbns3_free(struct ssp_sbns3 *n)
{
	if (n == NULL)
		return;
	free(n->ports);
	free(n->text);
	free(n);
}

int
ssp_sbns3_parse(struct ssp_sbns3 **np, const char *const *words, size_t n,
    const char *name, struct ssp_err *e)
{
	static const struct { const char *opt; enum cat cat; } cats[] = {
		{ "--TopologyNode=", C_NODE }, { "--TopologyChannel=", C_CHANNEL },
		{ "--Host=", C_HOST }, { "--Network=", C_NETWORK },
		{ "--Logging=", C_LOGGING },
	};
	struct ssp_sbns3 *r;
	struct word *w = NULL;
	char **ids = NULL, *t;
	uint32_t *ndev = NULL;
	size_t i, k, len = 0, nn = 0, np_ = 0;
	int rc = SSP_OK, pass;
	long a, b;

	*np = NULL;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	if ((r->text = malloc(len + 1)) == NULL || (w = calloc(n + 1, sizeof(*w))) == NULL ||
	    (ids = calloc(n + 1, sizeof(*ids))) == NULL ||
	    (ndev = calloc(n + 1, sizeof(*ndev))) == NULL ||
	    (r->ports = calloc(n + 1, sizeof(*r->ports))) == NULL) {
		rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	t = r->text;
	for (i = 0; i < n; i++) {
		size_t wl = strlen(words[i]);

		memcpy(t, words[i], wl + 1);
		w[i].orig = words[i];
		w[i].cat = C_OTHER;
		for (k = 0; k < sizeof(cats) / sizeof(cats[0]); k++)
			if (strncmp(t, cats[k].opt, strlen(cats[k].opt)) == 0) {
				w[i].cat = cats[k].cat;
				w[i].val = t + strlen(cats[k].opt);
			}
		t += wl + 1;
		if (w[i].cat == C_LOGGING) {
			if (w[i].val[0] != '\0')
				r->logging = w[i].val;
			w[i].cat = C_OTHER;
		}
		if (w[i].cat != C_OTHER && (rc = pairs(&w[i], name, e)) != SSP_OK)
			goto out;
	}
	/* the order simbricks-ns3-net creates them in */
	for (pass = C_NODE; pass <= C_NETWORK; pass++) {
		for (i = 0; i < n; i++) {
			const char *id, *type, *sl;

			if (w[i].cat != (enum cat)pass)
				continue;
			id = find(&w[i], "Id");
			type = find(&w[i], "Type");
			if (id == NULL || *id == '\0' || type == NULL) {
				rc = ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: '%.80s' has "
				    "no %s", name, w[i].orig, id == NULL || *id == '\0' ?
				    "Id" : "Type");
				goto out;
			}
			if (pass == C_NODE) {
				if (strcmp(type, "Switch") != 0) {
					rc = ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: '%.80s': "
					    "topology node type '%s' (simbricks-ns3-net "
					    "knows Switch)", name, w[i].orig, type);
					goto out;
				}
				if (node_of(ids, nn, id, strlen(id)) >= 0) {
					rc = ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: two "
					    "topology nodes with Id %s", name, id);
					goto out;
				}
				ids[nn] = (char *)id;
				ndev[nn++] = 1;	/* device 0: the bridge */
				continue;
			}
			if (pass == C_CHANNEL) {
				const char *l = find(&w[i], "LeftNode"), *rr = find(&w[i], "RightNode");

				a = l != NULL ? node_of(ids, nn, l, strlen(l)) : -1;
				b = rr != NULL ? node_of(ids, nn, rr, strlen(rr)) : -1;
				if (a < 0 || b < 0) {
					rc = ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: '%.80s': "
					    "its %s is not a --TopologyNode", name, w[i].orig,
					    a < 0 ? "LeftNode" : "RightNode");
					goto out;
				}
				ndev[a]++;
				ndev[b]++;
				r->nsimple += 2;
				continue;
			}
			if (strcmp(type, "Trunk") == 0 || strcmp(type, "TrunkDevice") == 0) {
				rc = ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: '%.80s': an ns-3 "
				    "trunk joins two ns-3 processes: not supported yet",
				    name, w[i].orig);
				goto out;
			}
			if ((sl = strchr(id, '/')) == NULL ||
			    (a = node_of(ids, nn, id, (size_t)(sl - id))) < 0) {
				rc = ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: '%.80s': Id %s "
				    "does not start with a --TopologyNode's Id and '/'",
				    name, w[i].orig, id);
				goto out;
			}
			if (pass == C_NETWORK) {
				const char *sock = find(&w[i], "UnixSocket"), *sy;

				if (strcmp(type, "Simbricks") != 0) {
					rc = ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: '%.80s': "
					    "network type '%s' (simbricks-ns3-net knows "
					    "Simbricks)", name, w[i].orig, type);
					goto out;
				}
				if (sock == NULL || *sock == '\0') {
					rc = ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: '%.80s' "
					    "has no UnixSocket", name, w[i].orig);
					goto out;
				}
				sy = find(&w[i], "Sync");
				r->ports[np_++] = (struct ssp_sbns3_port){ sock, id,
				    (uint32_t)a, ndev[a], sy == NULL ? -1 :
				    strcmp(sy, "0") != 0 };
			}
			if (pass == C_HOST)
				r->nsimple++;
			ndev[a]++;	/* a host's or a network's device */
		}
	}
	r->nports = np_;
	r->nnodes = nn;
	/* the ports point into the copy, not into words */
out:
	free(w);
	free(ids);
	free(ndev);
	if (rc != SSP_OK) {
		ssp_sbns3_free(r);
		return rc;
	}
	*np = r;
	return SSP_OK;
}
