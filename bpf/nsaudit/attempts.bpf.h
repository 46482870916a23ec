/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attempts.bpf.h - the attempts to get hold of a namespace that fail, as
 * records (op nsfd or query, result -errno): someone probing with nsfs
 * file handles, pidfds or nsfs ioctls is seen like a refused open of
 * /proc/PID/ns/TYPE is.
 *
 *   open_by_handle_at of an nsfs handle  ESTALE (no such namespace), EPERM
 *                                        (no CAP_DAC_READ_SEARCH); the
 *                                        namespace is what the handle says
 *   PIDFD_GET_*_NAMESPACE                EACCES (ptrace access), ESRCH
 *   pidfd_getfd of another's nsfs fd     EPERM; the namespace is that fd's
 *   NS_GET_* on an nsfs fd               EPERM (no parent, out of reach), ...
 *
 * Included once, by pins_fd.bpf.c, whose open, ioctl, pidfd_getfd and
 * open_by_handle_at hooks call it.
 */
#ifndef NSAUDIT_ATTEMPTS_BPF_H
#define NSAUDIT_ATTEMPTS_BPF_H

#define FILEID_NSFS	0xf1
#define FD_NSFS_ROOT	-10003
#define PIDTYPE_TGID_IDX 1	/* enum pid_type: PIDTYPE_PID, PIDTYPE_TGID, ... */

/* struct file_handle of nsfs (6.18): the header and struct nsfs_file_handle. */
struct nsfs_handle_user {
	__u32 handle_bytes;
	__s32 handle_type;
	__u64 ns_id;
	__u32 ns_type;	/* CLONE_NEW* */
	__u32 ns_inum;
};

SEC("tracepoint/syscalls/sys_enter_open_by_handle_at")
int tp_enter_open_by_handle_at(struct trace_event_raw_sys_enter *ctx)
{
	struct nsfs_handle_user h = {};
	int mfd = (int)ctx->args[0];
	struct tstate *ts;

	if (!op_wanted(NSAUDIT_OP_NSFD))
		return 0;
	if (bpf_probe_read_user(&h, sizeof(h), (void *)ctx->args[1]) &&
	    bpf_probe_read_user(&h, 8, (void *)ctx->args[1]))
		return 0;
	if (h.handle_type != FILEID_NSFS && mfd != FD_NSFS_ROOT)
		return 0;
	ts = tstate_get(NSAUDIT_OP_NSFD);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_NSFD;
	ts->p.via = NSAUDIT_VIA_HANDLE;
	ts->p.target_type = clone_flag_to_type(h.ns_type);
	ts->p.target_id = h.ns_id;
	ts->p.target_inum = h.ns_inum;
	return 0;
}

/* At the exit of open_by_handle_at: a failure is a record of what the
 * handle named. Either way the pending call is done. */
static __always_inline void handle_exit(long ret)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_NSFD);
	struct ev_key k;

	if (!ts || ts->p.via != NSAUDIT_VIA_HANDLE)
		return;
	ts->p.op = NSAUDIT_OP_NONE;
	if (ret >= 0 || !type_wanted(ts->p.target_type))
		return;
	key_init(&k, NSAUDIT_OP_NSFD, NSAUDIT_PROBE_TP_SYSCALLS);
	k.result = ret;
	k.via = NSAUDIT_VIA_HANDLE;
	k.ns_type = ts->p.target_type;
	if (ts->p.target_inum || ts->p.target_id) {
		k.ns_inum = ts->p.target_inum;
		k.ns_id = ts->p.target_id;
		k.flags |= NSAUDIT_F_HAS_NS;
	}
	commit_key(ts, &k, 0);
}

/*
 * pidfd_getfd's target: the nsfs file the other process has at fd (NULL
 * if none), read before the call, so that a refused copy still says what
 * it tried to take.
 */
static __always_inline void getfd_target(struct tstate *ts, struct file *pidfd, int fd)
{
	unsigned long magic = BPF_CORE_READ(pidfd, f_inode, i_sb, s_magic);
	struct task_struct *task;
	struct hlist_node *first;
	struct ns_common *ns;
	struct file *file;
	struct pid *pid;

	ts->p.target_inum = 0;
	ts->p.target_id = 0;
	ts->p.target_type = NSAUDIT_NS_UNKNOWN;
	pid = magic == PIDFS_MAGIC ? BPF_CORE_READ(pidfd, f_inode, i_private)
				   : BPF_CORE_READ(pidfd, private_data);
	if (!pid)
		return;
	first = BPF_CORE_READ(pid, tasks[PIDTYPE_TGID_IDX].first);
	if (!first)
		return;
	task = (void *)first - bpf_core_field_offset(struct task_struct, pid_links) -
	       PIDTYPE_TGID_IDX * bpf_core_type_size(struct hlist_node);
	file = task_fd_file(task, fd);
	if (!file || !file_is_nsfs(file))
		return;
	ns = file_ns(file);
	ts->p.target_type = ns_type(ns);
	ns_ident(ns, &ts->p.target_inum, &ts->p.target_id);
}

/* A refused pidfd_getfd of an nsfs fd: who tried to take which namespace. */
static __always_inline void getfd_failed(struct tstate *ts, long ret)
{
	struct ev_key k;

	if (!ts->p.target_inum || !type_wanted(ts->p.target_type))
		return;
	key_init(&k, NSAUDIT_OP_NSFD, NSAUDIT_PROBE_TP_SYSCALLS);
	k.result = ret;
	k.via = NSAUDIT_VIA_PIDFD_GETFD;
	k.arg = ts->p.arg;
	k.target_pid = ts->p.args[0];
	k.ns_type = ts->p.target_type;
	k.ns_inum = ts->p.target_inum;
	k.ns_id = ts->p.target_id;
	k.flags |= NSAUDIT_F_HAS_NS;
	commit_key(ts, &k, 0);
}

/* ---- a refused open of "ns/TYPE" relative to a /proc/PID directory ------ */

#define PROC_SUPER_MAGIC 0x9fa0
#define AT_FDCWD_NR	-100

/* The members read here that the minimal vmlinux.h leaves out. */
struct proc_inode___attempt {
	struct pid *pid;
	struct inode vfs_inode;
} __attribute__((preserve_access_index));

struct fs_struct___attempt {
	struct path pwd;
} __attribute__((preserve_access_index));

struct task_struct___attempt {
	struct fs_struct___attempt *fs;
} __attribute__((preserve_access_index));

/*
 * The type a name under ns/ is (n: what follows "ns/", NUL-padded), or
 * -1: the *_for_children and time files are left to user space.
 */
static __always_inline int ns_file_type(const char *n)
{
	if (n[0] == 'n' && n[1] == 'e' && n[2] == 't' && !n[3])
		return NSAUDIT_NS_NET;
	if (n[0] == 'u' && n[1] == 't' && n[2] == 's' && !n[3])
		return NSAUDIT_NS_UTS;
	if (n[0] == 'i' && n[1] == 'p' && n[2] == 'c' && !n[3])
		return NSAUDIT_NS_IPC;
	if (n[0] == 'm' && n[1] == 'n' && n[2] == 't' && !n[3])
		return NSAUDIT_NS_MNT;
	if (n[0] == 'p' && n[1] == 'i' && n[2] == 'd' && !n[3])
		return NSAUDIT_NS_PID;
	if (n[0] == 'u' && n[1] == 's' && n[2] == 'e' && n[3] == 'r' && !n[4])
		return NSAUDIT_NS_USER;
	if (n[0] == 'c' && n[1] == 'g' && n[2] == 'r' && n[3] == 'o' && n[4] == 'u' &&
	    n[5] == 'p' && !n[6])
		return NSAUDIT_NS_CGROUP;
	return -1;
}

/* The task's active pid namespace (probe reads: any task pointer). */
static __always_inline struct ns_common *task_active_pidns_any(struct task_struct *task)
{
	struct pid *tp = BPF_CORE_READ(task, thread_pid);
	struct pid_namespace *ns = NULL;
	__u32 level;

	if (!tp)
		return NULL;
	/* levels run 0..32 (MAX_PID_NS_LEVEL): a mask of 31 read level 32,
	 * which an unprivileged user reaches by nesting, as the host's */
	level = BPF_CORE_READ(tp, level);
	if (level > 32)
		return NULL;
	bpf_probe_read_kernel(&ns, sizeof(ns),
			      (void *)tp + bpf_core_field_offset(struct pid, numbers) +
				      level * bpf_core_type_size(struct upid) +
				      bpf_core_field_offset(struct upid, ns));
	return ns ? &ns->ns : NULL;
}

/*
 * A refused open of "ns/TYPE" relative to dirfd (AT_FDCWD: the working
 * directory), when that is a /proc/PID (or /proc/PID/task/TID) directory
 * of any procfs: the namespace it names, read at the call, into k (the
 * actor may have exited by the time the record is read, and its cwd with
 * it). The directory's proc inode holds the struct pid it shows. Read at
 * the open's exit: another thread of the actor could change the dirfd in
 * between, which can only misname the actor's own refused attempt.
 */
__noinline int denied_rel_target(struct ev_key *k, int dirfd, int type)
{
	struct task_struct___attempt *cur = (void *)bpf_get_current_task_btf();
	struct proc_inode___attempt *pi;
	struct task_struct *task;
	struct hlist_node *first;
	struct ns_common *ns;
	struct inode *ino;
	struct file *f;
	struct pid *pid;

	if (!k || type < 0 || type >= NSAUDIT_NS_MAX)
		return 0;
	if (dirfd == AT_FDCWD_NR) {
		ino = BPF_CORE_READ(cur, fs, pwd.dentry, d_inode);
	} else {
		f = task_fd_file((struct task_struct *)cur, dirfd);
		ino = f ? BPF_CORE_READ(f, f_inode) : NULL;
	}
	if (!ino || BPF_CORE_READ(ino, i_sb, s_magic) != PROC_SUPER_MAGIC)
		return 0;
	pi = (void *)ino - bpf_core_field_offset(struct proc_inode___attempt, vfs_inode);
	pid = BPF_CORE_READ(pi, pid);
	first = pid ? BPF_CORE_READ(pid, tasks[0].first) : NULL; /* PIDTYPE_PID */
	if (!first)
		return 0;
	task = (void *)first - bpf_core_field_offset(struct task_struct, pid_links);
	ns = type == NSAUDIT_NS_PID ? task_active_pidns_any(task) : task_ns(task, type);
	if (!ns)
		return 0;
	ns_ident(ns, &k->ns_inum, &k->ns_id);
	k->ns_type = type;
	k->target_pid = BPF_CORE_READ(task, tgid);
	k->flags |= NSAUDIT_F_HAS_NS;
	return 0;
}

#endif /* NSAUDIT_ATTEMPTS_BPF_H */
