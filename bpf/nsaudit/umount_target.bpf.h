/* SPDX-License-Identifier: GPL-2.0 */
/*
 * umount_target.bpf.h - which detached pin a umount call named, when
 * another umount of the same mount namespace is in flight.
 *
 * Why: an umount's exit finds the pins it detached as those of its mount
 * namespace that left it. Detaches are serialised, but the exits come a
 * grace period later in any order: with two umounts in flight, the first
 * exit also sees the other's pin (measured: two shells each binding and
 * unmounting 40 pins in the host mount namespace, 7 of 80 umount records
 * named the other's namespace). No hook sees the mount a umount resolved,
 * so the path it was given is compared with the pin's mount point as it
 * was when mounted: its last PIN_NAME_DEPTH names (the mount point is
 * unhashed by the umount). DIR//name, a symlinked directory, a relative
 * path still end in the same names; "." or a symlink as the last name do
 * not, and such a call leaves the pin to the last umount in flight (or to
 * the sweep), as before.
 *
 * Included by pins.bpf.h.
 */
#ifndef NSAUDIT_UMOUNT_TARGET_BPF_H
#define NSAUDIT_UMOUNT_TARGET_BPF_H

#define PIN_NAME_LEN	32
#define PIN_NAME_DEPTH	3
#define UMOUNT_PATH_LEN 256

/* The last names of a pin's mount point, [0] the mount point's own. */
struct pin_names {
	char n[PIN_NAME_DEPTH][PIN_NAME_LEN];
};

/* LRU: a pin forgotten by user space (the sweep) leaves its names behind. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64); /* the pin_mounts key */
	__type(value, struct pin_names);
} pin_names SEC(".maps");

struct umount_path {
	char p[UMOUNT_PATH_LEN];
	int len;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct umount_path);
} umount_path_buf SEC(".maps");

static const struct pin_names pin_names_zero = {};

struct qstr___pins {
	const unsigned char *name;
} __attribute__((preserve_access_index));

struct dentry___pins_name {
	struct dentry___pins_name *d_parent;
	struct qstr___pins d_name;
} __attribute__((preserve_access_index));

struct mount___pins_mp {
	struct dentry___pins_name *mnt_mountpoint;
} __attribute__((preserve_access_index));

/* At a pin's mount: remember its mount point's last names. */
static __always_inline void pin_names_note(__u64 key, void *mount)
{
	struct mount___pins_mp *m = mount;
	struct dentry___pins_name *d, *parent;
	struct pin_names *v;
	int i;

	if (bpf_map_update_elem(&pin_names, &key, &pin_names_zero, BPF_ANY))
		return;
	v = bpf_map_lookup_elem(&pin_names, &key);
	if (!v)
		return;
	d = BPF_CORE_READ(m, mnt_mountpoint);
#pragma unroll
	for (i = 0; i < PIN_NAME_DEPTH; i++) {
		parent = BPF_CORE_READ(d, d_parent);
		if (!parent || parent == d)
			break; /* the root of its file system: "/", no name */
		bpf_probe_read_kernel_str(v->n[i], PIN_NAME_LEN, BPF_CORE_READ(d, d_name.name));
		d = parent;
	}
}

/* At an umount's exit: its path argument, for umount_target_score(). */
static __always_inline void umount_path_read(const void *user_path)
{
	__u32 zero = 0;
	struct umount_path *b = bpf_map_lookup_elem(&umount_path_buf, &zero);
	long n;

	if (!b)
		return;
	n = bpf_probe_read_user_str(b->p, sizeof(b->p), user_path);
	b->len = n > 1 ? n - 1 : 0; /* without the NUL */
}

/* The comparison's state, one character of the path per bpf_loop step
 * (a loop the verifier walks once, not once per path through it). */
struct tail_cmp {
	__u64 key;
	int j;	   /* the path's character looked at, from its end */
	int c;	   /* the pin's name compared, [0] the last */
	int r;	   /* its characters not matched yet; -1: between names */
	int score; /* names matched whole */
	int done;
};

static long tail_cmp_step(__u64 i, struct tail_cmp *t)
{
	struct pin_names *v = bpf_map_lookup_elem(&pin_names, &t->key);
	__u32 zero = 0;
	struct umount_path *b = bpf_map_lookup_elem(&umount_path_buf, &zero);
	int c = t->c, nl;
	char ch;

	if (!v || !b || t->done || c < 0 || c >= PIN_NAME_DEPTH)
		return 1;
	ch = t->j >= 0 ? b->p[t->j & (UMOUNT_PATH_LEN - 1)] : '/';
	if (t->r < 0) { /* between names: skip the slashes */
		if (t->j < 0)
			return 1;
		if (ch == '/') {
			t->j--;
			return 0;
		}
		for (nl = 0; nl < PIN_NAME_LEN && v->n[c][nl]; nl++)
			;
		if (!nl || nl >= PIN_NAME_LEN - 1)
			return 1; /* no name, or one cut short: no match */
		t->r = nl;
		return 0;
	}
	if (t->r == 0) { /* a whole name: it must start there */
		if (ch != '/')
			return 1;
		t->score++;
		t->c++;
		t->r = -1;
		return t->c >= PIN_NAME_DEPTH;
	}
	if (t->j < 0 || ch != v->n[c][(t->r - 1) & (PIN_NAME_LEN - 1)])
		return 1;
	t->r--;
	t->j--;
	return 0;
}

/*
 * How many of the pin's last names the umount's path ends with (a name
 * truncated to PIN_NAME_LEN - 1 never matches). 0: not this call's, as
 * far as its spelling tells.
 */
static __always_inline int umount_target_score(__u64 key)
{
	__u32 zero = 0;
	struct umount_path *b = bpf_map_lookup_elem(&umount_path_buf, &zero);
	struct tail_cmp t = {.key = key, .r = -1};

	if (!b)
		return 0;
	t.j = b->len - 1;
	bpf_loop(UMOUNT_PATH_LEN + 2 * PIN_NAME_DEPTH + 2, tail_cmp_step, &t, 0);
	return t.score;
}

#endif /* NSAUDIT_UMOUNT_TARGET_BPF_H */
