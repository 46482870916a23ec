/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nsaudit_core.bpf.h - CO-RE accessors for namespaces, tasks and files.
 *
 * The same object must run on the host's 6.18 kernel and on the project's
 * patched 6.1 guest kernel. The differences that matter here:
 *   6.18: ns_common has ns_type (the CLONE_NEW* flag), __ns_ref and ns_id;
 *   6.1:  the type is in ns->ops->type and the refcount is ns_common.count.
 * vmlinux.h comes from 6.18, so the 6.1 shapes are declared as ___v61
 * flavours; bpf_core_field_exists() picks the right one at load time.
 * This is the one shim: holders.bpf.c and nsaudit.bpf.c both use it.
 */
#ifndef NSAUDIT_CORE_BPF_H
#define NSAUDIT_CORE_BPF_H

#include "ns_consts.bpf.h"

#define MS_BIND		4096
#define MS_REMOUNT	32
#define MS_MOVE		8192
#define PF_KTHREAD	0x00200000	/* task->flags: a kernel thread */

/*
 * The 6.1 shapes (vmlinux.h is 6.18's). One place for every flavour the
 * programs need; bpf_core_field_exists() on the 6.18 field picks at load.
 */
struct proc_ns_operations___v61 {
	int type;
} __attribute__((preserve_access_index));

struct ns_common___v61 {
	atomic_long_t stashed;	/* 6.18: struct dentry *stashed */
	refcount_t count;	/* 6.18: __ns_ref */
	const struct proc_ns_operations___v61 *ops; /* 6.18: ns_type */
} __attribute__((preserve_access_index));

/* 6.1 keeps sk_net_refcnt in struct sock, 6.18 skc_net_refcnt in sock_common. */
struct sock___v61 {
	unsigned int sk_net_refcnt : 1;
} __attribute__((preserve_access_index));

/* 6.1 tells anonymous mount namespaces (open_tree clones) by seq == 0;
 * 6.18 by ns.ns_id == 0. */
struct mnt_namespace___v61 {
	__u64 seq;
} __attribute__((preserve_access_index));

/* 6.1's pidfd is an anon inode with the struct pid in private_data; 6.18's
 * lives on pidfs with the pid in the inode's i_private. */

static __always_inline __u32 clone_flags_to_mask(__u64 flags)
{
	__u32 m = 0;

	if (flags & CLONE_NEWNET)
		m |= 1u << NSAUDIT_NS_NET;
	if (flags & CLONE_NEWUTS)
		m |= 1u << NSAUDIT_NS_UTS;
	if (flags & CLONE_NEWIPC)
		m |= 1u << NSAUDIT_NS_IPC;
	if (flags & CLONE_NEWNS)
		m |= 1u << NSAUDIT_NS_MNT;
	if (flags & CLONE_NEWPID)
		m |= 1u << NSAUDIT_NS_PID;
	if (flags & CLONE_NEWUSER)
		m |= 1u << NSAUDIT_NS_USER;
	if (flags & CLONE_NEWCGROUP)
		m |= 1u << NSAUDIT_NS_CGROUP;
	if (flags & CLONE_NEWTIME)
		m |= 1u << NSAUDIT_NS_TIME;
	return m;
}

static __always_inline __u32 clone_flag_to_type(__u64 flag)
{
	switch (flag) {
	case CLONE_NEWNET:
		return NSAUDIT_NS_NET;
	case CLONE_NEWUTS:
		return NSAUDIT_NS_UTS;
	case CLONE_NEWIPC:
		return NSAUDIT_NS_IPC;
	case CLONE_NEWNS:
		return NSAUDIT_NS_MNT;
	case CLONE_NEWPID:
		return NSAUDIT_NS_PID;
	case CLONE_NEWUSER:
		return NSAUDIT_NS_USER;
	case CLONE_NEWCGROUP:
		return NSAUDIT_NS_CGROUP;
	case CLONE_NEWTIME:
		return NSAUDIT_NS_TIME;
	}
	return NSAUDIT_NS_UNKNOWN;
}

/* The CLONE_NEW* flag of a namespace: ns_type (6.18) or ops->type (6.1). */
static __always_inline __u32 ns_clone_flag(struct ns_common *ns)
{
	const struct proc_ns_operations___v61 *ops;
	struct ns_common___v61 *old = (void *)ns;

	if (bpf_core_field_exists(ns->ns_type))
		return BPF_CORE_READ(ns, ns_type);
	ops = BPF_CORE_READ(old, ops);
	return ops ? BPF_CORE_READ(ops, type) : 0;
}

/* enum nsaudit_ns_type of a namespace. */
static __always_inline __u32 ns_type(struct ns_common *ns)
{
	return clone_flag_to_type(ns_clone_flag(ns));
}

/* An nsfs dentry exists for it (ns.stashed; it holds a reference). */
static __always_inline bool ns_has_dentry(struct ns_common *ns)
{
	struct ns_common___v61 *old = (void *)ns;

	/* a dentry pointer from 6.9 on (6.12 too, with count and ops of 6.1's
	 * shape); an atomic_long_t before */
	if (bpf_core_field_exists(ns->stashed))
		return BPF_CORE_READ(ns, stashed) != NULL;
	return BPF_CORE_READ(old, stashed.counter) != 0;
}

/* The socket holds a reference on its network namespace. */
static __always_inline int sock_net_ref(struct sock *sk)
{
	struct sock___v61 *old = (void *)sk;

	if (bpf_core_field_exists(sk->__sk_common.skc_net_refcnt))
		return BPF_CORE_READ_BITFIELD_PROBED(&sk->__sk_common, skc_net_refcnt);
	if (bpf_core_field_exists(old->sk_net_refcnt))
		return BPF_CORE_READ_BITFIELD_PROBED(old, sk_net_refcnt);
	return 1;
}

/*
 * Each accessor below comes in two access modes, chosen at compile time:
 * btf = true for a pointer the verifier knows the type of
 * (bpf_get_current_task_btf()), read with plain loads that the verifier
 * makes fault-safe; btf = false for untyped pointers (raw_tp arguments,
 * pointers read out of memory), read with one bpf_probe_read_kernel per
 * hop. setns and unshare are hot paths: the plain loads save a helper call
 * per pointer. The startup snapshot (iter/task) runs once and uses the
 * probe-read mode. Both are CO-RE relocated.
 */
#define NS_LOAD(btf, p, field) ((btf) ? (p)->field : BPF_CORE_READ(p, field))

/* Inode number, and the kernel's never-reused 64-bit id where it has one. */
static __always_inline void ns_ident_as(struct ns_common *ns, __u32 *inum, __u64 *id,
					const bool btf)
{
	*inum = NS_LOAD(btf, ns, inum);
	if (bpf_core_field_exists(ns->ns_id))
		*id = NS_LOAD(btf, ns, ns_id);
	else
		*id = 0;
}

static __always_inline __u32 ns_refcount_as(struct ns_common *ns, const bool btf)
{
	struct ns_common___v61 *old = (void *)ns;

	if (bpf_core_field_exists(ns->__ns_ref))
		return NS_LOAD(btf, ns, __ns_ref.refs.counter);
	return NS_LOAD(btf, old, count.refs.counter);
}

/*
 * Where a task's namespaces hang: its nsproxy and its user namespace.
 * Loaded once per program path and then indexed by type, because each
 * pointer load off the current task (a trusted pointer) makes the 6.18
 * verifier search all of vmlinux BTF for "__safe_trusted"/"__safe_rcu"
 * flavours, four linear scans a load; loads off these two pointers (no
 * longer trusted) cost it nothing. In an unrolled loop over the eight
 * types that was most of the start-up time.
 */
struct task_nsset {
	struct nsproxy *nsp;
	struct user_namespace *user;
};

static __always_inline struct user_namespace *task_userns_as(struct task_struct *task,
							     const bool btf)
{
	return btf ? task->cred->user_ns : BPF_CORE_READ(task, cred, user_ns);
}

static __always_inline void task_nsset_as(struct task_nsset *s, struct task_struct *task,
					  const bool btf)
{
	s->nsp = NS_LOAD(btf, task, nsproxy);
	s->user = task_userns_as(task, btf);
}

/*
 * The namespace of one type in a set. pid and time are the *_for_children
 * ones: that is what setns() and unshare() change.
 */
static __always_inline struct ns_common *nsset_ns_as(const struct task_nsset *s, int type,
						     const bool btf)
{
	struct nsproxy *nsp = s->nsp;
	struct pid_namespace *pid;
	struct cgroup_namespace *cg;
	struct time_namespace *time;
	struct mnt_namespace *mnt;
	struct ipc_namespace *ipc;
	struct uts_namespace *uts;
	struct net *net;

	if (type == NSAUDIT_NS_USER)
		return s->user ? &s->user->ns : NULL;
	if (!nsp)	/* an exiting task */
		return NULL;
	switch (type) {
	case NSAUDIT_NS_NET:
		net = NS_LOAD(btf, nsp, net_ns);
		return net ? &net->ns : NULL;
	case NSAUDIT_NS_UTS:
		uts = NS_LOAD(btf, nsp, uts_ns);
		return uts ? &uts->ns : NULL;
	case NSAUDIT_NS_IPC:
		ipc = NS_LOAD(btf, nsp, ipc_ns);
		return ipc ? &ipc->ns : NULL;
	case NSAUDIT_NS_MNT:
		mnt = NS_LOAD(btf, nsp, mnt_ns);
		return mnt ? &mnt->ns : NULL;
	case NSAUDIT_NS_PID:
		pid = NS_LOAD(btf, nsp, pid_ns_for_children);
		return pid ? &pid->ns : NULL;
	case NSAUDIT_NS_CGROUP:
		cg = NS_LOAD(btf, nsp, cgroup_ns);
		return cg ? &cg->ns : NULL;
	case NSAUDIT_NS_TIME:
		time = NS_LOAD(btf, nsp, time_ns_for_children);
		return time ? &time->ns : NULL;
	}
	return NULL;
}

/* The namespace of one type that a task has (one lookup: a set of one). */
static __always_inline struct ns_common *task_ns_as(struct task_struct *task, int type,
						    const bool btf)
{
	/* only the pointer the type needs: one probe read chain, not two */
	struct task_nsset s = {};

	if (type == NSAUDIT_NS_USER)
		s.user = task_userns_as(task, btf);
	else
		s.nsp = NS_LOAD(btf, task, nsproxy);
	return nsset_ns_as(&s, type, btf);
}

/*
 * A syscall's first two arguments at its exit, from the user registers the
 * entry saved (bpf_task_pt_regs(current)). arm64 has overwritten x0 with
 * the return value by then: its first argument is orig_x0, and the second
 * is regs[1] of the UAPI register block that starts struct pt_regs (which
 * an x86-generated vmlinux.h does not describe).
 */
static __always_inline void syscall_args2(struct pt_regs *regs, __u64 *a0, __u64 *a1)
{
#if defined(__TARGET_ARCH_arm64)
	*a0 = PT_REGS_PARM1_CORE_SYSCALL(regs);
	*a1 = 0;
	bpf_probe_read_kernel(a1, sizeof(*a1), (void *)regs + sizeof(__u64));
#else
	*a0 = PT_REGS_PARM1_SYSCALL(regs);
	*a1 = PT_REGS_PARM2_SYSCALL(regs);
#endif
}

/* Its first four (mount(2)'s flags are the fourth), the same way. */
static __always_inline void syscall_args4(struct pt_regs *regs, __u64 a[4])
{
	syscall_args2(regs, &a[0], &a[1]);
#if defined(__TARGET_ARCH_arm64)
	a[2] = 0;
	a[3] = 0;
	bpf_probe_read_kernel(&a[2], 2 * sizeof(__u64), (void *)regs + 2 * sizeof(__u64));
#else
	a[2] = PT_REGS_PARM3_SYSCALL(regs);
	a[3] = PT_REGS_PARM4_SYSCALL(regs);
#endif
}

/* The current task's saved user registers (a syscall's arguments). */
static __always_inline struct pt_regs *cur_syscall_regs(void)
{
	return (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
}

/* The inode number and id of each namespace of a set (0 where it has none):
 * into inum[NSAUDIT_NS_MAX] and id[NSAUDIT_NS_MAX]. */
static __always_inline void nsset_idents_as(const struct task_nsset *s, __u32 *inum, __u64 *id,
					    const bool btf)
{
	int t;

	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		struct ns_common *ns = nsset_ns_as(s, t, btf);

		inum[t] = 0;
		id[t] = 0;
		if (ns)
			ns_ident_as(ns, &inum[t], &id[t], btf);
	}
}

#define ns_ident(ns, inum, id)		ns_ident_as(ns, inum, id, false)
#define ns_ident_btf(ns, inum, id)	ns_ident_as(ns, inum, id, true)
#define ns_refcount(ns)			ns_refcount_as(ns, false)
#define ns_refcount_btf(ns)		ns_refcount_as(ns, true)
#define task_ns(task, type)		task_ns_as(task, type, false)
#define task_ns_btf(task, type)		task_ns_as(task, type, true)
#define task_nsset(s, task)		task_nsset_as(s, task, false)
#define task_nsset_btf(s, task)		task_nsset_as(s, task, true)
#define nsset_ns(s, type)		nsset_ns_as(s, type, false)
#define nsset_ns_btf(s, type)		nsset_ns_as(s, type, true)

static __always_inline __u32 task_loginuid(struct task_struct *task)
{
	if (bpf_core_field_exists(task->loginuid))
		return BPF_CORE_READ(task, loginuid.val);
	return (__u32)-1;
}

/* The struct file behind a task's fd, or NULL. */
static __always_inline struct file *task_fd_file(struct task_struct *task, int fd)
{
	struct files_struct *files = BPF_CORE_READ(task, files);
	struct fdtable *fdt;
	struct file **fda;
	struct file *f = NULL;

	if (!files || fd < 0)
		return NULL;
	fdt = BPF_CORE_READ(files, fdt);
	if ((unsigned int)fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	fda = BPF_CORE_READ(fdt, fd);
	bpf_probe_read_kernel(&f, sizeof(f), &fda[fd]);
	return f;
}

static __always_inline bool file_is_nsfs(struct file *file)
{
	return BPF_CORE_READ(file, f_inode, i_sb, s_magic) == NSFS_MAGIC;
}

/*
 * A pidfd: on pidfs (6.9+), or an anon inode file named "[pidfd]" (older
 * kernels). Other anon inode files (eventfd, signalfd, ...) are not.
 */
static __always_inline bool file_is_pidfd(struct file *file)
{
	unsigned long magic = BPF_CORE_READ(file, f_inode, i_sb, s_magic);
	char name[8] = {};

	if (magic == PIDFS_MAGIC)
		return true;
	if (magic != ANON_INODE_FS_MAGIC)
		return false;
	bpf_probe_read_kernel_str(name, sizeof(name), BPF_CORE_READ(file, f_path.dentry, d_name.name));
	return name[0] == '[' && name[1] == 'p' && name[2] == 'i' && name[3] == 'd' &&
	       name[4] == 'f' && name[5] == 'd' && name[6] == ']';
}

/* The process a pidfd refers to (its tgid in the initial pid namespace). */
static __always_inline __s32 pidfd_tgid(struct file *file)
{
	unsigned long magic = BPF_CORE_READ(file, f_inode, i_sb, s_magic);
	struct pid *pid;

	pid = magic == PIDFS_MAGIC ? BPF_CORE_READ(file, f_inode, i_private)
				   : BPF_CORE_READ(file, private_data);
	return pid ? BPF_CORE_READ(pid, numbers[0].nr) : 0;
}

/* nsfs keeps the namespace in the inode's i_private. */
static __always_inline struct ns_common *file_ns(struct file *file)
{
	return BPF_CORE_READ(file, f_inode, i_private);
}

/*
 * Opened through a bind mount (a mount in some mount namespace) rather than
 * through /proc/PID/ns/ or nsfd(), which land on nsfs's internal mount
 * (mnt_ns == MNT_NS_INTERNAL, an error pointer).
 */
static __always_inline bool file_is_bind_mount(struct file *file)
{
	struct vfsmount *vfs = BPF_CORE_READ(file, f_path.mnt);
	struct mount *m;
	unsigned long mnt_ns;

	m = (void *)vfs - bpf_core_field_offset(struct mount, mnt);
	mnt_ns = (unsigned long)BPF_CORE_READ(m, mnt_ns);
	return mnt_ns && mnt_ns < (unsigned long)-4095;
}

/*
 * The mount namespace of the mount a file was opened through: NULL for nsfs'
 * internal mount (/proc/PID/ns/TYPE, ioctl-made fds). *anon: an anonymous one
 * (a detached open_tree(OPEN_TREE_CLONE) copy, not attached anywhere yet).
 */
static __always_inline struct mnt_namespace *file_mnt_ns(struct file *file, bool *anon)
{
	struct vfsmount *vfs = BPF_CORE_READ(file, f_path.mnt);
	struct mnt_namespace___v61 *old;
	struct mnt_namespace *mns;
	struct mount *m;

	m = (void *)vfs - bpf_core_field_offset(struct mount, mnt);
	mns = BPF_CORE_READ(m, mnt_ns);
	if (!mns || (unsigned long)mns >= (unsigned long)-4095)
		return NULL;
	old = (void *)mns;
	if (bpf_core_field_exists(mns->ns.ns_id))
		*anon = BPF_CORE_READ(mns, ns.ns_id) == 0;
	else
		*anon = BPF_CORE_READ(old, seq) == 0;
	return mns;
}

#endif /* NSAUDIT_CORE_BPF_H */
