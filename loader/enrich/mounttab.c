// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* mounttab.c - nsfs pins by (mount namespace, path). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mounttab.h"
#include "array.h"

void mounttab_init(struct mounttab *m)
{
	memset(m, 0, sizeof(*m));
}

void mounttab_free(struct mounttab *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	mounttab_init(m);
}

static struct mount_pin *find(const struct mounttab *m, uint32_t mntns, const char *path)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->v[i].mntns == mntns && !m->v[i].cut && !strcmp(m->v[i].path, path))
			return &m->v[i];
	return NULL;
}

const struct mount_pin *mounttab_find(const struct mounttab *m, uint32_t mntns, const char *path)
{
	return find(m, mntns, path);
}

/* A new entry at (mntns, path), all else zero; NULL on allocation failure. */
static struct mount_pin *append(struct mounttab *m, uint32_t mntns, const char *path)
{
	struct mount_pin *p;

	if (ARRAY_RESERVE(&m->v, &m->cap, m->n + 1))
		return NULL;
	p = &m->v[m->n];
	memset(p, 0, sizeof(*p));
	p->path = strdup(path);
	if (!p->path)
		return NULL;
	p->mntns = mntns;
	m->n++;
	return p;
}

bool mounttab_add(struct mounttab *m, uint32_t mntns, const char *path, int type, uint32_t inum)
{
	struct mount_pin *p = find(m, mntns, path);

	if (!p && !(p = append(m, mntns, path)))
		return false;
	p->copied = false;
	p->cut = false;
	p->type = type;
	p->inum = inum;
	return true;
}

/* Inodes and mount ids are reused: an exact pin is found by mnt_unique. */
static struct mount_pin *find_id(const struct mounttab *m, uint32_t mntns, uint32_t mnt_id,
				 uint64_t mnt_unique)
{
	size_t i;

	for (i = 0; (mnt_id || mnt_unique) && i < m->n; i++) {
		const struct mount_pin *p = &m->v[i];

		if (mnt_unique ? p->mnt_unique == mnt_unique
			       : p->mntns == mntns && p->mnt_id == mnt_id && !p->mnt_unique)
			return &m->v[i];
	}
	return NULL;
}

bool mounttab_add_id(struct mounttab *m, uint32_t mntns, const char *path, int type,
		     uint32_t inum, uint32_t mnt_id, uint64_t mnt_unique)
{
	struct mount_pin *p = find_id(m, mntns, mnt_id, mnt_unique);
	char *np;

	if (p) {	/* the same mount: moved (or seen again) */
		np = strdup(path);
		if (!np)
			return false;
		free(p->path);
		p->path = np;
	} else {
		/* a path-only entry there (a copy, a guess) is this mount; one
		 * with another id is another mount stacked at the same path */
		p = find(m, mntns, path);
		if ((!p || p->mnt_unique || (p->mnt_id && p->mnt_id != mnt_id)) &&
		    !(p = append(m, mntns, path)))
			return false;
	}
	p->copied = false;
	p->cut = false;
	p->type = type;
	p->inum = inum;
	p->mnt_id = mnt_id;
	p->mnt_unique = mnt_unique;
	p->exact = mnt_unique != 0;
	return true;
}

static void remove_at(struct mounttab *m, size_t i)
{
	free(m->v[i].path);
	m->v[i] = m->v[--m->n];
}

bool mounttab_remove(struct mounttab *m, uint32_t mntns, const char *path, int *type,
		     uint32_t *inum)
{
	struct mount_pin *p = find(m, mntns, path);

	if (!p)
		return false;
	*type = p->type;
	*inum = p->inum;
	remove_at(m, (size_t)(p - m->v));
	return true;
}

bool mounttab_remove_id(struct mounttab *m, uint32_t mntns, uint32_t mnt_id, uint64_t mnt_unique,
			int *type, uint32_t *inum, char **path)
{
	struct mount_pin *p = find_id(m, mntns, mnt_id, mnt_unique);

	if (!p)
		return false;
	*type = p->type;
	*inum = p->inum;
	if (path) {
		*path = p->path;
		p->path = NULL;
	}
	remove_at(m, (size_t)(p - m->v));
	return true;
}

/* "src/rest" -> "dst/rest"; NULL if path is not below src */
static char *rebase(const char *path, const char *src, const char *dst)
{
	size_t sl = strlen(src);
	char *out;

	if (strncmp(path, src, sl) || path[sl] != '/')
		return NULL;
	if (asprintf(&out, "%s%s", dst, path + sl) < 0)
		return NULL;
	return out;
}

bool mounttab_move(struct mounttab *m, uint32_t mntns, const char *src, const char *dst, int *type,
		   uint32_t *inum, size_t *below)
{
	struct mount_pin *p;
	bool self = false;
	size_t i;
	char *np;

	*below = 0;
	if (!strcmp(src, dst))
		return false;
	/* whatever was at dst is covered, not removed: the kernel keeps it */
	for (i = 0; i < m->n; i++) {
		p = &m->v[i];
		if (p->mntns != mntns)
			continue;
		if (!strcmp(p->path, src)) {
			np = strdup(dst);
			if (!np)
				continue;
			free(p->path);
			p->path = np;
			*type = p->type;
			*inum = p->inum;
			self = true;
		} else if ((np = rebase(p->path, src, dst))) {
			free(p->path);
			p->path = np;
			(*below)++;
		}
	}
	return self;
}

void mounttab_mark_cut(struct mounttab *m, uint32_t mntns, uint32_t mnt_id, uint64_t mnt_unique)
{
	struct mount_pin *p = find_id(m, mntns, mnt_id, mnt_unique);

	if (p)
		p->cut = true;
}

void mounttab_copy_ns(struct mounttab *m, uint32_t from, uint32_t to)
{
	struct mount_pin *p;
	size_t i, n = m->n;

	if (from == to)
		return;
	for (i = 0; i < n; i++) {
		if (m->v[i].mntns != from)
			continue;
		/* what the new namespace already has was learned first-hand (its
		 * record can come before the unshare's): not overwritten */
		if (m->v[i].cut) { /* the copy's path is cut as well */
			p = append(m, to, m->v[i].path);
			if (p) {
				p->type = m->v[i].type;
				p->inum = m->v[i].inum;
				p->copied = p->cut = true;
			}
			continue;
		}
		if (find(m, to, m->v[i].path))
			continue;
		if (mounttab_add(m, to, m->v[i].path, m->v[i].type, m->v[i].inum))
			find(m, to, m->v[i].path)->copied = true;
	}
}

size_t mounttab_drop_ns(struct mounttab *m, uint32_t mntns,
			void (*fn)(void *ctx, const struct mount_pin *p), void *ctx)
{
	size_t i = 0, dropped = 0;

	while (i < m->n) {
		/* pins the kernel side tracks go when it says so, not on a guess */
		if (m->v[i].mntns != mntns || m->v[i].exact) {
			i++;
			continue;
		}
		if (fn)
			fn(ctx, &m->v[i]);
		remove_at(m, i);
		dropped++;
	}
	return dropped;
}

bool mounttab_has_ns(const struct mounttab *m, uint32_t mntns)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->v[i].mntns == mntns)
			return true;
	return false;
}
