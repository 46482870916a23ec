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

/* Set by the loader before load (.rodata). */
const volatile __u32 filter_tgid = 0;		/* 0: every process */
const volatile __u32 op_mask = 0xffffffff;	/* 1 << enum nsaudit_op */
const volatile __u32 type_mask = 0xffffffff;	/* 1 << enum nsaudit_ns_type */
const volatile __u64 wakeup_bytes = 1 << 20;	/* force a wakeup past this */
const volatile __u32 self_tgid = 0;		/* the loader: never trace it */
const volatile bool have_nsfd = false;		/* patched kernel: nsfd() fds exist */

/* Records the ring could not take; read by user space, reported as "lost". */
__u64 lost_events = 0;
/* Numbers every record, so a recorder restarted on the pinned ring can tell
 * which records its crashed predecessor already wrote. */
__u64 next_kseq = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);	/* resized by the loader (--ring-size) */
} events SEC(".maps");

/* Work carried from a syscall's entry to its exit, per thread. */
struct pending {
	__u32 op;
	__u32 probe;
	__u32 nsmask;		/* types the call may change */
	__u64 arg;
	__s32 fd;
	__u32 via;
	__u32 target_inum;	/* the namespace an nsfs fd names */
	__u32 target_type;
	__u64 target_id;
	__u32 old_inum[NSAUDIT_NS_MAX];
	__u64 old_id[NSAUDIT_NS_MAX];
};

/*
 * Per-thread task storage, not a hash keyed by tid: a direct pointer from
 * the task instead of a hash update at entry and a lookup plus delete at
 * exit (setns is a hot path), and nothing left behind by a thread that
 * dies inside a syscall.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct pending);
} pending SEC(".maps");

static __always_inline bool op_wanted(__u32 op)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	if (self_tgid && tgid == self_tgid)
		return false;
	if (filter_tgid && tgid != filter_tgid)
		return false;
	return op_mask & (1u << op);
}

/*
 * Reserve a record of size bytes (NSAUDIT_EVENT_SHORT, or the whole struct
 * for records with a path) and fill what every record carries.
 */
static __always_inline struct nsaudit_event *event_reserve(__u32 op, __u32 probe, __u64 size)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct nsaudit_event *e;
	struct file *exe;
	__u64 id = bpf_get_current_pid_tgid();
	__u64 ugid = bpf_get_current_uid_gid();

	e = bpf_ringbuf_reserve(&events, size, 0);
	if (!e) {
		__sync_fetch_and_add(&lost_events, 1);
		return NULL;
	}
	e->ts_boot_ns = bpf_ktime_get_boot_ns();
	e->kseq = __sync_fetch_and_add(&next_kseq, 1) + 1;
	e->op = op;
	e->probe = probe;
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->uid = (__u32)ugid;
	/* direct BTF loads: no helper call per pointer */
	e->euid = task->cred->euid.val;
	e->ppid = task->real_parent->tgid;
	e->auid = task_loginuid(task);
	e->cgroup_id = bpf_get_current_cgroup_id();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	e->ns_id = e->old_ns_id = e->count = e->arg = 0;
	e->ns_type = NSAUDIT_NS_UNKNOWN;
	e->ns_inum = e->old_inum = 0;
	e->result = 0;
	e->target_pid = 0;
	e->fd = -1;
	e->via = NSAUDIT_VIA_NONE;
	e->flags = 0;
	e->ns_refs = 0;
	exe = task->mm->exe_file;	/* NULL for kernel threads: loads give 0 */
	e->exe_ino = exe->f_inode->i_ino;
	e->exe_dev = exe->f_inode->i_sb->s_dev;
	return e;
}

#define event_start(op, probe) event_reserve(op, probe, NSAUDIT_EVENT_SHORT)

static __always_inline struct nsaudit_event *event_start_path(__u32 op, __u32 probe)
{
	struct nsaudit_event *e = event_reserve(op, probe, sizeof(*e));

	if (e)
		e->path[0] = '\0';
	return e;
}

/*
 * Wake the reader only when this record makes the ring cross the fill
 * threshold. Waking on every record above it would cost the traced task
 * ~3 us per record whenever the reader falls behind; below it, the reader
 * drains on its own poll timeout.
 */
static __always_inline void event_submit(struct nsaudit_event *e)
{
	__u64 avail = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);
	__u64 flags = BPF_RB_NO_WAKEUP;

	if (avail >= wakeup_bytes && avail < wakeup_bytes + 2 * sizeof(*e))
		flags = BPF_RB_FORCE_WAKEUP;
	bpf_ringbuf_submit(e, flags);
}

/* This thread's pending slot, cleared, for a syscall's entry. */
static __always_inline struct pending *pending_new(void)
{
	struct pending *p = bpf_task_storage_get(&pending, bpf_get_current_task_btf(), 0,
						 BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (p)
		__builtin_memset(p, 0, sizeof(*p));
	return p;
}

/* This thread's pending work for op, at a syscall's exit; NULL if none. */
static __always_inline struct pending *pending_get(__u32 op)
{
	struct pending *p = bpf_task_storage_get(&pending, bpf_get_current_task_btf(), 0, 0);

	return p && p->op == op ? p : NULL;
}

/* Remember the namespaces of the types in p->nsmask before the call. */
static __always_inline void pending_save_old(struct pending *p)
{
	struct task_struct *task = bpf_get_current_task_btf();
	int t;

	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		struct ns_common *ns;

		if (!(p->nsmask & (1u << t)))
			continue;
		ns = task_ns_btf(task, t);
		if (ns)
			ns_ident_btf(ns, &p->old_inum[t], &p->old_id[t]);
	}
}

/*
 * One record per namespace type the call was about: the namespace the task
 * has now (entered or created), and the one it had before.
 */
static __always_inline void emit_switch(struct pending *p, long ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	int t;

	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		struct nsaudit_event *e;
		struct ns_common *ns;

		if (!(p->nsmask & (1u << t)) || !(type_mask & (1u << t)))
			continue;
		e = event_start(p->op, p->probe);
		if (!e)
			continue;	/* counted in lost_events; the next type is too */
		e->ns_type = t;
		e->result = ret;
		e->arg = p->arg;
		e->fd = p->fd;
		e->via = p->via;
		e->old_inum = p->old_inum[t];
		e->old_ns_id = p->old_id[t];
		if (e->old_inum)
			e->flags |= NSAUDIT_F_HAS_OLD;
		if (t == NSAUDIT_NS_PID || t == NSAUDIT_NS_TIME)
			e->flags |= NSAUDIT_F_FOR_CHILDREN;
		if (ret == 0) {
			ns = task_ns_btf(task, t);
			if (ns) {
				ns_ident_btf(ns, &e->ns_inum, &e->ns_id);
				e->ns_refs = ns_refcount_btf(ns);
				e->flags |= NSAUDIT_F_HAS_NS;
			}
		} else if (p->target_inum && p->target_type == t) {
			/* a failed setns still names the namespace it tried */
			e->ns_inum = p->target_inum;
			e->ns_id = p->target_id;
			e->flags |= NSAUDIT_F_HAS_NS;
		}
		event_submit(e);
	}
}

static __always_inline void pending_finish(__u32 op, long ret)
{
	struct pending *p = pending_get(op);

	if (!p)
		return;
	emit_switch(p, ret);
	p->op = NSAUDIT_OP_NONE;
}

/* ---- setns(fd, nstype) ------------------------------------------------ */

/*
 * Where an nsfs fd came from, for the "via" of the setns that uses it:
 * nsfd() fds are remembered here (keyed by process and fd, checked against
 * the struct file so a reused fd number is not mistaken for it).
 */
struct fd_key {
	__u32 tgid;
	__s32 fd;
};

struct fd_origin {
	__u64 file;
	__u32 via;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct fd_key);
	__type(value, struct fd_origin);
} fd_origins SEC(".maps");

static __always_inline __u32 nsfs_fd_via(struct file *file, int fd)
{
	struct fd_key k = { .tgid = bpf_get_current_pid_tgid() >> 32, .fd = fd };
	struct fd_origin *o;

	if (file_is_bind_mount(file))
		return NSAUDIT_VIA_BIND;
	if (!have_nsfd)		/* stock kernel: skip the lookup */
		return NSAUDIT_VIA_PROC;
	o = bpf_map_lookup_elem(&fd_origins, &k);
	if (o && o->file == (__u64)file)
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

static __always_inline void setns_enter(int fd, __u64 flags, __u32 probe)
{
	struct pending *p;
	struct file *file;

	if (!op_wanted(NSAUDIT_OP_SETNS))
		return;
	p = pending_new();
	if (!p)
		return;
	p->op = NSAUDIT_OP_SETNS;
	p->probe = probe;
	p->fd = fd;
	p->arg = flags;

	file = cur_fd_file(fd);
	if (file && file_is_nsfs(file)) {
		struct ns_common *ns = file_ns(file);

		p->target_type = ns_type(ns);
		ns_ident(ns, &p->target_inum, &p->target_id);
		if (p->target_type < NSAUDIT_NS_MAX)
			p->nsmask = 1u << p->target_type;
		p->via = nsfs_fd_via(file, fd);
	} else {
		/* a pidfd (or garbage): the types are the CLONE_NEW* bits */
		p->nsmask = clone_flags_to_mask(flags);
		if (file && file_is_pidfd(file))
			p->via = NSAUDIT_VIA_PIDFD;
		p->target_type = NSAUDIT_NS_UNKNOWN;
	}
	if (!p->nsmask)
		p->nsmask = 1u << NSAUDIT_NS_NET; /* type unknown: still report it */
	pending_save_old(p);
}

SEC("tracepoint/syscalls/sys_enter_setns")
int tp_enter_setns(struct trace_event_raw_sys_enter *ctx)
{
	setns_enter((int)ctx->args[0], ctx->args[1], NSAUDIT_PROBE_TP_SYSCALLS);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_setns")
int tp_exit_setns(struct trace_event_raw_sys_exit *ctx)
{
	pending_finish(NSAUDIT_OP_SETNS, ctx->ret);
	return 0;
}

/* ---- unshare(flags) ----------------------------------------------------- */

SEC("tracepoint/syscalls/sys_enter_unshare")
int tp_enter_unshare(struct trace_event_raw_sys_enter *ctx)
{
	__u64 flags = ctx->args[0];
	__u32 mask = clone_flags_to_mask(flags);
	struct pending *p;

	if (!mask || !op_wanted(NSAUDIT_OP_UNSHARE))
		return 0;
	p = pending_new();
	if (!p)
		return 0;
	p->op = NSAUDIT_OP_UNSHARE;
	p->probe = NSAUDIT_PROBE_TP_SYSCALLS;
	p->nsmask = mask;
	p->arg = flags;
	p->fd = -1;
	pending_save_old(p);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_unshare")
int tp_exit_unshare(struct trace_event_raw_sys_exit *ctx)
{
	pending_finish(NSAUDIT_OP_UNSHARE, ctx->ret);
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
	__type(key, struct nsaudit_exe_key);
	__type(value, char[NSAUDIT_PATH_LEN]);
} exe_paths SEC(".maps");

/* The first 8 bytes of s as one word: prefix tests without a loop. */
static __always_inline __u64 word8(const char *s)
{
	__u64 w;

	__builtin_memcpy(&w, s, sizeof(w));
	return w;
}

/*
 * Every exec, always (not only when a record is wanted): the process may
 * make its namespace calls long after. Updating even a known key keeps the
 * path right when an inode number is reused by another file.
 */
SEC("raw_tp/sched_process_exec")
int BPF_PROG(tp_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct nsaudit_exe_key k = {};
	char path[NSAUDIT_PATH_LEN];
	struct inode *inode = BPF_CORE_READ(bprm, file, f_inode);

	k.ino = BPF_CORE_READ(inode, i_ino);
	k.dev = BPF_CORE_READ(inode, i_sb, s_dev);
	/* interp: the file finally run (a script's interpreter, not the script) */
	if (!k.ino || bpf_probe_read_kernel_str(path, sizeof(path), BPF_CORE_READ(bprm, interp)) < 2)
		return 0;
	/* relative names and fexecve's /dev/fd/N say nothing: /proc/PID/exe will */
	if (path[0] != '/' || word8(path) == word8("/dev/fd/") ||
	    (word8(path) & 0xffffffffffffULL) == (word8("/proc/..") & 0xffffffffffffULL))
		return 0;
	bpf_map_update_elem(&exe_paths, &k, path, BPF_ANY);
	return 0;
}

/* ---- clone/clone3/fork with CLONE_NEW*: the child has other namespaces -- */

SEC("raw_tp/sched_process_fork")
int BPF_PROG(tp_fork, struct task_struct *parent, struct task_struct *child)
{
	int t;

	/* the common case, no new namespace: same nsproxy, same user ns */
	if (BPF_CORE_READ(parent, nsproxy) == BPF_CORE_READ(child, nsproxy) &&
	    BPF_CORE_READ(parent, cred, user_ns) == BPF_CORE_READ(child, cred, user_ns))
		return 0;
	if (!op_wanted(NSAUDIT_OP_CLONE))
		return 0;

	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		struct ns_common *old_ns, *new_ns;
		struct nsaudit_event *e;

		if (!(type_mask & (1u << t)))
			continue;
		old_ns = task_ns(parent, t);
		new_ns = task_ns(child, t);
		if (old_ns == new_ns || !new_ns)
			continue;
		e = event_start(NSAUDIT_OP_CLONE, NSAUDIT_PROBE_RAW_TP_FORK);
		if (!e)
			continue;	/* counted in lost_events; the next type is too */
		e->ns_type = t;
		e->target_pid = BPF_CORE_READ(child, tgid);
		ns_ident(new_ns, &e->ns_inum, &e->ns_id);
		e->ns_refs = ns_refcount(new_ns);
		if (old_ns)
			ns_ident(old_ns, &e->old_inum, &e->old_ns_id);
		e->flags |= NSAUDIT_F_HAS_NS | (e->old_inum ? NSAUDIT_F_HAS_OLD : 0);
		if (t == NSAUDIT_NS_PID || t == NSAUDIT_NS_TIME)
			e->flags |= NSAUDIT_F_FOR_CHILDREN;
		event_submit(e);
	}
	return 0;
}

/* ---- pins by fd: an open() that returned an nsfs file -------------------- */

/* The path argument of the open being exited, back from its registers. */
static __always_inline const char *open_path_arg(int path_arg)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());

	return (const char *)(path_arg == 0 ? BPF_CORE_READ(regs, di) : BPF_CORE_READ(regs, si));
}

#define NSAUDIT_EPERM	1
#define NSAUDIT_EACCES	13
/* "/proc/" + "4194304/task/4194304" + "/ns/": where "/ns/" can start */
#define PROC_NS_SCAN	32

/*
 * An open of /proc/PID/ns/TYPE refused by the access check (EACCES, EPERM)
 * pinned nothing, but someone tried to: report it with the path, and user
 * space names the type and target. Only refused opens get here, so every
 * other failing open on the machine still costs one compare. The path is
 * read back from user memory at exit: a thread racing to rewrite it could
 * change what is reported, never what the kernel refused.
 */
static __always_inline void handle_open_denied(long ret, int path_arg)
{
	const char *upath = open_path_arg(path_arg);
	char head[PROC_NS_SCAN + 4] = {};
	struct nsaudit_event *e;
	bool ns_dir = false;
	int i;

	if (!op_wanted(NSAUDIT_OP_OPEN))
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
	e = event_start_path(NSAUDIT_OP_OPEN, NSAUDIT_PROBE_TP_SYSCALLS);
	if (!e)
		return;
	e->result = ret;
	e->via = NSAUDIT_VIA_PROC;
	bpf_probe_read_user_str(e->path, sizeof(e->path), upath);
	event_submit(e);
}

/*
 * Only the exit is hooked: the new fd tells whether an nsfs file was opened
 * (rare), and only then is the path read back from the syscall's registers.
 * Hooking the entry too would tax every open on the machine.
 */
static __always_inline int handle_open_exit(long ret, int path_arg)
{
	struct nsaudit_event *e;
	struct ns_common *ns;
	struct file *file;
	__u32 type;

	if (ret < 0) {
		if (ret == -NSAUDIT_EACCES || ret == -NSAUDIT_EPERM)
			handle_open_denied(ret, path_arg);
		return 0;
	}
	file = cur_fd_file(ret);
	if (!file || !file_is_nsfs(file))
		return 0;
	if (!op_wanted(NSAUDIT_OP_OPEN))
		return 0;
	ns = file_ns(file);
	type = ns_type(ns);
	if (type < NSAUDIT_NS_MAX && !(type_mask & (1u << type)))
		return 0;
	e = event_start_path(NSAUDIT_OP_OPEN, NSAUDIT_PROBE_TP_SYSCALLS);
	if (!e)
		return 0;
	e->ns_type = type;
	e->fd = ret;
	ns_ident(ns, &e->ns_inum, &e->ns_id);
	e->ns_refs = ns_refcount(ns);
	e->flags |= NSAUDIT_F_HAS_NS;
	e->via = file_is_bind_mount(file) ? NSAUDIT_VIA_BIND : NSAUDIT_VIA_PROC;
	bpf_probe_read_user_str(e->path, sizeof(e->path), open_path_arg(path_arg));
	event_submit(e);
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
 * mount(2) with MS_BIND of an nsfs file. The source is resolved at entry
 * (while it still means what the caller meant); the record is sent at exit
 * with the target path. Sources this cannot resolve go to user space with
 * no namespace, which looks the target up in mountinfo and drops binds of
 * ordinary files.
 */
SEC("tracepoint/syscalls/sys_enter_mount")
int tp_enter_mount(struct trace_event_raw_sys_enter *ctx)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	__u64 flags = ctx->args[3];
	struct ns_common *ns;
	char src[SRC_LEN] = {};
	struct pending *p;

	if (!(flags & MS_BIND) || !op_wanted(NSAUDIT_OP_MOUNT))
		return 0;
	p = pending_new();
	if (!p)
		return 0;
	p->op = NSAUDIT_OP_MOUNT;
	p->probe = NSAUDIT_PROBE_TP_SYSCALLS;
	p->arg = flags;
	p->fd = -1;
	p->target_type = NSAUDIT_NS_UNKNOWN;
	bpf_probe_read_user_str(src, sizeof(src), (void *)ctx->args[0]);
	ns = mount_source_ns(task, src);
	if (ns) {
		p->target_type = ns_type(ns);
		ns_ident(ns, &p->target_inum, &p->target_id);
	}
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_mount")
int tp_exit_mount(struct trace_event_raw_sys_exit *ctx)
{
	struct pending *p = pending_get(NSAUDIT_OP_MOUNT);
	struct nsaudit_event *e;
	struct pt_regs *regs;

	if (!p)
		return 0;
	if (ctx->ret != 0 ||
	    (p->target_type < NSAUDIT_NS_MAX && !(type_mask & (1u << p->target_type))))
		goto out;
	e = event_start_path(NSAUDIT_OP_MOUNT, NSAUDIT_PROBE_TP_SYSCALLS);
	if (!e)
		goto out;
	e->arg = p->arg;
	if (p->target_inum) {
		e->ns_type = p->target_type;
		e->ns_inum = p->target_inum;
		e->ns_id = p->target_id;
		e->flags |= NSAUDIT_F_HAS_NS;
	}
	regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	bpf_probe_read_user_str(e->path, sizeof(e->path), (void *)BPF_CORE_READ(regs, si));
	event_submit(e);
out:
	p->op = NSAUDIT_OP_NONE;
	return 0;
}

/* The new mount API: move_mount() of an open_tree() clone of an nsfs file. */
SEC("tracepoint/syscalls/sys_exit_move_mount")
int tp_exit_move_mount(struct trace_event_raw_sys_exit *ctx)
{
	struct task_struct *task;
	struct nsaudit_event *e;
	struct ns_common *ns;
	struct pt_regs *regs;
	struct file *file;
	__u32 type;

	if (ctx->ret != 0 || !op_wanted(NSAUDIT_OP_MOUNT))
		return 0;
	task = (void *)bpf_get_current_task();
	regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	/* move_mount(from_dfd, from_path, to_dfd, to_path, flags) */
	file = task_fd_file(task, (int)BPF_CORE_READ(regs, di));
	if (!file || !file_is_nsfs(file))
		return 0;
	ns = file_ns(file);
	type = ns_type(ns);
	if (type < NSAUDIT_NS_MAX && !(type_mask & (1u << type)))
		return 0;
	e = event_start_path(NSAUDIT_OP_MOUNT, NSAUDIT_PROBE_TP_SYSCALLS);
	if (!e)
		return 0;
	e->ns_type = type;
	ns_ident(ns, &e->ns_inum, &e->ns_id);
	e->ns_refs = ns_refcount(ns);
	e->flags |= NSAUDIT_F_HAS_NS | NSAUDIT_F_NEW_MOUNT_API;
	e->fd = (int)BPF_CORE_READ(regs, di);
	e->arg = BPF_CORE_READ(regs, r8);
	bpf_probe_read_user_str(e->path, sizeof(e->path), (void *)BPF_CORE_READ(regs, r10));
	event_submit(e);
	return 0;
}

/*
 * umount2(): user space knows which mount points are nsfs pins (from
 * mountinfo and earlier mount records) and keeps only those.
 */
SEC("tracepoint/syscalls/sys_exit_umount")
int tp_exit_umount(struct trace_event_raw_sys_exit *ctx)
{
	struct nsaudit_event *e;
	struct pt_regs *regs;

	if (ctx->ret != 0 || !op_wanted(NSAUDIT_OP_UMOUNT))
		return 0;
	regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	e = event_start_path(NSAUDIT_OP_UMOUNT, NSAUDIT_PROBE_TP_SYSCALLS);
	if (!e)
		return 0;
	e->arg = BPF_CORE_READ(regs, si);
	bpf_probe_read_user_str(e->path, sizeof(e->path), (void *)BPF_CORE_READ(regs, di));
	event_submit(e);
	return 0;
}

/* ---- the patched kernel: nsfd(), setns_switch_ns(), namespace:* --------
 *
 * Loaded only where the kernel has them (the loader looks them up in BTF);
 * elsewhere autoload is off and they cost nothing. The kernel ABI
 * (kernel-patch/): nsfd(pid_t pid, unsigned int nstype, unsigned int flags)
 * is syscall 451 (flags: NSFD_FOR_CHILDREN); PIDFD_GET_*_NAMESPACE ioctls
 * on pidfds do the same; setns_switch_ns(tsk, nstype, old_ns, new_ns) is
 * called once per namespace type setns() switches; the tracepoints are
 * namespace:nsfd(pid, pidfd, nstype, flags, target, ns, ret),
 * namespace:setns_switch_ns(tsk, nstype, old_ns, new_ns) and
 * namespace:ns_free(nstype, ns).
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
	__u32 type;

	if (!op_wanted(NSAUDIT_OP_NSFD))
		return 0;
	type = clone_flag_to_type(BPF_CORE_READ(regs, si));
	if (type < NSAUDIT_NS_MAX && !(type_mask & (1u << type)))
		return 0;
	e = event_start(NSAUDIT_OP_NSFD, NSAUDIT_PROBE_FEXIT_SYS_NSFD);
	if (!e)
		return 0;
	e->ns_type = type;
	e->arg = BPF_CORE_READ(regs, si);
	e->via = NSAUDIT_VIA_NSFD;
	if (BPF_CORE_READ(regs, dx) & NSFD_FOR_CHILDREN)
		e->flags |= NSAUDIT_F_FOR_CHILDREN;
	e->target_pid = (int)BPF_CORE_READ(regs, di);
	if (!e->target_pid)
		e->target_pid = e->pid;	/* pid 0 means the caller */
	e->result = ret < 0 ? ret : 0;
	if (ret >= 0) {
		struct fd_key k = { .tgid = e->pid, .fd = ret };
		struct fd_origin o = { .via = NSAUDIT_VIA_NSFD };

		e->fd = ret;
		file = task_fd_file(task, ret);
		if (file && file_is_nsfs(file)) {
			struct ns_common *ns = file_ns(file);

			ns_ident(ns, &e->ns_inum, &e->ns_id);
			e->ns_refs = ns_refcount(ns);
			e->flags |= NSAUDIT_F_HAS_NS;
			o.file = (__u64)file;
			bpf_map_update_elem(&fd_origins, &k, &o, BPF_ANY);
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
	pending_finish(NSAUDIT_OP_SETNS, ret);
	return 0;
}

/*
 * The kernel names, per type, the namespace setns() leaves and the one it
 * joins. That goes into the setns's pending record instead of a record of
 * its own: one setns is one record per type (search and lifetime would
 * count a second one twice), and its old namespace is the kernel's, not a
 * guess made at entry (for time, the task's own time namespace, which after
 * unshare(CLONE_NEWTIME) without a fork differs from time_for_children).
 * The record's probe then names this hook. The new namespace is read at the
 * syscall's exit, where the task has it.
 */
static __always_inline int note_switch(unsigned int nstype, struct ns_common *old_ns,
				       __u32 probe)
{
	struct pending *p = pending_get(NSAUDIT_OP_SETNS);
	__u32 type = clone_flag_to_type(nstype);

	if (!p || type >= NSAUDIT_NS_MAX || !old_ns)
		return 0;
	ns_ident(old_ns, &p->old_inum[type], &p->old_id[type]);
	p->nsmask |= 1u << type;
	p->probe = probe;
	return 0;
}

SEC("fexit/setns_switch_ns")
int BPF_PROG(fexit_setns_switch_ns, struct task_struct *tsk, unsigned int nstype,
	     struct ns_common *old_ns, struct ns_common *new_ns)
{
	return note_switch(nstype, old_ns, NSAUDIT_PROBE_FEXIT_SETNS_SWITCH_NS);
}

/* Where fentry is refused but the patched tracepoints exist. */
SEC("tp_btf/setns_switch_ns")
int BPF_PROG(tp_setns_switch_ns, struct task_struct *tsk, unsigned int nstype,
	     struct ns_common *old_ns, struct ns_common *new_ns)
{
	return note_switch(nstype, old_ns, NSAUDIT_PROBE_TP_SETNS_SWITCH_NS);
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
	__u32 type = clone_flag_to_type(nstype);

	if (!op_wanted(NSAUDIT_OP_NSFD) || (!pidfd && nsfd_fexit) ||
	    (type < NSAUDIT_NS_MAX && !(type_mask & (1u << type))))
		return 0;
	e = event_start(NSAUDIT_OP_NSFD, NSAUDIT_PROBE_TP_NSFD);
	if (!e)
		return 0;
	e->ns_type = type;
	e->arg = nstype;
	e->via = pidfd ? NSAUDIT_VIA_PIDFD : NSAUDIT_VIA_NSFD;
	if (flags & NSFD_FOR_CHILDREN)
		e->flags |= NSAUDIT_F_FOR_CHILDREN;
	e->result = ret < 0 ? ret : 0;
	e->fd = ret >= 0 ? ret : -1;
	e->target_pid = pid ? pid : (__s32)e->pid;	/* pid 0 means the caller */
	if (ns) {
		ns_ident(ns, &e->ns_inum, &e->ns_id);
		e->ns_refs = ns_refcount(ns);
		e->flags |= NSAUDIT_F_HAS_NS;
	}
	event_submit(e);
	return 0;
}

/* The last reference went: the namespace itself is freed. */
SEC("tp_btf/ns_free")
int BPF_PROG(tp_ns_free, unsigned int nstype, struct ns_common *ns)
{
	struct nsaudit_event *e;
	__u32 type = clone_flag_to_type(nstype);

	if (!op_wanted(NSAUDIT_OP_NS_FREE) ||
	    (type < NSAUDIT_NS_MAX && !(type_mask & (1u << type))))
		return 0;
	e = event_start(NSAUDIT_OP_NS_FREE, NSAUDIT_PROBE_TP_NS_FREE);
	if (!e)
		return 0;
	e->ns_type = type;
	e->arg = nstype;
	if (ns) {
		ns_ident(ns, &e->ns_inum, &e->ns_id);
		e->flags |= NSAUDIT_F_HAS_NS;
	}
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

	if (!task || task->pid != task->tgid)	/* one line per process */
		return 0;
	s.pid = task->tgid;
	s.ppid = BPF_CORE_READ(task, real_parent, tgid);
	s.uid = BPF_CORE_READ(task, cred, uid.val);
	s.start_boot_ns = BPF_CORE_READ(task, start_boottime);
	bpf_probe_read_kernel_str(s.comm, sizeof(s.comm), task->comm);
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
