/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * holders.h - records the holders iterators (bpf/holders.bpf.c) write into
 * their seq_file, read by nsaudit/holders/holders_model.c.
 *
 * iter/task writes one struct holders_task per thread; iter/task_file writes
 * one struct holders_file per open nsfs file or socket. Every namespace seen
 * is described by a struct holders_ns, so user space learns the kernel's
 * reference count of each namespace from any record that names it.
 */
#ifndef HOLDERS_H
#define HOLDERS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define HOLDERS_COMM_LEN 16
#define HOLDERS_PATH_LEN 256

/* Slots of struct holders_task.ns: enum nsaudit_ns_type, then the two
 * namespaces a task gives its children. */
#define HOLDERS_SLOT_PID_CHILDREN  8
#define HOLDERS_SLOT_TIME_CHILDREN 9
#define HOLDERS_SLOTS		   10

/* One namespace as the kernel has it right now. */
struct holders_ns {
	__u64 ns_id;	   /* 6.18+: 64-bit id, never reused; 0 on older kernels */
	__u64 addr;	   /* kernel address of its ns_common: identity for this scan */
	__u32 inum;	   /* 0: no namespace in this slot */
	__u32 refs;	   /* ns.__ns_ref (6.18) or ns.count (6.1) */
	__u32 clone_flag;  /* CLONE_NEW* (ns.ns_type or ops->type) */
	__u32 owner_inum;  /* the user namespace owning it (user: the parent) */
	__u32 parent_inum; /* pid and user: the parent namespace, else 0 */
	__u32 has_dentry;  /* ns.stashed: an nsfs dentry exists (it holds one ref) */
};

/* iter/task: one per thread. */
struct holders_task {
	__u32 magic; /* HOLDERS_MAGIC_TASK */
	__u32 pid;   /* tgid */
	__u32 tid;
	__u32 ppid;
	__u32 flags; /* HOLDERS_TF_* */
	__u32 pad;
	__u64 nsproxy; /* identity of the task's nsproxy (0: none, exiting) */
	__u64 cred;    /* identity of the task's creds */
	__u64 real_cred;
	char comm[HOLDERS_COMM_LEN];
	struct holders_ns ns[HOLDERS_SLOTS];
};

#define HOLDERS_TF_KTHREAD (1u << 0)
#define HOLDERS_TF_LEADER  (1u << 1) /* the thread-group leader */

#define HOLDERS_MAGIC_TASK 0x68746b31 /* "htk1" */
#define HOLDERS_MAGIC_FILE 0x68666c31 /* "hfl1" */

enum holders_file_kind {
	HOLDERS_FILE_NSFS = 1, /* an open namespace file */
	HOLDERS_FILE_SOCKET,   /* a socket; ns is its network namespace */
};

/* iter/task_file: one per nsfs file or socket (per process, not thread). */
struct holders_file {
	__u32 magic; /* HOLDERS_MAGIC_FILE */
	__u32 kind;  /* enum holders_file_kind */
	__u32 pid;
	__u32 fd;
	__u64 file;	   /* identity of the struct file (dup/fork share it) */
	__u64 sock_ino;	   /* socket: inode of the socket (identity) */
	__u32 mnt_ns_inum; /* nsfs: opened through a bind mount in this mount ns; 0 if
			    * through nsfs' internal mount (/proc/PID/ns, ioctl, pidfd) */
	__u32 mnt_id;	   /* nsfs: mount id of that bind mount */
	__u16 family;	   /* socket: AF_* */
	__u16 type;	   /* socket: SOCK_* */
	__u16 protocol;	   /* socket: IPPROTO_* etc. */
	__u16 net_ref;	   /* socket: holds a reference on its netns (sk_net_refcnt) */
	char comm[HOLDERS_COMM_LEN];
	struct holders_ns ns;
	char path[HOLDERS_PATH_LEN]; /* nsfs: bpf_d_path of the file */
};

/*
 * The nsfs mounts (bind mounts of namespace files) of every mount namespace
 * the iterators meet (a task's, an nsfs fd's, one bind-mounted in another):
 * walked in the kernel's mount tree, so nsaudit never opens, enters or
 * otherwise holds a mount while it looks (an open file on a bind mount
 * makes its umount fail EBUSY). Map nsfs_mounts: struct mount address ->
 * this record.
 */
struct holders_nsfs_mount {
	__u64 mnt_ns_id;   /* 6.18: the id of the mount namespace it is in */
	__u32 mnt_ns_inum; /* that mount namespace's inode */
	__u32 mnt_id;	   /* its mount id (mountinfo's first field) */
	__u64 mnt_id_unique; /* 6.8+: its 64-bit id (statmount's); 0 before */
	__u64 sm_ns_id;	   /* the mount namespace's id as statmount takes it; 0: none */
	struct holders_ns ns; /* the namespace mounted there */
};

/* Map mnt_walks: mount namespace address -> how its walk went. */
struct holders_mnt_walk {
	__u64 ns_id;
	__u32 inum;
	__u32 status; /* HOLDERS_WALK_* bits; 0: every mount visited */
	__u32 mounts; /* mounts visited */
	__u32 nsfs;   /* nsfs mounts among them */
};

#define HOLDERS_WALK_QUEUED  (1u << 0) /* found, never walked (step budget) */
#define HOLDERS_WALK_CHANGED (1u << 1) /* a mount left the tree as it was walked */
#define HOLDERS_WALK_BUDGET  (1u << 2) /* the step budget ran out inside it */
#define HOLDERS_WALK_FULL    (1u << 3) /* nsfs_mounts was full: some not kept */

#endif /* HOLDERS_H */
