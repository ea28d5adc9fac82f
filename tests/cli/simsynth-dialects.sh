# simsynth's log dialects (--nicbm-dialect, --gem5-dialect): each writes the
# line forms FORMATS.md lists for that simulator version, and sim2ev turns
# every dialect of one scenario into the same event stream, but for the
# fields the dialect does not print (nicbm posted=, the adapter's bar, offs
# and posted; old adapters say "intr vec" for MSI-X).  An old-versions
# scenario also goes through the whole pipeline and matches its truth.
. "$(dirname "$0")/../lib.sh"

needs sim2ev evcat evspan spancat

gen() {	# gen NAME SIMSYNTH-OPTIONS...: scenario in $T/NAME
	gn=$1; shift
	expect_rc 0 "simsynth $*" simsynth -v -H 3 -c 2 -n 6 --exec-rate 2 \
	    --bg-to-host 0.5 --nonposted 0.3 "$@" "$T/$gn"
	cp "$T/.err" "$T/$gn.stats"
}
# evs NAME LOG: sim2ev | evcat of one log, stats in $T/NAME.LOG.st
evs() {
	case $2 in
	*.gem5.log) set -- "$1" "$2" -f gem5 -s "$T/$1/vmlinux.syms" \
	    -s "$T/$1/i40e.syms,i40e,0xffffffffa0000000" ;;
	*.nicbm.log) set -- "$1" "$2" -f nicbm ;;
	esac
	en=$1 el=$2; shift 2
	sim2ev "$@" -n x --stats "$T/$en/$el" 2>"$T/$en.$el.st" | evcat
}
# the events of a log as sim2ev counts them and as simsynth does
# (sim2ev's user events aside: simsynth's Columbo world does not count the
# returns to user mode its user pcs make)
events() {
	awk '/ lines = / { sub(/.* lines = /, "")
		if ($2 == "with") { e = $4; sub(/^\(/, "", e) } else e = $1 }
	    NF == 2 && $2 == "user" { u = $1 } END { print e - u }' "$T/$1.$2.st"
}
wantev() { awk -v f="$2" '$1 == f { print $4 }' "$T/$1.stats"; }
# lines sim2ev skipped for a reason simsynth did not put there on purpose
unexpected() {
	awk '$2 == "skipped:" && $3 !~ /^(exec|exec-microop|exec-nop-fence|fault|simbricks-other|nic-info|dma-data)$/' \
	    "$T/$1.$2.st"
}
nicbm_logs="server0-nic.nicbm.log client0-nic.nicbm.log client1-nic.nicbm.log"
gem5_logs="server0.gem5.log client0.gem5.log client1.gem5.log"

# --- nicbm --------------------------------------------------------------------
gen up
gen co --nicbm-dialect columbo
gen sc --nicbm-dialect sigcomm22
f="$T/up/client0-nic.nicbm.log"
check "upstream: info: prefix, addr 0x, posted=" sh -c "grep -q '^info: main_time = [0-9]*: nicbm: issuing dma op 0x[0-9a-f]* addr 0x' '$f' &&
    grep -q 'nicbm: write(off=.*, posted=[01])\$' '$f' && grep -q '^info: mac_addr=' '$f' &&
    grep -q 'dma write data: \$' '$f' && grep -q '^info: [0-9A-F][0-9A-F] info: ' '$f'"
f="$T/co/client0-nic.nicbm.log"
check "columbo: info: prefix, addr without 0x, no posted=" sh -c "grep -q '^info: main_time = [0-9]*: nicbm: issuing dma op 0x[0-9a-f]* addr [0-9a-f]* len' '$f' &&
    ! grep -q 'addr 0x\\|posted=' '$f' && grep -q '^info: [0-9A-F][0-9A-F] info: ' '$f' &&
    grep -q '^main_time = [0-9]*\$' '$f'"
f="$T/sc/client0-nic.nicbm.log"
check "sigcomm22: no prefix, addr without 0x, no posted=, bare payload bytes" sh -c "
    grep -q '^main_time = [0-9]*: nicbm: issuing dma op 0x[0-9a-f]* addr [0-9a-f]* len' '$f' &&
    ! grep -q 'info: \\|addr 0x\\|posted=' '$f' && grep -q '^mac_addr=[0-9a-f]*\$' '$f' &&
    grep -q '^[0-9A-F][0-9A-F] [0-9A-F][0-9A-F] .*[0-9A-F][0-9A-F] main_time = ' '$f'"
for l in $nicbm_logs; do
	evs up "$l" | sed 's/ posted=[-0-9]*//' >"$T/up.$l.ev"
	for dl in co sc; do
		evs $dl "$l" | sed 's/ posted=[-0-9]*//' >"$T/$dl.$l.ev"
		check "$dl $l: the upstream events (posted= aside)" cmp "$T/up.$l.ev" "$T/$dl.$l.ev"
		eq "$dl $l: every event simsynth wrote" "$(events $dl "$l")" "$(wantev $dl "$l")"
		eq "$dl $l: nothing unexpected skipped" "$(unexpected $dl "$l")" ""
	done
done
evs sc client0-nic.nicbm.log >"$T/sc.ev"
check "sigcomm22: posted unknown (-1)" grep -q 'nic_wr .* posted=-1$' "$T/sc.ev"
eq "sigcomm22: no posted value at all" "$(grep -c 'nic_wr .*posted=[01]' "$T/sc.ev")" 0
for l in $gem5_logs net.ns3.log; do
	check "nicbm dialects leave $l alone" cmp "$T/up/$l" "$T/sc/$l"
done

# --- gem5 ---------------------------------------------------------------------
# adapters without posted writes complete every write: compare with a
# current-gem5 run where every write is non-posted
gen np --nonposted 1
gen ff --gem5-dialect fmtflag
gen nopo --gem5-dialect noposted
gen nobar --gem5-dialect nobar,fmtflag
f="$T/ff/client0.gem5.log"
check "fmtflag: the debug flag before the component" sh -c "
    grep -q '^ *[0-9]*: ExecEnable: system.switch_cpus: A0 T0 : 0x' '$f' &&
    grep -q ': SimBricksPci: system.pc.simbricks_0: simbricks-pci: sending write addr [0-9a-f]* size 4 id [0-9]* bar 0 offs [0-9a-f]* posted [01]\$' '$f' &&
    grep -q ': PciHost: system.pc.pci_host: 00:00.0: ' '$f' &&
    grep -q ': PciDevice: system.pc.simbricks_0: readConfig:  dev 0' '$f' &&
    grep -q ': SimBricksSync: global: simbricks: sending sync message for ts=' '$f' &&
    grep -q ': Faults: External Interrupt: RIP 0x' '$f' &&
    ! grep -q '^ *[0-9]*: system\\.' '$f'"
f="$T/nopo/client0.gem5.log"
check "noposted: bar and offs, no posted" sh -c "
    grep -q 'sending write addr [0-9a-f]* size 4 id [0-9]* bar 0 offs [0-9a-f]*\$' '$f' &&
    ! grep -q ' posted [01]\$\\|immediate response' '$f'"
f="$T/nobar/client0.gem5.log"
check "nobar: no bar, offs or posted; intr vec; the Ethernet flag" sh -c "
    grep -q ': Ethernet: system.pc.simbricks_0: simbricks-pci: sending write addr [0-9a-f]* size 4 id [0-9]*\$' '$f' &&
    grep -q 'simbricks-pci: received intr vec 1\$' '$f' && ! grep -q ' bar \\|MSI-X' '$f'"
for l in $gem5_logs; do
	evs up "$l" >"$T/up.$l.ev"
	evs ff "$l" >"$T/ff.$l.ev"
	check "fmtflag $l: the same events" cmp "$T/up.$l.ev" "$T/ff.$l.ev"
	evs np "$l" | sed '/^ *[0-9]* mmio_wr /s/ posted=[-0-9]*//' >"$T/np.$l.ev"
	evs nopo "$l" | sed '/^ *[0-9]* mmio_wr /s/ posted=[-0-9]*//' >"$T/nopo.$l.ev"
	check "noposted $l: the events (posted aside)" cmp "$T/np.$l.ev" "$T/nopo.$l.ev"
	sed -e '/^ *[0-9]* mmio_\(rd\|wr\) /s/ bar=.*//' -e 's/^\( *[0-9]*\) msix   /\1 intr   /' \
	    "$T/np.$l.ev" >"$T/np2.$l.ev"
	evs nobar "$l" | sed '/^ *[0-9]* mmio_\(rd\|wr\) /s/ bar=.*//' >"$T/nobar.$l.ev"
	check "nobar $l: the events (bar, offs, posted aside; intr for msix)" cmp "$T/np2.$l.ev" "$T/nobar.$l.ev"
	for dl in ff nopo nobar; do
		eq "$dl $l: every event simsynth wrote" "$(events $dl "$l")" "$(wantev $dl "$l")"
		eq "$dl $l: nothing unexpected skipped" "$(unexpected $dl "$l")" ""
	done
done
evs nobar client0.gem5.log >"$T/nobar.ev"
check "nobar: bar, offs and posted unknown" grep -q 'mmio_wr .* bar=-1 offs=0x0 posted=-1 cpu=[^ ]*$' "$T/nobar.ev"
eq "nobar: no msix events, intr instead" "$(grep -c ' msix ' "$T/nobar.ev") $(grep -c ' intr ' "$T/nobar.ev")" \
    "0 $(grep -c ' msix ' "$T/np.client0.gem5.log.ev")"

# --- the 2022 versions end to end ---------------------------------------------
gen old --nicbm-dialect sigcomm22 --gem5-dialect nobar,fmtflag
check "old versions: phase one and two" sh -c "cd '$T/old' && sh commands.sh"
check "old versions: spancat" sh -c "spancat --csv -H '$T/old/spans.sp' >'$T/old.csv'"
expect_rc 0 "old versions: every span, parent and link as the truth says" \
    sh "$TOP/tests/score-truth.sh" -r "$T/old/truth.csv" "$T/old.csv"

expect_rc 2 "unknown nicbm dialect" simsynth --nicbm-dialect 2019 "$T/x"
stderr_has "--nicbm-dialect 2019: want upstream, columbo or sigcomm22"
expect_rc 2 "unknown gem5 dialect" simsynth --gem5-dialect fmtflag,old "$T/x"
stderr_has "--gem5-dialect fmtflag,old: want a comma-separated list"
done_testing
