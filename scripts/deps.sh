#!/bin/sh
# Check the Debian packages simspan needs for one target (scripts/deps.txt,
# the one list); install the missing ones when run as root (apt-get update
# first), otherwise print the exact apt-get line and fail.
#
# usage: deps.sh [build|demo|check|ci]   check (the default) or install
#        deps.sh --list TARGET            the packages TARGET adds to the
#                                         targets before it, one a line
#        deps.sh --commands TARGET        the commands the packages up to
#                                         TARGET provide, one a line
#   build  compile the tools (make)
#   demo   build + what scripts/demo.sh runs
#   check  demo + what make check runs
#   ci     check + what .ci/run adds (clang's sanitizers, libFuzzer)
# SSP_DEPS_EXTRA adds packages.
set -u
list=$(dirname "$0")/deps.txt
usage() {
	echo "usage: deps.sh [build|demo|check|ci] | --list TARGET | --commands TARGET" >&2
	exit 2
}
case ${1:-check} in
--list|--commands) [ $# -eq 2 ] || usage; op=$1 mode=$2 ;;
*) [ $# -le 1 ] || usage; op=install mode=${1:-check} ;;
esac
# its place in build < demo < check < ci
case $mode in
build) rank=1 ;; demo) rank=2 ;; check) rank=3 ;; ci) rank=4 ;;
*) usage ;;
esac
# every row as "RANK package kind args..."
rows=$(awk '
	BEGIN { r["build"] = 1; r["demo"] = 2; r["check"] = 3; r["ci"] = 4 }
	{ sub(/[ \t]*#.*/, "") }
	NF == 0 { next }
	!($2 in r) || $3 !~ /^(cmd|hdr|pkg)$/ {
		printf "deps.sh: %s:%d: want: package build|demo|check|ci cmd|hdr|pkg ...\n",
		    FILENAME, NR > "/dev/stderr"
		exit 1
	}
	{
		line = r[$2] " " $1
		for (i = 3; i <= NF; i++)
			line = line " " $i
		print line
	}' "$list") || exit 1
case $op in
--list)
	echo "$rows" | awk -v n="$rank" '$1 == n { print $2 }'
	exit 0 ;;
--commands)
	echo "$rows" | awk -v n="$rank" '$1 <= n && $3 == "cmd" {
		for (i = 4; i <= NF; i++) print $i }'
	exit 0 ;;
esac
missing=""
present() {	# present KIND ARGS...
	kind=$1; shift
	case $kind in
	cmd)	for c in "$@"; do command -v "$c" >/dev/null 2>&1 || return 1; done ;;
	hdr)	for h in "$@"; do
			for f in /usr/include/$h; do [ -f "$f" ] && return 0; done
		done
		return 1 ;;
	*)	return 1 ;;
	esac
}
while read -r n pkg kind args; do
	[ "$n" -le "$rank" ] || continue
	set -f	# the header globs are for present
	set -- $args
	set +f
	present "$kind" "$@" || dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
done <<EOR
$rows
EOR
for p in ${SSP_DEPS_EXTRA:-}; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
line="apt-get update && apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" = 0 ]; then
	echo "deps ($mode): installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
		echo "deps ($mode): apt-get failed; run: $line" >&2; exit 1; }
	exit 0
fi
echo "deps ($mode): missing Debian packages:$missing" >&2
echo "deps ($mode): run as root:  $line" >&2
exit 1
