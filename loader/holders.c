// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * holders.c - "nsaudit holders NS | --all": who keeps a namespace alive.
 *
 * Two BPF iterators (bpf/holders.bpf.c) list every thread's namespaces and
 * every open nsfs file and socket, each namespace with the kernel's
 * reference count; /proc/PID/mountinfo (one task per mount namespace, or a
 * helper that enters a task-less one) adds the bind mounts. The references
 * are then reconciled with the holders found:
 *
 *   nsproxy      each distinct struct nsproxy naming the namespace: 1 (time:
 *                1 per slot, time and time_for_children; pid: only
 *                pid_for_children), however many tasks share it
 *   nsfs dentry  1 while the namespace's nsfs dentry exists, however many
 *                fds and bind mounts share it
 *   socket       net: 1 per socket that took one (sk_net_refcnt)
 *   struct pid   pid: 1 per thread whose pid lives in it
 *   cred         user: 1 per distinct struct cred in it (tasks' and files')
 *   child        user: 1 per namespace it owns; pid, user: 1 per child
 *
 * The rest is "unattributed" (kernel-internal users, e.g. superblocks of a
 * user namespace, /proc/net files, in-flight work).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "commands.h"
#include "holders_fmt.h"
#include "holders_lib.h"
#include "nsnames.h"
#include "nstype.h"

#define ERR(fmt, ...) fprintf(stderr, "nsaudit holders: " fmt "\n", ##__VA_ARGS__)

/* How many task lines a namespace shows in --all text output. */
#define ALL_TASK_LINES 5

enum acct {
	ACCT_NSPROXY,
	ACCT_DENTRY,
	ACCT_SOCKET,
	ACCT_PID,
	ACCT_CRED,
	ACCT_CHILD,
	ACCT_MAX,
};

static const char *const acct_names[ACCT_MAX] = {
    [ACCT_NSPROXY] = "nsproxy", [ACCT_DENTRY] = "nsfs_dentry", [ACCT_SOCKET] = "socket",
    [ACCT_PID] = "struct_pid",	[ACCT_CRED] = "cred",	       [ACCT_CHILD] = "child",
};

struct ns_ent {
	int type;
	uint32_t inum;
	bool known;	     /* k was read by BPF */
	struct holders_ns k; /* last record naming it */
	long acct[ACCT_MAX];
	bool printed;
};

struct model {
	struct holders_scan scan;
	struct holders_mounts mounts;
	struct nsnames *names;	/* ip netns name, bind path, container:ID, host */
	struct ns_ent *ns;
	size_t nns;
	pid_t self;
};

static int type_of_flag(uint32_t flag)
{
	return nstype_from_clone_flag(flag);
}

static int slot_type(int slot)
{
	if (slot == HOLDERS_SLOT_PID_CHILDREN)
		return NSAUDIT_NS_PID;
	if (slot == HOLDERS_SLOT_TIME_CHILDREN)
		return NSAUDIT_NS_TIME;
	return slot;
}

static struct ns_ent *ns_find(struct model *m, int type, uint32_t inum)
{
	size_t i;

	for (i = 0; i < m->nns; i++)
		if (m->ns[i].inum == inum && (type < 0 || m->ns[i].type == type))
			return &m->ns[i];
	return NULL;
}

static struct ns_ent *ns_add(struct model *m, int type, uint32_t inum)
{
	struct ns_ent *e = ns_find(m, type, inum);
	void *nv;

	if (e || !inum || type < 0)
		return e;
	nv = realloc(m->ns, (m->nns + 1) * sizeof(*m->ns));
	if (!nv)
		return NULL;
	m->ns = nv;
	e = &m->ns[m->nns++];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->inum = inum;
	return e;
}

static void ns_note(struct model *m, int type, const struct holders_ns *k)
{
	struct ns_ent *e;

	if (!k->inum)
		return;
	e = ns_add(m, type, k->inum);
	if (!e)
		return;
	e->known = true;
	e->k = *k;
}

static bool is_ours(const struct model *m, pid_t pid)
{
	size_t i;

	if (pid == m->self)
		return true;
	for (i = 0; i < m->mounts.nhelpers; i++)
		if (m->mounts.helpers[i] == pid)
			return true;
	return false;
}

/* Build the namespace table from the scan and the mounts. */
static int build(struct model *m)
{
	struct holders_scan *s = &m->scan;
	size_t i, j;
	int k;

	for (i = 0; i < s->ntasks; i++)
		for (k = 0; k < HOLDERS_SLOTS; k++)
			ns_note(m, slot_type(k), &s->tasks[i].ns[k]);
	for (i = 0; i < s->nfiles; i++) {
		struct holders_file *f = &s->files[i];

		ns_note(m,
			f->kind == HOLDERS_FILE_SOCKET ? NSAUDIT_NS_NET
						       : type_of_flag(f->ns.clone_flag),
			&f->ns);
	}
	for (i = 0; i < m->mounts.n; i++)
		if (!ns_add(m, m->mounts.v[i].type, m->mounts.v[i].inum))
			return -1;
	/* owners and parents of what we saw exist too */
	for (i = 0; i < m->nns; i++) {
		struct ns_ent e = m->ns[i];

		if (!e.known)
			continue;
		if (e.k.owner_inum && !ns_add(m, NSAUDIT_NS_USER, e.k.owner_inum))
			return -1;
		if (e.type == NSAUDIT_NS_PID && e.k.parent_inum &&
		    !ns_add(m, NSAUDIT_NS_PID, e.k.parent_inum))
			return -1;
	}

	/* reference accounting */
	for (i = 0; i < m->nns; i++) {
		struct ns_ent *e = &m->ns[i];

		/* get_pid_ns()/put_pid_ns() skip the initial pid namespace:
		 * nothing but the dentry is counted on it */
		if (e->type == NSAUDIT_NS_PID && e->known && !e->k.parent_inum) {
			e->acct[ACCT_DENTRY] = e->k.has_dentry;
			continue;
		}

		e->acct[ACCT_DENTRY] = e->known && e->k.has_dentry;
		for (j = 0; j < s->ntasks; j++) {
			struct holders_task *t = &s->tasks[j];
			bool dup = false;
			size_t p;

			if (e->type == NSAUDIT_NS_PID && t->ns[NSAUDIT_NS_PID].inum == e->inum)
				e->acct[ACCT_PID]++;
			if (!t->nsproxy)
				continue;
			for (p = 0; p < j && !dup; p++)
				dup = s->tasks[p].nsproxy == t->nsproxy;
			if (dup)
				continue;
			for (k = 0; k < HOLDERS_SLOTS; k++) {
				if (k == NSAUDIT_NS_USER || k == NSAUDIT_NS_PID)
					continue; /* not held by the nsproxy */
				if (slot_type(k) == e->type && t->ns[k].inum == e->inum)
					e->acct[ACCT_NSPROXY]++;
			}
		}
		if (e->type == NSAUDIT_NS_USER)
			for (j = 0; j < s->ncreds; j++)
				e->acct[ACCT_CRED] += s->creds[j].user_inum == e->inum;
		if (e->type == NSAUDIT_NS_NET)
			for (j = 0; j < s->nfiles; j++) {
				struct holders_file *f = &s->files[j];
				bool dup = false;
				size_t p;

				if (f->kind != HOLDERS_FILE_SOCKET || f->ns.inum != e->inum ||
				    !f->net_ref)
					continue;
				for (p = 0; p < j && !dup; p++)
					dup = s->files[p].kind == HOLDERS_FILE_SOCKET &&
					      s->files[p].sock_ino == f->sock_ino;
				e->acct[ACCT_SOCKET] += !dup;
			}
		for (j = 0; j < m->nns; j++) {
			struct ns_ent *c = &m->ns[j];

			if (!c->known || c == e)
				continue;
			if (e->type == NSAUDIT_NS_USER && c->k.owner_inum == e->inum)
				e->acct[ACCT_CHILD]++;
			else if (e->type == NSAUDIT_NS_PID && c->type == NSAUDIT_NS_PID &&
				 c->k.parent_inum == e->inum)
				e->acct[ACCT_CHILD]++;
		}
	}
	return 0;
}

static long explained(const struct ns_ent *e)
{
	long n = 0;
	int a;

	for (a = 0; a < ACCT_MAX; a++)
		n += e->acct[a];
	return n;
}

static void ns_label(char *buf, size_t len, int type, uint32_t inum)
{
	snprintf(buf, len, "%s:[%u]", nstype_name(type) ? nstype_name(type) : "?", inum);
}

static const char *fd_via(const struct holders_file *f, char *buf, size_t len)
{
	char mns[48];

	if (f->mnt_ns_inum) {
		ns_label(mns, sizeof(mns), NSAUDIT_NS_MNT, f->mnt_ns_inum);
		snprintf(buf, len, "bind mount %s in %s", f->path, mns);
		return "bind-mount";
	}
	if (f->path[0] == '/') {
		snprintf(buf, len, "a bind mount since unmounted");
		return "unmounted-bind-mount";
	}
	snprintf(buf, len, "/proc/PID/ns, an ioctl or a pidfd");
	return "nsfs";
}

/* ---- JSON -------------------------------------------------------------- */

static void jadd_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

static void jadd_int(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static json_object *ns_json(const struct model *m, const struct ns_ent *e)
{
	const struct holders_scan *s = &m->scan;
	json_object *o = json_object_new_object(), *h = json_object_new_array();
	json_object *acct = json_object_new_object();
	const char *name;
	char buf[4200];
	size_t i;
	int a;

	jadd_str(o, "type", nstype_name(e->type));
	jadd_int(o, "inum", e->inum);
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
	for (i = 0; i < m->mounts.n; i++) {
		const struct holders_mount *hm = &m->mounts.v[i];
		json_object *r;

		if (hm->inum != e->inum || hm->type != e->type)
			continue;
		r = json_object_new_object();
		jadd_str(r, "kind", "mount");
		jadd_str(r, "path", hm->path);
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
		jadd_str(r, "type", nstype_name(c->type));
		jadd_int(r, "inum", c->inum);
		jadd_str(r, "relation", c->type == e->type ? "nested" : "owned");
		json_object_array_add(h, r);
	}
	json_object_object_add(o, "holders", h);
	return o;
}

/* ---- text -------------------------------------------------------------- */

struct tprint {
	const struct model *m;
	const char *indent;
	bool all;
	bool started;
};

/* Holder lines are collected, then printed with ├─/└─ so the last is known. */
struct lines {
	char **v;
	size_t n;
};

static void line_add(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line_add(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	void *nv;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	nv = realloc(l->v, (l->n + 1) * sizeof(*l->v));
	if (!nv) {
		free(s);
		return;
	}
	l->v = nv;
	l->v[l->n++] = s;
}

/* comm and paths are hostile: print control characters as \xNN. */
static const char *safe(const char *in, char *buf, size_t len)
{
	size_t n = 0;

	for (; *in && n + 5 < len; in++) {
		unsigned char c = (unsigned char)*in;

		if (c < 0x20 || c == 0x7f || c == '\\')
			n += snprintf(buf + n, len - n, "\\x%02x", c);
		else
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return buf;
}

static void acct_text(const struct ns_ent *e, char *buf, size_t len)
{
	static const char *const words[ACCT_MAX] = {
	    [ACCT_NSPROXY] = "nsproxy", [ACCT_DENTRY] = "nsfs dentry", [ACCT_SOCKET] = "socket",
	    [ACCT_PID] = "struct pid",	[ACCT_CRED] = "cred",	       [ACCT_CHILD] = "child ns",
	};
	size_t n;
	int a, parts = 0;

	if (!e->known) {
		snprintf(buf, len,
			 "refs ? (no task, fd or socket of it was seen, so BPF could "
			 "not read its count)");
		return;
	}
	n = snprintf(buf, len, "refs %u = ", e->k.refs);
	for (a = 0; a < ACCT_MAX && n < len; a++) {
		if (!e->acct[a])
			continue;
		n += snprintf(buf + n, len - n, "%s%ld %s", parts++ ? " + " : "", e->acct[a],
			      words[a]);
	}
	if (n < len)
		n += snprintf(buf + n, len - n, "%s + %ld unattributed", parts ? "" : "0",
			      (long)e->k.refs - explained(e));
	if (n < len && e->type == NSAUDIT_NS_PID && !e->k.parent_inum)
		snprintf(buf + n, len - n,
			 " (the initial pid namespace is not reference "
			 "counted: get_pid_ns() skips it)");
}

static void print_ns(const struct model *m, struct ns_ent *e, const char *indent, bool all)
{
	const struct holders_scan *s = &m->scan;
	struct lines l = {0};
	const char *name;
	char lab[48], lab2[48], b1[512], b2[4200], b3[8400];
	size_t i, j, shown = 0, hidden = 0, kthreads = 0;

	e->printed = true;
	ns_label(lab, sizeof(lab), e->type, e->inum);
	acct_text(e, b3, sizeof(b3));
	printf("%s%s", indent, lab);
	if (m->names && (name = nsnames_lookup(m->names, e->type, e->inum, 0)))
		printf(" \"%s\"", name);
	if (e->known && e->k.ns_id)
		printf(" id %llu", (unsigned long long)e->k.ns_id);
	printf("  %s\n", b3);

	/* tasks: one line per process, its threads counted */
	for (i = 0; i < s->ntasks; i++) {
		const struct holders_task *t = &s->tasks[i];
		int own = e->type, kid = -1, threads = 0;
		bool in, fc, seen = false;

		if (e->type == NSAUDIT_NS_PID)
			kid = HOLDERS_SLOT_PID_CHILDREN;
		if (e->type == NSAUDIT_NS_TIME)
			kid = HOLDERS_SLOT_TIME_CHILDREN;
		in = t->ns[own].inum == e->inum;
		fc = !in && kid >= 0 && t->ns[kid].inum == e->inum;
		if ((!in && !fc) || is_ours(m, t->pid))
			continue;
		if (t->flags & HOLDERS_TF_KTHREAD) {
			kthreads++;
			continue;
		}
		for (j = 0; j < i && !seen; j++)
			seen = s->tasks[j].pid == t->pid &&
			       (s->tasks[j].ns[own].inum == e->inum ||
				(kid >= 0 && s->tasks[j].ns[kid].inum == e->inum));
		if (seen)
			continue;
		for (j = i; j < s->ntasks; j++)
			threads += s->tasks[j].pid == t->pid &&
				   (s->tasks[j].ns[own].inum == e->inum ||
				    (kid >= 0 && s->tasks[j].ns[kid].inum == e->inum));
		if (all && shown >= ALL_TASK_LINES) {
			hidden++;
			continue;
		}
		shown++;
		snprintf(b2, sizeof(b2), " (%d threads)", threads);
		line_add(&l, "task    pid %d %s%s%s%s", t->pid, safe(t->comm, b1, sizeof(b1)),
			 threads > 1 ? b2 : "",
			 fc ? (e->type == NSAUDIT_NS_PID ? "  (pid_for_children)"
							 : "  (time_for_children)")
			    : "",
			 "");
	}
	if (kthreads)
		line_add(&l, "task    %zu kernel threads (--format json lists them)", kthreads);
	if (hidden)
		line_add(&l, "task    ... and %zu more processes (nsaudit holders %s lists all)",
			 hidden, lab);
	for (i = 0; i < s->nfiles; i++) {
		const struct holders_file *f = &s->files[i];

		if (f->ns.inum != e->inum || is_ours(m, f->pid))
			continue;
		if (f->kind == HOLDERS_FILE_NSFS && type_of_flag(f->ns.clone_flag) == e->type) {
			fd_via(f, b2, sizeof(b2));
			line_add(&l, "fd      pid %u fd %u %s  via %s", f->pid, f->fd,
				 safe(f->comm, b1, sizeof(b1)), safe(b2, b3, sizeof(b3)));
		} else if (f->kind == HOLDERS_FILE_SOCKET && e->type == NSAUDIT_NS_NET) {
			sock_describe(b2, sizeof(b2), f->family, f->type, f->protocol);
			line_add(&l, "socket  pid %u fd %u %s  %s%s", f->pid, f->fd,
				 safe(f->comm, b1, sizeof(b1)), b2,
				 f->net_ref ? "" : " (kernel socket: holds no reference)");
		}
	}
	for (i = 0; i < m->mounts.n; i++) {
		const struct holders_mount *hm = &m->mounts.v[i];

		if (hm->inum != e->inum || hm->type != e->type)
			continue;
		ns_label(lab2, sizeof(lab2), NSAUDIT_NS_MNT, hm->mnt_ns);
		line_add(&l, "mount   %s in %s%s", safe(hm->path, b2, sizeof(b2)), lab2,
			 hm->via_pid ? "" : " (a mount namespace no task is in)");
	}
	for (i = 0; i < m->nns; i++) {
		const struct ns_ent *c = &m->ns[i];

		if (!c->known || c == e)
			continue;
		if (e->type == NSAUDIT_NS_USER && c->k.owner_inum == e->inum && !all) {
			ns_label(lab2, sizeof(lab2), c->type, c->inum);
			line_add(&l, "child   %s (%s)", lab2,
				 c->type == NSAUDIT_NS_USER ? "nested user namespace" : "owned");
		} else if (e->type == NSAUDIT_NS_PID && c->type == NSAUDIT_NS_PID &&
			   c->k.parent_inum == e->inum) {
			ns_label(lab2, sizeof(lab2), c->type, c->inum);
			line_add(&l, "child   %s (nested pid namespace)", lab2);
		}
	}
	for (i = 0; i < l.n; i++) {
		printf("%s%s %s\n", indent, i + 1 < l.n ? "├─" : "└─", l.v[i]);
		free(l.v[i]);
	}
	free(l.v);
}

static int ns_cmp(const void *a, const void *b)
{
	const struct ns_ent *x = a, *y = b;

	if (x->type != y->type)
		return x->type - y->type;
	return x->inum < y->inum ? -1 : x->inum > y->inum;
}

/* lsns -T style: a user namespace, what it owns, then its children. */
static void print_tree(struct model *m, struct ns_ent *u, int depth)
{
	char indent[64];
	size_t i;
	int d;

	indent[0] = '\0';
	for (d = 0; d < depth && d < 15; d++)
		strcat(indent, "    ");
	print_ns(m, u, indent, true);
	strcat(indent, "    ");
	for (i = 0; i < m->nns; i++) {
		struct ns_ent *c = &m->ns[i];

		if (c->printed || c->type == NSAUDIT_NS_USER || !c->known ||
		    c->k.owner_inum != u->inum)
			continue;
		print_ns(m, c, indent, true);
	}
	for (i = 0; i < m->nns; i++) {
		struct ns_ent *c = &m->ns[i];

		if (!c->printed && c->type == NSAUDIT_NS_USER && c->known &&
		    c->k.parent_inum == u->inum)
			print_tree(m, c, depth + 1);
	}
}

static void print_notes(const struct model *m, FILE *f)
{
	size_t i;

	for (i = 0; i < m->mounts.nunread; i++)
		fprintf(f, "note: mount namespace mnt:[%u] not read: %s\n",
			m->mounts.unread[i].inum, m->mounts.unread[i].why);
}

/* ---- command ----------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f, "Usage: nsaudit holders NS [--format text|json]\n"
		   "       nsaudit holders --all [--format text|json]\n\n"
		   "List everything that keeps a namespace alive, and reconcile it with the\n"
		   "kernel's reference count (read by BPF iterators):\n"
		   "  task    threads in it (pid/time: also *_for_children)\n"
		   "  fd      open namespace files, and how they were opened\n"
		   "  mount   bind mounts of it, in every mount namespace\n"
		   "  socket  sockets in it (net)\n"
		   "  child   namespaces it owns (user) or that are nested in it (pid, user)\n\n"
		   "NS is TYPE:INODE, TYPE:[INODE], PID:TYPE, a path (/proc/PID/ns/TYPE,\n"
		   "/run/netns/NAME, any bind-mounted namespace file) or an ip netns name.\n"
		   "A namespace with no name left is found by TYPE:INODE. Exit status 1 when\n"
		   "it does not exist.\n\n"
		   "Reference accounting (refs = ...): one per nsproxy naming it, however many\n"
		   "tasks share that nsproxy; one for the nsfs dentry, shared by all fds and\n"
		   "bind mounts; one per socket (net); one per thread's struct pid (pid); one\n"
		   "per cred and per owned namespace (user); the rest is unattributed.\n\n"
		   "Options:\n"
		   "  --all            every namespace on the machine, as a tree by owning\n"
		   "                   user namespace\n"
		   "  --format FMT     text (default) or json (one object per namespace per line)\n"
		   "  -h, --help       this help\n\n"
		   "Examples:\n"
		   "  nsaudit holders blue                     # ip netns blue\n"
		   "  nsaudit holders /run/netns/blue --format json\n"
		   "  nsaudit holders net:4026532289           # after 'ip netns del'\n"
		   "  nsaudit holders 1234:pid\n"
		   "  nsaudit holders --all\n");
}

static void mntns_refs(const struct holders_scan *s, struct mntns_ref **out, size_t *n)
{
	struct mntns_ref *v = calloc(s->ntasks + s->nfiles + 1, sizeof(*v));
	size_t i, k = 0;

	*out = v;
	*n = 0;
	if (!v)
		return;
	for (i = 0; i < s->ntasks; i++)
		if (s->tasks[i].ns[NSAUDIT_NS_MNT].inum &&
		    !(s->tasks[i].flags & HOLDERS_TF_KTHREAD))
			v[k++] = (struct mntns_ref){s->tasks[i].ns[NSAUDIT_NS_MNT].inum,
						    (pid_t)s->tasks[i].tid, -1};
	for (i = 0; i < s->nfiles; i++)
		if (s->files[i].kind == HOLDERS_FILE_NSFS &&
		    type_of_flag(s->files[i].ns.clone_flag) == NSAUDIT_NS_MNT)
			v[k++] = (struct mntns_ref){s->files[i].ns.inum, (pid_t)s->files[i].pid,
						    (int)s->files[i].fd};
	*n = k;
}

/*
 * Scan everything and build the namespace table, sorted. 0, or -1 with err
 * (m must then still be freed with model_free).
 */
static int model_load(struct model *m, char *err, size_t errlen)
{
	struct holders_scan first;
	struct mntns_ref *refs;
	size_t nrefs;

	m->self = getpid();
	/* 1. where are the mount namespaces? 2. read their nsfs mounts and open
	 * them; 3. scan again, now seeing mount-only namespaces too. */
	if (holders_scan_run(&first, err, errlen))
		return -1;
	mntns_refs(&first, &refs, &nrefs);
	if (holders_mounts_read(refs, nrefs, &m->mounts)) {
		free(refs);
		holders_scan_free(&first);
		snprintf(err, errlen, "reading mount tables: %s", strerror(ENOMEM));
		return -1;
	}
	free(refs);
	holders_scan_free(&first);
	if (holders_scan_run(&m->scan, err, errlen))
		return -1;
	holders_mounts_release(&m->mounts);
	if (build(m)) {
		snprintf(err, errlen, "building the namespace table: %s", strerror(ENOMEM));
		return -1;
	}
	qsort(m->ns, m->nns, sizeof(*m->ns), ns_cmp);
	m->names = nsnames_new();
	return 0;
}

static void model_free(struct model *m)
{
	nsnames_free(m->names);
	holders_mounts_free(&m->mounts);
	holders_scan_free(&m->scan);
	free(m->ns);
}

int holders_now(int type, uint32_t inum, const char *indent, json_object **json, uint64_t *ns_id,
		char *err, size_t errlen)
{
	struct model m = {0};
	struct ns_ent *e;
	int ret = 0;

	*ns_id = 0;
	if (json)
		*json = NULL;
	if (model_load(&m, err, errlen)) {
		model_free(&m);
		return -1;
	}
	e = ns_find(&m, type, inum);
	if (e) {
		ret = 1;
		if (e->known)
			*ns_id = e->k.ns_id;
		if (json)
			*json = ns_json(&m, e);
		else {
			print_ns(&m, e, indent, false);
			print_notes(&m, stdout);
		}
	}
	model_free(&m);
	return ret;
}

int cmd_holders(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"all", no_argument, NULL, 'a'},
	    {"format", required_argument, NULL, 'f'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct model m = {0};
	struct nsspec spec;
	struct ns_ent *target = NULL;
	bool all = false, json = false;
	char err[512];
	size_t i;
	int c, ret = 1;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "af:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			all = true;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				json = true;
			else if (strcmp(optarg, "text")) {
				ERR("--format: unknown format '%.32s' (text, json)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			if (optopt == 'f')
				ERR("--format: needs a value (text, json)");
			else
				ERR("%s: unknown option (try 'nsaudit holders --help')",
				    argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (all == (optind < argc) || argc - optind > 1) {
		ERR("%s (try 'nsaudit holders --help')", all ? "give either NS or --all, not both"
							     : "which namespace? give NS or --all");
		return EXIT_USAGE;
	}
	if (!all && nsspec_parse(argv[optind], true, &spec, err, sizeof(err))) {
		/* a spec that does not parse is a usage error; a path or pid
		 * that does not resolve means the namespace is not there */
		ERR("%s", err);
		return strchr(argv[optind], '/') || errno == ENOENT || errno == ESRCH ? 1
										      : EXIT_USAGE;
	}

	if (model_load(&m, err, sizeof(err))) {
		ERR("%s", err);
		goto out;
	}

	if (!all) {
		char lab[48];

		target = ns_find(&m, spec.type, spec.inum);
		ns_label(lab, sizeof(lab), spec.type, spec.inum);
		if (!target) {
			ERR("%s: no such namespace (no task, fd, bind mount, socket or child "
			    "namespace holds it)",
			    spec.type >= 0 ? lab : argv[optind]);
			goto out;
		}
	}
	if (json) {
		for (i = 0; i < m.nns; i++) {
			json_object *o;

			if (target && &m.ns[i] != target)
				continue;
			o = ns_json(&m, &m.ns[i]);
			puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
			json_object_put(o);
		}
		print_notes(&m, stderr);
	} else if (target) {
		print_ns(&m, target, "", false);
		print_notes(&m, stdout);
	} else {
		for (i = 0; i < m.nns; i++)
			if (m.ns[i].type == NSAUDIT_NS_USER && m.ns[i].known &&
			    !ns_find(&m, NSAUDIT_NS_USER, m.ns[i].k.parent_inum))
				print_tree(&m, &m.ns[i], 0);
		for (i = 0; i < m.nns; i++)
			if (!m.ns[i].printed)
				print_ns(&m, &m.ns[i], "", true);
		print_notes(&m, stdout);
	}
	ret = 0;
out:
	model_free(&m);
	return ret;
}
