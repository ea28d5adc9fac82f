#!/bin/sh
# The EXAMPLES of evspan(1) and spancat(1), run as written.
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
check "spancat -c" sh -c "spancat -c spans.sp > spans.csv"
check "csv written" test -s spans.csv
# the orphan example finds orphans (and only them)
mkdumbbell -n 5 "$T/o" >/dev/null
printf 'stream,client,host,%s/o/client.ev\nstream,client-nic,nic,%s/o/client-nic.ev\npcie,client,client-nic\n' "$T" "$T" > nohost.csv
check "orphans: a NIC whose host stream lost its mmio lines" evspan -t nohost.csv -o o.sp
spancat -j o.sp | grep '"flags":[0-9]*[13579],' > orphans.json || true
eq "the grep finds the orphans" "$(wc -l < orphans.json)" "$(spancat -n o.sp | awk '$2 == "orphans" {print $1}')"
check "some orphans" test -s orphans.json
check "and only orphans (each with a cause)" sh -c "! grep -q '\"cause\":\"\"' orphans.json"

done_testing
