/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * tracer_ledger.h - the tracer's loss ledger: every call the kernel side
 * could not deliver (per actor and reason), every record a later stage
 * dropped, programs the kernel skipped, pins that left unseen, each made a
 * record once, also across a recorder's restart. Its methods are
 * ledger_* (tracer_loss.c; the pins that left: tracer_vanished.c).
 */
#ifndef NSAUDIT_TRACER_LEDGER_H
#define NSAUDIT_TRACER_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "actor_lost.h"
#include "nsaudit.h"
#include "pins.h"
#include "prog_misses.h"

struct tracer;

#define LOSS_SOURCES_MAX 8

/*
 * A pin a sweep found gone from a namespace that lived: reported once it
 * is still in pin_mounts PIN_SWEEP_NS later (no umount exit took it),
 * tracer_vanished.c.
 */
struct pin_suspect {
	uint64_t key;		/* its pin_mounts key */
	int64_t seen_ns;	/* first found gone (CLOCK_MONOTONIC) */
	uint32_t ns_state;	/* NSAUDIT_PIN_NS_* then */
};

struct tracer_ledger {
	/* the kernel's per-reason counters at the previous pass: everything
	 * in them has been taken from actor_lost by the next one */
	uint64_t reason_prev[NSAUDIT_LOST_MAX];
	uint64_t events_prev; /* and their sum, lost_events */
	bool reason_prev_valid;
	struct actor_loss *losses;		/* one pass of them */
	struct prog_misses misses;		/* programs skipped for recursion */
	struct {				/* pins found gone, not yet told */
		struct pin_suspect *v;
		size_t n, cap;
	} suspects;
	int64_t sweep_ns;			/* the last sweep (CLOCK_MONOTONIC) */
	int64_t rounds_ns;			/* the last whole turns after umounts */
	uint64_t umounts_swept;			/* pin_umounts whole turns followed */
	uint64_t lost_seen;			/* of the kernel's lost_events counter */
	uint64_t reason_seen[NSAUDIT_LOST_MAX]; /* of its lost_reason[]: reported,
						 * per actor or anonymous */
	struct {				/* user-space stages that may drop records */
		uint64_t (*fn)(void *ctx, char *what, size_t len);
		void *ctx;
		uint64_t seen;
	} loss[LOSS_SOURCES_MAX];
	int nloss;
};

/* tracer_loss.c */

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
void ledger_report_lost(struct tracer *t);

/* Stopping: passes until everything counted so far has been taken. */
void ledger_report_lost_final(struct tracer *t);

/* tracer_vanished.c */

/*
 * Pins the kernel side saw leave without an umount call (sweep_pins):
 * umount records made by user space, with the cause. final: stopping.
 */
void ledger_report_vanished_pins(struct tracer *t, bool final);

/* One record user space makes (not the kernel side), with what made it. */
void emit_user_record(struct tracer *t, struct nsaudit_event *e, const char *cause,
		      const struct nsaudit_pin *maker);

/* Calls no program saw: the kernel skipped it (recursion), say so. */
void ledger_report_recursion(struct tracer *t);

/* Pins whose mount namespace died went with it: unpins, made by user space. */
void ledger_report_dead_pins(struct tracer *t);

/* What later stages in user space (sinks) dropped: lost records with why. */
void ledger_report_user_losses(struct tracer *t);
/* The calls the log budget refused in the batch just written, into the
 * kernel's loss counts (log_budget.h). */
void ledger_report_budget_losses(struct tracer *t);

/*
 * The log says lost_total calls were reported as lost so far: that total
 * is exact, and ledger_report_lost() never reports more than the kernel's
 * total beyond it. Per reason, the kernel's counters are taken as seen,
 * less the part not yet reported (lost while no recorder ran): the
 * per-actor map's entries (reported with their actor by the next passes)
 * and the rest (anonymous; its split across reasons is an estimate, the
 * ring first). The map is read before the counters: the kernel counts a
 * call in the map first, so every call read there is in the counters read
 * after.
 */
void ledger_resume_lost(struct tracer *t, uint64_t lost_total);

#endif
