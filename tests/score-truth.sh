#!/bin/sh
# score-truth.sh: compare the spans a span builder made with the truth of a
# simsynth scenario (formats/truth.md), span by span, with sqlite3.
#
# usage: score-truth.sh [-qr] [-n name,name,...] [-t topology.csv] truth.csv spans.csv
#
# spans.csv is a span stream dumped as CSV (ssp_dump columns: ts, type,
# span, parent, stream, dur, ..., attributes; link records have type
# "link", span and target).  Stream names by index come from
# "# stream: <name> <simulator>" comment lines at its top, else from -n
# (comma-separated, index order), else from the stream rows of -t.
#
# Prints, per span kind: truth spans matched/missing, extra spans, parents
# right/wrong/orphaned (a root where the truth has a parent), links
# right/missing/extra.  Truth rows marked ambiguous (the column of
# --kernel linux truth files: the logs cannot carry the information) are
# left out of that table and of the exit status, and summed up on their
# own "ambiguous" line.  host.irq, host.softirq, host.resume and host.app
# spans are keyed by the CPU index taken from their cpu attribute (the
# trailing number of the CPU's name, 0 when none), as the truth keys them.
# -r also counts as right a parent that SPEC §3's
# heuristics give (rule_parent_id).  -q prints only the header and the
# total line; -v
# also lists the first mismatches of each sort (-v -v: all of them).
# Exit status: 0 everything matched, 1 something did not, 2 bad usage or
# unreadable input.
set -u
LC_ALL=C
export LC_ALL

usage() {
	echo "usage: score-truth.sh [-qrv] [-n name,...] [-t topology.csv] truth.csv spans.csv" >&2
	exit 2
}

help() { sed -n '2,/^set -u/p' "$0" | sed -e 's/^# \{0,1\}//' -e '/^set -u/d'; exit 0; }
quiet=0 rule=0 verbose=0 names="" topo=""
# getopts knows no long options: --help before it
for a in "$@"; do
	case $a in
	--help) help ;;
	--) break ;;
	esac
done
while getopts "hn:qrt:v" opt; do
	case $opt in
	h) help ;;
	n) names=$OPTARG ;;
	q) quiet=1 ;;
	r) rule=1 ;;
	t) topo=$OPTARG ;;
	v) verbose=$((verbose + 1)) ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
truth=$1 spans=$2
command -v sqlite3 >/dev/null 2>&1 || { echo "score-truth.sh: sqlite3 not found" >&2; exit 2; }
for f in "$truth" "$spans" ${topo:+"$topo"}; do
	[ -r "$f" ] || { echo "score-truth.sh: $f: cannot read" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/score-truth.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
# zstd-compressed inputs (the committed samples keep their truth so)
unz() {	# unz FILE NAME: print the path to read FILE from
	case $1 in
	*.zst)	zstd -q -d -c -- "$1" >"$tmp/$2" 2>"$tmp/zerr" ||
			{ echo "score-truth.sh: $1: $(cat "$tmp/zerr")" >&2; exit 2; }
		echo "$tmp/$2" ;;
	*)	echo "$1" ;;
	esac
}
truth=$(unz "$truth" truth.in) || exit 2
spans=$(unz "$spans" spans.in) || exit 2
head -n 1 "$truth" | tr -d '\r"' | grep -q '^id,stream,kind,start_ps,key,parent_id,links' ||
	{ echo "score-truth.sh: $1: not a truth file (header)" >&2; exit 2; }

# Stream names: comments of the dump, -n, or the topology's stream rows.
sed -n 's/^# stream: \([^ ]*\) .*/\1/p' "$spans" >"$tmp/names"
if [ ! -s "$tmp/names" ] && [ -n "$names" ]; then
	echo "$names" | tr ',' '\n' >"$tmp/names"
fi
if [ ! -s "$tmp/names" ] && [ -n "$topo" ]; then
	grep -v '^#' "$topo" | tr -d '"\r' | awk -F, '$1 == "stream" { print $2 }' >"$tmp/names"
fi
[ -s "$tmp/names" ] || { echo "score-truth.sh: $2: no stream names (no '# stream:' lines; give -n or -t)" >&2; exit 2; }
grep -v '^#' "$spans" >"$tmp/spans.csv"
head -n 1 "$tmp/spans.csv" | tr -d '"\r' | grep -q '^ts,type,' ||
	{ echo "score-truth.sh: $2: not a span CSV dump (header)" >&2; exit 2; }
# columns a dump or a truth file may lack
addcpu="" amb="'0'"
head -n 1 "$tmp/spans.csv" | tr -d '"\r' | tr ',' '\n' | grep -qx cpu ||
	addcpu="ALTER TABLE raw ADD COLUMN cpu TEXT;"
head -n 1 "$truth" | tr -d '"\r' | tr ',' '\n' | grep -qx ambiguous &&
	amb="coalesce(nullif(ambiguous, ''), '0')"
awk '{ printf "%d,%s\n", NR - 1, $0 }' "$tmp/names" >"$tmp/names.csv"
limit=$([ "$verbose" -ge 2 ] && echo -1 || echo 20)

sqlite3 -batch -bail >"$tmp/out" 2>"$tmp/err" <<EOF
CREATE TABLE names(idx INTEGER PRIMARY KEY, name TEXT);
.import --csv "$tmp/names.csv" names
.import --csv "$truth" truth_raw
CREATE TABLE truth_all(id TEXT, stream TEXT, kind TEXT, start_ps INTEGER,
    key TEXT, parent_id TEXT, links TEXT, rule_parent_id TEXT, amb TEXT);
INSERT INTO truth_all SELECT id, stream, kind, CAST(start_ps AS INTEGER), key,
    nullif(parent_id, ''), links, nullif(rule_parent_id, ''), $amb FROM truth_raw;
CREATE INDEX truth_all_id ON truth_all(id);
-- the rows scored in the table; ambiguous ones are summed up apart
CREATE TABLE truth AS SELECT * FROM truth_all WHERE amb = '0';
CREATE INDEX truth_id ON truth(id);
.import --csv "$tmp/spans.csv" raw
$addcpu
CREATE TABLE sp0 AS SELECT rid, lower(span) AS sid, lower(parent) AS pid,
    type AS kind, CAST(ts AS INTEGER) AS start,
    (SELECT name FROM names WHERE idx = CAST(raw.stream AS INTEGER)) AS stream,
    CAST(dur AS INTEGER) AS dur,
    CASE type WHEN 'host.mmio' THEN id WHEN 'host.dma' THEN id
        WHEN 'host.msix' THEN vec WHEN 'nic.msix' THEN vec
        WHEN 'host.pci' THEN lower(reg) WHEN 'nic.mmio' THEN lower(off)
        WHEN 'nic.dma' THEN lower(op)
        WHEN 'net.device' THEN node || '/' || dev || '/' || uid
        WHEN 'host.irq' THEN cpuidx WHEN 'host.softirq' THEN cpuidx
        WHEN 'host.resume' THEN cpuidx WHEN 'host.app' THEN cpuidx
        ELSE '' END AS key0
    FROM (SELECT *, rowid AS rid, CAST(CAST(coalesce(nullif(substr(coalesce(cpu, ''),
        length(rtrim(coalesce(cpu, ''), '0123456789')) + 1), ''), '0')
        AS INTEGER) AS TEXT) AS cpuidx FROM raw) AS raw
    WHERE type IN ('host.syscall', 'host.mmio', 'host.dma',
    'host.msix', 'host.pci', 'host.intr', 'nic.mmio', 'nic.dma', 'nic.tx',
    'nic.rx', 'nic.msix', 'net.device', 'host.irq', 'host.softirq',
    'host.resume', 'host.app');
-- a tie counter, as in the truth: "#n" on the n-th repeat (ordered by
-- duration, then by the order the builder wrote them: a span is written
-- when it and its parent are done, so equal instants in event order)
CREATE TABLE sp AS SELECT sid, pid, kind, start, stream,
    key0 || CASE WHEN rn > 0 THEN '#' || rn ELSE '' END AS key FROM
    (SELECT *, row_number() OVER (PARTITION BY stream, kind, start, key0
        ORDER BY dur, rid) - 1 AS rn FROM sp0);
CREATE INDEX sp_k ON sp(stream, kind, start, key);
CREATE INDEX sp_s ON sp(sid);
CREATE TABLE m AS SELECT t.id AS tid, s.sid AS sid FROM truth_all t
    JOIN sp s ON s.stream = t.stream AND s.kind = t.kind
    AND s.start = t.start_ps AND s.key = t.key;
CREATE INDEX m_s ON m(sid);
CREATE INDEX m_t ON m(tid);
-- parents of matched spans, in truth ids ('' = root, '?' = not a truth span)
CREATE TABLE par AS SELECT t.id AS tid, t.kind AS kind,
    coalesce(t.parent_id, '') AS want, coalesce(t.rule_parent_id, '') AS rule,
    CASE WHEN s.pid IN ('', '0', '0x0') THEN ''
        ELSE coalesce((SELECT tid FROM m WHERE m.sid = s.pid), '?') END AS got
    FROM truth t JOIN m ON m.tid = t.id JOIN sp s ON s.sid = m.sid;
CREATE TABLE tl(src TEXT, dst TEXT);
WITH RECURSIVE split(src, rest, dst) AS (
    SELECT id, trim(links) || ' ', NULL FROM truth WHERE trim(links) <> ''
    UNION ALL
    SELECT src, substr(rest, instr(rest, ' ') + 1),
        substr(rest, 1, instr(rest, ' ') - 1) FROM split WHERE rest <> '')
INSERT INTO tl SELECT src, dst FROM split WHERE dst IS NOT NULL AND dst <> '';
CREATE TABLE sl0 AS SELECT coalesce((SELECT tid FROM m WHERE m.sid = lower(raw.span)), '?') AS src,
    coalesce((SELECT tid FROM m WHERE m.sid = lower(raw.target)), '?') AS dst
    FROM raw WHERE type = 'link';
-- links of ambiguous spans are not scored
CREATE TABLE sl AS SELECT src, dst,
    (SELECT kind FROM truth WHERE id = sl0.src) AS kind FROM sl0
    WHERE NOT EXISTS (SELECT 1 FROM truth_all WHERE id = sl0.src AND amb <> '0');
CREATE INDEX tl_i ON tl(src, dst);
CREATE INDEX sl_i ON sl(src, dst);
CREATE TABLE kinds(k TEXT, ord INTEGER);
INSERT INTO kinds VALUES ('host.syscall', 1), ('host.mmio', 2), ('host.dma', 3),
    ('host.msix', 4), ('host.pci', 5), ('host.intr', 6), ('nic.mmio', 7),
    ('nic.dma', 8), ('nic.tx', 9), ('nic.rx', 10), ('nic.msix', 11),
    ('net.device', 12), ('host.irq', 13), ('host.softirq', 14),
    ('host.resume', 15), ('host.app', 16), ('(unknown)', 17);
CREATE TABLE c_truth AS SELECT kind, count(*) AS n FROM truth GROUP BY kind;
CREATE TABLE c_match AS SELECT t.kind AS kind, count(*) AS n FROM m
    JOIN truth t ON t.id = m.tid GROUP BY t.kind;
CREATE TABLE c_extra AS SELECT kind, count(*) AS n FROM sp
    WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.sid = sp.sid) GROUP BY kind;
CREATE TABLE c_par AS SELECT kind,
    sum(got = want OR ($rule = 1 AND rule <> '' AND
        (got = rule OR (rule = 'root' AND got = '')))) AS pright,
    sum(got = '' AND want <> '' AND NOT ($rule = 1 AND rule = 'root')) AS porphan,
    sum(rule <> '' AND got <> want AND (got = rule OR (rule = 'root' AND got = ''))) AS pheur
    FROM par GROUP BY kind;
CREATE TABLE c_tl AS SELECT t.kind AS kind,
    sum(EXISTS (SELECT 1 FROM sl WHERE sl.src = tl.src AND sl.dst = tl.dst)) AS lright,
    sum(NOT EXISTS (SELECT 1 FROM sl WHERE sl.src = tl.src AND sl.dst = tl.dst)) AS lmiss
    FROM tl JOIN truth t ON t.id = tl.src GROUP BY t.kind;
CREATE TABLE c_sl AS SELECT coalesce(kind, '(unknown)') AS kind, count(*) AS lextra FROM sl
    WHERE NOT EXISTS (SELECT 1 FROM tl WHERE tl.src = sl.src AND tl.dst = sl.dst)
    GROUP BY coalesce(kind, '(unknown)');
CREATE TABLE score AS SELECT k AS kind, ord,
    coalesce((SELECT n FROM c_truth WHERE kind = k), 0) AS truth,
    coalesce((SELECT n FROM c_match WHERE kind = k), 0) AS matched,
    coalesce((SELECT n FROM c_extra WHERE kind = k), 0) AS extra,
    coalesce((SELECT pright FROM c_par WHERE kind = k), 0) AS pright,
    coalesce((SELECT porphan FROM c_par WHERE kind = k), 0) AS porphan,
    coalesce((SELECT pheur FROM c_par WHERE kind = k), 0) AS pheur,
    coalesce((SELECT lright FROM c_tl WHERE kind = k), 0) AS lright,
    coalesce((SELECT lmiss FROM c_tl WHERE kind = k), 0) AS lmiss,
    coalesce((SELECT lextra FROM c_sl WHERE kind = k), 0) AS lextra
    FROM kinds;
.mode list
.separator " "
SELECT kind, truth, matched, truth - matched, extra, pright,
    matched - pright - porphan, porphan, pheur, lright, lmiss, lextra
    FROM score ORDER BY ord;
.output $tmp/amb
SELECT count(*), count(m.sid),
    coalesce(sum(coalesce((SELECT tid FROM m m2 WHERE m2.sid = s.pid), '') =
        coalesce(t.parent_id, '')), 0)
    FROM truth_all t LEFT JOIN m ON m.tid = t.id LEFT JOIN sp s ON s.sid = m.sid
    WHERE t.amb <> '0';
.output $tmp/details
.separator "\t"
SELECT 'missing', id, stream, kind, start_ps, key FROM truth
    WHERE id NOT IN (SELECT tid FROM m) ORDER BY CAST(id AS INTEGER) LIMIT $limit;
SELECT 'extra', sid, stream, kind, start, key FROM sp
    WHERE sid NOT IN (SELECT sid FROM m) ORDER BY start LIMIT $limit;
SELECT 'parent', p.tid, t.stream, t.kind, t.start_ps, t.key,
    'want ' || CASE p.want WHEN '' THEN 'root' ELSE p.want END ||
    ' got ' || CASE p.got WHEN '' THEN 'root' WHEN '?' THEN 'a span not in the truth'
        ELSE p.got END || CASE WHEN p.rule <> '' AND (p.got = p.rule OR
        (p.rule = 'root' AND p.got = '')) THEN ' (heuristic)' ELSE '' END
    FROM par p JOIN truth t ON t.id = p.tid
    WHERE p.got <> p.want ORDER BY CAST(p.tid AS INTEGER) LIMIT $limit;
SELECT 'link missing', src, dst FROM tl WHERE NOT EXISTS
    (SELECT 1 FROM sl WHERE sl.src = tl.src AND sl.dst = tl.dst) LIMIT $limit;
SELECT 'link extra', src, dst FROM sl WHERE NOT EXISTS
    (SELECT 1 FROM tl WHERE tl.src = sl.src AND tl.dst = sl.dst) LIMIT $limit;
EOF
[ $? -eq 0 ] || { echo "score-truth.sh: sqlite3 failed:" >&2; sed 's/^/  /' "$tmp/err" >&2; exit 2; }

awk -v quiet="$quiet" -v rule="$rule" '
BEGIN {
	printf "%-13s %7s %7s %7s %6s | %7s %6s %6s %6s | %6s %6s %6s\n",
	    "kind", "truth", "matched", "missing", "extra", "parents", "wrong",
	    "orphan", "(heur)", "links", "miss", "extra"
}
{
	if ($2 + $5 + $12 > 0 && !quiet)
		printf "%-13s %7d %7d %7d %6d | %7d %6d %6d %6d | %6d %6d %6d\n",
		    $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12
	for (i = 2; i <= 12; i++) tot[i] += $i
}
END {
	printf "%-13s %7d %7d %7d %6d | %7d %6d %6d %6d | %6d %6d %6d\n",
	    "total", tot[2], tot[3], tot[4], tot[5], tot[6], tot[7], tot[8],
	    tot[9], tot[10], tot[11], tot[12]
	if (!quiet && tot[9] > 0)
		printf "(heur): wrong parents that are the SPEC heuristic'"'"'s; -r counts them as right%s\n",
		    rule ? " (on)" : ""
	bad = tot[4] + tot[5] + tot[7] + tot[8] + tot[11] + tot[12]
	if (!quiet)
		print (bad == 0 ? "all spans, parents and links match" : "MISMATCH")
	exit bad == 0 ? 0 : 1
}' "$tmp/out"
rc=$?
# ambiguous rows: how many, matched, with the truth's parent
read -r na nam nap <"$tmp/amb" || na=0
if [ "${na:-0}" -gt 0 ]; then
	printf 'ambiguous %9d matched %d, parent as in the truth %d (not in the table)\n' \
	    "$na" "$nam" "$nap"
fi
if [ "$verbose" -gt 0 ] && [ -s "$tmp/details" ]; then
	echo "mismatches (truth ids; spans by start and key):"
	sed 's/\t/ /g; s/^/  /' "$tmp/details"
fi
exit $rc
