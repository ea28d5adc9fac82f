#!/bin/sh
# span2otlp throughput, with baselines measured in the same run.
#
#   SSP_BIN=build/bin SSP_HELPERS=build/tests/helpers \
#       sh scripts/bench-span2otlp.sh [TRACES]
#
# TRACES mkspans requests (default 100000: 1.8 M spans).  Environment:
# BENCH_DIR where inputs and outputs go (default $TMPDIR or /tmp; /dev/shm
# takes the disk out of the measurement), REPS repetitions, best kept
# (default 3), BENCH_CPU the core everything is pinned to (default 1; one
# core, so the sender thread of --endpoint shares it too), BENCH_HTTP=0 to
# skip the OTLP/HTTP runs against a local discarding receiver.
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with span2otlp}"
: "${SSP_HELPERS:?set SSP_HELPERS to the directory with mkspans}"
N=${1:-100000}
REPS=${REPS:-3}
CPU=${BENCH_CPU:-1}
DIR=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ssp-bench-otlp.XXXXXX")
TOP=$(cd "$(dirname "$0")/.." && pwd)
RPID=""
trap '[ -n "$RPID" ] && kill "$RPID" 2>/dev/null; rm -rf "$DIR"' EXIT
PIN="taskset -c $CPU"
command -v taskset >/dev/null 2>&1 || PIN=""

# run LABEL SPANS CMD...: best wall time of REPS runs, CPU of that run
run() {
	label=$1 spans=$2
	shift 2
	best=""
	for _ in $(seq "$REPS"); do
		/usr/bin/time -f "%e %U %S" -o "$DIR/.time" $PIN "$@" >/dev/null 2>"$DIR/.err" || {
			echo "bench: $label failed:" >&2
			cat "$DIR/.err" >&2
			exit 1
		}
		read -r w u s <"$DIR/.time"
		if [ -z "$best" ] || awk "BEGIN { exit !($w < $best) }"; then
			best=$w bu=$u bs=$s
		fi
	done
	out=${OUT:-}
	bytes=""
	[ -n "$out" ] && [ -f "$out" ] && bytes=$(wc -c <"$out")
	awk -v l="$label" -v w="$best" -v u="$bu" -v s="$bs" -v n="$spans" \
	    -v b="$bytes" 'BEGIN {
		if (w < 0.005) w = 0.005
		c = u + s; if (c < 0.005) c = 0.005
		rate = n > 0 ? sprintf("%6.2f M", n / w / 1e6) : "       -"
		crate = n > 0 ? sprintf("%6.2f M", n / c / 1e6) : "       -"
		mb = b != "" ? sprintf("%6.0f", b / w / 1e6) : "     -"
		printf "%-42s %6.2f %5.2f %5.2f %s %s %s\n", l, w, u, s, rate, crate, mb }'
}

echo "span2otlp benchmark: $N traces, $(nproc) cores, pinned to core $CPU," \
    "best of $REPS, files in $DIR"
df -h "$DIR" | awk 'NR == 2 { print "filesystem: " $1 " (" $NF ")" }'
printf '%-42s %6s %5s %5s %8s %8s %6s\n' "what" "wall s" "user" "sys" \
    "spans/s" "per CPU s" "MB/s"
echo "(spans/s: by wall time; per CPU s: by user + sys; MB/s: output by wall)"

OUT="" run "mkspans: write the input (plain)" 0 \
    "$SSP_HELPERS/mkspans" -n "$N" -o "$DIR/in.sp"
"$SSP_HELPERS/mkspans" -e -n "$N" -o "$DIR/ev.sp"
"$SSP_HELPERS/mkspans" -z -n "$N" -o "$DIR/in.sp.zst"
S=$(( N * 18 ))
echo "input: $S spans, $(wc -c <"$DIR/in.sp") bytes plain," \
    "$(wc -c <"$DIR/in.sp.zst") bytes zstd, $(wc -c <"$DIR/ev.sp") bytes with events"

OUT="" run "baseline: cat spans >/dev/null" "$S" cat "$DIR/in.sp"
OUT="" run "baseline: zstd -d spans.zst >/dev/null" "$S" zstd -dc "$DIR/in.sp.zst"
OUT="" run "baseline: cp spans (file write)" "$S" cp "$DIR/in.sp" "$DIR/copy.sp"

OUT="$DIR/out.json" run "span2otlp JSON -> file, no events" "$S" \
    "$SSP_BIN/span2otlp" --no-events -o "$DIR/out.json" "$DIR/in.sp"
OUT="$DIR/out.json" run "baseline: cp of that JSON (file write)" "$S" \
    cp "$DIR/out.json" "$DIR/copy.json"
rm -f "$DIR/copy.json"
OUT="" run "span2otlp JSON -> /dev/null, no events" "$S" \
    "$SSP_BIN/span2otlp" --no-events -o /dev/null "$DIR/in.sp"
OUT="$DIR/out.json" run "span2otlp JSON -> file, zstd input" "$S" \
    "$SSP_BIN/span2otlp" --no-events -o "$DIR/out.json" "$DIR/in.sp.zst"
OUT="$DIR/out.pb" run "span2otlp protobuf -> file, no events" "$S" \
    "$SSP_BIN/span2otlp" --no-events --protocol http/protobuf -o "$DIR/out.pb" "$DIR/in.sp"
OUT="$DIR/ev.json" run "span2otlp JSON -> file, with events" "$S" \
    "$SSP_BIN/span2otlp" -o "$DIR/ev.json" "$DIR/ev.sp"
OUT="$DIR/ev.pb" run "span2otlp protobuf -> file, with events" "$S" \
    "$SSP_BIN/span2otlp" --protocol http/protobuf -o "$DIR/ev.pb" "$DIR/ev.sp"
OUT="$DIR/out.json.zst" run "span2otlp JSON -> file.zst, no events" "$S" \
    "$SSP_BIN/span2otlp" --no-events -o "$DIR/out.json.zst" "$DIR/in.sp"
echo "sizes: JSON $(( $(wc -c <"$DIR/out.json") / S )) B/span," \
    "protobuf $(( $(wc -c <"$DIR/out.pb") / S )) B/span," \
    "JSON.zst $(( $(wc -c <"$DIR/out.json.zst") / S )) B/span"
rm -f "$DIR"/*.json "$DIR"/*.pb "$DIR"/*.zst "$DIR/copy.sp"

if [ "${BENCH_HTTP:-1}" != 0 ] && [ -d "$TOP/tests/otlp/node_modules" ]; then
	# The receiver discards bodies unread: this measures span2otlp and
	# curl, not the receiver's decoding.  It runs on the other core.
	node "$TOP/tests/otlp/receiver.js" --discard --lifetime 600 \
	    --port-file "$DIR/port" 2>/dev/null &
	RPID=$!
	i=0
	while [ ! -s "$DIR/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	url="http://127.0.0.1:$(cat "$DIR/port")/v1/traces"
	OUT="" run "span2otlp protobuf -> local OTLP/HTTP" "$S" \
	    "$SSP_BIN/span2otlp" --no-events --endpoint "$url" "$DIR/in.sp"
	OUT="" run "span2otlp JSON -> local OTLP/HTTP" "$S" \
	    "$SSP_BIN/span2otlp" --no-events --protocol http/json --endpoint "$url" "$DIR/in.sp"
	OUT="" run "span2otlp protobuf+gzip -> local OTLP/HTTP" "$S" \
	    "$SSP_BIN/span2otlp" --no-events --gzip --endpoint "$url" "$DIR/in.sp"
fi
