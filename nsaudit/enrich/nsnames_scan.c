// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * nsnames_scan.c - what the name cache is filled from: the nsfs mount
 * table (bind-mount paths and ip netns names, from records and
 * mountinfo), /proc (the host's namespaces, each process's container),
 * and inotify on /run/netns (a removed name is dropped at once).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "mountinfo.h"
#include "nsnames_impl.h"
#include "nstype.h"
#include "enrich.h"
#include "array.h"
#include "posindex.h"

/*
 * The initial namespaces have fixed inode numbers (include/linux/proc_ns.h:
 * ipc..time since 3.8/5.6, net since 6.9, mnt since 6.18); dynamic ones
 * start at 0xf0000000, so these never name anything else. /proc/1/ns is
 * read as well (older kernels' net and mnt), where we may.
 */
static const uint32_t init_inum[NSAUDIT_NS_MAX] = {
	[NSAUDIT_NS_NET] = 0xeffffff9u,	 [NSAUDIT_NS_UTS] = 0xeffffffeu,
	[NSAUDIT_NS_IPC] = 0xefffffffu,	 [NSAUDIT_NS_MNT] = 0xeffffff8u,
	[NSAUDIT_NS_PID] = 0xeffffffcu,	 [NSAUDIT_NS_USER] = 0xeffffffdu,
	[NSAUDIT_NS_CGROUP] = 0xeffffffbu, [NSAUDIT_NS_TIME] = 0xeffffffau,
};

/* --- the mount table ----------------------------------------------------- */

static uint32_t mount_hash(int type, uint32_t inum, const char *path)
{
	return posindex_hash_str(posindex_hash_u64(posindex_hash_u64(POSINDEX_HASH_INIT,
								     (uint32_t)type), inum), path);
}

static uint32_t pos_mount_hash(const void *ctx, size_t pos)
{
	const struct mount_ent *m = &((const struct nsnames *)ctx)->mounts[pos];

	return mount_hash(m->type, m->inum, m->path);
}

static bool mount_match(const void *ctx, size_t pos, const void *key)
{
	const struct mount_ent *m = &((const struct nsnames *)ctx)->mounts[pos];
	const struct mount_ent *k = key;

	return m->inum == k->inum && m->type == k->type && !strcmp(m->path, k->path);
}

/* Known already? By the index (10,000 pins of one namespace made a walk per
 * look-up 10,000 string compares), or a walk without one. */
static bool has_mount(struct nsnames *n, const struct mount_ent *k)
{
	size_t i;

	if (posindex_sync(&n->mount_ix, n->nmounts, pos_mount_hash, n))
		return posindex_find(&n->mount_ix, mount_hash(k->type, k->inum, k->path),
				     mount_match, n, k) >= 0;
	for (i = 0; i < n->nmounts; i++)
		if (mount_match(n, i, k))
			return true;
	return false;
}

static void mount_append(struct nsnames *n, const char *path, int type, uint32_t inum)
{
	if (ARRAY_RESERVE(&n->mounts, &n->capmounts, n->nmounts + 1))
		return;
	n->mounts[n->nmounts].path = strdup(path);
	if (!n->mounts[n->nmounts].path)
		return;
	n->mounts[n->nmounts].type = type;
	n->mounts[n->nmounts++].inum = inum;
}

/* One mount a record names: once (it may be in the table from mountinfo). */
void nsnames_add_mount(struct nsnames *n, const char *path, int type, uint32_t inum)
{
	const struct mount_ent k = { .path = (char *)path, .type = type, .inum = inum };

	if (!has_mount(n, &k))
		mount_append(n, path, type, inum);
}

void nsnames_remove_mount(struct nsnames *n, const char *path)
{
	size_t i = 0;

	while (i < n->nmounts) {
		if (!strcmp(n->mounts[i].path, path)) {
			free(n->mounts[i].path);
			n->mounts[i] = n->mounts[--n->nmounts];
			posindex_stale(&n->mount_ix);	/* the last one moved to i */
		} else {
			i++;
		}
	}
}

void clear_mounts(struct nsnames *n)
{
	size_t i;

	for (i = 0; i < n->nmounts; i++)
		free(n->mounts[i].path);
	n->nmounts = 0;
	posindex_stale(&n->mount_ix);
}

/*
 * Appended, not looked for first: a mountinfo lists a mount once, and the
 * same path in two namespaces' tables twice costs nothing (the first is
 * the name, a removal takes both). Looked for, each line cost a walk of
 * the table: 10,000 pins held in one namespace made every re-read 50 M
 * string compares, and the reader fell behind its rings (issue 47).
 */
int nsnames_add_mountinfo(struct nsnames *n, FILE *f)
{
	char line[PATH_MAX * 2], mnt[PATH_MAX];
	uint32_t inum;
	int type, added = 0;

	while (fgets(line, sizeof(line), f)) {
		if (mountinfo_nsfs_line(line, mnt, sizeof(mnt), &type, &inum)) {
			mount_append(n, mnt, type, inum);
			added++;
		}
	}
	return added;
}

const char *nsnames_mount_name(struct nsnames *n, int type, uint32_t inum)
{
	const char *best = NULL, *nn;
	size_t i;

	for (i = 0; i < n->nmounts; i++) {
		if (n->mounts[i].inum != inum || n->mounts[i].type != type)
			continue;
		if (type == NSAUDIT_NS_NET && (nn = netns_name_from_path(n->mounts[i].path)))
			return nn;
		/* the table lists our own mount namespace first: its path wins */
		if (!best)
			best = n->mounts[i].path;
	}
	return best;
}

/* --- /proc --------------------------------------------------------------- */

bool read_ns(uint32_t pid, int type, uint32_t *inum)
{
	char path[64], link[64];
	ssize_t r;
	int t;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%u/ns/%s", pid, nstype_name(type));
	else
		snprintf(path, sizeof(path), "/proc/self/ns/%s", nstype_name(type));
	r = readlink(path, link, sizeof(link) - 1);
	if (r <= 0)
		return false;
	link[r] = '\0';
	return ns_link_parse(link, &t, inum) && t == type;
}

bool pid_container(uint32_t pid, char *id, size_t len)
{
	char path[64];
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = cgroup_file_container_id(f, id, len);
	fclose(f);
	return ok;
}

void names_note_mntns(struct nsnames *n, uint32_t inum, uint32_t pid)
{
	int i;

	if (!inum || !pid || inum == n->self_mntns)
		return;
	for (i = 0; i < n->nmntns; i++) {
		if (n->mntns[i].inum == inum) {
			n->mntns[i].pid = pid;
			return;
		}
	}
	if (n->nmntns < MAX_MNTNS) {
		n->mntns[n->nmntns].inum = inum;
		n->mntns[n->nmntns++].pid = pid;
		n->mounts_dirty = true;	/* a mount namespace not read yet */
	}
}

static bool read_mountinfo(struct nsnames *n, const char *file)
{
	FILE *f = fopen(file, "re");

	if (!f)
		return false;
	nsnames_add_mountinfo(n, f);
	fclose(f);
	return true;
}

void reread_mounts(struct nsnames *n, int64_t now)
{
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	char file[64];
	uint32_t inum;
	int i = 0;

	clear_mounts(n);
	read_mountinfo(n, "/proc/self/mountinfo");
	while (i < n->nmntns) {
		/* the task may have exited or moved: then forget it */
		if (!read_ns(n->mntns[i].pid, NSAUDIT_NS_MNT, &inum) || inum != n->mntns[i].inum) {
			n->mntns[i] = n->mntns[--n->nmntns];
			continue;
		}
		snprintf(file, sizeof(file), "/proc/%u/mountinfo", n->mntns[i].pid);
		read_mountinfo(n, file);
		i++;
	}
	n->mounts_dirty = false;
	n->mounts_read_ns = now;
	n->mounts_cost_ns = clock_ns(CLOCK_MONOTONIC) - t0;
}

/*
 * Whether the table is due a re-read: when a mount changed, or it is old.
 * Never more often than MOUNT_COST_FACTOR times what the last one took: a
 * user who holds thousands of nsfs mounts, and mounts meanwhile, costs the
 * reader a bounded share of its time, not all of it.
 */
bool mounts_due(const struct nsnames *n, int64_t now)
{
	int64_t since = now - n->mounts_read_ns, floor = n->mounts_cost_ns * MOUNT_COST_FACTOR;

	if (since < floor)
		return false;
	return (n->mounts_dirty && since >= MOUNT_DIRTY_NS) || since >= MOUNT_STALE_NS;
}

bool is_host(const struct nsnames *n, int type, uint32_t inum)
{
	return inum == init_inum[type] || (n->host[type] && inum == n->host[type]);
}

struct cache_ent *slot(struct nsnames *n, int type, uint32_t inum)
{
	return &n->cache[(inum * 2654435761u + (uint32_t)type) % CACHE_SLOTS];
}

void cache_named(struct nsnames *n, int type, uint32_t inum, uint32_t pid,
			const char *id, int64_t now)
{
	struct cache_ent *c = slot(n, type, inum);

	if (c->type == type && c->inum == inum && c->named)
		return;	/* first found wins: names do not flap */
	memset(c, 0, sizeof(*c));
	c->type = type;
	c->inum = inum;
	c->named = true;
	c->pid = pid;
	c->checked_ns = now;
	snprintf(c->id, sizeof(c->id), "%s", id);
}

/*
 * A namespace just made (nsnames.c note_made): it is id's (NULL: no
 * container's), whatever the slot said of a dead namespace of the same
 * inode. nsid: the record's ns_id (0 on kernels without one).
 */
void cache_made(struct nsnames *n, int type, uint32_t inum, uint64_t nsid, uint32_t pid,
		const char *id, int64_t now)
{
	struct cache_ent *c = slot(n, type, inum);

	if (!id && (c->type != type || c->inum != inum))
		return;	/* another namespace's entry: nothing to drop */
	memset(c, 0, sizeof(*c));
	c->type = type;
	c->inum = inum;
	c->backoff_ns = SCAN_INTERVAL_NS;
	if (!id)
		return;
	c->named = true;
	c->nsid = nsid;
	c->pid = pid;
	c->checked_ns = now;
	snprintf(c->id, sizeof(c->id), "%s", id);
}

/*
 * One pass over /proc: every mount namespace (one task each), and the
 * namespaces of every process whose cgroup is a container's.
 */
void scan_proc(struct nsnames *n, int64_t now)
{
	struct dirent *d;
	char id[80], *end;
	uint32_t inum;
	unsigned long pid;
	DIR *dir = opendir("/proc");
	int t;

	n->proc_scan_ns = now;
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		pid = strtoul(d->d_name, &end, 10);
		if (*end || !pid)
			continue;
		if (read_ns(pid, NSAUDIT_NS_MNT, &inum))
			names_note_mntns(n, inum, pid);
		if (!pid_container(pid, id, sizeof(id)))
			continue;
		for (t = 0; t < NSAUDIT_NS_MAX; t++)
			if (read_ns(pid, t, &inum) && !is_host(n, t, inum))
				cache_named(n, t, inum, pid, id, now);
	}
	closedir(dir);
}

/* --- inotify on /run/netns ----------------------------------------------- */

void watch_netns(struct nsnames *n)
{
	if (n->ino_fd < 0 || n->wd_netns >= 0)
		return;
	n->wd_netns = inotify_add_watch(n->ino_fd, NETNS_DIR,
					IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
					IN_DELETE_SELF | IN_ONLYDIR);
}

void poll_inotify(struct nsnames *n, int64_t now)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	const struct inotify_event *ev;
	ssize_t r;
	char *p;

	if (n->ino_fd < 0 || now - n->ino_poll_ns < INOTIFY_POLL_NS)
		return;
	n->ino_poll_ns = now;
	while ((r = read(n->ino_fd, buf, sizeof(buf))) > 0) {
		for (p = buf; p < buf + r; p += sizeof(*ev) + ev->len) {
			ev = (const struct inotify_event *)p;
			if (ev->wd == n->wd_netns) {
				n->mounts_dirty = true;
				if (ev->mask & IN_IGNORED)
					n->wd_netns = -1;
			} else if (ev->wd == n->wd_run && ev->len && !strcmp(ev->name, "netns")) {
				watch_netns(n);
				n->mounts_dirty = true;
			}
		}
	}
}
