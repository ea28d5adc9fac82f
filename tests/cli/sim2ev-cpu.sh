#!/bin/sh
# sim2ev on a gem5 log with two CPUs (issue 11, KCTX-CONTRACT §1-2): the
# cpu field of host device events, the user event, a user-space symbol
# table with a load offset, and how evcat and evfilter show them.
. "$(dirname "$0")/../lib.sh"

# Hand-written after the real Exec and adapter lines of FORMATS.md §2-§4:
# system.switch_cpus0/1 print in CPU order within a tick; each adapter
# line follows an Exec line of the CPU that issued the access.
cat > "$T/mc.log" <<'EOF'
1000: system.pc.pci_host: 00:03.0: read: offset=0x0, size=0x4
2000: system.switch_cpus0: A0 T0 : 0xffffffff81600000    : swapgs : IntAlu :
2000: system.switch_cpus1: A0 T0 : 0x0000555555555100    : push rbp : IntAlu :
2000: system.switch_cpus1: A0 T0 : 0x0000555555555101. 0 : MOV_R_R : mov rbp, rsp : IntAlu :
2000: system.pc.simbricks_0: simbricks-pci: sending read addr c0000000 size 4 id 1 bar 0 offs 0
2500: system.switch_cpus0: A0 T0 : 0xffffffff81600010    : mov : IntAlu :
2500: system.pc.simbricks_0: simbricks-pci: sending write addr c0508000 size 4 id 2 bar 0 offs 108000 posted 1
2500: system.pc.simbricks_0: simbricks-pci: received MSI-X intr vec 1
3000: system.switch_cpus0: A0 T0 : 0x00007f0000001000    : ret : IntAlu :
3000: system.switch_cpus1: A0 T0 : 0x0000555555555250    : push rbp : IntAlu :
3000: system.switch_cpus1: A0 T0 : 0xffffffff81600000    : swapgs : IntAlu :
3000: system.pc.simbricks_0: writeConfig: dev 0 func 0 reg 0x4 2 bytes: data = 0x6
3500: system.switch_cpus1: A0 T0 : 0x0000555555555254    : mov : IntAlu :
3500: system.switch_cpus0: A0 T0 : 0x00007f0000001004    :   NOP : IntAlu :
3500: system.pc.pci_host.interface[00:03.0]: postInt
EOF
printf 'ffffffff81600000 T entry_SYSCALL_64\n' > "$T/vmlinux.syms"
printf '0000000000001100 T main\n0000000000001250 t do_request\n' > "$T/app.syms"

check "two CPUs, two tables" sim2ev -f gem5 -s "$T/vmlinux.syms" \
    -s "$T/app.syms,netperf,0x555555554000" --stats -o "$T/mc.ev" "$T/mc.log"
stderr_has "15 lines = 12 with events (13 events) + 3 skipped"
evcat "$T/mc.ev" | sed 's/  */ /g; s/^ //' > "$T/mc.txt"
cat > "$T/want.txt" <<'EOF'
1000 pcihost_rd comp=system.pc.pci_host bus=0 dev=3 func=0 offset=0x0 size=4 cpu=
2000 func cpu=system.switch_cpus0 sym=entry_SYSCALL_64 table=vmlinux
2000 user cpu=system.switch_cpus1 pc=0x555555555100
2000 func cpu=system.switch_cpus1 sym=main table=netperf
2000 mmio_rd comp=system.pc.simbricks_0 addr=0xc0000000 size=4 id=1 bar=0 offs=0x0 cpu=system.switch_cpus1
2500 mmio_wr comp=system.pc.simbricks_0 addr=0xc0508000 size=4 id=2 bar=0 offs=0x108000 posted=1 cpu=system.switch_cpus0
2500 msix comp=system.pc.simbricks_0 vec=1
3000 user cpu=system.switch_cpus0 pc=0x7f0000001000
3000 func cpu=system.switch_cpus1 sym=do_request table=netperf
3000 func cpu=system.switch_cpus1 sym=entry_SYSCALL_64 table=vmlinux
3000 cfg_wr comp=system.pc.simbricks_0 dev=0 func=0 reg=0x4 bytes=2 data=0x6 cpu=system.switch_cpus1
3500 user cpu=system.switch_cpus1 pc=0x555555555254
3500 post_int comp=system.pc.pci_host.interface[00:03.0] bus=0 dev=3 func=0 cpu=system.switch_cpus0
EOF
check "every event, its cpu, the user events" diff "$T/want.txt" "$T/mc.txt"
check "header" sh -c "evcat -H '$T/mc.ev' > '$T/h.txt'"
check "format 1.2" grep -q '^# file .* (format 1\.2)$' "$T/h.txt"
check "user type in the schema, after net_rx" grep -q '^# type 38 user: cpu/s pc/x$' "$T/h.txt"
check "mmio_rd ends with cpu" grep -q ' mmio_rd: comp/s addr/x size/u id/u bar/i offs/x cpu/s$' "$T/h.txt"
check "post_int ends with cpu" grep -q ' post_int: comp/s bus/u dev/u func/u cpu/s$' "$T/h.txt"
check "msix has no cpu" grep -q ' msix: comp/s vec/u$' "$T/h.txt"
check "symtabs metadata has the offset" grep -q '# symtabs: vmlinux=.*;netperf=.*app.syms@0x555555554000$' "$T/h.txt"

# CSV and JSON carry the new field and type
check "csv" sh -c "evcat --csv '$T/mc.ev' > '$T/mc.csv'"
check "csv: cpu column for device and user events" sh -c \
    "grep -q '^2000,mmio_rd,' '$T/mc.csv' && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"cpu\") c = i }
	\$2 == \"mmio_rd\" || \$2 == \"user\" { print \$2, \$c }' '$T/mc.csv' | sort -u | grep -c switch_cpus | grep -qx 3"
check "json" sh -c "evcat -j '$T/mc.ev' | grep -q '\"type\":\"user\",\"cpu\":\"system.switch_cpus1\",\"pc\":\"0x555555555100\"'"

# evfilter: user is a host type; --cpu applies to device events, which
# pass when no CPU came before them
check "evfilter -t user" sh -c "evfilter -t user '$T/mc.ev' | evcat -n | awk '\$2 == \"total\" { print \$1 }' | grep -qx 3"
check "evfilter -t host keeps user events" sh -c "evfilter -T host '$T/mc.ev' | evcat | sed 's/  */ /g' > '$T/nothost.txt'"
check "-T host leaves nothing" test ! -s "$T/nothost.txt"
check "evfilter -t net has no user events" sh -c "evfilter -t net '$T/mc.ev' | evcat -n | awk '\$2 == \"total\" { print \$1 }' | grep -qx 0"
check "evfilter --cpu" sh -c "evfilter --cpu '*cpus1' '$T/mc.ev' | evcat | sed 's/  */ /g; s/^ //' > '$T/c1.txt'"
cat > "$T/want1.txt" <<'EOF'
1000 pcihost_rd comp=system.pc.pci_host bus=0 dev=3 func=0 offset=0x0 size=4 cpu=
2000 user cpu=system.switch_cpus1 pc=0x555555555100
2000 func cpu=system.switch_cpus1 sym=main table=netperf
2000 mmio_rd comp=system.pc.simbricks_0 addr=0xc0000000 size=4 id=1 bar=0 offs=0x0 cpu=system.switch_cpus1
2500 msix comp=system.pc.simbricks_0 vec=1
3000 func cpu=system.switch_cpus1 sym=do_request table=netperf
3000 func cpu=system.switch_cpus1 sym=entry_SYSCALL_64 table=vmlinux
3000 cfg_wr comp=system.pc.simbricks_0 dev=0 func=0 reg=0x4 bytes=2 data=0x6 cpu=system.switch_cpus1
3500 user cpu=system.switch_cpus1 pc=0x555555555254
EOF
check "evfilter --cpu: that CPU's events, device events without a CPU" diff "$T/want1.txt" "$T/c1.txt"
check "evfilter keeps the minor version" sh -c "evfilter -t func '$T/mc.ev' | evcat -H | head -1 | grep -q '(format 1.2)'"

# -s errors name the spec
expect_rc 2 "-s: bad offset" sim2ev -f gem5 -s "$T/app.syms,netperf,0x55x" -o "$T/x.ev" "$T/mc.log"
stderr_has "symbol table '$T/app.syms,netperf,0x55x': offset '0x55x': invalid"
expect_rc 2 "-s: four parts" sim2ev -f gem5 -s "$T/app.syms,netperf,0x1,2" -o "$T/x.ev" "$T/mc.log"
stderr_has "more than three comma-separated parts"
expect_rc 2 "-s: offset that wraps" sim2ev -f gem5 -s "$T/app.syms,netperf,0xfffffffffffff000" -o "$T/x.ev" "$T/mc.log"
stderr_has "app.syms:1: symbol main at 0x1100 plus the table offset 0xfffffffffffff000 passes 2^64"

# -I: the user event comes before the insn event of its line
check "-I" sh -c "sim2ev -f gem5 -I -o '$T/i.ev' '$T/mc.log' && evcat '$T/i.ev' | sed 's/  */ /g; s/^ //' > '$T/i.txt'"
check "-I: user then insn" sh -c "grep -A1 '^2000 user cpu=system.switch_cpus1' '$T/i.txt' | tail -1 | grep -q '^2000 insn cpu=system.switch_cpus1 pc=0x555555555100 upc=-1$'"
done_testing
