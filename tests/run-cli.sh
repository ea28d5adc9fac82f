#!/bin/sh
# Run the shell tests; each prints TAP.  One line per script, then the
# summary line "N passed, N failed, N skipped" (scripts; CI reads it).  A
# script that skips prints the plan "1..0 # SKIP needs CMD" (tests/lib.sh).
pass=0 fail=0 skip=0
for t in "$@"; do
	[ -f "$t" ] || continue
	name=$(basename "$t")
	log="${TMPDIR:-/tmp}/ssp-cli-$name.$$.log"
	if sh "$t" >"$log" 2>&1; then
		why=$(sed -n 's/^1\.\.0 # SKIP //p' "$log")
		nskip=$(grep -c '^ok [0-9]* # SKIP' "$log")
		if [ -n "$why" ]; then
			echo "skip cli  $name: $why"; skip=$((skip + 1))
		elif [ "$nskip" -gt 0 ]; then
			echo "ok   cli  $name ($(grep -c '^ok' "$log") checks, $nskip skipped: $(sed -n 's/^ok [0-9]* # SKIP //p' "$log" | sort -u | paste -sd, -))"
			pass=$((pass + 1))
		else
			echo "ok   cli  $name ($(grep -c '^ok' "$log") checks)"
			pass=$((pass + 1))
		fi
	else
		echo "FAIL cli  $name"
		grep -v '^ok' "$log" | head -60
		fail=$((fail + 1))
	fi
	rm -f "$log"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
