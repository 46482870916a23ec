// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * engine.c - every record through every enabled rule; a match becomes an
 * alert unless an exception of that rule matches, or the same rule fired
 * for the same actor process and target owner moments ago (nsenter opens
 * /proc/PID/ns/TYPE files and then enters them: one operation, one alert).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "rules_impl.h"

/* the same (rule, process, target owner) within this is one operation */
#define DEDUP_WINDOW_NS (10 * 1000000000LL)

struct rules *rules_new(void)
{
	struct rules *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->fx = facts_new();
	r->ps = persist_new();
	if (!r->fx || !r->ps) {
		rules_free(r);
		return NULL;
	}
	facts_trust_defaults(r->fx);
	builtin_rules_add(r);
	return r;
}

void rules_free(struct rules *r)
{
	if (!r)
		return;
	facts_free(r->fx);
	persist_free(r->ps);
	free(r);
}

void rules_set_names(struct rules *r, struct nsnames *names)
{
	facts_set_names(r->fx, names);
}

void rules_runtime_exes(const struct rules *r, void (*fn)(void *ctx, uint64_t ino, uint32_t dev),
			void *ctx)
{
	int i;

	for (i = 0; i < r->fx->ntrust; i++)
		fn(ctx, r->fx->trust[i].ino, r->fx->trust[i].dev);
}

void rules_lineage_lost(struct rules *r)
{
	r->fx->lineage_lost = true;
}

struct rule *rules_find(struct rules *r, const char *id)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].id, id))
			return &r->v[i];
	return NULL;
}

struct rule *rules_add(struct rules *r, const char *id)
{
	struct rule *ru;

	if (r->n >= RULES_MAX || strlen(id) >= RULE_ID_LEN)
		return NULL;
	ru = &r->v[r->n++];
	memset(ru, 0, sizeof(*ru));
	snprintf(ru->id, sizeof(ru->id), "%s", id);
	ru->enabled = true;
	ru->severity = RULE_SEV_WARNING;
	cond_init(&ru->cond);
	return ru;
}

bool rules_enabled(const struct rules *r, const char *id)
{
	const struct rule *ru = rules_find((struct rules *)r, id);

	return ru && ru->enabled;
}

int rules_severity(const struct rules *r, const char *id)
{
	const struct rule *ru = rules_find((struct rules *)r, id);

	return ru ? ru->severity : -1;
}

/* true when this (rule, actor, target) was alerted on just before */
static bool seen_before(struct rules *r, const struct rule *rule, const struct rule_facts *f)
{
	uint64_t k = fnv64_str(FNV64_OFFSET_BASIS, rule->id);
	struct dedup_ent *d;

	k = (k ^ f->e->pid) * FNV64_PRIME;
	if (f->target_host)
		k = fnv64_str(k, "host");
	else if (f->target_ctr)
		k = fnv64_str(k, f->target_ctr);
	else
		k = (k ^ ((uint64_t)f->e->ns_type << 32 | f->e->ns_inum)) * FNV64_PRIME;
	k |= 1;
	d = &r->dedup[k % DEDUP_SLOTS];
	if (d->key == k && f->now_ns - d->at_ns < DEDUP_WINDOW_NS)
		return true;
	d->key = k;
	d->at_ns = f->now_ns;
	return false;
}

static void fill_parties(const struct rule_facts *f, struct rule_alert *a)
{
	if (f->actor_ctr)
		snprintf(a->actor, sizeof(a->actor), "%s", f->actor_ctr);
	else if (f->actor_host)
		snprintf(a->actor, sizeof(a->actor), "host");
	else if (f->actor_pidns && !facts_host_ns(NULL, NSAUDIT_NS_PID, f->actor_pidns))
		snprintf(a->actor, sizeof(a->actor), "pid:[%u]", f->actor_pidns);
	else
		snprintf(a->actor, sizeof(a->actor), "mnt:[%u]", f->actor_mntns);
	snprintf(a->actor_name, sizeof(a->actor_name), "%s", f->actor_ctr_name ?: "");
	a->target[0] = '\0';	/* neither: "none", never what the last alert left */
	if (f->target_host)
		snprintf(a->target, sizeof(a->target), "host");
	else if (f->target_ctr)
		snprintf(a->target, sizeof(a->target), "%s", f->target_ctr);
	snprintf(a->target_name, sizeof(a->target_name), "%s", f->target_ctr_name ?: "");
	a->about_seq = f->seq;
	a->about_kseq = f->e->kseq;
	a->exe = f->x ? f->x->exe : NULL;
	a->holder[0] = '\0';
}

int rules_raise(struct rules *r, const struct rule *rule, const struct rule_facts *f,
		struct rule_alert *a, rules_emit_fn emit, void *ctx)
{
	int i;

	for (i = 0; i < rule->nexc; i++)
		if (cond_match(&rule->exc[i], f))
			return 0;
	if (seen_before(r, rule, f))
		return 0;
	snprintf(a->rule, sizeof(a->rule), "%s", rule->id);
	a->severity = rule->severity;
	fill_parties(f, a);
	return emit(ctx, a, f->e) < 0 ? -1 : 1;
}

int rules_eval(struct rules *r, const struct nsaudit_event *e, const struct event_extra *x,
	       uint64_t seq, rules_emit_fn emit, void *ctx)
{
	struct rule_facts f;
	struct rule_alert a;
	int i, n = 0, rc;

	if (x->alert || e->op == NSAUDIT_OP_LOST)
		return 0;
	facts_fill(r->fx, e, x, seq, &f);
	persist_note(r->ps, r->fx, &f);
	for (i = 0; i < r->n; i++) {
		const struct rule *ru = &r->v[i];

		if (!ru->enabled)
			continue;
		/* no memset: an alert is 1 KiB, a record ~1 us; what a match
		 * does not write, fill_parties() does */
		if (ru->match ? !ru->match(r, ru, &f, &a)
			      : (ru->builtin || !cond_match(&ru->cond, &f)))
			continue;
		if (!ru->match)
			snprintf(a.summary, sizeof(a.summary), "%s: pid %u (%.16s)", ru->summary,
				 e->pid, e->comm);
		rc = rules_raise(r, ru, &f, &a, emit, ctx);
		if (rc < 0)
			return -1;
		n += rc;
	}
	return n;
}

/* An exception of a time-driven alert: by its target container (no record) */
static bool tick_excepted(const struct rule *ru, const struct rule_alert *a)
{
	struct nsaudit_event e = { .ns_type = NSAUDIT_NS_UNKNOWN };
	struct event_extra x = { 0 };
	struct rule_facts f = { .e = &e, .x = &x, .actor_host = true };
	int i;

	f.target_host = !strcmp(a->target, "host");
	f.target_ctr = a->target[0] && !f.target_host ? a->target : NULL;
	f.target_ctr_name = a->target_name[0] ? a->target_name : NULL;
	for (i = 0; i < ru->nexc; i++)
		if (cond_match(&ru->exc[i], &f))
			return true;
	return false;
}

int rules_tick(struct rules *r, rules_emit_fn emit, void *ctx)
{
	struct rule_alert a;
	struct rule *ru;
	int n = 0;

	memset(&a, 0, sizeof(a));
	while (persist_next(r->ps, r->fx, 0, &a)) {
		ru = rules_find(r, a.rule);
		if (ru && ru->enabled && !tick_excepted(ru, &a)) {
			a.severity = ru->severity;
			if (emit(ctx, &a, NULL) < 0)
				return -1;
			n++;
		}
		memset(&a, 0, sizeof(a));
	}
	return n;
}
