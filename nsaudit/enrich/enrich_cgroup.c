// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * enrich_cgroup.c - the cgroup a record's actor ran in, by the id the
 * kernel side read at the call, on every layout:
 *
 * - cgroup v2 (/sys/fs/cgroup), hybrid (v2 at /sys/fs/cgroup/unified,
 *   controllers on v1) and v1 alone. bpf_get_current_cgroup_id() is the id
 *   on the v2 hierarchy, wherever that is mounted (found in /proc/mounts,
 *   not assumed): the id is the directory's kernfs file handle, so
 *   open_by_handle_at() on the hierarchy's root names it exactly and at
 *   once, also for a process that has already exited; a walk of that
 *   hierarchy once a second while records are read remembers cgroups that
 *   are gone by the time a lagging reader gets to their records.
 * - On v1 the v2 id says nothing (every process is in its root), and on
 *   hybrid runtimes may place containers only on v1 controllers: the
 *   process's /proc/PID/cgroup lines are read too, and the line that names
 *   a container wins (v2's first, then a v1 controller's).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "enrich_impl.h"
#include "hash.h"
#include "nsnames.h"

/* include/linux/exportfs.h: kernfs' handles carry the 64-bit node id */
#define FILEID_KERNFS 0xfe
/* ids to paths remembered (a power of two) */
#define CGROUP_SLOTS 16384
#define CGROUP_WALK_MIN_NS 1000000000LL

void enrich_cgroups_free(struct enrich *en)
{
	size_t i;

	for (i = 0; en->cgroups && i < CGROUP_SLOTS; i++)
		free(en->cgroups[i].path);
	free(en->cgroups);
	en->cgroups = NULL;
	en->ncgroups = 0;
	if (en->cgroup2_fd >= 0)
		close(en->cgroup2_fd);
	en->cgroup2_fd = -1;
	free(en->cgroup2_root);
	en->cgroup2_root = NULL;
}

/* The v2 hierarchy's mount point: the first cgroup2 mount. */
static bool cgroup2_open(struct enrich *en)
{
	struct mntent *m;
	FILE *f;

	if (en->cgroup2_fd >= 0)
		return true;
	if (en->cgroup2_root)	/* looked before: none */
		return false;
	f = setmntent("/proc/self/mounts", "re");
	while (f && (m = getmntent(f)))
		if (!strcmp(m->mnt_type, "cgroup2")) {
			en->cgroup2_root = strdup(m->mnt_dir);
			break;
		}
	if (f)
		endmntent(f);
	if (!en->cgroup2_root) {
		en->cgroup2_root = strdup("");
		return false;
	}
	en->cgroup2_fd = open(en->cgroup2_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return en->cgroup2_fd >= 0;
}

/* the path below the hierarchy's root ("/" for the root) */
static const char *below_root(const struct enrich *en, const char *path)
{
	size_t n = strlen(en->cgroup2_root);

	if (n == 1)	/* mounted at "/" */
		n = 0;
	if (strncmp(path, en->cgroup2_root, n) || (path[n] && path[n] != '/'))
		return NULL;
	return path[n] ? path + n : "/";
}

/* an open-addressed table of ids to paths; past 3/4 full it starts again */
static size_t cgroup_slot(uint64_t id)
{
	return (size_t)((id * 0x9e3779b97f4a7c15ull) >> 32) & (CGROUP_SLOTS - 1);
}

static const char *cgroup_remember(struct enrich *en, uint64_t id, const char *rel)
{
	struct cgroup_name *n;
	size_t i;

	if (!en->cgroups || en->ncgroups >= CGROUP_SLOTS / 4 * 3) {
		for (i = 0; en->cgroups && i < CGROUP_SLOTS; i++)
			free(en->cgroups[i].path);
		free(en->cgroups);
		en->ncgroups = 0;
		en->cgroups = calloc(CGROUP_SLOTS, sizeof(*en->cgroups));
		if (!en->cgroups)
			return NULL;
	}
	for (i = cgroup_slot(id); en->cgroups[i].path; i = (i + 1) & (CGROUP_SLOTS - 1))
		if (en->cgroups[i].id == id)
			return en->cgroups[i].path;
	n = &en->cgroups[i];
	n->path = strdup(rel);
	if (!n->path)
		return NULL;
	n->id = id;
	en->ncgroups++;
	return n->path;
}

static const char *cgroup_cached(const struct enrich *en, uint64_t id)
{
	size_t i;

	if (!en->cgroups)
		return NULL;
	for (i = cgroup_slot(id); en->cgroups[i].path; i = (i + 1) & (CGROUP_SLOTS - 1))
		if (en->cgroups[i].id == id)
			return en->cgroups[i].path;
	return NULL;
}

/* The cgroup whose id is id, by its kernfs handle. */
static const char *cgroup_by_handle(struct enrich *en, uint64_t id)
{
	struct {
		struct file_handle h;
		uint64_t id;
	} fh = { .h = { .handle_bytes = sizeof(uint64_t), .handle_type = FILEID_KERNFS } };
	char link[64], path[PATH_MAX];
	const char *rel;
	ssize_t n;
	int fd;

	fh.id = id;
	fd = open_by_handle_at(en->cgroup2_fd, &fh.h, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	path[n] = '\0';
	rel = below_root(en, path);
	return rel ? cgroup_remember(en, id, rel) : NULL;
}

/* nftw has no context argument: the walk in progress. */
static struct enrich *walk_en;

static int walk_note(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *rel;

	if (flag != FTW_D || cgroup_cached(walk_en, (uint64_t)st->st_ino))
		return 0;
	rel = below_root(walk_en, path);
	if (rel)
		cgroup_remember(walk_en, (uint64_t)st->st_ino, rel);
	return 0;
}

/*
 * Every cgroup there is now, remembered by id, at most once a second
 * while records are read: a recorder that lags behind a short-lived
 * container still names the cgroup once the container (and its cgroup)
 * is gone. FTW_MOUNT keeps the walk inside the v2 hierarchy alone.
 */
static void cgroup_walk(struct enrich *en)
{
	int64_t now = clock_ns(CLOCK_MONOTONIC);

	if (now - en->cgroups_scanned_ns < CGROUP_WALK_MIN_NS)
		return;
	en->cgroups_scanned_ns = now;
	walk_en = en;
	nftw(en->cgroup2_root, walk_note, 16, FTW_PHYS | FTW_MOUNT);
}

/* The v2 cgroup path of id; NULL if unknown (v1 only, or gone unseen). */
static const char *cgroup_by_id(struct enrich *en, uint64_t id)
{
	const char *path;

	if (!id || !cgroup2_open(en))
		return NULL;
	cgroup_walk(en);
	path = cgroup_cached(en, id);
	return path ?: cgroup_by_handle(en, id);
}

/*
 * The line of /proc/PID/cgroup that says most: the one that names a
 * container (v2's, else a v1 controller's), else v2's path. NULL if the
 * process is gone.
 */
static char *proc_cgroup(uint32_t pid)
{
	char path[64], best[PATH_MAX + 64];
	bool found;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	found = cgroup_file_best_path(f, best, sizeof(best));
	fclose(f);
	return found ? strdup(best) : NULL;
}

/* FNV-1a of a container id: the log budget's key for it (never 0). */
static uint64_t container_key_of(const char *id)
{
	return fnv64_str(FNV64_OFFSET_BASIS, id) ?: 1;
}

uint64_t enrich_container_key(struct enrich *en, uint64_t cgroup_id)
{
	size_t i = (cgroup_id * 0x9e3779b97f4a7c15ULL) >> 54 & (CTR_KEY_SLOTS - 1);
	char cid[CONTAINER_ID_LEN];
	const char *path;
	uint64_t key = 0;

	if (!cgroup_id)
		return 0;
	if (en->ctr_keys[i].cgroup_id == cgroup_id)
		return en->ctr_keys[i].key;
	/* cgroup ids are inode numbers of a live hierarchy: never reused
	 * while the cgroup exists, so a cached answer stays right */
	path = cgroup_by_id(en, cgroup_id);
	if (path && cgroup_container_id(path, cid, sizeof(cid)))
		key = container_key_of(cid);
	en->ctr_keys[i].cgroup_id = cgroup_id;
	en->ctr_keys[i].key = key;
	return key;
}

const char *enrich_cgroup(struct enrich *en, uint32_t pid, const char *comm, uint64_t id)
{
	struct proc_info *p = proc_slot(en, pid, comm);
	char cid[CONTAINER_ID_LEN];
	const char *at_call;

	/* a process moved into a container's cgroup (a runtime's child) is
	 * asked again: the id is the kernel side's, at the call */
	if (p->cgroup_done && p->cgroup_id == id)
		return p->cgroup;
	free(p->cgroup);
	p->cgroup = NULL;
	p->cgroup_done = true;
	p->cgroup_id = id;
	at_call = cgroup_by_id(en, id);
	if (at_call && cgroup_container_id(at_call, cid, sizeof(cid)))
		return p->cgroup = strdup(at_call);
	p->cgroup = proc_cgroup(pid);
	if (!p->cgroup && at_call)
		p->cgroup = strdup(at_call);
	return p->cgroup;
}
