# nsaudit - who pinned or entered which Linux namespace, and when it died.
#
#   make          build build/nsaudit (BPF objects, skeletons, the nsaudit/ command, audit)
#   make run      install what is missing, build, and trace live (Ctrl-C stops)
#   make test     unit (Criterion) + integration (real BPF) + guest (QEMU) tests
#   make vmtest   only the guest tests: patched 6.1 kernel under QEMU
#   make bench    overhead and capacity against bpftrace and kernel audit
#   make deps     apt-get install everything the above needs (Debian 12)
#   make install  PREFIX=/usr/local DESTDIR=
#
#   make bpf     only the BPF objects; make ARCH=arm64 bpf for arm64
#   make vmlinux regenerate the committed bpf/vmlinux.h (bpf/gen-vmlinux.sh)
#
# Everything generated (*.skel.h, objects, binaries) lives in build/.

BUILD    ?= build
CC       ?= gcc
CLANG    ?= clang
BPFTOOL  ?= bpftool
PREFIX   ?= /usr/local
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

# --- user space -----------------------------------------------------------
# Where a source's includes are found: the generated skeletons, then the
# layers (see below) and the rooms of nsaudit/.
INCLUDES := -I$(BUILD) -Ibpf -Icommon -Iaudit -Insaudit
# -Werror=incompatible-pointer-types: a method takes its own object (a
# struct tracer_stream *, not the struct tracer * around it); a caller
# passing the wrong one must not build, as it would with only a warning.
CFLAGS   ?= -g -O2
CFLAGS   += -Wall -Wextra -Wno-unused-parameter -Wno-format-truncation -std=gnu11 -D_GNU_SOURCE \
            -Werror=incompatible-pointer-types \
            -DNSAUDIT_VERSION='"$(VERSION)"' $(INCLUDES)
# libbpf is linked statically: the binary then runs on any kernel with BTF.
LDLIBS   := -Wl,-Bstatic -lbpf -Wl,-Bdynamic -lelf -lz -ljson-c -lsodium \
            -lcap-ng -laudit -lyaml -lsystemd

# --- BPF ------------------------------------------------------------------
# ARCH: the architecture the BPF objects are built for (bpf_tracing.h's
# __TARGET_ARCH_*): the host's by default; "make ARCH=arm64 bpf" builds
# them for arm64 into $(BUILD)/bpf-arm64/ (compile only: nothing runs them).
ARCH       ?= $(shell uname -m)
BPF_ARCH   := $(patsubst x86_64,x86,$(patsubst aarch64,arm64,$(ARCH)))
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Ibpf \
              -Wall -Wno-unused-function

# One object, and one skeleton, per bpf/NAME.bpf.c (holders, probe) and per
# folder bpf/NAME/ (nsaudit: the tracer), whose parts, one concern each, are
# linked into one object by libbpf's static linker (bpftool gen object).
# NAME_PARTS lists a folder's parts in link order: the first defines what
# they share (libbpf 1.1 resolves an extern map only to an earlier
# definition), and the order is the skeleton's program order, which
# "nsaudit: ready (hooks: ...)" follows.
nsaudit_PARTS := nsaudit setns unshare_clone pins_fd pins_mount lifecycle freed
BPF_LINKED := $(sort $(patsubst bpf/%/,%,$(dir $(wildcard bpf/*/*.bpf.c))))
BPF_OBJS  := $(patsubst bpf/%.bpf.c,%,$(wildcard bpf/*.bpf.c)) $(BPF_LINKED)
bpf_srcs   = $(if $($(1)_PARTS),$(patsubst %,bpf/$(1)/%.bpf.c,$($(1)_PARTS)),bpf/$(1).bpf.c)
bpf_parts  = $(patsubst bpf/%.bpf.c,$(BPF_DIR)/parts/%.o,$(call bpf_srcs,$(1)))
$(foreach o,$(BPF_LINKED),$(if $(filter-out $(call bpf_srcs,$(o)),$(wildcard bpf/$(o)/*.bpf.c)),\
	$(error bpf/$(o)/: $(o)_PARTS must list every part)))
BPF_HDRS  := $(wildcard bpf/*.h bpf/*/*.h)
BPF_DIR   := $(BUILD)/bpf-$(BPF_ARCH)
SKELS     := $(patsubst %,$(BUILD)/%.skel.h,$(BPF_OBJS))
BPF_ARCH_OBJS := $(patsubst %,$(BPF_DIR)/%.bpf.o,$(BPF_OBJS))

# User space is three layers, each including only from the ones below it:
#   nsaudit/  the nsaudit command (build/nsaudit), in rooms (below); its
#             BPF side is bpf/nsaudit/
#   audit/    the log library: write, verify, search engine, codec
#   common/   vocabulary both use: namespace types, operations, user spellings
# nsaudit/ is rooms, one job each, lowest first; a room includes only from
# the rooms before it in this list (docs/architecture.md):
#   probe     what this kernel allows; libbpf's messages
#   enrich    names and enrichment: processes, cgroups, containers, ip netns,
#             the nsfs mount table, mountinfo
#   output    a record's formats (text, JSON) and the sinks (syslog, audit)
#   holders   what keeps a namespace alive, and its reference accounting
#   rules     detections: alert records made from records
#   tracer    load, choose hooks, attach, drain the rings, pins
#   lifetime  one namespace's timeline from a log
#   cmd       main.c, one cmd_NAME.c per subcommand, the shared option chain
# Includes name the room ("enrich/nsnames.h"), except within one room.
# Every .c of the layers goes into the binary (and the unit tests); main.c
# only into the binary.
COMMAND_ROOMS := probe enrich output holders rules tracer lifetime cmd
COMMON_SRCS  := $(wildcard common/*.c)
AUDIT_SRCS   := $(wildcard audit/*.c)
COMMAND_SRCS := $(foreach r,$(COMMAND_ROOMS),$(wildcard nsaudit/$(r)/*.c))
LIB_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(COMMON_SRCS) $(AUDIT_SRCS) \
	$(filter-out nsaudit/cmd/main.c,$(COMMAND_SRCS)))
MAIN_OBJ := $(BUILD)/obj/nsaudit/cmd/main.o

.SECONDARY:
.PHONY: all bpf vmlinux run test unit integration vmtest bench fuzz perf deps install clean format

all: $(BUILD)/nsaudit

# bpf/vmlinux.h is committed: the minimal set of kernel types the programs
# use, the same for every architecture (bpf/gen-vmlinux.sh says how it is
# made). CO-RE relocates the programs to whatever kernel they are loaded on
# (6.18 host, 6.1 guest). "make vmlinux" regenerates it from this machine's
# BTF, after a program starts using a type or field it does not have.
vmlinux:
	bpf/gen-vmlinux.sh

# The BPF objects alone, for ARCH (e.g. make ARCH=arm64 bpf).
bpf: $(BPF_ARCH_OBJS)

$(BPF_DIR)/parts/%.o: bpf/%.bpf.c $(BPF_HDRS)
	@mkdir -p $(dir $@)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# gen object links the parts and drops the DWARF we do not need
# (2.3 MB -> ~200 KB skeleton).
.DELETE_ON_ERROR:
.SECONDEXPANSION:
$(BPF_DIR)/%.bpf.o: $$(call bpf_parts,$$*)
	$(BPFTOOL) gen object $@ $^

$(BUILD)/%.skel.h: $(BPF_DIR)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@.tmp && mv $@.tmp $@

# -MMD writes each object's header dependencies beside it (NAME.d, read
# below), so a changed header rebuilds exactly the objects that include it.
# The skeletons are generated headers: built before any object
# (order-only), tracked like any header from then on. An object without
# its .d (built by an older Makefile, or the .d deleted) is rebuilt: its
# dependencies are unknown (the empty rule for %.d makes a missing one
# count as changed; the touch keeps the object newer than its .d).
DEPFLAGS := -MMD -MP
$(BUILD)/obj/%.o: %.c $(BUILD)/obj/%.d | $(SKELS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@
	@touch $@

$(BUILD)/nsaudit: $(MAIN_OBJ) $(LIB_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# A fully static nsaudit for the patched-kernel guest's busybox initramfs.
STATIC_LIBS := -lbpf -lelf -lz -lzstd -ljson-c -lsodium -lcap-ng -laudit -lyaml -lpthread
# Debian has no static libsystemd: its journal sink says it is not built in.
JOURNAL_OBJ := $(BUILD)/obj/nsaudit/output/sink_journal.o
$(BUILD)/obj-static/sink_journal.o: nsaudit/output/sink_journal.c | $(SKELS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DNSAUDIT_NO_JOURNAL -c $< -o $@
$(BUILD)/nsaudit-static: $(MAIN_OBJ) $(filter-out $(JOURNAL_OBJ),$(LIB_OBJS)) \
		$(BUILD)/obj-static/sink_journal.o
	$(CC) $(CFLAGS) -static $^ -o $@ $(STATIC_LIBS)

# --- running --------------------------------------------------------------
run: deps all
	tests/lib/mount-fs.sh
	$(BUILD)/nsaudit trace

deps:
	tests/lib/deps.sh

# --- tests ----------------------------------------------------------------
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BIN  := $(BUILD)/unit-tests

$(UNIT_BIN): $(UNIT_SRCS) $(wildcard tests/unit/*.h) $(LIB_OBJS)
	$(CC) $(CFLAGS) $(filter-out %.h,$^) -o $@ -lcriterion $(LDLIBS)

# Small C programs the integration tests drive the real syscalls with.
HELPERS := $(patsubst tests/helpers/%.c,$(BUILD)/helpers/%,$(wildcard tests/helpers/*.c))

$(BUILD)/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -static $< -o $@

# The attacker of issue 31 (tests/attack/): links the log library, for
# re-MACing with the host's current key and verifying.
$(BUILD)/attacker: tests/attack/attacker.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# The unit tests once more under AddressSanitizer and UBSan: every
# non-BPF source rebuilt with the sanitizers into build/asan/.
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_OBJS  := $(patsubst $(BUILD)/obj/%,$(BUILD)/asan/%,$(LIB_OBJS))
$(BUILD)/asan/%.o: %.c $(BUILD)/asan/%.d | $(SKELS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(DEPFLAGS) -c $< -o $@
	@touch $@
$(BUILD)/unit-tests-asan: $(UNIT_SRCS) $(wildcard tests/unit/*.h) $(SAN_OBJS)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(filter-out %.h,$^) -o $@ -lcriterion $(LDLIBS)

# libFuzzer targets (clang): tests/fuzz/fuzz_NAME.c, seeds in tests/fuzz/seeds/NAME.
# "make fuzz" runs each for FUZZ_SECONDS; make test runs them briefly.
FUZZ_SECONDS ?= 60
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS))
FUZZ_FLAGS := -g -O1 -fsanitize=address,undefined
FUZZ_OBJS  := $(patsubst $(BUILD)/obj/%,$(BUILD)/fuzzobj/%,$(LIB_OBJS))
$(BUILD)/fuzzobj/%.o: %.c $(BUILD)/fuzzobj/%.d | $(SKELS)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -std=gnu11 -D_GNU_SOURCE \
		-DNSAUDIT_VERSION='"$(VERSION)"' $(INCLUDES) $(DEPFLAGS) -c $< -o $@
	@touch $@
$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer -std=gnu11 -D_GNU_SOURCE $(INCLUDES) \
		$^ -o $@ $(LDLIBS)

fuzz: $(FUZZ_BINS)
	tests/run-fuzz.sh $(FUZZ_SECONDS)

unit: $(UNIT_BIN)
	$(UNIT_BIN) --jobs 2

test: deps all $(BUILD)/nsaudit-static $(UNIT_BIN) $(BUILD)/unit-tests-asan $(HELPERS) $(FUZZ_BINS) $(BUILD)/attacker
	tests/run.sh

vmtest: deps all
	tests/run.sh vm

# The benchmarks' own programs (load generator, empty-hook floor).
include bench/bench.mk

# Recorder throughput without the kernel side: synthetic records through
# the real formatter, log append, MAC and writes (tests/perf/recorder_rate.c).
PERF_BINS := $(patsubst tests/perf/%.c,$(BUILD)/perf/%,$(wildcard tests/perf/*.c))
$(BUILD)/perf/%: tests/perf/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

perf: $(PERF_BINS)
	$(BUILD)/perf/recorder_rate -n 1000000 -p fields
	$(BUILD)/perf/recorder_rate -n 1000000 -p object

# make bench also runs the recorder alone (bench/run.sh: run_harness), the
# floods (nsflood) and the held pins (pinhold) of issue 47's rows.
bench: deps all $(BENCH_BINS) $(PERF_BINS) $(BUILD)/helpers/nsflood $(BUILD)/helpers/pinhold
	bench/run.sh

# PREFIX=/usr/local DESTDIR= (staging). The unit's ExecStart names SBINDIR.
SBINDIR        ?= $(PREFIX)/sbin
MANDIR         ?= $(PREFIX)/share/man
COMPLETIONDIR  ?= $(PREFIX)/share/bash-completion/completions
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
LIBEXECDIR     ?= $(PREFIX)/libexec
DATADIR        ?= $(PREFIX)/share

install: all
	install -D -m 0755 $(BUILD)/nsaudit $(DESTDIR)$(SBINDIR)/nsaudit
	install -d -m 0755 $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR) $(DESTDIR)$(SYSTEMDUNITDIR)
	sed 's|@VERSION@|$(VERSION)|g' packaging/nsaudit.1 > $(DESTDIR)$(MANDIR)/man1/nsaudit.1
	chmod 0644 $(DESTDIR)$(MANDIR)/man1/nsaudit.1
	install -m 0644 packaging/nsaudit.bash-completion $(DESTDIR)$(COMPLETIONDIR)/nsaudit
	sed 's|@SBINDIR@|$(SBINDIR)|g' packaging/nsaudit.service > $(DESTDIR)$(SYSTEMDUNITDIR)/nsaudit.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/nsaudit.service
	install -D -m 0755 packaging/rsyslog/nsaudit-relp-dedup \
		$(DESTDIR)$(LIBEXECDIR)/nsaudit/nsaudit-relp-dedup
	install -D -m 0644 -t $(DESTDIR)$(DATADIR)/nsaudit/rsyslog \
		packaging/rsyslog/nsaudit-forward.conf packaging/rsyslog/nsaudit-collector.conf

# The header dependencies -MMD wrote (none before the first build).
$(BUILD)/obj/%.d $(BUILD)/asan/%.d $(BUILD)/fuzzobj/%.d: ;
-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)

format:
	clang-format -i bpf/*.[ch] common/*.[ch] audit/*.[ch] nsaudit/*/*.[ch] tests/unit/*.c

clean:
	rm -rf $(BUILD)
