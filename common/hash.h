/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* hash.h - 64-bit FNV-1a: cheap, well-spread keys for fixed-size caches. */
#ifndef NSAUDIT_HASH_H
#define NSAUDIT_HASH_H

#include <stdint.h>

#define FNV64_OFFSET_BASIS 0xcbf29ce484222325ULL
#define FNV64_PRIME 0x100000001b3ULL

/* h with the bytes of s (NULL: none) folded in */
static inline uint64_t fnv64_str(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * FNV64_PRIME;
	return h;
}

#endif
