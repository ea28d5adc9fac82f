# samples/dumbbell is what its README says: regenerating it with the
# documented command gives the same contents, and it is small.
. "$(dirname "$0")/../lib.sh"
S="$TOP/samples/dumbbell"

size=$(cat "$S"/* | wc -c)
[ "$size" -lt 2000000 ] && ok "sample is $size bytes (< 2 MB)" || not_ok "sample is $size bytes"
check "README gives the command" grep -q "simsynth -z --zstd-level 15 --seed 6 -n 100 --exec-rate 1 --sync-interval 2us" "$S/README.md"
# the command without compression (zstd output bytes depend on the zstd version)
expect_rc 0 "regenerate" simsynth --seed 6 -n 100 --exec-rate 1 --sync-interval 2us --bg-to-host 0.1 "$T/d"
for f in server0.gem5.log client0.gem5.log server0-nic.nicbm.log \
    client0-nic.nicbm.log net.ns3.log; do
	zstd -q -d -c "$S/$f.zst" >"$T/$f"
	check "same $f" cmp "$T/$f" "$T/d/$f"
done
zstd -q -d -c "$S/truth.csv.zst" >"$T/truth.csv"
check "same truth" cmp "$T/truth.csv" "$T/d/truth.csv"
for f in topology.csv vmlinux.syms i40e.syms rules.csv; do
	check "same $f" cmp "$S/$f" "$T/d/$f"
done
check "commands name the .zst logs" grep -q "^sim2ev -f ns3 -n net -o net.ev.zst net.ns3.log.zst$" "$S/commands.sh"
# numbers quoted in the README
eq "spans in the truth" "$(($(wc -l <"$T/truth.csv") - 1))" 7977
eq "ns-3 lines" "$(wc -l <"$T/net.ns3.log" | tr -d ' ')" 17508
check "README counts" grep -q "The truth, by kind: 1520 host.syscall, 902 host.mmio, 1275 host.dma," "$S/README.md"
done_testing
