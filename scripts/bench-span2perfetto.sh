#!/bin/sh
# span2perfetto on evspan's output at two sizes, 4x apart, against
# baselines measured in the same run (cat of the input, wc -c and cp of
# the output):
#
#   1. mkdumbbell -n N and -n 4N write the event streams of a SimBricks
#      dumbbell;
#   2. evspan --threads 1 turns them into spans (18 N + 2);
#   3. span2perfetto writes them as Perfetto protobuf (to a file and to
#      /dev/null) and, at N, as Chrome JSON.
#
# Everything runs pinned to one core (BENCH_CPU, default 1) REPS times
# (default 3); the best wall time is kept, with the CPU time (user and
# system) and peak RSS of that run.  span2perfetto's memory is bounded by
# its reorder window and the open spans (sink/tracks.h): the bench: lines
# give its peak RSS at both sizes and their ratio (target: below 1.5), and
# its spans/s at 4N, protobuf to a file (target: >= 2 M spans/s).  With
# SSP_BIN_OLD set to the bin directory of another build, that build's
# span2perfetto runs beside it on the same inputs (a before/after in one
# run; not in the bench: lines).
#
#   SSP_BIN=build/bin SSP_HELPERS=build/tests/helpers sh scripts/bench-span2perfetto.sh [N]
#   N = 27778 (default: 0.5 M and 2 M spans); BENCH_DIR where inputs and
#   outputs go (default $TMPDIR or /tmp; /dev/shm takes the disk out)
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with span2perfetto}"
: "${SSP_HELPERS:?set SSP_HELPERS to the directory with mkdumbbell}"
N=${1:-${N:-27778}}
REPS=${REPS:-3}
CPU=${BENCH_CPU:-1}
OLD=${SSP_BIN_OLD:-}
TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ssp-bench-perfetto.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
PIN="taskset -c $CPU"
command -v taskset >/dev/null 2>&1 || PIN=""
LC_ALL=C
export LC_ALL

BW=$DIR
. "$TOP/scripts/bench-lib.sh"
run() { bench_run "$@"; }
get() { bench_get "$@"; }
mb() { awk -v k="$(get "$1" rss)" 'BEGIN { printf "%.1f", k / 1024 }'; }
# row LABEL NAME SPANS
row() {
	awk -v l="$1" -v w="$(get "$2" wall)" -v c="$(get "$2" cpu)" -v n="$3" \
	    -v b="$(get "$2" bytes)" -v r="$(get "$2" rss)" -v s="$(get "$2" sys)" 'BEGIN {
		rate = n > 0 && w > 0 ? sprintf("%.2f M", n / w / 1e6) : "-"
		crate = n > 0 && c > 0 ? sprintf("%.2f M", n / c / 1e6) : "-"
		mb = b > 0 && w > 0 ? sprintf("%.0f", b / w / 1e6) : "-"
		printf "%-46s %7.3f %6.2f %6.2f %9s %9s %6s %8.1f\n", l, w, c, s, rate, crate, mb, r / 1024 }'
}
meas() { run "$@"; }

N4=$((4 * N))
echo "span2perfetto benchmark: mkdumbbell -n $N and -n $N4, $(nproc) cores, pinned to core $CPU," \
    "best of $REPS, files in $DIR"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "$N" "$N4"; do
	"$SSP_HELPERS/mkdumbbell" -n "$n" "$DIR/ev" >/dev/null
	"$SSP_BIN/evspan" --threads 1 -t "$DIR/ev/topology.csv" \
	    -r "$TOP/rules/linux-i40e.csv" -o "$DIR/in$n.sp"
	rm -rf "$DIR/ev"
done
S1=$("$SSP_BIN/spancat" -n "$DIR/in$N.sp" | awk '$2 == "spans" { print $1 }')
S4=$("$SSP_BIN/spancat" -n "$DIR/in$N4.sp" | awk '$2 == "spans" { print $1 }')
echo "input: $S1 spans, $(wc -c <"$DIR/in$N.sp") bytes; $S4 spans, $(wc -c <"$DIR/in$N4.sp") bytes"
echo
printf '%-46s %7s %6s %6s %9s %9s %6s %8s\n' "what" "wall s" "cpu s" "sys s" "spans/s" "/cpu s" "MB/s" "max MB"
echo "(spans/s by wall time and by user+sys time; MB/s of output by wall time)"

for n in "$N" "$N4"; do
	s=$S1
	[ "$n" = "$N" ] || s=$S4
	OUT="" meas "cat$n" cat "$DIR/in$n.sp"
	row "baseline: cat spans >/dev/null, $s spans" "cat$n" "$s"
	OUT="" meas "count$n" "$SSP_BIN/spancat" -n "$DIR/in$n.sp"
	row "baseline: spancat -n" "count$n" "$s"
	OUT="$DIR/out.pftrace" meas "pb$n" "$SSP_BIN/span2perfetto" -o "$DIR/out.pftrace" "$DIR/in$n.sp"
	row "span2perfetto protobuf -> file" "pb$n" "$s"
	OUT="" meas "pbnull$n" "$SSP_BIN/span2perfetto" -f proto --force -o /dev/null "$DIR/in$n.sp"
	row "span2perfetto protobuf -> /dev/null" "pbnull$n" "$s"
	if [ -n "$OLD" ]; then
		OUT="$DIR/old.pftrace" meas "old$n" "$OLD/span2perfetto" -o "$DIR/old.pftrace" "$DIR/in$n.sp"
		row "  $OLD/span2perfetto: protobuf -> file" "old$n" "$s"
		rm -f "$DIR/old.pftrace"
	fi
	OUT="$DIR/out.pftrace" meas "cp$n" cp "$DIR/out.pftrace" "$DIR/copy.pftrace"
	row "baseline: cp of that protobuf (file write)" "cp$n" "$s"
	rm -f "$DIR/copy.pftrace"
	[ "$n" = "$N" ] || break
	OUT="$DIR/out.json" meas json "$SSP_BIN/span2perfetto" -o "$DIR/out.json" "$DIR/in$n.sp"
	row "span2perfetto JSON -> file" json "$s"
	OUT="$DIR/out.json" meas cpjson cp "$DIR/out.json" "$DIR/copy.json"
	row "baseline: cp of that JSON (file write)" cpjson "$s"
	echo "sizes: protobuf $(( $(wc -c <"$DIR/out.pftrace") / s )) B/span," \
	    "JSON $(( $(wc -c <"$DIR/out.json") / s )) B/span"
	rm -f "$DIR/copy.json" "$DIR/out.json"
done
echo
echo "peak RSS: $(mb "pb$N") MB at $S1 spans, $(mb "pb$N4") MB at $S4 spans" \
    "($(bench_ratio "$(get "pb$N4" rss)" "$(get "pb$N" rss)")x on" \
    "$(bench_ratio "$S4" "$S1")x the spans)"
[ -z "$OLD" ] || echo "  $OLD/span2perfetto: $(mb "old$N") MB and $(mb "old$N4") MB" \
    "($(bench_ratio "$(get "old$N4" rss)" "$(get "old$N" rss)")x)"
bench_summary perfetto-pb-file "$(bench_rate "$S4" "$(get "pb$N4" wall)")" Mspans/s \
    "$(bench_time "pb$N4")" "$(bench_time "cp$N4")" "$(bench_base cp)"
bench_summary perfetto-json-file "$(bench_rate "$S1" "$(get json wall)")" Mspans/s \
    "$(bench_time json)" "$(bench_time cpjson)" "$(bench_base cp)"
# memory: at N against spancat -n's on the same stream, at 4N against N
bench_summary perfetto-rss-N "$(mb "pb$N")" MB "$(get "pb$N" rss)" \
    "$(get "count$N" rss)" spancat-n-rss
bench_summary perfetto-rss-4N "$(mb "pb$N4")" MB "$(get "pb$N4" rss)" \
    "$(get "pb$N" rss)" perfetto-rss-N
SSP_CPUTIME=1 $PIN "$SSP_BIN/span2perfetto" -v -f proto --force -o /dev/null "$DIR/in$N4.sp" 2>&1 |
    sed -n 's/^span2perfetto: wall time /cpu time (protobuf, 4N): /p; s/^span2perfetto: window: /window (4N): /p'
echo "targets: >= 2 M spans/s, protobuf to a file, one core:" \
    "$(awk -v n="$S4" -v w="$(get "pb$N4" wall)" 'BEGIN { print (n / w >= 2e6 ? "met" : "NOT met") }');" \
    "peak RSS < 1.5x at 4x the spans:" \
    "$(awk -v a="$(get "pb$N4" rss)" -v b="$(get "pb$N" rss)" 'BEGIN { print (a < 1.5 * b ? "met" : "NOT met") }')"
