#!/bin/sh
# evspan's QEMU hosts, Corundum Verilator NICs (lib/span/spanb_qemu.c,
# spanb_corundum.c) scored against simsynth's ground truth through the
# real pipeline (simsynth --host qemu / --nic corundum-verilator logs ->
# sim2ev -f qemu / -f corundum -> evspan -> spancat -> score-truth.sh):
# with -r every span, parent and link must match.  Then a QEMU host
# without DEBUG_PRINTS: one warning, and the traces start at the NIC.
. "$(dirname "$0")/../lib.sh"
S="$TOP/tests/score-truth.sh"

needs simsynth sim2ev evspan spancat sqlite3

score() {	# score NAME SIMSYNTH-OPTIONS...
	name=$1; shift
	check "$name: simsynth" simsynth "$@" "$T/$name"
	check "$name: sim2ev and evspan" sh -c "cd '$T/$name' && sh commands.sh"
	check "$name: spancat" sh -c "spancat --csv -H '$T/$name/spans.sp' > '$T/$name.csv'"
	expect_rc 0 "$name: every span, parent and link as in the truth" \
	    sh "$S" -r "$T/$name/truth.csv" "$T/$name.csv"
	stdout_has "all spans, parents and links match"
	awk '$1 == "total"' "$T/.out" | sed "s/^/# $name: /"
	check "$name: no orphans" sh -c "cd '$T/$name' && evspan --stats -t topology.csv \
	    -r rules.csv -o /dev/null 2>&1 | grep -q 'orphans by missing context: 0'"
}

score qemu --host qemu -H 4 --servers 2 -c 2 -n 40 --bg-to-host 0.3 --nonposted 0.2
score qemu-corundum --host qemu --nic corundum -H 3 -c 2 -n 30 --bg-to-host 0.3
score qemu-verilator --host qemu --nic corundum-verilator -H 3 -c 2 -n 30 \
    --nonposted 0.3
score gem5-verilator --nic corundum-verilator -H 4 --servers 2 -c 2 -n 40 \
    --bg-to-host 0.3
check "qemu: its host streams name the simulator" sh -c \
    "evcat -H '$T/qemu/client0.ev.zst' | grep -q '^# simulator: qemu'"
check "qemu: no host.syscall spans" sh -c \
    "! spancat -j '$T/qemu/spans.sp' | grep -q '\"type\":\"host.syscall\"'"
# A Corundum Verilator's write ids repeat: host DMAs are matched in link
# order by id, none is left open for lack of its completion.
check "gem5-verilator: repeated DMA ids" sh -c "grep -h 'doWrite() ts=' \
    '$T/gem5-verilator'/*-nic.corundum.log | sed 's/.* id=\([0-9]*\) .*/\1/' |
    sort | uniq -d | grep -q ."
check "gem5-verilator: no duplicate id" sh -c "cd '$T/gem5-verilator' && \
    evspan --stats -t topology.csv -r rules.csv -o /dev/null 2>&1 |
    grep -q ' 0 duplicate ids,'"

# --- QEMU without DEBUG_PRINTS: an empty host stream -----------------------
cp -r "$T/qemu" "$T/nodebug"
printf '%s\n' 'SeaBIOS (version 1.16.0)' 'Booting from ROM...' \
    'qemu-system-x86_64: terminating on signal 15 from pid 7' \
    > "$T/nodebug/client0.qemu.log"
expect_rc 0 "nodebug: sim2ev" sim2ev -f qemu -n client0 \
    -o "$T/nodebug/client0.ev.zst" "$T/nodebug/client0.qemu.log"
stderr_has "no simbricks-pci debug line in 3 lines: was QEMU's hw/misc/simbricks_pci.c built with DEBUG_PRINTS"
expect_rc 0 "nodebug: evspan" sh -c "cd '$T/nodebug' && evspan -t topology.csv \
    -r rules.csv -o spans.sp"
stderr_has "client0: a QEMU host without events: was QEMU's simbricks-pci built with DEBUG_PRINTS"
eq "nodebug: one warning about it" "$(grep -c 'DEBUG_PRINTS' "$T/.err")" 1
spancat -j "$T/nodebug/spans.sp" | grep '"type":"nic.mmio"' |
    grep '"stream_name":"client0-nic"' > "$T/nodebug.mmio"
n=$(wc -l < "$T/nodebug.mmio")
[ "$n" -gt 0 ] && ok "nodebug: client0-nic has $n nic.mmio spans" ||
    not_ok "nodebug: client0-nic has no nic.mmio spans"
eq "nodebug: all roots, labelled by their missing mmio context" \
    "$(grep -c '"parent":"0x0",.*"cause":"mmio"' "$T/nodebug.mmio")" "$n"

done_testing
