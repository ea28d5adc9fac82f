# simsynth's logs parse with the real parsers: sim2ev finds every event
# simsynth wrote and skips only the noise simsynth put there on purpose,
# for each reason exactly as many lines as simsynth counted.
. "$(dirname "$0")/../lib.sh"

needs sim2ev

# -z and a checkpoint offset: compressed input and absolute gem5 ticks
expect_rc 0 "simsynth" simsynth -v -z -H 3 -c 2 -n 12 --exec-rate 3 \
    --bg-to-host 0.5 --nonposted 0.3 --checkpoint-offset 1473ms "$T/s"
cp "$T/.err" "$T/syn.stats"
D="$T/s"

# simsynth's count of a reason (its names) for one log
want() {	# want LOGFILE NAME
	awk -v f="$1" -v k="$2" '$1 == f {
		n = 0
		for (i = 5; i <= NF; i++) if (index($i, k "=") == 1) n = substr($i, length(k) + 2)
		gsub(/[^0-9]/, "", n); print n + 0 }' "$T/syn.stats"
}
wantev() { awk -v f="$1" '$1 == f { print $4 }' "$T/syn.stats"; }
# sim2ev's count of a reason
got() {	# got STATSFILE REASON
	awk -v k="$2" '$2 == "skipped:" && $3 == k { print $1; f = 1 } END { if (!f) print 0 }' "$1"
}
# sim2ev's events but its user events, which simsynth does not count (its
# user pcs make them: a CPU's return to user mode), and the Exec lines
# that gave only a user event (they would be skipped as exec, micro-op or
# NOP otherwise); from the --stats lines "N lines = E events + S skipped"
# or "N lines = L with events (E events) + S skipped" (E - L lines gave
# two events: a user event and their own) and "  U user"
stat_user() {	# stat_user STATSFILE: "E U X"
	awk '/ lines = / { sub(/.* lines = /, ""); l = $1
		if ($2 == "with") { e = $4; sub(/^\(/, "", e) } else e = l }
	    NF == 2 && $2 == "user" { u = $1 }
	    END { print e + 0, u + 0, e - l }' "$1"
}

for h in server0 client0 client1; do
	f=$h.gem5.log.zst
	expect_rc 0 "sim2ev $f" sim2ev -f gem5 -n "$h" --stats --time-offset sync \
	    -s "$D/vmlinux.syms" -s "$D/i40e.syms,i40e,0xffffffffa0000000" \
	    -o "$T/$h.ev" "$D/$f"
	cp "$T/.err" "$T/$h.st"
	set -- $(stat_user "$T/$h.st")
	eq "$f: events (user events aside)" "$(($1 - $2))" "$(wantev "$f")"
	check "$f: user events" test "$2" -gt 0
	# every Exec line simsynth counted: skipped as sim2ev says, or a user
	# event alone
	eq "$f: exec + micro-ops + NOP/fence" \
	    "$(($(got "$T/$h.st" exec) + $(got "$T/$h.st" exec-microop) + \
	    $(got "$T/$h.st" exec-nop-fence) + $2 - $3))" \
	    "$(($(want "$f" exec) + $(want "$f" microop) + $(want "$f" nopfence)))"
	check "$f: exec" test "$(got "$T/$h.st" exec)" -le "$(want "$f" exec)"
	check "$f: micro-ops" test "$(got "$T/$h.st" exec-microop)" -le "$(want "$f" microop)"
	check "$f: NOP/fence" test "$(got "$T/$h.st" exec-nop-fence)" -le "$(want "$f" nopfence)"
	eq "$f: faults" "$(got "$T/$h.st" fault)" "$(want "$f" fault)"
	eq "$f: SimBricks other" "$(got "$T/$h.st" simbricks-other)" "$(want "$f" sbother)"
	eq "$f: nothing else skipped" "$(awk '$2 == "skipped:" && $3 !~ /^(exec|exec-microop|exec-nop-fence|fault|simbricks-other)$/' "$T/$h.st")" ""
	check "$f: offset taken from the sync lines" grep -q "time offset 1473000000000 ps" "$T/$h.st"
done
for n in server0-nic client0-nic client1-nic; do
	f=$n.nicbm.log.zst
	expect_rc 0 "sim2ev $f" sim2ev -f nicbm -n "$n" --stats -o "$T/$n.ev" "$D/$f"
	cp "$T/.err" "$T/$n.st"
	eq "$f: events" "$(sed -n 's/.* lines = \([0-9]*\) events.*/\1/p' "$T/$n.st")" "$(wantev "$f")"
	eq "$f: status lines" "$(got "$T/$n.st" nic-info)" "$(want "$f" nicinfo)"
	eq "$f: dma data" "$(got "$T/$n.st" dma-data)" "$(want "$f" dmadata)"
	eq "$f: glued messages recovered" "$(sed -n 's/^ *\([0-9]*\) events recovered.*/\1/p' "$T/$n.st")" \
	    "$(sed -n "s/^$f .*(glued=\([0-9]*\)).*/\1/p" "$T/syn.stats")"
	eq "$f: nothing else skipped" "$(awk '$2 == "skipped:" && $3 !~ /^(nic-info|dma-data)$/' "$T/$n.st")" ""
done
expect_rc 0 "sim2ev net.ns3.log.zst" sim2ev -f ns3 -n net --stats -o "$T/net.ev" "$D/net.ns3.log.zst"
eq "net: events" "$(sed -n 's/.* lines = \([0-9]*\) events.*/\1/p' "$T/.err")" "$(wantev net.ns3.log.zst)"
eq "net: nothing skipped" "$(awk '$2 == "skipped:"' "$T/.err")" ""

# The offset is subtracted: gem5 events on SimBricks time, like the truth.
zstd -q -d -c "$D/truth.csv.zst" 2>/dev/null >"$T/truth.csv" || cp "$D/truth.csv" "$T/truth.csv"
first=$(grep -m1 '"client0","host.syscall"' "$T/truth.csv" | cut -d, -f4)
check "first client0 syscall at its truth time" sh -c "evcat '$T/client0.ev' | grep -q '^ *$first func '"
done_testing
