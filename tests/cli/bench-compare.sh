#!/bin/sh
# scripts/bench-compare: reads the "bench:" lines of two benchmark outputs,
# flags every stage whose ratio to its baseline grew by more than the
# threshold, and says so in its exit status; scripts/bench-lib.sh prints
# those lines (bench_summary) and times commands (bench_run).
. "$(dirname "$0")/../lib.sh"
BC="$TOP/scripts/bench-compare"

cat >"$T/before" <<'X'
==== some table the benchmark printed ====
bench: sim2ev-gem5 300.0 MB/s 2.00 wc-l
bench: otlp-json-file 2.40 Mspans/s 1.50 cp
bench: sqlite-new 1.20 Mspans/s 0.50 sqlite3-import
bench: gone 1 x 1.00 cat
bench: broken 1 x n/a cat
bench: metric 1 x 1.00 cat
X
# sim2ev +9 % (under 10), otlp +20 %, sqlite faster, the last line of a
# stage counts
cat >"$T/after" <<'X'
bench: sim2ev-gem5 280.0 MB/s 2.18 wc-l
bench: otlp-json-file 2.00 Mspans/s 1.10 cp
bench: otlp-json-file 2.00 Mspans/s 1.80 cp
bench: sqlite-new 1.50 Mspans/s 0.40 sqlite3-import
bench: new 1 x 1.00 cat
bench: broken 1 x 2.00 cat
bench: metric 1 x 3.00 cat:cpu
X
expect_rc 1 "a stage 20 % slower: exit 1" sh "$BC" "$T/before" "$T/after"
stdout_has "otlp-json-file                    1.50x      1.80x   +20.0%  vs cp; 2.40 -> 2.00 Mspans/s  SLOWER"
stdout_has "sqlite-new                        0.50x      0.40x   -20.0%  vs sqlite3-import; 1.20 -> 1.50 Mspans/s  faster"
stdout_has "gone                         only in BEFORE"
stdout_has "new                          only in AFTER"
stdout_has "no ratio to compare"
stdout_has "metric                       baselines differ (cat, cat:cpu): not compared"
stdout_has "3 stage(s) compared, 1 more than 10 % slower"
n=$(grep -c SLOWER "$T/.out")
eq "only that stage is flagged" "$n" 1
expect_rc 0 "-t 25: none slower" sh "$BC" -t 25 "$T/before" "$T/after"
stdout_has "3 stage(s) compared, 0 more than 25 % slower"
expect_rc 1 "-t 5: sim2ev (+9 %) too" sh "$BC" -t 5 "$T/before" "$T/after"
eq "two flagged at 5 %" "$(grep -c SLOWER "$T/.out")" 2
expect_rc 0 "a run against itself" sh "$BC" "$T/before" "$T/before"
echo "nothing here" >"$T/none"
expect_rc 2 "no stage in common" sh "$BC" "$T/before" "$T/none"
stderr_has "no stage with a ratio in both files"
expect_rc 2 "one file" sh "$BC" "$T/before"
stderr_has "usage: bench-compare"
expect_rc 2 "missing file" sh "$BC" "$T/before" "$T/nosuch"
stderr_has "cannot read"
expect_rc 2 "bad -t" sh "$BC" -t ten "$T/before" "$T/after"
stderr_has "not a percentage"

# --- bench-lib.sh: bench_run keeps the best run, bench_summary the line ----------
# (runstat, the timer, is one of the helpers make cli builds)
H=$(dirname "$(command -v runstat)")
mkdir -p "$T/bw"
cat >"$T/lib.sh" <<X
set -eu
BW="$T/bw" SSP_HELPERS="$H" REPS=3
. "$TOP/scripts/bench-lib.sh"
OUT="$T/bw/out" bench_run fast sh -c 'echo hello >"$T/bw/out"'
bench_run slow sleep 0.2
BENCH_SUMMARY="$T/bw/summary" bench_summary stage-x "\$(bench_rate 1000000 "\$(bench_get slow wall)")" \\
    Mx/s "\$(bench_get slow wall)" 0.1 sleep-0.1
X
check "bench_run and bench_summary" sh "$T/lib.sh"
stdout_has "bench: stage-x "
eq "the summary file has the line" "$(cut -d' ' -f1,2,4,6 "$T/bw/summary")" "bench: stage-x Mx/s sleep-0.1"
eq "OUT's size" "$(cat "$T/bw/fast.bytes")" 6
check "the slow run took >= 0.2 s" awk '{ exit !($1 >= 0.2) }' "$T/bw/slow.wall"
check "ratio about 2" awk '{ exit !($5 >= 1.9 && $5 < 5) }' "$T/bw/summary"
expect_rc 1 "a failing command stops the benchmark" sh -c ". '$T/lib.sh'; bench_run bad false"
stderr_has "bench: bad failed: false"
done_testing
