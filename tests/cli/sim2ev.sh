#!/bin/sh
# sim2ev through the real binary: sample logs, pipes, a FIFO whose writer
# restarts, zstd in and out, accounting, errors and exit codes.
. "$(dirname "$0")/../lib.sh"
S="$DATA/samples"

# count of one event type in `evcat -n` output
count() { awk -v t="$2" '$2 == t { print $1 }' "$1"; }

# --- help, version, usage -------------------------------------------------
expect_rc 0 "--help" sim2ev --help
stdout_has "usage: sim2ev -f gem5|nicbm|ns3"
stdout_has "--time-offset"
expect_rc 0 "--version" sim2ev --version
stdout_has "sim2ev 0."
expect_rc 2 "no -f" sim2ev /dev/null
stderr_has "-f gem5|nicbm|ns3|switch|qemu|corundum|e1000|pcap is required"
expect_rc 2 "bad option" sim2ev -f gem5 --bogus /dev/null
stderr_has "usage:"
expect_rc 2 "unknown format" sim2ev -f bochs /dev/null
expect_rc 2 "two inputs" sim2ev -f gem5 a b
expect_rc 2 "huge --time-offset" sim2ev -f gem5 --time-offset 99999999999999999999 /dev/null
expect_rc 2 "huge --time-offset with unit" sim2ev -f gem5 --time-offset 9999999999s /dev/null
expect_rc 2 "bad --time-offset" sim2ev -f gem5 --time-offset soon /dev/null
expect_rc 2 "huge --follow-timeout" sim2ev -f gem5 --follow --follow-timeout 999999999999999999999 /dev/null
expect_rc 2 "--follow-timeout without --follow" sim2ev -f gem5 --follow-timeout 5 /dev/null
expect_rc 2 "huge symtab offset" sim2ev -f gem5 -s "$S/symbols/homa-mod.dump,homa,0x1ffffffffffffffff" /dev/null
expect_rc 2 "sync offset needs gem5" sim2ev -f nicbm --time-offset sync /dev/null
expect_rc 2 "-s needs gem5" sim2ev -f ns3 -s "$S/symbols/homa-mod.dump" /dev/null
expect_rc 1 "missing input" sim2ev -f gem5 -o "$T/x.ev" "$T/nonexistent.log"
stderr_has "nonexistent.log"
expect_rc 1 "missing symtab" sim2ev -f gem5 -s "$T/none.dump" -o "$T/x.ev" /dev/null
printf 'ffffffff81000000 T a\nnot a symbol line\n' > "$T/bad.syms"
expect_rc 2 "bad symtab names file:line" sim2ev -f gem5 -s "$T/bad.syms" -o "$T/x.ev" /dev/null
stderr_has "bad.syms:2:"

# --- sample logs ----------------------------------------------------------
check "gem5 events sample" sim2ev -f gem5 -o "$T/g.ev" "$S/gem5/columbo-gem5-events-test.txt"
evcat -n "$T/g.ev" > "$T/g.n"
eq "4 mmio_rd" "$(count "$T/g.n" mmio_rd)" 4
eq "2 mmio_wr" "$(count "$T/g.n" mmio_wr)" 2
evcat "$T/g.ev" > "$T/g.txt"
check "hex size and offs" grep -q "addr=0xc040000c size=4 id=94469181901728 bar=3 offs=0xc" "$T/g.txt"

check "gem5 comment lines" sim2ev -f gem5 -o "$T/c.ev" "$S/gem5/columbo-parser-comment-lines.txt"
evcat -n "$T/c.ev" > "$T/c.n"
eq "8 cfg_rd" "$(count "$T/c.n" cfg_rd)" 8
eq "2 cfg_wr" "$(count "$T/c.n" cfg_wr)" 2
eq "1 msix" "$(count "$T/c.n" msix)" 1
eq "1 mmio_posted" "$(count "$T/c.n" mmio_posted)" 1
eq "2 clear_int" "$(count "$T/c.n" clear_int)" 2
eq "17 events" "$(count "$T/c.n" total)" 17

# function entries from a symbol table, nm format, offset, default table name
printf 'ffffffff814cf3c2 T native_write_msr\nffffffff81088093 t do_stuff\n' > "$T/linux.syms"
check "gem5 exec with -s" sim2ev -f gem5 -s "$T/linux.syms" -o "$T/x.ev" "$S/gem5/columbo-line-reader-simple.txt"
evcat "$T/x.ev" > "$T/x.txt"
check "entry by pc, table name from file" grep -q "func .*cpu=system.switch_cpus sym=native_write_msr table=linux" "$T/x.txt"
check "second entry" grep -q "sym=do_stuff table=linux" "$T/x.txt"
eq "micro-ops are not entries" "$(grep -c func "$T/x.txt")" 2
printf '0000000000000002 T native_write_msr\n' > "$T/mod.syms"
check "offset and explicit name" sim2ev -f gem5 -s "$T/mod.syms,kmod,0xffffffff814cf3c0" -o "$T/x.ev" "$S/gem5/columbo-line-reader-simple.txt"
check "table from -s NAME" sh -c "evcat '$T/x.ev' | grep -q 'sym=native_write_msr table=kmod'"
check "objdump table sample" sim2ev -f gem5 -s "$S/symbols/i40e-homa.dump,i40e,0xffffffffa0000000" -o "$T/x.ev" "$S/gem5/columbo-gem5-events-test.txt"
check "symtab metadata" sh -c "evcat -H '$T/x.ev' | grep -q '# symtabs: i40e=.*i40e-homa.dump@0xffffffffa0000000'"
check "two symtabs" sim2ev -f gem5 -s "$T/linux.syms" -s "$T/mod.syms,kmod,0x10" -o "$T/x.ev" /dev/null
check "both in the metadata" sh -c "evcat -H '$T/x.ev' | grep -q '# symtabs: linux=.*linux.syms@0x0;kmod=.*mod.syms@0x10$'"
check "-I emits every Exec line" sim2ev -f gem5 -I -o "$T/i.ev" "$S/gem5/columbo-line-reader-simple.txt"
evcat -n "$T/i.ev" > "$T/i.n"
eq "5 insn" "$(count "$T/i.n" insn)" 5
check "ExecSymbol entries" sim2ev -f gem5 -o "$T/v.ev" "$S/gem5/vaastav-columbo-go-test-lines.txt"
check "ExecSymbol table gem5" sh -c "evcat '$T/v.ev' | grep -q 'sym=mutex_unlock table=gem5'"

cut -f3- "$S/nicbm/sigcomm22-pci-gt-ib-sw-10-1.i40e_bm-output.txt" > "$T/nic.log"
expect_rc 0 "nicbm status lines" sim2ev -f nicbm --stats -o "$T/n.ev" "$T/nic.log"
stderr_has "27 lines = 0 events + 27 skipped"
stderr_has "skipped: nic-info"

check "ns3 simbricks sample" sim2ev -f ns3 -o "$T/s.ev" "$S/ns3-simbricks/columbo-ns3-raw-log.txt"
evcat -n "$T/s.ev" > "$T/s.n"
eq "48 net_enq" "$(count "$T/s.n" net_enq)" 48
eq "48 net_deq" "$(count "$T/s.n" net_deq)" 48
check "ns3 ascii sample" sim2ev -f ns3 -o "$T/a.ev" "$S/ns3-std/ns3-bottleneck-head400.tr"
evcat -n "$T/a.ev" > "$T/a.n"
eq "150 + / 130 - / 120 r" "$(count "$T/a.n" net_enq) $(count "$T/a.n" net_deq) $(count "$T/a.n" net_rx)" "150 130 120"

# --- names and metadata (documented defaults) ------------------------------
cp "$S/gem5/columbo-gem5-events-test.txt" "$T/client.gem5.log"
check "default stream name" sim2ev -f gem5 -o "$T/x.ev" "$T/client.gem5.log"
check "stream = log name without extension" sh -c "evcat -H '$T/x.ev' | grep -q '^# stream: client.gem5$'"
check "producer metadata" sh -c "evcat -H '$T/x.ev' | grep -q '^# producer: sim2ev '"
check "stdin stream name" sh -c "sim2ev -f gem5 < '$T/client.gem5.log' | evcat -H | grep -q '^# stream: gem5$'"
check "-n" sh -c "sim2ev -f gem5 -n host0 '$T/client.gem5.log' | evcat -H | grep -q '^# stream: host0$'"

# --- pipes, stdin, zstd -----------------------------------------------------
check "stdin and stdout through pipes" sh -c "cat '$S/gem5/columbo-gem5-events-test.txt' | sim2ev -f gem5 - | evcat -n > '$T/p.n'"
eq "pipe: 6 events" "$(count "$T/p.n" total)" 6
zstd -q -c "$S/ns3-simbricks/columbo-ns3-raw-log.txt" > "$T/ns3.log.zst"
check "zstd input by magic" sim2ev -f ns3 -o "$T/z.ev" "$T/ns3.log.zst"
eq "zstd input: 96 events" "$(evcat -n "$T/z.ev" | count /dev/stdin total)" 96
check "zstd output by name" sim2ev -f ns3 -o "$T/z.ev.zst" "$S/ns3-simbricks/columbo-ns3-raw-log.txt"
check "is a zstd frame" sh -c "zstd -t -q '$T/z.ev.zst'"
eq "zstd output readable" "$(evcat -n "$T/z.ev.zst" | count /dev/stdin total)" 96
check "-z to stdout" sh -c "sim2ev -f ns3 -z '$S/ns3-simbricks/columbo-ns3-raw-log.txt' > '$T/zz' && zstd -t -q '$T/zz'"
sim2ev -f ns3 -o "$T/plain.ev" "$S/ns3-simbricks/columbo-ns3-raw-log.txt"
zstd -q -d -c "$T/z.ev.zst" > "$T/zd"
cmp -s "$T/plain.ev" "$T/zd" && ok "compressed and plain streams equal" || not_ok "compressed and plain streams equal"

# --- empty, garbage, binary ---------------------------------------------------
: > "$T/empty"
check "empty input" sim2ev -f gem5 -o "$T/e.ev" "$T/empty"
eq "empty input: valid empty stream" "$(evcat -n "$T/e.ev" | count /dev/stdin total)" 0
head -c 200000 /dev/urandom > "$T/rand"
for f in gem5 nicbm ns3; do
	expect_rc 0 "binary garbage -f $f" sim2ev -f $f --stats -o "$T/r.ev" "$T/rand"
done
check "garbage gives a readable stream" evcat -n "$T/r.ev"
printf '\0\0\0: system.cpu: A0 T0 : 0x\0\n1: global: simbricks: processInEvent\n' > "$T/nul"
expect_rc 0 "NUL bytes in lines" sim2ev -f gem5 --stats -o "$T/x.ev" "$T/nul"
stderr_has "2 lines = 1 events + 1 skipped"

# --- accounting, strict ---------------------------------------------------
{ cat "$S/gem5/columbo-line-reader-simple.txt" "$S/gem5/columbo-parser-comment-lines.txt"
  echo "1: system.pc.simbricks_0: simbricks-pci: sending read addr zz size 4 id 1"; } > "$T/mixed.log"
expect_rc 0 "--stats" sim2ev -f gem5 --stats -o "$T/m.ev" "$T/mixed.log"
stderr_has "39 lines = 17 events + 22 skipped"
stderr_has "mixed.log:1: 10 Hallo 327846378"
stderr_has "skipped: malformed"
stderr_has "-> simbricks-pci sending read: expected 'addr <hex>"
# the numbers in --stats add up
awk '/ lines = / { l = $3; e = $6; s = $9 } /^ +[0-9]+ [a-z_]+$/ { ev += $1 } / skipped: / { sk += $1 }
    END { exit !(l == e + s && e == ev && s == sk) }' "$T/.err" && ok "stats add up" || not_ok "stats add up"
expect_rc 0 "malformed lines are never silent" sim2ev -f gem5 -o "$T/m.ev" "$T/mixed.log"
stderr_has "warning: $T/mixed.log: 1 malformed line skipped, first at line 39: simbricks-pci sending read: expected"
expect_rc 1 "--strict fails on a malformed line" sim2ev -f gem5 --strict -o "$T/m.ev" "$T/mixed.log"
stderr_has "mixed.log:39: malformed line: simbricks-pci sending read: expected"
check "strict: events before the error are readable" sh -c "evcat '$T/m.ev' 2>&1 | grep -q cfg_rd"
expect_rc 1 "strict: stream marked incomplete" evcat -n "$T/m.ev"

# a last line without a newline at the end of the input is a line like any
# other (as for awk and wc), and no phantom line follows it
printf '1: global: simbricks: processInEvent\n2: system.pc.simbricks_0: simbricks-pci: received MSI-X intr vec 1' > "$T/nonl.log"
expect_rc 0 "last line without a newline" sim2ev -f gem5 --stats -o "$T/x.ev" "$T/nonl.log"
stderr_has "2 lines = 2 events + 0 skipped"
check "last line without a newline: no skips" sh -c "! grep -q skipped: '$T/.err'"
eq "last line without a newline: parsed" "$(evcat -n "$T/x.ev" | count /dev/stdin msix)" 1
printf 'main_time = 3: nicbm: eth tx: len 44' > "$T/nonl1.log"
expect_rc 0 "only line without a newline, from a pipe" sh -c "cat '$T/nonl1.log' | sim2ev -f nicbm --stats -o '$T/x.ev'"
stderr_has "1 lines = 1 events + 0 skipped"
# a good line, then 300000 bytes without a newline (more than one read)
{ echo "1: global: simbricks: processInEvent"; head -c 300000 /dev/zero | tr '\0' x; } > "$T/longtail.log"
expect_rc 0 "long last line without a newline" sim2ev -f gem5 --stats -o "$T/x.ev" "$T/longtail.log"
stderr_has "2 lines = 1 events + 1 skipped"
check "long last line: not cut, no phantom line" sh -c "! grep -q -e line-too-long -e partial-line '$T/.err'"
# over 1 MiB without a newline at the end: cut once, nothing after it
{ echo "1: global: simbricks: processInEvent"; head -c 1500000 /dev/zero | tr '\0' x; } > "$T/hugetail.log"
expect_rc 0 "over-long last line without a newline" sim2ev -f gem5 --stats -o "$T/x.ev" "$T/hugetail.log"
stderr_has "2 lines = 1 events + 1 skipped"
stderr_has "1 skipped: line-too-long"

# --- time offsets ---------------------------------------------------------
printf '%s\n' "1999000000000: system.pc.simbricks_0: simbricks-pci: completed DMA id 7" \
    "2000000000000: global: simbricks: sending sync message for ts=0" \
    "2000000500000: system.pc.simbricks_0: simbricks-pci: received MSI-X intr vec 1" > "$T/sync.log"
check "--time-offset sync" sim2ev -f gem5 --time-offset sync -o "$T/x.ev" "$T/sync.log"
evcat "$T/x.ev" > "$T/x.txt"
check "held event before the sync line, negative" grep -q "^ *-1000000000 dma_done" "$T/x.txt"
check "event after the sync line" grep -q "^ *500000 msix" "$T/x.txt"
check "offset metadata" sh -c "evcat -H '$T/x.ev' | grep -q '^# time-offset: 2000000000000$'"
check "--time-offset with unit" sim2ev -f gem5 --time-offset 2s -o "$T/x.ev" "$T/sync.log"
check "2s subtracted" sh -c "evcat '$T/x.ev' | grep -q '^ *500000 msix'"
check "negative --time-offset" sim2ev -f gem5 --time-offset -5 -o "$T/x.ev" "$T/sync.log"
check "-5 ps" sh -c "evcat '$T/x.ev' | grep -q '^ *2000000500005 msix'"
expect_rc 1 "no sync line" sim2ev -f gem5 --time-offset sync -o "$T/x.ev" "$S/gem5/columbo-gem5-events-test.txt"
stderr_has "give the offset with --time-offset PS"

# --- output errors --------------------------------------------------------
if [ -w /dev/full ]; then
	expect_rc 1 "/dev/full" sh -c "sim2ev -f ns3 '$S/ns3-simbricks/columbo-ns3-raw-log.txt' > /dev/full"
	stderr_has "No space left on device"
fi
expect_rc 1 "unwritable -o" sim2ev -f gem5 -o /nonexistent/dir/x.ev /dev/null
if have python3; then
	# a pseudo-terminal on stdout: refused unless --force
	cat > "$T/term.py" <<'EOF'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode("latin-1"))
sys.exit(os.WEXITSTATUS(st))
EOF
	expect_rc 1 "binary to a terminal refused" python3 "$T/term.py" sim2ev -f gem5 /dev/null
	stdout_has "--force"
	expect_rc 0 "--force" python3 "$T/term.py" sim2ev -f gem5 --force /dev/null
fi

# --- named pipe, writer restarts, follow mode -------------------------------
mkfifo "$T/fifo"
writer() {
	exec 3>"$T/fifo"
	echo "1: global: simbricks: processInEvent" >&3; sleep 0.3
	echo "2: system.pc.simbricks_0: simbricks-pci: received MSI-X intr vec 1" >&3
	printf '3: system.pc.simbricks_0: simbricks-pci: completed DMA' >&3	# cut by the restart
	exec 3>&-
	sleep 0.3	# checkpoint restore: the simulator reopens the pipe
	exec 3>"$T/fifo"
	echo "4: system.pc.simbricks_0: simbricks-pci: completed DMA id 9" >&3; sleep 0.3
	echo "5: global: simbricks: processInEvent" >&3
	exec 3>&-
}
writer &
wpid=$!
expect_rc 0 "--follow across a writer restart, idle timeout" sim2ev -f gem5 --follow --follow-timeout 1500ms --stats -o "$T/f.ev" "$T/fifo"
wait $wpid || true
stderr_has "5 lines = 4 events + 1 skipped"
stderr_has "skipped: partial-line"
evcat -n "$T/f.ev" > "$T/f.n"
eq "follow: events on both sides of the restart" "$(count "$T/f.n" total)" 4
eq "follow: dma_done after restart" "$(count "$T/f.n" dma_done)" 1

# SIGTERM ends the stream cleanly; readers see flushed events while idle
# (the writer holds the pipe open for 20 s; the check waits up to 15 s for
# the flush, so a busy machine is slow here but does not fail)
( exec 3>"$T/fifo"; echo "1: global: simbricks: processInEvent" >&3; exec sleep 20 ) &
wpid=$!
sim2ev -f gem5 --follow -o "$T/t.ev" "$T/fifo" 2>"$T/t.err" &
spid=$!
n=0
until [ "$(evcat -n "$T/t.ev" 2>/dev/null | count /dev/stdin proc_in)" = 1 ] || [ $n -ge 150 ]; do
	sleep 0.1; n=$((n + 1))
done
eq "idle flush: the event is readable before the end" "$(evcat -n "$T/t.ev" 2>/dev/null | count /dev/stdin proc_in)" 1
kill -TERM $spid
set +e; wait $spid; rc=$?; set -e
eq "SIGTERM: exit 0" "$rc" 0
eq "SIGTERM: complete stream" "$(evcat -n "$T/t.ev" | count /dev/stdin total)" 1
kill $wpid 2>/dev/null || true
wait $wpid 2>/dev/null || true

# --- follow mode: the idle clock, signals, the pipe buffer ------------------
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# exists FILE: wait (up to 30 s) for sim2ev's output (a new file name):
# from then on a stop signal ends the stream cleanly, however slow the
# start was
exists() { n=0; while [ ! -e "$1" ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done; }
L1="1: global: simbricks: processInEvent"
L2="2: global: simbricks: processInEvent"
rm -f "$T/z.ev"
sim2ev -f gem5 --follow --follow-timeout 0 -o "$T/z.ev" "$T/fifo" &
zpid=$!
exists "$T/z.ev"
kill -TERM $zpid
set +e; wait $zpid; rc=$?; set -e
eq "--follow-timeout 0: runs until a signal" "$rc" 0

# The first writer comes after the timeout: sim2ev still waits for it (and
# holds the pipe open, so the writer's open does not block).
sim2ev -f gem5 --follow --follow-timeout 500ms --stats -o "$T/late.ev" "$T/fifo" 2>"$T/late.err" &
spid=$!
sleep 1
set +e
timeout 5 sh -c "echo '$L1' > '$T/fifo'"; wrc=$?
t0=$(now_ms)
wait $spid; rc=$?
set -e
dt=$(($(now_ms) - t0))
eq "late first writer: its open did not block" "$wrc" 0
eq "late first writer: sim2ev exit 0" "$rc" 0
check "late first writer: its line arrived" grep -qF "1 lines = 1 events" "$T/late.err"
# (how soon is not checked closely: a busy machine delays it; the writer's
# open and line above show the timeout did not run out before it came)
[ "$dt" -lt 20000 ] && ok "then the timeout ended it after the writer's close ($dt ms)" ||
	not_ok "timeout after the writer's close took $dt ms, want about 500"

# A writer that keeps the pipe open but is quiet for longer than the
# timeout is not cut off (and gets no SIGPIPE).
sim2ev -f gem5 --follow --follow-timeout 500ms --stats -o "$T/q.ev" "$T/fifo" 2>"$T/q.err" &
spid=$!
set +e
timeout 10 sh -c "exec 3>'$T/fifo'; echo '$L1' >&3; sleep 1.5; echo '$L2' >&3"; wrc=$?
wait $spid; rc=$?
set -e
eq "quiet writer: it was not cut off (exit 0, no SIGPIPE)" "$wrc" 0
eq "quiet writer: sim2ev exit 0" "$rc" 0
check "quiet writer: both lines arrived" grep -qF "2 lines = 2 events" "$T/q.err"

# SIGTERM while a writer keeps writing: what is in the pipe is read, the
# stream ends cleanly at once; -v names the pipe buffer.
sim2ev -v -f gem5 --follow -o "$T/y.ev.zst" "$T/fifo" 2>"$T/y.err" &
spid=$!
yes "$L1" > "$T/fifo" 2>/dev/null &
ypid=$!
exists "$T/y.ev.zst"
sleep 0.5
kill -TERM $spid
t0=$(now_ms)
set +e; wait $spid; rc=$?; set -e
dt=$(($(now_ms) - t0))
wait $ypid 2>/dev/null || true
eq "SIGTERM under a busy writer: exit 0" "$rc" 0
# (generous: without the stop the writer would keep it busy for ever)
[ "$dt" -lt 20000 ] && ok "SIGTERM under a busy writer: stopped in $dt ms" ||
	not_ok "SIGTERM under a busy writer: took $dt ms"
# (a line the stop cut is skipped as partial-line, nothing else)
n=$(sed -n 's/.*: [0-9]* lines = \([0-9]*\) events + \([0-9]*\) skipped.*/\1 \2/p' "$T/y.err")
sk=${n#* } n=${n% *}
[ "${sk:-9}" -le 1 ] && ok "SIGTERM under a busy writer: at most the cut line skipped ($sk)" ||
	not_ok "SIGTERM under a busy writer: $sk lines skipped"
check "SIGTERM under a busy writer: no other skip reason" sh -c "! grep 'skipped: ' '$T/y.err' | grep -v -q partial-line"
eq "SIGTERM under a busy writer: complete stream" "$(evcat -n "$T/y.ev.zst" 2>/dev/null | count /dev/stdin proc_in)" "$n"
max=$(cat /proc/sys/fs/pipe-max-size 2>/dev/null || echo 0)
if [ "$max" -ge 1048576 ]; then
	check "--follow: 1 MiB pipe buffer" grep -q "pipe buffer 1024 KiB" "$T/y.err"
else
	check "--follow: pipe buffer reported" grep -q "pipe buffer" "$T/y.err"
fi

# SIGHUP ends the stream cleanly too, after the bytes already in the pipe.
# Not when this shell was started with SIGHUP ignored (nohup): sim2ev then
# keeps ignoring it, as it should, and a shell cannot undo that.
case $(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2>/dev/null) in
*[13579bdfBDF]) ntest=$((ntest + 1)); echo "ok $ntest # SKIP SIGHUP ignored on entry to this test (nohup?)" ;;
*)
	sim2ev -f gem5 --follow --stats -o "$T/h.ev" "$T/fifo" 2>"$T/h.err" &
	spid=$!
	( exec 3>"$T/fifo"; i=0; while [ $i -lt 2000 ]; do echo "$L1"; i=$((i + 1)); done >&3
	  : >"$T/h.done"; exec sleep 1 ) &
	wpid=$!
	exists "$T/h.ev"
	exists "$T/h.done"	# all 2000 lines are in the pipe (or read)
	kill -HUP $spid
	set +e; wait $spid; rc=$?; set -e
	eq "SIGHUP: exit 0" "$rc" 0
	check "SIGHUP: the 2000 lines in the pipe were read" grep -qF "2000 lines = 2000 events" "$T/h.err"
	eq "SIGHUP: complete stream" "$(evcat -n "$T/h.ev" | count /dev/stdin proc_in)" 2000
	wait $wpid 2>/dev/null || true
	;;
esac

# SIGINT ignored on entry (a script's background job) stays ignored
rm -f "$T/i.ev"
(trap '' INT; exec sim2ev -f gem5 --follow -o "$T/i.ev" "$T/fifo") &
spid=$!
exists "$T/i.ev"
kill -INT $spid
sleep 0.3
if kill -0 $spid 2>/dev/null; then ok "inherited ignored SIGINT stays ignored"; else
	not_ok "inherited ignored SIGINT stopped sim2ev"; fi
kill -TERM $spid
set +e; wait $spid; rc=$?; set -e
eq "then SIGTERM: exit 0" "$rc" 0

done_testing
