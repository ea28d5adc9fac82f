#!/bin/sh
# simsynth's other network outputs: --net ns3-nslog (the ns-3 model printed
# as SimBricks' ns-3 prints NS_LOG), --net ns3net-nslog (the same lines, the
# one-switch layout of symphony's NS3Net) and --net switch-pcap
# (net_switch's -p capture): sim2ev finds every event simsynth wrote, skips only what it
# should, and the whole pipeline's spans match the scenario's truth.
. "$(dirname "$0")/../lib.sh"

needs sim2ev evcat evspan spancat sqlite3

gen() {	# gen NAME SIMSYNTH-OPTIONS...: scenario in $T/NAME
	gn=$1; shift
	expect_rc 0 "simsynth $*" simsynth -v -H 4 -c 2 -n 30 --exec-rate 2 \
	    --bg-to-host 0.5 "$@" "$T/$gn"
	cp "$T/.err" "$T/$gn.stats"
}
wantev() { awk -v f="$2" '$1 == f { print $4 }' "$T/$1.stats"; }
events() {	# events STATSFILE: sim2ev's event count
	awk '/ lines = / { sub(/.* lines = /, "")
		if ($2 == "with") { e = $4; sub(/^\(/, "", e) } else e = $1 }
	    END { print e }' "$1"
}
pipeline() {	# pipeline NAME: commands.sh, spans as CSV, the score
	( cd "$T/$1" && sh commands.sh ) > "$T/$1.run" 2>&1 ||
	    { not_ok "$1: commands.sh"; sed 's/^/# /' "$T/$1.run" | head; return 0; }
	ok "$1: commands.sh"
	spancat --csv "$T/$1/spans.sp" > "$T/$1/spans.csv"
	sh "$TOP/tests/score-truth.sh" -t "$T/$1/topology.csv" "$T/$1/truth.csv" \
	    "$T/$1/spans.csv" > "$T/$1.score" 2>&1 || true
}
row() { awk -v k="$2" '$1 == k' "$T/$1.score"; }

# --- ns-3 NS_LOG --------------------------------------------------------
gen nslog --net ns3-nslog --bg-load 0.5 --queue-limit 4
check "NS_LOG: sim2ev --strict" sim2ev -f ns3 --strict --stats -o "$T/n.ev" "$T/nslog/net.ns3.log"
cp "$T/.err" "$T/n.st"
eq "NS_LOG: every event simsynth wrote" "$(events "$T/n.st")" "$(wantev nslog net.ns3.log)"
eq "NS_LOG: only noise and deferred receives skipped" \
    "$(awk '$2 == "skipped:" && $3 !~ /^(unknown-message|deferred)$/' "$T/n.st")" ""
check "NS_LOG: drops at the bottleneck" grep -q " net_drop$" "$T/n.st"
check "NS_LOG: SimBricks devices" sh -c "evcat '$T/n.ev' | grep -q 'devtype=SimbricksNetDevice source=SendFrom .*boundary=2'"
pipeline nslog
set -- $(row nslog net.device)
eq "NS_LOG: every net.device span of the truth, no other" "$3 $4 $5" "$2 0 0"
eq "NS_LOG: every net.device parent right" "$7 $8 $9" "$2 0 0"

# --- symphony NS3Net's layout: one switch node, NIC i on device i + 1 -----
gen nsnet --net ns3net-nslog
eq "NS3Net: the NICs on node 0, devices 1.." "$(grep '^"eth"' "$T/nsnet/topology.csv" | tr -d '"\r')" \
    "$(printf 'eth,server0-nic,net,0,1\neth,client0-nic,net,0,2\neth,client1-nic,net,0,3\neth,client2-nic,net,0,4')"
check "NS3Net: sim2ev --strict" sim2ev -f ns3 --strict --stats -o "$T/e.ev" "$T/nsnet/net.ns3.log"
cp "$T/.err" "$T/e.st"
eq "NS3Net: every event simsynth wrote" "$(events "$T/e.st")" "$(wantev nsnet net.ns3.log)"
eq "NS3Net: no SimpleNetDevice, no background" \
    "$(grep -c 'SimpleNetDevice\|Interesting=false' "$T/nsnet/net.ns3.log" || :)" 0
pipeline nsnet
set -- $(row nsnet net.device)
eq "NS3Net: every net.device span and parent of the truth" "$3 $4 $5 $7 $8 $9" "$2 0 0 $2 0 0"
set -- $(row nsnet total)
eq "NS3Net: every span; a wrong parent only where SPEC's heuristic chose it" \
    "$3 $4 $5 $9 ${10}" "$2 0 0 0 $8"

# --- net_switch -p ------------------------------------------------------
gen pcap --net switch-pcap
check "pcap: sim2ev" sim2ev -f pcap --stats -o "$T/p.ev" "$T/pcap/switch.pcap"
cp "$T/.err" "$T/p.st"
eq "pcap: a record per copy simsynth forwarded" "$(events "$T/p.st")" "$(wantev pcap switch.pcap)"
eq "pcap: the file's size" "$(wc -c < "$T/pcap/switch.pcap" | tr -d ' ')" \
    "$(awk '$1 == "switch.pcap" { print $2 }' "$T/pcap.stats")"
check "pcap: commands.sh reads it with -f pcap" grep -q "^sim2ev -f pcap -n switch -o switch.ev.zst switch.pcap$" "$T/pcap/commands.sh"
check "pcap: no debug lines in the switch's stderr" sh -c "! grep -q '\\[P ' '$T/pcap/switch.net_switch.log'"
pipeline pcap
# The capture names no port: evspan finds them (formats/spans.md §3), all
# but the one port that has no topology row (the background traffic's):
# its ingress spans have an unknown port, so their copies' parent is a
# span the truth knows under another key.
nbg=$(awk -F, '$3 == "\"net.device\"" && $5 == "\"0/4/-1\"" && $6 == ""' "$T/pcap/truth.csv" | wc -l)
nbgc=$(awk -F, '$3 == "\"net.device\"" && $5 == "\"0/4/-1\"" && $6 == "" { bg[$1] = 1 }
    $3 == "\"net.device\"" && ($6 in bg) { n++ } END { print n + 0 }' "$T/pcap/truth.csv")
set -- $(row pcap net.device)
eq "pcap: every net.device span of the truth but the unknown port's ingress" \
    "$3 $4 $5" "$(($2 - nbg)) $nbg $nbg"
eq "pcap: every parent right but those under them" "$7 $8 $9" "$(($3 - nbgc)) $nbgc 0"
for k in nic.tx nic.rx; do
	set -- $(row pcap $k)
	eq "pcap: every $k span and parent" "$3 $4 $5 $7 $8" "$2 0 0 $2 0"
done
done_testing
