// SPDX-License-Identifier: GPL-2.0
/*
 * unshare_clone.bpf.c - namespaces created: unshare(), and clone/clone3
 * with CLONE_NEW* that failed (a clone that succeeds is seen at
 * sched_process_fork: lifecycle.bpf.c).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "nsaudit.h"
#include "nsaudit_core.bpf.h"
#include "emit.bpf.h"
#include "nscache.bpf.h"
#include "seccomp.bpf.h"

/* The pending unshare of flags (types mask): the entry's, or the exit's
 * for a call seccomp refused. */
static __always_inline void unshare_pending(struct tstate *ts, __u64 flags, __u32 mask)
{
	ts->p.op = NSAUDIT_OP_UNSHARE;
	ts->p.probe = NSAUDIT_PROBE_TP_SYSCALLS;
	ts->p.nsmask = mask;
	ts->p.arg = flags;
	ts->p.fd = -1;
	ts->p.via = NSAUDIT_VIA_NONE;
	pending_save_old(ts);
}

SEC("tracepoint/syscalls/sys_enter_unshare")
int tp_enter_unshare(struct trace_event_raw_sys_enter *ctx)
{
	__u64 flags = ctx->args[0];
	__u32 mask = clone_flags_to_mask(flags);
	struct tstate *ts;

	if (!mask || !op_wanted(NSAUDIT_OP_UNSHARE))
		return 0;
	ts = tstate_get(NSAUDIT_OP_UNSHARE);
	if (!ts)
		return 0;
	unshare_pending(ts, flags, mask);
	return 0;
}

/*
 * An unshare() a seccomp filter refused (seccomp.bpf.h): its entry never
 * ran; the flags from the saved registers, the namespaces it has (nothing
 * changed). A state that cannot be had is counted lost here: no entry
 * counted it. A global subprogram: off the exit's common path.
 */
__noinline int unshare_refused(long nr, long ret)
{
	__u64 flags, unused;
	struct tstate *ts;
	__u32 mask;

	if (!op_wanted(NSAUDIT_OP_UNSHARE))
		return 0;
	syscall_args2(cur_syscall_regs(), &flags, &unused);
	mask = clone_flags_to_mask(flags);
	if (!mask || !seccomp_refused(nr, ret))
		return 0;
	ts = tstate_get(NSAUDIT_OP_UNSHARE);
	if (!ts)
		return 0;
	unshare_pending(ts, flags, mask);
	ts->p.kflags = NSAUDIT_F_SECCOMP;
	emit_switch(ts, ret);
	ts->p.kflags = 0;
	ts->p.op = NSAUDIT_OP_NONE;
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_unshare")
int tp_exit_unshare(struct trace_event_raw_sys_exit *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct tstate *ts = tstate_find_cur(false);
	struct task_nsset set;

	if (!ts || ts->p.op != NSAUDIT_OP_UNSHARE) {
		if (ctx->ret < 0)	/* no entry: refused by seccomp? */
			return unshare_refused((int)ctx->id, ctx->ret);
		/* not recorded (not wanted, or no CLONE_NEW* flag): setns'
		 * exit hook still needs the cache to be the truth, and the
		 * thread's birth_ns no longer is (made if need be: counted
		 * as lost if it cannot be) */
		if (setns_exit_only && ctx->ret == 0) {
			if (!ts)
				ts = tstate_get(NSAUDIT_OP_UNSHARE);
			if (!ts) {
				birth_forget();
				return 0;
			}
			task_nsset_btf(&set, task);
			cache_refill(ts, &set);
		}
		return 0;
	}
	emit_switch(ts, ctx->ret);
	ts->p.op = NSAUDIT_OP_NONE;
	return 0;
}

/* ---- clone/clone3 with CLONE_NEW* that failed ---------------------------
 *
 * A clone that succeeds is seen at sched_process_fork (below); one that
 * fails (EPERM, EINVAL, ENOSPC from user.max_*_namespaces) never gets
 * there. The flags are taken at entry (clone: the first argument on every
 * architecture; clone3: the first word of struct clone_args); the exit
 * reports failures only, one record per requested type. Every fork and
 * thread on the machine passes these hooks: what they do for a clone
 * with CLONE_NEW* is in global subprograms, so that the code of the
 * common case (a compare, a return) stays in one page of code (each page
 * a hook touches costs a TLB miss after a syscall with PTI and no PCID).
 */
__noinline int clone_enter_new(__u64 flags)
{
	struct tstate *ts;

	if (!op_wanted(NSAUDIT_OP_CLONE))
		return 0;
	ts = tstate_get(NSAUDIT_OP_CLONE);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_CLONE;
	ts->p.probe = NSAUDIT_PROBE_TP_SYSCALLS;
	ts->p.nsmask = clone_flags_to_mask(flags);
	ts->p.arg = flags;
	ts->p.fd = -1;
	ts->p.via = NSAUDIT_VIA_NONE;
	return 0;
}

static __always_inline void clone_enter(__u64 flags)
{
	if (clone_flags_to_mask(flags))
		clone_enter_new(flags);
}

/* One failure record per requested type (a global subprogram: verified once). */
__noinline int clone_failed(struct tstate *ts, long ret)
{
	struct ev_key k;
	int t;

	if (!ts)
		return 0;
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		if (!(ts->p.nsmask & (1u << t)) || !(type_mask & (1u << t)))
			continue;
		key_init(&k, NSAUDIT_OP_CLONE, NSAUDIT_PROBE_TP_SYSCALLS);
		k.ns_type = t;
		k.result = ret;
		k.arg = ts->p.arg;
		k.flags = ts->p.kflags;
		if (t == NSAUDIT_NS_PID || t == NSAUDIT_NS_TIME)
			k.flags |= NSAUDIT_F_FOR_CHILDREN;
		commit_key(ts, &k, 0);
	}
	return 0;
}

/*
 * The parent's exit (ret: the child's pid, or the error; nr: the call's
 * number, flags its flags, read again at exit when it failed): the
 * pending call, if there is one, ends. None, and the call failed: one a
 * seccomp filter refused (seccomp.bpf.h; docker's default profile refuses
 * clone with CLONE_NEW* to a container without CAP_SYS_ADMIN) is a record
 * all the same.
 */
__noinline int clone_exit(long ret, long nr, __u64 flags)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_CLONE);

	if (!ts) {
		if (ret >= 0 || !clone_flags_to_mask(flags) || !op_wanted(NSAUDIT_OP_CLONE) ||
		    !seccomp_refused(nr, ret))
			return 0;
		clone_enter_new(flags);	/* a state that cannot be had: lost */
		ts = tstate_pending(NSAUDIT_OP_CLONE);
		if (!ts)
			return 0;
		ts->p.kflags = NSAUDIT_F_SECCOMP;
	}
	ts->p.op = NSAUDIT_OP_NONE;
	if (ret < 0)		/* the parent: sched_process_fork reported it */
		clone_failed(ts, ret);
	ts->p.kflags = 0;
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_clone")
int tp_enter_clone(struct trace_event_raw_sys_enter *ctx)
{
	clone_enter(ctx->args[0]);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_clone")
int tp_exit_clone(struct trace_event_raw_sys_exit *ctx)
{
	__u64 flags, unused;

	if (ctx->ret == 0)
		return 0;	/* the child's */
	/* the entry's filter again, from the saved registers: a fork's exit
	 * does not look the thread's state up */
	syscall_args2(cur_syscall_regs(), &flags, &unused);
	if (clone_flags_to_mask(flags))
		clone_exit(ctx->ret, (int)ctx->id, flags);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_clone3")
int tp_enter_clone3(struct trace_event_raw_sys_enter *ctx)
{
	__u64 flags = 0;

	bpf_probe_read_user(&flags, sizeof(flags), (void *)ctx->args[0]);
	clone_enter(flags);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_clone3")
int tp_exit_clone3(struct trace_event_raw_sys_exit *ctx)
{
	long ret = ctx->ret, nr = (int)ctx->id;
	__u64 flags = 0, uargs, unused;

	if (ret == 0)
		return 0;	/* the child's */
	if (ret < 0) {	/* its flags, should seccomp have refused it */
		syscall_args2(cur_syscall_regs(), &uargs, &unused);
		bpf_probe_read_user(&flags, sizeof(flags), (void *)uargs);
	}
	clone_exit(ret, nr, flags);
	return 0;
}
