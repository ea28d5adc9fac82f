#!/bin/sh
# Switch to switch (topology n2n rows): two net_switches joined on one
# socket (sw0 listens with -h, sw1 connects with -s), a NIC on each; NIC a
# sends to NIC b, a broadcast from b reaches a.  With the n2n row every
# span of the packet is one chain across both switches; without it sw1's
# ingress is a root (a port with no NIC).  Also NS_LOG inside one ns-3
# process: the real Debian sample's trunk between its two bridges as an n2n
# row of the same stream.  And both as packet captures: net_switch -p
# files of the two switches, ns-3's per-device pcap files of a router.
. "$(dirname "$0")/../lib.sh"
needs sim2ev evspan spancat txt2ev

# a (sw0 port 0) -> sw0 port 1 == sw1 port 1 -> b (sw1 port 0); then b's
# ARP broadcast back the other way
printf '1000 nic_tx len=98\n3001000 nic_rx port=0 len=42\n' > "$T/a.txt"
printf '1601000 nic_rx port=0 len=98\n2000000 nic_tx len=42\n' > "$T/b.txt"
txt2ev -s a -k nic -o "$T/a.ev" "$T/a.txt"
txt2ev -s b -k nic -o "$T/b.ev" "$T/b.txt"
cat > "$T/sw0.log" <<'L'
Switch connecting to: /tmp/simbricks/eth-a
Switch listening on: /tmp/simbricks/n2n
              600000: [P 0 -> 1] a0 -> b0 [ IP]  100000A ->  200000A len: 98
             2600000: [P 1 -> 0] b0 -> ffffffffff [ARP]  200000A ->  100000A
L
cat > "$T/sw1.log" <<'L'
Switch connecting to: /tmp/simbricks/eth-b
Switch connecting to: /tmp/simbricks/n2n
             1100000: [P 1 -> 0] a0 -> b0 [ IP]  100000A ->  200000A len: 98
             2100000: [P 0 -> 1] b0 -> ffffffffff [ARP]  200000A ->  100000A
L
check "sim2ev sw0" sim2ev -f switch -n sw0 -o "$T/sw0.ev" "$T/sw0.log"
check "sim2ev sw1" sim2ev -f switch -n sw1 -o "$T/sw1.ev" "$T/sw1.log"
cat > "$T/t.csv" <<'T'
stream,a,nic,a.ev
stream,b,nic,b.ev
stream,sw0,net,sw0.ev
stream,sw1,net,sw1.ev
eth,a,sw0,0,0
eth,b,sw1,0,0
n2n,sw0,0,1,sw1,0,1
T
check "evspan across two switches" evspan --stats -t "$T/t.csv" -o "$T/s.sp"
stderr_has "orphans by missing context: 1 (nic-cause 1)"	# a's first send: no host
check "spancat" spancat --csv "$T/s.sp"
# kind:span:parent in order of start: one chain each way
# (b's send hangs under its receive: a NIC's last causing span)
eq "a -> sw0 in, out -> sw1 in, out -> b; b -> sw1 -> sw0 -> a" \
    "$(awk -F, '/^[0-9]/ { printf "%s:%s:%s ", $2, $5, $6 }' "$T/.out")" \
    "nic.tx:0x1:0x0 net.device:0x2:0x1 net.device:0x3:0x2 net.device:0x4:0x3 net.device:0x5:0x4 nic.rx:0x6:0x5 nic.tx:0x7:0x6 net.device:0x8:0x7 net.device:0x9:0x8 net.device:0xa:0x9 net.device:0xb:0xa nic.rx:0xc:0xb "
grep -v '^n2n' "$T/t.csv" > "$T/t0.csv"
check "without the n2n row" evspan -t "$T/t0.csv" -o "$T/s0.sp"
check "spancat" spancat --csv "$T/s0.sp"
eq "sw1's ingress from sw0 is a root" \
    "$(awk -F, '/^1100000,/ && $2 == "net.device" { print $6; exit }' "$T/.out")" "0x0"

# The same two switches as net_switch -p captures (net_seen: no port, no
# direction; the ports come from the MACs learned, the queued contexts and
# the topology's ports), made with txt2ev
ip='eth_type=0x800 eth_src=00:00:00:00:00:a0 eth_dst=00:00:00:00:00:b0 ip_src=10.0.0.1 ip_dst=10.0.0.2 ip_proto=1 ip_len=84 ip_id=7 uid=-1 dev=4294967295'
arp='eth_type=0x806 eth_src=00:00:00:00:00:b0 eth_dst=ff:ff:ff:ff:ff:ff ip_src=10.0.0.2 ip_dst=10.0.0.1 ip_proto=-1 ip_id=-1 uid=-1 dev=4294967295'
printf '600000 net_seen %s\n2600000 net_seen %s\n' "$ip" "$arp" > "$T/p0.txt"
printf '1100000 net_seen %s\n2100000 net_seen %s\n' "$ip" "$arp" > "$T/p1.txt"
txt2ev -s sw0 -k net -o "$T/sw0.ev" "$T/p0.txt"
txt2ev -s sw1 -k net -o "$T/sw1.ev" "$T/p1.txt"
check "pcap: evspan across two switches" evspan --stats -t "$T/t.csv" -o "$T/s.sp"
check "spancat" spancat --csv "$T/s.sp"
eq "pcap: a -> sw0 in, out -> sw1 in, out -> b; b -> sw1 -> sw0 -> a" \
    "$(awk -F, '/^[0-9]/ { printf "%s:%s:%s ", $2, $5, $6 }' "$T/.out")" \
    "nic.tx:0x1:0x0 net.device:0x2:0x1 net.device:0x3:0x2 net.device:0x4:0x3 net.device:0x5:0x4 nic.rx:0x6:0x5 nic.tx:0x7:0x6 net.device:0x8:0x7 net.device:0x9:0x8 net.device:0xa:0x9 net.device:0xb:0xa nic.rx:0xc:0xb "
eq "pcap: the ports found (in, out: sw0 0 1, sw1 1 0, back sw1 0 1, sw0 1 0)" \
    "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$2 == "net.device" { printf "%s ", $c["dev"] }' "$T/.out")" "0 1 1 0 0 1 1 0 "

# ns-3 pcap: the Debian sample pcap.cc, one stream per device's file, with
# the two links as n2n rows and without; microsecond (ns-3's default) and
# nanosecond timestamps (score-pcap.sh)
for p in pcap pcapns; do
	: > "$T/$p.csv"
	for d in 0-0 1-0 1-1 2-0; do
		sim2ev -f pcap -n "$p-$d" -o "$T/$p-$d.ev" "$DATA/ns3-nslog/$p-$d.pcap"
		echo "stream,$p-$d,net,$p-$d.ev" >> "$T/$p.csv"
	done
	cp "$T/$p.csv" "$T/${p}0.csv"
	printf 'n2n,%s-0-0,0,0,%s-1-0,1,0\nn2n,%s-1-1,1,1,%s-2-0,2,0\n' \
	    $p $p $p $p >> "$T/$p.csv"
	o=; [ $p = pcap ] && o=-u
	for t in $p ${p}0; do
		check "$t: evspan" evspan -t "$T/$t.csv" -o "$T/n.sp"
		spancat --csv "$T/n.sp" > "$T/n.out"
		r=$(sh "$DATA/ns3-nslog/score-pcap.sh" $o "$T/n.out" "$DATA/ns3-nslog/pcap-truth.csv" | head -1)
		set -- $r
		if [ $t = $p ]; then
			eq "$t: every span, every parent ($r)" "$4 $6 $9 ${11}" "$2 0 $2 0"
		else	# without the links a router's same-time reception
			# and send are in stream order: wrong on the way back
			eq "$t: every span; parents as far as the records allow ($r)" \
			    "$4 $6 $9 ${11}" "$2 0 66 18"
		fi
	done
done

# NS_LOG: the Debian samples, with their trunk (device 2 of both bridges)
# as an n2n row of the one stream and without it, scored against the
# programs' own uid bookkeeping (score-spans.sh)
printf 'background,all\n' > "$T/r.csv"
printf 'stream,net,net,net.ev\n' > "$T/n0.csv"
printf 'stream,net,net,net.ev\nn2n,net,0,2,net,1,2\n' > "$T/n.csv"
for s in bridge-ps bridge-ns; do
	sim2ev -f ns3 -n net -o "$T/net.ev" "$DATA/ns3-nslog/$s.log.zst"
	for t in n n0; do
		check "$s, $t: evspan" evspan -t "$T/$t.csv" -r "$T/r.csv" -o "$T/n.sp"
		spancat --csv "$T/n.sp" > "$T/n.out"
		r=$(sh "$DATA/ns3-nslog/score-spans.sh" "$T/n.out" "$DATA/ns3-nslog/$s-truth.csv" | head -1)
		set -- $r
		eq "$s, $t: every span, every parent ($r)" "$4 $6 $9 ${11}" "$2 0 $2 0"
	done
done
done_testing
