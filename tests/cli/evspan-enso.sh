#!/bin/sh
# simsynth --nic enso (synth/synenso.c: enso_bm behind Ensō's EnsoGen and
# echo on QEMU hosts, one net_switch, as SimBricks' enso_echo.py) through
# the real pipeline: sim2ev reads every event simsynth counted, and evspan
# (nicbm and QEMU streams, no Ensō-specific rule) scored against the
# truth: with -r every span is found with its SPEC §3 parent, no extra
# span.  The scenarios reach the paths enso_bm's source has: the reactive
# notification (a pipe head write while the pipe holds more data), data
# reads of 2 KiB, nicbm's DMA queue (64 executing), the echo of a batch.
# Then today's SimBricks: a symphony run with EnsoNicSim NICs, one command.
. "$(dirname "$0")/../lib.sh"
S="$TOP/tests/score-truth.sh"

needs simsynth sim2ev evspan spancat simspan-simbricks python3 sqlite3

# total line -> "missing extra wrong orphan"
total() { awk '$1 == "total" { print $4, $5, $8, $9 }' "$T/.out"; }

score() {	# score NAME SIMSYNTH-OPTIONS...
	name=$1; shift
	check "$name: simsynth" simsynth -v --nic enso --host qemu --net switch \
	    "$@" "$T/$name"
	cp "$T/.err" "$T/$name.stats"
	for f in "$T/$name"/*-nic.nicbm.log; do
		nc=$(basename "$f" .nicbm.log)
		check "$name: sim2ev $nc" sim2ev -f nicbm --stats -n "$nc" \
		    -o "$T/$nc.ev" "$f"
		eq "$name: $nc: events as simsynth counted" \
		    "$(sed -n 's/.* lines = \([0-9]*\) events.*/\1/p' "$T/.err")" \
		    "$(awk -v f="$nc.nicbm.log" '$1 == f { print $4 }' "$T/$name.stats")"
		eq "$name: $nc: silent" "$(grep -c 'sim2ev: warning' "$T/.err")" 0
	done
	check "$name: sim2ev and evspan" sh -c "cd '$T/$name' && sh commands.sh"
	check "$name: spancat" sh -c "spancat -c -H '$T/$name/spans.sp' > '$T/$name.csv'"
	set +e; sh "$S" -r -v "$T/$name/truth.csv" "$T/$name.csv" >"$T/.out" 2>"$T/.err"; set -e
	set -- $(total)
	eq "$name: no missing or extra span, wrong parent or orphan" "$*" "0 0 0 0"
	grep -E '^total' "$T/.out" | sed "s/^/# $name (rules): /"
	# against the real causes: the QEMU host's MMIO writes are roots by
	# the rules, their cause a notification it polled from memory
	set +e; sh "$S" "$T/$name/truth.csv" "$T/$name.csv" >"$T/.out" 2>&1; set -e
	grep -E '^total' "$T/.out" | sed "s/^/# $name (real causes): /"
	check "$name: every host.mmio orphan is a rule root" sh -c \
	    "awk '\$1 == \"host.mmio\" && \$9 != \$10 { exit 1 }' '$T/.out'"
}

score pair -H 2 -n 20
score busy -H 4 -c 3 -n 60 --enso-pkts 8 --bg-to-host 0.3 --seed 3
score queue -H 5 -c 4 -n 60 --enso-pkts 16 --interval 5us --seed 9
score big -H 3 -c 2 -n 30 --enso-pkts 32 --request-size 1000 --seed 5

L=$T/big/server0-nic.nicbm.log
check "big: data reads of nicbm's 2 KiB" grep -q 'issuing dma op 0x[0-9a-f]* addr 0x[0-9a-f]* len 2048 ' "$L"
check "queue: nicbm queues DMAs behind 64 executing" grep -q 'enqueuing dma op .* pending 64$' \
    "$T/queue/client0-nic.nicbm.log"
# the reactive notification: a pipe head write (BAR 2 offset 0x4) that
# finds more data in the pipe is followed at once by a notification write
check "pair: a reactive RX notification" sh -c "grep -v '^info: [0-9A-F][0-9A-F] ' \
    '$T/pair/server0-nic.nicbm.log' | grep -A1 'write(off=0x4,' | grep -q 'issuing dma op'"
check "pair: no MSI-X, no descriptor ring" sh -c \
    "! grep -q 'MSI' '$T/pair/server0-nic.nicbm.log'"
eq "pair: QEMU hosts only" "$(ls "$T/pair" | grep -c 'gem5')" 0

# enso_bm's DEBUG_DEV log (its stderr): alone, sim2ev makes its packets
# the NIC's events, and evspan its nic.rx and nic.tx spans, the nic.rx
# under the switch as in the truth
B=$T/busy
for nc in server0-nic client0-nic; do
	check "busy: sim2ev $nc.enso.log" sim2ev -f nicbm --stats -n "$nc" \
	    -o "$T/$nc.dev.ev" "$B/$nc.enso.log"
	eq "busy: $nc.enso.log: nic_rx as nicbm's eth rx" \
	    "$(awk '$2 == "nic_rx" { print $1 }' "$T/.err")" \
	    "$(grep -c ': nicbm: eth rx: ' "$B/$nc.nicbm.log")"
	eq "busy: $nc.enso.log: nic_tx as nicbm's eth tx" \
	    "$(awk '$2 == "nic_tx" { print $1 }' "$T/.err")" \
	    "$(grep -c ': nicbm: eth tx: ' "$B/$nc.nicbm.log")"
done
mkdir "$T/dev"
cp "$B"/*.qemu.log "$B"/*.log "$B/topology.csv" "$B/rules.csv" "$B/truth.csv" "$T/dev/"
for f in "$T/dev"/*-nic.enso.log; do mv "$f" "${f%.enso.log}.nicbm.log"; done
cp "$B/commands.sh" "$T/dev/"
check "busy, DEBUG_DEV only: sim2ev and evspan" sh -c "cd '$T/dev' && sh commands.sh"
spancat --csv -H "$T/dev/spans.sp" > "$T/dev.csv"
set +e; sh "$S" "$T/dev/truth.csv" "$T/dev.csv" >"$T/.out" 2>&1; set -e
eq "busy, DEBUG_DEV only: every nic.rx, under its switch port" \
    "$(awk '$1 == "nic.rx" { print ($2 == $3 && $2 == $7) }' "$T/.out")" 1
eq "busy, DEBUG_DEV only: every nic.tx" \
    "$(awk '$1 == "nic.tx" { print ($2 == $3 && $5 == 0) }' "$T/.out")" 1
eq "busy, DEBUG_DEV only: no nic.dma, no nic.mmio" \
    "$(awk '$1 == "nic.dma" || $1 == "nic.mmio" { n += $3 } END { print n + 0 }' "$T/.out")" 0

expect_rc 2 "enso needs QEMU hosts" simsynth --nic enso -H 2 "$T/x"
stderr_has "--nic enso: the model is SimBricks' enso_echo.py"
expect_rc 2 "enso: not the switch's capture" simsynth --nic enso --host qemu \
    --net switch-pcap -H 2 "$T/x"
stderr_has "its records carry no port"
expect_rc 2 "--enso-pkts 1..32" simsynth --nic enso --host qemu --net switch \
    --enso-pkts 33 "$T/x"

# --- today's SimBricks: EnsoNicSim NICs in a symphony run -----------------
# The qemu-i40e-switch fixture with its NICs made what symphony writes for
# enso_sim.EnsoNicSim (class, simb_enso_bm; the same NICSim command line),
# synchronized, simsynth's logs as the simulators' captured output.
F=$DATA/simbricks-symphony/qemu-i40e-switch
W=$T/sym
R=
while IFS= read -r p; do
	case $p in
	*/) mkdir -p "$W/$p" ;;
	*/out.json) mkdir -p "$W/${p%/*}"; cp "$F/out.json" "$W/$p"
		R=$W/${p%/output/out.json} ;;
	*) mkdir -p "$(dirname "$W/$p")"; : > "$W/$p" ;;
	esac
done < "$F/workdir-after-run.txt"
check "symphony: simsynth" simsynth --nic enso --host qemu --net switch -H 2 -n 30 \
    --seed 3 "$W/syn"
check "symphony: EnsoNicSim in out.json" python3 - "$R/output/out.json" "$W/syn" <<'EOF'
import json, re, sys
path, syn = sys.argv[1], sys.argv[2]
d = json.load(open(path))
run = lambda s: d[s]["output"][-1]
for k, v in d.items():
    if isinstance(v, dict) and "output" in v:
        c = run(k)["cmd"].replace(",sync=off", ",sync=on,pci-latency=500,sync-period=500")
        c = c.replace(":sync=false:", ":sync=true:")
        run(k)["cmd"] = re.sub(r" -u( |$)", r"\1", c)
for nic in ("nic.NICSim-26", "nic.NICSim-30"):
    d[nic]["class"] = "EnsoNicSim"
    run(nic)["cmd"] = run(nic)["cmd"].replace("simb_i40e_bm", "simb_enso_bm", 1)
for sim, f, out in (("host.QemuSim-24", "server0.qemu.log", "stderr"),
                    ("host.QemuSim-28", "client0.qemu.log", "stderr"),
                    ("nic.NICSim-26", "server0-nic.nicbm.log", "stdout"),
                    ("nic.NICSim-30", "client0-nic.nicbm.log", "stdout"),
                    ("net.SwitchNet-32", "switch.net_switch.log", "stderr")):
    run(sim)[out] = open(syn + "/" + f).read().splitlines()
json.dump(d, open(path, "w"), indent=2)
EOF
check "symphony: run" simspan-simbricks run -r "$W/syn/rules.csv" -d "$T/sym.out" "$R"
stdout_has "streams: 5 of 5 simulators"
stdout_has "  nic.NICSim-26            nicbm "
sed -e 's/"server0-nic"/"nic.NICSim-26"/; s/"client0-nic"/"nic.NICSim-30"/' \
    -e 's/"server0"/"host.QemuSim-24"/; s/"client0"/"host.QemuSim-28"/' \
    -e 's/"switch"/"net.SwitchNet-32"/' "$W/syn/truth.csv" > "$T/sym.truth"
spancat --csv "$T/sym.out/spans.sp" > "$T/sym.csv"
set +e; sh "$S" -r -t "$T/sym.out/topology.csv" "$T/sym.truth" "$T/sym.csv" >"$T/.out" 2>&1; set -e
set -- $(total)
eq "symphony: every span, its SPEC parent, nothing extra" "$*" "0 0 0 0"
grep -E '^total' "$T/.out" | sed "s/^/# symphony: /"

done_testing
