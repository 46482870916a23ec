/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tstate.bpf.h - a thread's state between a syscall's entry and exit and
 * its held (coalesced) record: struct tstate, kept in a thread slot
 * (tslot.bpf.h), and the record key coalescing compares.
 */
#ifndef NSAUDIT_TSTATE_BPF_H
#define NSAUDIT_TSTATE_BPF_H

/* The part of a record coalescing compares: struct nsaudit_event from op
 * up to path, same layout (checked below). */
struct ev_key {
	__u32 op;
	__u32 ns_type;
	__u64 ns_id;
	__u64 old_ns_id;
	__u64 arg;
	__u32 ns_inum;
	__u32 old_inum;
	__s32 result;
	__u32 pid;
	__u32 tid;
	__s32 target_pid;
	__s32 fd;
	__u32 probe;
	__u32 via;
	__u32 flags;
};
_Static_assert(sizeof(struct ev_key) == NSAUDIT_EVENT_SHORT - NSAUDIT_EVENT_KEY,
	       "struct ev_key must mirror struct nsaudit_event from op to path");

/* Work carried from a syscall's entry to its exit. */
struct pending {
	__u32 op;
	__u32 probe;
	__u32 nsmask; /* types the call may change */
	__u32 via;
	__u64 arg;
	__u64 args[3]; /* other arguments, captured at entry */
	__s32 fd;
	__u32 target_inum; /* the namespace an nsfs fd names */
	__u32 target_type;
	__u32 kflags; /* flags every record of the call carries (set and
		       * cleared around the records: NSAUDIT_F_SECCOMP) */
	__u64 target_id;
	__u64 target_ns; /* its struct ns_common * (kept alive by the fd) */
	__u32 old_inum[NSAUDIT_NS_MAX];
	__u64 old_id[NSAUDIT_NS_MAX];
};

enum { HELD_EMPTY, HELD_IDLE, HELD_OWNER, HELD_FLUSHER };

/*
 * The holder of a thread's held record (HELD_OWNER: the thread itself,
 * HELD_FLUSHER: the reader's flush) lets it go. Only the holder writes the
 * state while it holds it, so nothing is compared; what it wrote into the
 * record must be visible before the new state is. x86 keeps stores in
 * order (TSO), and the taker's compare-and-swap orders its later loads: a
 * plain store after a compiler barrier, which saves a locked instruction
 * on every coalesced call. Elsewhere an atomic compare-and-swap is the
 * barrier.
 */
static __always_inline void held_release(__u64 *state, __u64 from, __u64 to)
{
#if defined(__TARGET_ARCH_x86)
	asm volatile("" ::: "memory");
	*(volatile __u64 *)state = to;
#else
	__sync_val_compare_and_swap(state, from, to);
#endif
}

/*
 * Per thread: the pending call, a cache of the thread's namespaces (setns'
 * fast path: no ns_common reads when the same nsfs file is entered again),
 * and the held record coalescing adds to. It lives in a thread slot
 * (tslot.bpf.h says where, and why not task storage).
 */
struct tstate {
	struct pending p;
	/* the namespaces the thread had at our last look; valid while its
	 * nsproxy and user namespace are the ones seen then */
	__u64 c_nsproxy;
	__u64 c_userns;
	__u32 c_valid; /* bit t: cur_inum[t]/cur_id[t] valid */
	__u32 cur_inum[NSAUDIT_NS_MAX];
	__u64 cur_id[NSAUDIT_NS_MAX];
	/* the nsfs file last handed to setns, and what it names */
	__u64 c_file;
	__u64 c_inode; /* its struct inode * */
	__u64 c_ns;
	__u64 c_id;
	__u32 c_type;
	__u32 c_via;
	__u32 c_inum;
	__u32 c_changed; /* the thread's namespaces changed (or may have) since
			  * its birth: birth_ns says nothing of them any more */
	/* setns' record key, built here: on 6.1 the verifier allows 512
	 * bytes for a chain of calls' stacks together (each rounded up to
	 * 32), and the exit program's own frame is at the top of every chain
	 * its slow path makes */
	struct ev_key key;
	/* coalescing: HELD_* (changed with cmpxchg: the reader's flush runs on
	 * another CPU) and the held record */
	__u64 held_state;   /* 64 bits: the only cmpxchg width of -mcpu=v1/v2 */
	__u64 held_tick; /* the tick of the held last_ts_boot_ns (held_tick()) */
	__u64 held_has_path; /* the held record has a path (in held_path) */
	/* the held record: the short prefix of a struct nsaudit_event, all a
	 * coalesced record has (the start-up snapshot gives every thread alive
	 * then a tstate: half the size of a whole record is half the kernel
	 * memory); HELD() reads it */
	__u64 held_words[NSAUDIT_EVENT_SHORT / 8];
};

#define HELD(ts) ((struct nsaudit_event *)(ts)->held_words)
_Static_assert(NSAUDIT_EVENT_SHORT % 8 == 0, "a short record is whole 64-bit words");

#endif
