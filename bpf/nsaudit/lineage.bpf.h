/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lineage.bpf.h - a trusted runtime's own processes, followed in the
 * kernel: a task is marked (task storage) when it execs a trusted
 * executable (by device and inode: user space stat'ed them from the host's
 * root and gave them in runtime_exes) in the host's mount and pid
 * namespaces, or by a task already marked (a runtime starting another,
 * wherever it is); a fork copies the mark to the child; an exec of any
 * other file clears it, except the runtime's re-exec of a memfd copy of itself
 * (runc, crun: CVE-2019-5736), known by an unlinked tmpfs file of the
 * size of the executable that made the mark. Every record carries the
 * actor's mark as it was at the call (nsaudit_event.lineage).
 *
 * Why in the kernel: a runtime's child enters a container's namespaces
 * after its parents have exited (crun's pod members), and by the time
 * user space reads the record no /proc is left to walk. A process in a
 * container cannot forge the mark: it is set only by an exec in the
 * host's namespaces, and its own exec (the container's program) clears it.
 *
 * Only marked tasks have storage in lineage_tasks: every other task's
 * answer is one load (task_may_have_storage()). Included by emit.bpf.h's
 * users after it; the maps and globals are defined in nsaudit.bpf.c.
 */
#ifndef NSAUDIT_LINEAGE_BPF_H
#define NSAUDIT_LINEAGE_BPF_H

#define TMPFS_MAGIC	0x01021994
#define HUGETLBFS_MAGIC	0x958458f6

/* the init namespaces' fixed inodes (include/linux/proc_ns.h) */
#define INIT_MNTNS_INUM	0xeffffff8u
#define INIT_PIDNS_INUM	0xeffffffcu

/* Set by the loader before load: lineage is followed (rules want it), and
 * the host's namespaces when they are not the initial ones. */
extern const volatile bool lineage_on;
extern const volatile __u32 host_mntns_inum;
extern const volatile __u32 host_pidns_inum;
/* Set by user space once the hooks are attached (CLOCK_BOOTTIME): a task
 * born since then has been followed from its birth. ~0 until then. */
extern __u64 lineage_since;
/* marks that could not be made (no memory for the task storage): user
 * space then takes no unmarked record's word for it */
extern __u64 lineage_lost;

struct runtime_exes_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, struct nsaudit_lineage_key);
	__type(value, __u8);
};
extern struct runtime_exes_map runtime_exes SEC(".maps");

/* kernel side only, set by the start-up snapshot for a process that was
 * away from the host's namespaces before the load (and kept by its
 * descendants). UNKNOWN: its origin cannot be told (no ancestor in the
 * host's namespaces but init: reparented), its records are not FOLLOWED.
 * HOSTBORN: its nearest ancestor in the host's namespaces runs no
 * runtime (a host service's private namespaces, root's unshare -pf): it
 * is what a process followed from its birth would be, FOLLOWED, no mark. */
#define LINEAGE_UNKNOWN (1u << 8)
#define LINEAGE_HOSTBORN (1u << 9)
/* the start-up snapshot looks this many generations up */
#define LINEAGE_SNAP_DEPTH 8

struct lineage_val {
	__u64 root_size;	/* the size of the trusted executable that marked it */
	__u32 flags;		/* NSAUDIT_LINEAGE_RUNTIME or _CONTAINED, LINEAGE_UNKNOWN */
	__u32 pad;
};

struct lineage_map {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct lineage_val);
};
extern struct lineage_map lineage_tasks SEC(".maps");

/* The inode fields vmlinux.h (a minimal set) leaves out. */
struct inode___lineage {
	long long i_size;
	unsigned int __i_nlink;
} __attribute__((preserve_access_index));

/* The task's mark, or NULL (one load for the unmarked). */
static __always_inline struct lineage_val *lineage_get(struct task_struct *task)
{
	if (!task_may_have_storage(task))
		return NULL;
	return bpf_task_storage_get(&lineage_tasks, task, 0, 0);
}

/* What a record says of its actor, the current task (lineage_get() with
 * its storage test as cur_may_have_storage(): no BTF scans). */
static __always_inline __u32 lineage_of_current(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct lineage_val *l = NULL;
	__u32 flags = 0;

	if (!lineage_on)
		return 0;
	if (cur_may_have_storage())
		l = bpf_task_storage_get(&lineage_tasks, task, 0, 0);
	if (l && (l->flags & LINEAGE_UNKNOWN))
		return 0;
	if (task->start_boottime >= lineage_since)
		flags |= NSAUDIT_LINEAGE_FOLLOWED;
	if (l)
		flags |= NSAUDIT_LINEAGE_FOLLOWED |
			 (l->flags & (NSAUDIT_LINEAGE_RUNTIME | NSAUDIT_LINEAGE_CONTAINED));
	return flags;
}

/* The task runs in the host's mount and (active) pid namespaces. */
static __always_inline bool lineage_host(struct task_struct *task)
{
	struct pid_namespace *pidns = task_active_pidns(task);
	__u32 mnt = task->nsproxy->mnt_ns->ns.inum, pid;

	if (!pidns)
		return false;
	pid = pidns->ns.inum;
	return (mnt == INIT_MNTNS_INUM || (host_mntns_inum && mnt == host_mntns_inum)) &&
	       (pid == INIT_PIDNS_INUM || (host_pidns_inum && pid == host_pidns_inum));
}

/* The identity of an executable file (probe reads: any file pointer). */
static __always_inline void lineage_file(struct file *file, struct nsaudit_lineage_key *k, __u64 *size)
{
	struct inode___lineage *ino = (void *)BPF_CORE_READ(file, f_inode);

	k->ino = BPF_CORE_READ((struct inode *)ino, i_ino);
	k->dev = BPF_CORE_READ((struct inode *)ino, i_sb, s_dev);
	k->pad = 0;
	*size = BPF_CORE_READ(ino, i_size);
}

/* The file's size (probe reads: any file pointer). */
static __always_inline __u64 lineage_size(struct file *file)
{
	struct inode___lineage *ino = (void *)BPF_CORE_READ(file, f_inode);

	return BPF_CORE_READ(ino, i_size);
}

/* An unlinked file in memory: a memfd (runc's and crun's copy of themselves). */
static __always_inline bool lineage_memfd(struct file *file)
{
	struct inode___lineage *ino = (void *)BPF_CORE_READ(file, f_inode);
	unsigned long magic = BPF_CORE_READ((struct inode *)ino, i_sb, s_magic);

	return (magic == TMPFS_MAGIC || magic == HUGETLBFS_MAGIC) &&
	       BPF_CORE_READ(ino, __i_nlink) == 0;
}

/* Mark task (flags; RUNTIME: its lineage starts at an executable of size). */
static __always_inline void lineage_mark(struct task_struct *task, __u32 flags, __u64 size)
{
	struct lineage_val *l;

	l = bpf_task_storage_get(&lineage_tasks, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!l) {
		__sync_fetch_and_add(&lineage_lost, 1);
		return;
	}
	l->root_size = size;
	l->flags = flags;
}

/* The current task exec'd file (sched_process_exec): mark, keep or clear. */
/* lineage_host() of the current task: a global subprogram (nsaudit.bpf.c),
 * whose loads cost the verifier no BTF scans (task_read.bpf.h) */
int cur_lineage_host(void);

static __always_inline void lineage_exec(struct file *file)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct lineage_val *l;
	struct nsaudit_lineage_key k;
	__u64 size;

	if (!lineage_on)
		return;
	lineage_file(file, &k, &size);
	l = lineage_get(task);
	/* a host process the snapshot found away: as if unmarked (an exec of
	 * a runtime in the host's namespaces marks it, no other changes it) */
	if (l && l->flags == LINEAGE_HOSTBORN)
		l = NULL;
	/* a container's process (or one of unknown origin) stays what it is */
	if (l && l->flags != NSAUDIT_LINEAGE_RUNTIME)
		return;
	if (bpf_map_lookup_elem(&runtime_exes, &k)) {
		/* a runtime running another (podman's conmon, conmon's runc)
		 * wherever it is: podman --userns=auto runs them from a
		 * mount namespace of its own */
		if (l || cur_lineage_host()) {
			lineage_mark(task, NSAUDIT_LINEAGE_RUNTIME, size);
			return;
		}
	} else if (l && l->root_size == size && lineage_memfd(file)) {
		return;	/* the runtime's re-exec of its own copy */
	}
	if (!l)
		return;
	/* the runtime's workload: its exec away from the host (a container's
	 * program after pivot_root, an exec'd process after setns), else a
	 * helper the runtime runs on the host */
	if (!cur_lineage_host())
		l->flags = NSAUDIT_LINEAGE_CONTAINED;
	else
		bpf_task_storage_delete(&lineage_tasks, task);
}

/* The file's inode is a trusted executable's (its size into *size). */
static __always_inline bool lineage_trusted(struct file *file, __u64 *size)
{
	struct nsaudit_lineage_key k;

	lineage_file(file, &k, size);
	return bpf_map_lookup_elem(&runtime_exes, &k) != NULL;
}

/* The task runs in the host's mount and pid namespaces (probe reads: any
 * task pointer, as a bpf_loop step has them). */
static __always_inline bool lineage_host_any(struct task_struct *task)
{
	struct ns_common *pidns = task_active_pidns_any(task);
	__u32 mnt = BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum), pid;

	if (!pidns)
		return false;
	pid = BPF_CORE_READ(pidns, inum);
	return (mnt == INIT_MNTNS_INUM || (host_mntns_inum && mnt == host_mntns_inum)) &&
	       (pid == INIT_PIDNS_INUM || (host_pidns_inum && pid == host_pidns_inum));
}

/* lineage_origin's walk: one generation up a step (the pointers as
 * numbers: a bpf_loop callback reads them by probe reads) */
struct lineage_walk {
	__u64 child;		/* struct task_struct *: this step's child */
	__u64 child_exe;	/* struct file *: its executable */
	__u64 host_exe;		/* found: the executable of the ancestor in the host's namespaces */
	bool found;
	bool unknown;
	bool forks;		/* every step so far a fork: the same file */
};

static long lineage_step(__u64 i, void *ctx)
{
	struct lineage_walk *w = ctx;
	struct task_struct *c = (void *)w->child, *p = BPF_CORE_READ(c, real_parent);
	struct file *cexe = (void *)w->child_exe, *pexe;

	if (!p || BPF_CORE_READ(p, tgid) <= 1) {
		w->unknown = true;
		return 1;
	}
	pexe = BPF_CORE_READ(p, mm, exe_file);
	if (!pexe || lineage_memfd(cexe)) {
		w->unknown = true;
		return 1;
	}
	if (BPF_CORE_READ(cexe, f_inode) != BPF_CORE_READ(pexe, f_inode))
		w->forks = false;
	if (lineage_host_any(p)) {
		w->found = true;
		w->host_exe = (__u64)pexe;
		return 1;
	}
	w->child = (__u64)p;
	w->child_exe = (__u64)pexe;
	return 0;
}

/*
 * Where a task found away from the host's namespaces at start-up comes
 * from, told from what the kernel still holds: its ancestors (real_parent)
 * up to the nearest one in the host's mount and pid namespaces (H). H runs
 * a trusted executable: the runtime's own stage when every step down to
 * the task is a fork (the same file), RUNTIME; else its workload,
 * CONTAINED (the exec history is gone: a stage's exec of anything else is
 * taken for the container's program). H runs no runtime: HOSTBORN. H is
 * init, none is found, or a step is a memfd copy (runc's and crun's stages
 * at work: /proc, read at the record, tells those better): UNKNOWN.
 * A bpf_loop: the verifier looks at one step, not at each generation.
 */
static __always_inline __u32 lineage_origin(struct task_struct *task, __u64 *root_size)
{
	struct lineage_walk w = {
		.child = (__u64)task,
		.child_exe = (__u64)BPF_CORE_READ(task, mm, exe_file),
		.forks = true,
	};
	struct file *host_exe;

	bpf_loop(LINEAGE_SNAP_DEPTH, lineage_step, &w, 0);
	if (w.unknown || !w.found)
		return LINEAGE_UNKNOWN;
	host_exe = (void *)w.host_exe;
	if (!lineage_trusted(host_exe, root_size))
		return LINEAGE_HOSTBORN;
	return w.forks ? NSAUDIT_LINEAGE_RUNTIME : NSAUDIT_LINEAGE_CONTAINED;
}

/* A task that was there before the hooks (the start-up snapshot): marked
 * if it runs a trusted executable in the host's namespaces; away from
 * them, by its origin (lineage_origin). */
static __always_inline void lineage_note(struct task_struct *task)
{
	/* probe reads: loads off the iterator's (trusted) task cost 6.18's
	 * verifier BTF scans, and this runs once per task, at start */
	struct file *exe = BPF_CORE_READ(task, mm, exe_file);
	__u64 size = 0;

	/* (the snapshot's iterator runs again later, for enrich: a task born
	 * since the load has been followed, it is not looked at) */
	if (!lineage_on || !exe || task->start_boottime >= lineage_since || lineage_get(task))
		return;
	if (!lineage_host_any(task)) {
		lineage_mark(task, lineage_origin(task, &size), size);
		return;
	}
	if (lineage_trusted(exe, &size))
		lineage_mark(task, NSAUDIT_LINEAGE_RUNTIME, size);
}

#endif /* NSAUDIT_LINEAGE_BPF_H */
