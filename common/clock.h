/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* clock.h - a clock read as nanoseconds, the unit records and timeouts use. */
#ifndef NSAUDIT_CLOCK_H
#define NSAUDIT_CLOCK_H

#include <stdint.h>
#include <time.h>

/* clock_gettime(c) in nanoseconds. */
int64_t clock_ns(clockid_t c);
/* CLOCK_MONOTONIC: for intervals, retries and caches. */
int64_t now_ns(void);

#endif
