/*
 * Shell words, both ways.  Splitting: a command line as symphony records
 * it (one string, which its runtime splits with Python's shlex.split in
 * POSIX mode: blanks separate words, '...' is literal, "..." keeps
 * blanks and lets a backslash escape only " and \, an unquoted backslash
 * escapes the next character; no comments, no expansion).  Writing: a
 * word quoted for sh, and a valid sh variable name made from any text
 * (simspan-simbricks' commands.sh).
 */
#ifndef SSP_SHWORD_H
#define SSP_SHWORD_H

#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"

/*
 * Split s into *argcp words, *argvp a NULL-terminated array in one
 * malloc'd block (free(*argvp) frees all).  An unclosed quote or a
 * trailing backslash is SSP_ERR_FORMAT ("no closing quotation",
 * "no escaped character", as shlex says); out of memory SSP_ERR_NOMEM.
 */
int ssp_shword_split(const char *s, char ***argvp, size_t *argcp,
    struct ssp_err *e);
/* Append s as one sh word: bare when it is made of safe characters,
 * else in single quotes ('\'' for a quote). */
void ssp_shword_quote(struct ssp_buf *b, const char *s);
/*
 * A valid sh variable name ([A-Za-z_][A-Za-z0-9_]*) from text and a
 * suffix: letters upper-cased, every other byte '_', a leading digit
 * (or nothing) prefixed with '_'; "0net" + "TRACE" -> "_0NET_TRACE".
 * Cut to fit n bytes with its NUL.
 */
void ssp_shword_var(char *out, size_t n, const char *text, const char *suffix);

#endif
