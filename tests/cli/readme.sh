#!/bin/sh
# The READMEs as written work: every command block of README.md and
# samples/dumbbell/README.md runs (tests/readme-check.py) in a scratch
# directory where the checkout's rules/, samples/, scripts/ and tests/ are
# reachable as the README names them (its walk-through reads the bundled
# sample's files in place), with the built tools first on PATH; the output
# shown (the make demo transcript, timings aside, the symphony sample's
# summary and the SQL) must be what the commands print.  Blocks that
# cannot run here are marked in the README and listed as skipped with the
# reason.
. "$(dirname "$0")/../lib.sh"

needs python3 sqlite3 zstd zstdcat jq less simsynth

W="$T/w"
mkdir -p "$W" "$T/shim"
for d in rules samples scripts tests; do ln -s "$TOP/$d" "$W/$d"; done
# "make demo" in the README: what the target runs once the tools are built
cat > "$T/shim/make" <<EOF
#!/bin/sh
[ "\$*" = demo ] || { echo "make \$*: not run by the README check" >&2; exit 1; }
exec sh "$TOP/scripts/demo.sh"
EOF
chmod +x "$T/shim/make"

# TAP from the checker's lines
tap() {
	while IFS= read -r l; do
		case $l in
		"ok   "*) ok "${l#ok   }" ;;
		"skip "*) ntest=$((ntest + 1)); echo "ok $ntest # SKIP ${l#skip }" ;;
		"FAIL "*) not_ok "${l#FAIL }" ;;
		*" passed, "*" failed, "*" skipped") echo "# $l" ;;
		*) echo "$l" ;;
		esac
	done
}
export SSP_BIN
PATH="$T/shim:$PATH" TMPDIR="$W" python3 "$TOP/tests/readme-check.py" "$TOP/README.md" "$W" > "$T/r1" 2>&1 || :
tap < "$T/r1"
mkdir "$T/w2"
for d in rules samples scripts tests; do ln -s "$TOP/$d" "$T/w2/$d"; done
PATH="$T/shim:$PATH" TMPDIR="$T/w2" python3 "$TOP/tests/readme-check.py" "$TOP/samples/dumbbell/README.md" "$T/w2" > "$T/r2" 2>&1 || :
tap < "$T/r2"

# the checker fails loudly on a block it does not know, naming its line
printf '# x\n\ntext\n\n```\nnot marked\n```\n' > "$T/unknown.md"
expect_rc 1 "an unmarked block fails" python3 "$TOP/tests/readme-check.py" "$T/unknown.md" "$T"
if grep -q 'unknown.md:5: a fenced (none) code block the checker does not know' "$T/.out"; then
	ok "and names its line"
else not_ok "and names its line"; sed 's/^/# /' "$T/.out"; fi
# a package list that is not scripts/deps.txt's fails
printf '# x\n\n<!-- check: deps demo -->\n    zstd\n' > "$T/deps.md"
expect_rc 1 "a package list that differs from deps.txt fails" \
    python3 "$TOP/tests/readme-check.py" "$T/deps.md" "$T"
if grep -q 'deps.md:4: the packages demo needs differ' "$T/.out"; then
	ok "and names its line"
else not_ok "and names its line"; sed 's/^/# /' "$T/.out"; fi
done_testing
