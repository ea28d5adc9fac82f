# scripts/simspan-online: simulators write into the named pipes slowly,
# late, in bursts, restart from a checkpoint (close and reopen, in the
# same or a new process), pause while holding the pipe open; the reader
# never makes a writer block for long, no writer is cut off, and the event
# streams come out the same as from the finished logs.
. "$(dirname "$0")/../lib.sh"
O="$TOP/scripts/simspan-online"

needs sim2ev
p2=""
have evspan || p2=-n	# no phase two without evspan
now_ms() { echo $(($(date +%s%N) / 1000000)); }
LOGS="server0.gem5 server0-nic.nicbm client0.gem5 client0-nic.nicbm net.ns3"

expect_rc 0 "-h" sh "$O" -h
stdout_has "usage: simspan-online"
expect_rc 2 "no topology" sh "$O"
stderr_has "-t topology.csv is required"
expect_rc 2 "unreadable topology" sh "$O" -t "$T/nope.csv"
printf 'stream,a,disk,a.ev\n' >"$T/badkind.csv"
expect_rc 2 "unknown stream kind" sh "$O" -n -t "$T/badkind.csv"
stderr_has "unknown kind 'disk'"
expect_rc 2 "bad idle time" sh "$O" -n -T soon -t "$T/badkind.csv"
expect_rc 2 "fractional idle time" sh "$O" -n -T 2.5 -t "$T/badkind.csv"

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
SYMS="-s $T/on/vmlinux.syms -s $T/on/i40e.syms,i40e,0xffffffffa0000000"

# same_events DIR WHAT: every stream of DIR has the reference's events
same_events() {
	for s in server0 server0-nic client0 client0-nic net; do
		evcat "$T/ref/$s.ev.zst" >"$T/ref.txt" 2>/dev/null
		evcat "$1/$s.ev.zst" >"$T/on.txt" 2>/dev/null
		if [ -s "$T/ref.txt" ] && cmp -s "$T/ref.txt" "$T/on.txt"; then
			ok "$2: $s: online events = offline events ($(wc -l <"$T/on.txt") events)"
		else
			not_ok "$2: $s: online events differ from offline"
		fi
	done
}
# complete DIR WHAT: every event stream of DIR has its end block
complete() {
	n=0
	for s in server0 server0-nic client0 client0-nic net; do
		evcat -n "$1/$s.ev.zst" >/dev/null 2>&1 || n=$((n + 1))
	done
	eq "$2: all event streams complete" "$n" 0
}
# ms_of WHAT: the milliseconds simsynth -v gave for its longest WHAT
ms_of() { sed -n "s/.*longest $1 \\([0-9]*\\)\\.[0-9]* ms.*/\\1/p" "$T/.err"; }
# bounded WHAT MS LIMIT: the longest WHAT took less than LIMIT.  The limit
# is generous (a writer preempted on a busy machine, or under ASan, can
# spend a while in one call); a reader that stops draining a pipe blocks
# its writer for seconds.  The figure is printed either way.
bounded() {
	if [ -n "$2" ] && [ "$2" -lt "$3" ]; then
		ok "the writer never blocked long in $1 (longest $2 ms)"
	else
		not_ok "the writer blocked ${2:-?} ms in one $1 (limit $3 ms)"
	fi
}

# Online with a command that starts the simulation later than the idle
# time, which is paced and restarts after 1.3 ms of simulated time (the
# same process closes and reopens its pipes).
t0=$(now_ms)
expect_rc 0 "simspan-online -T 1 -- sh -c 'sleep 2; exec simsynth --pace --restart-at'" \
    sh "$O" $p2 -t "$T/on/topology.csv" -r "$T/on/rules.csv" $SYMS -T 1 -- \
    sh -c "sleep 2; exec simsynth -v $P --pace 8M --restart-at 1300us '$T/on'"
stdout_has "server0 host $T/on/server0.gem5.log"
stdout_has "net net $T/on/net.ns3.log"
stderr_has "reopened 5 named pipes (restart)"
bounded write "$(ms_of write)" 5000
bounded open "$(ms_of open)" 5000
same_events "$T/on" "late paced writer"
if [ -p "$T/on/server0.gem5.log" ]; then not_ok "pipes removed"; else ok "pipes removed"; fi
if [ -z "$p2" ]; then
	stdout_has "spans $T/on/spans.sp"
	check "phase two wrote spans" test -s "$T/on/spans.sp"
fi

# A checkpoint restart in new processes: each simulator writes half of
# its log and exits; the restored one opens the pipe again, prints its
# startup lines again (gem5's adapter, nicbm's MAC and sync flags) and
# goes on.  Every event arrives once, the startup lines are skipped.
cat >"$T/restart.sh" <<'EOF'
ref=$1 dir=$2
shift 2
for s; do
	n=$(($(wc -l <"$ref/$s.log") / 2))
	case $s in *.gem5) k=1 ;; *.nicbm) k=2 ;; *) k=0 ;; esac
	(
		sh -c 'exec head -n "$1" "$2" >"$3"' - "$n" "$ref/$s.log" "$dir/$s.log"
		sh -c '{ head -n "$1" "$2"; tail -n +"$3" "$2"; } >"$4"' - \
		    "$k" "$ref/$s.log" "$((n + 1))" "$dir/$s.log"
	) &
done
wait
EOF
rm -f "$T"/on/*.ev.zst
expect_rc 0 "restart in a new process that prints its startup lines again" \
    sh "$O" -n -v -t "$T/on/topology.csv" $SYMS -- sh "$T/restart.sh" "$T/ref" "$T/on" $LOGS
same_events "$T/on" "new-process restart"
for s in $LOGS; do
	case $s in *.gem5) k=1 ;; *.nicbm) k=2 ;; *) k=0 ;; esac
	stderr_has "$T/on/$s.log: $(($(wc -l <"$T/ref/$s.log") + k)) lines"
done
check "no line cut by the restarts" sh -c "! grep -q partial-line '$T/.err'"

# -T 0 (never time out) with a command: the followers end when it does.
rm -f "$T"/on/*.ev.zst
expect_rc 0 "-T 0 -- command: finishes when the command does" \
    timeout 30 sh "$O" -n -T 0 -t "$T/on/topology.csv" $SYMS -- simsynth $P "$T/on"
complete "$T/on" "-T 0"
# the long options of the other tools: --stats, --verbose, --quiet
expect_rc 2 "an unknown long option" sh "$O" --bogus -t "$T/on/topology.csv"
stderr_has "usage: simspan-online"
if [ -z "$p2" ]; then
	rm -f "$T"/on/*.ev.zst
	expect_rc 0 "--stats: sim2ev's and evspan's counts" sh "$O" --stats \
	    -t "$T/on/topology.csv" -r "$T/on/rules.csv" $SYMS -- simsynth $P "$T/on"
	stderr_has "spans by kind"
	stderr_has "net.ns3.log: "
	check "... not evspan's summary line" sh -c "! grep -q 'streams -> ' '$T/.err'"
	rm -f "$T"/on/*.ev.zst
	expect_rc 0 "--verbose --quiet --symtab: and evspan's summary line" sh "$O" \
	    --verbose --quiet -t "$T/on/topology.csv" -r "$T/on/rules.csv" \
	    --symtab "$T/on/vmlinux.syms" --symtab="$T/on/i40e.syms,i40e,0xffffffffa0000000" \
	    -- simsynth $P "$T/on"
	stderr_has "spans by kind"
	stderr_has "events from 5 streams -> "
	same_events "$T/on" "--symtab"
	rm -f "$T"/on/*.ev.zst
	expect_rc 0 "an option's argument that looks like a long option" sh "$O" -n \
	    -t "$T/on/topology.csv" -o --stats $SYMS -- sh -c 'simsynth $1 "$2"; echo --stats' - "$P" "$T/on"
	stdout_has "--stats"
	check "... and no statistics" sh -c "! grep -q 'lines' '$T/.err'"
fi

# A failing command: its status is simspan-online's; phase two still runs
# on the streams read.
rm -f "$T"/on/*.ev.zst "$T/on/spans.sp"
expect_rc 3 "the command fails: its exit status" \
    sh "$O" $p2 -t "$T/on/topology.csv" -r "$T/on/rules.csv" $SYMS -- \
    sh -c "simsynth $P '$T/on'; exit 3"
stderr_has "exited with status 3"
complete "$T/on" "failed command"
if [ -z "$p2" ]; then
	stdout_has "spans $T/on/spans.sp"
	check "phase two ran after the failed command" test -s "$T/on/spans.sp"
fi

# Without a command: the followers wait for the first writer however
# late, keep writers that hold the pipe open but pause for longer than
# -T (no SIGPIPE, nothing lost), and end -T after the last writer left.
: >"$T/nc.out"
rm -f "$T"/on/*.ev.zst
sh "$O" -n -k -t "$T/on/topology.csv" $SYMS -T 1 >"$T/nc.out" 2>"$T/nc.err" &
ncpid=$!
n=0
while [ "$(wc -l <"$T/nc.out")" -lt 5 ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
sleep 1.5	# longer than -T, and no writer yet
wpids=""
for s in $LOGS; do
	timeout 20 sh -c 'exec 3>"$3"; head -n 100 "$1" >&3; sleep "$2"; tail -n +101 "$1" >&3' \
	    - "$T/ref/$s.log" 2 "$T/on/$s.log" &
	wpids="$wpids $!"
done
bad=0
for w in $wpids; do wait "$w" || bad=$((bad + 1)); done
t0=$(now_ms)
eq "writers quiet for 2 s with -T 1: none was cut off" "$bad" 0
set +e; timeout 60 sh -c "while kill -0 $ncpid 2>/dev/null; do sleep 0.05; done"; set -e
dt=$(($(now_ms) - t0))
if kill -0 "$ncpid" 2>/dev/null; then kill "$ncpid"; fi	# after 60 s: fails below
set +e; wait "$ncpid"; rc=$?; set -e
# (that it ends is checked, not how soon: no wall-clock bound on a busy machine)
eq "without a command: ends by itself after the writers left ($dt ms, -T 1)" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T/nc.err"
same_events "$T/on" "late, quiet writers"
check "-k kept the pipes" test -p "$T/on/server0.gem5.log"

# Without a command, SIGTERM ends the tracing cleanly.
: >"$T/bg.out"
rm -f "$T"/on/*.ev.zst
sh "$O" -n -t "$T/on/topology.csv" $SYMS -T 60 >"$T/bg.out" 2>"$T/bg.err" &
bgpid=$!
n=0
while [ "$(wc -l <"$T/bg.out")" -lt 5 ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
check "the simulation writes into the pipes" simsynth $P "$T/on"
kill -TERM "$bgpid"
set +e; wait "$bgpid"; rc=$?; set -e
eq "SIGTERM ends the tracing cleanly" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T/bg.err"
same_events "$T/on" "SIGTERM"

# Control-C (SIGINT; SIGTERM where env cannot undo the ignored SIGINT of
# a background job) while the command runs: the command is stopped
# first, then the followers read what it wrote until it exited.
mkdir "$T/one"
printf 'stream,net,net,net.ev.zst\n' >"$T/one/topology.csv"
split -l 300 "$T/ref/net.ns3.log" "$T/part."
cat >"$T/slow.sh" <<'EOF'
# slow.sh PIPE DONE PART...: a part every 0.1 s; on SIGTERM one more part, exit 0.
# The last two parts wait for the signal (30 s at most): however slow the
# machine, the signal comes before the end of the log.
pipe=$1 done=$2
shift 2
stop=0 i=0 n=$#
trap 'stop=1; echo term >"$done.term"' TERM
exec 3>"$pipe"
for p; do
	i=$((i + 1)) w=0
	while [ "$stop" -eq 0 ] && [ "$i" -ge $((n - 1)) ] && [ "$w" -lt 300 ]; do
		sleep 0.1; w=$((w + 1))
	done
	cat "$p" >&3
	cat "$p" >>"$done"
	[ "$stop" -eq 0 ] || break
	sleep 0.1
done
EOF
sig=INT
env --default-signal=INT true 2>/dev/null && dflt="env --default-signal=INT" || { dflt=""; sig=TERM; }
$dflt sh "$O" -n -v -t "$T/one/topology.csv" -- sh "$T/slow.sh" "$T/one/net.ns3.log" "$T/done" "$T"/part.* \
    >"$T/int.out" 2>"$T/int.err" &
ipid=$!
n=0
while [ ! -s "$T/done" ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
sleep 0.4
kill -"$sig" "$ipid"
set +e; wait "$ipid"; rc=$?; set -e
eq "SIG$sig during the command: exit 0" "$rc" 0
check "the command was told to stop" test -f "$T/done.term"
check "the command was not cut off (it exited 0)" sh -c "! grep -q 'exited with status' '$T/int.err'"
n=$(evcat -n "$T/one/net.ev.zst" 2>/dev/null | awk '$2 == "total" { print $1 }')
eq "every line the command wrote, also after the signal, is an event" "${n:-0}" "$(wc -l <"$T/done")"
[ "$(wc -l <"$T/done")" -lt "$(wc -l <"$T/ref/net.ns3.log")" ] && ok "stopped before the end of the log" ||
	not_ok "the command was not stopped early"

# The writers' worst blocking under a realistic load: gem5 logs padded with
# Exec lines (about 100 MB each), written unpaced, a restart, symbol
# lookups and zstd-compressed event streams.
B="-n 20 --gem5-size 96M"
check "reference logs (big)" simsynth $B "$T/bref"
(cd "$T/bref" && sh commands.sh) >/dev/null 2>&1 || true
mkdir "$T/big"
cp "$T/ref/topology.csv" "$T/big/"
expect_rc 0 "unpaced Exec-heavy run through the pipes" \
    sh "$O" -n -t "$T/big/topology.csv" $SYMS -- simsynth -v $B --restart-at 1500us "$T/big"
stderr_has "reopened 5 named pipes (restart)"
sed -n 's/^wrote/# wrote/p' "$T/.err"
bounded write "$(ms_of write)" 5000
bounded open "$(ms_of open)" 5000
for s in server0 client0; do
	a=$(evcat -n "$T/bref/$s.ev.zst" 2>/dev/null | awk '$2 == "total" { print $1 }')
	b=$(evcat -n "$T/big/$s.ev.zst" 2>/dev/null | awk '$2 == "total" { print $1 }')
	[ -n "$a" ] && [ "$a" = "$b" ] && ok "big $s: all $a events" || not_ok "big $s: $b events, want $a"
done
done_testing
