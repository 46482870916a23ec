// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * name_link.c - a namespace is named once its name exists.
 *
 * "ip netns add NAME" unshares a network namespace, then bind-mounts it at
 * /run/netns/NAME: the unshare record is made before the name exists (11
 * of 13 times), and a written record is sealed, never amended. So the
 * tracer remembers the last creation records that came out without a
 * name, and the mount that names one of those namespaces carries
 * created_seq, the creation record's seq in the log: search and lifetime
 * (and a reader) join the two. Keyed by ns_id where the kernel has one.
 */
#include <string.h>

#include "tracer_impl.h"

static bool same_ns(const struct unnamed_birth *b, const struct nsaudit_event *e)
{
	return b->seq && b->type == e->ns_type && b->inum == e->ns_inum &&
	       (!b->id || !e->ns_id || b->id == e->ns_id);
}

void stream_name_link_before(struct tracer_stream *s, const struct nsaudit_event *e,
			     struct event_extra *x)
{
	struct unnamed_birth *b = NULL;
	size_t i;

	if (e->op != NSAUDIT_OP_MOUNT || e->result || !(e->flags & NSAUDIT_F_HAS_NS) ||
	    !x->ns_name)
		return;
	/* without ids the inode is all there is: of the creations that had
	 * it, the newest is the namespace alive now (an inode is reused only
	 * once its namespace is gone) */
	for (i = 0; i < UNNAMED_BIRTHS; i++)
		if (same_ns(&s->unnamed[i], e) && (!b || s->unnamed[i].seq > b->seq))
			b = &s->unnamed[i];
	if (b) {
		x->created_seq = b->seq;
		b->seq = 0;
	}
}

void stream_name_link_after(struct tracer_stream *s, const struct nsaudit_event *e,
			    const struct event_extra *x, uint64_t log_seq)
{
	struct unnamed_birth *b;

	if ((e->op != NSAUDIT_OP_UNSHARE && e->op != NSAUDIT_OP_CLONE) || e->result < 0 ||
	    !(e->flags & NSAUDIT_F_HAS_NS) || x->ns_name || !log_seq)
		return;
	b = &s->unnamed[s->unnamed_next++ % UNNAMED_BIRTHS];
	b->type = e->ns_type;
	b->inum = e->ns_inum;
	b->id = e->ns_id;
	b->seq = log_seq;
}
