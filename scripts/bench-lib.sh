# bench-lib.sh: the timing harness every scripts/bench-*.sh sources (not
# run on its own).  Before sourcing, a script sets
#   BW        its work directory (the figures go to $BW/NAME.*)
# and may set
#   BENCH_METRIC  wall (default) or cpu: the time bench_time gives
#   REPS      runs per measurement (default 5; the best counts)
#   PIN       a command prefix such as "taskset -c 1" (default none)
#   BEFORE    a shell command run before each run (not timed)
#   OUT       a file whose size bench_run records (NAME.bytes)
# SSP_HELPERS must name the directory with runstat (make bench builds it):
# it times with CLOCK_MONOTONIC and wait4, without GNU time's 10 ms steps.
#
# Every figure is the best of REPS runs, since the machine may be shared:
#   NAME.wall    the shortest wall time (seconds)
#   NAME.cpu     user + sys of that run
#   NAME.sys     sys of that run
#   NAME.mincpu  the least user + sys of any run (steadier under load)
#   NAME.rss     peak RSS of that run, KiB
#   NAME.bytes   size of $OUT after the runs (0 without OUT)
#   NAME.err     stderr of that run
#
# bench_summary prints the machine-readable line that make bench collects
# and scripts/bench-compare reads:
#   bench: STAGE VALUE UNIT RATIO BASELINE
# RATIO is the stage's time over the time of BASELINE (a plain command such
# as wc-l, zstd-d or cat, measured in the same run on the same data), so a
# larger ratio is slower, and ratios of runs on a loaded or a faster
# machine stay comparable.

: "${BW:?bench-lib.sh: set BW to the work directory first}"
: "${SSP_HELPERS:?bench-lib.sh: set SSP_HELPERS to the directory with runstat}"
REPS=${REPS:-5}
PIN=${PIN:-}
[ -x "$SSP_HELPERS/runstat" ] || {
	echo "bench: $SSP_HELPERS/runstat is not built (make bench builds it)" >&2
	exit 1
}

# bench_run NAME CMD...: REPS runs of CMD (stdout to /dev/null), the best
# into $BW/NAME.*; a failing run stops the benchmark with its stderr.
bench_run() {
	_name=$1
	shift
	_bw="" _bc="" _mc="" _br=0 _bs=0
	_i=0
	while [ "$_i" -lt "$REPS" ]; do
		[ -z "${BEFORE:-}" ] || sh -c "$BEFORE"
		# shellcheck disable=SC2086
		"$SSP_HELPERS/runstat" -o "$BW/.rs" $PIN "$@" >/dev/null 2>"$BW/.err" || {
			echo "bench: $_name failed: $*" >&2
			cat "$BW/.err" >&2
			exit 1
		}
		read -r _w _u _s _r <"$BW/.rs"
		_c=$(awk -v u="$_u" -v s="$_s" 'BEGIN { printf "%.3f", u + s }')
		if [ -z "$_bw" ] || awk -v a="$_w" -v b="$_bw" 'BEGIN { exit !(a < b) }'; then
			_bw=$_w _bc=$_c _br=$_r _bs=$_s
			cp "$BW/.err" "$BW/$_name.err"
		fi
		if [ -z "$_mc" ] || awk -v a="$_c" -v b="$_mc" 'BEGIN { exit !(a < b) }'; then
			_mc=$_c
		fi
		_i=$((_i + 1))
	done
	awk -v w="$_bw" 'BEGIN { printf "%.3f\n", w }' >"$BW/$_name.wall"
	echo "$_bc" >"$BW/$_name.cpu"
	echo "$_mc" >"$BW/$_name.mincpu"
	echo "$_br" >"$BW/$_name.rss"
	echo "$_bs" >"$BW/$_name.sys"
	_b=0
	[ -z "${OUT:-}" ] || [ ! -f "$OUT" ] || _b=$(wc -c <"$OUT")
	echo "$_b" >"$BW/$_name.bytes"
}

# bench_get NAME FIELD: one figure of bench_run
bench_get() { cat "$BW/$1.$2"; }
# bench_time NAME: the time the summary compares: the best wall time, or
# with BENCH_METRIC=cpu the least CPU time (user + sys), which a loaded
# machine inflates far less (the wall times of a 2-core machine shared by
# several jobs swing by 2x from run to run).  bench_base BASELINE: the
# baseline's name as the summary gives it, ":cpu" added for CPU time, so
# that bench-compare does not compare one metric with the other.
bench_time() {
	case ${BENCH_METRIC:-wall} in
	cpu) bench_get "$1" mincpu ;;
	*) bench_get "$1" wall ;;
	esac
}
bench_base() {
	case ${BENCH_METRIC:-wall} in cpu) echo "$1:cpu" ;; *) echo "$1" ;; esac
}
# bench_ratio A B: A / B with two decimals ("n/a" if B is 0)
bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'
}
# bench_rate COUNT SECONDS [SCALE]: COUNT / SECONDS / SCALE (default 1e6)
bench_rate() {
	awk -v n="$1" -v t="$2" -v k="${3:-1e6}" \
	    'BEGIN { if (t > 0) printf "%.2f", n / t / k; else print "n/a" }'
}

# bench_summary STAGE VALUE UNIT TIME BASETIME BASELINE: print
# "bench: STAGE VALUE UNIT RATIO BASELINE" (RATIO = TIME / BASETIME) and
# append it to $BENCH_SUMMARY when that is set (make bench sets it).
bench_summary() {
	_line=$(printf 'bench: %s %s %s %s %s' "$1" "$2" "$3" \
	    "$(bench_ratio "$4" "$5")" "$6")
	echo "$_line"
	[ -z "${BENCH_SUMMARY:-}" ] || echo "$_line" >>"$BENCH_SUMMARY"
}

# repeat_pcap IN OUT BYTES: the capture repeated, each copy after the one
# before in time, to BYTES (bench-sim2ev.sh, bench-memory.sh)
repeat_pcap() {
	python3 - "$@" <<'EOF'
import struct, sys
src, out, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = open(src, "rb").read()
e = "<" if b[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
recs, off = [], 24
while off + 16 <= len(b):
    sec, frac, incl, orig = struct.unpack(e + "IIII", b[off:off + 16])
    recs.append((sec, frac, b[off + 8:off + 16 + incl]))
    off += 16 + incl
span = recs[-1][0] - recs[0][0] + 1
with open(out, "wb") as f:
    f.write(b[:24])
    n, k = 24, 0
    while n < want:
        for sec, frac, rest in recs:
            f.write(struct.pack(e + "II", sec + k * span, frac) + rest)
            n += 8 + len(rest)
        k += 1
EOF
}
