#!/bin/sh
# evspan end to end over multi-simulator event streams with known true
# causality: every span's parent (and links) checked against a ground
# truth.  Until sim2ev is on main, the streams come from test helpers:
# txt2ev (hand-written scenarios) and mkdumbbell (the events sim2ev makes
# from scripts/gen-dumbbell.py's logs).
. "$(dirname "$0")/../lib.sh"
RULES="$TOP/rules/linux-i40e.csv"
CMP="$TOP/tests/helpers/truthcmp.py"

# --- two clients sending to one server at the same time, background ------
S="$DATA/evspan/twoclients"
mkdir "$T/tc"
cp "$S/topology.csv" "$T/tc/"
for f in "$S"/*.txt; do
	b=$(basename "$f" .txt)
	case $b in *-nic) k=nic ;; net) k=net ;; *) k=host ;; esac
	txt2ev -s "$b" -k $k -o "$T/tc/$b.ev" "$f"
done
# a hand-made one-CPU (Columbo) world with a hand-made truth: the rules
# without the kernel context classes (with them its server NIC's MSI-X
# after two packets would link the older one, SPEC §3b batching)
grep -v -e '^irq-entry' -e '^syscall-exit' "$RULES" > "$T/columbo.csv"
check "twoclients: evspan" evspan -t "$T/tc/topology.csv" -r "$T/columbo.csv" -o "$T/tc.sp"
spancat --csv "$T/tc.sp" > "$T/tc.csv"
check "twoclients: every span and parent as in the truth" python3 "$CMP" "$T/tc.csv" "$S/truth.csv"
stdout_has "43 truth spans, 43 output spans, 1 links, 0 extra, 0 mismatches"
# the comparison can fail: a wrong parent in the truth is caught
sed 's/^16,srv,host.syscall,5600000,,13,36$/16,srv,host.syscall,5600000,,36,13/' \
    "$S/truth.csv" > "$T/wrong.csv"
expect_rc 1 "twoclients: a wrong truth is caught" python3 "$CMP" "$T/tc.csv" "$T/wrong.csv"
stdout_has "truth 16"
spancat --tree --ps "$T/tc.sp" > "$T/tc.tree"
check "tree: the receiving syscall links to the second packet" grep -q -- "-> link rx: span 27 of trace" "$T/tc.tree"
check "tree: background trace" grep -q "uid=501 to-adapter BACKGROUND" "$T/tc.tree"

# --- one host, two NICs using the same DMA op at once ----------------------
S="$DATA/evspan/twonics"
mkdir "$T/2n"
cp "$S/topology.csv" "$T/2n/"
for f in "$S"/*.txt; do
	b=$(basename "$f" .txt)
	case $b in nic-*) k=nic ;; *) k=host ;; esac
	txt2ev -s "$b" -k $k -o "$T/2n/$b.ev" "$f"
done
check "twonics: evspan" evspan --stats -t "$T/2n/topology.csv" -r "$RULES" -o "$T/2n.sp"
stderr_has "0 duplicate ids"
spancat --csv "$T/2n.sp" > "$T/2n.csv"
check "twonics: every span and parent as in the truth" python3 "$CMP" "$T/2n.csv" "$S/truth.csv"
stdout_has "10 truth spans, 10 output spans, 0 links, 0 extra, 0 mismatches"
# each host DMA closed by the completion of its own adapter
eq "twonics: host.dma ts,comp,dur,flags" \
    "$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
	$2 == "host.dma" {print $1, $c["comp"], $c["dur"], $c["flags"]}' "$T/2n.csv")" \
    "2005000 system.pc.simbricks_0 4000 0
2006000 system.pc.simbricks_1 1000 0"

# --- the dumbbell: N requests, every span against the truth --------------
N=50
mkdumbbell -n $N "$T/db" >/dev/null
check "dumbbell: evspan" evspan -t "$T/db/topology.csv" -r "$RULES" --seed 1 -o "$T/db.sp"
spancat --csv "$T/db.sp" > "$T/db.csv"
python3 "$TOP/tests/helpers/dumbbell-truth.py" $N > "$T/db-truth.csv"
check "dumbbell: every span and parent as in the truth" python3 "$CMP" "$T/db.csv" "$T/db-truth.csv"
stdout_has "$((18 * N + 2)) truth spans, $((18 * N + 2)) output spans, 0 links, 0 extra, 0 mismatches"
# spans per kind, exactly (README: 18N + 2)
spancat -n "$T/db.sp" > "$T/db.count"
for kv in "net.device $((4 * N))" "nic.dma $((3 * N))" "host.dma $((3 * N))" \
    "host.syscall $((2 * N + 2))" "nic.tx $N" "nic.rx $N" "host.mmio $N" \
    "nic.mmio $N" "nic.msix $N" "host.msix $N" "spans $((18 * N + 2))" \
    "traces $((N + 2))" "orphans 0" "open 2" "links 0"; do
	set -- $kv
	eq "dumbbell: $1" "$(awk -v k="$1" '$2 == k {print $1}' "$T/db.count")" "$2"
done
# N traces of 18 spans rooted at client syscalls, two one-span traces
spancat --tree --ps "$T/db.sp" > "$T/db.tree"
eq "dumbbell: $N traces of 18 spans" "$(grep -c '^trace .*: 18 spans' "$T/db.tree")" "$N"
eq "dumbbell: 2 traces of 1 span" "$(grep -c '^trace .*: 1 span,' "$T/db.tree")" "2"
eq "dumbbell: 18-span traces start at a client syscall" \
    "$(grep -A1 '^trace .*: 18 spans' "$T/db.tree" | grep -c '^  host.syscall client ')" "$N"
# one request/response, span by span (kind, stream, start, parent nesting)
awk '/^trace/ {n++} n == 1' "$T/db.tree" > "$T/trace1"
check "dumbbell: the first trace, span by span" diff -u "$DATA/evspan/dumbbell-trace1.txt" "$T/trace1"

# --- rules change the spans, not the events read --------------------------
sed 's/^root,all-syscalls$/root,net-syscalls/' "$RULES" > "$T/net.csv"
check "root,net-syscalls" evspan --stats -t "$T/db/topology.csv" -r "$T/net.csv" -o "$T/net.sp"
stderr_has "left out (root rule)"
eq "net-syscalls: only the two open syscalls are left out" \
    "$(spancat -n "$T/net.sp" | awk '$2 == "host.syscall" {print $1}')" "$((2 * N))"
printf 'class,function\nsyscall-entry,entry_SYSCALL_64\nroot,net-syscalls\n' > "$T/net2.csv"
check "root,net-syscalls without rx functions" evspan -t "$T/db/topology.csv" -r "$T/net2.csv" -o "$T/net2.sp"
eq "net-syscalls: no receiving syscalls without rx rules" \
    "$(spancat -n "$T/net2.sp" | awk '$2 == "host.syscall" {print $1}')" "$N"

done_testing
