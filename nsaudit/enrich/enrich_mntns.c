// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * enrich_mntns.c - the mount namespaces the nsfs pins live in: one task in
 * each (whose mountinfo shows its mounts), which of them are still alive,
 * and the pins that went with one that died.
 */
#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "enrich_impl.h"
#include "mountinfo.h"
#include "nstype.h"
#include "mounttab.h"
#include "mntns_id.h"
#include "array.h"

/* The mount namespace of a task (0, 0: ourselves); 0 if it is gone. */
uint32_t task_mntns(uint32_t pid, uint32_t tid)
{
	char path[64];
	struct stat st;

	if (!pid)
		snprintf(path, sizeof(path), "/proc/self/ns/mnt");
	else
		snprintf(path, sizeof(path), "/proc/%u/task/%u/ns/mnt", pid, tid ?: pid);
	return stat(path, &st) ? 0 : (uint32_t)st.st_ino;
}

/* Remember a task in mount namespace inum (the newest one wins). */
void note_mntns(struct enrich *en, uint32_t inum, uint32_t pid, uint32_t tid)
{
	int i;

	if (!inum || !pid)
		return;
	for (i = 0; i < en->nmntns; i++) {
		if (en->mntns[i].inum == inum) {
			en->mntns[i].pid = pid;
			en->mntns[i].tid = tid ?: pid;
			return;
		}
	}
	if (en->nmntns < MAX_MNTNS) {
		en->mntns[en->nmntns].inum = inum;
		en->mntns[en->nmntns].pid = pid;
		en->mntns[en->nmntns++].tid = tid ?: pid;
	}
}

static struct mntns_task *find_mntns(struct enrich *en, uint32_t inum)
{
	int i;

	for (i = 0; i < en->nmntns; i++)
		if (en->mntns[i].inum == inum)
			return &en->mntns[i];
	return NULL;
}

/*
 * The pins in mntns's mountinfo, at start. One of another mount namespace
 * that our own (scanned first) has too, the same namespace at the same
 * path, is taken for the copy that namespace got of ours when it was made
 * (or by propagation): no mount call made it, and none is told when that
 * namespace dies with it. Told, it was an "umount" of a pin that is still
 * mounted where it was made (99-refused-nsfs-mounts saw one, once: another
 * test's mount namespace, made while 99's pin was there, died).
 */
static void scan_mountinfo(struct enrich *en, const char *file, uint32_t mntns)
{
	char line[PATH_MAX * 2], mnt[PATH_MAX];
	const struct mount_pin *ours;
	uint32_t inum, id;
	int type;
	FILE *f = fopen(file, "re");

	if (!f)
		return;
	/* the mount id (first field) lets an umount by any spelling be matched */
	while (fgets(line, sizeof(line), f)) {
		if (!mountinfo_nsfs_line(line, mnt, sizeof(mnt), &type, &inum))
			continue;
		id = (uint32_t)strtoul(line, NULL, 10);
		mounttab_add_id(&en->pins, mntns, mnt, type, inum, id, 0);
		ours = mntns != en->self_mntns ? mounttab_find(&en->pins, en->self_mntns, mnt) : NULL;
		if (ours && ours->type == type && ours->inum == inum)
			mounttab_mark_copied(&en->pins, mntns, id);
	}
	fclose(f);
}

void enrich_scan_mounts(struct enrich *en)
{
	char file[96];
	int i;

	scan_mountinfo(en, "/proc/self/mountinfo", en->self_mntns);
	for (i = 0; i < en->nmntns; i++) {
		if (en->mntns[i].inum == en->self_mntns)
			continue;
		/* a thread can be in another mount namespace than its leader */
		snprintf(file, sizeof(file), "/proc/%u/task/%u/mountinfo", en->mntns[i].pid,
			 en->mntns[i].tid);
		scan_mountinfo(en, file, en->mntns[i].inum);
	}
}

/* The mountinfo of mount namespace mntns, through a task known to be in it. */
bool mntns_mountinfo(struct enrich *en, uint32_t mntns, char *file, size_t len)
{
	struct mntns_task *m = find_mntns(en, mntns);

	if (!mntns)
		return false;
	if (mntns == en->self_mntns) {
		snprintf(file, len, "/proc/self/mountinfo");
		return true;
	}
	if (!m || task_mntns(m->pid, m->tid) != mntns)
		return false;
	snprintf(file, len, "/proc/%u/task/%u/mountinfo", m->pid, m->tid);
	return true;
}



/* A new mount namespace starts with a copy of its parent's pins. */
void new_mntns(struct enrich *en, const struct nsaudit_event *e)
{
	uint32_t pid = e->op == NSAUDIT_OP_CLONE && e->target_pid > 0 ? (uint32_t)e->target_pid
								     : e->pid;

	if (e->ns_type != NSAUDIT_NS_MNT || e->result < 0 || !(e->flags & NSAUDIT_F_HAS_NS))
		return;
	if (e->op == NSAUDIT_OP_SETNS) {
		note_mntns(en, e->ns_inum, e->pid, e->tid);
		return;
	}
	if (e->flags & NSAUDIT_F_HAS_OLD)
		mounttab_copy_ns(&en->pins, e->old_inum, e->ns_inum);
	note_mntns(en, e->ns_inum, pid, e->op == NSAUDIT_OP_CLONE ? pid : e->tid);
}

static void keep_dead(void *ctx, const struct mount_pin *p)
{
	struct enrich *en = ctx;
	struct dead_pin *d;

	if (p->copied)		/* no record pinned it there: none unpins it */
		return;
	if (ARRAY_RESERVE(&en->dead, &en->capdead, en->ndead + 1))
		return;
	d = &en->dead[en->ndead];
	d->path = strdup(p->path);
	if (!d->path)
		return;
	d->mntns = p->mntns;
	d->type = p->type;
	d->inum = p->inum;
	en->ndead++;
}

/* Any process in mount namespace inum (one is remembered for it then)? */
bool mntns_alive(struct enrich *en, uint32_t inum)
{
	struct mntns_task *m = find_mntns(en, inum);
	struct dirent *d;
	unsigned long pid;
	char path[64], *end;
	struct stat st;
	size_t i;
	DIR *dir;

	if (m && task_mntns(m->pid, m->tid) == inum)
		return true;
	/* a bind mount of the mount namespace itself keeps it */
	for (i = 0; i < en->pins.n; i++)
		if (en->pins.v[i].type == NSAUDIT_NS_MNT && en->pins.v[i].inum == inum)
			return true;
	dir = opendir("/proc");
	if (!dir)
		return true;	/* cannot tell: assume it lives */
	while ((d = readdir(dir))) {
		pid = strtoul(d->d_name, &end, 10);
		if (*end || !pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%lu/ns/mnt", pid);
		if (!stat(path, &st) && (uint32_t)st.st_ino == inum) {
			note_mntns(en, inum, (uint32_t)pid, (uint32_t)pid);
			closedir(dir);
			return true;
		}
	}
	closedir(dir);
	/* no process in it: an fd can still hold it */
	return mntns_held_by_fd(inum);
}

void enrich_check_mntns(struct enrich *en)
{
	int64_t now = clock_ns(CLOCK_MONOTONIC);
	uint32_t seen[64];
	size_t i, j, nseen = 0;

	if (now - en->mntns_checked_ns < MNTNS_CHECK_NS)
		return;
	en->mntns_checked_ns = now;
	for (i = 0; i < en->pins.n && nseen < 64; i++) {
		uint32_t ns = en->pins.v[i].mntns;

		/* the kernel side reports its own pins when they go (sweep_pins):
		 * a namespace held by an fd or a bind mount is not dead */
		if (ns == en->self_mntns || en->pins.v[i].exact)
			continue;
		for (j = 0; j < nseen && seen[j] != ns; j++)
			;
		if (j < nseen)
			continue;
		seen[nseen++] = ns;
	}
	for (j = 0; j < nseen; j++)
		if (!mntns_alive(en, seen[j]))
			mounttab_drop_ns(&en->pins, seen[j], keep_dead, en);
}

bool enrich_dead_pin(struct enrich *en, struct nsaudit_event *e, uint32_t *mntns)
{
	struct dead_pin *d;

	if (!en->ndead)
		return false;
	d = &en->dead[--en->ndead];
	memset(e, 0, sizeof(*e));
	e->op = NSAUDIT_OP_UMOUNT;
	e->ns_type = (uint32_t)d->type;
	e->ns_inum = d->inum;
	e->flags = NSAUDIT_F_HAS_NS | NSAUDIT_F_INFERRED;
	e->fd = -1;
	e->probe = NSAUDIT_PROBE_USER;
	e->ts_boot_ns = (uint64_t)clock_ns(CLOCK_BOOTTIME);
	snprintf(e->path, sizeof(e->path), "%s", d->path);
	*mntns = d->mntns;
	free(d->path);
	return true;
}
