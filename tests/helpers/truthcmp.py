#!/usr/bin/env python3
"""Compare evspan's spans (spancat --csv) with a ground-truth file.

usage: truthcmp.py SPANS.csv TRUTH.csv [--allow-extra]

Truth format (formats/truth.md): id,stream,kind,start_ps,key,parent_id,links
Spans are matched by (stream name, kind, start_ps, key) with key =
  host.mmio, host.dma: id (decimal); host.msix, nic.msix: vec;
  host.pci: reg (0x hex); nic.mmio: off (0x hex); nic.dma: op (0x hex);
  net.device: node/dev/uid; every other kind: empty.
Every truth span must be found exactly once with the same parent (or none)
and the same links (targets separated by ';' or spaces); with
--allow-extra, output spans missing from the truth are only counted.
Prints one line per mismatch and a summary; exits 1 on any mismatch.
"""
import csv
import sys

KEYS = {"host.mmio": "id", "host.dma": "id", "host.msix": "vec",
        "nic.msix": "vec", "host.pci": "reg", "nic.mmio": "off",
        "nic.dma": "op"}


def key_of(row):
    kind = row["type"]
    if kind == "net.device":
        return "%s/%s/%s" % (row["node"], row["dev"], row["uid"])
    field = KEYS.get(kind)
    return row[field] if field else ""


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    allow_extra = "--allow-extra" in sys.argv
    if len(args) != 2:
        sys.exit(__doc__)
    spans, links = {}, {}
    with open(args[0], newline="") as f:
        for row in csv.DictReader(f):
            if row["type"] == "link":
                links.setdefault(int(row["span"], 0), []).append(
                    int(row["target"], 0))
            elif not row["type"].startswith("ev.") and row.get("stream_name"):
                sid = int(row["span"], 0)
                spans[sid] = ((row["stream_name"], row["type"], int(row["ts"]),
                               key_of(row)), int(row["parent"], 0))
    by_key = {}
    for sid, (k, _) in spans.items():
        by_key.setdefault(k, []).append(sid)
    truth, tkey = {}, {}
    with open(args[1], newline="") as f:
        for row in csv.DictReader(f):
            k = (row["stream"], row["kind"], int(row["start_ps"]), row["key"])
            truth[row["id"]] = (k, row["parent_id"],
                                row["links"].replace(";", " ").split())
            tkey[row["id"]] = k
    bad = 0
    seen = set()
    for tid, (k, parent, tlinks) in sorted(truth.items(),
                                           key=lambda x: int(x[0])):
        ids = by_key.get(k, [])
        if len(ids) != 1:
            print("truth %s %s: found %d times" % (tid, k, len(ids)))
            bad += 1
            continue
        sid = ids[0]
        seen.add(sid)
        got = spans[spans[sid][1]][0] if spans[sid][1] in spans else None
        want = tkey[parent] if parent else None
        if spans[sid][1] != 0 and got is None:
            got = "span %d (not in output)" % spans[sid][1]
        if got != want:
            print("truth %s %s: parent %s, want %s" % (tid, k, got, want))
            bad += 1
        got_links = sorted(str(spans[t][0]) if t in spans else str(t)
                           for t in links.get(sid, []))
        want_links = sorted(str(tkey[t]) for t in tlinks)
        if got_links != want_links:
            print("truth %s %s: links %s, want %s" % (tid, k, got_links,
                                                      want_links))
            bad += 1
    extra = [spans[s][0] for s in spans if s not in seen]
    for k in extra[:20]:
        print("extra span %s" % (k,))
    if extra and not allow_extra:
        bad += len(extra)
    print("truthcmp: %d truth spans, %d output spans, %d links, %d extra, "
          "%d mismatches" % (len(truth), len(spans),
                             sum(len(v) for v in links.values()), len(extra),
                             bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
