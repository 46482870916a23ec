// SPDX-License-Identifier: GPL-2.0
/*
 * pins_fd.bpf.c - pins by fd: an open() that returned an nsfs file (or was
 * refused one), and nsfs fds made without open(): the NS_GET_* and
 * PIDFD_GET_*_NAMESPACE ioctls, pidfd_getfd(), open_by_handle_at(), and
 * the patched kernel's nsfd(). Each notes the file's origin (fd_origins)
 * for a later setns.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "nsaudit.h"
#include "nsaudit_core.bpf.h"
#include "emit.bpf.h"
#include "nsfile.bpf.h"
#include "attempts.bpf.h"

/* ---- nsfs fds made without open() --------------------------------------- */

/* An ioctl command's number and type (include/uapi/asm-generic/ioctl.h). */
#define IOC_NR(cmd)		((cmd) & 0xff)
#define IOC_TYPE(cmd)		(((cmd) >> 8) & 0xff)

#define NS_IOC_TYPE		0xb7

#define PIDFD_IOC_TYPE		0xff

#define NR_NS_GET_USERNS	1

#define NR_NS_GET_PARENT	2

#define NR_NS_GET_OWNER_UID	4

#define NR_NS_MNT_GET_NEXT	11

#define NR_NS_MNT_GET_PREV	12

/* PIDFD_GET_*_NAMESPACE (include/uapi/linux/pidfd.h, Linux 6.11) */
#define NR_PIDFD_GET_CGROUP_NAMESPACE		1
#define NR_PIDFD_GET_IPC_NAMESPACE		2
#define NR_PIDFD_GET_MNT_NAMESPACE		3
#define NR_PIDFD_GET_NET_NAMESPACE		4
#define NR_PIDFD_GET_PID_NAMESPACE		5
#define NR_PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE	6
#define NR_PIDFD_GET_TIME_NAMESPACE		7
#define NR_PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE 8
#define NR_PIDFD_GET_USER_NAMESPACE		9
#define NR_PIDFD_GET_UTS_NAMESPACE		10

#define NR_PIDFD_GET_NS_FIRST	NR_PIDFD_GET_CGROUP_NAMESPACE
#define NR_PIDFD_GET_NS_LAST	NR_PIDFD_GET_UTS_NAMESPACE

/* The namespace type a PIDFD_GET_*_NAMESPACE command asks for. */
static __always_inline __u32 pidfd_ioctl_type(__u32 nr)
{
	switch (nr) {
	case NR_PIDFD_GET_CGROUP_NAMESPACE:
		return NSAUDIT_NS_CGROUP;
	case NR_PIDFD_GET_IPC_NAMESPACE:
		return NSAUDIT_NS_IPC;
	case NR_PIDFD_GET_MNT_NAMESPACE:
		return NSAUDIT_NS_MNT;
	case NR_PIDFD_GET_NET_NAMESPACE:
		return NSAUDIT_NS_NET;
	case NR_PIDFD_GET_PID_NAMESPACE:
	case NR_PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE:
		return NSAUDIT_NS_PID;
	case NR_PIDFD_GET_TIME_NAMESPACE:
	case NR_PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE:
		return NSAUDIT_NS_TIME;
	case NR_PIDFD_GET_USER_NAMESPACE:
		return NSAUDIT_NS_USER;
	case NR_PIDFD_GET_UTS_NAMESPACE:
		return NSAUDIT_NS_UTS;
	}
	return NSAUDIT_NS_UNKNOWN;
}

/* The NS_GET_* commands that make an nsfs fd (op nsfd). */
static __always_inline bool ns_ioctl_makes_fd(__u32 nr)
{
	return nr == NR_NS_GET_USERNS || nr == NR_NS_GET_PARENT || nr == NR_NS_MNT_GET_NEXT ||
	       nr == NR_NS_MNT_GET_PREV;
}

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
 * commands (and a few other types sharing those bits, dropped at entry).
 */
static __always_inline bool ioctl_maybe_ours(__u32 cmd)
{
	return ((cmd >> 8) & NS_IOC_TYPE & PIDFD_IOC_TYPE) == (NS_IOC_TYPE & PIDFD_IOC_TYPE);
}

SEC("tracepoint/syscalls/sys_enter_ioctl")
int tp_enter_ioctl(struct trace_event_raw_sys_enter *ctx)
{
	__u32 cmd = ctx->args[1];
	__u32 nr = IOC_NR(cmd), type = IOC_TYPE(cmd);
	struct tstate *ts;
	struct file *file;

	if (!ioctl_maybe_ours(cmd))
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
	struct tstate *ts;
	__u32 cmd, nr, via;
	struct ev_key k;
	__u64 fd, cmd_reg;

	/* the entry's filter again, from the saved registers (a page the call
	 * has touched): the thread's state is not looked up for the ioctls of
	 * the rest of the machine */
	syscall_args2((struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf()), &fd,
		      &cmd_reg);
	if (!ioctl_maybe_ours(cmd_reg))
		return 0;
	ts = tstate_pending(NSAUDIT_OP_NSFD);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_NONE;
	cmd = ts->p.arg;
	nr = IOC_NR(cmd);
	if (IOC_TYPE(cmd) == NS_IOC_TYPE && !ns_ioctl_makes_fd(nr)) {
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
	via = IOC_TYPE(cmd) == PIDFD_IOC_TYPE ? NSAUDIT_VIA_PIDFD : NSAUDIT_VIA_NS_IOCTL;
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
	nsfs_fd_made(tstate_find_cur(true), ctx->ret, NSAUDIT_VIA_HANDLE,
		     0, 0);
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

/* openat()'s and openat2()'s first argument: the directory fd. */
static __always_inline long open_dirfd_arg(void)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	__u64 a0, a1;

	syscall_args2(regs, &a0, &a1);
	return (long)(int)a0;
}

/*
 * The path of the open being exited, zero-padded (so that two records'
 * paths compare word by word), in this CPU's scratch; NULL only if the
 * scratch is missing. An unreadable path is an empty one. A longer path
 * than the record holds: its first bytes, and k says it was cut (then a
 * coalesced repeat is one whose first bytes match and is cut too).
 */
static __always_inline const struct path_buf *open_path_read(struct ev_key *k, const char *upath)
{
	__u32 zero = 0;
	struct path_buf *pb = bpf_map_lookup_elem(&path_scratch, &zero);
	long n;
	int i;

	if (!pb)
		return NULL;
#pragma unroll
	for (i = 0; i < NSAUDIT_PATH_LEN / 8; i++)
		pb->w[i] = 0;
	if (!upath)
		return pb;
	n = bpf_probe_read_user_str(pb, sizeof(*pb), upath);
	if (user_str_cut(n, (__u64)upath, sizeof(*pb)))
		k->flags |= NSAUDIT_F_PATH_CUT;
	return pb;
}

#define NSAUDIT_EPERM	1

#define NSAUDIT_EACCES	13

/* "/" + a procfs mount's path + "4194304/task/4194304" + "/ns/": where
 * "/ns/" can start */
#define PROC_NS_SCAN	64

/*
 * An open of PID/ns/TYPE refused by the access check (EACCES, EPERM)
 * pinned nothing, but someone tried to: report it with the path, and user
 * space names the type and target. Through any procfs mount (/proc, a
 * host's /proc mounted again at /hp in a container, a dirfd of /proc/PID:
 * "ns/net"): any path with a "/ns/" near its start, or one that starts
 * with "ns/". Only refused opens get here, so every other failing open on
 * the machine still costs one compare. A global subprogram, as
 * open_record(): see there.
 */
__noinline int open_denied(long ret, int arg)
{
	const char *upath = open_path_arg(arg);
	char head[PROC_NS_SCAN + 4] = {};
	const struct path_buf *path;
	struct ev_key k;
	bool ns_dir;
	int i;

	if (!upath || !op_wanted(NSAUDIT_OP_OPEN))
		return 0;
	if (bpf_probe_read_user_str(head, sizeof(head), upath) < 4)
		return 0;
	ns_dir = head[0] == 'n' && head[1] == 's' && head[2] == '/';
	#pragma unroll
	for (i = 0; i < PROC_NS_SCAN; i++)
		if (head[i] == '/' && head[i + 1] == 'n' && head[i + 2] == 's' && head[i + 3] == '/')
			ns_dir = true;
	if (!ns_dir)
		return 0;
	key_init(&k, NSAUDIT_OP_OPEN, NSAUDIT_PROBE_TP_SYSCALLS);
	k.result = ret;
	k.via = NSAUDIT_VIA_PROC;
	/* relative to a /proc/PID directory: its namespace now (attempts.bpf.h) */
	if (head[0] == 'n' && head[1] == 's' && head[2] == '/')
		denied_rel_target(&k, arg ? (int)open_dirfd_arg() : AT_FDCWD_NR,
				  ns_file_type(&head[3]));
	path = open_path_read(&k, upath);
	commit_path(&k, 0, path);
	return 0;
}

/* Set by the loader: open()'s syscall number; -1 where there is none (arm64). */
const volatile long nr_open = -1;

/*
 * An open that returned an nsfs file: its record. A global subprogram:
 * every open on the machine runs the exit hook, and the code of a rare
 * path inlined there would spread the common one over more pages (each
 * costs a TLB miss after a syscall with PTI and no PCID). file: its
 * address (a global subprogram takes no kernel pointer). The path is
 * open()'s first argument, openat()'s and openat2()'s second (nr: the
 * tracepoint's syscall number).
 */
__noinline int open_record(long ret, long nr, __u64 file_addr)
{
	struct file *file = (struct file *)file_addr;
	int arg = nr != nr_open;
	const struct path_buf *path;
	struct ns_common *ns;
	struct ev_key k;
	__u32 type;

	if (prime_tgid && prime_tgid == bpf_get_current_pid_tgid() >> 32)
		return 0; /* the loader's own open, that taught open_is_nsfs() */
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
	path = open_path_read(&k, open_path_arg(arg));
	commit_path(&k, ns_refcount(ns), path);
	return 0;
}

/*
 * The exit decides: the new fd tells whether an nsfs file was opened
 * (rare). nr_open (.rodata) is read only then: its page is one the
 * common open need not touch. ksym: nsfs told apart by ns_ioctl's address
 * (6.4+), else by the learned f_op (nsfile.bpf.h).
 */
static __always_inline int handle_open_exit(long ret, long nr, const bool ksym)
{
	struct file *file;

	if (ret < 0) {
		if (ret == -NSAUDIT_EACCES || ret == -NSAUDIT_EPERM)
			open_denied(ret, nr != nr_open);
		return 0;
	}
	file = cur_fd_file(ret);
	if (file && (ksym ? open_is_nsfs_ksym(file) : open_is_nsfs(file)))
		open_record(ret, nr, (__u64)file);
	return 0;
}

/*
 * One program for the three opens: the loader attaches it to
 * sys_exit_open and sys_exit_openat2 too (one program is verified once:
 * three cost every start ~25 ms more). The tracepoint says which call it
 * is.
 */
SEC("tracepoint/syscalls/sys_exit_openat")
int tp_exit_openat(struct trace_event_raw_sys_exit *ctx)
{
	return handle_open_exit(ctx->ret, ctx->id, true);
}

/* The same before 6.4 (the loader loads one of the two). */
SEC("tracepoint/syscalls/sys_exit_openat")
int tp_exit_openat_fops(struct trace_event_raw_sys_exit *ctx)
{
	return handle_open_exit(ctx->ret, ctx->id, false);
}

/* ---- the patched kernel: nsfd(), namespace:nsfd ------------------------
 *
 * Loaded only where the kernel has them (the loader reads nsfd()'s number,
 * 500, from /proc/sys/kernel/nsfd_syscall_nr); elsewhere autoload is off
 * and they cost nothing. The kernel ABI (kernel-patch/): nsfd(pid_t pid,
 * unsigned int nstype, unsigned int flags) (flags: NSFD_FOR_CHILDREN);
 * PIDFD_GET_*_NAMESPACE ioctls on pidfds do the same; the tracepoint is
 * namespace:nsfd(pid, pidfd, nstype, flags, target, ns, ret).
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
