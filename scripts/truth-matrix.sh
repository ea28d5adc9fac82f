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
# every host.app would count as missing and those syscalls as wrong.  The
# "columbo" set has no app-root class (the Columbo model makes no
# host.app spans): there host.app rows count as missing and the request
# syscalls as wrong parents, which is what that model gets.
#
# usage: truth-matrix.sh [-k dir] [-n requests] [-r rules.csv] [-s seeds]
#                        [-c cpus] [-f flows] [-l clients]
#   -r rules.csv  the rules (default: rules/linux-i40e.csv of this tree;
#                 app-root,client_request is added when it has no app-root)
#   -s "1 2 3"    seeds (default: 1 2 3 4 5)
#   -c "1 2 4"    CPUs per host (default: 1 2 4)
#   -f "..."      flows (default: udp-rr tcp-rr tcp-stream)
#   -l "1 4"      client hosts (default: 1 4)
#   -n N          requests per scenario (default: 30)
#   -k dir        keep every scenario under dir (default: a temporary one)
#
# Scenarios: simsynth --kernel linux, one thread per client host, -n
# requests, --exec-rate 1, --bg-to-host 0.1 (default background load);
# tcp-stream writes 28960 bytes (20 frames by TSO) every 10us, enough for
# NAPI budget exhaustion and ksoftirqd.
# Pipeline per cell: simsynth -> sim2ev (commands.sh's lines) -> evspan ->
# spancat -> tests/score-truth.sh.  Prints one line per cell and rules set:
#   <rules> seed=S cpus=C flow=F clients=L spans=N right=R share=P% amb=A
#       share12=Q% miss: kind=n ...
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
flows="udp-rr tcp-rr tcp-stream" clients="1 4" n=30 keep=""
while getopts "c:f:hk:l:n:r:s:" opt; do
	case $opt in
	c) cpus=$OPTARG ;;
	f) flows=$OPTARG ;;
	h) sed -n '2,/^set -u/p' "$0" | sed -e 's/^# \{0,1\}//' -e '/^set -u/d'; exit 0 ;;
	k) keep=$OPTARG ;;
	l) clients=$OPTARG ;;
	n) n=$OPTARG ;;
	r) rules=$OPTARG ;;
	s) seeds=$OPTARG ;;
	*) echo "usage: truth-matrix.sh [-k dir] [-n requests] [-r rules.csv] [-s seeds] [-c cpus] [-f flows] [-l clients]" >&2; exit 2 ;;
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
grep -v -E '^"?(syscall-exit|irq-entry|irq-exit|softirq-entry|sleep|sched-in|wakeup|idle|app-root)"?,' \
    "$rules" >"$dir/rules-columbo.csv"
cp "$rules" "$dir/rules-full.csv"
# simsynth's application enters client_request once per request
if ! grep -q -E '^"?app-root"?,' "$rules"; then
	[ -n "$(tail -c 1 "$rules")" ] && echo >>"$dir/rules-full.csv"
	echo 'app-root,client_request' >>"$dir/rules-full.csv"
fi
start=$(date +%s)

# score DIR SET: one result line from score-truth.sh's table
score() {
	d=$1 set=$2
	if ! (cd "$d" && evspan -t topology.csv -r "$dir/rules-$set.csv" \
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

for seed in $seeds; do
for c in $cpus; do
for f in $flows; do
for l in $clients; do
	cell="seed=$seed cpus=$c flow=$f clients=$l"
	d="$dir/s$seed-c$c-$f-l$l"
	rm -rf "$d"
	size=""
	# a stream that loads the receiver: 20 TSO segments per write
	[ "$f" = tcp-stream ] && size="--request-size 28960 --interval 10us"
	# shellcheck disable=SC2086
	if ! simsynth --kernel linux --cpus "$c" --flow "$f" -H $((l + 1)) \
	    -n "$n" -s "$seed" --exec-rate 1 --bg-to-host 0.1 $size "$d" \
	    2>"$d.err"; then
		echo "full $cell simsynth failed: $(head -n 1 "$d.err")"
		continue
	fi
	if ! (cd "$d" && grep '^sim2ev ' commands.sh | sh) 2>"$d.err"; then
		echo "full $cell sim2ev failed: $(head -n 1 "$d.err")"
		continue
	fi
	for set in full columbo; do
		echo "$set $cell $(score "$d" "$set")"
	done
done
done
done
done | tee "$dir/matrix.txt"

# summary per rules set
for set in full columbo; do
	awk -v set="$set" '
	$1 == set && $6 ~ /^spans=/ {
		split($6, a, "="); split($7, b, "="); split($9, c, "=")
		n += a[2]; r += b[2]; amb += c[2]; cells++
		split($8, d, "="); sub(/%/, "", d[2])
		if (min == "" || d[2] + 0 < min + 0) min = d[2]
	}
	END {
		if (cells > 0)
			printf "%s rules: %d cells, %d spans, %d with the true parent (%.2f%%, worst cell %s%%), %d ambiguous apart\n",
			    set, cells, n, r, (n > 0 ? 100 * r / n : 0), min, amb
	}' "$dir/matrix.txt"
done
echo "$(($(date +%s) - start)) s"
