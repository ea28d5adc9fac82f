# span2otlp: usage, file output checked by the OTLP validators, and OTLP/HTTP
# against a real local receiver (tests/otlp/receiver.js, Node), including
# retries, Retry-After, failures and a collector that is down or hangs.
. "$(dirname "$0")/../lib.sh"
OTLP="$TOP/tests/otlp"
needs node npm		# the receiver and the validators
PIDS=""
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT

mkspans -e -n 40 -o "$T/in.sp"		# 720 spans, events, links, orphans
mkspans -n 40 -o "$T/plain.sp"		# the same without member events
mkspans -e -z -n 40 -o "$T/in.sp.zst"
spandump "$T/in.sp" | sort >"$T/expect"
spandump -n "$T/in.sp" | sort >"$T/expect.noev"
nspans=$(wc -l <"$T/expect")
eq "mkspans made 720 spans" "$nspans" 720

# The validators and the receiver need @opentelemetry/otlp-transformer and
# protobufjs from npm (pinned in tests/otlp/package.json, lock committed).
want=$(node -e 'process.stdout.write(require(process.argv[1]).dependencies["@opentelemetry/otlp-transformer"])' "$OTLP/package.json")
have=$(node -e 'try { process.stdout.write(require(process.argv[1]).version) } catch (e) {}' \
    "$OTLP/node_modules/@opentelemetry/otlp-transformer/package.json")
if [ "$have" != "$want" ]; then
	echo "# installing the test receiver's npm packages into $OTLP/node_modules"
	if ! (cd "$OTLP" && npm install --no-audit --no-fund \
	    --omit-lockfile-registry-resolved >"$T/npm.log" 2>&1); then
		not_ok "npm install in tests/otlp failed: is the npm registry reachable? the OTLP/HTTP tests cannot run"
		sed 's/^/# npm: /' "$T/npm.log" | tail -15
		done_testing
		exit 1
	fi
fi
check "receiver dependencies installed" test -f "$OTLP/node_modules/@opentelemetry/otlp-transformer/build/src/generated/root.js"

# --- usage ---------------------------------------------------------------
check "--help" span2otlp --help
stdout_has "usage: span2otlp"
stdout_has "--endpoint URL"
stdout_has "default 8192"
check "--version" span2otlp --version
stdout_has "span2otlp 0.1.0"
stdout_has "libcurl"
expect_rc 2 "unknown option" span2otlp --bogus
stderr_has "usage: span2otlp"
expect_rc 2 "two inputs" span2otlp "$T/in.sp" "$T/in.sp"
expect_rc 2 "batch 0" span2otlp -b 0 "$T/in.sp"
stderr_has "--batch 0: too small"
expect_rc 2 "huge batch" span2otlp --batch 99999999999999999999 "$T/in.sp"
stderr_has "too large"
expect_rc 2 "bad protocol" span2otlp --protocol grpc "$T/in.sp"
stderr_has "--protocol grpc"
expect_rc 2 "bad epoch" span2otlp --epoch yesterday "$T/in.sp"
expect_rc 2 "bad timeout" span2otlp --timeout 0 "$T/in.sp"
expect_rc 2 "bad retries" span2otlp --retries -1 "$T/in.sp"
expect_rc 2 "--gzip needs --endpoint" span2otlp --gzip "$T/in.sp"
stderr_has "-o FILE.zst"
expect_rc 2 "-o and --endpoint" span2otlp -o "$T/x" --endpoint http://127.0.0.1:9/ "$T/in.sp"
expect_rc 2 "URL scheme" span2otlp --endpoint ftp://127.0.0.1/v1/traces "$T/in.sp"
stderr_has "not http or https"
expect_rc 2 "URL without host" span2otlp --endpoint http:// "$T/in.sp"
stderr_has "bad endpoint URL"
expect_rc 2 "not a URL" span2otlp --endpoint "local host:4318" "$T/in.sp"
stderr_has "bad endpoint URL"
expect_rc 2 "header without a colon" span2otlp -H "Authorization" \
    --endpoint http://127.0.0.1:9/ "$T/in.sp"
stderr_has "expected 'Name: value'"
expect_rc 2 "--header needs --endpoint" span2otlp -H "A: b" "$T/in.sp"

# libcurl is opened only to send (lib/sink/http.c): writing a file does not
# load it, checking a URL does (LD_DEBUG=files: glibc lists what it loads).
LD_DEBUG=files span2otlp -o "$T/x.json" "$T/in.sp" 2>"$T/ld.file" || :
LD_DEBUG=files span2otlp --endpoint http:// "$T/in.sp" 2>"$T/ld.url" || :
eq "a file export does not load libcurl" "$(grep -c 'file=libcurl' "$T/ld.file")" 0
check "a URL loads libcurl" grep -q 'file=libcurl' "$T/ld.url"
rm -f "$T/x.json"

# --- bad input and output ---------------------------------------------------
expect_rc 1 "missing input" span2otlp "$T/nonexistent.sp"
stderr_has "$T/nonexistent.sp"
printf 'not a span stream at all\n' >"$T/junk"
expect_rc 1 "not a span stream" span2otlp "$T/junk"
stderr_has "$T/junk"
size=$(wc -c <"$T/in.sp")
head -c $((size / 2)) "$T/in.sp" >"$T/cut.sp"
expect_rc 1 "truncated stream" span2otlp -o "$T/cut.json" "$T/cut.sp"
stderr_has "$T/cut.sp"
check "spans before the damage are written" node "$OTLP/validate.js" json "$T/cut.json"
expect_rc 1 "-o /dev/full" span2otlp -o /dev/full "$T/in.sp"
stderr_has "No space left on device"
expect_rc 1 "stdout /dev/full" sh -c 'span2otlp "$1" >/dev/full' sh "$T/in.sp"
stderr_has "No space left on device"
if command -v script >/dev/null 2>&1; then
	expect_rc 1 "protobuf to a terminal is refused" script -qec \
	    "span2otlp --protocol http/protobuf $T/in.sp" /dev/null
	stdout_has "refusing to write binary records to a terminal"
	check "-f forces it" script -qec \
	    "span2otlp --force --protocol http/protobuf $T/in.sp" /dev/null
	check "JSON to a terminal is fine" script -qec "span2otlp $T/in.sp" /dev/null
else
	ok "# SKIP terminal tests: script(1) not installed"
fi
mkspans -n 0 -o "$T/empty.sp"
check "empty stream" span2otlp -o "$T/empty.json" "$T/empty.sp"
eq "empty stream: no requests" "$(wc -c <"$T/empty.json")" 0

# --- file output --------------------------------------------------------------
check "JSON lines to -o" span2otlp -o "$T/out.json" "$T/in.sp"
check "JSON validates" node "$OTLP/validate.js" json "$T/out.json" \
    --summary "$T/sum.json" --record "$T/rec.json"
stdout_has "1 requests, 720 spans"
sort "$T/sum.json" >"$T/sum.json.s"
check "JSON: ids, parents, names, events, links as in the input" \
    cmp "$T/expect" "$T/sum.json.s"
check "JSON to stdout is the default" sh -c 'span2otlp "$1" >"$2"' sh \
    "$T/in.sp" "$T/stdout.json"
check "stdout = -o FILE" cmp "$T/out.json" "$T/stdout.json"
check "stdin with -" sh -c 'span2otlp - <"$1" >"$2"' sh "$T/in.sp" "$T/stdin.json"
check "stdin = file" cmp "$T/out.json" "$T/stdin.json"
check "zstd input" span2otlp -o "$T/z.json" "$T/in.sp.zst"
check "zstd input = plain input" cmp "$T/out.json" "$T/z.json"
check "zstd output" span2otlp -o "$T/out.json.zst" "$T/in.sp"
check "zstd output decompresses to the same" sh -c \
    'zstd -dc "$1" | cmp - "$2"' sh "$T/out.json.zst" "$T/out.json"
check "protobuf to -o" span2otlp --protocol http/protobuf -o "$T/out.pb" "$T/in.sp"
check "protobuf validates (decoded, re-encoded byte for byte)" \
    node "$OTLP/validate.js" protobuf "$T/out.pb" --record "$T/rec.pb"
check "protobuf and JSON carry the same spans, attributes, events" \
    cmp "$T/rec.json" "$T/rec.pb"

mkspans -n 500 -o "$T/9000.sp"
check "default batch" span2otlp -o "$T/9000.json" "$T/9000.sp"
check "default batch: 9000 spans in requests of 8192 and 808" \
    node "$OTLP/validate.js" json "$T/9000.json"
stdout_has "2 requests, 9000 spans"
check "batches of 7" span2otlp -b 7 -o "$T/b7.json" "$T/in.sp"
eq "720 spans in 103 requests" "$(wc -l <"$T/b7.json" | tr -d ' ')" 103
check "batches validate" node "$OTLP/validate.js" json "$T/b7.json" \
    --summary "$T/sum.b7"
stdout_has "103 requests, 720 spans"
sort "$T/sum.b7" >"$T/sum.b7.s"
check "events and links stay with their span across batches" \
    cmp "$T/expect" "$T/sum.b7.s"

# Links and events follow their span record (as evspan writes them); a
# batch never ends between the two, however small the batches.
for b in 1 2 3; do
	check "-b $b: every link and event kept" span2otlp -v -b "$b" -o "$T/s$b.json" "$T/in.sp"
	stderr_has "39 links read: 39 encoded, 0 unmatched"
	stderr_has "440 events read: 440 encoded, 0 switched off, 0 unmatched"
	node "$OTLP/validate.js" json "$T/s$b.json" --summary "$T/sum.s$b" >/dev/null
	sort "$T/sum.s$b" >"$T/sum.s$b.s"
	check "-b $b: as in the input" cmp "$T/expect" "$T/sum.s$b.s"
done
# Older evspan output had links elsewhere: here all at the end.
mkspans -e -L -n 40 -o "$T/late.sp"
check "links at the end, one batch: all attached" span2otlp -v -o "$T/late.json" "$T/late.sp"
stderr_has "39 links read: 39 encoded, 0 unmatched"
for b in 1 3; do
	expect_rc 1 "links at the end, -b $b: not attached" span2otlp -v -b "$b" -o "$T/late$b.json" "$T/late.sp"
	stderr_has "39 links read: 1 encoded, 38 unmatched"	# the last is in the last batch
	stderr_has "38 links and 0 events not attached to their span; the first such span, 0000000000000024, lost 1 link and 0 events: it was in an earlier batch"
done
check "... the spans and events are still exported" node "$OTLP/validate.js" json "$T/late3.json"
stdout_has "240 requests, 720 spans"

# --max-bytes: requests end early so that none is larger (before any
# compression); a single span larger than that is sent on its own.
longest() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }
mkspans -e -n 2000 -o "$T/big.sp"		# 36000 spans, 36 MB of JSON
spandump "$T/big.sp" | sort >"$T/expect.big"
check "default --max-bytes 4M" span2otlp -v -o "$T/big.json" "$T/big.sp"
stderr_has "36000 spans read: 36000 encoded"
check "... no request over 4 MiB ($(longest "$T/big.json") bytes)" test "$(longest "$T/big.json")" -le 4194304
check "... more requests than batches of 8192 spans" test "$(wc -l <"$T/big.json")" -gt 5
node "$OTLP/validate.js" json "$T/big.json" --summary "$T/sum.big" >/dev/null
sort "$T/sum.big" >"$T/sum.big.s"
check "... every span, event and link as in the input" cmp "$T/expect.big" "$T/sum.big.s"
check "--max-bytes 100k" span2otlp -v --max-bytes 100k -o "$T/m100.json" "$T/in.sp"
stderr_has "39 links read: 39 encoded, 0 unmatched"
check "... no request over 100 KiB" test "$(longest "$T/m100.json")" -le 102400
node "$OTLP/validate.js" json "$T/m100.json" --summary "$T/sum.m100" >/dev/null
sort "$T/sum.m100" >"$T/sum.m100.s"
check "... as in the input" cmp "$T/expect" "$T/sum.m100.s"
check "--max-bytes 0: one request per batch" span2otlp --max-bytes 0 -o "$T/m0.json" "$T/big.sp"
eq "... 5 requests of up to 8192 spans" "$(wc -l <"$T/m0.json" | tr -d ' ')" 5
check "--max-bytes 1k: spans larger than that alone" span2otlp --max-bytes 1k \
    --protocol http/protobuf -o "$T/m1k.pb" "$T/in.sp"
check "... valid, all spans" node "$OTLP/validate.js" protobuf "$T/m1k.pb"
stdout_has " requests, 720 spans"
check "... one or two (small) spans a request" test "$(sed -n 's/ requests.*//p' "$T/.out")" -gt 360
expect_rc 2 "--max-bytes: not a size" span2otlp --max-bytes 4MB "$T/in.sp"
stderr_has "--max-bytes 4MB: invalid"
expect_rc 2 "--max-bytes: too large" span2otlp --max-bytes 99999999999G "$T/in.sp"

check "--no-events" span2otlp --no-events -o "$T/noev.json" "$T/in.sp"
node "$OTLP/validate.js" json "$T/noev.json" --summary "$T/sum.noev" >/dev/null
sort "$T/sum.noev" >"$T/sum.noev.s"
check "--no-events: spans and links, no events" cmp "$T/expect.noev" "$T/sum.noev.s"
check "no events by default when the stream has none" \
    span2otlp -o "$T/plain.json" "$T/plain.sp"
check "--events on a stream without them" span2otlp --events -o "$T/plain2.json" "$T/plain.sp"
check "... changes nothing" cmp "$T/plain.json" "$T/plain2.json"
check "stream without events = --no-events" cmp "$T/noev.json" "$T/plain.json"

# EXAMPLES of the man page
check "example: --no-events -o spans.otlp.json.zst" sh -c \
    'cd "$1" && span2otlp --no-events -o spans.otlp.json.zst in.sp && zstd -dc spans.otlp.json.zst | cmp - noev.json' sh "$T"
if command -v jq >/dev/null 2>&1; then
	check "example: first span of each request with jq" sh -c \
	    'span2otlp "$1" | jq -c ".resourceSpans[0].scopeSpans[0].spans[0]" >"$2"' sh "$T/in.sp" "$T/jq.out"
	check "... names the first span" grep -q '"spanId":"0000000000000001".*"name":"host.syscall' "$T/jq.out"
else
	ok "# SKIP example with jq: jq not installed"
fi

first_start() { grep -o '"startTimeUnixNano":"[0-9]*"' "$1" | head -1 | tr -dc 0-9; }
eq "default epoch 0: ps / 1000" "$(first_start "$T/out.json")" 2000000
check "--epoch" span2otlp --epoch 1700000000000000000 -o "$T/ep.json" "$T/in.sp"
eq "--epoch adds nanoseconds" "$(first_start "$T/ep.json")" 1700000000002000000
check "--epoch now" span2otlp --epoch now -o "$T/now.json" "$T/in.sp"
now=$(first_start "$T/now.json")
check "--epoch now is the wall clock" test "$now" -gt "$(( $(date +%s) - 60 ))000000000"
check "exact ps kept" grep -q '"simspan.start_ps","value":{"intValue":"2000000000"}' "$T/out.json"
check "orphans get status ERROR" grep -q '"status":{"message":"orphan: expected parent is missing (net.device)","code":2}' "$T/out.json"

check "-v counts" span2otlp -v -b 100 -o "$T/v.json" "$T/in.sp"
stderr_has "720 spans read: 720 encoded"
stderr_has "440 events read: 440 encoded, 0 switched off, 0 unmatched"
stderr_has "39 links read: 39 encoded, 0 unmatched"
stderr_has "8 requests written to $T/v.json"

# The validators are strict: they must reject what the OTLP encoding forbids.
sed 's/"intValue":"4"/"intValue":4/' "$T/out.json" >"$T/bad1.json"
expect_rc 1 "validator rejects a 64-bit int as a JSON number" \
    node "$OTLP/validate.js" json "$T/bad1.json"
stderr_has "not a decimal string"
sed 's/"spanId"/"span_id"/' "$T/out.json" >"$T/bad2.json"
expect_rc 1 "validator rejects snake_case names" node "$OTLP/validate.js" json "$T/bad2.json"
sed 's/"kind":1/"kind":"SPAN_KIND_INTERNAL"/' "$T/out.json" >"$T/bad3.json"
expect_rc 1 "validator rejects enum names" node "$OTLP/validate.js" json "$T/bad3.json"
# ... and, through the official schema (the generated root's fromObject,
# verify, encode and decode), what the hand-written field lists let pass:
# values that protobufjs would quietly coerce, keys the schema lacks.
for m in 'droppedAttributesCount":"x"' 'flags":-1' 'traceState":5' \
    'droppedEventsCount":1.5'; do
	sed "s/\"name\":\"host.syscall[^\"]*\",/&\"$m,/" "$T/out.json" >"$T/bad4.json"
	expect_rc 1 "validator (schema) rejects {\"$m}" node "$OTLP/validate.js" json "$T/bad4.json"
	stderr_has "json (schema)"
done
sed 's/"intValue":"4"/"intValue":"04"/' "$T/out.json" >"$T/bad5.json"
expect_rc 1 "validator (schema) rejects a non-canonical 64-bit int" \
    node "$OTLP/validate.js" json "$T/bad5.json"
stderr_has 'intValue: "04" came back as "4"'
sed 's/"scope":{"name":"simspan"/"scope":{"name":"simspan","entityRefs":[]/' "$T/out.json" >"$T/bad6.json"
expect_rc 1 "validator rejects a field of another message" \
    node "$OTLP/validate.js" json "$T/bad6.json"
sed 's/"attributes":\[{"key":"service.name"/"entityRefs":[],&/' "$T/out.json" >"$T/ok6.json"
check "... but an empty repeated field is no field" node "$OTLP/validate.js" json "$T/ok6.json"
# An unknown field (22, varint) appended to a valid request is skipped by the
# generated decoder; the byte-for-byte re-encoding check must catch it.
node -e '
const fs = require("fs"); const b = fs.readFileSync(process.argv[1]);
let len = 0, sh = 0, p = 0, c;
do { c = b[p++]; len += (c & 0x7f) * 2 ** sh; sh += 7; } while (c & 0x80);
const body = Buffer.concat([b.subarray(p, p + len), Buffer.from([0xb0, 0x01, 0x05])]);
const pre = []; let n = body.length;
while (n >= 0x80) { pre.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); }
pre.push(n);
fs.writeFileSync(process.argv[2], Buffer.concat([Buffer.from(pre), body]));' \
    "$T/out.pb" "$T/bad.pb"
printf '\377\377\377\377\017' >"$T/bad2.pb"
expect_rc 1 "validator rejects a truncated protobuf file" \
    node "$OTLP/validate.js" protobuf "$T/bad2.pb"

# --- OTLP/HTTP against a real receiver ---------------------------------------
expect_rc 1 "validator catches an unknown protobuf field" \
    node "$OTLP/validate.js" protobuf "$T/bad.pb"
stderr_has "re-encoding differs"

nrecv=0
# start_receiver NAME ARGS...: sets $port; logs in $T/NAME.*
start_receiver() {
	name=$1; shift
	rm -f "$T/$name.port"
	node "$OTLP/receiver.js" --port-file "$T/$name.port" --summary "$T/$name.sum" \
	    --record "$T/$name.rec" --log "$T/$name.log" --lifetime 100 "$@" \
	    2>"$T/$name.err" &
	PIDS="$PIDS $!"
	i=0
	while [ ! -s "$T/$name.port" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	port=$(cat "$T/$name.port" 2>/dev/null || echo 0)
	nrecv=$((nrecv + 1))
}
stop_receivers() { for p in $PIDS; do kill "$p" 2>/dev/null; done; wait 2>/dev/null || true; PIDS=""; }
received() { sort "$T/$1.sum" 2>/dev/null >"$T/$1.sum.s"; cmp "$2" "$T/$1.sum.s"; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }
# gap NAME A B: ms between requests A and B in the receiver's log
gap() { node -e 'const l = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
process.stdout.write(String(l[process.argv[3] - 1].t - l[process.argv[2] - 1].t));' "$T/$1.log" "$2" "$3"; }
no_errors() { if grep -q '"error"' "$T/$1.log"; then not_ok "$1: receiver rejected a request"; grep '"error"' "$T/$1.log" | head -3 | sed 's/^/# /'; else ok "$1: receiver accepted every request"; fi; }

for proto in http/protobuf http/json; do
	for gz in "" --gzip; do
		n=r$(echo "$proto$gz" | tr -dc a-z)
		start_receiver "$n"
		check "$proto $gz: sent" span2otlp -b 100 $gz --protocol "$proto" \
		    --endpoint "http://127.0.0.1:$port/v1/traces" "$T/in.sp"
		no_errors "$n"
		check "$proto $gz: ids, parents, names, events, links as in the input" \
		    received "$n" "$T/expect"
		eq "$proto $gz: 8 requests" "$(grep -c '"status":200' "$T/$n.log")" 8
		if [ -n "$gz" ]; then
			check "$proto: Content-Encoding gzip" grep -q '"ce":"gzip"' "$T/$n.log"
		fi
		sort "$T/$n.rec" >"$T/$n.rec.s"
		sort "$T/rec.json" >"$T/rec.json.s"
		check "$proto $gz: received spans equal the JSON file's" \
		    cmp "$T/rec.json.s" "$T/$n.rec.s"
	done
done
check "protobuf by default with --endpoint" grep -q '"ct":"application/x-protobuf"' "$T/rhttpprotobuf.log"
check "json requests say so" grep -q '"ct":"application/json"' "$T/rhttpjson.log"
check "a User-Agent is sent" grep -q '"ua":"span2otlp/0.1.0' "$T/rhttpjson.log"
stop_receivers

start_receiver nopath
check "an endpoint without a path posts to /v1/traces" \
    span2otlp -b 50 --endpoint "http://127.0.0.1:$port" "$T/in.sp"
check "... and everything arrives" received nopath "$T/expect"
eq "15 requests" "$(wc -l <"$T/nopath.log" | tr -d ' ')" 15
eq "one connection for all of them (keep-alive)" \
    "$(grep -o '"rport":[0-9]*' "$T/nopath.log" | sort -u | wc -l | tr -d ' ')" 1
stop_receivers

start_receiver ex1
check "example: --epoch now --endpoint http://localhost:4318/v1/traces" \
    span2otlp --epoch now --endpoint "http://127.0.0.1:$port/v1/traces" "$T/in.sp"
check "... everything arrives" received ex1 "$T/expect"
check "... at today's time" grep -q '"start":"1[7-9][0-9]\{17\}"' "$T/ex1.rec"
stop_receivers
start_receiver ex2
check "example: -v --protocol http/json --gzip -b 1000" span2otlp -v \
    --protocol http/json --gzip -b 1000 --endpoint "http://127.0.0.1:$port/v1/traces" "$T/in.sp"
stderr_has "1 requests sent to http://127.0.0.1:$port/v1/traces (720 spans"
stderr_has "timeout 10000 ms, up to 5 retries, backoff 1000 ms, max elapsed 300000 ms"
check "... everything arrives" received ex2 "$T/expect"
stop_receivers

start_receiver noev
check "--no-events over HTTP" span2otlp --no-events -b 64 --endpoint "http://127.0.0.1:$port" "$T/in.sp"
check "--no-events: no span events arrive" received noev "$T/expect.noev"
stop_receivers

# 503 with Retry-After: 1 for the first two requests: retried, delay honoured
start_receiver ra --fail 2 --retry-after 1
check "503 + Retry-After: retried until accepted" span2otlp -v -b 360 \
    --endpoint "http://127.0.0.1:$port/v1/traces" "$T/in.sp"
stderr_has "retry 1 of 5 in 1000 ms (Retry-After)"
stderr_has "2 retries"
check "503 + Retry-After: everything arrives once" received ra "$T/expect"
g1=$(gap ra 1 2); g2=$(gap ra 2 3)
check "Retry-After: 1 honoured ($g1 ms, $g2 ms between attempts)" \
    test "$g1" -ge 950 -a "$g2" -ge 950
stop_receivers

# Retry-After as an HTTP date, 2 s after the 503 is sent (1 s resolution:
# the client waits 1 to 2 s)
start_receiver radate --fail 1 --retry-after +2
check "503 + Retry-After date: retried" span2otlp -b 720 \
    --endpoint "http://127.0.0.1:$port/v1/traces" "$T/in.sp"
g=$(gap radate 1 2)
check "Retry-After date honoured ($g ms)" test "$g" -ge 900
check "... everything arrives" received radate "$T/expect"
stop_receivers

# Retry-After is honoured in full, not capped like the backoff; a retry
# that could only start after --max-elapsed is not made.
start_receiver ralong --fail 1 --retry-after 70
t0=$(ms)
expect_rc 1 "Retry-After 70 s, --max-elapsed 1min: no early retry" span2otlp \
    -b 720 --max-elapsed 1min --endpoint "http://127.0.0.1:$port/v1/traces" "$T/in.sp"
t1=$(ms)
stderr_has "a retry in 70000 ms (Retry-After) would pass --max-elapsed (60000 ms); giving up"
stderr_has "720 spans in 1 request not delivered"
eq "... one attempt only" "$(wc -l <"$T/ralong.log" | tr -d ' ')" 1
# (generous: on a busy machine the one attempt may take seconds, but far
# less than the 70 s a retry would wait)
check "... and no waiting ($((t1 - t0)) ms)" test $((t1 - t0)) -lt 30000
stop_receivers
start_receiver ra2 --fail 1 --retry-after 2
expect_rc 1 "Retry-After 2 s, --max-elapsed 1s: not retried" span2otlp -b 720 \
    --max-elapsed 1s --endpoint "http://127.0.0.1:$port/v1/traces" "$T/in.sp"
stderr_has "would pass --max-elapsed (1000 ms)"
stop_receivers
start_receiver ra3 --fail 1 --retry-after 2
check "Retry-After 2 s, --max-elapsed 0 (no limit): retried" span2otlp -b 720 \
    --max-elapsed 0 --endpoint "http://127.0.0.1:$port/v1/traces" "$T/in.sp"
g=$(gap ra3 1 2)
check "... after the 2 s asked ($g ms)" test "$g" -ge 1950
check "... everything arrives" received ra3 "$T/expect"
stop_receivers

# --max-bytes over HTTP: the cap is on the body before gzip
start_receiver mb
check "--max-bytes 64k --gzip over HTTP" span2otlp --max-bytes 64k --gzip \
    --endpoint "http://127.0.0.1:$port/v1/traces" "$T/in.sp"
check "... everything arrives" received mb "$T/expect"
maxplain=$(grep -o '"plain":[0-9]*' "$T/mb.log" | cut -d: -f2 | sort -n | tail -1)
check "... in $(wc -l <"$T/mb.log" | tr -d ' ') requests of at most 64 KiB before gzip ($maxplain)" \
    test "$maxplain" -le 65536 -a "$(wc -l <"$T/mb.log")" -gt 3
stop_receivers

# 503 without Retry-After: exponential backoff from --backoff
start_receiver bo --fail 3 --status 503
t0=$(ms)
check "503: backoff and retry" span2otlp -b 720 --backoff 200ms \
    --endpoint "http://127.0.0.1:$port" "$T/in.sp"
g1=$(gap bo 1 2); g2=$(gap bo 2 3); g3=$(gap bo 3 4)
# (lower bounds only: a busy machine makes the gaps longer, never shorter)
check "backoff grows: $g1, $g2, $g3 ms (jitter: upper half of 200, 400, 800)" \
    test "$g1" -ge 95 -a "$g2" -ge 195 -a "$g3" -ge 395
check "... everything arrives" received bo "$T/expect"
stop_receivers

start_receiver tmr --fail 1 --status 429
check "429 is retried, after the default backoff of 1 s" span2otlp -v -b 720 \
    -H "Authorization: Bearer t0ken" --endpoint "http://127.0.0.1:$port" "$T/in.sp"
cp "$T/.err" "$T/tmr.stderr"
check "default backoff: 500 to 1000 ms" grep -Eq \
    'retry 1 of 5 in ([5-9][0-9][0-9]|1000) ms$' "$T/tmr.stderr"
check "... everything arrives" received tmr "$T/expect"
check "--header is sent" grep -q '"auth":"Bearer t0ken"' "$T/tmr.log"
stop_receivers

# connection closed without an answer: retried
start_receiver cl --close 2
check "closed connections are retried" span2otlp -b 100 --backoff 10ms \
    --endpoint "http://127.0.0.1:$port" "$T/in.sp"
check "... everything arrives" received cl "$T/expect"
stop_receivers

# 400: that batch fails, the rest are delivered, exit 1
start_receiver bad --fail 1 --status 400
expect_rc 1 "400: permanent failure of one batch" span2otlp -b 100 \
    --endpoint "http://127.0.0.1:$port" "$T/in.sp"
stderr_has "batch 1 (100 spans) not delivered: HTTP 400: test: unavailable"
stderr_has "100 spans in 1 request not delivered"
eq "400: the other 620 spans arrive" "$(wc -l <"$T/bad.sum" | tr -d ' ')" 620
eq "400: not retried" "$(wc -l <"$T/bad.log" | tr -d ' ')" 8
stop_receivers

# partial success: accepted, but the collector rejected some spans
start_receiver part --partial 3
expect_rc 1 "partial_success (protobuf)" span2otlp -b 360 \
    --endpoint "http://127.0.0.1:$port" "$T/in.sp"
stderr_has "collector rejected 3 of 360 spans: test: spans rejected"
stderr_has "6 spans rejected by the collector"
expect_rc 1 "partial_success (JSON)" span2otlp -b 720 --protocol http/json \
    --endpoint "http://127.0.0.1:$port" "$T/in.sp"
stderr_has "3 spans rejected by the collector"
stop_receivers

# retries exhausted: give up, count what was not delivered, exit 1
start_receiver busy --fail 1000 --status 503
expect_rc 1 "503 forever: gives up after --retries" span2otlp -b 100 --retries 2 \
    --backoff 10ms --endpoint "http://127.0.0.1:$port" "$T/in.sp"
stderr_has "(retries exhausted); giving up"
stderr_has "720 spans in 8 requests not delivered"
eq "503 forever: 1 + 2 attempts, then no more requests" "$(wc -l <"$T/busy.log" | tr -d ' ')" 3
stop_receivers

# a collector that is down: connection refused, bounded by --retries
start_receiver gone
dead=$port
stop_receivers
t0=$(ms)
expect_rc 1 "collector down" span2otlp -b 100 --retries 3 --backoff 50ms \
    --endpoint "http://127.0.0.1:$dead/v1/traces" "$T/in.sp"
t1=$(ms)
stderr_has "720 spans in 8 requests not delivered to http://127.0.0.1:$dead/v1/traces"
stderr_has "Couldn't connect to server"
check "collector down: gave up ($((t1 - t0)) ms)" test $((t1 - t0)) -lt 30000

# a collector that accepts and never answers: bounded by --timeout
start_receiver hang --hang
t0=$(ms)
expect_rc 1 "collector hangs" span2otlp --timeout 1 --retries 1 --backoff 10ms \
    --endpoint "http://127.0.0.1:$port" "$T/in.sp"
t1=$(ms)
stderr_has "timed out"
stderr_has "720 spans in 1 request not delivered"
# two attempts of 1 s each at least; the bound above is generous but below
# the 20 s the default --timeout (10 s) would take
check "collector hangs: bounded by --timeout ($((t1 - t0)) ms)" \
    test $((t1 - t0)) -ge 2000 -a $((t1 - t0)) -lt 15000
stop_receivers

done_testing
