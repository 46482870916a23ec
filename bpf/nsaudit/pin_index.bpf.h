/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pin_index.bpf.h - the kernel side's pins by mount namespace.
 *
 * Why (issue 47): with 10,000 pins held by one user in its own mount
 * namespace, every umount2 on the machine walked all of pin_mounts
 * (bpf_for_each_map_elem visits each of its buckets, full or not), and the
 * sweep's walk of all of them (~45 ms) was an RCU read section that each
 * umount's grace period (namespace_unlock) waited for: root's umount2 went
 * from ~100 us to 6-43 ms. With the index an umount looks only at the pins
 * of its own namespace, and the sweep walks only namespaces that died, plus
 * a few buckets of each living one a pass (a pin a propagated umount took).
 *
 * Layout: pin_ns, keyed by the namespace's never reused mntns_key(), says
 * how many buckets the namespace has; pin_buckets {key, idx} hold
 * PIN_SLOTS pin keys each (0: a free slot). Slots are taken and given back
 * with compare-and-exchange: mount exits, umount exits and the sweep run at
 * once on any CPU. A slot whose pin left pin_mounts (user space forgot it
 * after reporting it) is stale, and the next walk that finds it gives it
 * back. Pin keys are never reused (mnt_id_unique, or a serial number), so a
 * stale slot never names another pin. A namespace's entries go once it
 * died and its last pin was forgotten.
 *
 * Should either map be full, pin_index_full says so and every walk is of
 * all of pin_mounts, as before the index: slower, never wrong.
 *
 * Included by pins.bpf.h, which defines pin_walk_visit().
 */
#ifndef NSAUDIT_PIN_INDEX_BPF_H
#define NSAUDIT_PIN_INDEX_BPF_H

#include "pins.h"

#define PIN_SLOTS	16
#define PIN_BUCKETS_MAX 1024	/* 16,384 pins in one namespace, as pin_mounts */

struct pin_bucket_key {
	__u64 mns_key;	/* mntns_key() of the namespace */
	__u64 idx;	/* 0 .. pin_ns.nbuckets - 1 */
};

struct pin_bucket {
	__u64 key[PIN_SLOTS];	/* pin_mounts keys; 0: free */
};

/* A mount namespace that holds (or held) pins. */
struct pin_ns {
	__u64 mns;		/* its address, and ... */
	__u64 root;		/* ... its root mount's, with that mount's */
	__u64 root_unique;	/* mnt_id_unique (6.8+, else 0) and */
	__u64 nbuckets;		/* buckets made (may run ahead of those there;
				 * 64 bits: a fetch-add's result, cpu v1) */
	__s32 root_id;		/* mnt_id: alive while the root is in it */
	__u32 hint;		/* a bucket that may have a free slot */
	__u32 cursor;		/* sweep: next bucket checked while it lives */
	__u32 epoch;		/* sweep: the round its buckets were all checked in */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct pin_ns);
} pin_ns SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);	/* 4096 namespaces, or 1024 buckets of one */
	__type(key, struct pin_bucket_key);
	__type(value, struct pin_bucket);
} pin_buckets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);	/* 1: a pin could not be indexed */
} pin_index_full SEC(".maps");

/* Pins the kernel side saw made (by a never reused id: pins.bpf.h). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);	/* issue 47: 10,000 held pins fit */
	__type(key, __u64);
	__type(value, struct nsaudit_pin);
} pin_mounts SEC(".maps");

static const struct pin_bucket pin_bucket_zero = {};

static __always_inline void pin_index_overflow(void)
{
	__u32 zero = 0, *full = bpf_map_lookup_elem(&pin_index_full, &zero);

	if (full)
		*full = 1;
}

/* Whether the index cannot be trusted to hold every pin (then: walk all). */
static __always_inline bool pin_index_unusable(void)
{
	__u32 zero = 0, *full = bpf_map_lookup_elem(&pin_index_full, &zero);

	return !full || *full;
}

/* A slot's place: bucket idx * PIN_SLOTS + slot; PIN_LOC_NONE if unknown. */
#define PIN_LOC_NONE 0xffffffffu

/* Give a slot back, if it still holds key. */
static __always_inline void pin_slot_free(__u64 mns_key, __u32 loc, __u64 key)
{
	struct pin_bucket_key bk = { .mns_key = mns_key, .idx = loc / PIN_SLOTS };
	struct pin_bucket *b;
	struct pin_ns *h;

	if (loc == PIN_LOC_NONE)
		return;
	b = bpf_map_lookup_elem(&pin_buckets, &bk);
	if (!b)
		return;
	__sync_val_compare_and_swap(&b->key[loc & (PIN_SLOTS - 1)], key, 0);
	h = bpf_map_lookup_elem(&pin_ns, &mns_key);
	if (h && h->hint > bk.idx)
		h->hint = bk.idx;	/* a hint: a lost race costs a bucket */
}

struct pin_add {
	__u64 mns_key;
	__u64 key;
	__u32 start;
	__u32 n;
	bool done;
};

/* bpf_loop step: a free slot in bucket (start + i) % n. */
static long pin_add_step(__u64 i, struct pin_add *a)
{
	struct pin_bucket_key bk = { .mns_key = a->mns_key };
	struct pin_bucket *b;
	int s;

	if (!a->n)
		return 1;
	bk.idx = (a->start + i) % a->n;
	b = bpf_map_lookup_elem(&pin_buckets, &bk);
	if (!b)
		return 0;	/* being made by another add */
#pragma unroll
	for (s = 0; s < PIN_SLOTS; s++) {
		if (!b->key[s] && !__sync_val_compare_and_swap(&b->key[s], 0, a->key)) {
			a->done = true;
			a->start = bk.idx;
			return 1;
		}
	}
	return 0;
}

/*
 * Index pin key of the namespace mns_key (init: its pin_ns, should it be
 * new). False, and the index marked unusable, if it could not be.
 */
static __always_inline bool pin_index_add(__u64 mns_key, const struct pin_ns *init, __u64 key)
{
	struct pin_add a = { .mns_key = mns_key, .key = key };
	struct pin_bucket_key bk = { .mns_key = mns_key };
	struct pin_bucket *b;
	struct pin_ns *h;

	h = bpf_map_lookup_elem(&pin_ns, &mns_key);
	if (!h) {
		bpf_map_update_elem(&pin_ns, &mns_key, init, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&pin_ns, &mns_key);
		if (!h)
			goto full;
	}
	a.n = h->nbuckets < PIN_BUCKETS_MAX ? h->nbuckets : PIN_BUCKETS_MAX;
	a.start = a.n ? h->hint % a.n : 0;
	bpf_loop(PIN_BUCKETS_MAX, pin_add_step, &a, 0);
	if (a.done) {
		h->hint = a.start;
		return true;
	}
	/* every bucket full: a new one, first slot ours */
	bk.idx = __sync_fetch_and_add(&h->nbuckets, 1);
	if (bk.idx >= PIN_BUCKETS_MAX)
		goto full;
	if (bpf_map_update_elem(&pin_buckets, &bk, &pin_bucket_zero, BPF_NOEXIST))
		goto full;
	b = bpf_map_lookup_elem(&pin_buckets, &bk);
	if (!b || __sync_val_compare_and_swap(&b->key[0], 0, key))
		goto full;
	h->hint = bk.idx;
	return true;
full:
	pin_index_overflow();
	return false;
}

#define PINS_GONE_MAX 8

/* What an umount's walk found: pins of its namespace. */
struct pins_gone {
	__u64 mnt_ns_key;	/* the umount's namespace (mntns_key) */
	__u32 n;
	__u32 slot;		/* its path: umount_path_buf[slot] */
	__u64 key[PINS_GONE_MAX];
	__s32 score[PINS_GONE_MAX];	/* umount exit: umount_target_score() */
	__u32 loc[PINS_GONE_MAX];	/* their slots, PIN_LOC_NONE if unknown */
};

/*
 * A walk over buckets [from, to) of one namespace. Each pin still in
 * pin_mounts goes to pin_walk_visit() (pin_sweep.bpf.h: what the walk is
 * for, by mode); a stale slot is given back. stop: the visitor has enough.
 * In a map, not on the stack: there its fields, known to the verifier,
 * made it walk every turn of the nested loops apart (over a million
 * instructions). An umount exit claims one of PIN_WALKS per-CPU walks
 * (busy): a syscall tracepoint's program can be preempted (6.14+), and
 * another umount's exit on that CPU must not overwrite the pins this one
 * found. The sweep's is its own (one sweep at a time).
 */
struct pin_walk {
	__u64 mns_key;
	__u32 from;
	__u32 to;
	__u32 mode;
	__u32 live;	/* a slot whose pin is still in pin_mounts: a flag, not a
			 * count (a count the verifier tracks per iteration) */
	__u32 bucket;
	__u32 stop;	/* not bool: a callback returns 0 or 1, not a byte */
	__u32 dead;	/* the namespace died (sweep) */
	__u32 slot;	/* which of this CPU's: its umount_path_buf too */
	__u64 busy;	/* claimed (64 bits: compare-and-exchange, cpu v1) */
	struct pins_gone g;	/* umount exits */
};

#define PIN_WALKS 4

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PIN_WALKS);
	__type(key, __u32);
	__type(value, struct pin_walk);
} pin_walk_buf SEC(".maps");

/* A walk of this CPU's no other program holds, or NULL (four preempted
 * umount exits on one CPU). Give it back with pin_walk_release(). */
static __always_inline struct pin_walk *pin_walk_claim(void)
{
	struct pin_walk *w;
	__u32 i;

#pragma clang loop unroll(disable)
	for (i = 0; i < PIN_WALKS; i++) {
		w = bpf_map_lookup_elem(&pin_walk_buf, &i);
		if (w && !__sync_val_compare_and_swap(&w->busy, 0, 1)) {
			w->slot = i;
			return w;
		}
	}
	return NULL;
}

static __always_inline void pin_walk_release(struct pin_walk *w)
{
	if (w) {
		barrier();	/* after every use of it */
		w->busy = 0;
	}
}

/* The loops' context: bpf_loop takes one on the stack only. */
struct pin_walk_ref {
	struct pin_walk *w;
};

static long pin_walk_visit(struct pin_walk *w, __u32 loc, __u64 key, struct nsaudit_pin *pin);

static long pin_walk_slot(__u64 s, struct pin_walk_ref *r)
{
	struct pin_walk *w = r->w;
	struct pin_bucket_key bk;
	struct nsaudit_pin *pin;
	struct pin_bucket *b;
	__u32 loc;
	__u64 key;

	if (!w)
		return 1;
	bk.mns_key = w->mns_key;
	bk.idx = w->bucket;
	b = bpf_map_lookup_elem(&pin_buckets, &bk);
	if (!b)
		return 1;
	key = b->key[s & (PIN_SLOTS - 1)];
	loc = w->bucket * PIN_SLOTS + (s & (PIN_SLOTS - 1));
	if (!key)
		return 0;
	pin = bpf_map_lookup_elem(&pin_mounts, &key);
	if (!pin) {
		pin_slot_free(w->mns_key, loc, key);
		return 0;
	}
	w->live = 1;
	if (pin_walk_visit(w, loc, key, pin))
		w->stop = 1;
	return w->stop != 0;
}

static long pin_walk_bucket(__u64 i, struct pin_walk_ref *r)
{
	struct pin_walk *w = r->w;
	struct pin_bucket_key bk;
	struct pin_bucket *b;
	__u64 any = 0;
	int s;

	if (!w)
		return 1;
	bk.mns_key = w->mns_key;
	bk.idx = w->from + i;
	if (w->stop || bk.idx >= w->to)
		return 1;
	b = bpf_map_lookup_elem(&pin_buckets, &bk);
	if (!b)
		return 0;
#pragma unroll
	for (s = 0; s < PIN_SLOTS; s++)
		any |= b->key[s];
	if (!any)
		return 0;
	w->bucket = bk.idx;
	bpf_loop(PIN_SLOTS, pin_walk_slot, r, 0);
	return w->stop != 0;
}

static __always_inline void pin_index_walk(struct pin_walk *w)
{
	struct pin_walk_ref r = { .w = w };

	if (w->to > PIN_BUCKETS_MAX)
		w->to = PIN_BUCKETS_MAX;
	if (w->from < w->to)
		bpf_loop(w->to - w->from, pin_walk_bucket, &r, 0);
}

/* After a dead namespace's last pin was forgotten: its entries go. */
static long pin_index_drop_bucket(__u64 i, __u64 *mns_key)
{
	struct pin_bucket_key bk = { .mns_key = *mns_key, .idx = i };

	bpf_map_delete_elem(&pin_buckets, &bk);
	return 0;
}

static __always_inline void pin_index_drop(__u64 mns_key)
{
	struct pin_ns *h = bpf_map_lookup_elem(&pin_ns, &mns_key);
	__u32 n;

	if (!h)
		return;
	n = h->nbuckets;
	if (n > PIN_BUCKETS_MAX)
		n = PIN_BUCKETS_MAX;
	bpf_loop(n, pin_index_drop_bucket, &mns_key, 0);
	bpf_map_delete_elem(&pin_ns, &mns_key);
}

#endif /* NSAUDIT_PIN_INDEX_BPF_H */
