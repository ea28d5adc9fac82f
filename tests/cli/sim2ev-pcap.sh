#!/bin/sh
# sim2ev -f pcap: ns-3's PcapHelper files of the real Debian ns-3 sample
# (tests/data/ns3-nslog/pcap.cc), scored against the program's own uid
# bookkeeping (PromiscSniffer); net_switch's nanosecond captures (written
# here with python3 as net_switch.cc's pcap_dump writes them); node and
# device from the file name or the options; bad input.
. "$(dirname "$0")/../lib.sh"
needs sim2ev evcat python3 zstd

D="$DATA/ns3-nslog"
for f in "$D"/pcap-*.pcap; do
	b=$(basename "$f" .pcap)
	check "$b" sim2ev -f pcap --stats -o "$T/$b.ev" "$f"
	n=$(python3 -c "
import struct, sys
d = open(sys.argv[1], 'rb').read(); o = 24; n = 0
while o < len(d):
    incl = struct.unpack_from('<I', d, o + 8)[0]; o += 16 + incl; n += 1
print(n)" "$f")
	stderr_has "$n lines = $n events + 0 skipped"
	evcat --csv "$T/$b.ev" | sed 1d >> "$T/all.body"
	node=${b#pcap-}; dev=${node#*-}; node=${node%-*}
	eq "$b: node and device from the name" \
	    "$(evcat "$T/$b.ev" | grep -c " node=$node dev=$dev devtype=")" "$n"
done
{ evcat --csv "$T/pcap-0-0.ev" | head -1; cat "$T/all.body"; } > "$T/all.csv"
awk -F, 'NR == 1 || $1 == "sniff"' "$D/pcap-truth.csv" > "$T/sniff.csv"
r=$(sh "$D/score.sh" "$T/all.csv" "$T/sniff.csv" | awk '$1 == "total" { print $2 " " $7 " " $10 }')
eq "every record the sniffers saw, at its us" "$r" "${r%% *} ${r%% *} 0"
eq "no event matched nothing" "$(sh "$D/score.sh" "$T/all.csv" "$T/sniff.csv" | grep -c ' 0 of ')" 1
r=$(awk -F, -f "$D/pcap-identity.awk" "$T/all.csv" "$D/pcap-truth.csv")
case $r in *" 0 not one uid's") ok "each packet identity is one uid's ($r)" ;;
*) not_ok "each packet identity is one uid's: $r" ;; esac
check "Ethernet fields" evcat "$T/pcap-0-0.ev"
stdout_has "devtype=EN10MB source=pcap uid=-1 interesting=1 boundary=0 payload=500 eth_type=0x800 eth_src=00:00:00:00:00:01 eth_dst=00:00:00:00:00:02 ip_src=10.1.1.1 ip_dst=10.1.2.2 ip_proto=17 ip_len=528"
stdout_has "eth_type=0x806 eth_src=00:00:00:00:00:01 eth_dst=ff:ff:ff:ff:ff:ff ip_src=10.1.1.1 ip_dst=10.1.1.2"
check "PPP" evcat "$T/pcap-1-1.ev"
stdout_has "devtype=PPP"
stdout_has "ip_proto=17 ip_len=528"

# --- the capture's place: options, standard input, .zst -----------------
check "--node --device" sim2ev -f pcap --node 7 --device 3 -o "$T/o.ev" "$D/pcap-1-1.pcap"
eq "--node --device win over the name" "$(evcat "$T/o.ev" | grep -c 'node=7 dev=3 ')" \
    "$(evcat "$T/o.ev" | grep -c net_seen)"
check "stdin: no name" sh -c "sim2ev -f pcap < '$D/pcap-1-1.pcap' > '$T/s.ev'"
eq "stdin: node 0, no device" "$(evcat "$T/s.ev" | grep -c 'node=0 dev=4294967295 ')" \
    "$(evcat "$T/s.ev" | grep -c net_seen)"
zstd -q -c "$D/pcap-1-1.pcap" > "$T/pcap-1-1.pcap.zst"
check "a .zst capture" sim2ev -f pcap -o "$T/z.ev" "$T/pcap-1-1.pcap.zst"
eq ".zst: the same events" "$(evcat "$T/z.ev")" "$(evcat "$T/pcap-1-1.ev")"

# --- net_switch -p: nanosecond precision, one record per forwarded copy --
python3 - "$T" <<'P'
import struct, sys
t = sys.argv[1]
def frame(dst, src, etype, body):
    return bytes.fromhex(dst) + bytes.fromhex(src) + struct.pack('>H', etype) + body
def ipv4(src, dst, proto, ipid, l4):
    tot = 20 + len(l4)
    return struct.pack('>BBHHHBBH4s4s', 0x45, 0, tot, ipid, 0x4000, 64, proto, 0,
                       bytes(src), bytes(dst)) + l4
udp = struct.pack('>HHHH', 5000, 6000, 8 + 18, 0) + bytes(18)
ip = frame('525400123401', '525400123400', 0x0800, ipv4([10,0,0,1], [10,0,0,2], 17, 4711, udp))
arp = frame('ffffffffffff', '525400123400', 0x0806, struct.pack('>HHBBH6s4s6s4s', 1, 0x800, 6, 4, 1,
    bytes.fromhex('525400123400'), bytes([10,0,0,1]), bytes(6), bytes([10,0,0,2])))
def rec(ps, data):	# net_switch: tv_sec = ts / 1e12, tv_usec = ns within the second
    return struct.pack('<IIII', ps // 10**12, (ps % 10**12) // 1000, len(data), len(data)) + data
hdr = struct.pack('<IHHiIII', 0xa1b23c4d, 2, 4, 0, 0, 65535, 1)
open(t + '/switch.pcap', 'wb').write(hdr + rec(1500443123456, arp) + rec(1500443123456, arp) +
    rec(2000000001000, ip))
open(t + '/cut.pcap', 'wb').write(hdr + rec(1500443123456, arp) + rec(2000000001000, ip)[:30])
open(t + '/sll.pcap', 'wb').write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 113))
open(t + '/short.pcap', 'wb').write(hdr + rec(5, bytes(10)))
P
check "net_switch capture" sim2ev -f pcap --stats -o "$T/sw.ev" "$T/switch.pcap"
stderr_has "3 lines = 3 events + 0 skipped"
check "evcat" evcat "$T/sw.ev"
stdout_has "1500443123000 net_seen        node=0 dev=4294967295 devtype=EN10MB source=pcap uid=-1"
stdout_has "eth_type=0x806 eth_src=52:54:00:12:34:00 eth_dst=ff:ff:ff:ff:ff:ff ip_src=10.0.0.1 ip_dst=10.0.0.2"
stdout_has "2000000001000 net_seen"
stdout_has "payload=18 eth_type=0x800 eth_src=52:54:00:12:34:00 eth_dst=52:54:00:12:34:01 ip_src=10.0.0.1 ip_dst=10.0.0.2 ip_proto=17 ip_len=46 ip_id=4711 sport=5000 dport=6000"
check "evcat --header" evcat --header "$T/sw.ev"
stdout_has "# simulator: pcap"
stdout_has "# kind: net"

# --- bad input --------------------------------------------------------
expect_rc 0 "a record cut by the end" sim2ev -f pcap --stats -o "$T/c.ev" "$T/cut.pcap"
stderr_has "2 lines = 1 events + 1 skipped"
stderr_has "skipped: partial-line"
expect_rc 1 "a link type sim2ev does not read" sim2ev -f pcap -o "$T/x.ev" "$T/sll.pcap"
stderr_has "link type 113 (LINUX_SLL): sim2ev reads Ethernet, PPP and raw IPv4 captures"
expect_rc 0 "a frame shorter than its Ethernet header" sim2ev -f pcap -o "$T/x.ev" "$T/short.pcap"
stderr_has "1 malformed line skipped, first at line 1: pcap record: shorter than an Ethernet header"
expect_rc 1 "--strict" sim2ev -f pcap --strict -o "$T/x.ev" "$T/short.pcap"
expect_rc 1 "a text log" sim2ev -f pcap -o "$T/x.ev" "$DATA/samples/ns3-std/ns3-bottleneck-head400.tr"
stderr_has "not a pcap capture"
: > "$T/empty"
expect_rc 1 "empty input" sim2ev -f pcap -o "$T/x.ev" "$T/empty"
stderr_has "not a pcap capture"
expect_rc 2 "--follow" sim2ev -f pcap --follow -o "$T/x.ev" "$T/switch.pcap"
expect_rc 2 "--node without -f pcap" sim2ev -f ns3 --node 1 -o "$T/x.ev" "$T/empty"
expect_rc 2 "--device out of range" sim2ev -f pcap --device 4294967295 -o "$T/x.ev" "$T/switch.pcap"
expect_rc 0 "a capture given to -f ns3" sim2ev -f ns3 -o "$T/x.ev" "$T/switch.pcap"

# --- libpcap is opened for -f pcap only (dlopen), not linked ---------------
# A libpcap.so.0.8 the loader cannot map: a binary linked with libpcap
# would not start at all (exit 127).
mkdir "$T/badlib"
echo 'not a shared object' > "$T/badlib/libpcap.so.0.8"
expect_rc 0 "--version without a loadable libpcap" \
    env LD_LIBRARY_PATH="$T/badlib" sim2ev --version
printf 'nicbm: 1000 main_time = 5\n' > "$T/nicbm.log"
expect_rc 0 "-f nicbm without a loadable libpcap" \
    env LD_LIBRARY_PATH="$T/badlib" sim2ev -f nicbm -o "$T/n.ev" "$T/nicbm.log"
rm -f "$T/x.ev"
expect_rc 1 "-f pcap without a loadable libpcap" \
    env LD_LIBRARY_PATH="$T/badlib" sim2ev -f pcap -o "$T/x.ev" "$T/switch.pcap"
stderr_has "sim2ev: cannot load libpcap, which reading a capture needs: $T/badlib/libpcap.so.0.8: "
stderr_has "(on Debian: apt-get install libpcap0.8)"
eq "-f pcap without libpcap: no output" "$(ls "$T/x.ev" 2>/dev/null || :)" ""
if have cc; then
	# a library of that name without the functions sim2ev calls
	echo 'int pcap_datalink(void); int pcap_datalink(void) { return 1; }' > "$T/stub.c"
	cc -shared -fPIC -o "$T/badlib/libpcap.so.0.8" "$T/stub.c"
	expect_rc 1 "a libpcap without pcap_fopen_offline_with_tstamp_precision" \
	    env LD_LIBRARY_PATH="$T/badlib" sim2ev -f pcap -o "$T/x.ev" "$T/switch.pcap"
	stderr_has "libpcap.so.0.8: no pcap_fopen_offline_with_tstamp_precision (libpcap 1.5 or later is needed)"
fi
done_testing
