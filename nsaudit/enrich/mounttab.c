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
	posindex_free(&m->by_path);
	posindex_free(&m->by_id);
	mounttab_init(m);
}

static uint32_t path_hash(uint32_t mntns, const char *path)
{
	return posindex_hash_str(posindex_hash_u64(POSINDEX_HASH_INIT, mntns), path);
}

/* the id key: mnt_unique for an exact pin, else (mntns, mnt_id) */
static uint32_t id_hash(uint32_t mntns, uint32_t mnt_id, uint64_t mnt_unique)
{
	if (mnt_unique)
		return posindex_hash_u64(posindex_hash_u64(POSINDEX_HASH_INIT, 1), mnt_unique);
	return posindex_hash_u64(posindex_hash_u64(posindex_hash_u64(POSINDEX_HASH_INIT, 2), mntns),
				 mnt_id);
}

static uint32_t pos_path_hash(const void *ctx, size_t pos)
{
	const struct mount_pin *p = &((const struct mounttab *)ctx)->v[pos];

	return path_hash(p->mntns, p->path);
}

static uint32_t pos_id_hash(const void *ctx, size_t pos)
{
	const struct mount_pin *p = &((const struct mounttab *)ctx)->v[pos];

	return id_hash(p->mntns, p->mnt_id, p->mnt_unique);
}

/* Element pos changed in place: its index entries follow if its keys moved. */
static void rekey(struct mounttab *m, size_t pos, uint32_t old_path, uint32_t old_id)
{
	if (pos_path_hash(m, pos) != old_path)
		posindex_touch(&m->by_path, pos);
	if (pos_id_hash(m, pos) != old_id)
		posindex_touch(&m->by_id, pos);
}

struct path_key {
	uint32_t mntns;
	const char *path;
};

static bool path_match(const void *ctx, size_t pos, const void *key)
{
	const struct mount_pin *p = &((const struct mounttab *)ctx)->v[pos];
	const struct path_key *k = key;

	/* a cut path is never matched (it may be another mount's whole path) */
	return p->mntns == k->mntns && !p->cut && !strcmp(p->path, k->path);
}

/*
 * The first pin at (mntns, path). The index is a cache of the table, so a
 * const table's is brought up to date too; without memory for it, a walk.
 * A namespace with 10,000 pins made every mountinfo read O(n^2) (seconds
 * of start-up CPU with one user's pins held).
 */
static struct mount_pin *find(const struct mounttab *m, uint32_t mntns, const char *path)
{
	struct mounttab *mm = (struct mounttab *)m;
	struct path_key k = { mntns, path };
	size_t i;
	long at;

	if (posindex_sync(&mm->by_path, m->n, pos_path_hash, m)) {
		at = posindex_find(&m->by_path, path_hash(mntns, path), path_match, m, &k);
		return at < 0 ? NULL : &mm->v[at];
	}
	for (i = 0; i < m->n; i++)
		if (path_match(m, i, &k))
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

struct id_key {
	uint32_t mntns, mnt_id;
	uint64_t mnt_unique;
};

static bool id_match(const void *ctx, size_t pos, const void *key)
{
	const struct mount_pin *p = &((const struct mounttab *)ctx)->v[pos];
	const struct id_key *k = key;

	return k->mnt_unique ? p->mnt_unique == k->mnt_unique
			     : p->mntns == k->mntns && p->mnt_id == k->mnt_id && !p->mnt_unique;
}

/* Inodes and mount ids are reused: an exact pin is found by mnt_unique. */
static struct mount_pin *find_id(struct mounttab *m, uint32_t mntns, uint32_t mnt_id,
				 uint64_t mnt_unique)
{
	struct id_key k = { mntns, mnt_id, mnt_unique };
	size_t i;
	long at;

	if (!mnt_id && !mnt_unique)
		return NULL;
	if (posindex_sync(&m->by_id, m->n, pos_id_hash, m)) {
		at = posindex_find(&m->by_id, id_hash(mntns, mnt_id, mnt_unique), id_match, m, &k);
		return at < 0 ? NULL : &m->v[at];
	}
	for (i = 0; i < m->n; i++)
		if (id_match(m, i, &k))
			return &m->v[i];
	return NULL;
}

bool mounttab_add_id(struct mounttab *m, uint32_t mntns, const char *path, int type,
		     uint32_t inum, uint32_t mnt_id, uint64_t mnt_unique)
{
	struct mount_pin *p = find_id(m, mntns, mnt_id, mnt_unique);
	uint32_t old_path = 0, old_id = 0;
	char *np;

	if (p) {	/* the same mount: moved (or seen again) */
		old_path = pos_path_hash(m, (size_t)(p - m->v));
		old_id = pos_id_hash(m, (size_t)(p - m->v));
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
		old_path = pos_path_hash(m, (size_t)(p - m->v));
		old_id = pos_id_hash(m, (size_t)(p - m->v));
	}
	p->copied = false;
	p->cut = false;
	p->type = type;
	p->inum = inum;
	p->mnt_id = mnt_id;
	p->mnt_unique = mnt_unique;
	p->exact = mnt_unique != 0;
	rekey(m, (size_t)(p - m->v), old_path, old_id);
	return true;
}

static void remove_at(struct mounttab *m, size_t i)
{
	free(m->v[i].path);
	m->v[i] = m->v[--m->n];
	posindex_stale(&m->by_path);	/* the last element moved to i */
	posindex_stale(&m->by_id);
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
			posindex_touch(&m->by_path, i);
			*type = p->type;
			*inum = p->inum;
			self = true;
		} else if ((np = rebase(p->path, src, dst))) {
			free(p->path);
			p->path = np;
			posindex_touch(&m->by_path, i);
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

void mounttab_mark_copied(struct mounttab *m, uint32_t mntns, uint32_t mnt_id)
{
	struct mount_pin *p = find_id(m, mntns, mnt_id, 0);

	if (p)
		p->copied = true;
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
