#!/bin/sh
# make bench-large: the thesis scale, run rather than projected.  Columbo's
# evaluation processed 1.3 TB of raw logs; this generates a simsynth run of
# BENCH_LARGE_GB (default 100) GB of raw logs, kept on disk compressed as a
# user would keep them (simsynth -z: zstd), and runs every stage on it:
#
#   generate  simsynth -z                         (not simspan; for scale)
#   phase 1   sim2ev of every log, as many at once as there are cores
#   phase 2   evspan                              (reader + builder thread)
#   sinks     span2sqlite (fresh file), span2otlp (protobuf file)
#
# For each: wall and CPU seconds, peak RSS (runstat: wait4's rusage), and
# the bytes on disk it leaves.  With BENCH_LARGE_GB_SMALL (default 10) it
# first runs the same scenario at that size, so the peak RSS of each tool
# can be compared at two sizes: memory must not grow with the input.  It
# ends with a projection to 1.3 TB on 5 cores from the measured CPU rates.
#
#   SSP_BIN, SSP_HELPERS  built tools and helpers (make bench-large sets them)
#   BENCH_DIR             work directory (default $TMPDIR/simspan-bench);
#                         needs about 12 % of BENCH_LARGE_GB free
#   BENCH_LARGE_GB        raw log size of the large run, GB (100)
#   BENCH_LARGE_GB_SMALL  raw log size of the small run, GB (10; 0: skip)
#   BENCH_LARGE_HOSTS     simulated hosts (8)
#   BENCH_LARGE_KEEP=1    keep the generated runs
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with the built tools}"
SSP_HELPERS=${SSP_HELPERS:-$SSP_BIN/../tests/helpers}
PATH="$SSP_BIN:$SSP_HELPERS:$PATH"
export PATH
LC_ALL=C
export LC_ALL
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BENCH_DIR:-${TMPDIR:-/tmp}/simspan-bench}/large
GB=${BENCH_LARGE_GB:-100}
SMALL=${BENCH_LARGE_GB_SMALL:-10}
HOSTS=${BENCH_LARGE_HOSTS:-8}
CORES=$(nproc)
command -v runstat >/dev/null 2>&1 || {
	echo "bench-large: runstat is not built (make bench-large builds it)" >&2; exit 1; }
mkdir -p "$BASE"
W=$(mktemp -d "${TMPDIR:-/tmp}/bench-large.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

num() { awk -v a="$1" 'BEGIN { printf "%.1f", a }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
gb() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1e9 }'; }
size() { cat "$@" | wc -c; }
wall() { awk '{ printf "%.1f", $1 }' "$1"; }
cpu() { awk '{ printf "%.1f", $2 + $3 }' "$1"; }
rss() { awk '{ printf "%.1f", $4 / 1024 }' "$1"; }
row() {	# STAGE RUNSTAT-FILE BYTES-ON-DISK NOTE
	printf '  %-26s %9s s wall %9s s CPU %8s MB peak RSS %9s GB on disk  %s\n' \
	    "$1" "$(wall "$2")" "$(cpu "$2")" "$(rss "$2")" "$(gb "$3")" "$4"
}

# run SIZE-GB TAG: the whole pipeline on a fresh scenario; leaves
# $W/TAG.<stage>.t (runstat lines) and $W/TAG.bytes.<stage>.
run() {
	g=$1 tag=$2
	d="$BASE/run-$g"
	per=$(awk -v g="$g" -v h="$HOSTS" 'BEGIN { printf "%dM", g * 1000 / h }')
	req=$(awk -v g="$g" 'BEGIN { printf "%d", g * 1000 }')
	avail=$(df -Pk "$BASE" | awk 'NR == 2 { printf "%.0f", $4 * 1024 }')
	need=$(awk -v g="$g" 'BEGIN { printf "%.0f", g * 1e9 * 0.12 }')
	if awk -v a="$avail" -v n="$need" 'BEGIN { exit !(a < n) }'; then
		echo "bench-large: $(gb "$avail") GB free in $BASE, a $g GB run needs about $(gb "$need") GB" >&2
		exit 1
	fi
	rm -rf "$d"
	echo "$tag: simsynth -H $HOSTS --servers $((HOSTS / 4)) -c $((HOSTS / 2)) -n $req --gem5-size $per -z"
	runstat -o "$W/$tag.gen.t" sh -c 'exec simsynth -v "$@" 2>"$0"' "$W/$tag.gen.txt" \
	    -H "$HOSTS" --servers $((HOSTS / 4)) -c $((HOSTS / 2)) -n "$req" \
	    --gem5-size "$per" -z "$d"
	# the raw size is what the simulators would have written (simsynth -v)
	raw=$(awk '$1 ~ /\.log\.zst$/ { s += $2 } END { printf "%.0f", s }' "$W/$tag.gen.txt")
	echo "$raw" >"$W/$tag.raw"
	size "$d"/*.log.zst >"$W/$tag.bytes.gen"
	# phase 1: commands.sh's sim2ev lines, CORES at once, each under runstat
	i=0
	rm -f "$W"/job*
	grep '^sim2ev ' "$d/commands.sh" | while read -r cmd; do
		i=$((i + 1))
		printf 'cd %s && exec runstat -o %s sh -c %s\n' "$d" "$W/job$i.t" "'$cmd'" >"$W/job$i.sh"
	done
	runstat -o "$W/$tag.p1.t" sh -c "ls $W/job*.sh | xargs -P $CORES -n 1 sh"
	# wall of the whole phase, CPU summed over jobs, RSS of the largest job
	awk -v w="$(wall "$W/$tag.p1.t")" '{ u += $2; s += $3; if ($4 > m) m = $4 }
	    END { print w, u, s, m }' "$W"/job*.t >"$W/$tag.p1s.t"
	size "$d"/*.ev.zst >"$W/$tag.bytes.p1"
	runstat -o "$W/$tag.p2.t" sh -c "cd $d && evspan -t topology.csv -r rules.csv -o spans.sp.zst"
	size "$d/spans.sp.zst" >"$W/$tag.bytes.p2"
	spancat -n "$d/spans.sp.zst" | awk '$2 == "spans" { print $1 }' >"$W/$tag.spans"
	for f in "$d"/*.ev.zst; do evcat -n "$f"; done |
	    awk '$2 == "total" { s += $1 } END { print s + 0 }' >"$W/$tag.events"
	runstat -o "$W/$tag.sq.t" sh -c "rm -f $d/spans.db && span2sqlite $d/spans.db $d/spans.sp.zst"
	size "$d/spans.db" >"$W/$tag.bytes.sq"
	runstat -o "$W/$tag.ot.t" span2otlp --protocol http/protobuf -o "$d/otlp.pb" "$d/spans.sp.zst"
	size "$d/otlp.pb" >"$W/$tag.bytes.ot"
	printf '%s: %s GB of raw logs (%s GB zstd on disk), %s events, %s spans\n' "$tag" \
	    "$(gb "$(cat "$W/$tag.raw")")" "$(gb "$(cat "$W/$tag.bytes.gen")")" \
	    "$(cat "$W/$tag.events")" "$(cat "$W/$tag.spans")"
	row "generate (simsynth -z)" "$W/$tag.gen.t" "$(cat "$W/$tag.bytes.gen")" "not simspan; the simulators' part"
	row "phase 1: sim2ev x $(ls "$W"/job*.t | wc -l)" "$W/$tag.p1s.t" "$(cat "$W/$tag.bytes.p1")" \
	    "$(div "$(cat "$W/$tag.raw")" "$(awk '{ print ($2 + $3) * 1e6 }' "$W/$tag.p1s.t")") MB/s of raw log per CPU second, $CORES at once"
	row "phase 2: evspan" "$W/$tag.p2.t" "$(cat "$W/$tag.bytes.p2")" \
	    "$(div "$(cat "$W/$tag.events")" "$(awk '{ print $1 * 1e6 }' "$W/$tag.p2.t")") M events/s"
	row "sink: span2sqlite" "$W/$tag.sq.t" "$(cat "$W/$tag.bytes.sq")" \
	    "$(div "$(cat "$W/$tag.spans")" "$(awk '{ print $1 * 1e6 }' "$W/$tag.sq.t")") M spans/s"
	row "sink: span2otlp protobuf" "$W/$tag.ot.t" "$(cat "$W/$tag.bytes.ot")" \
	    "$(div "$(cat "$W/$tag.spans")" "$(awk '{ print $1 * 1e6 }' "$W/$tag.ot.t")") M spans/s"
	[ "${BENCH_LARGE_KEEP:-0}" = 1 ] || rm -rf "$d"
}

echo "simspan bench-large, $(date -u '+%Y-%m-%d %H:%M UTC'), $CORES cores," \
    "$(awk '/model name/ { $1 = $2 = $3 = ""; print; exit }' /proc/cpuinfo | sed 's/^ *//')," \
    "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$SMALL" != 0 ]; then
	run "$SMALL" small
	echo
fi
run "$GB" large
echo
if [ "$SMALL" != 0 ]; then
	echo "peak RSS, $SMALL GB run vs $GB GB run (memory must not grow with the input):"
	for s in p1s p2 sq ot; do
		case $s in p1s) n="sim2ev (largest job)" ;; p2) n=evspan ;; sq) n=span2sqlite ;; ot) n=span2otlp ;; esac
		printf '  %-22s %8s MB -> %8s MB (x %s for x %s input)\n' "$n" "$(rss "$W/small.$s.t")" \
		    "$(rss "$W/large.$s.t")" "$(div "$(rss "$W/large.$s.t")" "$(rss "$W/small.$s.t")")" \
		    "$(div "$(cat "$W/large.raw")" "$(cat "$W/small.raw")")"
	done
	echo
fi
# Projection: the measured CPU seconds per raw byte (phase 1, perfectly
# parallel over the simulators' logs) and per event/span (phase 2 and the
# sinks, as measured, not parallelised further) scaled to 1.3 TB.
awk -v raw="$(cat "$W/large.raw")" -v cores=5 \
    -v p1c="$(cpu "$W/large.p1s.t")" -v p2w="$(wall "$W/large.p2.t")" \
    -v sqw="$(wall "$W/large.sq.t")" -v otw="$(wall "$W/large.ot.t")" '
BEGIN {
	tb = 1.3e12; f = tb / raw
	p1 = p1c * f / cores
	printf "projection to 1.3 TB of raw logs (Columbo thesis evaluation) on %d cores, from this run x %.1f:\n", cores, f
	printf "  phase 1: %.0f CPU s per TB -> %.1f min on %d cores (one log per core; online beside the simulation)\n", p1c / raw * 1e12, p1 / 60, cores
	printf "  phase 2: evspan %.1f min; sinks at once on spare cores: span2sqlite %.1f min, span2otlp %.1f min\n", p2w * f / 60, sqw * f / 60, otw * f / 60
	printf "  (events and spans scale with the raw bytes as in this scenario; most raw bytes are Exec\n"
	printf "   lines that phase 1 reads and drops, as in real gem5 logs)\n"
}'
