#!/bin/sh
# Benchmark evfilter and evcat on a synthetic function-entry-heavy event
# stream, against cat and zstd -d of the same data measured in the same run.
#
#   SSP_BIN=build/bin SSP_HELPERS=build/tests/helpers sh scripts/bench-evfilter.sh
#
# BENCH_EVENTS (default 20000000) events, best of BENCH_REPEAT (default 5)
# runs each.  Prints events/s by wall clock and by CPU time (user + sys),
# which is steadier on a shared machine.  Times with the runstat helper
# (CLOCK_MONOTONIC and wait4: no 10 ms rounding as with GNU time).
set -eu
LC_ALL=C
export LC_ALL
: "${SSP_BIN:?SSP_BIN must name the directory with the built tools}"
: "${SSP_HELPERS:?SSP_HELPERS must name the directory with the test helpers}"
N=${BENCH_EVENTS:-20000000}
R=${BENCH_REPEAT:-5}
RULES=$(cd "$(dirname "$0")/.." && pwd)/tests/data/samples/rules-linux-i40e.csv
[ -x "$SSP_HELPERS/runstat" ] || { echo "bench-evfilter: runstat is not built" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/ssp-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

"$SSP_HELPERS/mkevents" -n "$N" -o "$W/ev"
"$SSP_HELPERS/mkevents" -n "$N" -z -o "$W/ev.zst"
"$SSP_BIN/evcat" -n "$W/ev" > "$W/counts"
func=$(awk '$2 == "func" { print $1 }' "$W/counts")
echo "input: $N events ($func function entries), $(wc -c < "$W/ev") bytes" \
    "plain, $(wc -c < "$W/ev.zst") bytes zstd; best of $R runs"

BW=$W REPS=$R
. "$(dirname "$0")/bench-lib.sh"
# run NAME CMD...: best wall and CPU seconds of R runs (stdout to /dev/null)
n=0
run() {
	name=$1; shift
	n=$((n + 1))
	bench_run "r$n" "$@"
	awk -v n="$N" -v w="$(bench_get "r$n" wall)" -v c="$(bench_get "r$n" mincpu)" -v name="$name" 'BEGIN {
		fw = w > 0 ? sprintf("%7.1f", n / w / 1e6) : "    inf"
		fc = c > 0 ? sprintf("%7.1f", n / c / 1e6) : "    inf"
		printf "%-40s %7.3f s %s M ev/s wall %7.3f s %s M ev/s cpu\n", name, w, fw, c, fc
	}'
}

run "cat (baseline, plain)" cat "$W/ev"
run "zstd -d (baseline, compressed)" zstd -q -d -c "$W/ev.zst"
run "evcat -n (plain)" "$SSP_BIN/evcat" -n "$W/ev"
run "evfilter pass-through (plain)" "$SSP_BIN/evfilter" "$W/ev"
run "evfilter -b rules.csv (plain)" "$SSP_BIN/evfilter" -b "$RULES" "$W/ev"
run "evfilter -t func -N (plain)" "$SSP_BIN/evfilter" -t func -N "$W/ev"
run "evfilter pass-through (zstd in)" "$SSP_BIN/evfilter" "$W/ev.zst"
run "evfilter -b rules.csv -z (zstd in, out)" "$SSP_BIN/evfilter" -z -b "$RULES" "$W/ev.zst"
# r1 cat, r2 zstd -d, r5 evfilter -b, r8 evfilter -b -z (zstd in and out)
bench_summary evfilter-b "$(bench_rate "$N" "$(bench_get r5 wall)")" Mev/s \
    "$(bench_time r5)" "$(bench_time r1)" "$(bench_base cat)"
bench_summary evfilter-b-zstd "$(bench_rate "$N" "$(bench_get r8 wall)")" Mev/s \
    "$(bench_time r8)" "$(bench_time r2)" "$(bench_base zstd-d)"
"$SSP_BIN/evfilter" --stats -b "$RULES" "$W/ev" 2>&1 > /dev/null | sed 's/^/  /'
