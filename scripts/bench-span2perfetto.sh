#!/bin/sh
# span2perfetto on evspan's output, against baselines measured in the same
# run (cat of the input, wc -c and cp of the output):
#
#   1. mkdumbbell -n N writes the event streams of a SimBricks dumbbell;
#   2. evspan --threads 1 turns them into spans (18 N + 2);
#   3. span2perfetto writes them as Perfetto protobuf and as Chrome JSON,
#      to a file and to /dev/null; span2perfetto -v with SSP_CPUTIME=1
#      gives the CPU time of its three phases (read, layout, write).
#
# Everything runs pinned to one core (BENCH_CPU, default 1) REPS times
# (default 5); the best wall time is kept.  Prints spans/s and MB/s of
# output.  The target: >= 2 M spans/s, protobuf to a file, one core.
#
#   SSP_BIN=build/bin SSP_HELPERS=build/tests/helpers sh scripts/bench-span2perfetto.sh [N]
#   N = 50000 (default: 900,002 spans); BENCH_DIR where inputs and outputs
#   go (default $TMPDIR or /tmp; /dev/shm takes the disk out)
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with span2perfetto}"
: "${SSP_HELPERS:?set SSP_HELPERS to the directory with mkdumbbell}"
N=${1:-${N:-50000}}
REPS=${REPS:-5}
CPU=${BENCH_CPU:-1}
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
# row LABEL NAME SPANS
row() {
	awk -v l="$1" -v w="$(get "$2" wall)" -v c="$(get "$2" cpu)" -v n="$3" \
	    -v b="$(get "$2" bytes)" 'BEGIN {
		rate = n > 0 && w > 0 ? sprintf("%.2f M", n / w / 1e6) : "-"
		crate = n > 0 && c > 0 ? sprintf("%.2f M", n / c / 1e6) : "-"
		mb = b > 0 && w > 0 ? sprintf("%.0f", b / w / 1e6) : "-"
		printf "%-44s %7.3f %6.2f %9s %9s %6s\n", l, w, c, rate, crate, mb }'
}

echo "span2perfetto benchmark: mkdumbbell -n $N, $(nproc) cores, pinned to core $CPU," \
    "best of $REPS, files in $DIR"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
"$SSP_HELPERS/mkdumbbell" -n "$N" "$DIR/ev" >/dev/null
"$SSP_BIN/evspan" --threads 1 -t "$DIR/ev/topology.csv" \
    -r "$TOP/rules/linux-i40e.csv" -o "$DIR/in.sp"
rm -rf "$DIR/ev"
S=$("$SSP_BIN/spancat" -n "$DIR/in.sp" | awk '$2 == "spans" { print $1 }')
echo "input: $S spans, $(wc -c <"$DIR/in.sp") bytes"
echo
printf '%-44s %7s %6s %9s %9s %6s\n' "what" "wall s" "cpu s" "spans/s" "/cpu s" "MB/s"
echo "(spans/s by wall time and by user+sys time; MB/s of output by wall time)"

OUT="" run cat cat "$DIR/in.sp"
row "baseline: cat spans >/dev/null" cat "$S"
OUT="$DIR/out.pftrace" run pb "$SSP_BIN/span2perfetto" -o "$DIR/out.pftrace" "$DIR/in.sp"
row "span2perfetto protobuf -> file" pb "$S"
OUT="" run pbnull "$SSP_BIN/span2perfetto" -f proto --force -o /dev/null "$DIR/in.sp"
row "span2perfetto protobuf -> /dev/null" pbnull "$S"
OUT="$DIR/out.pftrace" run wc wc -c "$DIR/out.pftrace"
row "baseline: wc -c of that protobuf" wc "$S"
OUT="$DIR/out.pftrace" run cp cp "$DIR/out.pftrace" "$DIR/copy.pftrace"
row "baseline: cp of that protobuf (file write)" cp "$S"
rm -f "$DIR/copy.pftrace"
OUT="$DIR/out.json" run json "$SSP_BIN/span2perfetto" -o "$DIR/out.json" "$DIR/in.sp"
row "span2perfetto JSON -> file" json "$S"
OUT="$DIR/out.json" run cpjson cp "$DIR/out.json" "$DIR/copy.json"
row "baseline: cp of that JSON (file write)" cpjson "$S"
rm -f "$DIR/copy.json"
bench_summary perfetto-pb-file "$(bench_rate "$S" "$(get pb wall)")" Mspans/s \
    "$(bench_time pb)" "$(bench_time cp)" "$(bench_base cp)"
bench_summary perfetto-json-file "$(bench_rate "$S" "$(get json wall)")" Mspans/s \
    "$(bench_time json)" "$(bench_time cpjson)" "$(bench_base cp)"
echo "sizes: protobuf $(( $(wc -c <"$DIR/out.pftrace") / S )) B/span," \
    "JSON $(( $(wc -c <"$DIR/out.json") / S )) B/span"
SSP_CPUTIME=1 $PIN "$SSP_BIN/span2perfetto" -v -f proto --force -o /dev/null "$DIR/in.sp" 2>&1 |
    sed -n 's/^span2perfetto: wall time: /cpu time of the phases (protobuf): /p'
/usr/bin/time -f "peak memory (protobuf): %M KB" "$SSP_BIN/span2perfetto" -f proto --force \
    -o /dev/null "$DIR/in.sp" 2>&1 | tail -1
echo "target >= 2 M spans/s, protobuf to a file, one core:" \
    "$(awk -v n="$S" -v w="$(get pb wall)" 'BEGIN { print (n / w >= 2e6 ? "met" : "NOT met") }')"
