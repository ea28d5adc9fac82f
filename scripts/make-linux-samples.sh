#!/bin/sh
# Regenerate samples/linux-tcp and samples/linux-udp (make demo's kernel
# context part) with the simsynth of this tree: the same command for both
# flows, as each sample's README says.  Run from the top directory.
set -eu
SIMSYNTH=${SIMSYNTH:-build/bin/simsynth}
for flow in tcp udp; do
	d=samples/linux-$flow
	rm -rf "$d.new"
	"$SIMSYNTH" -z --zstd-level 15 --kernel linux --cpus 2 --flow $flow-rr -H 2 -c 2 \
	    -n 40 --exec-rate 1 --sync-interval 2us --bg-to-host 0.1 "$d.new" >/dev/null
	[ -f "$d.new/truth.csv.zst" ] || zstd -q -19 --rm "$d.new/truth.csv"
	[ -f "$d/README.md" ] && cp "$d/README.md" "$d.new/"
	rm -rf "$d"
	mv "$d.new" "$d"
done
