#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "config/shword.h"

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * One pass: count the words and their bytes (out == NULL), or write them
 * (out: the word bytes, words: where each starts).  Returns the number
 * of words, or -1 with *why set.
 */
static long
scan(const char *s, char *out, char **words, size_t *nbytes, const char **why)
{
	size_t n = 0;
	long nw = 0;
	int in = 0;	/* inside a word */

	for (;;) {
		char c = *s;

		if (c == '\0' || blank((unsigned char)c)) {
			if (in) {
				if (out != NULL)
					out[n] = '\0';
				n++;
				in = 0;
			}
			if (c == '\0')
				break;
			s++;
			continue;
		}
		if (!in) {
			if (words != NULL)
				words[nw] = out + n;
			nw++;
			in = 1;
		}
		if (c == '\'') {
			const char *q = strchr(s + 1, '\'');

			if (q == NULL) {
				*why = "no closing quotation";
				return -1;
			}
			if (out != NULL)
				memcpy(out + n, s + 1, (size_t)(q - s - 1));
			n += (size_t)(q - s - 1);
			s = q + 1;
		} else if (c == '"') {
			for (s++; *s != '"'; s++) {
				if (*s == '\0') {
					*why = "no closing quotation";
					return -1;
				}
				if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
					s++;
				if (out != NULL)
					out[n] = *s;
				n++;
			}
			s++;
		} else if (c == '\\') {
			if (s[1] == '\0') {
				*why = "no escaped character";
				return -1;
			}
			if (out != NULL)
				out[n] = s[1];
			n++;
			s += 2;
		} else {
			if (out != NULL)
				out[n] = c;
			n++;
			s++;
		}
	}
	*nbytes = n;
	return nw;
}

int
ssp_shword_split(const char *s, char ***argvp, size_t *argcp, struct ssp_err *e)
{
	const char *why = NULL;
	size_t nbytes = 0, head;
	char **words, *text;
	long nw;

	*argvp = NULL;
	*argcp = 0;
	if ((nw = scan(s, NULL, NULL, &nbytes, &why)) < 0)
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s", why);
	head = ((size_t)nw + 1) * sizeof(char *);
	if ((words = malloc(head + nbytes + 1)) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	text = (char *)words + head;
	scan(s, text, words, &nbytes, &why);
	words[nw] = NULL;
	*argvp = words;
	*argcp = (size_t)nw;
	return SSP_OK;
}

void
ssp_shword_quote(struct ssp_buf *b, const char *s)
{
	const char *c;

	if (*s != '\0' && s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	    "qrstuvwxyz0123456789._-/:,+=@%")] == '\0') {
		ssp_buf_put(b, s, strlen(s));
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

void
ssp_shword_var(char *out, size_t n, const char *text, const char *suffix)
{
	size_t k = 0;
	const char *p;

	if (n == 0)
		return;
	if (!isalpha((unsigned char)text[0]) && text[0] != '_' && k + 1 < n)
		out[k++] = '_';
	for (p = text; *p != '\0' && k + 1 < n; p++)
		out[k++] = isalnum((unsigned char)*p) ?
		    (char)toupper((unsigned char)*p) : '_';
	if (suffix != NULL && *suffix != '\0') {
		if (k + 1 < n)
			out[k++] = '_';
		for (p = suffix; *p != '\0' && k + 1 < n; p++)
			out[k++] = isalnum((unsigned char)*p) ?
			    (char)toupper((unsigned char)*p) : '_';
	}
	out[k] = '\0';
}
