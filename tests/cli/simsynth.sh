# simsynth: usage, defaults, outputs, the examples of simsynth(1).
. "$(dirname "$0")/../lib.sh"

expect_rc 0 "--help" simsynth --help
stdout_has "usage: simsynth"
stdout_has "See simsynth(1)."
expect_rc 0 "-h" simsynth -h
expect_rc 0 "--version" simsynth --version
stdout_has "simsynth 0."
expect_rc 2 "no directory" simsynth
stderr_has "missing output directory"
stderr_has "usage: simsynth"
expect_rc 2 "two directories" simsynth a b
stderr_has "too many arguments"
expect_rc 2 "unknown option" simsynth --frobnicate x
expect_rc 2 "one host" simsynth -H 1 "$T/x"
expect_rc 2 "no clients" simsynth --servers 2 "$T/x"
stderr_has "--servers 2"
expect_rc 2 "more concurrency than clients" simsynth -c 2 "$T/x"
stderr_has "--concurrency 2"
expect_rc 2 "bad rate" simsynth --bandwidth fast "$T/x"
stderr_has "--bandwidth fast: invalid rate"
expect_rc 2 "bad size" simsynth --gem5-size 2X "$T/x"
expect_rc 2 "load out of range" simsynth --bg-load 1 "$T/x"
expect_rc 2 "zero latency" simsynth --pcie-latency 0 "$T/x"
expect_rc 2 "bad time unit" simsynth --interval 5min "$T/x"
expect_rc 2 "zstd level out of range" simsynth --zstd-level 20 "$T/x"
expect_rc 2 "negative count" simsynth -n -1 "$T/x"
expect_rc 2 "huge count" simsynth -n 99999999999999999999 "$T/x"
stderr_has "too large"
expect_rc 2 "payload too big for a frame" simsynth --response-size 1500 "$T/x"
expect_rc 2 "unknown NIC" simsynth --nic ixgbe "$T/x"
stderr_has "--nic ixgbe: want i40e, corundum, corundum-verilator, e1000 or enso"
expect_rc 2 "e1000 behind QEMU" simsynth --nic e1000 --host qemu "$T/x"
stderr_has "--nic e1000: the model has gem5 hosts only"
expect_rc 2 "interrupt moderation on Corundum" simsynth --nic corundum --itr 2us "$T/x"
stderr_has "corundum_bm has no interrupt moderation"
[ ! -e "$T/x" ] && ok "bad usage writes nothing" || not_ok "bad usage writes nothing"

# Every default of simsynth(1), spelled out, gives the same files.
expect_rc 0 "defaults" simsynth -v "$T/def"
stderr_has "requests 100,"
stderr_has "server0.gem5.log"
stderr_has "client0-nic.nicbm.log"
expect_rc 0 "explicit defaults" simsynth --hosts 2 --servers 1 --requests 100 \
    --concurrency 1 --request-size 64 --response-size 1024 --interval 50us \
    --pcie-latency 500ns --eth-latency 500ns --net-latency 1us \
    --bandwidth 10G --queue-limit 64 --bg-load 0.3 --bg-flows 2 \
    --bg-to-host 0.05 --bg-arp 0.3 --nonposted 0.05 --housekeeping 1 --itr 0 \
    --sync-interval 500ns --checkpoint-offset 0 --exec-rate 10 --seed 1 --nic i40e \
    "$T/exp"
for f in server0.gem5.log client0.gem5.log server0-nic.nicbm.log \
    client0-nic.nicbm.log net.ns3.log topology.csv truth.csv vmlinux.syms \
    i40e.syms rules.csv; do
	check "default $f" cmp "$T/def/$f" "$T/exp/$f"
done
check "commands.sh" test -s "$T/def/commands.sh"
check "a request is 64 bytes of UDP" grep -q "nicbm: eth tx: len 106$" "$T/def/client0-nic.nicbm.log"
check "a response 1024" grep -q "nicbm: eth tx: len 1066$" "$T/def/server0-nic.nicbm.log"
check "the NIC sits at node 1 device 2" grep -q '^"eth","client0-nic","net","1","2"' "$T/def/topology.csv"
check "pcie link with the adapter" grep -q '^"pcie","server0","server0-nic","system.pc.simbricks_0"' "$T/def/topology.csv"
check "rules are the Linux + i40e classes" cmp "$T/def/rules.csv" "$DATA/samples/rules-linux-i40e.csv"
check "the real i40e table" cmp "$T/def/i40e.syms" "$DATA/samples/symbols/i40e-image-syms.columbo.dump"
check "first sync at tick 0" grep -q '^      0: global: simbricks: sending sync message for ts=0$' "$T/def/server0.gem5.log"

# Other seeds, other scenarios; the same seed, the same one.
expect_rc 0 "seed 2" simsynth -n 5 --seed 2 "$T/s2"
expect_rc 0 "seed 2 again" simsynth -n 5 --seed 2 "$T/s2b"
check "same seed, same truth" cmp "$T/s2/truth.csv" "$T/s2b/truth.csv"
check "same seed, same logs" cmp "$T/s2/net.ns3.log" "$T/s2b/net.ns3.log"
expect_rc 0 "seed 3" simsynth -n 5 --seed 3 "$T/s3"
if cmp -s "$T/s2/truth.csv" "$T/s3/truth.csv"; then not_ok "other seed, other truth"; else ok "other seed, other truth"; fi

# -z: zstd frames that hold the same logs.
expect_rc 0 "-z" simsynth -z -n 5 --seed 2 "$T/z"
check "compressed gem5 log" test -s "$T/z/server0.gem5.log.zst"
check "zstd -t" zstd -q -t "$T/z/server0.gem5.log.zst" "$T/z/net.ns3.log.zst"
zstd -q -d -c "$T/z/client0-nic.nicbm.log.zst" >"$T/z.nicbm"
check "same bytes inside" cmp "$T/z.nicbm" "$T/s2/client0-nic.nicbm.log"
check "commands name the .zst logs" grep -q "net.ns3.log.zst$" "$T/z/commands.sh"

# --restart-at leaves regular files alone.
expect_rc 0 "--restart-at on files" simsynth -n 5 --seed 2 --restart-at 1ms "$T/r"
check "restart: same logs" cmp "$T/r/client0.gem5.log" "$T/s2/client0.gem5.log"

# --pace slows the writer down.
expect_rc 0 "unpaced" simsynth -v -n 2 --bg-load 0 --exec-rate 0 --housekeeping 0 "$T/p0"
t0=$(date +%s%N)
expect_rc 0 "--pace 256k" simsynth -n 2 --bg-load 0 --exec-rate 0 --housekeeping 0 --pace 256k "$T/p1"
t1=$(date +%s%N)
bytes=$(cat "$T"/p1/*.log | wc -c)
# at 256 KiB/s the logs take at least bytes/262144 s (less 10 %)
want=$((bytes * 900 / 262144))
got=$(((t1 - t0) / 1000000))
[ "$got" -ge "$want" ] && ok "paced: $bytes bytes in $got ms (>= $want)" ||
	not_ok "paced: $bytes bytes in $got ms (want >= $want)"

# Runtime failures exit 1 and name the path.
: >"$T/afile"
expect_rc 1 "output is a file" simsynth -n 1 "$T/afile/out"
stderr_has "$T/afile/out"

# The examples of simsynth(1).
expect_rc 0 "example: concurrent clients" simsynth -v -H 5 -c 4 -n 40 --bg-load 0.6 "$T/ex1"
stderr_has "requests 40,"
check "four clients" test -s "$T/ex1/client3.gem5.log"
expect_rc 0 "example: sized logs" simsynth -z --gem5-size 16M "$T/ex2"
for f in "$T"/ex2/*.gem5.log.zst; do
	n=$(zstd -q -d -c "$f" | wc -c)
	[ "$n" -gt 15938355 ] && [ "$n" -lt 17616076 ] && ok "$(basename "$f"): $n bytes, about 16 MiB" ||
		not_ok "$(basename "$f"): $n bytes, not about 16 MiB"
done
rm -rf "$T/ex2"
expect_rc 0 "example: checkpoint offset" simsynth -n 3 --checkpoint-offset 1473ms "$T/ex3"
check "absolute ticks" grep -q '^1473000000000: global: simbricks: sending sync message for ts=0$' "$T/ex3/client0.gem5.log"
check "commands take the offset from sync lines" grep -q -- "--time-offset sync" "$T/ex3/commands.sh"
done_testing
