# span2html: usage, bad input, the embedded data (decoded with Python),
# the two passes over files, pipes and FIFOs, the trace sort through its
# temporary file, the latency histograms and density bins against numbers
# computed here, the Content-Security-Policy's hashes; then the pages in a
# real headless Chromium (tests/html/cdp.js drives one browser through the
# DevTools Protocol for all of them): no console errors, no network
# request, the counts of spancat -n, the slowest trace's waterfall and
# split equal to span2sqlite's traces and trace_streams, the latency view
# equal to SQL over span2sqlite's database (exact) or within the
# histograms' stated error, keyboard navigation, hostile URL hashes, and
# injected script, style, form, <base> and image blocked by the policy
# (and not blocked under the old policy: the checks can fail).
. "$(dirname "$0")/../lib.sh"

mkspans -e -n 40 -o "$T/in.sp"		# 720 spans in 45 traces, orphans, links
mkspans -e -z -n 40 -o "$T/in.sp.zst"
count() { spancat -n "$1" | awk -v w="$2" '$2 == w { print $1 }'; }
# the page's JSON (formats/html.md): base64 of gzip in <script id="ssp-data">
data() {
	python3 - "$1" "$2" <<'EOF'
import base64, gzip, json, re, sys
page = open(sys.argv[1]).read()
m = re.search(r'<script id="ssp-data" type="application/octet-stream">([^<]*)</script>', page)
d = json.loads(gzip.decompress(base64.b64decode(m.group(1))))
print(eval(sys.argv[2], {"d": d, "json": json}))
EOF
}
nosrc='json.dumps({k: v for k, v in d.items() if k != "source"}, sort_keys=True)'

# --- usage --------------------------------------------------------------------
check "--help" span2html --help
stdout_has "usage: span2html"
stdout_has "--force"
check "--version" span2html --version
stdout_has "span2html 0.1.0"
stdout_has "zlib"
expect_rc 2 "unknown option" span2html --bogus
stderr_has "usage: span2html"
expect_rc 2 "two inputs" span2html "$T/in.sp" "$T/in.sp"
expect_rc 2 "bad --traces" span2html --traces slowest "$T/in.sp"
stderr_has "--traces slowest"
expect_rc 2 "bad --traces part" span2html --traces fastest:3 "$T/in.sp"
expect_rc 2 "huge --traces" span2html --traces slowest:99999999999 "$T/in.sp"
expect_rc 2 "bad --max-spans" span2html --max-spans -1 "$T/in.sp"
expect_rc 2 "bad SSP_HTML_LIVE_TRACES" env SSP_HTML_LIVE_TRACES=0 span2html -o "$T/x.html" "$T/in.sp"
stderr_has "SSP_HTML_LIVE_TRACES=0"
# a terminal gets no page, unless forced (as the binary writers)
if command -v script >/dev/null 2>&1; then
	expect_rc 1 "refuses a terminal" script -qec "span2html '$T/in.sp'" /dev/null
	stdout_has "refusing to write an HTML page to a terminal"
	check "-f writes to a terminal anyway" script -qec "span2html --force '$T/in.sp' >/dev/null" /dev/null
	check "--force" sh -c 'script -qec "span2html --force $1" /dev/null | grep -q "<!DOCTYPE html>"' sh "$T/in.sp"
else
	ok "# SKIP terminal checks: script(1) not installed"
fi

# --- output -------------------------------------------------------------------
check "stdin to stdout" sh -c 'span2html <"$1" >"$2"' sh "$T/in.sp" "$T/stdout.html"
check "-o FILE" span2html -o "$T/a.html" "$T/in.sp"
check "stdin to -o FILE" sh -c 'span2html -o "$2" <"$1"' sh "$T/in.sp" "$T/stdin.html"
check "same page either way" cmp "$T/stdin.html" "$T/stdout.html"
check "zstd input" span2html -o "$T/z.html" "$T/in.sp.zst"
# every input is read twice: a file by name, stdin that is a file by
# seeking back, a pipe or FIFO through a spooled copy
check "a pipe" sh -c 'cat "$1" | span2html -o "$2"' sh "$T/in.sp" "$T/pipe.html"
check "a zstd pipe" sh -c 'cat "$1" | span2html -o "$2"' sh "$T/in.sp.zst" "$T/zpipe.html"
mkfifo "$T/fifo"
check "a FIFO by name" sh -c 'cat "$1" >"$2" & span2html -o "$3" "$2"; rc=$?; wait; exit $rc' sh \
    "$T/in.sp" "$T/fifo" "$T/fifo.html"
check "the data without its source is not empty" test "$(data "$T/a.html" "$nosrc" | wc -c)" -gt 1000
for p in stdin z pipe zpipe fifo; do
	eq "$p: the same data as the file" "$(data "$T/$p.html" "$nosrc" | md5sum)" "$(data "$T/a.html" "$nosrc" | md5sum)"
done
check "no spool left in TMPDIR" sh -c '! ls "$1"/ssp-reread.* "$1"/span2html.* 2>/dev/null' sh "$T"
expect_rc 1 "a pipe, TMPDIR missing" sh -c 'cat "$1" | TMPDIR="$2/no/such" span2html -o "$2/x.html"' sh \
    "$T/in.sp" "$T"
stderr_has "a temporary file for stdin"
# the spool cannot grow (ulimit -f; SIGXFSZ ignored, so write(2) fails)
expect_rc 1 "a pipe, the spool cannot be written" sh -c \
    'trap "" XFSZ; ulimit -f 8; cat "$1" | TMPDIR="$2" span2html -o /dev/null' sh "$T/in.sp" "$T"
stderr_has "copying stdin to a temporary file"
eq "traces: spancat -n's" "$(data "$T/a.html" 'd["counts"]["traces"]')" "$(count "$T/in.sp" traces)"
eq "... all listed" "$(data "$T/a.html" 'len(d["traces"]["id"]) == d["counts"]["listed_traces"] == d["counts"]["traces"]')" True
eq "spans: spancat -n's" "$(data "$T/a.html" 'sum(d["traces"]["spans"])')" "$(count "$T/in.sp" spans)"
eq "links" "$(data "$T/a.html" 'sum(len(s[10]) for t in d["details"] for s in t["spans"])')" \
    "$(count "$T/in.sp" links)"
eq "member events" "$(data "$T/a.html" 'sum(len(s[11]) for t in d["details"] for s in t["spans"])')" \
    "$(count "$T/in.sp" member)"
eq "orphans" "$(data "$T/a.html" 'd["counts"]["orphans"]')" "$(count "$T/in.sp" orphans)"
eq "format and version" "$(data "$T/a.html" 'd["format"] + " " + str(d["version"])')" "simspan-html 2"
check "no external reference in the page" sh -c '! grep -Eq "(src|href)=\"(https?:)?//" "$1"' sh "$T/a.html"
eq "no --traces: all traces in detail" "$(data "$T/a.html" 'd["counts"]["detail_traces"]')" 45
check "--traces slowest:5,sample:3" span2html --traces slowest:5,sample:3 -o "$T/s.html" "$T/in.sp"
eq "... 8 traces listed, all in detail" "$(data "$T/s.html" 'len(d["traces"]["id"]), d["counts"]["listed_traces"], d["counts"]["detail_traces"]')" "(8, 8, 8)"
eq "... the 5 slowest of all traces among them" "$(data "$T/s.html" 'sorted(d["traces"]["dur"], reverse=True)[:5]')" \
    "$(data "$T/a.html" 'sorted(d["traces"]["dur"], reverse=True)[:5]')"
eq "... the counts of all" "$(data "$T/s.html" 'd["counts"]["traces"], d["counts"]["spans"]')" "(45, 720)"
eq "... the latency histograms of all" "$(data "$T/s.html" 'sum(g["traces"] for g in d["latency"]["groups"])')" 45
eq "... their split as in the page of all traces" \
    "$(data "$T/s.html" 'sorted(zip(d["traces"]["id"], d["traces"]["busy"], map(str, d["traces"]["streams"])))')" \
    "$(data "$T/a.html" 'sorted(x for x in zip(d["traces"]["id"], d["traces"]["busy"], map(str, d["traces"]["streams"])) if x[0] in '"$(data "$T/s.html" 'd["traces"]["id"]')"')')"
check "--max-spans 40" span2html --max-spans 40 --traces slowest:10 -o "$T/m.html" "$T/in.sp"
eq "... at most 40 spans of detail" "$(data "$T/m.html" 'd["counts"]["detail_spans"] <= 40 and len(d["details"]) > 0')" True
eq "... 10 listed, those past the cap without detail" "$(data "$T/m.html" 'len(d["traces"]["id"]), sum(x < 0 for x in d["traces"]["detail"]) == 10 - len(d["details"])')" "(10, True)"
check "--no-events" span2html --no-events -o "$T/n.html" "$T/in.sp"
eq "... no member events" "$(data "$T/n.html" 'd["counts"]["detail_events"]')" 0
eq "... and says how many it left out" "$(data "$T/n.html" 'd["counts"]["omitted_events"]')" "$(count "$T/in.sp" member)"
mkspans -n 0 -o "$T/empty.sp"
check "empty stream" span2html -o "$T/empty.html" "$T/empty.sp"
eq "... no traces" "$(data "$T/empty.html" 'd["counts"]["spans"], d["density"]["bins"], d["latency"]["groups"]')" "(0, 0, [])"

# the latency histograms (formats/html.md §2.5) against the exact
# latencies of the page that lists every trace: counts, min and max
# exact, every value inside its bucket, and the bucket's middle within
# 2^-(bits+1) of it
hist_check() {
	python3 - "$T/a.html" "$T/s.html" <<'EOF'
import base64, gzip, json, re, sys
def load(p):
    m = re.search(r'<script id="ssp-data" type="application/octet-stream">([^<]*)</script>', open(p).read())
    return json.loads(gzip.decompress(base64.b64decode(m.group(1))))
a, s = load(sys.argv[1]), load(sys.argv[2])
bits = s["latency"]["bits"]; sub = 1 << bits
def lo(i):
    q = i >> bits
    return i if q == 0 else ((i & (sub - 1)) | sub) << (q - 1)
def width(i):
    q = i >> bits
    return 1 if q == 0 else 1 << (q - 1)
T = a["traces"]
net = [any(a["streams"][x]["kind"] == "net" for x in T["streams"][i][0::3]) for i in range(len(T["id"]))]
exact = {}
for i in range(len(T["id"])):
    exact.setdefault((T["root_kind"][i], T["root_stream"][i], net[i]), []).append(T["dur"][i])
bad = []
for g in s["latency"]["groups"]:
    v = sorted(exact.pop((g["root_kind"], g["root_stream"], g["net"]), []))
    if len(v) != g["traces"] or v[0] != g["min"] or v[-1] != g["max"]:
        bad.append("group %s: counts" % g); continue
    b = g["buckets"]; k = 0
    for j in range(0, len(b), 2):
        for _ in range(b[j + 1]):
            x = v[k]; k += 1
            if not lo(b[j]) <= x < lo(b[j]) + width(b[j]):
                bad.append("%d outside bucket %d" % (x, b[j]))
            mid = lo(b[j]) + (width(b[j]) - 1) / 2
            if abs(mid - x) > x / (2 * sub):
                bad.append("%d: middle %g too far" % (x, mid))
    if k != len(v):
        bad.append("bucket counts %d != %d" % (k, len(v)))
if exact: bad.append("groups missing: %s" % list(exact))
print("ok" if not bad else bad[:5])
EOF
}
eq "latency histograms: every trace in its bucket, the middle within 0.4 %" "$(hist_check)" ok
# the density bins (§2.4) against every span of the page
dens_check() {
	python3 - "$1" <<'EOF'
import base64, gzip, json, re, sys
m = re.search(r'<script id="ssp-data" type="application/octet-stream">([^<]*)</script>', open(sys.argv[1]).read())
d = json.loads(gzip.decompress(base64.b64decode(m.group(1))))
den = d["density"]; B, W, O = den["bins"], den["bin_ps"], den["origin"]
L = len(d["lanes"]); busy = [[0] * B for _ in range(L)]; cnt = [[0] * B for _ in range(L)]
assert sum(len(t["spans"]) for t in d["details"]) == d["counts"]["spans"]
assert B <= 2000 and W & (W - 1) == 0 and O % W == 0
for t in d["details"]:
    for s in t["spans"]:
        l, a, z = s[4], s[5], s[5] + s[6]
        for k in range((a - O) // W, (z - O) // W + 1):
            cnt[l][k] += 1
            busy[l][k] += max(0, min(z, O + (k + 1) * W) - max(a, O + k * W))
ok = all(cnt[l][k] == den["count"][l][k] and abs(int(busy[l][k] * 1e6 / W + 0.5) - den["busy"][l][k]) <= 1
         for l in range(L) for k in range(B))
ok = ok and any(cnt[l][0] for l in range(L)) and any(cnt[l][B - 1] for l in range(L))
print("ok" if ok else "differs")
EOF
}
eq "density bins: every span counted and its time summed in the bins it touches" "$(dens_check "$T/a.html")" ok
# the Content-Security-Policy: the inline script and style by their hashes
csp_check() {
	python3 - "$1" <<'EOF'
import base64, hashlib, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
h = lambda t: "'sha256-" + base64.b64encode(hashlib.sha256(t.encode()).digest()).decode() + "'"
js = re.findall(r"<script>(.*?)</script>", page, re.S)
css = re.findall(r"<style>(.*?)</style>", page, re.S)
d = dict(x.strip().split(" ", 1) for x in csp.split(";") if x.strip())
print(len(js) == 1 and len(css) == 1 and d["script-src"] == h(js[0]) and d["style-src"] == h(css[0]) and
      d["default-src"] == "'none'" and d["form-action"] == "'none'" and d["base-uri"] == "'none'" and
      "unsafe" not in csp)
EOF
}
eq "CSP: script and style by their SHA-256, nothing unsafe, no forms, no base" "$(csp_check "$T/a.html")" True

# --- bad input: exit 1 naming the file, nothing (half-)written ----------------
expect_rc 1 "missing input" span2html -o "$T/x.html" "$T/nonexistent.sp"
stderr_has "$T/nonexistent.sp"
printf 'not a span stream at all\n' >"$T/junk"
expect_rc 1 "not a span stream" span2html -o "$T/x.html" "$T/junk"
stderr_has "$T/junk"
size=$(wc -c <"$T/in.sp")
head -c $((size / 2)) "$T/in.sp" >"$T/cut.sp"
expect_rc 1 "truncated stream" span2html -o "$T/x.html" "$T/cut.sp"
stderr_has "$T/cut.sp"
stderr_has "offset"
expect_rc 1 "truncated stream on a pipe" sh -c 'cat "$1" | span2html -o "$2"' sh "$T/cut.sp" "$T/x.html"
stderr_has "stdin"
check "no output file" test ! -e "$T/x.html"
cp "$T/a.html" "$T/keep.html"
expect_rc 1 "truncated stream over an existing page" span2html -o "$T/keep.html" "$T/cut.sp"
check "... the page is untouched" cmp "$T/a.html" "$T/keep.html"
check "no temporary files left" sh -c '! ls "$1"/*.tmp* 2>/dev/null' sh "$T"
expect_rc 1 "stdout /dev/full" sh -c 'span2html "$1" >/dev/full' sh "$T/in.sp"
stderr_has "No space left on device"
expect_rc 1 "-o in a missing directory" span2html -o "$T/no/such/dir.html" "$T/in.sp"

# --- the demo: bounded memory gives the same page -------------------------------
check "the demo" sh -c 'OUT="$1/demo" sh "$2/scripts/demo.sh" >"$1/demo.txt"' sh "$T" "$TOP"
D="$T/demo"
check "the demo wrote spans.html" test -s "$D/spans.html"
check "the demo's spans, one trace in memory at a time" env SSP_HTML_LIVE_TRACES=1 span2html --stats \
    -o "$T/demo1.html" "$D/spans.sp"
stderr_has "trace aggregates sorted through a temporary file"
eq "... its traces interleave: more parts than traces" \
    "$(sed -n 's/.*: \([0-9]*\) trace aggregates sorted.*/\1/p' "$T/.err")" \
    "$(sed -n 's/.*: \([0-9]*\) trace aggregates sorted.*/\1/p' "$T/.err" | awk -v t="$(count "$D/spans.sp" traces)" '$1 > t')"
eq "... the same data as all in memory" "$(data "$T/demo1.html" "$nosrc" | md5sum)" "$(data "$D/spans.html" "$nosrc" | md5sum)"
eq "density bins of the demo" "$(dens_check "$D/spans.html")" ok

# --- in a real browser ----------------------------------------------------------
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ] || ! command -v node >/dev/null 2>&1 || ! command -v sqlite3 >/dev/null 2>&1; then
	ok "# SKIP browser tests: chromium, node or sqlite3 not installed (scripts/deps.sh check)"
	done_testing
	exit $?
fi
export CHROMIUM
# Node 20 has WebSocket behind a flag, 22 without; cdp.js brings its own
# for older ones
NODEFLAGS=""
node --experimental-websocket -e 0 >/dev/null 2>&1 && NODEFLAGS=--experimental-websocket

# Pages with injected content: an inline script, style, form, <base> and
# image, under the page's policy and (to show the checks can fail) under
# the old one that allowed inline script and style and had no
# form-action or base-uri.
python3 - "$D/spans.html" "$T/inj.html" "$T/old.html" <<'EOF'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
inj = ('<form id="ssp-f" action="http://127.0.0.1:9/stolen" method="post"><input name="d" value="x"></form>'
       '<div id="ssp-s" style="color: rgb(255, 0, 0)">styled</div>'
       '<img id="ssp-i" src="http://127.0.0.1:9/pixel.png" alt="">'
       '<script>document.body.dataset.injected = "ran";</script>')
page = page.replace("</head>", '<base href="http://127.0.0.1:9/">\n</head>', 1)
page = page.replace("</body>", inj + "\n</body>", 1)
open(sys.argv[2], "w", encoding="utf-8").write(page)
old = re.sub(r'(http-equiv="Content-Security-Policy" content=")[^"]*"',
             lambda m: m.group(1) + "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\"", page)
open(sys.argv[3], "w", encoding="utf-8").write(old)
EOF
PROBE='JSON.stringify({color: getComputedStyle(document.getElementById("ssp-s")).color, base: document.baseURI, tt: (() => { try { document.getElementById("ssp-s").innerHTML = "<b>x</b>"; return "assigned"; } catch (e) { return "refused " + e.name; } })(), submit: (document.getElementById("ssp-f").submit(), "called")})'
long=$(python3 -c 'print("a" * 10000)')

# one browser, every page: job NAME [cdp.js options] URL
: >"$T/jobs"
njobs=0
job() {	# an argument with blanks is quoted '...' (it has no ' itself)
	n=$1; shift; njobs=$((njobs + 1)); eval "job_$n=$njobs"; line=""
	for a in "$@"; do
		case $a in *" "*) a="'$a'" ;; esac
		line="$line $a"
	done
	printf '%s\n' "$line" >>"$T/jobs"
}
job demo "file://$D/spans.html#select=slowest"
job keys --keys Home,ArrowDown,Enter "file://$D/spans.html#select=slowest"
job lathost "file://$D/spans.html#view=latency"
job latkind "file://$D/spans.html#view=latency&by=kind"
job latnet "file://$D/spans.html#view=latency&net=1"
job span "file://$D/spans.html#select=slowest&span=0"
job rows10 "file://$D/spans.html#select=slowest&maxrows=10"
job timeline "file://$D/spans.html#view=timeline"
share=$(sqlite3 "$D/spans.db" "SELECT t.trace_id FROM traces t WHERE t.dur_ps > 0 ORDER BY
    (SELECT sum(busy_ps) FROM trace_streams s WHERE s.trace = t.id) * 1.0 / t.dur_ps DESC LIMIT 1")
job share "file://$D/spans.html#select=$share"
job digits --eval '(() => { const l = document.getElementById("list"), d = getComputedStyle(l).getPropertyValue("--idx-digits").trim(); l.style.setProperty("--idx-digits", "6"); const c = document.querySelector("#list-rows .row div"); c.textContent = "999999"; return d + " " + (c.scrollWidth <= c.clientWidth); })()' "file://$D/spans.html"
orphan=$(data "$T/a.html" '[d["traces"]["id"][i] for i in range(len(d["traces"]["id"])) if d["traces"]["flags"][i] & 1][0]')
job orphan "file://$T/a.html#select=$orphan"
job exact "file://$T/a.html#view=latency&by=kind"
job sampled --size 1400x600 "file://$T/s.html#view=timeline"
job sampledlat "file://$T/s.html#view=latency&by=kind"
job empty "file://$T/empty.html"
job empty_hash "file://$T/empty.html#select=%"
job h_pct "file://$D/spans.html#select=%"
job h_span "file://$D/spans.html#span=99999999&select=slowest"
job h_many "file://$D/spans.html#view=bogus&tl=a,b&by=x&net=2&maxrows=-1&scroll=nope&zz=1&span=-1"
job h_html "file://$D/spans.html#select=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&view=%3Cscript%3E"
job h_junk "file://$D/spans.html#%E0%A4%A&&&=&select&tl=5,1"
job h_long "file://$D/spans.html#select=$long"
job inject --eval "$PROBE" --wait 1500 "file://$T/inj.html"
job oldcsp --eval "$PROBE" --wait 1500 "file://$T/old.html"
check "headless Chromium opens the $njobs pages" sh -c \
    'TMPDIR="$1" node $2 "$3/tests/html/cdp.js" --timeout 120000 --batch "$1/jobs" >"$1/r.jsonl" 2>"$1/cdp.err"' \
    sh "$T" "$NODEFLAGS" "$TOP"
grep -v dbus "$T/cdp.err" | sed 's/^/# cdp.js: /' >&2 || true
check "... and leaves no profile or temporary file" sh -c '! ls -d "$1"/ssp-chromium.* "$1"/org.chromium.* 2>/dev/null' sh "$T"
# r NAME EXPR: EXPR over the report of page NAME (d), or what went wrong
r() {
	python3 - "$T/r.jsonl" "$(eval echo "\$job_$1")" "$2" <<'EOF'
import json, sys
try:
    d = json.loads(open(sys.argv[1]).read().splitlines()[int(sys.argv[2]) - 1])
except Exception as e:
    print("<no report: %s: %s>" % (type(e).__name__, e)); sys.exit(0)
if "error" in d:
    print("<the page failed: %s>" % d["error"]); sys.exit(0)
try:
    print(eval(sys.argv[3]))
except Exception as e:
    print("<%s: %s>" % (type(e).__name__, e))
EOF
}
clean() {	# no console errors, exceptions or network requests
	eq "$1: ready" "$(r "$1" 'd["data"].get("state")')" ready
	eq "$1: no console errors" "$(r "$1" 'd["console"] + d["exceptions"] + [d["data"].get("errors", "")]')" "['']"
	eq "$1: no network request" "$(r "$1" 'd["requests"] + d["failed"] + d["blocked"]')" "[]"
}

clean demo
eq "traces listed = spancat -n" "$(r demo 'd["data"]["traces"]')" "$(count "$D/spans.sp" traces)"
eq "spans = spancat -n" "$(r demo 'd["data"]["spans"]')" "$(count "$D/spans.sp" spans)"
eq "spans in detail = spancat -n" "$(r demo 'd["data"]["detailSpans"]')" "$(count "$D/spans.sp" spans)"
q() { sqlite3 "$D/spans.db" "$1"; }
slow=$(q "SELECT id FROM traces ORDER BY dur_ps DESC, start_ps LIMIT 1")
eq "slowest trace selected" "$(r demo 'd["data"]["selTrace"]')" "$(q "SELECT trace_id FROM traces WHERE id = $slow")"
eq "its waterfall has the spans of SQLite's traces row" "$(r demo 'd["data"]["selSpans"]')" \
    "$(q "SELECT spans FROM traces WHERE id = $slow")"
tid=$(q "SELECT trace_id FROM traces WHERE id = $slow")
eq "... and of spancat --tree" "$(r demo 'd["data"]["selSpans"]')" \
    "$(spancat --tree "$D/spans.sp" | awk -v t="$tid" '/^trace / { on = index($0, t) > 0; next } on && NF' | wc -l | tr -d ' ')"
eq "split bar = trace_streams and idle_ps" "$(r demo 'd["data"]["selSplit"]')" \
    "$(q "SELECT group_concat(stream || ':' || busy_ps, ',') FROM (SELECT stream, busy_ps FROM trace_streams WHERE trace = $slow ORDER BY stream || ':')")$(q "SELECT ';idle:' || idle_ps FROM traces WHERE id = $slow")"
tti=$(r demo 'd["data"]["tti"]')
echo "# demo page: $(wc -c <"$D/spans.html") bytes, interactive after $tti ms"
# how soon is a benchmark figure (scripts/bench-span2html.sh), not a check:
# a loaded machine would fail it; here only that the page reports it
check "the page reports when it was interactive ($tti ms)" test "$tti" -gt 0
eq "page text names the simulators" "$(r demo '"client0-nic (nicbm)" in d["text"]')" True
eq "open spans labelled" "$(r demo '"open spans" in d["text"]')" True
eq "no notice without a bad hash" "$(r demo 'd["data"].get("notice", "")')" ""

clean keys
second=$(q "SELECT trace_id FROM traces ORDER BY start_ps, trace_id LIMIT 1 OFFSET 1")
eq "keyboard: Home, ArrowDown, Enter selects the second trace by start" "$(r keys 'd["after_keys"]["selTrace"]')" "$second"

# latency: by root kind and host, by root kind (SQLite's latency view),
# of the traces that cross the network (a span on a net stream)
lat_sql() {	# lat_sql GROUP WHERE
	q "WITH r AS (SELECT $1 AS g, dur_ps, row_number() OVER w AS rn, count(*) OVER w AS n FROM traces t WHERE $2
	    WINDOW w AS (PARTITION BY $1 ORDER BY dur_ps RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
	  SELECT group_concat(x, ';') FROM (SELECT g || ':' || n || ',' || min(dur_ps) || ',' ||
	    min(CASE WHEN rn * 100 >= n * 50 THEN dur_ps END) || ',' || min(CASE WHEN rn * 100 >= n * 90 THEN dur_ps END) ||
	    ',' || min(CASE WHEN rn * 100 >= n * 99 THEN dur_ps END) || ',' || max(dur_ps) AS x FROM r GROUP BY g ORDER BY x)"
}
crosses="EXISTS (SELECT 1 FROM json_each(t.streams) j JOIN streams s ON s.run = t.run AND s.name = j.key WHERE s.kind = 'net')"
for p in lathost latkind latnet; do clean $p; done
eq "latency per root kind and host = SQL over traces" "$(r lathost 'd["data"]["latency"]')" \
    "$(lat_sql "root_kind || ' on ' || root_stream" 1)"
eq "... exact: the page lists every trace" "$(r lathost 'd["data"]["latencyExact"]')" 1
eq "latency per root kind = SQLite's latency view" "$(r latkind 'd["data"]["latency"]')" \
    "$(q "SELECT group_concat(x, ';') FROM (SELECT root_kind || ':' || traces || ',' || min_ps || ',' || p50_ps || ',' ||
        p90_ps || ',' || p99_ps || ',' || max_ps AS x FROM latency ORDER BY x)")"
eq "latency of the traces that cross the network = SQL (the demo's table)" "$(r latnet 'd["data"]["latency"]')" \
    "$(lat_sql "root_kind || ' on ' || root_stream" "$crosses")"
eq "... fewer than all" "$(r latnet 'd["data"]["latency"] != "'"$(r lathost 'd["data"]["latency"]')"'"')" True
eq "... the page says which traces" "$(r latnet '"traces that cross the network" in d["text"]')" True

clean span
eq "span detail: the root's attributes and member events" \
    "$(r span '"host.syscall span" in d["text"] and "member events" in d["text"] and "entry_SYSCALL_64" in d["text"]')" True
clean rows10
eq "a waterfall of at most 10 rows says what it did not draw" "$(r rows10 '"20 later spans of this trace not drawn (30 in all)" in d["text"]')" True
clean timeline
eq "timeline draws single spans" "$(r timeline 'd["data"]["tlMode"]')" spans
clean share
eq "shares over 100 %: the sum is said where the numbers are" "$(r share 'd["data"]["selTrace"], float(d["data"]["selShareSum"]) > 100')" "('$share', True)"
eq "... and why" "$(r share '"the simulators run at the same time" in d["text"] and "The shares add up to " + d["data"]["selShareSum"] + " %" in d["text"]')" True
eq "... not for a trace under 100 %" "$(r demo '"The shares add up to" in d["text"] or float(d["data"]["selShareSum"]) > 100')" False
clean digits
eq "the # column: sized for the trace count, and 6 digits fit" "$(r digits 'd["eval"]')" "4 true"
clean orphan
eq "an orphan trace: its waterfall says orphan and the cause" "$(r orphan '"[orphan (net.device)]" in d["text"]')" True

# a page that lists some traces: says so; latency from its histograms
clean sampled
eq "a page listing 8 of 45 traces says so" "$(r sampled '"The page lists 8 of the 45 traces" in d["text"]')" True
eq "... timeline shows density" "$(r sampled 'd["data"]["tlMode"]')" density
clean exact
clean sampledlat
eq "... its latency view covers all 45 traces, from the histograms" "$(r sampledlat 'd["data"]["latencyExact"], "From histograms of all 45 traces" in d["text"]')" "('0', True)"
approx() {	# the histogram's numbers within 2^-8 of the exact ones
	python3 - "$1" "$2" <<'EOF'
import sys
def parse(s):
    return {g.split(":")[0]: [int(x) for x in g.split(":")[1].split(",")] for g in s.split(";") if g}
a, b = parse(sys.argv[1]), parse(sys.argv[2])
print(a.keys() == b.keys() and all(x[0] == y[0] and x[1] == y[1] and x[5] == y[5] and
      all(abs(u - v) <= v / 256 for u, v in zip(x[2:5], y[2:5])) for k in a for x, y in [(a[k], b[k])]))
EOF
}
eq "... its percentiles within 0.4 % of the exact ones, min and max exact" \
    "$(approx "$(r sampledlat 'd["data"]["latency"]')" "$(r exact 'd["data"]["latency"]')")" True

clean empty
eq "the empty stream's page says no spans" "$(r empty '"no spans" in d["text"]')" True
clean empty_hash

# hostile hashes: ignored, with one line in the page saying what
for p in h_pct h_span h_many h_html h_junk h_long; do clean $p; done
eq "#select=%: not URL encoding" "$(r h_pct 'd["data"]["notice"]')" "Ignored in the URL: select=% (not valid URL encoding)."
eq "... the page says so" "$(r h_pct '"Ignored in the URL: select=%" in d["text"]')" True
eq "#span=99999999: no such span, the slowest selected" "$(r h_span '"span=99999999 (the trace has spans 0 to" in d["data"]["notice"], d["data"]["selTrace"]')" "(True, '$tid')"
eq "eight bad parts, one line" "$(r h_many 'd["data"]["notice"].count(" (")')" 8
eq "... each named" "$(r h_many 'all(k in d["data"]["notice"] for k in ["view=bogus", "tl=a,b", "by=x", "net=2", "maxrows=-1", "scroll=nope", "zz=1", "span=-1"])')" True
eq "markup in the hash stays text" "$(r h_html '"select=<img src=x onerror=alert(1)> (no trace" in d["data"]["notice"] and "view=<script>" in d["data"]["notice"]')" True
eq "junk parts ignored, the rest used" "$(r h_junk '"(not valid URL encoding)" in d["data"]["notice"] and "tl=5,1" in d["data"]["notice"]')" True
eq "a 10000-character hash ignored whole" "$(r h_long 'd["data"]["notice"]')" "Ignored in the URL: the whole hash (10007 characters)."

# the policy at work: nothing injected runs, applies or is sent, and the
# page still works; under the old policy the same page runs the script
# and submits the form
eq "injected: the page still works" "$(r inject 'd["data"]["state"], d["data"]["traces"]')" "('ready', '$(count "$D/spans.sp" traces)')"
eq "... its inline script did not run" "$(r inject 'd["data"].get("injected", "no")')" no
eq "... nor its form submit, image or base (no request)" "$(r inject 'd["requests"]')" "[]"
eq "... the image blocked by the policy" "$(r inject 'd["blocked"]')" "['http://127.0.0.1:9/pixel.png (csp)']"
eq "... the inline style not applied, innerHTML refused, base not set" \
    "$(r inject '(lambda e: (e["color"], e["tt"], e["base"].startswith("file:")))(__import__("json").loads(d["eval"]))')" \
    "('rgb(26, 26, 26)', 'refused TypeError', True)"
eq "... Chromium names the directives" "$(r inject 'all(any(x in m for m in d["console"]) for x in ["script-src", "style-src", "form-action", "base-uri", "img-src"])')" True
eq "... still there after the submit" "$(r inject '(d.get("after_wait") or {}).get("state")')" ready
eq "old policy: the injected script runs" "$(r oldcsp 'd["data"].get("injected", "no")')" ran
eq "... and the form is submitted" "$(r oldcsp '"http://127.0.0.1:9/stolen" in d["requests"]')" True

done_testing
