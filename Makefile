# nsaudit - who pinned or entered which Linux namespace, and when it died.
#
#   make          build build/nsaudit (BPF objects, skeletons, loader, audit)
#   make run      install what is missing, build, and trace live (Ctrl-C stops)
#   make test     unit (Criterion) + integration (real BPF) + guest (QEMU) tests
#   make vmtest   only the guest tests: patched 6.1 kernel under QEMU
#   make bench    overhead and capacity against bpftrace and kernel audit
#   make deps     apt-get install everything the above needs (Debian 12)
#   make install  PREFIX=/usr/local DESTDIR=
#
# Everything generated (vmlinux.h, *.skel.h, objects, binaries) lives in build/.

BUILD    ?= build
CC       ?= gcc
CLANG    ?= clang
BPFTOOL  ?= bpftool
PREFIX   ?= /usr/local
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

# --- user space -----------------------------------------------------------
CFLAGS   ?= -g -O2
CFLAGS   += -Wall -Wextra -Wno-unused-parameter -Wno-format-truncation -std=gnu11 -D_GNU_SOURCE \
            -DNSAUDIT_VERSION='"$(VERSION)"' -I$(BUILD) -Ibpf -Iloader -Iaudit
# libbpf is linked statically: the binary then runs on any kernel with BTF.
LDLIBS   := -Wl,-Bstatic -lbpf -Wl,-Bdynamic -lelf -lz -ljson-c -lsodium \
            -lcap-ng -laudit

# --- BPF ------------------------------------------------------------------
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -I$(BUILD) -Ibpf \
              -Wall -Wno-unused-function

BPF_SRCS  := $(wildcard bpf/*.bpf.c)
SKELS     := $(patsubst bpf/%.bpf.c,$(BUILD)/%.skel.h,$(BPF_SRCS))

# Every .c in loader/ and audit/ goes into the binary; main.c only there.
LOADER_SRCS := $(wildcard loader/*.c)
AUDIT_SRCS  := $(wildcard audit/*.c)
LIB_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out loader/main.c,$(LOADER_SRCS)) $(AUDIT_SRCS))
MAIN_OBJ := $(BUILD)/obj/loader/main.o

.SECONDARY:
.PHONY: all run test unit integration vmtest bench fuzz deps install clean format

all: $(BUILD)/nsaudit

# vmlinux.h comes from the running kernel's BTF; CO-RE relocates the
# programs to whatever kernel they are loaded on (6.18 host, 6.1 guest).
$(BUILD)/vmlinux.h:
	@mkdir -p $(BUILD)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@

$(BUILD)/%.bpf.o: bpf/%.bpf.c bpf/*.h $(BUILD)/vmlinux.h
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@.full
	# gen object drops the DWARF we do not need: 2.3 MB -> ~200 KB skeleton
	$(BPFTOOL) gen object $@ $@.full && rm -f $@.full

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/%.o: %.c $(SKELS) $(wildcard bpf/*.h loader/*.h audit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/nsaudit: $(MAIN_OBJ) $(LIB_OBJS)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# --- running --------------------------------------------------------------
run: deps all
	tests/lib/mount-fs.sh
	$(BUILD)/nsaudit trace

deps:
	tests/lib/deps.sh

# --- tests ----------------------------------------------------------------
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BIN  := $(BUILD)/unit-tests

$(UNIT_BIN): $(UNIT_SRCS) $(LIB_OBJS)
	$(CC) $(CFLAGS) $^ -o $@ -lcriterion $(LDLIBS)

# Small C programs the integration tests drive the real syscalls with.
HELPERS := $(patsubst tests/helpers/%.c,$(BUILD)/helpers/%,$(wildcard tests/helpers/*.c))

$(BUILD)/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@

unit: $(UNIT_BIN)
	$(UNIT_BIN) --jobs 2

test: deps all $(UNIT_BIN) $(HELPERS)
	tests/run.sh

vmtest: deps all
	tests/run.sh vm

# Load generator of the benchmarks (bench/driver.c); bench/run.sh drives it.
$(BUILD)/bench/driver: bench/driver.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@

bench: deps all $(BUILD)/bench/driver
	bench/run.sh

install: all
	install -D -m 0755 $(BUILD)/nsaudit $(DESTDIR)$(PREFIX)/sbin/nsaudit

format:
	clang-format -i bpf/*.[ch] loader/*.[ch] audit/*.[ch] tests/unit/*.c

clean:
	rm -rf $(BUILD)
