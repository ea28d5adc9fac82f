#!/bin/sh
# evspan's output, byte for byte: SHA-256 sums of the span streams of fixed
# inputs (the dumbbell of mkdumbbell, the committed samples/dumbbell through
# sim2ev, the twoclients scenario, a truncated and a concatenated stream),
# with one thread and with the reader thread.  The sums were taken from
# evspan before its speed work, so any change of output shows here.  If
# the output changes on purpose (a new span attribute, a change of the
# record encoding), compare `spancat --csv` of the old and new outputs and
# update the sums.  Updated for span format 1.1: the header's minor version
# byte and the header block's CRC changed, nothing else.  Updated for
# event format 1.1 (issue 11): only the --events outputs changed, their
# ev.* records of host device events gained the trailing `cpu` field and
# the schema the `ev.user` type (spancat output identical but for
# ` cpu=...` at the end of those lines; mkdumbbell's doorbell names
# system.switch_cpus there, as sim2ev does).
. "$(dirname "$0")/../lib.sh"
RULES="$TOP/rules/linux-i40e.csv"

sum() { sha256sum | cut -c1-64; }
# same NAME WANT ARGS...: evspan ARGS with 1 and 2 threads gives WANT
same() {
	n=$1; want=$2; shift 2
	for th in 1 2; do
		set +e
		evspan --threads $th "$@" > "$T/out.sp" 2> "$T/.err"
		set -e
		eq "$n, $th thread(s)" "$(sum < "$T/out.sp")" "$want"
	done
}

mkdumbbell -n 300 "$T/d" > /dev/null
sed 's/^root,all-syscalls$/root,net-syscalls/' "$RULES" > "$T/net.csv"
same "dumbbell" 5e27058717336ac6cdc1666611498d433f2d55bcd32ebb52c89864eac1de4f7d \
    -t "$T/d/topology.csv" -r "$RULES"
same "dumbbell, --events" 01e1d65351c4b500a04c197d7ed3c480ffa1edd0511a8329b686749853f96c65 \
    -e -t "$T/d/topology.csv" -r "$RULES"
same "dumbbell, root,net-syscalls" 75fa04c74003fe8c1736daf0b7c2acbc293161717779158bc285c7723c9866bb \
    -t "$T/d/topology.csv" -r "$T/net.csv"

# samples/dumbbell: the committed logs through sim2ev (--seed: the salt
# would otherwise follow sim2ev's version in the stream headers)
mkdir "$T/s"
cp "$TOP/samples/dumbbell/"* "$T/s/"
(cd "$T/s" && sh -c "$(grep '^sim2ev' commands.sh)") > /dev/null 2>&1
same "samples/dumbbell, --events" 48cee283b466cc55bbffb2194c79ff49daaa71ca2800004e7ca6f5b159c8e281 \
    -e --seed 1 -t "$T/s/topology.csv" -r "$T/s/rules.csv"

# twoclients: links, background traffic
S="$DATA/evspan/twoclients"
mkdir "$T/tc"
cp "$S/topology.csv" "$T/tc/"
for f in "$S"/*.txt; do
	b=$(basename "$f" .txt)
	case $b in *-nic) k=nic ;; net) k=net ;; *) k=host ;; esac
	txt2ev -s "$b" -k $k -o "$T/tc/$b.ev" "$f"
done
same "twoclients, --events" 09fd1871ae323121a26709e6d7668141e1104494fa7246a957d37ac650a0ebcb \
    -e -t "$T/tc/topology.csv" -r "$RULES"

# a truncated NIC stream (orphans, open spans) and concatenated segments
head -c $(($(wc -c < "$T/d/client-nic.ev") * 3 / 10)) "$T/d/client-nic.ev" > "$T/cut.ev"
same "truncated stream, --events" 3da2323b992080c85c746e6efb2230a7b36108d48dec40edffd59379f9008aaa \
    -e -t "$T/d/topology.csv" -r "$RULES" client-nic="$T/cut.ev"
stderr_has "stream client-nic:"
mkdumbbell -n 3 "$T/c" > /dev/null
cat "$T/c/server.ev" "$T/c/server.ev" > "$T/cat.ev"
same "concatenated segments, --events" 79c2de2bc4882b64cb0952cf3d21f86fdd0365afdc5059b48870b42859ac0f20 \
    -e -t "$T/c/topology.csv" -r "$RULES" server="$T/cat.ev"

# compressed output (written by a thread of its own with 2 threads): the
# same bytes once decompressed
for th in 1 2; do
	evspan --threads $th -z -t "$T/d/topology.csv" -r "$RULES" > "$T/out.sp.zst"
	eq "dumbbell, -z, $th thread(s)" "$(zstd -dc < "$T/out.sp.zst" | sum)" \
	    5e27058717336ac6cdc1666611498d433f2d55bcd32ebb52c89864eac1de4f7d
done

# --threads: 1 or 2 only
expect_rc 2 "--threads 0" evspan --threads 0 -t "$T/d/topology.csv"
stderr_has "--threads 0: must be 1 or 2"
expect_rc 2 "--threads 3" evspan --threads 3 -t "$T/d/topology.csv"
expect_rc 2 "--threads x" evspan --threads x -t "$T/d/topology.csv"
stderr_has "--threads x: invalid"

done_testing
