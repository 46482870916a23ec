/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exe_path.bpf.h - the path of an exec'd file from its dentries, for the
 * execs whose own path names nothing: busybox's shell runs its applets
 * (nsenter, unshare ...) by exec of /proc/self/exe, fexecve by /dev/fd/N.
 * Walked up to the root of the exec'ing task's mount tree (its mount
 * namespace: a container's root for a process in a container), crossing
 * mounts; at most EXE_WALK_DEPTH components and EXE_BUF - 1 bytes (more:
 * no path, user space asks /proc). Longer than a record's path: its first
 * bytes, marked cut. Runs only for those execs, never on a namespace call.
 *
 * Included once, by lifecycle.bpf.c (tp_exec).
 */
#ifndef NSAUDIT_EXE_PATH_BPF_H
#define NSAUDIT_EXE_PATH_BPF_H

#define EXE_WALK_DEPTH 16
#define EXE_NAME_MAX 256	/* NAME_MAX + 1: every name whole */
#define EXE_BUF 512	/* built from its end, then copied out */

struct exe_walk_buf {
	char buf[EXE_BUF + EXE_NAME_MAX]; /* room past any pos < EXE_BUF for a name */
	char name[EXE_NAME_MAX];
	struct nsaudit_exe_hist hist;	  /* tp_exec's value: too big for the stack */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct exe_walk_buf);
} exe_walk SEC(".maps");

/*
 * The absolute path of file in its mount tree into out (NSAUDIT_PATH_LEN).
 * false if it could not be built. A file that is itself the root of a
 * mount attached nowhere (a detached bind of a binary: runc, crun) has no
 * path in any tree: its path in its own file system instead, and
 * *fs_path says so (NSAUDIT_EXE_F_FS_PATH); a path longer than out: its
 * first bytes, and NSAUDIT_EXE_F_CUT there.
 */
static __always_inline bool exe_path_walk(struct file *file, char *out, __u32 *fs_path)
{
	struct dentry *d = BPF_CORE_READ(file, f_path.dentry), *parent, *root;
	struct vfsmount *vfs = BPF_CORE_READ(file, f_path.mnt);
	struct mount *m = (void *)vfs - bpf_core_field_offset(struct mount, mnt), *mp;
	__u32 zero = 0, pos = EXE_BUF - 1;
	struct exe_walk_buf *w = bpf_map_lookup_elem(&exe_walk, &zero);
	long n;
	int i;

	if (!w)
		return false;
	w->buf[EXE_BUF - 1] = '\0';
	*fs_path = 0;
	for (i = 0; i < EXE_WALK_DEPTH; i++) {
		root = BPF_CORE_READ(m, mnt.mnt_root);
		if (d == root && !*fs_path) {
			mp = BPF_CORE_READ(m, mnt_parent);
			if (mp == m && i == 0) {
				/* the file itself is the root of a mount with
				 * no parent (detached, or an open_tree copy's):
				 * its dentries up to its file system's root */
				*fs_path = NSAUDIT_EXE_F_FS_PATH;
				continue;
			}
			if (mp == m)
				break;	/* the root of the namespace's tree */
			d = BPF_CORE_READ(m, mnt_mountpoint);
			m = mp;
			continue;
		}
		parent = BPF_CORE_READ(d, d_parent);
		if (parent == d)
			break;
		n = bpf_probe_read_kernel_str(w->name, sizeof(w->name), BPF_CORE_READ(d, d_name.name));
		if (n <= 1 || pos < (__u32)n)
			return false;
		/* "/NAME" in front of what is built: the name without its NUL */
		pos -= n - 1;
		pos &= EXE_BUF - 1;
		bpf_probe_read_kernel(&w->buf[pos], (n - 1) & (EXE_NAME_MAX - 1), w->name);
		pos--;
		pos &= EXE_BUF - 1;
		w->buf[pos] = '/';
		d = parent;
	}
	if (i == EXE_WALK_DEPTH || pos == EXE_BUF - 1)
		return false;
	/* pos .. EXE_BUF - 2 is the path: more than out holds is cut */
	if (EXE_BUF - 1 - pos > NSAUDIT_PATH_LEN - 1)
		*fs_path |= NSAUDIT_EXE_F_CUT;
	bpf_probe_read_kernel_str(out, NSAUDIT_PATH_LEN, &w->buf[pos & (EXE_BUF - 1)]);
	return true;
}

#endif /* NSAUDIT_EXE_PATH_BPF_H */
