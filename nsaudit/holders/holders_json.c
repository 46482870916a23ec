// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* holders_json.c - a namespace and its holders as one JSON object ("nsaudit
 * holders --format json", and "holders" in "nsaudit lifetime --format json"). */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "holders_fmt.h"
#include "holders_model.h"
#include "enrich/nsnames.h"
#include "nstype.h"

static void jadd_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

static void jadd_int(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

/* The tasks in it (pid, time: also those whose children will be). */
static void task_holders(const struct model *m, const struct ns_ent *e, json_object *h)
{
	const struct holders_scan *s = &m->scan;
	size_t i;

	for (i = 0; i < s->ntasks; i++) {
		const struct holders_task *t = &s->tasks[i];
		int own = e->type == NSAUDIT_NS_PID    ? NSAUDIT_NS_PID
			  : e->type == NSAUDIT_NS_TIME ? NSAUDIT_NS_TIME
						       : e->type;
		int kid = e->type == NSAUDIT_NS_PID    ? HOLDERS_SLOT_PID_CHILDREN
			  : e->type == NSAUDIT_NS_TIME ? HOLDERS_SLOT_TIME_CHILDREN
						       : -1;
		bool in = t->ns[own].inum == e->inum;
		bool for_children = !in && kid >= 0 && t->ns[kid].inum == e->inum;
		json_object *r;

		if ((!in && !for_children) || is_ours(m, t->pid))
			continue;
		r = json_object_new_object();
		jadd_str(r, "kind", "task");
		jadd_int(r, "pid", t->pid);
		jadd_int(r, "tid", t->tid);
		jadd_str(r, "comm", t->comm);
		if (kid >= 0)
			json_object_object_add(r, "for_children",
					       json_object_new_boolean(for_children));
		if (t->flags & HOLDERS_TF_KTHREAD)
			json_object_object_add(r, "kthread", json_object_new_boolean(1));
		json_object_array_add(h, r);
	}
}

/* Its open nsfs fds, and (net) the sockets in it. */
static void file_holders(const struct model *m, const struct ns_ent *e, json_object *h)
{
	const struct holders_scan *s = &m->scan;
	char buf[4200];
	size_t i;

	for (i = 0; i < s->nfiles; i++) {
		const struct holders_file *f = &s->files[i];
		json_object *r;

		if (f->ns.inum != e->inum || is_ours(m, f->pid))
			continue;
		if (f->kind == HOLDERS_FILE_NSFS && type_of_flag(f->ns.clone_flag) == e->type) {
			r = json_object_new_object();
			jadd_str(r, "kind", "fd");
			jadd_int(r, "pid", f->pid);
			jadd_int(r, "fd", f->fd);
			jadd_str(r, "comm", f->comm);
			jadd_str(r, "via", fd_via(f, buf, sizeof(buf)));
			if (f->mnt_ns_inum) {
				jadd_str(r, "path", f->path);
				jadd_int(r, "mnt_ns", f->mnt_ns_inum);
			}
			json_object_array_add(h, r);
		} else if (f->kind == HOLDERS_FILE_SOCKET && e->type == NSAUDIT_NS_NET) {
			r = json_object_new_object();
			jadd_str(r, "kind", "socket");
			jadd_int(r, "pid", f->pid);
			jadd_int(r, "fd", f->fd);
			jadd_str(r, "comm", f->comm);
			jadd_str(r, "family", sock_family_name(f->family));
			jadd_int(r, "family_num", f->family);
			jadd_str(r, "sock_type", sock_type_name(f->type));
			jadd_str(r, "protocol",
				 sock_protocol_name(f->family, f->type, f->protocol));
			jadd_int(r, "protocol_num", f->protocol);
			jadd_int(r, "inode", (int64_t)f->sock_ino);
			json_object_object_add(r, "holds_ref", json_object_new_boolean(f->net_ref));
			json_object_array_add(h, r);
		}
	}
}

json_object *ns_json(const struct model *m, const struct ns_ent *e)
{
	json_object *o = json_object_new_object(), *h = json_object_new_array();
	json_object *acct = json_object_new_object();
	const char *name;
	size_t i;
	int a;

	/* the keys records use: ns_type, ns_inum, ns_id */
	jadd_str(o, "ns_type", nstype_name(e->type));
	jadd_int(o, "ns_inum", e->inum);
	if (m->names && (name = nsnames_lookup(m->names, e->type, e->inum, 0)))
		jadd_str(o, "ns_name", name);
	if (e->known && e->k.ns_id)
		jadd_int(o, "ns_id", (int64_t)e->k.ns_id);
	if (e->known && e->k.owner_inum)
		jadd_int(o, "owner_user_ns", e->k.owner_inum);
	if (e->known && e->k.parent_inum)
		jadd_int(o, "parent", e->k.parent_inum);
	if (e->known) {
		jadd_int(o, "refs", e->k.refs);
		jadd_int(o, "refs_explained", explained(e));
		jadd_int(o, "refs_unattributed", (int64_t)e->k.refs - explained(e));
	} else {
		json_object_object_add(o, "refs", NULL);
	}
	for (a = 0; a < ACCT_MAX; a++)
		jadd_int(acct, acct_names[a], e->acct[a]);
	json_object_object_add(o, "accounting", acct);

	task_holders(m, e, h);
	file_holders(m, e, h);
	for (i = 0; i < m->mounts.n; i++) {
		const struct holders_mount *hm = &m->mounts.v[i];
		json_object *r;

		if (hm->inum != e->inum || hm->type != e->type)
			continue;
		r = json_object_new_object();
		jadd_str(r, "kind", "mount");
		if (hm->path[0])
			jadd_str(r, "path", hm->path);
		else
			json_object_object_add(r, "path", NULL);
		jadd_int(r, "mnt_ns", hm->mnt_ns);
		jadd_int(r, "mount_id", hm->mount_id);
		if (hm->via_pid)
			jadd_int(r, "seen_by_pid", hm->via_pid);
		json_object_array_add(h, r);
	}
	for (i = 0; i < m->nns; i++) {
		const struct ns_ent *c = &m->ns[i];
		json_object *r;

		if (!c->known || c == e)
			continue;
		if (!((e->type == NSAUDIT_NS_USER && c->k.owner_inum == e->inum) ||
		      (e->type == NSAUDIT_NS_PID && c->type == NSAUDIT_NS_PID &&
		       c->k.parent_inum == e->inum)))
			continue;
		r = json_object_new_object();
		jadd_str(r, "kind", "child");
		/* the child named as records and the top level name it */
		jadd_str(r, "ns_type", nstype_name(c->type));
		jadd_int(r, "ns_inum", c->inum);
		if (c->k.ns_id)
			jadd_int(r, "ns_id", (int64_t)c->k.ns_id);
		jadd_str(r, "relation", c->type == e->type ? "nested" : "owned");
		json_object_array_add(h, r);
	}
	json_object_object_add(o, "holders", h);
	return o;
}
