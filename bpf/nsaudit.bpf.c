// SPDX-License-Identifier: GPL-2.0
/*
 * nsaudit.bpf.c - who pinned, entered or created which namespace.
 *
 * Stock-kernel hook set (works under lockdown=integrity, no fentry, no
 * kprobes): the per-syscall tracepoints of the syscalls that touch
 * namespaces, and raw_tp/sched_process_fork for clone with CLONE_NEW*.
 * The per-syscall tracepoints are preferred to raw sys_enter/sys_exit:
 * those fire on every syscall and tax unrelated work.
 *
 * Each observation becomes one struct nsaudit_event per namespace type.
 * Records are submitted without a wakeup; the consumer polls with a short
 * timeout and we force a wakeup only when the ring is filling up. Per-event
 * wakeups cost the traced task more than everything else here together.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "nsaudit.h"
#include "nsaudit_core.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Every loop here is short and fully unrolled (#pragma unroll): the 6.1
 * verifier rejects some loop shapes clang 14 emits ("back-edge from insn
 * X to Y") even for privileged loaders.
 */

#include "emit.bpf.h"
#include "pins.bpf.h"

/* ---- where an nsfs file came from -------------------------------------- */

/*
 * The origin of nsfs files made without open() (ioctl, pidfd_getfd, handle,
 * nsfd), keyed by the struct file: the origin travels with the file through
 * dup, fork, SCM_RIGHTS and pidfd_getfd, so a later setns names it. The
 * inode number is checked too: a freed file's address can come back.
 */
struct fd_origin {
	__u32 via;
	__u32 inum;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct fd_origin);
} fd_origins SEC(".maps");

static __always_inline void note_origin(struct file *file, __u32 via, __u32 inum)
{
	__u64 k = (__u64)file;
	struct fd_origin o = { .via = via, .inum = inum };

	bpf_map_update_elem(&fd_origins, &k, &o, BPF_ANY);
}

static __always_inline __u32 nsfs_file_via(struct file *file, __u32 inum)
{
	__u64 k = (__u64)file;
	struct fd_origin *o;

	if (file_is_bind_mount(file))
		return NSAUDIT_VIA_BIND;
	o = bpf_map_lookup_elem(&fd_origins, &k);
	if (o && o->inum == inum)
		return o->via;
	return NSAUDIT_VIA_PROC;
}

/*
 * The current task's file for fd, for the hot hooks (setns, and the open
 * hooks that run on every open on the machine): direct BTF loads down to
 * the fd table, one probe read for the slot (a variable index into it is
 * not a BTF access).
 */
static __always_inline struct file *cur_fd_file(int fd)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct fdtable *fdt = task->files->fdt;
	struct file **fda = fdt->fd;
	struct file *f = NULL;

	if ((unsigned int)fd >= fdt->max_fds)
		return NULL;
	bpf_probe_read_kernel(&f, sizeof(f), (void *)((unsigned long)fda + fd * sizeof(f)));
	return f;
}

/* ---- setns(fd, nstype), unshare(flags) ---------------------------------- */

/* Set by the loader: setns is traced by its exit tracepoint alone (stock
 * kernels); what a thread had before a setns must then be known without
 * looking before it (cache_fill, birth_ns). */
const volatile bool setns_exit_only = false;

/*
 * The namespace of type t the thread has now, from the cache when the
 * thread's nsproxy and user namespace are those of the last look.
 */
static __always_inline void cur_ns(struct tstate *ts, const struct task_nsset *set, int t,
				   __u32 *inum, __u64 *id)
{
	struct ns_common *ns;

	if (t < 0 || t >= NSAUDIT_NS_MAX)
		return;
	if (ts->c_valid & (1u << t)) {
		*inum = ts->cur_inum[t];
		*id = ts->cur_id[t];
		return;
	}
	ns = nsset_ns_btf(set, t);
	*inum = 0;
	*id = 0;
	if (ns)
		ns_ident_btf(ns, inum, id);
	ts->cur_inum[t] = *inum;
	ts->cur_id[t] = *id;
	ts->c_valid |= 1u << t;
}

/*
 * Load the thread's namespace set, and forget the cache unless its
 * nsproxy and user ns are those of the last look.
 */
static __always_inline void cache_check(struct tstate *ts, struct task_nsset *set)
{
	__u64 nsp, uns;

	task_nsset_btf(set, bpf_get_current_task_btf());
	nsp = (__u64)set->nsp;
	uns = (__u64)set->user;

	if (nsp != ts->c_nsproxy || uns != ts->c_userns) {
		ts->c_valid = 0;
		ts->c_nsproxy = nsp;
		ts->c_userns = uns;
	}
}

/*
 * The thread's namespace cache, filled whole from a namespace set (probe
 * reads: the set may be another task's). On a stock kernel setns has one
 * hook, at its exit, which takes the namespace the call left from this
 * cache: so it is filled for every thread at start (snapshot_tasks), and
 * again after a call that changed several types at once; a thread born
 * since has its birth_ns slot until its first change. A global
 * subprogram: verified once.
 */
__noinline int cache_fill(struct tstate *ts)
{
	struct task_nsset set;

	if (!ts)
		return 0;
	/* scalars here: a global subprogram takes no kernel pointer */
	set.nsp = (void *)ts->c_nsproxy;
	set.user = (void *)ts->c_userns;
	nsset_idents_as(&set, ts->cur_inum, ts->cur_id, false);
	ts->c_valid = (1u << NSAUDIT_NS_MAX) - 1;
	ts->c_changed = 1;
	return 0;
}

static __always_inline void cache_refill(struct tstate *ts, const struct task_nsset *set)
{
	ts->c_nsproxy = (__u64)set->nsp;
	ts->c_userns = (__u64)set->user;
	cache_fill(ts);
}

/* The same for a task the start-up snapshot visits (once per thread). */
static __always_inline void cache_fill_task(struct task_struct *task)
{
	struct task_nsset set;
	struct tstate *ts;

	if (!setns_exit_only || (filter_tgid && BPF_CORE_READ(task, tgid) != filter_tgid))
		return;
	ts = bpf_task_storage_get(&tstate, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (ts) {
		task_nsset(&set, task);
		cache_refill(ts, &set);
	}
}

/*
 * The namespaces each thread was born with, for the namespace a thread's
 * first setns leaves: until its first namespace change (which fills its
 * cache: c_changed) a thread is in these. Not task storage: making one for
 * every child at fork cost ~1.3 us per fork here (bpf_stats); a slot of a
 * table indexed by thread id costs a few stores. A slot is tagged with its
 * thread's id and start time, and "start" is 0 while it is written; a
 * thread whose slot a later one took (same low bits of the thread id)
 * gets records without the namespace it left, never a wrong one.
 */
#define BIRTH_SLOT_BITS 14

struct birth_ns {
	__u64 start; /* the thread's start_boottime; 0 while it is written */
	__u32 tid;
	__u32 inum[NSAUDIT_NS_MAX];
	__u64 id[NSAUDIT_NS_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1 << BIRTH_SLOT_BITS);
	__type(key, __u32);
	__type(value, struct birth_ns);
} birth SEC(".maps");

/* The slot of thread tid (another thread's, if a later one took it). */
static __always_inline struct birth_ns *birth_slot(__u32 tid)
{
	__u32 idx = tid & ((1 << BIRTH_SLOT_BITS) - 1);

	return bpf_map_lookup_elem(&birth, &idx);
}

/* The thread's cache from its birth slot, if the slot is still its own. */
static __always_inline void cache_from_birth(struct tstate *ts)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct birth_ns *b = birth_slot(tid);
	__u64 start;
	int t;

	if (!b)
		return;
	start = *(volatile __u64 *)&b->start;
	if (!start || start != task->start_boottime || b->tid != tid)
		return;
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		ts->cur_inum[t] = b->inum[t];
		ts->cur_id[t] = b->id[t];
	}
	if (*(volatile __u64 *)&b->start != start)
		return;	/* rewritten meanwhile: c_valid stays as it was */
	ts->c_valid = (1u << NSAUDIT_NS_MAX) - 1;
}

/* The thread changed namespaces and has no cache to say so (its task
 * storage could not be made): its birth slot must not speak for it. */
static __always_inline void birth_forget(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct birth_ns *b = birth_slot(tid);

	if (b && b->tid == tid)
		*(volatile __u64 *)&b->start = 0;
}

/* Remember the namespaces of the types in p->nsmask before the call
 * (a global subprogram: verified once). */
__noinline int pending_save_old(struct tstate *ts)
{
	struct task_nsset set;
	struct pending *p;
	int t;

	if (!ts)
		return 0;
	p = &ts->p;
	cache_check(ts, &set);
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		if (p->nsmask & (1u << t))
			cur_ns(ts, &set, t, &p->old_inum[t], &p->old_id[t]);
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
	} else if (file_is_nsfs(file)) {
		struct ns_common *ns = file_ns(file);

		p->target_type = ns_type(ns);
		ns_ident(ns, &p->target_inum, &p->target_id);
		p->target_ns = (__u64)ns;
		p->via = nsfs_file_via(file, p->target_inum);
		ts->c_file = (__u64)file;
		ts->c_inode = (__u64)inode;
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
	if (p->target_type < NSAUDIT_NS_MAX)
		p->nsmask = 1u << p->target_type;
}

/* The namespaces of the types in p->nsmask the thread has now: before the
 * call, or after one that failed. */
static __always_inline void setns_old_now(struct tstate *ts)
{
	struct pending *p = &ts->p;
	struct task_nsset set;
	__u32 t = p->target_type;

	if (t < NSAUDIT_NS_MAX) {
		t &= 7;
		cache_check(ts, &set);
		cur_ns(ts, &set, t, &p->old_inum[t], &p->old_id[t]);
	} else if (p->nsmask) {
		pending_save_old(ts);
	}
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

/* The key of the record of type t for the pending call p that returned ret. */
static __always_inline void switch_key(struct ev_key *k, struct pending *p, int t, long ret)
{
	key_init(k, p->op, p->probe);
	k->ns_type = t;
	k->result = ret;
	k->arg = p->arg;
	k->fd = p->fd;
	k->via = p->via;
	if (t < 0 || t >= NSAUDIT_NS_MAX)
		return;
	k->old_inum = p->old_inum[t];
	k->old_ns_id = p->old_id[t];
	if (k->old_inum)
		k->flags |= NSAUDIT_F_HAS_OLD;
	if (t == NSAUDIT_NS_PID || t == NSAUDIT_NS_TIME)
		k->flags |= NSAUDIT_F_FOR_CHILDREN;
}

/*
 * One record per namespace type the call was about: the namespace the task
 * has now (entered or created), and the one it had before. The slow path:
 * unshare, setns through a pidfd; setns of an nsfs fd takes setns_exit().
 */
__noinline int emit_switch(struct tstate *ts, long ret)
{
	struct task_nsset set;
	struct pending *p;
	struct ev_key k;
	int t;

	if (!ts)
		return 0;
	p = &ts->p;
	task_nsset_btf(&set, bpf_get_current_task_btf());
	if (!p->nsmask) {
		/* setns(-1, 0), a pidfd with flags 0, ...: the type is unknown */
		switch_key(&k, p, NSAUDIT_NS_UNKNOWN, ret);
		commit_key(ts, &k, 0);
		if (ret == 0)	/* something changed, we cannot say what */
			cache_refill(ts, &set);
		return 0;
	}
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		struct ns_common *ns;
		__u32 refs = 0;

		if (!(p->nsmask & (1u << t)) || !(type_mask & (1u << t)))
			continue;
		switch_key(&k, p, t, ret);
		if (ret == 0) {
			ns = nsset_ns_btf(&set, t);
			if (ns) {
				ns_ident_btf(ns, &k.ns_inum, &k.ns_id);
				refs = ns_refcount_btf(ns);
				k.flags |= NSAUDIT_F_HAS_NS;
			}
		}
		commit_key(ts, &k, refs);
	}
	/* the thread's namespaces changed: the cache is refilled whole */
	if (ret == 0)
		cache_refill(ts, &set);
	return 0;
}

/*
 * setns() has returned ret; ts->p has what the fd named and the
 * namespaces the thread had. Through an nsfs fd the entered namespace is
 * the fd's; anything else takes emit_switch().
 */
static __always_inline void setns_done(struct tstate *ts, long ret)
{
	struct pending *p = &ts->p;
	struct task_nsset set;
	struct ev_key k;
	__u32 refs = 0;
	int t = p->target_type;

	if (t >= NSAUDIT_NS_MAX) {
		emit_switch(ts, ret);
		p->op = NSAUDIT_OP_NONE;
		return;
	}
	t &= 7;
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
	if (!type_wanted(t)) {
		p->op = NSAUDIT_OP_NONE;
		return;
	}
	switch_key(&k, p, t, ret);
	p->op = NSAUDIT_OP_NONE;
	/* entered, or (failed) the one it tried to enter */
	k.ns_inum = p->target_inum;
	k.ns_id = p->target_id;
	k.flags |= NSAUDIT_F_HAS_NS;
	if (ret == 0) {
		if (coalesce && ts->held_state == HELD_IDLE && key_equal(HELD(ts), &k))
			refs = 0;	/* a repeat keeps the first call's count */
		else
			refs = ns_refcount((struct ns_common *)p->target_ns);
	}
	commit_key(ts, &k, refs);
}

/* setns() exit after an entry hook (fexit on the patched kernel). */
static __always_inline void setns_exit(long ret)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_SETNS);

	if (ts)
		setns_done(ts, ret);
}

/*
 * setns() on a stock kernel: one hook, at the exit. An entry hook would be
 * a second program run and a second task storage lookup on every call,
 * about half of what tracing setns cost. The arguments are still in the
 * saved user registers; what the fd names is read now (the fd outlives the
 * call: setns does not close it); what the thread had before is its cache,
 * which the start-up snapshot and every namespace change keep whole, or
 * before its first change its birth_ns slot. A thread with neither (its
 * storage could not be made, a later thread took its slot) gets records
 * without the namespace it left, never a wrong one.
 */
static __always_inline void setns_exit_alone(long ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs;
	struct pending *p;
	struct tstate *ts;
	__u64 fd, flags;
	int t;

	if (!op_wanted(NSAUDIT_OP_SETNS)) {
		/* not recorded, but the cache must not lie to a later look */
		ts = bpf_task_storage_get(&tstate, task, 0, 0);
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
	p = &ts->p;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	syscall_args2(regs, &fd, &flags);
	setns_target(ts, (int)fd, flags, NSAUDIT_PROBE_TP_SYSCALLS);
	if (ret != 0) {
		setns_old_now(ts);	/* nothing changed */
	} else {
		/* no change since its birth: what it was born with */
		if (!ts->c_changed && ts->c_valid != (1u << NSAUDIT_NS_MAX) - 1)
			cache_from_birth(ts);
		#pragma unroll
		for (t = 0; t < NSAUDIT_NS_MAX; t++) {
			if (!(p->nsmask & (1u << t)))
				continue;
			if (ts->c_valid & (1u << t)) {
				p->old_inum[t] = ts->cur_inum[t];
				p->old_id[t] = ts->cur_id[t];
			} else {
				p->old_inum[t] = 0;
				p->old_id[t] = 0;
			}
		}
	}
	setns_done(ts, ret);
}

/* Attached only where the kernel's namespace:ns_change tracepoint
 * reports into the pending call (patched kernel without fentry). */
SEC("tracepoint/syscalls/sys_enter_setns")
int tp_enter_setns(struct trace_event_raw_sys_enter *ctx)
{
	setns_enter((int)ctx->args[0], ctx->args[1], NSAUDIT_PROBE_TP_SYSCALLS);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_setns")
int tp_exit_setns(struct trace_event_raw_sys_exit *ctx)
{
	if (setns_exit_only)
		setns_exit_alone(ctx->ret);
	else
		setns_exit(ctx->ret);
	return 0;
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
	ts->p.op = NSAUDIT_OP_UNSHARE;
	ts->p.probe = NSAUDIT_PROBE_TP_SYSCALLS;
	ts->p.nsmask = mask;
	ts->p.arg = flags;
	ts->p.fd = -1;
	ts->p.via = NSAUDIT_VIA_NONE;
	pending_save_old(ts);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_unshare")
int tp_exit_unshare(struct trace_event_raw_sys_exit *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct tstate *ts = bpf_task_storage_get(&tstate, task, 0, 0);
	struct task_nsset set;

	if (!ts || ts->p.op != NSAUDIT_OP_UNSHARE) {
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
 * reports failures only, one record per requested type.
 */
static __always_inline void clone_enter(__u64 flags)
{
	__u32 mask = clone_flags_to_mask(flags);
	struct tstate *ts;

	if (!mask || !op_wanted(NSAUDIT_OP_CLONE))
		return;
	ts = tstate_get(NSAUDIT_OP_CLONE);
	if (!ts)
		return;
	ts->p.op = NSAUDIT_OP_CLONE;
	ts->p.probe = NSAUDIT_PROBE_TP_SYSCALLS;
	ts->p.nsmask = mask;
	ts->p.arg = flags;
	ts->p.fd = -1;
	ts->p.via = NSAUDIT_VIA_NONE;
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
		if (t == NSAUDIT_NS_PID || t == NSAUDIT_NS_TIME)
			k.flags |= NSAUDIT_F_FOR_CHILDREN;
		commit_key(ts, &k, 0);
	}
	return 0;
}

static __always_inline void clone_exit(long ret)
{
	struct tstate *ts;

	if (ret == 0)		/* the child */
		return;
	ts = tstate_pending(NSAUDIT_OP_CLONE);
	if (!ts)
		return;
	ts->p.op = NSAUDIT_OP_NONE;
	if (ret < 0)		/* the parent: sched_process_fork reported it */
		clone_failed(ts, ret);
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
	clone_exit(ctx->ret);
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
	clone_exit(ctx->ret);
	return 0;
}

/* ---- nsfs fds made without open() --------------------------------------- */

#define NS_IOC_TYPE		0xb7
#define PIDFD_IOC_TYPE		0xff
#define NR_NS_GET_USERNS	1
#define NR_NS_GET_PARENT	2
#define NR_NS_GET_OWNER_UID	4
#define NR_NS_MNT_GET_NEXT	11
#define NR_NS_MNT_GET_PREV	12
#define NR_PIDFD_GET_NS_FIRST	1	/* PIDFD_GET_CGROUP_NAMESPACE */
#define NR_PIDFD_GET_NS_LAST	10	/* PIDFD_GET_UTS_NAMESPACE */

/* The NS_GET_* commands that make an nsfs fd (op nsfd). */
static __always_inline bool ns_ioctl_makes_fd(__u32 nr)
{
	return nr == NR_NS_GET_USERNS || nr == NR_NS_GET_PARENT || nr == NR_NS_MNT_GET_NEXT ||
	       nr == NR_NS_MNT_GET_PREV;
}

#include "attempts.bpf.h"

/*
 * An nsfs fd the current syscall returned: a record (op nsfd, via how) and
 * its origin remembered for a later setns. Coalesced (a loop of ioctl +
 * close makes the same record again and again); ts may be NULL.
 */
static __always_inline void nsfs_fd_made(struct tstate *ts, long fd, __u32 via, __u64 arg,
					 __s32 target_pid)
{
	struct ns_common *ns;
	struct file *file;
	struct ev_key k;
	__u32 type;

	if (fd < 0)
		return;
	file = cur_fd_file(fd);
	if (!file || !file_is_nsfs(file))
		return;
	ns = file_ns(file);
	key_init(&k, NSAUDIT_OP_NSFD, NSAUDIT_PROBE_TP_SYSCALLS);
	ns_ident(ns, &k.ns_inum, &k.ns_id);
	note_origin(file, via, k.ns_inum);
	type = ns_type(ns);
	if (!op_wanted(NSAUDIT_OP_NSFD) || !type_wanted(type))
		return;
	k.ns_type = type;
	k.flags |= NSAUDIT_F_HAS_NS;
	k.fd = fd;
	k.via = via;
	k.arg = arg;
	k.target_pid = target_pid;
	commit_key(ts, &k, ns_refcount(ns));
}

/*
 * ioctl() fires for every ioctl on the machine: one mask and one compare on
 * the cmd's type byte lets through only nsfs (0xb7) and pidfd (0xff)
 * commands (and a few other types sharing those bits, dropped at exit).
 */
SEC("tracepoint/syscalls/sys_enter_ioctl")
int tp_enter_ioctl(struct trace_event_raw_sys_enter *ctx)
{
	__u32 cmd = ctx->args[1];
	__u32 nr = cmd & 0xff, type = (cmd >> 8) & 0xff;
	struct tstate *ts;
	struct file *file;

	if ((type & 0xb7) != 0xb7)
		return 0;
	if (type == NS_IOC_TYPE) {
		/* the fd makers and OWNER_UID always; other NS_GET_* (queries)
		 * are recorded when they fail (attempts.bpf.h) */
		if (!op_wanted(ns_ioctl_makes_fd(nr) ? NSAUDIT_OP_NSFD : NSAUDIT_OP_QUERY))
			return 0;
	} else if (type == PIDFD_IOC_TYPE) {
		if (nr < NR_PIDFD_GET_NS_FIRST || nr > NR_PIDFD_GET_NS_LAST ||
		    !op_wanted(NSAUDIT_OP_NSFD))
			return 0;
	} else {
		return 0;
	}
	ts = tstate_get(NSAUDIT_OP_NSFD);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_NSFD;
	ts->p.arg = cmd;
	ts->p.fd = ctx->args[0];
	ts->p.args[0] = 0;
	ts->p.args[1] = ctx->args[2];	/* NS_GET_OWNER_UID: where the uid goes */
	ts->p.via = NSAUDIT_VIA_NONE;
	ts->p.target_inum = 0;
	ts->p.target_id = 0;
	ts->p.target_type = NSAUDIT_NS_UNKNOWN;
	file = cur_fd_file(ts->p.fd);
	if (!file)
		return 0;
	if (type == PIDFD_IOC_TYPE) {
		ts->p.args[0] = pidfd_tgid(file);	/* whose namespace */
	} else if (file_is_nsfs(file)) {
		struct ns_common *ns = file_ns(file);

		ts->p.target_type = ns_type(ns);
		ns_ident(ns, &ts->p.target_inum, &ts->p.target_id);
		ts->p.target_ns = (__u64)ns;
	}
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_ioctl")
int tp_exit_ioctl(struct trace_event_raw_sys_exit *ctx)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_NSFD);
	__u32 cmd, nr, via;
	struct ev_key k;

	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_NONE;
	cmd = ts->p.arg;
	nr = cmd & 0xff;
	if (((cmd >> 8) & 0xff) == NS_IOC_TYPE && !ns_ioctl_makes_fd(nr)) {
		/* no fd: who asked about which namespace (OWNER_UID always,
		 * other queries of an nsfs file when they failed) */
		if (!type_wanted(ts->p.target_type) ||
		    (nr != NR_NS_GET_OWNER_UID && (ctx->ret >= 0 || !ts->p.target_inum)))
			return 0;
		key_init(&k, NSAUDIT_OP_QUERY, NSAUDIT_PROBE_TP_SYSCALLS);
		k.ns_type = ts->p.target_type;
		k.result = ctx->ret;
		k.arg = cmd;
		k.fd = ts->p.fd;
		if (ts->p.target_inum) {
			k.ns_inum = ts->p.target_inum;
			k.ns_id = ts->p.target_id;
			k.flags |= NSAUDIT_F_HAS_NS;
		}
		/* the answer: the owner's uid, as the caller received it */
		if (ctx->ret == 0) {
			__u32 uid = 0;

			if (!bpf_probe_read_user(&uid, sizeof(uid), (void *)ts->p.args[1]))
				k.target_pid = (__s32)uid;
			k.flags |= NSAUDIT_F_OWNER_UID;
		}
		commit_key(ts, &k, 0);
		return 0;
	}
	via = ((cmd >> 8) & 0xff) == PIDFD_IOC_TYPE ? NSAUDIT_VIA_PIDFD : NSAUDIT_VIA_NS_IOCTL;
	if (via == NSAUDIT_VIA_PIDFD && pidfd_ioctl_tp) {
		/* the patched kernel's tp_btf/nsfd records it: note the origin only */
		if (ctx->ret >= 0) {
			struct file *file = cur_fd_file(ctx->ret);

			if (file && file_is_nsfs(file))
				note_origin(file, via, BPF_CORE_READ(file, f_inode, i_ino));
		}
		return 0;
	}
	if (ctx->ret < 0) {
		/* refused (EPERM for a parent out of reach, ...): who tried */
		if (!type_wanted(ts->p.target_type))
			return 0;
		key_init(&k, NSAUDIT_OP_NSFD, NSAUDIT_PROBE_TP_SYSCALLS);
		k.result = ctx->ret;
		k.arg = cmd;
		k.via = via;
		k.target_pid = ts->p.args[0];
		k.fd = ts->p.fd;
		/* the namespace asked about, or the type asked for */
		if (via == NSAUDIT_VIA_PIDFD) {
			k.ns_type = pidfd_ioctl_type(nr);
		} else if (ts->p.target_inum) {
			k.ns_type = ts->p.target_type;
			k.ns_inum = ts->p.target_inum;
			k.ns_id = ts->p.target_id;
			k.flags |= NSAUDIT_F_HAS_NS;
		}
		if (!type_wanted(k.ns_type))
			return 0;
		commit_key(ts, &k, 0);
		return 0;
	}
	nsfs_fd_made(ts, ctx->ret, via, cmd, ts->p.args[0]);
	return 0;
}

/* pidfd_getfd(pidfd, targetfd, flags): a copy of another process's fd. */
SEC("tracepoint/syscalls/sys_enter_pidfd_getfd")
int tp_enter_pidfd_getfd(struct trace_event_raw_sys_enter *ctx)
{
	struct tstate *ts;
	struct file *file;

	if (!op_wanted(NSAUDIT_OP_NSFD))
		return 0;
	ts = tstate_get(NSAUDIT_OP_NSFD);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_NONE;
	file = cur_fd_file(ctx->args[0]);
	if (!file)
		return 0;
	ts->p.op = NSAUDIT_OP_NSFD;
	ts->p.via = NSAUDIT_VIA_PIDFD_GETFD;
	ts->p.arg = ctx->args[1];	/* the fd number in the other process */
	ts->p.args[0] = pidfd_tgid(file);
	getfd_target(ts, file, ctx->args[1]);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_pidfd_getfd")
int tp_exit_pidfd_getfd(struct trace_event_raw_sys_exit *ctx)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_NSFD);

	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_NONE;
	if (ctx->ret < 0)
		getfd_failed(ts, ctx->ret);
	else
		nsfs_fd_made(ts, ctx->ret, NSAUDIT_VIA_PIDFD_GETFD, ts->p.arg, ts->p.args[0]);
	return 0;
}

/* open_by_handle_at() of an nsfs file handle (6.18+): no path, no args needed. */
SEC("tracepoint/syscalls/sys_exit_open_by_handle_at")
int tp_exit_open_by_handle_at(struct trace_event_raw_sys_exit *ctx)
{
	handle_exit(ctx->ret);
	if (ctx->ret < 0 || !op_wanted(NSAUDIT_OP_NSFD))
		return 0;
	nsfs_fd_made(bpf_task_storage_get(&tstate, bpf_get_current_task_btf(), 0,
					  BPF_LOCAL_STORAGE_GET_F_CREATE),
		     ctx->ret, NSAUDIT_VIA_HANDLE, 0, 0);
	return 0;
}

/* ---- exec: the path behind each executable's identity ----------------- */

/*
 * Records carry only the identity of the actor's executable (a few loads);
 * user space turns it into a path through this map. Reading /proc/PID/exe
 * when the record is read would fail for the short-lived (ip netns add has
 * exited by then) and name the wrong program once the process has exec'd
 * (unshare CMD). LRU: a busy machine's executables, not its exec count.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);			/* a record's exe_key */
	__type(value, struct nsaudit_exe_hist);
} exe_paths SEC(".maps");

#include "exe_path.bpf.h"

/* The first 8 bytes of s as one word: prefix tests without a loop. */
static __always_inline __u64 word8(const char *s)
{
	__u64 w;

	__builtin_memcpy(&w, s, sizeof(w));
	return w;
}

/*
 * Every exec, always (not only when a record is wanted): the process may
 * make its namespace calls long after. Keyed by the exec (exe_key), not by
 * the file: a busybox binary run as sh, sleep and nsenter has one inode and
 * three paths, and a record must name its own process's.
 */
SEC("raw_tp/sched_process_exec")
int BPF_PROG(tp_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct nsaudit_exe_hist *old;
	struct nsaudit_exe_info *v;
	struct exe_walk_buf *w;
	struct ns_common *mnt;
	__u32 zero = 0;
	__u64 k;

	k = exe_key_of((__u64)BPF_CORE_READ(p, mm, exe_file));
	w = bpf_map_lookup_elem(&exe_walk, &zero);
	if (!k || !w)
		return 0;
	/* the exec this key named until now stays, as the previous one */
	old = bpf_map_lookup_elem(&exe_paths, &k);
	if (old)
		bpf_probe_read_kernel(&w->hist.prev, sizeof(w->hist.prev), &old->cur);
	else
		__builtin_memset(&w->hist.prev, 0, sizeof(w->hist.prev));
	v = &w->hist.cur;
	v->ino = BPF_CORE_READ(bprm, file, f_inode, i_ino);
	v->exec_ns = bpf_ktime_get_boot_ns();
	v->mntns = 0;
	v->mntns_id = 0;
	v->path[0] = '\0';
	/* interp: the file finally run (a script's interpreter, not the script) */
	bpf_probe_read_kernel_str(v->path, sizeof(v->path), BPF_CORE_READ(bprm, interp));
	/* relative names, fexecve's /dev/fd/N and busybox's /proc/self/exe
	 * say nothing: the file's own path, from its dentries (else none:
	 * the entry is written anyway, an older one for the key is stale) */
	if ((v->path[0] != '/' || word8(v->path) == word8("/dev/fd/") ||
	     (word8(v->path) & 0xffffffffffffULL) == (word8("/proc/..") & 0xffffffffffffULL)) &&
	    !exe_path_walk(BPF_CORE_READ(bprm, file), v->path))
		v->path[0] = '\0';
	/* the path is relative to the exec'ing thread's mount namespace */
	mnt = task_ns(p, NSAUDIT_NS_MNT);
	if (mnt)
		ns_ident(mnt, &v->mntns, &v->mntns_id);
	bpf_map_update_elem(&exe_paths, &k, &w->hist, BPF_ANY);
	return 0;
}

/* ---- clone/clone3/fork with CLONE_NEW*: the child has other namespaces -- */

/*
 * One type of a clone: a record if the child has another namespace of it.
 * A global subprogram (verified once); the tasks come as plain numbers,
 * since 6.1 takes no struct task_struct pointer into one.
 */
__noinline int fork_type(__u64 parent_addr, __u64 child_addr, int t)
{
	struct task_struct *parent = (void *)parent_addr, *child = (void *)child_addr;
	struct ns_common *old_ns, *new_ns;
	struct nsaudit_event *e;

	if (t < 0 || t >= NSAUDIT_NS_MAX)
		return 0;
	old_ns = task_ns(parent, t);
	new_ns = task_ns(child, t);
	if (old_ns == new_ns || !new_ns)
		return 0;
	e = event_ns(NSAUDIT_OP_CLONE, NSAUDIT_PROBE_RAW_TP_FORK, t, new_ns, NSAUDIT_EVENT_SHORT,
		     true);
	if (!e)
		return 0;	/* counted in lost_reason */
	e->target_pid = BPF_CORE_READ(child, tgid);
	event_set_old(e, old_ns);
	if (t == NSAUDIT_NS_PID || t == NSAUDIT_NS_TIME)
		e->flags |= NSAUDIT_F_FOR_CHILDREN;
	event_submit(e);
	return 0;
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(tp_fork, struct task_struct *parent, struct task_struct *child)
{
	int t;

	/* the common case, no new namespace: same nsproxy, same user ns */
	if (BPF_CORE_READ(parent, nsproxy) == BPF_CORE_READ(child, nsproxy) &&
	    BPF_CORE_READ(parent, cred, user_ns) == BPF_CORE_READ(child, cred, user_ns))
		return 0;
	for (t = 0; t < NSAUDIT_NS_MAX; t++)
		fork_type((__u64)parent, (__u64)child, t);
	return 0;
}

/*
 * A child's birth_ns slot, for setns' exit hook (the child's typed task
 * pointer of tp_btf: the raw_tp above has plain numbers).
 */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(tp_fork_birth, struct task_struct *parent, struct task_struct *child)
{
	struct task_nsset set;
	struct birth_ns *b;
	__u32 tid;

	if (!setns_exit_only)
		return 0;
	tid = child->pid;
	if (filter_tgid && child->tgid != filter_tgid)
		return 0;
	b = birth_slot(tid);
	if (!b)
		return 0;
	*(volatile __u64 *)&b->start = 0;
	b->tid = tid;
	task_nsset_btf(&set, child);
	nsset_idents_as(&set, b->inum, b->id, true);
	*(volatile __u64 *)&b->start = child->start_boottime;
	return 0;
}

/* A thread's held (coalesced) record goes out before the thread does. */
SEC("raw_tp/sched_process_exit")
int BPF_PROG(tp_exit_flush, struct task_struct *p)
{
	held_flush_current();
	return 0;
}

/*
 * The reader's timer: one pass over every thread sends the held records of
 * threads that went quiet (a coalesced record must not wait for the next
 * call of its thread). Run by bpf_iter_create() + read() every few polls.
 */
SEC("iter/task")
int flush_held(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;

	if (!task)
		return 0;
	held_flush_task(task);
	return 0;
}

/* ---- pins by fd: an open() that returned an nsfs file -------------------- */

/*
 * Opens are traced at their exit alone: every open on the machine runs
 * these programs, and nearly none returns an nsfs file, so the common case
 * is one fd lookup and one compare, with no entry program at all. The path
 * is needed only in the rare case (an nsfs file, or a refused open): then
 * it is taken from the user registers the syscall's entry saved
 * (bpf_task_pt_regs(), libbpf's per-architecture syscall argument macros).
 * ARG is the path's argument: 0 for open(), 1 for openat() and openat2().
 */
static __always_inline const char *open_path_arg(int arg)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	__u64 a0, a1;

	syscall_args2(regs, &a0, &a1);
	return (const char *)(arg ? a1 : a0);
}

/*
 * The path of the open being exited, zero-padded (so that two records'
 * paths compare word by word), in this CPU's scratch; NULL only if the
 * scratch is missing. An unreadable path is an empty one.
 */
static __always_inline const struct path_buf *open_path_read(const char *upath)
{
	__u32 zero = 0;
	struct path_buf *pb = bpf_map_lookup_elem(&path_scratch, &zero);
	int i;

	if (!pb)
		return NULL;
#pragma unroll
	for (i = 0; i < NSAUDIT_PATH_LEN / 8; i++)
		pb->w[i] = 0;
	if (upath)
		bpf_probe_read_user_str(pb, sizeof(*pb), upath);
	return pb;
}

#define NSAUDIT_EPERM	1
#define NSAUDIT_EACCES	13
/* "/proc/" + "4194304/task/4194304" + "/ns/": where "/ns/" can start */
#define PROC_NS_SCAN	32

/*
 * An open of /proc/PID/ns/TYPE refused by the access check (EACCES, EPERM)
 * pinned nothing, but someone tried to: report it with the path, and user
 * space names the type and target. Only refused opens get here, so every
 * other failing open on the machine still costs one compare.
 */
static __always_inline void handle_open_denied(long ret, int arg)
{
	const char *upath = open_path_arg(arg);
	char head[PROC_NS_SCAN + 4] = {};
	struct ev_key k;
	bool ns_dir = false;
	int i;

	if (!upath || !op_wanted(NSAUDIT_OP_OPEN))
		return;
	if (bpf_probe_read_user_str(head, sizeof(head), upath) < 8 ||
	    (word8(head) & 0xffffffffffffULL) != (word8("/proc/..") & 0xffffffffffffULL))
		return;
	#pragma unroll
	for (i = 6; i < PROC_NS_SCAN; i++)
		if (head[i] == '/' && head[i + 1] == 'n' && head[i + 2] == 's' && head[i + 3] == '/')
			ns_dir = true;
	if (!ns_dir)
		return;
	key_init(&k, NSAUDIT_OP_OPEN, NSAUDIT_PROBE_TP_SYSCALLS);
	k.result = ret;
	k.via = NSAUDIT_VIA_PROC;
	commit_path(&k, 0, open_path_read(upath));
}

/*
 * The exit decides: the new fd tells whether an nsfs file was opened (rare),
 * and only then is the path read.
 */
static __always_inline int handle_open_exit(long ret, int arg)
{
	struct ns_common *ns;
	struct file *file;
	struct ev_key k;
	__u32 type;

	if (ret < 0) {
		if (ret == -NSAUDIT_EACCES || ret == -NSAUDIT_EPERM)
			handle_open_denied(ret, arg);
		return 0;
	}
	file = cur_fd_file(ret);
	if (!file || !file_is_nsfs(file))
		return 0;
	ns = file_ns(file);
	type = ns_type(ns);
	if (!op_wanted(NSAUDIT_OP_OPEN) || !type_wanted(type))
		return 0;
	key_init(&k, NSAUDIT_OP_OPEN, NSAUDIT_PROBE_TP_SYSCALLS);
	k.ns_type = type;
	ns_ident(ns, &k.ns_inum, &k.ns_id);
	k.flags |= NSAUDIT_F_HAS_NS;
	k.fd = ret;
	k.via = file_is_bind_mount(file) ? NSAUDIT_VIA_BIND : NSAUDIT_VIA_PROC;
	commit_path(&k, ns_refcount(ns), open_path_read(open_path_arg(arg)));
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_openat")
int tp_exit_openat(struct trace_event_raw_sys_exit *ctx)
{
	return handle_open_exit(ctx->ret, 1);
}

SEC("tracepoint/syscalls/sys_exit_open")
int tp_exit_open(struct trace_event_raw_sys_exit *ctx)
{
	return handle_open_exit(ctx->ret, 0);
}

SEC("tracepoint/syscalls/sys_exit_openat2")
int tp_exit_openat2(struct trace_event_raw_sys_exit *ctx)
{
	return handle_open_exit(ctx->ret, 1);
}

/* ---- pins by bind mount ------------------------------------------------ */

#define SRC_LEN 64

static __always_inline bool str_at(const char *b, int off, const char *lit, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (b[(off + i) & (SRC_LEN - 1)] != lit[i])
			return false;
	return true;
}

/* Decimal at b[off], up to a '/' or NUL; -1 if none. *end: after it. */
static __always_inline long num_at(const char *b, int off, int *end)
{
	long v = 0;
	int i;

	#pragma unroll
	for (i = 0; i < 10; i++) {
		char c = b[(off + i) & (SRC_LEN - 1)];

		if (c < '0' || c > '9')
			break;
		v = v * 10 + (c - '0');
	}
	*end = off + i;
	return i ? v : -1;
}

/*
 * The namespace a bind-mount source names, when the caller names its own:
 * /proc/self/ns/TYPE, /proc/thread-self/ns/TYPE, /proc/<own pid>/ns/TYPE,
 * or /proc/self/fd/N of an nsfs fd (the RFC's "mount --bind /proc/self/fd/N").
 * That is what "ip netns add" does; other sources are resolved by user space
 * through mountinfo.
 */
static __always_inline struct ns_common *mount_source_ns(struct task_struct *task,
							  const char *b)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct file *file;
	int off, end;
	long v;

	if (!str_at(b, 0, "/proc/", 6))
		return NULL;
	if (str_at(b, 6, "self/", 5)) {
		off = 11;
	} else if (str_at(b, 6, "thread-self/", 12)) {
		off = 18;
	} else {
		v = num_at(b, 6, &end);
		if (v != tgid || b[end & (SRC_LEN - 1)] != '/')
			return NULL;
		off = end + 1;
	}
	if (str_at(b, off, "fd/", 3)) {
		v = num_at(b, off + 3, &end);
		file = v >= 0 ? task_fd_file(task, v) : NULL;
		return file && file_is_nsfs(file) ? file_ns(file) : NULL;
	}
	if (!str_at(b, off, "ns/", 3))
		return NULL;
	off += 3;
	if (str_at(b, off, "net", 4))
		return task_ns(task, NSAUDIT_NS_NET);
	if (str_at(b, off, "uts", 4))
		return task_ns(task, NSAUDIT_NS_UTS);
	if (str_at(b, off, "ipc", 4))
		return task_ns(task, NSAUDIT_NS_IPC);
	if (str_at(b, off, "mnt", 4))
		return task_ns(task, NSAUDIT_NS_MNT);
	if (str_at(b, off, "user", 5))
		return task_ns(task, NSAUDIT_NS_USER);
	if (str_at(b, off, "cgroup", 7))
		return task_ns(task, NSAUDIT_NS_CGROUP);
	if (str_at(b, off, "pid_for_children", 17))
		return task_ns(task, NSAUDIT_NS_PID);
	if (str_at(b, off, "time_for_children", 18))
		return task_ns(task, NSAUDIT_NS_TIME);
	return NULL;	/* pid, time: the active ones, left to user space */
}

/*
 * mount(2): MS_BIND (a new bind; an nsfs source pins) and MS_MOVE (a
 * mount moves: a pin there moves with it). MS_BIND|MS_REMOUNT changes the
 * flags of a mount that exists and pins nothing: not recorded. The source
 * is resolved at entry while it still means what the caller meant; the
 * record goes at exit with both paths (captured at entry). Sources this
 * cannot resolve go to user space with no namespace, which looks the target
 * up in mountinfo (keyed by the actor's mount namespace, mnt_ns_inum) and
 * drops binds of ordinary files.
 */
SEC("tracepoint/syscalls/sys_enter_mount")
int tp_enter_mount(struct trace_event_raw_sys_enter *ctx)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	__u64 flags = ctx->args[3];
	struct ns_common *ns;
	char src[SRC_LEN] = {};
	struct tstate *ts;

	if (!(flags & (MS_BIND | MS_MOVE)) || (flags & MS_REMOUNT) ||
	    !op_wanted(NSAUDIT_OP_MOUNT))
		return 0;
	ts = tstate_get(NSAUDIT_OP_MOUNT);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_MOUNT;
	ts->p.probe = NSAUDIT_PROBE_TP_SYSCALLS;
	ts->p.arg = flags;
	ts->p.fd = -1;
	ts->p.args[0] = ctx->args[0];	/* source */
	ts->p.args[1] = ctx->args[1];	/* target */
	ts->p.target_inum = 0;
	ts->p.target_type = NSAUDIT_NS_UNKNOWN;
	if (flags & MS_MOVE)
		return 0;
	/* the exit finds the new mount: the newest, if not this one */
	ts->p.args[2] = mntns_newest_mark();
	bpf_probe_read_user_str(src, sizeof(src), (void *)ctx->args[0]);
	ns = mount_source_ns(task, src);
	if (ns) {
		ts->p.target_type = ns_type(ns);
		ns_ident(ns, &ts->p.target_inum, &ts->p.target_id);
	}
	return 0;
}

/* The caller's mount namespace: the key of user space's mount table. */
static __always_inline __u32 cur_mnt_ns_inum(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct ns_common *ns = task_ns_btf(task, NSAUDIT_NS_MNT);

	return ns ? ns->inum : 0;
}

SEC("tracepoint/syscalls/sys_exit_mount")
int tp_exit_mount(struct trace_event_raw_sys_exit *ctx)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_MOUNT);
	struct nsaudit_event *e;
	struct nsaudit_pin pin;
	bool found = false;

	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_NONE;
	if (ctx->ret != 0)
		return 0;
	/* a new bind: the mount tree says what it pins, exactly (a recursive
	 * one where its top mount can be told: new_mount_pin) */
	if (!(ts->p.arg & MS_MOVE))
		found = new_mount_pin(ts->p.args[2], ts->p.arg & MS_REC, &pin);
	if (found && !pin.ns_inum)
		return 0;	/* an ordinary bind mount: no pin */
	if (found)
		ts->p.target_type = pin.ns_type;
	if (!type_wanted(ts->p.target_type))
		return 0;
	e = event_reserve(NSAUDIT_OP_MOUNT, NSAUDIT_PROBE_TP_SYSCALLS, sizeof(*e), true);
	if (!e)
		return 0;
	e->arg = ts->p.arg;
	if (ts->p.arg & MS_MOVE)
		e->flags |= NSAUDIT_F_MOVE;
	if (found) {
		event_set_pin(e, &pin);
	} else if (ts->p.target_inum) {
		e->ns_type = ts->p.target_type;
		e->ns_inum = ts->p.target_inum;
		e->ns_id = ts->p.target_id;
		e->flags |= NSAUDIT_F_HAS_NS;
	}
	e->mnt_ns_inum = cur_mnt_ns_inum();
	bpf_probe_read_user_str(e->path, sizeof(e->path), (void *)ts->p.args[1]);
	bpf_probe_read_user_str(e->src_path, sizeof(e->src_path), (void *)ts->p.args[0]);
	event_submit(e);
	return 0;
}

#define MOVE_MOUNT_F_EMPTY_PATH 0x04

/*
 * The new mount API: move_mount(from_dfd, from_path, to_dfd, to_path,
 * flags), arguments captured at entry. An open_tree(OPEN_TREE_CLONE) copy
 * of an nsfs file (its mount in an anonymous namespace) attached somewhere
 * is a new pin; a mount already attached that moves (by fd or by path) is
 * NSAUDIT_F_MOVE. Moves of other mounts go to user space too (it keeps the
 * nsfs mount table and drops the rest).
 */
SEC("tracepoint/syscalls/sys_enter_move_mount")
int tp_enter_move_mount(struct trace_event_raw_sys_enter *ctx)
{
	struct tstate *ts;

	if (!op_wanted(NSAUDIT_OP_MOUNT))
		return 0;
	ts = tstate_get(NSAUDIT_OP_MOUNT);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_MOUNT;
	ts->p.fd = ctx->args[0];		/* from_dfd */
	ts->p.args[0] = ctx->args[1];		/* from_path */
	ts->p.args[1] = ctx->args[3];		/* to_path */
	ts->p.arg = ctx->args[4];		/* flags */
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_move_mount")
int tp_exit_move_mount(struct trace_event_raw_sys_exit *ctx)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_MOUNT);
	struct nsaudit_event *e;
	struct ns_common *ns = NULL;
	struct file *file = NULL;
	bool anon = false, by_fd, pinned = false;
	__u32 type = NSAUDIT_NS_UNKNOWN;
	struct nsaudit_pin pin;

	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_NONE;
	if (ctx->ret != 0)
		return 0;
	by_fd = ts->p.arg & MOVE_MOUNT_F_EMPTY_PATH;
	if (by_fd) {
		file = cur_fd_file(ts->p.fd);
		if (file && file_is_nsfs(file)) {
			ns = file_ns(file);
			type = ns_type(ns);
			file_mnt_ns(file, &anon);
			/* the fd's own mount is the one now attached */
			pinned = pin_note(file_mount(file), &pin);
		}
	}
	if (!type_wanted(type))
		return 0;
	e = event_reserve(NSAUDIT_OP_MOUNT, NSAUDIT_PROBE_TP_SYSCALLS, sizeof(*e), true);
	if (!e)
		return 0;
	e->ns_type = type;
	event_set_ns(e, ns);
	if (pinned)
		event_set_pin(e, &pin);
	e->flags |= NSAUDIT_F_NEW_MOUNT_API;
	if (!(ns && anon))
		e->flags |= NSAUDIT_F_MOVE;	/* not a fresh clone: it moves */
	e->fd = by_fd ? ts->p.fd : -1;
	e->arg = ts->p.arg;
	e->mnt_ns_inum = cur_mnt_ns_inum();
	bpf_probe_read_user_str(e->path, sizeof(e->path), (void *)ts->p.args[1]);
	if (!by_fd)
		bpf_probe_read_user_str(e->src_path, sizeof(e->src_path), (void *)ts->p.args[0]);
	event_submit(e);
	return 0;
}

/*
 * umount2(target, flags): the pins the call detached are found by mount
 * identity in the kernel side's pin table (pins.bpf.h), whatever spelling
 * the target had: one record each. An umount that detached no known pin
 * goes to user space as before (pins that predate the tracer are known
 * there only, by path).
 */
SEC("tracepoint/syscalls/sys_enter_umount")
int tp_enter_umount(struct trace_event_raw_sys_enter *ctx)
{
	struct tstate *ts;

	if (!op_wanted(NSAUDIT_OP_UMOUNT))
		return 0;
	ts = tstate_get(NSAUDIT_OP_UMOUNT);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_UMOUNT;
	ts->p.args[0] = ctx->args[0];
	ts->p.arg = ctx->args[1];
	/* before it detaches anything: the sweep leaves its pins to its exit */
	ts->p.args[2] = umount_inflight_enter((__u64)cur_mntns());
	return 0;
}

static __always_inline void umount_record(struct tstate *ts, const struct nsaudit_pin *pin)
{
	struct nsaudit_event *e;

	if (pin && !type_wanted(pin->ns_type))
		return;
	e = event_reserve(NSAUDIT_OP_UMOUNT, NSAUDIT_PROBE_TP_SYSCALLS, sizeof(*e), true);
	if (!e)
		return;
	e->arg = ts->p.arg;
	e->mnt_ns_inum = cur_mnt_ns_inum();
	if (pin)
		event_set_pin(e, pin);
	bpf_probe_read_user_str(e->path, sizeof(e->path), (void *)ts->p.args[0]);
	event_submit(e);
}

SEC("tracepoint/syscalls/sys_exit_umount")
int tp_exit_umount(struct trace_event_raw_sys_exit *ctx)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_UMOUNT);
	struct nsaudit_pin *pin;
	struct pins_gone g;
	bool found = false;
	__u32 i, claim;

	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_NONE;
	if (ctx->ret != 0)
		goto out;
	umount_path_read((void *)ts->p.args[0]);
	pins_gone_here(&g);
	/* another umount in flight here: take only the pin our path names */
	claim = pins_claimed(&g, !ts->p.args[2] || umount_inflight_count(ts->p.args[2]) <= 1);
	#pragma unroll
	for (i = 0; i < PINS_GONE_MAX; i++) {
		pin = i < g.n && (claim & (1u << i)) ?
			bpf_map_lookup_elem(&pin_mounts, &g.key[i]) : NULL;
		if (pin) {
			umount_record(ts, pin);
			bpf_map_delete_elem(&pin_mounts, &g.key[i]);
			bpf_map_delete_elem(&pin_names, &g.key[i]);
			found = true;
		}
	}
	if (!found)
		umount_record(ts, NULL);
out:
	/* only now: the pins it detached are out of pin_mounts */
	umount_inflight_exit(ts->p.args[2]);
	return 0;
}

/* ---- the patched kernel: nsfd(), namespace:* tracepoints --------------
 *
 * Loaded only where the kernel has them (the loader reads
 * /proc/sys/kernel/nsfd_syscall_nr and looks the events up in BTF);
 * elsewhere autoload is off and they cost nothing. The kernel ABI
 * (kernel-patch/): nsfd(pid_t pid, unsigned int nstype, unsigned int flags)
 * (flags: NSFD_FOR_CHILDREN); PIDFD_GET_*_NAMESPACE ioctls on pidfds do the
 * same; the tracepoints are namespace:nsfd(pid, pidfd, nstype, flags,
 * target, ns, ret), namespace:ns_change(tsk, cause, nstype, for_children,
 * old_ns, new_ns) and namespace:ns_free(nstype, ns).
 */

#define NSFD_FOR_CHILDREN 0x1

/* fentry is used for nsfd(2): tp_nsfd only records the pidfd ioctls. */
const volatile bool nsfd_fexit = false;

SEC("fexit/__x64_sys_nsfd")
int BPF_PROG(fexit_sys_nsfd, const struct pt_regs *regs, long ret)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct nsaudit_event *e;
	struct file *file;

	e = event_ns(NSAUDIT_OP_NSFD, NSAUDIT_PROBE_FEXIT_SYS_NSFD,
		     clone_flag_to_type(BPF_CORE_READ(regs, si)), NULL, NSAUDIT_EVENT_SHORT, true);
	if (!e)
		return 0;
	e->arg = BPF_CORE_READ(regs, si);
	e->via = NSAUDIT_VIA_NSFD;
	if (BPF_CORE_READ(regs, dx) & NSFD_FOR_CHILDREN)
		e->flags |= NSAUDIT_F_FOR_CHILDREN;
	e->target_pid = (int)BPF_CORE_READ(regs, di);
	if (!e->target_pid)
		e->target_pid = e->pid;	/* pid 0 means the caller */
	e->result = ret < 0 ? ret : 0;
	if (ret >= 0) {
		e->fd = ret;
		file = task_fd_file(task, ret);
		if (file && file_is_nsfs(file)) {
			event_set_ns(e, file_ns(file));
			note_origin(file, NSAUDIT_VIA_NSFD, e->ns_inum);
		}
	}
	event_submit(e);
	return 0;
}

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

/*
 * nsfd(2) where fentry is refused, and the PIDFD_GET_*_NAMESPACE ioctls
 * always (via "pidfd"): pid is the one asked for, also when it was not
 * found. It fires before the fd is installed, so no fd origin is noted.
 */
SEC("tp_btf/nsfd")
int BPF_PROG(tp_nsfd, pid_t pid, bool pidfd, unsigned int nstype, unsigned int flags,
	     struct task_struct *target, struct ns_common *ns, int ret)
{
	struct nsaudit_event *e;

	if (!pidfd && nsfd_fexit)
		return 0;
	e = event_ns(NSAUDIT_OP_NSFD, NSAUDIT_PROBE_TP_NSFD, clone_flag_to_type(nstype), ns,
		     NSAUDIT_EVENT_SHORT, true);
	if (!e)
		return 0;
	e->arg = nstype;
	e->via = pidfd ? NSAUDIT_VIA_PIDFD : NSAUDIT_VIA_NSFD;
	if (flags & NSFD_FOR_CHILDREN)
		e->flags |= NSAUDIT_F_FOR_CHILDREN;
	e->result = ret < 0 ? ret : 0;
	e->fd = ret >= 0 ? ret : -1;
	/* global, like every pid a record has; the pid asked for (the
	 * caller's view, 0 for the caller) only when no task was found */
	e->target_pid = pid ? pid : (__s32)e->pid;
	if (target)	/* a read of its own: 6.1 refuses one load of two pointer kinds */
		e->target_pid = BPF_CORE_READ(target, tgid);
	event_submit(e);
	return 0;
}

/* The last reference went: the namespace itself is freed. */
SEC("tp_btf/ns_free")
int BPF_PROG(tp_ns_free, unsigned int nstype, struct ns_common *ns)
{
	struct nsaudit_event *e;

	e = event_ns(NSAUDIT_OP_NS_FREE, NSAUDIT_PROBE_TP_NS_FREE, clone_flag_to_type(nstype),
		     ns, NSAUDIT_EVENT_SHORT, true);
	if (!e)
		return 0;
	e->arg = nstype;
	e->ns_refs = 0;	/* it is going: the count says nothing */
	event_submit(e);
	return 0;
}

/* ---- startup snapshot: who is where before we started ------------------ */

SEC("iter/task")
int snapshot_tasks(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;
	struct nsaudit_task_snap s = {};
	int t;

	if (!task)
		return 0;
	cache_fill_task(task);
	/*
	 * One line per process, and one per thread that is in other namespaces
	 * than its leader (a thread's setns or unshare changes only its own):
	 * their mount namespaces and pins must be known too.
	 */
	if (task->pid != task->tgid &&
	    BPF_CORE_READ(task, nsproxy) == BPF_CORE_READ(task, group_leader, nsproxy))
		return 0;
	s.pid = task->tgid;
	s.tid = task->pid;
	s.ppid = BPF_CORE_READ(task, real_parent, tgid);
	s.uid = BPF_CORE_READ(task, cred, uid.val);
	s.start_boot_ns = BPF_CORE_READ(task, start_boottime);
	bpf_probe_read_kernel_str(s.comm, sizeof(s.comm), task->comm);
	s.exe_key = exe_key_of((__u64)BPF_CORE_READ(task, mm, exe_file));
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		struct ns_common *ns = task_ns(task, t);
		__u64 id;

		if (ns)
			ns_ident(ns, &s.inum[t], &id);
	}
	bpf_seq_write(seq, &s, sizeof(s));
	return 0;
}
