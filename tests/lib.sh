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
