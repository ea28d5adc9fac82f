#!/bin/sh
# One meaning per option letter across the tools (simspan(7), "Options
# across the tools"; issue 26): what --help says -f, -q, -s, -v, -z and
# --stats are, in every tool; the old spellings still work for one minor
# version with one deprecation line on stderr; -q and --stats everywhere.
. "$(dirname "$0")/../lib.sh"

TOOLS="evcat evfilter evspan sim2ev simspan-simbricks simsynth span2html
    span2otlp span2perfetto span2sqlite spancat"

# --- 1. --help: one meaning per letter ---------------------------------------
# An option line of a help text: "  -x, --long ARG   what".
# simspan-online, a script, too
simspan_online() { sh "$TOP/scripts/simspan-online" "$@"; }
for t in $TOOLS simspan-online; do
	case $t in
	simspan-online) simspan_online --help >"$T/$t.help" ;;
	*) "$t" --help >"$T/$t.help" ;;
	esac
	# the short options the help lists, with their long names
	sed -n 's/^  \(-[A-Za-z]\), \(--[a-z-]*\).*/\1 \2/p' "$T/$t.help" |
	    sort -u >"$T/$t.pairs"
	grep -q -- '--stats' "$T/$t.help" && has=1 || has=0
	eq "$t --help: has --stats" "$has" 1
done
# every letter of the list means the same in every tool that has it
cat "$T"/*.pairs | sort -u >"$T/all.pairs"
for l in -f -q -s -v -z; do
	eq "$l is one option in every tool ($(grep -- "^$l " "$T/all.pairs" |
	    tr '\n' ' '))" "$(grep -c -- "^$l " "$T/all.pairs")" \
	    "$(grep -c -- "^$l " "$T/all.pairs" | awk '$1 > 0 { print 1; next } { print 0 }')"
done
eq "-f is --format" "$(grep -- '^-f ' "$T/all.pairs")" "-f --format"
eq "-q is --quiet" "$(grep -- '^-q ' "$T/all.pairs")" "-q --quiet"
eq "-s is --symtab" "$(grep -- '^-s ' "$T/all.pairs")" "-s --symtab"
eq "-v is --verbose" "$(grep -- '^-v ' "$T/all.pairs")" "-v --verbose"
eq "-z is --zstd" "$(grep -- '^-z ' "$T/all.pairs")" "-z --zstd"
# --force and --stats have no short form; -v says it is --stats and more
for t in $TOOLS simspan-online; do
	check "$t --help: --force and --stats are long only" sh -c \
	    "! grep -Eq -- '^  -[A-Za-z], --(force|stats)' '$T/$t.help'"
	if grep -q -- '^  -v, --verbose' "$T/$t.help"; then
		check "$t --help: -v is --stats and more" grep -Eq -- \
		    '^  -v, --verbose +--stats' "$T/$t.help"
	fi
done

# --- 2. the old spellings: they work, with one line on stderr ----------------
mkdumbbell -n 5 "$T/d" >/dev/null
D="$T/d"
RULES="$TOP/rules/linux-i40e.csv"
evspan -t "$D/topology.csv" -r "$RULES" -o "$T/s.sp"
# old NEW...: the old spelling, then the same with the new one: equal
# output and exit status, and the old one's deprecation line
dep() {
	what=$1 old=$2 new=$3; shift 3
	set +e
	sh -c "$old" >"$T/old.out" 2>"$T/old.err"; rco=$?
	sh -c "$new" >"$T/new.out" 2>"$T/new.err"; rcn=$?
	set -e
	eq "$what: the same exit status" "$rco" "$rcn"
	check "$what: the same output" cmp "$T/old.out" "$T/new.out"
	check "$what: one deprecation line" grep -qx \
	    "[a-z0-9-]*: warning: .* is deprecated, use .* (the old spelling goes in 0.3)" \
	    "$T/old.err"
	eq "$what: the new spelling has none" \
	    "$(grep -c 'is deprecated' "$T/new.err" || :)" 0
}
dep "evspan -s" "evspan -s -t '$D/topology.csv' -r '$RULES' -o /dev/null 2>'$T/st'; grep -c 'spans by kind' '$T/st'; grep deprecated '$T/st' >&2 || :" \
    "evspan --stats -t '$D/topology.csv' -r '$RULES' -o /dev/null 2>'$T/st'; grep -c 'spans by kind' '$T/st'; grep deprecated '$T/st' >&2 || :"
dep "evspan -f" "evspan -f -t '$D/topology.csv' -r '$RULES' | cksum" \
    "evspan --force -t '$D/topology.csv' -r '$RULES' | cksum"
dep "evfilter -s -e" "evfilter -s 1us -e 2us '$D/client.ev' | evcat" \
    "evfilter --from 1us --to 2us '$D/client.ev' | evcat"
dep "evfilter -f" "evfilter -f -t func '$D/client.ev' | cksum" \
    "evfilter --force -t func '$D/client.ev' | cksum"
dep "evcat -c FILE" "evcat -c '$D/client.ev'" "evcat --csv '$D/client.ev'"
dep "evcat ... | evcat -c" "evcat -c < '$D/client.ev'" "evcat --csv < '$D/client.ev'"
dep "spancat -c -H" "spancat -c -H '$T/s.sp'" "spancat --csv -H '$T/s.sp'"
dep "sim2ev --compress" "printf 'main_time = 1: nicbm: eth tx: len 60\n' | sim2ev -f nicbm --compress | zstd -dc | cksum" \
    "printf 'main_time = 1: nicbm: eth tx: len 60\n' | sim2ev -f nicbm -z | zstd -dc | cksum"
dep "simsynth -s" "simsynth -n 2 -s 5 '$T/y1' && cat '$T/y1/truth.csv'" \
    "simsynth -n 2 --seed 5 '$T/y2' && cat '$T/y2/truth.csv'"
dep "span2perfetto -F" "span2perfetto -F json '$T/s.sp'" "span2perfetto -f json '$T/s.sp'"
dep "span2perfetto -f (force)" "span2perfetto -f -o /dev/stdout '$T/s.sp' | cksum" \
    "span2perfetto --force -o /dev/stdout '$T/s.sp' | cksum"
dep "span2perfetto -f FILE (force)" "span2perfetto -f '$T/s.sp' | cksum" \
    "span2perfetto --force '$T/s.sp' | cksum"
dep "span2otlp -f" "span2otlp -f '$T/s.sp' | cksum" "span2otlp --force '$T/s.sp' | cksum"
dep "span2html -f" "span2html -f '$T/s.sp' | wc -c" "span2html --force '$T/s.sp' | wc -c"
dep "span2sqlite -f" "rm -f '$T/a.db'; span2sqlite -f --run r '$T/a.db' '$T/s.sp' && sqlite3 '$T/a.db' 'select count(*) from spans'" \
    "rm -f '$T/a.db'; span2sqlite --force --run r '$T/a.db' '$T/s.sp' && sqlite3 '$T/a.db' 'select count(*) from spans'"
# a repeated old spelling warns once
expect_rc 0 "evfilter -s twice" evfilter -s 1us -s 2us -o /dev/null "$D/client.ev"
eq "... one deprecation line" "$(grep -c 'is deprecated' "$T/.err")" 1
# the new meanings
expect_rc 2 "span2perfetto -f with an unknown format" span2perfetto -f xml "$T/s.sp"
stderr_has "--format xml: not json or proto"
expect_rc 0 "evcat -c LIST" evcat -c ts,type,sym "$D/client.ev"
eq "... those columns" "$(head -1 "$T/.out" | tr -d '\r')" "ts,type,sym"

# --- 3. --stats, -v and -q ---------------------------------------------------
expect_rc 0 "evcat --stats" evcat --stats "$D/client.ev"
stderr_has "evcat: $D/client.ev: "
expect_rc 0 "spancat --stats" spancat --stats "$T/s.sp"
stderr_has "spancat: $T/s.sp: "
expect_rc 0 "simsynth --stats" simsynth -n 2 --stats "$T/y3"
stderr_has "requests 2"
expect_rc 0 "simsynth -v: --stats and the seed" simsynth -n 2 -v "$T/y4"
stderr_has "requests 2"
stderr_has "seed 1, simsynth -n 2 -v DIR"
expect_rc 0 "simspan-simbricks --stats" simspan-simbricks -q --stats \
    -o /dev/null "$DATA/simbricks-symphony/qemu-i40e-switch/out.json"
stderr_has "simspan-simbricks: 5 streams (5 with a parser"
expect_rc 0 "span2sqlite --stats: no times" span2sqlite --stats "$T/b.db" "$T/s.sp"
stderr_has " links, 0 events, "
eq "... but no times" "$(grep -c ' s load' "$T/.err" || :)" 0
expect_rc 0 "span2sqlite -v: and times" span2sqlite -v "$T/c.db" "$T/s.sp"
stderr_has " s load ("
# -q: a warning is counted (--strict) but not printed
printf 'stream,client,host,%s\n' "$D/client.ev" >"$T/one.csv"
expect_rc 0 "evspan without rules warns" evspan -t "$T/one.csv" -o /dev/null
stderr_has "warning:"
expect_rc 0 "evspan -q: no warning" evspan -q -t "$T/one.csv" -o /dev/null
eq "... nothing on stderr" "$(wc -c <"$T/.err")" 0
expect_rc 1 "evspan -q --strict: still exit 1" evspan -q --strict -t "$T/one.csv" -o /dev/null
eq "... and still nothing on stderr" "$(wc -c <"$T/.err")" 0
expect_rc 0 "sim2ev -f gem5 on a nicbm log warns" sh -c \
    "printf 'main_time = 1: nicbm: eth tx: len 60\n' | sim2ev -f gem5 -o /dev/null"
stderr_has "warning:"
expect_rc 0 "sim2ev -q: no warning" sh -c \
    "printf 'main_time = 1: nicbm: eth tx: len 60\n' | sim2ev -q -f gem5 -o /dev/null"
eq "... nothing on stderr" "$(wc -c <"$T/.err")" 0
expect_rc 0 "evfilter -q: no warning" evfilter -q --cpu nosuchcpu -o /dev/null "$D/client.ev"
eq "... nothing on stderr" "$(wc -c <"$T/.err")" 0
done_testing
