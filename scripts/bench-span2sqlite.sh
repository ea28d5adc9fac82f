#!/bin/sh
# Benchmark span2sqlite on mkspans output (N requests, 18 spans each) into a
# fresh file, against a baseline measured in the same run: the sqlite3 CLI
# importing the same rows (spans and attr_* tables, exported as CSV) with the
# same pragmas, then building the same indexes.  Each side runs REPEAT times;
# best and median are printed.  The machine is shared: compare the two
# sides, not absolute numbers across runs.
#
#   SSP_BIN=build/bin SSP_HELPERS=build/tests/helpers sh scripts/bench-span2sqlite.sh
#   N=200000 REPEAT=3 (defaults)
set -eu
: "${SSP_BIN:?SSP_BIN must name the directory with span2sqlite}"
: "${SSP_HELPERS:?SSP_HELPERS must name the directory with mkspans}"
N=${N:-200000}
REPEAT=${REPEAT:-3}
W=$(mktemp -d "${TMPDIR:-/tmp}/ssp-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
LC_ALL=C
export LC_ALL

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l | sed 's/^\./0./'; }
# best and median of the numbers on stdin
stats() { sort -n | awk '{ v[NR] = $1 } END { printf "best %.2f s, median %.2f s", v[1], v[int((NR + 1) / 2)] }'; }

"$SSP_HELPERS/mkspans" -j -n "$N" -o "$W/spans.sp"
bytes=$(wc -c < "$W/spans.sp")
echo "input: mkspans -j -n $N, $(echo "$bytes / 1048576" | bc) MiB"

# --- span2sqlite ---------------------------------------------------------------
: > "$W/s2s.load"
: > "$W/s2s.total"
i=0
while [ $i -lt "$REPEAT" ]; do
	rm -f "$W/s.db"
	sync
	t0=$(now)
	"$SSP_BIN/span2sqlite" -v "$W/s.db" "$W/spans.sp" 2> "$W/s2s.err"
	t1=$(now)
	spans=$(sed -n 's/.*: \([0-9]*\) spans, .*/\1/p' "$W/s2s.err")
	sed -n 's/.*: \([0-9.]*\) s load .*/\1/p' "$W/s2s.err" >> "$W/s2s.load"
	secs "$t0" "$t1" >> "$W/s2s.total"
	i=$((i + 1))
done
dbmb=$(($(wc -c < "$W/s.db") / 1048576))
load=$(sort -n "$W/s2s.load" | head -1)
total=$(sort -n "$W/s2s.total" | head -1)
echo "span2sqlite: $spans spans into a new $dbmb MiB database"
echo "  load (read, insert, splits): $(stats < "$W/s2s.load")" \
    "= $(echo "$spans / $load" | bc) spans/s best"
echo "  whole run (+ indexes, fsync, rename): $(stats < "$W/s2s.total")" \
    "= $(echo "$spans / $total" | bc) spans/s best"

# --- baseline: sqlite3 importing the same rows from CSV ----------------------------
tables="spans $(sqlite3 "$W/s.db" "SELECT group_concat(name, ' ') FROM sqlite_schema WHERE type = 'table' AND name LIKE 'attr_%'")"
rows=0
for t in $tables; do
	# stored columns only (no generated ones), so .import fills them in order
	cols=$(sqlite3 "$W/s.db" "SELECT group_concat(name, ', ') FROM pragma_table_info('$t')")
	sqlite3 -batch -csv "$W/s.db" "SELECT $cols FROM $t" > "$W/$t.csv"
	rows=$((rows + $(wc -l < "$W/$t.csv")))
	sqlite3 "$W/s.db" "SELECT 'CREATE TABLE $t (' || group_concat(name || ' ' ||
	    type || CASE WHEN pk THEN ' PRIMARY KEY' ELSE '' END, ', ') || ');'
	    FROM pragma_table_info('$t')" >> "$W/base.sql"
done
csvmb=$(($(cat "$W"/*.csv | wc -c) / 1048576))
sqlite3 "$W/s.db" "SELECT sql || ';' FROM sqlite_schema WHERE type = 'index' AND name LIKE 'spans_%' AND sql IS NOT NULL" > "$W/index.sql"
{
	echo "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
	echo "PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536;"
	echo ".read $W/base.sql"
	echo "BEGIN;"
	for t in $tables; do echo ".import --csv $W/$t.csv $t"; done
	echo "COMMIT;"
} > "$W/import.cmd"
: > "$W/base.load"
: > "$W/base.index"
i=0
while [ $i -lt "$REPEAT" ]; do
	rm -f "$W/b.db"
	sync
	t0=$(now)
	sqlite3 -batch "$W/b.db" < "$W/import.cmd" > /dev/null
	t1=$(now)
	sqlite3 -batch "$W/b.db" "PRAGMA cache_size = -65536; BEGIN; $(cat "$W/index.sql") COMMIT;"
	t2=$(now)
	secs "$t0" "$t1" >> "$W/base.load"
	secs "$t1" "$t2" >> "$W/base.index"
	i=$((i + 1))
done
got=$(sqlite3 "$W/b.db" "SELECT count(*) FROM spans")
[ "$got" -eq "$spans" ] || { echo "baseline imported $got spans, expected $spans" >&2; exit 1; }
bload=$(sort -n "$W/base.load" | head -1)
echo "baseline: sqlite3 .import of the same $rows rows (spans + attr_*, $csvmb MiB of CSV)"
echo "  import: $(stats < "$W/base.load") = $(echo "$spans / $bload" | bc) spans/s best"
echo "  + the same $(grep -c . "$W/index.sql") spans indexes: $(stats < "$W/base.index")"
