# bench/bench.mk - the benchmarks' own programs, included by the Makefile.
#   $(BUILD)/bench/driver     the load generator (bench/driver.c)
#   $(BUILD)/bench/floor      empty BPF programs on nsaudit's hooks: the floor
#                             (bench/floor.c + bench/floor.bpf.c)
#   $(BUILD)/bench/statecost  what finding a thread's state costs on setns'
#                             exit, by each kind of per-thread state
#                             (bench/statecost.c + bench/statecost.bpf.c)

BENCH_BPF_TOOLS := $(BUILD)/bench/floor $(BUILD)/bench/statecost
BENCH_BINS := $(BUILD)/bench/driver $(BENCH_BPF_TOOLS)

$(BUILD)/bench/driver: bench/driver.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@

# A tool with BPF programs: bench/NAME.bpf.c, its skeleton, bench/NAME.c.
$(BUILD)/bench/%.bpf.o: bench/%.bpf.c bpf/vmlinux.h
	@mkdir -p $(dir $@)
	$(CLANG) -g -O2 -target bpf -Wall -Ibpf -c $< -o $@.full
	$(BPFTOOL) gen object $@ $@.full && rm -f $@.full

$(BUILD)/bench/%.skel.h: $(BUILD)/bench/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@

$(BENCH_BPF_TOOLS): $(BUILD)/bench/%: bench/%.c $(BUILD)/bench/%.skel.h
	$(CC) $(CFLAGS) -I$(BUILD)/bench $< -o $@ -Wl,-Bstatic -lbpf -Wl,-Bdynamic -lelf -lz
