# simspan: plain Makefile.  Everything built goes below $(BUILD), so several
# builds (gcc, clang, sanitizers) can live side by side:
#   make                      build tools into build/bin
#   make check                deps + unit, cli, fuzz-corpus, man and symbol checks
#   make check SANITIZE=1     the same under ASan+UBSan (into build-san/)
#   make quick                unit, the fast cli scripts, fuzz corpora (< 1 min)
#   make demo                 the whole pipeline on the bundled sample
#   make bench                benchmarks (not tests; generates large inputs)
#   make bench-large          a 100 GB generated run, every stage measured
#   make fuzz FUZZ_TIME=10    run every libFuzzer target briefly (clang)
#   make install PREFIX=/usr DESTDIR=/tmp/pkg

VERSION   = 0.1.0
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
DATADIR  ?= $(PREFIX)/share/simspan
DESTDIR  ?=
INSTALL  ?= install
CC       ?= cc
CFLAGS   ?= -O2 -g
SANITIZE ?= 0
# Precondition checks (SSP_ASSERT, lib/base/err.h): on in sanitizer builds.
ASSERTS  ?= $(SANITIZE)

ifeq ($(SANITIZE),1)
BUILD    ?= build-san
SANFLAGS  = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
BUILD    ?= build
SANFLAGS  =
endif

WARN      = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wformat=2 -Wvla -Wpointer-arith -Wundef
# Libraries through pkg-config (libcsv has no .pc file on Debian); without
# pkg-config, the plain -l names.
PKG_CONFIG  ?= pkg-config
pkg          = $(shell $(PKG_CONFIG) --$(1) $(2) 2>/dev/null || echo $(3))
ZSTD_LIBS   := $(call pkg,libs,libzstd,-lzstd)
SQLITE_LIBS := $(call pkg,libs,sqlite3,-lsqlite3)
CURL_LIBS   := $(call pkg,libs,libcurl,-lcurl)
JSON_LIBS   := $(call pkg,libs,jansson,-ljansson)
ZLIB_LIBS   := $(call pkg,libs,zlib,-lz)
PCAP_LIBS   := $(call pkg,libs,libpcap,-lpcap)
CSV_LIBS    ?= -lcsv
PKG_CFLAGS  := $(call pkg,cflags,libzstd sqlite3 libcurl zlib jansson,)

ALL_CPPFLAGS = -D_GNU_SOURCE -DSSP_VERSION='"$(VERSION)"' -DSSP_ASSERTS=$(ASSERTS) -Ilib -I. \
               $(PKG_CFLAGS) $(CPPFLAGS)
ALL_CFLAGS   = -std=c17 $(WARN) $(SANFLAGS) $(CFLAGS)
ALL_LDFLAGS  = $(SANFLAGS) -Wl,--as-needed $(LDFLAGS)
# Everything, for the tests, helpers and fuzz targets.
LDLIBS      ?= $(ZSTD_LIBS) $(CSV_LIBS) $(SQLITE_LIBS) $(CURL_LIBS) $(ZLIB_LIBS) $(JSON_LIBS) $(PCAP_LIBS) -lm
# Each tool links only what it uses: zstd and zlib (CRC-32) every tool,
# SQLite only span2sqlite, jansson (the SimBricks run JSON) only
# simspan-simbricks and sim2ev, libpcap (shared: its archive needs dbus
# and systemd) only simsynth, the test generator that writes captures
# (readelf -d shows it).  A tool without a list links everything.
#
# Start-up: the tools link the small libraries (zstd, libcsv, zlib,
# jansson) and SQLite statically when their archives are installed,
# because mapping and relocating more shared objects was most of what a
# tool added to exec's own cost (scripts/bench-startup.sh; Debian's
# libsqlite3 is linked BIND_NOW: 1,600 symbols resolved at every start,
# 1.0 M of the 2.5 M instructions of span2sqlite on 18 spans).
# STATIC_DEPS=0 links them shared, as a distribution package would.
# span2otlp does not link libcurl: it opens libcurl.so.4 (dlopen) when it
# sends to an --endpoint, since libcurl and the shared objects it needs
# cost every start about 10 ms of CPU time (lib/sink/http.c).
# sim2ev does not link libpcap: it opens libpcap.so.0.8 (dlopen) for -f
# pcap only, since libpcap and the seven shared objects it needs (dbus,
# systemd, gcrypt, ...) were 1.28 M of the 1.43 M instructions of
# `sim2ev --version` (lib/source/pcapin.c; -DSSP_PCAPIN_LIBPCAP=... names
# another soname, libpcap.so.1 outside Debian).
STATIC_DEPS ?= 1
comma := ,
static_lib = $(if $(and $(filter 1,$(STATIC_DEPS)),$(filter /%,$(shell $(CC) -print-file-name=lib$(1).a))),-Wl$(comma)-Bstatic -l$(1) -Wl$(comma)-Bdynamic,$(2))
T_ZSTD := $(call static_lib,zstd,$(ZSTD_LIBS))
T_CSV  := $(call static_lib,csv,$(CSV_LIBS))
T_ZLIB := $(call static_lib,z,$(ZLIB_LIBS))
T_JSON := $(call static_lib,jansson,$(JSON_LIBS))
T_SQLITE := $(call static_lib,sqlite3,$(SQLITE_LIBS)) $(if $(filter 1,$(STATIC_DEPS)),-lm)
LIBS_evcat       = $(T_ZSTD) $(T_CSV) $(T_ZLIB)
LIBS_evfilter    = $(T_ZSTD) $(T_CSV) $(T_ZLIB)
LIBS_evspan      = $(T_ZSTD) $(T_CSV) $(T_ZLIB)
LIBS_sim2ev      = $(T_ZSTD) $(T_ZLIB) $(T_JSON) -ldl -lpthread
LIBS_simspan-simbricks = $(T_ZSTD) $(T_ZLIB) $(T_JSON) $(T_SQLITE)
LIBS_simsynth    = $(T_ZSTD) $(T_CSV) $(T_ZLIB) $(PCAP_LIBS) -lm
LIBS_span2html   = $(T_ZSTD) $(T_ZLIB)
LIBS_span2otlp   = $(T_ZSTD) $(T_ZLIB) -ldl -lpthread
LIBS_span2perfetto = $(T_ZSTD) $(T_ZLIB)
LIBS_span2sqlite = $(T_ZSTD) $(T_SQLITE) $(T_ZLIB)
LIBS_spancat     = $(T_ZSTD) $(T_CSV) $(T_ZLIB)

# Data compiled in (lib/base/embed.h): each header with SSP_EMBED lines
# gets $(BUILD)/gen/<header's path>.c from scripts/embed.sh, linked into
# the library of its folder.
lparen   := (
EMBED_H  := $(sort $(shell grep -l '^SSP_EMBED$(lparen)' lib/*/*.h synth/*.h))
GEN_C     = $(EMBED_H:%.h=$(BUILD)/gen/%.c)
LIB_SRC   = $(sort $(wildcard lib/*/*.c))
LIB_OBJ   = $(LIB_SRC:%.c=$(BUILD)/%.o) $(filter $(BUILD)/gen/lib/%,$(GEN_C:.c=.o))
LIB       = $(BUILD)/libsimspan.a
# The scenario generator: its own library, linked only by simsynth and tests.
SYN_SRC   = $(sort $(wildcard synth/*.c))
SYN_OBJ   = $(SYN_SRC:%.c=$(BUILD)/%.o) $(filter $(BUILD)/gen/synth/%,$(GEN_C:.c=.o))
SYNLIB    = $(BUILD)/libsimsynth.a
# What the tools share and the library has no business with (version
# line, terminal checks, the progress line): linked into the tools only.
TC_SRC    = $(sort $(wildcard tools/common/*.c))
TC_OBJ    = $(TC_SRC:%.c=$(BUILD)/%.o)
TCLIB     = $(BUILD)/libtoolcommon.a
TOOL_SRC  = $(sort $(wildcard tools/*.c))
TOOLS     = $(TOOL_SRC:tools/%.c=$(BUILD)/bin/%)
UNIT_SRC  = $(sort $(wildcard tests/unit/test_*.c))
UNITS     = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
HELP_SRC  = $(sort $(wildcard tests/helpers/*.c))
HELPERS   = $(HELP_SRC:tests/helpers/%.c=$(BUILD)/tests/helpers/%)
PRELOAD_SRC = $(sort $(wildcard tests/preload/*.c))
PRELOADS  = $(PRELOAD_SRC:tests/preload/%.c=$(BUILD)/tests/helpers/%.so)
FUZZ_SRC  = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_REPLAY = $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz-replay/%)
FUZZ_BIN  = $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
MANPAGES  = $(sort $(wildcard man/*.[1-9]))
FUZZ_TIME ?= 10

# Objects made by chained pattern rules are kept (make would delete them as
# intermediate files and rebuild every tool each time).
.SECONDARY:

.PHONY: all deps deps-demo check quick unit cli fuzz-replay lint-man checksymbols checkdeps demo bench bench-large \
        fuzz install uninstall clean

all: $(TOOLS)

# The Debian packages each target needs: scripts/deps.txt, the one list
# (scripts/deps.sh checks it and installs what is missing).
deps:
	@sh scripts/deps.sh check

deps-demo:
	@sh scripts/deps.sh demo

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The data files it holds are listed in its .data.d; those it names under
# $(BUILD) are made by the rules below.
$(BUILD)/gen/%.c: %.h scripts/embed.sh
	@mkdir -p $(@D)
	BUILD=$(BUILD) sh scripts/embed.sh $< $@ $(@:.c=.data.d)

# span2html's Content-Security-Policy names its inline script and style by
# their SHA-256, computed here; the check stops the build if a hash is not
# that of the text compiled in.
$(BUILD)/gen/lib/sink/html/%.csp: lib/sink/html/% scripts/csphash.sh
	@mkdir -p $(@D)
	sh scripts/csphash.sh $< $@
$(BUILD)/gen/lib/sink/html_viewer.c: $(BUILD)/gen/lib/sink/html/viewer.css.csp \
    $(BUILD)/gen/lib/sink/html/viewer.js.csp
$(BUILD)/gen/lib/sink/html_viewer.o: $(BUILD)/gen/lib/sink/html_viewer.c scripts/csphash.sh
	sh scripts/csphash.sh --check $<
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<
# The schema image of a new database (lib/sqlite/image.h) and its
# catalog: made with SQLite from formats/simspan.sql by
# tools/gen/sqlite-image.c, linked with the library less the image.
IMAGE_OBJ = $(BUILD)/lib/sqlite/image.o $(BUILD)/gen/lib/sqlite/sqlite_image.o
BOOTLIB   = $(BUILD)/libsimspan-boot.a
$(BOOTLIB): $(filter-out $(IMAGE_OBJ),$(LIB_OBJ))
	@rm -f $@
	$(AR) rcs $@ $^
$(BUILD)/gen/sqlite-image: $(BUILD)/tools/gen/sqlite-image.o $(BOOTLIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(BOOTLIB) $(LDLIBS)
$(BUILD)/gen/sqlite/schema.db: $(BUILD)/gen/sqlite-image
	@mkdir -p $(@D)
	$(BUILD)/gen/sqlite-image $@ $(@:.db=.cat)
$(BUILD)/gen/sqlite/schema.cat: $(BUILD)/gen/sqlite/schema.db
$(BUILD)/gen/lib/sqlite/sqlite_image.c: $(BUILD)/gen/sqlite/schema.db \
    $(BUILD)/gen/sqlite/schema.cat
# The installed data directory (rules found by name) is compiled into one
# object; its stamp changes, and the object is rebuilt, when DATADIR does.
.PHONY: FORCE
$(BUILD)/datadir.stamp: FORCE
	@mkdir -p $(@D); echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
$(BUILD)/tools/common/datafile.o: $(BUILD)/datadir.stamp
$(BUILD)/tools/common/datafile.o: ALL_CPPFLAGS += -DSSP_DATADIR='"$(DATADIR)"'

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(SYNLIB): $(SYN_OBJ)
	@rm -f $@
	$(AR) rcs $@ $(SYN_OBJ)

$(TCLIB): $(TC_OBJ)
	@rm -f $@
	$(AR) rcs $@ $(TC_OBJ)

$(BUILD)/bin/simsynth: $(BUILD)/tools/simsynth.o $(TCLIB) $(SYNLIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(TCLIB) $(SYNLIB) $(LIB) $(LIBS_simsynth)

$(BUILD)/bin/%: $(BUILD)/tools/%.o $(TCLIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(TCLIB) $(LIB) $(or $(LIBS_$*),$(LDLIBS))

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(TCLIB) $(SYNLIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(TCLIB) $(SYNLIB) $(LIB) -lcmocka $(LDLIBS)

# Small programs the shell tests and benchmarks use to make inputs.
$(BUILD)/tests/helpers/%: $(BUILD)/tests/helpers/%.o $(SYNLIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(SYNLIB) $(LIB) $(LDLIBS)

# LD_PRELOAD libraries the shell tests use to make a system call fail.
# Not instrumented under SANITIZE: they are loaded into the sanitized tools.
$(BUILD)/tests/helpers/%.so: tests/preload/%.c
	@mkdir -p $(@D)
	$(CC) -std=c17 $(WARN) $(CFLAGS) -D_GNU_SOURCE -fPIC -shared -o $@ $<

# Fuzz targets are replayed over their committed corpus without libFuzzer.
$(BUILD)/fuzz-replay/%: $(BUILD)/tests/fuzz/%.o $(BUILD)/tests/fuzz/regress.o $(SYNLIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/tests/fuzz/regress.o $(SYNLIB) $(LIB) $(LDLIBS)

# Each runner ends with "N passed, N failed, N skipped".  Under check
# (after deps.sh check) a test that skips for want of something deps.sh
# check installs or the build makes fails instead (SSP_TEST_STRICT,
# tests/lib.sh).
check: deps
	@$(MAKE) --no-print-directory all-tests
	@SSP_TEST_STRICT=1 $(MAKE) --no-print-directory checkdeps unit cli fuzz-replay lint-man checksymbols

# The cli scripts quick runs: those that took under 4 s wall and 1.5 s of
# CPU alone (time sh tests/run-cli.sh tests/cli/X.sh, gcc -O2 build, 2
# cores, load 5-12), and demo and readme (4 s of CPU each), which check
# the README.  Left out (wall / CPU s): span2html 85 / 22, span2otlp 54 /
# 32, evspan-truth 12 / 2.8, online 11 / 1.8 and sim2ev 11 / 1.2 (they
# wait for signals and timeouts), span2perfetto 6.3 / 2.0, simsynth 6.8 /
# 1.0, simsynth-shapes 9 / 4, evstream 8.5 / 2.6, span2sqlite-copy 4.8 /
# 1.9, span2sqlite 2.9 / 1.1 (the SQLite sink is being reworked), degraded
# 5.2 / 0.7 (span2otlp retries against no collector).  The
# unit tests wait on fsync more than they compute (test_btree 13.6 s for
# 2.8 s of CPU), so they run beside the cli scripts: unit 4 binaries at a
# time (tests/run-unit.sh), cli 2 scripts at a time.
QUICK_CLI = bench-compare checkdeps demo evcat evfilter evspan-bytes evspan-e2e evspan-kctx evspan-sim2ev evspan \
            man-examples man-render options outfile readme reliab sample-spans sample score-truth sim2ev-cpu sim2ev-switch \
            simbricks simsynth-dialects simsynth-linux simsynth-sim2ev spancat truth-evspan warn
quick: all-tests
	@SSP_CLI_JOBS=2 $(MAKE) --no-print-directory -j3 -Otarget checkdeps unit cli \
	    fuzz-replay checksymbols CLI_TESTS="$(QUICK_CLI:%=tests/cli/%.sh)"

.PHONY: all-tests
all-tests: $(TOOLS) $(UNITS) $(FUZZ_REPLAY) $(HELPERS) $(PRELOADS)

unit: $(UNITS)
	@sh tests/run-unit.sh $(UNITS)

CLI_TESTS ?= $(sort $(wildcard tests/cli/*.sh))
cli: $(TOOLS) $(HELPERS) $(PRELOADS)
	@SSP_BIN=$(CURDIR)/$(BUILD)/bin SSP_HELPERS=$(CURDIR)/$(BUILD)/tests/helpers \
	    sh tests/run-cli.sh $(CLI_TESTS)

fuzz-replay: $(FUZZ_REPLAY)
	@sh tests/run-fuzz-replay.sh $(FUZZ_REPLAY)

lint-man:
	@if command -v mandoc >/dev/null 2>&1; then \
	    sh scripts/lint-man.sh $(MANPAGES) && echo "man: $(words $(MANPAGES)) pages lint clean (mandoc style level, troff at 80 columns)"; \
	elif [ "$${SSP_TEST_STRICT:-0}" = 1 ]; then \
	    echo "FAIL man: mandoc not installed (scripts/deps.sh check installs it)"; exit 1; \
	else echo "man: mandoc not installed, lint skipped"; fi

# Every global symbol of a library module is ssp_<module>_... (or
# ssp_<module>): lib/io/lines.c exports ssp_lines_*.  ASan's __odr_asan.*
# companions of global variables are left out.
checksymbols: $(LIB) $(SYNLIB) $(TCLIB)
	@sh scripts/checksymbols.sh $(LIB_OBJ) $(SYN_OBJ) $(TC_OBJ)

# Each lib/ layer includes only the layers below it (scripts/checkdeps.py).
checkdeps:
	@python3 scripts/checkdeps.py

demo: deps-demo
	@$(MAKE) --no-print-directory all
	@SSP_BIN=$(CURDIR)/$(BUILD)/bin sh scripts/demo.sh

bench: all $(HELPERS)
	@SSP_HELPERS=$(CURDIR)/$(BUILD)/tests/helpers SSP_BIN=$(CURDIR)/$(BUILD)/bin sh scripts/bench.sh

bench-large: all $(HELPERS)
	@SSP_HELPERS=$(CURDIR)/$(BUILD)/tests/helpers SSP_BIN=$(CURDIR)/$(BUILD)/bin sh scripts/bench-large.sh

# libFuzzer builds: always clang, separate tree.  The library is compiled
# once with the fuzzer's coverage instrumentation (fuzzer-no-link) and
# every target links against it, instead of compiling all of lib/ per target.
FUZZ_FLAGS = -std=c17 -g -O1 -fsanitize=address,undefined
FUZZ_CPPFLAGS = $(filter-out -DSSP_ASSERTS=%,$(ALL_CPPFLAGS)) -DSSP_ASSERTS=1
FUZZ_LIB_OBJ = $(LIB_SRC:%.c=build-fuzz/obj/%.o) $(SYN_SRC:%.c=build-fuzz/obj/%.o) \
               $(GEN_C:$(BUILD)/gen/%.c=build-fuzz/obj/gen/%.o)
FUZZ_LIB  = build-fuzz/libfuzzlib.a

build-fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	clang $(FUZZ_CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

build-fuzz/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	clang $(FUZZ_CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

build-fuzz/%: tests/fuzz/%.c $(FUZZ_LIB)
	@mkdir -p $(@D)
	clang $(FUZZ_CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -MMD -MP \
	    -o $@ $< $(FUZZ_LIB) $(LDLIBS)

fuzz: $(FUZZ_BIN)
	@sh tests/run-fuzz.sh $(FUZZ_TIME) $(FUZZ_BIN)

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(DATADIR)/rules
	$(INSTALL) -m 755 $(TOOLS) $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 755 scripts/simspan-online $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 644 $(filter %.1,$(MANPAGES)) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 644 $(filter %.5,$(MANPAGES)) $(DESTDIR)$(MANDIR)/man5
	$(INSTALL) -m 644 $(filter %.7,$(MANPAGES)) $(DESTDIR)$(MANDIR)/man7
	$(INSTALL) -m 644 rules/*.csv $(DESTDIR)$(DATADIR)/rules
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/formats
	$(INSTALL) -m 644 formats/*.md formats/*.sql $(DESTDIR)$(DATADIR)/formats
	$(INSTALL) -m 755 tests/score-truth.sh $(DESTDIR)$(DATADIR)/score-truth.sh

uninstall:
	rm -f $(TOOLS:$(BUILD)/bin/%=$(DESTDIR)$(BINDIR)/%) $(DESTDIR)$(BINDIR)/simspan-online
	rm -f $(foreach p,$(MANPAGES),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(notdir $(p)))
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-san build-fuzz

-include $(LIB_OBJ:.o=.d) $(BUILD)/tools/gen/sqlite-image.d $(SYN_OBJ:.o=.d) $(GEN_C:.c=.data.d) $(TC_OBJ:.o=.d) $(TOOL_SRC:%.c=$(BUILD)/%.d) $(UNIT_SRC:%.c=$(BUILD)/%.d) \
    $(HELP_SRC:%.c=$(BUILD)/%.d) $(FUZZ_SRC:%.c=$(BUILD)/%.d) \
    $(BUILD)/tests/fuzz/regress.d
-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_BIN:=.d)
