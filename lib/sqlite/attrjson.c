#include "base/buf.h"
#include "base/strfmt.h"
#include "sqlite/attrjson.h"

void
ssp_attrjson_i64(struct ssp_attrjson *w, int64_t v)
{
	char tmp[24], *q = tmp + sizeof(tmp);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do
		*--q = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--q = '-';
	ssp_attrjson_put(w, q, (size_t)(tmp + sizeof(tmp) - q));
}

void
ssp_attrjson_hex128(char out[33], uint64_t hi, uint64_t lo)
{
	static const char hexd[] = "0123456789abcdef";
	int i;

	for (i = 15; i >= 0; i--) {	/* as "%016" PRIx64 "%016" PRIx64 */
		out[i] = hexd[hi & 15];
		out[16 + i] = hexd[lo & 15];
		hi >>= 4;
		lo >>= 4;
	}
	out[32] = '\0';
}

#define PIECE	256

/*
 * In pieces through a stack buffer, each cut before a byte that starts a
 * character, so the pieces escape as the whole string would.
 */
void
ssp_attrjson_str(struct ssp_attrjson *w, const char *s, size_t k)
{
	uint8_t tmp[6 * (PIECE + 3) + 2];	/* \u00xx per byte, quotes */
	size_t i = 0, m;

	ssp_attrjson_ch(w, '"');
	while (i < k) {
		struct ssp_buf b = { tmp, 0, sizeof(tmp), 0 };

		m = k - i < PIECE ? k - i : PIECE;
		while (i + m < k && m < PIECE + 3 &&
		    ((unsigned char)s[i + m] & 0xc0) == 0x80)
			m++;
		ssp_strfmt_json_str_flags(&b, s + i, m, SSP_STRFMT_CTL_U);
		ssp_attrjson_put(w, (const char *)tmp + 1, b.len - 2);
		i += m;
	}
	ssp_attrjson_ch(w, '"');
}

void
ssp_attrjson_ip(struct ssp_attrjson *w, uint64_t v)
{
	char tmp[16], *q = tmp;
	int i;

	for (i = 24; i >= 0; i -= 8) {
		unsigned b = (unsigned)(v >> i) & 0xff;

		if (b >= 100)
			*q++ = (char)('0' + b / 100);
		if (b >= 10)
			*q++ = (char)('0' + b / 10 % 10);
		*q++ = (char)('0' + b % 10);
		if (i > 0)
			*q++ = '.';
	}
	ssp_attrjson_put(w, tmp, (size_t)(q - tmp));
}

void
ssp_attrjson_mac(struct ssp_attrjson *w, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[17];
	int i, k = 0;

	for (i = 40; i >= 0; i -= 8) {
		tmp[k++] = hex[(v >> (i + 4)) & 15];
		tmp[k++] = hex[(v >> i) & 15];
		if (i > 0)
			tmp[k++] = ':';
	}
	ssp_attrjson_put(w, tmp, sizeof(tmp));
}

size_t
ssp_attrjson_fields(char *buf, size_t n, const struct ssp_rec_type *t,
    uint32_t mask, const struct ssp_rec *r, const struct ssp_rec_rd *rr)
{
	struct ssp_attrjson w = { buf, n, 0 };
	const char *s = NULL;
	size_t len = 0;
	unsigned k;
	int any = 0;

	SSP_ASSERT(t != NULL && r != NULL && (buf != NULL || n == 0));
	ssp_attrjson_ch(&w, '{');
	for (k = 0; k < t->nf && k < r->nf; k++) {
		uint64_t v = r->f[k];
		char enc = t->f[k].enc;

		if (!(mask & (1u << k)) || ssp_attrjson_absent(enc, v))
			continue;
		if (enc == SSP_ENC_S && (rr == NULL ||
		    (s = ssp_rec_rd_str(rr, v, &len)) == NULL))
			continue;
		if (any)
			ssp_attrjson_ch(&w, ',');
		any = 1;
		ssp_attrjson_str(&w, t->f[k].name, strlen(t->f[k].name));
		ssp_attrjson_ch(&w, ':');
		switch (enc) {
		case SSP_ENC_B:
			if (v)
				ssp_attrjson_put(&w, "true", 4);
			else
				ssp_attrjson_put(&w, "false", 5);
			break;
		case SSP_ENC_S:
			ssp_attrjson_str(&w, s, len);
			break;
		case SSP_ENC_M:
		case SSP_ENC_A:
			ssp_attrjson_ch(&w, '"');
			if (enc == SSP_ENC_M)
				ssp_attrjson_mac(&w, v);
			else
				ssp_attrjson_ip(&w, v);
			ssp_attrjson_ch(&w, '"');
			break;
		default:	/* u x i t: 64-bit two's complement, as SQLite */
			ssp_attrjson_i64(&w, (int64_t)v);
		}
	}
	ssp_attrjson_ch(&w, '}');
	if (n > 0)
		buf[w.len < n ? w.len : n - 1] = '\0';
	return w.len;
}

size_t
ssp_attrjson_object(char *buf, size_t n, const struct ssp_rec_type *t,
    unsigned first, const struct ssp_rec *r, const struct ssp_rec_rd *rr)
{
	return ssp_attrjson_fields(buf, n, t, ssp_attrjson_from(first, t->nf), r,
	    rr);
}
