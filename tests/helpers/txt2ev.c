/*
 * txt2ev: write an event stream from text in evcat's text form, one event
 * per line:  <ts> <type> name=value ...   ('#' starts a comment line).
 * Values follow the field encodings: 0x-hex or decimal numbers, strings
 * without spaces, true/false or 0/1, aa:bb:cc:dd:ee:ff, a.b.c.d.  Fields
 * not given are 0 (give -1 explicitly where -1 means absent).  Used to
 * hand-write multi-simulator test scenarios with known causality.
 *
 * -k none writes a header without the simulator and kind keys, -m
 * KEY=VALUE adds a metadata entry: headers readers must reject.
 *
 * usage: txt2ev -s STREAM -k host|nic|net|none [-z] [-m KEY=VALUE]
 *               [-o OUT] [IN]
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "io/in.h"
#include "io/out.h"
#include "stream/event.h"

static int
parse_value(const char *v, char enc, struct ssp_rec_wr *w, uint64_t *out,
    struct ssp_err *e)
{
	const char *errstr;
	unsigned a[6];
	int64_t x;
	uint64_t u;

	switch (enc) {
	case SSP_ENC_S:
		if ((*out = ssp_rec_wr_str(w, v, strlen(v), e)) == 0)
			return -1;
		return 0;
	case SSP_ENC_B:
		*out = strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
		return strcmp(v, "true") == 0 || strcmp(v, "false") == 0 ||
		    strcmp(v, "1") == 0 || strcmp(v, "0") == 0 ? 0 : -1;
	case SSP_ENC_M:
		if (sscanf(v, "%x:%x:%x:%x:%x:%x", &a[0], &a[1], &a[2], &a[3],
		    &a[4], &a[5]) != 6)
			return -1;
		*out = (uint64_t)a[0] << 40 | (uint64_t)a[1] << 32 |
		    (uint64_t)a[2] << 24 | (uint64_t)a[3] << 16 |
		    (uint64_t)a[4] << 8 | a[5];
		return 0;
	case SSP_ENC_A:
		if (sscanf(v, "%u.%u.%u.%u", &a[0], &a[1], &a[2], &a[3]) != 4)
			return -1;
		*out = (uint64_t)a[0] << 24 | (uint64_t)a[1] << 16 |
		    (uint64_t)a[2] << 8 | a[3];
		return 0;
	case SSP_ENC_I:
	case SSP_ENC_T:
		if (ssp_num_strtonum(v, INT64_MIN, INT64_MAX, &x, &errstr) != 0)
			return -1;
		*out = (uint64_t)x;
		return 0;
	default:
		if (ssp_num_strtou64(v, &u, &errstr) != 0)
			return -1;
		*out = u;
		return 0;
	}
}

int
main(int argc, char **argv)
{
	const char *stream = NULL, *kind = NULL, *outp = NULL, *errstr;
	struct ssp_in *in;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_err e;
	struct ssp_rec r;
	enum ssp_sim sim;
	char line[4096], *tok, *save, *mq;
	FILE *f = stdin;
	unsigned long lineno = 0;
	struct ssp_meta meta[16];
	size_t nmeta = 0;
	int ch, z = 0, rc;

	(void)in;
	while ((ch = getopt(argc, argv, "k:m:o:s:z")) != -1) {
		switch (ch) {
		case 'k': kind = optarg; break;
		case 'm':
			if ((mq = strchr(optarg, '=')) == NULL || nmeta + 3 >=
			    sizeof(meta) / sizeof(meta[0]))
				errx(2, "-m %s: expected KEY=VALUE", optarg);
			*mq = '\0';
			meta[nmeta++] = (struct ssp_meta){ optarg, mq + 1 };
			break;
		case 'o': outp = optarg; break;
		case 's': stream = optarg; break;
		case 'z': z = 1; break;
		default:
			errx(2, "usage: txt2ev -s STREAM -k KIND [-z] [-m KEY=VALUE] "
			    "[-o OUT] [IN]");
		}
	}
	if (stream == NULL || kind == NULL || ((sim = ssp_event_sim_parse_kind(kind)) ==
	    SSP_SIM_NONE && strcmp(kind, "none") != 0))
		errx(2, "usage: txt2ev -s STREAM -k host|nic|net|none [-z] "
		    "[-m KEY=VALUE] [-o OUT] [IN]");
	if (optind < argc && (f = fopen(argv[optind], "r")) == NULL)
		err(1, "%s", argv[optind]);
	if (ssp_out_open(&o, outp, z ? SSP_OUT_ZDEFAULT : SSP_OUT_ZAUTO, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	if (sim != SSP_SIM_NONE) {
		rc = ssp_event_writer_open(&w, o, stream, sim, "txt2ev", meta,
		    nmeta, &e);
	} else {		/* no simulator, no kind: only what -m gives */
		meta[nmeta++] = (struct ssp_meta){ "stream", stream };
		meta[nmeta++] = (struct ssp_meta){ "time-unit", "ps" };
		meta[nmeta++] = (struct ssp_meta){ "producer", "txt2ev" };
		rc = ssp_rec_wr_open(&w, o, ssp_frame_magic_events, &ssp_event_schema, meta,
		    nmeta, &e);
	}
	if (rc != SSP_OK)
		errx(1, "%s", e.msg);
	while (fgets(line, sizeof(line), f) != NULL) {
		const struct ssp_rec_type *t;
		int64_t ts;
		int ti;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if ((tok = strtok_r(line, " \t", &save)) == NULL || tok[0] == '#')
			continue;
		if (ssp_num_strtonum(tok, INT64_MIN, INT64_MAX, &ts, &errstr) != 0)
			errx(1, "line %lu: bad timestamp '%s'", lineno, tok);
		if ((tok = strtok_r(NULL, " \t", &save)) == NULL ||
		    (ti = ssp_rec_schema_find(&ssp_event_schema, tok)) < 0)
			errx(1, "line %lu: unknown event type '%s'", lineno,
			    tok ? tok : "");
		t = &ssp_event_schema.types[ti];
		memset(&r, 0, sizeof(r));
		r.ts = ts;
		r.type = (uint32_t)ti;
		while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
			char *eq = strchr(tok, '=');
			int k;

			if (eq == NULL)
				errx(1, "line %lu: expected name=value: '%s'", lineno, tok);
			*eq = '\0';
			if ((k = ssp_rec_type_field(t, tok)) < 0)
				errx(1, "line %lu: %s has no field '%s'", lineno,
				    t->name, tok);
			if (parse_value(eq + 1, t->f[k].enc, w, &r.f[k], &e) != 0)
				errx(1, "line %lu: bad value '%s' for %s", lineno,
				    eq + 1, tok);
		}
		if (ssp_rec_wr_put(w, &r, &e) != SSP_OK)
			errx(1, "%s", e.msg);
	}
	if (ssp_rec_wr_close(w, &e) != SSP_OK || ssp_out_close(o, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	return 0;
}
