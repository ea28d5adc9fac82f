#!/bin/sh
# make bench: every benchmark of simspan, each printing its figures next to
# a simple baseline measured in the same run (wc -l, zstd -d, cat, ...).
# Not a test: it generates several GB of input and takes a while.
#
#   SSP_BIN, SSP_HELPERS  set by make bench
#   BENCH_DIR    where inputs and outputs go (default $TMPDIR/simspan-bench)
#   BENCH_ONLY   space-separated subset of: startup sim2ev switch evfilter evspan
#                sqlite otlp perfetto html memory e2e   (default: all)
#   BENCH_QUICK=1  small inputs, to check that the scripts work
#   BENCH_METRIC=cpu  the summary's ratios from CPU time (user + sys) rather
#                than wall time: steadier on a shared machine (bench-lib.sh;
#                sim2ev's ratios are always CPU time, start-up's and e2e's
#                always wall time)
#   BENCH_SUMMARY  file that receives the summary (default
#                $BENCH_DIR/summary-<UTC time>.txt)
#
# Every benchmark prints, besides its table, one machine-readable line per
# stage (scripts/bench-lib.sh):
#   bench: STAGE VALUE UNIT RATIO BASELINE
# RATIO is the stage's time over its baseline's time in the same run.  The
# run ends with all of them; scripts/bench-compare BEFORE AFTER flags every
# stage whose ratio grew by more than 10 %.
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with the built tools}"
export SSP_BIN
export SSP_HELPERS="${SSP_HELPERS:-$SSP_BIN/../tests/helpers}"
TOP=$(cd "$(dirname "$0")/.." && pwd)
export BENCH_DIR="${BENCH_DIR:-${TMPDIR:-/tmp}/simspan-bench}"
export BENCH_METRIC="${BENCH_METRIC:-wall}"
ONLY=${BENCH_ONLY:-"startup sim2ev switch evfilter evspan sqlite otlp perfetto html memory e2e"}
QUICK=${BENCH_QUICK:-0}
mkdir -p "$BENCH_DIR"
export BENCH_SUMMARY="${BENCH_SUMMARY:-$BENCH_DIR/summary-$(date -u +%Y%m%dT%H%M%SZ).txt}"
: >"$BENCH_SUMMARY"

for need in python3 zstd sqlite3 /usr/bin/time; do
	command -v "$need" >/dev/null 2>&1 || {
		echo "bench: $need is missing (apt-get install python3 zstd sqlite3 time)" >&2
		exit 1
	}
done

{
echo "# simspan benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
    "load $(cut -d' ' -f1-3 /proc/loadavg), metric $BENCH_METRIC, git $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?')"
} >>"$BENCH_SUMMARY"
echo "simspan benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
    "$(awk '/model name/ { $1 = $2 = $3 = ""; print; exit }' /proc/cpuinfo | sed 's/^ *//')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

section() { printf '\n==== %s ====\n' "$1"; }
want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }

if want startup; then
	section "start-up against /bin/true"
	if [ "$QUICK" = 1 ]; then COUNT=20 REPS=1 sh "$TOP/scripts/bench-startup.sh"
	else sh "$TOP/scripts/bench-startup.sh"; fi
fi
if want sim2ev; then
	section "phase 1: sim2ev against wc -l"
	if [ "$QUICK" = 1 ]; then BENCH_GB=0.05 BENCH_RUNS=1 BENCH_DUMBBELL=0 \
	    sh "$TOP/scripts/bench-sim2ev.sh"; else sh "$TOP/scripts/bench-sim2ev.sh"; fi
fi
if want switch; then
	section "sim2ev -f switch (net_switch parser) against wc -l"
	if [ "$QUICK" = 1 ]; then BENCH_SWITCH_GB=0.05 BENCH_RUNS=1 sh "$TOP/scripts/bench-switch.sh"
	else sh "$TOP/scripts/bench-switch.sh"; fi
fi
if want evfilter && [ -f "$TOP/scripts/bench-evfilter.sh" ]; then
	section "evfilter and evcat against cat and zstd -d"
	if [ "$QUICK" = 1 ]; then BENCH_EVENTS=1000000 BENCH_REPEAT=1 sh "$TOP/scripts/bench-evfilter.sh"
	else sh "$TOP/scripts/bench-evfilter.sh"; fi
fi
if want evspan; then
	section "phase 2: evspan"
	if [ "$QUICK" = 1 ]; then REPEAT=1 sh "$TOP/scripts/bench-evspan.sh" 20000
	else sh "$TOP/scripts/bench-evspan.sh"; fi
fi
if want sqlite; then
	section "span2sqlite against sqlite3 .import"
	if [ "$QUICK" = 1 ]; then N=5000 REPEAT=1 APPEND_SMALL=200 APPEND_LARGE=20000 \
	    sh "$TOP/scripts/bench-span2sqlite.sh"
	else sh "$TOP/scripts/bench-span2sqlite.sh"; fi
fi
if want otlp; then
	section "span2otlp"
	if [ "$QUICK" = 1 ]; then REPS=1 sh "$TOP/scripts/bench-span2otlp.sh" 5000
	else sh "$TOP/scripts/bench-span2otlp.sh"; fi
fi
if want perfetto; then
	section "span2perfetto"
	if [ "$QUICK" = 1 ]; then REPS=1 sh "$TOP/scripts/bench-span2perfetto.sh" 5000
	else sh "$TOP/scripts/bench-span2perfetto.sh"; fi
fi
if want html; then
	section "span2html against spancat -n"
	if [ "$QUICK" = 1 ]; then REPS=1 sh "$TOP/scripts/bench-span2html.sh" 5000
	else sh "$TOP/scripts/bench-span2html.sh"; fi
fi
if want memory; then
	section "peak memory of every tool at two sizes 4x apart"
	if [ "$QUICK" = 1 ]; then LOG=1 REQ=20 sh "$TOP/scripts/bench-memory.sh" 500
	else sh "$TOP/scripts/bench-memory.sh"; fi
fi
if want e2e; then
	section "end to end: logs -> spans -> SQLite and OTLP"
	sh "$TOP/scripts/bench-e2e.sh"
fi

section "summary (bench: STAGE VALUE UNIT RATIO-TO-BASELINE BASELINE)"
cat "$BENCH_SUMMARY"
echo "saved in $BENCH_SUMMARY; compare two runs: scripts/bench-compare BEFORE AFTER"
