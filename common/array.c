// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* array.c - arrays that grow (see array.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "array.h"

#define ARRAY_FIRST_CAP 16

int array_reserve(void **v, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : ARRAY_FIRST_CAP;
	void *nv;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			goto nomem;
		ncap *= 2;
	}
	if (size && ncap > SIZE_MAX / size)
		goto nomem;
	nv = realloc(*v, ncap * size);
	if (!nv)
		goto nomem;
	*v = nv;
	*cap = ncap;
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}
