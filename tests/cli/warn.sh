#!/bin/sh
# Warnings about a degraded result (issue 12): each common mistake says so
# on stderr without --stats, and --strict turns the warning into exit 1;
# stream headers that do not fit the topology are an error (exit 2) unless
# --force.  The bundled sample and the committed test inputs stay silent.
. "$(dirname "$0")/../lib.sh"

S="$TOP/samples/dumbbell"
# warns RC DESC TEXT COMMAND...: exit status RC and TEXT on stderr
warns() {
	rc=$1 d=$2 text=$3; shift 3
	expect_rc "$rc" "$d" "$@"
	stderr_has "$text"
}
# quiet DESC COMMAND...: success and nothing on stderr
quiet() {
	d=$1; shift
	check "$d" "$@"
	if [ -s "$T/.err" ]; then not_ok "$d: stderr is empty"
		sed 's/^/# stderr: /' "$T/.err" | head -5
	else ok "$d: stderr is empty"; fi
}

# --- phase 1 on the sample, as the demo runs it: silent ----------------------
mkdir "$T/ev"
syms="-s vmlinux.syms -s i40e.syms,i40e,0xffffffffa0000000"
while read -r fmt name log; do
	[ "$fmt" = gem5 ] && s=$syms || s=
	# shellcheck disable=SC2086
	(cd "$S" && sim2ev -f "$fmt" -n "$name" $s "$log" 2>"$T/$name.err" |
	    evfilter --no-noise -b rules.csv -o "$T/ev/$name.ev.zst" 2>>"$T/$name.err")
	eq "sample $name: phase 1 silent" "$(cat "$T/$name.err")" ""
done <<EOF2
gem5 server0 server0.gem5.log.zst
gem5 client0 client0.gem5.log.zst
nicbm server0-nic server0-nic.nicbm.log.zst
nicbm client0-nic client0-nic.nicbm.log.zst
ns3 net net.ns3.log.zst
EOF2
sed "s|\"\\([a-z0-9-]*\\).ev.zst\"|\"$T/ev/\\1.ev.zst\"|" "$S/topology.csv" >"$T/topo.csv"
quiet "sample: evspan silent" evspan -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/s.sp"
quiet "sample: evspan --strict" evspan --strict -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/s.sp"
# committed test inputs, as the tests feed them
for f in "$DATA"/samples/gem5/*.txt "$DATA"/samples/columbo/gem5-events-test.txt; do
	quiet "sample $(basename "$f"): sim2ev -f gem5 silent" sim2ev --strict -f gem5 -o "$T/x.ev" "$f"
done
for f in "$DATA"/samples/nicbm/*.txt; do
	cut -f3- "$f" > "$T/nic.log"
	if grep -q 'nicbm: ' "$T/nic.log"; then
		quiet "sample $(basename "$f"): sim2ev -f nicbm silent" sim2ev --strict -f nicbm -o "$T/x.ev" "$T/nic.log"
	else	# a NIC built without DEBUG_NICBM: its status lines only
		expect_rc 1 "sample $(basename "$f"): sim2ev --strict on a nicbm log without DEBUG_NICBM" \
		    sim2ev --strict -f nicbm -o "$T/x.ev" "$T/nic.log"
		stderr_has "a nicbm log without debug output"
	fi
done
for f in "$DATA"/samples/ns3-*/*.t* "$DATA"/samples/columbo/ns3-raw-log.txt; do
	quiet "sample $(basename "$f"): sim2ev -f ns3 silent" sim2ev --strict -f ns3 -o "$T/x.ev" "$f"
done

# --- 1. the wrong -f, all 6 pairings -------------------------------------------
zstd -dc "$S/client0.gem5.log.zst" | head -n 5000 > "$T/h.gem5.log"
zstd -dc "$S/client0-nic.nicbm.log.zst" | head -n 2000 > "$T/n.nicbm.log"
zstd -dc "$S/net.ns3.log.zst" | head -n 2000 > "$T/x.ns3.log"
for pair in "gem5 n.nicbm nicbm a nicbm" "gem5 x.ns3 ns3 an ns-3" \
    "nicbm h.gem5 gem5 a gem5" "nicbm x.ns3 ns3 an ns-3" \
    "ns3 h.gem5 gem5 a gem5" "ns3 n.nicbm nicbm a nicbm"; do
	set -- $pair
	lines=$(wc -l < "$T/$2.log" | tr -d ' ')
	warns 0 "1. -f $1 on a $3 log" "sim2ev: warning: no line of $T/$2.log looked like $1 output ($lines lines): is it $4 $5 log? try -f $3" \
	    sim2ev -f "$1" -o "$T/x.ev" "$T/$2.log"
	expect_rc 1 "1. -f $1 on a $3 log, --strict" sim2ev --strict -f "$1" -o "$T/x.ev" "$T/$2.log"
done
printf 'hello\nworld\n' > "$T/text.log"
warns 0 "1. not a log at all" "nor like gem5, nicbm, ns-3 or net_switch output: is it a simulator log?" \
    sim2ev -f gem5 -o "$T/x.ev" "$T/text.log"

# --- 2. -f gem5 without -s ---------------------------------------------------------
warns 0 "2. gem5 without -s" "h.gem5.log: no function events: " sim2ev -f gem5 -o "$T/x.ev" "$T/h.gem5.log"
stderr_has "Exec lines but no symbol table (evspan makes no syscall spans without them); give -s vmlinux.syms"
expect_rc 1 "2. gem5 without -s, --strict" sim2ev --strict -f gem5 -o "$T/x.ev" "$T/h.gem5.log"
quiet "2. gem5 with -s" sim2ev -f gem5 -s "$S/vmlinux.syms" -o "$T/x.ev" "$T/h.gem5.log"

# --- 3. evspan without -r, empty rules, a host stream without -s -------------------
warns 0 "3. evspan without -r" "evspan: warning: 957 of 6457 spans are orphans (syscall 957): no rules (-r): no function is a syscall entry, so there are no host.syscall spans; give -r rules.csv" \
    evspan -t "$T/topo.csv" -o "$T/x.sp"
expect_rc 1 "3. evspan without -r, --strict" evspan --strict -t "$T/topo.csv" -o "$T/x.sp"
: > "$T/empty.csv"
warns 0 "3. evspan, empty rules" "$T/empty.csv names no syscall-entry function: no host.syscall spans" \
    evspan -t "$T/topo.csv" -r "$T/empty.csv" -o "$T/x.sp"
expect_rc 1 "3. evspan, empty rules, --strict" evspan --strict -t "$T/topo.csv" -r "$T/empty.csv" -o "$T/x.sp"
(cd "$S" && sim2ev -f gem5 -n client0 client0.gem5.log.zst 2>/dev/null) |
    evfilter --no-noise -b "$S/rules.csv" -o "$T/nosyms.ev.zst"
warns 0 "3. a host stream made without -s" "evspan: warning: client0 has no function events — was sim2ev given -s? (its header records no symbol table)" \
    evspan -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/x.sp" client0="$T/nosyms.ev.zst"
expect_rc 1 "3. a host stream made without -s, --strict" \
    evspan --strict -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/x.sp" client0="$T/nosyms.ev.zst"

# --- 4. a wrong PCIe adapter name ---------------------------------------------------
sed 's/"client0","client0-nic","system.pc.simbricks_0"/"client0","client0-nic","system.pc.simbricks_1"/' \
    "$T/topo.csv" > "$T/topo-adapter.csv"
warns 0 "4. wrong adapter" "evspan: warning: 1242 of 7977 spans are orphans (mmio 394, dma 635, msix 213): 394 PCIe events of client0 found no link: the stream names adapter 'system.pc.simbricks_0', $T/topo-adapter.csv names 'system.pc.simbricks_1' (line 10)" \
    evspan -t "$T/topo-adapter.csv" -r "$S/rules.csv" -o "$T/x.sp"
expect_rc 1 "4. wrong adapter, --strict" evspan --strict -t "$T/topo-adapter.csv" -r "$S/rules.csv" -o "$T/x.sp"

# --- 5. stream headers against the topology -----------------------------------------
rm -f "$T/x.sp"
warns 2 "5. swapped streams" "evspan: $T/ev/server0.ev.zst: the header names stream 'server0', but $T/topo.csv:6 reads the file as stream 'client0' (swapped files?); --force to go on" \
    evspan -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/x.sp" client0="$T/ev/server0.ev.zst" server0="$T/ev/client0.ev.zst"
eq "5. no output after the error" "$(ls "$T/x.sp" 2>/dev/null || true)" ""
warns 0 "5. swapped streams, --force" "(swapped files?) (--force: going on)" \
    evspan --force -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/x.sp" client0="$T/ev/server0.ev.zst" server0="$T/ev/client0.ev.zst"
expect_rc 1 "5. swapped streams, --force --strict" \
    evspan --force --strict -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/x.sp" client0="$T/ev/server0.ev.zst" server0="$T/ev/client0.ev.zst"
mkdir "$T/run2"
cp "$S/client0-nic.nicbm.log.zst" "$T/run2/"
(cd "$T" && sim2ev -f nicbm -n client0-nic -o "$T/other.ev.zst" run2/client0-nic.nicbm.log.zst)
warns 0 "5. a stream of another run" "evspan: warning: streams from different runs? client0-nic was made from run2/client0-nic.nicbm.log.zst, the other 4 streams from logs in the directory of server0.gem5.log.zst" \
    evspan -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/x.sp" client0-nic="$T/other.ev.zst"
expect_rc 1 "5. a stream of another run, --strict" \
    evspan --strict -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/x.sp" client0-nic="$T/other.ev.zst"

# --- 6. a phase-1 blacklist the rules no longer have ---------------------------------
grep -v '^blacklist,' "$S/rules.csv" > "$T/rules-nobl.csv"
warns 0 "6. blacklist changed since phase 1" "evspan: warning: server0 was filtered by evfilter -b rules.csv (62 functions), the rules now blacklist 0: the events of functions no longer blacklisted are gone; rerun evfilter" \
    evspan -t "$T/topo.csv" -r "$T/rules-nobl.csv" -o "$T/x.sp"
expect_rc 1 "6. blacklist changed, --strict" evspan --strict -t "$T/topo.csv" -r "$T/rules-nobl.csv" -o "$T/x.sp"

# --- 7. evfilter patterns that match nothing ------------------------------------------
warns 0 "7. --cpu system.cpu0" "evfilter: warning: $T/ev/client0.ev.zst: --cpu matched nothing, all its events are dropped; the stream's CPUs are system.switch_cpus" \
    evfilter --cpu system.cpu0 -o "$T/x.ev" "$T/ev/client0.ev.zst"
expect_rc 1 "7. --cpu system.cpu0, --strict" evfilter --strict --cpu system.cpu0 -o "$T/x.ev" "$T/ev/client0.ev.zst"
quiet "7. --cpu 'system.*cpu*' matches" evfilter --strict --cpu 'system.*cpu*' -o "$T/x.ev" "$T/ev/client0.ev.zst"
warns 0 "7. --table" "--table matched nothing, all its events are dropped; the stream's symbol tables are vmlinux, i40e" \
    evfilter --table nope -o "$T/x.ev" "$T/ev/client0.ev.zst"
warns 0 "7. --comp on ns-3" "--comp matched nothing: no event has a component" \
    evfilter --comp 'x*' -o "$T/x.ev" "$T/ev/net.ev.zst"

# --- 8. time going backwards -------------------------------------------------------------
sed -n '4,$p' "$T/n.nicbm.log" | tac > "$T/back.nicbm.log"
warns 0 "8. sim2ev: backwards" "back.nicbm.log: time goes backwards" \
    sim2ev -f nicbm -n client0-nic -o "$T/back.ev" "$T/back.nicbm.log"
expect_rc 1 "8. sim2ev: backwards, --strict" sim2ev --strict -f nicbm -o "$T/x.ev" "$T/back.nicbm.log"
sim2ev -f nicbm -n client0-nic -o "$T/back2.ev" "$S/client0-nic.nicbm.log.zst"
zstd -dc "$S/client0-nic.nicbm.log.zst" | sed -n '4,$p' | tac > "$T/run2/client0-nic.nicbm.log"
(cd "$S" && sim2ev -f nicbm -n client0-nic "$T/run2/client0-nic.nicbm.log" 2>/dev/null > "$T/back2.ev") || true
warns 0 "8. evspan: backwards" "client0-nic: time goes backwards" \
    evspan --force -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/x.sp" client0-nic="$T/back2.ev"
expect_rc 1 "8. evspan: backwards, --strict" \
    evspan --force --strict -t "$T/topo.csv" -r "$S/rules.csv" -o "$T/x.sp" client0-nic="$T/back2.ev"

# --- 9. out-of-range timestamps: all four cases alike --------------------------------------
ns3line=$(sed -n 1p "$T/x.ns3.log" | cut -d' ' -f4-)
for ts in 9223372036854775808 18446744073709551616; do
	{ sed -n 1,2p "$T/x.ns3.log"; echo "+  $ts $ns3line"; } > "$T/range.ns3.log"
	warns 0 "9. ns-3 timestamp $ts" "sim2ev: warning: $T/range.ns3.log: 1 malformed line skipped, first at line 3: ns-3 trace: timestamp out of range" \
	    sim2ev -f ns3 -o "$T/x.ev" "$T/range.ns3.log"
	expect_rc 1 "9. ns-3 timestamp $ts, --strict" sim2ev --strict -f ns3 -o "$T/x.ev" "$T/range.ns3.log"
	printf '1000: system.pc.simbricks_0: simbricks-pci: sending write addr c0400010 size 4 id 1 bar 3 offs 10 posted 1\n%s: system.pc.simbricks_0: simbricks-pci: sending write addr c0400010 size 4 id 2 bar 3 offs 10 posted 1\n' \
	    "$ts" > "$T/range.gem5.log"
	warns 0 "9. gem5 tick $ts" "sim2ev: warning: $T/range.gem5.log: 1 malformed line skipped, first at line 2: tick out of range" \
	    sim2ev -f gem5 -o "$T/x.ev" "$T/range.gem5.log"
	expect_rc 1 "9. gem5 tick $ts, --strict" sim2ev --strict -f gem5 -o "$T/x.ev" "$T/range.gem5.log"
done

# --- 10. a negative gem5 tick ------------------------------------------------------------------
printf '1000: system.pc.simbricks_0: simbricks-pci: sending write addr c0400010 size 4 id 1 bar 3 offs 10 posted 1\n-740155000: system.pc.simbricks_0: simbricks-pci: sending write addr c0400010 size 4 id 2 bar 3 offs 10 posted 1\n' \
    > "$T/neg.gem5.log"
warns 0 "10. negative gem5 tick" "sim2ev: warning: $T/neg.gem5.log: 1 malformed line skipped, first at line 2: negative tick" \
    sim2ev -f gem5 -o "$T/neg.ev" "$T/neg.gem5.log"
eq "10. the negative tick gave no event" "$(evcat "$T/neg.ev" | grep -c mmio_wr)" "1"
expect_rc 1 "10. negative gem5 tick, --strict" sim2ev --strict -f gem5 -o "$T/x.ev" "$T/neg.gem5.log"

done_testing
