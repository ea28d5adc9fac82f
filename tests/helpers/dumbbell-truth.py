#!/usr/bin/env python3
"""Ground truth of the dumbbell workload of scripts/gen-dumbbell.py (and
tests/helpers/mkdumbbell): every span a correct span builder makes from N
requests, with its true parent, in the truth format of formats/truth.md
(id,stream,kind,start_ps,key,parent_id,links).  The arithmetic follows
gen-dumbbell.py line by line.

usage: dumbbell-truth.py N > truth.csv"""
import sys

N = int(sys.argv[1])
PCIE, ETH, PERIOD = 500_000, 1_000_000, 10_000_000
op_base = 0x55ea69870000
rows = []


def span(stream, kind, start, key="", parent=None):
    rows.append((len(rows) + 1, stream, kind, start, key, parent or ""))
    return len(rows)


for i in range(N):
    T = 2_000_000_000 + i * PERIOD
    sc = span("client", "host.syscall", T)
    tm = T + 4000
    hm = span("client", "host.mmio", tm, str(94469376954304 + i), sc)
    tn = tm + PCIE
    nm = span("client-nic", "nic.mmio", tn, "0x108000", hm)
    t = tn + 1000
    for j in range(2):
        op = op_base + (i * 4 + j) * 0x40
        nd = span("client-nic", "nic.dma", t, hex(op), nm)
        th = t + PCIE
        span("client", "host.dma", th, str(op), nd)
        t = th + 2000 + PCIE + 1000
    tx_span = span("client-nic", "nic.tx", t, "", nm)
    tx = t + ETH
    d1 = span("net", "net.device", tx, "1/2/%d" % i, tx_span)
    d2 = span("net", "net.device", tx, "1/1/%d" % i, d1)
    d3 = span("net", "net.device", tx + 20000, "0/1/%d" % i, d2)
    d4 = span("net", "net.device", tx + 40000, "0/2/%d" % i, d3)
    tr = tx + 90000 + ETH
    rx = span("server-nic", "nic.rx", tr, "", d4)
    t = tr + 1000
    op = op_base + (i * 4 + 2) * 0x40
    nd = span("server-nic", "nic.dma", t, hex(op), rx)
    th = t + PCIE
    span("server", "host.dma", th, str(op), nd)
    t = th + 1000 + PCIE + 1000
    nx = span("server-nic", "nic.msix", t, "1", rx)
    th = t + PCIE
    span("server", "host.msix", th, "1", nx)
    span("server", "host.syscall", th + 50000, "", rx)
end = 2_000_000_000 + N * PERIOD
span("client", "host.syscall", end)
span("server", "host.syscall", end)
print("id,stream,kind,start_ps,key,parent_id,links")
for r in rows:
    print("%d,%s,%s,%d,%s,%s," % r)
