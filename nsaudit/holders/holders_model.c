// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * holders_model.c - who keeps a namespace alive: the model behind "nsaudit holders"
 * (nsaudit/cmd/cmd_holders.c) and "nsaudit lifetime" (holders_now.c).
 *
 * Two BPF iterators (bpf/holders.bpf.c) list every thread's namespaces and
 * every open nsfs file and socket, each namespace with the kernel's
 * reference count, and every mount namespace's nsfs mounts (walked in the
 * kernel's mount tree: holders_mounts.c says why nothing is opened or
 * entered). The references are then reconciled with the holders found:
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
 *
 * Output is in holders_json.c and holders_text.c, which call the model
 * (never the other way round); holders_model.h is what the parts share.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "holders_model.h"
#include "enrich/nsnames.h"
#include "array.h"
#include "nstype.h"

const char *const acct_names[ACCT_MAX] = {
    [ACCT_NSPROXY] = "nsproxy", [ACCT_DENTRY] = "nsfs_dentry", [ACCT_SOCKET] = "socket",
    [ACCT_PID] = "struct_pid",	[ACCT_CRED] = "cred",	       [ACCT_CHILD] = "child",
};

int type_of_flag(uint32_t flag)
{
	return nstype_from_clone_flag(flag);
}

int slot_type(int slot)
{
	if (slot == HOLDERS_SLOT_PID_CHILDREN)
		return NSAUDIT_NS_PID;
	if (slot == HOLDERS_SLOT_TIME_CHILDREN)
		return NSAUDIT_NS_TIME;
	return slot;
}

struct ns_ent *ns_find(struct model *m, int type, uint32_t inum)
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

	if (e || !inum || type < 0)
		return e;
	if (ARRAY_RESERVE(&m->ns, &m->capns, m->nns + 1))
		return NULL;
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

bool is_ours(const struct model *m, pid_t pid)
{
	return pid == m->self;
}

/* Every namespace the scan and the mounts name, and their owners and
 * parents. 0, or -1 out of memory. */
static int collect(struct model *m)
{
	struct holders_scan *s = &m->scan;
	size_t i;
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
	for (i = 0; i < m->mounts.n; i++) {
		if (!ns_add(m, m->mounts.v[i].type, m->mounts.v[i].inum))
			return -1;
		ns_note(m, m->mounts.v[i].type, &m->mounts.v[i].k);
	}
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
	return 0;
}

/* ACCT_NSPROXY and ACCT_PID: one per distinct nsproxy naming e (user and
 * pid are not held by it), one per thread whose struct pid is in e. */
static void count_tasks(const struct holders_scan *s, struct ns_ent *e)
{
	size_t j, p;
	int k;

	for (j = 0; j < s->ntasks; j++) {
		const struct holders_task *t = &s->tasks[j];
		bool dup = false;

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
}

/* ACCT_SOCKET: one per distinct socket in net namespace e that took a
 * reference (sk_net_refcnt). */
static void count_sockets(const struct holders_scan *s, struct ns_ent *e)
{
	size_t j, p;

	for (j = 0; j < s->nfiles; j++) {
		const struct holders_file *f = &s->files[j];
		bool dup = false;

		if (f->kind != HOLDERS_FILE_SOCKET || f->ns.inum != e->inum || !f->net_ref)
			continue;
		for (p = 0; p < j && !dup; p++)
			dup = s->files[p].kind == HOLDERS_FILE_SOCKET &&
			      s->files[p].sock_ino == f->sock_ino;
		e->acct[ACCT_SOCKET] += !dup;
	}
}

/* ACCT_CHILD: namespaces e owns (user) or that are nested in it (pid). */
static void count_children(const struct model *m, struct ns_ent *e)
{
	size_t j;

	for (j = 0; j < m->nns; j++) {
		const struct ns_ent *c = &m->ns[j];

		if (!c->known || c == e)
			continue;
		if (e->type == NSAUDIT_NS_USER && c->k.owner_inum == e->inum)
			e->acct[ACCT_CHILD]++;
		else if (e->type == NSAUDIT_NS_PID && c->type == NSAUDIT_NS_PID &&
			 c->k.parent_inum == e->inum)
			e->acct[ACCT_CHILD]++;
	}
}

/* The reference accounting of e (see the top of this file). */
static void account(struct model *m, struct ns_ent *e)
{
	const struct holders_scan *s = &m->scan;
	size_t j;

	/* get_pid_ns()/put_pid_ns() skip the initial pid namespace:
	 * nothing but the dentry is counted on it */
	if (e->type == NSAUDIT_NS_PID && e->known && !e->k.parent_inum) {
		e->acct[ACCT_DENTRY] = e->k.has_dentry;
		return;
	}
	e->acct[ACCT_DENTRY] = e->known && e->k.has_dentry;
	count_tasks(s, e);
	if (e->type == NSAUDIT_NS_USER)
		for (j = 0; j < s->ncreds; j++)
			e->acct[ACCT_CRED] += s->creds[j].user_inum == e->inum;
	if (e->type == NSAUDIT_NS_NET)
		count_sockets(s, e);
	count_children(m, e);
}

/* Build the namespace table from the scan and the mounts. */
static int build(struct model *m)
{
	size_t i;

	if (collect(m))
		return -1;
	for (i = 0; i < m->nns; i++)
		account(m, &m->ns[i]);
	return 0;
}

long explained(const struct ns_ent *e)
{
	long n = 0;
	int a;

	for (a = 0; a < ACCT_MAX; a++)
		n += e->acct[a];
	return n;
}

const char *fd_via(const struct holders_file *f, char *buf, size_t len)
{
	char mns[48];

	if (f->mnt_ns_inum) {
		nstype_label(mns, sizeof(mns), NSAUDIT_NS_MNT, f->mnt_ns_inum);
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

static int ns_cmp(const void *a, const void *b)
{
	const struct ns_ent *x = a, *y = b;

	if (x->type != y->type)
		return x->type - y->type;
	return x->inum < y->inum ? -1 : x->inum > y->inum;
}

/* One task per mount namespace a task is in (the mount namespaces whose
 * mountinfo names the paths of their nsfs mounts). */
static void mntns_refs(const struct holders_scan *s, struct mntns_ref **out, size_t *n)
{
	struct mntns_ref *v = calloc(s->ntasks + 1, sizeof(*v));
	size_t i, k = 0;

	*out = v;
	*n = 0;
	if (!v)
		return;
	for (i = 0; i < s->ntasks; i++)
		if (s->tasks[i].ns[NSAUDIT_NS_MNT].inum &&
		    !(s->tasks[i].flags & HOLDERS_TF_KTHREAD))
			v[k++] = (struct mntns_ref){s->tasks[i].ns[NSAUDIT_NS_MNT].inum,
						    (pid_t)s->tasks[i].tid};
	*n = k;
}

int model_load(struct model *m, char *err, size_t errlen)
{
	struct mntns_ref *refs;
	size_t nrefs;

	m->self = getpid();
	/* one scan: tasks, files, and the nsfs mounts of every mount
	 * namespace met (walked in the kernel; nothing is opened or held),
	 * then the mount points' paths */
	if (holders_scan_run(&m->scan, err, errlen))
		return -1;
	mntns_refs(&m->scan, &refs, &nrefs);
	if (!refs || holders_mounts_read(&m->scan, refs, nrefs, &m->mounts)) {
		free(refs);
		snprintf(err, errlen, "reading mount tables: %s", strerror(ENOMEM));
		return -1;
	}
	free(refs);
	if (build(m)) {
		snprintf(err, errlen, "building the namespace table: %s", strerror(ENOMEM));
		return -1;
	}
	qsort(m->ns, m->nns, sizeof(*m->ns), ns_cmp);
	m->names = nsnames_new();
	return 0;
}

void model_free(struct model *m)
{
	nsnames_free(m->names);
	holders_mounts_free(&m->mounts);
	holders_scan_free(&m->scan);
	free(m->ns);
}

