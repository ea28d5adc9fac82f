#!/bin/sh
# evspan's reader filters (ssp_spanb_skips): the events they leave out by
# type, before merging (gem5 sync and processInEvent lines, instruction
# lines, user-mode pcs without the kernel context model, NIC intx, ns-3
# rx, events of another simulator) are events the builder would only
# count, or (ticks) count and let end a posted write or pci_host access.
# So the spans and the counts of -s are those of --decode-all, which hands
# every event to the builder: on the committed samples through sim2ev,
# simsynth runs with instruction lines, non-posted writes, the columbo
# kernel and the net_switch, and the same streams with time going back,
# with 1, 2 and 3 threads.
. "$(dirname "$0")/../lib.sh"

# same NAME TOPOLOGY RULES [NAME=FILE ...]: the filtered runs against the
# unfiltered one; prints how many events the filters left out
same() {
	n=$1; topo=$2; rules=$3; shift 3
	evspan --decode-all --threads 1 --stats -t "$topo" -r "$rules" -o "$T/all.sp" \
	    "$@" 2> "$T/all.err"
	grep -v '^time:\|^reading:' "$T/all.err" > "$T/all.cnt"
	eq "$n, --decode-all skips nothing" "$(sed -n 's/^reading: \([0-9]*\) .*/\1/p' \
	    "$T/all.err")" 0
	for th in 1 2 3; do
		evspan --threads $th --stats -t "$topo" -r "$rules" -o "$T/skip.sp" "$@" \
		    2> "$T/skip.err"
		check "$n, $th thread(s): same spans" cmp "$T/all.sp" "$T/skip.sp"
		grep -v '^time:\|^reading:' "$T/skip.err" > "$T/skip.cnt"
		check "$n, $th thread(s): same counts" cmp "$T/all.cnt" "$T/skip.cnt"
	done
	skipped=$(sed -n 's/^reading: \([0-9]*\) .*/\1/p' "$T/skip.err")
}

# phase 1 of a run directory's commands.sh, with extra options for gem5
phase1() {
	(cd "$1" && grep '^sim2ev' commands.sh |
	    sed "s/^sim2ev -f gem5 /sim2ev -f gem5 $2 /" | sh) > /dev/null
}

# samples/dumbbell: gem5 logs with sync and processInEvent lines
mkdir "$T/s"
cp "$TOP/samples/dumbbell/"* "$T/s/"
phase1 "$T/s" ""
same "samples/dumbbell" "$T/s/topology.csv" "$T/s/rules.csv"
check "samples/dumbbell: noise is skipped ($skipped events)" test "$skipped" -gt 1000
# the kernel context model on (user events kept), and off (left out)
for f in linux-tcp linux-udp; do
	mkdir "$T/$f"
	cp "$TOP/samples/$f/"* "$T/$f/"
	phase1 "$T/$f" ""
	same "samples/$f" "$T/$f/topology.csv" "$T/$f/rules.csv"
	same "samples/$f, columbo rules" "$T/$f/topology.csv" "$T/s/rules.csv"
done

# simsynth: instruction lines (sim2ev -I), non-posted writes, older gem5
# output, the columbo kernel, the net_switch
run() {
	n=$1; shift
	simsynth -n 30 --exec-rate 2 "$@" "$T/$n" > /dev/null
	phase1 "$T/$n" "-I"
	same "simsynth $*, sim2ev -I" "$T/$n/topology.csv" "$T/$n/rules.csv"
	check "simsynth $*: instruction lines are skipped" \
	    grep -q '^ *[1-9][0-9]*  instruction' "$T/skip.err"
}
run a --nonposted 0.5
run b --gem5-dialect noposted,nobar --nonposted 0.3
run c --kernel linux --cpus 2 --flow tcp-rr
run d --net switch

# time going back in the host streams: every 40th event 3 us early, every
# 97th 1 ns late (the merge keys by the largest time so far; the ticks
# then come where the filter cannot see a pending wait)
for h in server0 client0; do
	evcat "$T/s/$h.ev.zst" | awk '
	NR % 40 == 0 { $1 = sprintf("%d", $1 - 3000000) }
	NR % 97 == 0 { $1 = sprintf("%d", $1 + 1000) } { print }' \
	    > "$T/$h.txt"
	txt2ev -s "$h" -k host -o "$T/$h-back.ev" "$T/$h.txt"
done
same "samples/dumbbell, time going back" "$T/s/topology.csv" "$T/s/rules.csv" \
    server0="$T/server0-back.ev" client0="$T/client0-back.ev"
check "time going back is counted" grep -q '^  server0 .* [1-9][0-9]*$' "$T/skip.err"

# Ticks: a posted write (no completion line) and a pci_host access end at
# the next later line of their host, here a sync or processInEvent line;
# the span written then comes before h2's, also after a step back in time.
cat > "$T/tick.csv" <<'EOF'
type,name,kind,file
stream,h1,host
stream,h2,host
EOF
txt2ev -s h1 -k host -o "$T/h1.ev" <<'EOF'
100 mmio_wr comp=system.pc.simbricks_0 addr=0x1000 size=4 id=1 bar=0 offs=0x10 posted=1
200 sync sync_ts=200
400 func cpu=system.cpu0 sym=schedule table=vmlinux
500 pcihost_wr comp=system.pc.pci_host bus=0 dev=4 func=0 offset=0x4 size=2
600 proc_in
800 func cpu=system.cpu0 sym=schedule table=vmlinux
1000 mmio_wr comp=system.pc.simbricks_0 addr=0x1000 size=4 id=2 bar=0 offs=0x10 posted=1
900 func cpu=system.cpu0 sym=schedule table=vmlinux
950 sync sync_ts=950
1001 sync sync_ts=1001
1100 func cpu=system.cpu0 sym=schedule table=vmlinux
EOF
txt2ev -s h2 -k host -o "$T/h2.ev" <<'EOF'
300 mmio_wr comp=system.pc.simbricks_0 addr=0x2000 size=4 id=5 bar=0 offs=0x20 posted=0
300 mmio_wr_done comp=system.pc.simbricks_0 id=5
700 mmio_wr comp=system.pc.simbricks_0 addr=0x2000 size=4 id=6 bar=0 offs=0x20 posted=0
700 mmio_wr_done comp=system.pc.simbricks_0 id=6
1005 mmio_wr comp=system.pc.simbricks_0 addr=0x2000 size=4 id=7 bar=0 offs=0x20 posted=0
1005 mmio_wr_done comp=system.pc.simbricks_0 id=7
EOF
same "ticks" "$T/tick.csv" "$T/s/rules.csv" h1="$T/h1.ev" h2="$T/h2.ev"
eq "ticks: each wait ends at its tick" "$(spancat "$T/skip.sp" |
    awk '{ s = $1 " " $2; for (i = 3; i <= NF; i++) if ($i ~ /^stream=/) s = s " " $i; print s }' |
    tr '\n' ' ')" "100 host.mmio stream=h1 300 host.mmio stream=h2 500 host.pci stream=h1 \
700 host.mmio stream=h2 1000 host.mmio stream=h1 1005 host.mmio stream=h2 "

# --decode-all is listed in the help
check "--help lists --decode-all" sh -c "evspan --help | grep -q -- --decode-all"
done_testing
