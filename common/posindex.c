// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* posindex.c - a hash index over an array's positions (see posindex.h). */
#include <stdlib.h>
#include <string.h>

#include "posindex.h"

void posindex_free(struct posindex *x)
{
	free(x->slot);
	memset(x, 0, sizeof(*x));
}

static void put(uint64_t *slot, size_t cap, uint32_t h, size_t pos)
{
	size_t i = h & (cap - 1);

	while (slot[i])
		i = (i + 1) & (cap - 1);
	slot[i] = (uint64_t)h << 32 | (uint64_t)(pos + 1);
}

bool posindex_sync(struct posindex *x, size_t n, posindex_hash_fn hash, const void *ctx)
{
	size_t cap = x->cap ? x->cap : 64, from = x->done;

	if (n > UINT32_MAX - 1)
		return false;
	while (cap < 2 * n)	/* at most half full: short probes */
		cap *= 2;
	if (x->stale || n < x->done || cap != x->cap) {
		uint64_t *s = calloc(cap, sizeof(*s));

		if (!s)
			return false;
		free(x->slot);
		x->slot = s;
		x->cap = cap;
		from = 0;
		/* a rebuild after a change re-hashes every element */
		x->stale = false;
	}
	for (size_t pos = from; pos < n; pos++)
		put(x->slot, x->cap, hash(ctx, pos), pos);
	x->done = n;
	return true;
}

long posindex_find(const struct posindex *x, uint32_t h, posindex_match_fn match,
		   const void *ctx, const void *key)
{
	long best = -1;

	if (!x->cap)
		return -1;
	/* equal keys share a hash, so all of them lie on this probe run */
	for (size_t i = h & (x->cap - 1); x->slot[i]; i = (i + 1) & (x->cap - 1)) {
		size_t pos = (size_t)(x->slot[i] & 0xffffffffu) - 1;

		if ((uint32_t)(x->slot[i] >> 32) == h && (best < 0 || (long)pos < best) &&
		    match(ctx, pos, key))
			best = (long)pos;
	}
	return best;
}

uint32_t posindex_hash_str(uint32_t h, const char *s)
{
	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

uint32_t posindex_hash_u64(uint32_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8) {
		h ^= (uint32_t)(v & 0xff);
		h *= 16777619u;
	}
	return h;
}
