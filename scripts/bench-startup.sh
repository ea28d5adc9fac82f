#!/bin/sh
# Start-up cost of the tools: each command runs COUNT times (default 200)
# in a loop, timed as a whole with runstat, best of REPS (default 5), next
# to /bin/true run the same way (the cost of fork and exec alone), so
# "ms over true" is what the tool itself adds, in wall time (the best
# run) and in CPU time (user + sys, the least of the runs: on a shared
# machine the steadier figure; the wall time of span2sqlite includes its
# fsync, which is the disk's):
#   evcat --version, evcat on a 1-event stream, spancat -n and span2otlp
#   (OTLP/JSON to a file) and span2sqlite (a new database) on 18 spans.
#
#   SSP_BIN=build/bin SSP_HELPERS=build/tests/helpers sh scripts/bench-startup.sh
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with the built tools}"
: "${SSP_HELPERS:?set SSP_HELPERS to the directory with mkevents and runstat}"
COUNT=${COUNT:-200}
TOP=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/bench-startup.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
BW=$W
. "$TOP/scripts/bench-lib.sh"
"$SSP_HELPERS/mkevents" -n 1 -o "$W/one.ev"
"$SSP_HELPERS/mkspans" -n 1 -o "$W/one.sp"
# loop NAME CMD: CMD (one shell word list, run by sh) COUNT times
loop() {
	n=$1
	shift
	bench_run "$n" sh -c "i=0; while [ \$i -lt $COUNT ]; do $* >/dev/null 2>&1 || exit 1; i=\$((i + 1)); done"
}
loop true /bin/true
loop evv "$SSP_BIN/evcat" --version
loop ev1 "$SSP_BIN/evcat" "$W/one.ev"
loop sp1 "$SSP_BIN/spancat" -n "$W/one.sp"
loop otlp1 "$SSP_BIN/span2otlp" --force -o "$W/o.json" "$W/one.sp"
loop sql1 "rm -f '$W/o.db' && $SSP_BIN/span2sqlite" "$W/o.db" "$W/one.sp"
loop rmtrue "rm -f '$W/o.db' && /bin/true"
echo "start-up: $COUNT runs in a loop, best of $REPS; ms per run, and over /bin/true"
echo "                                        wall  over true |      cpu  over true"
t=$(bench_get true wall) tc=$(bench_get true mincpu)
for k in evv:"evcat --version" ev1:"evcat, 1-event stream" sp1:"spancat -n, 18 spans" \
    otlp1:"span2otlp -o FILE, 18 spans" sql1:"span2sqlite new db, 18 spans" true:"/bin/true"; do
	n=${k%%:*} d=${k#*:}
	base=$t basec=$tc
	[ "$n" != sql1 ] || base=$(bench_get rmtrue wall) basec=$(bench_get rmtrue mincpu)
	awk -v d="$d" -v w="$(bench_get "$n" wall)" -v t="$base" -v u="$(bench_get "$n" mincpu)" \
	    -v tu="$basec" -v c="$COUNT" 'BEGIN { printf "  %-30s %7.3f %7.3f ms | %7.3f %7.3f ms\n",
	    d, w / c * 1e3, (w - t) / c * 1e3, u / c * 1e3, (u - tu) / c * 1e3 }'
done
bench_summary startup-evcat "$(awk -v w="$(bench_get ev1 wall)" -v c="$COUNT" 'BEGIN { printf "%.3f", w / c * 1e3 }')" \
    ms "$(bench_get ev1 wall)" "$t" true
bench_summary startup-span2otlp "$(awk -v w="$(bench_get otlp1 wall)" -v c="$COUNT" 'BEGIN { printf "%.3f", w / c * 1e3 }')" \
    ms "$(bench_get otlp1 wall)" "$t" true
# span2sqlite: the CPU time over that of "rm -f DB && /bin/true" (its
# wall time is mostly the fsync of the new file)
bench_summary startup-span2sqlite "$(awk -v u="$(bench_get sql1 mincpu)" -v t="$(bench_get rmtrue mincpu)" \
    -v c="$COUNT" 'BEGIN { printf "%.3f", (u - t) / c * 1e3 }')" ms-cpu-over-true \
    "$(bench_get sql1 mincpu)" "$(bench_get rmtrue mincpu)" rmtrue:cpu
