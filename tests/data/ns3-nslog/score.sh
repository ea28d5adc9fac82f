#!/bin/sh
# Score sim2ev's events of an NS_LOG sample against the uid bookkeeping the
# sample program wrote itself (its --truth CSV: kind,time_ps,node,dev,uid
# from ns-3's own trace sources).
#
# usage: score.sh EVENTS.csv TRUTH.csv      (EVENTS.csv: evcat --csv output)
#
# A truth record is matched when sim2ev wrote the same observation:
#   enq   SimpleNetDevice TxQueue/Enqueue  <- net_enq source=SendFrom
#   deq   TxQueue/Dequeue                  <- net_deq source=StartTransmission
#   drop  TxQueue/Drop                     <- net_drop (and the net_enq of the
#                                             SendFrom it undid; likewise for
#                                             a queue disc's drop)
#   rx    the node's promiscuous handler   <- net_enq source=Receive|RxInContext
#   qd-enq/qd-deq/qd-drop (queue disc)     <- devtype=QueueDisc Enqueue/
#                                             Transmit/Drop*
#   sniff PromiscSniffer (what a pcap      <- net_seen (-f pcap), its time
#         file records)                       the truth's cut to whole us
# at the same time (ps), node and device; "exact" when the uid is the same
# too, "no uid" when sim2ev's uid is -1 (NS_LOG printed none: a packet no
# bridge has seen yet, a queue-disc item).  Prints one line per kind and
# a total; exit status 0.
set -eu
[ $# -eq 2 ] || { echo "usage: score.sh EVENTS.csv TRUTH.csv" >&2; exit 2; }
awk -F, '
FNR == 1 { if (FILENAME == ARGV[1]) for (i = 1; i <= NF; i++) col[$i] = i; next }
FILENAME == ARGV[1] {
	t = $col["type"]; s = $col["source"]; dt = $col["devtype"]; k = ""
	if (dt == "QueueDisc")
		k = t == "net_enq" ? "qd-enq" : t == "net_deq" ? "qd-deq" : "qd-drop"
	else if (t == "net_enq" && s == "SendFrom") k = "enq"
	else if (t == "net_deq" && s == "StartTransmission") k = "deq"
	else if (t == "net_drop") k = "drop"
	else if (t == "net_enq" && (s == "Receive" || s == "RxInContext")) k = "rx"
	else if (t == "net_seen") k = "sniff"
	if (k == "") next
	key = $col["ts"] "," $col["node"] "," $col["dev"]
	uid = $col["uid"]
	ev[k "," key "," uid]++
	if (uid < 0) nouid[k "," key]++
	nev++
	next
}
{
	k = $1; key = $2 "," $3 "," $4; uid = $5
	if (k == "sniff")	# ns-3 writes pcap times in whole microseconds
		key = sprintf("%.0f", int($2 / 1000000) * 1000000) "," $3 "," $4
	total[k]++
	if (ev[k "," key "," uid] > 0) { ev[k "," key "," uid]--; exact[k]++; used++ }
	else if (nouid[k "," key] > 0) { nouid[k "," key]--; nuid[k]++; used++ }
	else { miss[k]++ }
	# a dropped packet: its SendFrom net_enq is part of the same record
	if (k == "drop" || k == "qd-drop") {
		e = k == "drop" ? "enq" : "qd-enq"
		if (ev[e "," key "," uid] > 0) { ev[e "," key "," uid]--; used++ }
		else if (nouid[e "," key] > 0) { nouid[e "," key]--; used++ }
	}
}
END {
	for (k in total) {
		printf "%-8s %5d truth records: %5d exact, %5d no uid, %5d missing\n",
		    k, total[k], exact[k], nuid[k], miss[k]
		T += total[k]; E += exact[k]; N += nuid[k]; M += miss[k]
	}
	printf "total    %5d truth records: %5d exact, %5d no uid, %5d missing; " \
	    "%d of %d events matched nothing\n", T, E, N, M, nev - used, nev
}' "$1" "$2" | sort
