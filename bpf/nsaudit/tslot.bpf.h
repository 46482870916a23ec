/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tslot.bpf.h - where a thread's state (struct tstate: its pending call,
 * namespace cache and held record) lives: its slot of tslots, found by
 * tstate_find(), made by tstate_get(), looked at by tstate_pending().
 * docs/hooks.md (Thread state: slots) and docs/performance.md (Pages)
 * say why slots and not task storage. Included by emit.bpf.h; tslots,
 * tslot_mark and the global subprograms are defined in nsaudit.bpf.c.
 */
#ifndef NSAUDIT_TSLOT_BPF_H
#define NSAUDIT_TSLOT_BPF_H

#include "rings.bpf.h"
#include "tstate.bpf.h"

/* Only the member used; CO-RE finds it at load (it is in 6.1 too). */
struct task_struct___storage {
	void *bpf_storage;
} __attribute__((preserve_access_index));

/*
 * Whether a task (a typed pointer: bpf_get_current_task_btf(), an
 * iterator's or tp_btf's task) may have task storage of any map: one
 * plain load. The exit hooks of fork, clone, ioctl, mount and umount run
 * for every process on the machine, and nearly all of them have none: the
 * bpf_task_storage_get() that would find that out cost ~150-200 ns a call
 * there (bpf_stats, 6.18: the helper's lock and its cache-cold look).
 */
static __always_inline bool task_may_have_storage(struct task_struct *task)
{
	struct task_struct___storage *t = (void *)task;

	if (!bpf_core_field_exists(t->bpf_storage))
		return true;
	return t->bpf_storage != NULL;
}

/*
 * Thread slots: a thread's state lives in a slot of one array (tslots),
 * owned by (tid, start_boottime): its own slot, indexed by its tid, or,
 * when another live thread holds that one (pid_max above TSLOT_COUNT),
 * its spare, one of TSLOT_SPARE more indexed by a hash of its tid; with
 * both held the call is counted lost (NSAUDIT_LOST_STORAGE), as a failed
 * task storage was. Why not task storage: on a machine whose syscalls
 * flush the TLB (PTI without PCID, as this project's VMs: /proc/cpuinfo
 * has no "pcid") a program pays for every page it touches that the
 * syscall did not, ~20 ns each; a task storage look-up touched three (the
 * task's storage, the map's cache index, the value) and cost setns' exit
 * ~90 ns, a slot ~20 (build/bench/statecost). One map, not a slot with
 * task storage behind it: the verifier tells pointers into two maps apart
 * and followed every path after a look-up twice (twice the instructions
 * for umount's exit).
 *
 * A slot's start is 0 when free and TSLOT_BUSY while it is being taken.
 * The exit hook frees a thread's slot (tp_exit_flush); a slot whose owner
 * died without that (its held record was being flushed) is taken by the
 * next thread with the same tid: a tid names one live thread at a time.
 * 32,768 + 4,096 slots of 704 bytes: 26.0 MB of kernel memory.
 */
#define TSLOT_BITS 15
#define TSLOT_COUNT (1u << TSLOT_BITS)
#define TSLOT_SPARE_BITS 12
#define TSLOT_SPARE (1u << TSLOT_SPARE_BITS)
#define TSLOT_BUSY ((__u64)-1)

/*
 * A slot also carries the filters as they apply to its thread, copied from
 * .rodata when the thread takes it: setns' common path reads them here,
 * in the page it touches anyway, instead of in .rodata's page (~15-20 ns a
 * call, bpf_stats). The filters of a load never change.
 */
#define TCFG_COALESCE 1u
#define TCFG_SETNS_EXIT_ONLY 2u

struct tslot {
	__u64 start; /* the owner's start_boottime; 0 free; TSLOT_BUSY */
	__u32 tid;
	__u32 ops;   /* ops_wanted_by(its tgid) */
	__u32 types; /* type_mask */
	__u32 cfg;   /* TCFG_* */
	struct tstate ts;
};

struct tslots_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TSLOT_COUNT + TSLOT_SPARE);
	__type(key, __u32);
	__type(value, struct tslot);
};
extern struct tslots_map tslots SEC(".maps");

/*
 * A thread that holds a slot also has an (empty) task storage of its own:
 * then task->bpf_storage, on the task's page that every hook has at hand,
 * says "this thread may have a state". The hooks of threads without one
 * (the exit of every thread, the exits of clone3 and mount, the reader's
 * flush) do not touch the slot, whose memory is cold for them: successive
 * threads' slots are successive, so a fork's child would touch a page no
 * one touched for 32,768 thread births (~1 us after a syscall flushed the
 * TLB, bpf_stats, tp_exit_flush).
 */
struct tslot_mark_map {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u8);
};
extern struct tslot_mark_map tslot_mark SEC(".maps");

/* Free the slot (tid, start) holds. */
static __always_inline void tslot_free(struct tslot *s, __u64 start)
{
	__sync_val_compare_and_swap(&s->start, start, 0);
}

/* Take a free slot (or one a dead thread of this tid left) for (tid,
 * start) of process tgid, its state zeroed as new task storage is: 1 if
 * taken. A global subprogram (verified once). */
int tslot_claim(struct tslot *s, __u32 tid, __u64 start, __u32 tgid);

/* Thread tid's own slot (spare false) or its spare. */
static __always_inline struct tslot *tslot_of(__u32 tid, bool spare)
{
	__u32 idx = spare ? TSLOT_COUNT + ((tid * 2654435761u) >> (32 - TSLOT_SPARE_BITS))
			  : tid & (TSLOT_COUNT - 1);

	return bpf_map_lookup_elem(&tslots, &idx);
}

/* The slot's state if (tid, start) owns it. */
static __always_inline struct tstate *tslot_mine(struct tslot *s, __u32 tid, __u64 start)
{
	if (s && *(volatile __u64 *)&s->start == start && s->tid == tid)
		return &s->ts;
	return NULL;
}

/* The slot (tid, start) holds, its own or its spare; NULL if none. */
static __always_inline struct tslot *tslot_held(__u32 tid, __u64 start)
{
	struct tslot *s = tslot_of(tid, false);

	if (tslot_mine(s, tid, start))
		return s;
	s = tslot_of(tid, true);
	return tslot_mine(s, tid, start) ? s : NULL;
}

/*
 * task_may_have_storage() of the current task, in a global subprogram
 * (nsaudit.bpf.c): its load of a pointer off the task is verified once
 * per program, not at every walk that reaches one of the many call sites,
 * and off current_to_read(), so 6.18's verifier scans no BTF for it (the
 * load at each site was ~40 % of those scans). Its value is the same.
 */
int cur_may_have_storage(void);

/*
 * A task's state (a typed pointer: the current task, an iterator's): in
 * its own slot or its spare; made if create (the slot marked, see
 * tslot_mark). NULL if it has none, or none could be made. maybe: the
 * task's task_may_have_storage().
 */
static __always_inline struct tstate *tstate_find_as(struct task_struct *task, bool create,
						     bool maybe)
{
	__u32 tid = task->pid;
	__u64 start = task->start_boottime;
	struct tslot *s, *own;

	if (maybe) {
		s = tslot_held(tid, start);
		if (s)
			return &s->ts;
	}
	if (!create)
		return NULL;
	s = tslot_of(tid, false);
	if (!s || !tslot_claim(s, tid, start, task->tgid)) {
		own = s;
		s = tslot_of(tid, true);	/* its own is another live thread's */
		if (!s || !tslot_claim(s, tid, start, task->tgid))
			return NULL;
		/* or was being made this thread's by the start-up snapshot
		 * (another CPU) when it looked: one slot, the one the look-ups
		 * try first, or the pending call would be left in the other */
		if (tslot_mine(own, tid, start)) {
			tslot_free(s, start);
			s = own;
		}
	}
	if (bpf_task_storage_get(&tslot_mark, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE))
		return &s->ts;
	tslot_free(s, start);	/* unmarked, its exit would not free it */
	return NULL;
}

/* A call of op not followed: its thread has no state, and none could be
 * made (a global subprogram: out of the hooks' common path). */
int state_lost(__u32 op);

static __always_inline struct tstate *tstate_find(struct task_struct *task, bool create)
{
	return tstate_find_as(task, create, task_may_have_storage(task));
}

/* The current thread's state (tstate_find()). */
static __always_inline struct tstate *tstate_find_cur(bool create)
{
	return tstate_find_as(bpf_get_current_task_btf(), create, cur_may_have_storage());
}

/* This thread's state, created if needed; a failure is counted (the call
 * of op could not be followed). */
static __always_inline struct tstate *tstate_get(__u32 op)
{
	struct tstate *ts = tstate_find_cur(true);

	if (!ts)
		state_lost(op);
	return ts;
}

/* This thread's pending work for op, at a syscall's exit; NULL if none. */
static __always_inline struct tstate *tstate_pending(__u32 op)
{
	struct tstate *ts = tstate_find_cur(false);

	return ts && ts->p.op == op ? ts : NULL;
}

#endif /* NSAUDIT_TSLOT_BPF_H */
