/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nsfile.bpf.h - nsfs files: where one came from (fd_origins: ioctl,
 * pidfd_getfd, a handle, nsfd), the current task's file behind an fd, and
 * the string helpers of the path checks. fd_origins is defined in
 * pins_fd.bpf.c, which notes the origins; setns reads them.
 */
#ifndef NSAUDIT_NSFILE_BPF_H
#define NSAUDIT_NSFILE_BPF_H

/*
 * The origin of nsfs files made without open() (ioctl, pidfd_getfd, handle,
 * nsfd), keyed by the struct file: the origin travels with the file through
 * dup, fork, SCM_RIGHTS and pidfd_getfd, so a later setns names it. The
 * inode number is checked too: a freed file's address can come back.
 */
struct fd_origin {
	__u32 via;
	__u32 inum;
};

struct fd_origins_map {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct fd_origin);
};
extern struct fd_origins_map fd_origins SEC(".maps");

static __always_inline void note_origin(struct file *file, __u32 via, __u32 inum)
{
	__u64 k = (__u64)file;
	struct fd_origin o = { .via = via, .inum = inum };

	bpf_map_update_elem(&fd_origins, &k, &o, BPF_ANY);
}

static __always_inline __u32 nsfs_file_via(struct file *file, __u32 inum)
{
	__u64 k = (__u64)file;
	struct fd_origin *o;

	if (file_is_bind_mount(file))
		return NSAUDIT_VIA_BIND;
	o = bpf_map_lookup_elem(&fd_origins, &k);
	if (o && o->inum == inum)
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

/*
 * ns_file_operations' address, learned from the first nsfs file an open
 * returns (the loader opens /proc/self/ns/net right after attaching, with
 * prime_tgid set so that its own open is not recorded). Every nsfs file
 * has those file operations, and no other file has: once learned, an open
 * is told apart by one load and one compare, instead of walking from the
 * file to its superblock's magic (three probe reads). Until then the magic
 * decides, and teaches it.
 */
extern __u64 nsfs_fops;
extern __u32 prime_tgid;

/*
 * On 6.4+ kernels, which take a function's address into an instruction
 * (ld_imm64 of a BTF function, resolved by the kernel at load), the check
 * needs no global at all: an nsfs file's f_op->unlocked_ioctl is
 * ns_ioctl. A global is a page of its own to touch on every open on the
 * machine (~25 ns after a syscall flushed the TLB, bpf_stats); this is
 * a probe read into the kernel's read-only data, which is not. The loader
 * loads tp_exit_openat (this) or tp_exit_openat_fops (the learned f_op)
 * by the kernel's version.
 */
extern long ns_ioctl(struct file *filp, unsigned int ioctl, unsigned long arg) __ksym __weak;

static __always_inline bool open_is_nsfs_ksym(struct file *file)
{
	__u64 fop = (__u64)BPF_CORE_READ(file, f_op);

	return fop && (__u64)BPF_CORE_READ((struct file_operations *)fop, unlocked_ioctl) ==
			      (__u64)ns_ioctl;
}

static __always_inline bool open_is_nsfs(struct file *file)
{
	__u64 fop = (__u64)BPF_CORE_READ(file, f_op);

	if (fop && fop == nsfs_fops)
		return true;
	if (nsfs_fops || !file_is_nsfs(file))
		return false;
	nsfs_fops = fop;
	return true;
}

/* The first 8 bytes of s as one word: prefix tests without a loop. */
static __always_inline __u64 word8(const char *s)
{
	__u64 w;

	__builtin_memcpy(&w, s, sizeof(w));
	return w;
}

#endif
