// SPDX-License-Identifier: GPL-2.0
/*
 * statecost.bpf.c - what it costs a program on setns' exit to find its
 * thread's state, by each way a BPF program can keep state per thread:
 * the floor under nsaudit's setns program (which needs what the thread had
 * before the call, and its held record), measured by bench/statecost.c.
 *
 * Four programs on sys_exit_setns, each a look-up and a one-byte write
 * into a value of nsaudit's thread state's size (struct tstate, 2,080
 * bytes): none (the empty program), task storage (what nsaudit uses), a
 * hash keyed by tid, an array indexed by tid modulo its size (a slot that
 * a later thread may take, as nsaudit's birth slots).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define STATE_SIZE 2080
#define SLOTS 16384

char LICENSE[] SEC("license") = "GPL";

struct state {
	char b[STATE_SIZE];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct state);
} by_task SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct state);
} by_tid SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SLOTS);
	__type(key, __u32);
	__type(value, struct state);
} by_slot SEC(".maps");

/* The hash's first value for a thread: too big for the stack. */
static const struct state zero;

SEC("tracepoint/syscalls/sys_exit_setns")
int state_none(void *ctx)
{
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_setns")
int state_task_storage(void *ctx)
{
	struct state *s = bpf_task_storage_get(&by_task, bpf_get_current_task_btf(), 0,
					       BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (s)
		s->b[0]++;
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_setns")
int state_hash_tid(void *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct state *s = bpf_map_lookup_elem(&by_tid, &tid);

	if (!s) {
		bpf_map_update_elem(&by_tid, &tid, &zero, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&by_tid, &tid);
	}
	if (s)
		s->b[0]++;
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_setns")
int state_slot_tid(void *ctx)
{
	__u32 slot = (__u32)bpf_get_current_pid_tgid() & (SLOTS - 1);
	struct state *s = bpf_map_lookup_elem(&by_slot, &slot);

	if (s)
		s->b[0]++;
	return 0;
}
