#!/bin/sh
# simspan-simbricks: topologies derived from real SimBricks run JSON equal
# the ones written by hand from their command lines; bad input exits 2
# naming the simulator; sim2ev --simbricks-json reads a simulator's
# captured output like the same text in a file.
. "$(dirname "$0")/../lib.sh"
needs simspan-simbricks sim2ev evcat

D=$DATA/simbricks
for p in gt-ns3-ib:sigcomm22-netperf_paper_nf-gt-ns3-ib-1 \
    gt-ns3-cb:sigcomm22-netperf_paper_nf-gt-ns3-cb-1 \
    qemu-sw-ib:sigcomm22-netperf_paper_nf-qemu-sw-ib-1 \
    pci-gt-ib-sw:sigcomm22-pci-latency_updated_pci-gt-ib-sw-10-1 \
    debug-run:debug-run; do
	want=${p%%:*}; json=${p#*:}
	check "$want: topology" simspan-simbricks -q -o "$T/$want.csv" "$D/$json.json"
	if cmp -s "$T/$want.csv" "$D/$want.topology.csv"; then ok "$want: equals the hand-written topology"
	else not_ok "$want: equals the hand-written topology"; diff "$T/$want.csv" "$D/$want.topology.csv" | sed 's/^/# /'; fi
done

# warnings name the simulator and what its log lacks; -q silences them
check "warnings" simspan-simbricks "$D/sigcomm22-netperf_paper_nf-gt-ns3-ib-1.json"
stderr_has "host.client.0 (Gem5Host): gem5 ran without --debug-flags"
stderr_has "nic.server.0. (I40eNIC): no nicbm debug lines"
stderr_has "net. (NS3BridgeNet): its command line names no trace file"
check "-q" simspan-simbricks -q "$D/sigcomm22-netperf_paper_nf-gt-ns3-ib-1.json"
eq "-q: no warnings" "$(cat "$T/.err")" ""
# QEMU hosts: a stream of their captured stderr, which (built without
# DEBUG_PRINTS) has no simbricks-pci line: said, with what to rebuild
check "QEMU hosts" simspan-simbricks "$D/sigcomm22-netperf_paper_nf-qemu-sw-ib-1.json"
stderr_has "host.server.0 (QemuHost): no debug lines in its captured stderr (none has '_mmio_rw: '); build QEMU with DEBUG_PRINTS"
check "QEMU hosts: commands" simspan-simbricks -q -c "$D/sigcomm22-netperf_paper_nf-qemu-sw-ib-1.json"
stdout_has 'sim2ev -f qemu -n host.server.0 -o host.server.0.ev.zst --simbricks-json "$RUN" --sim host.server.0 --sim-stderr'
if grep -q 'VMLINUX_SYMS\|I40E_SYMS' "$T/.out"; then not_ok "QEMU hosts: no symbol tables asked for"
else ok "QEMU hosts: no symbol tables asked for"; fi
check "interrupted run" simspan-simbricks "$D/debug-run.json"
stderr_has "the run was interrupted"

# the commands: sh syntax, the JSON's facts, placeholders for the rest
check "-c" simspan-simbricks -q -c --json-name run.json "$D/debug-run.json"
cp "$T/.out" "$T/cmds.sh"
check "commands are sh" sh -n "$T/cmds.sh"
grep '^sim2ev' "$T/cmds.sh" >"$T/sim2ev.txt"
cat >"$T/want.txt" <<'W'
sim2ev -f gem5 -n host.server.0 -s "$VMLINUX_SYMS",vmlinux -s "$I40E_SYMS",i40e,"$I40E_TEXT" --time-offset sync -o host.server.0.ev.zst /tmp/run/1/gem5-out.server.0/debug.log
sim2ev -f gem5 -n host.client.0 -s "$VMLINUX_SYMS",vmlinux -s "$I40E_SYMS",i40e,"$I40E_TEXT" -o host.client.0.ev.zst --simbricks-json "$RUN" --sim host.client.0
sim2ev -f nicbm -n nic.server.0 -o nic.server.0.ev.zst --simbricks-json "$RUN" --sim nic.server.0.
sim2ev -f nicbm -n nic.client.0 -o nic.client.0.ev.zst --simbricks-json "$RUN" --sim nic.client.0. --sim-stderr
sim2ev -f ns3 -n net -o net.ev.zst /tmp/run/1/ns3-trace.log
W
eq "sim2ev lines" "$(cat "$T/sim2ev.txt")" "$(cat "$T/want.txt")"
grep -q '^RUN=${RUN:-run.json}$' "$T/cmds.sh" && ok "RUN names the JSON" || not_ok "RUN names the JSON"
grep -q 'objdump --syms /simbricks/images/vmlinux > vmlinux.syms' "$T/cmds.sh" &&
    ok "kernel from --kernel" || not_ok "kernel from --kernel"
grep -q '^evspan -t topology.csv -r "$RULES" -o spans.sp$' "$T/cmds.sh" &&
    ok "evspan line, without --force" || not_ok "evspan line, without --force"
# names a shell would read as code (issue 26): every variable name valid,
# every word quoted; a name starting with a digit gave "0NET_TRACE=" once
sed -e 's/"net\."/"0net $(touch pwned);"/' -e 's/"nic\.server\.0\."/"9nic`id`."/' \
    "$D/sigcomm22-netperf_paper_nf-gt-ns3-ib-1.json" > "$T/hostile.json"
check "hostile names: commands" simspan-simbricks -q -c -o "$T/hostile.sh" "$T/hostile.json"
check "hostile names: sh -n" sh -n "$T/hostile.sh"
grep -q '^_0NET--TOUCH-PWNED--_TRACE=\|^_0NET_' "$T/hostile.sh" &&
    ok "hostile names: the trace variable starts with _" || {
    not_ok "hostile names: the trace variable starts with _"; grep TRACE "$T/hostile.sh" | sed 's/^/# /'; }
(cd "$T" && grep -E '^[A-Za-z_][A-Za-z0-9_]*=' hostile.sh > hvars.sh && sh -eu hvars.sh) &&
    [ ! -e "$T/pwned" ] && ok "hostile names: the variables run nothing" ||
    not_ok "hostile names: the variables run nothing"
check "-d" simspan-simbricks -q -d "$T/out" "$D/sigcomm22-netperf_paper_nf-gt-ns3-cb-1.json"
cmp -s "$T/out/topology.csv" "$D/gt-ns3-cb.topology.csv" && ok "-d: topology.csv" || not_ok "-d: topology.csv"
grep -q 'MQNIC_TEXT' "$T/out/commands.sh" && ok "-d: commands.sh, Corundum's mqnic" || not_ok "-d: commands.sh, Corundum's mqnic"
grep -q '^RULES=${RULES:-linux-corundum.csv}$' "$T/out/commands.sh" &&
    ok "-d: Corundum's rules" || not_ok "-d: Corundum's rules"
[ -r "$TOP/rules/linux-corundum.csv" ] && ok "rules/linux-corundum.csv is shipped" ||
    not_ok "rules/linux-corundum.csv is shipped"
if have zstd; then
	zstd -q -c "$D/debug-run.json" >"$T/run.json.zst"
	check "zstd JSON" simspan-simbricks -q -o "$T/z.csv" "$T/run.json.zst"
	cmp -s "$T/z.csv" "$D/debug-run.topology.csv" && ok "zstd JSON: same topology" || not_ok "zstd JSON: same topology"
fi
check "stdin" sh -c "simspan-simbricks -q < '$D/debug-run.json' > '$T/s.csv'"
cmp -s "$T/s.csv" "$D/debug-run.topology.csv" && ok "stdin: same topology" || not_ok "stdin: same topology"

# bad input: exit 2, a message naming the simulator, no file left
bad() {	# bad DESCRIPTION FILE TEXT
	rm -f "$T/bad.csv"
	expect_rc 2 "$1" simspan-simbricks -o "$T/bad.csv" "$2"
	stderr_has "$3"
	[ ! -e "$T/bad.csv" ] && ok "$1: no topology written" || not_ok "$1: no topology written"
}
IB=$D/sigcomm22-netperf_paper_nf-gt-ns3-ib-1.json
SW=$D/sigcomm22-pci-latency_updated_pci-gt-ib-sw-10-1.json
printf '{"a": 1}\n' >"$T/notsb.json"
bad "not SimBricks output" "$T/notsb.json" "not SimBricks experiment output (2022 out/<exp>-<run>.json or symphony output/out.json): no \"exp_name\" (2022) or \"_sim_name\" (symphony) string"
printf '[1, 2]\n' >"$T/array.json"
bad "a JSON array" "$T/array.json" "the top level is not a JSON object"
head -c 3000 "$IB" >"$T/trunc.json"
bad "truncated JSON" "$T/trunc.json" "trunc.json:"
printf 'not json at all\n' >"$T/text.json"
bad "not JSON" "$T/text.json" "not JSON"
sed 's/"SwitchNet"/"FooNet"/' "$SW" >"$T/unknown.json"
bad "unknown class" "$T/unknown.json" "simulator 'net.' (FooNet): simspan cannot trace this class yet"
sed 's/"I40eNIC"/"I40eMultiNIC"/' "$SW" >"$T/multi.json"
bad "multi-NIC process" "$T/multi.json" "(I40eMultiNIC): cannot be traced yet: one process simulates several NICs"
# the 2022 Verilator model prints lines of its own: no stream, said
sed 's/"CorundumBMNIC"/"CorundumVerilatorNIC"/' "$D/sigcomm22-netperf_paper_nf-gt-ns3-cb-1.json" >"$T/verilator.json"
check "Corundum Verilator (2022)" simspan-simbricks -o "$T/verilator.csv" "$T/verilator.json"
stderr_has "(CorundumVerilatorNIC): the 2022 Corundum Verilator model (sims/nic/corundum) prints its own MMIO_DEBUG and DMA_DEBUG lines"
grep -q '"stream","nic.client.0",' "$T/verilator.csv" && ! grep -q '"stream","nic.server.0",' "$T/verilator.csv" &&
    ok "Corundum Verilator (2022): no stream of its own" || not_ok "Corundum Verilator (2022): no stream of its own"
# two switches on one n2n socket (-h on one, -s on the other): an n2n row,
# the listening end first, each end the socket's port on its switch
python3 - "$SW" "$T/n2n.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
sw = d["sims"].pop("net.")
a, b = json.loads(json.dumps(sw)), json.loads(json.dumps(sw))
a["cmd"] = sw["cmd"][:7] + ["-h", "/tmp/n2n.0"]	# -s server, -h n2n
b["cmd"] = sw["cmd"][:5] + ["-s", "/tmp/n2n.0"] + sw["cmd"][7:]	# -s n2n, -s client
d["sims"]["net.b."] = b
d["sims"]["net.a."] = a
json.dump(d, open(sys.argv[2], "w"))
EOF
check "switch-to-switch link" simspan-simbricks -q -o "$T/n2n.csv" "$T/n2n.json"
eq "n2n: the rows" "$(grep '^"eth"\|^"n2n"' "$T/n2n.csv")" \
    "$(printf '%s\n' '"eth","nic.client.0","net.b","0","1"' '"eth","nic.server.0","net.a","0","0"' \
    '"n2n","net.a","0","1","net.b","0","0"')"
sed 's|"-h", "/tmp/n2n.0"|"-h", "/tmp/n2n.1"|' "$T/n2n.json" > "$T/n2n-bad.json"
bad "a switch socket nothing serves" "$T/n2n-bad.json" "simulator 'net.b.' (SwitchNet): no NIC serves its port socket /tmp/n2n.0"
sed 's/--simbricks-pci=\([^"]*\)nic.pci.server.0./--simbricks-pci=\1nic.pci.server.9./' "$IB" >"$T/unpaired.json"
bad "unpaired PCI socket" "$T/unpaired.json" "simulator 'nic.server.0.' (I40eNIC): no host uses its PCI socket"
sed 's/--CosimPort=\([^"]*\)nic.eth.client.0./--CosimPort=\1nic.eth.other./' "$IB" >"$T/unpaired-eth.json"
bad "unpaired Ethernet socket" "$T/unpaired-eth.json" "simulator 'nic.client.0.' (I40eNIC): no network uses its Ethernet socket"
sed 's/cosim-bridge-example/cosim-star-example/' "$IB" >"$T/example.json"
bad "unknown ns-3 example" "$T/example.json" "simulator 'net.' (NS3BridgeNet): no ns-3 example of known node/device layout"
expect_rc 1 "missing file" simspan-simbricks "$T/nope.json"
expect_rc 2 "-d with -c" simspan-simbricks -d "$T/x" -c "$IB"

# sim2ev --simbricks-json: the same events as the text in a file
J=$D/debug-run.json
check "sim2ev --simbricks-json" sim2ev -f nicbm --simbricks-json "$J" --sim nic.server.0. -o "$T/a.ev"
zstdcat "$TOP/samples/dumbbell/server0-nic.nicbm.log.zst" 2>/dev/null | head -120 >"$T/n.log" || :
check "sim2ev on the text" sim2ev -f nicbm -n nic.server.0 -o "$T/b.ev" "$T/n.log"
eq "same events" "$(evcat "$T/a.ev" | cksum)" "$(evcat "$T/b.ev" | cksum)"
check "--sim-stderr" sim2ev -f nicbm --simbricks-json "$J" --sim nic.client.0. --sim-stderr -o "$T/c.ev"
eq "stderr lines: 3 tx events" "$(evcat "$T/c.ev" | grep -c nic_tx)" 3
check "default stream name" sh -c "evcat --header '$T/c.ev' 2>&1 || evcat '$T/c.ev'"
expect_rc 2 "no such simulator" sim2ev -f nicbm --simbricks-json "$J" --sim nope -o "$T/d.ev"
stderr_has "no simulator named 'nope'"
expect_rc 2 "--sim without --simbricks-json" sim2ev -f nicbm --sim x
expect_rc 2 "--simbricks-json with a log operand" sim2ev -f nicbm --simbricks-json "$J" --sim nic.server.0. x.log
expect_rc 2 "--simbricks-json: not SimBricks" sim2ev -f nicbm --simbricks-json "$T/notsb.json" --sim x

# SwitchNet: the command reads its stderr with sim2ev -f switch; on the
# real run (built without NETSWITCH_DEBUG) every line is the switch's own
check "SwitchNet commands" simspan-simbricks -q -c "$SW"
stdout_has 'sim2ev -f switch -n net -o net.ev.zst --simbricks-json "$RUN" --sim net. --sim-stderr'
if grep -q 'needs a sim2ev\|no -f switch' "$T/.out" "$T/.err"; then
	not_ok "SwitchNet: no placeholder for the switch command"
else
	ok "SwitchNet: no placeholder for the switch command"
fi
# (without NETSWITCH_DEBUG: no packet, which sim2ev says; --strict fails)
check "sim2ev -f switch on the real SwitchNet stderr" sim2ev -f switch --stats \
    --simbricks-json "$SW" --sim net. --sim-stderr -o "$T/sw.ev"
stderr_has "6 lines = 0 events + 6 skipped"
stderr_has "6 skipped: unknown-message"
stderr_has "net.:stderr: a net_switch log without NETSWITCH_DEBUG lines (6 status lines, no packet)"
expect_rc 1 "sim2ev -f switch --strict on its stdout" sim2ev -f switch --strict --stats \
    --simbricks-json "$SW" --sim net. -o "$T/sw2.ev"
stderr_has "3 skipped: unknown-message"
stderr_has "a net_switch log without NETSWITCH_DEBUG lines (3 status lines, no packet)"
# a NIC built without DEBUG_NICBM: its status lines, no event, one warning
check "sim2ev on a nicbm log without DEBUG_NICBM" sim2ev -f nicbm \
    --simbricks-json "$IB" --sim nic.server.0. -o "$T/nd.ev"
stderr_has "nic.server.0.:stdout: a nicbm log without debug output"
stderr_has "DEBUG_NICBM"
# nicbm lines in the other stream: the hint names the option
check "nicbm lines in stderr" sim2ev -f nicbm --simbricks-json "$J" --sim nic.client.0. -o "$T/ne.ev"
stderr_has "no nicbm event lines, but its stderr has 3: add --sim-stderr"
# the name without the 2022 trailing dot
expect_rc 2 "--sim without the trailing dot" sim2ev -f nicbm --simbricks-json "$J" --sim nic.server.0 -o "$T/d.ev"
stderr_has "no simulator named 'nic.server.0'; it is 'nic.server.0.' (2022 runs end the names of NICs and networks with a dot)"

check "--help" simspan-simbricks --help
stdout_has "usage: simspan-simbricks"
check "--version" simspan-simbricks --version
stdout_has "jansson"
done_testing
