#!/bin/sh
# Output files are written whole or not at all (tools/common/outfile.h):
# a signal in the middle of a run, or a write that fails, leaves the old
# file byte for byte and no temporary file; a finished run replaces it; a
# FIFO target is written in place.  Each tool is provably in mid-run when
# signalled: it reads a FIFO whose writer this script holds open, and it
# has made its temporary file.
. "$(dirname "$0")/../lib.sh"
RULES="$TOP/rules/linux-i40e.csv"

# The shell starts background jobs with SIGINT ignored, and the tools leave
# an ignored SIGINT alone: env undoes that (GNU coreutils), else SIGTERM.
# (Exit status 128 + the signal's number, Linux numbers.)
sig=INT signo=2
env --default-signal=INT true 2>/dev/null && dflt="env --default-signal=INT" ||
	{ dflt=""; sig=TERM signo=15; }

mkdumbbell -n 20 "$T/d" >/dev/null
D="$T/d"
mkevents -n 2000 -o "$T/a.ev"
mkspans -n 200 -o "$T/a.sp"
awk 'BEGIN { for (i = 1; i <= 500; i++)
	printf "%d: global: simbricks: processInEvent\n", i * 1000 }' > "$T/a.log"

# tmps OUT: the temporary files left beside OUT
tmps() { ls "$1".tmp* 2>/dev/null | wc -l | tr -d ' '; }

# midrun NAME OUT FEED CMD...: run CMD (it writes OUT, reads $T/fifo) in the
# background, feed it the bytes of FEED and keep the FIFO open, wait for
# its temporary file beside OUT, then signal it.
midrun() {
	name=$1 out=$2 feed=$3
	shift 3
	cp "$out" "$T/before"
	rm -f "$T/fifo"
	mkfifo "$T/fifo"
	$dflt "$@" 2>"$T/mid.err" &
	pid=$!
	exec 3>"$T/fifo"	# returns once CMD has opened it
	cat "$feed" >&3		# less than a pipe's buffer: never blocks
	n=0
	while [ "$(tmps "$out")" = 0 ] && [ $n -lt 300 ]; do
		sleep 0.1; n=$((n + 1))
	done
	eq "$name: its temporary file is there mid-run" "$(tmps "$out")" 1
	check "$name: still running (its input is open)" kill -0 $pid
	kill -$sig $pid
	set +e; wait $pid; rc=$?; set -e
	exec 3>&-
	eq "$name: SIG$sig mid-run kills it" "$rc" $((128 + signo))
	check "$name: the old output is byte-identical" cmp "$T/before" "$out"
	eq "$name: no temporary file left" "$(tmps "$out")" 0
}

# --- sim2ev ----------------------------------------------------------------
check "sim2ev: first run" sim2ev -f gem5 -o "$T/s.ev" "$T/a.log"
head -n 100 "$T/a.log" > "$T/part.log"
midrun sim2ev "$T/s.ev" "$T/part.log" sim2ev -f gem5 -o "$T/s.ev" "$T/fifo"
head -n 7 "$T/a.log" > "$T/b.log"
check "sim2ev: a finished run replaces the file" sim2ev -f gem5 -o "$T/s.ev" "$T/b.log"
eq "sim2ev: the new stream is in place" "$(evcat -n "$T/s.ev" | awk '$2 == "total" { print $1 }')" 7
eq "sim2ev: no temporary file after a run" "$(tmps "$T/s.ev")" 0
# .zst is decided by the name asked for, not the temporary file's
check "sim2ev: -o FILE.zst" sim2ev -f gem5 -o "$T/s.ev.zst" "$T/b.log"
check "sim2ev: FILE.zst is compressed" sh -c "zstd -t -q '$T/s.ev.zst'"

# --- evfilter --------------------------------------------------------------
check "evfilter: first run" evfilter -o "$T/f.ev" "$T/a.ev"
head -c 3000 "$T/a.ev" > "$T/part.ev"
midrun evfilter "$T/f.ev" "$T/part.ev" evfilter -o "$T/f.ev" "$T/fifo"
# a write that fails (the file size limit: SIGXFSZ) leaves the old file
if [ "$(ulimit -f)" = unlimited ]; then
	cp "$T/f.ev" "$T/before"
	mkevents -n 200000 -o "$T/big.ev"
	expect_rc $((128 + 25)) "evfilter: a write past the file size limit fails" \
	    sh -c "ulimit -f 64; exec evfilter -o '$T/f.ev' '$T/big.ev'"
	check "evfilter: after the failed write the old output is byte-identical" cmp "$T/before" "$T/f.ev"
	eq "evfilter: no temporary file after the failed write" "$(tmps "$T/f.ev")" 0
fi
# a FIFO as the output is written in place
rm -f "$T/ofifo"
mkfifo "$T/ofifo"
cat "$T/ofifo" > "$T/via.ev" &
cpid=$!
check "evfilter -o FIFO" evfilter -o "$T/ofifo" "$T/a.ev"
wait $cpid
check "evfilter -o FIFO: the stream went through it" cmp "$T/via.ev" "$T/f.ev"
check "evfilter -o FIFO: still a FIFO" test -p "$T/ofifo"

# --- evspan ----------------------------------------------------------------
check "evspan: first run" evspan -t "$D/topology.csv" -r "$RULES" -o "$T/e.sp"
head -c 4000 "$D/net.ev" > "$T/part.ev"
midrun evspan "$T/e.sp" "$T/part.ev" evspan -t "$D/topology.csv" -r "$RULES" \
    net="$T/fifo" -o "$T/e.sp"
# an interrupted run after bad headers (exit 2) keeps the old file too
cp "$T/e.sp" "$T/before"
expect_rc 2 "evspan: a stream of the wrong kind" evspan -t "$D/topology.csv" \
    -r "$RULES" net="$D/client.ev" -o "$T/e.sp"
check "evspan: after exit 2 the old output is byte-identical" cmp "$T/before" "$T/e.sp"
eq "evspan: no temporary file after exit 2" "$(tmps "$T/e.sp")" 0

# --- span2otlp -------------------------------------------------------------
check "span2otlp: first run" span2otlp -o "$T/o.jsonl" "$T/a.sp"
head -c 3000 "$T/a.sp" > "$T/part.sp"
midrun span2otlp "$T/o.jsonl" "$T/part.sp" span2otlp -o "$T/o.jsonl" "$T/fifo"

# --- simsynth: a directory of files, all put in place at the end -----------
check "simsynth: first run" simsynth -n 3 --seed 1 "$T/syn"
eq "simsynth: no temporary file after a run" "$(ls "$T/syn" | grep -c '\.tmp')" 0
# server0's log is a FIFO this script opens but does not read: simsynth
# fills the pipe and blocks there, its other files still temporary
rm "$T/syn/server0.gem5.log"
mkfifo "$T/syn/server0.gem5.log"
cp -R "$T/syn" "$T/syn.before"
$dflt simsynth -n 3 --seed 2 "$T/syn" 2>"$T/mid.err" &
pid=$!
exec 4<"$T/syn/server0.gem5.log"	# returns once simsynth opened it
n=0
while ! ls "$T/syn"/truth.csv.tmp* >/dev/null 2>&1 && [ $n -lt 300 ]; do
	sleep 0.1; n=$((n + 1))
done
check "simsynth: its temporary files are there mid-run" sh -c "ls '$T/syn'/truth.csv.tmp*"
check "simsynth: still running (blocked on the FIFO)" kill -0 $pid
kill -$sig $pid
set +e; wait $pid; rc=$?; set -e
exec 4<&-
eq "simsynth: SIG$sig mid-run kills it" "$rc" $((128 + signo))
same=0 nfiles=0
for f in "$T/syn.before"/*; do
	[ -f "$f" ] || continue
	nfiles=$((nfiles + 1))
	cmp -s "$f" "$T/syn/${f##*/}" && same=$((same + 1))
done
eq "simsynth: every old file is byte-identical ($nfiles)" "$same" "$nfiles"
check "simsynth: the FIFO is still one" test -p "$T/syn/server0.gem5.log"
eq "simsynth: no temporary file left" "$(ls "$T/syn" | grep -c '\.tmp')" 0

done_testing
