# awk -F, -f pcap-identity.awk EVENTS.csv TRUTH.csv: the packet identity sim2ev
# reads from a pcap record (IPv4 addresses, protocol, id, ports and length;
# ARP: MACs and addresses) against the uids the program saw at the same
# time (in us), node and device: does every identity belong to one uid?
FNR == 1 && FILENAME == ARGV[1] { sub(/\r$/, ""); for (i = 1; i <= NF; i++) c[$i] = i; next }
FILENAME == ARGV[1] {
	sub(/\r$/, "")
	if ($c["eth_type"] == "0x806")
		id = "arp " $c["eth_src"] " " $c["eth_dst"] " " $c["ip_src"] " " $c["ip_dst"]
	else
		id = $c["ip_src"] " " $c["ip_dst"] " " $c["ip_proto"] " " $c["ip_id"] " " \
		    $c["sport"] " " $c["dport"] " " $c["ip_len"]
	ev[++n] = id; at[n] = $c["ts"] "," $c["node"] "," $c["dev"]
	next
}
$1 == "sniff" { k = sprintf("%.0f", int($2 / 1000000) * 1000000) "," $3 "," $4; u[k] = u[k] " " $5 " " }
END {
	for (i = 1; i <= n; i++) {
		split(u[at[i]], cand, " ")
		if (!(ev[i] in seen)) { seen[ev[i]] = 1; ids++; for (j in cand) cu[ev[i] "|" cand[j]] = 1; left[ev[i]] = u[at[i]] }
		else {	# keep only the uids every sighting could be
			nl = ""; split(left[ev[i]], old, " ")
			for (j in old) if (index(u[at[i]], " " old[j] " ")) nl = nl " " old[j] " "
			left[ev[i]] = nl
		}
	}
	for (x in seen) if (left[x] !~ /[0-9]/) bad++
	printf "%d identities, %d sightings, %d not one uid's\n", ids, n, bad
}
