#!/bin/sh
# evspan's kernel context model (SPEC §3b, formats/spans.md §3b) on a
# hand-made two-CPU Linux 5.15 server (tests/data/evspan/kctx): recvfrom
# sleeps on cpu1, a timer tick and a device irq on cpu0, the NET_RX softirq
# rings a doorbell and wakes the syscall, cpu1 resumes it, the reply goes
# out.  Checks every parent and cause, the same server as a two-CPU gem5
# log through sim2ev, the same events under the Columbo-model rules (the
# new classes deleted), an input that starts in the middle of an
# interrupt, the --stats block, and the sinks.
. "$(dirname "$0")/../lib.sh"
RULES="$TOP/rules/linux-i40e.csv"
S="$DATA/evspan/kctx"

cp "$S/topology.csv" "$T/"
txt2ev -s srv -k host -o "$T/srv.ev" "$S/srv.txt"
txt2ev -s srv-nic -k nic -o "$T/srv-nic.ev" "$S/srv-nic.txt"
run() { evspan -t "$T/topology.csv" -r "$1" -o "$2" srv="${3:-$T/srv.ev}" srv-nic="$T/srv-nic.ev"; }

# "kind@start <- parent-kind@start cause flags" per span, in output order,
# and "link kind@start -> kind@start kind"
tree() {
	spancat "$1" | awk '
	$2 == "link" {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		print "link " name[f["span"]] " -> " name[f["target"]] " " f["kind"]; next }
	{
		delete f
		for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		name[f["span"]] = $2 "@" $1
		p = f["parent"] == "0x0" ? "root" : name[f["parent"]]
		print $2 "@" $1 " <- " p " " f["cause"] " " f["flags"]
	}'
}

check "evspan, Linux rules (model on)" run "$RULES" "$T/k.sp"
tree "$T/k.sp" > "$T/k.tree"
cat > "$T/k.want" <<'WANT'
host.irq@2000 <- root system-vector 0
nic.rx@4000 <- root rx 1
nic.rx@4100 <- root rx 1
nic.msix@4900 <- nic.rx@4100 rx-batch 0
link nic.msix@4900 -> nic.rx@4000 rx
host.msix@5000 <- nic.msix@4900  0
host.irq@5100 <- host.msix@5000 msix-fifo 0
host.softirq@5500 <- host.irq@5100  0
host.mmio@6300 <- host.softirq@5500 last-cpu 0
nic.mmio@6350 <- host.mmio@6300  0
host.resume@7000 <- host.softirq@5500 wakeup-fifo 0
host.syscall@1000 <- root  0
link host.syscall@1000 -> host.resume@7000 resume
host.syscall@8000 <- root  0
host.mmio@8300 <- host.syscall@8000 last-cpu 0
nic.mmio@8350 <- host.mmio@8300  0
nic.tx@8400 <- nic.mmio@8350  0
WANT
check "parents, causes and links (model on)" cmp "$T/k.tree" "$T/k.want"
[ -s "$T/.err" ] && sed 's/^/# /' "$T/k.tree"
# durations: the irq ends where its softirq starts, the syscall lasts to
# its exit (the resume took the functions after the wakeup)
spancat "$T/k.sp" > "$T/k.txt"
check "host.irq 5100 lasts 400 ps" grep -q '^ *5100 host.irq .* dur=400 .* funcs=5$' "$T/k.txt"
check "softirq has 9 functions, to irqentry_exit" grep -q '^ *5500 host.softirq .* dur=900 .*entry=__do_softirq funcs=9$' "$T/k.txt"
check "recvfrom lasts to its exit" grep -q '^ *1000 host.syscall .* dur=6200 ' "$T/k.txt"
check "recvfrom is named by its handler (__x64_sys_recvfrom)" grep -q '^ *1000 host.syscall .* call=recvfrom ' "$T/k.txt"
check "resume on cpu1 from the sched-in" grep -q 'host.resume .*cpu=system.cpu1 entry=finish_task_switch.isra.0 funcs=3$' "$T/k.txt"

# the same server as a two-CPU gem5 log (Exec lines with ExecSymbol's
# @sym on system.cpu0 and system.cpu1, the adapter's lines) through
# sim2ev: the same spans.  (No user-mode lines: sim2ev of this version
# has no user-mode pcs; the syscalls end at syscall_exit_to_user_mode.)
awk '$2 == "func" { split($4, a, "="); print a[2] }' "$S/srv.txt" | sort -u |
    awk '{ printf "ffffffff81%06x g     F .text\t0000000000000040 %s\n", NR * 256, $1 }' \
    > "$T/vmlinux.syms"
awk -v syms="$T/vmlinux.syms" '
BEGIN { while ((getline l < syms) > 0) { n = split(l, f, " "); addr[f[n]] = f[1] } }
/^#/ { next }
$2 == "func" { split($3, c, "="); split($4, s, "=")
	printf "%7d: %s: A0 T0 : 0x%s @%s    : mov rax, rbx : IntAlu :  D=0x0000000000000000\n", $1, c[2], addr[s[2]], s[2] }
$2 == "msix" { printf "%7d: system.pc.simbricks_0: simbricks-pci: received MSI-X intr vec 1\n", $1 }
$2 == "dma_done" { printf "%7d: system.pc.simbricks_0: simbricks-pci: completed DMA id 0\n", $1 }
$2 == "mmio_wr" { split($4, a, "="); split($6, i, "="); split($8, o, "=")
	sub(/^0x/, "", a[2]); sub(/^0x/, "", o[2])
	printf "%7d: system.pc.simbricks_0: simbricks-pci: sending write addr %s size 4 id %s bar 0 offs %s posted 1\n", $1, a[2], i[2], o[2] }
$2 == "mmio_posted" { printf "%7d: system.pc.simbricks_0.pio: simbricks-pci: sending immediate response for posted write\n", $1 }
' "$S/srv.txt" > "$T/srv.gem5.log"
check "sim2ev of the two-CPU gem5 log" sim2ev -f gem5 -s "$T/vmlinux.syms,vmlinux" \
    -n srv -o "$T/srv-g.ev" "$T/srv.gem5.log"
check "evspan on sim2ev's events" run "$RULES" "$T/g.sp" "$T/srv-g.ev"
tree "$T/g.sp" > "$T/g.tree"
# sim2ev stamps each adapter line with the CPU of the Exec line before it,
# so the MMIO parents no longer need the last-cpu guess
sed 's/ last-cpu /  /' "$T/k.want" > "$T/g.want"
check "the same spans as from the hand-made events (MMIO CPU from sim2ev)" \
    cmp "$T/g.tree" "$T/g.want"

# the same events, Columbo-model rules: no contexts; error_entry (a
# syscall-entry there) makes the irq path a "syscall" of cpu0 that takes
# the softirq's doorbell, and the sleeping recvfrom gathers what cpu1 ran
# (do_idle included) up to its exit
grep -v -e '^irq-entry' -e '^syscall-exit' "$RULES" > "$T/columbo.csv"
check "evspan, Columbo-model rules" run "$T/columbo.csv" "$T/c.sp"
tree "$T/c.sp" > "$T/c.tree"
spancat "$T/c.sp" > "$T/k.txt.c"
eq "no kernel context spans without irq-entry/syscall-exit" \
    "$(grep -c -e '^host.irq' -e '^host.softirq' -e '^host.resume' "$T/c.tree")" 0
check "the softirq doorbell goes to the irq path's 'syscall'" grep -q '^host.mmio@6300 <- host.syscall@5110  0$' "$T/c.tree"
check "recvfrom has cpu1's idle functions" grep -q '^ *1000 host.syscall .*call=recvfrom funcs=11 ' "$T/k.txt.c"
check "nic.msix: last causing span, no batch" grep -q '^nic.msix@4900 <- nic.rx@4100  0$' "$T/c.tree"

# --stats: the kernel context block
expect_rc 0 "--stats" evspan --stats -t "$T/topology.csv" -r "$RULES" -o "$T/s.sp" \
    srv="$T/srv.ev" srv-nic="$T/srv-nic.ev"
stderr_has "kernel contexts: 2 syscalls, 2 irqs, 1 softirqs, 1 resumes, 0 app spans opened"
stderr_has "1 sched-in with nothing to resume"
stderr_has "1 syscall entries inside a context"
stderr_has "rx: 2 delivered by a wakeup, 1 batched as msix links"
stderr_has "causes: msix-fifo 1, wakeup-fifo 1, system-vector 1, last-cpu 2, rx-batch 1"
stderr_has "irq 0/0/0"
expect_rc 0 "--stats, Columbo-model rules" evspan --stats -t "$T/topology.csv" \
    -r "$T/columbo.csv" -o "$T/s.sp" srv="$T/srv.ev" srv-nic="$T/srv-nic.ev"
if grep -q "kernel contexts" "$T/.err"; then not_ok "no kernel context block"; else
	ok "no kernel context block"; fi

# a log that starts inside the irq (from i40e_msix_clean_rings): the
# softirq has no irq, the irq-exit no entry (it ends the softirq); the
# sleeping recvfrom is not in the log, so the wakeup wakes nothing
sed -n '/^5200 /,$p' "$S/srv.txt" > "$T/cut.txt"
txt2ev -s srv -k host -o "$T/cut.ev" "$T/cut.txt"
expect_rc 0 "a log starting inside an interrupt" evspan --stats -t "$T/topology.csv" \
    -r "$RULES" -o "$T/cut.sp" srv="$T/cut.ev" srv-nic="$T/srv-nic.ev"
stderr_has "1 irq-exit without entry, 1 softirq without irq"
stderr_has "1 wakeup with nothing asleep"
tree "$T/cut.sp" > "$T/cut.tree"
check "softirq without its irq: orphan no-irq" grep -q '^host.softirq@5500 <- root no-irq 1$' "$T/cut.tree"
check "its doorbell is its child" grep -q '^host.mmio@6300 <- host.softirq@5500 ' "$T/cut.tree"
eq "no resume" "$(grep -c '^host.resume' "$T/cut.tree")" 0

# sinks: the new kinds load and show
check "spancat --csv" spancat --csv "$T/k.sp"
stdout_has "host.softirq"
if have sqlite3; then
	check "span2sqlite" span2sqlite "$T/k.db" "$T/k.sp"
	eq "host_irq view" "$(sqlite3 "$T/k.db" "select count(*) from host_irq")" 2
	eq "irq and softirq time on the host, by kind" \
	    "$(sqlite3 "$T/k.db" "select kind || ' ' || total_ps from span_kinds where kind in ('host.irq','host.softirq') order by kind")" \
	    "$(printf 'host.irq 600\nhost.softirq 900')"
	# a schema version 1 database (without the context tables) is
	# upgraded when appended to
	check "span2sqlite, Columbo-model spans" span2sqlite "$T/v1.db" "$T/c.sp"
	sqlite3 "$T/v1.db" "drop view host_irq; drop view host_softirq;
	    drop view host_resume; drop view host_app; drop table attr_host_irq;
	    drop table attr_host_softirq; drop table attr_host_resume;
	    drop table attr_host_app; pragma user_version = 1"
	check "span2sqlite appends to a version 1 database" span2sqlite "$T/v1.db" "$T/k.sp"
	eq "upgraded to version 2" "$(sqlite3 "$T/v1.db" "pragma user_version")" 2
	eq "its host_irq view" "$(sqlite3 "$T/v1.db" "select count(*) from host_irq")" 2
	eq "the softirq counts on srv in the trace's stream split" \
	    "$(sqlite3 "$T/k.db" "select count(*) from trace_streams ts join traces t on t.id = ts.trace where t.root_kind = 'nic.rx' and ts.stream = 'srv'")" 1
fi
check "span2html" span2html -o "$T/k.html" "$T/k.sp"
check "span2perfetto" span2perfetto -o "$T/k.pftrace" "$T/k.sp"

done_testing
