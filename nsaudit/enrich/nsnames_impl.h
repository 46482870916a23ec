/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * nsnames_impl.h - the name cache, shared by its parts: nsnames.c
 * (resolving a namespace or a record to names and containers) and
 * nsnames_scan.c (what the cache is filled from: the nsfs mount table,
 * /proc, inotify on /run/netns). Not an API: nsnames.h is.
 */
#ifndef NSAUDIT_NSNAMES_IMPL_H
#define NSAUDIT_NSNAMES_IMPL_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "nsnames.h"
#include "posindex.h"

#define NETNS_DIR "/run/netns"

#define CACHE_SLOTS 1024		/* container names, direct-mapped by inode */

#define MAX_MNTNS 512

#define MS 1000000LL

#define SCAN_INTERVAL_NS (250 * MS)	/* /proc scans at most this often */

#define BACKOFF_MAX_NS (30000 * MS)	/* an unnamed namespace is re-tried */

#define REVALIDATE_NS (2000 * MS)	/* a container name's process re-checked */

#define MOUNT_DIRTY_NS (100 * MS)	/* mountinfo re-read at most this often */

#define MOUNT_STALE_NS (5000 * MS)	/* ... and at least this often when used */

#define MOUNT_COST_FACTOR 20	/* ... but at most 1/20 of the time re-reading */

#define INOTIFY_POLL_NS (20 * MS)

struct mount_ent {
	char *path;
	int type;
	uint32_t inum;
};

struct cache_ent {
	uint32_t inum;
	uint64_t nsid;		/* named: its ns_id once checked (0: not yet, or none) */
	int type;		/* -1: empty */
	bool named;
	uint32_t pid;		/* named: the process it was found from */
	int64_t checked_ns;
	int64_t retry_ns;	/* unnamed: not before */
	int64_t backoff_ns;
	uint32_t miss_pid;	/* unnamed: a hint that was not in a container */
	int64_t miss_ns;	/* ... when it was last tried */
	char id[80];
};

struct mntns_ent {
	uint32_t inum;
	uint32_t pid;
};

struct nsnames {
	uint32_t host[NSAUDIT_NS_MAX];
	uint32_t self_mntns;
	struct mount_ent *mounts;
	size_t nmounts, capmounts;
	struct posindex mount_ix;	/* nsnames_add_mount's duplicate check */
	bool mounts_dirty;
	int64_t mounts_read_ns;
	int64_t mounts_cost_ns;		/* what the last re-read took */
	struct mntns_ent mntns[MAX_MNTNS];
	int nmntns;
	struct cache_ent cache[CACHE_SLOTS];
	int64_t proc_scan_ns;
	int ino_fd, wd_run, wd_netns;
	int64_t ino_poll_ns;
	char buf[PATH_MAX + 32];
	char name_buf[PATH_MAX + 32], old_buf[PATH_MAX + 32];
	struct containers *ctr;		/* the runtimes' state */
	struct container_info last_ctr;	/* a copy: a refresh moves the table */
	bool has_last_ctr;
};

/* nsnames_scan.c */

void clear_mounts(struct nsnames *n);
bool read_ns(uint32_t pid, int type, uint32_t *inum);
bool pid_container(uint32_t pid, char *id, size_t len);
void names_note_mntns(struct nsnames *n, uint32_t inum, uint32_t pid);
void reread_mounts(struct nsnames *n, int64_t now);
bool mounts_due(const struct nsnames *n, int64_t now);
bool is_host(const struct nsnames *n, int type, uint32_t inum);
struct cache_ent *slot(struct nsnames *n, int type, uint32_t inum);
void cache_named(struct nsnames *n, int type, uint32_t inum, uint32_t pid,
		 const char *id, int64_t now);
void cache_made(struct nsnames *n, int type, uint32_t inum, uint64_t nsid, uint32_t pid,
		const char *id, int64_t now);

/*
 * One pass over /proc: every mount namespace (one task each), and the
 * namespaces of every process whose cgroup is a container's.
 */
void scan_proc(struct nsnames *n, int64_t now);

void watch_netns(struct nsnames *n);
void poll_inotify(struct nsnames *n, int64_t now);

#endif
