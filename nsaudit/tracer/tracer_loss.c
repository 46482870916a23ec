// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tracer_loss.c - nothing is lost silently: what the kernel side could not
 * deliver (per reason, from its counters), what a sink dropped, and pins
 * whose mount namespace died become records of their own (op lost, or
 * umount with a cause) in the command's own stream. A recorder restarted
 * on pinned programs resumes the lost count where the log left it
 * (tracer_resume_lost), so no call is counted twice.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "actor_lost.h"
#include "clock.h"
#include "enrich/enrich.h"
#include "enrich/nsnames.h"
#include "log_budget.h"
#include "nstype.h"
#include "output/record_fmt.h"
#include "prog_misses.h"
#include "tracer_impl.h"

/* One lost record: an actor's (a) or an anonymous remainder (a NULL). */
static void emit_lost(struct tracer *t, const struct actor_loss *a, unsigned int r, uint64_t n)
{
	struct nsaudit_event e;
	struct event_extra x = { 0 };

	actor_lost_record(&e, a, r, n, boot_ns());
	t->ledger.reason_seen[r] += n;
	t->ledger.lost_seen += n;
	e.arg = t->ledger.lost_seen;
	t->stream.stats.lost += n;
	x.realtime_ns = enrich_realtime(t->en, e.ts_boot_ns);
	stream_hand_on(&t->stream, &e, &x);
}

/* The kernel's totals at this pass, for the anonymous part of the next. */
static void keep_lost_totals(struct tracer_ledger *lg, const struct nsaudit_bpf__bss *bss)
{
	memcpy(lg->reason_prev, bss->lost_reason, sizeof(lg->reason_prev));
	lg->events_prev = bss->lost_events;
	lg->reason_prev_valid = true;
}

/*
 * The kernel counts the calls it could not deliver per actor (pid, uid,
 * comm, op) and reason, and in total per reason: one record per actor's
 * count, so that a reader tells a flooder's losses from root's, and one
 * per reason for what no actor entry explains (the map was full). A pass
 * takes the entries counted before the previous pass (actor_lost_pass),
 * so the totals read at the previous pass are what they add up to; the
 * rest of those totals is the anonymous part. lost_total (arg) is the
 * running total over all reasons (what a restarted recorder resumes from).
 */
void ledger_report_lost(struct tracer *t)
{
	struct nsaudit_bpf__bss bss;
	uint64_t avail, d;
	uint32_t zero = 0;
	size_t i, n;
	unsigned int r;

	/* through the map, not the skeleton's mmap: pinned reuse has no skeleton */
	if (t->stream.cb_err || bpf_map_lookup_elem(t->bpf.bss_fd, &zero, &bss))
		return;
	if (bss.lost_events <= t->ledger.lost_seen)
		return;
	n = t->ledger.losses ? actor_lost_pass(t->bpf.actor_lost_fd, t->bpf.lost_epoch_fd,
					       t->ledger.losses, ACTOR_LOST_MAX)
			     : 0;
	for (i = 0; i < n && !t->stream.cb_err; i++)
		if (t->ledger.losses[i].k.reason < NSAUDIT_LOST_MAX)
			emit_lost(t, &t->ledger.losses[i], t->ledger.losses[i].k.reason,
				  t->ledger.losses[i].v.count);
	/* without the per-actor map (older pins), the totals say it all */
	if (t->bpf.actor_lost_fd < 0 || t->bpf.lost_epoch_fd < 0)
		keep_lost_totals(&t->ledger, &bss);
	/*
	 * The anonymous part, per reason, but never more in all than the
	 * total says is unreported: after a restart the per-reason split of
	 * what the predecessor reported is an estimate (tracer_resume_lost),
	 * the total is exact, and a call is never reported twice.
	 */
	avail = t->ledger.events_prev > t->ledger.lost_seen
		    ? t->ledger.events_prev - t->ledger.lost_seen
		    : 0;
	for (r = 0;
	     r < NSAUDIT_LOST_MAX && !t->stream.cb_err && t->ledger.reason_prev_valid && avail;
	     r++) {
		if (t->ledger.reason_prev[r] <= t->ledger.reason_seen[r])
			continue;
		d = t->ledger.reason_prev[r] - t->ledger.reason_seen[r];
		d = d < avail ? d : avail;
		emit_lost(t, NULL, r, d);
		avail -= d;
	}
	keep_lost_totals(&t->ledger, &bss);
}

/* Stopping: passes until everything counted so far has been taken. */
void ledger_report_lost_final(struct tracer *t)
{
	int i;

	for (i = 0; i < 3; i++) {
		ledger_report_lost(t);
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	}
}

/* One record user space makes (not the kernel side), with what made it. */
void emit_user_record(struct tracer *t, struct nsaudit_event *e, const char *cause,
		      const struct nsaudit_pin *maker)
{
	struct event_extra x = { 0 };
	char comm[sizeof(maker->maker_comm) + 1];

	if (t->stream.cb_err)
		return;
	x.realtime_ns = enrich_realtime(t->en, e->ts_boot_ns);
	x.cause = cause;
	if (maker)	/* a vanished pin: what its record could not say */
		x.unresolved = enrich_unresolved(t->en, e, NULL, NULL);
	if (maker && maker->maker_comm[0]) {
		memcpy(comm, maker->maker_comm, sizeof(maker->maker_comm));
		comm[sizeof(maker->maker_comm)] = '\0';
		x.maker_comm = comm;
		x.maker_pid = maker->maker_pid;
		x.maker_uid = maker->maker_uid;
	}
	if (e->op != NSAUDIT_OP_LOST) {
		nsnames_for_event(t->names, e, NULL, &x.ns_name, &x.old_name);
		stream_record_container(t, e, &x);
	}
	if (stream_wanted(t, e, &x))
		stream_hand_on(&t->stream, e, &x);
}

static void recursion_lost(void *ctx, const char *name, uint64_t more)
{
	struct tracer *t = ctx;
	struct nsaudit_event e;
	char cause[96];

	actor_lost_record(&e, NULL, NSAUDIT_LOST_RECURSION, more, boot_ns());
	t->stream.stats.lost += more;
	snprintf(cause, sizeof(cause), "program %s skipped by the kernel (recursion_misses)",
		 name);
	emit_user_record(t, &e, cause, NULL);
}

/* Calls no program saw: the kernel skipped it (recursion), say so. */
void ledger_report_recursion(struct tracer *t)
{
	if (!t->stream.cb_err)
		prog_misses_poll(&t->ledger.misses, recursion_lost, t);
}

/* Pins whose mount namespace died went with it: unpins, made by user space. */
void ledger_report_dead_pins(struct tracer *t)
{
	struct nsaudit_event e;
	char cause[96];
	uint32_t mntns;

	enrich_check_mntns(t->en);
	while (!t->stream.cb_err && enrich_dead_pin(t->en, &e, &mntns)) {
		snprintf(cause, sizeof(cause), "its mount namespace mnt:[%u] died", mntns);
		emit_user_record(t, &e, cause, NULL);
	}
}

void tracer_add_loss_source(struct tracer *t, uint64_t (*fn)(void *ctx, char *what, size_t len),
			    void *ctx)
{
	if (t->ledger.nloss < LOSS_SOURCES_MAX) {
		t->ledger.loss[t->ledger.nloss].fn = fn;
		t->ledger.loss[t->ledger.nloss].ctx = ctx;
		t->ledger.loss[t->ledger.nloss++].seen = 0;
	}
}

/* What later stages in user space (sinks) dropped: lost records with why. */
void ledger_report_user_losses(struct tracer *t)
{
	struct nsaudit_event e;
	char what[256], cause[320];
	uint64_t n;
	int i;

	for (i = 0; i < t->ledger.nloss && !t->stream.cb_err; i++) {
		n = t->ledger.loss[i].fn(t->ledger.loss[i].ctx, what, sizeof(what));
		if (n <= t->ledger.loss[i].seen)
			continue;
		actor_lost_record(&e, NULL, NSAUDIT_LOST_SINK, n - t->ledger.loss[i].seen,
				  boot_ns());
		e.arg = n;
		t->ledger.loss[i].seen = n;
		snprintf(cause, sizeof(cause), "%s", what);
		emit_user_record(t, &e, cause, NULL);
	}
}

/* One actor's refused calls into the kernel's actor_lost map, current epoch. */
static void budget_lost(void *ctx, const struct actor_loss *a, uint64_t n)
{
	struct tracer *t = ctx;
	struct nsaudit_bpf__bss *c = tbpf_counters(&t->bpf);
	struct nsaudit_actor_lost_key k;
	struct nsaudit_actor_lost_val v;
	uint32_t zero = 0, epoch = 0;

	if (!c) {
		struct nsaudit_event e;

		actor_lost_record(&e, a, NSAUDIT_LOST_LOG_BUDGET, n, boot_ns());
		t->stream.stats.lost += n;
		emit_user_record(t, &e, "over the log budget (not counted by the kernel side)",
				 NULL);
		return;
	}
	/* BPF never uses this reason: no entry of it races a program */
	if (a && t->bpf.actor_lost_fd >= 0 && t->bpf.lost_epoch_fd >= 0 &&
	    !bpf_map_lookup_elem(t->bpf.lost_epoch_fd, &zero, &epoch)) {
		k = a->k;
		k.reason = NSAUDIT_LOST_LOG_BUDGET;
		k.epoch = epoch & 1;
		k.pad = 0;
		if (bpf_map_lookup_elem(t->bpf.actor_lost_fd, &k, &v)) {
			memset(&v, 0, sizeof(v));
			memcpy(v.comm, a->v.comm, sizeof(v.comm));
		}
		v.count += n;
		bpf_map_update_elem(t->bpf.actor_lost_fd, &k, &v, BPF_ANY);
	}
	__atomic_fetch_add(&c->lost_reason[NSAUDIT_LOST_LOG_BUDGET], n, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&c->lost_events, n, __ATOMIC_SEQ_CST);
}

/*
 * After a batch was written, before its ring space goes back: the calls
 * the log budget refused in it join the kernel's own loss counts (pinned:
 * a recorder killed now leaves them to its successor, as it leaves the
 * records it had not written), which ledger_report_lost() turns into lost
 * records naming each actor.
 */
void ledger_report_budget_losses(struct tracer *t)
{
	if (t->stream.budget)
		log_budget_flush(t->stream.budget, 0, true, budget_lost, t);
}

/*
 * The log says lost_total calls were reported as lost so far: that total
 * is exact, and ledger_report_lost() never reports more than the kernel's total
 * beyond it. Per reason, the kernel's counters are taken as seen, less the
 * part not yet reported (lost while no recorder ran): the per-actor map's
 * entries (reported with their actor by the next passes) and the rest
 * (anonymous; its split across reasons is an estimate, the ring first).
 * The map is read before the counters: the kernel counts a call in the
 * map first, so every call read there is in the counters read after.
 */
void ledger_resume_lost(struct tracer *t, uint64_t lost_total)
{
	struct nsaudit_bpf__bss bss;
	uint64_t gap, take, rest, pending[NSAUDIT_LOST_MAX], sum = 0;
	uint32_t zero = 0;
	unsigned int r;

	t->ledger.lost_seen = lost_total;
	actor_lost_pending(t->bpf.actor_lost_fd, pending, NSAUDIT_LOST_MAX);
	if (bpf_map_lookup_elem(t->bpf.bss_fd, &zero, &bss))
		return;
	gap = bss.lost_events > lost_total ? bss.lost_events - lost_total : 0;
	for (r = 0; r < NSAUDIT_LOST_MAX; r++) {
		if (pending[r] > bss.lost_reason[r])
			pending[r] = bss.lost_reason[r];
		sum += pending[r];
	}
	rest = gap > sum ? gap - sum : 0;
	for (r = 0; r < NSAUDIT_LOST_MAX; r++) {
		take = bss.lost_reason[r] - pending[r];
		take = rest < take ? rest : take;
		t->ledger.reason_seen[r] = bss.lost_reason[r] - pending[r] - take;
		rest -= take;
	}
}
