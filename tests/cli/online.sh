# scripts/simspan-online: simsynth writes slowly into the named pipes,
# restarts mid-run (closes and reopens them), never blocks for long, and
# the event streams come out the same as from the finished logs.
. "$(dirname "$0")/../lib.sh"
O="$TOP/scripts/simspan-online"

if ! command -v sim2ev >/dev/null 2>&1; then
	echo "1..0 # SKIP sim2ev is not built"
	exit 0
fi
p2=""
command -v evspan >/dev/null 2>&1 || p2=-n	# no phase two without evspan

expect_rc 0 "-h" sh "$O" -h
stdout_has "usage: simspan-online"
expect_rc 2 "no topology" sh "$O"
stderr_has "-t topology.csv is required"
expect_rc 2 "unreadable topology" sh "$O" -t "$T/nope.csv"
printf 'stream,a,disk,a.ev\n' >"$T/badkind.csv"
expect_rc 2 "unknown stream kind" sh "$O" -n -t "$T/badkind.csv"
stderr_has "unknown kind 'disk'"
expect_rc 2 "bad idle time" sh "$O" -n -T soon -t "$T/badkind.csv"

# The scenario, written to files once for reference.
P="-n 10 --exec-rate 1"	# as in the EXAMPLES of simspan-online(1)
check "reference logs" simsynth $P "$T/ref"
(cd "$T/ref" && sh commands.sh) >/dev/null 2>&1 || true
mkdir "$T/on"
cp "$T/ref/topology.csv" "$T/ref/rules.csv" "$T/ref/vmlinux.syms" "$T/ref/i40e.syms" "$T/on/"
: >"$T/on/net.ns3.log"
expect_rc 1 "a regular file where a pipe goes" sh "$O" $p2 -t "$T/on/topology.csv"
stderr_has "net.ns3.log exists and is not a named pipe"
rm "$T/on/net.ns3.log"

# Online: paced writer, restart after 1.3 ms of simulated time.
expect_rc 0 "simspan-online -- simsynth --pace --restart-at" sh "$O" $p2 \
    -t "$T/on/topology.csv" -r "$T/on/rules.csv" -s "$T/on/vmlinux.syms" \
    -s "$T/on/i40e.syms,i40e,0xffffffffa0000000" -T 2 -- \
    simsynth -v $P --pace 4M --restart-at 1300us "$T/on"
stdout_has "server0 host $T/on/server0.gem5.log"
stdout_has "net net $T/on/net.ns3.log"
stderr_has "reopened 5 named pipes (restart)"
ms=$(sed -n 's/.*longest write \([0-9]*\)\.[0-9]* ms.*/\1/p' "$T/.err")
[ -n "$ms" ] && [ "$ms" -lt 500 ] && ok "the writer never blocked long (longest write $ms ms)" ||
	not_ok "the writer blocked ${ms:-?} ms in one write"
for s in server0 server0-nic client0 client0-nic net; do
	evcat "$T/ref/$s.ev.zst" >"$T/ref.txt" 2>/dev/null
	evcat "$T/on/$s.ev.zst" >"$T/on.txt" 2>/dev/null
	if [ -s "$T/ref.txt" ] && cmp -s "$T/ref.txt" "$T/on.txt"; then
		ok "$s: online events = offline events ($(wc -l <"$T/on.txt") events)"
	else
		not_ok "$s: online events differ from offline"
	fi
done
if [ -p "$T/on/server0.gem5.log" ]; then not_ok "pipes removed"; else ok "pipes removed"; fi
if [ -z "$p2" ]; then
	stdout_has "spans $T/on/spans.sp"
	check "phase two wrote spans" test -s "$T/on/spans.sp"
fi

# Without a command: the followers wait for writers until a signal; -k
# keeps the pipes.
rm -f "$T"/on/*.ev.zst "$T/on/spans.sp"
sh "$O" $p2 -k -t "$T/on/topology.csv" -s "$T/on/vmlinux.syms" \
    -s "$T/on/i40e.syms,i40e,0xffffffffa0000000" -T 60 >"$T/bg.out" 2>"$T/bg.err" &
bgpid=$!
n=0
while [ ! -p "$T/on/net.ns3.log" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
check "the simulation writes into the pipes" simsynth $P "$T/on"
sleep 0.5
kill -TERM "$bgpid"
set +e; wait "$bgpid"; rc=$?; set -e
eq "SIGTERM ends the tracing cleanly" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T/bg.err"
evcat "$T/on/net.ev.zst" >"$T/on.txt" 2>/dev/null
evcat "$T/ref/net.ev.zst" >"$T/ref.txt" 2>/dev/null
check "net events complete" cmp "$T/ref.txt" "$T/on.txt"
check "-k kept the pipes" test -p "$T/on/server0.gem5.log"
done_testing
