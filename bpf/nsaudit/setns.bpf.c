// SPDX-License-Identifier: GPL-2.0
/*
 * setns.bpf.c - setns(): the namespace entered (what the fd names, and how
 * that file was made) and the one left (the thread's namespace cache,
 * nscache.bpf.h). On a stock kernel
 * setns is traced at its exit alone. The patched kernel's programs are here
 * too: fentry/fexit on sys_setns, and namespace:ns_change (tp_ns_change),
 * which names the namespace a setns or an unshare leaves and makes a
 * clone's records.
 *
 * Every loop here is short and fully unrolled (#pragma unroll): the 6.1
 * verifier rejects some loop shapes clang 14 emits ("back-edge from insn
 * X to Y") even for privileged loaders. The same holds for every part of
 * the tracer's object (nsaudit.bpf.c lists them).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "nsaudit.h"
#include "nsaudit_core.bpf.h"
#include "emit.bpf.h"
#include "nscache.bpf.h"
#include "nsfile.bpf.h"

/*
 * What a file other than the thread's cached one names (see setns_target),
 * learned into the cache if it is an nsfs file. A global subprogram, like
 * every path setns' exit takes only now and then: its code stays out of
 * the pages the common call runs through (each one it touches costs a TLB
 * miss after a syscall on machines with PTI and no PCID, ~20 ns here).
 * file, inode: addresses (a global subprogram takes no kernel pointer).
 */
__noinline int setns_target_learn(struct tstate *ts, __u64 file_addr, __u64 inode_addr,
				  __u64 flags)
{
	struct file *file = (struct file *)file_addr;
	struct pending *p;

	if (!ts)
		return 0;
	p = &ts->p;
	if (file_is_nsfs(file)) {
		struct ns_common *ns = file_ns(file);

		p->target_type = ns_type(ns);
		ns_ident(ns, &p->target_inum, &p->target_id);
		p->target_ns = (__u64)ns;
		p->via = nsfs_file_via(file, p->target_inum);
		ts->c_file = file_addr;
		ts->c_inode = inode_addr;
		ts->c_inum = p->target_inum;
		ts->c_ns = p->target_ns;
		ts->c_id = p->target_id;
		ts->c_type = p->target_type;
		ts->c_via = p->via;
	} else {
		/* a pidfd (or anything else): the types are the CLONE_NEW* bits */
		p->nsmask = clone_flags_to_mask(flags);
		if (file_is_pidfd(file))
			p->via = NSAUDIT_VIA_PIDFD;
	}
	return 0;
}

/*
 * What setns()'s fd names (type, namespace, origin) into ts->p, with the
 * types the call may change in p->nsmask. The same nsfs file as last time
 * (checked by the file's and its inode's address: two probe reads, the fd
 * slot and f_inode) costs no namespace reads at all.
 */
static __always_inline void setns_target(struct tstate *ts, int fd, __u64 flags, __u32 probe)
{
	struct pending *p = &ts->p;
	struct inode *inode;
	struct file *file;

	p->op = NSAUDIT_OP_SETNS;
	p->probe = probe;
	p->fd = fd;
	p->arg = flags;
	p->nsmask = 0;
	p->via = NSAUDIT_VIA_NONE;
	p->target_inum = 0;
	p->target_id = 0;
	p->target_ns = 0;
	p->target_type = NSAUDIT_NS_UNKNOWN;

	file = cur_fd_file(fd);
	if (!file)
		return;		/* EBADF: no type to speak of */
	inode = BPF_CORE_READ(file, f_inode);
	if ((__u64)file == ts->c_file && (__u64)inode == ts->c_inode) {
		p->target_type = ts->c_type;
		p->target_inum = ts->c_inum;
		p->target_id = ts->c_id;
		p->target_ns = ts->c_ns;
		p->via = ts->c_via;
	} else {
		setns_target_learn(ts, (__u64)file, (__u64)inode, flags);
	}
	if (p->target_type < NSAUDIT_NS_MAX)
		p->nsmask = 1u << p->target_type;
}

/* The namespaces of the types in p->nsmask the thread has now: before the
 * call, or after one that failed (a global subprogram: seldom run). */
__noinline int setns_old_now(struct tstate *ts)
{
	struct task_nsset set;
	struct pending *p;
	__u32 t;

	if (!ts)
		return 0;
	p = &ts->p;
	t = p->target_type;
	if (t < NSAUDIT_NS_MAX) {
		t &= NSAUDIT_NS_TYPE_MASK;
		cache_check(ts, &set);
		cur_ns(ts, &set, t, &p->old_inum[t], &p->old_id[t]);
	} else if (p->nsmask) {
		pending_save_old(ts);
	}
	return 0;
}

/* setns() entry (fentry on the patched kernel): what the fd names, and
 * what the thread has now. */
static __always_inline void setns_enter(int fd, __u64 flags, __u32 probe)
{
	struct tstate *ts;

	if (!op_wanted(NSAUDIT_OP_SETNS))
		return;
	ts = tstate_get(NSAUDIT_OP_SETNS);
	if (!ts)
		return;
	setns_target(ts, fd, flags, probe);
	setns_old_now(ts);
}

/*
 * setns() has returned ret; ts->p has what the fd named and the
 * namespaces the thread had. Through an nsfs fd the entered namespace is
 * the fd's; anything else takes emit_switch(). types, coal: the filters
 * (type_mask, coalesce, or a thread slot's copy).
 */
static __always_inline void setns_done(struct tstate *ts, long ret, __u32 types, bool coal)
{
	struct pending *p = &ts->p;
	struct task_nsset set;
	struct ev_key *k = &ts->key;
	__u32 refs = 0;
	int t = p->target_type;

	if (t >= NSAUDIT_NS_MAX) {
		emit_switch(ts, ret);
		p->op = NSAUDIT_OP_NONE;
		return;
	}
	t &= NSAUDIT_NS_TYPE_MASK;
	if (ret == 0) {
		task_nsset_btf(&set, bpf_get_current_task_btf());
		if ((__u64)nsset_ns_btf(&set, t) != p->target_ns) {
			/* the thread did not enter what the fd names now: it
			 * was closed or replaced during the call. Say only
			 * what is known: a setns succeeded. */
			p->target_type = NSAUDIT_NS_UNKNOWN;
			p->nsmask = 0;
			p->via = NSAUDIT_VIA_NONE;
			emit_switch(ts, ret);
			p->op = NSAUDIT_OP_NONE;
			return;
		}
		/* the cache follows the thread, recorded or not */
		ts->c_changed = 1;
		ts->cur_inum[t] = p->target_inum;
		ts->cur_id[t] = p->target_id;
		ts->c_valid |= 1u << t;
		ts->c_nsproxy = (__u64)set.nsp;
		ts->c_userns = (__u64)set.user;
	}
	if (!types_want(types, t)) {
		p->op = NSAUDIT_OP_NONE;
		return;
	}
	switch_key(k, p, t, ret);
	p->op = NSAUDIT_OP_NONE;
	/* entered, or (failed) the one it tried to enter */
	k->ns_inum = p->target_inum;
	k->ns_id = p->target_id;
	k->flags |= NSAUDIT_F_HAS_NS;
	if (ret == 0) {
		if (held_repeat_short(ts, k, coal))
			return;	/* a repeat keeps the first call's count */
		refs = ns_refcount((struct ns_common *)p->target_ns);
	}
	commit_key(ts, k, refs);
}

/* setns() exit after an entry hook (fexit on the patched kernel). */
static __always_inline void setns_exit(long ret)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_SETNS);

	if (ts)
		setns_done(ts, ret, type_mask, coalesce);
}

/* The namespace of type t the thread had before the call, from its cache
 * (0: not known). */
static __always_inline void setns_old_cached(struct tstate *ts, int t)
{
	struct pending *p = &ts->p;

	t &= NSAUDIT_NS_TYPE_MASK;
	if (ts->c_valid & (1u << t)) {
		p->old_inum[t] = ts->cur_inum[t];
		p->old_id[t] = ts->cur_id[t];
	} else {
		p->old_inum[t] = 0;
		p->old_id[t] = 0;
	}
}

/* The same for every type in p->nsmask (a pidfd's flags; a global
 * subprogram: seldom run). */
__noinline int setns_old_all_cached(struct tstate *ts)
{
	int t;

	if (!ts)
		return 0;
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		if (ts->p.nsmask & (1u << t))
			setns_old_cached(ts, t);
	}
	return 0;
}

/* A thread's first setns, before any change: the namespaces it was born
 * with (a global subprogram: once per thread at most). */
__noinline int setns_birth_cache(struct tstate *ts)
{
	if (ts)
		cache_from_birth(ts);
	return 0;
}

/*
 * setns() on a stock kernel: one hook, at the exit. An entry hook would be
 * a second program run and a second task storage lookup on every call,
 * about half of what tracing setns cost. The arguments are still in the
 * saved user registers; what the fd names is read now (the fd outlives the
 * call: setns does not close it); what the thread had before is its cache,
 * which the start-up snapshot and every namespace change keep whole, or
 * before its first change its birth_ns slot. A thread with neither (no
 * thread slot could be had, or a later thread took its birth slot) gets
 * records without the namespace it left, never a wrong one.
 */
static __always_inline void setns_alone_state(struct tstate *ts, struct task_struct *task,
					      long ret, __u32 types, bool coal)
{
	struct pending *p = &ts->p;
	struct pt_regs *regs;
	__u64 fd, flags;
	int t;

	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	syscall_args2(regs, &fd, &flags);
	setns_target(ts, (int)fd, flags, NSAUDIT_PROBE_TP_SYSCALLS);
	if (ret != 0) {
		setns_old_now(ts);	/* nothing changed */
	} else {
		/* no change since its birth: what it was born with */
		if (!ts->c_changed && ts->c_valid != (1u << NSAUDIT_NS_MAX) - 1)
			setns_birth_cache(ts);
		if (p->target_type < NSAUDIT_NS_MAX) {
			t = p->target_type & 7;
			setns_old_cached(ts, t);
		} else {
			setns_old_all_cached(ts);
		}
	}
	setns_done(ts, ret, types, coal);
}

/* The same for any thread, its filters from .rodata. */
static __always_inline void setns_exit_alone(long ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct tstate *ts;

	if (!op_wanted(NSAUDIT_OP_SETNS)) {
		/* not recorded, but the cache must not lie to a later look */
		ts = tstate_find_cur(false);
		if (ts && ret == 0) {
			ts->c_valid = 0;
			ts->c_changed = 1;
		}
		return;
	}
	ts = tstate_get(NSAUDIT_OP_SETNS);
	if (!ts) {
		if (ret == 0)
			birth_forget();
		return;
	}
	setns_alone_state(ts, task, ret, type_mask, coalesce);
}

/* setns()'s exit for a thread without a slot of its own yet, or not
 * recorded, or after an entry hook (a global subprogram: out of the
 * common path's pages). */
__noinline int setns_exit_general(long ret)
{
	if (setns_exit_only)
		setns_exit_alone(ret);
	else
		setns_exit(ret);
	return 0;
}

/* Attached only where the kernel's namespace:ns_change tracepoint
 * reports into the pending call (patched kernel without fentry). */
SEC("tracepoint/syscalls/sys_enter_setns")
int tp_enter_setns(struct trace_event_raw_sys_enter *ctx)
{
	setns_enter((int)ctx->args[0], ctx->args[1], NSAUDIT_PROBE_TP_SYSCALLS);
	return 0;
}

/*
 * The common path: a thread with a slot of its own, traced at setns' exit
 * alone and recorded, the filters from its slot. .rodata is not read: its
 * page would be one more that this call touches.
 */
SEC("tracepoint/syscalls/sys_exit_setns")
int tp_exit_setns(struct trace_event_raw_sys_exit *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 tid = task->pid;
	struct tslot *s = tslot_of(tid, false);
	const __u32 need = TCFG_SETNS_EXIT_ONLY;

	if (s && tslot_mine(s, tid, task->start_boottime) && (s->cfg & need) == need &&
	    (s->ops & (1u << NSAUDIT_OP_SETNS))) {
		setns_alone_state(&s->ts, task, ctx->ret, s->types, s->cfg & TCFG_COALESCE);
		return 0;
	}
	setns_exit_general(ctx->ret);
	return 0;
}

/* ---- the patched kernel: sys_setns, namespace:ns_change ----------------
 *
 * Loaded only where the kernel has them (the loader reads
 * /proc/sys/kernel/nsfd_syscall_nr and looks ns_change up in BTF);
 * elsewhere autoload is off and they cost nothing. The kernel ABI
 * (kernel-patch/): the tracepoint namespace:ns_change(tsk, cause, nstype,
 * for_children, old_ns, new_ns) fires once per namespace slot a setns,
 * unshare or clone changes. nsfd() and namespace:nsfd are pins_fd.bpf.c's,
 * namespace:ns_free lifecycle.bpf.c's.
 */

SEC("fentry/__x64_sys_setns")
int BPF_PROG(fentry_sys_setns, const struct pt_regs *regs)
{
	setns_enter((int)BPF_CORE_READ(regs, di), BPF_CORE_READ(regs, si),
		    NSAUDIT_PROBE_FEXIT_SYS_SETNS);
	return 0;
}

SEC("fexit/__x64_sys_setns")
int BPF_PROG(fexit_sys_setns, const struct pt_regs *regs, long ret)
{
	setns_exit(ret);
	return 0;
}

/*
 * The kernel names, per type, the namespace a setns() or unshare() leaves.
 * That goes into the call's pending record instead of a record of its own:
 * one call is one record per type (search and lifetime would count a second
 * one twice), and its old namespace is the kernel's, not a guess made at
 * entry (for time, the task's own time namespace, which after
 * unshare(CLONE_NEWTIME) without a fork differs from time_for_children).
 * The record's probe then names this hook. The new namespace is read at the
 * syscall's exit, where the task has it.
 */
static __always_inline int note_switch(__u32 op, unsigned int nstype, struct ns_common *old_ns,
				       __u32 probe)
{
	struct tstate *ts = tstate_pending(op);
	struct pending *p = ts ? &ts->p : NULL;
	__u32 type = clone_flag_to_type(nstype);

	if (!p || type >= NSAUDIT_NS_MAX || !old_ns)
		return 0;
	ns_ident(old_ns, &p->old_inum[type], &p->old_id[type]);
	p->nsmask |= 1u << type;
	p->probe = probe;
	return 0;
}

/* namespace:ns_change's causes (kernel-patch: include/linux/nsproxy.h) */
#define NS_CHANGE_CLONE 1
#define NS_CHANGE_UNSHARE 2
#define NS_CHANGE_SETNS 3

/*
 * namespace:ns_change (patched kernel): once per namespace slot of a task
 * that changes, with the cause, for setns, unshare and clone alike. setns
 * and unshare report into their pending call (for time, setns names the
 * task's own slot, unshare the one for children, the only one it changes);
 * clone makes the child's records here, as tp_fork does on stock kernels
 * (pid and time: the namespaces for children), which is then not loaded.
 */
SEC("tp_btf/ns_change")
int BPF_PROG(tp_ns_change, struct task_struct *tsk, unsigned int cause, unsigned int nstype,
	     bool for_children, struct ns_common *old_ns, struct ns_common *new_ns)
{
	bool per_children_type = nstype == CLONE_NEWPID || nstype == CLONE_NEWTIME;
	struct nsaudit_event *e;

	if (cause == NS_CHANGE_SETNS) {
		/*
		 * A setns's time record names the task's own namespace left.
		 * The event fires before the switch, so that is the task's
		 * time_ns now, also when only time_for_children changes
		 * (setns into the one it is in, after an unshare).
		 */
		if (nstype == CLONE_NEWTIME && for_children)
			old_ns = (struct ns_common *)&tsk->nsproxy->time_ns->ns;
		return note_switch(NSAUDIT_OP_SETNS, nstype, old_ns, NSAUDIT_PROBE_TP_NS_CHANGE);
	}
	if (cause == NS_CHANGE_UNSHARE)
		return note_switch(NSAUDIT_OP_UNSHARE, nstype, old_ns, NSAUDIT_PROBE_TP_NS_CHANGE);
	if (cause != NS_CHANGE_CLONE || per_children_type != for_children ||
	    !op_wanted(NSAUDIT_OP_CLONE))
		return 0;
	e = event_ns(NSAUDIT_OP_CLONE, NSAUDIT_PROBE_TP_NS_CHANGE, clone_flag_to_type(nstype),
		     new_ns, NSAUDIT_EVENT_SHORT, true);
	if (!e)
		return 0;	/* counted in lost_reason */
	e->target_pid = tsk->tgid;
	event_set_old(e, old_ns);
	if (for_children)
		e->flags |= NSAUDIT_F_FOR_CHILDREN;
	event_submit(e);
	return 0;
}

