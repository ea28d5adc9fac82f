#!/bin/sh
# evspan's output, byte for byte: SHA-256 sums of the span streams of fixed
# inputs (the dumbbell of mkdumbbell, the committed samples/dumbbell through
# sim2ev, the twoclients scenario, a truncated and a concatenated stream),
# with one thread and with the reader thread.  The sums were taken from
# evspan before its speed work, so any change of output shows here.  If
# the output changes on purpose (a new span attribute, a change of the
# record encoding), compare `spancat --csv` of the old and new outputs and
# update the sums.
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
same "dumbbell" 20dde96c4d682e32423cd447c0ca5b1e1a0cee29116ce43d5275e0b9a2f0b3b0 \
    -t "$T/d/topology.csv" -r "$RULES"
same "dumbbell, --events" c2a578ed9d32e0ff7b50195d3680449634f40d747e631279486bebb541d5e7a6 \
    -e -t "$T/d/topology.csv" -r "$RULES"
same "dumbbell, root,net-syscalls" ee296a5bc83aa5c418a0aff065a4456023090ad37296aa1b2316a8ff838d8760 \
    -t "$T/d/topology.csv" -r "$T/net.csv"

# samples/dumbbell: the committed logs through sim2ev (--seed: the salt
# would otherwise follow sim2ev's version in the stream headers)
mkdir "$T/s"
cp "$TOP/samples/dumbbell/"* "$T/s/"
(cd "$T/s" && sh -c "$(grep '^sim2ev' commands.sh)") > /dev/null 2>&1
same "samples/dumbbell, --events" 1b7e711720d53cf1bf753f324666263679f423b2fad62c6c4d3f6b26510de246 \
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
same "twoclients, --events" a4408a391b001be31181f1d53ed1326a47535ab530e10aed37f1e8d9240ee633 \
    -e -t "$T/tc/topology.csv" -r "$RULES"

# a truncated NIC stream (orphans, open spans) and concatenated segments
head -c $(($(wc -c < "$T/d/client-nic.ev") * 3 / 10)) "$T/d/client-nic.ev" > "$T/cut.ev"
same "truncated stream, --events" 061710f5ed3bfec73a0a2688de4c9cc0937d86384f290aa1ed01704b899d89aa \
    -e -t "$T/d/topology.csv" -r "$RULES" client-nic="$T/cut.ev"
stderr_has "stream client-nic:"
mkdumbbell -n 3 "$T/c" > /dev/null
cat "$T/c/server.ev" "$T/c/server.ev" > "$T/cat.ev"
same "concatenated segments, --events" 565359a809968841cf64ac068f795ee49cbf1b2ce9263b4f66b64efabd4904a2 \
    -e -t "$T/c/topology.csv" -r "$RULES" server="$T/cat.ev"

# --threads: 1 or 2 only
expect_rc 2 "--threads 0" evspan --threads 0 -t "$T/d/topology.csv"
stderr_has "--threads 0: must be 1 or 2"
expect_rc 2 "--threads 3" evspan --threads 3 -t "$T/d/topology.csv"
expect_rc 2 "--threads x" evspan --threads x -t "$T/d/topology.csv"
stderr_has "--threads x: invalid"

done_testing
