#!/bin/sh
# Run the shell tests; each prints TAP.  Summary line per script.
fail=0
for t in "$@"; do
	[ -f "$t" ] || continue
	log="${TMPDIR:-/tmp}/ssp-cli-$(basename "$t").$$.log"
	if sh "$t" >"$log" 2>&1; then
		echo "ok   cli  $(basename "$t") ($(grep -c '^ok' "$log") checks)"
	else
		echo "FAIL cli  $(basename "$t")"
		grep -v '^ok' "$log" | head -60
		fail=1
	fi
	rm -f "$log"
done
exit $fail
