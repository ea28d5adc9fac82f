#!/bin/sh
# evcat: every option, the three output forms checked field by field, the
# man page's defaults and examples.
. "$(dirname "$0")/../lib.sh"

# --- usage ------------------------------------------------------------------
check "--help" evcat --help
stdout_has "usage: evcat [-HhjnV] [-c COLUMNS] [--csv] [--count] [--header] [--json] [--stats]"
stdout_has "See evcat(1)."
check "-h" evcat -h
check "--version" evcat --version
stdout_has "evcat 0.1.0 (zstd "
check "-V" evcat -V
expect_rc 2 "unknown option" evcat --bogus
stderr_has "usage: evcat"
expect_rc 2 "-x" evcat -x
expect_rc 2 "-H with --csv" evcat -H --csv /dev/null
stderr_has "-H cannot be combined with --csv or -c"
expect_rc 2 "-H with -c LIST" evcat -H -c ts,type /dev/null
stderr_has "-H cannot be combined with --csv or -c"

# --- text: exact output ---------------------------------------------------------
cat > "$T/in.txt" <<'EOF'
# ts type fields, as evcat prints them
1000 func cpu=system.switch_cpus sym=tcp_sendmsg table=linux
2500 mmio_wr comp=system.pc.simbricks_0 addr=0xc0508000 size=4 id=94469376954304 bar=0 offs=0x108000 posted=1 cpu=system.switch_cpus
3000 proc_in
-42 sync sync_ts=-7
123456789012345 net_enq node=1 dev=2 devtype=CosimNetDevice source=RxPacketFromAdapter uid=-1 interesting=1 boundary=1 payload=56 eth_type=0x800 eth_src=02:42:ac:11:00:02 eth_dst=ff:ff:ff:ff:ff:ff ip_src=192.168.64.1 ip_dst=192.168.64.2 ip_proto=17 ip_len=84 ip_id=-1 sport=5000 dport=6000
4000 func cpu="cpu 1" sym="a=b\"c\\d\n" table=
EOF
mkevents -r -S host0 < "$T/in.txt" > "$T/in.ev"
check "text" sh -c "evcat '$T/in.ev' > '$T/out.txt'"
# ts right-aligned in 15 columns, the type padded to the longest type
# name of the schema (nic_dma_done_rd, 15), then name=value
{
	printf '%15s %-15s%s\n' 1000 func ' cpu=system.switch_cpus sym=tcp_sendmsg table=linux'
	printf '%15s %-15s%s\n' 2500 mmio_wr ' comp=system.pc.simbricks_0 addr=0xc0508000 size=4 id=94469376954304 bar=0 offs=0x108000 posted=1 cpu=system.switch_cpus'
	printf '%15s %s\n' 3000 proc_in
	printf '%15s %-15s%s\n' -42 sync ' sync_ts=-7'
	printf '%15s %-15s%s\n' 123456789012345 net_enq ' node=1 dev=2 devtype=CosimNetDevice source=RxPacketFromAdapter uid=-1 interesting=1 boundary=1 payload=56 eth_type=0x800 eth_src=02:42:ac:11:00:02 eth_dst=ff:ff:ff:ff:ff:ff ip_src=192.168.64.1 ip_dst=192.168.64.2 ip_proto=17 ip_len=84 ip_id=-1 sport=5000 dport=6000'
	printf '%15s %-15s%s\n' 4000 func ' cpu="cpu 1" sym="a=b\"c\\d\n" table='
} > "$T/want.txt"
eq "text form, aligned, every field" "$(cat "$T/out.txt")" "$(cat "$T/want.txt")"
check "one line per event" test "$(wc -l < "$T/out.txt")" -eq 6
check "no trailing blanks" sh -c "! grep -q ' \$' '$T/out.txt'"
# the text form reads back (mkevents -r) into the same events
check "text round trip of every type" sh -c \
    "mkevents -a -n 500 | evcat > '$T/rt1' && mkevents -r < '$T/rt1' | evcat > '$T/rt2' && cmp '$T/rt1' '$T/rt2'"
# long strings are printed whole
long=$(printf '%0600d' 0 | tr 0 x)
echo "5 func cpu=c sym=$long table=t" | mkevents -r > "$T/long.ev"
check "a 600-byte symbol is printed whole" sh -c "evcat '$T/long.ev' | grep -q 'sym=$long table=t'"
check "also in JSON" sh -c "evcat -j '$T/long.ev' | grep -q '\"sym\":\"$long\"'"

# --- stdin, several files, zstd ----------------------------------------------------
check "stdin by default" sh -c "evcat < '$T/in.ev' | cmp - '$T/out.txt'"
check "- is stdin" sh -c "evcat - < '$T/in.ev' | cmp - '$T/out.txt'"
mkevents -r -z -o "$T/in.ev.zst" < "$T/in.txt"
check "zstd input" sh -c "evcat '$T/in.ev.zst' | cmp - '$T/out.txt'"
check "several files, one after the other" sh -c \
    "evcat '$T/in.ev' '$T/in.ev.zst' > '$T/two.txt'"
eq "both printed" "$(cat "$T/two.txt")" "$(cat "$T/out.txt" "$T/out.txt")"
expect_rc 1 "a missing file among others" sh -c \
    "evcat '$T/in.ev' '$T/nope.ev' '$T/in.ev' > '$T/two.txt'"
stderr_has "$T/nope.ev: No such file or directory"
eq "the others are still printed" "$(cat "$T/two.txt")" "$(cat "$T/out.txt" "$T/out.txt")"

# --- header ----------------------------------------------------------------------
mkevents -r -S host0 -m source=gem5.log -m custom=x < "$T/in.txt" > "$T/m.ev"
check "-H" evcat -H "$T/m.ev"
stdout_has "# file $T/m.ev (format 1.2)"
stdout_has "# stream: host0"
stdout_has "# simulator: gem5"
stdout_has "# time-unit: ps"
stdout_has "# source: gem5.log"
stdout_has "# custom: x"
stdout_has "# type 4 func: cpu/s sym/s table/s"
stdout_has "# type 34 net_enq: node/u dev/u devtype/s"
check "--header then the events" sh -c "evcat --header '$T/m.ev' | grep -v '^#' | cmp - '$T/out.txt'"
check "-H -j: the header as the first JSON line" sh -c "evcat -H -j '$T/m.ev' > '$T/hj.txt'"
check "header line is JSON" python3 -c '
import json, sys
h = json.loads(open(sys.argv[1]).readline())["header"]
assert h["meta"]["stream"] == "host0" and h["meta"]["custom"] == "x"
assert ["cpu", "s"] in [f for t in h["types"] if t["name"] == "func" for f in t["fields"]]
' "$T/hj.txt"
check "-H with concatenated segments prints each header" sh -c \
    "cat '$T/m.ev' '$T/m.ev' | evcat -H | grep -c '^# stream: host0' | grep -qx 2"

# --- CSV ---------------------------------------------------------------------------
check "--csv" sh -c "evcat --csv '$T/in.ev' > '$T/out.csv'"
check "-c is --csv" sh -c "evcat --csv '$T/in.ev' | cmp - '$T/out.csv'"
check "CRLF line ends" sh -c "head -1 '$T/out.csv' | od -c | grep -q '\\\\r  \\\\n'"
check "header row: ts, type, then the union of field names" sh -c \
    "head -1 '$T/out.csv' | tr -d '\\r' | grep -q '^ts,type,sync_ts,cpu,pc,upc,sym,table,comp,addr,size,id,bar,offs,posted,'"
check "CSV parses as RFC 4180 with the right cells" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 6, len(rows)
assert rows[0]["type"] == "func" and rows[0]["sym"] == "tcp_sendmsg" and rows[0]["ts"] == "1000"
assert rows[0]["addr"] == ""
assert rows[1]["addr"] == "0xc0508000" and rows[1]["posted"] == "1" and rows[1]["id"] == "94469376954304"
assert rows[3]["ts"] == "-42" and rows[3]["sync_ts"] == "-7"
assert rows[4]["eth_dst"] == "ff:ff:ff:ff:ff:ff" and rows[4]["ip_src"] == "192.168.64.1"
assert rows[4]["uid"] == "-1" and rows[4]["interesting"] == "1"
assert rows[5]["cpu"] == "cpu 1" and rows[5]["sym"] == "a=b\"c\\d\n", repr(rows[5]["sym"])
' "$T/out.csv"
check "several files: one header row" sh -c \
    "evcat --csv '$T/in.ev' '$T/in.ev' | grep -c '^ts,type' | grep -qx 1"
check "several files: every row" sh -c \
    "evcat --csv '$T/in.ev' '$T/in.ev' | python3 -c 'import csv,sys; assert len(list(csv.reader(sys.stdin))) == 13'"
# the man page example: function entries into SQLite
check "example: evfilter -t func | evcat --csv into sqlite3" sh -c \
    "evfilter -t func '$T/in.ev' | evcat --csv > '$T/func.csv' && sqlite3 '$T/f.db' '.import --csv $T/func.csv func' && sqlite3 '$T/f.db' 'select count(*), min(ts) from func' > '$T/q'"
eq "sqlite3 sees the two function entries" "$(cat "$T/q")" "2|1000"

# --- JSON lines --------------------------------------------------------------------
check "--json" sh -c "evcat --json '$T/in.ev' > '$T/out.json'"
check "-j is --json" sh -c "evcat -j '$T/in.ev' | cmp - '$T/out.json'"
check "every line is a JSON object with typed values" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 6
assert rows[0] == {"ts": 1000, "type": "func", "cpu": "system.switch_cpus", "sym": "tcp_sendmsg", "table": "linux"}
assert rows[1]["addr"] == "0xc0508000" and rows[1]["size"] == 4 and rows[1]["bar"] == 0
assert rows[2] == {"ts": 3000, "type": "proc_in"}
assert rows[3]["sync_ts"] == -7
assert rows[4]["interesting"] is True and rows[4]["uid"] == -1 and rows[4]["ip_dst"] == "192.168.64.2"
assert rows[5]["sym"] == "a=b\"c\\d\n" and rows[5]["table"] == ""
' "$T/out.json"
printf '1 func cpu=c sym="\\xff\\xfe\\x01" table=t\n' | mkevents -r > "$T/bin.ev"
check "invalid UTF-8 still makes valid JSON" sh -c \
    "evcat -j '$T/bin.ev' | python3 -c 'import json,sys; r = json.loads(sys.stdin.read()); assert r[\"sym\"] == \"\\ufffd\\ufffd\\x01\", r'"

# --- counts ----------------------------------------------------------------------
check "--count" sh -c "evcat --count '$T/in.ev' > '$T/n.txt'"
cat > "$T/want.n" <<'EOF'
           1 sync
           1 proc_in
           2 func
           1 mmio_wr
           1 net_enq
           6 total
EOF
eq "counts per type in schema order, then the total" "$(cat "$T/n.txt")" "$(cat "$T/want.n")"
check "-n over several files adds up" sh -c "evcat -n '$T/in.ev' '$T/in.ev.zst' | tail -1 | grep -qx ' *12 total'"
check "-n -c" sh -c "evcat -n --csv '$T/in.ev' > '$T/n.csv'"
eq "counts as CSV" "$(tr -d '\r' < "$T/n.csv")" "$(printf 'type,count\nsync,1\nproc_in,1\nfunc,2\nmmio_wr,1\nnet_enq,1\ntotal,6')"
check "-n -j" sh -c "evcat -n -j '$T/in.ev' | python3 -c 'import json,sys; r=[json.loads(l) for l in sys.stdin]; assert r[2] == {\"type\": \"func\", \"count\": 2} and r[-1][\"count\"] == 6'"
mkevents -n 100000 -o "$T/big.ev"
check "-n agrees with the text form" sh -c \
    "test \"\$(evcat '$T/big.ev' | wc -l)\" -eq \"\$(evcat -n '$T/big.ev' | awk '/total/ {print \$1}')\""
check "-n agrees with awk over the text form, per type" sh -c \
    "evcat '$T/big.ev' | awk '{ n[\$2]++ } END { for (t in n) print n[t], t }' | sort > '$T/a1' && evcat -n '$T/big.ev' | grep -v total | awk '{print \$1, \$2}' | sort > '$T/a2' && cmp '$T/a1' '$T/a2'"

# --- the man page's examples --------------------------------------------------------
mkevents -n 50 -z -o "$T/host.ev.zst"
check "example: evcat host.ev.zst | head" sh -c "evcat '$T/host.ev.zst' | head > '$T/o' && test \$(wc -l < '$T/o') -eq 10"
check "example: evcat -n host.ev.zst" sh -c "evcat -n '$T/host.ev.zst' | grep -q ' 50 total'"

done_testing
