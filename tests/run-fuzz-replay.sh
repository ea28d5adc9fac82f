#!/bin/sh
# Replay each fuzz target's committed corpus (tests/fuzz/corpus/<target>/);
# one line per target, then "N passed, N failed, N skipped" (never skips).
pass=0 fail=0
for bin in "$@"; do
	name=$(basename "$bin")
	dir="tests/fuzz/corpus/$name"
	if [ ! -d "$dir" ]; then
		echo "FAIL fuzz $name: no corpus in $dir"; fail=$((fail + 1)); continue
	fi
	if out=$("$bin" "$dir" 2>&1); then
		echo "ok   fuzz $name ($(echo "$out" | tail -1))"; pass=$((pass + 1))
	else
		echo "FAIL fuzz $name"; echo "$out" | tail -30; fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
