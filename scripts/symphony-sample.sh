#!/bin/sh
# symphony-sample.sh DIR: a run of today's SimBricks (symphony) to try
# "simspan-simbricks run" on, without SimBricks.
#
# The run is tests/data/simbricks-symphony/gem5-i40e-switch-debug: what
# SimBricks v0.5.2's own code wrote for two gem5 hosts with i40e NICs on a
# net_switch, synchronized, with debug output on (its simulators were
# stand-ins that printed nearly nothing).  It is laid out under DIR as
# simbricks-run left it (workdir-after-run.txt), and simsynth's logs of the
# same system (2 hosts on one net_switch, 30 request/response pairs, seed
# 3) go where that run's commands put them: each gem5 host's --debug-file
# under its --outdir, each NIC's log_file in the directory simbricks-run
# ran in (DIR), the switch's capture in its -p file (output/switch0.pcap);
# and the gem5 command lines get the ExecEnable and PciHost flags whose
# lines simsynth writes (the recorded run had SimBricksAll,PciDevice).
# simsynth's server0 is host.Gem5Sim-24 (its NIC nic.NICSim-26 on switch
# port 0, as the run's sockets say), client0 host.Gem5Sim-28.  DIR/trace.conf
# names simsynth's symbol tables and rules, DIR/syn/truth.csv the spans the
# logs hold (stream names as simsynth writes them).
#
# Prints the run directory.  Needs simsynth (on PATH) and python3.
set -eu
[ $# -eq 1 ] || { echo "usage: symphony-sample.sh DIR" >&2; exit 2; }
TOP=$(cd "$(dirname "$0")/.." && pwd)
F=$TOP/tests/data/simbricks-symphony/gem5-i40e-switch-debug
D=$1
mkdir -p "$D"
run=
while IFS= read -r p; do
	case $p in
	*/) mkdir -p "$D/$p" ;;
	*/output/out.json) mkdir -p "$D/${p%/*}"; cp "$F/out.json" "$D/$p"
		run=$D/${p%/output/out.json} ;;
	*) mkdir -p "$(dirname "$D/$p")"; : > "$D/$p" ;;
	esac
done < "$F/workdir-after-run.txt"
simsynth --net switch-pcap -H 2 -n 30 --exec-rate 1 --seed 3 "$D/syn" >/dev/null
cp "$D/syn/server0.gem5.log" "$run/output/output.host.Gem5Sim-24-24/gem5-debug.log"
cp "$D/syn/client0.gem5.log" "$run/output/output.host.Gem5Sim-28-28/gem5-debug.log"
cp "$D/syn/server0-nic.nicbm.log" "$D/i40e-NICSim-26.log"
cp "$D/syn/client0-nic.nicbm.log" "$D/i40e-NICSim-30.log"
cp "$D/syn/switch.pcap" "$run/output/switch0.pcap"
python3 - "$run/output/out.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for h in ("host.Gem5Sim-24", "host.Gem5Sim-28"):
    o = d[h]["output"][-1]
    o["cmd"] = o["cmd"].replace("--debug-flags=SimBricksAll,PciDevice",
                                "--debug-flags=ExecEnable,SimBricksAll,PciDevice,PciHost")
json.dump(d, open(sys.argv[1], "w"), indent=2)
EOF
cat > "$D/trace.conf" <<EOF
# simspan-simbricks run -C: simsynth's symbol tables and rules
symtab syn/vmlinux.syms
symtab syn/i40e.syms,i40e,0xffffffffa0000000
rules  syn/rules.csv
EOF
echo "$run"
