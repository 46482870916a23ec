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
	__uint(max_entries, 16384);	/* as pin_mounts */
	__type(key, __u64); /* the pin_mounts key */
	__type(value, struct pin_names);
} pin_names SEC(".maps");

/*
 * The umount's path argument, and its last PIN_NAME_DEPTH names split off
 * it once at the exit (tail.n[0] the last), zero-padded like a pin's, so
 * that each pin is compared word by word: bit k of valid, tail.n[k] is a
 * name short enough to compare.
 */
struct umount_path {
	char p[UMOUNT_PATH_LEN];
	int len;
	__u32 valid;
	struct pin_names tail;
};

/*
 * One per claimed walk of this CPU (pin_walk_claim(), pin_index.bpf.h,
 * slot): an umount exit preempted between reading its path and scoring
 * the pins with it must not find another exit's path there.
 */
#define UMOUNT_PATHS 4

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, UMOUNT_PATHS);
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

/* The split's state, one character of the path per bpf_loop step, from
 * its end. */
struct tail_split {
	int j;	 /* the character looked at */
	int end; /* one past the last character of the name being read; -1: between names */
	int c;	 /* the name being read, [0] the last */
	__u32 slot; /* umount_path_buf's */
};

static long tail_split_step(__u64 i, struct tail_split *t)
{
	__u32 slot = t->slot;
	struct umount_path *b = bpf_map_lookup_elem(&umount_path_buf, &slot);
	int j = t->j, c = t->c, len;
	char ch;

	if (!b || c < 0 || c >= PIN_NAME_DEPTH)
		return 1;
	ch = j >= 0 ? b->p[j & (UMOUNT_PATH_LEN - 1)] : '/';
	if (ch != '/') {
		if (t->end < 0)
			t->end = j + 1;
		t->j = j - 1;
		return 0;
	}
	if (t->end >= 0) { /* a whole name: p[j + 1, end) */
		len = t->end - (j + 1);
		/* a name cut short in a pin (PIN_NAME_LEN - 1 or more) never matches */
		if (len > 0 && len < PIN_NAME_LEN - 1) {
			barrier_var(len); /* keep the mask: the verifier needs it */
			bpf_probe_read_kernel(b->tail.n[c], len & (PIN_NAME_LEN - 1),
					      &b->p[(j + 1) & (UMOUNT_PATH_LEN - 1)]);
			b->valid |= 1u << c;
		}
		t->c = c + 1;
		t->end = -1;
	}
	if (j < 0)
		return 1;
	t->j = j - 1; /* a run of slashes is one */
	return 0;
}

/* At an umount's exit: its path argument, and its last names split off,
 * into umount_path_buf[slot]. */
static __always_inline void umount_path_read(__u32 slot, const void *user_path)
{
	struct umount_path *b = bpf_map_lookup_elem(&umount_path_buf, &slot);
	struct tail_split t = {.end = -1, .slot = slot};
	long n;

	if (!b)
		return;
	b->valid = 0;
	b->tail = pin_names_zero;
	n = bpf_probe_read_user_str(b->p, sizeof(b->p), user_path);
	b->len = n > 1 ? n - 1 : 0; /* without the NUL */
	t.j = b->len - 1;
	bpf_loop(UMOUNT_PATH_LEN + 1, tail_split_step, &t, 0);
	/* longer than the room: its last names are not the ones read (a cut
	 * name, another directory's): none, the path names no pin here.
	 * Undone after the split, in map memory the verifier does not follow:
	 * the same test before it split every later path on n's range, and
	 * the verifier walked tp_exit_umount 24 times over (545k instructions,
	 * 0.6 s of every start-up). */
	if (user_str_cut(n, (__u64)user_path, sizeof(b->p))) {
		b->valid = 0;
		b->len = 0;
	}
}

/* Whether two names, zero-padded to PIN_NAME_LEN, are the same. */
static __always_inline bool name_eq(const char *a, const char *b)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;

	return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3];
}

/*
 * How many of the pin's last names the umount's path ends with, compared
 * until the path or the pin has no more (a name truncated to
 * PIN_NAME_LEN - 1 is none). 0: not this call's, as far as its spelling
 * tells: no name to compare, the pin's names unknown, or a name that
 * differs. A pin whose names differ further up is not half this call's:
 * scored by the names before the difference, another umount's pin
 * (.../b/pin for .../a/pin: one name) outscored this call's own when its
 * names were unknown, and the exit took it (94-pins-umount-concurrent,
 * once under load). No loop: it runs once per pin, inside the pin
 * table's walk.
 */
static __always_inline int umount_target_score(__u32 slot, __u64 key)
{
	struct pin_names *v = bpf_map_lookup_elem(&pin_names, &key);
	struct umount_path *b = bpf_map_lookup_elem(&umount_path_buf, &slot);
	int k;

	if (!v || !b)
		return 0;
#pragma unroll
	for (k = 0; k < PIN_NAME_DEPTH; k++) {
		if (!(b->valid & (1u << k)) || !v->n[k][0] || v->n[k][PIN_NAME_LEN - 2])
			return k;
		if (!name_eq(b->tail.n[k], v->n[k]))
			return 0;
	}
	return PIN_NAME_DEPTH;
}

#endif /* NSAUDIT_UMOUNT_TARGET_BPF_H */
