/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pins.bpf.h - nsfs bind-mount pins known by mount identity, kernel side.
 *
 * Why: resolving a bind's source or an umount's target by path from user
 * space loses every race (a mount made and removed back to back, a mount
 * namespace that dies at once) and every spelling (DIR//name, a symlinked
 * directory, a relative path). The kernel's own mount tree is exact:
 *
 *   mount/move_mount exit   the mount the call attached is the newest one
 *                           in the caller's mount namespace (6.18: the
 *                           rb-tree's last node, ordered by the never
 *                           reused mnt_id_unique; 6.1: the tail of the
 *                           namespace's mount list). Its root dentry's inode
 *                           is the pinned namespace. The caller's nsproxy
 *                           holds the namespace at the exit: it cannot have
 *                           died yet.
 *   umount exit             each pin of the caller's mount namespace (the
 *                           pin index, pin_index.bpf.h) is checked: the one
 *                           the call detached has left the namespace
 *                           (mnt_ns changed), whatever path named it.
 *   sweep_pins iterator     (pin_sweep.bpf.h) pins that left without an
 *                           umount of ours (their
 *                           mount namespace died, a propagated or lazy
 *                           umount) are handed to user space with a cause;
 *                           not those of a namespace where an umount is in
 *                           flight (umount_inflight.bpf.h): its exit
 *                           records them, however late it runs.
 *
 * A pin is keyed by a never reused id (mnt_id_unique, or a serial number
 * where the kernel has none), not by its struct mount's address: a mount
 * freed without our seeing (its namespace died) leaves its memory to the
 * next mount, which must not overwrite the pin before the sweep reports
 * it. The address is in the value, checked against mnt_id and mnt_unique
 * on every look.
 *
 * Included by pins_mount.bpf.c, after emit.bpf.h.
 */
#ifndef NSAUDIT_PINS_BPF_H
#define NSAUDIT_PINS_BPF_H

#include "pins.h"
#include "pin_index.bpf.h"
#include "umount_inflight.bpf.h"
#include "umount_target.bpf.h"

#define MS_REC 16384

/* Only the members used, in the kernel's names; CO-RE finds them at load. */
struct list_head___pins {
	struct list_head___pins *next, *prev;
} __attribute__((preserve_access_index));

struct rb_node___pins {
	unsigned long __rb_parent_color;
} __attribute__((preserve_access_index));

struct super_block___pins {
	unsigned long s_magic;
} __attribute__((preserve_access_index));

struct inode___pins {
	unsigned long i_ino;
	void *i_private;
} __attribute__((preserve_access_index));

struct dentry___pins {
	struct inode___pins *d_inode;
} __attribute__((preserve_access_index));

struct vfsmount___pins {
	struct dentry___pins *mnt_root;
	struct super_block___pins *mnt_sb;
} __attribute__((preserve_access_index));

struct mount___pins {
	struct mount___pins *mnt_parent;
	struct vfsmount___pins mnt;
	struct rb_node___pins mnt_node;		/* 6.8+: in the ns rb-tree */
	struct list_head___pins mnt_list;	/* 6.1: in the ns list */
	struct mnt_namespace *mnt_ns;
	int mnt_id;
	__u64 mnt_id_unique;			/* 6.8+ */
} __attribute__((preserve_access_index));

struct mnt_namespace___pins {
	struct mount___pins *root;
	struct rb_node___pins *mnt_last_node;	/* 6.12+: the newest mount */
	struct list_head___pins list;		/* 6.1: mounts, newest last */
	__u64 seq;				/* 6.1: never reused */
} __attribute__((preserve_access_index));

/*
 * A mount namespace's identity that is never reused: ns.ns_id (6.18), else
 * seq (6.1: a 64-bit counter the kernel numbers mount namespaces with),
 * else its address. Why: a namespace's struct goes back to the slab when it
 * dies, and the next one made gets the same address; a pin of the dead one
 * compared by address is claimed by the first umount in the new one (issue
 * 47: root's umount blamed for another user's pins). 0 for NULL (a mount
 * that left every namespace).
 */
static __always_inline __u64 mntns_key(struct mnt_namespace *mns)
{
	struct mnt_namespace___pins *ns = (void *)mns;
	struct ns_common *nc = (void *)mns;

	if (!mns)
		return 0;
	if (bpf_core_field_exists(nc->ns_id))
		return BPF_CORE_READ(nc, ns_id);
	if (bpf_core_field_exists(ns->seq))
		return BPF_CORE_READ(ns, seq);
	return (__u64)mns;
}

/* The newest mount of a mount namespace, NULL if it cannot be told. */
static __always_inline struct mount___pins *mntns_newest(struct mnt_namespace *mns)
{
	struct mnt_namespace___pins *ns = (void *)mns;
	struct list_head___pins *tail;
	void *node;

	if (!ns)
		return NULL;
	if (bpf_core_field_exists(ns->mnt_last_node)) {
		node = BPF_CORE_READ(ns, mnt_last_node);
		if (!node)
			return NULL;
		return node - bpf_core_field_offset(struct mount___pins, mnt_node);
	}
	if (!bpf_core_field_exists(ns->list))
		return NULL;
	tail = BPF_CORE_READ(ns, list.prev);
	if (!tail || (void *)tail == (void *)&ns->list)
		return NULL;
	return (void *)tail - bpf_core_field_offset(struct mount___pins, mnt_list);
}

static __always_inline struct mnt_namespace *cur_mntns(void)
{
	struct task_struct *task = (void *)bpf_get_current_task();

	return BPF_CORE_READ(task, nsproxy, mnt_ns);
}

static __always_inline __u64 mount_unique(struct mount___pins *m)
{
	if (bpf_core_field_exists(m->mnt_id_unique))
		return BPF_CORE_READ(m, mnt_id_unique);
	return 0;
}

/*
 * Numbers pins where the kernel has no mnt_id_unique (6.1: mount ids and
 * mount namespace inodes are both reused): with PIN_SERIAL_BIT set, never
 * taken for a kernel id. User space keys its pins by it.
 */
#define PIN_SERIAL_BIT (1ULL << 63)
__u64 pin_serial = 0;

/*
 * Umount calls that succeeded, anywhere: only an umount propagates one into
 * other mount namespaces (their pins leave unseen by any exit there); user
 * space sweeps every living namespace's pins when this moved (issue 47).
 */
__u64 pin_umounts = 0;

/* The namespace an nsfs mount pins (its root is the nsfs inode), or NULL. */
static __always_inline struct ns_common *mount_pinned_ns(struct mount___pins *m)
{
	if (BPF_CORE_READ(m, mnt.mnt_sb, s_magic) != NSFS_MAGIC)
		return NULL;
	return BPF_CORE_READ(m, mnt.mnt_root, d_inode, i_private);
}

/*
 * What tells whether a mount namespace lives: its root mount is in it.
 * The root leaves only when the namespace dies (umount_tree() of the whole
 * tree sets mnt_ns to NULL; umount2 and pivot_root refuse to move a
 * namespace's root), and its memory, once freed, never says it is in a
 * namespace with this never reused key.
 */
static __always_inline void pin_ns_init(struct mnt_namespace *mns, struct pin_ns *h)
{
	struct mnt_namespace___pins *ns = (void *)mns;
	struct mount___pins *root = BPF_CORE_READ(ns, root);

	__builtin_memset(h, 0, sizeof(*h));
	h->mns = (__u64)mns;
	h->root = (__u64)root;
	h->root_unique = mount_unique(root);
	h->root_id = BPF_CORE_READ(root, mnt_id);
}

static __always_inline bool pin_ns_alive(__u64 mns_key, const struct pin_ns *h)
{
	struct mount___pins *root = (void *)h->root;
	struct mnt_namespace *mns = BPF_CORE_READ(root, mnt_ns);

	return (__u64)mns == h->mns && mntns_key(mns) == mns_key &&
	       BPF_CORE_READ(root, mnt_id) == h->root_id && mount_unique(root) == h->root_unique;
}

/*
 * Remember m as a pin if it is an nsfs mount attached in the caller's mount
 * namespace, and fill *pin. Whether it is one.
 */
static __always_inline bool pin_note(struct mount___pins *m, struct nsaudit_pin *pin)
{
	struct mnt_namespace *mns = cur_mntns();
	struct ns_common *ns = mount_pinned_ns(m);
	struct pin_ns init;
	__u64 key;

	if (!ns)
		return false;
	__builtin_memset(pin, 0, sizeof(*pin));
	pin->mount = (__u64)m;
	pin->mnt_ns = (__u64)mns;
	pin->mnt_ns_key = mntns_key(mns);
	ns_ident((struct ns_common *)mns, &pin->mnt_ns_inum, &pin->mnt_ns_id);
	pin->maker_pid = bpf_get_current_pid_tgid() >> 32;
	pin->maker_uid = (__u32)bpf_get_current_uid_gid();
	bpf_get_current_comm(pin->maker_comm, sizeof(pin->maker_comm));
	pin->mnt_id = BPF_CORE_READ(m, mnt_id);
	pin->mnt_unique = mount_unique(m);
	if (!pin->mnt_unique)
		pin->mnt_unique = PIN_SERIAL_BIT | __sync_fetch_and_add(&pin_serial, 1);
	pin->ns_type = ns_type(ns);
	ns_ident(ns, &pin->ns_inum, &pin->ns_id);
	key = pin->mnt_unique;
	pin_names_note(key, m);
	bpf_map_update_elem(&pin_mounts, &key, pin, BPF_ANY);
	/* after pin_mounts: a walk that finds the slot finds the pin */
	pin_ns_init(mns, &init);
	pin_index_add(pin->mnt_ns_key, &init, key);
	return true;
}

/*
 * pin_note() as a global subprogram (defined in pins_mount.bpf.c), m an
 * address: its walk of the index (pin_index_add()'s bpf_loop step) was
 * verified on every path that reached it, 36 times in tp_exit_move_mount
 * (12,400 of its 31,119 instructions processed); now once a program.
 * *pin is written only when it is a pin (as pin_note() leaves it else).
 */
int pin_note_at(__u64 m, struct nsaudit_pin *pin);

/*
 * What tells the newest mount at a call's entry from the one at its exit:
 * its mnt_id_unique, else (6.1) its address. 0: the namespace has none.
 */
static __always_inline __u64 mntns_newest_mark(void)
{
	struct mount___pins *m = mntns_newest(cur_mntns());

	if (!m)
		return 0;
	return mount_unique(m) ?: (__u64)m;
}

/*
 * At a mount's exit: the mount it attached is the newest of the caller's
 * namespace, if that is not the one that was newest at entry (before, from
 * mntns_newest_mark()).
 * Returns whether the new mount was found; *pin is filled (the pin
 * remembered) when it is an nsfs mount (pin->ns_inum != 0), zeroed if not.
 */
static __always_inline bool new_mount_pin(__u64 before, bool rec, struct nsaudit_pin *pin)
{
	struct mount___pins *m = mntns_newest(cur_mntns());

	__builtin_memset(pin, 0, sizeof(*pin));
	if (!m || (mount_unique(m) ?: (__u64)m) == before)
		return false;
	/*
	 * A recursive bind attaches a tree: its newest mount may be a copy of
	 * one below the source. Only the top one hangs from a mount that was
	 * there before the call; told apart where ids are ordered (6.8+).
	 */
	if (rec && !(mount_unique(m) && mount_unique(BPF_CORE_READ(m, mnt_parent)) <= before))
		return false;
	pin_note_at((__u64)m, pin);
	return true;
}

/* The mount a file was opened through (an open_tree() fd's own mount). */
static __always_inline struct mount___pins *file_mount(struct file *file)
{
	void *vfs = BPF_CORE_READ(file, f_path.mnt);

	return vfs - bpf_core_field_offset(struct mount___pins, mnt);
}

/* Whether the pin's mount is still attached in the namespace it was in. */
static __always_inline bool pin_attached(const struct nsaudit_pin *pin)
{
	struct mount___pins *m = (void *)pin->mount;
	struct mnt_namespace *mns = BPF_CORE_READ(m, mnt_ns);
	__u64 uniq = mount_unique(m);

	if ((__u64)mns != pin->mnt_ns || mntns_key(mns) != pin->mnt_ns_key)
		return false;
	if (BPF_CORE_READ(m, mnt_id) != (int)pin->mnt_id)
		return false;
	return (pin->mnt_unique & PIN_SERIAL_BIT) || uniq == pin->mnt_unique;
}

/* One pin of g's namespace (found at loc): whether it left it. */
static __always_inline long pin_gone_one(struct pins_gone *g, __u32 loc, __u64 key,
					 const struct nsaudit_pin *pin)
{
	__u32 i = g->n;

	if (pin->mnt_ns_key != g->mnt_ns_key || pin_attached(pin))
		return 0;
	if (i >= PINS_GONE_MAX)
		return 1;	/* the rest: the next sweep */
	/*
	 * 6.1's verifier loses the bound above when i is spilled around
	 * umount_target_score(); the mask (kept by barrier_var) restores it.
	 */
	barrier_var(i);
	i &= PINS_GONE_MAX - 1;
	g->key[i] = key;
	g->score[i] = umount_target_score(g->slot, key);
	g->loc[i] = loc;
	g->n = i + 1;
	return 0;
}

/*
 * One attached pin of g's namespace whose last names the umount path ends
 * with, all of them; g->n counts the pins as well named (more than one:
 * none is the one).
 */
static __always_inline long pin_named_one(struct pins_gone *g, __u32 loc, __u64 key,
					  const struct nsaudit_pin *pin)
{
	int s;

	if (pin->mnt_ns_key != g->mnt_ns_key || !pin_attached(pin))
		return 0;
	s = umount_target_score(g->slot, key);
	if (s < g->score[1])
		return 0;	/* fewer names than the path has */
	if (s > g->score[0]) {
		g->score[0] = s;
		g->key[0] = key;
		g->loc[0] = loc;
		g->n = 1;
	} else if (s == g->score[0]) {
		g->n = 2;	/* two or more: none (bounded, for the verifier) */
	}
	return 0;
}

/* bpf_for_each_map_elem callbacks: the walk of all pins, should the
 * index be unusable (pin_index.bpf.h). */
static long pin_gone_cb(void *map, __u64 *key, struct nsaudit_pin *pin, struct pin_walk_ref *r)
{
	return r->w ? pin_gone_one(&r->w->g, PIN_LOC_NONE, *key, pin) : 1;
}

static long pin_named_cb(void *map, __u64 *key, struct nsaudit_pin *pin, struct pin_walk_ref *r)
{
	return r->w ? pin_named_one(&r->w->g, PIN_LOC_NONE, *key, pin) : 1;
}

#define PIN_WALK_GONE	0	/* an umount's exit: the pins it detached */
#define PIN_WALK_NAMED	1	/* a refused umount: the pin its path names */
#define PIN_WALK_SWEEP	2	/* the sweep: pins that left (pin_sweep.bpf.h) */

/*
 * The walk of the current umount's own namespace, in mode (GONE, NAMED;
 * want: the names its path has): its pins from the index, or all pins
 * should the index be unusable. w->g the result.
 */
static __always_inline void pins_walk_here(struct pin_walk *w, __u32 mode, int want)
{
	struct pin_walk_ref r = { .w = w };
	__u64 mns_key = mntns_key(cur_mntns());
	struct pin_ns *h;

	__builtin_memset(&w->g, 0, sizeof(w->g));
	w->from = 0;
	w->to = 0;
	w->stop = 0;
	w->live = 0;
	w->g.mnt_ns_key = mns_key;
	w->g.slot = w->slot;
	w->g.score[1] = want;
	w->mns_key = mns_key;
	w->mode = mode;
	if (pin_index_unusable()) {
		if (mode == PIN_WALK_GONE)
			bpf_for_each_map_elem(&pin_mounts, pin_gone_cb, &r, 0);
		else
			bpf_for_each_map_elem(&pin_mounts, pin_named_cb, &r, 0);
		return;
	}
	/* a namespace that never held a pin has nothing to walk */
	h = bpf_map_lookup_elem(&pin_ns, &mns_key);
	if (!h)
		return;
	w->to = h->nbuckets < PIN_BUCKETS_MAX ? h->nbuckets : PIN_BUCKETS_MAX;
	pin_index_walk(w);
}

/* Whether the caller's mount namespace may hold a pin the kernel side knows. */
static __always_inline bool pins_maybe_here(void)
{
	__u64 mns_key = mntns_key(cur_mntns());

	return pin_index_unusable() || bpf_map_lookup_elem(&pin_ns, &mns_key);
}

/* The pinned mounts the current umount detached (in its namespace): w->g. */
static __always_inline void pins_gone_here(struct pin_walk *w)
{
	pins_walk_here(w, PIN_WALK_GONE, 0);
}

/* Whether the current umount's path (umount_path_read) names exactly one
 * attached pin of its mount namespace: then w->g.key[0]. */
static __always_inline bool pins_named_here(struct pin_walk *w)
{
	__u32 slot = w->slot;
	struct umount_path *b = bpf_map_lookup_elem(&umount_path_buf, &slot);
	int want = 0;

	if (!b || !b->valid)
		return false;
	want = (b->valid & 1) + ((b->valid >> 1) & 1) + ((b->valid >> 2) & 1);
	pins_walk_here(w, PIN_WALK_NAMED, want);
	return w->g.n == 1 && w->g.score[0] >= want;
}

/*
 * A user path into a zero-padded path_buf (coalescing compares it word by
 * word), in the umount path scratch slot (the caller's claimed walk's)
 * after its names were split off. Longer than the record holds: its first
 * bytes, and k says it was cut.
 */
static __always_inline const struct path_buf *user_path_buf(struct ev_key *k, __u32 slot,
							    const void *upath)
{
	struct umount_path *b = bpf_map_lookup_elem(&umount_path_buf, &slot);
	long n;

	if (!b)
		return NULL;
	__builtin_memset(b->p, 0, sizeof(b->p));
	n = bpf_probe_read_user_str(b->p, sizeof(b->p), upath);
	if (user_str_cut(n, (__u64)upath, sizeof(b->p)))
		k->flags |= NSAUDIT_F_PATH_CUT;
	return (const struct path_buf *)b->p;
}

/*
 * Which of g's pins the current umount takes: the one its path names best
 * (umount_target.bpf.h), if no other is named as well. Alone (no other
 * umount of its namespace in flight): the ones named best, or all when its
 * path names none (a lazy umount of a directory above them). Alone, all
 * were once taken even when the path named one: then a pin that another
 * umount detached and did not take (no walk of its CPU to be had: left to
 * the sweep) went to this call (94-pins-umount-concurrent, now and then
 * under load). The second pass is branch-free: a branch per pin in the
 * first made 6.1's verifier give up on tp_exit_umount. Bit i: g->key[i].
 */
static __always_inline __u32 pins_claimed(const struct pins_gone *g, bool alone)
{
	int best = 0, nbest = 0, i;
	__u32 mask = 0;

	#pragma unroll
	for (i = 0; i < PINS_GONE_MAX; i++) {
		if (i >= g->n)
			break;
		if (g->score[i] > best) {
			best = g->score[i];
			nbest = 1;
			mask = 1u << i;
		} else if (best && g->score[i] == best) {
			nbest++;
		}
	}
	if (!alone)
		return nbest == 1 ? mask : 0;
	if (!best)
		return (1u << PINS_GONE_MAX) - 1;
	mask = 0;
	#pragma unroll
	for (i = 0; i < PINS_GONE_MAX; i++)
		mask |= (__u32)(g->score[i] == best) << i;
	/* only the pins the walk filled */
	return mask & ((1u << (g->n & (PINS_GONE_MAX * 2 - 1))) - 1);
}

/* Fill a mount/umount record's pin fields (ns, mount identity). */
static __always_inline void event_set_pin(struct nsaudit_event *e, const struct nsaudit_pin *pin)
{
	e->ns_type = pin->ns_type;
	e->ns_inum = pin->ns_inum;
	e->ns_id = pin->ns_id;
	e->flags |= NSAUDIT_F_HAS_NS | NSAUDIT_F_PIN_EXACT;
	e->mnt_ns_id = pin->mnt_ns_id;
	e->mnt_unique = pin->mnt_unique;
	e->mnt_id = pin->mnt_id;
}

#endif /* NSAUDIT_PINS_BPF_H */
