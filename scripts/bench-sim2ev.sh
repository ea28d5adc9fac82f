#!/bin/sh
# sim2ev throughput against `wc -l` on the same file, measured in the same
# run: a >= 1 GB Exec-heavy gem5 log (50k-function symbol table), nicbm,
# ns-3 (trace sinks and NS_LOG), QEMU, Corundum Verilator and e1000 logs
# (mksimlog), a net_switch -p capture (simsynth --net switch-pcap,
# repeated to 500 MB; sim2ev -f pcap reads it through libpcap), an Ensō
# NIC's two logs (simsynth --nic enso), and the
# dumbbell workload of
# tests/data/samples/BENCH-REFERENCE.md (gen-dumbbell.py) when python3 is
# there.  Prints time, ratio to wc -l, MB/s, events/s, peak RSS and zstd
# bytes per event.  Best of $BENCH_RUNS runs each.
#   SSP_BIN      directory with sim2ev and evcat (make bench sets it)
#   SSP_HELPERS  directory with mksimlog
#   BENCH_DIR    where the inputs go (default $TMPDIR/simspan-bench; kept)
#   BENCH_GB     size of the gem5 log in GB (default 1.1)
#   BENCH_RUNS   runs per measurement (default 3)
#   BENCH_DUMBBELL=0  skip the dumbbell workload
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with the built tools}"
HELPERS=${SSP_HELPERS:-$SSP_BIN/../tests/helpers}
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/simspan-bench}
GB=${BENCH_GB:-1.1}
RUNS=${BENCH_RUNS:-3}
TOP=$(cd "$(dirname "$0")/.." && pwd)
SIM2EV="$SSP_BIN/sim2ev"
EVCAT="$SSP_BIN/evcat"
mkdir -p "$DIR"

bytes() { stat -c %s "$1"; }
BW=$DIR REPS=$RUNS SSP_HELPERS=$HELPERS
. "$TOP/scripts/bench-lib.sh"
# best CMD...: "cpu_secs rss_kb wall_secs" of RUNS runs: the least CPU
# time (user + system, what a shared machine does not inflate), the RSS
# and wall time of the fastest run
best() {
	bench_run best "$@"
	echo "$(bench_get best mincpu) $(bench_get best rss) $(bench_get best wall)"
}
events() { "$EVCAT" -n "$1" | awk '$2 == "total" { print $1 }'; }

gen() {	# gen FILE ARGS...: generate once, keep for later runs
	f=$1; shift
	[ -s "$f" ] || "$HELPERS/mksimlog" "$@" -o "$f"
}
size=$(awk -v g="$GB" 'BEGIN { printf "%d", g * 1000000000 }')
gen "$DIR/gem5.log" -f gem5 -b "$size" -S 50000 -s "$DIR/vmlinux.dump"
gen "$DIR/nicbm.log" -f nicbm -b 500000000
gen "$DIR/ns3.log" -f ns3 -b 500000000
gen "$DIR/qemu.log" -f qemu -b 500000000
gen "$DIR/corundum.log" -f corundum -b 500000000
gen "$DIR/e1000.log" -f e1000 -b 500000000
gen "$DIR/nslog.log" -f nslog -b 500000000

echo "CPU seconds (user+sys), best of $RUNS; wall seconds in parentheses"
printf '%-24s %14s %14s %7s %7s %11s %7s\n' input sim2ev "wc -l" ratio MB/s events/s "RSS MB"
run() {	# run [-s STAGE] LABEL FILE SIM2EV-ARGS...
	stage=""
	[ "$1" != -s ] || { stage=$2; shift 2; }
	label=$1; f=$2; shift 2
	w=$(best wc -l "$f")
	s=$(best "$SIM2EV" "$@" -o "$DIR/out.ev" "$f")
	n=$(events "$DIR/out.ev")
	[ -z "$stage" ] || bench_summary "$stage" \
	    "$(bench_rate "$(bytes "$f")" "${s%% *}")" MB/s "${s%% *}" "${w%% *}" wc-l
	echo "$s $w" | awk -v l="$label" -v b="$(bytes "$f")" -v n="$n" '{
	    s = $1; r = $2; sw = $3; w = $4; ww = $6
	    if (s == 0) s = 0.01; if (w == 0) w = 0.01
	    printf "%-24s %5.2fs (%5.2f) %5.2fs (%5.2f) %6.1fx %7.0f %11.0f %7.1f\n", l, s, sw,
	    w, ww, s / w, b / s / 1e6, n / s, r / 1024 }'
}
run -s sim2ev-gem5 "gem5 Exec $(awk -v b="$(bytes "$DIR/gem5.log")" 'BEGIN { printf "%.2f GB", b / 1e9 }')" \
    "$DIR/gem5.log" -f gem5 -s "$DIR/vmlinux.dump"
run -s sim2ev-gem5-nosyms "gem5 Exec, no symtab" "$DIR/gem5.log" -f gem5
run -s sim2ev-nicbm "nicbm $(( $(bytes "$DIR/nicbm.log") / 1000000 )) MB" "$DIR/nicbm.log" -f nicbm
run -s sim2ev-ns3 "ns-3 $(( $(bytes "$DIR/ns3.log") / 1000000 )) MB" "$DIR/ns3.log" -f ns3
run -s sim2ev-qemu "QEMU $(( $(bytes "$DIR/qemu.log") / 1000000 )) MB" "$DIR/qemu.log" -f qemu
run -s sim2ev-corundum "Corundum $(( $(bytes "$DIR/corundum.log") / 1000000 )) MB" \
    "$DIR/corundum.log" -f corundum
run -s sim2ev-e1000 "e1000 $(( $(bytes "$DIR/e1000.log") / 1000000 )) MB" "$DIR/e1000.log" -f e1000
run -s sim2ev-nslog "ns-3 NS_LOG $(( $(bytes "$DIR/nslog.log") / 1000000 )) MB" "$DIR/nslog.log" -f ns3
# a net_switch -p capture (libpcap), repeated to 500 MB
if [ ! -s "$DIR/switch.pcap" ]; then
	"$SSP_BIN/simsynth" --net switch-pcap --exec-rate 1 -n 250 "$DIR/cap" >/dev/null
	repeat_pcap "$DIR/cap/switch.pcap" "$DIR/switch.pcap" 500000000
	rm -rf "$DIR/cap"
fi
run -s sim2ev-pcap "pcap $(( $(bytes "$DIR/switch.pcap") / 1000000 )) MB" "$DIR/switch.pcap" -f pcap
# simsynth --nic enso: enso_bm's nicbm log (mostly the payload bytes of
# its pipe writes) and its DEBUG_DEV stderr (sim2ev's Ensō dialect)
E=$DIR/enso
[ -s "$E/server0-nic.enso.log" ] || "$SSP_BIN/simsynth" --nic enso --host qemu \
    --net switch -H 2 -n 9000 --enso-pkts 32 --interval 20us "$E" >/dev/null
run -s sim2ev-enso "Enso nicbm $(( $(bytes "$E/server0-nic.nicbm.log") / 1000000 )) MB" \
    "$E/server0-nic.nicbm.log" -f nicbm
run -s sim2ev-enso-dev "Enso DEBUG_DEV $(( $(bytes "$E/server0-nic.enso.log") / 1000000 )) MB" \
    "$E/server0-nic.enso.log" -f nicbm

# zstd-compressed function-entry stream
"$SIM2EV" -f gem5 -s "$DIR/vmlinux.dump" -z -o "$DIR/func.ev.zst" "$DIR/gem5.log"
n=$(events "$DIR/func.ev.zst")
"$SIM2EV" -f gem5 -s "$DIR/vmlinux.dump" -o "$DIR/func.ev" "$DIR/gem5.log"
awk -v z="$(bytes "$DIR/func.ev.zst")" -v p="$(bytes "$DIR/func.ev")" -v n="$n" \
    'BEGIN { printf "gem5 stream: %d events, %.2f bytes/event plain, %.2f bytes/event zstd\n",
    n, p / n, z / n }'

if [ "${BENCH_DUMBBELL:-1}" != 0 ] && command -v python3 >/dev/null 2>&1; then
	D="$DIR/dumbbell"
	[ -s "$D/net.ns3.log" ] || python3 "$TOP/scripts/gen-dumbbell.py" "$D" 20000 200
	echo "dumbbell N=20000 NOISE=200 ($(du -sm "$D" | cut -f1) MB, BENCH-REFERENCE.md):"
	run "  client.gem5.log" "$D/client.gem5.log" -f gem5 -s "$D/vmlinux.syms"
	run "  server.gem5.log" "$D/server.gem5.log" -f gem5 -s "$D/vmlinux.syms"
	run "  client-nic.nicbm.log" "$D/client-nic.nicbm.log" -f nicbm
	run "  net.ns3.log" "$D/net.ns3.log" -f ns3
	t0=$(date +%s.%N)
	for h in client server; do
		"$SIM2EV" -f gem5 -s "$D/vmlinux.syms" -z -o "$DIR/$h.ev.zst" "$D/$h.gem5.log"
		"$SIM2EV" -f nicbm -z -o "$DIR/$h-nic.ev.zst" "$D/$h-nic.nicbm.log"
	done
	"$SIM2EV" -f ns3 -z -o "$DIR/net.ev.zst" "$D/net.ns3.log"
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "  all five logs to .ev.zst, one after the other: %.2fs\n", b - a }'
fi
rm -f "$DIR/out.ev" "$DIR/func.ev" "$DIR"/best.* "$DIR/.rs" "$DIR/.err"
