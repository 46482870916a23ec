/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mount_source.bpf.h - what a bind mount's source path names, when it
 * names a namespace by itself: /proc/self/ns/TYPE, /proc/thread-self/...,
 * /proc/PID/ns/TYPE (the caller's own; another process's on 6.13+), or
 * /proc/self/fd/N of an nsfs fd. pins_mount.bpf.c's alone: at a mount's
 * entry, and at the exit of one a seccomp filter refused.
 */
#ifndef NSAUDIT_MOUNT_SOURCE_BPF_H
#define NSAUDIT_MOUNT_SOURCE_BPF_H

#include "nsaudit_core.bpf.h"
#include "nsfile.bpf.h"

#define SRC_LEN 64

/* A bind mount's source as read at entry (a type of its own: global
 * subprograms take a pointer to memory of its pointee's size). */
struct src_buf {
	char b[SRC_LEN];
};

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
 * 6.13+: a task by its pid in the caller's pid namespace (what /proc/PID
 * names for it). Called only from tp_enter_mount_vpid and (a seccomp
 * refusal) tp_exit_mount_vpid, which the loader
 * loads only there (tracer_hooks.c): a kernel before 6.4 refuses a program
 * with an unresolved kfunc call in it even where the call is never made,
 * and libbpf 1.1 loads the object with the weak extern unresolved as long
 * as no program that calls it is loaded.
 */
extern struct task_struct *bpf_task_from_vpid(s32 vpid) __ksym __weak;
extern void bpf_task_release(struct task_struct *p) __ksym __weak;

static __always_inline struct ns_common *task_source_ns(struct task_struct *task, const char *b,
							 int off, bool own);

/*
 * The namespace a bind-mount source names: /proc/self/ns/TYPE,
 * /proc/thread-self/ns/TYPE, /proc/PID/ns/TYPE, or /proc/self/fd/N of an
 * nsfs fd (the RFC's "mount --bind /proc/self/fd/N"). That is what "ip
 * netns add" does. Another process's (by its pid in the caller's pid
 * namespace, 6.13+) is resolved too, so that a refused bind of it (a probe
 * by bind mount, issue 47) names what it tried; other sources are resolved
 * by user space through mountinfo.
 */
static __always_inline struct ns_common *mount_source_ns(struct task_struct *task,
							  const char *b, bool others)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct task_struct *other;
	struct ns_common *ns;
	int off, end;
	long v;

	if (!str_at(b, 0, "/proc/", 6))
		return NULL;
	if (str_at(b, 6, "self/", 5))
		return task_source_ns(task, b, 11, true);
	if (str_at(b, 6, "thread-self/", 12))
		return task_source_ns(task, b, 18, true);
	v = num_at(b, 6, &end);
	if (v <= 0 || b[end & (SRC_LEN - 1)] != '/')
		return NULL;
	off = end + 1;
	if (v == tgid)
		return task_source_ns(task, b, off, true);
	if (!others)
		return NULL;
	other = bpf_task_from_vpid(v);
	if (!other)
		return NULL;
	/* the namespace stays readable for the rest of the program (RCU) */
	ns = task_source_ns(other, b, off, false);
	bpf_task_release(other);
	return ns;
}

/*
 * The type "ns/TYPE" at s->b[off] names (NSAUDIT_NS_*), or -1: pid and
 * time, the active ones, are left to user space. A global subprogram:
 * the verifier walked its eight compares in each of task_source_ns()'s
 * four inlined copies, on every path into them (17,500 of
 * tp_enter_mount_vpid's 33,000 instructions processed); now once.
 */
__noinline int src_ns_type(const struct src_buf *s, int off)
{
	const char *b;

	if (!s)
		return -1;
	b = s->b;
	if (!str_at(b, off, "ns/", 3))
		return -1;
	off += 3;
	if (str_at(b, off, "net", 4))
		return NSAUDIT_NS_NET;
	if (str_at(b, off, "uts", 4))
		return NSAUDIT_NS_UTS;
	if (str_at(b, off, "ipc", 4))
		return NSAUDIT_NS_IPC;
	if (str_at(b, off, "mnt", 4))
		return NSAUDIT_NS_MNT;
	if (str_at(b, off, "user", 5))
		return NSAUDIT_NS_USER;
	if (str_at(b, off, "cgroup", 7))
		return NSAUDIT_NS_CGROUP;
	if (str_at(b, off, "pid_for_children", 17))
		return NSAUDIT_NS_PID;
	if (str_at(b, off, "time_for_children", 18))
		return NSAUDIT_NS_TIME;
	return -1;
}

/* The namespace "ns/TYPE" (or, own: "fd/N") at b[off] names of task. */
static __always_inline struct ns_common *task_source_ns(struct task_struct *task, const char *b,
							 int off, bool own)
{
	struct file *file;
	int end, t;
	long v;

	if (own && str_at(b, off, "fd/", 3)) {
		v = num_at(b, off + 3, &end);
		file = v >= 0 ? task_fd_file(task, v) : NULL;
		return file && file_is_nsfs(file) ? file_ns(file) : NULL;
	}
	t = src_ns_type((const struct src_buf *)b, off);
	return t >= 0 ? task_ns(task, t) : NULL;
}

/* What a bind mount's source names (mount_source_at()). */
struct src_ns {
	__u64 id;
	__u32 inum;
	__u32 type;
};

/* The namespace the source at user address usrc names, into *out (inum 0:
 * none), as tp_enter_mount (others: tp_enter_mount_vpid) resolves it. */
static __always_inline int mount_source_at_as(__u64 usrc, struct src_ns *out, bool others)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct src_buf src = {};
	struct ns_common *ns;

	if (!out)
		return 0;
	bpf_probe_read_user_str(src.b, sizeof(src.b), (void *)usrc);
	ns = mount_source_ns(task, src.b, others);
	if (!ns)
		return 0;
	out->type = ns_type(ns);
	ns_ident(ns, &out->inum, &out->id);
	return 0;
}

/* Global subprograms: the path buffer is off the stack of the record's
 * calls (6.1: 512 bytes for a chain of frames); the _vpid one only in the
 * programs loaded where bpf_task_from_vpid is (6.13+). */
__noinline int mount_source_at(__u64 usrc, struct src_ns *out)
{
	return mount_source_at_as(usrc, out, false);
}

__noinline int mount_source_at_vpid(__u64 usrc, struct src_ns *out)
{
	return mount_source_at_as(usrc, out, true);
}

#endif
