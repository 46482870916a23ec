/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * nsaudit.h - the one event record shared by the BPF programs and user space.
 *
 * Every kernel-side observation becomes exactly one struct nsaudit_event in
 * the ring buffer: one (operation, namespace type) pair. An unshare of three
 * types therefore produces three records; user space never has to split.
 *
 * This header is included both by BPF C (after vmlinux.h) and by ordinary
 * user-space C, so it only uses the fixed-width __u32-style types.
 */
#ifndef NSAUDIT_H
#define NSAUDIT_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define NSAUDIT_COMM_LEN 16
#define NSAUDIT_PATH_LEN 256

/* What happened. Values are ABI between BPF and user space, append only. */
enum nsaudit_op {
	NSAUDIT_OP_NONE = 0,
	NSAUDIT_OP_SETNS,	/* entered a namespace */
	NSAUDIT_OP_UNSHARE,	/* created a namespace for itself */
	NSAUDIT_OP_CLONE,	/* created a namespace for a child */
	NSAUDIT_OP_OPEN,	/* pinned by fd: open of /proc/PID/ns/TYPE */
	NSAUDIT_OP_MOUNT,	/* pinned by a bind mount of an nsfs file */
	NSAUDIT_OP_UMOUNT,	/* a bind-mount pin removed */
	NSAUDIT_OP_NSFD,	/* pinned by fd: nsfd(2), patched kernel */
	NSAUDIT_OP_NS_FREE,	/* the namespace itself was freed */
	NSAUDIT_OP_LOST,	/* records the kernel side could not deliver */
	NSAUDIT_OP_QUERY,	/* asked about a namespace, no fd made:
				 * ioctl(NS_GET_OWNER_UID); arg is the cmd */
	NSAUDIT_OP_FREED,	/* the namespace died, seen on a stock kernel
				 * (bpf/nsaudit/freed.bpf.c); arg: stage and
				 * holder (NSAUDIT_FREED_*) */
	NSAUDIT_OP_MAX,
};

/* Namespace types, in the order lsns prints them. */
enum nsaudit_ns_type {
	NSAUDIT_NS_NET = 0,
	NSAUDIT_NS_UTS,
	NSAUDIT_NS_IPC,
	NSAUDIT_NS_MNT,
	NSAUDIT_NS_PID,
	NSAUDIT_NS_USER,
	NSAUDIT_NS_CGROUP,
	NSAUDIT_NS_TIME,
	NSAUDIT_NS_MAX,
	NSAUDIT_NS_UNKNOWN = 0xff,
};
/*
 * A namespace type bounded for the verifier: "t & NSAUDIT_NS_TYPE_MASK"
 * proves an index into a [NSAUDIT_NS_MAX] array in range, after a check
 * the compiler may have moved away from the access. NSAUDIT_NS_MAX is a
 * power of two (eight types), so the mask changes no valid type.
 */
#define NSAUDIT_NS_TYPE_MASK (NSAUDIT_NS_MAX - 1)
_Static_assert((NSAUDIT_NS_MAX & NSAUDIT_NS_TYPE_MASK) == 0, "NSAUDIT_NS_MAX is a power of two");

/* Which hook produced a record; printed as "probe". */
enum nsaudit_probe {
	NSAUDIT_PROBE_NONE = 0,
	NSAUDIT_PROBE_TP_SYSCALLS,	/* tracepoint/syscalls/sys_{enter,exit}_* */
	NSAUDIT_PROBE_RAW_TP_FORK,	/* raw_tp/sched_process_fork */
	NSAUDIT_PROBE_FEXIT_SYS_NSFD,	/* fexit/__x64_sys_nsfd (patched kernel) */
	NSAUDIT_PROBE_FEXIT_SYS_SETNS,	/* fentry+fexit/__x64_sys_setns */
	NSAUDIT_PROBE_FEXIT_SETNS_SWITCH_NS, /* fexit/setns_switch_ns (kernel-patch v2) */
	NSAUDIT_PROBE_TP_NSFD,		/* tp_btf/nsfd (patched) */
	NSAUDIT_PROBE_TP_SETNS_SWITCH_NS, /* tp_btf/setns_switch_ns (kernel-patch v2) */
	NSAUDIT_PROBE_TP_NS_FREE,	/* tp_btf/ns_free (patched) */
	NSAUDIT_PROBE_USER,		/* synthesised in user space */
	NSAUDIT_PROBE_TP_NS_CHANGE,	/* tp_btf/ns_change (patched) */
	NSAUDIT_PROBE_TP_KMEM_CACHE_FREE, /* tp_btf/kmem_cache_free */
	NSAUDIT_PROBE_TP_KFREE,		/* tp_btf/kfree */
	NSAUDIT_PROBE_TP_WQ,		/* tp_btf/workqueue_execute_start */
	NSAUDIT_PROBE_TP_WQ_END,	/* tp_btf/workqueue_execute_end */
	NSAUDIT_PROBE_TP_WQ_QUEUE,	/* tp_btf/workqueue_queue_work */
	NSAUDIT_PROBE_MAX,
};

/* How the fd handed to setns() was obtained; printed as "via". */
enum nsaudit_via {
	NSAUDIT_VIA_NONE = 0,
	NSAUDIT_VIA_PROC,	/* open of /proc/PID/ns/TYPE */
	NSAUDIT_VIA_BIND,	/* open of a bind-mounted nsfs file */
	NSAUDIT_VIA_PIDFD,	/* a pidfd (setns with CLONE_NEW* bits), or an nsfs fd
				 * from a PIDFD_GET_*_NAMESPACE ioctl (op nsfd) */
	NSAUDIT_VIA_NSFD,	/* nsfd(2) (op nsfd, and setns through its fd) */
	/*
	 * nsfs fds made without open() (op nsfd on the stock kernel too; arg is
	 * the ioctl cmd). A later setns through the same struct file names this
	 * origin, also after the fd was passed on (dup, fork, SCM_RIGHTS,
	 * pidfd_getfd): the origin is remembered per struct file, not per fd.
	 */
	NSAUDIT_VIA_NS_IOCTL,	/* ioctl NS_GET_USERNS/PARENT, NS_MNT_GET_NEXT/PREV */
	NSAUDIT_VIA_PIDFD_GETFD, /* pidfd_getfd(2) copied another process's nsfs fd */
	NSAUDIT_VIA_HANDLE,	/* open_by_handle_at(2) of an nsfs handle (6.18+) */
	NSAUDIT_VIA_MAX,
};

/* Flags in nsaudit_event.flags. */
#define NSAUDIT_F_NEW_MOUNT_API	(1u << 0) /* open_tree/move_mount */
#define NSAUDIT_F_HAS_OLD	(1u << 1) /* old_inum/old_ns_id valid */
#define NSAUDIT_F_HAS_NS	(1u << 2) /* ns_inum/ns_id valid */
#define NSAUDIT_F_FOR_CHILDREN	(1u << 3) /* pid/time: *_for_children */
/* mount: moves an existing mount from src_path to path (mount MS_MOVE, or
 * move_mount of an attached mount): a pin there moves, nothing new is pinned.
 * Without it, a mount record is a new bind (MS_BIND, or move_mount of an
 * open_tree(OPEN_TREE_CLONE) copy). MS_BIND|MS_REMOUNT is not recorded at
 * all: it changes flags of a mount that exists, it pins nothing. */
#define NSAUDIT_F_MOVE		(1u << 4)
/* path / src_path did not fit NSAUDIT_PATH_LEN: they hold its first bytes
 * only (a mount's path may be up to PATH_MAX); the record says "cut" */
#define NSAUDIT_F_PATH_CUT	(1u << 5)
#define NSAUDIT_F_SRC_PATH_CUT	(1u << 6)
/* a seccomp filter refused the call: the kernel never ran it (its entry
 * hook never fired; bpf/nsaudit/seccomp.bpf.h), printed "refused_by":
 * "seccomp" */
#define NSAUDIT_F_SECCOMP	(1u << 7)
/* mount/umount: the pin was identified in the kernel's mount tree (see
 * bpf/nsaudit/pins.bpf.h): ns_* and mnt_* are exact, whatever the timing or the
 * spelling of the paths. High bits: the low ones are for general flags. */
#define NSAUDIT_F_PIN_EXACT	(1u << 16)
/* umount made by user space for a pin that left without an umount call
 * seen (its mount namespace died, a lazy or propagated umount) */
#define NSAUDIT_F_PIN_VANISHED	(1u << 17)
/* query NS_GET_OWNER_UID that succeeded: target_pid holds the uid it
 * returned (as a u32), printed as owner_uid */
#define NSAUDIT_F_OWNER_UID	(1u << 18)
/* the actor fields say nothing: the hook ran in no holder's context (an
 * RCU callback, a kernel worker) */
#define NSAUDIT_F_NO_ACTOR	(1u << 25)

/*
 * OP_FREED: arg = stage | holder << 8. last_ref: the namespace's count
 * went to 0 as this holder let go (the actor, unless NSAUDIT_F_NO_ACTOR);
 * cleanup: net only, cleanup_net's work began taking it apart (after its
 * last reference, whoever held it); released: the kernel freed the
 * namespace's memory (net: at a later cleanup_net's end, 6.18); let_go: a
 * holder (task: an nsproxy; nsfs: the nsfs dentry; socket: a socket of a
 * net namespace) went and ns_refs references are left.
 */
enum nsaudit_freed_stage {
	NSAUDIT_FREED_LAST_REF = 1,
	NSAUDIT_FREED_RELEASED = 2,
	NSAUDIT_FREED_CLEANUP = 3,	/* net: cleanup_net took it apart */
	NSAUDIT_FREED_LET_GO = 4,	/* a holder went, ns_refs are left */
};

enum nsaudit_freed_holder {
	NSAUDIT_FREED_BY_KERNEL = 0,	/* released: the kernel's free */
	NSAUDIT_FREED_BY_TASK,		/* a task's nsproxy: exit, exec, setns,
					 * unshare */
	NSAUDIT_FREED_BY_NSFS,		/* an nsfs inode: the last fd, the last
					 * bind mount */
	NSAUDIT_FREED_BY_OWNER,		/* user: its free work ran (creds, the
					 * namespaces it owned, its children) */
	NSAUDIT_FREED_BY_FD,		/* the last nsfs file closed: the actor */
	NSAUDIT_FREED_BY_SOCKET,	/* net: a socket that held it was freed
					 * (UNIX, TCP, UDP; no actor) */
	NSAUDIT_FREED_BY_CHILD,		/* user: a child user namespace was freed
					 * (old_inum/old_ns_id name it) */
	NSAUDIT_FREED_BY_MOUNT,		/* the bind mount of its nsfs file an
					 * umount removed (the umounter is the
					 * actor; any type) */
};
/*
 * The kmem caches op freed follows (freed.bpf.c's freed_cache[] index; the
 * loader names each one's kernel variable, e.g. nsproxy_cachep, from
 * kallsyms, for caches merged into another one of the same size).
 */
enum nsaudit_freed_cache {
	NSAUDIT_FC_NET,
	NSAUDIT_FC_PID,
	NSAUDIT_FC_NSPROXY,
	NSAUDIT_FC_INODE,
	NSAUDIT_FC_UTS,
	NSAUDIT_FC_USER,
	NSAUDIT_FC_FILP,
	NSAUDIT_FC_MAX,
};
/* set by user space only: a record nsaudit inferred (a pin whose mount
 * namespace died), not a call anyone made; printed "origin":"inferred",
 * without an actor (issue 47) */
#define NSAUDIT_F_INFERRED	(1u << 24)

/*
 * nsaudit_event.lineage: whether the actor is a trusted runtime's own
 * process, as the kernel side followed it through fork and exec (the
 * trusted executables by device and inode, given by user space at load).
 * FOLLOWED: the kernel side has followed the actor since it was born (or
 * saw it at the start-up snapshot), so RUNTIME's absence is an answer;
 * without FOLLOWED nothing is known (the actor predates the load, or
 * descends from a process that was away from the host's namespaces before
 * the load, or no rules asked for lineage). RUNTIME: its lineage is a trusted executable
 * exec'd in the host's mount and pid namespaces, then only forks and the
 * runtime's re-exec of a memfd copy of itself (runc, crun: CVE-2019-5736).
 */
#define NSAUDIT_LINEAGE_FOLLOWED	(1u << 0)
#define NSAUDIT_LINEAGE_RUNTIME		(1u << 1)
/* a runtime's workload: a marked runtime's exec of another file away from
 * the host's mount or pid namespace (a container's program), and all
 * that descends from it; what only a container has, whatever its cgroup */
#define NSAUDIT_LINEAGE_CONTAINED	(1u << 2)

/* Key of the runtime_exes map: a trusted executable, given by user space. */
struct nsaudit_lineage_key {
	__u64 ino;
	__u32 dev;	/* the kernel's dev_t of the file's super block */
	__u32 pad;
};

/* Why records were lost (OP_LOST records: lost_reason). Append only. */
enum nsaudit_lost_reason {
	NSAUDIT_LOST_RING = 0,	/* the main ring was full */
	NSAUDIT_LOST_RARE_RING,	/* the reserve ring (rare records) was full */
	NSAUDIT_LOST_STORAGE,	/* no per-thread state could be allocated:
				 * the call could not be followed to its exit */
	NSAUDIT_LOST_BUDGET,	/* the ring was past its fill threshold and the
				 * actor (tgid or uid) had spent its budget */
	NSAUDIT_LOST_LOG_BUDGET, /* the recorder did not write it: the actor had
				 * spent its budget at the log (counted by user
				 * space into the same map and counters, so it
				 * survives the recorder's crash:
				 * nsaudit/tracer/log_budget.h) */
	NSAUDIT_LOST_MAX,
};

/*
 * One record. Threads: tid != pid means a thread other than the leader did
 * it (a setns changes only that thread's namespaces); user space prints tid
 * then. Coalescing (issue 16): identical consecutive records of one thread
 * (same op, type, namespaces, fd, via, flags, arg and result) are sent once,
 * with repeat = the number of calls, ts_boot_ns = the first call and
 * last_ts_boot_ns = the last (to within one scheduler tick: the clock is
 * read once per tick, not per call); the record is flushed on any other record of
 * the thread, on its exit and by the reader's timer. The fields from op on
 * are what "identical" compares (plus pid/tid, the same thread).
 */
/* nsaudit_event.anchor of an actor with no ancestor 100 ms old within 4
 * levels up: its uid's young trees are one parent to rare first */
#define NSAUDIT_ANCHOR_YOUNG	0xFFFFFFFFU
/* ... or this bit with the ancestor's tgid: reached through a young one
 * (the young trees under that ancestor, apart from its own children) */
#define NSAUDIT_ANCHOR_TREE	0x80000000U

struct nsaudit_event {
	__u64 ts_boot_ns;	/* bpf_ktime_get_boot_ns(): the (first) call */
	__u64 last_ts_boot_ns;	/* coalesced: the last call (within a tick); else 0 */
	__u64 repeat;		/* calls this record stands for (0 and 1: one) */
	__u64 kseq;		/* kernel-side sequence: dedup across recorder restarts */
	__u64 cgroup_id;	/* bpf_get_current_cgroup_id() */
	__u64 count;		/* OP_LOST: records (calls) lost */
	__u64 exe_ino;		/* the actor's executable: inode ... */
	__u32 exe_dev;		/* ... and kernel dev_t of its file system */
	__u32 ns_refs;		/* reference count where the hook can see it;
				 * OP_LOST: the op whose calls were lost
				 * (enum nsaudit_op; 0: not known, any) */
	__u32 ppid;
	__u32 uid;
	__u32 euid;
	__u32 auid;		/* loginuid, (u32)-1 when unset */
	__u32 mnt_ns_inum;	/* mount/umount: the actor's mount namespace
				 * (user space keys its mount table by it) */
	__u32 lost_reason;	/* OP_LOST: enum nsaudit_lost_reason */
	__u32 lineage;		/* NSAUDIT_LINEAGE_*: the actor's runtime lineage
				 * at the call (bpf/nsaudit/lineage.bpf.h) */
	__u32 anchor;		/* whose child rare first counts the actor as
				 * (budgets only): its parent, or while that is
				 * younger than 100 ms the nearest older ancestor
				 * (4 up) | NSAUDIT_ANCHOR_TREE; _YOUNG: none that
				 * old (a young tree); 0: not known, the parent */
	/*
	 * The actor's identity, read in BPF at the call (docs/attribution.md):
	 * what a process in a container cannot forge. exe_key names this
	 * process's exec (its mm->exe_file, keyed with a per-load secret): the
	 * exe_paths map gives the path it was exec'd by and the mount namespace
	 * that path is relative to. actor_*ns are the actor's own namespaces
	 * before the call changed them (setns, unshare): pid is its active pid
	 * namespace, not pid_for_children. *_id: ns_common.ns_id (6.18+; 0 on
	 * kernels without it, the inode is the identity there).
	 */
	__u64 exe_key;
	__u64 actor_mntns_id;
	__u64 actor_pidns_id;
	__u64 actor_userns_id;
	__u64 actor_cgroupns_id;
	__u32 actor_mntns;
	__u32 actor_pidns;
	__u32 actor_userns;
	__u32 actor_cgroupns;
	char comm[NSAUDIT_COMM_LEN];
	/* ---- compared by coalescing from here to path ---- */
	__u32 op;		/* enum nsaudit_op */
	__u32 ns_type;		/* enum nsaudit_ns_type */
	__u64 ns_id;		/* kernel 64-bit ns id (6.18+), or 0 */
	__u64 old_ns_id;
	__u64 arg;		/* raw flags/cmd argument of the syscall;
				 * OP_LOST: running total of that reason */
	__u32 ns_inum;		/* the namespace acted on (entered/created/pinned) */
	__u32 old_inum;		/* setns/unshare/clone: the one left */
	__s32 result;		/* 0 or -errno; open: the new fd (the record
				 * says 0 and has it in fd); nsfd: 0, fd in fd */
	__u32 pid;		/* tgid of the actor */
	__u32 tid;
	__s32 target_pid;	/* open/nsfd: whose namespace; clone: child */
	__s32 fd;		/* setns/open/nsfd: the namespace fd */
	__u32 probe;		/* enum nsaudit_probe */
	__u32 via;		/* enum nsaudit_via */
	__u32 flags;		/* NSAUDIT_F_* */
	char path[NSAUDIT_PATH_LEN]; /* open: file; mount/umount: target */
	char src_path[NSAUDIT_PATH_LEN]; /* mount: the source (bind) or the mount
					  * moved (NSAUDIT_F_MOVE) */
	/* mount/umount with NSAUDIT_F_PIN_EXACT (whole records only): the
	 * pin's mount and the 64-bit id of mnt_ns_inum (6.18+, else 0) */
	__u64 mnt_ns_id;
	__u64 mnt_unique;	/* mnt_id_unique (6.8+), else the kernel side's
				 * serial with bit 63 set (bpf/pins.h) */
	__u32 mnt_id;		/* mountinfo's mount id */
	__u32 mnt_pad;
};

/*
 * Value of the exe_paths map, keyed by a record's exe_key (one exec: the
 * struct file it mapped, which fork shares and the next exec replaces):
 * the path that exec ran (a busybox applet's own name, not the last name
 * the file was run by) and the mount namespace that path is relative to
 * (the exec'ing thread's, which a later setns does not change).
 */
struct nsaudit_exe_info {
	char path[NSAUDIT_PATH_LEN];	/* "" if none could be made */
	__u64 ino;		/* the file's inode, and the time of the exec: an
				 * entry of an exec whose struct file's address
				 * came back (after a record's call) is not the
				 * record's */
	__u64 exec_ns;		/* bpf_ktime_get_boot_ns() at the exec */
	__u64 mntns_id;		/* ns_id, 0 without one */
	__u32 mntns;		/* inode */
	__u32 flags;		/* NSAUDIT_EXE_F_* */
};

/*
 * nsaudit_exe_info.flags. FS_PATH: the file was exec'd through a mount
 * whose root is the file itself and that is attached nowhere (runc and
 * crun run themselves from a detached read-only bind of their binary,
 * which the kernel renders "/"): path is the file's path in its own file
 * system, from its dentries. It names the file only if that file system
 * is mounted at "/": user space keeps it only when the path leads to the
 * same inode.
 */
#define NSAUDIT_EXE_F_FS_PATH	(1u << 0)
/* path is longer than NSAUDIT_PATH_LEN holds: its first bytes only; user
 * space takes the whole one from /proc/PID/exe while the process runs that
 * file, else says "exe_cut" (an exec path may be PATH_MAX long) */
#define NSAUDIT_EXE_F_CUT	(1u << 1)

/*
 * The exe_paths value: the last exec keyed so, and the one before it. A
 * struct file's address comes back as soon as it is freed, often to the
 * next exec of the same file (busybox's unshare exec'ing true): a record
 * read after that names the exec that was current at its call, the newest
 * one not later than the call.
 */
struct nsaudit_exe_hist {
	struct nsaudit_exe_info cur;
	struct nsaudit_exe_info prev;
};

/*
 * Records are sent in three lengths: without the paths (setns, the hot one:
 * 184 bytes instead of 696: the same ring holds nearly four times as many), with
 * path (open, umount), and whole (mount, with src_path).
 */
#define NSAUDIT_EVENT_SHORT __builtin_offsetof(struct nsaudit_event, path)
#define NSAUDIT_EVENT_PATH  __builtin_offsetof(struct nsaudit_event, src_path)
/* The part coalescing compares: op up to path. */
#define NSAUDIT_EVENT_KEY   __builtin_offsetof(struct nsaudit_event, op)

/*
 * The kernel's per-actor loss counts (map actor_lost, issue 32): calls of
 * op by thread group pid (uid) that no ring took, for reason (enum
 * nsaudit_lost_reason), counted under the epoch (0 or 1) user space set in
 * map lost_epoch. User space flips the epoch once per pass and takes
 * (lookup and delete) the entries of the other one, which nothing has
 * written since the previous flip: a count is never added to an entry
 * that is being deleted.
 */
struct nsaudit_actor_lost_key {
	__u32 pid;
	__u32 uid;
	__u32 op;
	__u32 reason;
	__u32 epoch;
	__u32 pad;
};

struct nsaudit_actor_lost_val {
	__u64 count;
	char comm[NSAUDIT_COMM_LEN];
};

/* One process as the startup snapshot (iter/task) saw it. */
struct nsaudit_task_snap {
	__u64 start_boot_ns;
	__u32 pid;
	__u32 ppid;
	__u32 uid;
	__u32 inum[NSAUDIT_NS_MAX];	/* pid/time: the *_for_children ones */
	char comm[NSAUDIT_COMM_LEN];
	__u32 tid;	/* != pid: a thread in other namespaces than its leader */
	__u32 pad;
	__u64 exe_key;	/* as records carry it: user space learns its path */
};

#endif /* NSAUDIT_H */
