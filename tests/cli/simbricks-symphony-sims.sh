#!/bin/sh
# simspan-simbricks run on the symphony fixtures of today's SimBricks
# simulators (tests/data/simbricks-symphony): QEMU hosts with i40e NICs on a
# net_switch (its NETSWITCH_DEBUG lines, or its -p capture) and on
# NS3Net's ns-3 (its NS_LOG lines; none), QEMU hosts with Corundum's
# Verilator model; and two net_switches joined on one socket.  Each run is
# laid out as simbricks-run left it, simsynth's logs of the same system go
# where the run's commands put them (out.json's captured stdout or stderr,
# the -p file), the run is made synchronized as enable_synchronization()
# makes it (simsynth's logs are of a synchronized run; the stock fixtures
# are not), and the spans of the one command score 99 % or better against
# simsynth's truth.
#
# Which simsynth host is which simulator follows from the fixtures'
# command lines (commands.txt): simsynth puts host i's NIC on switch port
# i (the i-th -s) and on NS3Net device i + 1 (the i-th --Network); server0
# is host 0.
. "$(dirname "$0")/../lib.sh"
needs simspan-simbricks sim2ev evspan span2sqlite span2html spancat simsynth python3 sqlite3

F=$DATA/simbricks-symphony

# mkrun FIXTURE DEST: the fixture's run under DEST (workdir-after-run.txt),
# out.json and the ns-3 params file in place; prints the run directory
mkrun() {
	while IFS= read -r p; do
		case $p in
		*/) mkdir -p "$2/$p" ;;
		*/out.json) mkdir -p "$2/${p%/*}"; cp "$1/out.json" "$2/$p"
			echo "$2/${p%/output/out.json}" ;;
		*/NS3Net-*_params) cp "$1"/NS3Net-*_params.ns3-config.txt "$2/$p" ;;
		*) mkdir -p "$(dirname "$2/$p")"; : > "$2/$p" ;;
		esac
	done < "$1/workdir-after-run.txt"
}

# edit OUT.JSON OP...: change a run's out.json in place.  Ops:
#   sync                   every channel synchronized (QEMU sync=on, the
#                          generic URLs sync=true, net_switch without -u)
#   put SIM stdout|stderr FILE   FILE's lines as SIM's captured output
#   cmd SIM OLD NEW        OLD (once) in SIM's run command becomes NEW
edit() {
	python3 - "$@" <<'EOF'
import json, re, sys
path, ops = sys.argv[1], sys.argv[2:]
d = json.load(open(path))
run = lambda s: d[s]["output"][-1]
i = 0
while i < len(ops):
    if ops[i] == "sync":
        for k, v in d.items():
            if isinstance(v, dict) and "output" in v:
                c = run(k)["cmd"].replace(",sync=off", ",sync=on,pci-latency=500,sync-period=500")
                c = c.replace(":sync=false:", ":sync=true:")
                run(k)["cmd"] = re.sub(r" -u( |$)", r"\1", c)
        i += 1
    elif ops[i] == "put":
        run(ops[i + 1])[ops[i + 2]] = open(ops[i + 3]).read().splitlines()
        i += 4
    else:
        c = run(ops[i + 1])["cmd"]
        assert ops[i + 2] in c, (ops[i + 1], ops[i + 2])
        run(ops[i + 1])["cmd"] = c.replace(ops[i + 2], ops[i + 3], 1)
        i += 4
json.dump(d, open(path, "w"), indent=2)
EOF
}

# truth NAME SYN MAP...: SYN's truth with simsynth's stream names (the
# map's old=new pairs) as the run's, in $T/NAME.truth
truth() {
	n=$1 syn=$2; shift 2
	s=
	for m in "$@"; do s="$s s/\"${m%%=*}\"/\"${m#*=}\"/;"; done
	sed -e "$s" "$syn/truth.csv" > "$T/$n.truth"
}

# score NAME OUT WHAT: OUT's spans against $T/NAME.truth, 99 % or better of
# the truth's spans with their true parent (SPEC's heuristics count as right)
score() {
	spancat --csv "$2/spans.sp" > "$T/$1.spans.csv"
	sh "$TOP/tests/score-truth.sh" -r -t "$2/topology.csv" "$T/$1.truth" \
	    "$T/$1.spans.csv" > "$T/$1.score" 2>&1 || :
	sc=$(awk '$1 == "total" { printf "%d", ($2 > 0 ? 100 * $7 / $2 : 0) }' "$T/$1.score")
	sed -n 's/^total/# total/p' "$T/$1.score"
	[ "${sc:-0}" -ge 99 ] && ok "$3: $sc % of the truth's spans have their true parent" ||
	    { not_ok "$3: spans against the truth (${sc:-0} %)"; sed 's/^/# /' "$T/$1.score"; }
}

# --- qemu-i40e-switch: QEMU hosts, i40e NICs, net_switch ------------------
# -s eth-5.18.17 (nic.NICSim-26, pci-7.8.6 of host.QemuSim-24) is port 0
W=$T/qsw
R=$(mkrun "$F/qemu-i40e-switch" "$W")
J=$R/output/out.json
check "qemu-i40e-switch: simsynth" simsynth --host qemu --net switch -H 2 -n 30 --seed 3 "$W/syn"
check "qemu-i40e-switch: the logs in out.json" edit "$J" sync \
    put host.QemuSim-24 stderr "$W/syn/server0.qemu.log" \
    put host.QemuSim-28 stderr "$W/syn/client0.qemu.log" \
    put nic.NICSim-26 stdout "$W/syn/server0-nic.nicbm.log" \
    put nic.NICSim-30 stdout "$W/syn/client0-nic.nicbm.log" \
    put net.SwitchNet-32 stderr "$W/syn/switch.net_switch.log"
check "qemu-i40e-switch: run" simspan-simbricks run -r "$W/syn/rules.csv" -d "$T/qsw.out" "$R"
stdout_has "streams: 5 of 5 simulators"
stdout_has "  host.QemuSim-24          qemu  "
stdout_has "  net.SwitchNet-32         switch"
if grep -q "not synchronized\|no debug lines\|no NETSWITCH" "$T/.out"; then
	not_ok "qemu-i40e-switch: nothing missing"; sed 's/^/# /' "$T/.out"
else ok "qemu-i40e-switch: nothing missing"; fi
grep -q '^"pcie","host.QemuSim-24","nic.NICSim-26","simbricks-pci"$' "$T/qsw.out/topology.csv" &&
    grep -q '^"eth","nic.NICSim-30","net.SwitchNet-32","0","1"$' "$T/qsw.out/topology.csv" &&
    ok "qemu-i40e-switch: its topology" || not_ok "qemu-i40e-switch: its topology"
grep -q "^'\\{0,1\\}sim2ev'\\{0,1\\} -f qemu -n host.QemuSim-24 .*--sim-stderr" "$T/qsw.out/commands.sh" &&
    ok "qemu-i40e-switch: QEMU's stderr" || not_ok "qemu-i40e-switch: QEMU's stderr"
truth qsw "$W/syn" server0-nic=nic.NICSim-26 client0-nic=nic.NICSim-30 \
    server0=host.QemuSim-24 client0=host.QemuSim-28 switch=net.SwitchNet-32
score qsw "$T/qsw.out" qemu-i40e-switch

# the same switch with its -p capture (what _relative_pcap_file_path =
# "switch.pcap" gives), its stderr without NETSWITCH_DEBUG lines
W=$T/qsp
R=$(mkrun "$F/qemu-i40e-switch" "$W")
J=$R/output/out.json
ORIG=$(sed -n 's|.*-s \(/[^ ]*\)/tmp/shm/eth-5.18.17.*|\1|p' "$F/qemu-i40e-switch/commands.txt")
check "switch -p: simsynth" simsynth --host qemu --net switch-pcap -H 2 -n 30 --seed 3 "$W/syn"
cp "$W/syn/switch.pcap" "$R/output/switch.pcap"
check "switch -p: the logs" edit "$J" sync \
    put host.QemuSim-24 stderr "$W/syn/server0.qemu.log" \
    put host.QemuSim-28 stderr "$W/syn/client0.qemu.log" \
    put nic.NICSim-26 stdout "$W/syn/server0-nic.nicbm.log" \
    put nic.NICSim-30 stdout "$W/syn/client0-nic.nicbm.log" \
    cmd net.SwitchNet-32 " -s " " -p $ORIG/output/switch.pcap -s "
check "switch -p: run" simspan-simbricks run -q -r "$W/syn/rules.csv" -d "$T/qsp.out" "$R"
stdout_has "  net.SwitchNet-32         pcap  "
stdout_has "$R/output/switch.pcap"
grep -q "^'\\{0,1\\}sim2ev'\\{0,1\\} -f pcap -n net.SwitchNet-32 .*$R/output/switch.pcap" "$T/qsp.out/commands.sh" &&
    ok "switch -p: sim2ev -f pcap on the file the run moved with it" ||
    { not_ok "switch -p: sim2ev -f pcap on the file the run moved with it"; grep sim2ev "$T/qsp.out/commands.sh" | sed 's/^/# /'; }
truth qsp "$W/syn" server0-nic=nic.NICSim-26 client0-nic=nic.NICSim-30 \
    server0=host.QemuSim-24 client0=host.QemuSim-28 switch=net.SwitchNet-32
score qsp "$T/qsp.out" "switch -p"
# a -p file that is not there: the NETSWITCH_DEBUG lines, said
rm "$R/output/switch.pcap"
edit "$J" put net.SwitchNet-32 stderr "$T/qsw/syn/switch.net_switch.log"
check "switch -p, its file gone" simspan-simbricks -o "$T/qsp2.csv" -c "$R"
stderr_has "net.SwitchNet-32 (SwitchNet): its pcap $ORIG/output/switch.pcap (-p) is not there"
stderr_has "NETSWITCH_DEBUG lines in out.json's stderr are read instead"
grep -q "^sim2ev -f switch -n net.SwitchNet-32 .*--sim-stderr$" "$T/qsp2.csv" &&
    ok "switch -p, its file gone: its stderr" || not_ok "switch -p, its file gone: its stderr"

# --- qemu-i40e-ns3-logging: NS3Net's NS_LOG ----------------------------------
# one --TopologyNode: NICSim-25 (Server-Host) device 1, NICSim-27 device 2
W=$T/qns
R=$(mkrun "$F/qemu-i40e-ns3-logging" "$W")
J=$R/output/out.json
P=$R/output/output.net.NS3Net-28-28/NS3Net-28_params
check "qemu-i40e-ns3-logging: simsynth" simsynth --host qemu --net ns3net-nslog -H 2 -n 30 --seed 3 "$W/syn"
# SimBricks' example logs level_all without prefixes: add the one
# simspan asks for (logging.add_logging("All", PREFIX_ALL)), and Sync:1
check "qemu-i40e-ns3-logging: the unedited params" simspan-simbricks -o /dev/null "$R"
stderr_has 'logging.add_logging("All", ns3_components.NS3LoggingLevel.PREFIX_ALL)'
sed -i -e 's/SimbricksNetDevice:level_all"/SimbricksNetDevice:level_all;All:prefix_all"/' \
    -e 's/Sync:0/Sync:1/g' "$P"
check "qemu-i40e-ns3-logging: the logs" edit "$J" sync \
    put host.Server-Host stderr "$W/syn/server0.qemu.log" \
    put host.Client-Host stderr "$W/syn/client0.qemu.log" \
    put nic.NICSim-25 stdout "$W/syn/server0-nic.nicbm.log" \
    put nic.NICSim-27 stdout "$W/syn/client0-nic.nicbm.log" \
    put net.NS3Net-28 stderr "$W/syn/net.ns3.log"
check "qemu-i40e-ns3-logging: run" simspan-simbricks run -r "$W/syn/rules.csv" -d "$T/qns.out" "$R"
stdout_has "streams: 5 of 5 simulators"
stdout_has "  net.NS3Net-28            ns3   "
if grep -q "not synchronized\|NS3Net-28 (NS3Net)" "$T/.out"; then
	not_ok "qemu-i40e-ns3-logging: nothing missing"; sed 's/^/# /' "$T/.out"
else ok "qemu-i40e-ns3-logging: nothing missing"; fi
grep -q '^"eth","nic.NICSim-27","net.NS3Net-28","0","2"$' "$T/qns.out/topology.csv" &&
    ok "qemu-i40e-ns3-logging: NS3Net's devices from its params" ||
    not_ok "qemu-i40e-ns3-logging: NS3Net's devices from its params"
truth qns "$W/syn" server0-nic=nic.NICSim-25 client0-nic=nic.NICSim-27 \
    server0=host.Server-Host client0=host.Client-Host net=net.NS3Net-28
score qns "$T/qns.out" qemu-i40e-ns3-logging

# --- qemu-i40e-ns3: NS3Net without logging ----------------------------------
# the same logs for hosts and NICs; the network has no stream: said, and
# the truth without it (its spans gone, the NICs' receives roots)
W=$T/qn0
R=$(mkrun "$F/qemu-i40e-ns3" "$W")
J=$R/output/out.json
sed -i 's/Sync:0/Sync:1/g' "$R/output/output.net.NS3Net-28-28/NS3Net-28_params"
check "qemu-i40e-ns3: the logs" edit "$J" sync \
    put host.Server-Host stderr "$T/qns/syn/server0.qemu.log" \
    put host.Client-Host stderr "$T/qns/syn/client0.qemu.log" \
    put nic.NICSim-25 stdout "$T/qns/syn/server0-nic.nicbm.log" \
    put nic.NICSim-27 stdout "$T/qns/syn/client0-nic.nicbm.log"
check "qemu-i40e-ns3: run" simspan-simbricks run -r "$T/qns/syn/rules.csv" -d "$T/qn0.out" "$R"
stdout_has "streams: 4 of 5 simulators"
stdout_has "net.NS3Net-28 (NS3Net): no network stream: its NS_LOG output is off (--Logging is empty)"
stdout_has 'logging.add_logging("BridgeNetDevice", ns3_components.NS3LoggingLevel.LEVEL_ALL)'
python3 - "$T/qns.truth" "$T/qn0.truth" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
net = {r[0] for r in rows[1:] if r[1] == "net.NS3Net-28"}
w = csv.writer(open(sys.argv[2], "w"), quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
w.writerow(rows[0])
for r in rows[1:]:
    if r[0] in net:
        continue
    if r[5] in net:
        r[5], r[7] = "", ""
    r[6] = " ".join(x for x in r[6].split() if x not in net)
    w.writerow([int(x) if x.isdigit() and j in (0, 3, 5, 7) else x for j, x in enumerate(r)])
EOF
score qn0 "$T/qn0.out" qemu-i40e-ns3

# --- corundum-verilator: QEMU hosts, Corundum's Verilator model ------------
# the switch's -s options in the other order (they follow a Python set:
# FORMAT-NOTES.md), so that port 0, simsynth's server, is server-NIC
W=$T/cv
R=$(mkrun "$F/corundum-verilator" "$W")
J=$R/output/out.json
A=$(sed -n 's|.*-s \([^ ]*eth-5.20.19\) .*|\1|p' "$F/corundum-verilator/commands.txt")
B=$(sed -n 's|.*-s \([^ ]*eth-12.22.21\).*|\1|p' "$F/corundum-verilator/commands.txt")
check "corundum-verilator: simsynth" simsynth --host qemu --nic corundum-verilator --net switch \
    -H 2 -n 30 --seed 3 "$W/syn"
check "corundum-verilator: the logs" edit "$J" sync \
    cmd net.SwitchNet-32 "-s $A -s $B" "-s $B -s $A" \
    put host.server-Host stderr "$W/syn/server0.qemu.log" \
    put host.client-Host stderr "$W/syn/client0.qemu.log" \
    put nic.server-NIC stdout "$W/syn/server0-nic.corundum.log" \
    put nic.client-NIC stdout "$W/syn/client0-nic.corundum.log" \
    put net.SwitchNet-32 stderr "$W/syn/switch.net_switch.log"
check "corundum-verilator: commands" simspan-simbricks -q -c "$R"
stdout_has 'RULES=${RULES:-linux-mqnic.csv}'
stdout_has "sim2ev -f corundum -n nic.server-NIC -o nic.server-NIC.ev.zst --simbricks-json \"\$RUN\" --sim nic.server-NIC"
if grep -q 'MQNIC_SYMS\|VMLINUX_SYMS' "$T/.out"; then not_ok "corundum-verilator: no symbol tables for QEMU"
else ok "corundum-verilator: no symbol tables for QEMU"; fi
check "corundum-verilator: run" simspan-simbricks run -r "$W/syn/rules.csv" -d "$T/cv.out" "$R"
stdout_has "streams: 5 of 5 simulators"
stdout_has "  nic.server-NIC           corundum"
truth cv "$W/syn" server0-nic=nic.server-NIC client0-nic=nic.client-NIC \
    server0=host.server-Host client0=host.client-Host switch=net.SwitchNet-32
score cv "$T/cv.out" corundum-verilator
# the default rules by name: mqnic's, from the source tree
check "corundum-verilator: run with the default rules" simspan-simbricks run -q -d "$T/cv2.out" "$R"
grep -q '^evspan -t topology.csv -r /.*/linux-mqnic.csv ' "$T/cv2.out/commands.sh" &&
    ok "corundum-verilator: linux-mqnic.csv found by name" ||
    not_ok "corundum-verilator: linux-mqnic.csv found by name"

# --- two switches on one socket: n2n, a packet's spans across both -------
# qemu-i40e-switch with a second switch: SwitchNet-32 keeps NICSim-26 and
# listens on eth-40.41.42, SwitchNet-40 connects to it and to NICSim-30.
# NIC a (NICSim-26) sends to b (NICSim-30), b's ARP broadcast comes back
# (the net_switch lines of tests/cli/evspan-n2n.sh)
W=$T/n2n
R=$(mkrun "$F/qemu-i40e-switch" "$W")
J=$R/output/out.json
L=$(sed -n 's|.*-s \(/[^ ]*\)/eth-5.18.17.*|\1|p' "$F/qemu-i40e-switch/commands.txt")
printf '%s\n' "info: main_time = 1000: nicbm: eth tx: len 98" \
    "info: main_time = 3001000: nicbm: eth rx: port 0 len 42" > "$W/a.log"
printf '%s\n' "info: main_time = 1601000: nicbm: eth rx: port 0 len 98" \
    "info: main_time = 2000000: nicbm: eth tx: len 42" > "$W/b.log"
printf '%s\n' "              600000: [P 0 -> 1] a0 -> b0 [ IP]  100000A ->  200000A len: 98" \
    "             2600000: [P 1 -> 0] b0 -> ffffffffff [ARP]  200000A ->  100000A" > "$W/sw0.log"
# (SwitchNet-40: the link on port 0, b on port 1)
printf '%s\n' "             1100000: [P 0 -> 1] a0 -> b0 [ IP]  100000A ->  200000A len: 98" \
    "             2100000: [P 1 -> 0] b0 -> ffffffffff [ARP]  200000A ->  100000A" > "$W/sw1.log"
python3 - "$J" "$L" "$W/sw1.log" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
sw = d["net.SwitchNet-32"]
sw2 = json.loads(json.dumps(sw))
c = sw["output"][-1]["cmd"]
sw["output"][-1]["cmd"] = c.replace("-s " + sys.argv[2] + "/eth-12.20.19",
                                    "-h " + sys.argv[2] + "/eth-40.41.42")
sw2["output"][-1]["cmd"] = c.replace("-s " + sys.argv[2] + "/eth-5.18.17",
                                     "-s " + sys.argv[2] + "/eth-40.41.42")
sw2["output"][-1]["stderr"] = open(sys.argv[3]).read().splitlines()
d["net.SwitchNet-40"] = sw2
json.dump(d, open(sys.argv[1], "w"), indent=2)
EOF
check "n2n: the logs" edit "$J" sync put nic.NICSim-26 stdout "$W/a.log" \
    put nic.NICSim-30 stdout "$W/b.log" put net.SwitchNet-32 stderr "$W/sw0.log"
check "n2n: topology" simspan-simbricks -q -o "$T/n2n.csv" "$R"
grep -q '^"n2n","net.SwitchNet-32","0","1","net.SwitchNet-40","0","0"$' "$T/n2n.csv" &&
    grep -q '^"eth","nic.NICSim-30","net.SwitchNet-40","0","1"$' "$T/n2n.csv" &&
    ok "n2n: the row, the listening switch first" ||
    { not_ok "n2n: the row, the listening switch first"; sed 's/^/# /' "$T/n2n.csv"; }
check "n2n: run" simspan-simbricks run -q -d "$T/n2n.out" "$R"
stdout_has "streams: 6 of 6 simulators"
spancat --csv "$T/n2n.out/spans.sp" > "$T/n2n.spans"
# a's send (no host line: a root) and its chain; b's send under its receive
eq "n2n: one root, every switch span with a parent" \
    "$(awk -F, '/^[0-9]/ && $6 == "0x0" { print $2 }' "$T/n2n.spans" | sort | tr '\n' ' ')" "nic.tx "
eq "n2n: four switch spans each way" \
    "$(awk -F, '/^[0-9]/ && $2 == "net.device"' "$T/n2n.spans" | wc -l | tr -d ' ')" 8
done_testing
