# make demo's script: runs on the committed sample, scores it all correct,
# and prints the same summary (trace ids included) whatever directory the
# checkout is in: stream headers record paths, and trace ids hash them.
. "$(dirname "$0")/../lib.sh"

needs sqlite3 zstd

# a second checkout at another depth: the scripts, the sample, the scorer
mkdir -p "$T/x/y/checkout/tests"
cp -r "$TOP/scripts" "$TOP/samples" "$T/x/y/checkout/"
cp "$TOP/tests/score-truth.sh" "$T/x/y/checkout/tests/"
# timings vary; everything else must not
notime() { sed -e 's/[0-9.]* s\b/T s/g' -e 's/[0-9.]* s,/T s,/g' "$1"; }
check "demo in the checkout" sh -c "cd '$T' && OUT=out1 sh '$TOP/scripts/demo.sh' >d1.txt"
check "demo in another checkout" sh -c "cd '$T' && OUT=out2 sh '$T/x/y/checkout/scripts/demo.sh' >d2.txt"
check "the truth score is all correct" grep -q '^truth .*: all correct' "$T/d1.txt"
check "a slowest trace is named" grep -q '^slowest trace: [0-9a-f]\{32\},' "$T/d1.txt"
eq "same slowest trace id" "$(grep '^slowest' "$T/d1.txt")" "$(grep '^slowest' "$T/d2.txt")"
eq "same summary but timings and the output directory" \
    "$(notime "$T/d1.txt" | sed 's/out1/OUT/g')" "$(notime "$T/d2.txt" | sed 's/out2/OUT/g')"
check "per simulator type breakdown" grep -q 'per simulator type' "$T/d1.txt"
# the Linux samples: the kernel-context rules find at least 99 % of the
# true parents, Columbo's model (the same rules without them) far fewer
for flow in tcp udp; do
	l=$(grep "^  $flow: kernel-context rules " "$T/d1.txt")
	ctx=$(echo "$l" | awk '{ print $4 }') col=$(echo "$l" | awk '{ print $10 }')
	check "$flow: contexts $ctx %, Columbo's model $col %" \
	    awk -v a="$ctx" -v b="$col" 'BEGIN { exit !(a >= 99 && b < a - 10) }'
done
check "the slowest TCP trace has hardirq and softirq time" \
    sh -c "sed -n '/^slowest TCP trace/,/^\$/p' '$T/d1.txt' | grep -q '^    host.softirq '"

# README's transcript: the demo's lines but timings, and the SQL outputs
for pat in '^phase 2  evspan: ' '^truth ' '^slowest trace: ' '^  host.syscall on client0 '; do
	l=$(grep "$pat" "$T/d1.txt" | sed -e 's/[0-9.]* s$/T s/' -e 's|out1/|demo-out/|')
	check "README shows: $l" sh -c "sed 's/[0-9.]* s\$/T s/' '$TOP/README.md' | grep -qxF -- '$l'"
done
awk '/^## SQL over spans/ { on = 1 } /^## Formats/ { on = 0 } on && /^\$ sqlite3 / { sub(/^\$ /, ""); print }' \
    "$TOP/README.md" >"$T/sql.txt"
eq "README has four SQL examples" "$(wc -l <"$T/sql.txt" | tr -d ' ')" 4
awk '/^## SQL over spans/ { on = 1 } /^## Formats/ { on = 0 } on' "$TOP/README.md" |
    sed -n '/^\$ sqlite3 /,/^```/p' | grep -v '^```' >"$T/sql.readme"
(cd "$T" && while IFS= read -r c; do
	echo "\$ $c"
	sh -c "$(echo "$c" | sed 's|demo-out/|out1/|g')"
	echo
done <"$T/sql.txt") | sed -e '$ { /^$/d; }' >"$T/sql.got"
check "README's SQL outputs are what the demo database gives" diff "$T/sql.readme" "$T/sql.got"
done_testing
