# simsynth's lines look like the real ones: per line kind, every shape
# simsynth writes (numbers, hex, addresses, names replaced by placeholders)
# is one the real samples in tests/data/samples show, where they have that
# kind (tests/helpers/lineshape.py says how lines are compared).  And every
# function the rules name shows up in the gem5 logs.
. "$(dirname "$0")/../lib.sh"

needs python3 sim2ev evcat
SHAPE="$TOP/tests/helpers/lineshape.py"
SAMPLES="$DATA/samples"

# the default dialects, and the 2022 nicbm the sigcomm22 samples come from
check "simsynth" simsynth -n 40 --exec-rate 2 --bg-to-host 0.3 "$T/a"
check "simsynth, nicbm of 2022" simsynth -n 40 --exec-rate 2 --bg-to-host 0.3 \
    --nicbm-dialect sigcomm22 "$T/b"
expect_rc 0 "every shape of a kind the samples have is in the samples" \
    python3 "$SHAPE" "$SAMPLES" "$T"/a/*.log "$T"/b/*.nicbm.log
cp "$T/.out" "$T/shapes.txt"
grep -v '^  no sample' "$T/shapes.txt" | sed 's/^/# /'
for k in "exec NOP" "exec micro-op" "exec macro-op header" "gem5 pci sending write addr" \
    "gem5 readConfig" "nicbm mac_addr=" "nicbm statistics" \
    "ns3 + CosimNetDevice/RxPacketFromAdapter"; do
	check "compared: $k" grep -q "^  same       $k" "$T/shapes.txt"
done

# the comparison has teeth: an adapter without bar/offs/posted is not what
# the (newer) samples show; Exec lines unpadded as the reconstructed NOP
# sample, or with an unknown op class, break gem5's format
check "simsynth, old adapter" simsynth -n 3 --exec-rate 1 --gem5-dialect nobar "$T/c"
expect_rc 1 "old adapter lines differ from the samples" \
    python3 "$SHAPE" "$SAMPLES" "$T/c/client0.gem5.log"
stdout_has "DIFFERENT  gem5 pci sending write addr"
printf '%s\n' \
    '1472990805875: system.switch_cpus: A0 T0 : 0xffffffff81107470    :   NOP : IntAlu :' \
    '1472990806000: system.switch_cpus: A0 T0 : 0xffffffff81107475. 0 :   POP_R : ld   rbx, SS:[rsp] : MemLoad :  D=0x1' \
    >"$T/bad.gem5.log"
expect_rc 1 "unpadded disassembly, unknown op class" python3 "$SHAPE" "$SAMPLES" "$T/bad.gem5.log"
stdout_has "disassembly not padded to 26 columns"
stdout_has "unknown op class"

# Every function of the rules in the gem5 logs as a function-entry event,
# labels objdump lists without a type (the inner label
# entry_SYSCALL_64_safe_stack) included: sim2ev reads untyped code symbols.
D="$T/a"
for h in server0 client0; do
	sim2ev -f gem5 -n $h -s "$D/vmlinux.syms" -s "$D/i40e.syms,i40e,0xffffffffa0000000" \
	    "$D/$h.gem5.log" | evcat
done | awk '$2 == "func" { sub(/^sym=/, "", $4); print $4 }' | sort -u >"$T/funcs"
missing=""
for f in $(grep -v '^#' "$D/rules.csv" | awk -F, 'NR > 1 && NF == 2 { print $2 }' | sort -u); do
	grep -qx -- "$f" "$T/funcs" || missing="$missing $f"
done
eq "every function of the rules appears in the logs" "$missing" ""
check "entry_SYSCALL_64_safe_stack is a label, not a function" \
    grep -q '^ffffffff81c00019 g       .entry.text	0000000000000000 entry_SYSCALL_64_safe_stack$' "$D/vmlinux.syms"
done_testing
