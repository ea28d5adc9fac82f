#!/bin/sh
# Peak memory of every tool at two input sizes 4x apart: a tool's memory
# is bounded by what it keeps open (streams, open spans, its caches and
# sort buffers), not by the size of its input, so the two figures should
# be about the same (formats/*.md say each tool's bound).  Peak RSS from
# runstat (wait4's ru_maxrss), one run each (REPS to change it).
#
#   sim2ev     each format, on a mksimlog log of LOG MB and 4 LOG MB (ns3
#              also in its NS_LOG dialect, at 4 and 16 LOG MB: the set of
#              the last 65,536 packet uids from NICs fills up to about 64
#              MB of log; pcap on a net_switch capture of simsynth --net
#              switch-pcap, repeated to LOG MB and 4 LOG MB)
#   evfilter, evcat         the largest event stream of mkdumbbell -n N, 4N
#   evspan                  all the streams of that dumbbell run
#   spancat, span2otlp (a file), span2sqlite (a new database, and a run
#   appended to a database of the N-sized run), span2html, span2perfetto
#   (protobuf and JSON)     on the spans evspan made of it (18 N + 2)
#   simsynth                a run of REQ and 4 REQ requests (--exec-rate 1)
#
# Prints a table and, per tool, "bench: mem-TOOL MB-at-4N MB RATIO
# mem-TOOL-N", RATIO the peak RSS at 4N over that at N (1.00: flat).
# A sink whose caches start small and grow to their bound (span2sqlite)
# or that keeps every span of a small run in detail (span2html, below
# 100,000 spans) is flat only past that: N's default is past html's.
#
#   SSP_BIN=build/bin SSP_HELPERS=build/tests/helpers sh scripts/bench-memory.sh [N]
#   N = 25000 (default: 0.45 M and 1.8 M spans); LOG = 16 (MB); REQ = 250;
#   TOOLS: only the tools (or families: sim2ev, span2sqlite, ...) named;
#   BENCH_DIR where inputs go (default $TMPDIR or /tmp)
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with the built tools}"
: "${SSP_HELPERS:?set SSP_HELPERS to the directory with mkdumbbell and runstat}"
N=${1:-${N:-25000}}
LOG=${LOG:-16}
REQ=${REQ:-250}
TOOLS=${TOOLS:-}
REPS=${REPS:-1}
TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ssp-bench-mem.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
LC_ALL=C
export LC_ALL
BW=$DIR
. "$TOP/scripts/bench-lib.sh"
B=$SSP_BIN
RULES=$TOP/rules/linux-i40e.csv
N4=$((4 * N)) LOG4=$((4 * LOG)) REQ4=$((4 * REQ))

mb() { awk -v k="$(bench_get "$1" rss)" 'BEGIN { printf "%.1f", k / 1024 }'; }
# want TOOL: measured (TOOLS empty, or naming it or its family)
want() {
	[ -z "$TOOLS" ] && return 0
	for w in $TOOLS; do
		case $1 in "$w" | "$w"-*) return 0 ;; esac
	done
	return 1
}
: >"$DIR/rows"
# pair NAME "WHAT at N" "WHAT at 4N": the row of two runs NAME.1 and NAME.4
pair() {
	want "$1" || return 0
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(mb "$1.1")" "$3" "$(mb "$1.4")" \
	    "$(bench_ratio "$(bench_get "$1.4" rss)" "$(bench_get "$1.1" rss)")" >>"$DIR/rows"
	bench_summary "mem-$1" "$(mb "$1.4")" MB "$(bench_get "$1.4" rss)" \
	    "$(bench_get "$1.1" rss)" "mem-$1-N" >"$DIR/last"
	cat "$DIR/last" >>"$DIR/summary"
}
: >"$DIR/summary"

# run NAME CMD...: bench_run when NAME's tool is wanted
run() {
	case $1 in *.*) t=${1%.*} ;; *) t=$1 ;; esac
	want "$t" || return 0
	bench_run "$@"
}
echo "memory benchmark: logs of $LOG and $LOG4 MB, mkdumbbell -n $N and -n $N4," \
    "simsynth -n $REQ and -n $REQ4; files in $DIR"

# --- phase 1: every parser on logs 4x apart --------------------------------
for f in gem5 nicbm ns3 switch qemu corundum e1000; do
	want "sim2ev-$f" || continue
	for k in 1 4; do
		sz=$((LOG * k * 1048576))
		sym=""
		if [ "$f" = gem5 ]; then
			"$SSP_HELPERS/mksimlog" -f gem5 -b "$sz" -s "$DIR/k.syms" -o "$DIR/$f.log"
			sym="-s $DIR/k.syms,vmlinux"
		else
			"$SSP_HELPERS/mksimlog" -f "$f" -b "$sz" -o "$DIR/$f.log"
		fi
		# shellcheck disable=SC2086
		run "sim2ev-$f.$k" "$B/sim2ev" -f "$f" $sym -o "$DIR/$f.ev" "$DIR/$f.log"
	done
	pair "sim2ev-$f" "$LOG MB log" "$LOG4 MB log"
	rm -f "$DIR/$f.log" "$DIR/$f.ev"
done
if want sim2ev-nslog; then
	for k in 1 4; do
		"$SSP_HELPERS/mksimlog" -f nslog -b $((LOG4 * k * 1048576)) -o "$DIR/n.log"
		run "sim2ev-nslog.$k" "$B/sim2ev" -f ns3 -o "$DIR/n.ev" "$DIR/n.log"
	done
	pair sim2ev-nslog "$LOG4 MB log" "$((LOG4 * 4)) MB log"
	rm -f "$DIR/n.log" "$DIR/n.ev"
fi
if want sim2ev-pcap; then
	"$B/simsynth" --net switch-pcap --exec-rate 1 -n 250 "$DIR/cap" >/dev/null
	for k in 1 4; do
		repeat_pcap "$DIR/cap/switch.pcap" "$DIR/c.pcap" $((LOG * k * 1048576))
		run "sim2ev-pcap.$k" "$B/sim2ev" -f pcap -o "$DIR/c.ev" "$DIR/c.pcap"
	done
	pair sim2ev-pcap "$LOG MB capture" "$LOG4 MB capture"
	rm -rf "$DIR/cap" "$DIR/c.pcap" "$DIR/c.ev"
fi

# --- phase 2 and the sinks: a dumbbell run and its spans, 4x apart --------
dumbbell=0
for t in evfilter evcat evspan spancat span2otlp span2sqlite span2sqlite-append \
    span2html span2perfetto span2perfetto-json; do
	! want "$t" || dumbbell=1
done
for k in 1 4; do
	[ "$dumbbell" = 1 ] || break
	n=$((N * k))
	"$SSP_HELPERS/mkdumbbell" -n "$n" "$DIR/ev$k" >/dev/null
	big=$(ls -S "$DIR/ev$k"/*.ev | head -1)
	"$B/evspan" --threads 1 -t "$DIR/ev$k/topology.csv" -r "$RULES" -o "$DIR/in$k.sp"
	run "evfilter.$k" "$B/evfilter" -N -o "$DIR/f.ev" "$big"
	run "evcat.$k" "$B/evcat" "$big"
	run "evspan.$k" "$B/evspan" --threads 1 -t "$DIR/ev$k/topology.csv" -r "$RULES" \
	    -o "$DIR/spans.sp"
	rm -f "$DIR/spans.sp"
	"$B/spancat" -n "$DIR/in$k.sp" | awk '$2 == "spans" { print $1 }' >"$DIR/spans$k"
	awk -v b="$(wc -c <"$big")" 'BEGIN { printf "%.0f MB stream", b / 1048576 }' >"$DIR/ev$k.mb"
	rm -rf "$DIR/ev$k" "$DIR/f.ev"
done
if [ "$dumbbell" = 1 ]; then
	pair evfilter "$(cat "$DIR/ev1.mb")" "$(cat "$DIR/ev4.mb")"
	pair evcat "$(cat "$DIR/ev1.mb")" "$(cat "$DIR/ev4.mb")"
	pair evspan "dumbbell -n $N" "dumbbell -n $N4"
	S1=$(cat "$DIR/spans1") S4=$(cat "$DIR/spans4")
fi
s1="${S1:-} spans" s4="${S4:-} spans"
for k in 1 4; do
	[ "$dumbbell" = 1 ] || break
	run "spancat.$k" "$B/spancat" "$DIR/in$k.sp"
	run "span2otlp.$k" "$B/span2otlp" -o "$DIR/o.json" "$DIR/in$k.sp"
	rm -f "$DIR/o.json"
	BEFORE="rm -f '$DIR/new.db'" run "span2sqlite.$k" "$B/span2sqlite" \
	    "$DIR/new.db" "$DIR/in$k.sp"
	if [ "$k" = 1 ] && want span2sqlite-append; then
		"$B/span2sqlite" "$DIR/base.db" "$DIR/in1.sp"
	fi
	BEFORE="cp '$DIR/base.db' '$DIR/app.db'" run "span2sqlite-append.$k" \
	    "$B/span2sqlite" "$DIR/app.db" "$DIR/in$k.sp"
	rm -f "$DIR/new.db" "$DIR/app.db"
	run "span2html.$k" "$B/span2html" -o "$DIR/o.html" "$DIR/in$k.sp"
	run "span2perfetto.$k" "$B/span2perfetto" -f proto -o "$DIR/o.pftrace" "$DIR/in$k.sp"
	run "span2perfetto-json.$k" "$B/span2perfetto" -f json -o "$DIR/o.json" "$DIR/in$k.sp"
	rm -f "$DIR/o.html" "$DIR/o.pftrace" "$DIR/o.json"
done
rm -f "$DIR/base.db" "$DIR"/in*.sp
if [ "$dumbbell" = 1 ]; then
	pair spancat "$s1" "$s4"
	pair span2otlp "$s1" "$s4"
	pair span2sqlite "$s1, new db" "$s4, new db"
	pair span2sqlite-append "$s1 onto $S1" "$s4 onto $S1"
	pair span2html "$s1" "$s4"
	pair span2perfetto "$s1" "$s4"
	pair span2perfetto-json "$s1" "$s4"
fi

# --- the generator ------------------------------------------------------------
for k in 1 4; do
	want simsynth || break
	BEFORE="rm -rf '$DIR/syn'" run "simsynth.$k" "$B/simsynth" --exec-rate 1 \
	    -n $((REQ * k)) "$DIR/syn"
done
rm -rf "$DIR/syn"
pair simsynth "$REQ requests" "$REQ4 requests"

echo
printf '%-20s %-22s %8s   %-22s %8s %7s\n' tool "input" "max MB" "input x4" "max MB" "x4 / x1"
awk -F '\t' '{ printf "%-20s %-22s %8s   %-22s %8s %7s\n", $1, $2, $3, $4, $5, $6 }' "$DIR/rows"
echo
cat "$DIR/summary"
