/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * log_budget.h - fairness where records are written to the log (issue 47).
 *
 * The kernel side's budgets (bpf/nsaudit/actor_budget.bpf.h) start only
 * when a ring is half full: a recorder that keeps up never gets there, and
 * an unprivileged flood of distinct records then owns the log's retention
 * (rotation drops the oldest segments, root's records with them). So the
 * recorder applies budgets of its own to every record it is about to
 * write, whatever the rings' fill, in this order:
 *
 *   1. the actor's thread group: tgid_rate records/s (burst 2x);
 *   2. its uid (as the initial user namespace sees it) and its container:
 *      the runtime's (docker, containerd, podman, crio ...: the container
 *      id its cgroup names at the call), else, when it runs in a user
 *      namespace of its own, that user namespace: uid_rate records/s each
 *      (burst 2x). A container of many uids, or whose processes are in
 *      several user namespaces, is one;
 *   3. rare actors first: a thread group that has written few records
 *      lately (at most RARE_DEBT of its burst in use) and whose parent's
 *      children have too (parent_rate/s) draws on its uid's reserve
 *      (reserve_rate/s) when step 2 said no: 3/4 of it for the children
 *      of quiet parents (at most RARE_DEBT of their tokens in use), 1/4
 *      for any. A parent is the record's anchor (nsaudit.h: the parent,
 *      or for a tree of young middles their nearest ancestor 100 ms old).
 *      A sibling's flood within one uid costs the quiet process nothing;
 *      a fork flood's children share their parent's small allowance, a
 *      fork tree's its ancestor's, and any number of fork-flooding
 *      parents the reserve's quarter.
 *
 * A record refused is not written; its calls (repeat) are counted per
 * actor (pid, uid, comm, op), handed after each written batch to the
 * kernel side's own loss counts (tracer_loss.c: they survive a crash) and
 * become lost records with reason "log_budget": nothing is silent.
 */
#ifndef NSAUDIT_LOG_BUDGET_H
#define NSAUDIT_LOG_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "actor_lost.h"
#include "nsaudit.h"

struct log_budget_rates {
	uint32_t tgid;		/* records/s of one thread group */
	uint32_t uid;		/* ... of one uid, and of one container */
	uint32_t reserve;	/* ... of a uid's rare thread groups, past it */
	uint32_t parent;	/* ... of the rare children of one parent */
};

/* The defaults (docs/flood.md states what they promise). */
#define LOG_BUDGET_TGID		256
#define LOG_BUDGET_UID		1024
#define LOG_BUDGET_RESERVE	128
#define LOG_BUDGET_PARENT	64

struct log_budget;

/* A budget with these rates (NULL: the defaults); NULL on no memory. */
struct log_budget *log_budget_new(const struct log_budget_rates *r);
void log_budget_free(struct log_budget *b);

/*
 * Whether e may be written now (now_ns: CLOCK_MONOTONIC); container: its
 * actor's runtime container (enrich_container_key()), 0 if none. If not,
 * its calls are counted against its actor for log_budget_flush.
 */
bool log_budget_take(struct log_budget *b, const struct nsaudit_event *e, uint64_t container,
		     uint64_t now_ns);

/*
 * The counts of refused calls, one per actor and op (a NULL actor: what
 * the table could not name), each handed to fn and forgotten; only when
 * force or a second has passed since the last flush. Returns how many.
 */
size_t log_budget_flush(struct log_budget *b, uint64_t now_ns, bool force,
			void (*fn)(void *ctx, const struct actor_loss *a, uint64_t n), void *ctx);

/* Calls refused so far, in all. */
uint64_t log_budget_refused(const struct log_budget *b);

#endif
