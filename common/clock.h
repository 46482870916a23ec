/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * clock.h - every clock nsaudit reads, as nanoseconds: the one place a
 * clock is read, so that each use names which clock it means.
 */
#ifndef NSAUDIT_CLOCK_H
#define NSAUDIT_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000LL
#define NSEC_PER_MSEC 1000000LL

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
/*
 * CLOCK_BOOTTIME: the clock of the kernel's records (bpf_ktime_get_boot_ns)
 * and of /proc's start times; what a record user space makes is dated by.
 */
int64_t boot_ns(void);
/* CLOCK_REALTIME: wall time, for what a person reads and for deadlines. */
int64_t realtime_ns(void);
/* ns as a struct timespec (for pthread_cond_timedwait and the like). */
struct timespec ns_to_timespec(int64_t ns);

#endif
