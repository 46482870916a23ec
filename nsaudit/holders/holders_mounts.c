// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * holders_mounts.c - nsfs bind mounts in every mount namespace, found
 * without holding any of them.
 *
 * The BPF scan walks every mount namespace's mount tree (bpf/holders.bpf.c)
 * and keeps each nsfs mount with the namespace mounted there and its
 * reference count. What BPF cannot give cheaply is the mount point's path:
 * it comes from /proc/PID/mountinfo of one task in the mount namespace
 * (matched by mount id and the namespace mounted), or, for a mount
 * namespace no task is in, from statmount(2) by its 64-bit mount id and
 * the namespace's id (6.8+).
 *
 * Why not open the mounts, or enter the namespaces, as nsaudit once did: an
 * open file on a bind mount (or a process whose root or cwd is in a mount
 * namespace) keeps those mounts busy, and anyone's umount2() of them fails
 * EBUSY meanwhile ("target is busy"). An audit tool must not break what it
 * observes: reading mountinfo and statmount take the namespace's lock for
 * reading, which a concurrent umount waits for, and nothing else.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "holders_lib.h"
#include "enrich/mountinfo.h"
#include "array.h"
#include "nstype.h"

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

/* The path of every mount of mount namespace mnt_ns that mountinfo f shows:
 * matched by mount id and by the namespace mounted (ids are reused). */
static void paths_from_mountinfo(struct holders_mounts *m, uint32_t mnt_ns, pid_t pid, FILE *f)
{
	struct mountinfo_line *ml = malloc(sizeof(*ml));
	char *line = NULL;
	size_t cap = 0, i;

	while (ml && getline(&line, &cap, f) > 0) {
		int type;
		uint32_t inum;

		if (mountinfo_parse_line(line, ml) || strcmp(ml->fstype, "nsfs") ||
		    nsfs_root_parse(ml->root, &type, &inum))
			continue;
		for (i = 0; i < m->n; i++) {
			struct holders_mount *hm = &m->v[i];

			if (hm->mnt_ns == mnt_ns && hm->mount_id == ml->mount_id &&
			    hm->type == type && hm->inum == inum && !hm->path[0]) {
				snprintf(hm->path, sizeof(hm->path), "%s", ml->path);
				hm->via_pid = pid;
			}
		}
	}
	free(line);
	free(ml);
}

#ifndef __NR_statmount
#define __NR_statmount 457 /* the same number on every architecture */
#endif

/* statmount(2)'s request and answer (6.8+; uapi linux/mount.h), which
 * Debian 12's headers predate. */
struct sm_req {
	uint32_t size;
	uint32_t mnt_ns_fd;
	uint64_t mnt_id;
	uint64_t param;
	uint64_t mnt_ns_id;
};

struct sm_buf {
	uint32_t size, mnt_opts;
	uint64_t mask;
	uint32_t sb_dev_major, sb_dev_minor;
	uint64_t sb_magic;
	uint32_t sb_flags, fs_type;
	uint64_t mnt_id, mnt_parent_id;
	uint32_t mnt_id_old, mnt_parent_id_old;
	uint64_t mnt_attr, mnt_propagation, mnt_peer_group, mnt_master, propagate_from;
	uint32_t mnt_root, mnt_point;
	uint64_t mnt_ns_id;
	uint64_t spare[49];
	char str[3 * 4096 + 64];
};

#define SM_MNT_BASIC 0x02u
#define SM_MNT_ROOT  0x08u
#define SM_MNT_POINT 0x10u

/* The path of hm, in a mount namespace no task is in, by statmount(2): the
 * mount by its 64-bit id in the namespace of that id, checked to be the
 * namespace walked. 0, or -1 (no statmount, or the mount is gone). */
static int path_from_statmount(struct holders_mount *hm, struct sm_buf *b)
{
	struct sm_req req = {
		.size = sizeof(req),
		.mnt_id = hm->mnt_id_unique,
		.param = SM_MNT_BASIC | SM_MNT_ROOT | SM_MNT_POINT,
		.mnt_ns_id = hm->sm_ns_id,
	};
	int type;
	uint32_t inum;

	if (!hm->mnt_id_unique || !hm->sm_ns_id)
		return -1;
	memset(b, 0, offsetof(struct sm_buf, str));
	if (syscall(__NR_statmount, &req, b, sizeof(*b), 0))
		return -1;
	if ((b->mask & (SM_MNT_BASIC | SM_MNT_ROOT | SM_MNT_POINT)) !=
		(SM_MNT_BASIC | SM_MNT_ROOT | SM_MNT_POINT) ||
	    b->mnt_root >= sizeof(b->str) || b->mnt_point >= sizeof(b->str))
		return -1;
	b->str[sizeof(b->str) - 1] = '\0';
	if (b->mnt_id_old != hm->mount_id || nsfs_root_parse(b->str + b->mnt_root, &type, &inum) ||
	    type != hm->type || inum != hm->inum)
		return -1;
	snprintf(hm->path, sizeof(hm->path), "%s", b->str + b->mnt_point);
	return 0;
}

static bool has_task(const struct mntns_ref *refs, size_t nrefs, uint32_t inum, pid_t *pid)
{
	size_t i;

	for (i = 0; i < nrefs; i++)
		if (refs[i].inum == inum) {
			*pid = refs[i].pid;
			return true;
		}
	return false;
}

/* What a walk that did not finish says. */
static const char *walk_why(uint32_t status)
{
	if (status & HOLDERS_WALK_FULL)
		return "more nsfs mounts than nsaudit keeps (65536): some are not listed";
	if (status & HOLDERS_WALK_CHANGED)
		return "its mount tree changed while it was walked: run again";
	if (status & HOLDERS_WALK_BUDGET)
		return "its mount tree was too large to walk (or changed while it was walked)";
	return "not walked: the walk's step budget ran out first";
}

/* The paths of the mounts in mount namespace hm->mnt_ns; "" when it has
 * no task and statmount cannot tell. */
static void paths_of(struct holders_mounts *m, size_t first, const struct mntns_ref *refs,
		     size_t nrefs, struct sm_buf *b)
{
	struct holders_mount *hm = &m->v[first];
	uint32_t mnt_ns = hm->mnt_ns;
	char path[64];
	bool unread = false;
	pid_t pid;
	size_t i;

	bool task = has_task(refs, nrefs, mnt_ns, &pid);

	if (task) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/mountinfo", pid);
		f = fopen(path, "re");
		if (f) {
			paths_from_mountinfo(m, mnt_ns, pid, f);
			fclose(f);
		}
	}
	/* a task-less one, or mounts mountinfo did not show (changed since) */
	for (i = first; i < m->n; i++) {
		if (m->v[i].mnt_ns != mnt_ns)
			continue;
		m->v[i].taskless = !task;
		if (!m->v[i].path[0] && path_from_statmount(&m->v[i], b))
			unread = true;
	}
	if (unread)
		push_unread(m, mnt_ns,
			    task ? "some nsfs mounts went or changed as it was read: "
				   "they are listed without a path"
				 : "no task is in it and statmount(2) (6.8+) could not name "
				   "its mount points: its nsfs mounts are listed without a path");
}

int holders_mounts_read(const struct holders_scan *scan, const struct mntns_ref *refs,
			size_t nrefs, struct holders_mounts *m)
{
	struct sm_buf *b;
	size_t i, j;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < scan->nmounts; i++) {
		const struct holders_nsfs_mount *r = &scan->mounts[i];
		struct holders_mount hm = {
			.mnt_ns = r->mnt_ns_inum,
			.mount_id = r->mnt_id,
			.type = nstype_from_clone_flag(r->ns.clone_flag),
			.inum = r->ns.inum,
			.k = r->ns,
			.mnt_id_unique = r->mnt_id_unique,
			.sm_ns_id = r->sm_ns_id,
		};

		if (hm.type < 0 || !hm.inum)
			continue;
		if (push_mount(m, &hm))
			return -1;
	}
	for (i = 0; i < scan->nwalks; i++)
		if (scan->walks[i].status)
			push_unread(m, scan->walks[i].inum, walk_why(scan->walks[i].status));
	b = malloc(sizeof(*b));
	if (!b)
		return -1;
	/* once per mount namespace: the first mount of each */
	for (i = 0; i < m->n; i++) {
		for (j = 0; j < i && m->v[j].mnt_ns != m->v[i].mnt_ns; j++)
			;
		if (j == i)
			paths_of(m, i, refs, nrefs, b);
	}
	free(b);
	return 0;
}

void holders_mounts_free(struct holders_mounts *m)
{
	free(m->v);
	free(m->unread);
	memset(m, 0, sizeof(*m));
}
