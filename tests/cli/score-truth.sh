# tests/score-truth.sh on hand-made truth and span dumps, with deliberate
# mistakes it must catch, and end to end on generated truth.
. "$(dirname "$0")/../lib.sh"
S="$TOP/tests/score-truth.sh"

cat >"$T/truth.csv" <<'EOF'
id,stream,kind,start_ps,key,parent_id,links,rule_parent_id
1,"client0","host.syscall",100,"",,"",
2,"client0","host.mmio",200,"555",1,"",
3,"client0-nic","nic.mmio",700,"0x108000",2,"",
4,"client0-nic","nic.dma",700,"0x55aa",3,"",
5,"client0-nic","nic.tx",2000,"",3,"",4
6,"net","net.device",2500,"1/2/7",5,"",
7,"server0-nic","nic.rx",3000,"",6,"",
8,"net","net.device",2600,"1/2/9",,"",
9,"server0-nic","nic.rx",3100,"",8,"",
10,"server0","host.syscall",4000,"",7,"9",
11,"client0-nic","nic.dma",900,"0x55aa",3,"",
12,"client0-nic","nic.dma",900,"0x55aa#1",3,"",
EOF
# A perfect dump: streams 0 client0, 1 client0-nic, 2 net, 3 server0-nic, 4 server0
H='ts,type,trace_hi,trace_lo,span,parent,stream,dur,flags,cause,id,vec,reg,off,op,node,dev,uid,target,kind'
good() {
	cat <<EOF
# stream: client0 gem5
# stream: client0-nic nicbm
# stream: net ns3
# stream: server0-nic nicbm
# stream: server0 gem5
$H
100,"host.syscall",0x1,0x1,0xa1,0x0,0,50,0,,,,,,,,,,,
200,"host.mmio",0x1,0x1,0xa2,0xa1,0,0,0,,555,,,,,,,,,
700,"nic.mmio",0x1,0x1,0xa3,0xa2,1,0,0,,,,,0x108000,,,,,,
700,"nic.dma",0x1,0x1,0xa4,0xa3,1,9,0,,,,,,0x55aa,,,,,
2000,"nic.tx",0x1,0x1,0xa5,0xa3,1,0,0,,,,,,,,,,,
2500,"net.device",0x1,0x1,0xa6,0xa5,2,5,0,,,,,,,1,2,7,,
3000,"nic.rx",0x1,0x1,0xa7,0xa6,3,0,0,,,,,,,,,,,
2600,"net.device",0x2,0x2,0xa8,0x0,2,5,0,,,,,,,1,2,9,,
3100,"nic.rx",0x2,0x2,0xa9,0xa8,3,0,0,,,,,,,,,,,
4000,"host.syscall",0x1,0x1,0xaa,0xa7,4,70,0,,,,,,,,,,,
4000,"link",,0x2,0xaa,,,,,,,,,,,,,,0xa9,"nic.rx"
900,"nic.dma",0x1,0x1,0xab,0xa3,1,3,0,,,,,,0x55aa,,,,,
900,"nic.dma",0x1,0x1,0xac,0xa3,1,4,0,,,,,,0x55AA,,,,,
EOF
}
good >"$T/good.csv"
expect_rc 0 "perfect dump matches" sh "$S" "$T/truth.csv" "$T/good.csv"
stdout_has "total              12      12       0      0 |      12      0      0      0 |      1      0      0"
stdout_has "all spans, parents and links match"
expect_rc 0 "-q prints only the header and the total" sh "$S" -q "$T/truth.csv" "$T/good.csv"
eq "-q is two lines" "$(wc -l <"$T/.out" | tr -d ' ')" 2
eq "... the header names the columns (issue 26)" "$(head -n 1 "$T/.out" | awk '{ print $1, $2, $3 }')" "kind truth matched"
eq "... then the total" "$(tail -n 1 "$T/.out" | awk '{ print $1 }')" "total"

# Compressed inputs, and -v lists what did not match.
check "zstd" sh -c "zstd -q -c '$T/truth.csv' >'$T/truth.csv.zst' && zstd -q -c '$T/good.csv' >'$T/good.csv.zst'"
expect_rc 0 "compressed truth and dump" sh "$S" "$T/truth.csv.zst" "$T/good.csv.zst"
stdout_has "all spans, parents and links match"
printf 'garbage' >"$T/bad.zst"
expect_rc 2 "a damaged .zst" sh "$S" "$T/bad.zst" "$T/good.csv"
stderr_has "bad.zst"

# Stream names from -n or -t when the dump has no comments.
grep -v '^#' "$T/good.csv" >"$T/nonames.csv"
expect_rc 0 "names from -n" sh "$S" -n client0,client0-nic,net,server0-nic,server0 \
    "$T/truth.csv" "$T/nonames.csv"
cat >"$T/topo.csv" <<'EOF'
# a topology
type,name,kind,file
stream,client0,host,client0.ev.zst
"stream","client0-nic","nic","client0-nic.ev.zst"
stream,net,net,net.ev.zst
stream,server0-nic,nic,server0-nic.ev.zst
stream,server0,host,server0.ev.zst
pcie,client0,client0-nic
eth,client0-nic,net,1,2
EOF
expect_rc 0 "names from -t" sh "$S" -t "$T/topo.csv" "$T/truth.csv" "$T/nonames.csv"
expect_rc 2 "no names at all" sh "$S" "$T/truth.csv" "$T/nonames.csv"
stderr_has "no stream names"
expect_rc 1 "names in the wrong order" sh "$S" -n server0,client0-nic,net,server0-nic,client0 \
    "$T/truth.csv" "$T/nonames.csv"

# Deliberate mistakes.  mut SED-SCRIPT: a dump with one change.
mut() { good | sed "$1" >"$T/bad.csv"; }
score() { sh "$S" "$T/truth.csv" "$T/bad.csv"; }
row() {	# row KIND: that kind's line of the last output
	grep "^$1 " "$T/.out" | tr -s ' ' | cut -d' ' -f2-
}

mut '/"host.mmio"/d'
expect_rc 1 "a missing span is caught" score
eq "missing host.mmio" "$(row host.mmio)" "1 0 1 0 | 0 0 0 0 | 0 0 0"
eq "its child's parent is now wrong" "$(row nic.mmio)" "1 1 0 0 | 0 1 0 0 | 0 0 0"
stdout_has "MISMATCH"

mut '$a\
5000,"host.syscall",0x3,0x3,0xf1,0x0,4,10,0,,,,,,,,,,,'
expect_rc 1 "an extra span is caught" score
eq "extra host.syscall" "$(row host.syscall)" "2 2 0 1 | 2 0 0 0 | 1 0 0"

mut 's/^700,"nic.dma",0x1,0x1,0xa4,0xa3/700,"nic.dma",0x1,0x1,0xa4,0xa1/'
expect_rc 1 "a wrong parent is caught" score
eq "wrong nic.dma parent" "$(row nic.dma)" "3 3 0 0 | 2 1 0 0 | 0 0 0"

mut 's/^3000,"nic.rx",0x1,0x1,0xa7,0xa6/3000,"nic.rx",0x1,0x1,0xa7,0x0/'
expect_rc 1 "an orphan is caught" score
eq "orphaned nic.rx" "$(row nic.rx)" "2 2 0 0 | 1 0 1 0 | 0 0 0"

mut 's/^2000,"nic.tx",0x1,0x1,0xa5,0xa3/2000,"nic.tx",0x1,0x1,0xa5,0xa4/'
expect_rc 1 "the heuristic's parent is wrong by default" score
eq "nic.tx heuristic parent" "$(row nic.tx)" "1 1 0 0 | 0 1 0 1 | 0 0 0"
stdout_has "(heur)"
expect_rc 0 "-r accepts the heuristic's parent" sh "$S" -r "$T/truth.csv" "$T/bad.csv"
mut 's/^700,"nic.dma",0x1,0x1,0xa4,0xa3/700,"nic.dma",0x1,0x1,0xa4,0xa1/'
expect_rc 1 "-r still catches a parent nobody gives" sh "$S" -r "$T/truth.csv" "$T/bad.csv"

expect_rc 1 "-v lists the mismatches" sh "$S" -v "$T/truth.csv" "$T/bad.csv"
stdout_has "parent 4 client0-nic nic.dma 700 0x55aa want 3 got 1"

mut '/"link"/d'
expect_rc 1 "a missing link is caught" score
eq "missing link" "$(row host.syscall)" "2 2 0 0 | 2 0 0 0 | 0 1 0"

mut '$a\
4000,"link",,0x1,0xaa,,,,,,,,,,,,,,0xa7,"nic.rx"'
expect_rc 1 "an extra link is caught" score
eq "extra link" "$(row host.syscall)" "2 2 0 0 | 2 0 0 0 | 1 0 1"

mut 's/^2500,"net.device",\(.*\),1,2,7,,$/2500,"net.device",\1,1,2,8,,/'
expect_rc 1 "a wrong key is a missing and an extra span" score
eq "net.device key" "$(row net.device)" "2 1 1 1 | 1 0 0 0 | 0 0 0"
expect_rc 1 "-v names them" sh "$S" -v "$T/truth.csv" "$T/bad.csv"
stdout_has "missing 6 net net.device 2500 1/2/7"
stdout_has "extra 0xa6 net net.device 2500 1/2/8"

mut 's/^4000,"host.syscall",0x1,0x1,0xaa/4001,"host.syscall",0x1,0x1,0xaa/'
expect_rc 1 "a wrong start is caught" score

mut 's/^900,"nic.dma",0x1,0x1,0xac,0xa3,1,4/900,"nic.dma",0x1,0x1,0xac,0xa3,1,2/'
expect_rc 0 "ties are numbered by duration" score

# Bad input and usage.
expect_rc 2 "no arguments" sh "$S"
stderr_has "usage: score-truth.sh"
expect_rc 2 "unknown option" sh "$S" -x "$T/truth.csv" "$T/good.csv"
expect_rc 2 "unreadable truth" sh "$S" "$T/nope.csv" "$T/good.csv"
stderr_has "cannot read"
expect_rc 2 "not a truth file" sh "$S" "$T/good.csv" "$T/good.csv"
stderr_has "not a truth file"
printf '# stream: a gem5\nfoo,bar\n1,2\n' >"$T/junk.csv"
expect_rc 2 "not a span dump" sh "$S" "$T/truth.csv" "$T/junk.csv"
stderr_has "not a span CSV dump"
expect_rc 0 "-h" sh "$S" -h
stdout_has "usage: score-truth.sh"
expect_rc 0 "--help (getopts said 'Illegal option --')" sh "$S" --help
stdout_has "usage: score-truth.sh"
eq "... and nothing on stderr" "$(wc -c <"$T/.err" | tr -d ' ')" 0

# End to end on a generated scenario: a perfect span builder scores
# perfectly, through the binary span format and its CSV dump.
check "simsynth" simsynth -H 4 -c 3 -n 12 --bg-to-host 0.5 "$T/sc"
check "truth2spans" sh -c "truth2spans '$T/sc/topology.csv' '$T/sc/truth.csv' >'$T/sc.sp'"
check "spancsv" sh -c "spancsv '$T/sc.sp' >'$T/sc.csv'"
expect_rc 0 "generated truth scores perfectly" sh "$S" "$T/sc/truth.csv" "$T/sc.csv"
check "truth2spans -r" sh -c "truth2spans -r '$T/sc/topology.csv' '$T/sc/truth.csv' | spancsv >'$T/scr.csv'"
expect_rc 0 "heuristic parents pass with -r" sh "$S" -r "$T/sc/truth.csv" "$T/scr.csv"
done_testing
