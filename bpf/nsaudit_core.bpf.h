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
 */
#ifndef NSAUDIT_CORE_BPF_H
#define NSAUDIT_CORE_BPF_H

#include "ns_consts.bpf.h"

#define MS_BIND			4096

struct proc_ns_operations___v61 {
	int type;
} __attribute__((preserve_access_index));

struct ns_common___v61 {
	refcount_t count;
	const struct proc_ns_operations___v61 *ops;
} __attribute__((preserve_access_index));

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

/* enum nsaudit_ns_type of a namespace. */
static __always_inline __u32 ns_type(struct ns_common *ns)
{
	const struct proc_ns_operations___v61 *ops;
	struct ns_common___v61 *old = (void *)ns;

	if (bpf_core_field_exists(ns->ns_type))
		return clone_flag_to_type(BPF_CORE_READ(ns, ns_type));
	ops = BPF_CORE_READ(old, ops);
	return clone_flag_to_type(BPF_CORE_READ(ops, type));
}

/* Inode number, and the kernel's never-reused 64-bit id where it has one. */
static __always_inline void ns_ident(struct ns_common *ns, __u32 *inum, __u64 *id)
{
	*inum = BPF_CORE_READ(ns, inum);
	if (bpf_core_field_exists(ns->ns_id))
		*id = BPF_CORE_READ(ns, ns_id);
	else
		*id = 0;
}

static __always_inline __u32 ns_refcount(struct ns_common *ns)
{
	struct ns_common___v61 *old = (void *)ns;

	if (bpf_core_field_exists(ns->__ns_ref))
		return BPF_CORE_READ(ns, __ns_ref.refs.counter);
	return BPF_CORE_READ(old, count.refs.counter);
}

/*
 * The namespace of one type that a task has. pid and time are the
 * *_for_children ones: that is what setns() and unshare() change.
 */
static __always_inline struct ns_common *task_ns(struct task_struct *task, int type)
{
	struct nsproxy *nsp = BPF_CORE_READ(task, nsproxy);
	struct user_namespace *user;
	struct pid_namespace *pid;
	struct cgroup_namespace *cg;
	struct time_namespace *time;
	struct mnt_namespace *mnt;
	struct ipc_namespace *ipc;
	struct uts_namespace *uts;
	struct net *net;

	if (type == NSAUDIT_NS_USER) {
		user = BPF_CORE_READ(task, cred, user_ns);
		return user ? &user->ns : NULL;
	}
	if (!nsp)	/* an exiting task */
		return NULL;
	switch (type) {
	case NSAUDIT_NS_NET:
		net = BPF_CORE_READ(nsp, net_ns);
		return net ? &net->ns : NULL;
	case NSAUDIT_NS_UTS:
		uts = BPF_CORE_READ(nsp, uts_ns);
		return uts ? &uts->ns : NULL;
	case NSAUDIT_NS_IPC:
		ipc = BPF_CORE_READ(nsp, ipc_ns);
		return ipc ? &ipc->ns : NULL;
	case NSAUDIT_NS_MNT:
		mnt = BPF_CORE_READ(nsp, mnt_ns);
		return mnt ? &mnt->ns : NULL;
	case NSAUDIT_NS_PID:
		pid = BPF_CORE_READ(nsp, pid_ns_for_children);
		return pid ? &pid->ns : NULL;
	case NSAUDIT_NS_CGROUP:
		cg = BPF_CORE_READ(nsp, cgroup_ns);
		return cg ? &cg->ns : NULL;
	case NSAUDIT_NS_TIME:
		time = BPF_CORE_READ(nsp, time_ns_for_children);
		return time ? &time->ns : NULL;
	}
	return NULL;
}

/*
 * The same three for a task pointer the verifier knows the type of
 * (bpf_get_current_task_btf(), an iterator's task): plain loads, which the
 * verifier turns into fault-safe ones, instead of one bpf_probe_read_kernel
 * helper call per pointer. setns and unshare are hot paths; raw_tp
 * arguments and pointers read out of memory are untyped and keep the
 * helper versions above.
 */
static __always_inline struct ns_common *task_ns_btf(struct task_struct *task, int type)
{
	struct nsproxy *nsp = task->nsproxy;
	struct user_namespace *user;
	struct pid_namespace *pid;
	struct cgroup_namespace *cg;
	struct time_namespace *time;
	struct mnt_namespace *mnt;
	struct ipc_namespace *ipc;
	struct uts_namespace *uts;
	struct net *net;

	if (type == NSAUDIT_NS_USER) {
		user = task->cred->user_ns;
		return user ? &user->ns : NULL;
	}
	if (!nsp)	/* an exiting task */
		return NULL;
	switch (type) {
	case NSAUDIT_NS_NET:
		net = nsp->net_ns;
		return net ? &net->ns : NULL;
	case NSAUDIT_NS_UTS:
		uts = nsp->uts_ns;
		return uts ? &uts->ns : NULL;
	case NSAUDIT_NS_IPC:
		ipc = nsp->ipc_ns;
		return ipc ? &ipc->ns : NULL;
	case NSAUDIT_NS_MNT:
		mnt = nsp->mnt_ns;
		return mnt ? &mnt->ns : NULL;
	case NSAUDIT_NS_PID:
		pid = nsp->pid_ns_for_children;
		return pid ? &pid->ns : NULL;
	case NSAUDIT_NS_CGROUP:
		cg = nsp->cgroup_ns;
		return cg ? &cg->ns : NULL;
	case NSAUDIT_NS_TIME:
		time = nsp->time_ns_for_children;
		return time ? &time->ns : NULL;
	}
	return NULL;
}

static __always_inline void ns_ident_btf(struct ns_common *ns, __u32 *inum, __u64 *id)
{
	*inum = ns->inum;
	if (bpf_core_field_exists(ns->ns_id))
		*id = ns->ns_id;
	else
		*id = 0;
}

static __always_inline __u32 ns_refcount_btf(struct ns_common *ns)
{
	struct ns_common___v61 *old = (void *)ns;

	if (bpf_core_field_exists(ns->__ns_ref))
		return ns->__ns_ref.refs.counter;
	return old->count.refs.counter;
}

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

static __always_inline bool file_is_pidfd(struct file *file)
{
	unsigned long magic = BPF_CORE_READ(file, f_inode, i_sb, s_magic);

	return magic == PIDFS_MAGIC || magic == ANON_INODE_FS_MAGIC;
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

#endif /* NSAUDIT_CORE_BPF_H */
