#!/bin/sh
# Reliability on the paths users hit by mistake: --help/--version when
# stdout fails, error paths free what they allocated (run it with SSP_BIN
# pointing at build-san/bin: any LeakSanitizer report fails a check), long
# CSV fields, files of the wrong kind, span2sqlite's write-protected
# databases, stale temporary files and a forgotten database argument.
. "$(dirname "$0")/../lib.sh"
RULES="$TOP/rules/linux-i40e.csv"

# clean: the last expect_rc/check printed no sanitizer report
clean() {
	if grep -q 'Sanitizer\|runtime error' "$T/.err"; then
		not_ok "no sanitizer report ($1)"; grep -m5 'Sanitizer\|runtime error\|#[0-9] ' "$T/.err" | sed 's/^/# /'
	else ok "no sanitizer report ($1)"; fi
}

mkdumbbell -n 20 "$T/d" >/dev/null
D="$T/d"
mkspans -n 14 -o "$T/a.sp"
mkevents -n 50 -o "$T/a.ev"

# --- --help and --version when stdout cannot be written ---------------------
for tool in evcat evfilter evspan sim2ev simsynth span2otlp span2sqlite spancat; do
	if [ -w /dev/full ]; then
		expect_rc 1 "$tool --help > /dev/full: exit 1" sh -c "$tool --help > /dev/full"
		stderr_has "$tool: stdout:"
		expect_rc 1 "$tool --version > /dev/full: exit 1" sh -c "$tool --version > /dev/full"
	fi
	expect_rc 1 "$tool --version >&-: exit 1" sh -c "$tool --version >&-"
	stderr_has "$tool: stdout:"
	expect_rc 1 "$tool --help >&-: exit 1" sh -c "$tool --help >&-"
done

# --- error paths: the exit status, and nothing leaked ------------------------
if [ -w /dev/full ]; then
	expect_rc 1 "evspan without rules, writing fails" sh -c \
	    "evspan -t '$D/topology.csv' > /dev/full"
	clean "evspan, ssp_rules_new path"
	expect_rc 1 "evspan -o /dev/full" evspan -t "$D/topology.csv" -r "$RULES" -o /dev/full
	clean "evspan -o /dev/full"
	expect_rc 1 "evfilter -o /dev/full" evfilter -o /dev/full "$T/a.ev"
	clean "evfilter -o /dev/full"
	expect_rc 1 "spancat > /dev/full" sh -c "spancat '$T/a.sp' > /dev/full"
	clean "spancat > /dev/full"
	expect_rc 1 "evcat > /dev/full" sh -c "evcat '$T/a.ev' > /dev/full"
	clean "evcat > /dev/full"
fi
printf 'stream,a,host,a.ev\nstream,b,hots,b.ev\n' > "$T/bad-topo.csv"
expect_rc 2 "evspan, bad topology" evspan -t "$T/bad-topo.csv" -o "$T/x.sp"
clean "evspan, bad topology"
printf 'class,function\ndriver_rx,i40e_napi_poll\n' > "$T/bad-rules.csv"
expect_rc 2 "evspan, bad rules" evspan -t "$D/topology.csv" -r "$T/bad-rules.csv" -o "$T/x.sp"
clean "evspan, bad rules"
expect_rc 2 "evspan, bad override" evspan -t "$D/topology.csv" nosuch=x.ev -o "$T/x.sp"
clean "evspan, bad override"
expect_rc 1 "evspan, a missing stream" evspan -t "$D/topology.csv" -r "$RULES" \
    client="$T/none.ev" -o "$T/x.sp"
clean "evspan, a missing stream"
printf 'not an event stream\n' > "$T/text.ev"
expect_rc 1 "evfilter, bad input" evfilter -o "$T/x.ev" "$T/text.ev"
clean "evfilter, bad input"
expect_rc 2 "evfilter, bad blacklist" evfilter -b "$T/bad-rules.csv" -o "$T/x.ev" "$T/a.ev"
clean "evfilter, bad blacklist"
expect_rc 1 "sim2ev, missing log" sim2ev -f gem5 -o "$T/x.ev" "$T/none.log"
clean "sim2ev, missing log"
expect_rc 1 "span2sqlite, bad input" span2sqlite "$T/x.db" "$T/text.ev"
clean "span2sqlite, bad input"
expect_rc 1 "span2otlp, bad input" span2otlp -o "$T/x.jsonl" "$T/text.ev"
clean "span2otlp, bad input"
if have script; then
	for c in "sim2ev -f gem5 /dev/null" "evfilter '$T/a.ev'" \
	    "evspan -t '$D/topology.csv'"; do
		expect_rc 1 "${c%% *} refuses a terminal" script -qec "$c" /dev/null
		grep -q 'refusing to write binary' "$T/.out" && ok "says why" || not_ok "says why"
		if grep -q 'Sanitizer' "$T/.out"; then not_ok "no sanitizer report (${c%% *}, terminal)"
		else ok "no sanitizer report (${c%% *}, terminal)"; fi
	done
fi

# --- a 5 MB CSV field: seconds, not minutes (libcsv's block size) -----------
head -c 5000000 /dev/zero | tr '\0' x > "$T/long"
{ printf 'class,function\nblacklist,"'; cat "$T/long"; printf '"\n'; } > "$T/long.csv"
expect_rc 2 "evfilter -b with a 5 MB function name" timeout 60 evfilter -b "$T/long.csv" \
    -o "$T/x.ev" "$T/a.ev"
stderr_has "long.csv:2:11: field longer than"

# --- files of the wrong kind say what they are --------------------------------
span2sqlite "$T/s.db" "$T/a.sp"
expect_rc 1 "spancat on an SQLite database" spancat "$T/s.db"
stderr_has "this is an SQLite database, not a simspan span stream (try sqlite3"
expect_rc 1 "evcat on an SQLite database" evcat "$T/s.db"
stderr_has "this is an SQLite database, not a simspan event stream"
expect_rc 1 "spancat on an event stream" spancat "$T/a.ev"
stderr_has "this is an event stream, not a span stream"
expect_rc 1 "evcat on a span stream" evcat "$T/a.sp"
stderr_has "this is a span stream, not an event stream"

# --- span2sqlite: write-protected database, stale temporary files -------------
mkdir "$T/ro"
span2sqlite "$T/ro/r.db" "$T/a.sp"
chmod 444 "$T/ro/r.db"
before=$(cksum < "$T/ro/r.db")
expect_rc 1 "a write-protected database is refused" span2sqlite "$T/ro/r.db" "$T/a.sp"
stderr_has "write-protected (mode 444)"
stderr_has "--force"
eq "the database is unchanged" "$(cksum < "$T/ro/r.db")" "$before"
# --force writes it where the file's permissions still let this user
# (root); anyone else gets SQLite's refusal, the file as it was
if [ "$(id -u)" = 0 ]; then
	expect_rc 0 "--force appends to it" span2sqlite --force "$T/ro/r.db" "$T/a.sp"
	eq "two runs after --force" "$(sqlite3 "$T/ro/r.db" 'SELECT count(*) FROM runs')" 2
else
	expect_rc 1 "--force cannot write it" span2sqlite --force "$T/ro/r.db" "$T/a.sp"
	stderr_has "readonly"
	eq "the database is unchanged" "$(cksum < "$T/ro/r.db")" "$before"
fi

mkdir "$T/st"
echo x > "$T/st/k.db.tmpaB3dEf"		# as kill -9 leaves it: nobody holds it
echo x > "$T/st/other.db.tmpaB3dEf"	# another database's: left alone
: > "$T/st/k.db.tmpNEW001"		# empty: one being made, left alone
if have flock; then
	echo x > "$T/st/k.db.tmpLIVE01"
	flock "$T/st/k.db.tmpLIVE01" sleep 30 & lpid=$!
	sleep 0.3
fi
check "a load next to stale temporary files" span2sqlite "$T/st/k.db" "$T/a.sp"
[ ! -e "$T/st/k.db.tmpaB3dEf" ] && ok "the stale one is removed" || not_ok "the stale one is removed"
[ -e "$T/st/other.db.tmpaB3dEf" ] && ok "another database's is kept" || not_ok "another database's is kept"
[ -e "$T/st/k.db.tmpNEW001" ] && ok "an empty one is kept" || not_ok "an empty one is kept"
if [ -n "${lpid:-}" ]; then
	[ -e "$T/st/k.db.tmpLIVE01" ] && ok "a locked one (its owner alive) is kept" ||
	    not_ok "a locked one (its owner alive) is kept"
	kill "$lpid" 2>/dev/null || :
	wait "$lpid" 2>/dev/null || :
fi
# kill -9 half way, then the next run cleans up
mkdir "$T/k9"
mkfifo "$T/k9.fifo"
span2sqlite "$T/k9/k.db" "$T/k9.fifo" 2>/dev/null & kpid=$!
exec 3>"$T/k9.fifo"
head -c 3000 "$T/a.sp" >&3
i=0
# (until the file holds something: the schema is written before the rows)
while [ $i -lt 100 ] && ! find "$T/k9" -name 'k.db.tmp*' -size +0 | grep -q .; do
	sleep 0.1; i=$((i + 1))
done
kill -9 "$kpid" 2>/dev/null || :
wait "$kpid" 2>/dev/null || :
exec 3>&-
ls "$T/k9" | grep -q 'k.db.tmp' && ok "kill -9 left a temporary file" ||
    not_ok "kill -9 left a temporary file"
check "the next load" span2sqlite "$T/k9/k.db" "$T/a.sp"
ls "$T/k9" | grep -q 'k.db.tmp' && not_ok "and removes it" || ok "and removes it"

# --- span2sqlite spans.sp: the database argument forgotten ---------------------
expect_rc 2 "a span stream as the database" span2sqlite "$T/a.sp"
stderr_has "looks like a span stream, not a database"
if have script timeout; then
	expect_rc 2 "no SPANS and a terminal on stdin: no silent wait" \
	    timeout 10 script -qec "span2sqlite '$T/new.db'" /dev/null
	grep -q 'standard input is a terminal' "$T/.out" && ok "says so" || not_ok "says so"
fi

done_testing
