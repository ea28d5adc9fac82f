#!/bin/sh
# sim2ev -f ns3 on ns-3 NS_LOG output: the real Debian ns-3 3.37 samples of
# tests/data/ns3-nslog, scored against the uid bookkeeping their programs
# wrote from ns-3's own trace sources (score.sh); the warnings a user gets
# for a log without time prefixes, empty input, the wrong -f and the
# output of two runs interleaved; --strict on a malformed line.
. "$(dirname "$0")/../lib.sh"
needs sim2ev evcat zstdcat

D="$DATA/ns3-nslog"
score() {	# score SAMPLE [AWK-FILTER-OF-TRUTH]: score.sh's output
	sim2ev -f ns3 -o "$T/$1.ev" "$D/$1.log.zst"
	evcat --csv "$T/$1.ev" > "$T/$1.csv"
	awk -F, "NR == 1 || (${2:-1})" "$D/$1-truth.csv" > "$T/$1.truth"
	sh "$D/score.sh" "$T/$1.csv" "$T/$1.truth"
}
total() { awk '$1 == "total" { print $2 " " $5 " " $7 " " $10 }'; }

for res in ps ns; do
	s=bridge-$res
	check "$s: sim2ev --strict" sim2ev -f ns3 --strict --stats -o "$T/s.ev" "$D/$s.log.zst"
	stderr_has "skipped: deferred"
	# the switches (nodes 0 and 1): every observation, with its uid
	r=$(score $s '$3 < 2' | total)
	n=${r%% *}
	eq "$s: switch nodes, all $n records exact, none missing" "$r" "$n $n 0 0"
	[ "$n" -gt 100 ] && ok "$s: $n records at the switches" || not_ok "$s: only $n records"
	# the ns-3 hosts: their sends before any bridge have no uid, their
	# receives no event (no bridge line follows them)
	score $s '$3 >= 2 && $1 != "rx"' > "$T/hosts"
	r=$(total < "$T/hosts")
	n=${r%% *}
	eq "$s: hosts' sends matched, without uid" "$r" "$n 0 $n 0"
	eq "$s: no event matched nothing" "$(score $s | grep -c ' 0 of ')" 1
done
# ps and ns resolution: the same simulation, the same times
eq "ns resolution: times in ps" "$(awk -F, 'NR > 1 && $1 == "deq" { print $2; exit }' \
    "$D/bridge-ns-truth.csv")" "$(awk -F, 'NR > 1 && $2 == "net_deq" { print $1; exit }' \
    "$T/bridge-ns.csv")"

# a router's queue disc: NS_LOG names queue-disc items by pointer only
r=$(score qdisc | total)
n=${r%% *}
eq "qdisc: every record matched (no uid)" "$r" "$n 0 $n 0"
eq "qdisc: the queue disc's drops" "$(score qdisc | awk '$1 == "qd-drop" { print $2 "/" $7 }')" "4/4"

# --- warnings ------------------------------------------------------------
zstdcat "$D/bridge-ps.log.zst" | sed 's/^+[0-9.]*s [-0-9]* //' > "$T/noprefix.log"
expect_rc 0 "no time prefix" sim2ev -f ns3 -o "$T/x.ev" "$T/noprefix.log"
stderr_has "ns-3 NS_LOG lines without a time prefix, no event: log with prefix_time"
expect_rc 1 "no time prefix, --strict" sim2ev -f ns3 --strict -o "$T/x.ev" "$T/noprefix.log"
zstdcat "$D/bridge-ps.log.zst" > "$T/ps.log"
expect_rc 0 "wrong -f" sim2ev -f gem5 -o "$T/x.ev" "$T/ps.log"
stderr_has "is it an ns-3 log? try -f ns3"
: > "$T/empty"
check "empty input" sim2ev -f ns3 -o "$T/x.ev" "$T/empty"
eq "empty input: no warning" "$(cat "$T/.err")" ""
# two runs writing to one terminal: their lines alternate
zstdcat "$D/bridge-ns.log.zst" | awk '{ print; getline l < "'"$T/ps.log"'"; print l }' > "$T/mix.log"
expect_rc 0 "interleaved runs" sim2ev -f ns3 -o "$T/x.ev" "$T/mix.log"
stderr_has "time goes backwards"
stderr_has "interleaved or concatenated logs?"

# --- malformed lines of a known kind -------------------------------------
{ head -400 "$T/ps.log"
  echo "+0.002000724000s 0 SimpleNetDevice:SendFrom(0x55a76a0, 0x55eacd0, 2054)"
  echo "+0.002000724000s 0 BridgeNetDevice:ReceiveFromDevice(): [DEBUG] UID is x"; } > "$T/bad.log"
expect_rc 0 "malformed lines" sim2ev -f ns3 -o "$T/x.ev" "$T/bad.log"
stderr_has "2 malformed lines skipped, first at line 401: ns-3 NS_LOG SendFrom: expected"
expect_rc 1 "--strict names file and line" sim2ev -f ns3 --strict -o "$T/x.ev" "$T/bad.log"
stderr_has "bad.log:401: malformed line: ns-3 NS_LOG SendFrom"
done_testing
