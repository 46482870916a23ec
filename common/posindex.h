/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * posindex.h - a hash index over the positions of an array the caller
 * owns, so that "the first element with this key" is found without a
 * walk of the whole array. The caller hashes its keys and says what
 * matches; the index keeps (hash, position) pairs only.
 *
 * Why not a package: glibc's hsearch cannot grow or forget, tsearch's
 * comparator has no context to reach the array, and the tables it serves
 * (mount tables: mounttab.c, nsnames_scan.c) change by swap-removal and
 * in-place edits, for which the simplest correct thing is "rebuild on the
 * next look-up": posindex_stale() then posindex_sync().
 */
#ifndef NSAUDIT_POSINDEX_H
#define NSAUDIT_POSINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct posindex {
	uint64_t *slot;	/* hash << 32 | (position + 1); 0: empty */
	size_t cap;	/* a power of two, or 0 */
	size_t done;	/* positions [0, done) are in the index */
	bool stale;	/* an indexed element changed its key or moved */
};

/* hash(ctx, pos): the key hash of element pos of the caller's array */
typedef uint32_t (*posindex_hash_fn)(const void *ctx, size_t pos);
/* match(ctx, pos, key): element pos has the key looked for */
typedef bool (*posindex_match_fn)(const void *ctx, size_t pos, const void *key);

void posindex_free(struct posindex *x);
/* Every indexed position may be wrong now: rebuilt at the next sync. */
static inline void posindex_stale(struct posindex *x)
{
	x->stale = true;
}
/* An element at position < pos changed its key or moved (swap removal). */
static inline void posindex_touch(struct posindex *x, size_t pos)
{
	if (pos < x->done)
		x->stale = true;
}
/*
 * Bring the index up to the array's n elements (rebuilt if stale, else the
 * appended ones added). false on allocation failure: the caller walks.
 */
bool posindex_sync(struct posindex *x, size_t n, posindex_hash_fn hash, const void *ctx);
/* The lowest position with this key (hash h), or -1. Only after a sync. */
long posindex_find(const struct posindex *x, uint32_t h, posindex_match_fn match,
		   const void *ctx, const void *key);
/* FNV-1a of a string, then of a number, for keys made of both. */
uint32_t posindex_hash_str(uint32_t h, const char *s);
uint32_t posindex_hash_u64(uint32_t h, uint64_t v);
#define POSINDEX_HASH_INIT 2166136261u

#endif
