# Made by: simsynth -z --zstd-level 15 --kernel linux --cpus 2 --flow udp-rr -H 2 -c 2 -n 40 --exec-rate 1 --sync-interval 2us --bg-to-host 0.1 DIR
# Turn the logs into event streams (phase 1) and spans (phase 2): sh commands.sh
# (it runs in its own directory and stops at the first command that fails).
# gem5 logs need both symbol tables; the i40e module is loaded at 0xffffffffa0000000.
# the application's functions: app.syms, loaded at 0x555555554000
set -e
cd "$(dirname "$0")"
sim2ev -f gem5 -n server0 -s vmlinux.syms -s i40e.syms,i40e,0xffffffffa0000000 -s app.syms,app,0x555555554000 -o server0.ev.zst server0.gem5.log.zst
sim2ev -f gem5 -n client0 -s vmlinux.syms -s i40e.syms,i40e,0xffffffffa0000000 -s app.syms,app,0x555555554000 -o client0.ev.zst client0.gem5.log.zst
sim2ev -f nicbm -n server0-nic -o server0-nic.ev.zst server0-nic.nicbm.log.zst
sim2ev -f nicbm -n client0-nic -o client0-nic.ev.zst client0-nic.nicbm.log.zst
sim2ev -f ns3 -n net -o net.ev.zst net.ns3.log.zst
evspan -t topology.csv -r rules.csv -o spans.sp
