#!/bin/sh
# Run the shell tests (TAP each), SSP_CLI_JOBS (default 1) at a time; one
# line per script in the order given, then the summary line "N passed,
# N failed, N skipped" (scripts; CI reads it).  A script that skips prints
# the plan "1..0 # SKIP needs CMD" (tests/lib.sh: needs, have).
#
#   sh tests/run-cli.sh tests/cli/span2html.sh       (after make all-tests)
#   make cli CLI_TESTS=tests/cli/span2html.sh        (builds first)
#
# The tools and helpers are those of SSP_BIN and SSP_HELPERS (make cli
# sets them), by default the gcc build's: build/bin, build/tests/helpers.
top=$(cd "$(dirname "$0")/.." && pwd)
: "${SSP_BIN:=$top/build/bin}" "${SSP_HELPERS:=$top/build/tests/helpers}"
export SSP_BIN SSP_HELPERS
if [ ! -d "$SSP_BIN" ] || [ ! -d "$SSP_HELPERS" ]; then
	echo "run-cli.sh: no tools in $SSP_BIN or no helpers in $SSP_HELPERS:" \
	    "run make all-tests first, or set SSP_BIN and SSP_HELPERS" >&2
	exit 2
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/ssp-cli.XXXXXX")
trap 'rm -rf "$dir"' EXIT
i=0
for t in "$@"; do
	i=$((i + 1))
	[ -f "$t" ] && printf '%s %s\n' "$i" "$t"
done | xargs -P "${SSP_CLI_JOBS:-1}" -L 1 sh -c \
    'sh "$2" >"$0/$1.log" 2>&1; echo $? >"$0/$1.r"; mv "$0/$1.r" "$0/$1.rc"' "$dir" &
pass=0 fail=0 skip=0 i=0
for t in "$@"; do	# report in order, each as soon as it is done
	i=$((i + 1))
	[ -f "$t" ] || continue
	name=$(basename "$t")
	log="$dir/$i.log"
	while [ ! -f "$dir/$i.rc" ]; do sleep 0.2; done
	if [ "$(cat "$dir/$i.rc")" = 0 ]; then
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
done
wait
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
