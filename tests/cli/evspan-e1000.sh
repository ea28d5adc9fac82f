#!/bin/sh
# simsynth --nic e1000 (synth/syne1000.c) through the real pipeline:
# sim2ev -f e1000 reads every event simsynth counted, and evspan with
# rules/linux-e1000.csv (lib/span/spanb_e1000.c) scored against the
# truth: with -r every truth span is found with its SPEC §3 parent and
# links, and no extra span: the builder keeps an open interrupt per
# interface, so a disk interrupt (00:04.0) between the NIC's (00:00.0)
# postInt and clearInt, which every scenario here has, splits nothing.
. "$(dirname "$0")/../lib.sh"
S="$TOP/tests/score-truth.sh"

needs simsynth sim2ev evspan spancat

# total line -> "missing extra wrong orphan heur lmiss lextra"
total() { awk '$1 == "total" { print $4, $5, $8, $9, $10, $13, $14 }' "$T/.out"; }

score() {	# score NAME SIMSYNTH-OPTIONS...
	name=$1; shift
	check "$name: simsynth" simsynth -v --nic e1000 "$@" "$T/$name"
	cp "$T/.err" "$T/$name.stats"
	for nc in server0-nic client0-nic; do
		f=$nc.e1000.log
		check "$name: sim2ev $f" sim2ev -f e1000 --stats -n "$nc" \
		    -o "$T/$nc.ev" "$T/$name/$f"
		eq "$name: $f: events as simsynth counted" \
		    "$(sed -n 's/.* lines = \([0-9]*\) events.*/\1/p' "$T/.err")" \
		    "$(awk -v f="$f" '$1 == f { print $4 }' "$T/$name.stats")"
		eq "$name: $f: silent" "$(grep -c 'sim2ev: warning' "$T/.err")" 0
	done
	check "$name: sim2ev and evspan" sh -c "cd '$T/$name' && sh commands.sh"
	check "$name: spancat" sh -c "spancat -c -H '$T/$name/spans.sp' > '$T/$name.csv'"
	set +e; sh "$S" -r -v "$T/$name/truth.csv" "$T/$name.csv" >"$T/.out" 2>"$T/.err"; set -e
	set -- $(total)
	eq "$name: no missing or extra span, wrong parent, orphan or link" \
	    "$1 $2 $3 $4 $6 $7" "0 0 0 0 0 0"
	# the case the per-interface interrupts are for: a disk's postInt
	# while the NIC's INTx is raised
	check "$name: the disk interrupts inside the NIC's" sh -c "awk '
		FNR == 1 { up = 0 }
		/interface\\[00:00.0\\]: postInt/ { up = 1 }
		/interface\\[00:00.0\\]: clearInt/ { up = 0 }
		up && /interface\\[00:04.0\\]: postInt/ { n++ }
		END { exit n == 0 }' '$T/$name'/*.gem5.log"
	grep -E '^total' "$T/.out" | sed "s/^/# $name: /"
}

score small -H 3 -c 2 -n 20
score busy -H 4 --servers 2 -c 2 -n 40 --bg-to-host 0.3
score itr -H 4 -c 3 -n 30 --itr 20us --nonposted 0.2 --seed 7
check "itr: throttled interrupts wait for the ITR timer" \
    grep -q 'EINT: Scheduling timer interrupt for tick' "$T/itr/server0-nic.e1000.log"
check "the NIC's INTx reaches gem5 as postInt" \
    grep -q 'system.pc.pci_host.interface\[00:00.0\]: postInt' "$T/small/client0.gem5.log"
expect_rc 2 "no --kernel linux" simsynth --nic e1000 --kernel linux "$T/x"
stderr_has "not --nic corundum or e1000"

done_testing
