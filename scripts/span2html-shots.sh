#!/bin/sh
# The README's screenshots of span2html's page, docs/span2html-*.png:
# make demo's page opened in headless Chromium (tests/html/cdp.js, the
# browser the tests use), at the sizes and places the README shows, then
# made palette PNGs (scripts/png8.py).
#
#   SSP_BIN=build/bin sh scripts/span2html-shots.sh [DIR]   (default: docs)
set -eu
: "${SSP_BIN:?set SSP_BIN to the directory with the tools (build/bin)}"
TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-$TOP/docs}
W=$(mktemp -d "${TMPDIR:-/tmp}/ssp-shots.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$CHROMIUM" ] || { echo "span2html-shots: no chromium (scripts/deps.sh check)" >&2; exit 1; }
export CHROMIUM
NODEFLAGS=""
node --experimental-websocket -e 0 >/dev/null 2>&1 && NODEFLAGS=--experimental-websocket
OUT="$W/demo" SSP_BIN=$SSP_BIN sh "$TOP/scripts/demo.sh" >/dev/null
p="file://$W/demo/spans.html"
cat >"$W/jobs" <<JOBS
--size 1400x900 --screenshot $W/traces.png $p#select=slowest
--size 1400x900 --screenshot $W/waterfall.png $p#select=slowest&span=0&scroll=split
--size 1400x420 --screenshot $W/timeline.png $p#select=slowest&view=timeline&tl=4060,4130
--size 1400x640 --screenshot $W/latency.png $p#view=latency&net=1
JOBS
# shellcheck disable=SC2086
TMPDIR=$W node $NODEFLAGS "$TOP/tests/html/cdp.js" --batch "$W/jobs" >"$W/r.jsonl"
python3 - "$W/r.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    bad = d["console"] + d["exceptions"] + d["requests"] + ([d["data"]["errors"]] if d["data"].get("errors") else [])
    if d["data"].get("state") != "ready" or bad:
        sys.exit("span2html-shots: %s: %s" % (d["url"], bad or d["data"].get("state")))
PY
for s in traces waterfall timeline latency; do
	python3 "$TOP/scripts/png8.py" "$W/$s.png" "$DIR/span2html-$s.png"
done
ls -l "$DIR"/span2html-*.png
