/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * log_test.h - what only the unit tests use of the log writer: fault
 * injection (a full disk cannot be made on demand everywhere, so the
 * writer's write(2) can be replaced; NULL, the default, is the real
 * write(2)), and a look at its state.
 */
#ifndef NSAUDIT_AUDIT_LOG_TEST_H
#define NSAUDIT_AUDIT_LOG_TEST_H

#include <stdint.h>
#include <sys/types.h>

extern ssize_t (*audit_log_write_fn)(int fd, const void *buf, size_t n);

struct audit_log;
uint64_t audit_log_next_seq(const struct audit_log *l);
unsigned int audit_log_segment(const struct audit_log *l);
uint64_t audit_log_suspended(const struct audit_log *l); /* records dropped so far */

#endif
