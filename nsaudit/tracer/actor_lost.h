/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * actor_lost.h - the kernel's lost calls as records that name whose they
 * were (issue 32): per actor (pid, uid, comm), op and reason from the
 * actor_lost map, and what the map could not attribute as an anonymous
 * remainder of the kernel's per-reason counters. Nothing is silent: the
 * reported counts add up to the kernel's counters.
 */
#ifndef NSAUDIT_ACTOR_LOST_H
#define NSAUDIT_ACTOR_LOST_H

#include <stddef.h>
#include <stdint.h>

#include "nsaudit.h"

/* Entries taken per pass at most (the map's size). */
#define ACTOR_LOST_MAX 8192

struct actor_loss {
	struct nsaudit_actor_lost_key k;
	struct nsaudit_actor_lost_val v;
};

/*
 * One pass over the actor_lost map: take (read and delete) the entries of
 * the epoch not in use, which nothing has written since the previous pass
 * made the other one current, then make theirs current (epoch_fd: map
 * lost_epoch). So a count is never added to an entry being deleted, and a
 * count appears one pass after it was made. Returns how many were taken
 * (at most max).
 */
size_t actor_lost_pass(int map_fd, int epoch_fd, struct actor_loss *out, size_t max);

/*
 * The counts the map holds now per reason (both epochs, nothing taken):
 * into pending[0..n-1], zero where none or without a map.
 */
void actor_lost_pending(int map_fd, uint64_t *pending, unsigned int n);

/*
 * Fill a lost record (op lost, probe user) for n calls of reason; for an
 * actor's loss (a != NULL) with its pid, uid, comm and op (in ns_refs).
 */
void actor_lost_record(struct nsaudit_event *e, const struct actor_loss *a, unsigned int reason,
		       uint64_t n, uint64_t ts_boot_ns);

#endif
