#!/bin/sh
# make checkdeps and make checksymbols catch what they are for: an upward,
# a sideways and a cyclic include in a copy of the tree, a module's
# internal header included from outside the module, and an object that
# exports a name outside its module's prefix.
. "$(dirname "$0")/../lib.sh"
needs python3 nm cc

mkdir "$T/tree"
cp -R "$TOP/lib" "$TOP/synth" "$TOP/tools" "$T/tree/"
check "the tree as it is passes" python3 "$TOP/scripts/checkdeps.py" "$T/tree"

cp "$T/tree/lib/stream/rec.c" "$T/rec.c"
sed '1i #include "span/spanb.h"' "$T/rec.c" >"$T/tree/lib/stream/rec.c"
expect_rc 1 "upward include fails" python3 "$TOP/scripts/checkdeps.py" "$T/tree"
stdout_has 'lib/stream/rec.c:1: upward include of "span/spanb.h"'
cp "$T/rec.c" "$T/tree/lib/stream/rec.c"

cp "$T/tree/lib/sink/otlp.c" "$T/otlp.c"
sed '1i #include "source/conv.h"' "$T/otlp.c" >"$T/tree/lib/sink/otlp.c"
expect_rc 1 "sideways include fails" python3 "$TOP/scripts/checkdeps.py" "$T/tree"
stdout_has 'lib/sink/otlp.c:1: sideways include of "source/conv.h"'
cp "$T/otlp.c" "$T/tree/lib/sink/otlp.c"

sed '1i #include "synth/synsim.h"' "$T/tree/lib/base/err.c" >"$T/err.c"
cp "$T/err.c" "$T/tree/lib/base/err.c"
expect_rc 1 "the library including synth/ fails" python3 "$TOP/scripts/checkdeps.py" "$T/tree"
stdout_has 'lib/base/err.c:1: forbidden include of "synth/synsim.h"'
cp "$TOP/lib/base/err.c" "$T/tree/lib/base/err.c"

printf '#include "base/b.h"\n' >"$T/tree/lib/base/a.h"
printf '#include "base/a.h"\n' >"$T/tree/lib/base/b.h"
expect_rc 1 "an include cycle fails" python3 "$TOP/scripts/checkdeps.py" "$T/tree"
stdout_has 'include cycle: base/a -> base/b -> base/a'
rm "$T/tree/lib/base/a.h" "$T/tree/lib/base/b.h"

# span/spanb_int.h is for lib/span/spanb.c and spanb_*.c only
cp "$T/tree/lib/span/evspan.c" "$T/evspan.c"
sed '1i #include "span/spanb_int.h"' "$T/evspan.c" >"$T/tree/lib/span/evspan.c"
expect_rc 1 "another module including an internal header fails" \
    python3 "$TOP/scripts/checkdeps.py" "$T/tree"
stdout_has 'lib/span/evspan.c:1: "span/spanb_int.h" is internal to span/spanb*.c'
cp "$T/evspan.c" "$T/tree/lib/span/evspan.c"
mkdir -p "$T/tree/tests/unit"
printf '#include "span/spanb_int.h"\n' >"$T/tree/tests/unit/test_x.c"
expect_rc 1 "a test including an internal header fails" \
    python3 "$TOP/scripts/checkdeps.py" "$T/tree"
stdout_has 'tests/unit/test_x.c:1: "span/spanb_int.h" is internal to lib/span'
rm "$T/tree/tests/unit/test_x.c"
check "the tree is whole again" python3 "$TOP/scripts/checkdeps.py" "$T/tree"

printf 'int ssp_lines_ok(void);\nint ssp_lines_ok(void) { return 1; }\nint ssp_other(void);\nint ssp_other(void) { return 2; }\n' >"$T/lines.c"
cc -c -o "$T/lines.o" "$T/lines.c"
expect_rc 1 "checksymbols: a name outside the module prefix fails" \
    sh "$TOP/scripts/checksymbols.sh" "$T/lines.o"
stdout_has "exports names outside ssp_lines_: ssp_other"
printf 'int ssp_lines_ok(void);\nint ssp_lines_ok(void) { return 1; }\n' >"$T/lines.c"
cc -c -o "$T/lines.o" "$T/lines.c"
check "checksymbols: module prefix only passes" sh "$TOP/scripts/checksymbols.sh" "$T/lines.o"

done_testing
