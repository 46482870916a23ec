// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* io.c - whole writes (see io.h). */
#include <errno.h>
#include <unistd.h>

#include "io.h"

int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
