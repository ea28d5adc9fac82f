#!/bin/sh
# simspan-simbricks on today's SimBricks (symphony v0.5.2): each of the six
# runs of tests/data/simbricks-symphony laid out on disk as simbricks-run
# left it; its links equal what its own system.json and simulation.json
# state (python3 reads them, independently of the tool); commands.sh is
# valid sh whatever the simulators are called; bad input exits 2 naming
# the file and key, with nothing written; and "run", with simsynth's logs
# in the places the run names (gem5 --debug-file, the NICs' log_file,
# the switch's stderr in out.json), goes from the run directory to spans
# that score 99 % or better against simsynth's truth.
. "$(dirname "$0")/../lib.sh"
needs simspan-simbricks sim2ev evspan span2sqlite span2html spancat simsynth python3 sqlite3

F=$DATA/simbricks-symphony

# mkrun FIXTURE DEST: the fixture's run under DEST (its workdir-after-run.txt),
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

# the links system.json states, as "pcie HOST NIC" / "eth NIC NET" lines
# between simulators (simulation.json: who simulates which component;
# display names are the class's prefix and the simulator's name)
pairs_of() {
	python3 - "$1" <<'EOF'
import json, sys
d = sys.argv[1]
sysj = json.load(open(d + "/system.json"))
sim = json.load(open(d + "/simulation.json"))
prefix = {"Gem5Sim": "host.", "QemuSim": "host.", "I40eNicSim": "nic.",
          "CorundumVerilatorNICSim": "nic.", "SwitchNet": "net.", "NS3Net": "net."}
owner = {}
for s in sim["sim_list"]:
    for c in s["components"]:
        owner[c] = prefix[s["type"]] + s["name"]
ifs = {i["id"]: i for i in sysj["interfaces"]}
out = []
for ch in sysj["channels"]:
    a = owner[ifs[ch["interface_a"]]["component"]]
    b = owner[ifs[ch["interface_b"]]["component"]]
    out.append(("pcie " if ch["type"] == "PCIeChannel" else "eth ") + a + " " + b)
print("\n".join(sorted(out)))
EOF
}
# the links of a topology, its comment rows (links to simulators without
# a stream) included
pairs_in() {
	sed -n 's/^\(# \)\{0,1\}"\(pcie\|eth\)","\([^"]*\)","\([^"]*\)".*/\2 \3 \4/p' "$1" | sort
}

for f in gem5-i40e-switch gem5-i40e-switch-debug qemu-i40e-switch qemu-i40e-ns3 \
    qemu-i40e-ns3-logging corundum-verilator; do
	R=$(mkrun "$F/$f" "$T/w-$f")
	check "$f: topology" simspan-simbricks -o "$T/$f.csv" "$R"
	cp "$T/.err" "$T/$f.err"
	eq "$f: the links system.json states" "$(pairs_in "$T/$f.csv")" "$(pairs_of "$F/$f")"
	check "$f: --simulation and --system agree" simspan-simbricks -q -o /dev/null \
	    --simulation "$F/$f/simulation.json" --system "$F/$f/system.json" "$R"
	eq "$f: --simulation: no finding" "$(cat "$T/.err")" ""
	check "$f: commands" simspan-simbricks -q -c -o "$T/$f.sh" "$R"
	check "$f: commands are sh" sh -n "$T/$f.sh"
	# out.json read straight (a directory or the file)
	check "$f: the out.json path" simspan-simbricks -q -o "$T/$f-2.csv" "$R/output/out.json"
	cmp -s "$T/$f.csv" "$T/$f-2.csv" && ok "$f: run directory = its out.json" ||
	    not_ok "$f: run directory = its out.json"
done

# what the warnings say, in the attribute names of a symphony script
grep -q 'the run is not synchronized: 4 of 4 channels' "$T/qemu-i40e-switch.err" &&
    grep -q 'pci-7.8.6 (nic.NICSim-26 sync=false, host.QemuSim-24 sync=off)' "$T/qemu-i40e-switch.err" &&
    grep -q 'eth-5.18.17 (nic.NICSim-26 sync=false, net.SwitchNet-32 -u)' "$T/qemu-i40e-switch.err" &&
    grep -q 'simulation.enable_synchronization()' "$T/qemu-i40e-switch.err" &&
    ok "unsynchronized: one warning naming the channels" ||
    not_ok "unsynchronized: one warning naming the channels"
[ "$(grep -c 'not synchronized' "$T/qemu-i40e-switch.err")" -eq 1 ] &&
    ok "unsynchronized: one line" || not_ok "unsynchronized: one line"
grep -q 'not synchronized' "$T/gem5-i40e-switch-debug.err" &&
    not_ok "synchronized run: no warning" || ok "synchronized run: no warning"
grep -q 'host.Gem5Sim-24 (Gem5Sim): gem5 ran without --debug-flags: no events; in the experiment script: _variant = "opt", extra_main_args = \["--debug-flags=' \
    "$T/gem5-i40e-switch.err" && ok "gem5 without debug flags: the script's attributes" ||
    not_ok "gem5 without debug flags: the script's attributes"
grep -q 'nic.NICSim-26 (I40eNicSim): no nicbm debug lines in its output: build it with DEBUG_NICBM' \
    "$T/gem5-i40e-switch.err" && ok "NIC without DEBUG_NICBM" || not_ok "NIC without DEBUG_NICBM"
# the stand-ins printed no debug line: each class says how to get them
grep -q "host.QemuSim-24 (QemuSim): no debug lines in its captured stderr (none has '_mmio_rw: '); build QEMU with DEBUG_PRINTS" \
    "$T/qemu-i40e-switch.err" && ok "QemuSim: no DEBUG_PRINTS lines" || not_ok "QemuSim: no DEBUG_PRINTS lines"
grep -q "nic.client-NIC (CorundumVerilatorNICSim): no debug lines in its captured stdout (none has 'ts='); build component-corundum's adapter with CORUNDUM_VERILATOR_DEBUG" \
    "$T/corundum-verilator.err" && ok "Corundum Verilator: no debug lines" || not_ok "Corundum Verilator: no debug lines"
grep -q 'net.NS3Net-28 (NS3Net): no network stream: its NS_LOG output is off (--Logging is empty); on the NS3Net simulator of the experiment script: logging.add_logging("BridgeNetDevice", ns3_components.NS3LoggingLevel.LEVEL_ALL)' \
    "$T/qemu-i40e-ns3.err" && ok "NS3Net without logging: what to add" || not_ok "NS3Net without logging: what to add"
# SimBricks' own example turns on level_all but no prefix: lines without
# time and node
grep -q 'net.NS3Net-28 (NS3Net): its --Logging ("Ping:level_all;BridgeNetDevice:level_all;SimpleNetDevice:level_all;SimbricksNetDevice:level_all") gives BridgeNetDevice, SimbricksNetDevice not all of the time, node and function prefixes' \
    "$T/qemu-i40e-ns3-logging.err" && grep -q 'logging.add_logging("All", ns3_components.NS3LoggingLevel.PREFIX_ALL)' \
    "$T/qemu-i40e-ns3-logging.err" && ok "NS3Net with logging: the prefixes it lacks" ||
    not_ok "NS3Net with logging: the prefixes it lacks"
grep -q '^"stream","net.NS3Net-28","net"' "$T/qemu-i40e-ns3-logging.csv" &&
    ok "NS3Net with logging: a stream" || not_ok "NS3Net with logging: a stream"
grep -q '^"pcie","host.Server-Host","nic.NICSim-25","simbricks-pci"$' "$T/qemu-i40e-ns3.csv" &&
    ok "QEMU host: its adapter as its events name it" || not_ok "QEMU host: its adapter as its events name it"
# the ns-3 devices from the params file: node 0 (the switch), device 0 the
# bridge, then the two SimBricks devices in --Network order
grep -q '^# "eth","nic.NICSim-25","net.NS3Net-28","0","1"' "$T/qemu-i40e-ns3.csv" &&
    grep -q '^# "eth","nic.NICSim-27","net.NS3Net-28","0","2"' "$T/qemu-i40e-ns3.csv" &&
    ok "NS3Net: ns-3 node and device numbers" || not_ok "NS3Net: ns-3 node and device numbers"
# the debug run's logs are where its commands put them: gem5's --debug-file
# under --outdir, the NICs' log_file in the directory simbricks-run ran in
DBG=$T/w-gem5-i40e-switch-debug
check "debug run: commands" simspan-simbricks -q -c "$DBG"/*/33
stdout_has "$DBG/simulation-278a05c1-37d1-4e46-a1d3-5e29a37891ad/33/output/output.host.Gem5Sim-24-24/gem5-debug.log"
stdout_has "i40e-NICSim-26.log"
# the switch's -p file (empty: the stand-in's) is no capture
stdout_has 'sim2ev -f pcap -n net.SwitchNet-32 -o net.SwitchNet-32.ev.zst'
stdout_has "RULES=\${RULES:-linux-i40e.csv}"
check "debug run: warnings" simspan-simbricks -o /dev/null "$DBG"/*/33
stderr_has "is not a pcap capture (empty: did the switch run?), and its stderr has no NETSWITCH_DEBUG lines"
# --strict refuses an unsynchronized run
expect_rc 2 "--strict: unsynchronized" simspan-simbricks --strict -o "$T/x.csv" "$T/w-qemu-i40e-switch"/*/*
stderr_has "the run is not synchronized (4 of 4 channels, first"
[ ! -e "$T/x.csv" ] && ok "--strict: nothing written" || not_ok "--strict: nothing written"
check "--strict: a synchronized run" simspan-simbricks --strict -q -o /dev/null "$DBG"/*/33

# --- bad input: exit 2, the file and key named, nothing written ----------------
R=$(echo "$T"/w-qemu-i40e-switch/*/*)
J=$R/output/out.json
bad() {	# bad DESCRIPTION FILE TEXT [OPTIONS]
	d=$1 file=$2 text=$3; shift 3
	rm -f "$T/bad.csv"
	expect_rc 2 "$d" simspan-simbricks "$@" -o "$T/bad.csv" "$file"
	stderr_has "$text"
	[ ! -e "$T/bad.csv" ] && ok "$d: no topology written" || not_ok "$d: no topology written"
}
head -c 5000 "$J" > "$T/trunc.json"
bad "truncated out.json" "$T/trunc.json" "trunc.json:"
printf '{"name": "x", "sim_list": []}\n' > "$T/foreign.json"
bad "foreign JSON" "$T/foreign.json" "no \"exp_name\" (2022) or \"_sim_name\" (symphony) string"
sed 's/"_interrupted": false/"_interrupted": true/' "$J" > "$T/int.json"
bad "interrupted run" "$T/int.json" "\"_interrupted\" is true: the run was stopped early"
check "interrupted run with --force" simspan-simbricks --force -o "$T/int.csv" "$T/int.json"
stderr_has "the run was interrupted: its logs may end early"
bad "backend runner's out.json" "$F/qemu-i40e-switch/backend-runner/out.json" \
    "no simulators: this out.json has only the run's header"
sed 's/"class": "SwitchNet"/"klass": "SwitchNet"/' "$J" > "$T/nokey.json"
bad "a simulator without class" "$T/nokey.json" "\"net.SwitchNet-32\" has no \"class\" string"
sed 's/"stdout": \[\]/"stdout": 3/' "$J" > "$T/notlist.json"
bad "stdout not a list" "$T/notlist.json" ".stdout is not a list of lines"
python3 - "$J" "$T/dup.json" <<'EOF'
import sys
t = open(sys.argv[1]).read()
# the same name twice: what a hand-merged or edited out.json can have
t = t.replace('"nic.NICSim-30":', '"nic.NICSim-26":', 1)
open(sys.argv[2], "w").write(t)
EOF
bad "two simulators with one name" "$T/dup.json" "(two simulators with one name?)"
sed 's|-s [^ ]*eth-12.20.19|-s /x/tmp/shm/eth-99.98.97|' "$J" > "$T/unpaired.json"
bad "a socket that pairs nothing" "$T/unpaired.json" \
    "simulator 'nic.NICSim-30' (I40eNicSim): no network uses its Ethernet socket eth-12.20.19"
N=$(echo "$T"/w-qemu-i40e-ns3/*/*)
rm "$N"/output/output.net.NS3Net-28-28/NS3Net-28_params
bad "missing params file" "$N" "its params file NS3Net-28_params (--ConfigFile, with the NIC links) is missing; give --logs DIR"
mkdir "$T/logs"
cp "$F/qemu-i40e-ns3/NS3Net-28_params.ns3-config.txt" "$T/logs/NS3Net-28_params"
check "the params file from --logs" simspan-simbricks -q --logs "$T/logs" -o "$T/n.csv" "$N"
cmp -s "$T/n.csv" "$T/qemu-i40e-ns3.csv" && ok "--logs: the same topology" || not_ok "--logs: the same topology"
sed 's/"simbricks-ns3-net --ConfigFile=/"simbricks-ns3-net --ConfigFile=\/x/' "$N/output/out.json" > "$T/ns.json"
printf -- '--TopologyNode="Id:-16;Type:Switch" --Network="UnixSocket:/x;Id:-16/-4;Type:Trunk"\n' > "$T/logs/NS3Net-28_params"
bad "an ns-3 trunk" "$T/ns.json" "an ns-3 trunk joins two ns-3 processes: not supported yet" --logs "$T/logs"
printf -- '--Network="UnixSocket:/x;Id:-16/-4;Type:Simbricks"\n' > "$T/logs/NS3Net-28_params"
expect_rc 2 "a network of no topology node" simspan-simbricks --logs "$T/logs" -o "$T/bad.csv" "$T/ns.json"
stderr_has "NS3Net-28_params: '--Network=UnixSocket:/x;Id:-16/-4;Type:Simbricks': Id -16/-4 does not start with a --TopologyNode's Id and '/'"
sed 's/"-16"/"xx"/' "$F/qemu-i40e-ns3/simulation.json" > "$T/sim.json"
python3 - "$F/qemu-i40e-ns3/simulation.json" "$T/dupsim.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["sim_list"][3]["name"] = d["sim_list"][1]["name"]
json.dump(d, open(sys.argv[2], "w"))
EOF
cp "$F/qemu-i40e-ns3/NS3Net-28_params.ns3-config.txt" "$N"/output/output.net.NS3Net-28-28/NS3Net-28_params
bad "simulation.json: two simulators with one name" "$N" \
    "sim_list[1] (I40eNicSim, id 25) and sim_list[3] (I40eNicSim, id 27) are both 'nic.NICSim-25'" \
    --simulation "$T/dupsim.json"
bad "simulation.json of another run" "$N" "simulation.json: another run's: its simulation is" \
    --simulation "$F/qemu-i40e-switch/simulation.json"
expect_rc 2 "--system without --simulation" simspan-simbricks --system "$F/qemu-i40e-ns3/system.json" "$N"
expect_rc 2 "--log: no such simulator" simspan-simbricks --log nic.nope=x "$N"
stderr_has "no simulator named 'nic.nope'"
check "--log: a QEMU host's log" simspan-simbricks --log host.Server-Host=x -o /dev/null "$N"
stderr_has "host.Server-Host (QemuSim): its log x is not there (looked at x)"

# --- hostile simulator names: commands.sh stays valid sh -------------------------
python3 - "$DBG"/*/33/output/out.json "$T/hostile.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ren = {"host.Gem5Sim-24": "0host $(touch pwned) 'x\"", "nic.NICSim-26": "9nic;rm -rf ~",
       "net.SwitchNet-32": "net.`id` *"}
out = {}
for k, v in d.items():
    out[ren.get(k, k)] = v
json.dump(out, open(sys.argv[2], "w"))
EOF
check "hostile names: commands" simspan-simbricks -q -c -o "$T/hostile.sh" "$T/hostile.json"
check "hostile names: sh -n" sh -n "$T/hostile.sh"
if grep -q '^[0-9][A-Za-z0-9_]*=' "$T/hostile.sh"; then
	not_ok "hostile names: no variable name starts with a digit"
else ok "hostile names: no variable name starts with a digit"; fi
# run its variable lines: they set what they say, and run nothing
(cd "$T" && grep -E '^[A-Za-z_][A-Za-z0-9_]*=' hostile.sh > vars.sh && sh -eu vars.sh) &&
    [ ! -e "$T/pwned" ] && ok "hostile names: variables assign, nothing runs" ||
    not_ok "hostile names: variables assign, nothing runs"
printf '{"_sim_name": "s", "nic.a\\u0000b": {"class": "I40eNicSim", "output": [{"cmd": "x"}]}}' > "$T/nul.json"
bad "a NUL in a name" "$T/nul.json" "nul.json:"
printf '{"_sim_name": "s", "nic.a": {"class": "I40eNicSim", "output": [{"cmd": "x \\u0000 y"}]}}' > "$T/nulcmd.json"
bad "a NUL in a command" "$T/nulcmd.json" "\"nic.a\".output[0].cmd: a control character"

# --- run: from the run directory to traces ------------------------------------
# scripts/symphony-sample.sh: simsynth's gem5 + i40e + net_switch scenario
# in the debug run's places (server0 is host.Gem5Sim-24, its NIC
# nic.NICSim-26 on switch port 0, client0 host.Gem5Sim-28, as the run's
# sockets say), with a run.conf naming simsynth's tables and rules
W=$T/e2e
E2E=$(sh "$TOP/scripts/symphony-sample.sh" "$W") && ok "symphony-sample.sh" ||
    not_ok "symphony-sample.sh"
cp "$W/trace.conf" "$T/run.conf.rel"
sed "s|syn/|$W/syn/|" "$W/trace.conf" > "$T/run.conf"
ln -s "$W/syn" "$T/syn"
check "run" simspan-simbricks run -C "$T/run.conf" -d "$T/out" "$E2E"
stdout_has "streams: 5 of 5 simulators"
stdout_has "spans: "
stdout_has "end-to-end latency by root kind (us):"
stdout_has "where their time goes, per simulator"
for f in topology.csv spans.sp spans.db spans.html summary.txt commands.sh; do
	[ -s "$T/out/$f" ] && ok "run: $f" || not_ok "run: $f"
done
spancat --csv "$T/out/spans.sp" > "$T/spans.csv"
sed -e 's/"server0-nic"/"nic.NICSim-26"/; s/"client0-nic"/"nic.NICSim-30"/' \
    -e 's/"server0"/"host.Gem5Sim-24"/; s/"client0"/"host.Gem5Sim-28"/; s/"switch"/"net.SwitchNet-32"/' \
    "$T/syn/truth.csv" > "$T/truth.csv"
sh "$TOP/tests/score-truth.sh" -r -t "$T/out/topology.csv" "$T/truth.csv" "$T/spans.csv" \
    > "$T/score.txt" 2>&1 || :
score=$(awk '$1 == "total" { printf "%d", ($2 > 0 ? 100 * $7 / $2 : 0) }' "$T/score.txt")
[ "${score:-0}" -ge 99 ] && ok "run: $score % of the truth's spans have their true parent" ||
    { not_ok "run: spans against the truth ($score %)"; sed 's/^/# /' "$T/score.txt"; }
# the summary's numbers are the database's
n=$(sqlite3 "$T/out/spans.db" 'SELECT count(*) FROM spans')
stdout_has "spans: $n in "
# commands.sh reruns exactly that
(cd "$T/out" && sh commands.sh) && ok "run: commands.sh reruns it" || not_ok "run: commands.sh reruns it"
eq "run: the rerun makes the same spans" "$(spancat --csv "$T/out/spans.sp" | cksum)" "$(cksum < "$T/spans.csv")"
# the sample's own config, its paths relative to it
check "run: a config with relative paths" simspan-simbricks run -q -C "$W/trace.conf" -d "$T/outr" "$E2E"
eq "run: the same spans" "$(spancat --csv "$T/outr/spans.sp" | cksum)" "$(cksum < "$T/spans.csv")"
# the same from -s/-r flags and the default rules by name (the source
# tree's rules/): the kernel-context rules meet the one-CPU logs
check "run with flags" simspan-simbricks run -q -d "$T/out2" -s "$T/syn/vmlinux.syms" \
    -s "$T/syn/i40e.syms,i40e,0xffffffffa0000000" "$E2E"
stdout_has "host.irq spans were closed without an irq-exit"
grep -q '^evspan -t topology.csv -r /.*/linux-i40e.csv ' "$T/out2/commands.sh" &&
    ok "run: rules found by name" || not_ok "run: rules found by name"
# no symbol tables: said, and still traced
check "run without symbol tables" simspan-simbricks run -q -d "$T/out3" -r "$T/syn/rules.csv" "$E2E"
stdout_has "host.Gem5Sim-24: no symbol tables (-s, or symtab in the config file)"
# nothing traceable: not 0
expect_rc 1 "run: nothing to trace" simspan-simbricks run -q -d "$T/out4" "$T/w-corundum-verilator"/*/*
stderr_has "nothing could be traced"
# a log the run names, missing: said, the rest traced
rm "$W/i40e-NICSim-30.log"
check "run: a missing log" simspan-simbricks run -q -d "$T/out5" -C "$T/run.conf" "$E2E"
stdout_has "nic.NICSim-30 (I40eNicSim): its log i40e-NICSim-30.log is not there"
stdout_has "streams: 4 of 5 simulators"
grep -q '^# "pcie","host.Gem5Sim-28","nic.NICSim-30"' "$T/out5/topology.csv" &&
    ok "run: the missing stream's links as comments" || not_ok "run: the missing stream's links as comments"
cp "$T/syn/client0-nic.nicbm.log" "$T/logs/elsewhere.log"
check "run: --log" simspan-simbricks run -q -d "$T/out6" -C "$T/run.conf" \
    --log nic.NICSim-30="$T/logs/elsewhere.log" "$E2E"
stdout_has "streams: 5 of 5 simulators"
expect_rc 2 "run: a missing symbol table" simspan-simbricks run -d "$T/out7" -s "$T/nope.syms" "$E2E"
stderr_has "nope.syms"
expect_rc 2 "run: a missing rules name" simspan-simbricks run -d "$T/out7" -r no-such-rules.csv "$E2E"
stderr_has "no-such-rules.csv: no such rules file (looked at"
expect_rc 2 "run: bad config" sh -c "printf 'colour blue\n' > '$T/bad.conf'; simspan-simbricks run -C '$T/bad.conf' '$E2E'"
stderr_has "bad.conf:1: unknown setting 'colour'"
expect_rc 2 "run: no operand" simspan-simbricks run

# evspan finds a rules file by name (the installed share dir, else the
# source tree it was built in); a name it cannot find names where it looked
(cd "$T/out" && evspan -t topology.csv -r linux-i40e.csv -o "$T/byname.sp") 2>"$T/.err" &&
    ok "evspan -r linux-i40e.csv by name" || { not_ok "evspan -r linux-i40e.csv by name"; sed 's/^/# /' "$T/.err"; }
expect_rc 1 "evspan -r: an unknown name" evspan -t "$T/out/topology.csv" -r nope.csv -o "$T/x.sp"
stderr_has "nope.csv: no such rules file (looked at"
done_testing
