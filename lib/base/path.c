#include <stdlib.h>
#include <string.h>

#include "base/path.h"

int
ssp_path_is_zst(const char *path)
{
	size_t n;

	if (path == NULL)
		return 0;
	n = strlen(path);
	return n > 4 && strcmp(path + n - 4, ".zst") == 0;
}

char *
ssp_path_stem(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s, *dot;

	if ((s = strdup(b != NULL ? b + 1 : path)) == NULL)
		return NULL;
	if (ssp_path_is_zst(s))
		s[strlen(s) - 4] = '\0';
	if ((dot = strrchr(s, '.')) != NULL && dot != s)
		*dot = '\0';
	return s;
}
