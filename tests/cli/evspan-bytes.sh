#!/bin/sh
# evspan's output, byte for byte: SHA-256 sums of the span streams of fixed
# inputs (the dumbbell of mkdumbbell, the committed samples/dumbbell through
# sim2ev, the twoclients scenario, a truncated and a concatenated stream),
# with one thread and with the reader thread.  The sums were taken from
# evspan before its speed work, so any change of output shows here.  If
# the output changes on purpose (a new span attribute, a change of the
# record encoding), compare `spancat --csv` of the old and new outputs and
# update the sums.  Updated for span format 1.1: the header's minor version
# byte and the header block's CRC changed, nothing else.  Updated for span
# format 1.2 (kernel context kinds, event type "user"): the header lists
# more record types, so the link and ev.* record tags moved; `spancat
# --csv` of every output was compared with the 1.1 evspan's and is the
# same, except twoclients: rules/linux-i40e.csv now turns the kernel
# context model on, and its server NIC receives two packets before one
# MSI-X, so that nic.msix gets a link to the older rx (cause rx-batch).  Updated for event format 1.1
# (sim2ev: the trailing `cpu` field of host device events, type `user`):
# only the --events outputs changed, their ev.* records of host device
# events gained the `cpu` field (spancat output identical but for ` cpu=...`).
# Updated for event format 1.2 (types nic_rd_done, nic_wr_done, net_seen):
# only the --events outputs changed, their header lists three more ev.*
# types; `spancat --csv` of every --events output is the same as the 1.1
# evspan's.
# Updated for a host.syscall's call named by its handler (__x64_sys_read
# -> read, formats/spans.md): samples/dumbbell's --events output differs
# from the earlier one only in call= (spancat of both compared; on top of
# event format 1.2, main's evspan and this one differ in the call column
# of 1067 of 1520 host.syscall rows, nothing else).
# Updated for simsynth's nicbm logs printing `pending` as nicbm does (a
# DMA issued on a completion counts the completed one): samples/dumbbell
# was regenerated, and of its --events output's 61453 rows only the
# pending column of nic_dma_* events differs.
. "$(dirname "$0")/../lib.sh"
RULES="$TOP/rules/linux-i40e.csv"

sum() { sha256sum | cut -c1-64; }
# same NAME WANT ARGS...: evspan ARGS with 1, 2 and 3 threads gives WANT
same() {
	n=$1; want=$2; shift 2
	for th in 1 2 3; do
		set +e
		evspan --threads $th "$@" > "$T/out.sp" 2> "$T/.err"
		set -e
		eq "$n, $th thread(s)" "$(sum < "$T/out.sp")" "$want"
	done
}

mkdumbbell -n 300 "$T/d" > /dev/null
sed 's/^root,all-syscalls$/root,net-syscalls/' "$RULES" > "$T/net.csv"
same "dumbbell" c6ce55cf5157561173b97e2bb130c77dea3aade0fb358828338932c335cc7e9e \
    -t "$T/d/topology.csv" -r "$RULES"
same "dumbbell, --events" 3346e036a85e862ebe34adcadf05d417f1d3c1c3f79e0b7696461fe2174f284d \
    -e -t "$T/d/topology.csv" -r "$RULES"
same "dumbbell, root,net-syscalls" 10ce226d12facc0ae7a4573cc2118b70447a38ef55df042992ff804c56012694 \
    -t "$T/d/topology.csv" -r "$T/net.csv"

# samples/dumbbell: the committed logs through sim2ev (--seed: the salt
# would otherwise follow sim2ev's version in the stream headers)
mkdir "$T/s"
cp "$TOP/samples/dumbbell/"* "$T/s/"
(cd "$T/s" && sh -c "$(grep '^sim2ev' commands.sh)") > /dev/null 2>&1
same "samples/dumbbell, --events" 0fb84c86a6938e5d2649e3f5317f064d5431260b0c13aa676d953cda9f38a548 \
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
same "twoclients, --events" 5ea4f5c07953d48b7b98887909b7944851b97bafc2892c13f2b86b6f05a5e2c8 \
    -e -t "$T/tc/topology.csv" -r "$RULES"

# a truncated NIC stream (orphans, open spans) and concatenated segments
head -c $(($(wc -c < "$T/d/client-nic.ev") * 3 / 10)) "$T/d/client-nic.ev" > "$T/cut.ev"
same "truncated stream, --events" 38a41b25fa5014b7f1618d8fe1d29429928c335544ee002478b58232a49d0e4d \
    -e -t "$T/d/topology.csv" -r "$RULES" client-nic="$T/cut.ev"
stderr_has "stream client-nic:"
mkdumbbell -n 3 "$T/c" > /dev/null
cat "$T/c/server.ev" "$T/c/server.ev" > "$T/cat.ev"
same "concatenated segments, --events" add27ed99d5f3b43bcbd021f0237564f27d29f3891c39e91ebd2a0831d9468dc \
    -e -t "$T/c/topology.csv" -r "$RULES" server="$T/cat.ev"

# compressed output (written by a thread of its own with 2 threads): the
# same bytes once decompressed
for th in 1 2 3; do
	evspan --threads $th -z -t "$T/d/topology.csv" -r "$RULES" > "$T/out.sp.zst"
	eq "dumbbell, -z, $th thread(s)" "$(zstd -dc < "$T/out.sp.zst" | sum)" \
	    c6ce55cf5157561173b97e2bb130c77dea3aade0fb358828338932c335cc7e9e
done

# a write error in the encoding thread (3 threads) is reported and fails
# the run, as it does with one thread
for th in 1 3; do
	expect_rc 1 "/dev/full, $th thread(s)" evspan --threads $th \
	    -t "$T/d/topology.csv" -r "$RULES" -o /dev/full
	stderr_has "No space left on device"
done

# --threads: 1, 2 or 3 only
expect_rc 2 "--threads 0" evspan --threads 0 -t "$T/d/topology.csv"
stderr_has "--threads 0: must be 1, 2 or 3"
expect_rc 2 "--threads 4" evspan --threads 4 -t "$T/d/topology.csv"
expect_rc 2 "--threads x" evspan --threads x -t "$T/d/topology.csv"
stderr_has "--threads x: invalid"

done_testing
