// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* holders_text.c - a namespace and its holders as readable lines, the --all
 * tree by owning user namespace, and the notes on what could not be read. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "holders_fmt.h"
#include "holders_model.h"
#include "enrich/nsnames.h"
#include "array.h"
#include "nstype.h"

struct tprint {
	const struct model *m;
	const char *indent;
	bool all;
	bool started;
};

/* Holder lines are collected, then printed with ├─/└─ so the last is known. */
struct lines {
	char **v;
	size_t n, cap;
};

static void line_add(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line_add(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	if (ARRAY_RESERVE(&l->v, &l->cap, l->n + 1)) {
		free(s);
		return;
	}
	l->v[l->n++] = s;
}

/* comm and paths are hostile: print control characters as \xNN. */
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

/* Whether task t is in e (or gives it to its children: *fc). */
static bool task_in(const struct ns_ent *e, const struct holders_task *t, bool *fc)
{
	int kid = e->type == NSAUDIT_NS_PID    ? HOLDERS_SLOT_PID_CHILDREN
		  : e->type == NSAUDIT_NS_TIME ? HOLDERS_SLOT_TIME_CHILDREN
					       : -1;
	bool in = t->ns[e->type].inum == e->inum;

	*fc = !in && kid >= 0 && t->ns[kid].inum == e->inum;
	return in || *fc;
}

/* One line per process in e, its threads counted; with all, at most
 * ALL_TASK_LINES of them and a count of the rest. */
static void task_lines(const struct model *m, const struct ns_ent *e, const char *lab, bool all,
		       struct lines *l)
{
	const struct holders_scan *s = &m->scan;
	size_t i, j, shown = 0, hidden = 0, kthreads = 0;
	char comm[512], nthreads[32];

	for (i = 0; i < s->ntasks; i++) {
		const struct holders_task *t = &s->tasks[i];
		int threads = 0;
		bool fc, fc2, seen = false;

		if (!task_in(e, t, &fc) || is_ours(m, t->pid))
			continue;
		if (t->flags & HOLDERS_TF_KTHREAD) {
			kthreads++;
			continue;
		}
		for (j = 0; j < i && !seen; j++)
			seen = s->tasks[j].pid == t->pid && task_in(e, &s->tasks[j], &fc2);
		if (seen)
			continue;
		for (j = i; j < s->ntasks; j++)
			threads += s->tasks[j].pid == t->pid && task_in(e, &s->tasks[j], &fc2);
		if (all && shown >= ALL_TASK_LINES) {
			hidden++;
			continue;
		}
		shown++;
		snprintf(nthreads, sizeof(nthreads), " (%d threads)", threads);
		line_add(l, "task    pid %d %s%s%s", t->pid,
			 audit_text_escape_buf(t->comm, comm, sizeof(comm)),
			 threads > 1 ? nthreads : "",
			 fc ? (e->type == NSAUDIT_NS_PID ? "  (pid_for_children)"
							 : "  (time_for_children)")
			    : "");
	}
	if (kthreads)
		line_add(l, "task    %zu kernel threads (--format json lists them)", kthreads);
	if (hidden)
		line_add(l, "task    ... and %zu more processes (nsaudit holders %s lists all)",
			 hidden, lab);
}

/* Open namespace files of e, and sockets in it (net). */
static void file_lines(const struct model *m, const struct ns_ent *e, struct lines *l)
{
	const struct holders_scan *s = &m->scan;
	char comm[512], via[4200], via_esc[8400];
	size_t i;

	for (i = 0; i < s->nfiles; i++) {
		const struct holders_file *f = &s->files[i];

		if (f->ns.inum != e->inum || is_ours(m, f->pid))
			continue;
		audit_text_escape_buf(f->comm, comm, sizeof(comm));
		if (f->kind == HOLDERS_FILE_NSFS && type_of_flag(f->ns.clone_flag) == e->type) {
			fd_via(f, via, sizeof(via));
			line_add(l, "fd      pid %u fd %u %s  via %s", f->pid, f->fd, comm,
				 audit_text_escape_buf(via, via_esc, sizeof(via_esc)));
		} else if (f->kind == HOLDERS_FILE_SOCKET && e->type == NSAUDIT_NS_NET) {
			sock_describe(via, sizeof(via), f->family, f->type, f->protocol);
			line_add(l, "socket  pid %u fd %u %s  %s%s", f->pid, f->fd, comm, via,
				 f->net_ref ? "" : " (kernel socket: holds no reference)");
		}
	}
}

/* Bind mounts of e, in every mount namespace. */
static void mount_lines(const struct model *m, const struct ns_ent *e, struct lines *l)
{
	char path[8400], mnt[48];
	size_t i;

	for (i = 0; i < m->mounts.n; i++) {
		const struct holders_mount *hm = &m->mounts.v[i];

		if (hm->inum != e->inum || hm->type != e->type)
			continue;
		nstype_label(mnt, sizeof(mnt), NSAUDIT_NS_MNT, hm->mnt_ns);
		line_add(l, "mount   %s in %s%s",
			 hm->path[0] ? audit_text_escape_buf(hm->path, path, sizeof(path))
				     : "(path not read)",
			 mnt, hm->taskless ? " (a mount namespace no task is in)" : "");
	}
}

/* Namespaces e owns (user; not with all: the tree shows them) or that are
 * nested in it (pid). */
static void child_lines(const struct model *m, const struct ns_ent *e, bool all, struct lines *l)
{
	char lab[48];
	size_t i;

	for (i = 0; i < m->nns; i++) {
		const struct ns_ent *c = &m->ns[i];

		if (!c->known || c == e)
			continue;
		if (e->type == NSAUDIT_NS_USER && c->k.owner_inum == e->inum && !all) {
			nstype_label(lab, sizeof(lab), c->type, c->inum);
			line_add(l, "child   %s (%s)", lab,
				 c->type == NSAUDIT_NS_USER ? "nested user namespace" : "owned");
		} else if (e->type == NSAUDIT_NS_PID && c->type == NSAUDIT_NS_PID &&
			   c->k.parent_inum == e->inum) {
			nstype_label(lab, sizeof(lab), c->type, c->inum);
			line_add(l, "child   %s (nested pid namespace)", lab);
		}
	}
}

void print_ns(const struct model *m, struct ns_ent *e, const char *indent, bool all)
{
	struct lines l = {0};
	const char *name;
	char lab[48], acct[8400];
	size_t i;

	e->printed = true;
	nstype_label(lab, sizeof(lab), e->type, e->inum);
	acct_text(e, acct, sizeof(acct));
	printf("%s%s", indent, lab);
	if (m->names && (name = nsnames_lookup(m->names, e->type, e->inum, 0))) {
		fputc(' ', stdout);
		audit_text_quote(stdout, name);
	}
	if (e->known && e->k.ns_id)
		printf(" id %llu", (unsigned long long)e->k.ns_id);
	printf("  %s\n", acct);

	task_lines(m, e, lab, all, &l);
	file_lines(m, e, &l);
	mount_lines(m, e, &l);
	child_lines(m, e, all, &l);
	for (i = 0; i < l.n; i++) {
		printf("%s%s %s\n", indent, i + 1 < l.n ? "├─" : "└─", l.v[i]);
		free(l.v[i]);
	}
	free(l.v);
}

/* lsns -T style: a user namespace, what it owns, then its children. */
void print_tree(struct model *m, struct ns_ent *u, int depth)
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

void print_notes(const struct model *m, FILE *f)
{
	size_t i;

	for (i = 0; i < m->mounts.nunread; i++)
		fprintf(f, "note: mount namespace mnt:[%u] not read: %s\n",
			m->mounts.unread[i].inum, m->mounts.unread[i].why);
}
