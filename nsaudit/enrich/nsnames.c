// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * nsnames.c - a namespace, or a record's namespaces, resolved to names:
 * ip netns names, bind-mount paths, "host", the container that owns it.
 * Parsers: nsnames_parse.c; what the cache is filled from: nsnames_scan.c.
 */
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
#include "nsnames_impl.h"
#include "nstype.h"

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
	posindex_free(&n->mount_ix);
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
		/* the same ns_id is the same namespace (never reused): its
		 * owner does not change, also once the process it was found
		 * from is gone (a runtime's stage exits at once) */
		if (now - c->checked_ns < REVALIDATE_NS || (nsid && c->nsid == nsid))
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

/*
 * The names' upkeep before looking any up: ip netns's directory watched,
 * the mount table re-read when due. Once per record (its namespace and
 * the one it left are looked up at the same moment); returns the clock.
 */
static int64_t refresh(struct nsnames *n)
{
	int64_t now = now_coarse_ns();

	poll_inotify(n, now);
	if (mounts_due(n, now))
		reread_mounts(n, now);
	return now;
}

/* now: refresh()'s */
static bool resolve(struct nsnames *n, int64_t now, int type, uint32_t inum, uint64_t nsid,
		    uint32_t hint, char *out, size_t len)
{
	const struct container_info *ci;
	const char *s;

	if (type < 0 || type >= NSAUDIT_NS_MAX || !inum)
		return false;
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

const char *nsnames_cached_container(struct nsnames *n, int type, uint32_t inum, uint64_t nsid)
{
	struct cache_ent *c;

	if (type < 0 || type >= NSAUDIT_NS_MAX || !inum)
		return NULL;
	c = slot(n, type, inum);
	if (c->type != type || c->inum != inum || !c->named || !c->id[0] ||
	    (nsid && c->nsid != nsid))
		return NULL;
	return c->id;
}

const char *nsnames_lookup(struct nsnames *n, int type, uint32_t inum, uint32_t hint_pid)
{
	char tmp[sizeof(n->buf)];

	if (!inum || !resolve(n, refresh(n), type, inum, 0, hint_pid, tmp, sizeof(tmp)))
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
	/*
	 * A command line names the container only for a runtime's own
	 * process: one the kernel side followed from its birth and did not
	 * see run a trusted runtime (lineage other or container) is not
	 * believed on its name and arguments (a copy of unshare called runc,
	 * run by any user with a container's name among its arguments).
	 * Lineage not followed (no rules, or older than nsaudit): as before.
	 */
	bool by_cmdline = !(e->lineage & NSAUDIT_LINEAGE_FOLLOWED) ||
			  (e->lineage & NSAUDIT_LINEAGE_RUNTIME);
	int type = (int)e->ns_type;
	const struct container_info *ci = NULL;

	n->has_last_ctr = false;
	if (!n->ctr || e->op == NSAUDIT_OP_LOST)
		return;
	if (has_ns && !is_host(n, type, e->ns_inum))
		ci = containers_by_ns(n->ctr, type, e->ns_inum, e->ns_id);
	if (!ci && has_old && !is_host(n, type, e->old_inum))
		ci = containers_by_ns(n->ctr, type, e->old_inum, e->old_ns_id);
	if (!ci && by_cmdline && has_ns && !is_host(n, type, e->ns_inum) &&
	    e->op != NSAUDIT_OP_UMOUNT && e->op != NSAUDIT_OP_NS_FREE && e->op != NSAUDIT_OP_FREED) {
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

/*
 * A namespace the record's actor made by unshare(2): it is the container's
 * whose cgroup the actor was in at the call (the actor is in the new
 * namespace, or its children will be: pid, time), which is what a look at
 * the actor's /proc/PID/cgroup says while it lives. The record's cgroup
 * was read by id at the call (enrich_cgroup), so the answer does not
 * depend on the reader being quicker than the actor: runc's and crun's
 * stages, and a container's own `unshare -u true`, exit at once, and no
 * runtime state knows a container while it is being made (containerd's
 * own cgroup, /NAMESPACE/ID, names its task by the bundle the shim made
 * first). A namespace
 * made outside any container's cgroup is no container's by this: the
 * cache entry a dead namespace of the same inode left is dropped. Not for
 * clone(2): its child may start in another cgroup (CLONE_INTO_CGROUP, as
 * crun and systemd do); the child itself is asked (hint).
 */
static void note_made(struct nsnames *n, const struct nsaudit_event *e, const char *cgroup)
{
	char id[CONTAINER_ID_LEN];
	int type = (int)e->ns_type;

	if (e->op != NSAUDIT_OP_UNSHARE || e->result != 0 || !(e->flags & NSAUDIT_F_HAS_NS) ||
	    is_host(n, type, e->ns_inum))
		return;
	if (cgroup && (cgroup_container_id(cgroup, id, sizeof(id)) ||
		       (n->ctr && containers_containerd_task(n->ctr, cgroup, id, sizeof(id)))))
		cache_made(n, type, e->ns_inum, e->ns_id, e->pid, id, now_coarse_ns());
	else
		cache_made(n, type, e->ns_inum, e->ns_id, e->pid, NULL, now_coarse_ns());
}

void nsnames_for_event(struct nsnames *n, const struct nsaudit_event *e, const char *cgroup,
		       const char **name, const char **old)
{
	bool ok = e->result >= 0 || e->op == NSAUDIT_OP_OPEN;
	bool has_ns = e->flags & NSAUDIT_F_HAS_NS, has_old = e->flags & NSAUDIT_F_HAS_OLD;
	bool children = e->flags & NSAUDIT_F_FOR_CHILDREN;
	/*
	 * A path the actor mounted, opened or unmounted names a namespace
	 * only where the actor is of the host's user namespace (or the
	 * record does not say). From another one it is a path in a mount
	 * namespace that user namespace owns, never the host's: any user's
	 * `unshare -r -m` with a tmpfs on /run/netns and its own netns bound
	 * at /run/netns/NAME is not the host's NAME, and its umount there
	 * does not remove the host's NAME (search and lifetime take the same
	 * view of a log: audit_rec_mount_at()).
	 */
	bool host_paths = !e->actor_userns || is_host(n, NSAUDIT_NS_USER, e->actor_userns);
	uint32_t hint = 0, old_hint = 0;
	int type = (int)e->ns_type;
	int64_t now = 0;
	const char *nn;

	*name = *old = NULL;
	if (type < 0 || type >= NSAUDIT_NS_MAX)
		return;
	note_made(n, e, cgroup);
	switch (e->op) {
	case NSAUDIT_OP_MOUNT:
		if (has_ns && host_paths && e->path[0] == '/' && !(e->flags & NSAUDIT_F_PATH_CUT))
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
			names_note_mntns(n, e->ns_inum, hint);
		break;
	case NSAUDIT_OP_SETNS:
	case NSAUDIT_OP_UNSHARE:
		if (ok && !children)
			hint = e->pid;
		if (!ok || children)
			old_hint = e->pid;
		if (type == NSAUDIT_NS_MNT && ok && e->result == 0)
			names_note_mntns(n, e->ns_inum, e->pid);
		break;
	default:
		break;
	}
	if ((has_ns && e->ns_inum) || (has_old && e->old_inum))
		now = refresh(n);
	if (has_ns &&
	    resolve(n, now, type, e->ns_inum, e->ns_id, hint, n->name_buf, sizeof(n->name_buf)))
		*name = n->name_buf;
	if (has_old && resolve(n, now, type, e->old_inum, e->old_ns_id, old_hint, n->old_buf,
			       sizeof(n->old_buf)))
		*old = n->old_buf;
	/*
	 * An open of an ip netns name through its bind mount, read after the
	 * mount table lost it (an `ip netns del` right after the open: the
	 * watch on /run/netns re-read the table before this record): the
	 * name is the one the call opened, as the umount's record says too.
	 * A name the table has for the namespace still comes first.
	 */
	if (e->op == NSAUDIT_OP_OPEN && e->via == NSAUDIT_VIA_BIND && e->result >= 0 && has_ns &&
	    host_paths &&
	    type == NSAUDIT_NS_NET && !(e->flags & NSAUDIT_F_PATH_CUT) &&
	    (nn = netns_name_from_path(e->path)) && !nsnames_mount_name(n, type, e->ns_inum)) {
		snprintf(n->name_buf, sizeof(n->name_buf), "%s", nn);
		*name = n->name_buf;
	}
	record_container(n, e, name);
	/* a cut path (its first bytes) names no mount: nothing learnt */
	if (e->op == NSAUDIT_OP_UMOUNT && host_paths && e->path[0] &&
	    !(e->flags & NSAUDIT_F_PATH_CUT)) {
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
