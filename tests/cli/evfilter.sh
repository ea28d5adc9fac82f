#!/bin/sh
# evfilter: every option and filter, composition in one invocation and in
# pipes, the statistics, output rules, configuration errors, the man
# page's examples.
. "$(dirname "$0")/../lib.sh"

RULES="$DATA/samples/rules-linux-i40e.csv"
# kept DESC EXPECTED-TEXT EVFILTER-ARGS...: evfilter over $T/in.ev, as text
kept() {
	d=$1; want=$2; shift 2
	if evfilter "$@" "$T/in.ev" > "$T/k.ev" 2> "$T/k.err" &&
	    evcat "$T/k.ev" | awk '{ print $1 }' | tr '\n' ' ' > "$T/k.txt"; then
		eq "$d" "$(cat "$T/k.txt")" "$want"
	else
		not_ok "$d"; sed 's/^/# stderr: /' "$T/k.err"
	fi
}

# --- usage -------------------------------------------------------------------
check "--help" evfilter --help
stdout_has "usage: evfilter [-hiNqVvz]"
stdout_has "See evfilter(1)."
check "-h" evfilter -h
check "--version" evfilter --version
stdout_has "evfilter 0.1.0 (zstd "
check "-V" evfilter -V
check "--list" evfilter --list
stdout_has "types: sync proc_in insn func mmio_rd"
stdout_has "  noise  sync,proc_in"
stdout_has "  dma    dma_rd,dma_wr,dma_done,nic_dma_issue,"
check "-l" evfilter -l
for bad in "--bogus" "-x" "-t" "-t nosuchtype" "-t func,," "-T ,insn" \
    "--from 1h" "--from abc" "--from 10 --to 10" "--from 20ns --to 10ns" \
    "--from 99999999999999999999" "--from 9223372036854776s" "--to -99999999999999999999ps" \
    "--from 1.5ns" "--to ''" \
    "--net-dev 1" "--net-dev 1:x" "--net-dev 99999999999:1" "--net-dev 1:2," \
    "--comp ," "--cpu a,,b" "--class blacklist" "--class ,x -b $RULES" \
    "a.ev b.ev"; do
	# shellcheck disable=SC2086
	expect_rc 2 "bad usage: $bad" evfilter $bad
	stderr_has "usage: evfilter"
done
expect_rc 2 "unknown type names it" evfilter -t func,bogus
stderr_has "-t: unknown event type or group 'bogus'"
expect_rc 2 "huge time says so" evfilter --from 99999999999999999999
stderr_has "--from 99999999999999999999: time too large"
expect_rc 2 "huge time with a unit" evfilter --to 9223372036854776s
stderr_has "time too large"
expect_rc 2 "empty window" evfilter --from 2us --to 1us
stderr_has "empty time window"

# --- a small stream with known content ------------------------------------------
cat > "$T/in.txt" <<'EOF'
1000 sync sync_ts=500
2000 proc_in
3000 func cpu=system.switch_cpus sym=__sys_sendto table=linux
4000 func cpu=system.switch_cpus1 sym=up_write table=linux
5000 func cpu=system.switch_cpus sym=i40e_lan_xmit_frame table=i40e
6000 mmio_wr comp=system.pc.simbricks_0 addr=0xc0508000 size=4 id=1 bar=0 offs=0x108000 posted=1
7000 mmio_posted comp=system.pc.simbricks_0.pio
8000 dma_rd comp=system.pc.simbricks_1 id=2 addr=0x100 size=16
9000 net_enq node=1 dev=2 devtype=CosimNetDevice source=RxPacketFromAdapter uid=1 interesting=1
10000 net_enq node=1 dev=1 devtype=SimpleNetDevice source=TxQueue/Enqueue uid=1 interesting=1
11000 net_deq node=0 dev=2 devtype=CosimNetDevice source=TxPacketToAdapter uid=1 interesting=1
12000 net_enq node=0 dev=1 devtype=SimpleNetDevice source=TxQueue/Enqueue uid=9 interesting=0
13000 insn cpu=system.switch_cpus pc=0xffffffff81000000 upc=-1
14000 nic_msix vec=1
EOF
mkevents -r -S host0 -m source=gem5.log < "$T/in.txt" > "$T/in.ev"
ALL="1000 2000 3000 4000 5000 6000 7000 8000 9000 10000 11000 12000 13000 14000 "

# --- pass-through ------------------------------------------------------------------
kept "pass-through keeps everything" "$ALL"
check "pass-through: the same events" sh -c "test \"\$(evfilter '$T/in.ev' | evcat)\" = \"\$(evcat '$T/in.ev')\""
check "metadata is kept, a filter key added" sh -c "evfilter -t func '$T/in.ev' | evcat -H > '$T/h.txt'"
check "stream key" grep -qx "# stream: host0" "$T/h.txt"
check "source key" grep -qx "# source: gem5.log" "$T/h.txt"
check "simulator key" grep -qx "# simulator: gem5" "$T/h.txt"
check "filter key" grep -qx "# filter: evfilter: types=func" "$T/h.txt"
check "pass-through says so" sh -c "evfilter '$T/in.ev' | evcat -H | grep -qx '# filter: evfilter: pass-through'"

# --- types and groups ------------------------------------------------------------------
kept "-t func" "3000 4000 5000 " -t func
kept "-t func,mmio_wr" "3000 4000 5000 6000 " -t func,mmio_wr
kept "--types twice add up" "3000 4000 5000 14000 " --types func --types nic_msix
kept "-T insn" "1000 2000 3000 4000 5000 6000 7000 8000 9000 10000 11000 12000 14000 " -T insn
kept "--exclude-types net,noise" "3000 4000 5000 6000 7000 8000 13000 14000 " --exclude-types net,noise
kept "group mmio" "6000 7000 " -t mmio
kept "group dma" "8000 " -t dma
kept "group irq" "14000 " -t irq
kept "group host" "1000 2000 3000 4000 5000 6000 7000 8000 13000 " -t host
kept "group nic" "14000 " -t nic
kept "group net" "9000 10000 11000 12000 " -t net
kept "group all minus a type" "1000 2000 3000 4000 5000 6000 7000 8000 9000 10000 11000 12000 14000 " -t all -T insn
kept "-t and -T together" "4000 " -t func,insn -T insn --cpu '*1'
kept "-T wins over -t" "" -t func -T func
kept "-N drops sync noise" "3000 4000 5000 6000 7000 8000 9000 10000 11000 12000 13000 14000 " -N
kept "--no-noise" "3000 4000 5000 6000 7000 8000 9000 10000 11000 12000 13000 14000 " --no-noise

# --- time window -------------------------------------------------------------------------
kept "--from is inclusive" "5000 6000 7000 8000 9000 10000 11000 12000 13000 14000 " --from 5000
kept "--to is exclusive" "1000 2000 3000 4000 " --to 5000
kept "ns" "5000 6000 7000 " --from 5ns --to 8ns
kept "us, ms, s and ps" "1000 " --from 0s --to 2000ps
kept "a window with types" "3000 4000 " -t func --from 1ns --to 5ns

# --- components, cpus, tables --------------------------------------------------------------
kept "--comp exact" "1000 2000 3000 4000 5000 6000 9000 10000 11000 12000 13000 14000 " --comp system.pc.simbricks_0
kept "--comp pattern" "1000 2000 3000 4000 5000 6000 7000 8000 9000 10000 11000 12000 13000 14000 " --comp 'system.pc.simbricks_*'
kept "--comp list" "1000 2000 3000 4000 5000 7000 8000 9000 10000 11000 12000 13000 14000 " --comp 'system.pc.simbricks_1,*.pio'
kept "--cpu" "1000 2000 4000 6000 7000 8000 9000 10000 11000 12000 14000 " --cpu system.switch_cpus1
kept "--cpu also filters insn" "3000 5000 13000 " --cpu system.switch_cpus -t func,insn
kept "--table" "5000 " --table i40e -t func
kept "--table pattern" "3000 4000 5000 " --table '*' -t func

# --- ns-3 devices, interesting ----------------------------------------------------------------
kept "--net-dev pairs" "9000 11000 " --net-dev 1:2,0:2 -t net
kept "--net-dev node:*" "11000 12000 " --net-dev '0:*' -t net
kept "-i drops background packets" "9000 10000 11000 " -i -t net
kept "--interesting with --net-dev" "11000 " --interesting --net-dev 0:2,0:1 -t net

# --- function lists ------------------------------------------------------------------------------
kept "-b rules CSV: the blacklist class" "3000 5000 " -t func -b "$RULES"
kept "-w rules CSV: every other class" "3000 5000 " -t func -w "$RULES"
kept "--class picks rows" "3000 " -t func -w "$RULES" --class kernel-tx,syscall-entry
kept "--class for -b" "4000 5000 " -t func -b "$RULES" --class kernel-tx
printf '__sys_sendto\n"i40e_lan_xmit_frame"\n' > "$T/list.csv"
kept "-b plain list" "4000 " -t func -b "$T/list.csv"
kept "--blacklist twice" "" -t func --blacklist "$T/list.csv" --blacklist "$RULES"
kept "-w plain list" "3000 5000 " -t func --whitelist "$T/list.csv"
kept "-w and -b" "5000 " -t func -w "$T/list.csv" -b "$RULES" --class kernel-tx
kept "function lists leave other events alone (2)" "1000 2000 4000 6000 7000 8000 9000 10000 11000 12000 13000 14000 " -b "$T/list.csv"
printf 'class,function\nblacklist,a\n"kernel-tx,b\n' > "$T/bad.csv"
expect_rc 2 "bad CSV: exit 2" evfilter -b "$T/bad.csv" "$T/in.ev"
stderr_has "$T/bad.csv:3:1: unterminated quoted field"
# the shipped rules (comments with quotes, evspan-only classes) read as evspan reads them
kept "-b rules/linux-i40e.csv" "4000 5000 " -t func -b "$TOP/rules/linux-i40e.csv" --class kernel-tx
printf 'a\nb,c\n' > "$T/bad2.csv"
expect_rc 2 "two fields in a plain list" evfilter -w "$T/bad2.csv" "$T/in.ev"
stderr_has "$T/bad2.csv:2:3: expected one function name per row, found 2 fields"
expect_rc 2 "no rows of the class" evfilter -b "$RULES" --class nosuch "$T/in.ev"
stderr_has "no rows of class nosuch (classes in the file: linux-net, driver-net, kernel-tx, kernel-rx, pci-write, driver-tx, driver-rx, syscall-entry, blacklist)"
expect_rc 1 "a missing list file" evfilter -b "$T/nope.csv" "$T/in.ev"
stderr_has "$T/nope.csv: No such file or directory"
zstd -q -c "$T/list.csv" > "$T/list.csv.zst"
kept "a compressed list" "4000 " -t func -b "$T/list.csv.zst"

# --- composition -------------------------------------------------------------------------------
check "one invocation equals a pipe of filters" sh -c \
    "evfilter -t func,net -b '$RULES' -i '$T/in.ev' | evcat > '$T/one.txt' &&
     evfilter -t func,net '$T/in.ev' | evfilter -b '$RULES' | evfilter -i | evcat > '$T/pipe.txt' &&
     cmp '$T/one.txt' '$T/pipe.txt'"
check "filter keys chain through a pipe" sh -c \
    "evfilter -t func '$T/in.ev' | evfilter -N | evcat -H | grep -qx '# filter: evfilter: types=func | evfilter: no-noise'"

# --- statistics ----------------------------------------------------------------------------------
check "--stats" sh -c "evfilter --stats -N -t func,net,insn --from 2ns -b '$RULES' --net-dev '1:2,0:*' -i '$T/in.ev' > /dev/null"
stderr_has "evfilter: $T/in.ev: 14 events in, 5 kept, 9 dropped"
stderr_has "evfilter:            2 dropped by noise"
stderr_has "evfilter:            4 dropped by type"
stderr_has "evfilter:            0 dropped by time"
stderr_has "evfilter:            1 dropped by net-dev"
stderr_has "evfilter:            1 dropped by interesting"
stderr_has "evfilter:            1 dropped by function"
check "--stats lists only the filters in use" sh -c "evfilter --stats -t func '$T/in.ev' 2>&1 >/dev/null | grep -c 'dropped by' | grep -qx 1"
check "--stats adds up" sh -c "evfilter --stats -t func -b '$RULES' '$T/in.ev' 2>&1 >/dev/null | awk '/events in/ { i = \$3; k = \$6; d = \$8 } /dropped by/ { s += \$2 } END { exit !(i == k + d && d == s) }'"
check "quiet without --stats" sh -c "evfilter -t func '$T/in.ev' 2>&1 >/dev/null | wc -c | grep -qx ' *0'"
check "-v: stats and the filter" sh -c "evfilter -v -t func '$T/in.ev' > /dev/null"
stderr_has "evfilter: filter: types=func"
stderr_has "evfilter: $T/in.ev: 14 events in, 3 kept, 11 dropped"
check "--verbose" sh -c "evfilter --verbose '$T/in.ev' > /dev/null"
stderr_has "evfilter: filter: none (pass-through)"
mkevents -n 200000 -o "$T/big.ev"
check "big stream: in = kept + dropped per reason" sh -c \
    "evfilter --stats -N -T insn -b '$RULES' --cpu 'system.switch_cpus' '$T/big.ev' 2>&1 > '$T/big2.ev' | awk '/events in/ { i = \$3; k = \$6; d = \$8 } /dropped by/ { s += \$2 } END { exit !(i == 200000 && i == k + d && d == s) }'"
check "big stream: kept count is what evcat counts" sh -c \
    "test \"\$(evcat -n '$T/big2.ev' | awk '/total/ {print \$1}')\" -eq \"\$(evfilter --stats -N -T insn -b '$RULES' --cpu system.switch_cpus '$T/big.ev' 2>&1 >/dev/null | awk '/events in/ {print \$6}')\""

# --- output --------------------------------------------------------------------------------------
check "-o FILE" evfilter -t func -o "$T/o.ev" "$T/in.ev"
check "-o FILE is a plain stream" sh -c "head -c 4 '$T/o.ev' | od -An -tx1 | grep -q '89 53 53 45'"
check "--output FILE.zst compresses" evfilter -t func --output "$T/o.ev.zst" "$T/in.ev"
check "zstd magic" sh -c "head -c 4 '$T/o.ev.zst' | od -An -tx1 | grep -q '28 b5 2f fd'"
check "-z to stdout" sh -c "evfilter -z -t func '$T/in.ev' > '$T/z.ev' && head -c 4 '$T/z.ev' | od -An -tx1 | grep -q '28 b5 2f fd'"
check "--zstd with -o" sh -c "evfilter --zstd -o '$T/z2.ev' '$T/in.ev' && zstd -t -q '$T/z2.ev'"
check "compressed outputs read back" sh -c "evcat '$T/o.ev.zst' > '$T/a1' && evcat '$T/o.ev' > '$T/a2' && evcat '$T/z.ev' > '$T/a3' && cmp '$T/a1' '$T/a2' && cmp '$T/a1' '$T/a3'"
check "zstdcat of the output" sh -c "zstdcat '$T/o.ev.zst' | evcat | cmp - '$T/a2'"
check ".zst input by name" sh -c "evfilter '$T/o.ev.zst' | evcat | cmp - '$T/a2'"
check ".zst input on stdin" sh -c "evfilter < '$T/o.ev.zst' | evcat | cmp - '$T/a2'"
check "- is stdin" sh -c "evfilter - < '$T/in.ev' | evcat -n | grep -q ' 14 total'"
expect_rc 1 "refuses a terminal" script -qec "evfilter '$T/in.ev'" /dev/null
stdout_has "refusing to write binary records to a terminal"
check "-f writes to a terminal anyway" script -qec "evfilter --force -t nic '$T/in.ev' > /dev/null" /dev/null
check "--force" script -qec "evfilter --force -t nic '$T/in.ev'" /dev/null
expect_rc 1 "an unwritable output" evfilter -o /nonexistent/dir/o.ev "$T/in.ev"
stderr_has "/nonexistent/dir/o.ev: No such file or directory"
cp "$T/in.ev" "$T/same.ev"
expect_rc 1 "-o the input file is refused" evfilter -o "$T/same.ev" "$T/same.ev"
stderr_has "$T/same.ev: the output is the input file"
check "and the input is intact" sh -c "evcat -n '$T/same.ev' | grep -q ' 14 total'"
expect_rc 1 "a missing input" evfilter "$T/nope.ev"
stderr_has "$T/nope.ev: No such file or directory"

# --- the man page's examples ------------------------------------------------------------------------
mkevents -n 5000 -z -o "$T/host.ev.zst"
check "example: drop noise and blacklisted functions" sh -c \
    "evfilter -N -b '$RULES' -o '$T/host-f.ev.zst' '$T/host.ev.zst' && evcat -n '$T/host-f.ev.zst' > /dev/null"
check "example: a window of function entries as CSV" sh -c \
    "evfilter -t func --from 1ms --to 1001us '$T/host.ev.zst' | evcat --csv > '$T/w.csv' && test \$(wc -l < '$T/w.csv') -gt 1"
check "example: whitelist from the rules" sh -c \
    "evfilter -t func -w '$RULES' --class syscall-entry,kernel-tx '$T/host.ev.zst' | evcat -n > /dev/null"
check "example: ns-3 packets of two NICs" sh -c \
    "evfilter -t net -i --net-dev 1:2,0:2 --stats '$T/host.ev.zst' 2>/dev/null | evcat > /dev/null"
check "example: filters compose in pipes" sh -c \
    "evfilter -t func '$T/host.ev.zst' | evfilter -b '$RULES' | evcat -n > '$T/p1' &&
     evfilter -t func -b '$RULES' '$T/host.ev.zst' | evcat -n | cmp - '$T/p1'"

# --- over sim2ev output of the sample logs -----------------------------------------------------
SAMPLES="$DATA/samples"
check "sim2ev: ns-3 sample" sim2ev -f ns3 -n net -o "$T/net.ev" "$SAMPLES/ns3-simbricks/columbo-ns3-raw-log.txt"
check "sim2ev: gem5 sample" sim2ev -f gem5 -n host -o "$T/host.ev" "$SAMPLES/gem5/columbo-gem5-events-test.txt"
evcat "$T/net.ev" > "$T/net.txt"
# counts from the text form, by awk, against evfilter's
want=$(awk '$3 == "node=1" && ($4 == "dev=2" || $4 == "dev=3")' "$T/net.txt" | wc -l | tr -d ' ')
check "ns-3 sample: --net-dev 1:2,1:3" sh -c "evfilter --net-dev 1:2,1:3 '$T/net.ev' | evcat -n | grep -qx ' *$want total'"
want=$(grep -c 'interesting=1' "$T/net.txt")
check "ns-3 sample: -i keeps the $want interesting packets" sh -c "evfilter -i '$T/net.ev' | evcat -n | grep -qx ' *$want total'"
want=$(awk '$2 == "net_deq" && $8 == "interesting=1" && $3 == "node=0"' "$T/net.txt" | wc -l | tr -d ' ')
check "ns-3 sample: -t net_deq -i --net-dev '0:*'" sh -c "evfilter -t net_deq -i --net-dev '0:*' '$T/net.ev' | evcat -n | grep -qx ' *$want total'"
check "ns-3 sample: the kept events are the input's" sh -c \
    "evfilter -i '$T/net.ev' | evcat > '$T/i.txt' && grep 'interesting=1' '$T/net.txt' | cmp - '$T/i.txt'"
check "gem5 sample: mmio writes" sh -c "evfilter -t mmio_wr '$T/host.ev' | evcat | awk '{print \$1}' | tr '\n' ' ' | grep -qx '1967474400999 1967474526999 '"
check "gem5 sample: time window in us" sh -c "evfilter --from 1869693us --to 1869700us '$T/host.ev' | evcat -n | grep -qx ' *3 total'"
check "gem5 sample: keeps sim2ev's metadata" sh -c "evfilter -N '$T/host.ev' | evcat -H | grep -q '^# producer: sim2ev'"

done_testing
