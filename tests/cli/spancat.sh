#!/bin/sh
# spancat: text, CSV, JSON, counts and trees of span streams.
. "$(dirname "$0")/../lib.sh"

mkspans -n 3 -o "$T/s.sp"
mkspans -n 8 -e -z -o "$T/se.sp.zst"

expect_rc 0 "--help" spancat --help
stdout_has "usage: spancat"
stdout_has "See spancat(1)"
expect_rc 0 "--version" spancat -V
stdout_has "spancat 0."
expect_rc 2 "unknown option" spancat --frob
stderr_has "usage: spancat"

# text: one record per line, stream names instead of indices
check "text" spancat "$T/s.sp"
stdout_has "host.syscall trace_hi=0x5353500000000001 trace_lo=0x1 span=0x1 parent=0x0 stream=client dur="
stdout_has "nic.mmio     trace_hi=0x5353500000000001 trace_lo=0x1 span=0x3 parent=0x2 stream=client-nic"
stdout_has " link "
eq "text: one line per record" "$(wc -l < "$T/.out")" "$(($(spancat -n "$T/s.sp" | awk '$2 == "spans" || $2 == "links" {n += $1} END {print n}')))"
# CSV: header, stream_name next to stream, hex fields as 0x lowercase
check "csv" spancat --csv "$T/s.sp"
# (cells are quoted only where RFC 4180 needs it)
eq "csv header" "$(head -1 "$T/.out" | cut -d, -f1-8)" 'ts,type,trace_hi,trace_lo,span,parent,stream,stream_name'
stdout_has ',host.dma,'
stdout_has ',0x108000,'
# JSON lines
check "json" spancat -j "$T/s.sp"
stdout_has '"type":"nic.dma","trace":"5353500000000001'
stdout_has '"stream":2,"stream_name":"net"'
cp "$T/.out" "$T/json"
check "json: every line parses" python3 -c "
import json, sys
n = 0
for line in open('$T/json'):
    json.loads(line); n += 1
sys.exit(0 if n == 56 else 1)"
# counts, from a compressed stream with member events
check "--count" spancat --count "$T/se.sp.zst"
stdout_has "         144 spans"
stdout_has "           9 traces"
stdout_has "           1 orphans"
stdout_has "           7 links"
stdout_has "          88 member events"
check "-H header" spancat -H "$T/s.sp"
stdout_has "# producer: mkspans"
stdout_has "# stream: client gem5"
stdout_has "# type 1 host.syscall: trace_hi/x"

# tree: each trace indented, links under their span
check "--tree --ps" spancat --tree --ps "$T/se.sp.zst"
stdout_has "trace 53535000000000010000000000000001: 18 spans,"
stdout_has "  host.syscall client          2000000000 +0 "
stdout_has "    host.mmio    client          2000004000 +4000 "
stdout_has "                  nic.rx       server-nic      2004601000 +4601000"
stdout_has "-> link nic.rx: span 13 of trace 53535000000000010000000000000001"
stdout_has "(2 events)"
stdout_has "(1 event)"
stdout_has "nic.rx       server-nic      2064601000 +0            dur 0          span 121 port=0 len=98 ORPHAN(missing net.device)"
eq "--tree: 8 traces plus the orphaned one" "$(grep -c '^trace' "$T/.out")" "9"
# tree in human units (the default), --trace, --slowest
check "--tree: human units" spancat --tree "$T/se.sp.zst"
stdout_has "trace 53535000000000010000000000000001: 18 spans, 6.158 us from 2.000 ms"
stdout_has "  host.syscall client           2.000 ms +0 ps         dur 60.000 ns   span 1 "
stdout_has "    host.mmio    client           2.000 ms +4.000 ns     dur 0 ps        span 2 "
stdout_has "                  nic.rx       server-nic       2.004 ms +4.601 us     dur 0 ps "
eq "--tree and --tree --ps: the same lines" "$(spancat --tree "$T/se.sp.zst" | wc -l)" \
    "$(spancat --tree --ps "$T/se.sp.zst" | wc -l)"
check "--trace ID (32 hex digits)" spancat --trace 53535000000000010000000000000025 "$T/se.sp.zst"
eq "--trace: one tree" "$(grep -c '^trace' "$T/.out")" 1
stdout_has "trace 53535000000000010000000000000025: 18 spans"
eq "--trace: its 18 spans" "$(grep -c ' dur ' "$T/.out")" 18
check "--trace the low half, 0x" spancat --trace 0x25 "$T/se.sp.zst"
stdout_has "trace 53535000000000010000000000000025: 18 spans"
eq "--trace 0x25: one tree" "$(grep -c '^trace' "$T/.out")" 1
expect_rc 1 "--trace: no such trace" spancat --trace 4242 "$T/se.sp.zst"
stderr_has "no trace with that low half"
expect_rc 1 "--trace: wrong high half" spancat --trace 42420000000000010000000000000025 "$T/se.sp.zst"
stderr_has "no trace with that id"
expect_rc 2 "--trace: not hex" spancat --trace 0xnope "$T/se.sp.zst"
stderr_has "--trace 0xnope: not a trace id"
expect_rc 2 "--trace: 33 digits" spancat --trace 535350000000000100000000000000251 "$T/se.sp.zst"
check "--slowest 2" spancat --slowest 2 "$T/se.sp.zst"
eq "--slowest 2: two trees" "$(grep -c '^trace' "$T/.out")" 2
stdout_has "trace 53535000000000010000000000000001: 18 spans, 6.158 us"
stdout_has "trace 53535000000000010000000000000013: 18 spans, 6.158 us"
check "--slowest 9 --ps: longest first" spancat --slowest 9 --ps "$T/se.sp.zst"
eq "--slowest: durations never grow" "$(awk '/^trace/ { if (n++ && $5 > last) bad = 1; last = $5 } END { print n, bad + 0 }' "$T/.out")" "9 0"
eq "--slowest: the 6-span trace is the shortest" "$(grep '^trace' "$T/.out" | tail -1 | cut -d' ' -f2,3)" \
    "53535000000000010000000000000079: 6"
check "--slowest with --trace" spancat --slowest 5 --trace 0x6d "$T/se.sp.zst"
stdout_has "trace 5353500000000001000000000000006d: 12 spans, 3.584 us"
check "spancat(1) example: --slowest 5" spancat --slowest 5 "$T/se.sp.zst"
eq "... five trees" "$(grep -c '^trace' "$T/.out")" 5
check "spancat(1) example: --ps --trace" spancat --ps --trace 0x25 "$T/se.sp.zst"
stdout_has "trace 53535000000000010000000000000025: 18 spans, 6158500 ps from 2020000000"
expect_rc 2 "--slowest 0" spancat --slowest 0 "$T/se.sp.zst"
stderr_has "--slowest 0: too small"
expect_rc 2 "--slowest huge" spancat --slowest 99999999999999999999 "$T/se.sp.zst"

# several files, stdin, -
check "stdin" sh -c "spancat < '$T/s.sp' > '$T/a' && spancat - < '$T/s.sp' > '$T/b' && spancat '$T/s.sp' > '$T/c' && cmp '$T/a' '$T/b' && cmp '$T/a' '$T/c'"
check "two files" sh -c "spancat -n '$T/s.sp' '$T/s.sp' | grep -q ' 108 spans'"

# bad inputs: exit 1 naming the file and offset; others still printed
printf 'nope' > "$T/bad"
expect_rc 1 "not a span stream" spancat "$T/bad" "$T/s.sp"
stderr_has "bad magic"
stdout_has "host.syscall"
mkdumbbell -n 1 "$T/d" >/dev/null
expect_rc 1 "an event stream" spancat "$T/d/net.ev"
stderr_has "event stream"
size=$(wc -c < "$T/s.sp")
head -c $((size - 20)) "$T/s.sp" > "$T/trunc.sp"
expect_rc 1 "truncated" spancat "$T/trunc.sp"
stderr_has "trunc.sp: offset"
expect_rc 1 "missing file" spancat "$T/none.sp"
expect_rc 1 "/dev/full" sh -c "spancat '$T/s.sp' > /dev/full"
expect_rc 1 "/dev/full tree" sh -c "spancat --tree '$T/s.sp' > /dev/full"

done_testing
