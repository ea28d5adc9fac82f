#!/bin/sh
# sim2ev -f switch through the real binary: NETSWITCH_DEBUG lines as
# net_switch.cc prints them (a unicast packet, an ARP broadcast, a drop),
# the vaastav/simbricks variant, the switch's status lines, evcat's view,
# --strict naming file and line, the format hint, and spans through the
# switch from a small hand-made run.
. "$(dirname "$0")/../lib.sh"
needs sim2ev evcat evspan spancat

cat >"$T/sw.log" <<'L'
Switch connecting to: /tmp/simbricks/eth.0
Switch connecting to: /tmp/simbricks/eth.1
Switch connecting to: /tmp/simbricks/eth.2
           500443000: [P 0 -> 1] 3412005452 -> ffffffffff [ARP]  100000A ->  200000A
           500443000: [P 0 -> 2] 3412005452 -> ffffffffff [ARP]  100000A ->  200000A
           600000000: [P 1 -> 0] 3512005452 -> 3412005452 [ IP]  200000A ->  100000A len: 98
forward_pkt: dropping packet on port 0
           700000000: [P 2 -> 0] 3612005452 -> 3412005452 unknown eth type
main_time = 700000000
      d2n_poll_total:                   3360         d2n_poll_suc:                     84  poll_suc_rate: 0.025000
L
check "sim2ev -f switch" sim2ev -f switch --stats -o "$T/sw.ev" "$T/sw.log"
stderr_has "10 lines = 5 with events (8 events) + 5 skipped"
stderr_has "3 net_enq"
stderr_has "4 net_deq"
stderr_has "1 net_drop"
check "evcat" evcat "$T/sw.ev"
cp "$T/.out" "$T/sw.txt"
eq "the broadcast: one ingress at port 0" \
    "$(grep -c 'net_enq .*node=0 dev=0 devtype=NetSwitch source=ingress uid=-1 .*boundary=1 .*eth_type=0x806 eth_src=52:54:00:12:34:00 eth_dst=ff:ff:ff:ff:ff:00 ip_src=10.0.0.1 ip_dst=10.0.0.2' "$T/sw.txt")" 1
eq "two copies out on ports 1 and 2" \
    "$(grep -c '500443000 net_deq .*dev=[12] devtype=NetSwitch source=egress .*boundary=2' "$T/sw.txt")" 2
stdout_has "ip_len=84"
eq "the drop at the time of the line before" "$(grep -c '600000000 net_drop .*dev=0 .*source=dropping' "$T/sw.txt")" 1
check "sim2ev -f switch | evcat" sh -c "sim2ev -f switch '$T/sw.log' | evcat -n"
stdout_has "4 net_deq"
check "evcat --header" evcat --header "$T/sw.ev"
stdout_has "simulator"
stdout_has "switch"

# vaastav/simbricks' switch
cat >"$T/v.log" <<'L'
info: main_time=100 Packet Receive: id=7 port=2 src=00:12:34:56:78:9a dst=ff:ff:ff:ff:ff:ff len=64
info: main_time=200 Packet Transmit: id=7 e_port=0 i_port=2
info: main_time=200 Packet Drop: id=7 e_port=1 i_port=2
L
check "vaastav/simbricks lines" sim2ev -f switch -o "$T/v.ev" "$T/v.log"
check "evcat" evcat "$T/v.ev"
stdout_has "net_enq"
stdout_has "uid=7"
stdout_has "net_drop"

# bad lines: counted with file:line, --strict stops at the first
printf '%s\n' '      123: [P 0 -> 1] 1 -> 2 [ IP] zz' >>"$T/sw.log"
check "a malformed line is counted" sim2ev -f switch --stats -o "$T/x.ev" "$T/sw.log"
stderr_has "sw.log:11:"
stderr_has "net_switch debug: expected"
expect_rc 1 "--strict" sim2ev -f switch --strict -o "$T/x.ev" "$T/sw.log"
stderr_has "sw.log:11: malformed line: net_switch debug: expected"
# a switch log read as ns-3 names the format
check "a switch log as ns3" sim2ev -f ns3 -o "$T/x.ev" "$T/sw.log"
stderr_has "try -f switch"

# spans: NIC a (port 0) sends to NIC b (port 1), b receives
echo '1000 nic_tx len=98' >"$T/a.txt"
echo '601000 nic_rx port=0 len=98' >"$T/b.txt"
if have txt2ev; then
	txt2ev -s a -k nic -o "$T/a.ev" "$T/a.txt" &&
	    txt2ev -s b -k nic -o "$T/b.ev" "$T/b.txt" &&
	    printf '%s\n' '              600000: [P 0 -> 1] a0 -> b0 [ IP]  100000A ->  200000A len: 98' |
	    sim2ev -f switch -n sw -o "$T/s.ev" - || not_ok "inputs"
	printf 'stream,a,nic,a.ev\nstream,b,nic,b.ev\nstream,sw,net,s.ev\neth,a,sw,0,0\neth,b,sw,0,1\n' >"$T/t.csv"
	check "evspan through the switch" evspan -t "$T/t.csv" -o "$T/s.sp"
	check "spancat" spancat --csv -H "$T/s.sp"
	cp "$T/.out" "$T/s.csv"
	eq "nic.tx -> port 0 -> port 1 -> nic.rx, one chain" \
	    "$(awk -F, '/^[0-9]/ { printf "%s:%s:%s ", $2, $5, $6 }' "$T/s.csv")" \
	    "nic.tx:0x1:0x0 net.device:0x2:0x1 net.device:0x3:0x2 nic.rx:0x4:0x3 "
	check "spancat --tree" spancat --tree "$T/s.sp"
fi
# SIGUSR1 (simbricks-run --profile-int): component-net-base's
# simb_net_switch prints main_time and each port's timestamps
printf 'main_time = 700000000\n[Port 0 ]: in_timestamp == 700000000\n[Port 0 ]: out_timestamp == 700500000\n[Port 1 ]: in_timestamp == 699000000\n' > "$T/usr1.log"
check "SIGUSR1 status dump" sim2ev -f switch --stats -o "$T/u.ev" "$T/usr1.log"
stderr_has "4 lines = 0 events + 4 skipped"
stderr_has "4 skipped: status (status dump on request (SIGUSR1))"
done_testing
