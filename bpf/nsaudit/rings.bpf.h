/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rings.bpf.h - what the loader sets before load (the filters and the
 * rings' wakeup thresholds), the two rings and the counters of what they
 * could not take, and the filters every record passes (op, type, pid).
 * Declared here, defined once in nsaudit.bpf.c; emit.bpf.h sends records
 * through them.
 */
#ifndef NSAUDIT_RINGS_BPF_H
#define NSAUDIT_RINGS_BPF_H

/* Set by the loader before load (.rodata). */
extern const volatile __u32 filter_tgid;	     /* 0: every process */
extern const volatile __u32 op_mask;   /* 1 << enum nsaudit_op */
extern const volatile __u32 type_mask; /* 1 << enum nsaudit_ns_type */
extern const volatile __u64 wakeup_bytes; /* force a wakeup past this */
extern const volatile __u64 rare_wakeup_bytes;
extern const volatile __u32 self_tgid;	    /* the loader: never trace it */
extern const volatile bool have_nsfd;	    /* patched kernel: nsfd() fds exist */
extern const volatile bool freed_wanted;    /* op freed is traced (freed.bpf.c) */
/* freed.bpf.c: a namespace nsaudit saw, whose free is a kfree of its address */
int freed_learn(__u64 ns_addr, __u32 type);
/* the same for the current thread's namespace of a type */
int freed_learn_cur(__u32 type);
extern const volatile bool coalesce;	    /* --no-coalesce clears it */
extern const volatile bool pidfd_ioctl_tp; /* tp_btf/nsfd records pidfd ioctls */

/* Calls the rings could not take, in total and per enum nsaudit_lost_reason;
 * read by user space, reported as "lost" records. */
extern __u64 lost_events;
extern __u64 lost_reason[NSAUDIT_LOST_MAX];
/* Numbers every record, so a recorder restarted on the pinned ring can tell
 * which records its crashed predecessor already wrote. */
extern __u64 next_kseq;

struct events_map {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20); /* resized by the loader (--ring-size) */
};
extern struct events_map events SEC(".maps");

struct rare_map {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	/* the reserve: rare records only; room for ~1,500 whole records,
	 * half of it shared by budget (issue 32) */
	__uint(max_entries, 1 << 20);
};
extern struct rare_map rare SEC(".maps");

/* The ops recorded for process tgid (1 << enum nsaudit_op). */
static __always_inline __u32 ops_wanted_by(__u32 tgid)
{
	if (self_tgid && tgid == self_tgid)
		return 0;
	if (filter_tgid && tgid != filter_tgid)
		return 0;
	return op_mask;
}

static __always_inline bool op_wanted(__u32 op)
{
	return ops_wanted_by(bpf_get_current_pid_tgid() >> 32) & (1u << op);
}

/* Unknown types (NSAUDIT_NS_UNKNOWN) always pass: user space may learn them.
 * types: type_mask, or a thread slot's copy of it. */
static __always_inline bool types_want(__u32 types, __u32 type)
{
	return type >= NSAUDIT_NS_MAX || (types & (1u << type));
}

static __always_inline bool type_wanted(__u32 type)
{
	return types_want(type_mask, type);
}

/* Successful setns goes to the main ring; everything else is rare. */
static __always_inline bool is_rare(__u32 op, __s32 result)
{
	return op != NSAUDIT_OP_SETNS || result != 0;
}

#endif
