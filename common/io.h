/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* io.h - whole writes: what a short write(2) or a signal leaves to the caller. */
#ifndef NSAUDIT_IO_H
#define NSAUDIT_IO_H

#include <stddef.h>

/* Write all n bytes of buf to fd, again after EINTR and short writes: 0, or -1 with errno. */
int write_all(int fd, const void *buf, size_t n);

#endif
