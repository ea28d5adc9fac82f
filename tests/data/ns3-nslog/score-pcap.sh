#!/bin/sh
# Score evspan's net.device spans of pcap.cc's captures (one stream per
# pcap-N-D.pcap file) against the uid bookkeeping the program wrote from
# the same PromiscSniffer trace sources its pcap files record (the sniff
# rows of its --truth CSV: the k-th sniff at a device is the k-th record
# of its file).
#
# usage: score-pcap.sh [-u] SPANS.csv TRUTH.csv   (SPANS.csv: spancat -c;
#        -u: the files have microsecond timestamps, ns-3's default)
#
# A span per record, keyed by time, node, device and IPv4 (ARP: protocol)
# addresses (times truncated to microseconds with -u; spans of one key
# taken in span id order).  The
# real parent of a sighting: the sighting of the same uid before it
# (pcap.cc's path is a line: n0 -CSMA- n1 -p2p- n2), except where the
# echo server sends the request's packet back (the same uid, swapped
# addresses: a new packet to a capture, and to the score: a root).
# Prints "spans: T truth, M matched, X extra; parents: R right, W wrong".
set -eu
us=0
[ "${1:-}" = -u ] && { us=1; shift; }
[ $# -eq 2 ] || { echo "usage: score-pcap.sh [-u] SPANS.csv TRUTH.csv" >&2; exit 2; }
awk -F, -v us="$us" '
FNR == 1 { if (FILENAME == ARGV[1]) for (i = 1; i <= NF; i++) c[$i] = i; next }
FILENAME == ARGV[1] {
	if ($c["type"] != "net.device") next
	k = $c["ts"] "," $c["node"] "," $c["dev"] "," $c["ip_src"] ">" $c["ip_dst"]
	k = k "," got[k]++
	key[$c["span"]] = k; par[k] = $c["parent"]; ns++
	next
}
$1 == "sniff" {
	n++; t[n] = us ? sprintf("%.0f", $2 - $2 % 1000000) : $2
	nd[n] = $3; dv[n] = $4; u[n] = $5
	k = t[n] "," nd[n] "," dv[n] "," $6; tk[n] = k "," seen[k]++
	# the request turned round at n2 (its device 0): the second sighting
	# of a uid there
	if (nd[n] == 2 && (u[n] in at2)) root[n] = 1
	if (nd[n] == 2) at2[u[n]] = 1
}
END {
	for (i = 1; i <= n; i++) {
		T++
		if (tk[i] in par) M++; else { miss = miss tk[i] " "; continue }
		want = ""
		if (!root[i])
			for (j = i - 1; j >= 1; j--)
				if (u[j] == u[i]) { want = tk[j]; break }
		p = par[tk[i]]; gotp = p == "0x0" ? "" : key[p]
		if (gotp == want) R++; else { W++; wrong = wrong tk[i] "(" gotp "!=" want ") " }
	}
	printf "spans: %d truth, %d matched, %d extra; parents: %d right, %d wrong\n",
	    T, M, ns - M, R, W
	if (miss != "") print "missing: " miss
	if (wrong != "") print "wrong parent: " wrong
}' "$1" "$2"
