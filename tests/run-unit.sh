#!/bin/sh
# Run each cmocka unit test binary (TAP); one line per binary, then the
# summary line "N passed, N failed, N skipped" (binaries; a binary counts as
# skipped when every case it ran skipped).
pass=0 fail=0 skip=0
for t in "$@"; do
	name=$(basename "$t")
	if CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$t.log" 2>&1; then
		n=$(grep -c '^ok' "$t.log")
		ns=$(grep -c '^ok.*# SKIP' "$t.log")
		if [ "$n" -gt 0 ] && [ "$ns" -eq "$n" ]; then
			echo "skip unit $name (all $n cases skipped)"; skip=$((skip + 1))
		elif [ "$ns" -gt 0 ]; then
			echo "ok   unit $name ($n cases, $ns skipped)"; pass=$((pass + 1))
		else
			echo "ok   unit $name ($n cases)"; pass=$((pass + 1))
		fi
	else
		echo "FAIL unit $name"; grep -v '^ok' "$t.log" | head -40
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
