#!/bin/sh
# span2html on evspan's output at two sizes, 4x apart: spans/s and peak
# memory of writing the page, next to spancat -n reading the same stream
# (a baseline), from a file and from a pipe; then the page's size and,
# when Chromium and Node are installed, its time to interactive in
# headless Chromium (tests/html/cdp.js reads the performance.now() the
# viewer records when it is ready).  span2html's memory is bounded by
# what the page shows (sink/html.h): the bench: lines give its peak RSS at
# both sizes, and the ratio of the two (target: below 1.5).
#
#   1. mkdumbbell -n N and -n 4N write the event streams of a SimBricks
#      dumbbell;
#   2. evspan --threads 1 turns them into spans (18 N + 2), and evspan -e
#      the small one into spans with their member events;
#   3. span2html writes the page of each, with the default detail (the
#      100 slowest traces and 1000 others past 100000 spans).
#
#   SSP_BIN=build/bin SSP_HELPERS=build/tests/helpers sh scripts/bench-span2html.sh [N]
#   N = 22222 (default: 0.4 M and 1.6 M spans); REPS (default 3) runs, best
#   kept; BENCH_DIR where inputs and outputs go (default $TMPDIR or /tmp)
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with span2html}"
: "${SSP_HELPERS:?set SSP_HELPERS to the directory with mkdumbbell}"
N=${1:-${N:-22222}}
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
		printf "%-48s %7.2f %9s %8.1f\n", l, w, (w > 0 ? sprintf("%.2f M", n / w / 1e6) : "-"), m / 1024 }'
}
mb() { awk -v k="$(bench_get "$1" rss)" 'BEGIN { printf "%.1f", k / 1024 }'; }

N4=$((4 * N))
echo "span2html benchmark: mkdumbbell -n $N and -n $N4, $(nproc) cores, best of $REPS, files in $DIR"
RULES="$TOP/rules/linux-i40e.csv"
for n in "$N" "$N4"; do
	"$SSP_HELPERS/mkdumbbell" -n "$n" "$DIR/ev$n" >/dev/null
	"$SSP_BIN/evspan" --threads 1 -t "$DIR/ev$n/topology.csv" -r "$RULES" -o "$DIR/in$n.sp"
done
"$SSP_BIN/evspan" --threads 1 -e -t "$DIR/ev$N/topology.csv" -r "$RULES" -o "$DIR/ev.sp"
rm -rf "$DIR/ev$N" "$DIR/ev$N4"
S1=$("$SSP_BIN/spancat" -n "$DIR/in$N.sp" | awk '$2 == "spans" { print $1 }')
S4=$("$SSP_BIN/spancat" -n "$DIR/in$N4.sp" | awk '$2 == "spans" { print $1 }')
echo "input: $S1 spans, $(wc -c <"$DIR/in$N.sp") bytes; $S4 spans, $(wc -c <"$DIR/in$N4.sp") bytes;" \
    "with member events $(wc -c <"$DIR/ev.sp") bytes"
echo
printf '%-48s %7s %9s %8s\n' "what" "wall s" "spans/s" "max MB"
for n in "$N" "$N4"; do
	s=$S1
	[ "$n" = "$N" ] || s=$S4
	best "count$n" "$SSP_BIN/spancat" -n "$DIR/in$n.sp"
	row "baseline: spancat -n, $s spans" "count$n" "$s"
	best "html$n" "$SSP_BIN/span2html" -o "$DIR/in$n.html" "$DIR/in$n.sp"
	row "span2html, $s spans" "html$n" "$s"
	best "pipe$n" sh -c 'cat "$1" | "$2/span2html" -o "$3"' sh "$DIR/in$n.sp" "$SSP_BIN" "$DIR/pipe$n.html"
	row "cat | span2html (spooled), $s spans" "pipe$n" "$s"
done
best htmlev "$SSP_BIN/span2html" -o "$DIR/ev.html" "$DIR/ev.sp"
row "span2html, stream with member events, $S1 spans" htmlev "$S1"
best htmlall "$SSP_BIN/span2html" --traces all --max-spans 0 --no-events \
    -o "$DIR/all.html" "$DIR/in$N.sp"
row "span2html --traces all (every span in detail)" htmlall "$S1"
echo
echo "peak RSS: $(mb "html$N") MB at $S1 spans, $(mb "html$N4") MB at $S4 spans" \
    "($(bench_ratio "$(bench_get "html$N4" rss)" "$(bench_get "html$N" rss)")x on" \
    "$(bench_ratio "$S4" "$S1")x the spans; from a pipe $(mb "pipe$N") and $(mb "pipe$N4") MB)"
bench_summary html "$(bench_rate "$S4" "$(bench_get "html$N4" wall)")" Mspans/s \
    "$(bench_time "html$N4")" "$(bench_time "count$N4")" "$(bench_base spancat-n)"
# memory: at N against spancat -n's on the same stream, at 4N against N
bench_summary html-rss-N "$(mb "html$N")" MB "$(bench_get "html$N" rss)" \
    "$(bench_get "count$N" rss)" spancat-n-rss
bench_summary html-rss-4N "$(mb "html$N4")" MB "$(bench_get "html$N4" rss)" \
    "$(bench_get "html$N" rss)" html-rss-N
echo
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
NODEFLAGS=""
node --experimental-websocket -e 0 >/dev/null 2>&1 && NODEFLAGS=--experimental-websocket
if [ -n "$CHROMIUM" ] && command -v node >/dev/null 2>&1; then
	: >"$DIR/jobs"
	for p in "in$N" ev all; do
		for _ in $(seq "$REPS"); do echo "file://$DIR/$p.html" >>"$DIR/jobs"; done
	done
	CHROMIUM=$CHROMIUM TMPDIR=$DIR node $NODEFLAGS "$TOP/tests/html/cdp.js" --timeout 300000 \
	    --batch "$DIR/jobs" >"$DIR/tti.jsonl"
fi
i=0
for p in "in$N" ev all; do
	f="$DIR/$p.html"
	line="page $p.html: $(wc -c <"$f") bytes"
	if [ -s "$DIR/tti.jsonl" ]; then
		tti=$(sed -n "$((i * REPS + 1)),$(((i + 1) * REPS))p" "$DIR/tti.jsonl" | python3 -c '
import json, sys
t = [int(json.loads(l).get("data", {}).get("tti", 0)) for l in sys.stdin]
print(min(x for x in t if x > 0) if any(t) else "-")')
		line="$line, interactive in headless Chromium after $tti ms (best of $REPS)"
	fi
	i=$((i + 1))
	echo "$line"
done
