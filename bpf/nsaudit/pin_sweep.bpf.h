/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pin_sweep.bpf.h - the sweep: pins that left their mount namespace
 * without an umount call the tracer saw; and what each walk of the pin
 * index (pin_index.bpf.h) does with a pin, pin_walk_visit().
 *
 * A pass walks the pins of the namespaces that died (all their pins went
 * with them: said so, user space reports them at once) and, in turns,
 * SWEEP_LIVE_BUCKETS buckets of the living ones (a pin a propagated umount
 * took, which no umount exit of its namespace saw: user space reports it
 * once it is still in pin_mounts a while after). Why not all pins every
 * pass: the pass is an RCU read section, which every umount2 on the
 * machine waits for (namespace_unlock's grace period); with 10,000 pins
 * held, walking them all made root's umount2 cost 6-43 ms (issue 47).
 * Instead, after an umount succeeded anywhere (pin_umounts: only an umount
 * propagates one), user space runs passes back to back until every living
 * namespace had a whole turn (pin_sweep_round moved on by two), each pass
 * a short read section.
 *
 * Included by pins_mount.bpf.c, after pins.bpf.h.
 */
#ifndef NSAUDIT_PIN_SWEEP_BPF_H
#define NSAUDIT_PIN_SWEEP_BPF_H

#include "pins.bpf.h"

/*
 * The sweep's list of pins found gone: up to SWEEP_MAX a pass, in a per-CPU
 * scratch value (the stack holds 512 bytes). Why that many: the death of a
 * mount namespace holding thousands of pins must be reported within
 * seconds (issue 47: at 8 a pass, 9000 pins took ten minutes); a pass's
 * output must fit the iterator's seq buffer (8 pages: 315 of 104 bytes).
 */
#define SWEEP_MAX 256
#define SWEEP_LIVE_BUCKETS 8	/* 128 pins of living namespaces a pass */
#define SWEEP_DROP_MAX 16	/* dead namespaces forgotten a pass */

struct sweep_list {
	__u32 n;
	__u32 ndrop;
	__u32 live_left;	/* buckets of living namespaces still to check */
	__u32 pending;		/* living namespaces not checked this round */
	__u32 round;		/* the round this pass belongs to */
	__u32 pad;
	__u64 key[SWEEP_MAX];
	__u8 died[SWEEP_MAX];	/* NSAUDIT_PIN_NS_*: whether its namespace died */
	__u64 drop[SWEEP_DROP_MAX];
	struct pin_walk walk;	/* the namespace being walked */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sweep_list);
} sweep_scratch SEC(".maps");

/*
 * The last round of turns over living namespaces every one of them had
 * (passes may run on any CPU); user space reads it (a whole round after an
 * umount: this moved on by two).
 */
__u32 pin_sweep_round = 0;

/*
 * A pin that is no longer attached, into the list, but not one an umount
 * in flight in its namespace detached (its exit records it, with the
 * actor). 1: the list is full.
 */
static __always_inline long pin_left_one(__u64 key, const struct nsaudit_pin *pin, __u8 died)
{
	__u32 zero = 0, i;
	struct sweep_list *l = bpf_map_lookup_elem(&sweep_scratch, &zero);

	if (!l)
		return 1;
	if (pin_attached(pin) || umount_inflight_in(pin->mnt_ns_key))
		return 0;
	i = l->n;
	if (i >= SWEEP_MAX)
		return 1;	/* the rest: the next sweep */
	l->key[i] = key;
	l->died[i] = died;
	l->n = i + 1;
	return 0;
}

static long pin_walk_visit(struct pin_walk *w, __u32 loc, __u64 key, struct nsaudit_pin *pin)
{
	if (w->mode == PIN_WALK_GONE)
		return pin_gone_one(&w->g, loc, key, pin);
	if (w->mode == PIN_WALK_NAMED)
		return pin_named_one(&w->g, loc, key, pin);
	return pin_left_one(key, pin, w->dead ? NSAUDIT_PIN_NS_DIED : NSAUDIT_PIN_NS_LIVED);
}

/*
 * bpf_for_each_map_elem callback: every pin, should the index be unusable
 * (no namespace's root to look at: whether it died, user space tells).
 */
static long pin_left_cb(void *map, __u64 *key, struct nsaudit_pin *pin, void *ctx)
{
	return pin_left_one(*key, pin, NSAUDIT_PIN_NS_UNKNOWN);
}

/*
 * bpf_for_each_map_elem callback over pin_ns: a namespace that died, all
 * its pins; a living one, its next buckets while the pass has some to
 * spare and it had no turn this round.
 */
static long sweep_ns_cb(void *map, __u64 *mns_key, struct pin_ns *h, void *ctx)
{
	__u32 zero = 0, n = h->nbuckets, i;
	struct sweep_list *l = bpf_map_lookup_elem(&sweep_scratch, &zero);
	struct pin_walk *w;

	if (!l)
		return 1;
	w = &l->walk;
	if (n > PIN_BUCKETS_MAX)
		n = PIN_BUCKETS_MAX;
	w->mns_key = *mns_key;
	w->mode = PIN_WALK_SWEEP;
	w->stop = 0;
	w->live = 0;
	w->dead = !pin_ns_alive(*mns_key, h);
	if (w->dead) {
		w->from = 0;
		w->to = n;
		pin_index_walk(w);
		i = l->ndrop;
		/* nothing of it left in pin_mounts: it goes */
		if (!w->stop && !w->live && i < SWEEP_DROP_MAX) {
			l->drop[i] = *mns_key;
			l->ndrop = i + 1;
		}
		return w->stop != 0;
	}
	if (h->epoch == l->round)
		return 0;
	if (!l->live_left) {
		l->pending++;
		return 0;
	}
	w->from = h->cursor < n ? h->cursor : 0;
	w->to = w->from + l->live_left;
	if (w->to > n)
		w->to = n;
	l->live_left -= w->to - w->from;
	pin_index_walk(w);
	if (w->stop) {
		l->pending++;
		return 1;	/* the list is full: from the same bucket next pass */
	}
	h->cursor = w->to < n ? w->to : 0;
	if (h->cursor)
		l->pending++;
	else
		h->epoch = l->round;
	return 0;
}

/* The walks of one pass; l->key[0 .. n) the pins found gone. */
static __always_inline void sweep_walk(struct sweep_list *l)
{
	__u32 i;

	l->n = 0;
	l->ndrop = 0;
	if (pin_index_unusable()) {
		bpf_for_each_map_elem(&pin_mounts, pin_left_cb, NULL, 0);
		/* every pin was looked at: a whole round */
		if (l->n < SWEEP_MAX)
			__sync_fetch_and_add(&pin_sweep_round, 1);
		return;
	}
	l->live_left = SWEEP_LIVE_BUCKETS;
	l->pending = 0;
	l->round = pin_sweep_round + 1;	/* 0 is a new namespace's */
	bpf_for_each_map_elem(&pin_ns, sweep_ns_cb, NULL, 0);
	/* every living namespace had its turn: the next round */
	if (!l->pending && l->n < SWEEP_MAX)
		pin_sweep_round = l->round;
	#pragma clang loop unroll(disable)
	for (i = 0; i < SWEEP_DROP_MAX; i++) {
		if (i >= l->ndrop)
			break;
		pin_index_drop(l->drop[i]);
	}
}

/* What sweep_emit() needs of the pass (bpf_loop's context). */
struct sweep_emit_ctx {
	struct seq_file *seq;
	struct sweep_list *l;
	__u32 n;
};

/*
 * One pin of the list, written to the iterator if it is still there. A
 * bpf_loop() step: the verifier checks it once, where the loop it was
 * walked SWEEP_MAX times (55,000 of sweep_pins' 66,000 instructions
 * processed, ~20 % of a start's verification).
 */
static long sweep_emit(__u32 i, void *ctx)
{
	struct sweep_emit_ctx *c = ctx;
	struct nsaudit_pin_gone out = {};
	struct nsaudit_pin *pin;
	__u64 k = i, key;	/* 64 bits: the bound is tested on the index used */

	if (k >= SWEEP_MAX || k >= c->n)
		return 1;
	key = c->l->key[k];
	pin = bpf_map_lookup_elem(&pin_mounts, &key);
	/*
	 * Asked again after the look-up: an umount that entered since
	 * the callback looked has counted itself before it detached,
	 * and one whose exit took the pin out is no longer found.
	 */
	if (!pin || umount_inflight_in(pin->mnt_ns_key))
		return 0;
	out.key = key;
	out.ns_died = c->l->died[k];
	out.pin = *pin;
	bpf_seq_write(c->seq, &out, sizeof(out));
	return 0;
}

/*
 * The sweep: pins whose mount is no longer attached where it was are
 * written to the iterator (user space makes the umount record with its
 * cause and deletes the key). Run by user space on its timer. An iter/task
 * program (iter/bpf_map_elem is refused here) that works once, at the
 * reader's own thread group leader, which every pass visits exactly once.
 */
SEC("iter/task")
int sweep_pins(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct sweep_emit_ctx c;
	struct sweep_list *l;
	__u32 zero = 0;

	if (!task || task->pid != bpf_get_current_pid_tgid() >> 32 || task->pid != task->tgid)
		return 0;
	/* loaded before the walk: a pointer loaded off a trusted one costs
	 * 6.18's verifier a scan of the kernel's BTF by name at each visit,
	 * and the walk's paths come out of it apart */
	c.seq = ctx->meta->seq;
	l = bpf_map_lookup_elem(&sweep_scratch, &zero);
	if (!l)
		return 0;
	sweep_walk(l);
	c.l = l;
	c.n = l->n;
	bpf_loop(SWEEP_MAX, sweep_emit, &c, 0);
	return 0;
}

#endif /* NSAUDIT_PIN_SWEEP_BPF_H */
