#!/usr/bin/env python3
"""Compare the shapes of generated simulator log lines with real samples.

usage: lineshape.py [-v] SAMPLES-DIR LOG...

Every line of the real samples (SAMPLES-DIR/gem5, nicbm, ns3-simbricks:
tests/data/samples, a copy of ../shared/data) and of the generated LOGs
(*.gem5.log, *.nicbm.log, *.ns3.log) gets a kind (what it says: "gem5 pci
sending write addr", "nicbm issuing dma op", "ns3 + CosimNetDevice/
RxPacketFromAdapter EthernetHeader(", ...) and a shape: the line with
numbers, hex values, MAC and IPv4 addresses, symbol names, disassembly, op
classes and payload bytes replaced by placeholders, everything else (words,
punctuation, spaces) kept.  For every kind that both have, each generated
shape must be one the samples show.

Exec lines are compared with runs of blanks collapsed and the fields that
only some debug flags print (ExecAsid A0, ExecResult D=, ExecEffAddr A=,
ExecFlags flags=, FetchSeq, CPSeq) left out: the only byte-for-byte Exec sample
(gem5/columbo-line-reader-simple.txt) disagrees with itself on whitespace
(the operands start at column 11 for mov and cmpxchg, at 8 for add; one
line is padded to 25 columns where gem5's setw(26) gives 26) and the other
Exec samples are reconstructed or have their whitespace collapsed
(PROVENANCE.md).  Instead the generated Exec lines are checked against
gem5's code (FORMATS.md section 4): the disassembly field is padded to 26
columns, macro-op operands start at column 11 as in those two lines, and
the op class is one of gem5's.

Prints one line per kind; exits 1 if a generated shape is not in the
samples or an Exec line breaks the padding rule.
"""
import os
import re
import sys

TICK = re.compile(r"^ *\d+: ")
MAC = re.compile(r"\b(?:[0-9a-f]{2}:){5}[0-9a-f]{2}\b")
IP4 = re.compile(r"\b\d+\.\d+\.\d+\.\d+\b")
HEX0X = re.compile(r"0x[0-9a-fA-F]+")
NUMTOK = re.compile(r"(?<![0-9A-Za-z_])[0-9a-fA-F]*[0-9][0-9a-fA-F]*(?![0-9A-Za-z_])")
DIGITS = re.compile(r"\d+")
PAYLOAD = re.compile(r"^(?:(?:info: )?[0-9A-F]{2} )+")
EXEC = re.compile(r"^(?P<cpu>\S+): (?P<hdr>(?:A\d+ )?(?:T\d+ : )?)"
                  r"(?P<pc>0x[0-9a-f]+)(?P<sym> @\S+?)?(?P<upc>\.\s?\d+|   ) : "
                  r"(?P<body>.*)$")
RAN = re.compile(r"^(?P<dis>.*?) : (?P<opc>[A-Za-z_]+) :(?P<rest>.*)$")
OPTIONAL_HDR = re.compile(r"^A# ")	# ExecAsid
# gem5 src/cpu/FuncUnit.py OpClass names (the common ones)
OPCLASSES = {"No_OpClass", "IntAlu", "IntMult", "IntDiv", "FloatAdd",
             "FloatCmp", "FloatCvt", "FloatMult", "FloatMultAcc", "FloatDiv",
             "FloatMisc", "FloatSqrt", "MemRead", "MemWrite", "FloatMemRead",
             "FloatMemWrite", "IprAccess", "InstPrefetch"}
OPTIONAL = re.compile(r"\s*(?:D=\S+|A=\S+|FetchSeq=\S+|CPSeq=\S+|flags=\([^)]*\))")


HEXFIELD = re.compile(r"\b(addr|size|offs) [0-9a-f]+\b")
HASHX = re.compile(r"\b(dev|func|reg|data =) (?:0x[0-9a-f]+|0)\b")


def numbers(s):
    """Placeholders: # a number (decimal or hex), 0xH hex with 0x, MAC, IP.
    Fields printed with gem5's %x (no 0x) and %#x (0 without 0x) are
    numbers whatever digits they have."""
    s = MAC.sub("MAC", s)
    s = IP4.sub("IP", s)
    s = HASHX.sub(r"\1 X", s)
    s = HEXFIELD.sub(r"\1 #", s)
    s = HEX0X.sub("0xH", s)
    s = NUMTOK.sub("#", s)
    return DIGITS.sub("#", s)


def words_until_number(msg):
    out = []
    for w in msg.split():
        if re.search(r"\d", w) or w.startswith("(") or "=" in w:
            break
        out.append(w)
    return " ".join(out)


def gem5(line, problems, generated):
    """(kind, shape, loose) of a gem5 line, or None."""
    m = TICK.match(line)
    if not m:
        return None
    rest = line[m.end():]
    e = EXEC.match(rest)
    if e:
        body = e.group("body")
        upc = e.group("upc")
        r = RAN.match(body)
        dis = r.group("dis") if r else body
        micro = upc != "   "
        what = dis.split()[0].lower() if dis.split() else ""
        if what in ("nop", "mfence", "lfence"):
            kind = "exec " + what.upper()
        elif micro:
            kind = "exec micro-op"
        elif r:
            kind = "exec executed macro-op"
        else:
            kind = "exec macro-op header"
        if e.group("sym"):
            kind += " @sym"
        if generated and not micro:
            # FORMATS.md section 4: setw(26) on the disassembly
            if len(dis.rstrip()) < 26 and len(dis) != 26:
                problems.append("disassembly not padded to 26 columns: " + line)
            parts = dis.split(None, 1)
            if kind == "exec macro-op header" and len(parts) == 2:
                col = dis.index(parts[1], len(parts[0]))
                if col != 11:
                    problems.append("operands not at column 11: " + line)
        hdr = DIGITS.sub("#", e.group("hdr"))
        head = "T: %s: %%s0xH%s%s : " % (e.group("cpu"),
                                       " @S" if e.group("sym") else "",
                                       ".#" if micro else "   ")
        if r:
            if generated and r.group("opc") not in OPCLASSES:
                problems.append("unknown op class: " + line)
            tail = "D : OPC :"
            shape = head % hdr + tail + numbers(r.group("rest"))
            loose = head % OPTIONAL_HDR.sub("", hdr) + tail + OPTIONAL.sub("", r.group("rest"))
        else:
            shape = head % hdr + "D"
            loose = head % OPTIONAL_HDR.sub("", hdr) + "D"
        return kind, shape, " ".join(loose.split())
    name, _, msg = rest.partition(": ")
    if name == "global":
        kind = "gem5 global " + words_until_number(msg)
    elif msg.startswith("simbricks-pci: "):
        kind = "gem5 pci " + words_until_number(msg[15:])
    elif msg.startswith(("readConfig:", "writeConfig:")):
        kind = "gem5 " + msg.split(":")[0]
    elif re.match(r"^[0-9a-f]{2}:[0-9a-f]{2}\.\d: (read|write):", msg):
        kind = "gem5 pci_host " + msg.split(": ")[1].rstrip(":")
    elif msg in ("postInt", "clearInt"):
        kind = "gem5 " + msg
    elif msg.startswith("RIP 0x"):
        kind = "gem5 fault " + name
    else:
        return None
    # component names: digits only; the fault name is the name
    shape = "T: " + numbers(name) + ": " + numbers(msg)
    return kind, shape, None


def nicbm(line):
    info = line.startswith("info: ")
    body = line[6:] if info else line
    pfx = "info: " if info else ""
    m = re.match(r"^main_time = (\d+): nicbm: (.*)$", body)
    if m:
        msg = m.group(2)
        if msg.startswith("dma write data:"):
            kind = "dma write data" + (" (bytes on the line)" if msg[15:].strip() else "")
        else:
            kind = words_until_number(msg.replace("(", " ("))
        return "nicbm %s%s" % (pfx, kind), pfx + "main_time = #: nicbm: " + numbers(msg), None
    p = PAYLOAD.match(line)
    if p:
        rest = line[p.end():]
        k = nicbm(rest) if rest else None
        bytes_ = "info: XX " if p.group(0).startswith("info: ") else "XX "
        return ("nicbm payload bytes, then " + (k[0] if k else "end of line"),
                "<%s...>" % bytes_ + (k[1] if k else ""), None)
    if re.match(r"^main_time = \d+$", body):
        return "nicbm %sSIGUSR1 main_time" % pfx, pfx + numbers(body), None
    for s in ("mac_addr=", "sync_pci=", "exit main_time", "poll_h2d:", "[Runner "):
        if body.startswith(s):
            return "nicbm %s%s" % (pfx, s), pfx + numbers(body), None
    if re.match(r"^[0-9a-f]{8,12}$", body):
        return "nicbm bare MAC", "#", None
    if re.match(r"^ +\S+_(total|sync):", body):
        return "nicbm statistics", numbers(body), None
    return None


def ns3(line):
    m = re.match(r"^([-+d])  (\d+) (\S+) (.*)$", line)
    if not m:
        return None
    ctx = re.sub(r"/NodeList/\d+/", "/NodeList/#/", m.group(3))
    ctx = re.sub(r"/DeviceList/\d+/", "/DeviceList/#/", ctx)
    dev = re.sub(r"^.*/\$ns3::", "", ctx)
    hdrs = " ".join(re.findall(r"ns3::\w+ ?\(", m.group(4)))
    pay = " Payload" if "Payload (size=" in m.group(4) else ""
    kind = "ns3 %s %s %s%s" % (m.group(1), dev, hdrs, pay)
    return kind, "%s  T %s %s" % (m.group(1), ctx, numbers(m.group(4))), None


def classify(path, line, problems, generated):
    if "gem5" in path:
        return gem5(line, problems, generated)
    if "nicbm" in path:
        return nicbm(line)
    if "ns3" in path:
        return ns3(line)
    return None


def sample_lines(d):
    for sub in ("gem5", "nicbm", "ns3-simbricks"):
        for f in sorted(os.listdir(os.path.join(d, sub))):
            path = os.path.join(d, sub, f)
            with open(path, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    line = line.rstrip("\n")
                    if sub == "nicbm" and line.count("\t") >= 2:
                        line = line.split("\t", 2)[2]	# <sim>\t<stream>\t<line>
                    yield sub, f, line


def main():
    args = sys.argv[1:]
    verbose = False
    if args and args[0] == "-v":
        verbose = True
        args = args[1:]
    if len(args) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    samples = {}
    problems = []
    for sub, f, line in sample_lines(args[0]):
        k = classify(sub, line, [], False)
        if k:
            samples.setdefault(k[0], {"exact": set(), "loose": set(), "files": set()})
            samples[k[0]]["exact"].add(k[1])
            if k[2] is not None:
                samples[k[0]]["loose"].add(k[2])
            samples[k[0]]["files"].add("%s/%s" % (sub, f))
    gen = {}
    for path in args[1:]:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                line = line.rstrip("\n")
                k = classify(os.path.basename(path), line, problems, True)
                if k:
                    g = gen.setdefault(k[0], {})
                    g.setdefault((k[1], k[2]), "%s:%d: %s" % (os.path.basename(path), n, line))
    bad = 0
    for kind in sorted(gen):
        if kind not in samples:
            print("  no sample  %-58s %d shape(s)" % (kind, len(gen[kind])))
            continue
        s = samples[kind]
        miss = [(sh, ex) for (sh, lo), ex in gen[kind].items()
                if (sh not in s["exact"] if lo is None else lo not in s["loose"])]
        how = "(blanks collapsed, optional fields out)" if any(lo is not None for _, lo in gen[kind]) else ""
        if miss:
            bad += 1
            print("  DIFFERENT  %s: %d of %d generated shape(s) not in %s" %
                  (kind, len(miss), len(gen[kind]), ", ".join(sorted(s["files"]))))
            for sh, ex in miss[:3]:
                print("      generated: %s" % ex[:200])
            for sh in sorted(s["exact"])[:3]:
                print("      sample:    %s" % sh[:200])
        else:
            print("  same       %-58s %d shape(s) %s" % (kind, len(gen[kind]), how))
    if verbose:
        for kind in sorted(set(samples) - set(gen)):
            print("  not made   %s (%s)" % (kind, ", ".join(sorted(samples[kind]["files"]))))
    for p in problems[:10]:
        print("  EXEC       " + p[:200])
    shared = len(set(gen) & set(samples))
    print("%d kinds generated, %d with samples, %d different; %d Exec format problems" %
          (len(gen), shared, bad, len(problems)))
    return 1 if bad or problems else 0


if __name__ == "__main__":
    sys.exit(main())
