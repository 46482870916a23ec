// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * enrich_denied.c - a refused open of a namespace file names the namespace
 * it tried to pin. The kernel side has only the path (the access check
 * refused it before any file was opened): PID/ns/TYPE through any procfs
 * mount (/proc, a host's /proc mounted again at /hp in a container, "ns/net"
 * relative to a /proc/PID dirfd). A relative one the kernel side resolved
 * at the call (the directory's proc inode names the task); any other's
 * namespace is read as soon as the record is read:
 *
 * - through the actor's own root and working directory
 *   (/proc/ACTOR/root/hp/PID/ns/TYPE): the procfs it used, whatever its pid
 *   namespace;
 * - else through our /proc when the path is /proc's or the actor shares
 *   our pid namespace (its procfs numbers processes as ours does);
 * - else, where /proc refuses us too (a PID 1 that belongs to a sandbox),
 *   the task's namespaces as the kernel has them (an iter/task snapshot,
 *   at most a few times a second).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "array.h"
#include "clock.h"
#include "enrich_impl.h"
#include "nstype.h"

/* snapshots of every task's namespaces at most this often */
#define TASK_SNAP_MIN_NS (200 * 1000000LL)

void enrich_set_task_iter(struct enrich *en, int link_fd)
{
	en->task_iter_fd = link_fd;
}

/* The namespace of a task as the kernel has it (our /proc refused us). */
static uint32_t task_ns_by_iter(struct enrich *en, uint32_t pid, int type)
{
	int64_t now = clock_ns(CLOCK_MONOTONIC);
	struct nsaudit_task_snap s;
	size_t i;
	int fd;

	if (now - en->tasks_at_ns >= TASK_SNAP_MIN_NS && en->task_iter_fd >= 0) {
		en->tasks_at_ns = now;
		en->ntasks = 0;
		fd = bpf_iter_create(en->task_iter_fd);
		while (fd >= 0 && read(fd, &s, sizeof(s)) == sizeof(s)) {
			if (s.tid != s.pid)
				continue;
			if (ARRAY_RESERVE(&en->tasks, &en->captasks, en->ntasks + 1))
				break;
			en->tasks[en->ntasks].pid = s.pid;
			memcpy(en->tasks[en->ntasks].inum, s.inum, sizeof(s.inum));
			en->ntasks++;
		}
		if (fd >= 0)
			close(fd);
	}
	for (i = 0; i < en->ntasks; i++)
		if (en->tasks[i].pid == pid)
			return en->tasks[i].inum[type];
	return 0;
}

const char *ns_path_part(const char *path, int *type, bool *children, long *pid)
{
	static const char sfx[] = "_for_children";
	const char *ns = NULL, *p, *start;
	char name[32];
	size_t n;
	char *end;

	if (!strncmp(path, "ns/", 3))
		ns = path;
	for (p = path; (p = strstr(p, "/ns/")); p++)
		ns = p + 1;
	if (!ns)
		return NULL;
	n = strlen(ns + 3);
	if (!n || n >= sizeof(name) || strchr(ns + 3, '/'))
		return NULL;
	memcpy(name, ns + 3, n + 1);
	*children = n > sizeof(sfx) - 1 && !strcmp(name + n - (sizeof(sfx) - 1), sfx);
	if (*children)
		name[n - (sizeof(sfx) - 1)] = '\0';
	*type = nstype_from_name(name);
	if (*type < 0 || (*children && *type != NSAUDIT_NS_PID && *type != NSAUDIT_NS_TIME))
		return NULL;
	*pid = 0;
	if (ns == path)
		return ns;
	/* the component before: a TID under task/, or the PID */
	for (start = ns - 1; start > path && start[-1] != '/'; start--)
		;
	if (start >= path + 6 && !strncmp(start - 5, "task/", 5))
		for (start -= 6; start > path && start[-1] != '/'; start--)
			;
	if (!strncmp(start, "self/", 5) || !strncmp(start, "thread-self/", 12)) {
		*pid = -1;
		return ns;
	}
	*pid = strtol(start, &end, 10);
	/* DIR/ns/net where DIR is no process: some other file */
	if (end == start || *end != '/' || *pid <= 0 || *pid > INT_MAX)
		return NULL;
	return ns;
}

static bool stat_ns(const char *path, uint32_t *inum)
{
	struct stat st;

	if (stat(path, &st) || st.st_ino > UINT32_MAX)
		return false;
	*inum = (uint32_t)st.st_ino;
	return true;
}

static bool same_pidns(const struct nsaudit_event *e)
{
	struct stat st;

	return e->actor_pidns && !stat("/proc/self/ns/pid", &st) && st.st_ino == e->actor_pidns;
}

bool enrich_complete_denied(struct enrich *en, struct nsaudit_event *e)
{
	bool children, ours = !strncmp(e->path, "/proc/", 6);
	char path[PATH_MAX];
	const char *ns;
	uint32_t inum = 0;
	int type;
	long pid;

	/* "ns/TYPE" relative to a /proc/PID directory: the kernel side read
	 * the namespace at the call (bpf/nsaudit/attempts.bpf.h) */
	if (e->flags & NSAUDIT_F_HAS_NS)
		return true;
	/* longer than the record holds: its end (type, pid) is not the
	 * path's; the attempt is kept, naming nothing */
	if (e->flags & NSAUDIT_F_PATH_CUT)
		return true;
	ns = ns_path_part(e->path, &type, &children, &pid);
	if (!ns)
		return false;
	e->ns_type = (uint32_t)type;
	if (children)
		e->flags |= NSAUDIT_F_FOR_CHILDREN;
	if (pid == -1)
		e->target_pid = (int)e->pid;
	else if (pid > 0 && (same_pidns(e) || (ours && !e->actor_pidns)))
		e->target_pid = (int)pid;
	/* the procfs the actor used, seen from its root or working directory */
	snprintf(path, sizeof(path), "/proc/%u/%s%s", e->pid, e->path[0] == '/' ? "root" : "cwd/",
		 e->path);
	if (pid != -1 && stat_ns(path, &inum))
		goto found;
	/* ours: self and thread-self mean the caller, not us */
	if (pid == -1)
		snprintf(path, sizeof(path), "/proc/%u/task/%u/%s", e->pid, e->tid, ns);
	else if (e->target_pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/%s", e->target_pid, ns);
	else
		return true;	/* the type only: a procfs we cannot see into */
	if (stat_ns(path, &inum))
		goto found;
	if (errno == ENOENT)	/* gone */
		return true;
	/* /proc refuses us too: the kernel's own view of the task */
	inum = task_ns_by_iter(en, pid == -1 ? e->pid : (uint32_t)e->target_pid, type);
	if (!inum)
		return true;
found:
	e->ns_inum = inum;
	e->flags |= NSAUDIT_F_HAS_NS;
	return true;
}
