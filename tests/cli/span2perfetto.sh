#!/bin/sh
# span2perfetto: usage, both outputs checked by tests/perfetto/check.js
# (protobuf decoded with protobufjs against the upstream field numbers,
# JSON against the Trace Event Format's rules), bad input, temporary file.
. "$(dirname "$0")/../lib.sh"
OTLP="$TOP/tests/otlp"
PF="$TOP/tests/perfetto"

mkspans -e -n 40 -o "$T/in.sp"		# 720 spans, events, links, orphans
mkspans -e -z -n 40 -o "$T/in.sp.zst"
nspans=$(spancat -n "$T/in.sp" | awk '$2 == "spans" {print $1}')
nlinks=$(spancat -n "$T/in.sp" | awk '$2 == "links" {print $1}')
eq "mkspans made 720 spans and 39 links" "$nspans $nlinks" "720 39"

# --- usage ---------------------------------------------------------------
check "--help" span2perfetto --help
stdout_has "usage: span2perfetto"
stdout_has "ui.perfetto.dev"
stdout_has "See span2perfetto(1)"
check "--version" span2perfetto --version
stdout_has "span2perfetto 0.1.0"
expect_rc 2 "unknown option" span2perfetto --bogus
stderr_has "usage: span2perfetto"
expect_rc 2 "bad format" span2perfetto -f xml "$T/in.sp"
stderr_has "--format xml: not json or proto"
expect_rc 2 "two inputs" span2perfetto "$T/in.sp" "$T/in.sp"
expect_rc 2 "window of 0" span2perfetto -w 0 "$T/in.sp"
stderr_has "--window 0: too small"
expect_rc 2 "window not a number" span2perfetto --window 1k "$T/in.sp"

# --- formats ----------------------------------------------------------------
check "JSON to stdout (the default)" sh -c "span2perfetto '$T/in.sp' > '$T/out.json'"
check "JSON: python3 parses it" python3 -c "import json; json.load(open('$T/out.json'))"
check "-o x.json" span2perfetto -o "$T/o.json" "$T/in.sp"
check "-o x.json: the same as stdout" cmp "$T/out.json" "$T/o.json"
check "-o x.pftrace: protobuf" span2perfetto -o "$T/o.pftrace" "$T/in.sp"
eq "protobuf starts with Trace.packet" "$(od -An -tx1 -N1 "$T/o.pftrace" | tr -d ' ')" "0a"
check "-o x.perfetto-trace: protobuf too" span2perfetto -o "$T/o.perfetto-trace" "$T/in.sp"
check "... the same bytes" cmp "$T/o.pftrace" "$T/o.perfetto-trace"
check "-f proto to stdout" sh -c "span2perfetto -f proto '$T/in.sp' > '$T/p.pb'"
check "... the same bytes" cmp "$T/o.pftrace" "$T/p.pb"
check "-f json -o x.pftrace: the option wins" span2perfetto -f json -o "$T/j.pftrace" "$T/in.sp"
check "... JSON" cmp "$T/out.json" "$T/j.pftrace"
check "zstd input, stdin" sh -c "span2perfetto -f proto < '$T/in.sp.zst' > '$T/z.pb'"
check "... the same trace" cmp "$T/o.pftrace" "$T/z.pb"
check "-o x.pftrace.zst: compressed protobuf" span2perfetto -o "$T/o.pftrace.zst" "$T/in.sp"
check "... that zstd -d turns into the same trace" sh -c "zstd -dc '$T/o.pftrace.zst' | cmp - '$T/o.pftrace'"
check "deterministic" sh -c "span2perfetto -f proto '$T/in.sp' | cmp - '$T/o.pftrace'"
check "--stats" span2perfetto --stats -o "$T/o.json" "$T/in.sp"
stderr_has "720 spans, 39 links, 440 member events (not exported)"
stderr_has "5 processes, 16 tracks"
stderr_has "675 parent flows, 39 link flows (0 as flow events)"
stderr_has "window: 720 spans held at most, 0 laid out after it had passed their start"
cp "$T/.err" "$T/stats.err"
check "--stats: no wall time" sh -c "! grep -q 'wall time' '$T/stats.err'"
check "-v: --stats and the wall time" span2perfetto -v -o "$T/o.json" "$T/in.sp"
stderr_has "window: 720 spans held at most"
stderr_has "wall time"
check "--stats: nothing to warn about" sh -c "! span2perfetto -o '$T/o.json' '$T/in.sp' 2>&1 | grep -q ."
# a terminal refuses protobuf unless --force (script(1) gives us one)
if command -v script >/dev/null 2>&1; then
	script -qec "span2perfetto -f proto '$T/in.sp'" /dev/null > "$T/tty.out" 2>&1 || :
	check "protobuf to a terminal: refused" grep -q "terminal" "$T/tty.out"
fi

# --- the outputs, checked --------------------------------------------------
if ! command -v node >/dev/null 2>&1; then
	not_ok "node is needed for tests/perfetto/check.js"
	done_testing
	exit 1
fi
if [ ! -f "$OTLP/node_modules/protobufjs/package.json" ]; then
	echo "# installing the test npm packages (protobufjs) into $OTLP/node_modules"
	if ! (cd "$OTLP" && npm install --no-audit --no-fund \
	    --omit-lockfile-registry-resolved >"$T/npm.log" 2>&1); then
		not_ok "npm install in tests/otlp failed: is the npm registry reachable?"
		sed 's/^/# npm: /' "$T/npm.log" | tail -15
		done_testing
		exit 1
	fi
fi
check "protobuf: decodes, slices = spans, flows, tracks, nesting" \
    node "$PF/check.js" proto "$T/o.pftrace" "$nspans" "$nlinks"
stdout_has "proto: 720 slices on 16 tracks, 675 parent flows, 0 nested, 39 link flows"
check "JSON: Trace Event Format, slices = spans, flows, tracks, nesting" \
    node "$PF/check.js" json "$T/out.json" "$nspans" "$nlinks"
stdout_has "json: 720 slices on 16 tracks, 675 parent flows, 0 nested, 39 link flows"
# evspan's spans of a SimBricks dumbbell run
mkdumbbell -n 200 "$T/db" >/dev/null
evspan -t "$T/db/topology.csv" -r "$TOP/rules/linux-i40e.csv" -o "$T/db.sp" 2>/dev/null
n=$(spancat -n "$T/db.sp" | awk '$2 == "spans" {print $1}')
l=$(spancat -n "$T/db.sp" | awk '$2 == "links" {print $1}')
check "dumbbell: protobuf" span2perfetto -o "$T/db.pftrace" "$T/db.sp"
check "dumbbell: protobuf checks" node "$PF/check.js" proto "$T/db.pftrace" "$n" "$l"
check "dumbbell: JSON" span2perfetto -o "$T/db.json" "$T/db.sp"
check "dumbbell: JSON checks" node "$PF/check.js" json "$T/db.json" "$n" "$l"
# a window of 1 span: the spans out of order are written out of time
# order, with a warning; trace_processor's reading is still right
check "-w 1" sh -c "span2perfetto -w 1 -o '$T/w1.pftrace' '$T/db.sp' 2>'$T/w1.err'"
check "-w 1: the warning names the fix" grep -q "a larger --window orders them" "$T/w1.err"
check "-w 1: protobuf checks" node "$PF/check.js" proto "$T/w1.pftrace" "$n" "$l"
stdout_has "events out of time order"
check "-w 1 -q: no notes" sh -c "span2perfetto -q -w 1 -o '$T/w1q.pftrace' '$T/db.sp' 2>'$T/w1q.err' && ! test -s '$T/w1q.err'"
check "-w 1: JSON" span2perfetto -w 1 -o "$T/w1.json" "$T/db.sp"
check "-w 1: JSON checks" node "$PF/check.js" json "$T/w1.json" "$n" "$l"
# the EXAMPLES of span2perfetto(1), as written
check "example: -o run.pftrace" sh -c "cd '$T' && span2perfetto -o run.pftrace db.sp && test -s run.pftrace"
check "example: -v -o run.json" sh -c "cd '$T' && span2perfetto -v -o run.json db.sp 2>/dev/null && test -s run.json"
check "example: evspan | span2perfetto -o run.pftrace" sh -c "cd '$T/db' &&
    evspan -t topology.csv -r '$TOP/rules/linux-i40e.csv' 2>/dev/null | span2perfetto -o run.pftrace &&
    cmp run.pftrace ../run.pftrace"
# the checker catches what it should: a slice missing, a flow end lost
check "checker: a slice too few" sh -c "! node '$PF/check.js' json '$T/out.json' 721 39 2>/dev/null"
sed '0,/"ph":"f","bp":"e",/s//"ph":"i","bp":"e",/' "$T/out.json" > "$T/bad.json"
check "checker: a lost flow end" sh -c "! node '$PF/check.js' json '$T/bad.json' 720 39 2>/dev/null"

# --- bad input and output: exit 1, nothing left behind ---------------------
expect_rc 1 "missing input" span2perfetto -o "$T/m.json" "$T/nonexistent.sp"
stderr_has "$T/nonexistent.sp"
check "... no output file" test ! -e "$T/m.json"
printf 'not a span stream at all\n' >"$T/junk"
expect_rc 1 "not a span stream" span2perfetto -o "$T/m.json" "$T/junk"
stderr_has "$T/junk"
size=$(wc -c <"$T/in.sp")
head -c $((size / 2)) "$T/in.sp" >"$T/cut.sp"
expect_rc 1 "truncated" span2perfetto -o "$T/m.pftrace" "$T/cut.sp"
stderr_has "cut.sp: offset"
check "... no output file" test ! -e "$T/m.pftrace"
# flip one bit in the middle: the block checksum catches it
cp "$T/in.sp" "$T/flip.sp"
off=$((size / 2))
byte=$(od -An -tu1 -j "$off" -N1 "$T/in.sp" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 16)))" | dd of="$T/flip.sp" bs=1 seek="$off" conv=notrunc 2>/dev/null
expect_rc 1 "a flipped bit" span2perfetto -o "$T/m.json" "$T/flip.sp"
stderr_has "flip.sp"
check "... no output file" test ! -e "$T/m.json"
check "... no temporary file either" sh -c "! ls '$T' | grep -q tmp"
echo old > "$T/keep.json"
expect_rc 1 "bad input keeps an old output file" span2perfetto -o "$T/keep.json" "$T/cut.sp"
eq "... unchanged" "$(cat "$T/keep.json")" "old"
expect_rc 1 "/dev/full" sh -c "span2perfetto '$T/in.sp' > /dev/full"
expect_rc 1 "unwritable directory" span2perfetto -o "$T/no/such/dir/x.json" "$T/in.sp"
stderr_has "temporary file"
# a FIFO (like /dev/null) is written in place, not replaced by a renamed file
mkfifo "$T/fifo"
cat "$T/fifo" > "$T/fromfifo" & catpid=$!
check "-o FIFO" span2perfetto -f json -o "$T/fifo" "$T/in.sp"
if [ -p "$T/fifo" ]; then
	ok "-o FIFO: still a FIFO"
	wait "$catpid"
else
	not_ok "-o FIFO: still a FIFO"
	kill "$catpid" 2>/dev/null || :
fi
[ -s "$T/fromfifo" ] && ok "-o FIFO: the trace came through" || not_ok "-o FIFO: the trace came through"
# empty stream: a valid, empty trace
mkspans -n 0 -o "$T/empty.sp" 2>/dev/null || :
if [ -s "$T/empty.sp" ]; then
	check "no spans: JSON" span2perfetto -o "$T/e.json" "$T/empty.sp"
	check "no spans: JSON checks" node "$PF/check.js" json "$T/e.json" 0 0
	check "no spans: protobuf" span2perfetto -o "$T/e.pftrace" "$T/empty.sp"
	check "no spans: protobuf checks" node "$PF/check.js" proto "$T/e.pftrace" 0 0
fi

done_testing
