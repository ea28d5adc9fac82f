#!/bin/sh
# truth-matrix.sh: score span building on simsynth --kernel linux scenarios
# against their truth, over seeds x CPUs x flows x clients, with
# background traffic, once with a rules file and once with its
# "Columbo-model" copy (the kernel-context classes of SPEC §3b removed).
#
# The "full" set is the rules file plus "app-root,client_request" when it
# names no app-root function (rules/linux-i40e.csv names none): the
# truth has a host.app span for every client_request entry, parent of
# the client's syscalls in that request (formats/truth.md), so without it
# every host.app would count as missing and those syscalls as wrong.
# --print ideal cells are scored without its ipi-send and ipi-entry rows
# (their truth keeps reschedule IPIs roots, as SPEC §3b did).  The
# "columbo" set has no app-root class (the Columbo model makes no
# host.app spans): there host.app rows count as missing and the request
# syscalls as wrong parents, which is what that model gets.
#
# usage: truth-matrix.sh [-k dir] [-n requests] [-r rules.csv] [-s seeds]
#                        [-c cpus] [-f flows] [-l clients] [-p prints]
#   -r rules.csv  the rules (default: rules/linux-i40e.csv of this tree;
#                 app-root,client_request is added when it has no app-root)
#   -s "1 2 3"    seeds (default: 1 2 3 4 5)
#   -c "1 2 4"    CPUs per host (default: 1 2 4)
#   -f "..."      flows (default: udp-rr tcp-rr tcp-stream); also
#                 udp-burst (udp-rr, 4 client threads per client host: 4
#                 requests at once) and tcp-tso (tcp-rr with 28960-byte
#                 responses: 20 frames by TSO), more frames in flight
#   -l "1 4"      client hosts (default: 1 4)
#   -p "ideal"    simsynth --print: ideal (the printing SPEC §3/§3b's
#                 rules assume) and/or real (TimingSimpleCPU and i40e_bm,
#                 SPEC §3c, simsynth's default with --kernel linux)
#                 (default: ideal real)
#   -n N          requests per scenario (default: 30)
#   -k dir        keep every scenario under dir (default: a temporary one)
#
# Scenarios: simsynth --kernel linux, one thread per client host, -n
# requests, --exec-rate 1, --bg-to-host 0.1 (default background load);
# tcp-stream writes 28960 bytes (20 frames by TSO) every 10us, enough for
# NAPI budget exhaustion and ksoftirqd.
# Pipeline per cell: simsynth -> sim2ev (commands.sh's lines) -> evspan ->
# spancat -> tests/score-truth.sh.  Prints one line per cell and rules set:
#   <rules> print=X seed=S cpus=C flow=F clients=L spans=N right=R share=P%
#       amb=A share12=Q% miss: kind=n ...
# where N counts the truth's unambiguous spans, R those with a matched span
# whose parent is the true one, P = R/N, A the ambiguous rows (reported
# apart, formats/truth.md), Q the share over the twelve span kinds of
# SPEC §3 (without host.irq, host.softirq, host.resume, host.app, which the
# Columbo model does not make), and "miss" lists per kind the spans that are
# missing or have another parent.  Then a summary per rules set and the
# wall time.
# Needs simsynth, sim2ev, evspan, spancat on PATH (or SSP_BIN), sqlite3.
set -u
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
[ -n "${SSP_BIN:-}" ] && PATH="$SSP_BIN:$PATH"
rules=$top/rules/linux-i40e.csv seeds="1 2 3 4 5" cpus="1 2 4"
flows="udp-rr tcp-rr tcp-stream" clients="1 4" n=30 keep="" prints="ideal real"
while getopts "c:f:hk:l:n:p:r:s:" opt; do
	case $opt in
	c) cpus=$OPTARG ;;
	f) flows=$OPTARG ;;
	h) sed -n '2,/^set -u/p' "$0" | sed -e 's/^# \{0,1\}//' -e '/^set -u/d'; exit 0 ;;
	k) keep=$OPTARG ;;
	l) clients=$OPTARG ;;
	n) n=$OPTARG ;;
	p) prints=$OPTARG ;;
	r) rules=$OPTARG ;;
	s) seeds=$OPTARG ;;
	*) echo "usage: truth-matrix.sh [-k dir] [-n requests] [-r rules.csv] [-s seeds] [-c cpus] [-f flows] [-l clients] [-p prints]" >&2; exit 2 ;;
	esac
done
for t in simsynth sim2ev evspan spancat sqlite3; do
	command -v "$t" >/dev/null 2>&1 || { echo "truth-matrix.sh: $t not found" >&2; exit 2; }
done
[ -r "$rules" ] || { echo "truth-matrix.sh: $rules: cannot read" >&2; exit 2; }
if [ -n "$keep" ]; then
	mkdir -p "$keep" || exit 2
	dir=$keep
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/truth-matrix.XXXXXX") || exit 2
	trap 'rm -rf "$dir"' EXIT INT TERM
fi
# The Columbo-model rules: the same file without the kernel-context classes.
grep -v -E '^"?(syscall-exit|irq-entry|irq-exit|softirq-entry|sleep|sched-in|wakeup|idle|app-root|ipi-send|ipi-entry)"?,' \
    "$rules" >"$dir/rules-columbo.csv"
cp "$rules" "$dir/rules-full.csv"
# simsynth's application enters client_request once per request
if ! grep -q -E '^"?app-root"?,' "$rules"; then
	[ -n "$(tail -c 1 "$rules")" ] && echo >>"$dir/rules-full.csv"
	echo 'app-root,client_request' >>"$dir/rules-full.csv"
fi
# --print ideal's truth has reschedule IPIs as roots, as SPEC §3b had
# them: its cells are scored without the IPI classes of SPEC §3c
grep -v -E '^"?ipi-(send|entry)"?,' "$dir/rules-full.csv" >"$dir/rules-full-ideal.csv"
start=$(date +%s)

# score DIR SET: one result line from score-truth.sh's table
score() {
	d=$1 set=$2 rset=$2
	[ "$set" = full ] && [ "$3" = ideal ] && rset=full-ideal
	if ! (cd "$d" && evspan -t topology.csv -r "$dir/rules-$rset.csv" \
	    -o "$set.sp" 2>"$set.err"); then
		echo "evspan failed: $(head -n 1 "$d/$set.err")"
		return
	fi
	spancat --csv -H "$d/$set.sp" >"$d/$set.csv" 2>"$d/$set.err" ||
		{ echo "spancat failed: $(head -n 1 "$d/$set.err")"; return; }
	sh "$top/tests/score-truth.sh" "$d/truth.csv" "$d/$set.csv" >"$d/$set.score" 2>"$d/$set.err"
	[ $? -le 1 ] || { echo "score-truth.sh failed: $(head -n 1 "$d/$set.err")"; return; }
	awk '
	$1 == "total" { n = $2; right = $7 }
	$1 ~ /^(host|nic|net)\./ && $1 !~ /^host\.(irq|softirq|resume|app)$/ {
		n12 += $2; r12 += $7
	}
	$1 ~ /^(host|nic|net)\./ && $2 - $7 > 0 { miss = miss " " $1 "=" ($2 - $7) }
	$1 == "ambiguous" { amb = $2 }
	END {
		printf "spans=%d right=%d share=%.2f%% amb=%d share12=%.2f%% miss:%s\n",
		    n, right, (n > 0 ? 100 * right / n : 0), amb,
		    (n12 > 0 ? 100 * r12 / n12 : 0), (miss == "" ? " none" : miss)
	}' "$d/$set.score"
}

for pr in $prints; do
for seed in $seeds; do
for c in $cpus; do
for f in $flows; do
for l in $clients; do
	cell="print=$pr seed=$seed cpus=$c flow=$f clients=$l"
	d="$dir/$pr-s$seed-c$c-$f-l$l"
	rm -rf "$d"
	size="" flow=$f
	case $f in
	# a stream that loads the receiver: 20 TSO segments per write
	tcp-stream) size="--request-size 28960 --interval 10us" ;;
	udp-burst) flow=udp-rr size="-c 4" ;;
	tcp-tso) flow=tcp-rr size="--response-size 28960" ;;
	esac
	# shellcheck disable=SC2086
	if ! simsynth --kernel linux --print "$pr" --cpus "$c" --flow "$flow" \
	    -H $((l + 1)) -n "$n" -s "$seed" --exec-rate 1 --bg-to-host 0.1 \
	    $size "$d" 2>"$d.err"; then
		echo "full $cell simsynth failed: $(head -n 1 "$d.err")"
		continue
	fi
	if ! (cd "$d" && grep '^sim2ev ' commands.sh | sh) 2>"$d.err"; then
		echo "full $cell sim2ev failed: $(head -n 1 "$d.err")"
		continue
	fi
	for set in full columbo; do
		echo "$set $cell $(score "$d" "$set" "$pr")"
	done
done
done
done
done
done | tee "$dir/matrix.txt"

# summary per rules set and printing
for pr in $prints; do
for set in full columbo; do
	awk -v set="$set" -v pr="print=$pr" '
	$1 == set && $2 == pr {
		for (i = 3; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "spans") sp = kv[2]
			else if (kv[1] == "right") r1 = kv[2]
			else if (kv[1] == "amb") a1 = kv[2]
			else if (kv[1] == "share") { sh = kv[2]; sub(/%/, "", sh) }
			else if (kv[1] == "miss:") break
		}
		if (sp == "") next
		n += sp; r += r1; amb += a1; cells++
		if (min == "" || sh + 0 < min + 0) { min = sh; worst = $3 " " $4 " " $5 " " $6 }
		sp = ""
		for (i = 1; i <= NF; i++) if ($i == "miss:") break
		for (i++; i <= NF; i++) { split($i, kv, "="); miss[kv[1]] += kv[2] }
	}
	END {
		if (cells == 0)
			exit
		printf "%s rules, %s: %d cells, %d spans, %d with the true parent (%.2f%%, worst cell %s%%: %s), %d ambiguous apart\n",
		    set, pr, cells, n, r, (n > 0 ? 100 * r / n : 0), min, worst, amb
		m = ""
		for (k in miss) if (k != "none") m = m " " k "=" miss[k]
		printf "  misses by kind:%s\n", (m == "" ? " none" : m)
	}' "$dir/matrix.txt"
done
done
echo "$(($(date +%s) - start)) s"
