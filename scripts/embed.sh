#!/bin/sh
# The C file that defines the data a header declares with SSP_EMBED
# (lib/base/embed.h): for each line
#	SSP_EMBED(NAME, "PATH");
# of HEADER, "const char NAME[] = ...;" with the bytes of PATH (relative to
# the current directory, the top of the tree) as a string literal, exactly:
# printable ASCII as it is, tab and newline as \t and \n, everything else
# (and \ " ?) as a three-digit octal escape, a new literal after each
# newline and after 32 bytes without one; and "const size_t NAME_len", the
# number of bytes (the array has a NUL after them).  DEPFILE gets the make rule
# "OUT: PATH...", so that a changed file remakes OUT.  A PATH that begins
# with "$(BUILD)/" names a file the build makes (the Makefile has its rule):
# it is taken from the build directory BUILD (default "build").
# usage: [BUILD=DIR] sh scripts/embed.sh HEADER OUT.c DEPFILE
set -eu
[ $# -eq 3 ] || { echo "usage: embed.sh HEADER OUT.c DEPFILE" >&2; exit 2; }
hdr=$1 out=$2 dep=$3
list=$(sed -n 's/^SSP_EMBED(\([A-Za-z_][A-Za-z0-9_]*\), *"\([^"]*\)");.*/\1 \2/p' "$hdr" |
    sed "s|^\([^ ]*\) \\\$(BUILD)/|\1 ${BUILD:-build}/|")
[ -n "$list" ] || { echo "embed.sh: $hdr: no SSP_EMBED(name, \"path\"); line" >&2; exit 1; }
{
	printf '/* Made by scripts/embed.sh from %s; do not edit. */\n' "$hdr"
	printf '#include "%s"\n' "$hdr"
	echo "$list" | while read -r name path; do
		[ -f "$path" ] || { echo "embed.sh: $hdr: $path: no such file" >&2; exit 1; }
		printf '\n/* %s */\nconst char %s[] =\n    "' "$path" "$name"
		od -An -v -to1 "$path" | awk '
		BEGIN {
			for (i = 32; i < 127; i++)
				lit[sprintf("%03o", i)] = sprintf("%c", i)
			delete lit["134"]; delete lit["042"]; delete lit["077"]
			lit["011"] = "\\t"; lit["012"] = "\\n"
		}
		{
			for (i = 1; i <= NF; i++) {
				b = $i
				printf "%s", (b in lit) ? lit[b] : "\\" b
				if (b == "012" || ++n == 32) {
					printf "\"\n    \""
					n = 0
				}
			}
		}
		END { printf "\";\n" }'
		printf 'const size_t %s_len = sizeof(%s) - 1;\n' "$name" "$name"
	done
} >"$out.tmp"
echo "$list" | awk -v out="$out" '{ p = p " " $2 } END { print out ":" p; print substr(p, 2) ":" }' >"$dep.tmp"
mv "$dep.tmp" "$dep"
mv "$out.tmp" "$out"
