#!/bin/sh
# End-to-end benchmark: simulator logs -> event streams -> spans -> SQLite
# and OTLP/JSON, the pipeline of make demo, on
#   1. the dumbbell workload of tests/data/samples/BENCH-REFERENCE.md
#      (gen-dumbbell.py, N = 20000, NOISE = 200: 985 MB of logs), for which
#      the tool simspan replaces (Columbo) needs 19.1 s wall from logs to
#      spans on this kind of machine (BENCH-REFERENCE.md);
#   2. a simsynth scenario of >= 2 GB of raw logs (realistic noise mix).
#
# Stages, each with wall time, CPU time, peak RSS and a rate, next to a
# baseline measured in the same run on the same data:
#   phase 1  sim2ev | evfilter per log (as make demo), as many logs at once
#            as there are cores      vs  wc -l of each log, one after the other
#   phase 2  evspan (reader + builder thread)   vs  zstd -d of the streams
#   sinks    span2sqlite (fresh file)  vs  sqlite3 .import of the same rows
#            span2otlp (OTLP/JSON file) vs  cat of its output to a file
# and ends with a projection to the published Columbo evaluation (1.3 TB of
# raw logs from a 2 s netperf run, 5 simulators, 5 cores), every input of it
# printed with its source.
#
# Timing: wall from CLOCK_MONOTONIC, CPU and peak RSS from wait4 (the
# runstat helper); a stage shorter than 1 s runs three times and the
# fastest run counts.
#
#   SSP_BIN, SSP_HELPERS   built tools and helpers (make bench sets them)
#   BENCH_DIR              work directory (default $TMPDIR/simspan-bench)
#   BENCH_QUICK=1          N = 2000 and a 100 MB scenario (checks the script)
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with the built tools}"
SSP_HELPERS=${SSP_HELPERS:-$SSP_BIN/../tests/helpers}
PATH="$SSP_BIN:$SSP_HELPERS:$PATH"
export PATH
LC_ALL=C
export LC_ALL
TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/simspan-bench}/e2e
QUICK=${BENCH_QUICK:-0}
CORES=$(nproc)
RULES="$TOP/rules/linux-i40e.csv"
mkdir -p "$DIR"
if [ "$QUICK" = 1 ]; then N=2000 SIZE=100M REQ=200; else N=20000 SIZE=1G REQ=2000; fi
command -v runstat >/dev/null 2>&1 || {
	echo "bench-e2e: runstat is not built (make bench builds it)" >&2; exit 1; }

W=$(mktemp -d "${TMPDIR:-/tmp}/bench-e2e.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

# --- measuring -------------------------------------------------------------
# bench_summary from the shared harness; stages here run once when they take
# a second or more (measure below), so they keep their own loop.
BW=$W SSP_HELPERS=$SSP_HELPERS
. "$TOP/scripts/bench-lib.sh"
# measure NAME CMD...: $W/NAME.t = "wall user sys rss_kib" of CMD; under
# 1 s wall it runs three times and keeps the fastest.  A command may leave
# per-run details in $W/NAME.side; the fastest run's copy is NAME.side.best.
measure() {
	name=$1; shift
	best=""
	for run in 1 2 3; do
		rm -f "$W/$name.side"
		runstat -o "$W/$name.run" "$@"
		w=$(cut -d' ' -f1 "$W/$name.run")
		if [ -z "$best" ] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$w
			cp "$W/$name.run" "$W/$name.t"
			[ ! -f "$W/$name.side" ] || cp "$W/$name.side" "$W/$name.side.best"
		fi
		awk -v a="$w" 'BEGIN { exit !(a < 1) }' || break
	done
}
f4() { awk -v i="$2" '{ print $i }' "$W/$1.t"; }
wall() { awk '{ printf "%.3f", $1 }' "$W/$1.t"; }
cpu() { awk '{ printf "%.3f", $2 + $3 }' "$W/$1.t"; }
rss() { awk '{ printf "%.1f", $4 / 1024 }' "$W/$1.t"; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
add() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a + b }'; }
mrate() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b / 1e6; else print "n/a" }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
size() { cat "$@" | wc -c; }
kind_of() { case $1 in *.gem5.log) echo gem5 ;; *.nicbm.log) echo nicbm ;; *.ns3.log) echo ns3 ;; esac; }
count_events() { for f in "$@"; do evcat -n "$f"; done | awk '$2 == "total" { s += $1 } END { print s + 0 }'; }
count_spans() { spancat -n "$1" | awk '$2 == "spans" { print $1 }'; }
line() {	# LABEL NAME RATE-TEXT BASELINE-TEXT
	printf '  %-36s %8s s wall %8s s CPU %7s MB RSS  %s  %s\n' "$1" \
	    "$(wall "$2")" "$(cpu "$2")" "$(rss "$2")" "$3" "$4"
}

# --- baselines on the logs -------------------------------------------------
# wc_logs DIR: wc -l of each log, one after the other (the file cache warm:
# each best of three); $W/wc.t sums them, $W/wc.kind has "kind bytes secs".
wc_logs() {
	: >"$W/wc.kind"
	tot=0
	for f in "$1"/*.log; do
		measure wc1 sh -c 'wc -l "$0" >/dev/null' "$f"
		tot=$(add "$tot" "$(wall wc1)")
		echo "$(kind_of "$f") $(size "$f") $(wall wc1)" >>"$W/wc.kind"
	done
	echo "$tot $tot 0 0" >"$W/wc.t"
}

# --- phase 1 -----------------------------------------------------------------
# phase1 JOBFILE: one "LOGDIR LOG sim2ev ... | evfilter ..." per line, CORES
# jobs at once (xargs -P), each under runstat into job<i>.t; job<i>.log names
# its log.
phase1() {
	rm -f "$W"/job*
	i=0
	while read -r d log cmd; do
		i=$((i + 1))
		echo "$d/$log" >"$W/job$i.log"
		printf 'cd %s && exec runstat -o %s sh -c %s\n' "$d" "$W/job$i.t" \
		    "'$cmd'" >"$W/job$i.sh"
	done <"$1"
	measure phase1 sh -c "ls $W/job*.sh | xargs -P $CORES -n 1 sh && cat $W/job*.t >$W/phase1.side"
	cp "$W/phase1.side.best" "$W/jobs.t"
	# per kind: bytes, CPU seconds of its jobs, biggest log
	i=0
	: >"$W/kinds"
	for l in "$W"/job*.log; do
		f=$(cat "$l")
		echo "$(kind_of "$f") $(size "$f") $(awk '{ print $2 + $3 }' "${l%.log}.t")" >>"$W/kinds"
	done
}

# report_phase1 LOGBYTES EVENTS-IN EVENTS-KEPT EVBYTES
report_phase1() {
	pw=$(wall phase1)
	pc=$(awk '{ c += $2 + $3 } END { printf "%.3f", c }' "$W/jobs.t")
	pr=$(awk '$4 > m { m = $4 } END { printf "%.1f", m / 1024 }' "$W/jobs.t")
	echo "$pw $pc 0 $(awk '$4 > m { m = $4 } END { print m }' "$W/jobs.t")" >"$W/p1.t"
	line "phase 1: sim2ev | evfilter x $(wc -l <"$W/jobs.t") ($CORES at once)" p1 \
	    "$(div "$(mb "$1")" "$pw") MB/s, $(mrate "$2" "$pw") M events/s" ""
	echo "    vs wc -l of each log, one after the other ($(wall wc) s, $(div "$(mb "$1")" "$(wall wc)") MB/s):" \
	    "wall $(div "$pw" "$(wall wc)") x (phase 1 on $CORES cores), per core $(div "$pc" "$(wall wc)") x (CPU seconds)"
	awk 'FNR == NR { wb[$1] += $2; ws[$1] += $3; next }
	    { b[$1] += $2; c[$1] += $3; n[$1]++ }
	    END { for (k in b) printf "    %-6s %d log(s) %9.1f MB: sim2ev | evfilter %7.1f MB/s per core (%.3f s CPU), wc -l %7.1f MB/s: %.2f x\n",
	        k, n[k], b[k] / 1e6, (c[k] > 0 ? b[k] / c[k] / 1e6 : 0), c[k],
	        (ws[k] > 0 ? wb[k] / ws[k] / 1e6 : 0), (ws[k] > 0 && b[k] > 0 ? (c[k] / b[k]) / (ws[k] / wb[k]) : 0) }' \
	    "$W/wc.kind" "$W/kinds" | sort
	bench_summary "e2e-$PFX-phase1" "$(div "$(mb "$1")" "$pw")" MB/s "$pc" "$(wall wc)" wc-l
	echo "    events: $2 from sim2ev, $3 kept by evfilter (sync noise and blacklisted functions dropped)"
	echo "    bytes on disk: raw logs $(mb "$1") MB -> event streams $(mb "$4") MB (.ev.zst)," \
	    "$(div "$1" "$4") : 1, $(div "$4" "$3") bytes/event"
}

# --- phase 2 and the sinks ---------------------------------------------------
# sqlite_baseline DB: the sqlite3 CLI importing the rows span2sqlite wrote
# (spans and attr_* tables as CSV, same pragmas) and building its spans
# indexes: the cost of the database itself.
sqlite_baseline() {
	rm -f "$W"/b.* "$W"/*.csv
	tables="spans $(sqlite3 "$1" "SELECT group_concat(name, ' ') FROM sqlite_schema WHERE type = 'table' AND name LIKE 'attr_%'")"
	for tb in $tables; do
		cols=$(sqlite3 "$1" "SELECT group_concat(name, ', ') FROM pragma_table_info('$tb')")
		sqlite3 -batch -csv "$1" "SELECT $cols FROM $tb" >"$W/$tb.csv"
		sqlite3 "$1" "SELECT 'CREATE TABLE $tb (' || group_concat(name || ' ' || type ||
		    CASE WHEN pk THEN ' PRIMARY KEY' ELSE '' END, ', ') || ');'
		    FROM pragma_table_info('$tb')" >>"$W/b.sql"
	done
	{
		echo "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
		echo "PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536;"
		echo ".read $W/b.sql"
		echo "BEGIN;"
		for tb in $tables; do echo ".import --csv $W/$tb.csv $tb"; done
		sqlite3 "$1" "SELECT sql || ';' FROM sqlite_schema WHERE type = 'index' AND name LIKE 'spans_%' AND sql IS NOT NULL"
		echo "COMMIT;"
	} >"$W/b.cmd"
	measure sqlite_import sh -c "rm -f $W/b.db && sqlite3 -batch $W/b.db <$W/b.cmd >/dev/null"
	brows=$(cat "$W"/*.csv | wc -l)
}

# phase2 DIR TOPOLOGY RULES EVENTS
phase2() {
	measure zstd_d sh -c "cd $1 && for f in *.ev.zst; do zstd -dcq \"\$f\"; done >/dev/null"
	measure evspan sh -c "cd $1 && evspan -t $2 -r $3 -o spans.sp"
	spans=$(count_spans "$1/spans.sp")
	measure span2sqlite sh -c "rm -f $1/spans.db && span2sqlite $1/spans.db $1/spans.sp"
	measure span2otlp span2otlp -o "$1/otlp.jsonl" "$1/spans.sp"
	sqlite_baseline "$1/spans.db"
	measure cat_otlp sh -c "cat $1/otlp.jsonl >$W/otlp.copy"
	line "phase 2: evspan" evspan \
	    "$(mrate "$4" "$(wall evspan)") M events/s, $(mrate "$spans" "$(wall evspan)") M spans/s" \
	    "vs zstd -d of the streams ($(wall zstd_d) s): $(div "$(wall evspan)" "$(wall zstd_d)") x"
	line "sink: span2sqlite (fresh file)" span2sqlite "$(mrate "$spans" "$(wall span2sqlite)") M spans/s" \
	    "vs sqlite3 .import of the same $brows rows + indexes ($(wall sqlite_import) s): $(div "$(wall span2sqlite)" "$(wall sqlite_import)") x"
	line "sink: span2otlp (OTLP/JSON file)" span2otlp "$(mrate "$spans" "$(wall span2otlp)") M spans/s" \
	    "vs cat of its $(mb "$(size "$1/otlp.jsonl")") MB output to a file ($(wall cat_otlp) s): $(div "$(wall span2otlp)" "$(wall cat_otlp)") x"
	bench_summary "e2e-$PFX-evspan" "$(mrate "$4" "$(wall evspan)")" Mev/s \
	    "$(wall evspan)" "$(wall zstd_d)" zstd-d
	bench_summary "e2e-$PFX-sqlite" "$(mrate "$spans" "$(wall span2sqlite)")" Mspans/s \
	    "$(wall span2sqlite)" "$(wall sqlite_import)" sqlite3-import
	bench_summary "e2e-$PFX-otlp" "$(mrate "$spans" "$(wall span2otlp)")" Mspans/s \
	    "$(wall span2otlp)" "$(wall cat_otlp)" cat
	echo "    spans: $spans; export time / evspan time: span2sqlite $(div "$(wall span2sqlite)" "$(wall evspan)")," \
	    "span2otlp $(div "$(wall span2otlp)" "$(wall evspan)")"
}

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
ef="evfilter --no-noise -b $RULES --stats"
cat >"$W/dumbbell.jobs" <<EOF
$D client.gem5.log sim2ev -f gem5 -n client -s vmlinux.syms --stats client.gem5.log 2>client.sim2ev.txt | $ef -o client.ev.zst 2>client.evfilter.txt
$D server.gem5.log sim2ev -f gem5 -n server -s vmlinux.syms --stats server.gem5.log 2>server.sim2ev.txt | $ef -o server.ev.zst 2>server.evfilter.txt
$D client-nic.nicbm.log sim2ev -f nicbm -n client-nic --stats client-nic.nicbm.log 2>client-nic.sim2ev.txt | $ef -o client-nic.ev.zst 2>client-nic.evfilter.txt
$D server-nic.nicbm.log sim2ev -f nicbm -n server-nic --stats server-nic.nicbm.log 2>server-nic.sim2ev.txt | $ef -o server-nic.ev.zst 2>server-nic.evfilter.txt
$D net.ns3.log sim2ev -f ns3 -n net --stats net.ns3.log 2>net.sim2ev.txt | $ef -o net.ev.zst 2>net.evfilter.txt
EOF
# "evfilter: stdin: N events in, N kept, N dropped"
events_in() { cat "$1"/*.evfilter.txt | awk '/ events in, / { s += $(NF - 6) } END { print s + 0 }'; }

PFX=dumbbell
logbytes=$(size "$D"/*.log)
echo "dumbbell N=$N NOISE=200: $(mb "$logbytes") MB of logs in $D"
wc_logs "$D"
phase1 "$W/dumbbell.jobs"
events=$(count_events "$D"/*.ev.zst)
report_phase1 "$logbytes" "$(events_in "$D")" "$events" "$(size "$D"/*.ev.zst)"
phase2 "$D" topology.csv "$RULES" "$events"
want=$((18 * N + 2))
[ "$spans" = "$want" ] && check="as expected" || check="EXPECTED $want"
l2s=$(add "$(wall phase1)" "$(wall evspan)")
col=$(awk -v n="$N" 'BEGIN { printf "%.2f", 19.1 * n / 20000 }')
[ "$N" = 20000 ] && cnote="" || cnote=" (19.1 s for N = 20000, scaled linearly to N = $N)"
echo "  logs -> spans (phase 1 + evspan): $l2s s wall ($spans spans, $check);" \
    "Columbo: $col s wall$cnote, BENCH-REFERENCE.md: $(div "$col" "$l2s") x faster"

# --- 2. a simsynth scenario of >= 2 GB ----------------------------------------
S="$DIR/simsynth-$SIZE"
if [ ! -f "$S/.done" ]; then
	rm -rf "$S"
	simsynth --gem5-size "$SIZE" -n "$REQ" "$S" >/dev/null
	touch "$S/.done"
fi
# commands.sh: "sim2ev ... -o NAME.ev.zst LOG"; run it as sim2ev | evfilter
grep '^sim2ev ' "$S/commands.sh" |
    sed -e 's/^\(.*\) -o \([^ ]*\)\.ev\.zst \([^ ]*\)$/\3 \1 --stats \3 2>\2.sim2ev.txt | EF -o \2.ev.zst 2>\2.evfilter.txt/' \
    -e "s|EF|evfilter --no-noise -b rules.csv --stats|" -e "s|^|$S |" >"$W/synth.jobs"
PFX=synth
logbytes=$(size "$S"/*.log)
echo
echo "simsynth --gem5-size $SIZE -n $REQ: $(mb "$logbytes") MB of logs in $S"
wc_logs "$S"
phase1 "$W/synth.jobs"
cp "$W/kinds" "$W/synth.kinds"
events=$(count_events "$S"/*.ev.zst)
report_phase1 "$logbytes" "$(events_in "$S")" "$events" "$(size "$S"/*.ev.zst)"
phase2 "$S" topology.csv rules.csv "$events"

# --- 3. projection to the Columbo evaluation ----------------------------------
# Text bytes per event of our own dump (evcat), on the first events of each
# stream, weighted by the stream's events.
for f in "$S"/*.ev.zst; do
	n=$(count_events "$f")
	evcat "$f" | head -n 200000 | wc -lc | awk -v n="$n" '{ print n, $2 / ($1 > 0 ? $1 : 1) }'
done >"$W/bpe"
bpe=$(awk '{ e += $1; b += $1 * $2 } END { printf "%.1f", (e > 0 ? b / e : 0) }' "$W/bpe")
echo
awk -v ev="$events" -v raw="$logbytes" -v evw="$(wall evspan)" -v spans="$spans" \
    -v sq="$(wall span2sqlite)" -v ot="$(wall span2otlp)" -v bpe="$bpe" -v cores="$CORES" '
FILENAME == ARGV[1] { b[$1] += $2; c[$1] += $3; n[$1]++; next }
END {
	tb = 1.3e12			# SPEC: raw logs of one 2 s netperf run
	text = 18e9			# SPEC: its filtered event streams as text
	nsim["gem5"] = 2; nsim["nicbm"] = 2; nsim["ns3"] = 1
	printf "projection to the Columbo evaluation: 1.3 TB of raw logs from a 2 s netperf run,\n"
	printf "5 simulators (assumed 2 gem5, 2 nicbm, 1 ns-3), 5 cores; sources and assumptions:\n"
	printf "  [SPEC] 1.3 TB of raw logs, 18 GB of filtered event streams as text; [issue 4] Columbo\n"
	printf "  needed 6.1 hours from pre-processed events, 27 minutes without its OTLP exporter;\n"
	printf "  [measured] rates of this run, simsynth scenario above (%.1f MB of logs)\n", raw / 1e6
	printf "  phase 1, one log per core (sim2ev | evfilter; the 1.3 TB split by kind as in the scenario):\n"
	p1 = 0
	for (k in b) {
		share = b[k] / raw
		rate = c[k] > 0 ? b[k] / c[k] : 0	# raw bytes per CPU second
		per = tb * share / nsim[k]		# bytes of one log of kind k
		t = rate > 0 ? per / rate : 0
		if (t > p1) { p1 = t; slow = k }
		printf "    %-5s %4.1f %% of the bytes -> %d log(s) of %7.1f GB at %6.1f MB/s per core [measured] -> %6.1f min\n",
		    k, 100 * share, nsim[k], per / 1e9, rate / 1e6, t / 60
	}
	printf "    phase 1 wall: %.1f min (the %s logs; runs online beside the simulation, so after it ends\n", p1 / 60, slow
	printf "    only the last buffered lines remain; this is the time if run offline afterwards)\n"
	events = text / bpe
	alt = ev / raw * tb
	r2 = ev / evw
	p2 = events / r2
	sp = events * spans / ev
	s1 = sp / (spans / sq); s2 = sp / (spans / ot)
	printf "  phase 2: 18 GB of text / %.1f bytes per event of our text dump (evcat) [assumption: the Columbo\n", bpe
	printf "    text events are as long as ours] = %.3g events (%.3g from the events per raw byte of the scenario)\n", events, alt
	printf "    evspan, reader + builder thread (at most 2 of the 5 cores): %.2f M events/s [measured] -> %.1f min\n", r2 / 1e6, p2 / 60
	printf "    sinks, %.3g spans (spans per event as in the scenario), both reading spans.sp at once on spare cores:\n", sp
	printf "      span2sqlite %.1f min, span2otlp (OTLP/JSON file) %.1f min [rates measured]\n", s1 / 60, s2 / 60
	tot = p2 + (s1 > s2 ? s1 : s2)
	printf "  after the simulation: phase 2 + sinks %.1f min (Columbo [issue 4]: 6.1 h = 366 min, %.0f x);\n", tot / 60, (tot > 0 ? 366 * 60 / tot : 0)
	printf "    phase 2 alone %.1f min (Columbo without its exporter [issue 4]: 27 min, %.0f x)\n", p2 / 60, (p2 > 0 ? 27 * 60 / p2 : 0)
	if (cores < 5)
		printf "  (measured on %d cores; the per-core rates assume each pipeline gets a core of its own)\n", cores
}' "$W/synth.kinds"
