// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * holders.bpf.c - who holds which namespace: two BPF iterators.
 *
 *   iter/task       one struct holders_task per thread: its namespaces (all
 *                   eight types plus pid/time_for_children), its nsproxy and
 *                   creds (the objects that actually hold the references).
 *   iter/task_file  one struct holders_file per open nsfs file (an fd on a
 *                   namespace) and per socket (which holds its netns).
 *
 * Every namespace is written with its kernel reference count, read with
 * CO-RE through the shim in nsaudit_core.bpf.h (6.18 and 6.1 shapes). User space reads the two
 * iterators with bpf_iter_create() + read().
 *
 * The creds map collects every distinct struct cred seen (task creds and
 * file creds) with its user namespace: each cred holds one reference on it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "nsaudit.h"
#include "holders.h"
#include "nsaudit_core.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct holders_task);
} task_buf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct holders_file);
} file_buf SEC(".maps");

/* struct cred address -> inum of its user namespace. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, u64);
	__type(value, u32);
} creds SEC(".maps");

static __always_inline u32 ns_inum(struct ns_common *ns)
{
	return ns ? BPF_CORE_READ(ns, inum) : 0;
}

/* The user namespace owning a namespace, and the parent of pid/user ones. */
static __always_inline void ns_owner(struct holders_ns *out, struct ns_common *ns, u32 flag)
{
	void *base;

	switch (flag) {
	case CLONE_NEWNET:
		base = (void *)ns - bpf_core_field_offset(struct net, ns);
		out->owner_inum = ns_inum(&BPF_CORE_READ((struct net *)base, user_ns)->ns);
		break;
	case CLONE_NEWUTS:
		base = (void *)ns - bpf_core_field_offset(struct uts_namespace, ns);
		out->owner_inum =
		    ns_inum(&BPF_CORE_READ((struct uts_namespace *)base, user_ns)->ns);
		break;
	case CLONE_NEWIPC:
		base = (void *)ns - bpf_core_field_offset(struct ipc_namespace, ns);
		out->owner_inum =
		    ns_inum(&BPF_CORE_READ((struct ipc_namespace *)base, user_ns)->ns);
		break;
	case CLONE_NEWNS:
		base = (void *)ns - bpf_core_field_offset(struct mnt_namespace, ns);
		out->owner_inum =
		    ns_inum(&BPF_CORE_READ((struct mnt_namespace *)base, user_ns)->ns);
		break;
	case CLONE_NEWCGROUP:
		base = (void *)ns - bpf_core_field_offset(struct cgroup_namespace, ns);
		out->owner_inum =
		    ns_inum(&BPF_CORE_READ((struct cgroup_namespace *)base, user_ns)->ns);
		break;
	case CLONE_NEWTIME:
		base = (void *)ns - bpf_core_field_offset(struct time_namespace, ns);
		out->owner_inum =
		    ns_inum(&BPF_CORE_READ((struct time_namespace *)base, user_ns)->ns);
		break;
	case CLONE_NEWPID: {
		struct pid_namespace *p;

		p = (void *)ns - bpf_core_field_offset(struct pid_namespace, ns);
		out->owner_inum = ns_inum(&BPF_CORE_READ(p, user_ns)->ns);
		p = BPF_CORE_READ(p, parent);
		out->parent_inum = p ? BPF_CORE_READ(p, ns.inum) : 0;
		break;
	}
	case CLONE_NEWUSER: {
		struct user_namespace *u;

		u = (void *)ns - bpf_core_field_offset(struct user_namespace, ns);
		u = BPF_CORE_READ(u, parent);
		out->owner_inum = u ? BPF_CORE_READ(u, ns.inum) : 0;
		out->parent_inum = out->owner_inum;
		break;
	}
	}
}

static __always_inline void fill_ns(struct holders_ns *out, struct ns_common *ns)
{
	__builtin_memset(out, 0, sizeof(*out));
	if (!ns)
		return;
	out->addr = (u64)ns;
	ns_ident(ns, &out->inum, &out->ns_id);
	out->refs = ns_refcount(ns);
	out->has_dentry = ns_has_dentry(ns);
	out->clone_flag = ns_clone_flag(ns);
	ns_owner(out, ns, out->clone_flag);
}

static __always_inline void note_cred(const struct cred *cred)
{
	u64 key = (u64)cred;
	u32 inum;

	if (!cred)
		return;
	inum = BPF_CORE_READ(cred, user_ns, ns.inum);
	bpf_map_update_elem(&creds, &key, &inum, BPF_NOEXIST);
}

SEC("iter/task")
int holders_task(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct holders_task *r;
	struct nsproxy *nsp;
	struct pid *pid;
	u32 zero = 0;

	if (!task)
		return 0;
	r = bpf_map_lookup_elem(&task_buf, &zero);
	if (!r)
		return 0;
	__builtin_memset(r, 0, sizeof(*r));
	r->magic = HOLDERS_MAGIC_TASK;
	r->pid = BPF_CORE_READ(task, tgid);
	r->tid = BPF_CORE_READ(task, pid);
	r->ppid = BPF_CORE_READ(task, real_parent, tgid);
	if (BPF_CORE_READ(task, flags) & PF_KTHREAD)
		r->flags |= HOLDERS_TF_KTHREAD;
	if (r->pid == r->tid)
		r->flags |= HOLDERS_TF_LEADER;
	BPF_CORE_READ_STR_INTO(&r->comm, task, comm);
	r->cred = (u64)BPF_CORE_READ(task, cred);
	r->real_cred = (u64)BPF_CORE_READ(task, real_cred);
	note_cred(BPF_CORE_READ(task, cred));
	note_cred(BPF_CORE_READ(task, real_cred));

	fill_ns(&r->ns[NSAUDIT_NS_USER], &BPF_CORE_READ(task, cred, user_ns)->ns);

	/* The pid namespace the task is in: its struct pid's deepest level. */
	pid = BPF_CORE_READ(task, thread_pid);
	if (pid) {
		unsigned int level = BPF_CORE_READ(pid, level);
		struct upid *up;

		up = (void *)pid + bpf_core_field_offset(struct pid, numbers) +
		     (u64)(level & 63) * bpf_core_type_size(struct upid);
		fill_ns(&r->ns[NSAUDIT_NS_PID], &BPF_CORE_READ(up, ns)->ns);
	}

	nsp = BPF_CORE_READ(task, nsproxy);
	r->nsproxy = (u64)nsp;
	if (nsp) {
		fill_ns(&r->ns[NSAUDIT_NS_NET], &BPF_CORE_READ(nsp, net_ns)->ns);
		fill_ns(&r->ns[NSAUDIT_NS_UTS], &BPF_CORE_READ(nsp, uts_ns)->ns);
		fill_ns(&r->ns[NSAUDIT_NS_IPC], &BPF_CORE_READ(nsp, ipc_ns)->ns);
		fill_ns(&r->ns[NSAUDIT_NS_MNT], &BPF_CORE_READ(nsp, mnt_ns)->ns);
		fill_ns(&r->ns[NSAUDIT_NS_CGROUP], &BPF_CORE_READ(nsp, cgroup_ns)->ns);
		fill_ns(&r->ns[NSAUDIT_NS_TIME], &BPF_CORE_READ(nsp, time_ns)->ns);
		fill_ns(&r->ns[HOLDERS_SLOT_PID_CHILDREN],
			&BPF_CORE_READ(nsp, pid_ns_for_children)->ns);
		fill_ns(&r->ns[HOLDERS_SLOT_TIME_CHILDREN],
			&BPF_CORE_READ(nsp, time_ns_for_children)->ns);
	}
	bpf_seq_write(ctx->meta->seq, r, sizeof(*r));
	return 0;
}

SEC("iter/task_file")
int holders_file(struct bpf_iter__task_file *ctx)
{
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;
	struct holders_file *r;
	unsigned long magic;
	struct inode *inode;
	u32 zero = 0;

	if (!task || !file)
		return 0;
	note_cred(BPF_CORE_READ(file, f_cred));
	inode = BPF_CORE_READ(file, f_inode);
	magic = BPF_CORE_READ(inode, i_sb, s_magic);
	if (magic != NSFS_MAGIC && magic != SOCKFS_MAGIC)
		return 0;
	r = bpf_map_lookup_elem(&file_buf, &zero);
	if (!r)
		return 0;
	__builtin_memset(r, 0, sizeof(*r));
	r->magic = HOLDERS_MAGIC_FILE;
	r->pid = BPF_CORE_READ(task, tgid);
	r->fd = ctx->fd;
	r->file = (u64)file;
	BPF_CORE_READ_STR_INTO(&r->comm, task, comm);

	if (magic == NSFS_MAGIC) {
		struct vfsmount *vmnt = BPF_CORE_READ(file, f_path.mnt);
		struct mount *mnt = (void *)vmnt - bpf_core_field_offset(struct mount, mnt);
		struct mnt_namespace *mns = BPF_CORE_READ(mnt, mnt_ns);

		r->kind = HOLDERS_FILE_NSFS;
		fill_ns(&r->ns, BPF_CORE_READ(inode, i_private));
		/* nsfs' internal mount has no namespace (NULL or an ERR_PTR). */
		if (mns && (unsigned long)mns < (unsigned long)-4095L) {
			r->mnt_ns_inum = BPF_CORE_READ(mns, ns.inum);
			r->mnt_id = BPF_CORE_READ(mnt, mnt_id);
		}
		bpf_d_path((struct path *)&file->f_path, r->path, sizeof(r->path));
	} else {
		struct socket *sock = BPF_CORE_READ(file, private_data);
		struct sock *sk = BPF_CORE_READ(sock, sk);
		struct net *net;

		if (!sk)
			return 0;
		r->kind = HOLDERS_FILE_SOCKET;
		r->sock_ino = BPF_CORE_READ(inode, i_ino);
		r->family = BPF_CORE_READ(sk, __sk_common.skc_family);
		r->type = BPF_CORE_READ(sk, sk_type);
		r->protocol = BPF_CORE_READ(sk, sk_protocol);
		r->net_ref = sock_net_ref(sk);
		net = BPF_CORE_READ(sk, __sk_common.skc_net.net);
		fill_ns(&r->ns, &net->ns);
	}
	bpf_seq_write(ctx->meta->seq, r, sizeof(*r));
	return 0;
}
