// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * names.c - a namespace's creation tied to the name it got later.
 *
 * "ip netns add" unshares, then bind-mounts the new namespace at
 * /run/netns/NAME: its creation record is written (and sealed) before the
 * name exists. The recorder links them: the mount that names a namespace
 * created unnamed carries created_seq, the creation record's seq
 * (nsaudit/tracer/name_link.c). Here the timeline follows that link by seq,
 * not by inode: on kernels without ns_id the inode is all a record says,
 * and inodes are reused.
 */
#include <string.h>

#include <json-c/json.h>

#include "lifetime.h"

static bool jint64(json_object *o, const char *k, int64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

/* The event whose record is seq (creations only), or SIZE_MAX. */
static size_t creation_at(const struct lt_timeline *tl, uint64_t seq)
{
	size_t i;

	for (i = 0; i < tl->nev; i++)
		if (tl->ev[i].kind == LT_CREATED && tl->ev[i].seq == seq)
			return i;
	return SIZE_MAX;
}

void lt_link_names(struct lt_timeline *tl)
{
	size_t i, c;
	int64_t s;

	for (i = 0; i < tl->nev; i++) {
		struct lt_event *e = &tl->ev[i];

		e->named_by = SIZE_MAX;
	}
	for (i = 0; i < tl->nev; i++) {
		struct lt_event *m = &tl->ev[i];

		if (m->kind != LT_PINNED || !jint64(m->rec, "created_seq", &s) || s <= 0)
			continue;
		c = creation_at(tl, (uint64_t)s);
		if (c == SIZE_MAX || tl->ev[c].named_by != SIZE_MAX)
			continue;	/* its creation is not in the log, or named already */
		/* the creation's namespace is the one the mount named: the
		 * same incarnation, or the ids and the link disagree (then no
		 * name is shown rather than a wrong one) */
		if (tl->ev[c].inc != m->inc) {
			tl->name_conflicts++;
			continue;
		}
		tl->ev[c].named_by = i;
	}
}

const struct lt_event *lt_named_by(const struct lt_timeline *tl, const struct lt_event *created)
{
	if (created->kind != LT_CREATED || created->named_by >= tl->nev)
		return NULL;
	return &tl->ev[created->named_by];
}
