# Shared by the shell tests (sourced).  TAP output; a failing check prints
# what ran and a hex dump of short binary outputs.
set -eu
LC_ALL=C
export LC_ALL
: "${SSP_BIN:?SSP_BIN must name the directory with the built tools}"
PATH="$SSP_BIN:${SSP_HELPERS:-$SSP_BIN}:$PATH"
export PATH
TOP=$(cd "$(dirname "$0")/../.." && pwd)
DATA="$TOP/tests/data"
T=$(mktemp -d "${TMPDIR:-/tmp}/ssp-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
ntest=0
nfail=0

ok() { ntest=$((ntest + 1)); echo "ok $ntest - $*"; }
not_ok() {
	ntest=$((ntest + 1)); nfail=$((nfail + 1)); echo "not ok $ntest - $*"
}
# check DESCRIPTION COMMAND...: COMMAND must succeed
check() {
	d=$1; shift
	if "$@" >"$T/.out" 2>"$T/.err"; then ok "$d"; else
		not_ok "$d"; echo "# command: $*"; sed 's/^/# stderr: /' "$T/.err" | head -20
	fi
}
# expect_rc RC DESCRIPTION COMMAND...: exit status must be RC
expect_rc() {
	want=$1; d=$2; shift 2
	set +e; "$@" >"$T/.out" 2>"$T/.err"; rc=$?; set -e
	if [ "$rc" -eq "$want" ]; then ok "$d"; else
		not_ok "$d (exit $rc, want $want)"; echo "# command: $*"
		sed 's/^/# stderr: /' "$T/.err" | head -20
	fi
}
# stderr_has TEXT: the last expect_rc/check wrote TEXT to stderr
stderr_has() {
	if grep -qF -- "$1" "$T/.err"; then ok "stderr mentions '$1'"; else
		not_ok "stderr mentions '$1'"; sed 's/^/# stderr: /' "$T/.err" | head -10
	fi
}
stdout_has() {
	if grep -qF -- "$1" "$T/.out"; then ok "stdout mentions '$1'"; else
		not_ok "stdout mentions '$1'"; sed 's/^/# stdout: /' "$T/.out" | head -10
	fi
}
# eq DESCRIPTION GOT WANT
eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else
		not_ok "$1"; echo "# got:  $2" | head -5; echo "# want: $3" | head -5
	fi
}
hexdump_short() { od -An -tx1 "$1" | head -8 | sed 's/^/# /'; }
done_testing() {
	echo "1..$ntest"
	[ "$nfail" -eq 0 ]
}

# The commands scripts/deps.sh check installs (scripts/deps.txt).  Under
# SSP_TEST_STRICT=1 (make check, which runs deps.sh check first) one of
# these missing, or a tool or helper the build makes, is a failure; any
# other missing command is a skip.
DEPS_CHECK=$(sh "$TOP/scripts/deps.sh" --commands check | tr '\n' ' ')
# covered CMD: deps.sh check or the build provides CMD
covered() {
	case " $DEPS_CHECK " in *" $1 "*) return 0 ;; esac
	[ -f "$TOP/tools/$1.c" ] || [ -f "$TOP/tests/helpers/$1.c" ]
}
# missing CMD...: print the first CMD not on PATH; false if all are there
missing() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || { echo "$c"; return 0; }
	done
	return 1
}
# needs CMD...: the whole script needs every CMD.  Call it before any check:
# a missing one skips the script with a TAP plan run-cli.sh counts,
# "1..0 # SKIP needs CMD" (a failure under SSP_TEST_STRICT=1 if covered).
needs() {
	c=$(missing "$@") || return 0
	if [ "${SSP_TEST_STRICT:-0}" = 1 ] && covered "$c"; then
		not_ok "needs $c, which scripts/deps.sh check or the build provides: not on PATH"
		done_testing || :
		exit 1
	fi
	echo "1..0 # SKIP needs $c"
	exit 0
}
# have CMD...: for a part of a script; true if every CMD is on PATH, else
# one skipped check "ok N # SKIP needs CMD" (not_ok under the rule above)
have() {
	c=$(missing "$@") || return 0
	if [ "${SSP_TEST_STRICT:-0}" = 1 ] && covered "$c"; then
		not_ok "needs $c, which scripts/deps.sh check or the build provides: not on PATH"
	else
		ntest=$((ntest + 1)); echo "ok $ntest # SKIP needs $c"
	fi
	return 1
}
