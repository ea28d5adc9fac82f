#!/bin/sh
# The net_switch parser (sim2ev -f switch) against `wc -l` on the same
# file, measured in the same run: a generated NETSWITCH_DEBUG log of 16
# NICs (mksimlog -f switch: unicast IPv4, ARP broadcasts to 15 ports, a
# few other lines), BENCH_SWITCH_GB large.  Three figures: the parser
# alone (parsebench: lines to events, nothing written), sim2ev writing the
# event stream (two events for most lines), and wc -l.  CPU seconds (user
# + sys), best of $BENCH_RUNS; wall seconds in parentheses.  The input is
# generated here, never committed; it is kept in BENCH_DIR for reruns.
#   SSP_BIN      directory with sim2ev and evcat (make bench sets it)
#   SSP_HELPERS  directory with mksimlog and parsebench
#   BENCH_DIR    where the input goes (default $TMPDIR/simspan-bench)
#   BENCH_SWITCH_GB  size of the log in GB (default 1.0)
#   BENCH_RUNS   runs per measurement (default 3)
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with the built tools}"
HELPERS=${SSP_HELPERS:-$SSP_BIN/../tests/helpers}
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/simspan-bench}
GB=${BENCH_SWITCH_GB:-1.0}
RUNS=${BENCH_RUNS:-3}
mkdir -p "$DIR"
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (GNU time)" >&2; exit 1; }

best() {	# best of RUNS by CPU time: "cpu_secs rss_kb wall_secs"
	b=""
	i=0
	while [ $i -lt "$RUNS" ]; do
		/usr/bin/time -f "%U %S %M %e" -o "$DIR/.time" "$@" >"$DIR/.out" 2>"$DIR/.err" || {
			cat "$DIR/.err" >&2; exit 1; }
		t=$(awk '{ printf "%.2f %d %.2f", $1 + $2, $3, $4 }' "$DIR/.time")
		if [ -z "$b" ] || awk -v a="${t%% *}" -v b="${b%% *}" 'BEGIN { exit !(a < b) }'; then
			b=$t
		fi
		i=$((i + 1))
	done
	echo "$b"
}

f="$DIR/switch-${GB}GB.log"
size=$(awk -v g="$GB" 'BEGIN { printf "%d", g * 1000000000 }')
[ -s "$f" ] || "$HELPERS/mksimlog" -f switch -b "$size" -o "$f"
bytes=$(stat -c %s "$f")
echo "input: $f, $(awk -v b="$bytes" 'BEGIN { printf "%.2f GB", b / 1e9 }')," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
w=$(best wc -l "$f")
p=$(best "$HELPERS/parsebench" -f switch "$f")
read -r lines events _ <"$DIR/.out"
s=$(best "$SSP_BIN/sim2ev" -f switch -o "$DIR/switch.ev" "$f")
printf '%-28s %16s %7s %9s %12s %7s\n' "" "CPU s (wall s)" "x wc" "GB/s CPU" "events/s" "RSS MB"
row() {	# row LABEL "cpu rss wall"
	echo "$2 ${w%% *}" | awk -v l="$1" -v b="$bytes" -v n="$events" '{
	    c = $1; if (c == 0) c = 0.01; wc = $4; if (wc == 0) wc = 0.01
	    printf "%-28s %6.2f (%6.2f) %7.1f %9.2f %12.0f %7.1f\n", l, c, $3, c / wc,
	    b / c / 1e9, n / c, $2 / 1024 }'
}
row "wc -l" "$w"
row "parser alone (parsebench)" "$p"
row "sim2ev -f switch -o file" "$s"
echo "$lines lines, $events events; event stream $(stat -c %s "$DIR/switch.ev") bytes"
rm -f "$DIR/switch.ev"
