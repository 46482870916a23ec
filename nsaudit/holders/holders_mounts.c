// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * holders_mounts.c - nsfs bind mounts in every mount namespace.
 *
 * BPF has no mount iterator, so the mount tables come from
 * /proc/PID/mountinfo of one task per mount namespace. A mount namespace no
 * task is in (kept alive by an fd or by a bind mount of it) is read by a
 * helper child that setns()es into it and reads its own mountinfo.
 *
 * Every nsfs mount found is opened (by us, or by the helper from inside its
 * namespace) and kept open during the BPF scan: the open file then shows
 * the namespace to iter/task_file, which reads its reference count. The
 * open adds no reference: the mount already pins the namespace's nsfs
 * dentry, and all fds and mounts share that one dentry.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "holders_lib.h"
#include "enrich/mountinfo.h"
#include "array.h"
#include "nstype.h"
#include "io.h"

static int push_mount(struct holders_mounts *m, const struct holders_mount *hm)
{
	if (ARRAY_RESERVE(&m->v, &m->cap, m->n + 1))
		return -1;
	m->v[m->n++] = *hm;
	return 0;
}

static void push_unread(struct holders_mounts *m, uint32_t inum, const char *why)
{
	if (ARRAY_RESERVE(&m->unread, &m->capunread, m->nunread + 1))
		return;
	m->unread[m->nunread].inum = inum;
	snprintf(m->unread[m->nunread].why, sizeof(m->unread[0].why), "%s", why);
	m->nunread++;
}

static void push_fd(struct holders_mounts *m, int fd)
{
	if (ARRAY_RESERVE(&m->fds, &m->capfds, m->nfds + 1)) {
		close(fd);
		return;
	}
	m->fds[m->nfds++] = fd;
}

/* Parse a whole mountinfo text of mount namespace mnt_ns into m. */
static int add_table(struct holders_mounts *m, uint32_t mnt_ns, pid_t via_pid, FILE *f)
{
	struct mountinfo_line *ml = malloc(sizeof(*ml));
	struct holders_mount *hm = malloc(sizeof(*hm));
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!ml || !hm) {
		free(ml);
		free(hm);
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		if (mountinfo_parse_line(line, ml) || strcmp(ml->fstype, "nsfs"))
			continue;
		memset(hm, 0, sizeof(*hm));
		if (nsfs_root_parse(ml->root, &hm->type, &hm->inum))
			continue;
		hm->mnt_ns = mnt_ns;
		hm->mount_id = ml->mount_id;
		hm->via_pid = via_pid;
		snprintf(hm->path, sizeof(hm->path), "%s", ml->path);
		if (push_mount(m, hm)) {
			ret = -1;
			break;
		}
	}
	free(line);
	free(ml);
	free(hm);
	return ret;
}

static bool known_mntns(const uint32_t *seen, size_t n, uint32_t inum)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (seen[i] == inum)
			return true;
	return false;
}

/*
 * The helper child: enter mount namespace nsfd, open every nsfs mount there
 * (so that the parent's BPF scan sees them), send its mountinfo on out,
 * then hold the files open until ctl is closed.
 */
static void __attribute__((noreturn)) taskless_helper(int nsfd, int out, int ctl)
{
	int proc = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC), mi;
	char buf[8192], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *in;

	if (proc < 0 || setns(nsfd, CLONE_NEWNS))
		_exit(1);
	mi = openat(proc, "mountinfo", O_RDONLY | O_CLOEXEC);
	if (mi < 0)
		_exit(1);
	in = fdopen(mi, "r");
	while (in && getline(&line, &cap, in) > 0) {
		struct mountinfo_line ml;
		int t;
		uint32_t x;

		if (!mountinfo_parse_line(line, &ml) && !strcmp(ml.fstype, "nsfs") &&
		    !nsfs_root_parse(ml.root, &t, &x))
			open(ml.path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	}
	if (in)
		rewind(in);
	while (in && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (write_all(out, buf, n))
			_exit(1);
	close(out);
	/* Hold the files open until the parent has scanned. */
	while (read(ctl, buf, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

static void stop_helper(pid_t pid, int ctl)
{
	close(ctl);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * A mount namespace no task is in: a helper child enters it through nsfd,
 * writes its mountinfo to a pipe, opens every nsfs mount point, and waits
 * (holding them open) until we close the control pipe.
 */
static int read_taskless(struct holders_mounts *m, uint32_t inum, int nsfd)
{
	int data[2], ctl[2], st;
	size_t first = m->n, i;
	pid_t pid;
	FILE *f;

	if (pipe2(data, O_CLOEXEC))
		return -1;
	if (pipe2(ctl, O_CLOEXEC)) {
		close(data[0]);
		close(data[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		close(data[0]);
		close(data[1]);
		close(ctl[0]);
		close(ctl[1]);
		return -1;
	}
	if (pid == 0) {
		close(data[0]);
		close(ctl[1]);
		taskless_helper(nsfd, data[1], ctl[0]);
	}
	close(data[1]);
	close(ctl[0]);
	f = fdopen(data[0], "r");
	if (!f || add_table(m, inum, 0, f)) {
		if (f)
			fclose(f);
		else
			close(data[0]);
		stop_helper(pid, ctl[1]);
		return -1;
	}
	fclose(f);
	if (m->n == first) {
		/* Either no nsfs mounts, or the helper could not read the table. */
		close(ctl[1]);
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			push_unread(m, inum, "could not enter it to read its mount table");
		return 0;
	}
	for (i = first; i < m->n; i++)
		m->v[i].via_pid = 0;
	if (ARRAY_RESERVE(&m->helpers, &m->caphelpers, m->nhelpers + 1)) {
		stop_helper(pid, ctl[1]);
		return -1;
	}
	m->helpers[m->nhelpers++] = pid;
	/* the write end of ctl stays open: keep it with our fds */
	push_fd(m, ctl[1]);
	return 0;
}

int holders_mounts_read(const struct mntns_ref *refs, size_t nrefs, struct holders_mounts *m)
{
	char path[4096 + 64];
	size_t nseen = 0, capseen = nrefs + 1, i, scanned;
	uint32_t *seen;

	memset(m, 0, sizeof(*m));
	seen = calloc(capseen, sizeof(*seen));
	if (!seen)
		return -1;
	/* 1. mount namespaces tasks are in: read through one of their tasks */
	for (i = 0; i < nrefs; i++) {
		FILE *f;

		if (refs[i].fd >= 0 || known_mntns(seen, nseen, refs[i].inum))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/mountinfo", refs[i].pid);
		f = fopen(path, "re");
		if (!f)
			continue; /* the task exited: another of the same ns may do */
		if (add_table(m, refs[i].inum, refs[i].pid, f)) {
			fclose(f);
			free(seen);
			return -1;
		}
		fclose(f);
		seen[nseen++] = refs[i].inum;
	}
	/* 2. task-less mount namespaces pinned by fds */
	for (i = 0; i < nrefs; i++) {
		int fd;

		if (refs[i].fd < 0 || known_mntns(seen, nseen, refs[i].inum))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", refs[i].pid, refs[i].fd);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (read_taskless(m, refs[i].inum, fd)) {
			close(fd);
			free(seen);
			return -1;
		}
		close(fd);
		seen[nseen++] = refs[i].inum;
	}
	/* 3. open every nsfs mount visible from a task; task-less mount
	 * namespaces bind-mounted there are read like the fd-pinned ones */
	scanned = m->n;
	for (i = 0; i < scanned; i++) {
		struct holders_mount *hm = &m->v[i];
		int fd;

		if (!hm->via_pid)
			continue; /* a helper holds it open already */
		snprintf(path, sizeof(path), "/proc/%d/root%s", hm->via_pid, hm->path);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			continue;
		if (hm->type == NSAUDIT_NS_MNT && !known_mntns(seen, nseen, hm->inum)) {
			if (!ARRAY_RESERVE(&seen, &capseen, nseen + 1)) {
				seen[nseen++] = hm->inum;
				if (read_taskless(m, hm->inum, fd))
					break;
				hm = &m->v[i]; /* m->v may have moved */
			}
		}
		push_fd(m, fd);
	}
	/* Mount namespaces bind-mounted only inside task-less ones are not
	 * followed further. */
	for (i = scanned; i < m->n; i++)
		if (m->v[i].type == NSAUDIT_NS_MNT && !known_mntns(seen, nseen, m->v[i].inum))
			push_unread(m, m->v[i].inum,
				    "bind-mounted only inside another task-less mount namespace");
	free(seen);
	return 0;
}

void holders_mounts_release(struct holders_mounts *m)
{
	size_t i;

	for (i = 0; i < m->nfds; i++)
		close(m->fds[i]);
	m->nfds = 0;
	for (i = 0; i < m->nhelpers; i++)
		waitpid(m->helpers[i], NULL, 0);
}

void holders_mounts_free(struct holders_mounts *m)
{
	holders_mounts_release(m);
	free(m->v);
	free(m->unread);
	free(m->helpers);
	free(m->fds);
	memset(m, 0, sizeof(*m));
}
