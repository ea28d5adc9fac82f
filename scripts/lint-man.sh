#!/bin/sh
# Lint the man pages as a reader would meet them (make lint-man):
#   1. mandoc -T lint at the style level (every message, not only warnings).
#      Cross references (Xr) are looked up in a manual path made of these
#      pages (makewhatis), so references between them resolve; those to
#      system pages (open(2), awk(1)) are not checked, since which are
#      installed depends on the machine.
#   2. man -l at 80 columns: troff's "can't break line" and other warnings
#      (a table column too narrow for its text).
# Usage: sh scripts/lint-man.sh PAGE...   Exit 1 on any message.
set -u
[ $# -gt 0 ] || { echo "usage: lint-man.sh PAGE..." >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssp-man.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
ours=
for p in "$@"; do
	s=${p##*.}
	mkdir -p "$tmp/mp/man$s"
	cp "$p" "$tmp/mp/man$s/"
	n=${p##*/}
	ours="$ours ${n%.*}($s)"
done
bad=0
if command -v makewhatis >/dev/null 2>&1 && makewhatis "$tmp/mp" 2>/dev/null; then
	mandoc -T lint -W style -M "$tmp/mp" "$@" > "$tmp/lint" 2>&1
else
	mandoc -T lint -W style "$@" > "$tmp/lint" 2>&1
	ours=		# no manual path: no cross reference can be checked
fi
# "referenced manual not found: Xr NAME SEC": a failure only for our pages;
# "outdated mandoc.db" is about the system's database, not these pages.
while IFS= read -r l; do
	case $l in
	*"outdated mandoc.db"*) continue ;;
	*"referenced manual not found: Xr "*)
		x=${l##*: Xr }; x=${x%% (*}
		case " $ours " in *" ${x% *}(${x#* }) "*) ;; *) continue ;; esac ;;
	esac
	echo "$l"; bad=1
done < "$tmp/lint"
if command -v man >/dev/null 2>&1; then
	for p in "$@"; do
		MANWIDTH=80 man -l "$p" 2>&1 >/dev/null | sed "s|^|$p: |" > "$tmp/troff"
		[ -s "$tmp/troff" ] && { cat "$tmp/troff"; bad=1; }
	done
else
	echo "lint-man: man not installed, troff warnings not checked"
fi
exit $bad
