#!/bin/sh
# make demo: the whole simspan pipeline on the bundled SimBricks sample
# (samples/dumbbell), then a short human summary.
#   phase 1: sim2ev per log (two at a time) | evfilter  -> *.ev.zst
#   phase 2: evspan -> spans.sp -> span2sqlite (spans.db), span2otlp (otlp.jsonl)
# SSP_BIN names the built tools; OUT (default demo-out) the output directory.
set -eu
LC_ALL=C
export LC_ALL
: "${SSP_BIN:?SSP_BIN must name the directory with the built tools}"
PATH="$SSP_BIN:$PATH"
export PATH
TOP=$(cd "$(dirname "$0")/.." && pwd)
S="$TOP/samples/dumbbell"
OUT=${OUT:-demo-out}
SHOW=$OUT	# as the user named it, for messages
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
kib() { du -k "$@" | awk '{ s += $1 } END { printf "%.1f MB", s / 1024 }'; }
raw_mb() { for f in "$@"; do zstd -dc "$f"; done | wc -c | awk '{ printf "%.1f MB", $1 / 1048576 }'; }

echo "simspan demo: samples/dumbbell"
echo "  2 gem5 hosts, 2 i40e NICs (nicbm), 1 ns-3 dumbbell; 100 request/response pairs"
echo

# --- phase 1: one sim2ev | evfilter pipeline per log, two at a time ---------
# sim2ev runs in the sample directory on relative names: the stream headers
# record the log and symbol table paths (source:, symtabs:), and evspan's
# trace ids hash the headers, so absolute paths would make the ids depend
# on where the checkout is (evfilter records its blacklist file too).
syms="-s vmlinux.syms -s i40e.syms,i40e,0xffffffffa0000000"
t0=$(now)
cat >"$OUT/phase1.jobs" <<EOF
gem5 server0 server0.gem5.log.zst
gem5 client0 client0.gem5.log.zst
nicbm server0-nic server0-nic.nicbm.log.zst
nicbm client0-nic client0-nic.nicbm.log.zst
ns3 net net.ns3.log.zst
EOF
export OUT S SHOW syms
# shellcheck disable=SC2016
xargs -P 2 -L 1 sh -c '
	set -e
	fmt=$0 name=$1 log=$2
	[ "$fmt" = gem5 ] && s=$syms || s=
	cd "$S"
	sim2ev -f "$fmt" -n "$name" $s --stats "$log" 2>"$OUT/$name.sim2ev.txt" |
	    evfilter --no-noise -b rules.csv --stats -o "$OUT/$name.ev.zst" \
	    2>"$OUT/$name.evfilter.txt"
' <"$OUT/phase1.jobs"
t1=$(now)
events=$(for f in "$OUT"/*.ev.zst; do evcat -n "$f" | awk '$2 == "total" { print $1 }'; done |
    awk '{ s += $1 } END { print s }')
logs_mb=$(raw_mb "$S"/*.log.zst)
echo "phase 1  sim2ev | evfilter, 5 logs ($logs_mb) -> 5 event streams" \
    "($(kib "$OUT"/*.ev.zst) .ev.zst), $events events kept, $(secs "$t0" "$t1") s"
# "sim2ev: LOG: N lines = N events + N skipped"
awk '/ lines = .* events \+ .* skipped$/ {
	for (i = 1; i <= NF; i++) {
		if ($i == "lines") l += $(i - 1)
		if ($i == "events") e += $(i - 1)
		if ($i == "skipped") s += $(i - 1)
	} }
    END { printf "         sim2ev: %d lines -> %d events + %d lines skipped by reason (%s/*.sim2ev.txt)\n", l, e, s, ENVIRON["SHOW"] }' \
    "$OUT"/*.sim2ev.txt
# "evfilter: stdin: N events in, N kept, N dropped"
awk '/ events in, .* kept, .* dropped$/ {
	for (i = 1; i <= NF; i++) {
		if ($i == "events") n += $(i - 1)
		if ($i == "kept,") k += $(i - 1)
		if ($i == "dropped") d += $(i - 1)
	} }
    END { printf "         evfilter: %d events in, %d kept, %d dropped (sync noise, blacklisted functions)\n", n, k, d }' \
    "$OUT"/*.evfilter.txt

# --- phase 2: spans ----------------------------------------------------------
sed "s|\"\\([a-z0-9-]*\\).ev.zst\"|\"$OUT/\\1.ev.zst\"|" "$S/topology.csv" >"$OUT/topology.csv"
t0=$(now)
evspan -t "$OUT/topology.csv" -r "$S/rules.csv" --events --stats \
    -o "$OUT/spans.sp" 2>"$OUT/evspan.txt"
t1=$(now)
nspans=$(spancat -n "$OUT/spans.sp" | awk '$2 == "spans" { print $1 }')
echo "phase 2  evspan: $nspans spans, $(grep '^traces:' "$OUT/evspan.txt" | sed 's/^traces: //'), $(secs "$t0" "$t1") s"
t0=$(now)
span2sqlite --run demo "$OUT/spans.db" "$OUT/spans.sp"
t1=$(now)
span2otlp --events -o "$OUT/otlp.jsonl" "$OUT/spans.sp"
t2=$(now)
echo "sinks    span2sqlite $(secs "$t0" "$t1") s, span2otlp (OTLP/JSON) $(secs "$t1" "$t2") s"
(cd "$OUT" && span2html -o spans.html spans.sp)	# the page names spans.sp

# --- how good: score against the generator's ground truth ---------------------
spancat --csv "$OUT/spans.sp" >"$OUT/spans.csv"
if sh "$TOP/tests/score-truth.sh" -r -t "$OUT/topology.csv" "$S/truth.csv.zst" "$OUT/spans.csv" \
    >"$OUT/score.txt" 2>&1; then verdict="all correct"; else verdict="MISMATCHES"; fi
echo "truth    $(awk '$1 == "total" { printf "%d of %d spans matched, %d parents right (%d by the SPEC heuristic), %d of %d links", $3, $2, $7, $10, $12, $12 + $13 }' "$OUT/score.txt"): $verdict ($SHOW/score.txt)"
echo

# --- summary from SQL ----------------------------------------------------------
q() { sqlite3 -column -header "$OUT/spans.db" "$1"; }
echo "spans per kind:"
q "SELECT kind, count(*) AS spans, round(avg(dur_ps) / 1e6, 3) AS avg_us,
       round(max(dur_ps) / 1e6, 3) AS max_us
   FROM spans GROUP BY kind ORDER BY kind" | sed 's/^/  /'
echo
echo "end-to-end latency of traces that cross the network, by root (us):"
q "WITH t AS (SELECT root_kind || ' on ' || root_stream AS root, dur_ps,
           row_number() OVER w AS rn, count(*) OVER w AS n
         FROM traces WHERE json_extract(streams, '\$.net') IS NOT NULL
         WINDOW w AS (PARTITION BY root_kind, root_stream ORDER BY dur_ps
           RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
   SELECT root, n AS traces, round(min(dur_ps) / 1e6, 2) AS min,
       round(min(CASE WHEN rn * 100 >= n * 50 THEN dur_ps END) / 1e6, 2) AS p50,
       round(min(CASE WHEN rn * 100 >= n * 90 THEN dur_ps END) / 1e6, 2) AS p90,
       round(min(CASE WHEN rn * 100 >= n * 99 THEN dur_ps END) / 1e6, 2) AS p99,
       round(max(dur_ps) / 1e6, 2) AS max
   FROM t GROUP BY root ORDER BY traces DESC" | sed 's/^/  /'
echo
slow=$(sqlite3 "$OUT/spans.db" "SELECT id FROM traces
    WHERE json_extract(streams, '\$.net') IS NOT NULL ORDER BY dur_ps DESC LIMIT 1")
sqlite3 "$OUT/spans.db" "SELECT 'slowest trace: ' || trace_id || ', ' || spans ||
    ' spans, ' || round(dur_ps / 1e6, 2) || ' us from ' || root_kind || ' on ' ||
    root_stream FROM traces WHERE id = $slow"
echo "  where its time went, per simulator instance (one stream each; busy = some span"
echo "  of the stream open; idle = no span open anywhere, in flight between simulators):"
q "SELECT ifnull(t.stream, '(idle)') AS stream, ifnull(s.sim, '') AS sim, t.spans,
       round(t.busy_ps / 1e6, 2) AS busy_us, round(100.0 * t.share, 1) AS pct
   FROM (SELECT run, stream, spans, busy_ps, share FROM trace_streams WHERE trace = $slow
         UNION ALL SELECT run, NULL, NULL, idle_ps, 1.0 * idle_ps / dur_ps
         FROM traces WHERE id = $slow) AS t
   LEFT JOIN streams AS s ON s.run = t.run AND s.name = t.stream
   ORDER BY t.busy_ps DESC" | sed 's/^/    /'
echo "  per simulator type (busy summed over its instances):"
q "SELECT s.sim, count(*) AS instances, sum(t.spans) AS spans,
       round(sum(t.busy_ps) / 1e6, 2) AS busy_us, round(100.0 * sum(t.share), 1) AS pct
   FROM trace_streams AS t JOIN streams AS s ON s.run = t.run AND s.name = t.stream
   WHERE t.trace = $slow GROUP BY s.sim ORDER BY sum(t.busy_ps) DESC" | sed 's/^/    /'
echo "  per span kind:"
q "SELECT kind, spans, round(busy_ps / 1e6, 2) AS busy_us, round(100.0 * share, 1) AS pct
   FROM trace_kinds WHERE trace = $slow ORDER BY busy_ps DESC" | sed 's/^/    /'
echo

# --- kernel contexts: the Linux samples -----------------------------------------
# samples/linux-tcp and samples/linux-udp: simsynth --kernel linux, 2 CPUs
# per host (SPEC §3b).  Each through sim2ev and evspan twice: with its
# rules (the kernel-context classes) and with the same rules minus those
# classes (Columbo's model), both scored against the generator's truth.
kclasses='^(syscall-exit|irq-entry|irq-exit|softirq-entry|sleep|sched-in|wakeup|idle|app-root),'
echo "kernel contexts (SPEC 3b): samples/linux-tcp and samples/linux-udp, Linux 5.15 model,"
echo "  2 CPUs per host, 2 client threads; share of spans with their true parent:"
for flow in tcp udp; do
	L="$TOP/samples/linux-$flow" O="$OUT/linux-$flow"
	mkdir -p "$O"
	(cd "$L" && grep '^sim2ev ' commands.sh | sed "s| -o \([^ ]*\) | -o $O/\1 |" | sh) \
	    2>"$O/sim2ev.txt"
	sed "s|\"\\([a-z0-9-]*\\).ev.zst\"|\"$O/\\1.ev.zst\"|" "$L/topology.csv" >"$O/topology.csv"
	grep -Ev "$kclasses" "$L/rules.csv" >"$O/columbo-rules.csv"
	for r in contexts columbo; do
		[ $r = contexts ] && rf="$L/rules.csv" || rf="$O/columbo-rules.csv"
		evspan -t "$O/topology.csv" -r "$rf" -o "$O/$r.sp" 2>>"$O/evspan.txt"
		spancat --csv "$O/$r.sp" >"$O/$r.csv"
		sh "$TOP/tests/score-truth.sh" -t "$O/topology.csv" "$L/truth.csv.zst" \
		    "$O/$r.csv" >"$O/$r.score.txt" 2>&1 || :
	done
	share() { awk '$1 == "total" { printf "%.1f %% of %d", 100 * $7 / $2, $2 }' "$O/$1.score.txt"; }
	kinds=$(spancat -n "$O/contexts.sp" | awk '$2 ~ /^host\.(irq|softirq|resume|app)$/ {
	    printf "%s%d %s", (n++ ? ", " : ""), $1, $2 }')
	echo "  $flow: kernel-context rules $(share contexts), Columbo's model $(share columbo)"
	echo "       ($kinds)"
done
span2sqlite --run linux-tcp "$OUT/linux-tcp/spans.db" "$OUT/linux-tcp/contexts.sp"
lslow=$(sqlite3 "$OUT/linux-tcp/spans.db" "SELECT id FROM traces
    WHERE json_extract(streams, '\$.net') IS NOT NULL ORDER BY dur_ps DESC LIMIT 1")
sqlite3 "$OUT/linux-tcp/spans.db" "SELECT 'slowest TCP trace: ' || spans ||
    ' spans, ' || round(dur_ps / 1e6, 2) || ' us from ' || root_kind || ' on ' ||
    root_stream FROM traces WHERE id = $lslow"
echo "  per span kind (irq and softirq time counted on the host that ran them):"
sqlite3 -column -header "$OUT/linux-tcp/spans.db" "SELECT kind, spans,
       round(busy_ps / 1e6, 2) AS busy_us, round(100.0 * share, 1) AS pct
   FROM trace_kinds WHERE trace = $lslow ORDER BY busy_ps DESC" | sed 's/^/    /'
echo
echo "outputs in $SHOW:"
echo "  *.ev.zst     event streams          evcat $SHOW/client0.ev.zst | head"
echo "  spans.sp     span stream            spancat --tree $SHOW/spans.sp | less"
echo "  spans.db     SQLite                 sqlite3 $SHOW/spans.db 'SELECT * FROM latency'"
echo "  otlp.jsonl   OTLP/JSON requests     span2otlp --endpoint http://localhost:4318 --epoch now $SHOW/spans.sp"
echo "  spans.html   trace viewer           open $SHOW/spans.html in a browser (no server needed)"
echo "  *.txt        per-tool statistics and the truth score"
echo "  linux-*/     the Linux samples: contexts.sp, columbo.sp, their scores, spans.db (tcp)"
