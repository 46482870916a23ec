/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * death.h - how a namespace's death is told in a timeline (death.c).
 */
#ifndef NSAUDIT_DEATH_H
#define NSAUDIT_DEATH_H

#include <stdbool.h>
#include <stdio.h>

#include "lifetime.h"

/* What an LT_FREED record says, in brackets; true when the record names
 * the holder that let go last (its actor: the caller prints who). */
bool lt_print_freed(FILE *out, struct json_object *r);
/* What an LT_LET_GO record says: which holder went, and the references
 * left; true when it has an actor (the caller prints who). */
bool lt_print_let_go(FILE *out, struct json_object *r);
/* "; the kernel freed it in pid=N (comm), ...": a released record's actor,
 * the context of the namespace's last put (hostile names escaped). */
void lt_print_freed_in(FILE *out, struct json_object *r);
/* A record's time in seconds since the epoch (RFC 3339, UTC); -1: none. */
double lt_rec_time(struct json_object *rec);
/* After a death seen: "lived D s; died D s after its last name was
 * removed", where the log has them (nothing otherwise). */
void lt_print_death_spans(FILE *out, const struct lt_timeline *tl, const struct lt_inc *c);

#endif
