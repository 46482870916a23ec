// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log_budget.c - per-actor budgets where records are written (see
 * log_budget.h for the rules). Cells are GCRA, as the kernel side's: one
 * "theoretical arrival time" per actor, a token there while it is at most
 * a burst ahead of now; an idle cell (tat <= now) is as good as none, so
 * a full table reuses idle cells first and, failing that, the least
 * indebted of the ones probed (a forgotten cell only ever gives an actor
 * its burst back).
 */
#include <stdlib.h>
#include <string.h>

#include "log_budget.h"

#define CELLS		16384	/* power of two */
#define CELL_PROBE	8
#define LOSSES		4096	/* power of two */
#define LOSS_PROBE	16
#define RARE_DEBT	32	/* tokens of its burst a rare thread group uses (and
				 * a quiet parent's children together) */
#define USER_NS_INIT	0xEFFFFFFDU	/* PROC_USER_INIT_INO */
#define NS_PER_S	1000000000ULL

enum cell_kind {
	CELL_TGID = 1, CELL_UID, CELL_USERNS, CELL_RESERVE, CELL_PARENT, CELL_CONTAINER,
	CELL_RESERVE_QUIET, CELL_YOUNG,
};

struct cell {
	uint64_t key;	/* kind << 56 | id (56 bits of it); 0: empty */
	uint64_t tat;
};

struct loss {
	struct actor_loss a;	/* a.k.reason unused; a.v.count > 0: in use */
};

struct rate {
	uint64_t interval;	/* ns per token */
	uint64_t burst;		/* ns of tokens banked */
};

struct log_budget {
	struct rate tgid, uid, parent;
	struct rate quiet;	/* the reserve's part for quiet parents (3/4) */
	struct rate shared;	/* ... and for any parent (1/4) */
	struct cell cell[CELLS];
	struct loss loss[LOSSES];
	uint64_t unnamed;	/* refused calls the loss table had no room for */
	uint64_t refused;
	uint64_t flushed_ns;
};

static struct rate rate_of(uint32_t per_s)
{
	struct rate r;

	r.interval = NS_PER_S / (per_s ? per_s : 1);
	r.burst = 2 * NS_PER_S;	/* two seconds' worth */
	return r;
}

struct log_budget *log_budget_new(const struct log_budget_rates *r)
{
	static const struct log_budget_rates def = {
		LOG_BUDGET_TGID, LOG_BUDGET_UID, LOG_BUDGET_RESERVE, LOG_BUDGET_PARENT };
	struct log_budget *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	if (!r)
		r = &def;
	b->tgid = rate_of(r->tgid);
	b->uid = rate_of(r->uid);
	b->quiet = rate_of(r->reserve - r->reserve / 4);
	b->shared = rate_of(r->reserve / 4);
	b->parent = rate_of(r->parent);
	return b;
}

void log_budget_free(struct log_budget *b)
{
	free(b);
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* How good a slot is to take over: empty, idle, then the least indebted. */
static uint64_t cell_rank(const struct cell *c, uint64_t now)
{
	if (!c->key)
		return 0;
	return c->tat <= now ? 1 : 2 + (c->tat - now);
}

/* The cell of key: found, or a fresh one (tat = now) in its place. */
static struct cell *cell_get(struct log_budget *b, enum cell_kind kind, uint64_t id,
			     uint64_t now)
{
	uint64_t key = (uint64_t)kind << 56 | (id & ((1ULL << 56) - 1));
	size_t h = mix(key), i;
	struct cell *c, *spare = NULL;

	for (i = 0; i < CELL_PROBE; i++) {
		c = &b->cell[(h + i) & (CELLS - 1)];
		if (c->key == key)
			return c;
		if (!spare || cell_rank(c, now) < cell_rank(spare, now))
			spare = c;
	}
	spare->key = key;
	spare->tat = now;
	return spare;
}

/* One token of c: whether there was one. */
static bool cell_take(struct cell *c, const struct rate *r, uint64_t now)
{
	uint64_t t = c->tat > now ? c->tat : now;

	if (t - now > r->burst)
		return false;
	c->tat = t + r->interval;
	return true;
}

/* Whether c has at most tokens of its burst in use. */
static bool cell_light(const struct cell *c, const struct rate *r, uint64_t now, uint64_t tokens)
{
	return c->tat <= now || c->tat - now <= tokens * r->interval;
}

static bool in_own_userns(const struct nsaudit_event *e)
{
	return e->actor_userns && e->actor_userns != USER_NS_INIT;
}

/*
 * The actor's container cell: the runtime's container (container, from
 * its cgroup at the call), else a user namespace of its own; NULL if
 * neither (a host process: its uid's cell is all).
 */
static struct cell *container_cell(struct log_budget *b, const struct nsaudit_event *e,
				   uint64_t container, uint64_t now)
{
	if (container)
		return cell_get(b, CELL_CONTAINER, container, now);
	if (in_own_userns(e))
		return cell_get(b, CELL_USERNS, e->actor_userns, now);
	return NULL;
}

static void count_refused(struct log_budget *b, const struct nsaudit_event *e)
{
	uint64_t n = e->repeat > 1 ? e->repeat : 1;
	size_t h = mix((uint64_t)e->pid << 32 | e->op), i;
	struct loss *l;

	b->refused += n;
	for (i = 0; i < LOSS_PROBE; i++) {
		l = &b->loss[(h + i) & (LOSSES - 1)];
		if (!l->a.v.count) {
			memset(l, 0, sizeof(*l));
			l->a.k.pid = e->pid;
			l->a.k.uid = e->uid;
			l->a.k.op = e->op;
			memcpy(l->a.v.comm, e->comm, sizeof(l->a.v.comm));
		} else if (l->a.k.pid != e->pid || l->a.k.op != e->op || l->a.k.uid != e->uid ||
			   memcmp(l->a.v.comm, e->comm, sizeof(l->a.v.comm))) {
			continue;
		}
		l->a.v.count += n;
		return;
	}
	b->unnamed += n;
}

/*
 * Whose child e's actor counts as: the kernel side's anchor (its parent,
 * or while that is young the nearest older ancestor's young trees, one
 * cell apart from its children: a tree of young middles is one), a uid's
 * young trees one; a record without one (0: older programs), its parent.
 */
static struct cell *parent_cell(struct log_budget *b, const struct nsaudit_event *e,
				uint64_t now)
{
	if (e->anchor == NSAUDIT_ANCHOR_YOUNG)
		return cell_get(b, CELL_YOUNG, e->uid, now);
	return cell_get(b, CELL_PARENT, e->anchor ? e->anchor : e->ppid, now);
}

/*
 * A quiet thread group's draw on its uid's reserve: its parent's children
 * together at most parent/s; the part of the reserve kept for quiet
 * parents (3/4), then the part any parent may use (1/4). A parent whose
 * children flood (more than RARE_DEBT of its tokens in use) has only the
 * shared part: however many such parents a uid runs at once, a quiet
 * parent's children keep the rest, less RARE_DEBT tokens per parent that
 * starts to flood (each is quiet until then). A tree that keeps making
 * new parents, each of few children, stays quiet: docs/flood.md.
 */
static bool reserve_take(struct log_budget *b, const struct nsaudit_event *e, uint64_t now)
{
	struct cell *p = parent_cell(b, e, now);
	bool quiet = cell_light(p, &b->parent, now, RARE_DEBT);

	if (!cell_take(p, &b->parent, now))
		return false;
	if (quiet && cell_take(cell_get(b, CELL_RESERVE_QUIET, e->uid, now), &b->quiet, now))
		return true;
	return cell_take(cell_get(b, CELL_RESERVE, e->uid, now), &b->shared, now);
}

bool log_budget_take(struct log_budget *b, const struct nsaudit_event *e, uint64_t container,
		     uint64_t now)
{
	struct cell *t = cell_get(b, CELL_TGID, e->pid, now), *c;
	bool light;

	if (!cell_take(t, &b->tgid, now))
		goto refused;
	light = cell_light(t, &b->tgid, now, RARE_DEBT);
	if (cell_take(cell_get(b, CELL_UID, e->uid, now), &b->uid, now) &&
	    (!(c = container_cell(b, e, container, now)) || cell_take(c, &b->uid, now)))
		return true;
	/* rare first: a quiet thread group of a flooding uid or container */
	if (light && reserve_take(b, e, now))
		return true;
refused:
	count_refused(b, e);
	return false;
}

size_t log_budget_flush(struct log_budget *b, uint64_t now, bool force,
			void (*fn)(void *ctx, const struct actor_loss *a, uint64_t n), void *ctx)
{
	size_t i, n = 0;

	if (!force && now - b->flushed_ns < NS_PER_S)
		return 0;
	b->flushed_ns = now;
	for (i = 0; i < LOSSES; i++) {
		if (!b->loss[i].a.v.count)
			continue;
		fn(ctx, &b->loss[i].a, b->loss[i].a.v.count);
		b->loss[i].a.v.count = 0;
		n++;
	}
	if (b->unnamed) {
		fn(ctx, NULL, b->unnamed);
		b->unnamed = 0;
		n++;
	}
	return n;
}

uint64_t log_budget_refused(const struct log_budget *b)
{
	return b->refused;
}
