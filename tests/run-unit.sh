#!/bin/sh
# Run each cmocka unit test binary; TAP output, one summary line.
fail=0
for t in "$@"; do
	if CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$t.log" 2>&1; then
		echo "ok   unit $(basename "$t") ($(grep -c '^ok' "$t.log") cases)"
	else
		echo "FAIL unit $(basename "$t")"; grep -v '^ok' "$t.log" | head -40
		fail=1
	fi
done
exit $fail
