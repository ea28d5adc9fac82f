#!/bin/sh
# evspan on the committed sample (samples/dumbbell): where link records
# stand in the span stream, and one request/response exchange span by span.
. "$(dirname "$0")/../lib.sh"

cp -r "$TOP/samples/dumbbell" "$T/d"
check "sample: sim2ev and evspan (commands.sh)" sh -c "cd '$T/d' && sh commands.sh"
# --seed: trace ids that do not depend on the tools' versions
check "sample: evspan --seed 1" evspan -t "$T/d/topology.csv" -r "$T/d/rules.csv" \
    --seed 1 -o "$T/s.sp"
check "sample: evspan --seed 1 --events" evspan -e -t "$T/d/topology.csv" \
    -r "$T/d/rules.csv" --seed 1 -o "$T/se.sp"
check "sample: same spans with and without --seed" sh -c \
    "spancat -n '$T/d/spans.sp' > '$T/n1' && spancat -n '$T/s.sp' > '$T/n2' && cmp '$T/n1' '$T/n2'"
check "span stream format 1.2" sh -c "spancat -H '$T/s.sp' | head -1 | grep -q '(format 1.2)\$'"

# --- link records (formats/spans.md §7, format 1.1) ---------------------------
# A span's link records come right after its span record and its member
# events, before any other span record.  Prints the records that break it.
linkcheck() {
	spancat --json "$1" | awk '
	{
		type = $0; sub(/^.*"type":"/, "", type); sub(/".*/, "", type)
		span = $0; sub(/^.*"span":"/, "", span); sub(/".*/, "", span)
		if (type == "link") {
			if (span != last) print NR ": " $0
			inlinks = 1
		} else if (type ~ /^ev\./) {
			if (span != last || inlinks) print NR ": " $0
		} else {
			last = span; inlinks = 0
		}
	}'
}
eq "sample: 6 links" "$(spancat -n "$T/s.sp" | awk '$2 == "links" {print $1}')" 6
eq "every link record directly follows its span" "$(linkcheck "$T/s.sp")" ""
eq "--events: every link follows its span and its member events" \
    "$(linkcheck "$T/se.sp")" ""
eq "--events: the same 6 links" "$(spancat --json "$T/se.sp" | grep -c '"type":"link"')" 6
eq "a link's target is written before it" "$(spancat --json "$T/s.sp" | awk '
	{ span = $0; sub(/^.*"span":"/, "", span); sub(/".*/, "", span) }
	/"type":"link"/ { t = $0; sub(/^.*"target":"/, "", t); sub(/".*/, "", t)
		if (!(t in seen)) print NR }
	!/"type":"link"/ { seen[span] = 1 }')" ""

# --- one request and its response, span by span ------------------------------
# The first client request: the first trace (in output order) rooted at a
# client0 syscall that transmits (has a client0-nic nic.tx).  It runs
# client syscall -> host mmio (doorbell) -> NIC mmio -> NIC dma (descriptor,
# packet; each with its host dma) -> NIC tx -> four net.device hops ->
# server0-nic rx -> NIC dma (writes; host dma) and msix (host msix) ->
# the server's receiving syscall, whose parent is that rx (SPEC §3: the
# oldest pending rx context that started before it).  That syscall also
# bumps the rx ring tail and re-enables the interrupt, so its MMIO and the
# NIC work it causes are in this trace too.
# The response is not in this trace: the server sends it from another
# syscall (sendto after recvfrom), which received nothing and so is a trace
# root (SPEC §3).  It is the first trace rooted at a server0 syscall that
# transmits, and mirrors the request back to the client's receiving
# syscall.  Both trees are compared with tests/data/evspan/sample-exchange.txt
# (spancat --tree --ps: kind, stream, start, duration, span id, attributes;
# indentation is the parent relation).
spancat --tree --ps "$T/s.sp" > "$T/s.tree"
awk '
function flush() {
	if (buf ~ /^trace[^\n]*\n  host\.syscall client0 / &&
	    buf ~ /nic\.tx +client0-nic/ && !req) { printf "%s", buf; req = 1 }
	else if (req && buf ~ /^trace[^\n]*\n  host\.syscall server0 / &&
	    buf ~ /nic\.tx +server0-nic/ && !resp) { printf "%s", buf; resp = 1 }
}
/^trace/ { flush(); buf = "" }
{ buf = buf $0 "\n" }
END { flush() }' "$T/s.tree" > "$T/exchange"
check "sample: the first request and its response, span by span" \
    diff -u "$DATA/evspan/sample-exchange.txt" "$T/exchange"
# the same facts, spelled out: kind and stream in tree order (the
# indentation, i.e. the parent relation, is in the file compared above)
spans() { awk -v n="$1" '/^trace/ {k++; next} k == n {printf "%s %s;", $1, $2}' "$T/exchange"; }
eq "request: the path, then the NIC's own descriptor write-back and interrupt" \
    "$(spans 1)" "host.syscall client0;host.mmio client0;nic.mmio client0-nic;\
nic.dma client0-nic;host.dma client0;nic.dma client0-nic;host.dma client0;\
nic.tx client0-nic;net.device net;net.device net;net.device net;net.device net;\
nic.rx server0-nic;nic.dma server0-nic;host.dma server0;nic.dma server0-nic;\
host.dma server0;nic.msix server0-nic;host.msix server0;host.syscall server0;\
host.mmio server0;nic.mmio server0-nic;nic.dma server0-nic;host.dma server0;\
host.mmio server0;nic.mmio server0-nic;\
nic.dma client0-nic;host.dma client0;nic.msix client0-nic;host.msix client0;"
eq "response: the same path back, from a server0 syscall to a client0 one" \
    "$(spans 2)" "host.syscall server0;host.mmio server0;nic.mmio server0-nic;\
nic.dma server0-nic;host.dma server0;nic.dma server0-nic;host.dma server0;\
nic.tx server0-nic;net.device net;net.device net;net.device net;net.device net;\
nic.rx client0-nic;nic.dma client0-nic;host.dma client0;nic.dma client0-nic;\
host.dma client0;nic.msix client0-nic;host.msix client0;host.syscall client0;\
host.mmio client0;nic.mmio client0-nic;nic.dma client0-nic;host.dma client0;\
host.mmio client0;nic.mmio client0-nic;\
nic.dma server0-nic;host.dma server0;nic.msix server0-nic;host.msix server0;"
# the receiving syscalls: kernel_rx and driver_rx, children of the nic.rx
eq "both receiving syscalls hang directly under their NIC rx" \
    "$(awk '/nic.rx/ {d = index($0, "nic.rx")} /host.syscall/ && index($0, "host.syscall") == d + 2 {print $2, $NF}' "$T/exchange" | tr '\n' ';')" \
    "server0 driver_rx;client0 driver_rx;"
recv_end=$(awk '/^trace/ {k++} k == 1 && /host.syscall server0/ {print $3 + $6}' "$T/exchange")
resp_start=$(awk '/^trace/ {k++} k == 2 && /^  host.syscall server0/ {print $3}' "$T/exchange")
check "the response syscall starts after the request's receiving syscall ended" \
    test "$resp_start" -gt "$recv_end"
done_testing
