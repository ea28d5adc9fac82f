#!/bin/sh
# Check the Debian packages simspan needs; install the missing ones when run
# as root, otherwise print the exact apt-get line and fail.
# SSP_DEPS_EXTRA adds packages (the CI adds what the optional tests need).
set -u
missing=""
need() {	# need PACKAGE TEST...
	pkg=$1; shift
	if ! "$@" >/dev/null 2>&1; then missing="$missing $pkg"; fi
}
hdr() { [ -f "/usr/include/$1" ]; }
need libzstd-dev         hdr zstd.h
need libcsv-dev          hdr csv.h
need libsqlite3-dev      hdr sqlite3.h
need libcmocka-dev       hdr cmocka.h
need libcurl4-openssl-dev hdr x86_64-linux-gnu/curl/curl.h
need zlib1g-dev          hdr zlib.h
need zstd                command -v zstd
need sqlite3             command -v sqlite3
need mandoc              command -v mandoc
need python3             command -v python3
need make                command -v make
need gcc                 command -v gcc
need nodejs              command -v node	# OTLP receiver in the tests
command -v node >/dev/null 2>&1 && need npm command -v npm
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
	echo "deps: installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
		echo "deps: apt-get failed; run: $line" >&2; exit 1; }
	exit 0
fi
echo "deps: missing Debian packages:$missing" >&2
echo "deps: run as root:  $line" >&2
exit 1
