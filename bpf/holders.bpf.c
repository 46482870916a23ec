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

/*
 * The mount walk (struct holders_nsfs_mount in holders.h says why): each
 * mount namespace met is queued once (mnt_walks remembers it), and one
 * bpf_loop walks the queue, one step per call: down to a mount's first
 * child, else on to its next sibling, else up to its parent. The tree is
 * read without namespace_sem, under the RCU read lock the iterator runs in
 * (struct mount is freed after a grace period): a mount that leaves the
 * tree under the walk starts it again from the root, up to WALK_RESTARTS
 * times, then ends it as "changed"; a loop or a tree too large ends it at
 * the step budget; user space says so.
 */
#define WALK_STEPS (1u << 20)
#define WALK_RESTARTS 8

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, u64);
	__type(value, struct holders_nsfs_mount);
} nsfs_mounts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, u64);
	__type(value, struct holders_mnt_walk);
} mnt_walks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 16384);
	__type(value, u64);
} walk_queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct holders_nsfs_mount);
} mount_buf SEC(".maps");

struct walk_ctx {
	u64 key; /* the mount namespace walked (its address), 0: none */
	struct mount *root, *cur;
	struct holders_mnt_walk w;
	u64 sm_ns_id; /* 6.8-6.17: mnt_namespace.seq; 6.18: ns.ns_id */
	u32 restarts;
	bool down; /* cur was just visited: try its children next */
};

/* Queue a mount namespace for walking, once per scan. */
static __always_inline void walk_queue_ns(struct mnt_namespace *ns)
{
	struct holders_mnt_walk w = { .status = HOLDERS_WALK_QUEUED };
	u64 key = (u64)ns;

	if (!ns || (unsigned long)ns >= (unsigned long)-4095L)
		return;
	ns_ident(&ns->ns, &w.inum, &w.ns_id);
	if (!bpf_map_update_elem(&mnt_walks, &key, &w, BPF_NOEXIST))
		bpf_map_push_elem(&walk_queue, &key, 0);
}

static __always_inline void walk_visit(struct walk_ctx *c, struct mount *m)
{
	struct holders_nsfs_mount *r;
	struct ns_common *ns;
	u64 key = (u64)m;
	u32 zero = 0;

	c->w.mounts++;
	if (BPF_CORE_READ(m, mnt.mnt_sb, s_magic) != NSFS_MAGIC ||
	    (u64)BPF_CORE_READ(m, mnt_ns) != c->key)
		return;
	r = bpf_map_lookup_elem(&mount_buf, &zero);
	if (!r)
		return;
	__builtin_memset(r, 0, sizeof(*r));
	r->mnt_ns_id = c->w.ns_id;
	r->mnt_ns_inum = c->w.inum;
	r->mnt_id = BPF_CORE_READ(m, mnt_id);
	if (bpf_core_field_exists(m->mnt_id_unique))
		r->mnt_id_unique = BPF_CORE_READ(m, mnt_id_unique);
	r->sm_ns_id = c->sm_ns_id;
	ns = BPF_CORE_READ(m, mnt.mnt_root, d_inode, i_private);
	fill_ns(&r->ns, ns);
	c->w.nsfs++;
	if (bpf_map_update_elem(&nsfs_mounts, &key, r, BPF_ANY))
		c->w.status |= HOLDERS_WALK_FULL;
	if (r->ns.clone_flag == CLONE_NEWNS)
		walk_queue_ns((void *)ns - bpf_core_field_offset(struct mnt_namespace, ns));
}

/* The walk of c->key is over: keep how it went. */
static __always_inline void walk_end(struct walk_ctx *c, u32 status)
{
	c->w.status |= status;
	bpf_map_update_elem(&mnt_walks, &c->key, &c->w, BPF_EXIST);
	c->key = 0;
	c->cur = NULL;
}

static long walk_step(u64 i, void *arg)
{
	struct walk_ctx *c = arg;
	struct list_head *head, *next;
	struct holders_mnt_walk *w;
	struct mount *m;

	if (!c->key) {
		struct mnt_namespace *ns;

		if (bpf_map_pop_elem(&walk_queue, &c->key))
			return 1; /* nothing left */
		w = bpf_map_lookup_elem(&mnt_walks, &c->key);
		if (!w) {
			c->key = 0;
			return 0;
		}
		c->w = *w;
		c->w.status = 0;
		c->restarts = 0;
		ns = (void *)c->key;
		c->sm_ns_id = c->w.ns_id;
		if (!c->sm_ns_id && bpf_core_field_exists(struct mnt_namespace___v61, seq))
			c->sm_ns_id = BPF_CORE_READ((struct mnt_namespace___v61 *)ns, seq);
		c->root = BPF_CORE_READ(ns, root);
		c->cur = c->root;
		if (!c->cur) {
			walk_end(c, HOLDERS_WALK_CHANGED);
			return 0;
		}
		walk_visit(c, c->cur);
		c->down = true;
		return 0;
	}
	m = c->cur;
	if (c->down) {
		head = &m->mnt_mounts;
		next = BPF_CORE_READ(m, mnt_mounts.next);
		if (next && next != head) {
			c->cur = (void *)next - bpf_core_field_offset(struct mount, mnt_child);
			walk_visit(c, c->cur);
			return 0;
		}
		c->down = false;
		return 0;
	}
	/* m's subtree is done: its next sibling, else its parent's turn */
	if (m == c->root) {
		walk_end(c, 0);
		return 0;
	}
	next = BPF_CORE_READ(m, mnt_child.next);
	if (!next || next == &m->mnt_child ||
	    (u64)BPF_CORE_READ(m, mnt_ns) != c->key) {
		/* it left the tree: its siblings are lost, so start again
		 * from the root (nsfs_mounts is keyed by mount: no doubles) */
		if (c->restarts++ >= WALK_RESTARTS) {
			walk_end(c, HOLDERS_WALK_CHANGED);
			return 0;
		}
		c->cur = c->root;
		c->down = true;
		return 0;
	}
	m = BPF_CORE_READ(m, mnt_parent);
	if (next != &m->mnt_mounts) {
		c->cur = (void *)next - bpf_core_field_offset(struct mount, mnt_child);
		walk_visit(c, c->cur);
		c->down = true;
		return 0;
	}
	c->cur = m;
	return 0;
}

/*
 * 0, but not to the verifier: 6.1's checks a bpf_loop callback once, from
 * the state of its first call (6.7 checks it as called any number of
 * times). With the walk's state known zero there, it took every branch of
 * a later step (down, sideways, up) for dead and removed it: the walk
 * visited each namespace's root (or its first branch: cur and root both
 * known NULL there were equal) and stopped: holders listed no mount.
 */
__u32 walk_unknown = 0;

/* Walk every mount namespace queued (ns first, if new). */
static __always_inline void walk_mounts(struct mnt_namespace *ns)
{
	struct walk_ctx c = {};
	long n;

	c.key = walk_unknown;
	c.root = (void *)(u64)walk_unknown;
	c.cur = (void *)(u64)walk_unknown;
	c.down = walk_unknown;
	c.restarts = walk_unknown;
	walk_queue_ns(ns);
	n = bpf_loop(WALK_STEPS, walk_step, &c, 0);
	if (n >= WALK_STEPS && c.key)
		walk_end(&c, HOLDERS_WALK_BUDGET);
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
	if (nsp)
		walk_mounts(BPF_CORE_READ(nsp, mnt_ns));
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
		if (r->ns.clone_flag == CLONE_NEWNS) {
			bpf_seq_write(ctx->meta->seq, r, sizeof(*r));
			walk_mounts((void *)BPF_CORE_READ(inode, i_private) -
				    bpf_core_field_offset(struct mnt_namespace, ns));
			return 0;
		}
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
