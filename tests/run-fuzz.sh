#!/bin/sh
# Run every libFuzzer target for SECONDS each, starting from a copy of its
# committed corpus.  New crashes are left in build-fuzz/ as crash-* files.
secs=$1; shift
fail=0
for bin in "$@"; do
	name=$(basename "$bin")
	work="build-fuzz/corpus-$name"
	rm -rf "$work"; mkdir -p "$work"
	cp tests/fuzz/corpus/"$name"/* "$work"/ 2>/dev/null || true
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix="build-fuzz/$name-" -print_final_stats=1 \
	    "$work" >"build-fuzz/$name.log" 2>&1; then
		echo "ok   fuzz $name: $(grep -E 'stat::number_of_executed_units' "build-fuzz/$name.log" | awk '{print $2}') runs in ${secs}s"
	else
		echo "FAIL fuzz $name"; tail -40 "build-fuzz/$name.log"; fail=1
	fi
done
exit $fail
