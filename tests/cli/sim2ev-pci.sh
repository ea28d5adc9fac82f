#!/bin/sh
# sim2ev -f qemu, -f corundum, -f e1000 and the Enso dialect of -f nicbm
# through the real binary, on lines as the simulators' sources print them:
# events, the QEMU clock converted by its timer-sync lines, an
# unsynchronized QEMU, QEMU without DEBUG_PRINTS, the format hint, empty
# input, interleaved logs, --strict naming file and line.
. "$(dirname "$0")/../lib.sh"
needs sim2ev evcat

W="qemu-system-x86_64: warning:"
cat >"$T/qemu.log" <<L
$W host doesn't support requested feature: CPUID.07H:EBX.hle [bit 4]
$W simbricks_timer_poll: ts=500 sync_ts=1500
$W simbricks_comm_d2h_process: ts=500 type=0
$W simbricks_timer_poll: done, next=1000000
$W simbricks_timer_sync: ts=1500 pts=1000000 npts=1000000
$W simbricks_timer_sync: next pts=1500000 ts=2000
[    0.000000] Linux version 5.15.0
$W simbricks_mmio_rw: starting wait for read (2100) addr=80300 size=4
$W simbricks_timer_poll: ts=2601 sync_ts=3000
$W simbricks_comm_d2h_process: ts=2601 type=67
$W simbricks_comm_d2h_rcomp: kicking cpu 0 ts=2601
$W simbricks_timer_poll: done, next=2601000
$W simbricks_mmio_rw: done (2601) a=80300 s=4 val=3
$W simbricks_mmio_rw: finished write (2700) addr=108000 size=4 val=1
$W simbricks_comm_d2h_process: ts=3300 type=64
$W simbricks_comm_d2h_process: ts=3350 type=68
$W simbricks_comm_d2h_process: ts=3900 type=65
$W simbricks_comm_d2h_process: ts=4000 type=66
L
check "sim2ev -f qemu" sim2ev -f qemu --stats -o "$T/qemu.ev" "$T/qemu.log"
stderr_has "18 lines = 8 events + 10 skipped"
stderr_has "time offset 500000 ps subtracted (from the sync line)"
eq "qemu: silent but for --stats" "$(grep -c 'sim2ev: warning' "$T/.err")" 0
check "evcat" evcat "$T/qemu.ev"
cp "$T/.out" "$T/qemu.txt"
eq "the read, at SimBricks time" "$(grep -c '^ *1600000 mmio_rd .*comp=simbricks-pci addr=0x80300 size=4 id=1 bar=-1 offs=0x80300' "$T/qemu.txt")" 1
eq "its done line ends it" "$(grep -c '^ *2101000 mmio_rd_done .*id=1' "$T/qemu.txt")" 1
eq "the write, non-posted" "$(grep -c 'mmio_wr .*id=2 .*posted=0' "$T/qemu.txt")" 1
eq "its completion message" "$(grep -c '2850000 mmio_wr_done .*id=2' "$T/qemu.txt")" 1
eq "DMA read and write numbered" "$(grep -c 'dma_[rw][dr] .*id=[12] addr=0x0 size=0' "$T/qemu.txt")" 2
eq "the interrupt" "$(grep -c '3500000 intr ' "$T/qemu.txt")" 1
check "evcat --header" evcat --header "$T/qemu.ev"
stdout_has "qemu"
stdout_has "sync line 5"
# the offset from the option instead
check "--time-offset 0" sim2ev -f qemu --time-offset 0 -o "$T/q0.ev" "$T/qemu.log"
eq "--time-offset 0: QEMU's clock in ps" "$(evcat "$T/q0.ev" | grep -c '^ *2100000 mmio_rd ')" 1
check "--time-offset sync" sim2ev -f qemu --time-offset sync -o "$T/qs.ev" "$T/qemu.log"
grep -v timer_sync "$T/qemu.log" >"$T/nosync.log"
expect_rc 1 "--time-offset sync without sync lines" sim2ev -f qemu --time-offset sync -o "$T/x.ev" "$T/nosync.log"
stderr_has "no 'sending sync message for ts=' line"
check "no sync line: times as printed, one warning" sim2ev -f qemu -o "$T/x.ev" "$T/nosync.log"
stderr_has "sim2ev: warning: $T/nosync.log: no 'simbricks_timer_sync: ts=' line: times are QEMU's virtual clock"
eq "one warning" "$(wc -l <"$T/.err")" 1
expect_rc 1 "no sync line, --strict" sim2ev --strict -f qemu -o "$T/x.ev" "$T/nosync.log"

# unsynchronized (sync=off): the poll thread prints ts=0
cat >"$T/unsync.log" <<L
$W simbricks_mmio_rw: starting wait for read (7000) addr=10 size=4
$W simbricks_comm_d2h_process: ts=0 type=67
$W simbricks_mmio_rw: finished write (7100) addr=108000 size=4 val=1
$W simbricks_comm_d2h_process: ts=0 type=68
$W simbricks_comm_d2h_process: ts=0 type=64
L
check "unsynchronized QEMU" sim2ev -f qemu -o "$T/u.ev" "$T/unsync.log"
stderr_has "unsync.log: QEMU ran unsynchronized: 3 device message lines print ts=0 (first at line 2)"
eq "one warning (not also the missing sync line)" "$(wc -l <"$T/.err")" 1
eq "untimed lines take the time before" "$(evcat "$T/u.ev" | grep -c '^ *7100000 ')" 3

# QEMU without DEBUG_PRINTS: its stderr has only QEMU's own lines
printf '%s\n' "$W host doesn't support requested feature: CPUID.07H:EBX.hle [bit 4]" \
    >"$T/plain.log"
check "QEMU without DEBUG_PRINTS" sim2ev -f qemu -o "$T/x.ev" "$T/plain.log"
stderr_has "plain.log: no simbricks-pci debug line in 1 lines: was QEMU's hw/misc/simbricks_pci.c built with DEBUG_PRINTS"
stderr_has "its traces start at the NIC"
expect_rc 1 "QEMU without DEBUG_PRINTS, --strict" sim2ev --strict -f qemu -o "$T/x.ev" "$T/plain.log"
printf 'early console in extract_kernel\n[    0.0] Linux\n' >"$T/console.log"
check "QEMU console only" sim2ev -f qemu -o "$T/x.ev" "$T/console.log"
stderr_has "no simbricks-pci debug line in 2 lines"

cat >"$T/cor.log" <<'L'
info: sync_pci=1 sync_eth=1
info: corundum start main simulation loop
info: h2d_read ts=1000000 bar=0 offset=0x80 len=4
info: CorundumAXILManager::read_done() ts=1012000  id=94469181196688  addr=0x80 data=01 00 00 00 00 00 00 00 
info: h2d_write ts=1020000 bar=0 offset=0x200010 len=4 posted=1 data=05 00 00 00 
info: CorundumAXILManager::write_done() ts=1032000  id=94469181196700  addr=0x200010 posted=1 data=05 00 00 00 00 00 00 00 
info: CorundumAXISubordinateRead::doRead() ts=1040000 id=4294967296 addr=0x12340000 len=16
info: CorundumAXISubordinateWrite::doWrite() ts=1060000 id=2 addr=0x12350000 len=8 data=AA BB CC DD EE FF 00 11 
info: 1080000 corundum verilator packet_d2n try packet transmission
info: 1080000 corundum verilator packet_d2n transmitted packet: packet len=4, packet data=01 02 03 04 
info: 1090000 corundum verilator n2d_recv received packet: packet data=01 02 03 04 05 06 
info: MsiInterruptHandler::step: MSI interrupt ts=1100000, msi_irq=1
info: MsiInterruptHandler::msi_issue: MSI interrupt ts=1100000, vec=0
error: corundum verilator n2d_recv: dropping packet
L
check "sim2ev -f corundum" sim2ev -f corundum --stats -o "$T/cor.ev" "$T/cor.log"
stderr_has "14 lines = 9 events + 5 skipped"
check "evcat" evcat "$T/cor.ev"
stdout_has "nic_rd_done     id=94469181196688 off=0x80 val=0x1"
stdout_has "nic_wr_done     id=94469181196700 off=0x200010 val=0x5 posted=1"
stdout_has "nic_dma_exec    op=0x100000000 addr=0x12340000 len=16"
stdout_has "nic_rx          port=0 len=6"
check "evcat --header" evcat --header "$T/cor.ev"
stdout_has "corundum"
printf '%s\n' "info: h2d_read ts=1 bar=0 offset=80 len=4" >>"$T/cor.log"
expect_rc 1 "corundum --strict: a malformed line" sim2ev --strict -f corundum -o "$T/x.ev" "$T/cor.log"
stderr_has "cor.log:15: malformed line: corundum h2d_read: expected"

cat >"$T/e1000.log" <<'L'
warn: enabling debug messages because E1000_DEBUG envar set
1000000: Ethernet: Read device register 0x8
1001000: Ethernet: Wrote device register 0x3818 value 0x5
1002000: EthernetSM: TXS: TX Tail pointer updated
1003000: EthernetDesc: [TxDesc] Fetching descriptors at 0x1234000 (0x1234000), size: 0x50
1050000: EthernetDesc: [TxDesc] Fetching complete cachePnt 0 -> 5
1060000: EthernetDesc: Starting DMA of packet at offset 0
1100000: EthernetDesc: DMA of packet complete
1100000: EthernetDesc: ------Packet of 98 bytes ready for transmission-------
1101000: EthernetSM: TxFIFO: Successful transmit, bytes available in fifo: 393118
1130000: EthernetIntr: EINT: Posting interrupt to CPU now. Vector 0x80000003
1140000: Ethernet: RxFIFO: Receiving pcakte from wire
L
check "sim2ev -f e1000" sim2ev -f e1000 --stats -o "$T/e.ev" "$T/e1000.log"
stderr_has "12 lines = 9 events + 3 skipped"
check "evcat" evcat "$T/e.ev"
stdout_has "nic_dma_issue   op=0x1 addr=0x1234000 len=80"
stdout_has "nic_dma_done_rd op=0x1 addr=0x1234000 len=80"
stdout_has "nic_tx          len=98"
stdout_has "nic_intx        level=1"

printf '%s\n' "2000000 enso: received packet len=5e" \
    "2000000 enso: RX: Sending packet to enso pipe 3" \
    "2100000 enso: TX: sending packet to ethernet len=40" >"$T/enso.log"
check "sim2ev -f nicbm on Enso's lines" sim2ev -f nicbm --stats -o "$T/en.ev" "$T/enso.log"
stderr_has "3 lines = 2 events + 1 skipped"
check "evcat" evcat "$T/en.ev"
stdout_has "nic_rx          port=0 len=94"
stdout_has "nic_tx          len=64"

# --- simsynth's QEMU hosts parse: every event, only its noise skipped -----------
if have simsynth; then
	check "simsynth --host qemu" simsynth -v --host qemu -H 3 -c 2 -n 15 --nic corundum \
	    "$T/sq"
	cp "$T/.err" "$T/sq.stats"
	for h in server0 client0 client1; do
		f=$h.qemu.log
		check "sim2ev $f" sim2ev -f qemu --stats -n "$h" -o "$T/$h.ev" "$T/sq/$f"
		eq "$f: events as simsynth counted" \
		    "$(sed -n 's/.* lines = \([0-9]*\) events.*/\1/p' "$T/.err")" \
		    "$(awk -v f="$f" '$1 == f { print $4 }' "$T/sq.stats")"
		eq "$f: the noise simsynth wrote, as simbricks-other" \
		    "$(awk '$2 == "skipped:" { print $3, $1 }' "$T/.err")" \
		    "simbricks-other $(sed -n "s/^$f .*sbother=\([0-9]*\).*/\1/p" "$T/sq.stats")"
		stderr_has "time offset 2500000000 ps subtracted (from the sync line)"
		eq "$f: silent" "$(grep -c 'sim2ev: warning' "$T/.err")" 0
	done
	eq "commands.sh reads the QEMU logs with -f qemu" \
	    "$(grep -c '^sim2ev -f qemu ' "$T/sq/commands.sh")" 3
	eq "the truth has no host.syscall spans" "$(grep -c '"host.syscall"' "$T/sq/truth.csv")" 0
	# the Corundum Verilator model, behind gem5 hosts and behind QEMU
	for hs in gem5 qemu; do
		check "simsynth --host $hs --nic corundum-verilator" simsynth -v --host "$hs" \
		    --nic corundum-verilator -H 3 -c 2 -n 15 "$T/sv-$hs"
		cp "$T/.err" "$T/sv.stats"
		for nc in server0-nic client0-nic client1-nic; do
			f=$nc.corundum.log
			check "$hs: sim2ev $f" sim2ev -f corundum --stats -n "$nc" -o "$T/$nc.ev" \
			    "$T/sv-$hs/$f"
			eq "$hs: $f: events as simsynth counted" \
			    "$(sed -n 's/.* lines = \([0-9]*\) events.*/\1/p' "$T/.err")" \
			    "$(awk -v f="$f" '$1 == f { print $4 }' "$T/sv.stats")"
			eq "$hs: $f: skipped as simsynth counted" \
			    "$(awk '$2 == "skipped:" { print $3, $1 }' "$T/.err" | sort | tr '\n' ' ')" \
			    "nic-info $(sed -n "s/^$f .*nicinfo=\([0-9]*\).*/\1/p" "$T/sv.stats") simbricks-other $(sed -n "s/^$f .*sbother=\([0-9]*\).*/\1/p" "$T/sv.stats") "
			eq "$hs: $f: silent" "$(grep -c 'sim2ev: warning' "$T/.err")" 0
		done
		check "$hs: read completions carry the host's request id" \
		    grep -q 'read_done() ts=[0-9]*  id=[0-9]*  addr=0x' "$T/sv-$hs/client0-nic.corundum.log"
	done
	check "gem5: the request id is gem5's MMIO id" sh -c \
	    "grep -q \"id \$(sed -n 's/.*read_done() ts=[0-9]*  id=\\([0-9]*\\) .*/\\1/p' '$T/sv-gem5/client0-nic.corundum.log' | head -1) \" '$T/sv-gem5/client0.gem5.log'"
fi

# --- the wrong -f, empty input, interleaved logs --------------------------------
warns() {	# warns DESCRIPTION TEXT COMMAND...: exit 0, one warning with TEXT
	d=$1 text=$2; shift 2
	check "$d" "$@"
	if grep -qF -- "sim2ev: warning: " "$T/.err" && grep -qF -- "$text" "$T/.err" &&
	    [ "$(wc -l <"$T/.err")" -eq 1 ]; then ok "$d: one warning"
	else not_ok "$d: one warning with '$text'"; sed 's/^/# stderr: /' "$T/.err" | head -5; fi
}
warns "-f nicbm on a corundum log" "is it a Corundum Verilator log? try -f corundum" \
    sim2ev -f nicbm -o "$T/x.ev" "$T/cor.log"
warns "-f gem5 on a qemu log" "is it a QEMU log? try -f qemu" \
    sim2ev -f gem5 -o "$T/x.ev" "$T/qemu.log"
warns "-f qemu on a corundum log" "try -f corundum" sim2ev -f qemu -o "$T/x.ev" "$T/cor.log"
warns "-f corundum on an e1000 log" "is it an e1000 log? try -f e1000" \
    sim2ev -f corundum -o "$T/x.ev" "$T/e1000.log"
warns "-f e1000 on a qemu log" "try -f qemu" sim2ev -f e1000 -o "$T/x.ev" "$T/qemu.log"
: >"$T/empty"
for f in qemu corundum e1000; do
	check "-f $f: empty input" sim2ev -f "$f" -o "$T/e.ev" "$T/empty"
	eq "-f $f: empty input, silent" "$(wc -c <"$T/.err")" 0
	eq "-f $f: a valid empty stream" "$(evcat -n "$T/e.ev" | awk '$2 == "total" { print $1 }')" 0
done
# two QEMU logs interleaved (two processes writing one file)
echo "$W simbricks_timer_sync: ts=0 pts=0 npts=500000" >"$T/mix.log"
for i in 1 2 3 4 5 6 7 8 9 10 11; do
	printf '%s\n' "$W simbricks_mmio_rw: finished write (9000$i) addr=8 size=4 val=1" \
	    "$W simbricks_mmio_rw: finished write (100$i) addr=8 size=4 val=1"
done >>"$T/mix.log"
warns "interleaved QEMU logs" "time goes backwards" sim2ev -f qemu -o "$T/x.ev" "$T/mix.log"
stderr_has "interleaved or concatenated logs?"

done_testing
