#!/bin/sh
# span2sqlite: counts against mkspans' known structure, parents, views on a
# hand-checkable input, appends (through SQLite: locking, damage, UNIQUE
# indexes, other writers), whole-or-nothing output on bad input, options.
. "$(dirname "$0")/../lib.sh"

q() { sqlite3 -batch "$@"; }
no_tmp_name() {	# the last message names the user's file, no temporary one
	if grep -q '\.tmp' "$T/.err"; then
		not_ok "$1: no temporary file named"; sed 's/^/# /' "$T/.err"
	else ok "$1: no temporary file named"; fi
}
no_temp() {	# no temporary database left in directory $1
	if ls "$1" | grep -q '\.tmp'; then
		not_ok "no temporary file left in $1"; ls "$1" | sed 's/^/# /'
	else ok "no temporary file left in $1"; fi
}

# mkspans -n 14: requests 6 and 13 have their NIC rx orphaned (new trace).
mkspans -n 14 -o "$T/a.sp"
mkspans -j -n 14 -o "$T/j.sp"
mkspans -e -n 14 -o "$T/e.sp"
mkspans -z -n 14 -o "$T/a.sp.zst"

# --- usage ------------------------------------------------------------------
expect_rc 0 "--help exits 0" span2sqlite --help
stdout_has "usage: span2sqlite"
stdout_has "--events"
expect_rc 0 "-h exits 0" span2sqlite -h
expect_rc 0 "--version exits 0" span2sqlite --version
stdout_has "span2sqlite 0."
stdout_has "sqlite 3."
if [ -w /dev/full ]; then
	expect_rc 1 "--help to a full disk: exit 1" sh -c 'span2sqlite --help > /dev/full'
	expect_rc 1 "--version to a full disk: exit 1" sh -c 'span2sqlite --version > /dev/full'
fi
expect_rc 2 "no database: usage error" span2sqlite
stderr_has "usage: span2sqlite"
expect_rc 2 "three operands: usage error" span2sqlite "$T/x.db" "$T/a.sp" "$T/a.sp"
expect_rc 2 "unknown option: usage error" span2sqlite --frobnicate "$T/x.db" "$T/a.sp"
expect_rc 2 "database '-': usage error" span2sqlite - "$T/a.sp"
expect_rc 2 "empty --run: usage error" span2sqlite --run "" "$T/x.db" "$T/a.sp"
expect_rc 2 "--run needs a value" span2sqlite "$T/x.db" --run
[ ! -e "$T/x.db" ] && ok "usage errors create no database" || not_ok "usage errors create no database"

# --- one run: counts ----------------------------------------------------------
DB=$T/a.db
check "load mkspans -n 14" span2sqlite --run first -v "$DB" "$T/a.sp"
stderr_has "252 spans, 13 links, 0 events, 16 traces written"
stderr_has "265 records read = 252 spans + 13 links + 0 events"
stderr_has "56 net.device"
stderr_has "rows written directly"
eq "direct: integrity check" "$(q "$DB" "pragma integrity_check")" ok
# --insert: the same database through SQL INSERTs (every table and view
# compared row by row; the runs row differs only in its load time)
check "load --insert" span2sqlite --insert --run first -v "$T/ins.db" "$T/a.sp"
stderr_has "rows inserted"
eq "--insert: integrity check" "$(q "$T/ins.db" "pragma integrity_check")" ok
for t in run_meta streams traces spans links attr_host_syscall attr_host_dma \
    attr_net_device latency split_streams split_kinds; do
	eq "--insert: table $t as written directly" \
	    "$(q "$T/ins.db" "select * from $t order by 1, 2" | md5sum)" \
	    "$(q "$DB" "select * from $t order by 1, 2" | md5sum)"
done
# on one CPU the indexes' keys are sorted without the helper thread: the
# same rows, and indexes that hold (integrity check)
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -gt 1 ]; then
	check "load on one CPU" taskset -c 0 span2sqlite --run first "$T/one.db" "$T/a.sp"
	eq "one CPU: integrity check" "$(q "$T/one.db" "pragma integrity_check")" ok
	for t in spans traces links attr_host_syscall; do
		eq "one CPU: table $t as with two (indexes: integrity check)" \
		    "$(q "$T/one.db" ".dump $t" | md5sum)" "$(q "$DB" ".dump $t" | md5sum)"
	done
else
	ok "# SKIP load on one CPU (no taskset, or one CPU)"
fi
# statistics: the attribute tables' rows counted by the load, the rest
# from ANALYZE table by table; the same as one ANALYZE of it all
stat1() { q "$1" "select tbl, idx, stat from sqlite_stat1 order by 1, 2"; }
eq "direct: attr_host_syscall's statistics are its rows" \
    "$(q "$DB" "select stat from sqlite_stat1 where tbl = 'attr_host_syscall'")" \
    "$(q "$DB" "select count(*) from attr_host_syscall")"
cp "$DB" "$T/an.db"
q "$T/an.db" "delete from sqlite_stat1; pragma analysis_limit = 1000; analyze" >/dev/null
eq "direct: statistics as ANALYZE gives them" "$(stat1 "$DB" | md5sum)" \
    "$(stat1 "$T/an.db" | md5sum)"
eq "direct: statistics as --insert's" "$(stat1 "$DB" | md5sum)" \
    "$(stat1 "$T/ins.db" | md5sum)"
[ "$(stat1 "$DB" | grep -c '^attr_')" -ge 3 ] && ok "direct: statistics of the attribute tables" ||
    not_ok "direct: statistics of the attribute tables"
eq "runs row" "$(q "$DB" "select id, name, source, spans, links, events is null, traces from runs")" \
    "1|first|$T/a.sp|252|13|1|16"
eq "spans: 18 per request" "$(q "$DB" "select count(*) from spans")" 252
eq "spans per kind" "$(q "$DB" "select group_concat(kind || '=' || n, ' ') from (select kind, count(*) n from spans group by kind order by kind)")" \
    "host.dma=42 host.mmio=14 host.msix=14 host.syscall=28 net.device=56 nic.dma=42 nic.mmio=14 nic.msix=14 nic.rx=14 nic.tx=14"
eq "streams" "$(q "$DB" "select group_concat(name || ':' || sim || ':' || kind || ':' || spans, ' ') from (select * from streams order by idx)")" \
    "client:gem5:host:56 client-nic:nicbm:nic:56 net:ns3:net:56 server-nic:nicbm:nic:42 server:gem5:host:42"
eq "traces: 14 requests + 2 orphaned rx" "$(q "$DB" "select root_kind, count(*) from traces group by 1 order by 1")" \
    "host.syscall|14
nic.rx|2"
eq "span ids unique" "$(q "$DB" "select count(distinct span_id) from spans")" 252
eq "roots have no parent" "$(q "$DB" "select count(*) from spans where parent is null")" 16
eq "every root is its trace's root" "$(q "$DB" "select count(*) from spans s join traces t on t.root = s.id where s.parent is null")" 16
eq "parents resolve" "$(q "$DB" "select count(*) from spans c join spans p on p.id = c.parent")" 236
eq "parents are in the child's trace" "$(q "$DB" "select count(*) from spans c join spans p on p.id = c.parent where p.trace != c.trace")" 0
eq "parent of nic.mmio is host.mmio" "$(q "$DB" "select distinct p.kind from spans c join spans p on p.id = c.parent where c.kind = 'nic.mmio'")" host.mmio
eq "orphans: every 7th request's rx" "$(q "$DB" "select kind, cause, flags from spans where flags & 1")" \
    "nic.rx|net.device|1
nic.rx|net.device|1"
eq "trace spans count" "$(q "$DB" "select sum(spans) from traces")" 252
eq "trace latency = last end - first start" "$(q "$DB" "select count(*) from traces t where dur_ps != (select max(end_ps) - min(start_ps) from spans where trace = t.id)")" 0
eq "links: server syscall -> previous rx" "$(q "$DB" "select count(*) from links l join spans s on s.id = l.span join spans x on x.id = l.target where s.kind = 'host.syscall' and s.stream = 'server' and x.kind = 'nic.rx' and x.id < s.id and l.kind = 'nic.rx'")" 13
eq "link target trace id matches" "$(q "$DB" "select count(*) from links l join spans x on x.id = l.target join traces t on t.id = x.trace where t.trace_id = l.target_trace_id and x.span_id = l.target_span_id")" 13
eq "attribute rows, one per span" "$(q "$DB" "select (select count(*) from attr_nic_dma) || ' ' || (select count(*) from attr_net_device) || ' ' || (select count(*) from attr_host_syscall)")" "42 56 28"
eq "no attributes without a column" "$(q "$DB" "select count(*) from spans where extra is not null")" 0
eq "typed attributes" "$(q "$DB" "select write, op, addr, len from nic_dma order by id limit 1")" \
    "0|94465281163264|4297326688|16"
eq "net.device view" "$(q "$DB" "select devtype, boundary, ip_src, ip_dst, ip_proto from net_device order by id limit 1")" \
    "CosimNetDevice|from_adapter|192.168.64.1|192.168.64.2|17"
eq "syscall strings" "$(q "$DB" "select call, kernel_tx, driver_rx from host_syscall order by id limit 2")" \
    "__sys_sendto|1|0
__sys_recvfrom|0|1"
eq "trace ids are 32 hex digits" "$(q "$DB" "select count(*) from traces where length(trace_id) = 32 and trace_id not glob '*[^0-9a-f]*'")" 16
eq "schema version" "$(q "$DB" "pragma user_version")" 2
eq "application id" "$(q "$DB" "pragma application_id")" 1397968979
eq "indexes created" "$(q "$DB" "select count(*) from sqlite_schema where type = 'index' and name in ('spans_trace', 'spans_parent', 'spans_kind', 'spans_stream')")" 4
eq "integrity" "$(q "$DB" "pragma integrity_check")" ok

# --- views on a hand-checkable input ----------------------------------------
# Request 0 (trace 1): the split worked out by hand from mkspans' timings.
eq "trace 1 split by stream" "$(q "$DB" "select group_concat(stream || '=' || busy_ps, ' ') from trace_streams where trace = 1")" \
    "client=64000 client-nic=2004000 net=46000 server-nic=1002000 server=5500"
eq "trace 1 busy and idle" "$(q "$DB" "select dur_ps, busy_ps, idle_ps from traces where id = 1")" "6158500|3116500|3042000"
eq "trace 1 split by kind" "$(q "$DB" "select busy_ps, spans from trace_kinds where trace = 1 and kind = 'nic.dma'")" "3006000|3"
eq "trace 1 shares" "$(q "$DB" "select printf('%.6f', share) from trace_streams where trace = 1 and stream = 'net'")" 0.007469
eq "orphans view" "$(q "$DB" "select * from orphans")" "1|nic.rx|net.device|2"
eq "span_kinds view" "$(q "$DB" "select spans, total_ps, min_ps, max_ps from span_kinds where kind = 'nic.dma'")" "42|42084000|1002000|1002000"
# Idle: 3042000 ps in the 12 complete requests, 1474000 ps in the 2 whose
# rx was orphaned (their trace ends in the network).
eq "split_streams idle row" "$(q "$DB" "select traces, printf('%.1f', avg_busy_ps) from split_streams where root_kind = 'host.syscall' and stream is null")" \
    "14|$(((12 * 3042000 + 2 * 1474000) / 14)).0"

# Latency percentiles, nearest rank, computed here from mkspans' timings:
# request i's trace lasts 6158500 ps + its queueing delay, or 3584000 ps +
# delay when its rx was orphaned (i % 7 == 6); the orphaned rx traces last
# 1557500 ps.
JDB=$T/j.db
check "load mkspans -j" span2sqlite "$JDB" "$T/j.sp"
awk 'BEGIN {
	n = 0
	for (i = 0; i < 14; i++) {
		d = ((i * 7919) % 97) * 50000
		v[++n] = (i % 7 == 6 ? 3584000 : 6158500) + d
		s += v[n]
	}
	for (i = 1; i <= n; i++) for (k = i + 1; k <= n; k++)
		if (v[k] < v[i]) { t = v[i]; v[i] = v[k]; v[k] = t }
	split("50 90 99", p, " ")
	out = "1|host.syscall|" n "|" v[1] "|" sprintf("%.1f", s / n)
	for (j = 1; j <= 3; j++) {
		r = int((p[j] * n + 99) / 100)
		out = out "|" v[r]
	}
	print out "|" v[n]
}' > "$T/want-latency"
eq "latency view (host.syscall)" "$(q "$JDB" "select run, root_kind, traces, min_ps, printf('%.1f', avg_ps), p50_ps, p90_ps, p99_ps, max_ps from latency where root_kind = 'host.syscall'")" \
    "$(cat "$T/want-latency")"
eq "latency view (orphaned rx)" "$(q "$JDB" "select traces, p50_ps, p99_ps from latency where root_kind = 'nic.rx'")" "2|1557500|1557500"
# Latency and splits are consistent: busy + idle = latency, and the idle
# time with jitter is still the fixed wire and link time.
eq "busy + idle = latency" "$(q "$JDB" "select count(*) from traces where busy_ps + idle_ps != dur_ps")" 0
eq "split_streams sums" "$(q "$JDB" "select printf('%.4f', (select sum(busy_ps) from trace_streams where root_kind = 'host.syscall' and stream = 'net') * 1.0 / (select sum(dur_ps) from traces where root_kind = 'host.syscall')) = printf('%.4f', share) from split_streams where root_kind = 'host.syscall' and stream = 'net'")" 1

# --- append a second run ----------------------------------------------------
check "append a second run (default name)" span2sqlite -v "$DB" "$T/a.sp"
stderr_has "rows written directly"
# the run written directly into a file of its own, and with INSERTs, then
# merged through SQLite: the same rows and index contents
check "append --insert" span2sqlite --insert -v "$T/ins.db" "$T/a.sp"
stderr_has "rows inserted"
for t in streams traces spans links attr_host_syscall attr_net_device \
    latency split_streams orphans; do
	eq "append: table $t as with --insert" \
	    "$(q "$T/ins.db" "select * from $t order by 1, 2" | md5sum)" \
	    "$(q "$DB" "select * from $t order by 1, 2" | md5sum)"
done
eq "append: index spans_kind as with --insert" \
    "$(q "$T/ins.db" "select kind, run, dur_ps, id from spans indexed by spans_kind where kind > ''" | md5sum)" \
    "$(q "$DB" "select kind, run, dur_ps, id from spans indexed by spans_kind where kind > ''" | md5sum)"
eq "two runs" "$(q "$DB" "select count(*) from runs")" 2
name=$(q "$DB" "select name from runs where id = 2")
case $name in
a.sp@[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z) ok "default run name '$name'";;
*) not_ok "default run name '$name'";;
esac
eq "runs kept apart" "$(q "$DB" "select run, count(*), count(distinct trace) from spans group by run")" \
    "1|252|16
2|252|16"
eq "parents stay in their run" "$(q "$DB" "select count(*) from spans c join spans p on p.id = c.parent where p.run != c.run")" 0
eq "second run parents resolve" "$(q "$DB" "select count(*) from spans c join spans p on p.id = c.parent where c.run = 2")" 236
eq "links stay in their run" "$(q "$DB" "select count(*) from links l join spans s on s.id = l.target where s.run != l.run")" 0
eq "latency per run" "$(q "$DB" "select run, root_kind, traces from latency order by 1, 2")" \
    "1|host.syscall|14
1|nic.rx|2
2|host.syscall|14
2|nic.rx|2"
eq "integrity after append" "$(q "$DB" "pragma integrity_check")" ok
check "append a third run, same second" span2sqlite "$DB" "$T/a.sp"
eq "default names made unique" "$(q "$DB" "select count(distinct name) from runs")" 3
cp "$DB" "$T/before.db"
expect_rc 1 "an existing run name is refused" span2sqlite --run first "$DB" "$T/a.sp"
stderr_has "a run named 'first' already exists"
no_tmp_name "a run name taken"
check "database unchanged after refusal" cmp "$DB" "$T/before.db"
no_temp "$T"

# Concurrent appends to one database take turns (SQLite's lock): neither
# run is lost.
before=$(q "$DB" "select count(*) from runs")
span2sqlite --run par1 "$DB" "$T/j.sp" & p1=$!
span2sqlite --run par2 "$DB" "$T/j.sp" & p2=$!
set +e; wait $p1; r1=$?; wait $p2; r2=$?; set -e
eq "two concurrent appends succeed" "$r1 $r2" "0 0"
eq "both runs are there" "$(q "$DB" "select count(*) from runs where name in ('par1', 'par2')")" 2
eq "run count" "$(q "$DB" "select count(*) from runs")" $((before + 2))
cp "$DB" "$T/before.db"

# --- bad input leaves the database alone --------------------------------------
size=$(wc -c < "$T/a.sp")
head -c $((size / 2)) "$T/a.sp" > "$T/trunc.sp"
expect_rc 1 "truncated span stream: exit 1" span2sqlite "$DB" "$T/trunc.sp"
stderr_has "trunc.sp: offset"
stderr_has "truncated"
check "database byte-identical after truncated input" cmp "$DB" "$T/before.db"
no_temp "$T"
# A flipped byte in the middle: the block checksum catches it.
cp "$T/a.sp" "$T/corrupt.sp"
printf '\377' | dd of="$T/corrupt.sp" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect_rc 1 "corrupt span stream: exit 1" span2sqlite "$DB" "$T/corrupt.sp"
stderr_has "corrupt.sp: offset"
check "database byte-identical after corrupt input" cmp "$DB" "$T/before.db"
printf 'not spans' > "$T/garbage"
expect_rc 1 "not a span stream: exit 1" span2sqlite "$DB" "$T/garbage"
stderr_has "garbage: offset 0"
: > "$T/empty"
expect_rc 1 "empty input: exit 1" span2sqlite "$DB" "$T/empty"
expect_rc 1 "missing input: exit 1" span2sqlite "$DB" "$T/nonexistent.sp"
stderr_has "nonexistent.sp"
check "database byte-identical after bad inputs" cmp "$DB" "$T/before.db"
expect_rc 1 "bad input into a new database" span2sqlite "$T/new.db" "$T/trunc.sp"
[ ! -e "$T/new.db" ] && ok "no database created from bad input" || not_ok "no database created from bad input"
no_temp "$T"

# A signal while loading: the process dies of it, the database is left
# alone and the temporary file removed.  The input is a FIFO whose writer
# stalls after half the stream.
mkfifo "$T/fifo"
( head -c $((size / 2)) "$T/a.sp"; exec sleep 30 ) > "$T/fifo" &
writer=$!
span2sqlite "$DB" "$T/fifo" 2>/dev/null &
loader=$!
n=0
until ls "$T" | grep -q '\.tmp' || [ $n -ge 300 ]; do sleep 0.1; n=$((n + 1)); done
kill -TERM $loader
set +e; wait $loader 2>/dev/null; rc=$?; set -e
kill $writer 2>/dev/null || true
wait $writer 2>/dev/null || true
eq "killed by SIGTERM while loading" "$rc" 143
check "database byte-identical after SIGTERM" cmp "$DB" "$T/before.db"
no_temp "$T"

# --- databases that are not ours ----------------------------------------------
q "$T/other.db" "create table t(x); insert into t values (1)"
cp "$T/other.db" "$T/other.copy"
expect_rc 1 "another SQLite database is refused" span2sqlite "$T/other.db" "$T/a.sp"
stderr_has "not a simspan database"
check "other database unchanged" cmp "$T/other.db" "$T/other.copy"
printf 'plain text\n' > "$T/text.db"
expect_rc 1 "a non-database file is refused" span2sqlite "$T/text.db" "$T/a.sp"
stderr_has "text.db"
q "$T/newer.db" "pragma application_id = 1397968979; pragma user_version = 99; create table t(x)"
expect_rc 1 "a newer schema version is refused" span2sqlite "$T/newer.db" "$T/a.sp"
stderr_has "schema version 99"
: > "$T/zero.db"
check "an empty file becomes a database" span2sqlite "$T/zero.db" "$T/a.sp"
eq "empty file loaded" "$(q "$T/zero.db" "select count(*) from spans")" 252
# A WAL database is appended to through SQLite as any other: it stays in
# WAL mode, and nothing is renamed over it.
span2sqlite "$T/wal.db" "$T/a.sp"
q "$T/wal.db" "pragma journal_mode = wal" > /dev/null
check "a WAL database is appended to" span2sqlite "$T/wal.db" "$T/a.sp"
eq "WAL database appended to, still WAL" "$(q "$T/wal.db" "pragma journal_mode; pragma integrity_check; select count(*) from runs")" "wal
ok
2"
q "$T/wal.db" "pragma journal_mode = delete" > /dev/null
# A writer that holds the database locked mid-transaction: the append
# waits for SQLite's lock (up to 60 s), then goes in; the writer's
# rollback is not undone.  (Whenever the writer lets go, before or after
# span2sqlite reaches the lock, the outcome is the same.)
cp "$T/wal.db" "$T/locked.db"
{	# the writer holds its lock until $T/go exists
	printf 'BEGIN EXCLUSIVE;\nDELETE FROM run_meta;\n'
	n=0
	until [ -e "$T/go" ] || [ $n -ge 600 ]; do sleep 0.05; n=$((n + 1)); done
	printf 'ROLLBACK;\n'
} | q "$T/locked.db" > /dev/null 2>&1 &
holder=$!
n=0
until [ -e "$T/locked.db-journal" ] || [ $n -ge 200 ]; do sleep 0.05; n=$((n + 1)); done
span2sqlite --run after-lock "$T/locked.db" "$T/a.sp" 2>"$T/lock.err" & waiter=$!
sleep 1
: > "$T/go"
wait $holder || true
set +e; wait $waiter; rc=$?; set -e
eq "an append waits for a writer's lock" "$rc" 0
eq "the writer's rollback kept, the run added" "$(q "$T/locked.db" "select count(*) > 0 from run_meta where run = 1; select name from runs where id = 3; pragma integrity_check")" "1
after-lock
ok"
# A database of a legacy schema format (1 to 3 in its header,
# fileformat2.html 1.3: 0 and 1 stored with a byte of body) is appended to
# by SQLite itself (the run is written directly into a file of its own).
# SQLite writes format 4; the byte is patched, and SQLite still reads the
# file.
for fmt in 1 3; do
	span2sqlite "$T/fmt$fmt.db" "$T/a.sp"
	printf "\\00$fmt" | dd of="$T/fmt$fmt.db" bs=1 seek=47 conv=notrunc 2>/dev/null
	eq "schema format $fmt patched, still read" "$(od -An -tu1 -j44 -N4 "$T/fmt$fmt.db" | tr -s ' ')
$(q "$T/fmt$fmt.db" "pragma integrity_check; select count(*) from spans")" " 0 0 0 $fmt
ok
252"
	cp "$T/fmt$fmt.db" "$T/fmt${fmt}ins.db"
	check "schema format $fmt: appended" span2sqlite -v "$T/fmt$fmt.db" "$T/a.sp"
	check "schema format $fmt: appended (--insert)" span2sqlite -i "$T/fmt${fmt}ins.db" "$T/a.sp"
	for t in spans links traces; do
		eq "schema format $fmt appended: $t as with --insert" \
		    "$(q "$T/fmt${fmt}ins.db" "select * from $t order by id" | md5sum)" \
		    "$(q "$T/fmt$fmt.db" "select * from $t order by id" | md5sum)"
	done
	eq "schema format $fmt appended: kept, intact" "$(od -An -tu1 -j44 -N4 "$T/fmt$fmt.db" | tr -s ' ')
$(q "$T/fmt$fmt.db" "pragma integrity_check; select count(*) from spans")" " 0 0 0 $fmt
ok
504"
done
# A schema version 1 database: the copy is upgraded (formats/sqlite.md, 1).
span2sqlite "$T/v1.db" "$T/a.sp"
q "$T/v1.db" "drop view host_irq; drop view host_softirq; drop view host_resume;
    drop view host_app; drop table attr_host_irq; drop table attr_host_softirq;
    drop table attr_host_resume; drop table attr_host_app; pragma user_version = 1"
cp "$T/v1.db" "$T/v1ins.db"
check "a version 1 database is appended to" span2sqlite -v "$T/v1.db" "$T/a.sp"
stderr_has "rows written directly"
check "a version 1 database is appended to (--insert)" span2sqlite -i "$T/v1ins.db" "$T/a.sp"
eq "version 1 appended: spans as with --insert" \
    "$(q "$T/v1ins.db" "select * from spans order by id" | md5sum)" \
    "$(q "$T/v1.db" "select * from spans order by id" | md5sum)"
eq "version 1 upgraded to 2" "$(q "$T/v1.db" "pragma user_version; pragma integrity_check; select count(*) from spans; select count(*) from host_irq")" "2
ok
504
0"
mkdir "$T/dir.db"
expect_rc 1 "a directory as database: exit 1" span2sqlite "$T/dir.db" "$T/a.sp"
no_temp "$T"

# --- appends through SQLite: damage, UNIQUE indexes, other writers ---------------
# Two bytes of damage in an index page (the cell count of the root of
# spans_trace, which every append writes to): refused with SQLite's word
# for it and the file's name, exit 1, never a signal; the file as it was.
span2sqlite "$T/dmg.db" "$T/a.sp"
root=$(q "$T/dmg.db" "select rootpage from sqlite_schema where name = 'spans_trace'")
psz=$(q "$T/dmg.db" "pragma page_size")
printf '\377\377' | dd of="$T/dmg.db" bs=1 seek=$(( (root - 1) * psz + 3 )) conv=notrunc 2>/dev/null
cp "$T/dmg.db" "$T/dmg.copy"
expect_rc 1 "a damaged index page: exit 1" span2sqlite "$T/dmg.db" "$T/a.sp"
stderr_has "dmg.db: database disk image is malformed"
stderr_has "integrity_check"
no_tmp_name "damaged database"
check "damaged database unchanged" cmp "$T/dmg.db" "$T/dmg.copy"
no_temp "$T"
# A UNIQUE index of the user's: an append that would break it is refused
# (the database unchanged and whole); one that keeps it goes in, and
# integrity_check stays ok.
span2sqlite "$T/uniq.db" "$T/a.sp"
q "$T/uniq.db" "create unique index by_span_id on spans(span_id)"
cp "$T/uniq.db" "$T/uniq.copy"
expect_rc 1 "an append that breaks a user's UNIQUE index is refused" span2sqlite "$T/uniq.db" "$T/a.sp"
stderr_has "UNIQUE constraint failed: spans.span_id"
no_tmp_name "UNIQUE index"
check "database unchanged" cmp "$T/uniq.db" "$T/uniq.copy"
eq "integrity after the refusal" "$(q "$T/uniq.db" "pragma integrity_check")" ok
q "$T/uniq.db" "drop index by_span_id; create unique index by_run_span on spans(run, span_id)"
check "an append that keeps a user's UNIQUE index" span2sqlite "$T/uniq.db" "$T/a.sp"
eq "integrity after the append" "$(q "$T/uniq.db" "pragma integrity_check; select count(*) from runs")" "ok
2"
# Another client commits while span2sqlite appends (its input stalled half
# way, so the commit falls between its start and its merge): both changes
# are there, three rounds.  The stall is a gate, not a sleep.
span2sqlite "$T/conc.db" "$T/a.sp"
for round in 1 2 3; do
	rm -f "$T/feed" "$T/gate"
	mkfifo "$T/feed" "$T/gate"
	{ head -c $((size / 2)) "$T/a.sp"; read -r _ < "$T/gate"; tail -c +$((size / 2 + 1)) "$T/a.sp"; } > "$T/feed" &
	feeder=$!
	span2sqlite --run "conc$round" "$T/conc.db" "$T/feed" 2>"$T/conc.err" & loader=$!
	n=0	# its run's file next to the database: it is under way
	until ls "$T" | grep -q '^conc\.db\.tmp' || [ $n -ge 300 ]; do sleep 0.1; n=$((n + 1)); done
	q "$T/conc.db" "insert into run_meta(run, key, value) values (1, 'note', 'round $round')"
	echo go > "$T/gate"
	set +e; wait $loader; rc=$?; wait $feeder; set -e
	eq "round $round: the append succeeds" "$rc" 0
	eq "round $round: the other client's commit is kept" \
	    "$(q "$T/conc.db" "select count(*) from run_meta where key = 'note' and value = 'round $round'")" 1
	eq "round $round: the run is there" "$(q "$T/conc.db" "select count(*) from runs where name = 'conc$round'")" 1
done
eq "after three rounds" "$(q "$T/conc.db" "pragma integrity_check; select count(*) from runs; select count(*) from run_meta where key = 'note'")" "ok
4
3"
rm -f "$T/feed" "$T/gate"
no_temp "$T"
# A FIFO (or a device, or a directory) given as the database is no file to
# write: exit 1 at once, no wait for a writer at its other end.
mkfifo "$T/pipe.db"
expect_rc 1 "a FIFO as the database: exit 1" timeout 20 span2sqlite "$T/pipe.db" "$T/a.sp"
stderr_has "pipe.db: not a regular file"
expect_rc 1 "/dev/null as the database: exit 1" span2sqlite /dev/null "$T/a.sp"
stderr_has "/dev/null: not a regular file"
[ -p "$T/pipe.db" ] && ok "the FIFO is left alone" || not_ok "the FIFO is left alone"
rm -f "$T/pipe.db"
# A few thousand spans in 150 MB of address space: the caches start small
# (not under the sanitizers, which reserve terabytes).
if ldd "$SSP_BIN/span2sqlite" 2>/dev/null | grep -q 'libasan\|libubsan' ||
    nm "$SSP_BIN/span2sqlite" 2>/dev/null | grep -q '__asan_init'; then
	ok "# SKIP ulimit -v (a sanitizer build)"
else
	mkspans -n 200 -o "$T/k.sp"
	check "3,600 spans under ulimit -v 150000" sh -c "ulimit -v 150000 && span2sqlite -v '$T/k.db' '$T/k.sp'"
	stderr_has "3600 spans"
	check "appended under ulimit -v 150000" sh -c "ulimit -v 150000 && span2sqlite '$T/k.db' '$T/k.sp'"
	eq "two runs" "$(q "$T/k.db" "select count(*) from spans; pragma integrity_check")" "7200
ok"
	# 360k spans do not fit: the error says what the load reserves
	mkspans -n 20000 -o "$T/big.sp"
	expect_rc 1 "360,000 spans under ulimit -v 150000" sh -c "ulimit -v 150000 && span2sqlite '$T/big.db' '$T/big.sp'"
	stderr_has "is ulimit -v lower?"
	[ ! -e "$T/big.db" ] && ok "no database left behind" || not_ok "no database left behind"
fi

# --- unwritable places ----------------------------------------------------------
expect_rc 1 "directory does not exist: exit 1" span2sqlite "$T/nodir/x.db" "$T/a.sp"
stderr_has "nodir"
expect_rc 1 "unwritable directory (/proc): exit 1" span2sqlite /proc/x.db "$T/a.sp"
stderr_has "/proc/x.db"
mkdir "$T/ro"
chmod 555 "$T/ro"
if ! touch "$T/ro/probe" 2>/dev/null; then
	expect_rc 1 "read-only directory: exit 1" span2sqlite "$T/ro/x.db" "$T/a.sp"
	stderr_has "Permission denied"
else
	rm -f "$T/ro/probe"; ok "# SKIP read-only directory (running as root)"
fi
chmod 755 "$T/ro"

# --- events, stdin, zstd, symbolic links ------------------------------------------
check "without --events" span2sqlite -v "$T/ne.db" "$T/e.sp"
stderr_has "154 events skipped (no --events)"
eq "no events loaded" "$(q "$T/ne.db" "select count(*) from events")" 0
check "--events" span2sqlite --events "$T/ev.db" "$T/e.sp"
eq "events: 11 per request" "$(q "$T/ev.db" "select count(*), count(span), (select events from runs) from events")" "154|154|154"
eq "event of a DMA span" "$(q "$T/ev.db" "select e.type, e.stream, e.attrs ->> 'len' from events e join spans s on s.id = e.span where s.kind = 'nic.dma' order by e.id limit 1")" \
    "nic_dma_issue|client-nic|16"
eq "events of a span in time order" "$(q "$T/ev.db" "select group_concat(type, ' ') from (select type from events where span = 1 order by ts_ps)")" "func func"
eq "same spans with and without --events" "$(q "$T/ev.db" "select count(*) from spans")" 252

span2sqlite "$T/stdin.db" < "$T/a.sp" && ok "stdin by default" || not_ok "stdin by default"
span2sqlite "$T/dash.db" - < "$T/a.sp" && ok "- is stdin" || not_ok "- is stdin"
eq "stdin run source" "$(q "$T/dash.db" "select source, name like 'stdin@%' from runs")" "-|1"
check "zstd input" span2sqlite "$T/zst.db" "$T/a.sp.zst"
dump() { q "$1" "select kind, stream, start_ps, dur_ps, parent, flags, cause from spans order by id"; }
eq "zstd and plain inputs load the same" "$(dump "$T/zst.db" | cksum)" "$(dump "$T/stdin.db" | cksum)"
eq "stdin and file inputs load the same" "$(dump "$T/stdin.db" | cksum)" "$(dump "$DB" | head -252 | cksum)"

ln -s a.db "$T/link.db"
check "append through a symbolic link" span2sqlite "$T/link.db" "$T/a.sp"
[ -L "$T/link.db" ] && ok "the link stays a link" || not_ok "the link stays a link"
eq "its target got the run" "$(q "$DB" "select count(*) from runs")" 6

# --- the examples of span2sqlite(1) -------------------------------------------
# (the pipeline example reads standard input, tested above with mkspans)
cd "$T"
zstd -q -f -o spans.sp.zst j.sp
cp spans.sp.zst spans-no-tso.sp.zst
check "example: first run" span2sqlite -v --run baseline results.db spans.sp.zst
stderr_has "run 1 'baseline' from spans.sp.zst"
check "example: second run" span2sqlite --run no-tso results.db spans-no-tso.sp.zst
eq "example: two runs" "$(q results.db "select group_concat(name, ' ') from runs")" "baseline no-tso"
mkspans -j -n 14 | span2sqlite spans.db
check "example: latency" sqlite3 -column -header spans.db \
    'SELECT root_kind, traces, p50_ps / 1e6 AS p50_us,
            p99_ps / 1e6 AS p99_us FROM latency'
stdout_has "root_kind"
stdout_has "host.syscall  14"
check "example: split by simulator" sqlite3 -column -header spans.db \
    "SELECT ifnull(stream, '(idle)') AS stream,
            round(100 * share, 1) AS pct
     FROM split_streams WHERE root_kind = 'host.syscall'
     ORDER BY share DESC"
eq "example: six rows, idle among them" "$(grep -c . "$T/.out") $(grep -c '(idle)' "$T/.out")" "8 1"
check "example: causal chain" sqlite3 -column -header spans.db "
    WITH RECURSIVE up(depth, id, kind, stream, parent) AS (
      SELECT 0, id, kind, stream, parent FROM spans
      WHERE id = (SELECT s.id FROM traces AS t JOIN spans AS s
                  ON s.trace = t.id ORDER BY t.dur_ps DESC,
                  s.end_ps DESC LIMIT 1)
      UNION ALL
      SELECT depth + 1, s.id, s.kind, s.stream, s.parent
      FROM spans AS s JOIN up ON s.id = up.parent)
    SELECT depth, id, kind, stream FROM up"
eq "example: chain from server syscall to client syscall" \
    "$(sed -n '3p;$p' "$T/.out" | awk '{print $1, $3, $4}' | tr '\n' ' ')" \
    "0 host.syscall server 9 host.syscall client "
cd - >/dev/null

# --- file modes ---------------------------------------------------------------------
chmod 640 "$DB"
check "append keeps the file mode" span2sqlite "$DB" "$T/a.sp"
eq "mode kept" "$(stat -c %a "$DB")" 640
(umask 027; span2sqlite "$T/um.db" "$T/a.sp")
eq "new database honours the umask" "$(stat -c %a "$T/um.db")" 640

done_testing
