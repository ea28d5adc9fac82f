#!/bin/sh
# Robustness of the binary event stream through the real tools and real
# pipes: empty and garbage input, truncation and bit flips at chosen
# offsets, the wrong stream type, concatenation, zstd, closed pipes and
# full disks.  Readers must stop with a message naming the file and byte
# offset, exit 1, and still deliver every event before the damage.
. "$(dirname "$0")/../lib.sh"

# Block table of a plain stream: "offset type length" per block.
blocks() {
	python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read()
o = 8
while o + 12 <= len(b):
    t = b[o]; n = struct.unpack("<I", b[o + 4:o + 8])[0]
    print(o, t, n); o += 12 + n' "$1"
}
# flip FILE OFFSET OUT: copy FILE with one bit of byte OFFSET inverted.
flip() {
	python3 -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read()); b[int(sys.argv[2])] ^= 0x10
open(sys.argv[3], "wb").write(b)' "$1" "$2" "$3"
}

mkevents -a -n 30000 -S host0 -o "$T/a.ev"
evcat "$T/a.ev" > "$T/a.txt"
size=$(wc -c < "$T/a.ev")
nblk=$(blocks "$T/a.ev" | wc -l)
check "test stream has several data blocks" test "$nblk" -ge 5
eq "all 30000 events printed" "$(wc -l < "$T/a.txt" | tr -d ' ')" 30000
hdr_end=$(blocks "$T/a.ev" | awk 'NR == 1 { print $1 + 12 + $3 }')
blk2=$(blocks "$T/a.ev" | awk 'NR == 3 { print $1 }')
endblk=$(blocks "$T/a.ev" | awk '$2 == 3 { print $1 }')

# --- empty and garbage input ------------------------------------------------
: > "$T/empty"
for tool in evcat evfilter; do
	expect_rc 1 "$tool: empty file" sh -c "$tool '$T/empty' > '$T/o'"
	stderr_has "$T/empty: empty input"
	expect_rc 1 "$tool: empty stdin" sh -c "$tool < /dev/null > '$T/o'"
	stderr_has "stdin: empty input"
	expect_rc 1 "$tool: a gem5 text log" sh -c \
	    "$tool '$DATA/samples/gem5/columbo-gem5-events-test.txt' > '$T/o'"
	stderr_has "offset 0: bad magic: not a simspan event stream (it is text: convert logs with sim2ev)"
done
python3 -c 'import random, sys; random.seed(7); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(5000)))' > "$T/random"
expect_rc 1 "random bytes through a pipe" sh -c "cat '$T/random' | evcat"
stderr_has "stdin: offset 0: bad magic"
# the magic followed by garbage
{ head -c 8 "$T/a.ev"; cat "$T/random"; } > "$T/magic-garbage"
expect_rc 1 "magic then garbage" evcat "$T/magic-garbage"
stderr_has "magic-garbage: offset 8:"

# --- truncation at several offsets -----------------------------------------
# in the magic, just after it, inside the header block, right after the
# header, inside a data block, at a block boundary, inside the end block,
# one byte short
for cut in 4 8 15 $hdr_end $((blk2 + 100)) $blk2 $((endblk + 5)) $((size - 1)); do
	head -c "$cut" "$T/a.ev" > "$T/cut.ev"
	expect_rc 1 "evcat: truncated at $cut" sh -c "evcat '$T/cut.ev' > '$T/cut.txt'"
	if [ "$cut" -lt 8 ]; then
		stderr_has "cut.ev: offset 0: truncated magic"
	else
		stderr_has "cut.ev: offset"
		stderr_has "truncated stream"
	fi
	n=$(wc -l < "$T/cut.txt" | tr -d ' ')
	eq "truncated at $cut: output is a prefix" \
	    "$(head -n "$n" "$T/a.txt" | cksum)" "$(cksum < "$T/cut.txt")"
	# the same through evfilter: events before the damage are written,
	# and the copy shows the damage too (no end block)
	expect_rc 1 "evfilter: truncated at $cut" sh -c \
	    "evfilter '$T/cut.ev' > '$T/cut2.ev'"
	if [ "$cut" -ge "$hdr_end" ]; then
		expect_rc 1 "evfilter copy of cut at $cut is truncated too" sh -c \
		    "evcat '$T/cut2.ev' > '$T/cut2.txt'"
		stderr_has "truncated stream: no end block"
		eq "evfilter kept the events before the cut at $cut" \
		    "$(cksum < "$T/cut2.txt")" "$(cksum < "$T/cut.txt")"
	fi
done
# a cut inside a data block still yields every complete block before it
head -c $((blk2 + 100)) "$T/a.ev" | evcat 2>/dev/null | wc -l > "$T/n"
check "events of complete blocks survive a cut" test "$(cat "$T/n")" -gt 1000

# --- bit flips ---------------------------------------------------------------
flip "$T/a.ev" 2 "$T/f.ev"
expect_rc 1 "flip in the magic" evcat "$T/f.ev"
stderr_has "f.ev: offset 0: bad magic"
flip "$T/a.ev" 30 "$T/f.ev"
expect_rc 1 "flip in the header block" evcat "$T/f.ev"
stderr_has "f.ev: offset 8: block checksum mismatch"
for off in $((blk2 + 12 + 500)) $((endblk - 3)) $((blk2 + 9)); do
	flip "$T/a.ev" "$off" "$T/f.ev"
	expect_rc 1 "evcat: flip at $off" sh -c "evcat '$T/f.ev' > '$T/f.txt'"
	stderr_has "f.ev: offset"
	stderr_has "checksum mismatch"
	n=$(wc -l < "$T/f.txt" | tr -d ' ')
	check "flip at $off: events before the damaged block" test "$n" -gt 0
	eq "flip at $off: output is a prefix" \
	    "$(head -n "$n" "$T/a.txt" | cksum)" "$(cksum < "$T/f.txt")"
	expect_rc 1 "evfilter: flip at $off" sh -c "evfilter '$T/f.ev' | evcat -n"
	stderr_has "checksum mismatch"
done
# the reported offset is the damaged block's
flip "$T/a.ev" $((blk2 + 200)) "$T/f.ev"
expect_rc 1 "flip names its block" evcat "$T/f.ev"
stderr_has "f.ev: offset $blk2: block checksum mismatch"
# a flipped length field: the block runs past the end of the file
flip "$T/a.ev" $((blk2 + 6)) "$T/f.ev"
expect_rc 1 "flip in a block length" evcat "$T/f.ev"
stderr_has "f.ev: offset $blk2:"

# --- the wrong stream type, concatenation ------------------------------------
mkspans -n 3 -o "$T/s.sp"
for tool in evcat evfilter; do
	expect_rc 1 "$tool: a span stream" sh -c "$tool '$T/s.sp' > '$T/o'"
	stderr_has "s.sp: offset 0: this is a span stream, not an event stream"
done
mkevents -n 500 -S host0 -s 2 -o "$T/b.ev"
cat "$T/a.ev" "$T/b.ev" > "$T/ab.ev"
check "cat a.ev b.ev | evcat (same stream)" sh -c "cat '$T/a.ev' '$T/b.ev' | evcat -n > '$T/n'"
eq "concatenation: all events counted" "$(tail -1 "$T/n" | awk '{print $1}')" 30500
check "cat a.ev b.ev | evfilter | evcat" sh -c \
    "cat '$T/a.ev' '$T/b.ev' | evfilter | evcat > '$T/ab.txt'"
eq "concatenation through evfilter keeps every event" \
    "$(cksum < "$T/ab.txt")" "$( (evcat "$T/a.ev"; evcat "$T/b.ev") | cksum)"
mkevents -n 10 -S nic0 -o "$T/c.ev"
for tool in evcat evfilter; do
	expect_rc 1 "$tool: concatenated different streams" sh -c \
	    "cat '$T/a.ev' '$T/c.ev' | $tool > '$T/o'"
	stderr_has "stdin: offset $((size + 8)): concatenated stream 'nic0' differs from the first stream 'host0'"
done
check "events of the first stream were printed" sh -c \
    "cat '$T/a.ev' '$T/c.ev' | evcat 2>/dev/null | wc -l | grep -qx ' *30000'"
# trailing garbage after a complete stream
{ cat "$T/b.ev"; echo "junk after the end"; } > "$T/tail.ev"
expect_rc 1 "garbage after the end block" evcat "$T/tail.ev"
stderr_has "tail.ev: offset $(wc -c < "$T/b.ev" | tr -d ' '): bad magic"

# --- zstd ----------------------------------------------------------------------
mkevents -a -n 30000 -S host0 -z -o "$T/a.ev.zst"
check "zstd stream by file name" sh -c "evcat '$T/a.ev.zst' > '$T/z.txt'"
eq "zstd and plain print the same" "$(cksum < "$T/z.txt")" "$(cksum < "$T/a.txt")"
check "zstdcat f.ev.zst | evfilter | evcat" sh -c \
    "zstdcat '$T/a.ev.zst' | evfilter | evcat > '$T/z2.txt'"
eq "through zstdcat" "$(cksum < "$T/z2.txt")" "$(cksum < "$T/a.txt")"
zsize=$(wc -c < "$T/a.ev.zst")
head -c $((zsize / 2)) "$T/a.ev.zst" > "$T/zcut.ev.zst"
expect_rc 1 "truncated zstd frame" sh -c "evcat '$T/zcut.ev.zst' > '$T/zc.txt'"
stderr_has "zcut.ev.zst"
stderr_has "truncated"
n=$(wc -l < "$T/zc.txt" | tr -d ' ')
eq "truncated zstd: output is a prefix" \
    "$(head -n "$n" "$T/a.txt" | cksum)" "$(cksum < "$T/zc.txt")"
flip "$T/a.ev.zst" $((zsize / 2)) "$T/zf.ev.zst"
expect_rc 1 "corrupt zstd frame" sh -c "evcat '$T/zf.ev.zst' > /dev/null"
stderr_has "zf.ev.zst"

# --- closed pipes and full disks -------------------------------------------------
mkevents -n 3000000 -o "$T/big.ev"
for tool in "evcat" "evfilter" "evcat --csv" "evcat -j"; do
	check "$tool big.ev | head -c 100 terminates" sh -c \
	    "timeout 20 sh -c \"$tool '$T/big.ev' | head -c 100 > /dev/null\""
done
for tool in "evcat" "evfilter" "evcat -n"; do
	expect_rc 1 "$tool > /dev/full" sh -c "$tool '$T/a.ev' > /dev/full"
	stderr_has "No space left on device"
done
expect_rc 1 "evfilter -o /dev/full" evfilter -o /dev/full "$T/a.ev"
stderr_has "/dev/full: write: No space left on device"

done_testing
