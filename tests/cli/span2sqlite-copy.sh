#!/bin/sh
# span2sqlite's append copies the old database before it writes: through
# copy_file_range(2), and through read/write where that call fails with
# ENOSYS or EXDEV (made to fail here by the nocfr.so preload).  Both copies
# must give the same database; any other error must fail the load and
# leave the database as it was.
. "$(dirname "$0")/../lib.sh"

needs sqlite3 mkspans span2sqlite
q() { sqlite3 -batch "$@"; }
tables="run_meta streams traces spans links attr_host_syscall attr_net_device latency"
dump() {	# every table of interest, and the runs rows without load times
	for t in $tables; do q "$1" "select * from $t order by 1, 2"; done
	q "$1" "select id, name, spans, links, traces from runs order by id"
}

PRE=${SSP_HELPERS:-$SSP_BIN}/nocfr.so
if [ ! -f "$PRE" ]; then	# the build makes it: a failure under make check
	[ "${SSP_TEST_STRICT:-0}" = 1 ] && { not_ok "$PRE built"; done_testing || :; exit 1; }
	echo "1..0 # SKIP needs $PRE (make all-tests)"; exit 0
fi
# A tool built with gcc's ASan loads libasan first; it must stay first.
asan=$(ldd "$SSP_BIN/span2sqlite" 2>/dev/null | awk '/libasan/ { print $3 }')
preload="${asan:+$asan }$PRE"

# Large enough (several MiB) that the read/write copy takes several rounds
# of its 1 MiB buffer.
mkspans -n 3000 -o "$T/a.sp"
check "load a first run" span2sqlite "$T/base.db" "$T/a.sp"
size=$(wc -c < "$T/base.db")
[ "$size" -gt 3145728 ] && ok "database larger than 3 MiB ($size bytes)" ||
    not_ok "database larger than 3 MiB ($size bytes)"

cp "$T/base.db" "$T/k.db"
check "append, copy by the kernel" span2sqlite --run second "$T/k.db" "$T/a.sp"

for err in ENOSYS EXDEV; do
	cp "$T/base.db" "$T/u.db"
	rm -f "$T/mark"
	check "append, copy_file_range failing with $err" env \
	    LD_PRELOAD="$preload" SSP_NOCFR_ERRNO=$err SSP_NOCFR_MARK="$T/mark" \
	    span2sqlite --run second "$T/u.db" "$T/a.sp"
	[ -e "$T/mark" ] && ok "$err: the failing copy_file_range was called" ||
	    not_ok "$err: the failing copy_file_range was called"
	eq "$err: integrity check" "$(q "$T/u.db" "pragma integrity_check")" ok
	eq "$err: the same database as the kernel's copy" \
	    "$(dump "$T/u.db" | md5sum)" "$(dump "$T/k.db" | md5sum)"
done

cp "$T/base.db" "$T/e.db"
expect_rc 1 "append, copy_file_range failing with EIO: exit 1" env \
    LD_PRELOAD="$preload" SSP_NOCFR_ERRNO=EIO span2sqlite "$T/e.db" "$T/a.sp"
stderr_has "cannot copy to"
cmp -s "$T/base.db" "$T/e.db" && ok "EIO: database unchanged" ||
    not_ok "EIO: database unchanged"
if ls "$T" | grep -q '\.tmp\.'; then not_ok "EIO: no temporary file left"
else ok "EIO: no temporary file left"; fi

done_testing
