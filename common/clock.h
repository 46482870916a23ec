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
/*
 * CLOCK_MONOTONIC_COARSE: the last tick's time (a few ms of resolution),
 * read from the vDSO page without a clock read. For the TTLs and rate
 * limits the recorder checks several times per record (namespace and
 * container names), where a precise read is ~3-5 % of the recorder's CPU.
 * Never mix it with now_ns() in one comparison.
 */
int64_t now_coarse_ns(void);

#endif
