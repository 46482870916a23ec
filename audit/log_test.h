/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * log_test.h - fault injection for the unit tests: a full disk cannot be
 * made on demand everywhere, so the writer's write(2) can be replaced.
 * NULL (the default) is the real write(2).
 */
#ifndef NSAUDIT_AUDIT_LOG_TEST_H
#define NSAUDIT_AUDIT_LOG_TEST_H

#include <sys/types.h>

extern ssize_t (*audit_log_write_fn)(int fd, const void *buf, size_t n);

#endif
