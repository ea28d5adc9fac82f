#!/bin/sh
# The EXAMPLES of evspan(1), spancat(1), simspan-topology(5) and
# simspan-rules(5), run as written.
. "$(dirname "$0")/../lib.sh"

mkdumbbell -n 5 "$T/w" >/dev/null
cd "$T/w"
mv topology.csv topo.csv
mkdir rules
cp "$TOP/rules/linux-i40e.csv" rules/
cp rules/linux-i40e.csv rules.csv
zstd -q server.ev -o server-2.ev.zst

# evspan(1)
check "evspan: build the spans" evspan -t topo.csv -r rules/linux-i40e.csv -o spans.sp
check "evspan: look at the traces" sh -c "spancat --tree spans.sp | cat > tree.txt"
check "tree printed" grep -q '^trace ' tree.txt
check "evspan: check new rules" evspan -t topo.csv -r rules.csv --stats -o /dev/null
stderr_has "spans by kind:"
check "evspan: another file, compressed" evspan -t topo.csv -r rules.csv server=server-2.ev.zst -o spans.sp.zst
check "same spans" sh -c "spancat spans.sp.zst > a.txt && spancat spans.sp > b.txt && cmp a.txt b.txt"
check "evspan: events and a fixed salt" evspan -e --seed 1 -t topo.csv -r rules.csv -o spans.sp
check "salt 1" sh -c "spancat spans.sp | head -1 | grep -q trace_hi=0x1"

# spancat(1)
check "spancat --tree" sh -c "spancat --tree spans.sp | cat > /dev/null"
check "spancat -n" spancat -n spans.sp
stdout_has " 92 spans"
check "spancat --csv" sh -c "spancat --csv spans.sp > spans.csv"
check "csv written" test -s spans.csv
check "spancat -c LIST" spancat -c trace,span,type,stream_name,dur spans.sp
eq "... those columns" "$(head -n 1 "$T/.out" | tr -d '\r')" "trace,span,type,stream_name,dur"
cp "$T/.out" cols.csv
check "... a trace id of 32 hex digits" grep -Eq '^[0-9a-f]{32},0x' cols.csv
# evcat(1)
check "evcat -c LIST" evcat -c ts,cpu,sym server.ev
eq "... those columns" "$(head -n 1 "$T/.out" | tr -d '\r')" "ts,cpu,sym"
# the orphan example finds orphans (and only them)
mkdumbbell -n 5 "$T/o" >/dev/null
printf 'stream,client,host,%s/o/client.ev\nstream,client-nic,nic,%s/o/client-nic.ev\npcie,client,client-nic\n' "$T" "$T" > nohost.csv
check "orphans: a NIC whose host stream lost its mmio lines" evspan -t nohost.csv -o o.sp
spancat -j o.sp | grep '"flags":[0-9]*[13579],' > orphans.json || true
eq "the grep finds the orphans" "$(wc -l < orphans.json)" "$(spancat -n o.sp | awk '$2 == "orphans" {print $1}')"
check "some orphans" test -s orphans.json
check "and only orphans (each with a cause)" sh -c "! grep -q '\"cause\":\"\"' orphans.json"

# simspan-topology(5), simspan-rules(5): the files and commands of EXAMPLES
cd "$T/w"
# ex PAGE N: the N-th literal display of the page's EXAMPLES section
ex() {
	awk -v n="$2" '/^\.Sh EXAMPLES/ {on = 1; next} /^\.Sh / {on = 0}
	    on && /^\.Bd -literal/ {k++; p = (k == n); next}
	    /^\.Ed/ {p = 0} on && p' "$TOP/man/$1" | sed 's/\\e/\\/g'
}
for s in client server client-nic server-nic net; do zstd -q -f $s.ev -o $s.ev.zst; done
ex simspan-topology.5 1 > ex-topo.csv
check "simspan-topology(5): the dumbbell" evspan -t ex-topo.csv -r rules.csv -o ex.sp
check "the same spans as mkdumbbell's topology" sh -c \
    "evspan -t topo.csv -r rules.csv -o ref.sp && cmp ex.sp ref.sp"
mkdir two
for s in router nic-a nic-b; do
	case $s in nic-*) k=nic ;; *) k=host ;; esac
	txt2ev -s $s -k $k -o two/$s.ev "$DATA/evspan/twonics/$s.txt"
done
ex simspan-topology.5 2 > two/topo.csv
check "simspan-topology(5): a host with two NICs" evspan -t two/topo.csv -r rules.csv -o two.sp
eq "two NICs: both host DMAs" "$(spancat -n two.sp | awk '$2 == "host.dma" {print $1}')" 2
cp server.ev.zst srv.ev.zst
grep '^\.Dl \$ ' "$TOP/man/simspan-topology.5" | sed 's/^\.Dl \$ //' > topo-cmd.sh
check "simspan-topology(5): NAME=FILE" sh topo-cmd.sh
check "the same spans again" cmp spans.sp ref.sp
ex simspan-rules.5 1 > ex-rules.csv
check "simspan-rules(5): the i40e excerpt" evspan --stats -t topo.csv -r ex-rules.csv -o r.sp
eq "the excerpt makes syscall spans" "$(spancat -n r.sp | awk '$2 == "host.syscall" {print $1}')" 12
ex simspan-rules.5 2 | sed 's/^\$ //' > rules-cmd.sh
check "simspan-rules(5): network syscalls only" sh rules-cmd.sh
stderr_has "left out (root rule)"
check "net.csv says net-syscalls" grep -qx 'root,net-syscalls' net.csv

done_testing
