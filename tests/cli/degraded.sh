#!/bin/sh
# Degraded results that used to be silent or fatal (issue 26): a fixed
# limit that drops data warns without --stats; a symbol too long for a
# stream is cut with a warning naming file, line and symbol; an Ethernet
# link to the wrong port warns; gzip input reads as zstd input does;
# simsynth leaves nothing behind when it fails and -z compresses its
# truth; span2otlp shows its first retry and takes --backoff 0.2.
. "$(dirname "$0")/../lib.sh"
RULES="$TOP/rules/linux-i40e.csv"
syms="$DATA/samples/gem5/vmlinux.syms"
[ -f "$syms" ] || syms="$TOP/samples/dumbbell/vmlinux.syms"
entry=$(awk '$NF == "entry_SYSCALL_64" { print $1; exit }' "$syms")

# --- 4. a fixed limit that drops data warns, without --stats -------------------
# 300 CPUs each entering a syscall: the kernel contexts follow 256
awk -v a="$entry" 'BEGIN { for (i = 0; i < 300; i++)
    printf "%7d: system.cpu%d: A0 T0 : 0x%s    : push rbp\n", 1000 + i, i, a }' \
    >"$T/cpus.log"
check "sim2ev: 300 CPUs" sim2ev -f gem5 -n h -s "$syms" -o "$T/cpus.ev" "$T/cpus.log"
printf 'stream,h,host,%s\n' "$T/cpus.ev" >"$T/cpus.csv"
expect_rc 0 "evspan on 300 CPUs" evspan -t "$T/cpus.csv" -r "$RULES" -o /dev/null
stderr_has "warning: 44 events of CPUs past the first 256 of a host left out of the kernel contexts"
expect_rc 1 "... and --strict makes it fatal" evspan --strict -t "$T/cpus.csv" -r "$RULES" -o /dev/null
mkdumbbell -n 20 "$T/d" >/dev/null
# the context limit of the rules: one context waiting per link
mkdir "$T/s"
cp "$TOP"/samples/dumbbell/*.log.zst "$TOP"/samples/dumbbell/*.syms \
    "$TOP"/samples/dumbbell/*.csv "$TOP"/samples/dumbbell/commands.sh "$T/s/"
check "the sample's event streams" sh "$T/s/commands.sh"
{ cat "$T/s/rules.csv"; printf 'context-limit,1\n'; } >"$T/tight.csv"
expect_rc 0 "evspan with context-limit 1" evspan -t "$T/s/topology.csv" -r "$T/tight.csv" -o /dev/null
stderr_has "warning: 210 mmio contexts dropped at the context limit (1 waiting per link): their spans are orphans; raise context-limit in the rules"
expect_rc 0 "... not with the default limit" evspan -t "$T/s/topology.csv" -r "$T/s/rules.csv" -o /dev/null
eq "... no warning" "$(wc -c <"$T/.err" | tr -d ' ')" 0

# --- 5. a symbol too long for a stream: cut, named, not fatal ----------------------
python3 -c "
import sys
print('SYMBOL TABLE:')
print('ffffffff81000010 g     F .text\t000000000000001a small_fn')
print('ffffffff81000040 g     F .text\t000000000000001a ' + 'f' * 200029)
" >"$T/big.syms"
printf '   1000: system.switch_cpus: A0 T0 : 0xffffffff81000040    : nop\n   2000: system.switch_cpus: A0 T0 : 0xffffffff81000010    : nop\n' >"$T/big.log"
expect_rc 0 "sim2ev with a 200 KB symbol name" sim2ev -f gem5 -s "$T/big.syms" -o "$T/big.ev" "$T/big.log"
stderr_has "warning: $T/big.syms:3: symbol 'fffffffffffffffffffffffffffffffffffffff...' of 200029 bytes cut to its first 65535, a stream's longest string (1 symbol of this table cut)"
check "... the stream is whole" evcat -n "$T/big.ev"
stdout_has "           2 func"
eq "... the long name cut to 65535 bytes" \
    "$(evcat -j "$T/big.ev" | head -n 1 | python3 -c 'import json,sys; print(len(json.loads(sys.stdin.read())["sym"]))')" 65535
expect_rc 1 "... --strict makes it fatal" sim2ev --strict -f gem5 -s "$T/big.syms" -o "$T/big2.ev" "$T/big.log"

# --- 8. an Ethernet link to the wrong port warns -----------------------------------
sed 's/^eth,client-nic,net,1,2$/eth,client-nic,net,1,3/' "$T/d/topology.csv" >"$T/d/wrong.csv"
check "the topology has the link to change" sh -c "! cmp -s '$T/d/topology.csv' '$T/d/wrong.csv'"
expect_rc 0 "evspan with client-nic on node 1 device 3" evspan -t "$T/d/wrong.csv" -r "$RULES" -o /dev/null
stderr_has "the eth link of client-nic to net node 1 device 3 saw no packet while 1 other saw"
stderr_has "a wrong node or device number? ("
stderr_has "adapter devices no eth link names, the first net node 1 device 2)"
expect_rc 1 "... --strict exits 1" evspan --strict -t "$T/d/wrong.csv" -r "$RULES" -o /dev/null
expect_rc 0 "the right topology: no such warning" evspan -t "$T/d/topology.csv" -r "$RULES" -o /dev/null
eq "... none" "$(grep -c 'eth link' "$T/.err" || :)" 0

# --- 9. gzip input ----------------------------------------------------------------
zstd -q -d -c "$TOP/samples/dumbbell/client0-nic.nicbm.log.zst" >"$T/nic.log"
gzip -c "$T/nic.log" >"$T/nic.log.gz"
expect_rc 0 "sim2ev reads a .gz log" sim2ev -f nicbm -o "$T/gz.ev" "$T/nic.log.gz"
eq "... no warning" "$(wc -c <"$T/.err" | tr -d ' ')" 0
sim2ev -f nicbm -o "$T/plain.ev" "$T/nic.log"
eq "... the same events as from the plain log" "$(evcat "$T/gz.ev" | cksum)" "$(evcat "$T/plain.ev" | cksum)"
check "two gzip members, as gzip -d reads them" sh -c \
    "cat '$T/nic.log.gz' '$T/nic.log.gz' | sim2ev -f nicbm --stats -o /dev/null"
stderr_has "stdin: $(($(wc -l <"$T/nic.log") * 2)) lines"
head -c 4000 "$T/nic.log.gz" >"$T/cut.gz"
expect_rc 1 "a cut .gz is a truncation" sim2ev -f nicbm -o /dev/null "$T/cut.gz"
stderr_has "truncated gzip data"
gzip -c "$T/plain.ev" >"$T/ev.gz"
expect_rc 0 "evcat reads a gzip'ed event stream" evcat -n "$T/ev.gz"
eq "... the same counts" "$(cat "$T/.out")" "$(evcat -n "$T/plain.ev")"

# --- 7. simsynth: nothing left behind, -z compresses the truth, commands.sh -----
expect_rc 1 "simsynth out of file descriptors" sh -c "ulimit -n 40; simsynth -H 30 -n 2 '$T/em'"
stderr_has "Too many open files (every log is open at once"
check "... leaves no directory behind" test ! -e "$T/em"
if sh -c 'ulimit -S -n 40' 2>/dev/null && [ "$(ulimit -H -n)" != 40 ]; then
	expect_rc 0 "... a low soft limit is raised to the hard one" sh -c \
	    "ulimit -S -n 40; simsynth -H 30 -n 2 '$T/em2'"
fi
mkdir "$T/keep"
expect_rc 2 "a bad option leaves an existing directory alone" simsynth --hosts 1 "$T/keep"
check "... still there" test -d "$T/keep"
expect_rc 0 "simsynth -z" simsynth -z -n 3 "$T/z"
check "... truth.csv.zst" test -f "$T/z/truth.csv.zst"
check "... and no truth.csv" test ! -e "$T/z/truth.csv"
expect_rc 0 "simsynth, the same without -z" simsynth -n 3 "$T/nz"
eq "... the same truth" "$(zstd -q -d -c "$T/z/truth.csv.zst" | cksum)" "$(cksum <"$T/nz/truth.csv")"
check "commands.sh stops at the first failure" grep -qx 'set -e' "$T/z/commands.sh"
check "commands.sh runs from anywhere" sh -c "cd / && sh '$T/z/commands.sh'"
check "... its spans are there" test -s "$T/z/spans.sp"
check "score-truth reads truth.csv.zst" sh -c \
    "spancat --csv -H '$T/z/spans.sp' >'$T/z.csv' && sh '$TOP/tests/score-truth.sh' -q '$T/z/truth.csv.zst' '$T/z.csv'"
rm "$T/nz/net.ns3.log"
expect_rc 1 "commands.sh with a log missing: exit 1" sh "$T/nz/commands.sh"
check "... and no evspan run after it" test ! -e "$T/nz/spans.sp"

# --- 11. span2otlp: the first retry shows, --backoff takes seconds ----------------
evspan -t "$T/d/topology.csv" -r "$RULES" -o "$T/d.sp"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
expect_rc 1 "span2otlp to no collector, --backoff 0.2" span2otlp \
    --endpoint "http://127.0.0.1:$port" --retries 2 --backoff 0.2 "$T/d.sp"
cp "$T/.err" "$T/otlp.err"
check "... the first retry is on stderr, without -v" grep -Eq \
    "^span2otlp: batch 1: .*; retry 1 of 2 in [0-9]+ ms \\(-v shows every retry\\)$" "$T/otlp.err"
eq "... only the first" "$(grep -c 'retry [0-9] of' "$T/otlp.err")" 1
check "... and then that it was not delivered" grep -q "not delivered" "$T/otlp.err"
expect_rc 1 "span2otlp -q: no retry notice" span2otlp -q \
    --endpoint "http://127.0.0.1:$port" --retries 1 --backoff 1ms "$T/d.sp"
eq "... none" "$(grep -c 'retry [0-9] of' "$T/.err" || :)" 0
stderr_has "not delivered"
expect_rc 1 "span2otlp -v: every retry" span2otlp -v \
    --endpoint "http://127.0.0.1:$port" --retries 2 --backoff 1ms "$T/d.sp"
eq "... two" "$(grep -c 'retry [0-9] of' "$T/.err")" 2
for b in 0.2 1.5s 200ms 0.25min; do
	expect_rc 1 "--backoff $b is a duration" span2otlp --endpoint "http://127.0.0.1:$port" \
	    --retries 0 --backoff "$b" "$T/d.sp"
done
expect_rc 2 "--backoff 0.0001: finer than a millisecond" span2otlp --backoff 0.0001 "$T/d.sp"
stderr_has "--backoff 0.0001: finer than a millisecond"
expect_rc 2 "--timeout 0.5x: invalid" span2otlp --timeout 0.5x "$T/d.sp"
done_testing
