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

/* Which hook produced a record; printed as "probe". */
enum nsaudit_probe {
	NSAUDIT_PROBE_NONE = 0,
	NSAUDIT_PROBE_TP_SYSCALLS,	/* tracepoint/syscalls/sys_{enter,exit}_* */
	NSAUDIT_PROBE_RAW_TP_FORK,	/* raw_tp/sched_process_fork */
	NSAUDIT_PROBE_FEXIT_SYS_NSFD,	/* fexit/__x64_sys_nsfd (patched kernel) */
	NSAUDIT_PROBE_FEXIT_SYS_SETNS,	/* fentry+fexit/__x64_sys_setns */
	NSAUDIT_PROBE_FEXIT_SETNS_SWITCH_NS, /* fexit/setns_switch_ns (patched) */
	NSAUDIT_PROBE_TP_NSFD,		/* tp_btf/nsfd (patched) */
	NSAUDIT_PROBE_TP_SETNS_SWITCH_NS, /* tp_btf/setns_switch_ns (patched) */
	NSAUDIT_PROBE_TP_NS_FREE,	/* tp_btf/ns_free (patched) */
	NSAUDIT_PROBE_USER,		/* synthesised in user space */
	NSAUDIT_PROBE_MAX,
};

/* How the fd handed to setns() was obtained; printed as "via". */
enum nsaudit_via {
	NSAUDIT_VIA_NONE = 0,
	NSAUDIT_VIA_PROC,	/* open of /proc/PID/ns/TYPE */
	NSAUDIT_VIA_BIND,	/* open of a bind-mounted nsfs file */
	NSAUDIT_VIA_PIDFD,	/* a pidfd (setns with CLONE_NEW* bits, or a
				 * PIDFD_GET_*_NAMESPACE ioctl: op nsfd) */
	NSAUDIT_VIA_NSFD,	/* nsfd(2) (op nsfd, and setns through its fd) */
	NSAUDIT_VIA_MAX,
};

/* Flags in nsaudit_event.flags. */
#define NSAUDIT_F_NEW_MOUNT_API	(1u << 0) /* open_tree/move_mount */
#define NSAUDIT_F_HAS_OLD	(1u << 1) /* old_inum/old_ns_id valid */
#define NSAUDIT_F_HAS_NS	(1u << 2) /* ns_inum/ns_id valid */
#define NSAUDIT_F_FOR_CHILDREN	(1u << 3) /* pid/time: *_for_children */

struct nsaudit_event {
	__u64 ts_boot_ns;	/* bpf_ktime_get_boot_ns() */
	__u64 ns_id;		/* kernel 64-bit ns id (6.18+), net cookie, or 0 */
	__u64 old_ns_id;
	__u64 cgroup_id;	/* bpf_get_current_cgroup_id() */
	__u64 count;		/* OP_LOST: records lost */
	__u64 arg;		/* raw flags argument of the syscall; OP_LOST: total */
	__u64 kseq;		/* kernel-side sequence: dedup across recorder restarts */
	__u64 exe_ino;		/* the actor's executable: inode ... */
	__u32 op;		/* enum nsaudit_op */
	__u32 ns_type;		/* enum nsaudit_ns_type */
	__u32 ns_inum;		/* the namespace acted on (entered/created/pinned) */
	__u32 old_inum;		/* setns/unshare/clone: the one left */
	__s32 result;		/* 0 or -errno; open: the new fd (the record
				 * says 0 and has it in fd); nsfd: 0, fd in fd */
	__u32 pid;		/* tgid of the actor */
	__u32 tid;
	__u32 ppid;
	__u32 uid;
	__u32 euid;
	__u32 auid;		/* loginuid, (u32)-1 when unset */
	__s32 target_pid;	/* open/nsfd: whose namespace; clone: child */
	__s32 fd;		/* setns/open/nsfd: the namespace fd */
	__u32 probe;		/* enum nsaudit_probe */
	__u32 via;		/* enum nsaudit_via */
	__u32 flags;		/* NSAUDIT_F_* */
	__u32 ns_refs;		/* reference count where the hook can see it */
	__u32 exe_dev;		/* ... and kernel dev_t of its file system */
	char comm[NSAUDIT_COMM_LEN];
	char path[NSAUDIT_PATH_LEN]; /* open: file; mount/umount: target */
};

/*
 * Key of the exe_paths map: an executable's file, as records name it
 * (exe_ino, exe_dev). The value is the path it was exec'd by.
 */
struct nsaudit_exe_key {
	__u64 ino;
	__u32 dev;
	__u32 pad;
};

/* Records without a path end before it: setns, the hot one, is 160 bytes
 * in the ring instead of 416, so the same ring holds 2.6 times as many. */
#define NSAUDIT_EVENT_SHORT __builtin_offsetof(struct nsaudit_event, path)

/* One process as the startup snapshot (iter/task) saw it. */
struct nsaudit_task_snap {
	__u64 start_boot_ns;
	__u32 pid;
	__u32 ppid;
	__u32 uid;
	__u32 inum[NSAUDIT_NS_MAX];	/* pid/time: the *_for_children ones */
	char comm[NSAUDIT_COMM_LEN];
};

#endif /* NSAUDIT_H */
