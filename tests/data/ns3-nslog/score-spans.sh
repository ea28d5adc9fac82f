#!/bin/sh
# Score evspan's net.device spans of bridge.cc's NS_LOG (a topology with
# the net stream, `background,all` rules) against the uid bookkeeping the
# program wrote from ns-3's trace sources (its --truth CSV).
#
# usage: score-spans.sh SPANS.csv TRUTH.csv     (SPANS.csv: spancat -c)
#
# The spans NS_LOG allows at the two bridges (nodes 0 and 1; the hosts'
# sends carry no uid): one per reception (truth rx) and one per send
# (truth enq, or drop when the queue was full), keyed by time, node,
# device and uid.  Their real parents, from the topology of bridge.cc: a
# send's is the reception of the packet at the same node before it; a
# reception over the trunk (device 2 of both bridges) is the other
# bridge's send on its trunk before it; a reception from a host is a root,
# unless the host answers with the packet it got (ns-3's echo server sends
# the request's packet back: the same uid), then it is the send to that
# host before it.
# Prints "spans: T truth, M matched, X extra; parents: R right, W wrong".
set -eu
[ $# -eq 2 ] || { echo "usage: score-spans.sh SPANS.csv TRUTH.csv" >&2; exit 2; }
awk -F, '
FNR == 1 { if (FILENAME == ARGV[1]) for (i = 1; i <= NF; i++) c[$i] = i; next }
FILENAME == ARGV[1] {
	if ($c["type"] != "net.device") next
	k = $c["ts"] "," $c["node"] "," $c["dev"] "," $c["uid"]
	key[$c["span"]] = k; par[k] = $c["parent"]; got[k]++; ns++
	next
}
$3 < 2 && ($1 == "rx" || $1 == "enq" || $1 == "drop") {
	n++; t[n] = $2; nd[n] = $3; dv[n] = $4; u[n] = $5; kind[n] = $1
}
END {
	for (i = 1; i <= n; i++) {
		k = t[i] "," nd[i] "," dv[i] "," u[i]
		T++
		if (got[k] > 0) { M++; got[k]-- } else { miss = miss k " "; continue }
		# the real parent
		want = ""; best = -1
		for (j = 1; j <= n; j++) {
			if (u[j] != u[i] || t[j] > t[i] || j == i) continue
			if (kind[i] != "rx" && kind[j] == "rx" && nd[j] == nd[i] && t[j] >= best) {
				best = t[j]; want = t[j] "," nd[j] "," dv[j] "," u[j] }
			if (kind[i] == "rx" && dv[i] == 2 && kind[j] != "rx" && nd[j] != nd[i] &&
			    dv[j] == 2 && t[j] >= best) {
				best = t[j]; want = t[j] "," nd[j] "," dv[j] "," u[j] }
			if (kind[i] == "rx" && dv[i] != 2 && kind[j] != "rx" && nd[j] == nd[i] &&
			    dv[j] == dv[i] && t[j] >= best) {
				best = t[j]; want = t[j] "," nd[j] "," dv[j] "," u[j] }
		}
		p = par[k]; gotp = p == "0x0" ? "" : key[p]
		if (gotp == want) R++; else { W++; wrong = wrong k " " }
	}
	printf "spans: %d truth, %d matched, %d extra; parents: %d right, %d wrong\n",
	    T, M, ns - M, R, W
	if (miss != "") print "missing: " miss
	if (wrong != "") print "wrong parent: " wrong
}' "$1" "$2"
