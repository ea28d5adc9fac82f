#!/bin/sh
# The real pipeline on the dumbbell: scripts/gen-dumbbell.py writes the five
# simulator logs, sim2ev turns each into an event stream, evspan builds the
# spans, spancat prints them, and every span is checked against the ground
# truth (tests/helpers/dumbbell-truth.py).  Also checks that mkdumbbell
# writes exactly the events sim2ev makes from those logs.
. "$(dirname "$0")/../lib.sh"

needs sim2ev python3
N=30
L="$T/logs"
check "gen-dumbbell.py" python3 "$TOP/scripts/gen-dumbbell.py" "$L" $N 20
cd "$L"
check "sim2ev client" sim2ev -f gem5 -s vmlinux.syms,vmlinux -n client -o client.ev.zst client.gem5.log
check "sim2ev server" sim2ev -f gem5 -s vmlinux.syms,vmlinux -n server -o server.ev.zst server.gem5.log
check "sim2ev client-nic" sim2ev -f nicbm -n client-nic -o client-nic.ev.zst client-nic.nicbm.log
check "sim2ev server-nic" sim2ev -f nicbm -n server-nic -o server-nic.ev.zst server-nic.nicbm.log
check "sim2ev net" sim2ev -f ns3 -n net -o net.ev.zst net.ns3.log
mkdumbbell -n $N "$T/mk" >/dev/null
sed 's/\.ev$/.ev.zst/' "$T/mk/topology.csv" > topology.csv
for s in client server client-nic server-nic net; do
	evcat "$s.ev.zst" > "$T/a.txt"
	evcat "$T/mk/$s.ev" > "$T/b.txt"
	check "mkdumbbell writes the events sim2ev makes: $s" cmp "$T/a.txt" "$T/b.txt"
done
check "evspan" evspan --stats -t topology.csv -r "$TOP/rules/linux-i40e.csv" -o "$T/spans.sp"
stderr_has "orphans by missing context: 0"
spancat --csv "$T/spans.sp" > "$T/spans.csv"
python3 "$TOP/tests/helpers/dumbbell-truth.py" $N > "$T/truth.csv"
check "every span and parent as in the truth" python3 "$TOP/tests/helpers/truthcmp.py" "$T/spans.csv" "$T/truth.csv"
stdout_has "$((18 * N + 2)) truth spans, $((18 * N + 2)) output spans, 0 links, 0 extra, 0 mismatches"

done_testing
