#!/bin/sh
# evspan: usage, configuration errors (exit 2, file:line:col), input
# errors (exit 1, stream and offset), output options, determinism, stats.
. "$(dirname "$0")/../lib.sh"
RULES="$TOP/rules/linux-i40e.csv"

mkdumbbell -n 20 "$T/d" >/dev/null
D="$T/d"

# --- help, version, usage --------------------------------------------------
expect_rc 0 "--help" evspan --help
stdout_has "usage: evspan -t TOPOLOGY"
stdout_has "See evspan(1)"
expect_rc 0 "-h" evspan -h
expect_rc 0 "--version" evspan --version
stdout_has "evspan 0."
expect_rc 2 "no topology" evspan -o "$T/x.sp"
stderr_has "a topology is needed"
stderr_has "usage: evspan"
expect_rc 2 "unknown option" evspan -t "$D/topology.csv" --frobnicate
expect_rc 2 "operand without =" evspan -t "$D/topology.csv" client.ev
stderr_has "'client.ev': expected NAME=FILE"
expect_rc 2 "bad --seed" evspan -t "$D/topology.csv" --seed 12x
stderr_has "--seed 12x: invalid"
expect_rc 2 "huge --seed" evspan -t "$D/topology.csv" --seed 99999999999999999999999
stderr_has "too large"

# --- configuration errors: exit 2, naming file, line and column -------------
printf 'stream,a,host,a.ev\nstream,b,hots,b.ev\n' > "$T/bad-topo.csv"
expect_rc 2 "bad topology kind" evspan -t "$T/bad-topo.csv" -o "$T/x.sp"
stderr_has "bad-topo.csv:2:10: unknown stream kind 'hots'"
printf 'stream,a,host,a.ev\npcie,a,nic0\n' > "$T/bad-topo2.csv"
expect_rc 2 "topology names an unknown stream" evspan -t "$T/bad-topo2.csv" -o "$T/x.sp"
stderr_has "bad-topo2.csv:2:8: no stream named 'nic0'"
printf 'class,function\nsyscall-entry,entry_SYSCALL_64\ndriver_rx,i40e_napi_poll\n' > "$T/bad-rules.csv"
expect_rc 2 "bad rules class" evspan -t "$D/topology.csv" -r "$T/bad-rules.csv" -o "$T/x.sp"
stderr_has "bad-rules.csv:3:1: unknown class 'driver_rx'"
printf 'device-bar,nic9,0\n' > "$T/bad-rules2.csv"
expect_rc 2 "device-bar of an unknown nic" evspan -t "$D/topology.csv" -r "$T/bad-rules2.csv" -o "$T/x.sp"
stderr_has "bad-rules2.csv:1:12: no stream named 'nic9'"
expect_rc 2 "NAME=FILE of an unknown stream" evspan -t "$D/topology.csv" nope=x.ev -o "$T/x.sp"
stderr_has "has no stream named 'nope'"
printf 'stream,a,host\n' > "$T/nofile.csv"
expect_rc 2 "stream without file" evspan -t "$T/nofile.csv" -o "$T/x.sp"
stderr_has "nofile.csv:1: stream 'a' has no file"
printf 'stream,a,host,-\nstream,b,nic,-\n' > "$T/twostdin.csv"
expect_rc 2 "stdin twice" evspan -t "$T/twostdin.csv" -o "$T/x.sp"
stderr_has "standard input is already given"
# a stream whose header says another kind than the topology
sed 's/^stream,client-nic,nic,client-nic.ev$/stream,client-nic,nic,server.ev/' \
    "$D/topology.csv" > "$D/mixed.csv"
expect_rc 2 "stream kind mismatch" evspan -t "$D/mixed.csv" -o "$T/x.sp"
stderr_has "server.ev: holds gem5 (host) events, but"
stderr_has "lists stream 'client-nic' as a nic stream"
# headers that do not say, or contradict, their simulator (txt2ev -k none:
# no simulator and kind keys; -m adds keys)
printf '100 nic_wr off=0x108000 len=4 val=0x1 posted=1\n' > "$T/nic.txt"
txt2ev -s client-nic -k none -o "$T/nosim.ev" "$T/nic.txt"
expect_rc 2 "header without a simulator" evspan -t "$D/topology.csv" \
    client-nic="$T/nosim.ev" -o "$T/x.sp"
stderr_has "evspan: $T/nosim.ev: stream 'client-nic': the header names no simulator (the 'simulator' key is required)"
txt2ev -s client-nic -k none -m kind=nic -o "$T/kindonly.ev" "$T/nic.txt"
expect_rc 2 "header with a kind but no simulator" evspan -t "$D/topology.csv" \
    client-nic="$T/kindonly.ev" -o "$T/x.sp"
stderr_has "kindonly.ev: stream 'client-nic': the header names no simulator"
txt2ev -s client-nic -k none -m simulator=bochs -m kind=nic -o "$T/bochs.ev" "$T/nic.txt"
expect_rc 2 "unknown simulator" evspan -t "$D/topology.csv" \
    client-nic="$T/bochs.ev" -o "$T/x.sp"
stderr_has "bochs.ev: stream 'client-nic': the header names an unknown simulator 'bochs' (expected gem5, nicbm, ns3, switch, qemu, corundum, e1000 or pcap)"
txt2ev -s client-nic -k none -m simulator=nicbm -m kind=host -o "$T/both.ev" "$T/nic.txt"
expect_rc 2 "simulator and kind disagree" evspan -t "$D/topology.csv" \
    client-nic="$T/both.ev" -o "$T/x.sp"
stderr_has "both.ev: stream 'client-nic': the header names simulator nicbm but kind 'host' (nicbm streams are nic streams)"
txt2ev -s client-nic -k none -m simulator=nicbm -o "$T/simonly.ev" "$T/nic.txt"
check "a simulator without the kind key is enough" evspan -t "$D/topology.csv" \
    client-nic="$T/simonly.ev" -o "$T/x.sp"
check "-k nic: both keys" sh -c "txt2ev -s client-nic -k nic -o '$T/ok.ev' '$T/nic.txt' &&
    evspan -t '$D/topology.csv' client-nic='$T/ok.ev' -o '$T/x.sp'"

# --- missing and broken inputs: exit 1 -------------------------------------
expect_rc 1 "missing topology file" evspan -t "$T/none.csv" -o "$T/x.sp"
stderr_has "none.csv"
expect_rc 1 "missing rules file" evspan -t "$D/topology.csv" -r "$T/none.csv" -o "$T/x.sp"
expect_rc 1 "missing event file" evspan -t "$D/topology.csv" net="$T/none.ev" -o "$T/x.sp"
stderr_has "none.ev"
printf 'not an event stream\n' > "$T/text.ev"
expect_rc 1 "not an event stream" evspan -t "$D/topology.csv" net="$T/text.ev" -o "$T/x.sp"
stderr_has "bad magic"
stderr_has "evspan: stream net: "

# A truncated stream: reported with its byte offset, spans from the data
# before the damage are still written.
check "full run" evspan -t "$D/topology.csv" -r "$RULES" -o "$T/full.sp"
size=$(wc -c < "$D/net.ev")
head -c $((size / 2)) "$D/net.ev" > "$T/net-half.ev"
expect_rc 1 "truncated stream" evspan -t "$D/topology.csv" -r "$RULES" \
    net="$T/net-half.ev" -o "$T/half.sp" --stats
stderr_has "stream net: $T/net-half.ev: offset"
stderr_has "spans from the data before it are written"
full=$(spancat -n "$T/full.sp" | awk '$2 == "spans" {print $1}')
half=$(spancat -n "$T/half.sp" | awk '$2 == "spans" {print $1}')
check "truncated run still wrote spans ($half of $full)" \
    test "$half" -gt 100 -a "$half" -lt "$full"
# a corrupted byte in the middle: checksum error, same handling
cp "$D/client-nic.ev" "$T/flip.ev"
printf '\377' | dd of="$T/flip.ev" bs=1 seek=$(($(wc -c < "$T/flip.ev") / 2)) \
    conv=notrunc 2>/dev/null
expect_rc 1 "corrupt stream" evspan -t "$D/topology.csv" -r "$RULES" \
    client-nic="$T/flip.ev" -o "$T/flip.sp"
stderr_has "stream client-nic:"
stderr_has "offset"

# --- output ------------------------------------------------------------------
expect_rc 1 "/dev/full" evspan -t "$D/topology.csv" -r "$RULES" -o /dev/full
expect_rc 1 "stdout to /dev/full" sh -c "evspan -t '$D/topology.csv' -r '$RULES' > /dev/full"
check "stdout" sh -c "evspan -t '$D/topology.csv' -r '$RULES' > '$T/stdout.sp'"
check "same output twice (deterministic)" cmp "$T/full.sp" "$T/stdout.sp"
check "-z" sh -c "evspan -z -t '$D/topology.csv' -r '$RULES' > '$T/z.sp'"
eq "-z writes zstd" "$(od -An -tx1 -N4 "$T/z.sp" | tr -d ' ')" "28b52ffd"
check ".zst output name compresses" evspan -t "$D/topology.csv" -r "$RULES" -o "$T/auto.sp.zst"
eq ".zst writes zstd" "$(od -An -tx1 -N4 "$T/auto.sp.zst" | tr -d ' ')" "28b52ffd"
check "spancat reads it" sh -c "spancat '$T/z.sp' > '$T/z.txt' && spancat '$T/full.sp' > '$T/f.txt' && cmp '$T/z.txt' '$T/f.txt'"
# compressed inputs give the same spans
for s in client server client-nic server-nic net; do zstd -q -f "$D/$s.ev" -o "$D/$s.ev.zst"; done
check "zstd inputs" evspan -t "$D/topology.csv" -r "$RULES" -o "$T/fromz.sp" \
    client="$D/client.ev.zst" server="$D/server.ev.zst" \
    client-nic="$D/client-nic.ev.zst" server-nic="$D/server-nic.ev.zst" net="$D/net.ev.zst"
check "zstd inputs: same spans" cmp "$T/full.sp" "$T/fromz.sp"
check "stdin as a stream" sh -c "evspan -t '$D/topology.csv' -r '$RULES' net=- -o '$T/stdin.sp' < '$D/net.ev'"
check "stdin: same spans" cmp "$T/full.sp" "$T/stdin.sp"

# concatenated segments of one stream: string ids start over in the second
mkdumbbell -n 3 "$T/c1" >/dev/null
cat "$T/c1/server.ev" "$T/c1/server.ev" > "$T/cat.ev"
check "concatenated segments" evspan --stats -t "$T/c1/topology.csv" -r "$RULES" server="$T/cat.ev" -o "$T/cat.sp"
eq "both segments read" "$(awk '$1 == "server" {print $3}' "$T/.err")" "$((2 * $(evcat -n "$T/c1/server.ev" | awk '$2 == "total" {print $1}')))"
eq "time going backwards is counted" "$(awk '$1 == "server" {print $6}' "$T/.err")" "1"
spancat "$T/cat.sp" > "$T/cat.txt"
eq "names right after the string ids restart" \
    "$(grep -c 'host.syscall.*stream=server.*entry=entry_SYSCALL_64 call=__sys_recvfrom' "$T/cat.txt")" "6"

# --seed sets trace_hi; without it, it depends on the inputs only
check "--seed" evspan -t "$D/topology.csv" -r "$RULES" --seed 0x1234 -o "$T/seed.sp"
eq "trace_hi is the seed" "$(spancat --csv "$T/seed.sp" | tr -d '"' | awk -F, 'NR == 2 {print $3}')" "0x1234"
eq "trace_lo of the first root is 1" "$(spancat --csv "$T/seed.sp" | tr -d '"' | awk -F, 'NR == 2 {print $4}')" "0x1"

# --events: member events follow their spans; all used events are there
check "--events" evspan -e -t "$D/topology.csv" -r "$RULES" -o "$T/ev.sp" --stats
used=$(awk '$1 == "total" {print $3}' "$T/.err")
eq "member events = used events" \
    "$(spancat -n "$T/ev.sp" | awk '$2 == "member" {print $1}')" "$used"
spancat "$T/ev.sp" | sed -n 2p > "$T/ev2"
check "an ev record right after a span" grep -q "ev.func.*stream=client" "$T/ev2"

# --stats: counts add up
check "--stats" evspan --stats -t "$D/topology.csv" -r "$RULES" -o "$T/x.sp"
stderr_has "events per stream:"
stderr_has "dropped events by reason:"
stderr_has "spans by kind:"
stderr_has "orphans by missing context: 0"
cp "$T/.err" "$T/stats"
eq "in = used + dropped" "$(awk '$1 == "total" && NF == 4 {print ($2 == $3 + $4)}' "$T/stats")" "1"
check "every stream adds up" sh -c "! grep -qF '(mismatch!)' '$T/stats'"
eq "362 spans for 20 requests" "$(awk '$2 == "total" {print $1}' "$T/stats")" "362"
# the exact lines: no dropped events, no orphans
eq "stats: dropped events, none" \
    "$(sed -n '/^dropped events by reason:$/,/^spans by kind:$/p' "$T/stats")" \
    "dropped events by reason:
             0  none
spans by kind:"
eq "stats: no orphans" "$(grep '^orphans' "$T/stats")" "orphans by missing context: 0"
eq "stats: traces" "$(grep '^traces' "$T/stats")" \
    "traces: 22 roots, 0 links, 2 open, 0 background, 0 incomplete, 0 left out (root rule)"
check "-v" evspan -v -t "$D/topology.csv" -r "$RULES" -o "$T/x.sp"
stderr_has "evspan: 782 events from 5 streams -> 362 spans in 22 traces"

# Without -r: only SPEC defaults, and a warning (with or without --stats)
check "no rules" evspan --stats -t "$D/topology.csv" -o "$T/norules.sp"
stderr_has "evspan: warning: no rules (-r): no function is a syscall entry"
eq "no syscall spans without rules" \
    "$(spancat -n "$T/norules.sp" | awk '$2 == "host.syscall" {print $1}')" ""
stderr_has "function outside any syscall"
cp "$T/.err" "$T/stats"
eq "stats without rules: dropped events by reason" \
    "$(sed -n '/^dropped events by reason:$/,/^spans by kind:$/p' "$T/stats")" \
    "dropped events by reason:
           162  function outside any syscall
spans by kind:"
eq "stats without rules: orphans, the first cause" "$(grep '^orphans' "$T/stats")" \
    "orphans by missing context: 20 (syscall 20)"
# several causes: half of the client NIC's stream is missing
head -c $(($(wc -c < "$D/client-nic.ev") / 2)) "$D/client-nic.ev" > "$T/cn-half.ev"
expect_rc 1 "stats with a truncated NIC stream" evspan --stats -t "$D/topology.csv" \
    client-nic="$T/cn-half.ev" -o "$T/x.sp"
eq "stats: orphans by several causes" "$(grep '^orphans' "$T/.err")" \
    "orphans by missing context: 80 (syscall 20, dma 40, tx 20)"

done_testing
