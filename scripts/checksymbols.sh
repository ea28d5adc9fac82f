#!/bin/sh
# make checksymbols: every global symbol a library object defines is named
# after its module, ssp_<module>_* or ssp_<module> (build/lib/io/lines.o
# exports ssp_lines_*), so a name says where it is defined.  ASan's
# __odr_asan.* companions of globals are ignored.
# usage: checksymbols.sh OBJECT...
status=0
for o in "$@"; do
	mod=$(basename "$o" .o)
	bad=$(nm -g --defined-only "$o" | awk 'NF == 3 { print $3 }' |
	    grep -v '^__odr_asan' | grep -v -E "^ssp_${mod}(_|\$)" || true)
	if [ -n "$bad" ]; then
		echo "checksymbols: $o exports names outside ssp_${mod}_:" $bad
		status=1
	fi
done
[ $status = 0 ] && echo "checksymbols: ok ($# objects)"
exit $status
