#!/bin/sh
# span2html on evspan's output: spans/s and peak memory of writing the
# page, next to spancat -n reading the same stream (a baseline), then the
# page's size and, when Chromium and Node are installed, its time to
# interactive in headless Chromium (tests/html/cdp.js reads the
# performance.now() the viewer records when it is ready).
#
#   1. mkdumbbell -n N writes the event streams of a SimBricks dumbbell;
#   2. evspan --threads 1 turns them into spans (18 N + 2), and evspan -e
#      into spans with their member events;
#   3. span2html writes the page of each, with the default detail (the
#      100 slowest traces and 1000 others past 100000 spans).
#
#   SSP_BIN=build/bin SSP_HELPERS=build/tests/helpers sh scripts/bench-span2html.sh [N]
#   N = 50000 (default: 900,002 spans); REPS (default 3) runs, best kept;
#   BENCH_DIR where inputs and outputs go (default $TMPDIR or /tmp)
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with span2html}"
: "${SSP_HELPERS:?set SSP_HELPERS to the directory with mkdumbbell}"
N=${1:-${N:-50000}}
REPS=${REPS:-3}
TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ssp-bench-html.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
LC_ALL=C
export LC_ALL

BW=$DIR
. "$TOP/scripts/bench-lib.sh"
# best NAME CMD...: best wall time (s) and its peak RSS (KB) of REPS runs
best() {
	bench_run "$@"
	echo "$(bench_get "$1" wall) $(bench_get "$1" rss)" >"$DIR/$1.best"
}
row() {	# row LABEL NAME SPANS
	read -r w m <"$DIR/$2.best"
	awk -v l="$1" -v w="$w" -v m="$m" -v n="$3" 'BEGIN {
		printf "%-44s %7.2f %9s %8.0f\n", l, w, (w > 0 ? sprintf("%.2f M", n / w / 1e6) : "-"), m / 1024 }'
}

echo "span2html benchmark: mkdumbbell -n $N, $(nproc) cores, best of $REPS, files in $DIR"
"$SSP_HELPERS/mkdumbbell" -n "$N" "$DIR/ev" >/dev/null
RULES="$TOP/rules/linux-i40e.csv"
"$SSP_BIN/evspan" --threads 1 -t "$DIR/ev/topology.csv" -r "$RULES" -o "$DIR/in.sp"
"$SSP_BIN/evspan" --threads 1 -e -t "$DIR/ev/topology.csv" -r "$RULES" -o "$DIR/ev.sp"
S=$("$SSP_BIN/spancat" -n "$DIR/in.sp" | awk '$2 == "spans" { print $1 }')
echo "input: $S spans, $(wc -c <"$DIR/in.sp") bytes; with member events $(wc -c <"$DIR/ev.sp") bytes"
echo
printf '%-44s %7s %9s %8s\n' "what" "wall s" "spans/s" "max MB"
best count "$SSP_BIN/spancat" -n "$DIR/in.sp"
row "baseline: spancat -n" count "$S"
best html "$SSP_BIN/span2html" -o "$DIR/in.html" "$DIR/in.sp"
row "span2html" html "$S"
best htmlev "$SSP_BIN/span2html" -o "$DIR/ev.html" "$DIR/ev.sp"
row "span2html, stream with member events" htmlev "$S"
best htmlall "$SSP_BIN/span2html" --traces all --max-spans 0 --no-events \
    -o "$DIR/all.html" "$DIR/in.sp"
row "span2html --traces all (every span in detail)" htmlall "$S"
bench_summary html "$(bench_rate "$S" "$(bench_get html wall)")" Mspans/s \
    "$(bench_time html)" "$(bench_time count)" "$(bench_base spancat-n)"
echo
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
NODEFLAGS=""
node --experimental-websocket -e 0 >/dev/null 2>&1 && NODEFLAGS=--experimental-websocket
for p in in ev all; do
	f="$DIR/$p.html"
	line="page $p.html: $(wc -c <"$f") bytes"
	if [ -n "$CHROMIUM" ] && command -v node >/dev/null 2>&1; then
		tti=""
		for _ in $(seq "$REPS"); do
			t=$(CHROMIUM=$CHROMIUM node $NODEFLAGS "$TOP/tests/html/cdp.js" --timeout 120000 \
			    "file://$f" | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"].get("tti", "-"))')
			if [ -z "$tti" ] || [ "$t" -lt "$tti" ]; then tti=$t; fi
		done
		line="$line, interactive in headless Chromium after $tti ms (best of $REPS)"
	fi
	echo "$line"
done
