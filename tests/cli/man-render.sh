#!/bin/sh
# The man pages as a reader sees them (mandoc -T utf8), not only lint
# clean: no quote opened inside another, no doubled closing quote, and
# the parentheses of every paragraph balanced outside the quoted literals
# (issue 26: "(‘nic.client.0. becomes ‘nic.client.0’’)" in
# simspan-simbricks(1), the stray ")" after SimBricksTraceHelper in
# simspan(7), "(‘ts, ‘type, ...’’)" where .Pq Ql a , Ql b nests).
. "$(dirname "$0")/../lib.sh"
needs mandoc python3

python3 - "$TOP"/man/*.[157] >"$T/findings" <<'PY'
import os, re, subprocess, sys
for page in sys.argv[1:]:
    out = subprocess.run(["mandoc", "-T", "utf8", page],
        capture_output=True, text=True, check=True).stdout
    out = re.sub(r".\x08", "", out)		# bold and underline
    for para in re.split(r"\n\s*\n", out):
        t = " ".join(para.split())
        why = None
        if re.search(r"‘[^’]*‘", t):
            why = "a quote opened inside a quote"
        elif "’’" in t:
            why = "two closing quotes"
        else:
            u = re.sub(r"‘[^’]*’", "", t)	# literals may hold anything
            if u.count("(") != u.count(")"):
                why = "unbalanced parentheses"
        if why:
            print(f"{os.path.basename(page)}: {why}: {t[:200]}")
PY
for p in "$TOP"/man/*.[157]; do
	n=$(basename "$p")
	eq "$n renders with balanced quotes and parentheses" \
	    "$(grep -F "$n: " "$T/findings" | head -n 3)" ""
done
done_testing
