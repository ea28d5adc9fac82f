#!/bin/sh
# The Content-Security-Policy source of an inline script or style,
# 'sha256-<base64 of the SHA-256 of its text>', made by the build so that
# span2html needs no SHA-256 of its own (lib/sink/html_viewer.h):
#   csphash.sh FILE OUT      OUT gets the source for the bytes of FILE
#   csphash.sh --check GEN.c for each array NAME_csp that GEN.c (made by
#                            scripts/embed.sh) defines, the bytes of the
#                            array NAME as compiled in, decoded from GEN.c,
#                            must hash to it: else exit 1 and the build
#                            stops (a hash that would not match the text
#                            the page inlines would block it in a browser)
# Only POSIX tools and coreutils (sha256sum, base64).
set -eu
LC_ALL=C
export LC_ALL

# source FILE: the CSP source of FILE's bytes, on standard output
source_of() {
	hex=$(sha256sum <"$1" | cut -c1-64)
	oct=$(echo "$hex" | awk '{
		for (i = 1; i < 64; i += 2) {
			hi = index("0123456789abcdef", substr($0, i, 1)) - 1
			lo = index("0123456789abcdef", substr($0, i + 1, 1)) - 1
			printf "\\%03o", hi * 16 + lo
		}
	}')
	# shellcheck disable=SC2059
	printf "'sha256-%s'" "$(printf "$oct" | base64 -w0)"
}

# literal GEN.c NAME: the bytes of the array NAME that embed.sh wrote
literal() {
	awk -v name="$2" '
	BEGIN {
		for (i = 0; i < 256; i++)
			chr[sprintf("%03o", i)] = sprintf("%c", i)
	}
	$0 == "const char " name "[] =" { on = 1; next }
	on {
		s = $0
		sub(/^    "/, "", s)
		last = s ~ /";$/
		sub(/";?$/, "", s)
		while ((i = index(s, "\\")) > 0) {
			printf "%s", substr(s, 1, i - 1)
			c = substr(s, i + 1, 1)
			if (c == "t") { printf "\t"; s = substr(s, i + 2) }
			else if (c == "n") { printf "\n"; s = substr(s, i + 2) }
			else { printf "%s", chr[substr(s, i + 1, 3)]; s = substr(s, i + 4) }
		}
		printf "%s", s
		if (last)
			exit
	}' "$1"
}

if [ "${1:-}" = --check ]; then
	[ $# -eq 2 ] || { echo "usage: csphash.sh --check GEN.c" >&2; exit 2; }
	gen=$2
	tmp=$(mktemp "${TMPDIR:-/tmp}/csphash.XXXXXX")
	trap 'rm -f "$tmp"' EXIT
	names=$(sed -n 's/^const char \([A-Za-z_0-9]*\)_csp\[\] =$/\1/p' "$gen")
	[ -n "$names" ] || { echo "csphash.sh: $gen: no NAME_csp array" >&2; exit 1; }
	for n in $names; do
		literal "$gen" "$n" >"$tmp"
		want=$(source_of "$tmp")
		literal "$gen" "${n}_csp" >"$tmp"
		if [ "$(cat "$tmp")" != "$want" ]; then
			echo "csphash.sh: $gen: ${n}_csp is $(cat "$tmp"), but $n hashes to $want" >&2
			exit 1
		fi
	done
	exit 0
fi
[ $# -eq 2 ] || { echo "usage: csphash.sh FILE OUT | --check GEN.c" >&2; exit 2; }
source_of "$1" >"$2.tmp"
mv "$2.tmp" "$2"
