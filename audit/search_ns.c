// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * search_ns.c - which namespaces a --ns means, by identity, and whether a
 * record is about one of them.
 *
 * An nsfs inode number names a namespace only while it lives: the kernel
 * hands it to the next namespace at once (lowest free first), so a log of
 * a busy hour holds one inode for dozens of namespaces. Where the kernel
 * gives ids (ns_id, Linux 6.18: never reused) a record matches by id. A
 * name or path means the namespaces the log saw mounted there, each by its
 * id. Only where there are no ids is an inode compared, and then only
 * within the namespace's life in the log: from its creation record to the
 * next creation of that inode.
 */
#include <inttypes.h>
#include <string.h>

#include "nstype.h"
#include "search.h"

bool audit_filter_add_ns(struct audit_filter *f, const struct audit_filter_ns *ns)
{
	size_t i;

	for (i = 0; i < f->n_ns; i++) {
		const struct audit_filter_ns *o = &f->ns[i];

		if (o->type == ns->type && o->inum == ns->inum &&
		    (ns->id ? o->id == ns->id : !o->id && o->seen_seq == ns->seen_seq))
			return true;
	}
	if (f->n_ns >= AUDIT_FILTER_NS_MAX)
		return false;
	f->ns[f->n_ns++] = *ns;
	return true;
}

/* A record's namespace on one side: acted on (ns_) or left (old_). */
struct ns_side {
	const char *type;
	bool has_inum, has_id;
	int64_t inum, id;
};

static void rec_sides(const struct audit_view *r, struct ns_side s[2])
{
	s[0].type = s[1].type = r->str(r->rec, "ns_type", NULL);
	s[0].has_inum = r->num(r->rec, "ns_inum", &s[0].inum);
	s[0].has_id = r->num(r->rec, "ns_id", &s[0].id) && s[0].id > 0;
	s[1].has_inum = r->num(r->rec, "old_inum", &s[1].inum) && s[1].inum > 0;
	s[1].has_id = r->num(r->rec, "old_ns_id", &s[1].id) && s[1].id > 0;
}

static bool same_type(const struct audit_filter_ns *n, const char *t)
{
	return n->type < 0 || (t && !strcmp(t, nstype_name((unsigned int)n->type)));
}

static bool side_match(const struct audit_filter_ns *n, const struct ns_side *s, uint64_t seq)
{
	if (!same_type(n, s->type))
		return false;
	if (n->id && s->has_id)
		return (uint64_t)s->id == n->id;
	/* no id on one side: the inode, within the namespace's life */
	if (!s->has_inum || s->inum != n->inum)
		return false;
	if (n->id && !n->to_seq)
		return false; /* an id the log never showed: no life to compare with */
	return seq >= n->from_seq && (!n->to_seq || seq < n->to_seq);
}

bool audit_filter_ns_match(const struct audit_filter *f, const struct audit_view *r)
{
	struct ns_side s[2];
	size_t i;

	rec_sides(r, s);
	for (i = 0; i < f->n_ns; i++)
		if (side_match(&f->ns[i], &s[0], r->seq) || side_match(&f->ns[i], &s[1], r->seq))
			return true;
	return false;
}

void audit_ns_scan_rec(struct audit_ns_scan *sc, const struct audit_rec *r)
{
	struct audit_filter_ns n = { 0 };
	struct audit_view v;
	struct ns_side s[2];
	int64_t id;
	int k;

	if (sc->path && audit_rec_mount_at(r->obj, sc->path, &n.type, &n.inum)) {
		n.id = audit_rec_int(r, "ns_id", &id) && id > 0 ? (uint64_t)id : 0;
		n.seen_seq = r->seq;
		if (!audit_filter_add_ns(sc->f, &n))
			sc->full = true;
		return;
	}
	if (!sc->by_inode)
		return;
	audit_view_of_rec(&v, r);
	rec_sides(&v, s);
	for (k = 0; k < 2; k++) {
		if (!s[k].has_id || !s[k].has_inum || s[k].inum != sc->inum || !s[k].type ||
		    strcmp(s[k].type, nstype_name((unsigned int)sc->type)))
			continue;
		n.type = sc->type;
		n.inum = sc->inum;
		n.id = (uint64_t)s[k].id;
		if (!audit_filter_add_ns(sc->f, &n))
			sc->full = true;
	}
}

/* A record that made a namespace (its own, acted-on side). */
static bool is_birth(const struct audit_rec *r)
{
	const char *op = audit_rec_str(r, "op", NULL);
	int64_t res;

	if (!op || (strcmp(op, "unshare") && strcmp(op, "clone")))
		return false;
	return !audit_rec_int(r, "result", &res) || res >= 0;
}

void audit_ns_scan_births(struct audit_filter *f, const struct audit_rec *r)
{
	const char *op = audit_rec_str(r, "op", NULL);
	bool birth = is_birth(r), death = op && !strcmp(op, "ns_free");
	struct audit_view v;
	struct ns_side s[2];
	size_t i;

	audit_view_of_rec(&v, r);
	rec_sides(&v, s);
	for (i = 0; i < f->n_ns; i++) {
		struct audit_filter_ns *n = &f->ns[i];
		uint64_t seen = n->seen_seq ? n->seen_seq : UINT64_MAX;

		if (n->whole)
			continue;
		if (n->id) {	/* the span in which the log shows this id */
			if (!(s[0].has_id && (uint64_t)s[0].id == n->id && same_type(n, s[0].type)) &&
			    !(s[1].has_id && (uint64_t)s[1].id == n->id && same_type(n, s[1].type)))
				continue;
			if (!n->to_seq || r->seq < n->from_seq)
				n->from_seq = r->seq;
			if (r->seq + 1 > n->to_seq)
				n->to_seq = r->seq + 1;
			continue;
		}
		if (!s[0].has_inum || s[0].inum != n->inum || !same_type(n, s[0].type))
			continue;
		if (birth && r->seq <= seen && r->seq > n->from_seq)
			n->from_seq = r->seq;
		else if (birth && r->seq > seen && (!n->to_seq || r->seq < n->to_seq))
			n->to_seq = r->seq;
		else if (death && r->seq >= seen && (!n->to_seq || r->seq + 1 < n->to_seq))
			n->to_seq = r->seq + 1;
	}
}
