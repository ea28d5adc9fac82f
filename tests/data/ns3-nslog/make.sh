#!/bin/sh
# Rebuild the real ns-3 samples of this folder with Debian's ns-3 3.37
# (apt-get install libns3-dev g++ pkg-config zstd) and rerun them.  Not
# part of make check: the outputs are committed, and the tests read those.
#
# usage: tests/data/ns3-nslog/make.sh   (from anywhere; writes into this folder)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cflags=$(pkg-config --cflags ns3-core)
libs="-lns3-core -lns3-network -lns3-internet -lns3-applications"
# -DNS3_LOG_ENABLE: the programs call LogComponentEnable (Debian's
# libraries are built with logging, the header macros need the define)
cxx() { g++ -std=c++17 -O1 -DNS3_LOG_ENABLE -o "$tmp/$1" "$here/$1.cc" $cflags $libs $2; }
cxx bridge "-lns3-bridge"
cxx qdisc "-lns3-traffic-control"
cxx pcap "-lns3-csma -lns3-point-to-point -lns3-traffic-control"
cd "$tmp"
# NS_LOG goes to stderr (std::clog); the programs print nothing else
./bridge --truth=bridge-ps-truth.csv 2> bridge-ps.log
./bridge --resolution=ns --echoes=1 --burst=6 --truth=bridge-ns-truth.csv 2> bridge-ns.log
./qdisc --truth=qdisc-truth.csv 2> qdisc.log
./pcap --truth=pcap-truth.csv --pcap=pcap
./pcap --nanosec --truth=pcapns-truth.csv --pcap=pcapns
cmp pcap-truth.csv pcapns-truth.csv	# the same run, other timestamps
for f in bridge-ps.log bridge-ns.log qdisc.log; do
	zstd -q -19 -f "$f" -o "$here/$f.zst"
done
cp bridge-ps-truth.csv bridge-ns-truth.csv qdisc-truth.csv pcap-truth.csv \
    pcap-*.pcap pcapns-*.pcap "$here/"
