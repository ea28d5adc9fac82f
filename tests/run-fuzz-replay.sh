#!/bin/sh
# Replay each fuzz target's committed corpus (tests/fuzz/corpus/<target>/).
fail=0
for bin in "$@"; do
	name=$(basename "$bin")
	dir="tests/fuzz/corpus/$name"
	if [ ! -d "$dir" ]; then
		echo "FAIL fuzz $name: no corpus in $dir"; fail=1; continue
	fi
	if out=$("$bin" "$dir" 2>&1); then
		echo "ok   fuzz $name ($(echo "$out" | tail -1))"
	else
		echo "FAIL fuzz $name"; echo "$out" | tail -30; fail=1
	fi
done
exit $fail
