# bench/bench.mk - the benchmarks' own programs, included by the Makefile.
#   $(BUILD)/bench/driver  the load generator (bench/driver.c)
#   $(BUILD)/bench/floor   empty BPF programs on nsaudit's hooks: the floor
#                          (bench/floor.c + bench/floor.bpf.c)
#   $(BUILD)/bench/statecost  what finding a thread's state costs on setns'
#                          exit, by each kind of per-thread state
#                          (bench/statecost.c + bench/statecost.bpf.c)

BENCH_BINS := $(BUILD)/bench/driver $(BUILD)/bench/floor $(BUILD)/bench/statecost

$(BUILD)/bench/driver: bench/driver.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@

$(BUILD)/bench/floor.bpf.o: bench/floor.bpf.c bpf/vmlinux.h
	@mkdir -p $(dir $@)
	$(CLANG) -g -O2 -target bpf -Wall -Ibpf -c $< -o $@.full
	$(BPFTOOL) gen object $@ $@.full && rm -f $@.full

$(BUILD)/bench/floor.skel.h: $(BUILD)/bench/floor.bpf.o
	$(BPFTOOL) gen skeleton $< name floor_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/bench/floor: bench/floor.c $(BUILD)/bench/floor.skel.h
	$(CC) $(CFLAGS) -I$(BUILD)/bench $< -o $@ -Wl,-Bstatic -lbpf -Wl,-Bdynamic -lelf -lz

$(BUILD)/bench/statecost.bpf.o: bench/statecost.bpf.c bpf/vmlinux.h
	@mkdir -p $(dir $@)
	$(CLANG) -g -O2 -target bpf -Wall -Ibpf -c $< -o $@.full
	$(BPFTOOL) gen object $@ $@.full && rm -f $@.full

$(BUILD)/bench/statecost.skel.h: $(BUILD)/bench/statecost.bpf.o
	$(BPFTOOL) gen skeleton $< name statecost_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/bench/statecost: bench/statecost.c $(BUILD)/bench/statecost.skel.h
	$(CC) $(CFLAGS) -I$(BUILD)/bench $< -o $@ -Wl,-Bstatic -lbpf -Wl,-Bdynamic -lelf -lz
