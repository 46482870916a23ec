// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tracer_vanished.c - pins that left their mount namespace without an
 * umount call of theirs (the namespace died, a propagated umount): the
 * kernel side's sweep (bpf/nsaudit/pin_sweep.bpf.h) finds them, this makes
 * their umount records (origin inferred, the pin's maker, the cause), each
 * once: the delete from pin_mounts is the claim, as in an umount's exit.
 *
 * When: a pin whose namespace died at once. One gone from a namespace that
 * lived is a suspect first: an umount in flight there detaches its mount
 * before its exit looks (the kernel side leaves those out where it could
 * count the umount), so it is told once it is still in pin_mounts
 * PIN_SWEEP_NS after the sweep found it. A detached mount never comes back.
 *
 * How often: a pass every PIN_SWEEP_IDLE_NS walks the dead namespaces and
 * a few buckets of the living. After an umount succeeded anywhere (the
 * kernel side's pin_umounts moved; only an umount propagates one into
 * other namespaces), passes back to back until every living namespace had
 * a whole turn: a propagated umount of one pin among 10,000 held is told
 * within about a second, not after the ~80 turns of a round (issue 47).
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <bpf/bpf.h>

#include "array.h"
#include "clock.h"
#include "enrich/enrich.h"
#include "pin_sweep.h"
#include "tracer_impl.h"

/* A suspect is told once still unclaimed this long after it was found. */
#define PIN_SWEEP_NS 200000000LL
/* Between passes while no suspect waits and no umount happened. */
#define PIN_SWEEP_IDLE_NS 1000000000LL
/*
 * Passes back to back while each is full of pins of dead namespaces: the
 * death of a namespace holding 10,000 pins is told in about a second, the
 * reader away from its rings for a few ms a pass.
 */
#define PIN_SWEEP_BURST 8
/*
 * Passes at most for the whole turns after an umount: two rounds of every
 * bucket pin_mounts can fill (16,384 pins in buckets of 16, 8 buckets a
 * pass: 128 passes a round), and the dead namespaces' pins on the way.
 */
#define PIN_SWEEP_ROUND_PASSES 272

/* A sweep pass's output: SWEEP_MAX pins at most (pin_sweep.bpf.h). */
#define PASS_MAX 256
struct pass_list {
	struct nsaudit_pin_gone v[PASS_MAX];
	size_t n;
};

static void pass_add(void *ctx, const struct nsaudit_pin_gone *g)
{
	struct pass_list *l = ctx;

	if (l->n < PASS_MAX)
		l->v[l->n++] = *g;
}

/* The umount record of a pin just claimed, with its cause. */
static void tell_pin(struct tracer *t, const struct nsaudit_pin *pin, uint32_t ns_state)
{
	struct nsaudit_event e;
	char cause[160];
	bool ns_died;

	if (!enrich_pin_left(t->en, pin, ns_state, &e, &ns_died))
		return;
	if (ns_died)
		snprintf(cause, sizeof(cause), "its mount namespace mnt:[%u] died",
			 pin->mnt_ns_inum);
	else
		snprintf(cause, sizeof(cause),
			 "it left mount namespace mnt:[%u] without an umount call seen "
			 "(a lazy or propagated umount)", pin->mnt_ns_inum);
	emit_user_record(t, &e, cause, pin);
}

/* Whether this reader took the pin out of pin_mounts (no exit did). */
static bool claim_pin(struct tracer_bpf *b, uint64_t key)
{
	return b->pins_fd >= 0 && !bpf_map_delete_elem(b->pins_fd, &key);
}

static void suspect_add(struct tracer_ledger *lg, const struct nsaudit_pin_gone *g, int64_t now_ns)
{
	struct pin_suspect *s;
	size_t i;

	for (i = 0; i < lg->suspects.n; i++)
		if (lg->suspects.v[i].key == g->key)
			return;
	if (ARRAY_RESERVE(&lg->suspects.v, &lg->suspects.cap, i + 1))
		return;	/* no memory: the next pass finds it again */
	s = &lg->suspects.v[lg->suspects.n++];
	s->key = g->key;
	s->seen_ns = now_ns;
	s->ns_state = g->ns_died;
}

/*
 * One pass of the sweep: pins of dead namespaces told, the others made
 * suspects. Whether it was full of dead namespaces' pins (more may wait).
 */
static bool sweep_pass(struct tracer *t, int64_t now_ns, int *err)
{
	struct pass_list l;
	size_t i, died = 0;

	l.n = 0;
	*err = pin_sweep(t->bpf.sweep_link_fd, pass_add, &l);
	if (*err < 0)
		return false;
	/* a pin's mount record, made before it could leave, is then known */
	stream_drain(t);
	for (i = 0; i < l.n && !t->stream.cb_err; i++) {
		const struct nsaudit_pin_gone *g = &l.v[i];

		if (g->ns_died != NSAUDIT_PIN_NS_DIED) {
			suspect_add(&t->ledger, g, now_ns);
			continue;
		}
		died++;
		if (claim_pin(&t->bpf, g->key))
			tell_pin(t, &g->pin, g->ns_died);
	}
	return l.n >= PASS_MAX && died;
}

/* Suspects found before `before`: told if still unclaimed, else forgotten. */
static void suspects_settle(struct tracer *t, int64_t before)
{
	struct pin_suspect *v = t->ledger.suspects.v;
	struct nsaudit_pin pin;
	size_t i, kept = 0;

	for (i = 0; i < t->ledger.suspects.n; i++) {
		if (v[i].seen_ns > before || t->stream.cb_err) {
			v[kept++] = v[i];
			continue;
		}
		/* looked up before the claim: the delete may be the exit's */
		if (t->bpf.pins_fd < 0 || bpf_map_lookup_elem(t->bpf.pins_fd, &v[i].key, &pin))
			continue;	/* an umount's exit took it */
		if (claim_pin(&t->bpf, v[i].key))
			tell_pin(t, &pin, v[i].ns_state);
	}
	t->ledger.suspects.n = kept;
}

void ledger_report_vanished_pins(struct tracer *t, bool final)
{
	struct nsaudit_bpf__bss *c = tbpf_counters(&t->bpf);
	int64_t now_ns = clock_ns(CLOCK_MONOTONIC), wait;
	uint64_t umounts = c ? __atomic_load_n(&c->pin_umounts, __ATOMIC_RELAXED) : 0;
	uint32_t round0 = c ? __atomic_load_n(&c->pin_sweep_round, __ATOMIC_RELAXED) : 0;
	int pass, max, err;
	bool rounds, again;

	if (t->bpf.sweep_link_fd < 0)
		return;
	/* whole turns at most once a PIN_SWEEP_IDLE_NS: an umount flood
	 * costs the reader that, not a round a tick */
	rounds = final || (c && umounts != t->ledger.umounts_swept &&
			   now_ns - t->ledger.rounds_ns >= PIN_SWEEP_IDLE_NS);
	wait = t->ledger.suspects.n ? PIN_SWEEP_NS : PIN_SWEEP_IDLE_NS;
	if (!rounds && now_ns - t->ledger.sweep_ns < wait)
		return;
	if (rounds)
		t->ledger.rounds_ns = now_ns;
	max = rounds ? PIN_SWEEP_ROUND_PASSES : PIN_SWEEP_BURST;
	for (pass = 0, again = true; again && pass < max && !t->stream.cb_err; pass++) {
		again = sweep_pass(t, now_ns, &err);
		if (err < 0)
			return;
		/* every living namespace's whole turn began after the umount */
		if (rounds && c)
			again = again || (uint32_t)(__atomic_load_n(&c->pin_sweep_round,
								    __ATOMIC_RELAXED) - round0) < 2;
	}
	if (rounds && !again)
		t->ledger.umounts_swept = umounts;
	t->ledger.sweep_ns = now_ns;
	if (final) {
		/* an exit that detached a pin the sweep saw gone takes it now */
		nanosleep(&(struct timespec){ .tv_nsec = 50000000 }, NULL);
		stream_drain(t);
		suspects_settle(t, now_ns);
		return;
	}
	suspects_settle(t, now_ns - PIN_SWEEP_NS);
}
