# simsynth --print real (SPEC §3c): what gem5's TimingSimpleCPU and
# i40e_bm print, checked in the logs themselves (formats/events.md §5,
# synth/README.md), the truth's IPI parents, --print real being the default
# with --kernel linux, and sim2ev giving each adapter access the CPU whose
# store it is.
. "$(dirname "$0")/../lib.sh"

needs simsynth sim2ev evcat evspan spancat sqlite3

expect_rc 2 "--print real needs --kernel linux" simsynth --print real "$T/x"
stderr_has "needs --kernel linux"
expect_rc 2 "unknown --print" simsynth --kernel linux --print fancy "$T/x"
stderr_has "want ideal or real"

# --print real is the default with --kernel linux: the same files but the
# command line noted; --print ideal prints otherwise
A="--kernel linux --cpus 2 --flow tcp-rr -H 2 -n 6 --exec-rate 1"
check "default" simsynth $A "$T/d"
check "--print real" simsynth $A --print real "$T/i"
check "--print ideal" simsynth $A --print ideal "$T/id"
check "--print ideal differs" sh -c "! cmp -s '$T/d/server0.gem5.log' '$T/id/server0.gem5.log'"
check "--print real is the default, byte for byte" sh -c "
    for f in '$T'/d/*; do
	b=\$(basename \"\$f\")
	[ \"\$b\" = commands.sh ] && continue
	cmp \"\$f\" '$T/i/'\"\$b\" || exit 1
    done"

# a TCP request/response with TSO responses on 2 CPUs, two clients
D="$T/r"
check "--print real" simsynth --kernel linux --print real --cpus 2 --flow tcp-rr \
    -H 3 -n 20 --response-size 28960 --exec-rate 1 --bg-to-host 0.1 "$D"
G="$D/server0.gem5.log"
# every adapter write: a store of a switch CPU after it, dated at least
# 60 ns before it, at the page offset of the address; no line of that
# CPU in between
check "each access's Exec line comes after its adapter line" awk '
    function hex(s,   i, c, v) { v = 0; s = tolower(s)
	for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
	return v }
    /simbricks-pci: sending write addr/ {
	for (i = 1; i <= NF; i++) if ($i == "addr") a = $(i + 1)
	want[++n] = $1 + 0; off[n] = substr(a, length(a) - 2); done[n] = 0; next
    }
    / MemWrite : .* A=0x/ && / st  / {
	t = $1 + 0; match($0, / A=0x[0-9a-f]*/); ea = substr($0, RSTART + 4, RLENGTH - 4)
	for (k = 1; k <= n; k++)
	    if (!done[k] && t <= want[k] - 60000 && substr(ea, length(ea) - 2) == off[k]) {
		done[k] = 1; hit++; break }
    }
    END { exit n > 0 && hit == n ? 0 : 1 }' "$G"
check "the log goes back in time only at those lines" awk '
    { t = $1 + 0 }
    t < last && !/DS:\[rbx \+ 0x10\]/ { bad++ }
    t >= last { last = t }
    END { exit bad > 0 }' "$G"
N="$D/server0-nic.nicbm.log"
check "TSO: every segment of a send at one time" awk '
    /eth tx: len/ { n[$4]++ } END { for (t in n) if (n[t] >= 20) m++; exit m > 0 ? 0 : 1 }' "$N"
check "TX head write-back: 4 bytes" grep -q 'issuing dma op 0x[0-9a-f]* addr 0x[0-9a-f]*2000 len 4 ' "$N"
check "payload reads in 9024-byte parts" grep -q 'issuing dma op 0x[0-9a-f]* addr 0x[0-9a-f]* len 9024 ' "$N"
check "op pointers come back (glibc)" sh -c "grep -o 'issuing dma op 0x[0-9a-f]*' '$N' | sort | uniq -d | grep -q ."
check "RX descriptor refetch after a write-back" awk '
    /completed dma write op .* len 32$/ { t = $4; next }
    /issuing dma op .* len 32 / && $4 == t { hit++ }
    END { exit hit > 0 ? 0 : 1 }' "$N"
check "IPIs are children of their sender in the truth" awk -F, '
    $3 == "\"host.irq\"" && $6 != "" { irq[$1] = $6 }
    END { exit length(irq) > 0 ? 0 : 1 }' "$D/truth.csv"

# sim2ev gives each adapter access its store's CPU, held no longer than
# needed; evspan then parents every host.mmio right
check "sim2ev" sh -c "cd '$D' && grep '^sim2ev ' commands.sh | sed 's/^sim2ev /sim2ev --stats /' | sh"
stderr_has "adapter accesses held for their CPU's Exec line"
stderr_has "its address (A=)"
check "evspan" sh -c "cd '$D' && evspan -t topology.csv -r rules.csv -o s.sp && spancat -c -H s.sp >s.csv"
rc=0
sh "$TOP/tests/score-truth.sh" "$D/truth.csv" "$D/s.csv" >"$T/score" 2>&1 || rc=$?
check "score-truth.sh runs" test "$rc" -le 1
check "every host.mmio has its true parent" awk '
    $1 == "host.mmio" { exit $2 > 0 && $7 == $2 ? 0 : 1 }' "$T/score"

done_testing
