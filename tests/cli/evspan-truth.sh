#!/bin/sh
# evspan scored against simsynth's ground truth (formats/truth.md) through
# the real pipeline (simsynth logs -> sim2ev -> evspan -> spancat ->
# tests/score-truth.sh): 64 hosts with concurrent clients, background
# traffic and ARP broadcasts reaching the NICs; the same with Corundum
# NICs (--nic corundum: corundum_bm and the mqnic driver, MSI).  With -r
# (SPEC §3's heuristic parents accepted) every span, parent and link must
# match.  The last scenario puts every NIC on one SimBricks net_switch
# (sim2ev -f switch): spans at its ports, ARP broadcasts from an untraced
# uplink.
. "$(dirname "$0")/../lib.sh"
S="$TOP/tests/score-truth.sh"

needs simsynth sim2ev evspan spancat sqlite3

score() {	# score NAME SIMSYNTH-OPTIONS...
	name=$1; shift
	check "$name: simsynth" simsynth "$@" "$T/$name"
	check "$name: sim2ev and evspan" sh -c "cd '$T/$name' && sh commands.sh"
	check "$name: spancat" sh -c "spancat --csv -H '$T/$name/spans.sp' > '$T/$name.csv'"
	expect_rc 0 "$name: every span, parent and link as in the truth" \
	    sh "$S" -r "$T/$name/truth.csv" "$T/$name.csv"
	stdout_has "all spans, parents and links match"
	awk '$1 == "total"' "$T/.out" | sed "s/^/# $name: /"
}

score h64 -H 64 --servers 4 -c 16 -n 30 --exec-rate 1 --bg-to-host 0.3
score arp -H 6 --servers 2 -c 3 -n 40 --exec-rate 1 --bg-to-host 0.5 --bg-arp 1
score nonposted -H 3 -c 2 -n 40 --exec-rate 1 --nonposted 0.5 --housekeeping 3
score corundum --nic corundum -H 8 --servers 2 -c 4 -n 40 --exec-rate 1 \
    --bg-to-host 0.4 --bg-arp 0.5 --nonposted 0.2
score corundum-old --nic corundum -H 4 -c 2 -n 30 --exec-rate 1 \
    --gem5-dialect nobar --nicbm-dialect sigcomm22 --bg-to-host 0.3
check "corundum: rules.csv is rules/linux-corundum.csv" \
    cmp "$T/corundum/rules.csv" "$TOP/rules/linux-corundum.csv"
check "corundum: its NICs raise MSI" grep -q 'nicbm: issue MSI interrupt vec 0$' \
    "$T/corundum/client0-nic.nicbm.log"
# The mqnic rows of the rules: sends enter mqnic_start_xmit (driver-tx),
# receives mqnic_poll_rx_cq (driver-rx); the i40e rules know neither.
ntx=$(spancat -j "$T/corundum/spans.sp" | grep -c '"type":"host.syscall".*"driver_tx":true')
nrx=$(spancat -j "$T/corundum/spans.sp" | grep -c '"type":"host.syscall".*"driver_rx":true')
[ "$ntx" -ge 40 ] && [ "$nrx" -ge 40 ] && ok "corundum: driver_tx on $ntx, driver_rx on $nrx syscalls" ||
    not_ok "corundum: driver_tx on $ntx, driver_rx on $nrx syscalls (want >= 40 each)"
check "corundum: with the i40e rules" evspan -t "$T/corundum/topology.csv" \
    -r "$TOP/rules/linux-i40e.csv" -o "$T/corundum-i40e.sp"
eq "corundum: the i40e rules set no driver_tx" \
    "$(spancat -j "$T/corundum-i40e.sp" | grep -c '"driver_tx":true')" 0
check "corundum: no orphans" sh -c "evspan --stats -t '$T/corundum/topology.csv' \
    -r '$T/corundum/rules.csv' -o /dev/null 2>&1 | grep -q 'orphans by missing context: 0'"
score switch --net switch -H 16 --servers 4 -c 4 -n 40 --exec-rate 1 --bg-to-host 0.5 \
    --bg-arp 0.5
check "switch: the switch log has NETSWITCH_DEBUG lines with ARP broadcasts" \
    grep -q '\] [0-9a-f]* -> ffffffffff \[ARP\]' "$T/switch/switch.net_switch.log"
check "switch: no orphans" sh -c "cd '$T/switch' && evspan --stats -t topology.csv \
    -r rules.csv -o /dev/null 2>&1 | grep -q 'orphans by missing context: 0'"
check "h64: no orphans, bounded memory" sh -c "evspan --stats -t '$T/h64/topology.csv' \
    -r '$T/h64/rules.csv' -o /dev/null 2>&1 | grep -q 'orphans by missing context: 0'"

done_testing
