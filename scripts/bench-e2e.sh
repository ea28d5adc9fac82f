#!/bin/sh
# End-to-end benchmark: simulator logs -> event streams -> spans -> SQLite
# and OTLP/JSON, on
#   1. the dumbbell workload of tests/data/samples/BENCH-REFERENCE.md
#      (gen-dumbbell.py, N = 20000, NOISE = 200: 985 MB of logs), for which
#      the tool simspan replaces (Columbo) needs 19.1 s wall from logs to
#      spans on this kind of machine;
#   2. a simsynth scenario of >= 2 GB of raw logs (realistic noise mix).
# Phase 1 runs one sim2ev per log, as many at once as there are cores.
# Every stage prints wall time, CPU time, peak RSS and throughput, and is
# compared with wc -l (logs) or zstd -d (event streams) of the same data,
# measured in the same run.  Ends with a projection to the published Columbo
# evaluation (1.3 TB of raw logs, 5 simulators, 5 cores).
#
#   SSP_BIN, SSP_HELPERS   built tools (make bench sets them)
#   BENCH_DIR              work directory (default $TMPDIR/simspan-bench)
#   BENCH_QUICK=1          N = 2000 and a 200 MB scenario (checks the script)
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with the built tools}"
PATH="$SSP_BIN:$PATH"
export PATH
TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/simspan-bench}/e2e
QUICK=${BENCH_QUICK:-0}
CORES=$(nproc)
mkdir -p "$DIR"
if [ "$QUICK" = 1 ]; then N=2000 SIZE=100M REQ=200; else N=20000 SIZE=1G REQ=2000; fi

# t NAME CMD...: run CMD under GNU time; NAME.t gets "wall user sys maxrss_kb"
t() {
	name=$1; shift
	/usr/bin/time -f '%e %U %S %M' -o "$W/$name.t" "$@"
}
wall() { awk '{ print $1 }' "$W/$1.t"; }
cpu() { awk '{ printf "%.2f", $2 + $3 }' "$W/$1.t"; }
rss() { awk '{ printf "%.1f", $4 / 1024 }' "$W/$1.t"; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mrate() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b / 1e6; else print "-" }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
size() { cat "$@" | wc -c; }

# phase1 JOBFILE: one "cd DIR && sim2ev ... LOG" command per line, run CORES
# at a time, each under GNU time into $W/job<i>.t (per-job CPU and RSS);
# $W/job<i>.log names the log it read (the last word of the line).
phase1() {
	rm -f "$W"/job*
	i=0
	while IFS= read -r cmd; do
		i=$((i + 1))
		echo "${cmd##* }" >"$W/job$i.log"
		printf '%s\n' "$cmd" | sed "s|&& sim2ev |\&\& exec /usr/bin/time -f '%e %U %S %M' -o $W/job$i.t sim2ev |" \
		    >"$W/job$i.sh"
	done <"$1"
	t phase1 sh -c "ls $W/job*.sh | xargs -P $CORES -n 1 sh"
	cat "$W"/job*.t >"$W/jobs.t"
}

report_phase1() {	# LOGBYTES EVENTS EVBYTES WCWALL
	pw=$(wall phase1)
	pc=$(awk '{ c += $2 + $3 } END { printf "%.2f", c }' "$W/jobs.t")
	pr=$(awk '$4 > m { m = $4 } END { printf "%.1f", m / 1024 }' "$W/jobs.t")
	printf '  %-34s %8s s wall %8s s CPU %7s MB RSS  %8s MB/s  %6s M events/s  %s x wc -l\n' \
	    "phase 1: sim2ev x $(wc -l <"$W/jobs.t") ($CORES at once)" "$pw" "$pc" "$pr" \
	    "$(div "$(mb "$1")" "$pw")" "$(mrate "$2" "$pw")" "$(div "$pw" "$4")"
	echo "  bytes on disk: raw logs $(mb "$1") MB -> event streams $(mb "$3") MB (.ev.zst)," \
	    "$(div "$1" "$3") : 1, $(div "$3" "$2") bytes/event"
}

report_stage() {	# NAME LABEL ITEMS ITEMNAME BASELINE-NAME
	printf '  %-34s %8s s wall %8s s CPU %7s MB RSS  %8s M %s/s  %s x %s\n' "$2" \
	    "$(wall "$1")" "$(cpu "$1")" "$(rss "$1")" \
	    "$(mrate "$3" "$(wall "$1")")" "$4" \
	    "$(div "$(wall "$1")" "$(wall "$5")")" "$5"
}

count_events() { for f in "$@"; do evcat -n "$f"; done | awk '$2 == "total" { s += $1 } END { print s }'; }
count_spans() { spancat -n "$1" | awk '$2 == "spans" { print $1 }'; }

# phase2 DIR TOPOLOGY RULES: evspan, then the two sinks
phase2() {
	(cd "$1" && t zstd_d sh -c 'for f in *.ev.zst; do zstd -dcq "$f"; done >/dev/null')
	(cd "$1" && t evspan evspan -t "$2" -r "$3" -o spans.sp)
	spans=$(count_spans "$1/spans.sp")
	rm -f "$1/spans.db"
	t span2sqlite span2sqlite "$1/spans.db" "$1/spans.sp"
	t span2otlp span2otlp -o "$1/otlp.jsonl" "$1/spans.sp"
	report_stage evspan "phase 2: evspan" "$events" events zstd_d
	echo "  spans: $spans ($(mrate "$spans" "$(wall evspan)") M spans/s out of evspan)"
	report_stage span2sqlite "sink: span2sqlite (fresh file)" "$spans" spans evspan
	report_stage span2otlp "sink: span2otlp (OTLP/JSON file)" "$spans" spans evspan
}

W=$(mktemp -d "${TMPDIR:-/tmp}/bench-e2e.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

# --- 1. the dumbbell of BENCH-REFERENCE.md -----------------------------------
D="$DIR/dumbbell-$N"
if [ ! -f "$D/.done" ]; then
	rm -rf "$D"
	python3 "$TOP/scripts/gen-dumbbell.py" "$D" "$N" 200
	touch "$D/.done"
fi
cat >"$D/topology.csv" <<EOF
stream,client,host,client.ev.zst
stream,client-nic,nic,client-nic.ev.zst
stream,net,net,net.ev.zst
stream,server-nic,nic,server-nic.ev.zst
stream,server,host,server.ev.zst
pcie,client,client-nic
pcie,server,server-nic
eth,client-nic,net,1,2
eth,server-nic,net,0,2
EOF
cat >"$W/dumbbell.jobs" <<EOF
cd $D && sim2ev -f gem5 -n client -s vmlinux.syms -o client.ev.zst client.gem5.log
cd $D && sim2ev -f gem5 -n server -s vmlinux.syms -o server.ev.zst server.gem5.log
cd $D && sim2ev -f nicbm -n client-nic -o client-nic.ev.zst client-nic.nicbm.log
cd $D && sim2ev -f nicbm -n server-nic -o server-nic.ev.zst server-nic.nicbm.log
cd $D && sim2ev -f ns3 -n net -o net.ev.zst net.ns3.log
EOF
logbytes=$(size "$D"/*.log)
echo "dumbbell N=$N NOISE=200: $(mb "$logbytes") MB of logs in $D"
t wc sh -c "wc -l $D/*.log >/dev/null"
echo "  baseline: wc -l of all logs: $(wall wc) s"
phase1 "$W/dumbbell.jobs"
events=$(count_events "$D"/*.ev.zst)
report_phase1 "$logbytes" "$events" "$(size "$D"/*.ev.zst)" "$(wall wc)"
phase2 "$D" topology.csv "$TOP/rules/linux-i40e.csv"
want=$((18 * N + 2))
[ "$spans" = "$want" ] && check="as expected" || check="EXPECTED $want"
l2s=$(awk -v a="$(wall phase1)" -v b="$(wall evspan)" 'BEGIN { printf "%.2f", a + b }')
echo "  logs -> spans: $l2s s wall ($spans spans, $check); Columbo: 19.1 s wall," \
    "$(div 19.1 "$l2s") x faster"

# --- 2. a simsynth scenario of >= 2 GB ----------------------------------------
S="$DIR/simsynth-$SIZE"
if [ ! -f "$S/.done" ]; then
	rm -rf "$S"
	simsynth --gem5-size "$SIZE" -n "$REQ" "$S" >/dev/null
	touch "$S/.done"
fi
grep '^sim2ev ' "$S/commands.sh" | sed "s|^|cd $S \&\& |" >"$W/synth.jobs"
logbytes=$(size "$S"/*.log)
echo
echo "simsynth --gem5-size $SIZE -n $REQ: $(mb "$logbytes") MB of logs in $S"
t wc sh -c "wc -l $S/*.log >/dev/null"
echo "  baseline: wc -l of all logs: $(wall wc) s"
phase1 "$W/synth.jobs"
events=$(count_events "$S"/*.ev.zst)
report_phase1 "$logbytes" "$events" "$(size "$S"/*.ev.zst)" "$(wall wc)"
phase2 "$S" topology.csv rules.csv
synth_raw=$logbytes synth_events=$events

# --- 3. projection to the Columbo evaluation ----------------------------------
# 1.3 TB of raw logs from a 2 s netperf run, 5 simulators, 5 cores.  Phase 1
# gives each log its own core; the largest log (a gem5 host: assume half of
# the bytes) bounds it.  Phase 2 handles the events the simsynth scenario has
# per raw byte, at the evspan rate measured above, on one core.
# the largest log of the scenario: its bytes and the CPU seconds sim2ev took
big=$(for f in "$W"/job*.log; do
	echo "$(stat -c %s "$S/$(cat "$f")") ${f%.log}.t"; done | sort -n | tail -1)
gem5_bytes=${big%% *}
gem5_rate=$(awk '{ print $2 + $3 }' "${big#* }")
echo
awk -v gr="$gem5_rate" -v gb="$gem5_bytes" -v raw="$synth_raw" -v ev="$synth_events" \
    -v evw="$(wall evspan)" 'BEGIN {
	tb = 1.3e12
	rate = gb / gr				# bytes per CPU second, one gem5 log
	p1 = (tb / 2) / rate
	events = ev / raw * tb
	p2 = events / (ev / evw)
	printf "projection to 1.3 TB of raw logs, 5 simulators on 5 cores:\n"
	printf "  phase 1: largest log ~650 GB at %.0f MB/s per core -> %.0f min (runs online, beside the simulation)\n", rate / 1048576, p1 / 60
	printf "  phase 2: ~%.2g events (%.3g per raw byte, as in the scenario) at %.1f M events/s -> %.0f min\n", events, ev / raw, ev / evw / 1e6, p2 / 60
	printf "  total offline after the simulation: %.0f min (Columbo: 6.1 hours)\n", p2 / 60
}'
