// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* nsnames.c - ip netns names, bind-mount paths, container ids, "host". */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "enrich.h"
#include "mountinfo.h"
#include "nsnames.h"
#include "nstype.h"

#define NETNS_DIR "/run/netns"
#define CACHE_SLOTS 1024		/* container names, direct-mapped by inode */
#define MAX_MNTNS 512
#define MS 1000000LL
#define SCAN_INTERVAL_NS (250 * MS)	/* /proc scans at most this often */
#define BACKOFF_MAX_NS (30000 * MS)	/* an unnamed namespace is re-tried */
#define REVALIDATE_NS (2000 * MS)	/* a container name's process re-checked */
#define MOUNT_DIRTY_NS (100 * MS)	/* mountinfo re-read at most this often */
#define MOUNT_STALE_NS (5000 * MS)	/* ... and at least this often when used */
#define INOTIFY_POLL_NS (20 * MS)

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
	bool mounts_dirty;
	int64_t mounts_read_ns;
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

/* --- parsers ------------------------------------------------------------ */

bool ns_link_parse(const char *link, int *type, uint32_t *inum)
{
	char tname[24], *end;
	const char *lb = strchr(link, ':');
	unsigned long v;

	if (!lb || lb - link >= (long)sizeof(tname) || lb[1] != '[')
		return false;
	memcpy(tname, link, lb - link);
	tname[lb - link] = '\0';
	/* pid_for_children and time_for_children name the same types */
	if ((end = strstr(tname, "_for_children")))
		*end = '\0';
	errno = 0;
	v = strtoul(lb + 2, &end, 10);
	if (errno || end == lb + 2 || strcmp(end, "]") || v == 0 || v > UINT32_MAX)
		return false;
	*type = nstype_from_name(tname);
	*inum = (uint32_t)v;
	return *type >= 0;
}

const char *netns_name_from_path(const char *path)
{
	const char *name;

	if (strncmp(path, NETNS_DIR "/", sizeof(NETNS_DIR)))
		return NULL;
	name = path + sizeof(NETNS_DIR);
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return NULL;
	return name;
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return true;
}

static bool component_id(const char *c, size_t n, char *id, size_t len)
{
	static const char *const prefixes[] = { "docker-", "libpod-", "cri-containerd-", "crio-" };
	static const char *const not_containers[] = { "libpod-conmon-", "crio-conmon-" };
	const char *rest;
	size_t i, pl, rn;

	if (n > 6 && !memcmp(c + n - 6, ".scope", 6))
		n -= 6;
	for (i = 0; i < sizeof(not_containers) / sizeof(not_containers[0]); i++)
		if (n >= strlen(not_containers[i]) &&
		    !memcmp(c, not_containers[i], strlen(not_containers[i])))
			return false;
	rest = NULL;
	rn = 0;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		pl = strlen(prefixes[i]);
		if (n > pl && !memcmp(c, prefixes[i], pl)) {
			rest = c + pl;
			rn = n - pl;
			if (rn < 12 || rn > 64 || !all_hex(rest, rn))
				rest = NULL;
			break;
		}
	}
	if (!rest && n == 64 && all_hex(c, 64)) {	/* cgroupfs drivers */
		rest = c;
		rn = 64;
	}
	if (!rest && n > 12 && !memcmp(c, "lxc.payload.", 12)) {
		rest = c + 12;
		rn = n - 12;
	}
	if (!rest || rn + 1 > len)
		return false;
	memcpy(id, rest, rn);
	id[rn] = '\0';
	return true;
}

bool cgroup_container_id(const char *cgpath, char *id, size_t len)
{
	const char *end = cgpath + strlen(cgpath), *start;

	while (end > cgpath && (end[-1] == '\n' || end[-1] == '/'))
		end--;
	while (end > cgpath) {
		start = end;
		while (start > cgpath && start[-1] != '/')
			start--;
		if (end > start && component_id(start, end - start, id, len))
			return true;
		end = start;
		while (end > cgpath && end[-1] == '/')
			end--;
	}
	return false;
}

bool cgroup_file_container_id(FILE *f, char *id, size_t len)
{
	char line[PATH_MAX + 64], v1[128] = "";
	const char *p;

	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		/* "0::/path" (v2) or "N:controllers:/path" (v1) */
		p = strchr(line, ':');
		if (!p || !(p = strchr(p + 1, ':')))
			continue;
		p++;
		if (!strncmp(line, "0::", 3)) {
			if (cgroup_container_id(p, id, len))
				return true;
		} else if (!v1[0]) {
			cgroup_container_id(p, v1, sizeof(v1));
		}
	}
	if (!v1[0] || strlen(v1) + 1 > len)
		return false;
	strcpy(id, v1);
	return true;
}

/* --- the mount table ----------------------------------------------------- */

void nsnames_add_mount(struct nsnames *n, const char *path, int type, uint32_t inum)
{
	size_t i;

	for (i = 0; i < n->nmounts; i++)
		if (n->mounts[i].inum == inum && n->mounts[i].type == type &&
		    !strcmp(n->mounts[i].path, path))
			return;
	if (n->nmounts == n->capmounts) {
		size_t cap = n->capmounts ? 2 * n->capmounts : 32;
		struct mount_ent *m = realloc(n->mounts, cap * sizeof(*m));

		if (!m)
			return;
		n->mounts = m;
		n->capmounts = cap;
	}
	n->mounts[n->nmounts].path = strdup(path);
	if (!n->mounts[n->nmounts].path)
		return;
	n->mounts[n->nmounts].type = type;
	n->mounts[n->nmounts++].inum = inum;
}

void nsnames_remove_mount(struct nsnames *n, const char *path)
{
	size_t i = 0;

	while (i < n->nmounts) {
		if (!strcmp(n->mounts[i].path, path)) {
			free(n->mounts[i].path);
			n->mounts[i] = n->mounts[--n->nmounts];
		} else {
			i++;
		}
	}
}

static void clear_mounts(struct nsnames *n)
{
	size_t i;

	for (i = 0; i < n->nmounts; i++)
		free(n->mounts[i].path);
	n->nmounts = 0;
}

int nsnames_add_mountinfo(struct nsnames *n, FILE *f)
{
	char line[PATH_MAX * 2], mnt[PATH_MAX];
	uint32_t inum;
	int type, added = 0;

	while (fgets(line, sizeof(line), f)) {
		if (mountinfo_nsfs_line(line, mnt, sizeof(mnt), &type, &inum)) {
			nsnames_add_mount(n, mnt, type, inum);
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

static bool read_ns(uint32_t pid, int type, uint32_t *inum)
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

static bool pid_container(uint32_t pid, char *id, size_t len)
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

static void note_mntns(struct nsnames *n, uint32_t inum, uint32_t pid)
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

static void reread_mounts(struct nsnames *n, int64_t now)
{
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
}

static bool is_host(const struct nsnames *n, int type, uint32_t inum)
{
	return inum == init_inum[type] || (n->host[type] && inum == n->host[type]);
}

static struct cache_ent *slot(struct nsnames *n, int type, uint32_t inum)
{
	return &n->cache[(inum * 2654435761u + (uint32_t)type) % CACHE_SLOTS];
}

static void cache_named(struct nsnames *n, int type, uint32_t inum, uint32_t pid,
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
 * One pass over /proc: every mount namespace (one task each), and the
 * namespaces of every process whose cgroup is a container's.
 */
static void scan_proc(struct nsnames *n, int64_t now)
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
			note_mntns(n, inum, pid);
		if (!pid_container(pid, id, sizeof(id)))
			continue;
		for (t = 0; t < NSAUDIT_NS_MAX; t++)
			if (read_ns(pid, t, &inum) && !is_host(n, t, inum))
				cache_named(n, t, inum, pid, id, now);
	}
	closedir(dir);
}

/* --- inotify on /run/netns ----------------------------------------------- */

static void watch_netns(struct nsnames *n)
{
	if (n->ino_fd < 0 || n->wd_netns >= 0)
		return;
	n->wd_netns = inotify_add_watch(n->ino_fd, NETNS_DIR,
					IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
					IN_DELETE_SELF | IN_ONLYDIR);
}

static void poll_inotify(struct nsnames *n, int64_t now)
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

/* --- resolving ------------------------------------------------------------ */

struct nsnames *nsnames_new(void)
{
	struct nsnames *n = calloc(1, sizeof(*n));
	char path[64];
	struct stat st;
	int t;

	if (!n)
		return NULL;
	for (t = 0; t < CACHE_SLOTS; t++)
		n->cache[t].type = -1;
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		snprintf(path, sizeof(path), "/proc/1/ns/%s", nstype_name(t));
		if (!stat(path, &st))
			n->host[t] = (uint32_t)st.st_ino;
	}
	read_ns(0, NSAUDIT_NS_MNT, &n->self_mntns);
	n->wd_run = n->wd_netns = -1;
	n->ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (n->ino_fd >= 0) {
		n->wd_run = inotify_add_watch(n->ino_fd, "/run", IN_CREATE | IN_MOVED_TO | IN_ONLYDIR);
		watch_netns(n);
	}
	n->ctr = containers_new(NULL);
	scan_proc(n, now_coarse_ns());
	reread_mounts(n, now_coarse_ns());
	return n;
}

void nsnames_free(struct nsnames *n)
{
	if (!n)
		return;
	clear_mounts(n);
	free(n->mounts);
	containers_free(n->ctr);
	if (n->ino_fd >= 0)
		close(n->ino_fd);
	free(n);
}

/*
 * A name cached by inode, for a record whose namespace has ns_id nsid
 * (6.18+): the inode may have been reused by a new namespace after the
 * named one died. The cached entry's id is read once (from the process it
 * was found from, while that is still in it) and must be the record's.
 */
static bool cache_same_ns(struct cache_ent *c, int type, uint64_t nsid)
{
	uint32_t cur;
	uint64_t cid;

	if (!nsid)
		return true;	/* no ids on this kernel: inode and liveness */
	if (!c->nsid && ns_ident_of(c->pid, type, &cur, &cid) && cur == c->inum)
		c->nsid = cid;
	return c->nsid == nsid;
}

static const char *container_name(struct nsnames *n, int type, uint32_t inum, uint64_t nsid,
				  uint32_t hint, int64_t now)
{
	struct cache_ent *c = slot(n, type, inum);
	uint32_t cur;
	char id[80];

	if (c->type != type || c->inum != inum || (c->named && !cache_same_ns(c, type, nsid))) {
		memset(c, 0, sizeof(*c));
		c->type = type;
		c->inum = inum;
		c->backoff_ns = SCAN_INTERVAL_NS;
	}
	if (c->named) {
		if (now - c->checked_ns < REVALIDATE_NS)
			goto named;
		/* inodes are reused: is the process still in it? */
		if (read_ns(c->pid, type, &cur) && cur == inum) {
			c->checked_ns = now;
			goto named;
		}
		c->named = false;
		c->retry_ns = 0;
		c->backoff_ns = SCAN_INTERVAL_NS;
	}
	if (now < c->retry_ns)
		return NULL;
	/*
	 * A process that is probably in it: two cheap reads, but not again
	 * for every record of the same process (a setns flood of a namespace
	 * nobody named would pay a readlink per record): once per scan
	 * interval per process.
	 */
	if (hint && !(hint == c->miss_pid && now - c->miss_ns < SCAN_INTERVAL_NS)) {
		if (read_ns(hint, type, &cur) && cur == inum && pid_container(hint, id, sizeof(id))) {
			cache_named(n, type, inum, hint, id, now);
			goto named;
		}
		c->miss_pid = hint;
		c->miss_ns = now;
	}
	if (now - n->proc_scan_ns < SCAN_INTERVAL_NS)
		return NULL;	/* rate limited: try again on a later record */
	scan_proc(n, now);
	c = slot(n, type, inum);
	if (c->type == type && c->inum == inum && c->named && cache_same_ns(c, type, nsid))
		goto named;
	if (c->type != type || c->inum != inum || c->named) {	/* another: start over */
		memset(c, 0, sizeof(*c));
		c->type = type;
		c->inum = inum;
		c->backoff_ns = SCAN_INTERVAL_NS;
	}
	c->retry_ns = now + c->backoff_ns;
	if (c->backoff_ns < BACKOFF_MAX_NS)
		c->backoff_ns *= 2;
	return NULL;
named:
	snprintf(n->buf, sizeof(n->buf), "container:%s", c->id);
	return n->buf;
}

static bool resolve(struct nsnames *n, int type, uint32_t inum, uint64_t nsid, uint32_t hint,
		    char *out, size_t len)
{
	const struct container_info *ci;
	int64_t now = now_coarse_ns();
	const char *s;

	if (type < 0 || type >= NSAUDIT_NS_MAX || !inum)
		return false;
	poll_inotify(n, now);
	if ((n->mounts_dirty && now - n->mounts_read_ns >= MOUNT_DIRTY_NS) ||
	    now - n->mounts_read_ns >= MOUNT_STALE_NS)
		reread_mounts(n, now);
	s = nsnames_mount_name(n, type, inum);
	if (!s && is_host(n, type, inum))
		s = "host";
	if (!s && n->ctr && (ci = containers_by_ns(n->ctr, type, inum, nsid))) {
		snprintf(n->buf, sizeof(n->buf), "container:%s", ci->id);
		s = n->buf;
	}
	if (!s)
		s = container_name(n, type, inum, nsid, hint, now);
	if (!s)
		return false;
	/* per record, twice: no printf machinery for a copy */
	{
		size_t n = strnlen(s, len - 1);

		memcpy(out, s, n);
		out[n] = '\0';
	}
	return true;
}

const char *nsnames_lookup(struct nsnames *n, int type, uint32_t inum, uint32_t hint_pid)
{
	char tmp[sizeof(n->buf)];

	if (!resolve(n, type, inum, 0, hint_pid, tmp, sizeof(tmp)))
		return NULL;
	memcpy(n->buf, tmp, sizeof(tmp));
	return n->buf;
}

/*
 * Which container the record is about (see nsnames_container). A
 * namespace a runtime is making or entering before the container's state
 * names it is named after the container too, unless something else
 * (a mount) already names it.
 */
static void record_container(struct nsnames *n, const struct nsaudit_event *e, const char **name)
{
	bool has_ns = e->flags & NSAUDIT_F_HAS_NS, has_old = e->flags & NSAUDIT_F_HAS_OLD;
	int type = (int)e->ns_type;
	const struct container_info *ci = NULL;

	n->has_last_ctr = false;
	if (!n->ctr || e->op == NSAUDIT_OP_LOST)
		return;
	if (has_ns && !is_host(n, type, e->ns_inum))
		ci = containers_by_ns(n->ctr, type, e->ns_inum, e->ns_id);
	if (!ci && has_old && !is_host(n, type, e->old_inum))
		ci = containers_by_ns(n->ctr, type, e->old_inum, e->old_ns_id);
	if (!ci && has_ns && !is_host(n, type, e->ns_inum) && e->op != NSAUDIT_OP_UMOUNT &&
	    e->op != NSAUDIT_OP_NS_FREE) {
		ci = containers_by_actor(n->ctr, e->pid, e->comm, e->ppid);
		if (ci && !*name) {
			snprintf(n->name_buf, sizeof(n->name_buf), "container:%s", ci->id);
			*name = n->name_buf;
		}
	}
	if (ci) {
		n->last_ctr = *ci;
		n->has_last_ctr = true;
	}
}

struct containers *nsnames_containers(struct nsnames *n)
{
	return n->ctr;
}

bool nsnames_is_host(struct nsnames *n, int type, uint32_t inum)
{
	return type >= 0 && type < NSAUDIT_NS_MAX && is_host(n, type, inum);
}

const struct container_info *nsnames_container(struct nsnames *n)
{
	return n->has_last_ctr ? &n->last_ctr : NULL;
}

const struct container_info *nsnames_owner(struct nsnames *n, int type, uint32_t inum,
					   uint64_t id)
{
	if (!n->ctr || !inum || nsnames_is_host(n, type, inum))
		return NULL;
	return containers_by_ns(n->ctr, type, inum, id);
}

void nsnames_refresh_containers(struct nsnames *n)
{
	if (n->ctr)
		containers_refresh(n->ctr, true);
}

const struct container_info *nsnames_find_container(struct nsnames *n, const char *what)
{
	const struct container_info *ci;

	if (!n->ctr)
		return NULL;
	ci = containers_find(n->ctr, what);
	if (!ci) {
		containers_refresh(n->ctr, false);
		ci = containers_find(n->ctr, what);
	}
	return ci;
}

void nsnames_for_event(struct nsnames *n, const struct nsaudit_event *e, const char **name,
		       const char **old)
{
	bool ok = e->result >= 0 || e->op == NSAUDIT_OP_OPEN;
	bool has_ns = e->flags & NSAUDIT_F_HAS_NS, has_old = e->flags & NSAUDIT_F_HAS_OLD;
	bool children = e->flags & NSAUDIT_F_FOR_CHILDREN;
	uint32_t hint = 0, old_hint = 0;
	int type = (int)e->ns_type;
	const char *nn;

	*name = *old = NULL;
	if (type < 0 || type >= NSAUDIT_NS_MAX)
		return;
	switch (e->op) {
	case NSAUDIT_OP_MOUNT:
		if (has_ns && e->path[0] == '/')
			nsnames_add_mount(n, e->path, type, e->ns_inum);
		n->mounts_dirty = true;
		break;
	case NSAUDIT_OP_OPEN:
	case NSAUDIT_OP_NSFD:
		hint = e->target_pid > 0 ? (uint32_t)e->target_pid : 0;
		break;
	case NSAUDIT_OP_CLONE:
		hint = e->target_pid > 0 ? (uint32_t)e->target_pid : 0;
		old_hint = e->pid;
		if (type == NSAUDIT_NS_MNT && hint)
			note_mntns(n, e->ns_inum, hint);
		break;
	case NSAUDIT_OP_SETNS:
	case NSAUDIT_OP_UNSHARE:
		if (ok && !children)
			hint = e->pid;
		if (!ok || children)
			old_hint = e->pid;
		if (type == NSAUDIT_NS_MNT && ok && e->result == 0)
			note_mntns(n, e->ns_inum, e->pid);
		break;
	default:
		break;
	}
	if (has_ns &&
	    resolve(n, type, e->ns_inum, e->ns_id, hint, n->name_buf, sizeof(n->name_buf)))
		*name = n->name_buf;
	if (has_old &&
	    resolve(n, type, e->old_inum, e->old_ns_id, old_hint, n->old_buf, sizeof(n->old_buf)))
		*old = n->old_buf;
	record_container(n, e, name);
	if (e->op == NSAUDIT_OP_UMOUNT && e->path[0]) {
		/* the record names what it removes; then the name is gone */
		if (!*name && has_ns) {
			nn = type == NSAUDIT_NS_NET ? netns_name_from_path(e->path) : NULL;
			snprintf(n->name_buf, sizeof(n->name_buf), "%s", nn ? nn : e->path);
			*name = n->name_buf;
		}
		if (e->path[0] == '/')
			nsnames_remove_mount(n, e->path);
		n->mounts_dirty = true;
	}
}
