#!/bin/sh
# Check the Debian packages simspan needs for one purpose; install the
# missing ones when run as root (apt-get update first), otherwise print the
# exact apt-get line and fail.
#
# usage: deps.sh [build|demo|check]
#   build  compile the tools (make)
#   demo   build + what scripts/demo.sh runs: zstd, sqlite3 (the summary)
#   check  demo + cmocka (unit tests), mandoc and man-db (man page lint), python3,
#          Node.js with npm (the OTLP receiver of the span2otlp tests),
#          chromium (span2html's page, tested headless)
# Default: check.  SSP_DEPS_EXTRA adds packages (the CI adds what the
# optional tests need).
set -u
mode=${1:-check}
case $mode in
build|demo|check) ;;
*) echo "usage: deps.sh [build|demo|check]" >&2; exit 2 ;;
esac
missing=""
need() {	# need PACKAGE TEST...
	pkg=$1; shift
	if ! "$@" >/dev/null 2>&1; then missing="$missing $pkg"; fi
}
hdr() { [ -f "/usr/include/$1" ]; }
# every tool links zstd and zlib, most libcsv; only span2sqlite links
# SQLite; span2otlp opens libcurl at run time, to send (the Makefile's
# LIBS_tool lists, found with pkg-config)
need make                command -v make
need gcc                 command -v gcc
need pkg-config          command -v pkg-config
need libzstd-dev         hdr zstd.h
need libcsv-dev          hdr csv.h
need libsqlite3-dev      hdr sqlite3.h
need libcurl4-openssl-dev hdr x86_64-linux-gnu/curl/curl.h
need zlib1g-dev          hdr zlib.h
need libjansson-dev      hdr jansson.h	# simspan-simbricks, sim2ev --simbricks-json
need libpcap-dev         hdr pcap/pcap.h	# sim2ev -f pcap
if [ "$mode" != build ]; then
	need zstd        command -v zstd	# the demo sizes the .zst logs
	need sqlite3     command -v sqlite3	# the demo's summary, score-truth.sh
fi
if [ "$mode" = check ]; then
	need libcmocka-dev hdr cmocka.h
	need mandoc      command -v mandoc
	need man-db      command -v man	# troff warnings of the pages (lint-man)
	need jq          command -v jq	# the README's commands (tests/cli/readme.sh)
	need less        command -v less
	need python3     command -v python3
	need nodejs      command -v node	# OTLP receiver in the tests
	command -v node >/dev/null 2>&1 && need npm command -v npm
	need chromium    command -v chromium	# span2html.sh opens its pages
fi
for p in ${SSP_DEPS_EXTRA:-}; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
# curl.h lives in an arch directory on Debian; accept any location.
case "$missing" in *libcurl4-openssl-dev*)
	if ls /usr/include/*/curl/curl.h /usr/include/curl/curl.h >/dev/null 2>&1; then
		missing=$(echo "$missing" | sed 's/ libcurl4-openssl-dev//')
	fi;;
esac
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
