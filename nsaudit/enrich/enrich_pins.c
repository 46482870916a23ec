// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * enrich_pins.c - what user space completes in a record about a pin: the
 * namespace a bind mount pinned (from mountinfo, in the actor's mount
 * namespace), the pin a umount or a move removed (the nsfs mount table),
 * (the type and target of a refused open: enrich_denied.c).
 */
#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "clock.h"
#include "enrich_impl.h"
#include "mountinfo.h"
#include "nstype.h"
#include "mounttab.h"
#include "mntns_id.h"

int proc_ns_path_pid(const char *path, uint32_t self_pid)
{
	const char *s;
	char *end;
	long v;

	if (strncmp(path, "/proc/", 6))
		return 0;
	s = path + 6;
	if (!strncmp(s, "self/", 5) || !strncmp(s, "thread-self/", 12))
		return (int)self_pid;
	v = strtol(s, &end, 10);
	if (end == s || *end != '/' || v <= 0 || v > INT_MAX)
		return 0;
	return (int)v;
}

int proc_ns_path_type(const char *path, bool *for_children)
{
	static const char sfx[] = "_for_children";
	char name[32];
	const char *s;
	size_t n;
	int type;

	if (!proc_ns_path_pid(path, 1))
		return -1;
	s = strchr(path + 6, '/');		/* after PID, self or thread-self */
	if (!strncmp(s, "/task/", 6)) {
		char *end;

		if (strtol(s + 6, &end, 10) <= 0 || *end != '/')
			return -1;
		s = end;
	}
	if (strncmp(s, "/ns/", 4))
		return -1;
	s += 4;
	n = strlen(s);
	if (!n || n >= sizeof(name) || strchr(s, '/'))
		return -1;
	memcpy(name, s, n + 1);
	*for_children = n > sizeof(sfx) - 1 && !strcmp(name + n - (sizeof(sfx) - 1), sfx);
	if (*for_children)
		name[n - (sizeof(sfx) - 1)] = '\0';
	type = nstype_from_name(name);
	if (type < 0 || (*for_children && type != NSAUDIT_NS_PID && type != NSAUDIT_NS_TIME))
		return -1;
	return type;
}

static void absolute_path(const struct nsaudit_event *e, char *out, size_t len)
{
	char link[64], cwd[PATH_MAX];
	ssize_t n;

	if (e->path[0] == '/') {
		snprintf(out, len, "%s", e->path);
		return;
	}
	snprintf(link, sizeof(link), "/proc/%u/cwd", e->pid);
	n = readlink(link, cwd, sizeof(cwd) - 1);
	if (n <= 0) {
		snprintf(out, len, "%s", e->path);
		return;
	}
	cwd[n] = '\0';
	snprintf(out, len, "%s/%s", strcmp(cwd, "/") ? cwd : "", e->path);
}

/* Find the nsfs mount now at path in a mountinfo file (the last wins). */
static bool find_mount(const char *file, const char *path, int *type, uint32_t *inum,
		       bool *readable)
{
	char line[PATH_MAX * 2], mnt[PATH_MAX];
	bool found = false;
	uint32_t i;
	int t;
	FILE *f = fopen(file, "re");

	if (!f)
		return false;
	*readable = true;
	while (fgets(line, sizeof(line), f)) {
		if (mountinfo_nsfs_line(line, mnt, sizeof(mnt), &t, &i) && !strcmp(mnt, path)) {
			*type = t;
			*inum = i;
			found = true;
		}
	}
	fclose(f);
	return found;
}

/*
 * The actor's mount namespace: its thread's, or (gone already: mount(8),
 * ip) its parent's, which it almost always shares. 0 if neither is there.
 */
static uint32_t actor_mntns(const struct nsaudit_event *e)
{
#ifdef NSAUDIT_F_MOVE	/* the kernel side says which (mnt_ns_inum) */
	if (e->mnt_ns_inum)
		return e->mnt_ns_inum;
#endif
	return task_mntns(e->pid, e->tid) ?: (e->ppid ? task_mntns(e->ppid, e->ppid) : 0);
}

/*
 * A bind source that can name a namespace: /proc/PID/ns/TYPE (also under
 * task/TID, self, thread-self), /proc/PID/fd/N, or a known pin. Any other
 * unresolved bind is of an ordinary file.
 */
static bool nsfs_like_source(struct enrich *en, uint32_t mntns, const char *src)
{
	bool children;

	if (!src[0])
		return true;	/* not told: it may have been */
	if (proc_ns_path_type(src, &children) >= 0)
		return true;
	if (!strncmp(src, "/proc/", 6) && strstr(src, "/fd/"))
		return true;
	return mounttab_find(&en->pins, mntns, src) != NULL;
}

/*
 * mount MS_MOVE or move_mount of an attached mount: a pin there moves (and
 * pins below it move along, without records of their own). A move of a
 * mount that is no pin is no record.
 */
static bool complete_move(struct enrich *en, struct nsaudit_event *e, const char *path,
			  uint32_t mntns)
{
	char src[PATH_MAX];
	uint32_t inum;
	size_t below;
	int type;

	snprintf(src, sizeof(src), "%s", e->src_path);
	if (!mounttab_move(&en->pins, mntns ?: en->self_mntns, src, path, &type, &inum, &below))
		return false;
	e->ns_type = (uint32_t)type;
	e->ns_inum = inum;
	e->flags |= NSAUDIT_F_HAS_NS;
	return true;
}

static void unresolved(struct enrich *en, const char *fmt, const char *what)
{
	size_t n = strlen(en->unresolved);

	snprintf(en->unresolved + n, sizeof(en->unresolved) - n, "%s%s: %s", n ? "; " : "", what,
		 fmt);
}

/*
 * mount(2) with MS_BIND. A remount of a bind mount changes its flags and
 * pins nothing. A source the kernel side resolved (the caller's own
 * namespace) is a pin; otherwise the target is looked up in the actor's
 * mount namespace. Not nsfs there: an ordinary bind, not a record. Not
 * readable (the actor and everything in its mount namespace are gone) or
 * no longer mounted: it may have been a pin, so it is kept, with unresolved
 * saying why it names no namespace.
 */
static bool complete_mount(struct enrich *en, struct nsaudit_event *e)
{
	char path[PATH_MAX], real[PATH_MAX], file[96];
	uint32_t inum, mntns;
	bool readable = false;
	int type;

	/* (arg is mount(2)'s flags; move_mount's are other bits) */
	if (!(e->flags & NSAUDIT_F_NEW_MOUNT_API) && (e->arg & MS_REMOUNT))
		return false;
	/* refused: the kernel side named the namespace; nothing was pinned */
	if (e->result < 0)
		return true;
	absolute_path(e, path, sizeof(path));
	mntns = actor_mntns(e);
	/* found in the kernel's mount tree: nothing to look up, nothing to race */
	if (e->flags & NSAUDIT_F_PIN_EXACT) {
		mntns = e->mnt_ns_inum ?: mntns;
		note_mntns(en, mntns, e->pid, e->tid);
		mounttab_add_id(&en->pins, mntns, path, e->ns_type, e->ns_inum, e->mnt_id,
				e->mnt_unique);
		if (e->flags & NSAUDIT_F_PATH_CUT)
			mounttab_mark_cut(&en->pins, mntns, e->mnt_id, e->mnt_unique);
		return true;
	}
#ifdef NSAUDIT_F_MOVE
	/* a known pin moved; otherwise (an open_tree copy the kernel side
	 * resolved, a mount we did not know) it is handled as a bind */
	if ((e->flags & NSAUDIT_F_MOVE) && e->src_path[0] == '/' &&
	    complete_move(en, e, path, mntns))
		return true;
#endif
	/* a path longer than the record holds: its start may name another
	 * mount (a pin of its own): never looked up by it */
	if (!(e->flags & NSAUDIT_F_HAS_NS) && (e->flags & NSAUDIT_F_PATH_CUT)) {
		if (!nsfs_like_source(en, mntns, e->src_path))
			return false; /* a bind of an ordinary file */
		unresolved(en, "its path is longer than a record holds (cut), so it was not "
			   "looked up", "mount");
		return true;
	}
	if (!(e->flags & NSAUDIT_F_HAS_NS)) {
		snprintf(file, sizeof(file), "/proc/%u/task/%u/mountinfo", e->pid, e->tid ?: e->pid);
		if (find_mount(file, path, &type, &inum, &readable))
			goto found;
		if (e->ppid && mntns && task_mntns(e->ppid, e->ppid) == mntns) {
			snprintf(file, sizeof(file), "/proc/%u/mountinfo", e->ppid);
			if (find_mount(file, path, &type, &inum, &readable))
				goto found;
		}
		if (mntns_mountinfo(en, mntns, file, sizeof(file)) &&
		    (find_mount(file, path, &type, &inum, &readable) ||
		     (realpath(path, real) && find_mount(file, real, &type, &inum, &readable))))
			goto found;
#ifdef NSAUDIT_F_MOVE
		/* the source says whether it could have been a pin */
		if (!nsfs_like_source(en, mntns, e->src_path))
			return false;	/* a bind of an ordinary file */
		if (readable && !e->src_path[0])
			return false;
#else
		if (readable)
			return false;	/* an ordinary bind mount */
#endif
		unresolved(en, mntns ? "no longer mounted when the record was read" :
			   "the actor and its mount namespace were gone when the record was read",
			   "mount");
		return true;
found:
		e->ns_type = type;
		e->ns_inum = inum;
		e->flags |= NSAUDIT_F_HAS_NS;
	}
	if (!mntns)
		mntns = en->self_mntns;	/* gone at once: ip netns add runs in ours */
	note_mntns(en, mntns, e->pid, e->tid);
	mounttab_add(&en->pins, mntns, path, e->ns_type, e->ns_inum);
	return true;
}

/*
 * An umount whose path spelling names no pin (DIR//name, a symlinked
 * directory, a relative path, a pin that predates us): the same file by
 * its canonical path (the actor's mount namespace is ours), else the pin
 * of mntns whose mount id left its mountinfo.
 */
static bool umount_by_identity(struct enrich *en, uint32_t mntns, const char *path, int *type,
			       uint32_t *inum)
{
	char real[PATH_MAX], file[96], line[PATH_MAX * 2];
	size_t i, j, nids = 0, cap = 0;
	uint32_t *ids = NULL;
	bool hit = false;
	FILE *f;

	if (mntns == en->self_mntns && realpath(path, real) &&
	    mounttab_remove(&en->pins, mntns, real, type, inum))
		return true;
	if (!mntns_mountinfo(en, mntns, file, sizeof(file)) || !(f = fopen(file, "re")))
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (ARRAY_RESERVE(&ids, &cap, nids + 1))
			break;
		ids[nids++] = (uint32_t)strtoul(line, NULL, 10);
	}
	fclose(f);
	for (i = 0; nids && i < en->pins.n && !hit; i++) {
		const struct mount_pin *p = &en->pins.v[i];

		if (p->mntns != mntns || !p->mnt_id || p->exact)
			continue;
		for (j = 0; j < nids && ids[j] != p->mnt_id; j++)
			;
		if (j == nids)
			hit = mounttab_remove_id(&en->pins, mntns, p->mnt_id, 0, type, inum, NULL);
	}
	free(ids);
	return hit;
}

/*
 * An umount whose path is longer than the record holds (cut): never looked
 * up by its first bytes (they may be another pin's whole path). A pin of
 * the actor's mount namespace whose path starts with them may be the one:
 * the record is kept, naming none; no such pin: an ordinary mount's.
 */
static bool umount_cut(struct enrich *en, const struct nsaudit_event *e, uint32_t mntns)
{
	char path[PATH_MAX];
	size_t i, n;

	absolute_path(e, path, sizeof(path));
	n = strlen(path);
	for (i = 0; i < en->pins.n; i++)
		if ((!mntns || en->pins.v[i].mntns == mntns) &&
		    !strncmp(en->pins.v[i].path, path, n))
			break;
	if (i == en->pins.n)
		return false;
	unresolved(en, "its path is longer than a record holds (cut), so it was not looked up",
		   "umount");
	return true;
}

/*
 * umount: the pin at that path in the actor's mount namespace, if any.
 * When the actor's mount namespace cannot be read any more, a path that
 * is a pin in exactly one known mount namespace is taken, and unresolved
 * says that it was matched by path only.
 */
/*
 * A refused umount the kernel side named no pin for: a pin older than the
 * recorder (learned from mountinfo at start) if the table has one at its
 * path in the actor's mount namespace; else no pin, no record. A pin the
 * kernel side tracks (exact) it would have named, unless the path named
 * several: not ours to guess. The pin stays.
 */
static bool complete_refused_umount(struct enrich *en, struct nsaudit_event *e)
{
	const struct mount_pin *hit;
	char path[PATH_MAX];
	uint32_t mntns;

	/* the kernel side's, at the call (the refused caller is often gone) */
	mntns = e->actor_mntns ?: actor_mntns(e);
	if (e->flags & NSAUDIT_F_PATH_CUT)
		return umount_cut(en, e, mntns);
	absolute_path(e, path, sizeof(path));
	hit = mntns ? mounttab_find(&en->pins, mntns, path) : NULL;
	if (!hit || hit->exact)
		return false;
	e->ns_type = (uint32_t)hit->type;
	e->ns_inum = hit->inum;
	e->flags |= NSAUDIT_F_HAS_NS;
	return true;
}

static bool complete_umount(struct enrich *en, struct nsaudit_event *e)
{
	char path[PATH_MAX];
	const struct mount_pin *hit = NULL;
	uint32_t mntns, inum;
	size_t i;
	int type;

	/* refused: the pin the path names (by the kernel side, else the
	 * table's pins older than the recorder) stays */
	if (e->result < 0)
		return (e->flags & NSAUDIT_F_HAS_NS) || complete_refused_umount(en, e);
	/* the kernel side named the pin it detached: keep the table in step */
	if (e->flags & NSAUDIT_F_PIN_EXACT) {
		mounttab_remove_id(&en->pins, e->mnt_ns_inum, e->mnt_id, e->mnt_unique, &type, &inum,
				   NULL);
		return true;
	}
	mntns = actor_mntns(e);
	if (e->flags & NSAUDIT_F_PATH_CUT)
		return umount_cut(en, e, mntns);
	absolute_path(e, path, sizeof(path));
	if (mntns) {
		if (!mounttab_remove(&en->pins, mntns, path, &type, &inum) &&
		    !umount_by_identity(en, mntns, path, &type, &inum))
			return false;
	} else {
		/* the actor's mount namespace is gone: if the path is a pin in
		 * several, the one that died with it is the actor's */
		int pass;

		for (pass = 0; pass < 2 && !hit; pass++) {
			for (i = 0; i < en->pins.n; i++) {
				if (strcmp(en->pins.v[i].path, path) ||
				    (pass && en->pins.v[i].mntns == en->self_mntns) ||
				    (pass && mntns_alive(en, en->pins.v[i].mntns)))
					continue;
				if (hit) {
					hit = NULL;	/* ambiguous: not ours to guess */
					if (pass)
						return false;
					break;
				}
				hit = &en->pins.v[i];
			}
		}
		if (!hit)
			return false;
		mntns = hit->mntns;
		mounttab_remove(&en->pins, mntns, path, &type, &inum);
		unresolved(en, "the actor's mount namespace was gone: matched by path", "umount");
	}
	e->ns_type = (uint32_t)type;
	e->ns_inum = inum;
	e->flags |= NSAUDIT_F_HAS_NS;
	return true;
}

bool enrich_pin_left(struct enrich *en, const struct nsaudit_pin *pin, uint32_t ns_state,
		     struct nsaudit_event *e, bool *ns_died)
{
	char *path = NULL;
	uint32_t inum;
	int type, alive;
	bool known;

	en->unresolved[0] = '\0';
	/*
	 * The kernel side's pin is the truth: one user space's table lacks
	 * (its mount record was lost to a full ring, counted) is still
	 * reported, with what the kernel side knows and no path, never
	 * silently forgotten (issue 47).
	 */
	known = mounttab_remove_id(&en->pins, pin->mnt_ns_inum, pin->mnt_id, pin->mnt_unique,
				   &type, &inum, &path);
	memset(e, 0, sizeof(*e));
	e->op = NSAUDIT_OP_UMOUNT;
	e->ns_type = pin->ns_type;
	e->ns_inum = pin->ns_inum;
	e->ns_id = pin->ns_id;
	e->flags = NSAUDIT_F_HAS_NS | NSAUDIT_F_PIN_EXACT | NSAUDIT_F_PIN_VANISHED |
		   NSAUDIT_F_INFERRED;
	e->fd = -1;
	e->probe = NSAUDIT_PROBE_USER;
	e->ts_boot_ns = (uint64_t)clock_ns(CLOCK_BOOTTIME);
	e->mnt_ns_inum = pin->mnt_ns_inum;
	e->mnt_ns_id = pin->mnt_ns_id;
	e->mnt_unique = pin->mnt_unique;
	e->mnt_id = pin->mnt_id;
	snprintf(e->path, sizeof(e->path), "%s", path ?: "");
	free(path);
	if (!known)
		unresolved(en, "its mount record was lost (see the lost records): no path",
			   "umount");
	/*
	 * The kernel side looked at the namespace's root mount: its word.
	 * Else by identity where listmount can say it lives (a recorder
	 * without CAP_SYS_ADMIN is told ENOENT of every other namespace,
	 * living or not: no answer), else by inode (reused, a last resort).
	 */
	if (ns_state != NSAUDIT_PIN_NS_UNKNOWN) {
		*ns_died = ns_state == NSAUDIT_PIN_NS_DIED;
		return true;
	}
	alive = mntns_id_alive(pin->mnt_ns_id);
	*ns_died = alive == 1 ? false : !mntns_alive(en, pin->mnt_ns_inum);
	return true;
}

const char *enrich_unresolved(struct enrich *en, const struct nsaudit_event *e, const char *exe,
			      const char *cgroup)
{
	char path[64];
	bool gone;

	if (e->op != NSAUDIT_OP_LOST && e->pid && (!exe || !cgroup)) {
		snprintf(path, sizeof(path), "/proc/%u", e->pid);
		gone = access(path, F_OK) != 0;
		/* kernel threads have no executable: nothing is missing there */
		if (!exe && gone && e->exe_ino)
			unresolved(en, "the process exited before the record was read and its "
				   "executable was not seen at exec", "exe");

	}
	return en->unresolved[0] ? en->unresolved : NULL;
}

bool enrich_complete(struct enrich *en, struct nsaudit_event *e)
{
	en->unresolved[0] = '\0';
	switch (e->op) {
	case NSAUDIT_OP_MOUNT:
		return complete_mount(en, e);
	case NSAUDIT_OP_UMOUNT:
		return complete_umount(en, e);
	case NSAUDIT_OP_OPEN:
		if (e->result < 0)	/* enrich_denied.c: any procfs */
			return enrich_complete_denied(en, e);
		/* a cut path's end is not the path's: no pid read from it */
		if (!(e->flags & NSAUDIT_F_PATH_CUT))
			e->target_pid = proc_ns_path_pid(e->path, e->pid);
		return true;
	case NSAUDIT_OP_UNSHARE:
	case NSAUDIT_OP_CLONE:
	case NSAUDIT_OP_SETNS:
		new_mntns(en, e);
		return true;
	default:
		return true;
	}
}
