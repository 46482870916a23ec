/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* array.h - arrays that grow, and the length of a fixed one. */
#ifndef NSAUDIT_ARRAY_H
#define NSAUDIT_ARRAY_H

#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Make room for at least need elements of size bytes in *v, whose
 * capacity is *cap: grows geometrically (from 16), so n appends cost
 * O(n). 0, or -1 with errno ENOMEM and *v, *cap unchanged.
 */
int array_reserve(void **v, size_t *cap, size_t need, size_t size);

/* array_reserve for a typed pointer: ARRAY_RESERVE(&list->v, &list->cap, n + 1). */
#define ARRAY_RESERVE(pv, pcap, need) \
	array_reserve((void **)(pv), (pcap), (need), sizeof(**(pv)))

#endif
