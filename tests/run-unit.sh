#!/bin/sh
# Run each cmocka unit test binary (TAP), SSP_TEST_JOBS (default 4) at a
# time: they share nothing (temporary files carry the pid) and mostly wait
# for fdatasync, so more jobs than cores pay.  One line per
# binary in the order given, then the summary line "N passed, N failed,
# N skipped" (binaries; one counts as skipped when every case skipped).
printf '%s\n' "$@" | xargs -P "${SSP_TEST_JOBS:-4}" -I{} sh -c \
    'CMOCKA_MESSAGE_OUTPUT=TAP "$1" >"$1.log" 2>&1; echo $? >"$1.rc"' - {}
pass=0 fail=0 skip=0
for t in "$@"; do
	name=$(basename "$t")
	if [ "$(cat "$t.rc" 2>/dev/null)" = 0 ]; then
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
	rm -f "$t.rc"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
